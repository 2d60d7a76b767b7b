//! A parsed ruleset as a flat list of tokens, each tagged with its part in the layout, for `mettle fmt`.

use super::errors::SyntaxError;
use super::parse::{MettleParser, Rule};
use crate::ast::Span;
use crate::diagnostics::Diagnostic;
use pest::Parser;
use pest::iterators::Pair;

/// What a pair of brackets holds, which decides how the formatter lays it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bracket {
    /// `{ … }` around fields, rungs, table rows, check lines or statements.
    Block,
    /// `( … )`.
    Paren,
    /// `[ … ]` (a data list).
    Square,
    /// `{ … }` around a data map.
    Data,
}

/// The part a token plays in the layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// An opening bracket.
    Open(Bracket),
    /// A closing bracket.
    Close(Bracket),
    /// `,`.
    Comma,
    /// `:`.
    Colon,
    /// The `.` of a field access.
    Dot,
    /// The `..` of a range.
    DotDot,
    /// The `/` of `with chance 1/3`.
    Slash,
    /// A sign written before a value: `-x`, `+spi`.
    Prefix,
    /// A name.
    Ident,
    /// A whole number, possibly signed.
    Number,
    /// One `///` line of a doc comment.
    Doc,
    /// Text copied as written: strings, dice, script bodies.
    Verbatim,
    /// Any other word or symbol: keywords, operators, `=`, `->`, `|`.
    Word,
}

/// One token of a ruleset and how it sits in the layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// Where it is in the text.
    pub span: Span,
    /// Its part in the layout.
    pub kind: TokenKind,
    /// It starts an entry: an item, a statement, a check line, a field, a rung or a table row.
    pub entry: bool,
    /// It must start a line: the start of an item, a statement or a check line, or a doc line.
    pub own_line: bool,
    /// It is written against the token before it, with nothing between (the `d6` of `(n)d6`).
    pub glue: bool,
    /// It follows a closing `}` on the same line: `} else {`, `} otherwise {`, `} until …`.
    pub joins_close: bool,
    /// It is the `:` between a table row's keys and its value (rows one to a line line up after it).
    pub row_colon: bool,
}

/// The tokens of `text`, which must already parse as a whole ruleset, in order. Comments are not
/// tokens: they are the text between tokens that is not whitespace.
pub fn tokens(text: &str) -> Result<Vec<Token>, Vec<Diagnostic>> {
    let mut pairs = MettleParser::parse(Rule::file, text)
        .map_err(|e| vec![SyntaxError::new(e, 0).to_diagnostic(text)])?;
    let mut out = Vec::new();
    if let Some(file) = pairs.next() {
        walk(text, file, Rule::file, &mut out);
    }
    out.sort_by_key(|t| t.span.start);
    Ok(out)
}

/// The kind of a pair that is one token, or `None` for a pair whose children are the tokens.
fn kind_of(rule: Rule, parent: Rule, leaf: bool) -> Option<TokenKind> {
    use TokenKind::*;
    Some(match rule {
        Rule::lbrace => Open(Bracket::Block),
        Rule::rbrace if parent == Rule::data_map => Close(Bracket::Data),
        Rule::rbrace => Close(Bracket::Block),
        Rule::lparen => Open(Bracket::Paren),
        Rule::rparen => Close(Bracket::Paren),
        Rule::lbracket => Open(Bracket::Square),
        Rule::rbracket => Close(Bracket::Square),
        Rule::comma => Comma,
        Rule::colon => Colon,
        Rule::dot => Dot,
        Rule::dotdot => DotDot,
        Rule::slash => Slash,
        Rule::op_neg | Rule::op_pos => Prefix,
        // `max(… for each …)` is spaced as a call.
        Rule::ident | Rule::total_op => Ident,
        Rule::int | Rule::signed_int => Number,
        Rule::doc_line => Doc,
        Rule::string | Rule::dice | Rule::dice_tail | Rule::script_body => Verbatim,
        _ if leaf => Word,
        _ => return None,
    })
}

/// Adds the tokens of `pair` (whose parent pair has rule `parent`) to `out`.
fn walk(text: &str, pair: Pair<'_, Rule>, parent: Rule, out: &mut Vec<Token>) {
    let rule = pair.as_rule();
    if rule == Rule::EOI {
        return;
    }
    let span = pair.as_span();
    let first = out.len();
    let mut inner = pair.clone().into_inner().peekable();
    match kind_of(rule, parent, inner.peek().is_none()) {
        Some(kind) => {
            let raw = &text[span.start()..span.end()];
            // A doc line keeps its trailing spaces here: the formatter drops them, knowingly.
            let whole = matches!(kind, TokenKind::Verbatim | TokenKind::Doc);
            let end = if whole { span.end() } else { span.start() + raw.trim_end().len() };
            out.push(Token {
                span: Span::new(span.start(), end),
                kind,
                entry: false,
                own_line: kind == TokenKind::Doc,
                glue: rule == Rule::dice_tail && parent == Rule::paren,
                joins_close: matches!(
                    (rule, parent),
                    (Rule::kw_else, Rule::if_stmt)
                        | (Rule::kw_otherwise, Rule::chance_stmt)
                        | (Rule::kw_until, Rule::repeat_stmt)
                ),
                row_colon: rule == Rule::colon && parent == Rule::table_row,
            });
        }
        None => {
            let mut at = span.start();
            for child in inner {
                let (start, end) = (child.as_span().start(), child.as_span().end());
                literals(text, at, start, rule, out);
                walk(text, child, rule, out);
                at = at.max(end);
            }
            literals(text, at, span.end(), rule, out);
        }
    }
    if let Some(t) = out.get_mut(first) {
        match rule {
            Rule::item | Rule::header | Rule::stmt | Rule::check_line => {
                t.entry = true;
                t.own_line = true;
            }
            // The field of `option NAME: …` follows its keyword on the same line: not an entry.
            Rule::field if parent == Rule::option_def => {}
            Rule::field | Rule::rung | Rule::table_row => t.entry = true,
            _ => {}
        }
    }
}

/// Adds the tokens written as plain strings in the grammar (the `{` of a data map, the `[` of a data
/// list) found in `text[from..to]`, skipping whitespace and comments.
fn literals(text: &str, from: usize, to: usize, rule: Rule, out: &mut Vec<Token>) {
    if from >= to {
        return;
    }
    let bytes = text.as_bytes();
    let mut i = from;
    while i < to {
        match bytes[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < to && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            _ => {
                let start = i;
                while i < to
                    && !matches!(bytes[i], b' ' | b'\t' | b'\r' | b'\n')
                    && !bytes[i..].starts_with(b"//")
                {
                    i += 1;
                }
                let kind = match (&text[start..i], rule) {
                    ("{", Rule::data_map) => TokenKind::Open(Bracket::Data),
                    ("[", _) => TokenKind::Open(Bracket::Square),
                    _ => TokenKind::Word,
                };
                out.push(Token {
                    span: Span::new(start, i),
                    kind,
                    entry: false,
                    own_line: false,
                    glue: false,
                    joins_close: false,
                    row_colon: false,
                });
            }
        }
    }
}
