//! A game in progress: entities, the round and turn, a seeded random generator (ChaCha8, seeded from a
//! `u64`), and the explained log. Events, checks and scenarios run here.

mod action;
mod adapt;
mod checkpoint;
mod entities;
mod fits;
mod host;
mod log;
mod ops;
mod outcome;
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
pub(crate) mod plan;
mod prompt;
pub(crate) mod run;
mod save;
pub(crate) mod saved_data;
mod show;
mod states;
mod structure;

pub use checkpoint::Checkpoint;
pub use entities::{Entities, Iter};
pub use host::{Change, Chooser, ObserverId, Question, Reply};
pub use log::{LogEntry, LogLine, Logged};
pub use outcome::{Note, Outcome, QueuedAnswer};
#[cfg_attr(not(feature = "internals"), allow(unused_imports))]
pub(crate) use plan::{DiceSpec, FaceSpec, Prepared, QuietRoll, Settled};
pub use save::{SAVE_FORMAT, SaveOptions, fingerprint};
pub use show::{render_log, render_log_verbose};
pub(crate) use states::{Keep, LastRead, state_key, write_key};

use crate::Ruleset;
use crate::ast::Span;
use crate::diagnostics::{Diagnostic, suggest};
use crate::program::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
pub(crate) use run::QuietGame;
use run::Runner;
#[cfg(feature = "internals")]
pub(crate) use run::differ;
pub(crate) use run::{Lowered, lower};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// An entity in play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entity {
    /// Its kind, by index ([`Ruleset::kind_name`] names it).
    pub kind: KindId,
    /// Its name.
    pub name: String,
    /// Attribute values in the kind's order.
    pub fields: Vec<Value>,
}

/// When a timed change runs out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Expiry {
    /// At the next `turn_end`.
    TurnEnd,
    /// At the `round_end` of this round.
    RoundEnd(i64),
    /// The next time this event fires (with the fact in [`Timed::fact`], when there is one), before
    /// its rules run.
    Event(u32),
}

impl Expiry {
    /// Whether this comes after `other`.
    pub fn later_than(self, other: Expiry) -> bool {
        match (self, other) {
            (Expiry::RoundEnd(a), Expiry::RoundEnd(b)) => a > b,
            (Expiry::RoundEnd(_), Expiry::TurnEnd) => true,
            (Expiry::TurnEnd, _) => false,
            // An event's time cannot be set against a turn's or a round's: the newer change decides.
            (Expiry::Event(_), _) | (_, Expiry::Event(_)) => true,
        }
    }
}

/// A change that will be undone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Timed {
    /// The entity.
    pub entity: u32,
    /// The attribute.
    pub field: u32,
    /// The value to restore.
    pub restore: Value,
    /// For numbers: how much the timed change added, taken off again when it runs out.
    #[serde(default)]
    pub delta: Option<i64>,
    /// When.
    pub expiry: Expiry,
    /// For [`Expiry::Event`] with `for …`: the fact (its place among the event's facts) and the value
    /// it must have for the change to end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fact: Option<(u32, Value)>,
    /// The rule that made it.
    pub span: Span,
}

/// How the game ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameOver {
    /// The result's name.
    pub result: String,
    /// The winner's name.
    pub winner: Option<String>,
    /// Index of the result in the results set.
    pub index: u32,
    /// The winner's id.
    pub winner_id: Option<u32>,
}

/// Everything that changes while a game runs; serialises losslessly, generator included. A host reads
/// it through [`Session::state`] and the accessors below; it changes only through the session.
///
/// ```
/// let rules = mettle::Ruleset::from_str("s.mettle", "kind unit { hp: 0.. = 3 }").unwrap();
/// let mut s = mettle::Session::new(&rules, 42);
/// s.create("unit", "a", &[]).unwrap();
/// s.force_dice(&[6, 1]);
/// let state = s.state();
/// assert_eq!((state.seed(), state.round(), state.entities().len()), (42, 0, 1));
/// assert_eq!(state.forced().collect::<Vec<_>>(), [6, 1]);
/// assert!(state.over().is_none() && state.orders().is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The seed the session started from.
    pub(crate) seed: u64,
    /// The generator (ChaCha8).
    pub(crate) rng: ChaCha8Rng,
    /// Current round.
    pub(crate) round: i64,
    /// Current turn.
    pub(crate) turn: i64,
    /// Entities, by id (copies of the state share the entities neither has changed).
    pub(crate) entities: Entities,
    /// Faces the next dice must show.
    pub(crate) forced: VecDeque<i64>,
    /// Answers waiting for their choices.
    pub(crate) answers: Vec<(u32, Value)>,
    /// Which of the waiting answers the host gave ([`Session::answer`]), by position; missing ones
    /// are a scenario's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) host_answers: Vec<bool>,
    /// Changes to undo later.
    pub(crate) timed: Vec<Timed>,
    /// The last result of each check.
    pub(crate) last: Vec<Option<Arc<CheckResult>>>,
    /// Set once the game has ended.
    pub(crate) over: Option<GameOver>,
    /// The orders the last reaction gave, for the table.
    #[serde(default)]
    pub(crate) orders: Vec<crate::script::Order>,
    /// The value of each house-rule option in this session (saves from before options had none:
    /// they load with the ruleset's values).
    #[serde(default)]
    pub(crate) options: Vec<Value>,
    /// The path of an exhaustive walk through every roll, while one runs (never saved).
    #[serde(skip)]
    pub(crate) walk: Option<crate::dice::Walk>,
}

