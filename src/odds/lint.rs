//! Outcomes no roll can reach: for a check whose inputs all have a few possible values and whose
//! rules read nothing of the game's state, the exact odds of every combination of inputs show which
//! outcomes never happen (an outcome shadowed by an earlier one, a threshold past the dice's reach).

use super::check::check_odds;
use super::scan;
use crate::diagnostics::Diagnostic;
use crate::program::*;
use crate::{Ruleset, Session};

/// Most combinations of input values tried per check.
const MAX_COMBINATIONS: usize = 512;
/// Most values one whole-number input may take to be tried.
const MAX_RANGE: i64 = 40;

/// A warning for each outcome of each check that no roll reaches, with any input values. Checks whose
/// rules read the game's state, or whose inputs are open-ended, are left out: nothing is claimed of
/// them.
///
/// ```
/// let rules = mettle::Ruleset::from_str("u.mettle", "check c { input bonus: 0..2  roll 2d6  modifier \"Bonus\" +bonus  outcome pass when total >= 7  outcome great when total >= 10  otherwise fail }").unwrap();
/// let w = mettle::odds::unreachable(&rules);
/// assert_eq!(w.len(), 1);
/// assert!(w[0].message.contains("`great`"));
/// ```
pub fn unreachable(rules: &Ruleset) -> Vec<Diagnostic> {
    // One budget of work for every check and every combination of inputs together.
    let (mut out, dry) = super::work::within(rules.budget().odds_work, || lint(rules));
    if dry {
        out.push(
            Diagnostic::plain(
                "odds::lint_cut_short",
                "the search for outcomes no roll can reach was cut short: its budget of work ran out",
            )
            .with_help(
                "the checks looked at so far are reported; raise the budget (`--budget odds_work=N`) to look \
                 at every check",
            ),
        );
    }
    out
}

fn lint(rules: &Ruleset) -> Vec<Diagnostic> {
    let p = rules.program();
    let mut out = vec![];
    for (ci, c) in p.checks.iter().enumerate() {
        if super::work::dry() {
            break;
        }
        if let Some(never) = never_reached(rules, ci as CheckId, c) {
            let names = &p.sets[c.outcome_set as usize].names;
            for oi in never {
                let o = &c.outcomes[oi];
                // The checker already warns of a condition that can never hold.
                let known = rules.warnings().iter().any(|w| {
                    w.is(crate::diagnostics::Code::Unreachable)
                        && w.labels.iter().any(|l| o.span.start <= l.span.start && l.span.end <= o.span.end)
                });
                if known {
                    continue;
                }
                let name = &names[o.index as usize];
                let inputs = if c.inputs.is_empty() { "" } else { " with any values of its inputs" };
                out.push(
                    Diagnostic::warning(
                        "odds::unreachable_outcome",
                        format!("outcome `{name}` of check `{}` can never happen", c.name),
                        o.span,
                        format!("no roll of `{}`{inputs} reaches this", c.name),
                    )
                    .with_help(
                        "look at its condition and at the outcomes above it: an earlier outcome may take every roll \
                         that would reach it, or it asks for more than the dice can show",
                    ),
                );
            }
        }
    }
    out
}

/// The outcomes (by position) that no combination of inputs reaches, or `None` when the check cannot
/// be judged.
fn never_reached(rules: &Ruleset, id: CheckId, c: &Check) -> Option<Vec<usize>> {
    let p = rules.program();
    let (before, after) = scan::parts(c);
    if before.iter().chain(&after).any(|e| reads_state(p, e, c.slots.subject)) {
        return None;
    }
    let (domains, options) = readings(p, c, &before, &after)?;
    let mut session = Session::new(rules, 0);
    let subject = match c.subject {
        // Attributes without a default take their type's lowest value: the check reads no state (or it
        // would not be judged), so which value does not matter.
        Some(k) => Some(session.create_stand_in(&p.kinds[k as usize].name, "stand-in", &[]).ok()?),
        None => None,
    };
    let mut reached = vec![false; c.outcomes.len()];
    let mut pick = vec![0usize; domains.len()];
    loop {
        let n = c.inputs.len();
        let args: Vec<(u32, Value)> =
            pick[..n].iter().enumerate().map(|(i, &k)| (i as u32, domains[i][k].clone())).collect();
        for (j, &o) in options.iter().enumerate() {
            session.set_option_at(o, domains[n + j][pick[n + j]].clone());
        }
        let prepared = session.prepare(id, subject, args).ok()?;
        let odds = check_odds(&mut session, &prepared).ok()?.ok()?;
        if super::work::dry() {
            return None;
        }
        for (i, (_, w)) in odds.outcomes.iter().enumerate() {
            reached[i] |= w.bits() > 0;
        }
        if reached.iter().all(|r| *r) {
            return Some(vec![]);
        }
        // The next combination, the last input changing fastest.
        let mut i = pick.len();
        loop {
            if i == 0 {
                return Some(reached.iter().enumerate().filter(|(_, r)| !**r).map(|(i, _)| i).collect());
            }
            i -= 1;
            pick[i] += 1;
            if pick[i] < domains[i].len() {
                break;
            }
            pick[i] = 0;
        }
    }
}

/// The values each input of a check can take, then each house-rule option it reads (their
/// positions in `options`), when there are few enough to try every combination.
pub(super) fn readings(
    p: &Program,
    c: &Check,
    before: &[&Expr],
    after: &[&Expr],
) -> Option<(Vec<Vec<Value>>, Vec<usize>)> {
    // The inputs, then the house-rule options the check reads: every reading is tried.
    let options: Vec<usize> = (0..p.options.len())
        .filter(|&o| {
            before.iter().chain(after).any(|e| {
                scan::reaches(p, e, &|x| matches!(x, Expr::Global(Global::Option(i)) if *i as usize == o))
            })
        })
        .collect();
    let mut domains: Vec<Vec<Value>> = vec![];
    let types = c.inputs.iter().map(|i| &i.field.ty).chain(options.iter().map(|&o| &p.options[o].ty));
    for ty in types {
        domains.push(match ty {
            Ty::Int { lo: Some(lo), hi: Some(hi) } if hi - lo <= MAX_RANGE => {
                (*lo..=*hi).map(Value::Int).collect()
            }
            Ty::Flag => vec![Value::Bool(false), Value::Bool(true)],
            Ty::Name(set) => (0..p.sets[*set as usize].names.len() as u32)
                .map(|index| Value::Name { set: *set, index })
                .collect(),
            _ => return None,
        });
    }
    domains.iter().try_fold(1usize, |n, d| n.checked_mul(d.len()).filter(|n| *n <= MAX_COMBINATIONS))?;
    Some((domains, options))
}

/// Whether `e` reads anything besides the check's own inputs and values: the subject, other
/// entities, the turn, earlier results, or a script (also through formulas and tables).
pub(super) fn reads_state(p: &Program, e: &Expr, subject: u32) -> bool {
    scan::reads_any(e, &[subject].into_iter().collect())
        || scan::reaches(p, e, &|x| {
            matches!(
                x,
                Expr::Global(Global::Round | Global::Turn | Global::Game | Global::Winner)
                    | Expr::Last(_)
                    | Expr::NumberOf { .. }
                    | Expr::Total(_)
                    | Expr::Script(..)
                    | Expr::Field(..)
            )
        })
}
