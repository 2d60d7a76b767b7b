//! What if: the chance of every end a step would lead to from a game as it stands (a REPL's
//! `odds trigger …`), without changing the game. Every way the step's dice can fall is tried on a
//! copy of the session, while that fits in the budget; past it, the step is played many times with
//! seeded dice and each end is given with a 95% interval.
//!
//! The engine is behind [`what_if`] alone, so that the way the paths are followed can change (a
//! state-merging engine) without its callers noticing.

use super::{Chance, Dist, FALLBACK_RUNS, Fraction, How, MAX_PATHS, OutcomeOdds, Report, work};
use crate::diagnostics::Diagnostic;
use crate::session::{LogEntry, Session};
use num_bigint::BigUint;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a step does from the state it starts in: the ends it can lead to, and what it changes in
/// every one of them.
#[derive(Debug, Clone)]
pub(crate) struct WhatIf {
    /// The ends, told apart by what differs between them, with their chances (exact or estimated),
    /// and the distribution of each value recorded (`record "label" = …`).
    pub report: Report,
    /// What is the same in every end but not as it was: `alpha.ap: 1 → 0`.
    pub always: Vec<String>,
}

/// How to play the step once on a copy of the session.
pub(crate) type Step<'a> = dyn FnMut(&mut Session) -> Result<(), Diagnostic> + 'a;

/// One end reached: what it is told apart by, the values recorded on the way, and its weight.
struct End {
    parts: BTreeMap<String, String>,
    records: Vec<(String, i64)>,
    error: Option<String>,
}

/// The ends `step` leads to from `session`, exactly when every way its dice can fall fits in
/// [`MAX_PATHS`] runs and the budget's `odds_work`; otherwise estimated from as many as
/// [`FALLBACK_RUNS`] seeded runs (fewer when the budget of work runs out first), saying why.
/// `session` is not changed.
pub(crate) fn what_if(
    session: &Session,
    question: &str,
    step: &mut Step<'_>,
    seed: u64,
) -> Result<WhatIf, Diagnostic> {
    let units = session.ruleset().budget().odds_work;
    let (exact, dry) = work::within(units, || exact(session, step));
    let reason = match exact {
        Ok(ends) if !dry => return Ok(summarise(session, question, ends, How::Exact)),
        Ok(_) => work::reason(),
        Err(why) if dry => format!("{why}; {}", work::reason()),
        Err(why) => why,
    };
    let (sampled, _) = work::within(units, || sample(session, step, FALLBACK_RUNS, seed, &|_| {}, None));
    let (ends, runs) = sampled;
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
    Ok(summarise(session, question, ends, How::Estimated { reason, runs, seed }))
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
    let (ends, done) = sample(session, step, runs, seed, progress, Some(stop));
    let reason = "it was asked for as a simulation".to_string();
    summarise(session, question, ends, How::Estimated { reason, runs: done, seed })
}

/// Every way the dice can fall ([`super::walk::every_path`]), each path played again from the
/// game as it stands with its faces.
fn exact(session: &Session, step: &mut Step<'_>) -> Result<Vec<(End, BigUint)>, String> {
    use super::walk::{Short, every_path};
    let ends = every_path(|| session.reseeded(0), step, |s, result| Ok::<_, ()>(end(s, result)));
    let ends = match ends {
        Ok(ends) => ends,
        Err(Short::Paths) => return Err(format!("the step's dice can fall more than {MAX_PATHS} ways")),
        Err(Short::Work | Short::Failed(())) => return Err("the budget of work ran out".into()),
    };
    // Weights over one common denominator, so that they add up.
    let common = ends.iter().fold(BigUint::from(1u32), |acc, (_, d)| num_integer::Integer::lcm(&acc, d));
    Ok(ends.into_iter().map(|(e, d)| (e, &common / d)).collect())
}

/// `runs` plays with seeded dice, each weighing 1; stops early when the budget of work runs out or
/// `stop` is set. The ends, and how many runs were made.
fn sample(
    session: &Session,
    step: &mut Step<'_>,
    runs: u64,
    seed: u64,
    progress: &dyn Fn(u64),
    stop: Option<&AtomicBool>,
) -> (Vec<(End, BigUint)>, u64) {
    let mut ends = vec![];
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
        ends.push((end(&s, result), BigUint::from(1u32)));
        done += 1;
        if done % 256 == 0 {
            progress(done);
        }
    }
    progress(done);
    (ends, done)
}

/// What a run's end is told apart by: the game's result and winner, each entity's attributes (and
/// that it is in play), and the values recorded on the way.
fn end(s: &Session, result: Result<(), Diagnostic>) -> End {
    let records = s
        .log()
        .iter()
        .filter_map(|l| match &l.entry {
            LogEntry::Record { label, value, .. } => Some((label.clone(), *value)),
            _ => None,
        })
        .collect();
    End { parts: parts(s), records, error: result.err().map(|d| d.message) }
}

/// Whether `key` is the game's (its result or winner) rather than an entity's.
fn game_part(key: &str) -> bool {
    // Spaced, so that no entity's name is taken for them.
    key == "the game" || key == "the winner"
}

