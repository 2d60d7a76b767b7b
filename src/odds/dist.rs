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
    pub fn from_weights<W: Weight>(lo: i64, weights: Vec<W>) -> Dist {
        let first = weights.iter().position(|w| !w.is_zero());
        let Some(first) = first else { return Dist { lo: 0, weights: vec![] } };
        let last = weights.iter().rposition(|w| !w.is_zero()).unwrap_or(first);
        Dist { lo: lo + first as i64, weights: weights[first..=last].iter().map(Weight::to_big).collect() }
    }

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
