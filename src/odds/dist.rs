//! Exact distributions over whole numbers: a weight for each value, over the weights' total.

use super::weight::{Fraction, Weight};
use num_bigint::BigUint;
use num_traits::Zero;

/// An exact distribution: `weights[i]` ways for the value `lo + i`, out of `total()` ways.
#[derive(Debug, Clone, PartialEq)]
pub struct Dist {
    lo: i64,
    weights: Vec<BigUint>,
}

impl Dist {
    /// Always `v`.
    pub fn constant(v: i64) -> Dist {
        Dist { lo: v, weights: vec![BigUint::from(1u32)] }
    }

    /// From weights for `lo, lo + 1, …`; zero weights at either end are trimmed.
    pub(crate) fn from_weights<W: Weight>(lo: i64, weights: Vec<W>) -> Dist {
        let first = weights.iter().position(|w| !w.is_zero());
        let Some(first) = first else { return Dist { lo: 0, weights: vec![] } };
        let last = weights.iter().rposition(|w| !w.is_zero()).unwrap_or(first);
        Dist { lo: lo + first as i64, weights: weights[first..=last].iter().map(Weight::to_big).collect() }
    }

    /// From counts of each value (how often each came up in a simulation), or `None` when the values
    /// spread over more than [`Dist::MAX_SPREAD`].
    ///
    /// ```
    /// let d = mettle::odds::Dist::from_counts([(2, 1u64), (4, 3)].into_iter().collect()).unwrap();
    /// assert_eq!((d.lo(), d.hi(), d.probability(4).to_string()), (2, 4, "3/4".to_string()));
    /// assert!(mettle::odds::Dist::from_counts([(0, 1u64), (1 << 40, 1)].into_iter().collect()).is_none());
    /// ```
    pub fn from_counts(counts: std::collections::BTreeMap<i64, u64>) -> Option<Dist> {
        let lo = counts.keys().next().copied().unwrap_or(0);
        let hi = counts.keys().last().copied().unwrap_or(0);
        if hi.checked_sub(lo).is_none_or(|s| s > Self::MAX_SPREAD) {
            return None;
        }
        let mut v = vec![BigUint::default(); (hi - lo + 1) as usize];
        for (k, n) in counts {
            v[(k - lo) as usize] = BigUint::from(n);
        }
        Some(Dist::from_weights(lo, v))
    }

    /// Widest spread of values a distribution of counts is kept over.
    pub const MAX_SPREAD: i64 = 4_000_000;

    /// Lowest value with a chance (0 when empty).
    pub fn lo(&self) -> i64 {
        self.lo
    }

    /// Highest value with a chance.
    pub fn hi(&self) -> i64 {
        self.lo + (self.weights.len() as i64 - 1)
    }

    /// Values with their weights, lowest first (zero weights included between `lo` and `hi`).
    pub fn iter(&self) -> impl Iterator<Item = (i64, &BigUint)> + '_ {
        self.weights.iter().enumerate().map(|(i, w)| (self.lo + i as i64, w))
    }

    /// The weight of `v`.
    pub fn weight(&self, v: i64) -> BigUint {
        usize::try_from(v - self.lo)
            .ok()
            .and_then(|i| self.weights.get(i))
            .cloned()
            .unwrap_or_else(<BigUint as Zero>::zero)
    }

    /// All the ways together.
    pub fn total(&self) -> BigUint {
        self.weights.iter().sum()
    }

    /// The chance of `v`.
    pub fn probability(&self, v: i64) -> Fraction {
        Fraction::new(self.weight(v), self.total())
    }
}
