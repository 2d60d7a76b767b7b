//! Weights over a run of values, generic over the weight type: sums, products and powers of dice.

use super::Dist;
use super::weight::Weight;

/// `w[i]` ways for the value `lo + i`. Every operation returns `None` when a weight does not fit.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Poly<W> {
    /// The value of `w[0]`.
    pub lo: i64,
    /// The weights.
    pub w: Vec<W>,
}

impl<W: Weight> Poly<W> {
    /// No ways at all.
    pub fn empty() -> Self {
        Poly { lo: 0, w: vec![] }
    }

    /// `w` ways for `v`.
    pub fn point(v: i64, w: W) -> Self {
        Poly { lo: v, w: vec![w] }
    }

    /// The highest value (below `lo` when empty).
    pub fn hi(&self) -> i64 {
        self.lo + (self.w.len() as i64 - 1)
    }

    /// All the ways together.
    pub fn total(&self) -> Option<W> {
        let mut t = W::zero();
        for x in &self.w {
            t.add_to(x)?;
        }
        Some(t)
    }

    /// Values and weights, zero weights skipped.
    pub fn nonzero(&self) -> impl DoubleEndedIterator<Item = (i64, &W)> + '_ {
        self.w.iter().enumerate().filter(|(_, x)| !x.is_zero()).map(|(i, x)| (self.lo + i as i64, x))
    }

    /// The same, without zero weights at either end.
    pub fn trim(mut self) -> Self {
        let Some(first) = self.w.iter().position(|x| !x.is_zero()) else { return Self::empty() };
        let last = self.w.iter().rposition(|x| !x.is_zero()).unwrap_or(first);
        self.w.truncate(last + 1);
        self.w.drain(..first);
        self.lo += first as i64;
        self
    }

    /// Every weight divided by their greatest common divisor: the same chances with smaller numbers.
    pub fn reduce(mut self) -> Self {
        let mut g = W::zero();
        for x in &self.w {
            g = g.gcd(x);
            // Nothing divides them all once the divisor is 1: the rest need not be looked at.
            if g == W::one() {
                return self;
            }
        }
        if !g.is_zero() && g != W::one() {
            for x in &mut self.w {
                *x = x.div(&g);
            }
        }
        self
    }

    /// Makes room for the values `lo..=hi`.
    fn cover(&mut self, lo: i64, hi: i64) {
        if self.w.is_empty() {
            self.lo = lo;
        }
        if lo < self.lo {
            let extra = (self.lo - lo) as usize;
            self.w.splice(0..0, std::iter::repeat_n(W::zero(), extra));
            self.lo = lo;
        }
        let need = (hi - self.lo + 1).max(0) as usize;
        if need > self.w.len() {
            self.w.resize(need, W::zero());
        }
    }

    /// `self += o * k`, with `o`'s values moved up by `shift`.
    pub fn add_scaled(&mut self, o: &Self, k: &W, shift: i64) -> Option<()> {
        if o.w.is_empty() || k.is_zero() {
            return Some(());
        }
        self.cover(o.lo + shift, o.hi() + shift);
        let at = (o.lo + shift - self.lo) as usize;
        let one = *k == W::one();
        for (i, x) in o.w.iter().enumerate() {
            if x.is_zero() {
                continue;
            }
            if one {
                self.w[at + i].add_to(x)?;
            } else {
                self.w[at + i].add_to(&x.mul(k)?)?;
            }
        }
        Some(())
    }

    /// `self += (a ⊛ b) * k`: the sum of independent values, weighted.
    pub fn add_conv(&mut self, a: &Self, b: &Self, k: &W) -> Option<()> {
        let (small, big) = if a.w.len() <= b.w.len() { (a, b) } else { (b, a) };
        for (v, x) in small.nonzero() {
            self.add_scaled(big, &x.mul(k)?, v)?;
        }
        Some(())
    }

    /// The distribution of the sum of two independent values.
    pub fn conv(&self, o: &Self) -> Option<Self> {
        let mut out = Self::empty();
        out.add_conv(self, o, &W::one())?;
        Some(out)
    }

    /// Every weight times `k`.
    pub fn scale(&self, k: &W) -> Option<Self> {
        let w = self.w.iter().map(|x| x.mul(k)).collect::<Option<Vec<W>>>()?;
        Some(Poly { lo: self.lo, w })
    }

    /// The distribution of the sum of `n` independent copies, by whichever of repeated squaring and
    /// the power recurrence costs less.
    pub fn pow(&self, n: usize) -> Option<Self> {
        let p = self.clone().trim();
        if n == 0 {
            return Some(Self::point(0, W::one()));
        }
        if p.w.is_empty() || n == 1 {
            return Some(p);
        }
        let k = (p.w.len() - 1) * n + 1;
        let nonzero = p.w.iter().filter(|x| !x.is_zero()).count();
        if k.saturating_mul(nonzero + 2) < k.saturating_mul(k) / 3 {
            p.pow_recurrence(n)
        } else {
            p.pow_squaring(n)
        }
    }

    /// `p^n` by squaring: about `(n · faces)²` products in the last step.
    fn pow_squaring(&self, mut n: usize) -> Option<Self> {
        let mut out: Option<Self> = None;
        let mut base = self.clone();
        loop {
            if n & 1 == 1 {
                out = Some(match out {
                    Some(o) => o.conv(&base)?,
                    None => base.clone(),
                });
            }
            n >>= 1;
            if n == 0 {
                return out;
            }
            base = base.conv(&base)?;
        }
    }

    /// `p^n` coefficient by coefficient, from `Q' P = n P' Q`:
    /// `k p₀ q_k = Σ_{i ≥ 1} ((n + 1) i − k) p_i q_{k−i}`. Needs `p₀ ≠ 0` (the poly is trimmed).
    /// About `n · faces · nonzero faces` products of a weight by a small number.
    fn pow_recurrence(&self, n: usize) -> Option<Self> {
        let p = &self.w;
        let d = p.len() - 1;
        let len = d * n + 1;
        let mut q: Vec<W> = Vec::with_capacity(len);
        q.push(pow_w(&p[0], n)?);
        let terms: Vec<(usize, &W)> = p.iter().enumerate().skip(1).filter(|(_, x)| !x.is_zero()).collect();
        for k in 1..len {
            let (mut pos, mut neg) = (W::zero(), W::zero());
            for &(i, pi) in &terms {
                if i > k {
                    break;
                }
                let c = ((n + 1) * i) as i128 - k as i128;
                if c == 0 {
                    continue;
                }
                let t = q[k - i].mul(pi)?.mul(&W::from_u64(c.unsigned_abs() as u64))?;
                if c > 0 { pos.add_to(&t)? } else { neg.add_to(&t)? }
            }
            let s = pos.sub(&neg)?;
            q.push(s.div(&W::from_u64(k as u64)).div(&p[0]));
        }
        Some(Poly { lo: self.lo * n as i64, w: q })
    }

    /// The distribution as exact big weights.
    pub fn to_dist(&self) -> Dist {
        Dist::from_weights(self.lo, self.w.clone())
    }
}

