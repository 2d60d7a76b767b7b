//! The entry points: a whole ruleset, a REPL line, and whether a REPL line is still open.

use super::build::Builder;
use super::errors::SyntaxError;
use super::scan;
use crate::ast::{Expr, File, Item, Stmt};
use crate::diagnostics::Diagnostic;
use pest::Parser;
use pest::iterators::Pairs;

pub(super) use mettle_grammar::{MettleParser, Rule};

/// What a line typed at the REPL turned out to be.
#[derive(Debug, Clone)]
pub enum ReplInput {
    /// Definitions such as `kind unit { spi: 0..6 }` (possibly none, for a blank line).
    Items(Vec<Item>),
    /// Statements such as `set y.spi to 2`.
    Stmts(Vec<Stmt>),
    /// One expression such as `2d6 + 1`.
    Expr(Expr),
}

/// Parses a whole ruleset. Returns the syntax tree and every syntax error found (empty when clean).
///
/// When the text does not parse, each top-level item is parsed on its own so that every broken item
/// is reported and the items that do parse are still returned.
///
/// ```
/// let (file, errors) = mettle::internals::syntax::parse("ruleset \"Demo\"\nkind unit { spi: 0..6 = 3 }");
/// assert!(errors.is_empty());
/// assert_eq!(file.title.unwrap().0, "Demo");
/// assert_eq!(file.items.len(), 1);
///
/// let (_, errors) = mettle::internals::syntax::parse("kind unit { spi 0..6 }");
/// assert_eq!(errors[0].message, "expected `:`, found `0`");
/// ```
pub fn parse(text: &str) -> (File, Vec<Diagnostic>) {
    let text = match screened(text) {
        Ok(text) => text,
        Err(diags) => return (File::default(), diags),
    };
    let text = &*text;
    match MettleParser::parse(Rule::file, text) {
        Ok(pairs) => {
            let builder = Builder::new(0);
            let file = builder.file(single(pairs));
            (file, builder.finish())
        }
        Err(err) => recover(text, SyntaxError::new(err, 0)),
    }
}

/// A text ready for the parser: line endings and the like normalised, and refused (with the
/// diagnostics) when it nests too deep or holds characters the language does not take.
fn screened(text: &str) -> Result<std::borrow::Cow<'_, str>, Vec<Diagnostic>> {
    let text = super::chars::normalize(text);
    if let Some(diag) = scan::too_deep(&text, 0) {
        return Err(vec![diag]);
    }
    let odd = super::chars::odd_characters(&text, 0);
    if !odd.is_empty() {
        return Err(odd);
    }
    Ok(text)
}

/// Parses each top-level chunk of a text that failed to parse as a whole.
fn recover(text: &str, whole: SyntaxError) -> (File, Vec<Diagnostic>) {
    let mut file = File::default();
    let mut syntax = Vec::new();
    let mut others = Vec::new();
    for (i, (start, end)) in scan::chunks(text).into_iter().enumerate() {
        match MettleParser::parse(Rule::file, &text[start..end]) {
            Ok(pairs) => {
                let pair = single(pairs);
                let header = pair.clone().into_inner().find(|p| p.as_rule() == Rule::header);
                let builder = Builder::new(start);
                let chunk = builder.file(pair);
                match (chunk.title, header) {
                    (Some(title), _) if i == 0 => file.title = Some(title),
                    // A header after an item: report it as the whole parse would have.
                    (_, Some(header)) => {
                        let at = header.into_inner().find(|p| p.as_rule() == Rule::kw_ruleset);
                        let at = at.map_or(0, |p| p.as_span().start());
                        syntax.push(SyntaxError::expected_at(start + at, start, vec![Rule::item, Rule::EOI]));
                    }
                    _ => {}
                }
                file.items.extend(chunk.items);
                others.extend(builder.finish());
            }
            Err(err) => {
                syntax.push(SyntaxError::new(err, start).ending_at(end));
                // Keep the chunk's item if it parses, with something wrong after it.
                let chunk = &text[start..end];
                let skip = chunk.len() - chunk.trim_start().len();
                if let Ok(pairs) = MettleParser::parse(Rule::item, &chunk[skip..]) {
                    let builder = Builder::new(start + skip);
                    file.items.push(builder.item(single(pairs)));
                    others.extend(builder.finish());
                }
            }
        }
    }
    if syntax.is_empty() {
        // The chunks parse on their own but not together; report what the whole parse found.
        syntax.push(whole);
    }
    let mut diags: Vec<Diagnostic> = syntax.iter().map(|e| e.to_diagnostic(text)).collect();
    diags.extend(others);
    diags.sort_by_key(|d| d.span().start);
    (file, diags)
}

