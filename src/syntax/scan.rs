//! Quick lexical scans that run without pest: bracket depth, open brackets, top-level chunks.

use crate::ast::Span;
use crate::diagnostics::Diagnostic;

/// The length of `text` without the whitespace and comments at its end. (pest's spans of
/// non-atomic rules can end with the whitespace skipped before a repetition that then failed.)
pub(super) fn trimmed_len(text: &str) -> usize {
    if !(text.ends_with(|c: char| c.is_ascii_whitespace()) || text.contains("//")) {
        return text.len();
    }
    let bytes = text.as_bytes();
    let (mut i, mut end) = (0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += 1;
                }
                i = (i + 1).min(bytes.len());
                end = i;
            }
            _ => {
                i += 1;
                end = i;
            }
        }
    }
    end
}

/// The deepest bracket nesting accepted: `(`, `[` and `{` together.
pub(super) const MAX_NESTING: usize = 64;

/// Calls `f(offset, byte)` for each bracket outside strings and `//` comments, stopping early when
/// `f` returns false. Returns whether the text ends inside a string.
fn each_bracket(text: &str, mut f: impl FnMut(usize, u8) -> bool) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            // Strings cannot span lines.
            if b == b'"' || b == b'\n' {
                in_string = false;
            }
        } else if b == b'"' {
            in_string = true;
        } else if b == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        } else if matches!(b, b'(' | b'[' | b'{' | b')' | b']' | b'}') && !f(i, b) {
            return false;
        }
        i += 1;
    }
    in_string
}

fn is_open(b: u8) -> bool {
    matches!(b, b'(' | b'[' | b'{')
}

/// The closing bracket for an opening one.
pub(super) fn closer(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        _ => b'}',
    }
}

/// A `parse::too_deep` error at the first bracket nested deeper than [`MAX_NESTING`], if any.
/// `offset` is added to the spans.
pub(super) fn too_deep(text: &str, offset: usize) -> Option<Diagnostic> {
    let mut depth = 0usize;
    let mut at = None;
    each_bracket(text, |i, b| {
        if is_open(b) {
            depth += 1;
            if depth > MAX_NESTING {
                at = Some(i);
                return false;
            }
        } else {
            depth = depth.saturating_sub(1);
        }
        true
    });
    at.map(|i| {
        let span = Span::new(offset + i, offset + i + 1);
        Diagnostic::error(
            "parse::too_deep",
            format!("brackets are nested more than {MAX_NESTING} deep"),
            span,
            format!("this bracket is {} deep", MAX_NESTING + 1),
        )
        .with_help("split this into smaller expressions or let-bindings")
    })
}

/// Every bracket outside strings and comments, as (offset, bracket).
pub(super) fn brackets(text: &str) -> Vec<(usize, u8)> {
    let mut out = Vec::new();
    each_bracket(text, |i, b| {
        out.push((i, b));
        true
    });
    out
}

/// The brackets still open at the end of `text`, outermost first, as (offset, bracket).
pub(super) fn open_brackets(text: &str) -> Vec<(usize, u8)> {
    let mut stack = Vec::new();
    each_bracket(text, |i, b| {
        if is_open(b) {
            stack.push((i, b));
        } else {
            // A stray closer closes whatever is open, as pest would fail there anyway.
            stack.pop();
        }
        true
    });
    stack
}

/// Whether the text ends inside an open `{`, `(`, `[` or string.
pub(super) fn is_incomplete(text: &str) -> bool {
    let (depth, in_string) = open_after(text, 0);
    in_string || depth > 0
}

/// The depth of open brackets after `text`, read from `depth`, and whether it ends inside a string.
/// Strings and comments end at a line break, so a text read a line at a time is measured line by
/// line, each line from the depth the one before left.
pub(super) fn open_after(text: &str, mut depth: usize) -> (usize, bool) {
    let in_string = each_bracket(text, |_, b| {
        if is_open(b) {
            depth += 1;
        } else {
            depth = depth.saturating_sub(1);
        }
        true
    });
    (depth, in_string)
}

/// The first word of a line, if it starts a top-level item (or the header): recovery splits the text
/// before it.
fn top_level_word(line: &str) -> Option<&str> {
    let end = line.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(line.len());
    let word = &line[..end];
    super::words::has_role(word, super::words::role::ITEM).then_some(word)
}

/// Splits the text into byte ranges that each hold (at most) a top-level item and the doc comment
/// before it, for error recovery. A chunk starts at a line whose first word is a top-level keyword,
/// or at a `///` line, when no bracket is open; a top-level keyword at the very start of a line
/// also starts one inside brackets (no item can contain one there, so a `}` must be missing).
pub(super) fn chunks(text: &str) -> Vec<(usize, usize)> {
    let mut starts = vec![0];
    let mut depth = 0usize;
    // Whether the current chunk holds nothing but doc comments, comments and blank lines so far:
    // the doc comments then belong to the item that follows.
    let mut docs_only = true;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let is_doc = trimmed.starts_with("///");
        let is_top = top_level_word(trimmed).is_some() && (depth == 0 || indent == 0);
        if is_top || (is_doc && depth == 0) {
            if is_top {
                depth = 0;
            }
            if !docs_only {
                starts.push(at);
            }
            docs_only = is_doc;
        } else if !(trimmed.is_empty() || trimmed.starts_with("//")) {
            docs_only = false;
        }
        each_bracket(line, |_, b| {
            if is_open(b) {
                depth += 1;
            } else {
                depth = depth.saturating_sub(1);
            }
            true
        });
        at += line.len();
    }
    let mut ranges: Vec<(usize, usize)> = starts.windows(2).map(|w| (w[0], w[1])).collect();
    ranges.push((starts[starts.len() - 1], text.len()));
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk_texts(text: &str) -> Vec<&str> {
        chunks(text).into_iter().map(|(s, e)| &text[s..e]).collect()
    }

    #[test]
    fn trims_trailing_trivia() {
        assert_eq!(trimmed_len("a + 1 \n // x\n "), 5);
        assert_eq!(trimmed_len("note \"// x\" "), 11);
        assert_eq!(trimmed_len("é"), 2);
    }

    #[test]
    fn depth_ignores_strings_and_comments() {
        let deep = "(".repeat(70);
        assert!(too_deep(&format!("note \"{deep}\"\n// {deep}\n"), 0).is_none());
        assert!(too_deep(&deep, 0).is_some_and(|d| d.span() == Span::new(64, 65)));
    }

    #[test]
    fn incomplete_inputs() {
        assert!(is_incomplete("kind a {"));
        assert!(is_incomplete("note \"abc"));
        assert!(is_incomplete("x + (1"));
        assert!(!is_incomplete("kind a { } // {"));
        assert!(!is_incomplete("note \"{\""));
        assert!(!is_incomplete("x)"));
    }

    #[test]
    fn chunks_keep_docs_with_items() {
        let text = "/// a\n/// b\nkind a { x: int }\n\n// c\nresult w\n/// d\non e {\n  kind\n}\n";
        assert_eq!(
            chunk_texts(text),
            ["/// a\n/// b\nkind a { x: int }\n\n// c\n", "result w\n", "/// d\non e {\n  kind\n}\n"]
        );
    }

    #[test]
    fn chunks_split_at_unindented_keywords_inside_brackets() {
        assert_eq!(chunk_texts("kind a {\n  x: int\nkind b { }\n"), ["kind a {\n  x: int\n", "kind b { }\n"]);
        assert_eq!(chunk_texts("on a {\n  on b\n}"), ["on a {\n  on b\n}"]);
    }
}
