//! What if: the chance of every end a step would lead to from a game as it stands (a REPL's
//! `odds trigger …`), without changing the game. Every way the step's dice can fall is tried on a
//! copy of the session, while that fits in the budget; past it, the step is played many times with
//! seeded dice and each end is given with a 95% interval.
//!
//! The engine is behind [`what_if`] alone, so that the way the paths are followed can change (a
//! state-merging engine) without its callers noticing.

use super::ends::{self, EndFacts};
use super::walk::{Short, every_path};
use super::{Chance, FALLBACK_RUNS, Fraction, How, MAX_PATHS, OutcomeOdds, Report, work};
use crate::diagnostics::Diagnostic;
use crate::session::Session;
use num_bigint::BigUint;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};

/// What a step does from the state it starts in: the ends it can lead to, and what it changes in
/// every one of them.
#[derive(Debug, Clone)]
pub(crate) struct WhatIf {
    /// The ends, named as the odds of a scenario name them ([`ends::names`]), with their chances
    /// (exact or estimated), and the distribution of each value recorded (`record "label" = …`).
    pub report: Report,
    /// What is the same in every end but not as it was: `alpha.ap: 1 → 0`.
    pub always: Vec<String>,
}

/// How to play the step once on a copy of the session.
pub(crate) type Step<'a> = dyn FnMut(&mut Session) -> Result<(), Diagnostic> + 'a;

/// The ends reached: each distinct end with its weight, exactly (over one denominator) or counted.
enum Found {
    Exact { ends: Vec<(EndFacts, BigUint)>, common: BigUint, paths: usize },
    Counted(Vec<(EndFacts, u64)>),
}

/// The ends `step` leads to from `session`, exactly when every way its dice can fall fits in
/// [`MAX_PATHS`] runs and the budget's `odds_work`; otherwise estimated from as many as
/// [`FALLBACK_RUNS`] seeded runs (fewer when the budget of work runs out first), saying why.
/// `stop` set (Ctrl-C) stops the question with `mettle::odds::cancelled`: what was played by then
/// is no answer. `session` is not changed.
pub(crate) fn what_if(
    session: &Session,
    question: &str,
    step: &mut Step<'_>,
    seed: u64,
    stop: &AtomicBool,
) -> Result<WhatIf, Diagnostic> {
    let units = session.ruleset().budget().odds_work;
    let (exact, dry) = work::within(units, || exact(session, step, stop));
    let reason = match exact {
        Err(Short::Failed(Stopped)) => return Err(stopped(question)),
        Ok(found) if !dry => return Ok(summarise(session, question, found, How::Exact)),
        Ok(_) => work::reason(),
        Err(short) if dry => format!("{}; {}", short_reason(short), work::reason()),
        Err(short) => short_reason(short),
    };
    let (sampled, _) =
        work::within(units, || sample(session, step, FALLBACK_RUNS, seed, &|_| {}, Some(stop)));
    let (found, runs) = sampled;
    if stop.load(Ordering::Relaxed) {
        return Err(stopped(question));
    }
    if runs == 0 {
        return Err(Diagnostic::plain(
            "odds::out_of_work",
            format!("{question}: the budget of work ran out before the step could be played once"),
        )
        .with_help("raise it with `--budget odds_work=N`"));
    }
    let reason = if runs < FALLBACK_RUNS {
        format!("{reason}; the estimate stopped after {runs} runs, when its budget of work ran out")
    } else {
        reason
    };
    Ok(summarise(session, question, found, How::Estimated { reason, runs, seed }))
}

/// The ends of `runs` plays of `step` from `session`, each with dice seeded from `seed` and the run's
/// number, counted as [`what_if`] counts an estimate: `:sim N`. `progress` is told how many runs
/// are done now and then; `stop` set stops the runs (the report covers those done). `session` is
/// not changed.
pub(crate) fn simulate(
    session: &Session,
    question: &str,
    step: &mut Step<'_>,
    runs: u64,
    seed: u64,
    progress: &dyn Fn(u64),
    stop: &AtomicBool,
) -> WhatIf {
    let (found, done) = sample(session, step, runs, seed, progress, Some(stop));
    let reason = "it was asked for as a simulation".to_string();
    summarise(session, question, found, How::Estimated { reason, runs: done, seed })
}

/// Why a what-if's ends were not all followed.
fn short_reason(short: Short<Stopped>) -> String {
    match short {
        Short::Paths => format!("the step's dice can fall more than {MAX_PATHS} ways"),
        Short::Work | Short::Failed(Stopped) => "the budget of work ran out".into(),
    }
}

