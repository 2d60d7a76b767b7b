//! pest errors turned into diagnostics worded for people: what was expected, what was found, help.

use super::parse::{MettleParser, Rule};
use super::scan;
use super::words::{self, role};
use crate::ast::Span;
use crate::diagnostics::{Diagnostic, did_you_mean};
use pest::Parser;
use pest::error::{ErrorVariant, InputLocation};

const ITEM: &str = "a top-level item such as `kind`, `check`, `on`, `scenario`…";
const STMT: &str = "a statement such as `set`, `add`, `roll`, `if`…";
const CHECK_LINE: &str =
    "a check line such as `input`, `roll`, `modifier`, `target`, `let`, `outcome` or `otherwise`";
const TYPE: &str = "a type such as `0..6`, `flag` or a kind's name";
const EXPR: &str = "an expression";
const SIDES: &str = "the sides of a die such as `6`, `(n)` or `[0,1,2]`";
const FIELD: &str = "a field such as `spi: 0..6`";
const RUNG: &str = "a rung such as `simple = 3`";
const ARGUMENT: &str = "an argument such as `spi = 3`";
const NAME: &str = "a name";
const OPERATOR: &str = "an operator such as `+` or `and`";
const EOF: &str = "end of file";
/// What pest may list instead of "an expression" where one starts.
const EXPR_STARTS: [&str; 15] = [
    NAME, "a number", "a string", "`(`", "`[`", "`d`", "`-`", "`+`", "`if`", "`last`", "`no`", "`none`",
    "`not`", "`number`", "`yes`",
];

/// The reserved words, in alphabetical order, for the help for a keyword used as a name.
fn reserved_words() -> Vec<&'static str> {
    let mut words: Vec<&str> = words::reserved().collect();
    words.sort_unstable();
    words
}

/// A syntax error as pest found it, kept as data so that the REPL can merge the errors of the
/// alternatives it tries before wording one.
#[derive(Debug, Clone)]
pub(super) struct SyntaxError {
    /// Byte offset into the whole text.
    pos: usize,
    /// Start of the text that was parsed (brackets open before it do not count).
    base: usize,
    /// End of the text that was parsed (`usize::MAX`: the end of the whole text).
    end: usize,
    /// Rules pest tried at `pos`.
    expected: Vec<Rule>,
    /// pest's own message when it gave up for a limit rather than a mismatch.
    limit: Option<String>,
}

impl SyntaxError {
    /// Wraps a pest error found in the text starting at byte `base` of the whole text.
    pub(super) fn new(err: pest::error::Error<Rule>, base: usize) -> Self {
        let pos = match err.location {
            InputLocation::Pos(p) => p,
            InputLocation::Span((p, _)) => p,
        };
        let (expected, limit) = match err.variant {
            ErrorVariant::ParsingError { positives, .. } => (positives, None),
            ErrorVariant::CustomError { message } => (Vec::new(), Some(message)),
        };
        SyntaxError { pos: base + pos, base, end: usize::MAX, expected, limit }
    }

    /// The byte offset of the error in the whole text.
    pub(super) fn pos(&self) -> usize {
        self.pos
    }

    /// An error at byte `pos` of the whole text, expecting `expected`.
    pub(super) fn expected_at(pos: usize, base: usize, expected: Vec<Rule>) -> Self {
        SyntaxError { pos, base, end: usize::MAX, expected, limit: None }
    }

    /// The same error, found in a text that ends at byte `end` of the whole text.
    pub(super) fn ending_at(mut self, end: usize) -> Self {
        self.end = end;
        self
    }

    /// Of two errors, the one that got further; at a tie, one expecting what either expected.
    pub(super) fn furthest(self, other: SyntaxError) -> SyntaxError {
        match self.pos.cmp(&other.pos) {
            std::cmp::Ordering::Less => other,
            std::cmp::Ordering::Greater => self,
            std::cmp::Ordering::Equal => {
                let mut merged = self;
                merged.expected.extend(other.expected);
                merged.limit = merged.limit.or(other.limit);
                merged
            }
        }
    }

