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
    /// The chance of each group of outcomes the check declares (`group pass = holds, inspired`),
    /// in order; add more with [`Report::group`].
    pub groups: Vec<OutcomeOdds>,
    /// Distributions of the numbers the question produces (total, margin, …).
    pub values: Vec<(String, Dist)>,
    /// What the check does to the one who makes it: each attribute its outcomes change (and any
    /// other one a roll changed), with the chance of each value it is left with. Empty for a check
    /// made by no one, or whose outcomes change nothing.
    pub effects: Vec<EffectOdds>,
    /// Exact, or estimated by simulation (and why).
    pub how: How,
    /// Each input of the check the question left out, with the value the roll took for it (also
    /// named in the question): none are used unsaid.
    pub defaults: Vec<DefaultedInput>,
    /// For a whole scenario worked out exactly by merging equal game states: how many states, and
    /// what was left unresolved (`None` for everything else).
    pub merging: Option<Merging>,
}

/// How the exact odds of a whole scenario were found by merging the paths that reach equal game
/// states ([`crate::odds::scenario`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Merging {
    /// Game states followed, counted at every place where paths merged.
    pub states: u64,
    /// The chance of the paths still open when they weighed less than 2^-60 of all (a `repeat`
    /// with no bound on its turns): every chance reported is an exact lower bound, short by at
    /// most this. `None` when nothing was left.
    pub remainder: Option<Fraction>,
}

/// An input of a check that an odds question did not give: the value it took and where from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefaultedInput {
    /// The input's name.
    pub name: String,
    /// Its value, as people read it.
    pub value: String,
    /// `None`: the input's own default; `Some(kind)`: the attribute of that name of the (stand-in)
    /// `kind` who makes the check.
    pub from: Option<String>,
}

/// What a check leaves of one attribute of the one who makes it.
#[derive(Debug, Clone, PartialEq)]
pub struct EffectOdds {
    /// The attribute, as the rules name it: `unit.resolve_next`.
    pub target: String,
    /// Each value it is left with, as people read it (numbers in order, names in their set's
    /// order, no before yes), with its chance; a roll that leaves it alone counts for the value it
    /// had.
    pub values: Vec<OutcomeOdds>,
    /// The rolls whose effects could not be followed (they roll dice of their own, …): their chance
    /// and why. The values' chances then add up to less than 1.
    pub unfollowed: Option<Unfollowed>,
}

impl EffectOdds {
    /// The chance that the attribute is left with `value` (as people read it), 0 when it never is.
    pub fn chance_of(&self, value: &str) -> Chance {
        match self.values.iter().find(|v| v.name == value) {
            Some(v) => v.chance.clone(),
            None => match self.values.first().map(|v| &v.chance) {
                Some(Chance::Estimate { runs, .. }) => {
                    let (low, high) = crate::sim::wilson(0, *runs);
                    Chance::Estimate { hits: 0, runs: *runs, low, high }
                }
                _ => Chance::Exact(Fraction::new(0u32.into(), 1u32.into())),
            },
        }
    }
}

/// The rolls whose effects an odds question could not follow.
#[derive(Debug, Clone, PartialEq)]
pub struct Unfollowed {
    /// Their chance.
    pub chance: Chance,
    /// Why, in words.
    pub why: String,
}

/// The chance of one outcome.
#[derive(Debug, Clone, PartialEq)]
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

impl Report {
    /// The chance that the outcome is any of `members`, called `name` (`pass = holds, inspired`):
    /// exact fractions added exactly, estimates counted together with their own 95% interval.
    /// `Err` names a member that is not an outcome of the report.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("g.mettle", "check c { roll d6  outcome hi when total >= 5  outcome mid when total >= 3  otherwise lo }").unwrap();
    /// let mut s = mettle::Session::new(&rules, 0);
    /// let r = mettle::odds::ask(&mut s, "c", None, &[], 0).unwrap();
    /// let g = r.group("pass", &["hi", "mid"]).unwrap();
    /// assert_eq!(g.chance, mettle::odds::Chance::Exact(mettle::odds::Fraction::new(2u32.into(), 3u32.into())));
    /// assert!(r.group("pass", &["hi", "md"]).unwrap_err().contains("did you mean `mid`?"));
    /// ```
    pub fn group(&self, name: &str, members: &[&str]) -> Result<OutcomeOdds, String> {
        let mut picked = vec![];
        for m in members {
            match self.outcomes.iter().find(|o| o.name == *m) {
                Some(o) if !picked.iter().any(|p: &&OutcomeOdds| p.name == o.name) => picked.push(o),
                Some(_) => {}
                None => {
                    let known: Vec<&str> = self.outcomes.iter().map(|o| o.name.as_str()).collect();
                    return Err(format!(
                        "group `{name}`: there is no outcome `{m}`; {}",
                        crate::diagnostics::suggest(m, "outcome", &known)
                    ));
                }
            }
        }
        let chance = match &self.how {
            How::Exact => {
                let (mut num, mut den) = (num_bigint::BigUint::from(0u32), num_bigint::BigUint::from(1u32));
                for o in &picked {
                    if let Chance::Exact(f) = &o.chance {
                        num = &num * &f.den + &f.num * &den;
                        den = &den * &f.den;
                    }
                }
                Chance::Exact(Fraction::new(num, den))
            }
            How::Estimated { runs, .. } => {
                let hits: u64 = picked
                    .iter()
                    .map(|o| match o.chance {
                        Chance::Estimate { hits, .. } => hits,
                        Chance::Exact(_) => 0,
                    })
                    .sum();
                let (low, high) = crate::sim::wilson(hits, *runs);
                Chance::Estimate { hits, runs: *runs, low, high }
            }
        };
        Ok(OutcomeOdds { name: name.to_string(), chance })
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
