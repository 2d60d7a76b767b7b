//! Typed JSON views of what a session produces — check results, log lines, odds reports, the state —
//! for hosts in other languages: numbers as numbers, yes/no as booleans, states and entities by name.
//!
//! The library's own types ([`CheckResult`], [`LogLine`](crate::session::LogLine),
//! [`Report`](crate::odds::Report)) keep ids and display strings for saving and for explanations; the
//! views here resolve them through the ruleset and the session, once, into plain data that serialises
//! the same way every time. With the `schema` feature each view also derives `schemars::JsonSchema`,
//! which is how `schemas/` is generated.
//!
//! ```
//! use mettle::{Ruleset, Session, Value};
//! let rules = Ruleset::from_str("w.mettle", r#"
//!     kind unit { spi: 0..6 = 3  morale: steady | shaken = steady }
//!     check morale for unit { input spi: 0..6  roll d6  modifier "Spirit" +spi  target 7
//!                             outcome steady when total >= target  otherwise shaken { set unit.morale to shaken } }
//! "#).unwrap();
//! let mut s = Session::new(&rules, 1);
//! let a = s.create("unit", "alpha", &[]).unwrap();
//! s.force_dice(&[2]);
//! let r = s.roll_for("morale", Some(a), &[("spi", Value::Int(3))]).unwrap().rolled.unwrap();
//! let json = serde_json::to_value(mettle::wire::check(&s, &r)).unwrap();
//! assert_eq!(json["inputs"][0], serde_json::json!({ "name": "spi", "value": 3 }));
//! assert_eq!(json["outcome"], "shaken");
//! let log = serde_json::to_value(mettle::wire::log(&s, s.log())).unwrap();
//! assert!(log.as_array().unwrap().iter().any(|l| l["type"] == "change" && l["to"] == "shaken"));
//! ```

mod docs;
mod log;
mod odds;
mod outcome;
mod read;
mod replies;

pub use docs::{
    CheckDoc, DiceRoll, DiceRollDoc, ErrorDoc, ErrorInfo, ErrorLabel, ExportDoc, FileCheck, Group, Meta,
    OddsDoc, Place, PlayDoc, RollDoc, SCHEMA, Severity, SimDoc, SimGroup, SimTarget, SweepDoc, SweepRow,
    error_info, place, plain_error, plain_warning, sim_group, sim_groups,
};
#[cfg(feature = "schema")]
pub use docs::{schemas, written};
pub use read::{Fields, entity, read, read_answer, read_one};
pub use replies::{AnswersReply, Loaded, LogReply, OddsReply, Rolled, Saved, StateReply, Trimmed};

pub use log::{Because, Entry, Line, log};
pub use odds::{
    Chance, DefaultedInput, EffectChance, EffectOdds, Method, Odds, Point, Unfollowed, ValueOdds, odds,
};
pub use outcome::{
    AnswerView, ChangeView, MadeView, NoteView, OutcomeView, QuestionView, RangeView, answers, outcome,
    question,
};

use crate::program::{CheckResult, Program, Ty, Value};
use crate::session::Session;
use serde::Serialize;

/// A byte range `start..end` into the ruleset's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl From<crate::ast::Span> for Span {
    fn from(s: crate::ast::Span) -> Span {
        Span { start: s.start, end: s.end }
    }
}

/// A value as JSON: a number, `true`/`false` for yes/no, a name (a state, an outcome, an entity),
/// `null` for none, rolled dice, a check's result, or the host's own data.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum Val {
    /// A number.
    Number(i64),
    /// yes (`true`) or no (`false`).
    Flag(bool),
    /// A state, an outcome, an entity or text, by name.
    Name(String),
    /// Rolled dice.
    Dice(Dice),
    /// The result of a check.
    Result(Box<Check>),
    /// None (no entity), or data the host passed in (lists and records).
    Data(serde_json::Value),
}

/// One die of a roll.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Die {
    /// The face it shows.
    pub face: i64,
    /// Whether it counts (not dropped).
    pub kept: bool,
    /// Faces it showed before being rerolled.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rerolled: Vec<i64>,
    /// The face it was rolled with, when `minN` raised it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raised: Option<i64>,
    /// Whether an exploding die added it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exploded: bool,
    /// The modifier that added it, when not the roll itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
}

