//! Exact odds: distributions with integer weights, computed from dice expressions and checks
//! without listing every roll.

pub mod dist;
pub mod expr;
mod poly;
pub mod pool;
pub mod weight;

pub use dist::Dist;
pub use weight::{Fraction, Weight};
pub mod report;
pub use report::{Chance, How, OutcomeOdds, Report};
