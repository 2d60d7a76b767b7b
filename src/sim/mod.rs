//! Simulation: play a scenario or roll a check many times, in parallel and reproducibly, and count the results.
//!
//! Runs are split into chunks of 256 runs; chunk `i` is seeded from the simulation's seed and `i`,
//! and each chunk's counters are merged in an order-free way, so the same seed gives the same report
//! whatever the number of threads.
//!
//! ```
//! use mettle::{Ruleset, sim};
//! let rules = Ruleset::from_str("coin.mettle", r#"
//!     kind side { wins: 0.. = 0 }
//!     result heads "Heads"
//!     result tails "Tails"
//!     scenario toss {
//!         new side a
//!         with chance 1/2 { end game with heads for a } otherwise { end game with tails for a }
//!         record "turns" = turn
//!     }
//! "#).unwrap();
//! let opts = sim::Options { runs: 2000, seed: 7, threads: 2 };
//! let report = sim::simulate(&rules, &sim::Target::Scenario("toss".into()), &opts, &|_| {}).unwrap();
//! assert_eq!(report.results.iter().map(|r| r.count).sum::<u64>(), 2000);
//! let heads = report.results.iter().find(|r| r.result.as_deref() == Some("heads")).unwrap();
//! assert!(heads.low < 0.5 && 0.5 < heads.high);
//! ```

// The engine of a simulation (chunks, samplers, tallies) is the crate's own; the command's benches and
// tests reach it through `internals::sim`.
pub(crate) mod sampler;
pub(crate) mod tally;

use sampler::Meter;
use sampler::{CHUNK, CheckSampler, Chunk, FastCheckSampler, Sampler, ScenarioSampler, mix};
use tally::Tally;
pub use tally::wilson;

use crate::Ruleset;
use crate::diagnostics::{Diagnostic, suggest};
use crate::program::Value;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The most worker threads one simulation may ask for ([`Options::threads`]): more would cost the
/// machine more than they bring, and a hundred thousand could not be started at all.
pub const MAX_THREADS: usize = 256;

/// How many runs, from which seed, on how many threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Runs in all.
    pub runs: u64,
    /// Seed of the whole simulation.
    pub seed: u64,
    /// Worker threads (0: one per core), at most [`MAX_THREADS`] (`mettle::sim::too_many_threads`).
    pub threads: usize,
}

/// What to simulate.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// Play this scenario once per run.
    Scenario(String),
    /// Roll this check once per run.
    Check {
        /// The check's name.
        name: String,
        /// Its input values by name (the others take their defaults).
        inputs: Vec<(String, Value)>,
        /// For a check made by someone: the stand-in's attributes by name (the others take their
        /// defaults).
        with: Vec<(String, Value)>,
    },
}

/// How often one end came up.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Frequency {
    /// The game's result (or the check's outcome); `None` when the scenario ended without one.
    pub result: Option<String>,
    /// The winner, if the game named one.
    pub winner: Option<String>,
    /// Runs that ended this way.
    pub count: u64,
    /// Share of all runs.
    pub share: f64,
    /// Low end of the 95% Wilson score interval of the share.
    pub low: f64,
    /// High end of the interval.
    pub high: f64,
}

impl Frequency {
    /// The end as people read it: `major_victory for max`, `draw`, or that the game did not end.
    pub fn name(&self) -> String {
        match (&self.result, &self.winner) {
            (Some(r), Some(w)) => format!("{r} for {w}"),
            (Some(r), None) => r.clone(),
            (None, _) => "(the game did not end)".into(),
        }
    }
}

/// The distribution of one recorded value.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Distribution {
    /// The label, as written after `record`.
    pub label: String,
    /// Runs that recorded it.
    pub runs: u64,
    /// Mean value.
    pub mean: f64,
    /// Smallest value.
    pub min: i64,
    /// Largest value.
    pub max: i64,
    /// Every value recorded, smallest first, with its number of runs.
    pub counts: Vec<Count>,
}

/// How many runs recorded one value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Count {
    /// The value.
    pub value: i64,
    /// Runs that recorded it.
    pub runs: u64,
}

/// What a simulation found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Runs made, errors included.
    pub runs: u64,
    /// The simulation's seed.
    pub seed: u64,
    /// Each end that came up, most frequent first.
    pub results: Vec<Frequency>,
    /// Runs stopped by an error.
    pub errors: u64,
    /// The error of the first run that had one.
    pub first_error: Option<Diagnostic>,
    /// Runs in which an `expect` failed.
    pub failed_expectations: u64,
    /// Recorded values, by label in alphabetical order.
    pub records: Vec<Distribution>,
}

