//! Odds reports as typed JSON: each chance as a number and, when exact, as the fraction `p/q`.

use crate::odds::{Fraction, How, OutcomeOdds, Report};
use serde::Serialize;

/// The answer to one odds question.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Odds {
    /// What was asked, in words.
    pub question: String,
    /// Whether every chance is exact.
    pub exact: bool,
    /// How the chances were worked out.
    pub method: Method,
    /// The chance of each outcome, in the order the rules list them.
    pub outcomes: Vec<Chance>,
    /// Distributions of the numbers the question produces (total, margin, …).
    pub values: Vec<ValueOdds>,
    /// What the check does to the one who makes it: each attribute its outcomes change, with the
    /// chance of each value it is left with. Empty for a check made by no one or that changes
    /// nothing, and for dice and scenarios.
    pub effects: Vec<EffectOdds>,
    /// Each input of the check the question did not give, with the value it took (also named in
    /// `question`); empty when every input was given, and for dice and scenarios.
    pub defaults: Vec<DefaultedInput>,
}

/// An input an odds question did not give.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DefaultedInput {
    /// The input's name.
    pub input: String,
    /// The value it took, as people read it.
    pub value: String,
    /// Where the value came from: `default` (the input's own), or the kind of the (stand-in) unit
    /// who makes the check, whose attribute of that name it is.
    pub from: String,
}

/// How a report was worked out.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Method {
    /// Every chance is exact.
    Exact {
        /// For a whole scenario worked out by merging equal game states: the states followed.
        #[serde(skip_serializing_if = "Option::is_none")]
        states: Option<u64>,
        /// The chance (`p/q`) of runs still open when a `repeat` with no bound was let go: every
        /// chance is then an exact lower bound, short by at most this.
        #[serde(skip_serializing_if = "Option::is_none")]
        remainder: Option<String>,
    },
    /// Estimated by simulation.
    Estimate {
        /// Why exact was out of reach.
        reason: String,
        /// Simulated rolls.
        runs: u64,
        /// Their seed.
        seed: u64,
    },
}

/// The chance of one outcome (or group of outcomes).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Chance {
    /// The outcome's (or group's) name.
    pub outcome: String,
    /// The chance as a number from 0 to 1.
    pub probability: f64,
    /// The exact chance as `p/q` in lowest terms; `null` for an estimate.
    pub exact: Option<String>,
    /// For an estimate: runs that gave the outcome.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hits: Option<u64>,
    /// For an estimate: all runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runs: Option<u64>,
    /// For an estimate: the lower end of the 95% interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low: Option<f64>,
    /// For an estimate: the upper end of the 95% interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high: Option<f64>,
}

/// What a check leaves of one attribute of the one who makes it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EffectOdds {
    /// The attribute, as the rules name it: `unit.resolve_next`.
    pub target: String,
    /// Each value it is left with (numbers in order, names in their set's order, no before yes),
    /// with its chance; a roll that leaves it alone counts for the value it had.
    pub values: Vec<EffectChance>,
    /// The rolls whose effects could not be followed (their effects roll dice, …), if any: their
    /// chance and why. The values' chances then add up to less than 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unfollowed: Option<Unfollowed>,
}

/// The chance that an attribute is left with one value.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EffectChance {
    /// The value, as people read it (`yes`, `shaken`, `2`).
    pub value: String,
    /// The chance as a number from 0 to 1.
    pub probability: f64,
    /// The exact chance as `p/q` in lowest terms; `null` for an estimate.
    pub exact: Option<String>,
    /// For an estimate: runs that left this value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hits: Option<u64>,
    /// For an estimate: all runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runs: Option<u64>,
    /// For an estimate: the lower end of the 95% interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low: Option<f64>,
    /// For an estimate: the upper end of the 95% interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high: Option<f64>,
}

/// The rolls whose effects an odds question could not follow.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Unfollowed {
    /// Their chance as a number from 0 to 1.
    pub probability: f64,
    /// Their exact chance as `p/q`; `null` for an estimate.
    pub exact: Option<String>,
    /// Why, in words.
    pub why: String,
}

