//! What an odds question answers, as data: the chance of each outcome and the distribution of each
//! value, exact or estimated. The CLI renders it (bars, JSON, SVG); the library hands it to hosts.

use super::{Dist, Fraction};

/// The answer to one odds question.
#[derive(Debug, Clone)]
pub struct Report {
    /// What was asked, in words (`check morale with spi = 3`, `4d6kh3`).
    pub question: String,
    /// The chance of each outcome, in the order the rules list them.
    pub outcomes: Vec<OutcomeOdds>,
    /// Distributions of the numbers the question produces (total, margin, …).
    pub values: Vec<(String, Dist)>,
    /// Exact, or estimated by simulation (and why).
    pub how: How,
}

/// The chance of one outcome.
#[derive(Debug, Clone)]
pub struct OutcomeOdds {
    /// The outcome's name.
    pub name: String,
    /// Its chance.
    pub chance: Chance,
}

/// A chance: exact, or a simulated frequency with a 95% confidence interval.
#[derive(Debug, Clone, PartialEq)]
pub enum Chance {
    /// An exact fraction.
    Exact(Fraction),
    /// `hits` of `runs`, with the interval that holds the true chance 95% of the time.
    Estimate {
        /// Runs that gave the outcome.
        hits: u64,
        /// All runs.
        runs: u64,
        /// Lower end of the 95% interval.
        low: f64,
        /// Upper end of the 95% interval.
        high: f64,
    },
}

impl Chance {
    /// The chance as a number (the frequency, for an estimate).
    pub fn value(&self) -> f64 {
        match self {
            Chance::Exact(f) => f.to_f64(),
            Chance::Estimate { hits, runs, .. } => *hits as f64 / (*runs).max(1) as f64,
        }
    }
}

/// How a report was worked out.
#[derive(Debug, Clone, PartialEq)]
pub enum How {
    /// Every chance is exact.
    Exact,
    /// Exact was out of reach; the chances are frequencies over `runs` simulated rolls.
    Estimated {
        /// Why exact was out of reach.
        reason: String,
        /// Simulated rolls.
        runs: u64,
        /// The seed they were rolled with.
        seed: u64,
    },
}
