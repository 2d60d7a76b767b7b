//! Exact odds of a whole scenario, when its rolls are few: every roll is tried in turn (each path
//! replayed from the start with its faces), and the end states are added up with their chances.

use super::Fraction;
use crate::diagnostics::Diagnostic;
use crate::{Ruleset, Session};
use num_bigint::BigUint;

/// Random runs made to estimate how many paths a scenario has, before walking them.
const PROBES: u64 = 32;

/// Most runs of the scenario (one per path, and one per die met along the way) a walk tries before
/// exact odds are called out of reach.
pub const MAX_PATHS: u64 = 200_000;

/// The exact distribution of a scenario's end states.
#[derive(Debug, Clone)]
pub struct Ends {
    /// Each distinct end, described by what differs between ends (`u.morale = broken`), with its
    /// chance; most likely first.
    pub ends: Vec<(String, Fraction)>,
    /// Each value the scenario records, with its exact distribution (the last value recorded under
    /// each label in a run).
    pub values: Vec<(String, super::Dist)>,
    /// Different sequences of rolls the scenario can take.
    pub paths: u64,
}

/// The end states of scenario `name`, exactly, or why that is out of reach (too many paths). A rule
/// that fails on some path ends that path, named by what stopped it and where.
///
/// ```
/// let rules = mettle::Ruleset::from_str("w.mettle", r#"
///     kind unit { morale: steady | shaken | broken = steady }
///     check morale for unit { roll d6  outcome hold when total >= 3 {} otherwise slip { set unit.morale to shift(unit.morale, 1) } }
///     scenario twice { new unit u  roll morale for u  roll morale for u }
/// "#).unwrap();
/// let ends = mettle::odds::scenario_ends(&rules, "twice").unwrap().unwrap();
/// let shown: Vec<String> = ends.ends.iter().map(|(end, p)| format!("{end}: {p}")).collect();
/// assert_eq!(shown, ["u.morale = shaken: 4/9", "u.morale = steady: 4/9", "u.morale = broken: 1/9"]);
/// assert_eq!(ends.paths, 36);
/// ```
pub fn scenario_ends(rules: &Ruleset, name: &str) -> Result<Result<Ends, String>, Diagnostic> {
    // Every run of the walk (the probes too) counts its steps against one budget of work.
    let (ends, dry) = super::work::within(rules.budget().odds_work, || walk(rules, name));
    match ends {
        Err(d) if d.is(crate::diagnostics::Code::UnknownScenario) => Err(d),
        _ if dry => Ok(Err(super::work::reason())),
        ends => ends,
    }
}

fn walk(rules: &Ruleset, name: &str) -> Result<Result<Ends, String>, Diagnostic> {
    // First the cost: random paths tell how many paths there are (the product of the faces of the
    // dice met along a random path is, on average, the number of paths).
    let mut estimate = 0u128;
    for seed in 0..PROBES {
        let mut s = Session::new(rules, seed);
        s.set_logging(false);
        s.explore();
        if let Err(d) = s.run_scenario(name)
            && d.is(crate::diagnostics::Code::UnknownScenario)
        {
            return Err(d);
        }
        if super::work::dry() {
            return Ok(Err(super::work::reason()));
        }
        let paths =
            s.walk_met().iter().try_fold(1u128, |n, &k| n.checked_mul(k as u128)).unwrap_or(u128::MAX);
        estimate = estimate.saturating_add(paths / PROBES as u128);
    }
    if estimate > MAX_PATHS as u128 {
        return Ok(Err(format!(
            "its rolls can go about {} ways (estimated from {PROBES} random runs), more than the {MAX_PATHS} an \
             exact answer tries",
            if estimate == u128::MAX { "too many to count".to_string() } else { estimate.to_string() }
        )));
    }
    let start = || {
        let mut s = Session::new(rules, 0);
        s.set_logging(false);
        s
    };
    let finished = every_path(
        start,
        |s| s.run_scenario(name),
        |s, result| {
            let (records, reported) = super::ends::logged(s);
            match result {
                Ok(_) => Ok(super::ends::facts(s, None, records, reported)),
                // An unknown scenario is the caller's mistake, not an end.
                Err(d) if d.is(crate::diagnostics::Code::UnknownScenario) => Err(d),
                Err(d) => Ok(super::ends::facts(s, Some(&d), records, reported)),
            }
        },
    );
    let finished = match finished {
        Ok(f) => f,
        Err(Short::Paths) => {
            return Ok(Err(format!(
                "the scenario has more than {MAX_PATHS} different runs; use `mettle sim` to estimate it"
            )));
        }
        Err(Short::Work) => return Ok(Err(super::work::reason())),
        Err(Short::Failed(d)) => return Err(d),
    };
    let paths = finished.len() as u64;
    let (ends, values) = super::ends::exact_rows(
        finished.into_iter().map(|(end, den)| (end, BigUint::from(1u32), den)).collect(),
    );
    Ok(Ok(Ends { ends, values, paths }))
}

/// Why [`every_path`] stopped before the last path.
pub(crate) enum Short<E> {
    /// More than [`MAX_PATHS`] runs.
    Paths,
    /// The budget of work ran out.
    Work,
    /// A path's end was an error that stops the whole walk.
    Failed(E),
}

/// Every way the dice of a piece of play can fall, depth first: each path is played by `run` on a
/// fresh session from `start` with its faces forced, again and again with one more face, until it
/// meets no die it has no face for; `end` says what the finished path came to. Each end comes with
/// the denominator of its chance, the product of the sides of the dice it met.
pub(crate) fn every_path<R, T, E>(
    start: impl Fn() -> Session,
    mut run: impl FnMut(&mut Session) -> R,
    mut end: impl FnMut(&Session, R) -> Result<T, E>,
) -> Result<Vec<(T, BigUint)>, Short<E>> {
    let mut stack: Vec<(Vec<i64>, BigUint)> = vec![(vec![], BigUint::from(1u32))];
    let mut runs = 0u64;
    let mut out = vec![];
    while let Some((faces, den)) = stack.pop() {
        runs += 1;
        if runs > MAX_PATHS {
            return Err(Short::Paths);
        }
        // Starting a run costs something of its own, however short the piece.
        super::work::charge(100);
        let mut s = start();
        s.walk(&faces);
        let result = run(&mut s);
        if super::work::dry() {
            return Err(Short::Work);
        }
        if let Some(needs) = s.walk_needs() {
            let den = den * BigUint::from(needs.len());
            for f in needs.iter().rev() {
                let mut next = faces.clone();
                next.push(*f);
                stack.push((next, den.clone()));
            }
            continue;
        }
        out.push((end(&s, result).map_err(Short::Failed)?, den));
    }
    Ok(out)
}
