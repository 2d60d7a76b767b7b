//! Exact odds of a check. Everything before the dice is worked out once ([`Session::prepare`]). The
//! dice are then reduced to the few numbers the rules after them read (the natural die, the roll's
//! value, counts of faces), whose joint distribution is built die by die; each distinct set of those
//! numbers is settled once by the check's own rules ([`Session::settle`]), so the odds can never
//! disagree with a real roll.

use super::layout::{KeyShape, Layout};
use super::scan::{self, Needs};
use super::{Dist, Weight};
use crate::ast::{Cmp, DiceMod};
use crate::diagnostics::Diagnostic;
use crate::dice::DieStep;
use crate::program::*;
use crate::session::{DiceSpec, Prepared, Session, Settled};
use num_bigint::BigUint;
use std::collections::BTreeMap;

/// Most (dice × faces × combinations) worked through before exact odds are called out of reach.
pub const BUDGET: u128 = 40_000_000;
/// Most faces of a die the exact engine lists.
const MAX_FACES: i64 = 100_000;
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
    /// What the check does to who makes it, when the odds were asked to follow its effects: each
    /// attribute its outcomes change, with the chance of each value it is left with.
    pub effects: Vec<super::EffectOdds>,
    /// Each distinct roll: what it reads of the dice, and the outcome it settles to.
    pub(crate) table: Table,
}

/// The settled rolls of a check: the outcome of each packed index a roll can reach.
#[derive(Debug, Clone)]
pub(crate) struct Table {
    /// How a roll packs into an index (`None`: the check rolls no dice).
    pub(crate) layout: Option<Layout>,
    /// Outcome by index ([`UNREACHED`] where no roll lands).
    pub(crate) outcome: Vec<u32>,
    /// Total by index.
    pub(crate) total: Vec<i64>,
    /// Whether a sampler can roll its dice and look the result up here.
    pub(crate) sampleable: bool,
}

/// Marks a table entry no roll reaches.
pub(crate) const UNREACHED: u32 = u32::MAX;

/// The exact odds of `prepared`, or why they are out of reach (the caller then simulates). An error
/// is a rule that fails while settling a roll.
pub fn check_odds(
    session: &mut Session,
    prepared: &Prepared,
) -> Result<Result<CheckOdds, String>, Diagnostic> {
    let units = session.ruleset().budget().odds_work;
    let (odds, dry) = super::work::within(units, || check_odds_within(session, prepared));
    match odds {
        // A rule stopped by the budget, or weights given up on for it, mean the work ran out.
        _ if dry => Ok(Err(super::work::reason())),
        odds => odds,
    }
}

