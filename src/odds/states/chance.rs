//! Exact chances of paths while merging equal game states: fractions in lowest terms, added up
//! over the least common denominator.

use super::super::{Fraction, work};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};

/// An exact chance as a fraction in lowest terms.
#[derive(Debug, Clone)]
pub(super) struct W {
    pub(super) num: BigUint,
    pub(super) den: BigUint,
}

impl Default for W {
    fn default() -> W {
        W::zero()
    }
}

impl W {
    pub(super) fn one() -> W {
        W { num: BigUint::one(), den: BigUint::one() }
    }
    /// The branch of this that `share` of `all` equally likely faces lead to (one face of `k`:
    /// `part(1, k)`).
    pub(super) fn part(&self, share: u64, all: u64) -> W {
        let all = all.max(1);
        let g = share.gcd(&all).max(1);
        let (share, all) = (BigUint::from(share / g), BigUint::from(all / g));
        // Each numerator against the other's denominator: the result is then in lowest terms.
        let (g1, g2) = (gcd(&self.num, &all), gcd(&share, &self.den));
        W { num: (&self.num / &g1) * (share / &g2), den: (&self.den / &g2) * (all / &g1) }
    }
    pub(super) fn add(&mut self, o: &W) {
        let words = (self.den.bits() + o.den.bits()) / 64 + 1;
        work::charge(words * 4);
        if self.den == o.den {
            self.num += &o.num;
            let g = gcd(&self.num, &self.den);
            if !g.is_one() {
                self.num /= &g;
                self.den /= &g;
            }
            return;
        }
        // Over the least common denominator: the chances of a `repeat` summed at once have
        // thousands of bits, and most of their denominators are shared.
        let g = gcd(&self.den, &o.den);
        let (mine, theirs) = (&self.den / &g, &o.den / &g);
        let t = &self.num * &theirs + &o.num * &mine;
        let g2 = gcd(&t, &g);
        self.num = t / &g2;
        self.den = mine * (&o.den / g2);
    }
    pub(super) fn zero() -> W {
        W { num: BigUint::zero(), den: BigUint::one() }
    }
    pub(super) fn is_zero(&self) -> bool {
        self.num.is_zero()
    }
    pub(super) fn mul(&self, o: &W) -> W {
        work::charge(((self.den.bits() + o.den.bits()) / 64 + 1) * 8);
        // Each numerator against the other's denominator: the result is then in lowest terms.
        let (g1, g2) = (gcd(&self.num, &o.den), gcd(&o.num, &self.den));
        W { num: (&self.num / &g1) * (&o.num / &g2), den: (&self.den / &g2) * (&o.den / &g1) }
    }
    pub(super) fn div(&self, o: &W) -> W {
        self.mul(&W { num: o.den.clone(), den: o.num.clone() })
    }
    pub(super) fn eq(&self, o: &W) -> bool {
        self.num == o.num && self.den == o.den
    }
    pub(super) fn fraction(&self) -> Fraction {
        Fraction::new(self.num.clone(), self.den.clone())
    }
}

/// The greatest common divisor of `a` and `b`, the larger first brought below the smaller by one
/// division when their sizes differ much (the binary method alone takes the larger down bit by bit,
/// and a chance times the sum of a `repeat`'s turns has thousands of bits).
fn gcd(a: &BigUint, b: &BigUint) -> BigUint {
    let (big, small) = if a.bits() >= b.bits() { (a, b) } else { (b, a) };
    if small.is_zero() {
        return big.clone();
    }
    if big.bits() > small.bits() + 64 { (big % small).gcd(small) } else { big.gcd(small) }
}