/// `x^n` by squaring.
pub(crate) fn pow_w<W: Weight>(x: &W, mut n: usize) -> Option<W> {
    let (mut out, mut b) = (W::one(), x.clone());
    while n > 0 {
        if n & 1 == 1 {
            out = out.mul(&b)?;
        }
        n >>= 1;
        if n > 0 {
            b = b.mul(&b)?;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(sides: usize) -> Poly<u128> {
        Poly { lo: 1, w: vec![1; sides] }
    }

    #[test]
    fn squaring_and_recurrence_agree_with_one_die_at_a_time() {
        for (sides, n) in [(6, 1), (6, 2), (6, 7), (4, 13), (20, 3), (2, 30)] {
            let mut slow = Poly::point(0, 1u128);
            for _ in 0..n {
                slow = slow.conv(&d(sides)).unwrap();
            }
            assert_eq!(d(sides).pow_squaring(n).unwrap(), slow, "{n}d{sides}");
            assert_eq!(d(sides).pow_recurrence(n).unwrap(), slow, "{n}d{sides}");
        }
    }

    #[test]
    fn recurrence_handles_uneven_weights_and_gaps() {
        let p = Poly { lo: -1, w: vec![2u128, 0, 3, 1] };
        let mut slow = Poly::point(0, 1u128);
        for _ in 0..9 {
            slow = slow.conv(&p).unwrap();
        }
        assert_eq!(p.pow_recurrence(9).unwrap(), slow);
    }

    #[test]
    fn two_d_six_makes_seven_six_ways() {
        assert_eq!(d(6).pow(2).unwrap().w, vec![1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]);
    }
}
