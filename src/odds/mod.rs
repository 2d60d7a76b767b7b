//! Exact odds: distributions with integer weights, computed from dice expressions and checks
//! without listing every roll.

pub mod dist;
pub mod weight;

pub use dist::Dist;
pub use weight::{Fraction, Weight};
pub mod report;
pub use report::{Chance, How, OutcomeOdds, Report};
pub mod check;
mod layout;
mod scan;
pub use check::{CheckOdds, check_odds};
mod ask;
pub use ask::{FALLBACK_RUNS, ask, exact_report};
mod sampler;
pub use sampler::Sampler;
mod lint;
pub use lint::unreachable;
mod walk;
pub use walk::{Ends, MAX_PATHS, scenario_ends};
