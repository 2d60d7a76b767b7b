//! Log lines as typed JSON: the values an entry keeps as text are typed again by what the rules
//! declare (an attribute's type for a change, a fact's for an event, a choice's for its answer).

use super::{Check, Dice, Named, Span, Val, check, typed};
use crate::program::Ty;
use crate::session::{LogEntry, LogLine, Logged, Session};
use serde::Serialize;

/// One line of the log: how deeply it is nested under events, and what happened.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Line {
    /// 0 for an event from outside, 1 for what its rules do, and so on.
    pub depth: u32,
    /// What happened.
    #[serde(flatten)]
    pub entry: Entry,
}

/// An `if` condition around a change: where it is written, and whether it held (when not, the
/// change is in its `else`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Because {
    /// The condition as written.
    pub condition: Span,
    /// Whether it held.
    pub held: bool,
}

/// One step of the log, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Entry {
    /// An event happened.
    Event {
        /// The event.
        name: String,
        /// Its facts.
        facts: Vec<Named>,
    },
    /// A rule fired.
    Rule {
        /// The rule's first line.
        text: String,
        /// Where it is.
        span: Span,
    },
    /// A check was rolled.
    Check(Box<Check>),
    /// Dice rolled inside a rule.
    Roll {
        /// The dice as written.
        text: String,
        /// The faces shown.
        faces: Vec<i64>,
        /// The value.
        value: i64,
        /// Where.
        span: Span,
    },
    /// An attribute changed.
    Change {
        /// The entity.
        entity: String,
        /// The attribute.
        field: String,
        /// The old value.
        from: Val,
        /// The new value.
        to: Val,
        /// Why it differs from what the rule asked (clamped to bounds), when it does.
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<String>,
        /// The `if` conditions of the rule or outcome around the change, outermost first: what made
        /// it (left out when there are none).
        #[serde(skip_serializing_if = "Vec::is_empty", default)]
        because: Vec<Because>,
        /// The rule that changed it.
        span: Span,
    },
    /// A timed change ran out.
    Expired {
        /// The entity.
        entity: String,
        /// The attribute.
        field: String,
        /// The value restored.
        to: Val,
        /// The rule that made the timed change.
        span: Span,
    },
    /// An entity was created.
    New {
        /// Its name.
        entity: String,
        /// Its kind.
        kind: String,
        /// Where.
        span: Span,
    },
    /// A rule did not run because its condition was no (verbose explanations only).
    Skipped {
        /// The rule's first line.
        text: String,
        /// The values its condition read, such as `hp_lost = 2`.
        why: String,
        /// Where the rule is.
        span: Span,
    },
    /// A table was looked up.
    Lookup {
        /// The table's name.
        table: String,
        /// The keys, as shown.
        keys: Vec<String>,
        /// The value of the row that matched, typed by the table's result.
        value: Val,
        /// The row that matched.
        span: Span,
    },
    /// The host removed an entity.
    Removed {
        /// Its name.
        entity: String,
        /// Its kind.
        kind: String,
    },
    /// A choice was made.
    Choice {
        /// The choice.
        name: String,
        /// The question.
        question: String,
        /// The answer.
        answer: Val,
        /// Who answered: `scenario`, `host` or `default`.
        by: String,
        /// Where it was asked.
        span: Span,
    },
    /// A note from the rules.
    Note {
        /// The text.
        text: String,
        /// The `if` conditions of the rule or outcome around the note, outermost first: when it
        /// applies (left out when there are none).
        #[serde(skip_serializing_if = "Vec::is_empty", default)]
        because: Vec<Because>,
        /// Where.
        span: Span,
    },
    /// The game ended.
    GameOver {
        /// The result's name.
        result: String,
        /// Its label.
        label: String,
        /// The winner.
        winner: Option<String>,
        /// Where.
        span: Span,
    },
    /// A script reaction ran.
    Reaction {
        /// The script function.
        name: String,
        /// The `follow` that ran it.
        span: Span,
    },
    /// An order a reaction gave.
    Order {
        /// The order in words.
        text: String,
        /// The script line that gave it, or the `follow` that ran the reaction.
        span: Span,
        /// The script file and line, when in a file.
        #[serde(skip_serializing_if = "Option::is_none")]
        from: Option<String>,
    },
    /// Something a script printed.
    Print {
        /// The text.
        text: String,
        /// The rule that called the script.
        span: Span,
    },
    /// What the odds of a scenario report for the way it ended (`report game, a.morale`).
    Report {
        /// Each value's label (the expression as written) and the value as people read it.
        values: Vec<(String, String)>,
        /// Where.
        span: Span,
    },
    /// A value recorded for simulations.
    Record {
        /// The label.
        label: String,
        /// The value as a number (yes is 1, no is 0).
        value: i64,
        /// The value as people read it.
        shown: String,
        /// Where.
        span: Span,
    },
    /// A scenario expectation was tested.
    Expect {
        /// Whether it held.
        passed: bool,
        /// The condition as written.
        text: String,
        /// What was found, when it failed.
        #[serde(skip_serializing_if = "Option::is_none")]
        found: Option<String>,
        /// Its message.
        #[serde(skip_serializing_if = "Option::is_none")]
        message: Option<String>,
        /// Where.
        span: Span,
    },
}