impl EffectOdds {
    /// The typed view of one attribute's chances.
    pub fn of(e: &crate::odds::EffectOdds) -> EffectOdds {
        EffectOdds {
            target: e.target.clone(),
            values: e
                .values
                .iter()
                .map(|v| {
                    let c = Chance::of(v);
                    EffectChance {
                        value: c.outcome,
                        probability: c.probability,
                        exact: c.exact,
                        hits: c.hits,
                        runs: c.runs,
                        low: c.low,
                        high: c.high,
                    }
                })
                .collect(),
            unfollowed: e.unfollowed.as_ref().map(|u| {
                let c = Chance::of(&OutcomeOdds { name: String::new(), chance: u.chance.clone() });
                Unfollowed { probability: c.probability, exact: c.exact, why: u.why.clone() }
            }),
        }
    }
}

/// The distribution of one number.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ValueOdds {
    /// Its name (`total`, `margin`, …).
    pub name: String,
    /// Each value it can take, with its chance, lowest first.
    pub distribution: Vec<Point>,
}

/// One value of a distribution and its chance.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Point {
    /// The value.
    pub value: i64,
    /// Its chance as a number.
    pub probability: f64,
    /// Its exact chance as `p/q`, when exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<String>,
    /// How many simulated runs gave it, when estimated (a decimal string).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<String>,
}

impl Chance {
    /// The typed view of one outcome's chance.
    pub fn of(o: &OutcomeOdds) -> Chance {
        match &o.chance {
            crate::odds::Chance::Exact(f) => Chance {
                outcome: o.name.clone(),
                probability: f.to_f64(),
                exact: Some(f.to_string()),
                hits: None,
                runs: None,
                low: None,
                high: None,
            },
            c @ crate::odds::Chance::Estimate { hits, runs, low, high } => Chance {
                outcome: o.name.clone(),
                probability: c.value(),
                exact: None,
                hits: Some(*hits),
                runs: Some(*runs),
                low: Some(*low),
                high: Some(*high),
            },
        }
    }
}

/// The typed view of an odds report.
///
/// ```
/// let rules = mettle::Ruleset::from_str("o.mettle", "check c { roll d6  outcome hi when total >= 5  otherwise lo }").unwrap();
/// let mut s = mettle::Session::new(&rules, 0);
/// let r = mettle::odds::ask(&mut s, "c", None, &[], 0).unwrap();
/// let json = serde_json::to_value(mettle::wire::odds(&r)).unwrap();
/// assert_eq!(json["outcomes"][0]["exact"], "1/3");
/// assert_eq!(json["method"]["kind"], "exact");
/// ```
pub fn odds(report: &Report) -> Odds {
    let exact = matches!(report.how, How::Exact);
    Odds {
        question: report.question.clone(),
        exact,
        method: match &report.how {
            How::Exact => Method::Exact {
                states: report.merging.as_ref().map(|m| m.states),
                remainder: report.merging.as_ref().and_then(|m| m.remainder.as_ref()).map(|r| r.to_string()),
            },
            How::Estimated { reason, runs, seed } => {
                Method::Estimate { reason: reason.clone(), runs: *runs, seed: *seed }
            }
        },
        outcomes: report.outcomes.iter().map(Chance::of).collect(),
        values: report
            .values
            .iter()
            .map(|(name, d)| ValueOdds {
                name: name.clone(),
                distribution: d
                    .iter()
                    .filter(|(_, w)| w.bits() > 0)
                    .map(|(v, w)| {
                        let f = Fraction::new(w.clone(), d.total());
                        Point {
                            value: v,
                            probability: f.to_f64(),
                            exact: exact.then(|| f.to_string()),
                            count: (!exact).then(|| w.to_string()),
                        }
                    })
                    .collect(),
            })
            .collect(),
        effects: report.effects.iter().map(EffectOdds::of).collect(),
        defaults: report
            .defaults
            .iter()
            .map(|d| DefaultedInput {
                input: d.name.clone(),
                value: d.value.clone(),
                from: d.from.clone().unwrap_or_else(|| "default".into()),
            })
            .collect(),
    }
}
