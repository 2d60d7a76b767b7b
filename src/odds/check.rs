//! Exact odds of a check. Everything before the dice is worked out once ([`Session::prepare`]). The
//! dice are then reduced to the few numbers the rules after them read (the natural die, the roll's
//! value, counts of faces), whose joint distribution is built die by die; each distinct set of those
//! numbers is settled once by the check's own rules ([`Session::settle`]), so the odds can never
//! disagree with a real roll.

use super::scan::{self, Needs};
use super::{Dist, Weight};
use crate::ast::{Cmp, DiceMod};
use crate::diagnostics::Diagnostic;
use crate::program::*;
use crate::session::{DiceSpec, Prepared, Session, Settled};
use num_bigint::BigUint;
use std::collections::{BTreeMap, HashMap};

/// Most (dice × faces × combinations) worked through before exact odds are called out of reach.
pub const BUDGET: u128 = 40_000_000;
/// Most times the check's rules are settled (each distinct roll) before exact odds are out of reach.
const SETTLE_BUDGET: usize = 200_000;

/// The exact odds of one prepared check.
#[derive(Debug, Clone)]
pub struct CheckOdds {
    /// Ways of each outcome, in the order the check lists them, with the outcome's name.
    pub outcomes: Vec<(String, BigUint)>,
    /// All the ways together.
    pub total: BigUint,
    /// Distributions of the check's numbers: `total`, `margin` (with a target), and each whole-number
    /// `let` worked out after the roll.
    pub values: Vec<(String, Dist)>,
    /// Each distinct roll: what it reads of the dice, and the outcome it settles to.
    pub(crate) table: Table,
}

/// The settled rolls of a check, by what they read of the dice.
#[derive(Debug, Clone)]
pub(crate) struct Table {
    pub(crate) key: KeyShape,
    pub(crate) outcome: HashMap<Vec<i64>, usize>,
}

/// Which numbers describe a roll, in key order: natural, value, sum, then each count.
#[derive(Debug, Clone)]
pub(crate) struct KeyShape {
    pub(crate) natural: bool,
    pub(crate) successes: Option<(Cmp, i64)>,
    pub(crate) sum: bool,
    pub(crate) counts: Vec<(Cmp, i64)>,
}

impl KeyShape {
    /// The key of a roll that shows `faces`.
    pub(crate) fn key(&self, faces: &[i64]) -> Vec<i64> {
        let mut k = Vec::with_capacity(3 + self.counts.len());
        if self.natural {
            k.push(faces.first().copied().unwrap_or(0));
        }
        k.push(faces.iter().map(|&f| self.value(f)).sum());
        if self.sum {
            k.push(faces.iter().sum());
        }
        for (c, n) in &self.counts {
            k.push(faces.iter().filter(|&&f| c.test(f, *n)).count() as i64);
        }
        k
    }

    /// What one die showing `f` adds to the roll's value.
    pub(crate) fn value(&self, f: i64) -> i64 {
        match self.successes {
            Some((c, n)) => c.test(f, n) as i64,
            None => f,
        }
    }
}

/// The exact odds of `prepared`, or why they are out of reach (the caller then simulates). An error
/// is a rule that fails while settling a roll.
pub fn check_odds(session: &mut Session, prepared: &Prepared) -> Result<Result<CheckOdds, String>, Diagnostic> {
    let p = session.ruleset().program().clone();
    let c = &p.checks[prepared.check as usize];
    let (before, after) = scan::parts(c);
    if before.iter().chain(&after).any(|e| scan::rolls(&p, e)) {
        return Ok(Err("the check's rules roll dice of their own besides its roll".into()));
    }
    let needs = scan::needs(c, &after);
    if let Some(b) = needs.blocker {
        return Ok(Err(b));
    }
    let Some(spec) = &prepared.dice else {
        // No dice: one way, settled once.
        let s = session.settle(prepared, None)?;
        return Ok(Ok(gather(&p, c, vec![(BigUint::from(1u32), s, vec![])], shape(&needs, None, vec![]))));
    };
    let mut counts = vec![];
    for (cmp, e) in &needs.counts {
        counts.push((*cmp, session.evaluate(prepared, e)?.int()));
    }
    let shape = shape(&needs, Some(spec), counts);
    let rolls = match joint::<u128>(spec, &shape) {
        Ok(Some(r)) => r.into_iter().map(|(k, (w, f))| (k, (w.to_big(), f))).collect(),
        Ok(None) => match joint::<BigUint>(spec, &shape) {
            Ok(Some(r)) => r,
            Ok(None) => unreachable!("big weights never overflow"),
            Err(why) => return Ok(Err(why)),
        },
        Err(why) => return Ok(Err(why)),
    };
    if rolls.len() > SETTLE_BUDGET {
        return Ok(Err(format!("the roll has {} distinct results to settle, too many to follow exactly", rolls.len())));
    }
    let mut settled = Vec::with_capacity(rolls.len());
    for (_, (w, faces)) in rolls {
        let pool = pool_of(spec, &shape, &faces);
        let s = session.settle(prepared, Some(pool))?;
        settled.push((w, s, faces));
    }
    Ok(Ok(gather(&p, c, settled, shape)))
}

