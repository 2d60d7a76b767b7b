//! What an action the host asked for did: the checks it rolled, the changes it made, the notes its
//! rules wrote, the game's end if it came, and the question it stopped on if a choice waits.

use super::GameOver;
use super::host::{Change, Question};
use crate::ast::Span;
use crate::program::{CheckResult, Value};
use std::sync::Arc;

/// What one action did ([`crate::Session::apply`], [`crate::Session::roll`],
/// [`crate::Session::set_attribute`], [`crate::Session::remove_entity`], [`crate::Session::resume`]).
/// It is collected as the rules run, with the log on or off.
///
/// An action that stopped on a choice the host's chooser wants to wait on
/// ([`crate::Reply::Wait`]) did nothing yet: its `question` says what is asked, and every other part
/// is empty.
///
/// ```
/// use mettle::{Ruleset, Session, Value};
/// let rules = Ruleset::from_str("o.mettle", r#"
///     kind unit { hp: 0..9 = 6 }
///     check hurt { roll d6  outcome bad when total >= 4  otherwise mild }
///     event hit(unit: unit)
///     on hit { roll hurt  remove 2 from unit.hp  note "ouch" }
/// "#).unwrap();
/// let mut s = Session::new(&rules, 1);
/// s.set_logging(false);
/// let u = s.create("unit", "u", &[]).unwrap();
/// let done = s.apply("hit", &[("unit", Value::Entity(u))]).unwrap();
/// assert_eq!(done.checks[0].check, "hurt");
/// assert_eq!(done.notes[0].text, "ouch");
/// assert!(matches!(&done.changes[0], mettle::Change::Attribute { to: Value::Int(4), .. }));
/// assert!(done.ended.is_none() && done.question.is_none());
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Outcome {
    /// For [`crate::Session::roll`] and [`crate::Session::roll_for`]: the result of the check the host
    /// rolled (none when the roll waits on a question). It is also the first of `checks`.
    pub rolled: Option<Arc<CheckResult>>,
    /// Every check rolled, in the order their outcomes were settled: the host's own roll first, then
    /// those the rules it set off rolled.
    pub checks: Vec<Arc<CheckResult>>,
    /// Every change to the game's state, in order: attributes changed (with the rule that changed
    /// them), entities made and removed.
    pub changes: Vec<Change>,
    /// What the rules' `note` statements said, in order.
    pub notes: Vec<Note>,
    /// How the game ended, if this action ended it.
    pub ended: Option<GameOver>,
    /// The question the action stopped on, if it waits for an answer ([`crate::Session::question`]):
    /// then the action was undone and nothing above happened yet.
    pub question: Option<Question>,
}

impl Outcome {
    /// The entities this action made, by id, in order.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("m.mettle", r#"
    ///     kind side { n: 0.. = 0 }
    ///     scenario muster { new side a  new side b }
    /// "#).unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// assert_eq!(s.run_scenario("muster").unwrap().outcome.made(), [0, 1]);
    /// ```
    pub fn made(&self) -> Vec<u32> {
        self.changes
            .iter()
            .filter_map(|c| match c {
                Change::Created { entity, .. } => Some(*entity),
                _ => None,
            })
            .collect()
    }
}

/// What a rule's `note` statement said, and where.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Note {
    /// The note's text.
    pub text: String,
    /// The `note` statement.
    pub span: Span,
}

/// An answer waiting for its choice ([`crate::Session::answers`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct QueuedAnswer {
    /// The choice it answers.
    pub choice: String,
    /// The answer.
    pub value: Value,
    /// Whether the host gave it ([`crate::Session::answer`]); otherwise a scenario's `answer` did.
    pub by_host: bool,
}
