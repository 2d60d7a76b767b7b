//! The formatter behind `mettle fmt`: one canonical layout for rulesets, keeping every comment.
//!
//! The style, in short (docs/editors.md has it at length):
//! - two spaces of indentation per open bracket; a line that continues an entry (an item, statement,
//!   check line, field, rung or table row) broken over lines is indented one more level, except
//!   inside `( )`, `[ ]` and data maps;
//! - each item, statement and check line starts its own line; a `{ … }` of them stays on one line
//!   only if it was written so and holds one statement and no other `{ … }`, else `{` ends its line
//!   and `}` has a line of its own; `} else {`, `} otherwise {` and `} until` stay on the `}` line;
//! - fields, rungs and table rows may share a line, two spaces apart (one after a comma); table rows
//!   one to a line have their values lined up after the longest row's `:`;
//! - single spaces around operators, `=`, `->` and `|`; none inside `( )`, `[ ]` and data maps, none
//!   around `.`, the `..` of a range between numbers, and the `/` of a chance;
//! - blank lines are kept but never more than one in a row, and never right after `{` or before `}`;
//! - lines are not broken or joined for length: a long line stays where its author put the breaks;
//! - comments stay where they are (at a line's end, or on a line of their own, indented as the line
//!   after them); trailing whitespace goes, and the file ends with one line break.
//!
//! Strings, dice such as `3d6kh2` and script bodies are copied exactly as written.
//!
//! ```
//! let messy = "kind unit{spi:0..6=3\n\n\n   morale : steady|shaken=steady}\non hit{set unit.spi to 1 note \"hit\"}";
//! let tidy = mettle::fmt::format(messy).unwrap();
//! assert_eq!(
//!     tidy,
//!     "kind unit {\n  spi: 0..6 = 3\n\n  morale: steady | shaken = steady\n}\non hit {\n  set unit.spi to 1\n  note \"hit\"\n}\n"
//! );
//! assert_eq!(mettle::fmt::format(&tidy).unwrap(), tidy);
//! ```

mod diff;
mod layout;

use crate::ast::Span;
use crate::diagnostics::{Code, Diagnostic};
use crate::syntax;

pub use diff::unified_diff;

/// Formats a ruleset's text in the canonical style.
///
/// Text that does not parse is not formatted: the error is the parser's diagnostics (the same ones
/// `mettle check` shows). The result always parses to the same ruleset as the input; should the
/// formatter ever get that wrong, it returns a `mettle::fmt::changed_meaning` diagnostic instead of
/// text.
pub fn format(source: &str) -> Result<String, Vec<Diagnostic>> {
    let text = syntax::normalize(source);
    let (before, diags) = syntax::parse(&text);
    if diags.iter().any(Diagnostic::is_error) {
        return Err(diags);
    }
    let tokens = syntax::tokens(&text)?;
    let out = layout::layout(&text, &tokens).map_err(|at| {
        vec![
            Diagnostic::error(
                Code::FmtUnknownText.path(),
                "the formatter does not know this text",
                Span::new(at, at + text[at..].chars().next().map_or(0, char::len_utf8)),
                "not a token, whitespace or a comment",
            )
            .with_help(
                "this is a bug in `mettle fmt`: please report it with the file; the file was left as it is",
            ),
        ]
    })?;
    // Doc lines lose their trailing whitespace; compare with a ruleset whose doc lines have lost it too.
    let reference = if tokens.iter().any(|t| t.kind == syntax::TokenKind::Doc) {
        let mut trimmed = String::with_capacity(text.len());
        let mut at = 0;
        for t in tokens.iter().filter(|t| t.kind == syntax::TokenKind::Doc) {
            trimmed.push_str(&text[at..t.span.start]);
            trimmed.push_str(text[t.span.start..t.span.end].trim_end());
            at = t.span.end;
        }
        trimmed.push_str(&text[at..]);
        syntax::parse(&trimmed).0
    } else {
        before
    };
    let (after, errors) = syntax::parse(&out);
    if errors.iter().any(Diagnostic::is_error) || shape(&after) != shape(&reference) {
        let first = text.len() - text.trim_start().len();
        return Err(vec![
            Diagnostic::error(
                Code::FmtChangedMeaning.path(),
                "formatting would change what this ruleset means",
                Span::new(first, first),
                "the ruleset starts here",
            )
            .with_help(
                "this is a bug in `mettle fmt`: please report it with the file; the file was left as it is",
            ),
        ]);
    }
    Ok(out)
}

/// Whether `source` is already formatted (and parses).
pub fn is_formatted(source: &str) -> Result<bool, Vec<Diagnostic>> {
    Ok(format(source)? == source)
}

/// A syntax tree printed without its spans: equal for two texts that differ only in layout.
fn shape(file: &crate::ast::File) -> String {
    strip_spans(&format!("{file:?}"))
}

/// Removes every `Span { start: …, end: … }` from a debug print.
fn strip_spans(debug: &str) -> String {
    const OPEN: &str = "Span { start: ";
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug;
    while let Some(at) = rest.find(OPEN) {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        match after.find('}') {
            Some(close) => rest = &after[close + 1..],
            None => {
                rest = after;
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_are_left_out() {
        assert_eq!(
            strip_spans("Name { text: \"a\", span: Span { start: 1, end: 2 } }"),
            "Name { text: \"a\", span:  }"
        );
    }

    #[test]
    fn unparseable_text_gives_the_parse_error() {
        let err = format("kind unit { spi 0..6 }").unwrap_err();
        assert_eq!(err[0].message, "expected `:`, found `0`");
    }

    #[test]
    fn empty_and_comment_only_texts() {
        assert_eq!(format("").unwrap(), "");
        assert_eq!(format("\n\n  \n").unwrap(), "");
        assert_eq!(
            format("  // only a comment   \n\n\n// another\n").unwrap(),
            "// only a comment\n\n// another\n"
        );
    }
}
