//! The exact distribution of one dice term (`4d6kh3`, `10d6cs>=5`, `3d6x`, `2d20r1`) with the meaning
//! of [`crate::dice::roll`], worked out face by face instead of roll by roll.

use super::Dist;
use super::poly::Poly;
use super::weight::Weight;
use crate::ast::{Cmp, DiceMod};
use crate::dice::{DieStep, Faces, MAX_CHAIN};
use num_bigint::BigUint;

/// The exact distribution of the value of `count` dice with `faces` and `mods`, as
/// [`crate::dice::roll`] gives it: the sum of the kept dice, or the number of kept dice that match
/// with `cs`. Modifiers apply in order. `Err` says, for a homebrewer, why the term is out of reach of
/// exact odds (a simulation can still answer).
///
/// ```
/// use mettle::internals::ast::DiceMod;
/// use mettle::dice::Faces;
/// let d = mettle::internals::odds::pool::term(4, Faces::Count(6), &[DiceMod::KeepHighest(3)]).unwrap();
/// assert_eq!(d.probability(18).to_string(), "7/432"); // 21 of 1296 rolls
/// ```
pub fn term(count: usize, faces: Faces<'_>, mods: &[DiceMod]) -> Result<Dist, String> {
    let (d, dry) =
        super::work::within(crate::Budget::default().odds_work, || term_within(count, faces, mods));
    if dry { Err(super::work::reason()) } else { d }
}

fn term_within(count: usize, faces: Faces<'_>, mods: &[DiceMod]) -> Result<Dist, String> {
    let plan = Plan::new(count, faces, mods)?;
    // Weights stay below the total of every roll, so a small total settles it without a failed try.
    if plan.total_bits() < 127.0
        && let Some(d) = plan.run::<u128>()
    {
        return Ok(d);
    }
    plan.run::<BigUint>().ok_or_else(|| "the exact weights grow too large to compute".to_string())
}

/// Most work (weight operations, roughly) an exact answer may take: a few seconds at the slowest
/// (wide dice rerolled many times, whose weights grow to thousands of bits).
const BUDGET: f64 = 2e8;

/// A term's modifiers, sorted into the stages that exact odds can follow.
#[derive(Debug)]
struct Plan {
    n: usize,
    /// Faces and how many times each appears on the die.
    base: Vec<(i64, u64)>,
    /// Rerolls and raises before any keep or drop: every die alike.
    pre: Vec<DieStep>,
    /// The kept ranks `a..b`, counted from the highest die.
    keep: Option<(usize, usize)>,
    /// Rerolls and raises of the kept dice after the keep.
    post: Vec<DieStep>,
    /// `x`: explode when a die matches, then the rerolls and raises written after it (of every die).
    explode: Option<(Cmp, i64, Vec<DieStep>)>,
    /// `cs`: the last one counts.
    count: Option<(Cmp, i64)>,
}

impl Plan {
    fn new(n: usize, faces: Faces<'_>, mods: &[DiceMod]) -> Result<Plan, String> {
        let mut base: Vec<(i64, u64)> = match faces {
            Faces::Count(s) if s < 1 => return Err(format!("a die cannot have {s} sides")),
            Faces::Count(s) if s > 100_000 => return Err(format!("a d{s} has too many faces to list")),
            Faces::Count(s) => (1..=s).map(|f| (f, 1)).collect(),
            Faces::List([]) => vec![(0, 1)],
            Faces::List(l) => l.iter().map(|&f| (f, 1)).collect(),
        };
        base.sort_unstable();
        base.dedup_by(|b, a| {
            a.0 == b.0 && {
                a.1 += b.1;
                true
            }
        });
        let (lo, hi) = (base[0].0, base.last().map_or(0, |l| l.0));
        let hi = reach(lo, hi, mods)?;
        // Sums stay far inside an i64: every die, and every die an explosion may add.
        let most = lo.unsigned_abs().max(hi.unsigned_abs()).saturating_mul(n as u64 * (MAX_CHAIN as u64 + 1));
        if most > 1 << 60 {
            return Err("the dice's values are too large to add up exactly".into());
        }
        if n > 10_000 {
            return Err(format!("{n} dice is too many for one roll"));
        }
        let mut p = Plan { n, base, pre: vec![], keep: None, post: vec![], explode: None, count: None };
        for m in mods {
            if let Some(step) = DieStep::of(m) {
                match (&mut p.explode, p.keep) {
                    (Some(x), _) => x.2.push(step),
                    (None, Some(_)) => p.post.push(step),
                    (None, None) => p.pre.push(step),
                }
                continue;
            }
            match *m {
                DiceMod::CountSuccesses(cmp, v) => p.count = Some((cmp, v)),
                // Steps of each die, taken above.
                DiceMod::Reroll(..) | DiceMod::RerollOnce(..) | DiceMod::Raise(_) => {}
                DiceMod::Explode(cmp, v) => {
                    if p.explode.is_some() {
                        return Err("a term that explodes twice is not worked out exactly".into());
                    }
                    p.explode = Some((cmp, v.unwrap_or_else(|| faces.max()), vec![]));
                }
                DiceMod::KeepHighest(k)
                | DiceMod::KeepLowest(k)
                | DiceMod::DropHighest(k)
                | DiceMod::DropLowest(k) => {
                    if p.explode.is_some() {
                        return Err(
                            "keeping or dropping dice after they explode is not worked out exactly".into()
                        );
                    }
                    if !p.post.is_empty() {
                        return Err(
                            "keeping or dropping again after a reroll of kept dice is not worked out exactly"
                                .into(),
                        );
                    }
                    let (a, b) = p.keep.unwrap_or((0, n));
                    let k = (k as usize).min(b - a);
                    p.keep = Some(match m {
                        DiceMod::KeepHighest(_) => (a, a + k),
                        DiceMod::KeepLowest(_) => (b - k, b),
                        DiceMod::DropHighest(_) => (a + k, b),
                        _ => (a, b - k),
                    });
                }
            }
        }
        p.check_cost()?;
        Ok(p)
    }

