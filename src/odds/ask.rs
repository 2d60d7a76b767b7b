//! Asking for a check's odds by name: exact where the engine can follow the rules, otherwise a
//! seeded simulation that says so, with 95% intervals.

use super::check::{CheckOdds, check_odds};
use super::{Chance, Dist, Fraction, How, OutcomeOdds, Report};
use crate::diagnostics::Diagnostic;
use crate::program::Value;
use crate::session::Session;
use crate::sim::wilson;
use std::collections::BTreeMap;

/// Rolls simulated when exact odds are out of reach: enough for a 95% interval about ±0.5% wide.
pub const FALLBACK_RUNS: u64 = 40_000;

/// The odds of check `check` made by `subject` (an entity of `session`) with `inputs`: exact when
/// the engine can follow the rules, else estimated from [`FALLBACK_RUNS`] rolls seeded with `seed`.
///
/// ```
/// let rules = mettle::Ruleset::from_str("o.mettle", "check c { roll 2d6  target 8  outcome pass when total >= target  otherwise fail }").unwrap();
/// let mut s = mettle::Session::new(&rules, 0);
/// let r = mettle::odds::ask(&mut s, "c", None, &[], 0).unwrap();
/// assert_eq!(r.outcomes[0].chance, mettle::odds::Chance::Exact(mettle::odds::Fraction::new(15u32.into(), 36u32.into())));
/// ```
pub fn ask(
    session: &mut Session,
    check: &str,
    subject: Option<u32>,
    inputs: &[(&str, Value)],
    seed: u64,
) -> Result<Report, Diagnostic> {
    let (c, args) = session.resolve(check, inputs)?;
    let mut question = question(session, check, inputs);
    let mut prepared = session.prepare(c, subject, args.clone())?;
    // The odds tell what the check does too.
    prepared.effects = true;
    let defaults = defaulted(session, c, inputs, &prepared);
    question.push_str(&defaults_text(&defaults));
    // Inside a larger budget (a sweep's row), the exact try may take half of what is left, so that an
    // estimate can still follow it.
    let units = session.ruleset().budget().odds_work.min(super::work::left() / 2);
    let (mut exact, _) = super::work::within(units, || check_odds(session, &prepared));
    // Following the effects of every roll may be what took the work: the outcomes are then worked
    // out again without them, and the effects said to be out of reach.
    let mut unfollowed = None;
    if matches!(&exact, Ok(Err(why)) if *why == super::work::reason())
        && super::effects::Follow::new(session, c, subject, super::effects::Dice::All).is_some()
    {
        prepared.effects = false;
        let (again, _) = super::work::within(units, || check_odds(session, &prepared));
        if let Ok(Ok(odds)) = &again {
            unfollowed = Some(super::effects::out_of_reach(session, c, subject, &odds.total));
            exact = again;
        }
    }
    let mut report = match exact? {
        Ok(odds) => exact_report(question, &odds),
        Err(reason) => {
            // The estimate has a budget of work of its own, as large as the exact answer's.
            let units = session.ruleset().budget().odds_work;
            let (report, _) = super::work::within(units, || {
                estimate(session, question, c, subject, args, reason, FALLBACK_RUNS, seed)
            });
            report?
        }
    };
    if let Some(effects) = unfollowed {
        report.effects = effects;
    }
    report.defaults = defaults;
    // The check's own groups (their members are outcomes: the checker saw to it).
    let groups = &session.ruleset().program().checks[c as usize].groups;
    for (name, members) in groups {
        let members: Vec<&str> = members.iter().map(String::as_str).collect();
        if let Ok(g) = report.group(name, &members) {
            report.groups.push(g);
        }
    }
    Ok(report)
}

fn question(session: &Session, check: &str, inputs: &[(&str, Value)]) -> String {
    let given: Vec<String> = inputs.iter().map(|(n, v)| format!("{n} = {}", session.show(v))).collect();
    let mut q = if given.is_empty() {
        format!("check {check}")
    } else {
        format!("check {check} with {}", given.join(", "))
    };
    // The house rules it was asked under, when the ruleset offers any.
    let options: Vec<String> = session
        .ruleset()
        .program()
        .options
        .iter()
        .filter_map(|o| session.option(&o.name).map(|v| format!("{} = {}", o.name, session.show(v))))
        .collect();
    if !options.is_empty() {
        q.push_str(&format!(", under option {}", options.join(", ")));
    }
    q
}

/// The inputs the question left out, with the values the roll took for them, so that no input is
/// used unsaid.
fn defaulted(
    session: &Session,
    c: u32,
    inputs: &[(&str, Value)],
    prepared: &crate::session::plan::Prepared,
) -> Vec<super::DefaultedInput> {
    let p = session.ruleset().program();
    let check = &p.checks[c as usize];
    let values = prepared.input_values(check.inputs.len());
    let who = prepared
        .subject
        .and_then(|s| session.state().entities.get(s))
        .and_then(|e| p.kinds.get(e.kind as usize))
        .map(|k| k.name.clone());
    check
        .inputs
        .iter()
        .zip(values)
        .enumerate()
        .filter(|(_, (input, _))| !inputs.iter().any(|(n, _)| *n == input.field.name))
        .map(|(i, (input, v))| {
            // The order `prepare` follows: the attribute of who makes it, else the input's default.
            let from = p.subject_attribute(c, i as u32).and(who.clone());
            super::DefaultedInput { name: input.field.name.clone(), value: session.show(v), from }
        })
        .collect()
}

