//! The per-run step of a simulation: play a scenario once, or roll a check once.

use super::tally::{End, Recorder, Tally};
use crate::diagnostics::Diagnostic;
use crate::program::{CheckId, Value};
use crate::session::{QuietGame, Session};
use crate::{Ruleset, program::KindId};

/// Runs per chunk: the unit of seeding, of parallel work and of progress.
pub const CHUNK: u64 = 256;

/// SplitMix64 of `a` and `b`: independent-looking seeds from a seed and a counter.
///
/// ```
/// assert_ne!(mettle::internals::sim::mix(1, 0), mettle::internals::sim::mix(1, 1));
/// assert_eq!(mettle::internals::sim::mix(1, 0), mettle::internals::sim::mix(1, 0));
/// ```
pub fn mix(a: u64, b: u64) -> u64 {
    let step = |mut z: u64| {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    step(step(a) ^ b)
}

/// A batch of consecutive runs, with the seed of its generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chunk {
    /// Seed of the chunk, from the simulation's seed and the chunk's number.
    pub seed: u64,
    /// Number of the chunk's first run (from 0), for telling which error came first.
    pub first_run: u64,
    /// How many runs.
    pub runs: u64,
}

impl Chunk {
    /// The seed of the chunk's `i`th run.
    pub fn run_seed(&self, i: u64) -> u64 {
        mix(self.seed, i)
    }
}

/// What a simulation runs: it plays a chunk of runs and counts each run's end into a tally. A faster
/// way of rolling (one that never builds a session, say) only needs to implement this.
pub trait Sampler: Sync {
    /// Plays every run of `chunk`, counting them into `tally`. The same chunk must always give the same
    /// counts.
    fn sample(&self, chunk: Chunk, tally: &mut Tally);

    /// Plays the runs of `chunk` as [`Sampler::sample`] does, charging each run's steps to `meter`
    /// and stopping between runs once it says to. This one charges the whole chunk, a step a run.
    fn sample_within(&self, chunk: Chunk, tally: &mut Tally, meter: &Meter) {
        if meter.go() {
            self.sample(chunk, tally);
            meter.charge(chunk.runs);
        }
    }
}

/// The budget of a whole simulation, shared by its threads: the steps its runs took in all against
/// [`crate::Budget::total_steps`], and the flag that stops it (Ctrl-C, a host's cancel). A run is
/// never cut in two by the budget (each run has its own budget of steps); the flag also stops a
/// scenario's game in the middle.
#[derive(Debug)]
pub struct Meter {
    /// Most steps in all.
    pub limit: u64,
    /// Steps taken so far.
    pub spent: std::sync::atomic::AtomicU64,
    /// Set once `spent` went past `limit`.
    pub over: std::sync::atomic::AtomicBool,
    /// Set by the host to stop the simulation.
    pub stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Meter {
    /// A meter of `limit` steps, stopped by `stop`.
    pub fn new(limit: u64, stop: std::sync::Arc<std::sync::atomic::AtomicBool>) -> Meter {
        Meter { limit, spent: Default::default(), over: Default::default(), stop }
    }

    /// Whether to play another run.
    #[inline]
    pub fn go(&self) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        !self.over.load(Relaxed) && !self.stop.load(Relaxed)
    }

    /// Counts a run's `steps` (at least one).
    #[inline]
    pub fn charge(&self, steps: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        let steps = steps.max(1);
        if self.spent.fetch_add(steps, Relaxed).saturating_add(steps) > self.limit {
            self.over.store(true, Relaxed);
        }
    }

