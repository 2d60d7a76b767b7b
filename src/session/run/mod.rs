//! Running compiled rules: evaluating expressions, applying statements, firing triggers, rolling checks.

mod calc;
mod check;
mod compile;
// Comparing compiled conditions with the reference evaluator: debug builds, and the compiler's
// insides for the tests.
#[cfg(any(debug_assertions, feature = "internals"))]
pub(crate) mod differ;
pub(super) use check::Setup;
pub(crate) use lower::{Lowered, lower};
mod eval;
mod exec;
mod host;
mod lower;
pub(super) use host::shown_options;
mod fold;
mod parts;
mod reactions;
mod read;
mod resume;
mod script;
mod seldom;
mod totals;

use super::host::{Change, Hooks, Question};
use super::{Expiry, LogEntry, LogLine, Logged, State};
use crate::ast::Span;
use crate::diagnostics::Diagnostic;
use crate::program::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Deepest chain of events firing events, and of formulas calling formulas.
const MAX_DEPTH: u32 = 64;
/// Most times a `repeat` runs.
pub(crate) const MAX_REPEAT: usize = 1000;

/// Steps an action may take between two looks at its cancel flag (tens of microseconds of rules).
const CANCEL_EVERY: u64 = 1024;

// The error is boxed: every step of the evaluator returns a result, and errors are rare, so the
// result stays the size of its value (figures in the commit that boxed it).
type R<T> = Result<T, Box<Diagnostic>>;

fn fail(code: &str, message: impl Into<String>, span: Span, help: &str) -> Diagnostic {
    Diagnostic::error(&format!("run::{code}"), message, span, "while applying this rule").with_help(help)
}

/// Writes `v` into `slot`. A slot whose old value owns nothing (a number, yes/no, a name, an entity,
/// none) is written over without calling its drop, which measurably slowed whole games; one whose
/// old value shares rolled dice, a check's result or host data lets go of its share. The match names
/// every kind of value, so a new kind must say which it is.
#[inline(always)]
pub(super) fn set(slot: &mut Value, v: Value) {
    match slot {
        Value::Int(_) | Value::Bool(_) | Value::Name { .. } | Value::Entity(_) | Value::None => {
            std::mem::forget(std::mem::replace(slot, v));
        }
        Value::Pool(_) | Value::Result(_) | Value::Data(_) => *slot = v,
    }
}

/// A frame used again without being emptied (a check's or an event's in a quiet game), every slot
/// overwritten with a number no rule makes: the frame is handed out on the promise that each slot a
/// rule reads is written first in the same firing or roll, as the checker's scopes make sure. In
/// debug builds that promise is tested rather than trusted: a slot read before it is written reads
/// this number, and the tests that play each game both quietly and logged (`tests/seeded_games.rs`)
/// see the two differ.
#[cfg(debug_assertions)]
fn scrambled(mut f: Vec<Value>) -> Vec<Value> {
    f.fill(Value::Int(-7_777_777_777));
    f
}

/// Writes a copy of `v` into `slot`. Numbers, yes/no, names and entities are written field by field,
/// which measured faster than a generic copy in whole games; the rest are cloned.
#[inline(always)]
pub(super) fn put(slot: &mut Value, v: &Value) {
    match v {
        Value::Int(i) => set(slot, Value::Int(*i)),
        Value::Bool(b) => set(slot, Value::Bool(*b)),
        Value::Name { set: s, index } => set(slot, Value::Name { set: *s, index: *index }),
        Value::Entity(e) => set(slot, Value::Entity(*e)),
        Value::None => set(slot, Value::None),
        _ => slot.clone_from(v),
    }
}

/// A copy of `v`: numbers, yes/no, names and entities, which own nothing, built field by field; the
/// rest cloned.
#[inline(always)]
pub(super) fn copied(v: &Value) -> Value {
    match v {
        Value::Int(i) => Value::Int(*i),
        Value::Bool(b) => Value::Bool(*b),
        Value::Name { set, index } => Value::Name { set: *set, index: *index },
        Value::Entity(e) => Value::Entity(*e),
        Value::None => Value::None,
        _ => v.clone(),
    }
}