    /// The diagnostic for this error in `text` (the whole text).
    pub(super) fn to_diagnostic(&self, text: &str) -> Diagnostic {
        let (span, found, found_text) = found_at(text, self.pos);
        if let Some(limit) = &self.limit {
            return Diagnostic::error(
                crate::diagnostics::Code::TooDeep.path(),
                format!("this is nested too deeply to parse ({limit})"),
                span,
                "nesting gets too deep here",
            )
            .with_help("split this into smaller expressions or let-bindings");
        }
        if let Some(slip) = super::slips::slip(text, self.base, self.pos) {
            return slip;
        }
        let phrases = phrases(&self.expected);
        let (message, label) = if phrases.is_empty() {
            (format!("unexpected {found_text}"), "unexpected here".to_string())
        } else {
            let list = join(&phrases);
            (format!("expected {list}, found {found_text}"), format!("expected {list}"))
        };
        let help = help(text, span, found, &phrases);
        // Two mistakes deserve a headline of their own rather than a list of what could come next.
        match (found, &help) {
            (Some(word), Some(h)) if h.contains("is a keyword and cannot be used as a name") => {
                return Diagnostic::error(
                    "parse::syntax",
                    format!("`{word}` is a keyword and cannot be used as a name"),
                    span,
                    "a keyword",
                )
                .with_help(format!(
                    "choose another name, such as `{word}_`; these words are reserved: {}",
                    reserved_words().join(", ")
                ));
            }
            (Some("\""), Some(h)) if h.contains("string is not closed") => {
                return Diagnostic::error(
                    "parse::syntax",
                    "this text in quotes is never closed",
                    span,
                    "the text starts here",
                )
                .with_help("end it with `\"` on the same line");
            }
            _ => {}
        }
        // A block whose `}` is missing: point at the `{` the layout shows is left open.
        let end = self.end.min(text.len());
        let runs_out = span.is_empty() || found.is_some_and(scan_top_level);
        if (runs_out || phrases.iter().any(|p| p == "`}`"))
            && let Some(d) = super::slips::unclosed_brace(text, self.base, end, self.pos, runs_out)
        {
            return d;
        }
        let mut diag = Diagnostic::error("parse::syntax", message, span, label);
        if let Some(help) = help {
            diag = diag.with_help(help);
        }
        // Point at the `(` or `[` that a missing closer belongs to, when one is in fact left open.
        if runs_out && let Some((at, open)) = self.open_bracket(text, &phrases) {
            let close = scan::closer(open);
            let chunk = text.get(self.base..end).unwrap_or("");
            let count = |b: u8| scan::brackets(chunk).iter().filter(|(_, x)| *x == b).count();
            if open != b'{' && count(open) > count(close) {
                diag = diag
                    .with_label(Span::new(at, at + 1), format!("this `{}` is never closed", open as char));
                if diag.help.is_none() {
                    diag = diag.with_help(format!("add the missing `{}`", close as char));
                }
            }
        }
        diag
    }

    /// The innermost bracket open at the error whose closer was expected (or any, at end of file).
    fn open_bracket(&self, text: &str, phrases: &[String]) -> Option<(usize, u8)> {
        let open = scan::open_brackets(text.get(self.base..self.pos)?);
        let wanted = |b: u8| phrases.iter().any(|p| *p == format!("`{}`", scan::closer(b) as char));
        let pick = open.iter().rev().find(|(_, b)| wanted(*b)).or_else(|| open.last());
        pick.map(|&(at, b)| (self.base + at, b))
    }
}

/// Help for a syntax error: dice notation, `;`, a missing `:`, `to` or `from`, keywords used as names,
/// unclosed strings, `=` for `==`, a misplaced header, misspelt keywords.
fn help(text: &str, span: Span, found: Option<&str>, phrases: &[String]) -> Option<String> {
    let wants = |p: &str| phrases.iter().any(|q| q == p);
    if wants(SIDES) {
        return Some("write the sides right after the `d`, as in `2d6`, `d(n)` or `d[0,1,2]`".into());
    }
    if phrases == ["a number"] && in_dice(text.get(..span.start).unwrap_or("")) {
        return Some("dice modifiers take a number, as in `4d6kh3`, `2d6r1` or `10d6cs>=5`".into());
    }
    let found = found?;
    if found == ";" {
        return Some("mettle needs no `;` between fields, lines or statements: remove it".into());
    }
    if wants("`/`") || wants("`chance`") {
        return Some("write the chance as a fraction, as in `with chance 1/3 { … }`".into());
    }
    if phrases == ["`:`"] {
        return Some("write a `:` between a name and its type, as in `spi: 0..6`".into());
    }
    if wants("`to`") {
        return Some(
            "write `to` before the value, as in `set unit.morale to shaken` or `add 1 to side.ap`".into(),
        );
    }
    if wants("`from`") {
        return Some("write `from` before the counter or the options, as in `remove 1 from side.ap`".into());
    }
    // A keyword where a name was expected, or where a field, rung or argument (which start with a
    // name) was and it is followed by `:` or `=` as a name would be.
    let named = text
        .get(span.end..)
        .and_then(|r| r.trim_start().chars().next())
        .is_some_and(|c| c == ':' || c == '=');
    let name_led = [FIELD, RUNG, ARGUMENT].iter().any(|p| wants(p)) && named;
    if (wants(NAME) || name_led) && is_keyword(found) {
        return Some(format!("`{found}` is a keyword and cannot be used as a name; choose another name"));
    }
    let line_rest = text.get(span.end..).and_then(|r| r.lines().next()).unwrap_or("");
    if found == "\"" && !line_rest.contains('"') {
        return Some("this string is not closed: end it with `\"` on the same line".into());
    }
    if found == "=" && wants(OPERATOR) {
        return Some("to compare two values, write `==`".into());
    }
    if found == "ruleset" && wants(ITEM) {
        return Some("`ruleset \"Title\"` can only come first in the file".into());
    }
    // A misspelt keyword.
    let keywords = phrases.iter().filter_map(|p| p.strip_prefix('`')?.strip_suffix('`'));
    let mut words: Vec<&str> = keywords.filter(|k| k.chars().all(|c| c.is_ascii_alphabetic())).collect();
    // The words that start what was wanted: suggestions for a misspelt first word.
    for (phrase, starts) in [(ITEM, role::ITEM), (STMT, role::STMT), (CHECK_LINE, role::CHECK)] {
        if wants(phrase) {
            for word in words::with_role(starts) {
                words.push(word);
            }
        }
    }
    did_you_mean(found, words).map(|k| format!("did you mean `{k}`?"))
}