/// The walk was stopped by the user.
struct Stopped;

/// The error of a what-if the user stopped.
fn stopped(question: &str) -> Diagnostic {
    Diagnostic::plain("odds::cancelled", format!("{question}: stopped before its odds were worked out"))
        .with_help("ask again to work them out")
}

/// Every way the dice can fall ([`super::walk::every_path`]), each path played again from the
/// game as it stands with its faces; equal ends added up. A path stopped by `stop` (its error, or
/// `stop` set once it is played) stops the walk: the stop is no end of the step.
fn exact(session: &Session, step: &mut Step<'_>, stop: &AtomicBool) -> Result<Found, Short<Stopped>> {
    let ends = every_path(
        || session.reseeded(0),
        step,
        |s, result| {
            let cancelled = matches!(&result, Err(d) if d.is(crate::diagnostics::Code::Cancelled));
            if cancelled || stop.load(Ordering::Relaxed) {
                return Err(Stopped);
            }
            Ok(end(s, result))
        },
    )?;
    // Weights over one common denominator, so that they add up.
    let common = ends.iter().fold(BigUint::from(1u32), |acc, (_, d)| num_integer::Integer::lcm(&acc, d));
    let paths = ends.len();
    let mut added: HashMap<EndFacts, BigUint> = HashMap::new();
    for (e, d) in ends {
        *added.entry(e).or_default() += &common / d;
    }
    Ok(Found::Exact { ends: added.into_iter().collect(), common, paths })
}

/// `runs` plays with seeded dice, each end counted; stops early when the budget of work runs out
/// or `stop` is set. The ends, and how many runs were made.
fn sample(
    session: &Session,
    step: &mut Step<'_>,
    runs: u64,
    seed: u64,
    progress: &dyn Fn(u64),
    stop: Option<&AtomicBool>,
) -> (Found, u64) {
    let mut counts: HashMap<EndFacts, u64> = HashMap::new();
    let mut done = 0;
    for i in 0..runs {
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            break;
        }
        work::charge(100);
        let mut s = session.reseeded(seed.wrapping_add(i));
        let result = step(&mut s);
        // Each action clears the flag as it starts: a run stopped by it says so by its error.
        let cancelled = matches!(&result, Err(d) if d.is(crate::diagnostics::Code::Cancelled));
        if work::dry() || cancelled {
            break;
        }
        *counts.entry(end(&s, result)).or_default() += 1;
        done += 1;
        if done % 256 == 0 {
            progress(done);
        }
    }
    progress(done);
    (Found::Counted(counts.into_iter().collect()), done)
}

/// How a run ended, as the odds of a scenario tell ends apart: the game's end, every attribute,
/// the values recorded and reported on the way, or the error that stopped it.
fn end(s: &Session, result: Result<(), Diagnostic>) -> EndFacts {
    let (records, reported) = ends::logged(s);
    ends::facts(s, result.as_ref().err(), records, reported)
}

/// The report of the ends found: each named as [`ends::names`] names it, what every end changes,
/// and the distribution of each recorded value.
fn summarise(session: &Session, question: &str, found: Found, how: How) -> WhatIf {
    let before = ends::facts(session, None, vec![], None);
    let (outcomes, values, always, question) = match found {
        Found::Exact { ends, common, paths } => {
            let always = always(&before, ends.iter().map(|(e, _)| e));
            let (rows, values) =
                ends::exact_rows(ends.into_iter().map(|(e, w)| (e, w, common.clone())).collect());
            let outcomes = rows
                .into_iter()
                .map(|(name, p): (String, Fraction)| OutcomeOdds { name, chance: Chance::Exact(p) })
                .collect();
            (
                outcomes,
                values,
                always,
                format!("{question}: its ends over all {paths} ways its dice can fall"),
            )
        }
        Found::Counted(counts) => {
            let runs = match &how {
                How::Estimated { runs, .. } => *runs,
                How::Exact => counts.iter().map(|(_, n)| n).sum(),
            };
            let always = always(&before, counts.iter().map(|(e, _)| e));
            let (outcomes, values) = ends::counted_rows(&counts, runs);
            (outcomes, values, always, format!("{question}: how it ends"))
        }
    };
    WhatIf {
        report: Report {
            question,
            outcomes,
            groups: vec![],
            values,
            effects: vec![],
            how,
            defaults: vec![],
            merging: None,
        },
        always,
    }
}