fn shape(needs: &Needs<'_>, spec: Option<&DiceSpec>, counts: Vec<(Cmp, i64)>) -> KeyShape {
    let successes = spec.and_then(|s| {
        s.mods.iter().rev().find_map(|m| match m {
            DiceMod::CountSuccesses(c, n) => Some((*c, *n)),
            _ => None,
        })
    });
    KeyShape { natural: needs.natural, successes, sum: needs.sum && successes.is_some(), counts }
}

/// A pool showing `faces`, as the roller would have built it.
fn pool_of(spec: &DiceSpec, shape: &KeyShape, faces: &[i64]) -> Pool {
    Pool {
        notation: String::new(),
        sides: spec.faces.faces().max(),
        dice: faces
            .iter()
            .map(|&face| Die { face, kept: true, rerolled: vec![], exploded: false, from: None })
            .collect(),
        value: faces.iter().map(|&f| shape.value(f)).sum(),
    }
}

type Rolls<W> = HashMap<Vec<i64>, (W, Vec<i64>)>;

/// The joint distribution of the numbers `shape` names over a roll of `spec`: for each key, its
/// weight and one roll that gives it. `Ok(None)` when the weights overflow `W`.
fn joint<W: Weight>(spec: &DiceSpec, shape: &KeyShape) -> Result<Option<Rolls<W>>, String> {
    if let Some(m) = spec.mods.iter().find(|m| !matches!(m, DiceMod::Reroll(..) | DiceMod::RerollOnce(..) | DiceMod::CountSuccesses(..))) {
        let what = match m {
            DiceMod::Explode(..) => "exploding dice",
            _ => "keeping or dropping dice",
        };
        return Err(format!("the rules read more of the roll than its total, and the roll has {what}"));
    }
    let Some(die) = die::<W>(spec) else { return Ok(None) };
    // Bound the work before doing it: states × faces per die.
    let n = spec.count as u128;
    let lo = die.iter().map(|d| shape.value(d.0)).min().unwrap_or(0) as i128;
    let hi = die.iter().map(|d| shape.value(d.0)).max().unwrap_or(0) as i128;
    let mut states = (hi - lo).unsigned_abs() * n + 1;
    if shape.natural {
        states *= die.len() as u128;
    }
    if shape.sum {
        let span = die.iter().map(|d| d.0).max().unwrap_or(0) - die.iter().map(|d| d.0).min().unwrap_or(0);
        states = states.saturating_mul(span.unsigned_abs() as u128 * n + 1);
    }
    for _ in &shape.counts {
        states = states.saturating_mul(n + 1);
    }
    if states.saturating_mul(n).saturating_mul(die.len() as u128) > BUDGET {
        return Err(format!(
            "the roll ({} dice) has too many combinations of what its rules read to follow exactly",
            spec.count
        ));
    }
    let mut now: Rolls<W> = HashMap::new();
    now.insert(empty_key(shape), (W::one(), vec![]));
    for i in 0..spec.count {
        let mut next: Rolls<W> = HashMap::with_capacity(now.len() * 2);
        for (key, (w, faces)) in &now {
            for (f, wf) in &die {
                let mut k = key.clone();
                let mut at = 0;
                if shape.natural {
                    if i == 0 {
                        k[0] = *f;
                    }
                    at = 1;
                }
                k[at] += shape.value(*f);
                at += 1;
                if shape.sum {
                    k[at] += f;
                    at += 1;
                }
                for (j, (c, n)) in shape.counts.iter().enumerate() {
                    k[at + j] += c.test(*f, *n) as i64;
                }
                let Some(w2) = w.mul(wf) else { return Ok(None) };
                match next.get_mut(&k) {
                    Some(slot) => match slot.0.add(&w2) {
                        Some(sum) => slot.0 = sum,
                        None => return Ok(None),
                    },
                    None => {
                        let mut fs = faces.clone();
                        fs.push(*f);
                        next.insert(k, (w2, fs));
                    }
                }
            }
        }
        now = next;
    }
    Ok(Some(now))
}

