//! Fast sampling of a check: its exact analysis settles every distinct roll once, so a sample only
//! rolls the dice (the same draws from the same generator as a real roll) and looks up the outcome.

use super::check::{CheckOdds, check_odds};
use crate::diagnostics::Diagnostic;
use crate::dice::DieStep;
use crate::program::{CheckId, Value};
use crate::session::{DiceSpec, FaceSpec, Session};
use rand_chacha::ChaCha8Rng;
use std::convert::Infallible;
use std::sync::Arc;

/// A check compiled for sampling: roll its dice, read the outcome from a table.
///
/// ```
/// let rules = mettle::Ruleset::from_str("s.mettle", "check c { roll 2d6  outcome high when total >= 10  otherwise low }").unwrap();
/// let mut s = mettle::Session::new(&rules, 7);
/// let sampler = s.sampler("c", None, &[]).unwrap().unwrap();
/// let highs = (0..6000).filter(|_| s.sample(&sampler) == 0).count();
/// assert!((900..1100).contains(&highs)); // 1/6 of 6000 is 1000
/// ```
#[derive(Debug, Clone)]
pub struct Sampler {
    check: CheckId,
    count: usize,
    faces: Faces,
    /// The lowest face: `slot` is indexed by `face - fmin`.
    fmin: i64,
    /// Position of each face (from `fmin`) in the layout's faces.
    slot: Vec<usize>,
    /// The rerolls and raises each die goes through, in order.
    steps: Vec<DieStep>,
    step: Vec<usize>,
    /// What each of the first dice adds instead of `step` (dice read by their place).
    lead: Vec<Vec<usize>>,
    /// The exact odds, whose table gives the outcome of each packed roll.
    odds: Arc<CheckOdds>,
}

#[derive(Debug, Clone)]
enum Faces {
    Count(i64),
    List(Arc<[i64]>),
}

impl Sampler {
    /// Builds a sampler from exact odds, if their table can be sampled.
    fn new(check: CheckId, odds: CheckOdds, spec: Option<&DiceSpec>) -> Option<Sampler> {
        if !odds.table.sampleable {
            return None;
        }
        let (count, faces, steps) = match spec {
            Some(spec) => (
                spec.count,
                match &spec.faces {
                    FaceSpec::Count(n) => Faces::Count(*n),
                    FaceSpec::List(l) => Faces::List(l.clone()),
                },
                spec.mods.iter().filter_map(DieStep::of).collect(),
            ),
            None => (0, Faces::Count(1), vec![]),
        };
        let (fmin, slot, step, lead) = match &odds.table.layout {
            Some(l) => {
                let fmin = l.faces[0];
                let slot = (fmin..=*l.faces.last().unwrap_or(&fmin)).map(|f| l.face_index(f)).collect();
                (fmin, slot, l.step.clone(), l.lead.clone())
            }
            None => (1, vec![0], vec![0], vec![]),
        };
        Some(Sampler { check, count, faces, fmin, slot, steps, step, lead, odds: Arc::new(odds) })
    }

    /// The check it samples.
    pub fn check(&self) -> CheckId {
        self.check
    }

    /// The exact odds it was built from.
    pub fn odds(&self) -> &CheckOdds {
        &self.odds
    }

    /// One die, drawn as the roller draws it ([`crate::dice::draw`]).
    #[inline]
    fn face(&self, rng: &mut ChaCha8Rng) -> i64 {
        match &self.faces {
            Faces::Count(n) => crate::dice::draw(rng, crate::dice::Faces::Count(*n)),
            Faces::List(l) => crate::dice::draw(rng, crate::dice::Faces::List(l)),
        }
    }

    /// Rolls the dice with `rng` and gives the index of the outcome (in the check's outcomes).
    #[inline]
    pub(crate) fn sample(&self, rng: &mut ChaCha8Rng) -> usize {
        self.odds.table.outcome[self.roll(rng)] as usize
    }

    /// Rolls the dice with `rng`: the index of the outcome, and the total.
    #[inline]
    pub(crate) fn sample_total(&self, rng: &mut ChaCha8Rng) -> (usize, i64) {
        let at = self.roll(rng);
        (self.odds.table.outcome[at] as usize, self.odds.table.total[at])
    }

    /// Rolls the dice with `rng` and gives the roll's place in the table.
    #[inline]
    fn roll(&self, rng: &mut ChaCha8Rng) -> usize {
        let mut idx = 0;
        if self.steps.is_empty() {
            for i in 0..self.count {
                let at = self.slot[(self.face(rng) - self.fmin) as usize];
                idx += match self.lead.get(i) {
                    Some(l) => l[at],
                    None => self.step[at],
                };
            }
        } else {
            // As the roller does: every die first, then each step over the dice in order.
            let mut faces: Vec<i64> = (0..self.count).map(|_| self.face(rng)).collect();
            for step in &self.steps {
                for f in faces.iter_mut() {
                    let drawn = step.apply(*f, &mut || Ok::<i64, Infallible>(self.face(rng)), |_| ());
                    *f = match drawn {
                        Ok(f) => f,
                        Err(never) => match never {},
                    };
                }
            }
            for (i, f) in faces.into_iter().enumerate() {
                let at = self.slot[(f - self.fmin) as usize];
                idx += match self.lead.get(i) {
                    Some(l) => l[at],
                    None => self.step[at],
                };
            }
        }
        idx
    }
}

impl Session {
    /// A sampler for check `check` made by `subject` with `inputs`, or `None` when the check's exact
    /// analysis is out of reach (then roll it with [`Session::roll_quietly`]).
    pub fn sampler(
        &mut self,
        check: &str,
        subject: Option<u32>,
        inputs: &[(&str, Value)],
    ) -> Result<Option<Sampler>, Diagnostic> {
        let (c, args) = self.resolve(check, inputs)?;
        let prepared = self.prepare(c, subject, args)?;
        Ok(match check_odds(self, &prepared)? {
            Ok(odds) => Sampler::new(c, odds, prepared.dice.as_ref()),
            Err(_) => None,
        })
    }

    /// One sample of `sampler` with this session's generator: the index of the outcome.
    #[inline]
    pub fn sample(&mut self, sampler: &Sampler) -> usize {
        sampler.sample(self.rng())
    }
}
