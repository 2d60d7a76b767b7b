//! What a host plugs into a session: its dice, its answers to choices, and its observers of state
//! changes.

use crate::ast::Span;
use crate::dice::{DiceSource, SharedSource};
use crate::program::Value;
use std::fmt;
use std::sync::{Arc, Mutex};

/// A choice a rule asks that has no answer waiting: what a [`Chooser`] is shown, and what
/// [`crate::Session::question`] holds while a session waits for an answer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Question {
    /// The choice's name (`holder`).
    pub choice: String,
    /// The question, as the ruleset words it.
    pub question: String,
    /// The answers it takes, in the ruleset's order; for a number choice, only its lowest (see
    /// `range`).
    pub options: Vec<Value>,
    /// Each option as people read it (names, numbers, yes/no).
    pub shown: Vec<String>,
    /// For a number choice: the lowest and the highest answer (none when unbounded).
    pub range: Option<(i64, Option<i64>)>,
    /// What the rules take when nobody answers: the choice's `default`, else its first option (none
    /// when it has no option).
    pub default: Option<Value>,
    /// Who asks: the entity the asking rule is about, by id, when there is one: the one making the
    /// check whose outcome asks it, else the first entity among the facts of the event whose rule
    /// asks it (none in a scenario, or when that fact is none).
    pub asker: Option<u32>,
    /// Where the rule asks it.
    pub span: Span,
}

impl Question {
    /// Whether `answer` is one this question takes.
    pub fn takes(&self, answer: &Value) -> bool {
        match (self.range, answer) {
            (Some((lo, hi)), Value::Int(x)) => *x >= lo && hi.is_none_or(|h| *x <= h),
            (Some(_), _) => false,
            (None, v) => self.options.contains(v),
        }
    }
}

/// What a [`Chooser`] replies to a question.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// This answer (one of the question's options).
    Answer(Value),
    /// The choice's default, as if no host were asked.
    Default,
    /// Not now: the action stops and is undone, and returns an [`crate::Outcome`] whose `question`
    /// is this question (also kept as [`crate::Session::question`]); the host answers it
    /// ([`crate::Session::answer`]) and runs the action on ([`crate::Session::resume`]), with the
    /// same dice, or drops it ([`crate::Session::abandon`]).
    Wait,
}

/// Asked by the session when a rule asks a choice that has no answer waiting
/// ([`crate::Session::set_chooser`]). Any `FnMut(&Question) -> Reply` is one.
pub trait Chooser: Send {
    /// The reply to `question`.
    fn choose(&mut self, question: &Question) -> Reply;
}

impl<F: FnMut(&Question) -> Reply + Send> Chooser for F {
    fn choose(&mut self, question: &Question) -> Reply {
        self(question)
    }
}

/// One change to the game's state, as an observer sees it ([`crate::Session::observe`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Change {
    /// An attribute changed (by a rule, a script, a timed change running out, or the host).
    Attribute {
        /// The entity's id.
        entity: u32,
        /// The entity's name.
        name: String,
        /// The attribute.
        attribute: String,
        /// Its value before.
        from: Value,
        /// Its value now.
        to: Value,
        /// The rule that changed it (empty when the host did).
        span: Span,
    },
    /// An entity was created.
    Created {
        /// Its id.
        entity: u32,
        /// Its name.
        name: String,
        /// Its kind.
        kind: String,
        /// The rule that created it (empty when the host did).
        span: Span,
    },
    /// The host removed an entity. Every other entity keeps its id, and this one's is never given
    /// again.
    Removed {
        /// Its id, which now names no entity.
        entity: u32,
        /// Its name.
        name: String,
    },
}

/// A host's observer of changes.
pub(crate) type Observer = Arc<Mutex<dyn FnMut(&Change) + Send>>;

/// Everything a host plugged into a session. Clones of the session share them.
#[derive(Clone, Default)]
pub(crate) struct Hooks {
    pub dice: Option<SharedSource>,
    pub chooser: Option<Arc<Mutex<dyn Chooser>>>,
    pub observers: Vec<(u64, Observer)>,
    pub next_observer: u64,
}

impl fmt::Debug for Hooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hooks")
            .field("dice", &self.dice.is_some())
            .field("chooser", &self.chooser.is_some())
            .field("observers", &self.observers.len())
            .finish()
    }
}

impl Hooks {
    /// Tells every observer about `changes`, in order.
    pub fn tell(&self, changes: &[Change]) {
        for (_, o) in &self.observers {
            let mut o = o.lock().unwrap_or_else(|e| e.into_inner());
            for c in changes {
                o(c);
            }
        }
    }

    pub fn set_dice(&mut self, source: impl DiceSource + 'static) {
        self.dice = Some(Arc::new(Mutex::new(source)));
    }
}

/// A handle to an observer, for [`crate::Session::unobserve`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ObserverId(pub(crate) u64);
