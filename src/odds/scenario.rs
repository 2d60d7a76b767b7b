//! The odds of a whole scenario as one report: its end states exactly when its rolls are few
//! ([`scenario_ends`](super::scenario_ends)), otherwise estimated by as many simulated runs as the
//! budget of work allows, saying why.

use super::{Chance, FALLBACK_RUNS, How, OutcomeOdds, Report, work};
use crate::diagnostics::Diagnostic;
use crate::session::QuietGame;
use crate::{Ruleset, Session};
use std::collections::HashMap;

/// How scenario `name` ends: each end state with its chance, exact over every way its rolls can go
/// when that fits in [`MAX_PATHS`](super::MAX_PATHS) and the budget's `odds_work`; otherwise
/// estimated from runs seeded with `seed`, each end with its 95% interval, each recorded value's
/// distribution, and [`Report::how`] saying why.
///
/// Errors: an unknown scenario, or one run of it costing more than the budget of work of an
/// estimate (`mettle::odds::out_of_work`).
///
/// ```
/// let rules = mettle::Ruleset::from_str("w.mettle", r#"
///     kind unit { morale: steady | shaken | broken = steady }
///     check morale for unit { roll d6  outcome hold when total >= 3 {} otherwise slip { set unit.morale to shift(unit.morale, 1) } }
///     scenario twice { new unit u  roll morale for u  roll morale for u }
/// "#).unwrap();
/// let report = mettle::odds::scenario(&rules, "twice", 1).unwrap();
/// assert_eq!(report.question, "scenario twice: its end states over all 36 ways its rolls can go");
/// assert_eq!(report.outcomes[2].name, "u.morale = broken");
/// ```
pub fn scenario(rules: &Ruleset, name: &str, seed: u64) -> Result<Report, Diagnostic> {
    match super::scenario_ends(rules, name)? {
        Ok(ends) => Ok(Report {
            question: format!(
                "scenario {name}: its end states over all {} ways its rolls can go",
                ends.paths
            ),
            outcomes: ends
                .ends
                .into_iter()
                .map(|(end, p)| OutcomeOdds { name: end, chance: Chance::Exact(p) })
                .collect(),
            groups: vec![],
            values: ends.values,
            effects: vec![],
            how: How::Exact,
            defaults: vec![],
            merging: None,
        }),
        Err(why) => match merge(rules, name) {
            Ok(m) => Ok(merged_report(name, m)),
            Err(more) => estimate(rules, name, format!("{why}; merging equal game states: {more}"), seed),
        },
    }
}

/// Scenario `name`'s ends by merging equal game states, within the budget of work, or why not.
fn merge(rules: &Ruleset, name: &str) -> Result<super::Merged, String> {
    match super::scenario_states(rules, name) {
        Ok(m) => m,
        Err(d) => Err(d.message),
    }
}

/// The report of ends found by merging equal game states.
fn merged_report(name: &str, m: super::Merged) -> Report {
    Report {
        question: format!(
            "scenario {name}: how it ends, over every way its rolls can go ({} game states merged)",
            m.states
        ),
        outcomes: m
            .ends
            .into_iter()
            .map(|(end, p)| OutcomeOdds { name: end, chance: Chance::Exact(p) })
            .collect(),
        groups: vec![],
        values: m.values,
        effects: vec![],
        how: How::Exact,
        defaults: vec![],
        merging: Some(super::Merging { states: m.states, remainder: m.remainder }),
    }
}

