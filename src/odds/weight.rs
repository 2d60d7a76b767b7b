//! Exact weights: a fixed-width `u128` path that reports overflow, and `BigUint` when that happens.
//! Algorithms are written once over [`Weight`], tried with `u128` first and run again with `BigUint`
//! only when a sum or product does not fit.

use num_bigint::BigUint;
use num_traits::{One, Zero};

/// An exact, non-negative count of ways.
pub trait Weight: Clone + PartialEq + std::fmt::Debug + Send + Sync + 'static {
    /// No ways.
    fn zero() -> Self;
    /// One way.
    fn one() -> Self;
    /// A small count.
    fn from_u64(n: u64) -> Self;
    /// `self + o`, or `None` when it does not fit.
    fn add(&self, o: &Self) -> Option<Self>;
    /// `self * o`, or `None` when it does not fit.
    fn mul(&self, o: &Self) -> Option<Self>;
    /// Whether this is zero.
    fn is_zero(&self) -> bool;
    /// The weight as a big integer.
    fn to_big(&self) -> BigUint;
    /// `self - o`, or `None` when `o` is larger.
    fn sub(&self, o: &Self) -> Option<Self>;
    /// `self / o`, rounded down (`o` is never zero where the engine divides: it divides exactly).
    fn div(&self, o: &Self) -> Self;
    /// The greatest common divisor (`gcd(0, x) = x`).
    fn gcd(&self, o: &Self) -> Self;
    /// `self += o`, or `None` when it does not fit (then `self` is left unspecified).
    fn add_to(&mut self, o: &Self) -> Option<()> {
        *self = self.add(o)?;
        Some(())
    }
}

impl Weight for u128 {
    fn zero() -> Self {
        0
    }
    fn one() -> Self {
        1
    }
    fn from_u64(n: u64) -> Self {
        n as u128
    }
    fn add(&self, o: &Self) -> Option<Self> {
        if !super::work::charge(1) {
            return None;
        }
        self.checked_add(*o)
    }
    fn mul(&self, o: &Self) -> Option<Self> {
        if !super::work::charge(1) {
            return None;
        }
        self.checked_mul(*o)
    }
    fn is_zero(&self) -> bool {
        *self == 0
    }
    fn to_big(&self) -> BigUint {
        BigUint::from(*self)
    }
    fn sub(&self, o: &Self) -> Option<Self> {
        self.checked_sub(*o)
    }
    fn div(&self, o: &Self) -> Self {
        self.checked_div(*o).unwrap_or(0)
    }
    fn gcd(&self, o: &Self) -> Self {
        let (mut a, mut b) = (*self, *o);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    }
}

impl Weight for BigUint {
    fn zero() -> Self {
        Zero::zero()
    }
    fn one() -> Self {
        One::one()
    }
    fn from_u64(n: u64) -> Self {
        BigUint::from(n)
    }
    fn add(&self, o: &Self) -> Option<Self> {
        super::work::charge(BIG_OP + words(self).max(words(o))).then(|| self + o)
    }
    fn mul(&self, o: &Self) -> Option<Self> {
        super::work::charge(BIG_OP + words(self).saturating_mul(words(o))).then(|| self * o)
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    fn to_big(&self) -> BigUint {
        self.clone()
    }
    fn sub(&self, o: &Self) -> Option<Self> {
        (super::work::charge(words(self)) && self >= o).then(|| self - o)
    }
    fn div(&self, o: &Self) -> Self {
        super::work::charge(words(self).saturating_mul(words(o)));
        if Zero::is_zero(o) { Zero::zero() } else { self / o }
    }
    fn gcd(&self, o: &Self) -> Self {
        // Binary gcd: a step per bit, each over the words.
        super::work::charge(words(self).saturating_mul(words(o)).saturating_mul(32));
        num_integer::Integer::gcd(self, o)
    }
    fn add_to(&mut self, o: &Self) -> Option<()> {
        if !super::work::charge(words(self).max(words(o))) {
            return None;
        }
        *self += o;
        Some(())
    }
}

/// The work of one operation on big weights besides their length: a new number is allocated.
const BIG_OP: u64 = 30;

/// The work of one operation on `b`: its length in 64-bit words, at least 1.
fn words(b: &BigUint) -> u64 {
    1 + b.bits() / 64
}

/// A probability as a fraction in lowest terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fraction {
    /// Numerator.
    pub num: BigUint,
    /// Denominator (never zero).
    pub den: BigUint,
}