/// Whether `before` ends inside dice notation (`3d6kh`, `2d6r<`): a `d` then sides, with no space.
fn in_dice(before: &str) -> bool {
    let word = before.rsplit(char::is_whitespace).next().unwrap_or(before).as_bytes();
    word.windows(2).any(|w| w[0] == b'd' && (w[1].is_ascii_digit() || w[1] == b'(' || w[1] == b'['))
}

/// Whether `word` is one of the grammar's reserved words.
pub(super) fn is_keyword(word: &str) -> bool {
    MettleParser::parse(Rule::keyword, word).is_ok_and(|p| p.as_str().len() == word.len())
}

/// Whether `word` starts a top-level item: a sign that the item before it was not closed.
fn scan_top_level(word: &str) -> bool {
    words::has_role(word, role::ITEM)
}

/// What is at byte `pos`: its span (at least one byte long except at the end of the file), the
/// token's text if it is one, and how to say what it is.
fn found_at(text: &str, pos: usize) -> (Span, Option<&str>, String) {
    let pos = pos.min(text.len());
    let rest = text.get(pos..).unwrap_or("");
    let Some(c) = rest.chars().next() else {
        return (Span::new(pos, pos), None, EOF.into());
    };
    // pest reports positions after skipped whitespace; whitespace is only found where none is
    // allowed, as inside dice notation.
    if c.is_whitespace() {
        let what = if c == '\n' || c == '\r' { "end of line" } else { "a space" };
        return (Span::new(pos, pos + c.len_utf8()), None, what.into());
    }
    let len = if c.is_alphanumeric() || c == '_' {
        rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len())
    } else {
        let two = ["==", "!=", "<=", ">=", "->", "..", "//"];
        if two.iter().any(|t| rest.starts_with(t)) { 2 } else { c.len_utf8() }
    };
    let token = &rest[..len];
    (Span::new(pos, pos + len), Some(token), format!("`{token}`"))
}

/// Ranks phrases: symbols, then keywords, then words, then the long descriptions, end of file last.
fn rank(phrase: &str) -> u8 {
    let inner = phrase.strip_prefix('`').and_then(|p| p.strip_suffix('`'));
    match inner {
        Some(w) if !w.chars().any(|c| c.is_ascii_alphabetic()) => 0,
        Some(_) => 1,
        None if phrase == EOF => 6,
        None if phrase == OPERATOR => 5,
        None if [NAME, "a number", "a string", EXPR].contains(&phrase) => 2,
        None if phrase.contains("such as") => 4,
        None => 3,
    }
}

/// The expected rules as deduplicated phrases in a stable order.
fn phrases(rules: &[Rule]) -> Vec<String> {
    let mut out: Vec<String> = rules.iter().filter_map(|&r| phrase(r)).collect();
    // A call's `(`, a field's `.` and the `d` of `(n)d6` continue an expression as an operator does.
    if out.iter().any(|p| p == OPERATOR) {
        out.retain(|p| !["`(`", "`.`", "`d`"].contains(&p.as_str()));
    }
    // The ways an expression can start are "an expression".
    let has = |p: &str| out.iter().any(|q| q == p);
    if has(EXPR) || (has(NAME) && has("a number") && has("`(`")) {
        out.retain(|p| !EXPR_STARTS.contains(&p.as_str()));
        out.push(EXPR.into());
    }
    out.sort_by(|a, b| rank(a).cmp(&rank(b)).then_with(|| a.cmp(b)));
    out.dedup();
    out
}