    /// About how many bits the total number of ways takes: faces^(dice · rolls per die).
    fn total_bits(&self) -> f64 {
        let chain = if self.explode.is_some() { MAX_CHAIN as f64 } else { 0.0 };
        let rolls = 1.0 + chain + self.pre.iter().chain(&self.post).map(|r| tries(*r) as f64).sum::<f64>();
        let per_face = self.base.iter().map(|b| b.1).sum::<u64>() as f64;
        self.n as f64 * rolls * per_face.log2()
    }

    /// Refuses terms whose exact answer would take too long, before any work.
    fn check_cost(&self) -> Result<(), String> {
        let n = self.n as f64;
        let faces = self.base.len() as f64;
        let span = match self.count {
            Some(_) => 1.0,
            None => (self.base.last().map_or(0, |l| l.0) - self.base[0].0) as f64 + 1.0,
        };
        let chain = if self.explode.is_some() { MAX_CHAIN as f64 } else { 1.0 };
        let mut limbs = 1.0 + self.total_bits() / 64.0;
        // Rerolled dice carry weights of thousands of bits, and multiplying those costs more than in
        // proportion to their length (measured: `6d560r1ro20` took 4.6 s where its plain count said 2 s).
        if !self.pre.is_empty() || !self.post.is_empty() {
            limbs *= 1.0 + limbs / 16.0;
        }
        // An exploding die is itself a polynomial `chain` times wider than its faces, and every step of
        // the power multiplies by it: count its width, not its face count.
        let width = faces * chain;
        let cost = match self.keep {
            None => n * span * chain * width * limbs,
            Some((a, b)) => {
                let b = b as f64;
                let kept = b - a as f64;
                faces * b * (b * (kept * span * chain).max(1.0) + n) * limbs
            }
        };
        if cost > BUDGET {
            let what = if self.keep.is_some() { "keeping some of this many dice" } else { "this many dice" };
            return Err(format!("{what} would take too long to work out exactly"));
        }
        Ok(())
    }

    fn run<W: Weight>(&self) -> Option<Dist> {
        if self.n == 0 || self.keep.is_some_and(|(a, b)| a >= b) {
            return Some(Dist::constant(0));
        }
        let mut die = Poly::empty();
        for &(f, m) in &self.base {
            die.add_scaled(&Poly::point(f, W::from_u64(m)), &W::one(), 0)?;
        }
        let base = die.clone();
        for r in &self.pre {
            die = step(&die, &base, *r)?.reduce();
        }
        let out = match self.keep.filter(|&k| k != (0, self.n)) {
            None => self.after_keep(&die, &base)?.reduce().pow(self.n)?,
            Some((a, b)) => self.keep_dp(&die, &base, a, b)?,
        };
        Some(out.to_dist())
    }