/// The one pair of a successful parse of an entry rule.
fn single(mut pairs: Pairs<'_, Rule>) -> pest::iterators::Pair<'_, Rule> {
    pairs.next().unwrap_or_else(|| unreachable!("a successful parse yields its entry rule"))
}

/// Parses a line typed at the REPL: top-level items if it is one, else statements, else one
/// expression. On failure, reports the error of the reading that got furthest.
///
/// ```
/// use mettle::internals::syntax::{ReplInput, parse_repl};
/// assert!(matches!(parse_repl("kind unit { spi: 0..6 }"), Ok(ReplInput::Items(_))));
/// assert!(matches!(parse_repl("set y.spi to 2"), Ok(ReplInput::Stmts(_))));
/// assert!(matches!(parse_repl("2d6 + 1"), Ok(ReplInput::Expr(_))));
/// assert_eq!(parse_repl("2d6 +").unwrap_err()[0].message, "expected an expression, found end of file");
/// ```
pub fn parse_repl(text: &str) -> Result<ReplInput, Vec<Diagnostic>> {
    let text = &*screened(text)?;
    let mut furthest: Option<SyntaxError> = None;
    for rule in [Rule::repl_items, Rule::repl_stmts, Rule::repl_expr] {
        let pairs = match MettleParser::parse(rule, text) {
            Ok(pairs) => pairs,
            Err(err) => {
                let err = SyntaxError::new(err, 0);
                furthest = Some(match furthest {
                    Some(f) => f.furthest(err),
                    None => err,
                });
                continue;
            }
        };
        let builder = Builder::new(0);
        let pair = single(pairs);
        let input = match rule {
            Rule::repl_items => ReplInput::Items(builder.file(pair).items),
            Rule::repl_stmts => ReplInput::Stmts(
                pair.into_inner().filter(|p| p.as_rule() == Rule::stmt).map(|s| builder.stmt(s)).collect(),
            ),
            _ => ReplInput::Expr(builder.expr(super::build::Kids::of(pair).get(Rule::expr))),
        };
        let errors = builder.finish();
        return if errors.is_empty() { Ok(input) } else { Err(errors) };
    }
    let err = furthest.unwrap_or_else(|| unreachable!("every reading failed, so there is an error"));
    Err(vec![err.to_diagnostic(text)])
}

/// Like [`parse_repl`] for a line that sits at byte `base` of a longer text (the REPL's lines sit
/// after the ruleset): the spans are those of `parse_repl` on the line padded with `base` spaces,
/// without reading the padding. A line that does not parse is parsed padded, for the same message.
///
/// ```
/// use mettle::internals::syntax::{ReplInput, parse_repl_at};
/// let Ok(ReplInput::Stmts(s)) = parse_repl_at("set y.spi to 2", 100) else { panic!() };
/// assert_eq!(s[0].span.start, 100);
/// ```
#[doc(hidden)]
pub fn parse_repl_at(line: &str, base: usize) -> Result<ReplInput, Vec<Diagnostic>> {
    // A byte order mark reads otherwise at the start of a text than after the padding.
    let plain = !line.starts_with('\u{feff}')
        && scan::too_deep(line, 0).is_none()
        && super::chars::odd_characters(line, 0).is_empty();
    if plain {
        let text = &*super::chars::normalize(line);
        for rule in [Rule::repl_items, Rule::repl_stmts, Rule::repl_expr] {
            let Ok(pairs) = MettleParser::parse(rule, text) else { continue };
            let builder = Builder::new(base);
            let pair = single(pairs);
            let input = match rule {
                Rule::repl_items => ReplInput::Items(builder.file(pair).items),
                Rule::repl_stmts => ReplInput::Stmts(
                    pair.into_inner()
                        .filter(|p| p.as_rule() == Rule::stmt)
                        .map(|s| builder.stmt(s))
                        .collect(),
                ),
                _ => ReplInput::Expr(builder.expr(super::build::Kids::of(pair).get(Rule::expr))),
            };
            if builder.finish().is_empty() {
                return Ok(input);
            }
            break;
        }
    }
    parse_repl(&format!("{}{line}", " ".repeat(base)))
}

/// Whether the text ends inside an open `{`, `(`, `[` or string, so that a REPL should read another
/// line before parsing it.
///
/// ```
/// assert!(mettle::internals::syntax::is_incomplete("on damaged {"));
/// assert!(!mettle::internals::syntax::is_incomplete("on damaged { }"));
/// ```
pub fn is_incomplete(text: &str) -> bool {
    scan::is_incomplete(text)
}

/// How many brackets are open after `line`, read with `depth` open before it, and whether it ends
/// inside a string: [`is_incomplete`] a line at a time, for input read line by line (a string or
/// comment never goes on past the end of its line). Text whose lines were read so is incomplete when
/// the depth is above 0 or the last line ends in a string.
///
/// ```
/// use mettle::internals::syntax::open_brackets;
/// assert_eq!(open_brackets("on damaged {", 0), (1, false));
/// assert_eq!(open_brackets("  note \"}", 1), (1, true));
/// assert_eq!(open_brackets("}  // {", 1), (0, false));
/// ```
pub fn open_brackets(line: &str, depth: usize) -> (usize, bool) {
    scan::open_after(line, depth)
}

/// Whether `text`, though a block or bracket in it is still open, can never become a valid input
/// whatever lines follow: every reading of it fails before its end (or it has a character or depth
/// that no text after it can mend). A REPL then reports it at once instead of reading on.
///
/// ```
/// use mettle::internals::syntax::never_completes;
/// assert!(!never_completes("let x = (2 +"));
/// assert!(never_completes("let x = (2 +\n3 4"));
/// assert!(!never_completes("on damaged {\n  note \"hit\""));
/// ```
pub fn never_completes(text: &str) -> bool {
    let text = &*super::chars::normalize(text);
    if scan::too_deep(text, 0).is_some() || !super::chars::odd_characters(text, 0).is_empty() {
        return true;
    }
    let end = text.trim_end().len();
    let mut furthest = 0;
    for rule in [Rule::repl_items, Rule::repl_stmts, Rule::repl_expr] {
        match MettleParser::parse(rule, text) {
            Ok(_) => return false,
            Err(err) => furthest = furthest.max(SyntaxError::new(err, 0).pos()),
        }
    }
    furthest < end
}

/// Parses the values of a `report` line typed apart from the ruleset (`mettle odds --report …`),
/// for a text where they sit at byte `base`: their spans are `base` further on. Syntax errors
/// point into `items` itself (as if `base` were 0).
///
/// ```
/// use mettle::internals::syntax::parse_report_at;
/// let items = parse_report_at("game, a.morale", 100).unwrap();
/// assert_eq!((items.len(), items[1].span.start), (2, 106));
/// assert_eq!(parse_report_at("game,", 100).unwrap_err()[0].span().start, 5);
/// ```
pub fn parse_report_at(items: &str, base: usize) -> Result<Vec<crate::ast::Expr>, Vec<Diagnostic>> {
    let text = &*screened(items)?;
    let pairs = MettleParser::parse(Rule::report_line, text)
        .map_err(|err| vec![SyntaxError::new(err, 0).to_diagnostic(text)])?;
    let builder = Builder::new(base);
    let items = builder.report_items(super::build::Kids::of(single(pairs)).get(Rule::report_items));
    let errors = builder.finish();
    if errors.is_empty() {
        Ok(items)
    } else {
        // Spans back into the typed text.
        Err(errors.into_iter().map(|d| d.shifted_back(base)).collect())
    }
}