/// A value as the log keeps it, with names from the program and the state as they are now.
pub(super) fn logged(p: &Program, st: &State, v: &Value) -> Logged {
    match v {
        Value::Int(i) => Logged::Number(*i),
        Value::Bool(b) => Logged::Flag(*b),
        Value::Name { set, index } => Logged::Name(
            p.sets
                .get(*set as usize)
                .and_then(|s| s.names.get(*index as usize))
                .cloned()
                .unwrap_or_else(|| "?".into()),
        ),
        Value::Entity(e) => {
            Logged::Entity(st.entities.get(*e).map(|e| e.name.clone()).unwrap_or_else(|| "?".into()))
        }
        Value::None => Logged::None,
        Value::Pool(pool) => Logged::Dice(pool.clone()),
        Value::Result(r) => Logged::Result(r.clone()),
        Value::Data(d) => Logged::Data(d.clone()),
    }
}

/// A value as people read it.
pub(super) fn show_value(p: &Program, st: &State, v: &Value) -> String {
    logged(p, st, v).to_string()
}

pub(super) struct Runner<'a> {
    p: &'a Program,
    /// The compiled forms of the program's conditions.
    code: &'a Lowered,
    /// The compiled conditions of `code`, by `Test`'s id: `code`'s own list, held here to be
    /// reached with one step less each time a condition is tested (set with `code`, see
    /// [`Runner::lowered_by`]).
    tests: &'a [super::run::compile::Compiled],
    /// How each expression statements read is read, by `Calc`'s id: `code`'s own list, held here
    /// as `tests` is.
    calcs: &'a [calc::Reading],
    st: &'a mut State,
    log: &'a mut Vec<LogLine>,
    /// What this run keeps of what it does (see [`Mode`]).
    mode: Mode,
    depth: u32,
    /// Events being applied, for the log's nesting.
    nest: u32,
    /// The statement being applied, for errors.
    span: Span,
    /// The rule (trigger, check or scenario) being applied, for the budget's errors.
    rule: Option<(Span, &'a str)>,
    /// Steps taken so far in this action, and the most it may take.
    steps: u64,
    step_limit: u64,
    /// The step count from which `tick` looks at the limits again (and at the cancel flag): never
    /// past the limit, at most `CANCEL_EVERY` steps ahead, and 0 once the log is full.
    stop_at: u64,
    /// The log's length when the action started, and how many entries it may add.
    log_start: usize,
    log_limit: u64,
    /// Set when an entry was refused for the log budget; the next step (or the end) reports it.
    log_full: bool,
    /// The error of a compiled condition that failed, until [`Runner::test`] gives it back.
    failed: Option<Box<Diagnostic>>,
    cancel: &'a AtomicBool,
    /// Whether the step limit, and the script operations the action was given, are the work an exact
    /// answer has left (see [`crate::odds::work`]); and those operations, so that what the action
    /// spent can be counted there.
    work_capped: bool,
    scripts_capped: bool,
    script_given: Option<u64>,
    /// What the host plugged in, if this run uses it.
    pub(super) hooks: Option<&'a Hooks>,
    /// What the run did with the host's hooks, for the session to act on when it ends.
    pub(super) host: HostRun,
    /// What runners keep from one action to the next, to be used again instead of allocated anew
    /// (lent by the session, so that making and letting go of a runner moves none of it).
    kit: &'a mut Spare,
    /// Where a simulated game's recorded values and failed expectations go instead of the log
    /// (see [`Runner::play`]).
    game: Option<QuietGame>,
    /// Whether a change lasting until an event may be waiting: one was when the runner was made, or
    /// the run has made one since (only `set … until EVENT` makes one while a runner runs). While
    /// none is, firing an event does not look for changes it ends.
    until_event: bool,
    /// The `if` conditions around the statement being applied in this rule or outcome, and whether
    /// each held: a change logged there says what made it (logging only).
    because: Vec<(Span, bool)>,
    /// Whether [`Runner::end`] has charged this runner's work (debug builds check that every runner
    /// does, so that no new way of running forgets to).
    #[cfg(debug_assertions)]
    ended: bool,
}

