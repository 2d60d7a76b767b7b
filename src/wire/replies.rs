//! What `mettle serve` replies to a request that succeeds, one type a method (`load`, `create`,
//! `roll`, `log`…), shared with the JavaScript package, whose session methods give the same replies.

use super::{AnswerView, Check, ErrorInfo, Line, Meta, Odds, OutcomeView, StateView};
use crate::{Ruleset, Session};
use serde::Serialize;

/// What `load` gives: the ruleset's names, and its warnings.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Loaded {
    /// The schema version.
    pub mettle: Meta,
    /// The ruleset's name.
    pub ruleset: String,
    /// Its title, when it has one.
    pub title: Option<String>,
    /// Its kinds.
    pub kinds: Vec<String>,
    /// Its events.
    pub events: Vec<String>,
    /// Its checks.
    pub checks: Vec<String>,
    /// Its choices.
    pub choices: Vec<String>,
    /// Its scenarios.
    pub scenarios: Vec<String>,
    /// Its warnings.
    pub warnings: Vec<ErrorInfo>,
}

impl Loaded {
    /// What `rules` holds, by name, and its warnings.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("s.mettle", "kind unit { spi: 0..6 = 3 }").unwrap();
    /// let loaded = mettle::wire::Loaded::new(&rules);
    /// assert_eq!((loaded.ruleset.as_str(), loaded.kinds.as_slice()), ("s.mettle", &["unit".to_string()][..]));
    /// ```
    pub fn new(rules: &Ruleset) -> Loaded {
        let p = rules.program();
        let names = |v: &mut dyn Iterator<Item = &String>| v.cloned().collect::<Vec<_>>();
        Loaded {
            mettle: Meta::default(),
            ruleset: rules.name().to_string(),
            title: p.title.clone(),
            kinds: names(&mut p.kinds.iter().map(|k| &k.name)),
            events: names(&mut p.events.iter().map(|e| &e.name)),
            checks: names(&mut p.checks.iter().map(|c| &c.name)),
            choices: names(&mut p.choices.iter().map(|c| &c.name)),
            scenarios: names(&mut p.scenarios.iter().map(|s| &s.name)),
            warnings: rules
                .warnings()
                .iter()
                .map(|d| super::error_info(d, rules.name(), rules.text()))
                .collect(),
        }
    }
}

/// What a request that acts on the session gives: the log lines it added, and the state after it.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StateReply {
    /// The schema version.
    pub mettle: Meta,
    /// What a `restore` with `adapt` carried over (the changes of the rules), as warnings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<ErrorInfo>,
    /// The lines the request added to the log.
    pub log: Vec<Line>,
    /// The state after it.
    pub state: StateView,
    /// What the request did (`create`, `set`, `apply`, and `answer` when it ran on an action that
    /// waited); its `question` says what the action waits on, if it stopped on one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<OutcomeView>,
}

impl StateReply {
    /// The state of `session`, its log from line `from` (of those it keeps) on, and `done`, what the
    /// request did.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("s.mettle", "kind unit { spi: 0..6 = 3 }").unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// s.create("unit", "alpha", &[]).unwrap();
    /// let reply = mettle::wire::StateReply::new(&s, 0, None);
    /// assert_eq!(reply.state.entities[0].name, "alpha");
    /// ```
    pub fn new(session: &Session, from: usize, done: Option<&crate::Outcome>) -> StateReply {
        StateReply {
            mettle: Meta::default(),
            warnings: vec![],
            log: super::log(session, &session.log()[from.min(session.log().len())..]),
            state: super::state(session),
            outcome: done.map(|d| super::outcome(session, d)),
        }
    }
}

/// What `roll` gives.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Rolled {
    /// The schema version.
    pub mettle: Meta,
    /// The check's result (`null` when the roll waits on a question).
    pub result: Option<Check>,
    /// The lines the roll added to the log (the check, and its outcome's rules).
    pub log: Vec<Line>,
    /// What the roll did; its `question` says what it waits on, if it stopped on one.
    pub outcome: OutcomeView,
}

