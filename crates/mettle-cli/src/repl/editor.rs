//! The line editor's helper: completion, hints, highlighting, bracket matching, and a validator
//! that keeps reading while a block is open.

use mettle::internals::repl::Names;
use rustyline::completion::{Completer, Pair};
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Context, Helper};
use std::borrow::Cow;
use std::cell::{Cell, RefCell};

/// Keywords of the language, for highlighting.
const KEYWORDS: &[&str] = &[
    "ruleset",
    "kind",
    "ladder",
    "event",
    "define",
    "table",
    "check",
    "on",
    "result",
    "scenario",
    "script",
    "input",
    "roll",
    "modifier",
    "target",
    "let",
    "var",
    "outcome",
    "otherwise",
    "when",
    "for",
    "each",
    "where",
    "with",
    "set",
    "to",
    "add",
    "remove",
    "from",
    "if",
    "then",
    "else",
    "trigger",
    "choose",
    "default",
    "end",
    "game",
    "note",
    "repeat",
    "until",
    "new",
    "follow",
    "dice",
    "die",
    "answer",
    "expect",
    "and",
    "or",
    "not",
    "is",
    "yes",
    "no",
    "none",
    "last",
    "number",
    "of",
    "as",
    "max",
    "strict",
    "flag",
    "int",
    "turn",
    "round",
    "next",
];

/// The helper given to rustyline.
#[derive(Default)]
pub(super) struct MettleHelper {
    /// Refreshed after every input.
    pub names: RefCell<Names>,
    /// Whether to colour the line.
    pub color: bool,
    /// A bracket under the cursor, whose partner to show.
    bracket: Cell<Option<usize>>,
}

impl MettleHelper {
    pub fn new(names: Names, color: bool) -> Self {
        MettleHelper { names: RefCell::new(names), color, bracket: Cell::new(None) }
    }
}

/// Start of the word that ends at `pos`.
fn word_start(line: &str, pos: usize) -> usize {
    line[..pos].rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).map_or(0, |i| i + 1)
}

impl Completer for MettleHelper {
    type Candidate = Pair;

    fn complete(&self, line: &str, pos: usize, _: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        let start = word_start(line, pos);
        let word = &line[start..pos];
        let names = self.names.borrow();
        let mut out: Vec<Pair> = names
            .candidates(line, start)
            .into_iter()
            .filter(|c| c.starts_with(word))
            .map(|c| Pair { display: c.clone(), replacement: c })
            .collect();
        out.dedup_by(|a, b| a.replacement == b.replacement);
        Ok((start, out))
    }
}

/// What each command expects, shown as a hint once its name is typed.
fn usage(cmd: &str) -> Option<&'static str> {
    Some(match cmd {
        ":load" | ":save" | ":restore" => " FILE",
        ":roll" => " CHECK [for UNIT] name=value…",
        ":event" => " EVENT name=value…",
        ":seed" => " N",
        ":help" => " [TOPIC]",
        _ => return None,
    })
}

impl Hinter for MettleHelper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, _: &Context<'_>) -> Option<String> {
        if pos < line.len() || line.is_empty() {
            return None;
        }
        if let Some(u) = usage(line.trim_end()).filter(|_| !line.ends_with(' ')) {
            return Some(u.to_string());
        }
        // The rest of the only name that the word being typed can become.
        let start = word_start(line, pos);
        let word = &line[start..pos];
        if word.is_empty() {
            return None;
        }
        let names = self.names.borrow();
        let mut found =
            names.candidates(line, start).into_iter().filter(|c| c.starts_with(word) && c != word);
        let first = found.next()?;
        if found.any(|c| c != first) {
            return None;
        }
        Some(first[word.len()..].to_string())
    }
}

/// The kinds of token the highlighter colours.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Tok {
    Plain,
    Keyword,
    Number,
    Dice,
    Text,
    Comment,
    Command,
}

fn colour(t: Tok) -> &'static str {
    match t {
        Tok::Keyword => "\x1b[1;35m",
        Tok::Number => "\x1b[36m",
        Tok::Dice => "\x1b[1;33m",
        Tok::Text => "\x1b[32m",
        Tok::Comment => "\x1b[2m",
        Tok::Command => "\x1b[1;34m",
        Tok::Plain => "",
    }
}

/// Whether `w` is dice notation such as `d6`, `2d6`, `3d6kh2` or `d%`.
fn is_dice(w: &str) -> bool {
    let rest = w.trim_start_matches(|c: char| c.is_ascii_digit());
    rest.strip_prefix('d')
        .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit() || c == '%' || c == 'F'))
}