/// What a run keeps of what it does, chosen when its runner is made ([`Runner::new`], then
/// [`Runner::watch`], [`Runner::collect`] or [`Runner::play`] before it runs anything): the
/// statements ask it, none works it out from the log, the observers and the game on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Mode {
    /// Entries go to the log: changes, rolls, lookups, checks with the parts of their totals.
    pub log: bool,
    /// The changes made are wanted: by observers, or for the outcome of the action the host asked
    /// for.
    pub watched: bool,
    /// A simulated game: its recorded values and expectations go to the game, not the log, and its
    /// rolls keep no modifiers' labels.
    pub game: bool,
    /// Neither logged nor watched: nobody reads an old value or what a statement did, so
    /// attributes are written over in place.
    pub quiet: bool,
    /// A simulated game with the log off: frames of checks and events are used again from one
    /// firing to the next, their slots as they were (see [`Runner::keep_check_frame`]), and a rule's
    /// roll makes its result only when something reads it.
    pub reuse: bool,
    /// A walk that pauses where paths merge (exact odds by merging equal states, `odds::states`)
    /// is under way: calls and loops note what encloses them (see `Runner::enter_call`). Known when
    /// the runner is made, so that every other run pays one test of this for each call or loop.
    pub pauses: bool,
}

/// The form of the statements compiled for any run, which asks the mode it was given (the `SIM` of
/// [`Runner::kept`] that is not known).
pub(in crate::session) const ANY_RUN: bool = false;

/// The form of the statements compiled for a simulated game played quietly ([`Mode::SIM`]).
const SIM_GAME: bool = true;

impl Mode {
    /// A simulated game played quietly ([`Runner::play`] with the log off, no observers, no walk):
    /// the run mode whose statements are compiled apart (see [`Runner::kept`]).
    pub(super) const SIM: Mode = Mode::new(false, false, true, false);

    const fn new(log: bool, watched: bool, game: bool, pauses: bool) -> Mode {
        Mode { log, watched, game, quiet: !log && !watched, reuse: game && !log, pauses }
    }

    /// The same with the log off, for working something out again to explain it.
    pub(super) const fn unlogged(self) -> Mode {
        Mode::new(false, self.watched, self.game, self.pauses)
    }
}

/// What a simulation reads of one game played quietly: the values it recorded, in order, and whether
/// an expectation failed.
#[derive(Debug, Clone, Default)]
pub struct QuietGame {
    /// Recorded values with their labels.
    pub records: Vec<(Arc<str>, i64)>,
    /// What the scenario's `report` line read at its end: each value's label and the value as
    /// people read it (`None` until it is read).
    pub reported: Option<Vec<(Arc<str>, String)>>,
    /// Whether an expectation failed.
    pub failed: bool,
    /// Expectations and records counted, as the log's budget counts its entries.
    pub entries: u64,
    /// Set by a caller that reads nothing of the checks' last results once the game is over (a
    /// simulation): rolls whose results were left to be made when read are then let go instead of
    /// made, and [`crate::Session::state`]'s `last` does not show them. Kept from game to game.
    pub results_unread: bool,
}

/// What runners keep to use again (frames, a pool of dice), lent by a session to each of its
/// runners in turn so that quiet rolls allocate nothing. A copy starts empty: two sessions never
/// share it. A session's rules never change, so neither do the sizes of the frames kept here.
#[derive(Debug, Default)]
pub(in crate::session) struct Spare {
    /// Frames of finished rules and formulas, every slot `None`.
    frames: Vec<Vec<Value>>,
    /// By check, a frame a finished quiet roll or a roll in a quiet game left, its values as they
    /// were (see [`Runner::keep_check_frame`]).
    check_frames: Vec<Option<Vec<Value>>>,
    /// By check, once worked out: its slots that a roll may leave unwritten (see
    /// [`Runner::stale_check_frame`]).
    scratch: Vec<Option<Vec<u32>>>,
    /// The dice of a finished check, to be rolled again when nothing else holds them.
    pool: Option<Arc<Pool>>,
    /// Modifiers' conditions folded under the options.
    folds: fold::Folds,
    /// Results of an earlier game's checks, by check, to be written over by this game's first rolls.
    results: Vec<Option<Arc<CheckResult>>>,
    /// Rules' rolls in a simulated game whose results are made when read, by check; between
    /// actions, all empty.
    pending: Vec<Option<check::Pending>>,
    /// Entities of a game that is over, their buffers to be used again by the next game's.
    pub(in crate::session) entities: Vec<super::Entity>,
    /// What games keep for the next (boxed, and made only when a game wants it).
    bufs: Option<Box<GameBufs>>,
}