/// What every end that was not stopped has in common but the game as it stood (`before`) had not:
/// `alpha.tested: no → yes`, `the game ends: rout for red`, `beta is new`.
fn always<'a>(before: &EndFacts, ends: impl Iterator<Item = &'a EndFacts>) -> Vec<String> {
    let finished: Vec<&EndFacts> = ends.filter(|e| e.stop.is_none()).collect();
    let Some(first) = finished.first() else { return vec![] };
    let mut out = vec![];
    if before.over.is_none()
        && let Some((result, winner)) = &first.over
        && finished.iter().all(|e| e.over == first.over)
    {
        out.push(match winner {
            Some(w) => format!("the game ends: {result} for {w}"),
            None => format!("the game ends: {result}"),
        });
    }
    let was: BTreeMap<&str, &str> = before.parts.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let each: Vec<BTreeMap<&str, &str>> = finished[1..]
        .iter()
        .map(|e| e.parts.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect())
        .collect();
    let mut new = None;
    for (k, v) in &first.parts {
        if !each.iter().all(|e| e.get(k.as_str()) == Some(&v.as_str())) {
            continue;
        }
        let entity = k.split_once('.').map_or(k.as_str(), |(e, _)| e);
        match was.get(k.as_str()) {
            Some(old) if old == v => {}
            Some(old) => out.push(format!("{k}: {old} → {v}")),
            None => {
                if new != Some(entity)
                    && !was.keys().any(|w| w.split_once('.').is_some_and(|(e, _)| e == entity))
                {
                    out.push(format!("{entity} is new"));
                    new = Some(entity);
                }
                out.push(format!("{k} = {v}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A stop that comes after a run has begun but before its action starts (Ctrl-C while the game
    /// is copied for the run) stops the runs; it is not cleared as a new action's would be.
    #[test]
    fn a_stop_between_runs_is_not_lost() {
        let rules = crate::Ruleset::from_str(
            "c.mettle",
            "check c { roll d6  outcome hit when total == 6  otherwise miss }",
        )
        .unwrap();
        let session = Session::new(&rules, 1);
        let stop = session.cancel_flag();
        let mut calls = 0;
        let mut step = |s: &mut Session| {
            calls += 1;
            if calls == 4 {
                s.cancel_flag().store(true, Ordering::Relaxed);
            }
            s.roll("c", &[]).map(drop)
        };
        let w = simulate(&session, "c", &mut step, 10, 1, &|_| {}, &stop);
        // The fourth roll, too short to look at the flag, is counted; no fifth is made.
        assert!(matches!(w.report.how, How::Estimated { runs: 4, .. }), "{:?}", w.report.how);
        assert!(stop.load(Ordering::Relaxed));
    }

    /// A stop pressed while the ends of a what-if are worked out stops the question: no report is
    /// made of the paths played so far, and none names the stop as one of the step's ends.
    #[test]
    fn a_stop_during_a_what_if_stops_it() {
        let text = "kind unit { n: int = 0  m: int = 0 }\n\
                    event long(u: unit)\n\
                    on long { repeat { set u.m to 0  repeat { add 1 to u.m } until u.m >= 100  add 1 to u.n } \
                    until u.n >= 30  if d6 >= 4 { add 1 to u.n } }";
        let rules = crate::Ruleset::from_str("w.mettle", text).unwrap();
        let mut session = Session::new(&rules, 1);
        let u = session.create("unit", "a", &[]).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        session.set_cancel_flag(stop.clone());
        // Each way through the step is past the runner's first look at the flag.
        for press_at in [1, 4] {
            stop.store(false, Ordering::Relaxed);
            let mut calls = 0;
            let mut step = |s: &mut Session| {
                calls += 1;
                if calls == press_at {
                    s.cancel_flag().store(true, Ordering::Relaxed);
                }
                s.apply("long", &[("u", crate::Value::Entity(u))]).map(drop)
            };
            let err = what_if(&session, "q", &mut step, 1, &stop).unwrap_err();
            assert_eq!(err.code, "mettle::odds::cancelled", "{err:?}");
        }
        stop.store(false, Ordering::Relaxed);
        let mut step = |s: &mut Session| s.apply("long", &[("u", crate::Value::Entity(u))]).map(drop);
        let w = what_if(&session, "q", &mut step, 1, &stop).unwrap();
        assert!(matches!(w.report.how, How::Exact));
        assert_eq!(w.report.outcomes.len(), 2, "{:?}", w.report.outcomes);
    }
}
