//! The sandboxed Rhai engine: only the packages reactions need, no files, no `eval`, no `import`, strict
//! variables, and limits on work, depth, size and time.

use rhai::packages::{
    ArithmeticPackage, BasicArrayPackage, BasicFnPackage, BasicIteratorPackage, BasicMapPackage,
    BasicMathPackage, BasicStringPackage, LogicPackage, MoreStringPackage, Package,
};
use rhai::{Dynamic, Engine};
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Once};
use std::time::Duration;

/// The clock that scripts' time limits read. The library reads no clock of its own unless told to:
/// [`Clock::System`] (the default) is the operating system's monotonic clock; a host on a target
/// without one (a browser build) passes its own with [`Clock::Host`], or [`Clock::Off`] to rely on
/// the operation limits alone.
///
/// ```
/// use std::time::Duration;
/// fn ticks() -> Duration { Duration::ZERO } // a host's own clock: time since some fixed moment
/// let limits = mettle::ScriptLimits { clock: mettle::Clock::Host(ticks), ..Default::default() };
/// assert_eq!(limits.clock, mettle::Clock::Host(ticks));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub enum Clock {
    /// The operating system's monotonic clock (`std::time::Instant`).
    #[default]
    System,
    /// The host's clock: the time since a fixed moment of the host's choosing, never going back.
    Host(fn() -> Duration),
    /// No clock: scripts are held by their operation limits only, and `time` is not read.
    Off,
}

impl PartialEq for Clock {
    fn eq(&self, other: &Clock) -> bool {
        match (self, other) {
            (Clock::System, Clock::System) | (Clock::Off, Clock::Off) => true,
            (Clock::Host(a), Clock::Host(b)) => std::ptr::fn_addr_eq(*a, *b),
            _ => false,
        }
    }
}

impl Eq for Clock {}

impl Clock {
    /// The time since this clock's fixed moment, or `None` for [`Clock::Off`].
    pub fn now(self) -> Option<Duration> {
        match self {
            Clock::System => {
                static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
                Some(START.get_or_init(std::time::Instant::now).elapsed())
            }
            Clock::Host(f) => Some(f()),
            Clock::Off => None,
        }
    }
}

/// Limits on what one script call may do. Every limit is always on: a zero is read as one.
///
/// ```
/// let limits = mettle::ScriptLimits { operations: 50_000, ..Default::default() };
/// assert_eq!(limits.time, std::time::Duration::from_millis(50));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptLimits {
    /// Steps (operations) one call may take. Default 200,000: far more than any reaction needs.
    pub operations: u64,
    /// How deeply script functions may call each other. Default 32.
    pub call_depth: usize,
    /// How deeply expressions may nest. Default 64.
    pub expr_depth: usize,
    /// Longest string, in bytes. Default 10,000.
    pub string_len: usize,
    /// Longest array. Default 1,000.
    pub array_len: usize,
    /// Most entries in a map. Default 500.
    pub map_len: usize,
    /// Wall-clock time one call may take, as `clock` reads it. Default 50 ms.
    pub time: Duration,
    /// The clock `time` is read on. Default: the system's ([`Clock::System`]).
    pub clock: Clock,
}

impl Default for ScriptLimits {
    fn default() -> Self {
        ScriptLimits {
            operations: 200_000,
            call_depth: 32,
            expr_depth: 64,
            string_len: 10_000,
            array_len: 1_000,
            map_len: 500,
            time: Duration::from_millis(50),
            clock: Clock::System,
        }
    }
}

impl ScriptLimits {
    /// The same limits with no zeros (Rhai reads zero as "no limit").
    pub(super) fn sane(&self) -> ScriptLimits {
        ScriptLimits {
            operations: self.operations.max(1),
            call_depth: self.call_depth.max(1),
            expr_depth: self.expr_depth.max(1),
            string_len: self.string_len.max(1),
            array_len: self.array_len.max(1),
            map_len: self.map_len.max(1),
            time: self.time.max(Duration::from_millis(1)),
            clock: self.clock,
        }
    }
}

