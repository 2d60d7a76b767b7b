//! The explained log: what happened, step by step, as data, with the span of the rule behind each step.

use crate::ast::Span;
use crate::program::{CheckResult, Pool};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// A value as the log keeps it: typed, and whole in itself (an entity by the name it had, dice with
/// their faces), so that every reader of the log (its text, the wire's JSON, a binding) reads the value
/// and none parses text back or looks a name up in a later state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Logged {
    /// A number.
    Number(i64),
    /// yes or no.
    Flag(bool),
    /// A state or an outcome, by name.
    Name(String),
    /// An entity, by its name.
    Entity(String),
    /// No entity.
    None,
    /// Rolled dice.
    Dice(Arc<Pool>),
    /// The result of a check.
    Result(Arc<CheckResult>),
    /// Lists and records from the host.
    Data(#[serde(deserialize_with = "crate::session::saved_data::read")] Arc<serde_json::Value>),
    /// A value in the log of a save written before the log kept values typed: only its text is known.
    /// It is saved as that text again.
    #[serde(untagged)]
    Text(String),
}

impl fmt::Display for Logged {
    /// The value as people read it: `3`, `yes`, `shaken`, `alpha`, `none`, `[4, (1)] = 4`, `{hp: 3}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Logged::Number(i) => write!(f, "{i}"),
            Logged::Flag(b) => f.write_str(if *b { "yes" } else { "no" }),
            Logged::Name(s) | Logged::Entity(s) | Logged::Text(s) => f.write_str(s),
            Logged::None => f.write_str("none"),
            Logged::Dice(pool) => {
                let faces: Vec<String> = pool
                    .dice
                    .iter()
                    .map(|d| if d.kept { d.face.to_string() } else { format!("({})", d.face) })
                    .collect();
                write!(f, "[{}] = {}", faces.join(", "), pool.value)
            }
            Logged::Result(r) => f.write_str(&r.outcome),
            Logged::Data(d) => f.write_str(&show_data(d)),
        }
    }
}

/// Data as a ruleset writes it: `{friends: [{name: "orc", in_combat: no}], leader: none}`.
pub(crate) fn show_data(d: &serde_json::Value) -> String {
    use serde_json::Value as J;
    match d {
        J::Null => "none".into(),
        J::Bool(b) => if *b { "yes" } else { "no" }.into(),
        J::Number(n) => n.to_string(),
        J::String(s) => format!("{s:?}"),
        J::Array(items) => format!("[{}]", items.iter().map(show_data).collect::<Vec<_>>().join(", ")),
        J::Object(m) => {
            let entries: Vec<String> = m
                .iter()
                .map(|(k, v)| {
                    let plain = k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                    let key = if plain && !k.is_empty() { k.clone() } else { format!("{k:?}") };
                    format!("{key}: {}", show_data(v))
                })
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
    }
}

/// One line of the log: an entry and how deeply it is nested. An event from outside is at depth 0,
/// what its rules do at depth 1, an event they fire at depth 1 and its rules' work at depth 2.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogLine {
    /// Nesting under events.
    pub depth: u32,
    /// What happened.
    #[serde(flatten)]
    pub entry: LogEntry,
}

/// One step of the log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LogEntry {
    /// An event happened (from the host, a scenario or a rule).
    Event {
        /// The event.
        name: String,
        /// Its facts (data of a shape without the fields that hold their defaults).
        facts: Vec<(String, Logged)>,
    },
    /// A rule fired.
    Rule {
        /// The rule's first line.
        text: String,
        /// Where it is.
        span: Span,
    },
    /// A check was rolled.
    Check(Box<CheckResult>),
    /// Dice rolled inside a rule.
    Roll {
        /// The dice as written.
        text: String,
        /// Faces shown.
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
        /// Old value.
        from: Logged,
        /// New value.
        to: Logged,
        /// Why it differs from what the rule asked (clamped to bounds), if it does.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        note: Option<String>,
        /// The `if` conditions of the rule or outcome around the change, outermost first, and
        /// whether each held (the change is in its `else` when not): what made the change.
        #[serde(skip_serializing_if = "Vec::is_empty", default)]
        because: Vec<(Span, bool)>,
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
        to: Logged,
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
    /// The host took an entity out of play.
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
        answer: Logged,
        /// Who answered: `scenario`, `host` or `default`.
        by: String,
        /// Where it was asked.
        span: Span,
    },
    /// A note from the rules.
    Note {
        /// Text.
        text: String,
        /// The `if` conditions of the rule or outcome around the note, outermost first, and whether
        /// each held: when the note applies.
        #[serde(skip_serializing_if = "Vec::is_empty", default)]
        because: Vec<(Span, bool)>,
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
    /// An order a reaction gave, for the table.
    Order {
        /// The order in words.
        text: String,
        /// The script line that gave it, when inline; else the `follow` that ran the reaction.
        span: Span,
        /// The script file and line that gave it (`reactions.rhai line 12`), when in a file.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        from: Option<String>,
    },
    /// A rule of the event did not run because its condition was no; `why` gives the values it read.
    /// Shown by verbose explanations only.
    Skipped {
        /// The rule's first line.
        text: String,
        /// The values its condition read, such as `hp_lost = 2`.
        why: String,
        /// Where it is.
        span: Span,
    },
    /// A table was looked up: the keys, the row that matched (its span) and the value it gave.
    Lookup {
        /// The table's name.
        table: String,
        /// The keys.
        keys: Vec<Logged>,
        /// The value of the row.
        value: Logged,
        /// The row that matched.
        span: Span,
    },
    /// Something a script printed.
    Print {
        /// The text.
        text: String,
        /// The rule that called the script.
        span: Span,
    },
    /// What the odds of a scenario report for the way it ended (`report game, a.morale`): each value
    /// with its label, as people read it. Logged even when the log is off, so that odds can read it.
    Report {
        /// Each value's label (the expression as written) and the value as people read it.
        values: Vec<(String, String)>,
        /// Where.
        span: Span,
    },
    /// A value was recorded for simulations (`record "label" = value`). Logged even when the log is
    /// off, so that a simulation can read it.
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
        /// What was actually found, when it failed.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        found: Option<String>,
        /// Its message.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        message: Option<String>,
        /// Where.
        span: Span,
    },
}