    /// Whether the host stopped the simulation.
    pub fn stopped(&self) -> bool {
        self.stop.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// A meter that never stops a sampler: for [`Sampler::sample`] written through
/// [`Sampler::sample_within`].
fn unlimited() -> Meter {
    Meter::new(u64::MAX, Default::default())
}

/// Plays a scenario once per run, each run from a fresh start seeded with its own seed, with the log
/// off ([`Session::play_quietly`]).
pub struct ScenarioSampler {
    /// The rules.
    pub rules: Ruleset,
    /// The scenario's name (already known to exist).
    pub name: String,
}

impl Sampler for ScenarioSampler {
    fn sample(&self, chunk: Chunk, tally: &mut Tally) {
        self.sample_within(chunk, tally, &unlimited());
    }

    fn sample_within(&self, chunk: Chunk, tally: &mut Tally, meter: &Meter) {
        // One session plays every game of the chunk, each from a fresh start with its own seed
        // (`Session::play_quietly`); the chunk's ends are counted here, compared by name without
        // copying them, and go to the tally at the end.
        let Some(scenario) = self.rules.program().scenarios.iter().position(|s| s.name == self.name) else {
            for i in 0..chunk.runs {
                let d = Diagnostic::plain(
                    "sim::unknown_scenario",
                    format!("there is no scenario `{}`", self.name),
                );
                tally.add_error(chunk.first_run + i, d);
            }
            return;
        };
        let mut s = Session::new(&self.rules, chunk.seed);
        // The host's stop flag stops a game in the middle too (it is never cleared here).
        s.set_cancel_flag(meter.stop.clone());
        // Nothing here reads the checks' last results of a game: those left to be made are not made.
        let mut game = QuietGame { results_unread: true, ..QuietGame::default() };
        let mut ends: Vec<(End, u64)> = Vec::new();
        let mut recorder = Recorder::default();
        for i in 0..chunk.runs {
            if !meter.go() {
                break;
            }
            let before = crate::budget::steps_spent();
            let played = s.play_quietly(scenario, chunk.run_seed(i), &mut game);
            meter.charge(crate::budget::steps_spent().wrapping_sub(before));
            match played {
                // A game the host stopped is not counted: the simulation reports no runs.
                Err(_) if meter.stopped() => break,
                Ok(()) => {
                    let over = s.state().over.as_ref();
                    let result = over.map(|o| o.result.as_str());
                    let winner = over.and_then(|o| o.winner.as_deref());
                    match ends
                        .iter_mut()
                        .find(|(e, _)| e.result.as_deref() == result && e.winner.as_deref() == winner)
                    {
                        Some((_, n)) => *n += 1,
                        None => ends.push((
                            End { result: result.map(str::to_string), winner: winner.map(str::to_string) },
                            1,
                        )),
                    }
                    recorder.add_run(tally, &game.records, game.failed);
                }
                Err(d) => tally.add_error(chunk.first_run + i, d),
            }
        }
        for (end, n) in ends {
            tally.add_ends(end, n);
        }
        recorder.finish(tally);
    }
}

/// Rolls a check, for a fresh stand-in of its subject's kind when someone makes it (as `mettle roll`
/// does): the outcome is the run's end, and its total is recorded as `total`.
pub struct CheckSampler {
    /// The rules.
    pub rules: Ruleset,
    /// The check.
    pub check: CheckId,
    /// Input values by input index.
    pub inputs: Vec<(u32, Value)>,
    /// The stand-in's kind and attribute values, when the check is made by someone.
    pub subject: Option<(KindId, Vec<(String, Value)>)>,
}

impl CheckSampler {
    /// Rolls once in `s`, which is fresh or has only ever rolled this check without a subject: the
    /// outcome and the total.
    fn roll(&self, s: &mut Session) -> Result<(String, i64), Diagnostic> {
        let r = match &self.subject {
            None => s.roll_id(self.check, self.inputs.clone())?,
            Some((kind, attrs)) => {
                let p = self.rules.program();
                let kname = &p.kinds[*kind as usize].name;
                let refs: Vec<(&str, Value)> = attrs.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
                let who = s.create(kname, kname, &refs)?;
                let name = &p.checks[self.check as usize].name;
                let inputs: Vec<(&str, Value)> = self
                    .inputs
                    .iter()
                    .map(|(i, v)| {
                        (p.checks[self.check as usize].inputs[*i as usize].field.name.as_str(), v.clone())
                    })
                    .collect();
                // A sampler's session has no chooser: every roll gives a result.
                s.roll_for(name, Some(who), &inputs)?.rolled.ok_or_else(|| {
                    Diagnostic::plain("run::no_result", format!("check `{name}` gave no result"))
                        .with_help("this is a bug in mettle: please report it")
                })?
            }
        };
        Ok((r.outcome.clone(), r.total))
    }
}

impl Sampler for CheckSampler {
    fn sample(&self, chunk: Chunk, tally: &mut Tally) {
        self.sample_within(chunk, tally, &unlimited());
    }

    fn sample_within(&self, chunk: Chunk, tally: &mut Tally, meter: &Meter) {
        // Without a subject a roll changes nothing but the generator, so one session serves the chunk;
        // with one, its effects change the stand-in, so each roll gets a fresh session.
        let mut shared = Session::new(&self.rules, chunk.seed);
        shared.set_logging(false);
        // The check's total is reported like a recorded value.
        let mut total = [("total".to_string(), 0)];
        for i in 0..chunk.runs {
            // A roll clears its session's cancel flag as it starts, so the host's flag is read here,
            // between rolls, and not handed to the sessions.
            if !meter.go() {
                break;
            }
            let before = crate::budget::steps_spent();
            let rolled = if self.subject.is_some() {
                let mut s = Session::new(&self.rules, chunk.run_seed(i));
                s.set_logging(false);
                self.roll(&mut s)
            } else {
                self.roll(&mut shared)
            };
            meter.charge(crate::budget::steps_spent().wrapping_sub(before));
            match rolled {
                Ok((outcome, t)) => {
                    total[0].1 = t;
                    tally.add(End { result: Some(outcome), winner: None }, &total, false)
                }
                Err(d) => tally.add_error(chunk.first_run + i, d),
            }
        }
    }
}

/// Rolls a check the exact engine can follow: its dice, then the outcome and total from the exact
/// table ([`crate::odds::Sampler`]). Each chunk draws from one generator seeded with the chunk's seed.
pub struct FastCheckSampler {
    /// The compiled check.
    pub sampler: crate::odds::Sampler,
    /// The outcomes' names, in the check's order.
    pub outcomes: Vec<String>,
}

impl Sampler for FastCheckSampler {
    fn sample(&self, chunk: Chunk, tally: &mut Tally) {
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(chunk.seed);
        let mut total = [("total".to_string(), 0)];
        for _ in 0..chunk.runs {
            let (o, t) = self.sampler.sample_total(&mut rng);
            total[0].1 = t;
            tally.add(End { result: Some(self.outcomes[o].clone()), winner: None }, &total, false);
        }
    }
}