/// What a runner keeps for games to come.
#[derive(Debug, Default)]
pub(super) struct GameBufs {
    /// By kind, a new entity's attributes (each at its default), worked out when first wanted.
    pub rows: Vec<Option<Vec<Value>>>,
    /// By event, the frame its last firing from a rule in a quiet game left, its values as they were
    /// (see `Runner::event_frame`).
    pub event_frames: Vec<Option<Vec<Value>>>,
}

impl Spare {
    /// Keeps the checks' last results of a game that is over, to be written over by the next game's
    /// rolls instead of made anew; `last` is left with none.
    pub(in crate::session) fn keep_results(&mut self, last: &mut [Option<Arc<CheckResult>>]) {
        self.results.resize(last.len(), None);
        for (kept, r) in self.results.iter_mut().zip(last) {
            if let Some(r) = r.take() {
                *kept = Some(r);
            }
        }
    }
}

impl Clone for Spare {
    fn clone(&self) -> Self {
        Spare::default()
    }
}

/// What one run did with the host's hooks.
#[derive(Default)]
pub(in crate::session) struct HostRun {
    /// Faces drawn from the host's dice source, to give back if the action fails.
    pub drawn: Vec<i64>,
    /// The dice source's error, while it is turned into the roll's (boxed, as the question: a
    /// runner is made for every quiet roll, and stays small).
    pub dice_error: Option<Box<Diagnostic>>,
    /// The question a chooser said to wait on.
    pub asked: Option<Box<Question>>,
    /// Changes made, for the observers and the outcome (collected only when one of them wants them:
    /// see [`Mode::watched`]).
    pub changes: Vec<Change>,
    /// What the action did, collected for the host when it asked for the action (none in quiet
    /// games and samplers). Its changes are in `changes` until the action ends.
    pub outcome: Option<Box<crate::session::Outcome>>,
    /// Faces an action that waited on a question drew from the host's dice source, given again, in
    /// order, before the source is asked, now that it runs on.
    pub replay: std::collections::VecDeque<i64>,
}

/// Units of an exact answer's work (see [`crate::odds::work`]) one step of a rule costs.
pub(crate) const STEP_WORK: u64 = 50;
/// Units of an exact answer's work one script operation costs.
pub(crate) const SCRIPT_WORK: u64 = 100;

impl Runner<'_> {
    /// Ends the run, charging the work it did: settling rolls for exact odds, walking a scenario and
    /// sampling count against the exact answer's budget of work (outside one, against a meter that
    /// never runs dry), and every run against the whole piece of work's budget of steps. Every
    /// runner a session makes ends here (after [`Runner::put_away`] where it keeps its buffers).
    // (`mut` marks the runner ended, which only debug builds keep.)
    pub(super) fn end(#[cfg_attr(not(debug_assertions), allow(unused_mut))] mut self) {
        #[cfg(debug_assertions)]
        {
            self.ended = true;
        }
        let scripts = self.script_given.map_or(0, |given| given.saturating_sub(crate::script::action_left()));
        // Scripts stopped by a cap that was the exact answer's work left: that work has run out.
        if self.scripts_capped && self.script_given.is_some_and(|g| scripts >= g) {
            crate::odds::work::charge(u64::MAX);
        }
        crate::odds::work::charge(
            self.steps.saturating_mul(STEP_WORK).saturating_add(scripts.saturating_mul(SCRIPT_WORK)),
        );
        // And against the whole piece of work's budget of steps (`Budget::total_steps`).
        crate::budget::spend(self.steps);
    }
}

/// In a debug build, a runner let go without [`Runner::end`] is a mistake: its steps and work would
/// be charged to nothing. (An error unwinding through it is not, nor are the unit tests here, which
/// take runners apart to look inside.)
#[cfg(all(debug_assertions, not(test)))]
impl Drop for Runner<'_> {
    fn drop(&mut self) {
        assert!(self.ended || std::thread::panicking(), "a runner was let go without Runner::end");
    }
}

