//! Exact odds: distributions with integer weights, computed from dice expressions, checks and short
//! scenarios without listing every roll; samplers and estimates where exact is out of reach.

mod ask;
pub(crate) mod check;
mod cover;
mod dice;
pub mod dist;
pub(crate) mod effects;
pub(crate) mod ends;
pub(crate) mod expr;
mod layout;
mod lint;
mod live;
mod poly;
pub(crate) mod pool;
pub(crate) mod reads;
pub mod report;
mod report_line;
mod sampler;
mod scan;
mod scenario;
mod sorted;
mod states;
mod sweep;
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
pub(crate) mod text;
mod walk;
pub(crate) mod weight;
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
pub(crate) mod whatif;
pub(crate) mod work;

pub use ask::{FALLBACK_RUNS, ask, defaults_text, exact_report};
pub use check::CheckOdds;
pub(crate) use cover::settle_missing_otherwise;
pub use dice::{DiceRolls, RolledDice, dice, roll_dice};
pub use dist::Dist;
pub use effects::{EffectColumns, MAX_EFFECT_VALUES, effect_chance, effect_columns};
pub use lint::unreachable;
pub use report::{Chance, DefaultedInput, EffectOdds, How, Merging, OutcomeOdds, Report, Unfollowed};
pub use report_line::with_report;
pub use sampler::Sampler;
pub use scenario::scenario;
pub use states::{EARLY_RUNS, EARLY_SHARE, MAX_STATES, Merged, REMAINDER_BITS, WORK_SHARE, scenario_states};
pub use sweep::{
    MAX_ROWS, Row, Sweep, Swept, defaults as sweep_defaults, question as sweep_question, stand_in, sweep,
    sweeps,
};
pub use walk::{Ends, MAX_PATHS, scenario_ends};
pub use weight::Fraction;
#[cfg_attr(not(feature = "internals"), allow(unused_imports))]
pub(crate) use weight::Weight;