/// Plays `target` `opts.runs` times and reports how often each end came up. `progress` is called from
/// worker threads with the number of runs done so far, after each chunk.
///
/// Errors: an unknown scenario, check, input or attribute, or a value that does not fit (with help and a
/// did-you-mean). A run stopped by an error is counted, not returned: see [`Report::errors`].
///
/// The runs together take at most the ruleset's [`crate::Budget::total_steps`]; past it the
/// simulation stops with `mettle::budget::total_steps`.
pub fn simulate(
    rules: &Ruleset,
    target: &Target,
    opts: &Options,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Report, Diagnostic> {
    simulate_with(rules, target, opts, progress, &Arc::default())
}

/// [`simulate`], stopped when `stop` is set (by a Ctrl-C handler, a host's cancel button, a
/// server's deadline): between runs, and in the middle of a scenario's game. A stopped simulation
/// reports nothing but `mettle::sim::cancelled`, saying how many runs were done.
///
/// ```
/// use mettle::{Ruleset, sim};
/// use std::sync::{Arc, atomic::AtomicBool};
/// let rules = Ruleset::from_str("c.mettle", "check c { roll d6  outcome six when total == 6  otherwise other }").unwrap();
/// let opts = sim::Options { runs: 1000, seed: 7, threads: 1 };
/// let target = sim::Target::Check { name: "c".into(), inputs: vec![], with: vec![] };
/// let stop = Arc::new(AtomicBool::new(true));
/// let err = sim::simulate_with(&rules, &target, &opts, &|_| {}, &stop).unwrap_err();
/// assert_eq!(err.code, "mettle::sim::cancelled");
/// ```
pub fn simulate_with(
    rules: &Ruleset,
    target: &Target,
    opts: &Options,
    progress: &(dyn Fn(u64) + Sync),
    stop: &Arc<AtomicBool>,
) -> Result<Report, Diagnostic> {
    let sampler = sampler_for(rules, target)?;
    let meter = Meter::new(rules.budget().total_steps, stop.clone());
    run_within(sampler.as_ref(), opts, progress, &meter)
}

/// Runs `sampler` over `opts.runs` runs in chunks on a pool of `opts.threads` threads (with the
/// `parallel` feature; without it the chunks run one after another on the calling thread, to the same
/// report), within `meter`'s budget and stop flag.
pub(crate) fn run_within(
    sampler: &dyn Sampler,
    opts: &Options,
    progress: &(dyn Fn(u64) + Sync),
    meter: &Meter,
) -> Result<Report, Diagnostic> {
    let chunks = opts.runs.div_ceil(CHUNK);
    let done = AtomicU64::new(0);
    let one = |i: u64| {
        let first_run = i * CHUNK;
        let chunk = Chunk { seed: mix(opts.seed, i), first_run, runs: CHUNK.min(opts.runs - first_run) };
        let mut t = Tally::default();
        if meter.go() {
            sampler.sample_within(chunk, &mut t, meter);
            progress(done.fetch_add(t.runs, Ordering::Relaxed) + t.runs);
        }
        t
    };
    #[cfg(feature = "parallel")]
    let tally = {
        use rayon::prelude::*;
        workers(opts.threads)?
            .install(|| (0..chunks).into_par_iter().map(one).reduce(Tally::default, Tally::merge))
    };
    #[cfg(not(feature = "parallel"))]
    let tally = (0..chunks).map(one).fold(Tally::default(), Tally::merge);
    let done = format!("{} of {} runs done", tally.runs, opts.runs);
    if meter.stopped() {
        return Err(Diagnostic::plain("sim::cancelled", format!("the simulation was stopped ({done})"))
            .with_help("nothing is reported of a stopped simulation; run it again, with fewer runs for a quicker answer"));
    }
    if meter.over.load(Ordering::Relaxed) {
        let spent = meter.spent.load(Ordering::Relaxed);
        return Err(crate::budget::over_total_steps("the simulation", spent, meter.limit, &done));
    }
    Ok(report(tally, opts.seed))
}

/// A pool of `threads` worker threads. The last pool made is kept for the next simulation with as
/// many threads: a sweep of many short simulations would otherwise start and stop its threads each
/// time, and each new thread starts with a cold heap (its first allocations fault fresh pages in,
/// which two threads at once do in turn). A pool of more threads than the machine has cores is not
/// kept: they would all stay, idle, until the next simulation.
#[cfg(feature = "parallel")]
fn workers(threads: usize) -> Result<std::sync::Arc<rayon::ThreadPool>, Diagnostic> {
    use std::sync::{Arc, Mutex};
    if threads > MAX_THREADS {
        return Err(Diagnostic::plain(
            "sim::too_many_threads",
            format!("a simulation may run on at most {MAX_THREADS} threads, and {threads} were asked for"),
        )
        .with_help(format!("ask for {MAX_THREADS} threads or fewer, or for 0 (one per core)")));
    }
    static LAST: Mutex<Option<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(None);
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((n, pool)) = last.as_ref()
        && *n == threads
    {
        return Ok(pool.clone());
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| {
        Diagnostic::plain("sim::threads", format!("cannot start the worker threads: {e}"))
            .with_help("ask for fewer threads with `--threads`")
    })?;
    let pool = Arc::new(pool);
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    if threads <= cores {
        *last = Some((threads, pool.clone()));
    }
    Ok(pool)
}

fn report(t: Tally, seed: u64) -> Report {
    let mut results: Vec<Frequency> = t
        .ends
        .into_iter()
        .map(|(end, count)| {
            let (low, high) = wilson(count, t.runs);
            Frequency {
                result: end.result,
                winner: end.winner,
                count,
                share: count as f64 / t.runs as f64,
                low,
                high,
            }
        })
        .collect();
    // Most frequent first; ties in the order of the ends (stable sort).
    results.sort_by_key(|f| std::cmp::Reverse(f.count));
    let records = t
        .records
        .into_iter()
        .map(|(label, r)| Distribution {
            label,
            runs: r.runs,
            mean: r.sum as f64 / r.runs.max(1) as f64,
            min: r.min,
            max: r.max,
            counts: r.counts.into_iter().map(|(value, runs)| Count { value, runs }).collect(),
        })
        .collect();
    Report {
        runs: t.runs,
        seed,
        results,
        errors: t.errors,
        first_error: t.first_error.map(|(_, d)| d),
        failed_expectations: t.failed_expectations,
        records,
    }
}

fn unknown(what: &str, name: &str, known: &[&str]) -> Diagnostic {
    Diagnostic::plain(&format!("sim::unknown_{what}"), format!("there is no {what} called `{name}`"))
        .with_help(suggest(name, what, known))
}

/// Finds what `target` names and checks its values.
fn sampler_for(rules: &Ruleset, target: &Target) -> Result<Box<dyn Sampler>, Diagnostic> {
    let p = rules.program();
    match target {
        Target::Scenario(name) => {
            if !p.scenarios.iter().any(|s| s.name == *name) {
                let known: Vec<&str> = p.scenarios.iter().map(|s| s.name.as_str()).collect();
                return Err(unknown("scenario", name, &known));
            }
            Ok(Box::new(ScenarioSampler { rules: rules.clone(), name: name.clone() }))
        }
        Target::Check { name, inputs, with } => {
            // The session checks the names and values given, as for any roll; the stand-in, made
            // here, checks its attributes.
            let mut s = crate::Session::new(rules, 0);
            let named: Vec<(&str, Value)> = inputs.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
            let (c, args) = s.resolve(name, &named)?;
            let decl = &p.checks[c as usize];
            let subject = match decl.subject {
                Some(k) => Some((k, with.clone())),
                None if !with.is_empty() => {
                    return Err(Diagnostic::plain(
                        "sim::no_subject",
                        format!("check `{name}` is not made by anyone, so it has no attributes to set"),
                    )
                    .with_help("leave out the stand-in's attributes"));
                }
                None => None,
            };
            // An input the maker has as an attribute is taken from the stand-in, as a roll takes it.
            if let Some(missing) = decl.inputs.iter().enumerate().find(|(i, x)| {
                x.default.is_none()
                    && x.field.default.is_none()
                    && !args.iter().any(|a| a.0 == *i as u32)
                    && (decl.subject.is_none() || p.subject_attribute(c, *i as u32).is_none())
            }) {
                let n = &missing.1.field.name;
                return Err(Diagnostic::plain(
                    "sim::missing_input",
                    format!("check `{name}` needs input `{n}`, which has no default"),
                )
                .with_help(format!("give it, e.g. `--set {n}=…`")));
            }
            // Checks the exact engine can follow are sampled from its table: the same dice, one lookup.
            let who = match &subject {
                Some((k, attrs)) => {
                    let refs: Vec<(&str, Value)> =
                        attrs.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
                    Some(s.create(&p.kinds[*k as usize].name, "stand-in", &refs)?)
                }
                None => None,
            };
            if let Some(fast) = s.sampler(name, who, &named)? {
                let names = &p.sets[decl.outcome_set as usize].names;
                let outcomes = decl.outcomes.iter().map(|o| names[o.index as usize].clone()).collect();
                return Ok(Box::new(FastCheckSampler { sampler: fast, outcomes }));
            }
            Ok(Box::new(CheckSampler { rules: rules.clone(), check: c, inputs: args, subject }))
        }
    }
}