    /// What a kept die whose face is distributed as `die` adds to the value: rerolls, explosions and
    /// counting, all with the same total for every starting face.
    fn after_keep<W: Weight>(&self, die: &Poly<W>, base: &Poly<W>) -> Option<Poly<W>> {
        let mut f = die.clone();
        for r in &self.post {
            f = step(&f, base, *r)?;
        }
        let Some((cmp, n, rest)) = &self.explode else { return self.value(&f) };
        // `own(face)`: what one die that showed `face` when the explosion was decided adds.
        let own = |face: i64, w: &W| -> Option<Poly<W>> {
            let mut g = Poly::point(face, w.clone());
            for r in rest {
                g = step(&g, base, *r)?;
            }
            self.value(&g)
        };
        let (mut hit, mut miss, mut f_hit, mut f_miss) =
            (Poly::empty(), Poly::empty(), Poly::empty(), Poly::empty());
        for (face, w) in base.nonzero() {
            let side = if cmp.test(face, *n) { &mut hit } else { &mut miss };
            side.add_scaled(&own(face, w)?, &W::one(), 0)?;
        }
        for (face, w) in f.nonzero() {
            let side = if cmp.test(face, *n) { &mut f_hit } else { &mut f_miss };
            side.add_scaled(&own(face, w)?, &W::one(), 0)?;
        }
        if hit.w.is_empty() {
            return Some(f_miss);
        }
        // `chain`: what a die added by an explosion brings, itself and the dice it adds in turn, when
        // `k` more may follow it: `hit ⊛ chain(k − 1) + miss · total(chain(k − 1))`.
        let mut chain = hit.clone();
        chain.add_scaled(&miss, &W::one(), 0)?;
        for _ in 1..MAX_CHAIN {
            let mut next = miss.scale(&chain.total()?)?;
            next.add_conv(&hit, &chain, &W::one())?;
            chain = next;
        }
        let mut out = f_miss.scale(&chain.total()?)?;
        out.add_conv(&f_hit, &chain, &W::one())?;
        Some(out)
    }

    /// The value of dice with these faces: the face, or 1 for a success with `cs`.
    fn value<W: Weight>(&self, faces: &Poly<W>) -> Option<Poly<W>> {
        let Some((cmp, n)) = self.count else { return Some(faces.clone()) };
        let mut out = Poly::empty();
        for (f, w) in faces.nonzero() {
            out.add_scaled(&Poly::point(i64::from(cmp.test(f, n)), w.clone()), &W::one(), 0)?;
        }
        Some(out)
    }

    /// Keeping ranks `a..b`: face by face from the highest, choose how many dice show it (with the
    /// binomial number of ways), tracking only the kept sum; once every kept rank is filled, the
    /// remaining dice show lower faces in `lower^rest` ways.
    fn keep_dp<W: Weight>(&self, die: &Poly<W>, base: &Poly<W>, a: usize, b: usize) -> Option<Poly<W>> {
        let n = self.n;
        let faces: Vec<(i64, W)> = die.nonzero().map(|(f, w)| (f, w.clone())).rev().collect();
        let mut below = die.total()?;
        let mut table: Vec<Option<Poly<W>>> = vec![None; b];
        table[0] = Some(Poly::point(0, W::one()));
        let mut done = Poly::empty();
        let binoms = binomial_rows::<W>(n - b + 1, n)?;
        for (f, w) in &faces {
            below = below.sub(w)?;
            let v = self.after_keep(&Poly::point(*f, W::one()), base)?;
            let vpow = powers(&v, b - a)?;
            let wpow = powers_w(w, n)?;
            let lpow = powers_w(&below, n)?;
            let mut next: Vec<Option<Poly<W>>> = vec![None; b];
            for (c, t) in table.iter().enumerate() {
                let Some(t) = t else { continue };
                let m = n - c;
                let binom = &binoms[m - (n - b + 1)];
                let mut tail = W::zero();
                for j in 0..=m {
                    if c + j < b {
                        let kept = (c + j).min(b).saturating_sub(c.max(a));
                        let coef = binom[j].mul(&wpow[j])?;
                        next[c + j].get_or_insert_with(Poly::empty).add_conv(t, &vpow[kept], &coef)?;
                    } else {
                        tail.add_to(&binom[j].mul(&wpow[j])?.mul(&lpow[m - j])?)?;
                    }
                }
                if !tail.is_zero() {
                    done.add_conv(t, &vpow[b - c.max(a)], &tail)?;
                }
            }
            table = next;
        }
        Some(done)
    }
}

/// Rows `from..=to` of Pascal's triangle: the first by products, the rest by sums.
fn binomial_rows<W: Weight>(from: usize, to: usize) -> Option<Vec<Vec<W>>> {
    let mut row = vec![W::one()];
    for j in 0..from {
        let next = row[j].mul(&W::from_u64((from - j) as u64))?.div(&W::from_u64(j as u64 + 1));
        row.push(next);
    }
    let mut rows = vec![row];
    for _ in from..to {
        let last = rows.last().unwrap_or_else(|| unreachable!("starts with one row"));
        let mut next = Vec::with_capacity(last.len() + 1);
        next.push(W::one());
        for j in 1..last.len() {
            next.push(last[j - 1].add(&last[j])?);
        }
        next.push(W::one());
        rows.push(next);
    }
    Some(rows)
}