/// Rolled dice and their value.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Dice {
    /// As written (`2d6kh1`).
    pub notation: String,
    /// Sides of each die (the largest face for custom dice).
    pub sides: i64,
    /// The dice in the order rolled.
    pub dice: Vec<Die>,
    /// The sum of the kept dice, or the number of successes.
    pub value: i64,
}

impl From<&crate::program::Pool> for Dice {
    fn from(p: &crate::program::Pool) -> Dice {
        Dice {
            notation: p.notation.clone(),
            sides: p.sides,
            dice: p
                .dice
                .iter()
                .map(|d| Die {
                    face: d.face,
                    kept: d.kept,
                    rerolled: d.rerolled.clone(),
                    raised: d.raised,
                    exploded: d.exploded,
                    from: d.from.clone(),
                })
                .collect(),
            value: p.value,
        }
    }
}

/// A name and its value (inputs, facts, attributes), in the order the rules declare them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Named {
    /// The name.
    pub name: String,
    /// The value.
    pub value: Val,
}

/// A modifier that applied to a check.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Modifier {
    /// Its label.
    pub label: String,
    /// The amount, after its cap.
    pub amount: i64,
    /// Whether the amount is a number of dice.
    pub dice: bool,
    /// The rule that gave it.
    pub span: Span,
}

/// The result of one check.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Check {
    /// The check's name.
    pub check: String,
    /// Who made it, when anyone did.
    pub subject: Option<String>,
    /// The inputs, given or defaulted (empty when the session's log is off).
    pub inputs: Vec<Named>,
    /// The dice, when the check rolls any.
    pub pool: Option<Dice>,
    /// The modifiers that applied.
    pub modifiers: Vec<Modifier>,
    /// Dice plus flat modifiers.
    pub total: i64,
    /// The target, when the check has one.
    pub target: Option<i64>,
    /// `total - target`, when there is a target.
    pub margin: Option<i64>,
    /// The values the check worked out with `let` (empty when the log is off).
    pub values: Vec<Named>,
    /// The outcome.
    pub outcome: String,
    /// The outcome rule that was chosen.
    pub outcome_span: Span,
    /// The check.
    pub span: Span,
    /// The rolls `reroll when …` set aside before this one, first first (absent when none was, or
    /// the log is off).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rerolled: Vec<Rerolled>,
}

/// A roll of a check that `reroll when …` set aside.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Rerolled {
    /// The dice, when the check rolls any.
    pub pool: Option<Dice>,
    /// Dice plus flat modifiers.
    pub total: i64,
    /// The outcome it landed on, which sent it to be rolled again.
    pub outcome: String,
}

/// The typed view of a check's result, read through `session` (for entity names).
pub fn check(session: &Session, r: &CheckResult) -> Check {
    let p = session.ruleset().program();
    let c = p.checks.get(r.check_id as usize);
    let slot = |i: usize, shown: &str, ty: Option<&Ty>| match r.slots.get(i) {
        Some(v) if !r.slots.is_empty() => value(session, v),
        _ => typed(p, ty, shown),
    };
    let inputs = r
        .inputs
        .iter()
        .enumerate()
        .map(|(i, (name, shown))| {
            let ty = c.and_then(|c| c.inputs.get(i)).map(|inp| &inp.field.ty);
            Named { name: name.clone(), value: slot(i, shown, ty) }
        })
        .collect();
    let values = r
        .values
        .iter()
        .map(|(name, shown)| {
            let at = c.and_then(|c| c.lets.iter().find(|(n, _)| n == name)).map(|(_, s)| *s as usize);
            let value = match at {
                Some(s) => slot(s, shown, None),
                None => typed(p, None, shown),
            };
            Named { name: name.clone(), value }
        })
        .collect();
    Check {
        check: r.check.clone(),
        subject: r.subject.clone(),
        inputs,
        pool: r.pool.as_ref().map(Dice::from),
        modifiers: r
            .modifiers
            .iter()
            .map(|m| Modifier { label: m.label.clone(), amount: m.amount, dice: m.dice, span: m.span.into() })
            .collect(),
        total: r.total,
        target: r.target,
        margin: r.margin,
        values,
        outcome: r.outcome.clone(),
        outcome_span: r.outcome_span.into(),
        span: r.span.into(),
        rerolled: r
            .rerolled
            .iter()
            .map(|x| Rerolled {
                pool: x.pool.as_ref().map(Dice::from),
                total: x.total,
                outcome: x.outcome.clone(),
            })
            .collect(),
    }
}