fn check_odds_within(
    session: &mut Session,
    prepared: &Prepared,
) -> Result<Result<CheckOdds, String>, Diagnostic> {
    let rules = session.ruleset().clone();
    let p = rules.program();
    let c = &p.checks[prepared.check as usize];
    let (before, after) = scan::parts(c);
    if before.iter().chain(&after).any(|e| scan::rolls(p, e)) {
        let b = scan::Blocker {
            why: "the check's rules roll dice of their own besides its roll".into(),
            needle: "",
            help: "to make it exact, roll every die of the check in its `roll` line and read them from `dice`",
        };
        return Ok(Err(explain(&rules, c, &b)));
    }
    let needs = scan::needs(c, &after);
    if let Some(b) = &needs.blocker {
        return Ok(Err(explain(&rules, c, b)));
    }
    let Some(spec) = &prepared.dice else {
        // No dice: one way, settled once.
        let s = session.settle(prepared, None)?;
        return Ok(Ok(gather(session, prepared, vec![(BigUint::from(1u32), s, 0)], None)?));
    };
    if let crate::session::FaceSpec::Count(n) = spec.faces
        && n > MAX_FACES
    {
        return Ok(Err(format!("a d{n} has too many faces to follow exactly")));
    }
    let mut counts = vec![];
    for (cmp, e) in &needs.counts {
        counts.push((*cmp, session.evaluate(prepared, e)?.int()));
    }
    // The dice read by their place: the natural die is the first; a place past the roll reads 0
    // whatever the dice show.
    let mut places = vec![];
    if needs.natural {
        places.push(0);
    }
    for e in &needs.dies {
        let i = session.evaluate(prepared, e)?.int();
        if i >= 1 && (i as u128) <= spec.count as u128 {
            places.push(i as usize - 1);
        }
    }
    places.sort_unstable();
    places.dedup();
    let shape = shape(&needs, Some(spec), counts, places);
    let keeps = spec.mods.iter().any(DiceMod::selects);
    let explodes = spec.mods.iter().any(|m| matches!(m, DiceMod::Explode(..)));
    let reads_more = !shape.places.is_empty() || shape.sum || !shape.counts.is_empty() || needs.sorted;
    if (keeps || explodes) && !reads_more {
        // The rules read only the roll's value: its exact distribution settles every roll.
        return by_value(session, prepared, spec);
    }
    if explodes {
        let b = scan::Blocker {
            why: "the rules read more of the roll than its total, and its dice explode".into(),
            needle: "roll ",
            help: "exploding dice are exact when the rules after them read only the roll's total",
        };
        return Ok(Err(explain(&rules, c, &b)));
    }
    if keeps || needs.sorted {
        return match super::sorted::odds(session, prepared, c, spec, &shape.places)? {
            Ok(settled) => {
                let mut odds = gather(session, prepared, settled, None)?;
                odds.table.sampleable = false;
                Ok(Ok(odds))
            }
            Err(why) => Ok(Err(why)),
        };
    }
    let faces = end_faces(spec);
    let lo = faces.first().copied().unwrap_or(0);
    if let Err(why) = super::pool::reach(lo, spec.faces.faces().max(), &spec.mods) {
        return Ok(Err(why));
    }
    let limit = (BUDGET / (spec.count.max(1) as u128 * faces.len() as u128)).min(1 << 24) as usize;
    let Some(layout) = Layout::new(&shape, faces, spec.count, limit) else {
        let hint = if shape.places.len() > 1 {
            "; each die read by its place multiplies them: counting faces reads fewer numbers (`count(dice, 1) == 2` \
             for a double 1)"
        } else {
            ""
        };
        return Ok(Err(format!(
            "the roll ({} dice) has too many combinations of what its rules read to follow exactly{hint}",
            spec.count
        )));
    };
    let rolls: Vec<(BigUint, Vec<i64>, usize)> = match joint::<u128>(spec, &layout) {
        Some(r) => r.into_iter().map(|(w, f, i)| (w.to_big(), f, i)).collect(),
        // Big weights never overflow: only the budget of work stops them.
        None => match joint::<BigUint>(spec, &layout) {
            Some(r) => r,
            None => return Ok(Err(super::work::reason())),
        },
    };
    if rolls.len() > SETTLE_BUDGET {
        return Ok(Err(format!(
            "the roll has {} distinct results to settle, too many to follow exactly",
            rolls.len()
        )));
    }
    let pools = rolls.iter().map(|(_, f, _)| Some(pool_of(spec, &shape, f)));
    let settled = session.settle_all(prepared, pools)?;
    let settled = rolls.into_iter().zip(settled).map(|((w, _, i), s)| (w, s, i)).collect();
    Ok(Ok(gather(session, prepared, settled, Some(layout))?))
}

/// Exact odds of a check whose rules read only its roll's value, whatever the roll's modifiers: the
/// value's distribution ([`super::pool::term`]), each value settled once. Such odds have no table
/// to sample from.
fn by_value(
    session: &mut Session,
    prepared: &Prepared,
    spec: &DiceSpec,
) -> Result<Result<CheckOdds, String>, Diagnostic> {
    let dist = match super::pool::term(spec.count, spec.faces.faces(), &spec.mods) {
        Ok(d) => d,
        Err(why) => return Ok(Err(why)),
    };
    let rolls: Vec<(i64, BigUint)> =
        dist.iter().filter(|(_, w)| w.bits() > 0).map(|(v, w)| (v, w.clone())).collect();
    if rolls.len() > SETTLE_BUDGET {
        return Ok(Err(format!(
            "the roll has {} distinct values to settle, too many to follow exactly",
            rolls.len()
        )));
    }
    let sides = spec.faces.faces().max();
    let pools =
        rolls.iter().map(|(v, _)| Some(Pool { notation: String::new(), sides, dice: vec![], value: *v }));
    let settled = session.settle_all(prepared, pools)?;
    let settled = rolls.into_iter().zip(settled).map(|((_, w), s)| (w, s, 0)).collect();
    let mut odds = gather(session, prepared, settled, None)?;
    odds.table.sampleable = false;
    Ok(Ok(odds))
}