/// A cancel flag that is never set, for runs nobody can interrupt.
static NEVER: AtomicBool = AtomicBool::new(false);

impl<'a> Runner<'a> {
    pub fn new(
        p: &'a Program,
        code: &'a Lowered,
        st: &'a mut State,
        log: &'a mut Vec<LogLine>,
        logging: bool,
        kit: &'a mut Spare,
    ) -> Self {
        let log_start = log.len();
        let b = crate::Budget::default();
        let pauses = st.walk.as_ref().is_some_and(|w| w.pause);
        let until_event = st.timed.iter().any(|t| matches!(t.expiry, Expiry::Event(_)));
        Runner {
            p,
            code,
            tests: code.tests(),
            calcs: code.calcs(),
            st,
            log,
            mode: Mode::new(logging, false, false, pauses),
            depth: 0,
            nest: 0,
            span: Span::default(),
            rule: None,
            steps: 0,
            step_limit: b.steps,
            stop_at: 0,
            log_start,
            log_limit: b.log_entries,
            log_full: false,
            failed: None,
            cancel: &NEVER,
            work_capped: false,
            scripts_capped: false,
            script_given: None,
            hooks: None,
            host: HostRun::default(),
            kit,
            game: None,
            until_event,
            because: vec![],
            #[cfg(debug_assertions)]
            ended: false,
        }
    }

    /// Tests conditions by `code`'s compiled forms: `code` and its list go together.
    #[cfg(test)]
    pub(super) fn lowered_by(&mut self, code: &'a Lowered) {
        self.code = code;
        self.tests = code.tests();
        self.calcs = code.calcs();
    }

    /// Makes first the results of rolls left to be made when read (see `check::Pending`), before the
    /// runner is let go: what it keeps for the next then holds no roll of this action's.
    pub(super) fn put_away(&mut self) {
        self.settle_all_last();
    }

    /// Tells the changes this run makes to observers, if `on` (before it runs anything).
    pub(in crate::session) fn watch(&mut self, on: bool) {
        self.mode = Mode::new(self.mode.log, on, self.mode.game, self.mode.pauses);
    }

    /// Collects what the host's action does, for its outcome (changes included; before it runs
    /// anything).
    pub(in crate::session) fn collect(&mut self) {
        self.mode = Mode::new(self.mode.log, true, self.mode.game, self.mode.pauses);
        self.host.outcome = Some(Box::default());
    }

    /// Plays a simulated game: its recorded values and expectations go to `game` (before it runs
    /// anything; [`Runner::game_over`] gives it back).
    pub(in crate::session) fn play(&mut self, game: QuietGame) {
        self.mode = Mode::new(self.mode.log, self.mode.watched, true, self.mode.pauses);
        self.game = Some(game);
    }

    /// The game [`Runner::play`] gave, with what it recorded.
    pub(in crate::session) fn game_over(&mut self) -> QuietGame {
        self.game.take().unwrap_or_default()
    }

    /// Notes `change` for the observers and the outcome, if they want it.
    pub(super) fn changed<const SIM: bool>(&mut self, change: impl FnOnce() -> Change) {
        if self.kept::<SIM>().watched {
            self.host.changes.push(change());
        }
    }

    /// The same runner under `budget`'s step and log limits, stopped by `cancel`.
    pub fn limited(mut self, budget: &crate::Budget, cancel: &'a Arc<AtomicBool>) -> Self {
        self.limit(budget, cancel);
        self
    }

    /// Puts this runner under `budget`'s step and log limits, stopped by `cancel`.
    #[inline]
    pub fn limit(&mut self, budget: &crate::Budget, cancel: &'a Arc<AtomicBool>) {
        self.step_limit = budget.steps.max(1);
        self.log_limit = budget.log_entries.max(1);
        self.cancel = cancel;
        // Inside an exact answer (or a sample for one), the work it has left caps the action too.
        let left = crate::odds::work::left();
        if left / STEP_WORK < self.step_limit {
            self.step_limit = (left / STEP_WORK).max(1);
            self.work_capped = true;
        }
        self.rearm();
        // Without scripts there is no budget of operations to hand out (nor any spent to charge).
        if self.code.scripts().is_none() {
            return;
        }
        let scripts = budget.script_operations.min((left / SCRIPT_WORK).max(1));
        self.scripts_capped = scripts < budget.script_operations;
        // The action's scripts share one budget of operations and stop on the same flag.
        crate::script::begin_action(scripts, cancel);
        self.script_given = Some(scripts.max(1));
    }