/// `p^0 … p^k` as sums of independent copies.
fn powers<W: Weight>(p: &Poly<W>, k: usize) -> Option<Vec<Poly<W>>> {
    let mut out = vec![Poly::point(0, W::one())];
    for i in 0..k {
        let next = out[i].conv(p)?;
        out.push(next);
    }
    Some(out)
}

/// `x^0 … x^k`.
fn powers_w<W: Weight>(x: &W, k: usize) -> Option<Vec<W>> {
    let mut out = vec![W::one()];
    for i in 0..k {
        out.push(out[i].mul(x)?);
    }
    Some(out)
}

/// The highest face a die with faces `lo..=hi` can end with after `mods` (a raise may lift it above
/// `hi`), or why its values are too far apart to be listed one by one.
pub(crate) fn reach(lo: i64, hi: i64, mods: &[DiceMod]) -> Result<i64, String> {
    let top = mods.iter().filter_map(DieStep::of).fold(hi, |top, s| match s {
        DieStep::Raise(n) => top.max(n),
        DieStep::Reroll { .. } => top,
    });
    match top.checked_sub(lo) {
        Some(d) if d <= 100_000 => Ok(top),
        _ if top > hi => {
            Err(format!("raising dice to {top} puts their values too far apart to list every one"))
        }
        _ => Err("the die's faces are too far apart to list every value".into()),
    }
}

/// How many faces a step may roll again.
fn tries(s: DieStep) -> usize {
    match s {
        DieStep::Reroll { tries, .. } => tries,
        DieStep::Raise(_) => 0,
    }
}

/// The faces of one die, as [`crate::dice::roll`] leaves it after `steps` (the rerolls and raises of
/// its term, in order), from `faces`: each face with its weight, all over one common total. `None`
/// when the weights overflow `W`.
pub(crate) fn one_die<W: Weight>(faces: &[i64], steps: &[DieStep]) -> Option<Poly<W>> {
    let mut base = Poly::empty();
    for &f in faces {
        base.add_scaled(&Poly::point(f, W::one()), &W::one(), 0)?;
    }
    let mut die = base.clone();
    for s in steps {
        die = step(&die, &base, *s)?;
    }
    Some(die)
}

/// A die whose face is distributed as `die` after step `s`, with new faces rolled on `base`. The total
/// is `total(die) · total(base)^tries` whatever `die` is.
fn step<W: Weight>(die: &Poly<W>, base: &Poly<W>, s: DieStep) -> Option<Poly<W>> {
    match s {
        DieStep::Reroll { cmp, n, tries } => reroll(die, base, cmp, n, tries),
        DieStep::Raise(n) => {
            let mut out = Poly::empty();
            for (f, w) in die.nonzero() {
                out.add_scaled(&Poly::point(f.max(n), w.clone()), &W::one(), 0)?;
            }
            Some(out)
        }
    }
}

/// A die whose face is distributed as `die`, after a reroll: faces that pass `cmp n` are rolled again
/// on `base` (up to `tries` times in all).
fn reroll<W: Weight>(die: &Poly<W>, base: &Poly<W>, cmp: Cmp, n: i64, tries: usize) -> Option<Poly<W>> {
    let (mut hit, mut miss) = (Poly::empty(), Poly::empty());
    for (f, w) in base.nonzero() {
        let side = if cmp.test(f, n) { &mut hit } else { &mut miss };
        side.add_scaled(&Poly::point(f, w.clone()), &W::one(), 0)?;
    }
    let (s, m) = (base.total()?, hit.total()?);
    // `again`: the face after rolling `base` with `t` more tries left; its total is `s^(t + 1)`.
    let mut again = base.clone();
    let mut st = W::one();
    for _ in 1..tries {
        st = st.mul(&s)?;
        let mut next = miss.scale(&st)?;
        next.add_scaled(&again, &m, 0)?;
        again = next;
    }
    let st = st.mul(&s)?;
    let mut out = Poly::empty();
    let mut die_hit = W::zero();
    for (f, w) in die.nonzero() {
        if cmp.test(f, n) {
            die_hit.add_to(w)?;
        } else {
            out.add_scaled(&Poly::point(f, w.clone()), &st, 0)?;
        }
    }
    out.add_scaled(&again, &die_hit, 0)?;
    Some(out)
}

#[cfg(test)]
mod tests;