fn empty_key(shape: &KeyShape) -> Vec<i64> {
    vec![0; shape.natural as usize + 1 + shape.sum as usize + shape.counts.len()]
}

/// One die's faces with their weights, after its rerolls (`r`: again until it doesn't match, at most
/// [`crate::dice::MAX_CHAIN`] times; `ro`: once), all over a common total. `None` on overflow.
pub(crate) fn die<W: Weight>(spec: &DiceSpec) -> Option<Vec<(i64, W)>> {
    let faces = spec.faces.all();
    let mut w: BTreeMap<i64, W> = BTreeMap::new();
    for f in &faces {
        let e = w.entry(*f).or_insert_with(W::zero);
        *e = e.add(&W::one())?;
    }
    for m in &spec.mods {
        let (cmp, n, chain) = match m {
            DiceMod::Reroll(c, n) => (*c, *n, crate::dice::MAX_CHAIN),
            DiceMod::RerollOnce(c, n) => (*c, *n, 1),
            _ => continue,
        };
        // With M ways to match out of T: a matching face stays only after `chain` rerolls that all
        // matched (M^chain), another is kept after i = 0..=chain matching draws (sum of M^i T^(chain-i)).
        // Over T^(chain+1) ways in all.
        let m_ways = w.iter().filter(|(f, _)| cmp.test(**f, n)).try_fold(W::zero(), |a, (_, x)| a.add(x))?;
        let t = w.values().try_fold(W::zero(), |a, x| a.add(x))?;
        let (mut keep, mut stay) = (W::one(), W::one());
        for _ in 0..chain {
            stay = stay.mul(&m_ways)?;
            keep = keep.mul(&t)?.add(&stay)?;
        }
        for (f, x) in w.iter_mut() {
            *x = x.mul(if cmp.test(*f, n) { &stay } else { &keep })?;
        }
    }
    Some(w.into_iter().collect())
}

/// Adds up the settled rolls: ways per outcome, and the distributions of the check's numbers.
fn gather(p: &Program, c: &Check, settled: Vec<(BigUint, Settled, Vec<i64>)>, key: KeyShape) -> CheckOdds {
    let names = &p.sets[c.outcome_set as usize].names;
    let mut ways = vec![BigUint::default(); c.outcomes.len()];
    let mut totals: BTreeMap<i64, BigUint> = BTreeMap::new();
    let mut margins: BTreeMap<i64, BigUint> = BTreeMap::new();
    let post = scan::post_slots(c);
    let lets: Vec<&(String, u32)> = c.lets.iter().filter(|(_, s)| post.contains(s)).collect();
    let mut values: Vec<BTreeMap<i64, BigUint>> = vec![BTreeMap::new(); lets.len()];
    let mut whole = vec![true; lets.len()];
    let mut outcome = HashMap::new();
    let mut all = BigUint::default();
    for (w, s, faces) in settled {
        ways[s.outcome] += &w;
        *totals.entry(s.total).or_default() += &w;
        if let Some(t) = s.target {
            *margins.entry(s.total - t).or_default() += &w;
        }
        for (i, (_, slot)) in lets.iter().enumerate() {
            match &s.slots[*slot as usize] {
                Value::Int(x) => *values[i].entry(*x).or_default() += &w,
                _ => whole[i] = false,
            }
        }
        outcome.insert(key.key(&faces), s.outcome);
        all += w;
    }
    let dist = |m: BTreeMap<i64, BigUint>| {
        let lo = m.keys().next().copied().unwrap_or(0);
        let hi = m.keys().last().copied().unwrap_or(0);
        let mut v = vec![BigUint::default(); (hi - lo + 1) as usize];
        for (k, w) in m {
            v[(k - lo) as usize] = w;
        }
        Dist::from_weights(lo, v)
    };
    let mut out = vec![("total".to_string(), dist(totals))];
    if c.target.is_some() {
        out.push(("margin".to_string(), dist(margins)));
    }
    for (i, m) in values.into_iter().enumerate() {
        if whole[i] && !m.is_empty() {
            out.push((lets[i].0.clone(), dist(m)));
        }
    }
    CheckOdds {
        outcomes: c.outcomes.iter().zip(ways).map(|(o, w)| (names[o.index as usize].clone(), w)).collect(),
        total: all,
        values: out,
        table: Table { key, outcome },
    }
}