    /// What this run keeps, as its statements ask it. The statements a run goes through over and
    /// over (`exec` and what it calls) are compiled twice: for a simulated game played quietly
    /// (`SIM`, [`Mode::SIM`], chosen once where the scenario starts: [`Runner::scenario`]), where
    /// what it keeps is known and everything kept only for a log, observers or a walk is left out;
    /// and for any other run, which asks the mode it was given.
    #[inline(always)]
    pub(super) fn kept<const SIM: bool>(&self) -> Mode {
        debug_assert!(!SIM || self.mode == Mode::SIM, "a run compiled for a simulated game is not one");
        if SIM { Mode::SIM } else { self.mode }
    }

    /// Counts `n` steps against the action's budget, and stops the action if it was cancelled or its
    /// log is full. Every statement, trigger, die, reroll, explosion and loop turn comes through here.
    #[inline]
    pub(super) fn tick(&mut self, n: u64) -> R<()> {
        // Wrapping, not saturating: a step is at least one statement's work and `n` is at most a
        // roll's dice, so the count cannot come near 2^64 before the budget or the user stops the
        // action.
        self.steps = self.steps.wrapping_add(n);
        if self.steps < self.stop_at {
            return Ok(());
        }
        self.stop()
    }

    /// Sets where `tick` next looks at the limits and the cancel flag.
    fn rearm(&mut self) {
        self.stop_at = if self.log_full {
            0
        } else {
            self.step_limit.min(self.steps.saturating_add(CANCEL_EVERY)).saturating_add(1)
        };
    }

    /// Why `tick` stops the action.
    #[cold]
    #[inline(never)]
    fn stop(&mut self) -> R<()> {
        if self.steps > self.step_limit && self.work_capped {
            return Err(Box::new(crate::odds::work::out_of_work(self.span)));
        }
        if self.steps > self.step_limit {
            return Err(Box::new(self.over_budget(
                "budget::steps",
                format!(
                    "this took more than {} steps (statements, triggers, dice and loop turns)",
                    self.step_limit
                ),
                "steps",
            )));
        }
        if self.log_full {
            return Err(Box::new(self.over_budget(
                "budget::log_entries",
                format!("this wrote more than {} lines to the log", self.log_limit),
                "log_entries",
            )));
        }
        if self.cancel.load(Ordering::Relaxed) {
            return Err(Box::new(
                fail(
                    crate::diagnostics::Code::Cancelled.name(),
                    "stopped: cancelled by the user",
                    self.span,
                    "stopped here",
                )
                .with_help("nothing it did was kept; run it again to start over"),
            ));
        }
        self.rearm();
        Ok(())
    }

    /// Reports what `tick` would at the end of an action: a log that ran over its budget.
    pub fn finish(&mut self) -> R<()> {
        self.tick(0)
    }

    fn over_budget(&self, code: &str, message: String, name: &str) -> Diagnostic {
        let mut d = Diagnostic::error(code, message, self.span, "running this when the budget ran out");
        if let Some((span, text)) = self.rule
            && span != self.span
        {
            d = d.with_label(span, format!("in `{text}`"));
        }
        d.with_help(format!(
            "a rule probably fires itself or loops without end; if the rules really need more, raise the \
             budget (`--budget {name}=N` on the command line, `Budget::{name}` in `LoadOptions`)"
        ))
    }