impl Fraction {
    /// `num / den`, reduced.
    pub fn new(num: BigUint, den: BigUint) -> Fraction {
        let g = num_integer::Integer::gcd(&num, &den);
        if Zero::is_zero(&g) || g.is_one() {
            return Fraction { num, den };
        }
        Fraction { num: num / &g, den: den / &g }
    }
    /// The fraction in scientific notation with `digits` significant digits, cut (not rounded) so
    /// that it never claims more than the fraction is: `1/6^12` is `4.59e-10`, however small (a
    /// chance too small for an `f64` still shows its size); `0` for zero.
    ///
    /// ```
    /// use mettle::odds::Fraction;
    /// let f = Fraction::new(1u32.into(), 2_176_782_336u64.into());
    /// assert_eq!(f.scientific(3), "4.59e-10");
    /// assert_eq!(Fraction::new(1u32.into(), 2u32.into()).scientific(2), "5.0e-1");
    /// assert_eq!(Fraction::new(0u32.into(), 2u32.into()).scientific(2), "0");
    /// ```
    pub fn scientific(&self, digits: usize) -> String {
        if Zero::is_zero(&self.num) || Zero::is_zero(&self.den) {
            return "0".into();
        }
        let digits = digits.clamp(1, 30);
        let ten = BigUint::from(10u32);
        let low = ten.pow(digits as u32 - 1);
        let high = &low * 10u32;
        // A first guess of the power of ten from the lengths in bits, put right below.
        let mut e =
            ((self.num.bits() as f64 - self.den.bits() as f64) * std::f64::consts::LOG10_2).floor() as i64;
        loop {
            // The significant digits: ⌊num · 10^(digits - 1 - e) / den⌋.
            let shift = digits as i64 - 1 - e;
            let mant = if shift >= 0 {
                (&self.num * ten.pow(shift as u32)) / &self.den
            } else {
                &self.num / (&self.den * ten.pow((-shift) as u32))
            };
            if mant >= high {
                e += 1;
            } else if mant < low {
                e -= 1;
            } else {
                let m = mant.to_string();
                let (head, tail) = m.split_at(1);
                return if tail.is_empty() { format!("{head}e{e}") } else { format!("{head}.{tail}e{e}") };
            }
        }
    }

    /// The nearest `f64`, for display and JSON only.
    pub fn to_f64(&self) -> f64 {
        // Scale both down together so that huge denominators still give a precise quotient.
        let shift = self.den.bits().saturating_sub(900);
        let n = num_traits::ToPrimitive::to_f64(&(&self.num >> shift)).unwrap_or(0.0);
        let d = num_traits::ToPrimitive::to_f64(&(&self.den >> shift)).unwrap_or(1.0);
        if d == 0.0 { 0.0 } else { n / d }
    }
}

impl std::fmt::Display for Fraction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn u128_reports_overflow() {
        assert_eq!(Weight::mul(&u128::MAX, &2u128), None);
        assert_eq!(Weight::add(&3u128, &4u128), Some(7));
    }

    #[test]
    fn fractions_are_reduced_and_printed() {
        let f = Fraction::new(BigUint::from(6u32), BigUint::from(36u32));
        assert_eq!(f.to_string(), "1/6");
        assert!((f.to_f64() - 1.0 / 6.0).abs() < 1e-15);
        let huge = BigUint::from(6u32).pow(2000);
        let f = Fraction::new(&huge / 3u32, huge);
        assert_eq!(f.to_string(), "1/3");
    }

    #[test]
    fn scientific_notation_is_cut_and_reaches_below_f64() {
        let f = |n: u32, d: BigUint| Fraction::new(BigUint::from(n), d);
        assert_eq!(f(1, BigUint::from(3u32)).scientific(4), "3.333e-1");
        assert_eq!(f(2, BigUint::from(3u32)).scientific(4), "6.666e-1");
        assert_eq!(f(1, BigUint::from(1u32)).scientific(3), "1.00e0");
        assert_eq!(f(1, BigUint::from(1000u32)).scientific(1), "1e-3");
        assert_eq!(f(999, BigUint::from(1000u32)).scientific(2), "9.9e-1");
        let tiny = f(1, BigUint::from(10u32).pow(700));
        assert_eq!(tiny.to_f64(), 0.0);
        assert_eq!(tiny.scientific(2), "1.0e-700");
    }
}