fn parts(s: &Session) -> BTreeMap<String, String> {
    let st = s.state();
    let p = s.ruleset().program();
    let mut out = BTreeMap::new();
    match &st.over {
        Some(o) => {
            out.insert("the game".into(), o.result.clone());
            if let Some(w) = &o.winner {
                out.insert("the winner".into(), w.clone());
            }
        }
        None => {
            out.insert("the game".into(), "not over".into());
        }
    }
    for (_, e) in &st.entities {
        out.insert(e.name.clone(), "in play".into());
        for (f, v) in p.kinds[e.kind as usize].fields.iter().zip(&e.fields) {
            out.insert(format!("{}.{}", e.name, f.name), s.show(v));
        }
    }
    out
}

/// The report of `ends`: each told apart by the parts that differ between them, what every end
/// changes, and the distribution of each recorded value.
fn summarise(session: &Session, question: &str, ends: Vec<(End, BigUint)>, how: How) -> WhatIf {
    let before = parts(session);
    let absent = |m: &BTreeMap<String, String>, k: &str| m.get(k).cloned().unwrap_or_else(|| "gone".into());
    // Every part any end (or the start) has.
    let mut keys: Vec<&String> = before.keys().collect();
    for (e, _) in &ends {
        keys.extend(e.parts.keys());
    }
    keys.sort();
    keys.dedup();
    let finished: Vec<&(End, BigUint)> = ends.iter().filter(|(e, _)| e.error.is_none()).collect();
    let mut varies = vec![];
    let mut always = vec![];
    for k in keys {
        let mut values = finished.iter().map(|(e, _)| absent(&e.parts, k));
        let Some(first) = values.next() else { continue };
        if values.any(|v| v != first) {
            varies.push(k.clone());
        } else if absent(&before, k) != first {
            always.push(match before.get(k) {
                None if game_part(k) => format!("{k} = {first}"),
                _ if first == "gone" && !k.contains('.') => format!("{k} is removed"),
                _ if first == "gone" => continue,
                None if !k.contains('.') => format!("{k} is new"),
                None => format!("{k} = {first}"),
                Some(was) => format!("{k}: {was} → {first}"),
            });
        }
    }
    // Each end's name, its weight added up.
    let mut named: Vec<(String, BigUint)> = vec![];
    for (e, w) in &ends {
        let name = match &e.error {
            Some(m) => format!("(stopped by an error: {m})"),
            None => {
                let shown: Vec<String> = varies
                    .iter()
                    .filter(|k| !((k.contains('.') || game_part(k)) && absent(&e.parts, k) == "gone"))
                    .map(|k| match absent(&e.parts, k).as_str() {
                        v if game_part(k) => format!("{k} = {v}"),
                        "gone" => format!("{k} removed"),
                        v if !k.contains('.') => format!("{k} {v}"),
                        v => format!("{k} = {v}"),
                    })
                    .collect();
                if shown.is_empty() { "always the same end".to_string() } else { shown.join(", ") }
            }
        };
        match named.iter_mut().find(|(n, _)| *n == name) {
            Some((_, total)) => *total += w,
            None => named.push((name, w.clone())),
        }
    }
    let total: BigUint = ends.iter().map(|(_, w)| w).sum();
    named.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let runs = match &how {
        How::Estimated { runs, .. } => Some(*runs),
        How::Exact => None,
    };
    let chance = |w: &BigUint| match runs {
        None => Chance::Exact(Fraction::new(w.clone(), total.clone())),
        Some(n) => {
            let hits = u64::try_from(w).unwrap_or(u64::MAX);
            let (low, high) = crate::sim::wilson(hits, n);
            Chance::Estimate { hits, runs: n, low, high }
        }
    };
    let outcomes =
        named.iter().map(|(name, w)| OutcomeOdds { name: name.clone(), chance: chance(w) }).collect();
    // Each recorded label's values, weighted as the ends that recorded them (the last value a run
    // recorded under a label counts).
    let mut recorded: BTreeMap<&str, BTreeMap<i64, BigUint>> = BTreeMap::new();
    for (e, w) in &ends {
        let mut last: BTreeMap<&str, i64> = BTreeMap::new();
        for (label, v) in &e.records {
            last.insert(label, *v);
        }
        for (label, v) in last {
            *recorded.entry(label).or_default().entry(v).or_default() += w;
        }
    }
    let values = recorded
        .into_iter()
        .filter_map(|(label, weights)| {
            let lo = *weights.keys().next()?;
            let hi = *weights.keys().last()?;
            if hi.checked_sub(lo).is_none_or(|s| s > Dist::MAX_SPREAD) {
                return None;
            }
            let mut v = vec![BigUint::default(); (hi - lo + 1) as usize];
            for (k, w) in weights {
                v[(k - lo) as usize] = w;
            }
            Some((format!("record \"{label}\""), Dist::from_weights(lo, v)))
        })
        .collect();
    let question = match &how {
        How::Exact => format!("{question}: its ends over all {} ways its dice can fall", ends.len()),
        How::Estimated { .. } => format!("{question}: how it ends"),
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