/// Splits a line into coloured pieces.
fn tokens(line: &str) -> Vec<(Tok, &str)> {
    let mut out = vec![];
    let mut rest = line;
    if line.trim_start().starts_with(':') {
        let lead = line.len() - line.trim_start().len();
        let end = line[lead..].find(char::is_whitespace).map_or(line.len(), |i| lead + i);
        out.push((Tok::Command, &line[..end]));
        out.push((Tok::Plain, &line[end..]));
        return out;
    }
    while !rest.is_empty() {
        let c = rest.chars().next().unwrap_or(' ');
        let len = if rest.starts_with("//") {
            let n = rest.find('\n').unwrap_or(rest.len());
            out.push((Tok::Comment, &rest[..n]));
            n
        } else if c == '"' {
            let n = rest[1..].find('"').map_or(rest.len(), |i| i + 2);
            out.push((Tok::Text, &rest[..n]));
            n
        } else if c.is_alphanumeric() || c == '_' {
            let n = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '%')).unwrap_or(rest.len());
            let w = &rest[..n];
            let t = if is_dice(w) {
                Tok::Dice
            } else if w.chars().all(|c| c.is_ascii_digit()) {
                Tok::Number
            } else if KEYWORDS.contains(&w) {
                Tok::Keyword
            } else {
                Tok::Plain
            };
            out.push((t, w));
            n
        } else {
            let n = c.len_utf8();
            out.push((Tok::Plain, &rest[..n]));
            n
        };
        rest = &rest[len..];
    }
    out
}

/// The position of the bracket matching the one at `pos`, if any.
fn partner(line: &str, pos: usize) -> Option<usize> {
    let b = *line.as_bytes().get(pos)?;
    let (open, close, forward) = match b {
        b'(' => (b'(', b')', true),
        b'[' => (b'[', b']', true),
        b'{' => (b'{', b'}', true),
        b')' => (b'(', b')', false),
        b']' => (b'[', b']', false),
        b'}' => (b'{', b'}', false),
        _ => return None,
    };
    let bytes = line.as_bytes();
    let mut depth = 0i32;
    let step = |i: usize| if forward { i.checked_add(1) } else { i.checked_sub(1) };
    let mut i = Some(pos);
    while let Some(j) = i {
        let c = *bytes.get(j)?;
        if c == open {
            depth += if forward { 1 } else { -1 };
        } else if c == close {
            depth += if forward { -1 } else { 1 };
        }
        if depth == 0 {
            return Some(j);
        }
        i = step(j);
    }
    None
}

impl Highlighter for MettleHelper {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        if !self.color {
            return Cow::Borrowed(line);
        }
        let mark = self.bracket.get().and_then(|p| partner(line, p));
        let mut out = String::with_capacity(line.len() * 2);
        let mut at = 0;
        for (t, s) in tokens(line) {
            for (i, ch) in s.char_indices() {
                if Some(at + i) == mark {
                    out.push_str("\x1b[1;7m");
                    out.push(ch);
                    out.push_str("\x1b[0m");
                    continue;
                }
                if i == 0 && t != Tok::Plain {
                    out.push_str(colour(t));
                }
                out.push(ch);
            }
            if t != Tok::Plain && !s.is_empty() {
                out.push_str("\x1b[0m");
            }
            at += s.len();
        }
        Cow::Owned(out)
    }

    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color { Cow::Owned(format!("\x1b[2m{hint}\x1b[0m")) } else { Cow::Borrowed(hint) }
    }

    fn highlight_char(&self, line: &str, pos: usize, kind: CmdKind) -> bool {
        if kind == CmdKind::ForcedRefresh {
            self.bracket.set(None);
            return self.color;
        }
        // The bracket under the cursor or just before it.
        let at = [pos, pos.wrapping_sub(1)].into_iter().find(|&p| partner(line, p).is_some());
        self.bracket.set(at);
        self.color
    }
}

impl Validator for MettleHelper {
    fn validate(&self, ctx: &mut ValidationContext<'_>) -> rustyline::Result<ValidationResult> {
        let input = ctx.input();
        // Keep reading while a block is open and the text could still become valid; a line that
        // makes it invalid sends it now, to be reported.
        if !input.trim_start().starts_with(':')
            && mettle::internals::syntax::is_incomplete(input)
            && !mettle::internals::syntax::never_completes(input)
        {
            return Ok(ValidationResult::Incomplete);
        }
        Ok(ValidationResult::Valid(None))
    }
}

impl Helper for MettleHelper {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_numbers_keywords_and_brackets() {
        let t: Vec<_> = tokens("roll 2d6 + 3 // x").into_iter().filter(|(t, _)| *t != Tok::Plain).collect();
        assert_eq!(
            t,
            [(Tok::Keyword, "roll"), (Tok::Dice, "2d6"), (Tok::Number, "3"), (Tok::Comment, "// x")]
        );
        assert_eq!(partner("f(a, (b))", 1), Some(8));
        assert_eq!(partner("f(a, (b))", 8), Some(1));
        assert_eq!(partner("f(a", 1), None);
    }

