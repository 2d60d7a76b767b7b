//! Typed views of what an action did ([`crate::Outcome`]), the question it stopped on, and the
//! answers waiting for their choices.

use super::{Check, Ended, Span, Val, check, value};
use crate::session::{Change, Outcome, Question, Session};
use serde::Serialize;

/// What an action did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OutcomeView {
    /// Every check rolled, in the order their outcomes were settled (a roll's own first).
    pub checks: Vec<Check>,
    /// Attributes changed, in order.
    pub changes: Vec<ChangeView>,
    /// Entities made, in order.
    pub made: Vec<MadeView>,
    /// Entities taken out of play, by name, in order.
    pub removed: Vec<String>,
    /// What the rules' `note` statements said, in order.
    pub notes: Vec<NoteView>,
    /// How the game ended, if this action ended it.
    pub ended: Option<Ended>,
    /// The question the action stopped on, if a choice waits for an answer (then nothing else
    /// happened yet).
    pub question: Option<QuestionView>,
}

/// An attribute that changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ChangeView {
    /// The entity's name.
    pub entity: String,
    /// The attribute.
    pub attribute: String,
    /// Its value before.
    pub before: Val,
    /// Its value after.
    pub after: Val,
    /// The rule that changed it (empty when the host did).
    pub span: Span,
}

/// An entity made.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MadeView {
    /// Its name.
    pub entity: String,
    /// Its kind.
    pub kind: String,
    /// The rule that made it (empty when the host did).
    pub span: Span,
}

/// A rule's note.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NoteView {
    /// What it says.
    pub text: String,
    /// The `note` statement.
    pub span: Span,
}

/// A question a rule asks and waits on.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct QuestionView {
    /// The choice's name, to answer.
    pub choice: String,
    /// The question, as the ruleset words it.
    pub question: String,
    /// The entity the asking rule is about, when there is one.
    pub asker: Option<String>,
    /// The answers it takes (for a number choice, only its lowest: see `range`).
    pub options: Vec<Val>,
    /// What the rules take when nobody answers.
    pub default: Option<Val>,
    /// For a number choice: its lowest and highest answer (`hi` is `null` when unbounded).
    pub range: Option<RangeView>,
    /// Where the rule asks it.
    pub span: Span,
}

/// The answers a number choice takes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RangeView {
    /// The lowest answer.
    pub lo: i64,
    /// The highest, if there is one.
    pub hi: Option<i64>,
}

/// An answer waiting for its choice.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AnswerView {
    /// The choice.
    pub choice: String,
    /// The answer.
    pub value: Val,
    /// Whether the host gave it (otherwise a scenario's `answer` did).
    pub by_host: bool,
}

/// The typed view of what an action did, read through `session` (names of states and entities).
///
/// ```
/// use mettle::{Ruleset, Session, Value};
/// let rules = Ruleset::from_str("o.mettle", r#"
///     kind unit { hp: 0..9 = 6 }
///     event hit(unit: unit)
///     on hit { remove 2 from unit.hp  note "ouch" }
/// "#).unwrap();
/// let mut s = Session::new(&rules, 1);
/// let u = s.create("unit", "alpha", &[]).unwrap();
/// let done = s.apply("hit", &[("unit", Value::Entity(u))]).unwrap();
/// let json = serde_json::to_value(mettle::wire::outcome(&s, &done)).unwrap();
/// assert_eq!(json["changes"][0]["entity"], "alpha");
/// assert_eq!((&json["changes"][0]["before"], &json["changes"][0]["after"]), (&6.into(), &4.into()));
/// assert_eq!(json["notes"][0]["text"], "ouch");
/// ```
pub fn outcome(session: &Session, o: &Outcome) -> OutcomeView {
    let mut view = OutcomeView {
        checks: o.checks.iter().map(|r| check(session, r)).collect(),
        changes: vec![],
        made: vec![],
        removed: vec![],
        notes: o.notes.iter().map(|n| NoteView { text: n.text.clone(), span: n.span.into() }).collect(),
        ended: o.ended.as_ref().map(|e| Ended { result: e.result.clone(), winner: e.winner.clone() }),
        question: o.question.as_ref().map(|q| question(session, q)),
    };
    for c in &o.changes {
        match c {
            Change::Attribute { name, attribute, from, to, span, .. } => view.changes.push(ChangeView {
                entity: name.clone(),
                attribute: attribute.clone(),
                before: value(session, from),
                after: value(session, to),
                span: (*span).into(),
            }),
            Change::Created { name, kind, span, .. } => {
                view.made.push(MadeView { entity: name.clone(), kind: kind.clone(), span: (*span).into() })
            }
            Change::Removed { name, .. } => view.removed.push(name.clone()),
        }
    }
    view
}

/// The typed view of a question.
pub fn question(session: &Session, q: &Question) -> QuestionView {
    QuestionView {
        choice: q.choice.clone(),
        question: q.question.clone(),
        asker: q.asker.and_then(|e| session.state().entities.get(e)).map(|e| e.name.clone()),
        options: q.options.iter().map(|v| value(session, v)).collect(),
        default: q.default.as_ref().map(|v| value(session, v)),
        range: q.range.map(|(lo, hi)| RangeView { lo, hi }),
        span: q.span.into(),
    }
}

/// The typed view of the answers waiting for their choices ([`Session::answers`]).
pub fn answers(session: &Session) -> Vec<AnswerView> {
    session
        .answers()
        .into_iter()
        .map(|a| AnswerView { choice: a.choice, value: value(session, &a.value), by_host: a.by_host })
        .collect()
}