impl State {
    /// The seed the session started from (or was last reseeded with).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The current round.
    pub fn round(&self) -> i64 {
        self.round
    }

    /// The current turn.
    pub fn turn(&self) -> i64 {
        self.turn
    }

    /// The entities, by id.
    pub fn entities(&self) -> &Entities {
        &self.entities
    }

    /// The faces the next dice must show ([`Session::force_dice`]), first first.
    pub fn forced(&self) -> impl ExactSizeIterator<Item = i64> + '_ {
        self.forced.iter().copied()
    }

    /// The changes waiting to be undone at the end of a turn or round.
    pub fn timed(&self) -> &[Timed] {
        &self.timed
    }

    /// The last result of each check, by check id (`None` for a check not rolled yet).
    pub fn last(&self) -> &[Option<Arc<CheckResult>>] {
        &self.last
    }

    /// How the game ended, once it has.
    pub fn over(&self) -> Option<&GameOver> {
        self.over.as_ref()
    }

    /// The orders the last reaction gave, for the table.
    pub fn orders(&self) -> &[crate::script::Order] {
        &self.orders
    }

    /// The value of each house-rule option, in the order the ruleset declares them (read one by name
    /// with [`Session::option`]).
    pub fn options(&self) -> &[Value] {
        &self.options
    }
}

/// The outcome of one scenario run.
#[derive(Debug, Clone, Serialize)]
pub struct ScenarioReport {
    /// The scenario.
    pub name: String,
    /// Expectations that held.
    pub passed: usize,
    /// Expectations that failed, as log entries.
    pub failures: Vec<LogEntry>,
    /// What the scenario did (its `question`, if it stopped on one: then it did nothing yet).
    #[serde(skip)]
    pub outcome: Outcome,
}

/// A game in progress over one ruleset.
///
/// ```
/// let rules = mettle::Ruleset::from_str("demo.mettle", r#"
///     check test { roll 2d6  target 8  outcome hit when total >= target  otherwise miss }
/// "#).unwrap();
/// let mut s = mettle::Session::new(&rules, 7);
/// let r = s.roll("test", &[]).unwrap().rolled.unwrap();
/// assert!(r.outcome == "hit" || r.outcome == "miss");
/// ```
#[derive(Debug, Clone)]
pub struct Session {
    rules: Ruleset,
    state: State,
    log: Vec<LogLine>,
    /// How many lines of the game's log were let go before the first one in `log`
    /// ([`Session::trim_log`], a save without its log).
    log_start: usize,
    logging: bool,
    /// Set from another thread (Ctrl-C in the REPL) to stop the running action; the action is undone.
    cancel: Arc<AtomicBool>,
    /// Whether an action starting clears `cancel`: only a session's own flag. A flag given by the host
    /// ([`Session::set_cancel_flag`]) is cleared by the host, and the sessions a what-if or a `:sim`
    /// plays ([`Session::reseeded`]) share their question's: a stop that came between two of their
    /// actions stops what they are part of (were it cleared, the next would go on as if none came).
    clears_cancel: bool,
    /// The log of the last action that failed, undone.
    undone: Vec<LogLine>,
    /// The host's dice source, chooser and observers.
    hooks: host::Hooks,
    /// The question the last action stopped on, and that action, to resume.
    waiting: Option<action::Waiting>,
    /// Frames and dice a quiet roll keeps for the next.
    spare: run::Spare,
}

impl Session {
    /// A new session with the generator seeded from `seed`.
    pub fn new(rules: &Ruleset, seed: u64) -> Session {
        let p = rules.program();
        Session {
            rules: rules.clone(),
            state: State {
                seed,
                rng: ChaCha8Rng::seed_from_u64(seed),
                round: 0,
                turn: 0,
                entities: Entities::default(),
                forced: VecDeque::new(),
                answers: vec![],
                host_answers: vec![],
                timed: vec![],
                last: vec![None; p.checks.len()],
                over: None,
                orders: vec![],
                options: p.options.iter().map(|o| o.default.clone().unwrap_or(Value::None)).collect(),
                walk: None,
            },
            log: vec![],
            log_start: 0,
            logging: true,
            cancel: Arc::default(),
            clears_cancel: true,
            undone: vec![],
            hooks: host::Hooks::default(),
            waiting: None,
            spare: Default::default(),
        }
    }

