//! The explained log: what happened, step by step, as data, with the span of the rule behind each step.

use crate::ast::Span;
use crate::program::CheckResult;
use serde::{Deserialize, Serialize};

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
        /// Its facts, rendered.
        facts: Vec<(String, String)>,
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
        from: String,
        /// New value.
        to: String,
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
        to: String,
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
        answer: String,
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
        /// The keys as shown.
        keys: Vec<String>,
        /// The value of the row.
        value: String,
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
