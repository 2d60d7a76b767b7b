//! `mettle roll --dice` and `mettle odds --dice`: mettle as a dice calculator.

use mettle::diagnostics::Diagnostic;
use mettle::internals::SessionInternals as _;
use mettle::internals::odds::expr::{Compiled, compile, dist};
use mettle::odds::{Chance, Fraction, How, OutcomeOdds, Report};
use mettle::{LogEntry, Ruleset, Session, Value};
use std::path::Path;

/// The name errors give the expression.
const NAME: &str = "--dice";

fn render(diags: &[Diagnostic], text: &str) -> String {
    super::commands::render(diags, NAME, text)
}

/// The expression compiled, or its errors printed.
fn compiled(expr: &str) -> Result<Compiled, u8> {
    compile(expr).map_err(|diags| {
        eprint!("{}", render(&diags, expr));
        2
    })
}

/// Rolls a bare dice expression once and shows the dice.
pub fn roll(expr: &str, seed: u64, json: bool) -> u8 {
    let c = match compiled(expr) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let rules =
        match Ruleset::load(NAME, "", &mettle::LoadOptions { budget: super::budget(), ..Default::default() })
        {
            Ok(r) => r,
            Err(e) => {
                eprint!("{}", render(&e.diagnostics, expr));
                return 2;
            }
        };
    let mut session = Session::new(&rules, seed);
    let mut frame = vec![Value::None; c.slots as usize];
    let value = match session.eval_prompt(&c.expr, &mut frame) {
        Ok(v) => v,
        Err(d) => {
            eprint!("{}", render(std::slice::from_ref(&d), expr));
            return 1;
        }
    };
    let rolls: Vec<(&str, &[i64], i64)> = session
        .log()
        .iter()
        .filter_map(|l| match &l.entry {
            LogEntry::Roll { text, faces, value, .. } => Some((text.as_str(), faces.as_slice(), *value)),
            _ => None,
        })
        .collect();
    let shown = match &value {
        Value::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
        v => v.as_int().unwrap_or_default().to_string(),
    };
    if json {
        use super::json::{DiceRoll, DiceRollDoc, Meta};
        let value = match value {
            Value::Bool(b) => mettle::wire::Val::Flag(b),
            v => mettle::wire::Val::Number(v.as_int().unwrap_or_default()),
        };
        let rolls = rolls
            .iter()
            .map(|(text, faces, v)| DiceRoll { dice: text.to_string(), faces: faces.to_vec(), value: *v })
            .collect();
        super::json::print(&DiceRollDoc {
            mettle: Meta::default(),
            expr: expr.to_string(),
            seed,
            rolls,
            value,
        });
        return 0;
    }
    for (text, faces, v) in &rolls {
        let faces: Vec<String> = faces.iter().map(i64::to_string).collect();
        outln!("{text}: [{}] = {v}", faces.join(", "));
    }
    outln!("{}: {shown}", expr.trim());
    0
}

/// Most dice an estimate rolls in all, when exact odds are out of reach.
const DICE_BUDGET: u64 = 20_000_000;

/// The exact distribution of a bare dice expression; an estimate from seeded rolls, saying why, when
/// exact is out of reach.
pub fn odds(expr: &str, json: bool, plot: Option<&Path>, seed: u64) -> u8 {
    let c = match compiled(expr) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let (exact, _) = mettle::internals::odds::work::within(super::budget().odds_work, || dist(&c.expr));
    let report = match exact {
        Ok(d) => {
            let mut report = Report {
                question: expr.trim().to_string(),
                outcomes: vec![],
                groups: vec![],
                values: vec![],
                how: How::Exact,
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
            report
        }
        Err(why) => match estimate(expr, &c, why, seed) {
            Ok(r) => r,
            Err(code) => return code,
        },
    };
    super::odds::print_report(&report, json, plot)
}

/// Rolls the expression many times with `seed`: as many as [`mettle::odds::FALLBACK_RUNS`], fewer
/// when one roll throws so many dice that they would pass [`DICE_BUDGET`].
fn estimate(expr: &str, c: &Compiled, reason: String, seed: u64) -> Result<Report, u8> {
    let rules =
        Ruleset::load(NAME, "", &mettle::LoadOptions { budget: super::budget(), ..Default::default() })
            .map_err(|_| 2u8)?;
    let mut session = Session::new(&rules, seed);
    let mut frame = vec![Value::None; c.slots as usize];
    // One roll first, to count its dice.
    let fail = |d: Diagnostic| {
        eprint!("{}", render(std::slice::from_ref(&d), expr));
        1u8
    };
    session.eval_prompt(&c.expr, &mut frame).map_err(fail)?;
    let dice: u64 = session
        .log()
        .iter()
        .map(|l| match &l.entry {
            LogEntry::Roll { faces, .. } => faces.len() as u64,
            _ => 0,
        })
        .sum();
    let most = (DICE_BUDGET / dice.max(1)).clamp(100, mettle::odds::FALLBACK_RUNS);
    let mut session = Session::new(&rules, seed);
    session.set_logging(false);
    let mut counts: std::collections::BTreeMap<i64, u64> = std::collections::BTreeMap::new();
    // The rolls' steps count against the budget of work; the estimate stops when it is spent.
    let (done, _) = mettle::internals::odds::work::within(rules.budget().odds_work, || {
        let mut runs = 0;
        while runs < most {
            frame.iter_mut().for_each(|v| *v = Value::None);
            let v = match session.eval_prompt(&c.expr, &mut frame) {
                Err(_) if mettle::internals::odds::work::dry() => break,
                v => v.map_err(fail)?,
            };
            if !mettle::internals::odds::work::charge(1) {
                break;
            }
            // A comparison's yes and no are tallied as 1 and 0, as the exact odds count them.
            let n = v.as_bool().map_or_else(|| v.as_int().unwrap_or_default(), i64::from);
            *counts.entry(n).or_default() += 1;
            runs += 1;
        }
        Ok::<u64, u8>(runs)
    });
    let runs = done?;
    if runs == 0 {
        if super::json::on() {
            super::json::fail(
                "mettle::odds::out_of_work",
                &format!("one roll of `{}` takes more than the budget of work of an estimate", expr.trim()),
                Some("raise it with `--budget odds_work=N`"),
            );
        } else {
            eprintln!(
                "error[mettle::odds::out_of_work]: one roll of `{}` takes more than the budget of work of an \
                 estimate\n  help: raise it with `--budget odds_work=N`",
                expr.trim()
            );
        }
        return Err(1);
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
        how: How::Estimated { reason, runs, seed },
    };
    if c.is_flag() {
        for (name, v) in [("yes", 1), ("no", 0)] {
            let hits = counts.get(&v).copied().unwrap_or(0);
            let (low, high) = mettle::sim::wilson(hits, runs);
            report
                .outcomes
                .push(OutcomeOdds { name: name.into(), chance: Chance::Estimate { hits, runs, low, high } });
        }
    } else {
        match mettle::odds::Dist::from_counts(counts) {
            Some(d) => report.values.push(("value".into(), d)),
            None => report.question.push_str(" (its values spread too widely to list)"),
        }
    }
    Ok(report)
}