impl Rolled {
    /// What roll `done` in `session` gave: its result (none while it waits on a question), the log
    /// from line `from` on, and what it did.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("s.mettle", "check c { roll d6  outcome hit when total >= 4  otherwise miss }").unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// s.force_dice(&[5]);
    /// let done = s.roll_for("c", None, &[]).unwrap();
    /// assert_eq!(mettle::wire::Rolled::new(&s, 0, &done).result.unwrap().outcome, "hit");
    /// ```
    pub fn new(session: &Session, from: usize, done: &crate::Outcome) -> Rolled {
        Rolled {
            mettle: Meta::default(),
            result: done.rolled.as_ref().map(|r| super::check(session, r)),
            log: super::log(session, &session.log()[from.min(session.log().len())..]),
            outcome: super::outcome(session, done),
        }
    }
}

/// What `answers` and `clear_answers` give.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AnswersReply {
    /// The schema version.
    pub mettle: Meta,
    /// The answers waiting for their choices, in the order they will be taken.
    pub answers: Vec<AnswerView>,
}

impl AnswersReply {
    /// The answers waiting in `session`.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("s.mettle", "kind unit { spi: 0..6 = 3 }").unwrap();
    /// let s = mettle::Session::new(&rules, 1);
    /// assert!(mettle::wire::AnswersReply::new(&s).answers.is_empty());
    /// ```
    pub fn new(session: &Session) -> AnswersReply {
        AnswersReply { mettle: Meta::default(), answers: super::answers(session) }
    }
}

/// What `odds` gives.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OddsReply {
    /// The schema version.
    pub mettle: Meta,
    /// The report.
    pub odds: Odds,
}

/// What `save` gives.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Saved {
    /// The schema version.
    pub mettle: Meta,
    /// The saved session, to give back to `restore` (its format is the library's save format).
    pub save: serde_json::Value,
}

/// What `log` gives.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LogReply {
    /// The schema version.
    pub mettle: Meta,
    /// How many lines the whole log has, counting those `trim_log` let go.
    pub length: usize,
    /// The number of the first line kept (how many `trim_log` let go).
    pub first: usize,
    /// The lines asked for (those of them that are kept).
    pub log: Vec<Line>,
}

impl LogReply {
    /// The log of `session` from line `from` on, lines numbered from the game's first: those
    /// `trim_log` let go are not sent.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("s.mettle", "kind unit { spi: 0..6 = 3 }").unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// s.create("unit", "alpha", &[]).unwrap();
    /// let all = mettle::wire::LogReply::new(&s, 0);
    /// assert_eq!((all.first, all.length, all.log.len()), (0, s.log().len(), s.log().len()));
    /// ```
    pub fn new(session: &Session, from: usize) -> LogReply {
        let first = session.log_start();
        let lines = &session.log()[from.saturating_sub(first).min(session.log().len())..];
        LogReply {
            mettle: Meta::default(),
            length: first + session.log().len(),
            first,
            log: super::log(session, lines),
        }
    }
}

/// What `trim_log` gives.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Trimmed {
    /// The schema version.
    pub mettle: Meta,
    /// How many lines this request let go.
    pub dropped: usize,
    /// The number of the first line kept.
    pub first: usize,
    /// How many lines the whole log has, counting those let go.
    pub length: usize,
}

impl Trimmed {
    /// Lets go of all but the last `keep` lines of the log of `session`, and says so.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("s.mettle", "kind unit { spi: 0..6 = 3 }").unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// s.create("unit", "alpha", &[]).unwrap();
    /// let t = mettle::wire::Trimmed::trim(&mut s, 0);
    /// assert_eq!((t.first, t.length, s.log().len()), (t.dropped, t.dropped, 0));
    /// ```
    pub fn trim(session: &mut Session, keep: usize) -> Trimmed {
        let dropped = session.trim_log(keep);
        let first = session.log_start();
        Trimmed { mettle: Meta::default(), dropped, first, length: first + session.log().len() }
    }
}
