//! Text to syntax tree: the pest grammar in `grammar/mettle.pest`, a Pratt parser for expressions,
//! and syntax errors worded for people. pest's `Rule` never leaves this module.

mod build;
mod chars;
mod data;
mod errors;
mod expr;
mod parse;
mod scan;
mod slips;
mod stmt;
#[cfg(test)]
mod tests;
mod tokens;
pub mod words;

pub use chars::normalize;
pub(crate) use data::data_span;
pub use parse::{
    ReplInput, is_incomplete, never_completes, open_brackets, parse, parse_repl, parse_repl_at,
    parse_report_at,
};
pub(crate) use tokens::{Bracket, Token, TokenKind, tokens};
