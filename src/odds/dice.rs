//! A bare dice expression (`4d6kh3`, `d20 + 5 >= 15`), mettle as a dice calculator: its odds, exact
//! when within the budget of work, otherwise an estimate from seeded rolls that says why; and one
//! roll of it, with the dice shown.

use super::expr::{Compiled, compile, dist};
use super::{Chance, Dist, FALLBACK_RUNS, Fraction, How, OutcomeOdds, Report, work};
use crate::diagnostics::Diagnostic;
use crate::{Budget, LoadOptions, LogEntry, Ruleset, Session, Value};
use std::collections::BTreeMap;

/// The name errors give the expression.
const NAME: &str = "--dice";

/// Most dice an estimate rolls in all, when exact odds are out of reach.
const DICE_BUDGET: u64 = 20_000_000;

/// The distribution of a dice expression written in the language's notation: one value, `value`, for
/// a number or a pool, or the outcomes `yes` and `no` for a comparison. Exact when it fits in the
/// budget's `odds_work`; otherwise estimated from rolls seeded with `seed` (as many as
/// [`FALLBACK_RUNS`], fewer when one roll throws many dice), and [`Report::how`] says why.
///
/// Errors: the expression does not compile (located in `expr`), a roll fails, or one roll takes more
/// than the budget of work (`mettle::odds::out_of_work`).
///
/// ```
/// use mettle::odds::{Fraction, dice};
/// let r = dice("2d6 >= 11", &mettle::Budget::default(), 1).unwrap();
/// assert_eq!(r.outcomes[0].name, "yes");
/// assert!(matches!(&r.outcomes[0].chance, mettle::odds::Chance::Exact(f) if f.to_f64() == 3.0 / 36.0));
/// let r = dice("4d6kh3", &mettle::Budget::default(), 1).unwrap();
/// assert_eq!((r.values[0].1.lo(), r.values[0].1.hi()), (3, 18));
/// ```
pub fn dice(expr: &str, budget: &Budget, seed: u64) -> Result<Report, Vec<Diagnostic>> {
    let c = compile(expr)?;
    let (exact, _) = work::within(budget.odds_work, || dist(&c.expr));
    let d = match exact {
        Ok(d) => d,
        Err(why) => return estimate(expr, &c, why, budget, seed),
    };
    let mut report = Report {
        question: expr.trim().to_string(),
        outcomes: vec![],
        groups: vec![],
        values: vec![],
        effects: vec![],
        how: How::Exact,
        defaults: vec![],
        merging: None,
    };
    if c.is_flag() {
        let total = d.total();
        for (name, v) in [("yes", 1), ("no", 0)] {
            let chance = Chance::Exact(Fraction::new(d.weight(v), total.clone()));
            report.outcomes.push(OutcomeOdds { name: name.into(), chance });
        }
    } else {
        report.values.push(("value".into(), d));
    }
    Ok(report)
}