/// The typed view of one value, read through `session` (names of states and entities).
pub fn value(session: &Session, v: &Value) -> Val {
    match v {
        Value::Int(i) => Val::Number(*i),
        Value::Bool(b) => Val::Flag(*b),
        Value::Name { .. } => Val::Name(crate::export::value_name(session.ruleset().program(), v)),
        Value::Entity(e) => match session.state().entities.get(*e) {
            Some(e) => Val::Name(e.name.clone()),
            None => Val::Data(serde_json::Value::Null),
        },
        Value::None => Val::Data(serde_json::Value::Null),
        Value::Pool(p) => Val::Dice(Dice::from(&**p)),
        Value::Result(r) => Val::Result(Box::new(check(session, r))),
        Value::Data(d) => Val::Data((**d).clone()),
    }
}

/// A value the log keeps as text, typed again by its declared type: numbers and yes/no become JSON
/// numbers and booleans, `none` becomes `null`, names stay names. Without a type, a whole number is
/// read as a number.
fn typed(_p: &Program, ty: Option<&Ty>, shown: &str) -> Val {
    match ty {
        Some(Ty::Flag) => match shown {
            "yes" => Val::Flag(true),
            "no" => Val::Flag(false),
            _ => Val::Name(shown.to_string()),
        },
        Some(Ty::Entity(_)) | Some(Ty::None) if shown == "none" => Val::Data(serde_json::Value::Null),
        Some(Ty::Int { .. }) | Some(Ty::Pool) | None => match shown.parse::<i64>() {
            Ok(i) => Val::Number(i),
            Err(_) if ty.is_none() && (shown == "yes" || shown == "no") => Val::Flag(shown == "yes"),
            Err(_) => Val::Name(shown.to_string()),
        },
        Some(Ty::Data) => {
            serde_json::from_str(shown).map(Val::Data).unwrap_or_else(|_| Val::Name(shown.into()))
        }
        Some(_) => Val::Name(shown.to_string()),
    }
}

/// One entity and its attributes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EntityView {
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: String,
    /// Its attributes, in the kind's order.
    pub attributes: Vec<Named>,
}

/// An order a reaction gave, for the table.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OrderView {
    /// Who it is for, when the reaction said.
    pub who: Option<String>,
    /// `move towards`, `move away from`, `flee`, `surrender` or `order`.
    pub verb: String,
    /// What it moves towards or away from.
    pub target: Option<String>,
    /// The order in words.
    pub text: String,
}

/// How the game ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Ended {
    /// The result's name.
    pub result: String,
    /// The winner, when there is one.
    pub winner: Option<String>,
}

/// The state of a game: round, turn, entities, options, orders and how it ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StateView {
    /// The seed the session started from.
    pub seed: u64,
    /// Current round.
    pub round: i64,
    /// Current turn.
    pub turn: i64,
    /// The entities in play, in the order they were made.
    pub entities: Vec<EntityView>,
    /// House-rule options and their values in this session.
    pub options: Vec<Named>,
    /// The orders the last reaction gave.
    pub orders: Vec<OrderView>,
    /// Dice faces forced for the next rolls.
    pub forced: Vec<i64>,
    /// Set once the game has ended.
    pub over: Option<Ended>,
}

/// The typed view of a session's state.
pub fn state(session: &Session) -> StateView {
    let p = session.ruleset().program();
    let st = session.state();
    StateView {
        seed: st.seed,
        round: st.round,
        turn: st.turn,
        entities: st
            .entities
            .iter()
            .map(|(_, e)| {
                let kind = &p.kinds[e.kind as usize];
                EntityView {
                    name: e.name.clone(),
                    kind: kind.name.clone(),
                    attributes: kind
                        .fields
                        .iter()
                        .zip(&e.fields)
                        .map(|(f, v)| Named { name: f.name.clone(), value: value(session, v) })
                        .collect(),
                }
            })
            .collect(),
        options: p
            .options
            .iter()
            .zip(&st.options)
            .map(|(f, v)| Named { name: f.name.clone(), value: value(session, v) })
            .collect(),
        orders: st
            .orders
            .iter()
            .map(|o| OrderView {
                who: o.who.clone(),
                verb: o.verb.clone(),
                target: o.target.clone(),
                text: o.text.clone(),
            })
            .collect(),
        forced: st.forced.iter().copied().collect(),
        over: st.over.as_ref().map(|o| Ended { result: o.result.clone(), winner: o.winner.clone() }),
    }
}