// The call in progress on this thread: when it must stop, and what it printed. One engine serves many
// sessions on many threads, so this state lives with the thread, not the engine.
thread_local! {
    static IN_CALL: Cell<bool> = const { Cell::new(false) };
    static DEADLINE: Cell<Option<Duration>> = const { Cell::new(None) };
    static CLOCK: Cell<Clock> = const { Cell::new(Clock::Off) };
    static PRINTED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    // The action in progress on this thread (an event, a roll, a scenario, one run of a simulation):
    // how many script operations it has left across all its calls, what the current call had left
    // when it started, the operations the current call has used, and the flag that cancels it.
    static ACTION_LEFT: Cell<u64> = const { Cell::new(u64::MAX) };
    static CALL_LEFT: Cell<u64> = const { Cell::new(u64::MAX) };
    static CALL_OPS: Cell<u64> = const { Cell::new(0) };
    static CANCEL: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// What stops a script that ran out of time.
pub(super) const OUT_OF_TIME: &str = "mettle: out of time";
/// What stops a script whose action spent its budget of script operations.
pub(super) const OUT_OF_BUDGET: &str = "mettle: out of the action's script budget";
/// What stops a script whose action was cancelled.
pub(super) const CANCELLED: &str = "mettle: cancelled";

/// Starts an action on this thread: its script calls share `operations`, and stop when `cancel` is set.
pub(crate) fn begin_action(operations: u64, cancel: &Arc<AtomicBool>) {
    ACTION_LEFT.with(|c| c.set(operations.max(1)));
    CANCEL.with(|c| {
        let mut c = c.borrow_mut();
        if !c.as_ref().is_some_and(|old| Arc::ptr_eq(old, cancel)) {
            *c = Some(cancel.clone());
        }
    });
}

/// Script operations the action running on this thread has left.
pub(crate) fn action_left() -> u64 {
    ACTION_LEFT.with(Cell::get)
}

static QUIET: Once = Once::new();

/// A panic inside a script call (from a function the host registered) is caught and reported as a
/// diagnostic, so the process-wide panic hook must not also print it, or spend time on a backtrace.
/// Panics anywhere else still go to the hook that was there before.
fn quiet_panics_in_calls() {
    QUIET.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_CALL.with(Cell::get) {
                before(info);
            }
        }));
    });
}

/// Marks the start of a call that may run for `time` on `clock`.
pub(super) fn start(time: Duration, clock: Clock) {
    quiet_panics_in_calls();
    IN_CALL.with(|c| c.set(true));
    CLOCK.with(|c| c.set(clock));
    DEADLINE.with(|d| d.set(clock.now().map(|now| now.saturating_add(time))));
    PRINTED.with(|p| p.borrow_mut().clear());
    CALL_LEFT.with(|c| c.set(ACTION_LEFT.with(Cell::get)));
    CALL_OPS.with(|c| c.set(0));
}

/// Marks the end of a call, returning what it printed; what it spent comes off the action's budget.
pub(super) fn finish() -> Vec<String> {
    IN_CALL.with(|c| c.set(false));
    DEADLINE.with(|d| d.set(None));
    let used = CALL_OPS.with(Cell::get);
    ACTION_LEFT.with(|c| c.set(c.get().saturating_sub(used)));
    PRINTED.with(|p| std::mem::take(&mut *p.borrow_mut()))
}

/// Whether the action running on this thread was cancelled.
fn cancelled() -> bool {
    CANCEL.with(|c| c.borrow().as_ref().is_some_and(|f| f.load(Ordering::Relaxed)))
}

fn print(text: &str) {
    PRINTED.with(|p| {
        let mut p = p.borrow_mut();
        // Printing is for the log, not a way round the memory limits.
        if p.len() < 1_000 {
            p.push(text.chars().take(1_000).collect());
        }
    });
}

/// A new engine with the limits and nothing else that could reach outside it.
pub(super) fn engine(limits: &ScriptLimits) -> Engine {
    let l = limits.sane();
    let mut e = Engine::new_raw();
    // No `LanguageCorePackage`: it brings `sleep` (which blocks the thread past every limit), `exit`,
    // `parse_json` and reflection, none of which a reaction needs. Without them, no name given to
    // `Fn(…)`, `call` or `curry` can reach them either.
    e.register_global_module(ArithmeticPackage::new().as_shared_module());
    e.register_global_module(LogicPackage::new().as_shared_module());
    e.register_global_module(BasicMathPackage::new().as_shared_module());
    e.register_global_module(BasicStringPackage::new().as_shared_module());
    e.register_global_module(MoreStringPackage::new().as_shared_module());
    e.register_global_module(BasicIteratorPackage::new().as_shared_module());
    e.register_global_module(BasicArrayPackage::new().as_shared_module());
    e.register_global_module(BasicMapPackage::new().as_shared_module());
    e.register_global_module(BasicFnPackage::new().as_shared_module());
    // `new_raw` has no module resolver, so `import` could never load a file; disabling the words makes
    // them an error when the ruleset loads rather than when the script runs.
    for word in ["eval", "import", "export"] {
        e.disable_symbol(word);
    }
    e.set_strict_variables(true);
    e.set_max_operations(l.operations);
    e.set_max_call_levels(l.call_depth);
    e.set_max_expr_depths(l.expr_depth, l.expr_depth);
    e.set_max_string_size(l.string_len);
    e.set_max_array_size(l.array_len);
    e.set_max_map_size(l.map_len);
    e.set_max_variables(1_000);
    e.set_max_functions(1_000);
    e.on_print(print);
    e.on_debug(|text, _, _| print(text));
    e.on_progress(|ops| {
        CALL_OPS.with(|c| c.set(ops));
        if ops > CALL_LEFT.with(Cell::get) {
            return Some(Dynamic::from(OUT_OF_BUDGET));
        }
        // Reading the clock costs more than an operation: look every 256 of them.
        if ops % 256 != 0 {
            return None;
        }
        if cancelled() {
            return Some(Dynamic::from(CANCELLED));
        }
        let late = DEADLINE
            .with(|d| d.get())
            .is_some_and(|end| CLOCK.with(Cell::get).now().is_some_and(|now| now > end));
        late.then(|| Dynamic::from(OUT_OF_TIME))
    });
    e
}