/// Rolls the expression many times with `seed`: as many as [`FALLBACK_RUNS`], fewer when one roll
/// throws so many dice that they would pass [`DICE_BUDGET`].
fn estimate(
    expr: &str,
    c: &Compiled,
    reason: String,
    budget: &Budget,
    seed: u64,
) -> Result<Report, Vec<Diagnostic>> {
    let rules = Ruleset::load(NAME, "", &LoadOptions { budget: budget.clone(), ..Default::default() })
        .map_err(|e| e.diagnostics)?;
    let mut session = Session::new(&rules, seed);
    let mut frame = vec![Value::None; c.slots as usize];
    // One roll first, to count its dice.
    session.eval_prompt(&c.expr, &mut frame).map_err(|d| vec![d])?;
    let dice: u64 = session
        .log()
        .iter()
        .map(|l| match &l.entry {
            LogEntry::Roll { faces, .. } => faces.len() as u64,
            _ => 0,
        })
        .sum();
    let most = (DICE_BUDGET / dice.max(1)).clamp(100, FALLBACK_RUNS);
    let mut session = Session::new(&rules, seed);
    session.set_logging(false);
    let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
    // The rolls' steps count against the budget of work; the estimate stops when it is spent.
    let (done, _) = work::within(rules.budget().odds_work, || {
        let mut runs = 0;
        while runs < most {
            frame.iter_mut().for_each(|v| *v = Value::None);
            let v = match session.eval_prompt(&c.expr, &mut frame) {
                Err(_) if work::dry() => break,
                v => v.map_err(|d| vec![d])?,
            };
            if !work::charge(1) {
                break;
            }
            // A comparison's yes and no are tallied as 1 and 0, as the exact odds count them.
            let n = v.as_bool().map_or_else(|| v.as_int().unwrap_or_default(), i64::from);
            *counts.entry(n).or_default() += 1;
            runs += 1;
        }
        Ok::<u64, Vec<Diagnostic>>(runs)
    });
    let runs = done?;
    if runs == 0 {
        return Err(vec![
            Diagnostic::plain(
                crate::diagnostics::Code::OutOfWork.path(),
                format!("one roll of `{}` takes more than the budget of work of an estimate", expr.trim()),
            )
            .with_help("raise the budget's `odds_work`"),
        ]);
    }
    let reason = if runs < most {
        format!("{reason}; the estimate stopped after {runs} rolls, when its budget of work ran out")
    } else {
        reason
    };
    let mut report = Report {
        question: expr.trim().to_string(),
        outcomes: vec![],
        groups: vec![],
        values: vec![],
        effects: vec![],
        how: How::Estimated { reason, runs, seed },
        defaults: vec![],
        merging: None,
    };
    if c.is_flag() {
        for (name, v) in [("yes", 1), ("no", 0)] {
            let hits = counts.get(&v).copied().unwrap_or(0);
            let (low, high) = crate::sim::wilson(hits, runs);
            report
                .outcomes
                .push(OutcomeOdds { name: name.into(), chance: Chance::Estimate { hits, runs, low, high } });
        }
    } else {
        match Dist::from_counts(counts) {
            Some(d) => report.values.push(("value".into(), d)),
            None => report.question.push_str(" (its values spread too widely to list)"),
        }
    }
    Ok(report)
}

/// One roll of a dice expression: the dice rolled in it, in order, and its value.
#[derive(Debug, Clone, PartialEq)]
pub struct DiceRolls {
    /// Each roll of dice.
    pub rolls: Vec<RolledDice>,
    /// The expression's value: a number, or yes/no for a comparison.
    pub value: Value,
}

/// One roll of dice in an expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RolledDice {
    /// The dice as written (`4d6kh3`).
    pub dice: String,
    /// The faces shown.
    pub faces: Vec<i64>,
    /// Their value.
    pub value: i64,
}

/// Rolls dice expression `expr` once, with dice seeded by `seed`, within `budget`.
///
/// Errors: the expression does not compile (located in `expr`), or the roll fails.
///
/// ```
/// let r = mettle::odds::roll_dice("3d6 >= 3", &mettle::Budget::default(), 7).unwrap();
/// assert_eq!((r.rolls.len(), r.rolls[0].faces.len(), r.value.as_bool()), (1, 3, Some(true)));
/// ```
pub fn roll_dice(expr: &str, budget: &Budget, seed: u64) -> Result<DiceRolls, Vec<Diagnostic>> {
    let c = compile(expr)?;
    let rules = Ruleset::load(NAME, "", &LoadOptions { budget: budget.clone(), ..Default::default() })
        .map_err(|e| e.diagnostics)?;
    let mut session = Session::new(&rules, seed);
    let mut frame = vec![Value::None; c.slots as usize];
    let value = session.eval_prompt(&c.expr, &mut frame).map_err(|d| vec![d])?;
    let rolls = session
        .log()
        .iter()
        .filter_map(|l| match &l.entry {
            LogEntry::Roll { text, faces, value, .. } => {
                Some(RolledDice { dice: text.clone(), faces: faces.clone(), value: *value })
            }
            _ => None,
        })
        .collect();
    Ok(DiceRolls { rolls, value })
}