    /// The flag that stops the action running in this session: set it (from a Ctrl-C handler, say)
    /// and the running event, roll, scenario or script stops with `mettle::run::cancelled`, undone.
    /// The session clears its own flag when the next action starts (one given by
    /// [`Session::set_cancel_flag`] it leaves to the host); the runs of a what-if or a simulation never
    /// do, so a stop that comes between two of them stops the question.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("c.mettle", "check c { roll d6  otherwise done }").unwrap();
    /// let s = mettle::Session::new(&rules, 1);
    /// let flag = s.cancel_flag();
    /// flag.store(true, std::sync::atomic::Ordering::Relaxed);
    /// ```
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        self.cancel.clone()
    }

    /// Makes `flag` this session's cancel flag, so one flag (a REPL's Ctrl-C handler's) can serve the
    /// sessions that replace each other on `:load`, `:restore` and `:undo`, or every game of a test
    /// run. The session never clears a flag it was given: the host clears it when what it stopped is
    /// over (a REPL as each line begins), so a stop that lands between two actions is not lost.
    pub fn set_cancel_flag(&mut self, flag: Arc<AtomicBool>) {
        self.cancel = flag;
        self.clears_cancel = false;
    }

    /// The ruleset.
    pub fn ruleset(&self) -> &Ruleset {
        &self.rules
    }

    /// The current state.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The log so far.
    pub fn log(&self) -> &[LogLine] {
        &self.log
    }

    /// Takes the log, leaving it empty.
    pub fn take_log(&mut self) -> Vec<LogLine> {
        std::mem::take(&mut self.log)
    }

    /// Lets go of all but the last `keep` lines of the log, and says how many it let go. The lines
    /// kept keep their numbers: line `i` of [`Session::log`] is line `log_start() + i` of the game.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("t.mettle", "check c { roll d6  otherwise done }").unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// for _ in 0..5 {
    ///     s.roll("c", &[]).unwrap();
    /// }
    /// assert_eq!(s.trim_log(2), 3);
    /// assert_eq!((s.log().len(), s.log_start()), (2, 3));
    /// assert_eq!(s.trim_log(10), 0);
    /// ```
    pub fn trim_log(&mut self, keep: usize) -> usize {
        let dropped = self.log.len().saturating_sub(keep);
        self.log.drain(..dropped);
        self.log_start += dropped;
        dropped
    }

    /// How many lines of the game's log were let go before the first one in [`Session::log`] (by
    /// [`Session::trim_log`], or by a save without its log): the number of its first line.
    pub fn log_start(&self) -> usize {
        self.log_start
    }

    /// Turns the log off (for fast simulation) or on.
    pub fn set_logging(&mut self, on: bool) {
        self.logging = on;
    }

    /// Faces the next dice will show, before the generator is used again.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("f.mettle", "check c { roll 2d6  otherwise done }").unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// s.force_dice(&[6, 5]);
    /// assert_eq!(s.roll("c", &[]).unwrap().rolled.unwrap().total, 11);
    /// ```
    pub fn force_dice(&mut self, faces: &[i64]) {
        self.state.forced.extend(faces);
    }

    /// A runner for one action, lent what the last one kept to use again (call `put_away` before
    /// letting it go).
    fn runner(&mut self) -> Runner<'_> {
        // Set up where it stands: the runner is large, and each builder step moved it whole.
        let mut runner = Runner::new(
            self.rules.program(),
            self.rules.lowered(),
            &mut self.state,
            &mut self.log,
            self.logging,
            &mut self.spare,
        );
        runner.limit(self.rules.budget(), &self.cancel);
        runner.hooks = Some(&self.hooks);
        runner.watch(!self.hooks.observers.is_empty());
        runner
    }

    /// Plays on under another reading of a house rule: sets option `name` to `value` (of its type).
    /// A save keeps the session's options.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("o.mettle", r#"
    ///     option bonus_die: yes_die | no_die = no_die
    ///     check c { roll d6  modifier "Bonus" +1 die when bonus_die is yes_die  otherwise done }
    /// "#).unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// assert_eq!(s.roll("c", &[]).unwrap().rolled.unwrap().pool.as_ref().unwrap().dice.len(), 1);
    /// let v = rules.option_value("bonus_die", "yes_die").unwrap();
    /// s.set_option("bonus_die", v).unwrap();
    /// assert_eq!(s.roll("c", &[]).unwrap().rolled.unwrap().pool.as_ref().unwrap().dice.len(), 2);
    /// assert_eq!(s.show(s.option("bonus_die").unwrap()), "yes_die");
    /// ```
    pub fn set_option(&mut self, name: &str, value: Value) -> Result<(), Diagnostic> {
        let p = self.rules.program();
        let i = find(&p.options, |o| &o.name, name, "option", format!("there is no option called `{name}`"))?;
        check_value(p, &self.state, &value, &p.options[i].ty, &format!("option `{name}`"))?;
        if let Some(slot) = self.state.options.get_mut(i) {
            *slot = value;
        }
        Ok(())
    }

    /// Sets option number `i` (the exact engines try every reading).
    pub(crate) fn set_option_at(&mut self, i: usize, value: Value) {
        if let Some(slot) = self.state.options.get_mut(i) {
            *slot = value;
        }
    }

    /// The value of option `name` in this session.
    pub fn option(&self, name: &str) -> Option<&Value> {
        let i = self.rules.program().options.iter().position(|o| o.name == name)?;
        self.state.options.get(i)
    }

    /// A copy of this session with an empty log: what a REPL's `:undo` keeps of each step, the log's
    /// lines being shared by every step (see [`Session::swap_log`]).
    pub(crate) fn without_log(&self) -> Session {
        Session {
            rules: self.rules.clone(),
            state: self.state.clone(),
            log: vec![],
            log_start: self.log_start,
            logging: self.logging,
            cancel: self.cancel.clone(),
            clears_cancel: self.clears_cancel,
            undone: vec![],
            hooks: self.hooks.clone(),
            waiting: None,
            spare: Default::default(),
        }
    }

    /// Puts `log` in place of this session's log and returns the old one.
    pub(crate) fn swap_log(&mut self, log: Vec<LogLine>) -> Vec<LogLine> {
        std::mem::replace(&mut self.log, log)
    }

    /// What the last action that failed had logged before it was undone: how far it got. Empty until
    /// an action fails; replaced by each failure.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("u.mettle", r#"
    ///     kind unit { hp: 0..9 = 1, strict }
    ///     event hit(unit: unit)
    ///     on hit { note "ouch"  remove 5 from unit.hp }
    /// "#).unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// let u = s.create("unit", "u", &[]).unwrap();
    /// assert!(s.apply("hit", &[("unit", mettle::Value::Entity(u))]).is_err());
    /// assert_eq!(s.get("u", "hp"), Some(&mettle::Value::Int(1)));
    /// assert!(s.undone_log().len() >= 2);
    /// ```
    pub fn undone_log(&self) -> &[LogLine] {
        &self.undone
    }

    /// The id of the entity in play called `name`. An entity keeps its id for the life of the
    /// session; a removed one's id is never given again, and the name is free for a new entity
    /// (with a new id).
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("e.mettle", "kind unit { hp: 0..9 = 1 }").unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// let a = s.create("unit", "a", &[]).unwrap();
    /// assert_eq!(s.entity("a"), Some(a));
    /// s.remove_entity("a").unwrap();
    /// assert_eq!(s.entity("a"), None);
    /// let again = s.create("unit", "a", &[]).unwrap();
    /// assert_ne!(again, a);
    /// ```
    pub fn entity(&self, name: &str) -> Option<u32> {
        self.state.entities.iter().find(|(_, e)| e.name == name).map(|(id, _)| id)
    }

    /// Creates an entity of `kind` called `name` with the given attribute values (the rest default).
    ///
    /// ```
    /// use mettle::{Ruleset, Session, Value};
    /// let rules = Ruleset::from_str("c.mettle", "kind unit { spi: 0..6 = 3 }").unwrap();
    /// let mut s = Session::new(&rules, 1);
    /// s.create("unit", "y", &[("spi", Value::Int(5))]).unwrap();
    /// assert_eq!(s.get("y", "spi"), Some(&Value::Int(5)));
    /// // Values are checked against the attribute's range.
    /// assert!(s.create("unit", "z", &[("spi", Value::Int(9))]).is_err());
    /// ```
    pub fn create(&mut self, kind: &str, name: &str, with: &[(&str, Value)]) -> Result<u32, Diagnostic> {
        let rules = self.rules.clone();
        let p = rules.program();
        let k = find(&p.kinds, |k| &k.name, kind, "kind", format!("there is no kind called `{kind}`"))?;
        if self.entity(name).is_some() {
            return Err(api_error(
                "duplicate",
                format!("there is already an entity called `{name}`"),
                "choose another name".into(),
            ));
        }
        let mut fields = vec![];
        for (f, v) in with {
            let i = find(
                &p.kinds[k].fields,
                |x| &x.name,
                f,
                "attribute",
                format!("a {kind} has no attribute `{f}`"),
            )?;
            let v = conform_value(
                &rules,
                &self.state,
                v,
                &p.kinds[k].fields[i].ty,
                &format!("attribute `{f}` of `{name}`"),
                f,
            )?;
            fields.push((i as u32, v));
        }
        // An attribute the ruleset gives no default (a group's starting Morale Points) must be given,
        // as `new` in a scenario must: no silent 0. Entity references may start as none.
        if let Some(missing) = p.kinds[k].fields.iter().enumerate().find(|(i, f)| {
            f.default.is_none()
                && !matches!(f.ty, Ty::Entity(_) | Ty::Data | Ty::Shape(_) | Ty::Text)
                && !fields.iter().any(|(j, _)| *j as usize == *i)
        }) {
            let f = &missing.1.name;
            return Err(api_error(
                "missing_attribute",
                format!("`{name}` needs a value for `{f}`, which has no default"),
                format!("give it, as `(\"{f}\", value)`: the ruleset asks for it on every {kind}"),
            ));
        }
        self.host_change(|r| r.create(k as KindId, name, fields, Span::default())).map(|(id, _)| id)
    }

    /// Puts a stand-in of `kind` in play for a "what if" (odds, a hover, a stand-in's own opponent):
    /// `with` as given, and every attribute without a default at the lowest value of its type (the
    /// lowest number, `no`, the first name). [`Session::create`] refuses to guess those.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("c.mettle", "kind group { mp: 2.., strict }").unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// assert!(s.create("group", "g", &[]).is_err());
    /// s.create_stand_in("group", "g", &[]).unwrap();
    /// assert_eq!(s.get("g", "mp"), Some(&mettle::Value::Int(2)));
    /// ```
    pub fn create_stand_in(
        &mut self,
        kind: &str,
        name: &str,
        with: &[(&str, Value)],
    ) -> Result<u32, Diagnostic> {
        let rules = self.rules.clone();
        let p = rules.program();
        let k = find(&p.kinds, |k| &k.name, kind, "kind", format!("there is no kind called `{kind}`"))?;
        let mut all = with.to_vec();
        for f in &p.kinds[k].fields {
            if f.default.is_some() || with.iter().any(|(n, _)| *n == f.name) {
                continue;
            }
            if let Some(v) = f.ty.lowest() {
                all.push((f.name.as_str(), v));
            }
        }
        self.create(kind, name, &all)
    }

    /// Creates a stand-in of `kind` called `name`, for rolling a check made by someone when nobody in
    /// particular is on the table: its attributes are their defaults except those in `with` (an
    /// attribute without a default takes its lowest value, as [`Session::create_stand_in`] says), and
    /// each attribute naming another entity (a unit's side) gets a stand-in of its own with default
    /// attributes, called `NAME's ATTRIBUTE`, so that rules can read through it; `with` gives that
    /// one's attributes as `ATTRIBUTE.NAME` (`("opponent.mp", Value::Int(3))`).
    ///
    /// ```
    /// use mettle::{Ruleset, Session, Value};
    /// let rules = Ruleset::from_str("s.mettle", "kind side { vp: 0.. = 0 }\nkind unit { side: side  spi: 0..6 = 3 }").unwrap();
    /// let mut s = Session::new(&rules, 1);
    /// let u = s.stand_in("unit", "unit", &[("spi", Value::Int(5))]).unwrap();
    /// assert_eq!(s.get("unit", "spi"), Some(&Value::Int(5)));
    /// assert!(s.entity("unit's side").is_some());
    /// # let _ = u;
    /// ```
    pub fn stand_in(&mut self, kind: &str, name: &str, with: &[(&str, Value)]) -> Result<u32, Diagnostic> {
        let rules = self.rules.clone();
        let p = rules.program();
        let k = find(&p.kinds, |k| &k.name, kind, "kind", format!("there is no kind called `{kind}`"))?;
        // `opponent.mp` is the `mp` of the stand-in made for attribute `opponent`.
        let mut attrs: Vec<(&str, Value)> = with.iter().filter(|(n, _)| !n.contains('.')).cloned().collect();
        for f in &p.kinds[k].fields {
            if let Ty::Entity(other) = f.ty
                && !attrs.iter().any(|(n, _)| *n == f.name)
            {
                let prefix = format!("{}.", f.name);
                let own: Vec<(&str, Value)> =
                    with.iter().filter_map(|(n, v)| Some((n.strip_prefix(&prefix)?, v.clone()))).collect();
                let id = self.create_stand_in(
                    &p.kinds[other as usize].name,
                    &format!("{name}'s {}", f.name),
                    &own,
                )?;
                attrs.push((f.name.as_str(), Value::Entity(id)));
            }
        }
        self.create_stand_in(kind, name, &attrs)
    }

    /// Applies an event by name with its facts by name (missing facts take their defaults).
    ///
    /// If a rule fails part-way (a strict counter pushed past its cap, say), the whole event is undone
    /// and the error returned.
    ///
    /// ```
    /// use mettle::{Ruleset, Session, Value};
    /// let rules = Ruleset::from_str("a.mettle", "
    ///     kind unit { hp: 0..9 = 6  hits: 0..9 = 0 }
    ///     event hit(unit: unit, damage: 1..9 = 1)
    ///     on hit { remove damage from unit.hp  add 1 to unit.hits }
    /// ").unwrap();
    /// let mut s = Session::new(&rules, 1);
    /// let u = s.create("unit", "u", &[]).unwrap();
    /// s.apply("hit", &[("unit", Value::Entity(u)), ("damage", Value::Int(2))]).unwrap();
    /// assert_eq!(s.get("u", "hp"), Some(&Value::Int(4)));
    /// assert_eq!(s.apply("hti", &[]).unwrap_err().help.as_deref(), Some("did you mean `hit`?"));
    /// ```
    pub fn apply(&mut self, event: &str, facts: &[(&str, Value)]) -> Result<Outcome, Diagnostic> {
        let rules = self.rules.clone();
        let p = rules.program();
        let e = find(&p.events, |e| &e.name, event, "event", format!("there is no event called `{event}`"))?;
        let decl = &p.events[e];
        let mut values: Vec<Option<Value>> = vec![None; decl.facts.len()];
        for (n, v) in facts {
            let i = find(&decl.facts, |f| &f.name, n, "fact", format!("event `{event}` has no fact `{n}`"))?;
            values[i] = Some(v.clone());
        }
        let mut out = vec![];
        for (i, f) in decl.facts.iter().enumerate() {
            match values[i].take().or_else(|| f.default.clone()) {
                Some(v) => {
                    let v = conform_value(
                        &rules,
                        &self.state,
                        &v,
                        &f.ty,
                        &format!("fact `{}` of event `{event}`", f.name),
                        &f.name,
                    )?;
                    out.push(v)
                }
                None if matches!(f.ty, Ty::Entity(_)) => out.push(Value::None),
                None => {
                    return Err(api_error(
                        "missing_fact",
                        format!("event `{event}` needs fact `{}`", f.name),
                        format!("give `{}`", f.name),
                    ));
                }
            }
        }
        self.act(action::Replay::Apply(e as EventId, out), vec![])
    }

    /// Rolls a check by name with inputs by name; nobody makes it, so its outcome's effects are not
    /// applied. The explained result is the outcome's `rolled`.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("r.mettle", "check c { roll 2d6  otherwise done }").unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// let done = s.roll("c", &[]).unwrap();
    /// let r = done.rolled.unwrap();
    /// assert!((2..=12).contains(&r.total));
    /// assert_eq!(done.checks.len(), 1);
    /// ```
    pub fn roll(&mut self, check: &str, inputs: &[(&str, Value)]) -> Result<Outcome, Diagnostic> {
        self.roll_for(check, None, inputs)
    }

    /// Rolls a check made by the entity `subject` (its outcome's effects are applied). The subject
    /// must be in play (`run::removed_entity`, `run::unknown_entity`) and of the kind that makes the
    /// check (`run::type_mismatch`). The explained result is the outcome's `rolled` (none when the
    /// roll stopped on a question).
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("f.mettle", r#"
    ///     kind unit { shaken: flag = no }
    ///     check nerve for unit { roll d6  outcome fail when total <= 3 { set unit.shaken to yes }  otherwise pass }
    /// "#).unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// let u = s.create("unit", "u", &[]).unwrap();
    /// s.force_dice(&[2]);
    /// let done = s.roll_for("nerve", Some(u), &[]).unwrap();
    /// assert_eq!(done.rolled.unwrap().outcome, "fail");
    /// assert_eq!(done.changes.len(), 1);
    /// ```
    pub fn roll_for(
        &mut self,
        check: &str,
        subject: Option<u32>,
        inputs: &[(&str, Value)],
    ) -> Result<Outcome, Diagnostic> {
        let (c, args) = self.resolve(check, inputs)?;
        if let Some(id) = subject {
            let p = self.rules.program();
            let e = entity_in_play(&self.state, id, &format!("the subject of check `{check}`"))?;
            if let Some(k) = p.checks[c as usize].subject
                && e.kind != k
            {
                let (want, got) = (&p.kinds[k as usize].name, &p.kinds[e.kind as usize].name);
                return Err(api_error(
                    "type_mismatch",
                    format!("check `{check}` is made by a {want}, and `{}` is a {got}", e.name),
                    format!("roll it for a {want} in play"),
                ));
            }
        }
        self.act(action::Replay::Roll(c, subject, args), vec![])
    }

    /// The index of check `check` and of each named input, with the values checked against their
    /// types.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("r.mettle", "check c { input n: int  roll (n)d6  otherwise done }").unwrap();
    /// let s = mettle::Session::new(&rules, 1);
    /// assert_eq!(s.resolve("c", &[("n", mettle::Value::Int(2))]).unwrap(), (0, vec![(0, mettle::Value::Int(2))]));
    /// assert!(s.resolve("c", &[("m", mettle::Value::Int(2))]).is_err());
    /// ```
    pub fn resolve(
        &self,
        check: &str,
        inputs: &[(&str, Value)],
    ) -> Result<(CheckId, Vec<(u32, Value)>), Diagnostic> {
        let p = self.rules.program();
        let c = find(&p.checks, |c| &c.name, check, "check", format!("there is no check called `{check}`"))?;
        let mut args = vec![];
        for (n, v) in inputs {
            let i = find(
                &p.checks[c].inputs,
                |f| &f.field.name,
                n,
                "input",
                format!("check `{check}` has no input `{n}`"),
            )?;
            let v = conform_value(
                &self.rules,
                &self.state,
                v,
                &p.checks[c].inputs[i].field.ty,
                &format!("input `{n}` of check `{check}`"),
                n,
            )?;
            args.push((i as u32, v));
        }
        Ok((c as CheckId, args))
    }

    /// Rolls a check with inputs already resolved to input indices, with its effects. To sample a check
    /// many times, [`Session::sampler`] is much faster.
    pub(crate) fn roll_id(
        &mut self,
        check: CheckId,
        inputs: Vec<(u32, Value)>,
    ) -> Result<Arc<CheckResult>, Diagnostic> {
        let mut runner = self.runner();
        let r = runner.roll_check(check, None, inputs, Span::default());
        runner.put_away();
        runner.end();
        self.end_walk();
        r.map_err(|e| *e)
    }

    /// Plays scenario number `scenario` from a fresh start seeded with `seed`, as
    /// `Session::new(rules, seed)` then `run_scenario` would, for a simulation: the log stays off, and
    /// the values recorded and whether an expectation failed go to `game` (emptied first) instead of
    /// the log, counted against the log's budget as entries all the same. The session's buffers are
    /// used again, and a failed game is not undone (the next game starts fresh anyway); a host's dice
    /// source and chooser are asked as in any action, but observers are not told of a game's changes.
    /// Afterwards [`Session::state`] shows how the game ended.
    pub(crate) fn play_quietly(
        &mut self,
        scenario: usize,
        seed: u64,
        game: &mut QuietGame,
    ) -> Result<(), Diagnostic> {
        if scenario >= self.rules.program().scenarios.len() {
            return Err(Diagnostic::plain(
                "run::no_scenario",
                format!("the ruleset has no scenario number {scenario}"),
            )
            .with_help("number the scenarios from 0, in the order the ruleset writes them"));
        }
        self.restart(seed);
        game.records.clear();
        game.reported = None;
        game.failed = false;
        game.entries = 0;
        // The cancel flag is left as it is: a simulation makes it its stop flag, which a game must
        // not clear (see `sim::Meter`).
        let mut runner = self.runner();
        runner.play(std::mem::take(game));
        let r = runner.scenario(scenario).and_then(|()| runner.finish());
        *game = runner.game_over();
        if game.results_unread {
            runner.let_go_pending();
        }
        runner.put_away();
        runner.end();
        self.end_walk();
        r.map_err(|e| *e)
    }

    /// Puts the session back to where `Session::new(rules, seed)` starts, quiet, keeping the
    /// buffers it can.
    fn restart(&mut self, seed: u64) {
        let p = self.rules.program();
        // Every field is named, so that a new one cannot be forgotten here.
        let State {
            seed: s,
            rng,
            round,
            turn,
            entities,
            forced,
            answers,
            host_answers,
            timed,
            last,
            over,
            orders,
            options,
            walk,
        } = &mut self.state;
        *s = seed;
        *rng = ChaCha8Rng::seed_from_u64(seed);
        (*round, *turn) = (0, 0);
        // Nothing copies the state while a quiet game plays.
        entities.clear_own(&mut self.spare.entities);
        forced.clear();
        answers.clear();
        host_answers.clear();
        timed.clear();
        self.spare.keep_results(last);
        last.resize(p.checks.len(), None);
        *over = None;
        orders.clear();
        options.clear();
        options.extend(p.options.iter().map(|o| o.default.clone().unwrap_or(Value::None)));
        *walk = None;
        self.log.clear();
        self.log_start = 0;
        self.logging = false;
        self.undone.clear();
        self.waiting = None;
    }

    /// Runs scenario `name` from this session's state and reports its expectations. The scenario is one
    /// action: if a step fails, the whole scenario is undone and its log kept aside
    /// ([`Session::undone_log`]).
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("s.mettle", r#"
    ///     check c { roll d6  outcome six when total == 6  otherwise other }
    ///     scenario sixes { dice 6  roll c  expect last c is six }
    /// "#).unwrap();
    /// let report = mettle::Session::new(&rules, 1).run_scenario("sixes").unwrap();
    /// assert_eq!((report.passed, report.failures.len()), (1, 0));
    /// ```
    pub fn run_scenario(&mut self, name: &str) -> Result<ScenarioReport, Diagnostic> {
        let rules = self.rules.clone();
        let p = rules.program();
        let s = find(
            &p.scenarios,
            |s| &s.name,
            name,
            "scenario",
            format!("there is no scenario called `{name}`"),
        )?;
        let start = self.log.len();
        let outcome = self.act(action::Replay::Scenario(s), vec![])?;
        let mut report = ScenarioReport { name: name.to_string(), passed: 0, failures: vec![], outcome };
        for line in &self.log[start..] {
            if let LogEntry::Expect { passed, .. } = &line.entry {
                if *passed {
                    report.passed += 1;
                } else {
                    report.failures.push(line.entry.clone());
                }
            }
        }
        Ok(report)
    }

    /// The value of `entity.field`.
    pub fn get(&self, entity: &str, field: &str) -> Option<&Value> {
        let e = self.state.entities.get(self.entity(entity)?)?;
        let i = self.rules.program().kinds[e.kind as usize].fields.iter().position(|f| f.name == field)?;
        e.fields.get(i)
    }

    /// A value as people read it: numbers, yes/no, names.
    pub fn show(&self, v: &Value) -> String {
        run::show_value(self.rules.program(), &self.state, v)
    }
}

/// The index of the item called `name`, or an `unknown_WHAT` error saying `message`, with a
/// "did you mean" among the items' names.
fn find<T>(
    items: &[T],
    key: impl Fn(&T) -> &String,
    name: &str,
    what: &str,
    message: String,
) -> Result<usize, Diagnostic> {
    match items.iter().position(|i| key(i) == name) {
        Some(i) => Ok(i),
        None => {
            let known: Vec<&str> = items.iter().map(|i| key(i).as_str()).collect();
            Err(api_error(&format!("unknown_{what}"), message, suggest(name, what, &known)))
        }
    }
}

/// A value given through the API, checked against its declared type and bounds; data of a shape is
/// checked against the shape and completed from its defaults. `root` names it in data errors
/// (`seen.enemies[2].distance`).
fn conform_value(
    rules: &Ruleset,
    st: &State,
    v: &Value,
    ty: &Ty,
    what: &str,
    root: &str,
) -> Result<Value, Diagnostic> {
    use crate::shape::{ShapeTy, conform};
    let shape = match (ty, v) {
        (Ty::Shape(s), Value::Data(_)) => ShapeTy::Shape(*s),
        (Ty::Data, Value::Data(_)) => ShapeTy::Any,
        _ => {
            check_value(rules.program(), st, v, ty, what)?;
            return Ok(v.clone());
        }
    };
    let Value::Data(d) = v else { return Ok(v.clone()) };
    let p = rules.program();
    match conform(&p.shapes, &shape, d, root, rules.budget().data_values) {
        Ok(d) => Ok(Value::Data(std::sync::Arc::new(d))),
        Err(e) => Err(Diagnostic::plain(e.code.path(), format!("{what}: {}", e.message)).with_help(e.help)),
    }
}

/// Checks a value given through the API against its declared type and bounds; an entity must be in
/// play (`run::removed_entity`, `run::unknown_entity`) and of the declared kind.
fn check_value(p: &Program, st: &State, v: &Value, ty: &Ty, what: &str) -> Result<(), Diagnostic> {
    let ok = match (ty, v) {
        (Ty::Entity(k), Value::Entity(id)) => {
            let e = entity_in_play(st, *id, what)?;
            if e.kind != *k {
                let (want, got) = (&p.kinds[*k as usize].name, &p.kinds[e.kind as usize].name);
                return Err(api_error(
                    "type_mismatch",
                    format!("{what} must be a {want}, and `{}` is a {got}", e.name),
                    format!("give a {want} in play"),
                ));
            }
            true
        }
        (Ty::Int { lo, hi }, Value::Int(x)) => {
            if lo.is_some_and(|l| *x < l) || hi.is_some_and(|h| *x > h) {
                return Err(api_error(
                    "out_of_range",
                    format!("{what} is {x}, outside its range"),
                    format!("give a value {}", crate::check::range_words(*lo, *hi)),
                ));
            }
            true
        }
        (Ty::Flag, Value::Bool(_))
        | (Ty::Entity(_), Value::None)
        | (Ty::Data | Ty::Shape(_), Value::Data(_)) => true,
        (Ty::Name(s), Value::Name { set, .. }) => s == set,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(api_error(
            "type_mismatch",
            format!("{what} got a value of the wrong type"),
            "give a value of the declared type".into(),
        ))
    }
}

/// The entity in play with id `id`, given through the API as `what`; a removed entity's id is
/// `run::removed_entity` naming it, an id never given `run::unknown_entity`.
fn entity_in_play<'s>(st: &'s State, id: u32, what: &str) -> Result<&'s Entity, Diagnostic> {
    if let Some(e) = st.entities.get(id) {
        return Ok(e);
    }
    Err(match st.entities.removed(id) {
        Some(name) => api_error(
            "removed_entity",
            format!("{what} names entity #{id}, `{name}`, which was removed from play"),
            format!(
                "`{name}` is out of play and its id #{id} is never given again; name an entity in \
                 play (`Session::entity` finds one's id by name)"
            ),
        ),
        None => api_error(
            "unknown_entity",
            format!("{what} names entity #{id}, which was never made"),
            format!(
                "ids come from `Session::create` and `Session::entity`; {} have been given so far",
                st.entities.slots()
            ),
        ),
    })
}

fn api_error(code: &str, message: String, help: String) -> Diagnostic {
    Diagnostic::plain(&format!("run::{code}"), message).with_help(help)
}