    pub fn program(&self) -> &'a Program {
        self.p
    }

    fn push<const SIM: bool>(&mut self, entry: LogEntry) {
        if let LogEntry::Expect { passed, .. } = &entry
            && self.kept::<SIM>().game
        {
            self.game_expect::<SIM>(*passed);
            return;
        }
        if self.logged() >= self.log_limit {
            self.log_full = true;
            self.stop_at = 0;
            return;
        }
        self.log.push(LogLine { depth: self.nest, entry });
    }

    /// Entries this action has logged, with those a simulated game counted instead.
    fn logged(&self) -> u64 {
        (self.log.len() - self.log_start) as u64 + self.game.as_ref().map_or(0, |g| g.entries)
    }

    /// Counts an expectation of a simulated game: as an entry of the log for its budget, and as failed
    /// unless it `passed`.
    pub(super) fn game_expect<const SIM: bool>(&mut self, passed: bool) {
        if self.logged() >= self.log_limit {
            self.log_full = true;
            self.stop_at = 0;
        } else if let Some(game) = &mut self.game {
            game.entries += 1;
            game.failed |= !passed;
        }
    }

    /// Keeps a value a simulated game recorded, counted as an entry of the log for its budget.
    pub(super) fn game_record<const SIM: bool>(&mut self, label: &Arc<str>, value: i64) {
        if self.logged() >= self.log_limit {
            self.log_full = true;
            self.stop_at = 0;
        } else if let Some(game) = &mut self.game {
            game.entries += 1;
            game.records.push((label.clone(), value));
        }
    }

    fn show(&self, v: &Value) -> String {
        show_value(self.p, self.st, v)
    }

    /// A value as the log keeps it.
    fn log_value(&self, v: &Value) -> Logged {
        logged(self.p, self.st, v)
    }

    /// A fact as the log keeps it: data of a shape without the fields that only hold their defaults.
    fn log_fact(&self, ty: &Ty, v: &Value) -> Logged {
        match (ty, v) {
            (Ty::Shape(s), Value::Data(d)) => Logged::Data(std::sync::Arc::new(
                crate::shape::without_defaults(&self.p.shapes, &crate::shape::ShapeTy::Shape(*s), d),
            )),
            _ => self.log_value(v),
        }
    }

    fn entity_id(&self, v: &Value, what: &str) -> R<u32> {
        match v {
            Value::Entity(e) if self.st.entities.get(*e).is_some() => Ok(*e),
            _ => Err(Box::new(fail(
                crate::diagnostics::Code::NoEntity.name(),
                format!("{what} is none, so it has no attributes"),
                self.span,
                "make sure the host or scenario supplies this entity (for example the event's fact)",
            ))),
        }
    }

    /// One level deeper in events firing events and formulas calling formulas; an error past
    /// `MAX_DEPTH`.
    #[inline]
    fn deeper(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.too_deep());
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_deep(&mut self) -> Box<Diagnostic> {
        self.depth -= 1;
        Box::new(fail(
            "too_deep",
            format!("rules called each other more than {MAX_DEPTH} deep"),
            self.span,
            "an event probably fires itself, directly or through other rules; add a condition that stops it",
        ))
    }

    /// What a failed compiled condition gives back had it kept no error (it always keeps one).
    #[cold]
    fn lost_error(&self) -> Diagnostic {
        fail(
            "lost_error",
            "a condition failed without saying why",
            self.span,
            "this is a bug in mettle: please report it, with the ruleset",
        )
    }

    fn overflow(&self) -> Diagnostic {
        fail("overflow", "a number grew too large", self.span, "check the arithmetic of this rule")
    }

    /// A frame of `n` empty slots, reusing a spare one when there is one.
    fn frame(&mut self, n: usize) -> Vec<Value> {
        let mut f = self.kit.frames.pop().unwrap_or_default();
        // Spare frames hold nothing but `None`s: they are only cut or lengthened to size.
        if f.len() > n {
            f.truncate(n);
        } else {
            f.extend((f.len()..n).map(|_| Value::None));
        }
        f
    }

    /// Keeps a finished frame for [`Runner::frame`], every slot back to `None` (what it held is let
    /// go now).
    fn recycle(&mut self, mut f: Vec<Value>) {
        // Numbers, names and entities hold nothing to let go: they are written over, which costs a
        // test of each slot's kind, where emptying the frame dropped each value through a jump.
        for v in &mut f {
            set(v, Value::None);
        }
        self.kit.frames.push(f);
    }

    /// Statements typed at a prompt: run like scenario steps, each even after the game has ended.
    pub fn prompt(&mut self, stmts: &[Stmt], f: &mut Vec<Value>) -> R<()> {
        for s in stmts {
            self.exec_block::<ANY_RUN>(std::slice::from_ref(s), f)?;
        }
        Ok(())
    }
}
