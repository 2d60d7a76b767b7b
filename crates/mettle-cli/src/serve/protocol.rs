//! The requests and replies of `mettle serve`, as types: what `schemas/serve-request.json` and
//! `schemas/serve-reply.json` are generated from, and what requests are read into.

use crate::cli::json::SimDoc;
pub use mettle::wire::{AnswersReply, Loaded, LogReply, OddsReply, Rolled, Saved, StateReply, Trimmed};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Values given by name (check inputs, event facts, attributes): numbers, `true`/`false` for yes/no,
/// names of states and entities as strings, `null` for none, lists and records for `data`.
pub type Values = BTreeMap<String, serde_json::Value>;

/// A request's id, echoed in its reply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Id {
    /// A number.
    Number(i64),
    /// A string.
    Text(String),
}

/// One request: a line of JSON-RPC 2.0.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Request {
    /// Always `"2.0"`.
    pub jsonrpc: String,
    /// Any number or string; the reply carries it back.
    pub id: Id,
    /// The method and its parameters.
    #[serde(flatten)]
    pub call: Call,
}

/// The methods, each with its parameters.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "method", content = "params", rename_all = "snake_case")]
pub enum Call {
    /// Load a ruleset (from a file, or its text) and start a new session on it.
    Load(LoadParams),
    /// Create an entity.
    Create(CreateParams),
    /// Set an attribute of an entity (as a rule's `set` would, logged), or a house-rule option.
    Set(SetParams),
    /// Apply an event with its facts.
    Apply(ApplyParams),
    /// Roll a check.
    Roll(RollParams),
    /// Answer a choice: the question an action waits on (the action then runs on), or one the rules
    /// will ask later.
    Answer(AnswerParams),
    /// Drop the action waiting on a question.
    Cancel(Empty),
    /// The answers waiting for their choices.
    Answers(Empty),
    /// Drop every answer waiting for its choice.
    ClearAnswers(Empty),
    /// The exact odds of a check (or an estimate when exact is out of reach).
    Odds(OddsParams),
    /// Simulate a scenario or a check many times.
    Sim(SimParams),
    /// The session as a save document (with its log, or without).
    Save(SaveParams),
    /// Put back a session from a save document.
    Restore(RestoreParams),
    /// Take back the last request that changed the session.
    Undo(Empty),
    /// The session's state.
    State(Empty),
    /// The log, or the part of it from a line on.
    Log(LogParams),
    /// Let go of all but the last lines of the log.
    TrimLog(TrimLogParams),
    /// The ruleset's outline.
    Export(Empty),
}

/// The schema of a request, read as the server reads it: a method whose parameters can all be left out
/// (`state`, `log`, …) may leave out `params` too, which the server reads as `{}`. The derived schema
/// requires `params` of every method, so it is taken out of those whose parameters require nothing.
pub fn request_schema() -> schemars::Schema {
    let mut schema = schemars::schema_for!(Request);
    let defs = schema.get("$defs").cloned().unwrap_or_default();
    let requires_nothing = |variant: &serde_json::Value| {
        variant
            .pointer("/properties/params/$ref")
            .and_then(|r| r.as_str()?.strip_prefix("#/$defs/"))
            .and_then(|name| defs.get(name))
            .is_some_and(|params| params.get("required").is_none())
    };
    let variants = schema.get_mut("oneOf").and_then(|v| v.as_array_mut());
    for variant in variants.into_iter().flatten() {
        if requires_nothing(variant)
            && let Some(required) = variant.get_mut("required").and_then(|r| r.as_array_mut())
        {
            required.retain(|name| name != "params");
        }
    }
    schema
}

/// The method names, in the order of [`Call`].
pub const METHODS: [&str; 18] = [
    "load",
    "create",
    "set",
    "apply",
    "roll",
    "answer",
    "cancel",
    "answers",
    "clear_answers",
    "odds",
    "sim",
    "save",
    "restore",
    "undo",
    "state",
    "log",
    "trim_log",
    "export",
];

/// No parameters (`{}`, or leave `params` out).
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Empty {}

/// `load`: a file, or a ruleset's text with a name for messages.
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LoadParams {
    /// The ruleset's path.
    pub file: Option<String>,
    /// The ruleset's text (instead of a file).
    pub text: Option<String>,
    /// The name messages give the text (default `request`).
    pub name: Option<String>,
    /// The seed of the new session's dice (default: the one `mettle serve --seed` was given).
    pub seed: Option<u64>,
    /// What happens when a rule asks a choice that has no answer waiting (default `ask`).
    pub choices: Option<Choices>,
}

/// What happens when a rule asks a choice that has no answer waiting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Choices {
    /// The request stops with the question in its `outcome`, and the action waits for `answer` or
    /// `cancel`.
    Ask,
    /// The choice takes its default, and nothing is asked.
    Default,
}

/// `create`: a new entity.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateParams {
    /// Its kind.
    pub kind: String,
    /// Its name.
    pub name: String,
    /// Attributes other than the defaults.
    #[serde(default)]
    pub with: Values,
}