    #[test]
    fn completes_by_context() {
        let names = Names {
            checks: vec!["morale".into(), "skill".into()],
            units: vec!["alpha".into()],
            attributes: vec!["spi".into()],
            scripts: vec!["keep_away".into()],
            ..Names::default()
        };
        assert_eq!(names.candidates("follow ", 7), ["keep_away"]);
        assert_eq!(names.candidates("roll ", 5), ["morale", "skill"]);
        assert_eq!(names.candidates("alpha.", 6), ["spi"]);
        assert!(names.candidates(":ro", 0).contains(&":roll".to_string()));
        assert_eq!(names.candidates(":roll morale for ", 17), ["alpha"]);
    }

    #[test]
    fn completes_only_what_fits_where_the_cursor_is() {
        let names = Names {
            checks: vec!["morale".into()],
            events: vec!["hit".into()],
            kinds: vec!["group".into(), "unit".into()],
            units: vec!["alpha".into()],
            attributes: vec!["hp".into(), "size".into(), "spi".into()],
            states: vec!["shaken".into(), "steady".into()],
            kind_attributes: vec![
                ("group".into(), vec!["size".into()]),
                ("unit".into(), vec!["hp".into(), "spi".into()]),
            ],
            unit_kinds: vec![("alpha".into(), "unit".into())],
            check_inputs: vec![("morale".into(), vec!["bonus".into()])],
            event_facts: vec![("hit".into(), vec!["unit".into(), "hp_lost".into()])],
            ..Names::default()
        };
        let at_end = |line: &str| names.candidates(line, line.len());
        // A new group's attributes, and no unit's.
        assert_eq!(at_end("new group g with "), ["size"]);
        assert_eq!(at_end("new group g with size = 3, "), ["size"]);
        assert!(at_end("new group g with size = ").contains(&"alpha".to_string()));
        assert_eq!(at_end("new group "), Vec::<String>::new());
        assert_eq!(at_end("alpha."), ["hp", "spi"]);
        // Keywords start a line.
        let first = at_end("");
        assert!(first.contains(&"trigger".to_string()) && first.contains(&"new".to_string()), "{first:?}");
        assert!(!first.contains(&"shaken".to_string()));
        assert!(at_end("on hit { ").contains(&"trigger".to_string()));
        // Facts inside an event's brackets; a check's inputs after `with`.
        assert_eq!(at_end("trigger hit("), ["unit", "hp_lost"]);
        assert_eq!(at_end("trigger hit(unit: alpha, "), ["unit", "hp_lost"]);
        assert_eq!(at_end("roll morale for alpha with "), ["bonus"]);
        assert_eq!(at_end(":roll morale "), ["bonus", "for"]);
        assert_eq!(at_end(":event hit "), ["unit", "hp_lost"]);
        // Values where a value goes.
        assert!(at_end("set alpha.spi to ").contains(&"alpha".to_string()));
        assert!(at_end("if alpha.spi > 2 ").contains(&"and".to_string()));
    }

    #[test]
    fn completes_the_workbench_forms() {
        let names = Names {
            checks: vec!["morale".into()],
            events: vec!["hit".into()],
            units: vec!["alpha".into()],
            attributes: vec!["hp".into(), "spi".into()],
            kind_attributes: vec![("unit".into(), vec!["hp".into(), "spi".into()])],
            unit_kinds: vec![("alpha".into(), "unit".into())],
            check_inputs: vec![("morale".into(), vec!["bonus".into()])],
            event_facts: vec![("hit".into(), vec!["unit".into(), "hp_lost".into()])],
            options: vec!["bonus_die".into()],
            scenarios: vec!["first_fight".into()],
            check_makers: vec![("morale".into(), "unit".into())],
            ..Names::default()
        };
        let at_end = |line: &str| names.candidates(line, line.len());
        assert!(at_end("").contains(&"odds".to_string()));
        assert!(names.candidates(":o", 0).contains(&":odds".to_string()));
        // After `odds`: the checks, and the statements a what-if starts with.
        let after = at_end("odds ");
        assert!(after.contains(&"morale".to_string()) && after.contains(&"trigger".to_string()), "{after:?}");
        assert_eq!(at_end(":odds morale "), ["for", "sweep", "with"]);
        assert_eq!(at_end("odds morale for "), ["alpha"]);
        // What a question can give or sweep: inputs, the maker's attributes, options.
        assert_eq!(at_end("odds morale for alpha with "), ["bonus", "bonus_die", "hp", "spi"]);
        assert_eq!(at_end("odds morale for alpha with spi = 3, "), ["bonus", "bonus_die", "hp", "spi"]);
        assert_eq!(at_end("odds morale for alpha sweep "), ["bonus", "bonus_die", "hp", "spi"]);
        // A what-if completes as the statement does.
        assert_eq!(at_end("odds trigger "), ["hit"]);
        assert_eq!(at_end("odds trigger hit("), ["unit", "hp_lost"]);
        assert_eq!(at_end(":test "), ["first_fight"]);
        assert!(at_end(":sim 100 ").contains(&"first_fight".to_string()));
        assert!(names.candidates(":help o", 6).contains(&"odds".to_string()));
    }
}