/// Why a check's odds are not exact, in words: the construct and where it is in the check (its first
/// use), and an exact way to write it.
fn explain(rules: &crate::Ruleset, c: &Check, b: &scan::Blocker) -> String {
    let text = rules.text();
    let (start, end) = (c.span.start.min(text.len()), c.span.end.min(text.len()));
    let body = text.get(start..end).unwrap_or("");
    // Past the check's name, a whole word (a `d` of its own is a die rolled in the rules).
    let at =
        body.match_indices(b.needle).filter(|_| !b.needle.is_empty()).map(|(i, _)| start + i).find(|&i| {
            let before = text[..i].chars().next_back().is_none_or(|ch| !ch.is_alphanumeric() && ch != '_');
            let after = &text[i + b.needle.len()..];
            let word_ends = b.needle.ends_with(['(', ' '])
                || after.chars().next().is_none_or(|ch| !ch.is_alphanumeric() && ch != '_');
            i > start && before && word_ends
        });
    let place = match at {
        Some(i) => {
            let line = text[..i].matches('\n').count() + 1;
            let col = text[..i].rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            format!(" (line {line}, column {col})")
        }
        None => String::new(),
    };
    format!("{}{place}; {}", b.why, b.help)
}

fn shape(
    needs: &Needs<'_>,
    spec: Option<&DiceSpec>,
    counts: Vec<(Cmp, i64)>,
    places: Vec<usize>,
) -> KeyShape {
    let successes = spec.and_then(|s| DiceMod::counting(&s.mods));
    KeyShape { places, successes, sum: needs.sum && successes.is_some(), counts }
}

/// A pool showing `faces`, as the roller would have built it.
fn pool_of(spec: &DiceSpec, shape: &KeyShape, faces: &[i64]) -> Pool {
    Pool {
        notation: String::new(),
        sides: spec.faces.faces().max(),
        dice: faces.iter().map(|&face| Die::new(face)).collect(),
        value: faces.iter().map(|&f| shape.value(f)).sum(),
    }
}

/// The joint distribution of what `layout` packs, over a roll of `spec`, built die by die in a dense
/// table: for each index a roll reaches, its weight, one roll that reaches it, and the index.
/// `None` when the weights overflow `W`.
fn joint<W: Weight>(spec: &DiceSpec, layout: &Layout) -> Option<Vec<(W, Vec<i64>, usize)>> {
    let die: Vec<(usize, W)> = die::<W>(spec)?.into_iter().map(|(f, w)| (layout.face_index(f), w)).collect();
    let mut now: Vec<W> = vec![W::zero(); layout.size];
    now[0] = W::one();
    let mut live = vec![0usize];
    // For each die, how each index was first reached: (index before, face).
    let mut back: Vec<Vec<(u32, u16)>> = Vec::with_capacity(spec.count);
    for i in 0..spec.count {
        let steps = layout.lead.get(i).unwrap_or(&layout.step);
        let mut next: Vec<W> = vec![W::zero(); layout.size];
        let mut from = vec![(u32::MAX, 0u16); layout.size];
        let mut next_live = vec![];
        for &j in &live {
            for (fi, wf) in &die {
                let k = j + steps[*fi];
                let add = now[j].mul(wf)?;
                if next[k].is_zero() {
                    next_live.push(k);
                    from[k] = (j as u32, *fi as u16);
                }
                next[k] = next[k].add(&add)?;
            }
        }
        now = next;
        live = next_live;
        back.push(from);
    }
    live.sort_unstable();
    Some(
        live.into_iter()
            .map(|k| {
                let mut faces = vec![0; spec.count];
                let mut j = k;
                for i in (0..spec.count).rev() {
                    let (prev, fi) = back[i][j];
                    faces[i] = layout.faces[fi as usize];
                    j = prev as usize;
                }
                (std::mem::replace(&mut now[k], W::zero()), faces, k)
            })
            .collect(),
    )
}

/// One die's faces with their weights, after its rerolls and raises in the order written, all over a
/// common total ([`super::pool::one_die`]). `None` on overflow.
pub(crate) fn die<W: Weight>(spec: &DiceSpec) -> Option<Vec<(i64, W)>> {
    let steps: Vec<DieStep> = spec.mods.iter().filter_map(DieStep::of).collect();
    let die = super::pool::one_die::<W>(&spec.faces.all(), &steps)?;
    Some(die.nonzero().map(|(f, w)| (f, w.clone())).collect())
}

/// Every face a die of `spec` may end with: its own, and those raises lift it to.
fn end_faces(spec: &DiceSpec) -> Vec<i64> {
    let mut faces = spec.faces.all();
    for m in &spec.mods {
        match DieStep::of(m) {
            Some(DieStep::Raise(n)) => faces.push(n),
            Some(DieStep::Reroll { .. }) | None => {}
        }
    }
    faces.sort_unstable();
    faces.dedup();
    faces
}