/// `set`: `entity` and `attribute`, or `option`, to `value`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetParams {
    /// The entity.
    pub entity: Option<String>,
    /// Its attribute.
    pub attribute: Option<String>,
    /// A house-rule option (instead of an entity's attribute).
    pub option: Option<String>,
    /// The new value.
    pub value: serde_json::Value,
}

/// `apply`: an event and its facts.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ApplyParams {
    /// The event.
    pub event: String,
    /// Its facts (those with defaults may be left out).
    #[serde(default)]
    pub facts: Values,
    /// Faces the next dice show, in order, as a scenario's `dice` line forces them (the table's own
    /// dice); the rest are rolled.
    #[serde(default)]
    pub dice: Vec<i64>,
}

/// `roll`: a check, its inputs, and who makes it.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RollParams {
    /// The check.
    pub check: String,
    /// Its inputs (those with defaults may be left out).
    #[serde(default)]
    pub set: Values,
    /// The entity that makes it, for a check made by someone.
    #[serde(rename = "for")]
    pub by: Option<String>,
    /// Faces the next dice show, in order (as for `apply`).
    #[serde(default)]
    pub dice: Vec<i64>,
}

/// `answer`: the answer to a choice, queued for when the rules ask it.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AnswerParams {
    /// The choice.
    pub choice: String,
    /// The answer.
    pub value: serde_json::Value,
}

/// `odds`: as `roll`, and the seed of an estimate.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OddsParams {
    /// The check.
    pub check: String,
    /// Its inputs.
    #[serde(default)]
    pub set: Values,
    /// The entity that makes it.
    #[serde(rename = "for")]
    pub by: Option<String>,
    /// The seed of an estimate, when exact is out of reach (default 0).
    #[serde(default)]
    pub seed: u64,
}

/// `sim`: a scenario, or a check with its inputs and its maker's attributes.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SimParams {
    /// The scenario.
    pub scenario: Option<String>,
    /// The check (instead of a scenario).
    pub check: Option<String>,
    /// The check's inputs.
    #[serde(default)]
    pub set: Values,
    /// The stand-in's attributes, for a check made by someone.
    #[serde(default)]
    pub with: Values,
    /// Runs (at most the `steps` budget).
    pub runs: u64,
    /// The seed (default 0).
    #[serde(default)]
    pub seed: u64,
}

/// `save`: with the log (the default) or without it.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SaveParams {
    /// Whether the save carries the log (default `true`). Without it, the restored session's log is
    /// empty and numbers its lines on from where this one's are.
    #[serde(default = "yes")]
    pub log: bool,
}

impl Default for SaveParams {
    fn default() -> SaveParams {
        SaveParams { log: true }
    }
}

fn yes() -> bool {
    true
}

/// `restore`: a document `save` gave.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RestoreParams {
    /// The save document.
    pub save: serde_json::Value,
    /// Carry a save over to rules whose structure changed since (default `false`): every value in it
    /// is found again by name and must fit; each change comes back as a warning.
    #[serde(default)]
    pub adapt: bool,
}

/// `log`: the lines from `from` on (default 0, the whole log). Lines are numbered from the game's
/// first, including the lines `trim_log` let go.
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LogParams {
    /// The first line wanted.
    #[serde(default)]
    pub from: usize,
}

/// `trim_log`: keep the last `keep` lines.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TrimLogParams {
    /// How many of the last lines to keep.
    pub keep: usize,
}

/// A reply: the request's id with a result, or with an error.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Reply {
    /// The request was carried out.
    Ok {
        /// Always `"2.0"`.
        jsonrpc: String,
        /// The request's id.
        id: Id,
        /// What it gave.
        result: Box<Outcome>,
    },
    /// The request was refused; the session is as it was.
    Err {
        /// Always `"2.0"`.
        jsonrpc: String,
        /// The request's id (`null` when it could not be read).
        id: Option<Id>,
        /// What went wrong.
        error: ReplyError,
    },
}

/// An error reply's error.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ReplyError {
    /// -32700: not JSON; -32600: not a request; -32601: no such method; -32602: wrong parameters;
    /// 1: the ruleset does not load; 2: the rules refused (an unknown name, a value out of range, a
    /// failed action); 3: nothing to do it on (no ruleset loaded, nothing to undo); 4: over a budget.
    pub code: i64,
    /// What went wrong, in one sentence.
    pub message: String,
    /// The errors, with codes, help and places.
    pub data: crate::cli::json::ErrorDoc,
}

/// What a request gave, by method.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Outcome {
    /// `load`.
    Loaded(Loaded),
    /// `create`, `set`, `apply`, `answer`, `cancel`, `restore`, `undo`, `state`.
    State(StateReply),
    /// `roll`.
    Rolled(Rolled),
    /// `odds`.
    Odds(OddsReply),
    /// `sim`.
    Sim(SimDoc),
    /// `save`.
    Saved(Saved),
    /// `log`.
    Log(LogReply),
    /// `trim_log`.
    Trimmed(Trimmed),
    /// `answers`, `clear_answers`.
    Answers(AnswersReply),
    /// `export`.
    Export(crate::cli::json::ExportDoc),
}