/// "a", "a or b", "a, b or c"
fn join(phrases: &[String]) -> String {
    match phrases {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// How to say that `rule` was expected, or `None` to leave it out.
fn phrase(rule: Rule) -> Option<String> {
    let p = match rule {
        Rule::lbrace | Rule::block | Rule::script_body => "`{`",
        Rule::rbrace => "`}`",
        Rule::lparen | Rule::dice_paren => "`(`",
        Rule::rparen => "`)`",
        Rule::lbracket | Rule::dice_faces => "`[`",
        Rule::rbracket => "`]`",
        Rule::colon => "`:`",
        Rule::comma => "`,`",
        Rule::equals => "`=`",
        Rule::arrow => "`->`",
        Rule::dot => "`.`",
        Rule::dotdot => "`..`",
        Rule::bar => "`|`",
        Rule::slash => "`/`",
        Rule::ident | Rule::choice_name => NAME,
        Rule::int | Rule::signed_int => "a number",
        Rule::string | Rule::string_inner => "a string",
        Rule::expr
        | Rule::repl_expr
        | Rule::arg
        | Rule::cmp_arg
        | Rule::op_not
        | Rule::op_neg
        | Rule::op_pos
        | Rule::dice
        | Rule::paren
        | Rule::call
        | Rule::if_expr
        | Rule::last_expr
        | Rule::number_of
        | Rule::total
        | Rule::pick
        | Rule::data_map
        | Rule::data_list => EXPR,
        Rule::field_access
        | Rule::kw_and
        | Rule::kw_or
        | Rule::kw_is
        | Rule::op_or
        | Rule::op_and
        | Rule::op_is_not
        | Rule::op_is
        | Rule::op_eq
        | Rule::op_ne
        | Rule::op_le
        | Rule::op_ge
        | Rule::op_lt
        | Rule::op_gt
        | Rule::op_add
        | Rule::op_sub
        | Rule::op_mul
        | Rule::op_div => OPERATOR,
        Rule::type_expr | Rule::range_type | Rule::names_type | Rule::list_type | Rule::record_type => TYPE,
        Rule::item
        | Rule::file
        | Rule::repl_items
        | Rule::header
        | Rule::kind_def
        | Rule::ladder_def
        | Rule::event_def
        | Rule::define_def
        | Rule::table_def
        | Rule::check_def
        | Rule::trigger_def
        | Rule::result_def
        | Rule::scenario_def
        | Rule::script_def
        | Rule::option_def
        | Rule::shape_def
        | Rule::reaction_def => ITEM,
        Rule::stmt
        | Rule::repl_stmts
        | Rule::set_stmt
        | Rule::add_stmt
        | Rule::remove_stmt
        | Rule::let_stmt
        | Rule::var_stmt
        | Rule::roll_stmt
        | Rule::if_stmt
        | Rule::for_stmt
        | Rule::trigger_stmt
        | Rule::choose_stmt
        | Rule::end_stmt
        | Rule::note_stmt
        | Rule::repeat_stmt
        | Rule::new_stmt
        | Rule::dice_stmt
        | Rule::answer_stmt
        | Rule::expect_stmt
        | Rule::chance_stmt
        | Rule::record_stmt
        | Rule::report_stmt
        | Rule::option_stmt
        | Rule::order_stmt => STMT,
        Rule::check_line
        | Rule::input_line
        | Rule::roll_line
        | Rule::modifier_line
        | Rule::target_line
        | Rule::let_line
        | Rule::outcome_line
        | Rule::otherwise_line
        | Rule::group_line
        | Rule::reroll_line => CHECK_LINE,
        Rule::field | Rule::field_list => FIELD,
        Rule::rung => RUNG,
        Rule::table_row => "a table row such as `2..6: flee`",
        Rule::pattern | Rule::any_pattern | Rule::range_pattern => "a pattern such as `2..6`, `yes` or `_`",
        Rule::duration => "a duration such as `until end of turn` or `for next round`",
        Rule::arg_list | Rule::named_arg => ARGUMENT,
        Rule::choice_options | Rule::choice_range | Rule::choice_entities | Rule::choice_names => {
            "options such as `yes | no`, `0..20` or `unit u where …`"
        }
        Rule::dice_sides => SIDES,
        Rule::dice_tail => "`d`",
        Rule::dice_mod
        | Rule::mod_keep
        | Rule::mod_drop
        | Rule::mod_explode
        | Rule::mod_reroll
        | Rule::mod_count => "a dice modifier such as `kh1` or `x`",
        Rule::cmp_op | Rule::dice_cmp => "a comparison such as `>=`",
        Rule::EOI => EOF,
        _ => {
            let name = format!("{rule:?}");
            return name.strip_prefix("kw_").map(|word| format!("`{word}`"));
        }
    };
    Some(p.to_string())
}
