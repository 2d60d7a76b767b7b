//! Exact odds: distributions with integer weights, computed from dice expressions, checks and short
//! scenarios without listing every roll; samplers and estimates where exact is out of reach.

mod ask;
pub mod check;
mod cover;
pub mod dist;
pub mod expr;
mod layout;
mod lint;
mod poly;
pub mod pool;
pub mod report;
mod sampler;
mod scan;
mod sorted;
mod walk;
pub mod weight;
pub mod work;

pub use ask::{FALLBACK_RUNS, ask, exact_report};
pub use check::{CheckOdds, check_odds};
pub(crate) use cover::settle_missing_otherwise;
pub use dist::Dist;
pub use lint::unreachable;
pub use report::{Chance, How, OutcomeOdds, Report};
pub use sampler::Sampler;
pub use walk::{Ends, MAX_PATHS, scenario_ends};
pub use weight::{Fraction, Weight};