/// The typed view of log lines, read through `session` (declared types, entity names).
pub fn log(session: &Session, lines: &[LogLine]) -> Vec<Line> {
    lines.iter().map(|l| Line { depth: l.depth, entry: entry(session, &l.entry) }).collect()
}

/// The declared type of `entity.field`, for a value from an old save's log.
fn field_ty<'a>(session: &'a Session, entity: &str, field: &str) -> Option<&'a Ty> {
    let p = session.ruleset().program();
    let e = session.state().entities.get(session.entity(entity)?)?;
    p.kinds.get(e.kind as usize)?.fields.iter().find(|f| f.name == field).map(|f| &f.ty)
}

/// A logged value as the wire writes it. Only a value from the log of a save written before the log
/// kept values typed is text; it is typed again by `ty`, what the rules declare for it.
fn val<'a>(session: &'a Session, v: &Logged, ty: impl FnOnce() -> Option<&'a Ty>) -> Val {
    match v {
        Logged::Number(i) => Val::Number(*i),
        Logged::Flag(b) => Val::Flag(*b),
        Logged::Name(s) | Logged::Entity(s) => Val::Name(s.clone()),
        Logged::None => Val::Data(serde_json::Value::Null),
        Logged::Dice(pool) => Val::Dice(Dice::from(&**pool)),
        Logged::Result(r) => Val::Result(Box::new(check(session, r))),
        Logged::Data(d) => Val::Data((**d).clone()),
        Logged::Text(shown) => typed(session.ruleset().program(), ty(), shown),
    }
}

fn entry(session: &Session, e: &LogEntry) -> Entry {
    let p = session.ruleset().program();
    match e.clone() {
        LogEntry::Event { name, facts } => {
            let decl = p.events.iter().find(|d| d.name == name);
            let facts = facts
                .iter()
                .map(|(n, v)| {
                    let ty = || decl.and_then(|d| d.facts.iter().find(|f| &f.name == n)).map(|f| &f.ty);
                    Named { name: n.clone(), value: val(session, v, ty) }
                })
                .collect();
            Entry::Event { name, facts }
        }
        LogEntry::Rule { text, span } => Entry::Rule { text, span: span.into() },
        LogEntry::Check(r) => Entry::Check(Box::new(check(session, &r))),
        LogEntry::Roll { text, faces, value, span } => Entry::Roll { text, faces, value, span: span.into() },
        LogEntry::Change { entity, field, from, to, note, because, span } => {
            let ty = || field_ty(session, &entity, &field);
            let (from, to) = (val(session, &from, ty), val(session, &to, ty));
            let because =
                because.into_iter().map(|(s, held)| Because { condition: s.into(), held }).collect();
            Entry::Change { entity, field, from, to, note, because, span: span.into() }
        }
        LogEntry::Expired { entity, field, to, span } => {
            let to = val(session, &to, || field_ty(session, &entity, &field));
            Entry::Expired { entity, field, to, span: span.into() }
        }
        LogEntry::New { entity, kind, span } => Entry::New { entity, kind, span: span.into() },
        LogEntry::Removed { entity, kind } => Entry::Removed { entity, kind },
        LogEntry::Skipped { text, why, span } => Entry::Skipped { text, why, span: span.into() },
        LogEntry::Lookup { table, keys, value, span } => {
            let ty = || p.tables.iter().find(|t| t.name == table).map(|t| &t.result);
            let value = val(session, &value, ty);
            let keys = keys.iter().map(Logged::to_string).collect();
            Entry::Lookup { value, table, keys, span: span.into() }
        }
        LogEntry::Choice { name, question, answer, by, span } => {
            let answer = val(session, &answer, || p.choices.iter().find(|c| c.name == name).map(|c| &c.ty));
            Entry::Choice { name, question, answer, by, span: span.into() }
        }
        LogEntry::Note { text, because, span } => {
            let because =
                because.into_iter().map(|(s, held)| Because { condition: s.into(), held }).collect();
            Entry::Note { text, because, span: span.into() }
        }
        LogEntry::GameOver { result, label, winner, span } => {
            Entry::GameOver { result, label, winner, span: span.into() }
        }
        LogEntry::Reaction { name, span } => Entry::Reaction { name, span: span.into() },
        LogEntry::Order { text, span, from } => Entry::Order { text, span: span.into(), from },
        LogEntry::Print { text, span } => Entry::Print { text, span: span.into() },
        LogEntry::Report { values, span } => Entry::Report { values, span: span.into() },
        LogEntry::Record { label, value, shown, span } => {
            Entry::Record { label, value, shown, span: span.into() }
        }
        LogEntry::Expect { passed, text, found, message, span } => {
            Entry::Expect { passed, text, found, message, span: span.into() }
        }
    }
}