/// A scenario's ends estimated by simulation, when exact is out of reach: each end with its 95%
/// interval, and each recorded value's distribution.
fn estimate(r: &Ruleset, name: &str, reason: String, seed: u64) -> Result<Report, Diagnostic> {
    let (runs, most) = affordable_runs(r, name)?;
    // No run may cost more than twice the costliest probe: a run that would is stopped (and counted
    // as stopped by an error), so the estimate's work stays within its budget whatever the dice do.
    let mut capped = r.budget().clone();
    let steps = (most.saturating_mul(2) / 50).max(1_000);
    let scripts = (most.saturating_mul(2) / 100).max(1_000);
    capped.set("steps", capped.steps.min(steps)).ok();
    capped.set("script_operations", capped.script_operations.min(scripts)).ok();
    let r = &r.with_budget(capped);
    let reason = if runs < FALLBACK_RUNS {
        format!("{reason}; only {runs} runs fit in the budget of work of an estimate")
    } else {
        reason
    };
    let (counts, runs) = play(r, name, runs, seed)?;
    let (outcomes, values) = super::ends::counted_rows(&counts, runs);
    Ok(Report {
        question: format!("scenario {name}: how it ends"),
        outcomes,
        groups: vec![],
        values,
        effects: vec![],
        how: How::Estimated { reason, runs, seed },
        defaults: vec![],
        merging: None,
    })
}

/// Plays scenario `name` `runs` times quietly (seeded from `seed`, on as many threads as the
/// machine has), and counts each distinct end; gives the counts and the runs made. A host's cancel
/// flag is not looked at: the budget of work bounds every run.
#[allow(clippy::type_complexity, reason = "each end with its count, and the runs")]
fn play(
    r: &Ruleset,
    name: &str,
    runs: u64,
    seed: u64,
) -> Result<(Vec<(super::ends::EndFacts, u64)>, u64), Diagnostic> {
    let Some(scenario) = r.program().scenarios.iter().position(|s| s.name == name) else {
        return Err(Diagnostic::plain(
            crate::diagnostics::Code::UnknownScenario.path(),
            format!("there is no scenario called `{name}`"),
        ));
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u64).clamp(1, 8);
    let per = runs.div_ceil(threads);
    let parts: Vec<HashMap<super::ends::EndFacts, u64>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut counts: HashMap<super::ends::EndFacts, u64> = HashMap::new();
                    let mut s = Session::new(r, seed);
                    // What a run leaves is read from its attributes, records and report line, never
                    // from the checks' last results once it is over.
                    let mut game = QuietGame { results_unread: true, ..QuietGame::default() };
                    for i in (t * per)..((t + 1) * per).min(runs) {
                        let played = s.play_quietly(scenario, crate::sim::sampler::mix(seed, i), &mut game);
                        let facts = super::ends::facts(
                            &s,
                            played.as_ref().err(),
                            std::mem::take(&mut game.records),
                            game.reported.take(),
                        );
                        *counts.entry(facts).or_default() += 1;
                    }
                    counts
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_default()).collect()
    });
    let mut all: HashMap<super::ends::EndFacts, u64> = HashMap::new();
    for part in parts {
        for (f, n) in part {
            *all.entry(f).or_default() += n;
        }
    }
    let mut all: Vec<(super::ends::EndFacts, u64)> = all.into_iter().collect();
    all.sort_by_key(|e| std::cmp::Reverse(e.1));
    Ok((all, runs))
}

/// How many runs of scenario `name` an estimate can make within the budget of work, and what the
/// costliest of a few quiet probe runs cost. An error when not even one run fits.
fn affordable_runs(r: &Ruleset, name: &str) -> Result<(u64, u64), Diagnostic> {
    const PROBES: u64 = 8;
    let budget = r.budget().odds_work;
    let ((done, most), _) = work::within(budget, || {
        let (mut done, mut most) = (0u64, 0u64);
        for seed in 0..PROBES {
            let before = work::left();
            let mut s = Session::new(r, seed);
            s.set_logging(false);
            let _ = s.run_scenario(name);
            if work::dry() {
                break;
            }
            most = most.max(before - work::left());
            done += 1;
        }
        (done, most)
    });
    if done == 0 {
        return Err(Diagnostic::plain(
            crate::diagnostics::Code::OutOfWork.path(),
            format!("one run of scenario `{name}` takes more than the budget of work of an estimate"),
        )
        .with_help(
            "raise it with `--budget odds_work=N`, or use `mettle sim` with as many runs as you like",
        ));
    }
    // Twice the probes' costliest run, for every run (no run is let go further).
    Ok(((budget / most.max(1).saturating_mul(2)).clamp(done, FALLBACK_RUNS), most))
}