/// `; by default leadership = 0, comms = no; from the unit spi = 3`: the inputs left out, as the
/// question names them. Empty when every input was given.
///
/// ```
/// use mettle::odds::{DefaultedInput, defaults_text};
/// let d = |n: &str, v: &str, from: Option<&str>| DefaultedInput { name: n.into(), value: v.into(), from: from.map(Into::into) };
/// let text = defaults_text(&[d("leadership", "0", None), d("spi", "3", Some("unit")), d("comms", "no", None)]);
/// assert_eq!(text, "; by default leadership = 0, comms = no; from the unit spi = 3");
/// assert_eq!(defaults_text(&[]), "");
/// ```
pub fn defaults_text(defaults: &[super::DefaultedInput]) -> String {
    let own: Vec<String> =
        defaults.iter().filter(|d| d.from.is_none()).map(|d| format!("{} = {}", d.name, d.value)).collect();
    let mut out = String::new();
    if !own.is_empty() {
        out.push_str(&format!("; by default {}", own.join(", ")));
    }
    let mut kinds: Vec<&str> = defaults.iter().filter_map(|d| d.from.as_deref()).collect();
    kinds.dedup();
    for k in kinds {
        let taken: Vec<String> = defaults
            .iter()
            .filter(|d| d.from.as_deref() == Some(k))
            .map(|d| format!("{} = {}", d.name, d.value))
            .collect();
        out.push_str(&format!("; from the {k} {}", taken.join(", ")));
    }
    out
}

/// A report of exact odds.
pub fn exact_report(question: String, odds: &CheckOdds) -> Report {
    Report {
        question,
        outcomes: odds
            .outcomes
            .iter()
            .map(|(name, w)| OutcomeOdds {
                name: name.clone(),
                chance: Chance::Exact(Fraction::new(w.clone(), odds.total.clone())),
            })
            .collect(),
        groups: vec![],
        values: odds.values.clone(),
        effects: odds.effects.clone(),
        how: How::Exact,
        defaults: vec![],
        merging: None,
    }
}

#[allow(clippy::too_many_arguments, reason = "one call site, each argument a different thing")]
fn estimate(
    session: &Session,
    question: String,
    c: u32,
    subject: Option<u32>,
    args: Vec<(u32, Value)>,
    reason: String,
    runs: u64,
    seed: u64,
) -> Result<Report, Diagnostic> {
    let mut s = session.reseeded(seed);
    let check = &session.ruleset().program().checks[c as usize];
    let names = &session.ruleset().program().sets[check.outcome_set as usize].names;
    let mut hits = vec![0u64; check.outcomes.len()];
    let mut totals: BTreeMap<i64, u64> = BTreeMap::new();
    let mut margins: BTreeMap<i64, u64> = BTreeMap::new();
    let mut done = 0;
    // What the effects leave of who makes the check, counted over the same runs.
    let mut follow = super::effects::Follow::new(session, c, subject, super::effects::Dice::All);
    let one = num_bigint::BigUint::from(1u32);
    for _ in 0..runs {
        // Each roll's steps and script operations count against the budget of work; rolls stop
        // when it is spent (a roll cut short by it is not counted).
        let rolled = match (&follow, subject) {
            (Some(_), Some(who)) => s.roll_quietly_following(c, who, args.clone()).map(|(r, a)| (r, Some(a))),
            _ => s.roll_quietly(c, subject, args.clone()).map(|r| (r, None)),
        };
        let (r, after) = match rolled {
            Err(_) if super::work::dry() => break,
            r => r?,
        };
        if !super::work::charge(1) {
            break;
        }
        if let (Some(f), Some(after)) = (&mut follow, after) {
            f.add(&one, r.outcome, after.as_ref());
        }
        done += 1;
        hits[r.outcome] += 1;
        *totals.entry(r.total).or_default() += 1;
        if let Some(t) = r.target {
            let margin = if check.under { t - r.total } else { r.total - t };
            *margins.entry(margin).or_default() += 1;
        }
    }
    if done == 0 {
        return Err(Diagnostic::plain(
            crate::diagnostics::Code::OutOfWork.path(),
            format!("{question}: the budget of work ran out before a single roll could be sampled"),
        )
        .with_help("raise it with `--budget odds_work=N`, or ask about fewer rows at once"));
    }
    let (runs, reason) = if done < runs {
        (done, format!("{reason}; the estimate stopped after {done} rolls, when its budget of work ran out"))
    } else {
        (runs, reason)
    };
    let effects =
        follow.map(|f| f.finish(session, &num_bigint::BigUint::from(runs), false)).unwrap_or_default();
    // Values spread too wide to list are left out.
    let mut values: Vec<(String, Dist)> =
        Dist::from_counts(totals).map(|d| ("total".to_string(), d)).into_iter().collect();
    if check.target.is_some() {
        values.extend(Dist::from_counts(margins).map(|d| ("margin".to_string(), d)));
    }
    Ok(Report {
        question,
        outcomes: check
            .outcomes
            .iter()
            .zip(hits)
            .map(|(o, h)| {
                let (low, high) = wilson(h, runs);
                OutcomeOdds {
                    name: names[o.index as usize].clone(),
                    chance: Chance::Estimate { hits: h, runs, low, high },
                }
            })
            .collect(),
        groups: vec![],
        values,
        effects,
        how: How::Estimated { reason, runs, seed },
        defaults: vec![],
        merging: None,
    })
}