/// The ways of each settled roll to be the one that stands, when `reroll when …` may set rolls
/// aside: with T ways in all, R of them rolled again, and at most k re-rolls, a roll that is not
/// rolled again stands after i = 0..=k rolls set aside (sum of R^i T^(k-i) ways), one that is
/// stands only as the last of k re-rolls (R^k), over T^(k+1) ways in all. An error when every roll
/// is rolled again and there is no `once`: no roll would ever stand but the hundredth re-roll.
fn reweigh(
    c: &Check,
    settled: Vec<(BigUint, Settled, usize)>,
) -> Result<Vec<(BigUint, Settled, usize)>, Diagnostic> {
    let Some(reroll) = &c.reroll else { return Ok(settled) };
    let t: BigUint = settled.iter().map(|(w, _, _)| w).sum();
    let r: BigUint = settled.iter().filter(|(_, s, _)| s.reroll).map(|(w, _, _)| w).sum();
    if r.bits() == 0 {
        return Ok(settled);
    }
    if !reroll.once && r == t {
        return Err(Diagnostic::error(
            "odds::reroll_forever",
            format!("every roll of check `{}` is rolled again", c.name),
            reroll.span,
            "no roll stands",
        )
        .with_help(
            "with these inputs every roll lands on an outcome that is rolled again: name fewer outcomes, add a condition with `if`, or write `once`",
        ));
    }
    let (mut keep, mut stay) = (BigUint::from(1u32), BigUint::from(1u32));
    for _ in 0..reroll.bound() {
        stay *= &r;
        keep = keep * &t + &stay;
    }
    Ok(settled.into_iter().map(|(w, s, i)| (if s.reroll { w * &stay } else { w * &keep }, s, i)).collect())
}

/// Adds up the settled rolls: ways per outcome, the distributions of the check's numbers, and (when
/// asked for) what the effects leave of who makes the check.
fn gather(
    session: &Session,
    prepared: &Prepared,
    settled: Vec<(BigUint, Settled, usize)>,
    layout: Option<Layout>,
) -> Result<CheckOdds, Diagnostic> {
    let settled = reweigh(&session.ruleset().program().checks[prepared.check as usize], settled)?;
    let mut follow = if prepared.effects {
        let c = &session.ruleset().program().checks[prepared.check as usize];
        let natural = scan::needs(c, &scan::parts(c).1).natural;
        let dice = super::effects::Dice::Read { natural };
        super::effects::Follow::new(session, prepared.check, prepared.subject, dice)
    } else {
        None
    };
    let p = session.ruleset().program();
    let c = &p.checks[prepared.check as usize];
    let names = &p.sets[c.outcome_set as usize].names;
    let mut ways = vec![BigUint::default(); c.outcomes.len()];
    let mut totals: BTreeMap<i64, BigUint> = BTreeMap::new();
    let mut margins: BTreeMap<i64, BigUint> = BTreeMap::new();
    let post = scan::post_slots(c);
    let lets: Vec<&(String, u32)> = c.lets.iter().filter(|(_, s)| post.contains(s)).collect();
    let mut values: Vec<BTreeMap<i64, BigUint>> = vec![BTreeMap::new(); lets.len()];
    let mut whole = vec![true; lets.len()];
    let mut outcome = vec![UNREACHED; layout.as_ref().map_or(1, |l| l.size)];
    let mut total_at = vec![0; outcome.len()];
    let mut all = BigUint::default();
    for (w, s, index) in settled {
        ways[s.outcome] += &w;
        *totals.entry(s.total).or_default() += &w;
        if let Some(t) = s.target {
            let margin = if c.under { t - s.total } else { s.total - t };
            *margins.entry(margin).or_default() += &w;
        }
        for (i, (_, slot)) in lets.iter().enumerate() {
            match &s.slots[*slot as usize] {
                Value::Int(x) => *values[i].entry(*x).or_default() += &w,
                _ => whole[i] = false,
            }
        }
        if let Some(f) = &mut follow {
            f.add(&w, s.outcome, s.after.as_ref());
        }
        outcome[index] = s.outcome as u32;
        total_at[index] = s.total;
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
    Ok(CheckOdds {
        outcomes: c.outcomes.iter().zip(ways).map(|(o, w)| (names[o.index as usize].clone(), w)).collect(),
        effects: follow.map(|f| f.finish(session, &all, true)).unwrap_or_default(),
        total: all,
        values: out,
        // A sampler looks one roll up in the table: a check that may be rolled again rolls itself.
        table: Table { layout, outcome, total: total_at, sampleable: c.reroll.is_none() },
    })
}
