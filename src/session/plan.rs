//! A check worked out up to its dice, for exact odds and fast sampling: which dice it rolls, and a way
//! to settle any roll of them (total, target, outcome) without changing the session.

use super::Session;
use super::run::ANY_RUN;
use super::run::{Runner, Setup};
use crate::ast::{DiceMod, Span};
use crate::diagnostics::Diagnostic;
use crate::dice::Faces;
use crate::program::*;
use std::sync::Arc;

/// The faces of the dice a check rolls.
#[derive(Debug, Clone, PartialEq)]
pub enum FaceSpec {
    /// `dN`: 1 to N.
    Count(i64),
    /// `d[…]`: these faces, each as likely.
    List(Arc<[i64]>),
}

impl FaceSpec {
    /// As the roller takes them.
    pub fn faces(&self) -> Faces<'_> {
        match self {
            FaceSpec::Count(n) => Faces::Count(*n),
            FaceSpec::List(l) => Faces::List(l),
        }
    }

    /// Every face, lowest first, once per way of showing it.
    pub fn all(&self) -> Vec<i64> {
        match self {
            FaceSpec::Count(n) => (1..=*n).collect(),
            FaceSpec::List(l) => {
                let mut v = l.to_vec();
                v.sort_unstable();
                v
            }
        }
    }
}

/// The dice of one roll of a check, modifiers included.
#[derive(Debug, Clone, PartialEq)]
pub struct DiceSpec {
    /// How many dice.
    pub count: usize,
    /// Their faces.
    pub faces: FaceSpec,
    /// Notation modifiers (keep, drop, explode, reroll, count successes), in order.
    pub mods: Vec<DiceMod>,
}

/// A check worked out up to its dice, by [`Session::prepare`].
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The check.
    pub check: CheckId,
    /// Who makes it.
    pub subject: Option<u32>,
    /// The dice it rolls, if any.
    pub dice: Option<DiceSpec>,
    /// The modifiers that apply.
    pub modifiers: Vec<AppliedModifier>,
    /// Whether [`Session::settle_all`] also follows the outcome's effects on who makes the check.
    pub(crate) effects: bool,
    frame: Vec<Value>,
    setup: Setup,
}

impl Prepared {
    /// The values of the check's inputs as the roll takes them (given, by default, or from who makes
    /// it), in the order they are declared.
    pub(crate) fn input_values(&self, count: usize) -> &[Value] {
        &self.frame[..count.min(self.frame.len())]
    }
}

/// What a quiet roll of a check comes to, by [`Session::roll_quietly`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuietRoll {
    /// Dice plus flat modifiers.
    pub total: i64,
    /// The target, if the check has one.
    pub target: Option<i64>,
    /// Index of the outcome in the check's outcomes.
    pub outcome: usize,
}

/// What one roll of a prepared check comes to, by [`Session::settle`].
#[derive(Debug, Clone)]
pub struct Settled {
    /// Dice plus flat modifiers.
    pub total: i64,
    /// The target, if the check has one.
    pub target: Option<i64>,
    /// Index of the outcome in the check's outcomes.
    pub outcome: usize,
    /// Every slot of the check (its `let` values among them).
    pub slots: Vec<Value>,
    /// Whether `reroll when …` rolls the check again after this roll.
    pub reroll: bool,
    /// With [`Prepared::effects`], for a check someone makes whose outcome has effects: the
    /// attributes of who makes it after them, or why they cannot be followed from the roll alone.
    pub after: Option<Result<Vec<Value>, String>>,
}

impl Session {
    /// A runner for a quiet roll: no log kept (`log` stays empty), the session's spare buffers
    /// reused, within the ruleset's budget and the session's cancel flag.
    fn quiet_runner<'a>(&'a mut self, log: &'a mut Vec<super::LogLine>) -> Runner<'a> {
        let mut r = Runner::new(
            self.rules.program(),
            self.rules.lowered(),
            &mut self.state,
            log,
            false,
            &mut self.spare,
        );
        r.limit(self.rules.budget(), &self.cancel);
        r
    }

    /// Works out check `check` up to its dice (inputs, the `let`s before the roll, modifiers) for
    /// `subject`, without rolling or changing anything.
    pub(crate) fn prepare(
        &mut self,
        check: CheckId,
        subject: Option<u32>,
        inputs: Vec<(u32, Value)>,
    ) -> Result<Prepared, Diagnostic> {
        self.untouched(|r| {
            let (mut frame, setup) = r.prepare_check(check, subject, inputs, Span::default(), true)?;
            let dice = match &r.program().checks[check as usize].roll {
                Some(roll) => {
                    let (count, sides) = r.dice_spec(&roll.dice, setup.extra, &mut frame)?;
                    let faces = match &roll.dice.sides {
                        SidesExpr::Faces(l) => FaceSpec::List(l.clone()),
                        SidesExpr::Count(_) => FaceSpec::Count(sides),
                    };
                    Some(DiceSpec { count, faces, mods: roll.dice.mods.clone() })
                }
                None => None,
            };
            Ok(Prepared {
                check,
                subject,
                dice,
                modifiers: setup.applied.clone(),
                effects: false,
                frame,
                setup,
            })
        })
    }

    /// Settles one roll of a prepared check: `pool` is what the dice showed (`None` for a check without
    /// dice). Applies no effects and changes nothing.
    pub(crate) fn settle(&mut self, prepared: &Prepared, pool: Option<Pool>) -> Result<Settled, Diagnostic> {
        Ok(self.settle_all(prepared, std::iter::once(pool))?.remove(0))
    }

    /// Settles many rolls of a prepared check, in order, as [`Session::settle`] does one.
    pub(crate) fn settle_all(
        &mut self,
        prepared: &Prepared,
        pools: impl IntoIterator<Item = Option<Pool>>,
    ) -> Result<Vec<Settled>, Diagnostic> {
        self.untouched(|r| {
            let mut out = vec![];
            for pool in pools {
                let mut slots = prepared.frame.clone();
                let (total, target, outcome) = r.settle_check::<ANY_RUN>(
                    prepared.check,
                    &prepared.setup,
                    pool.map(Arc::new),
                    &mut slots,
                )?;
                let reroll = r.rerolls(prepared.check, outcome, &mut slots)?;
                let check = &r.program().checks[prepared.check as usize];
                let after = match prepared.subject {
                    Some(who) if prepared.effects && !check.outcomes[outcome].body.is_empty() => {
                        let mut frame = slots.clone();
                        Some(r.effects_after(prepared.check, who, (total, target, outcome), &mut frame)?)
                    }
                    _ => None,
                };
                out.push(Settled { total, target, outcome, slots, reroll, after });
            }
            Ok(out)
        })
    }

    /// Runs `f` with the log off and puts the generator and forced dice back afterwards.
    fn untouched<T>(
        &mut self,
        f: impl FnOnce(&mut Runner<'_>) -> Result<T, Box<Diagnostic>>,
    ) -> Result<T, Diagnostic> {
        let rng = self.state.rng.clone();
        let forced = self.state.forced.clone();
        let walk = self.state.walk.clone();
        let mut log = vec![];
        // What this runner keeps is its own: nothing it does is kept.
        let mut kit = Default::default();
        let mut runner = Runner::new(
            self.rules.program(),
            self.rules.lowered(),
            &mut self.state,
            &mut log,
            false,
            &mut kit,
        )
        .limited(self.rules.budget(), &self.cancel);
        let r = f(&mut runner);
        runner.end();
        self.state.rng = rng;
        self.state.forced = forced;
        self.state.walk = walk;
        r.map_err(|e| *e)
    }
}

impl Session {
    /// Works out `e` (an expression of check `prepared.check`) with the check's slots as prepared.
    pub(crate) fn evaluate(&mut self, prepared: &Prepared, e: &Expr) -> Result<Value, Diagnostic> {
        self.untouched(|r| {
            let mut slots = prepared.frame.clone();
            r.eval(e, &mut slots)
        })
    }

    /// A copy of this session with its generator seeded from `seed` and its log off: a fresh start for a
    /// simulation from the same state.
    pub(crate) fn reseeded(&self, seed: u64) -> Session {
        let mut s = Session {
            rules: self.rules.clone(),
            state: self.state.clone(),
            log: vec![],
            log_start: 0,
            logging: false,
            cancel: self.cancel.clone(),
            clears_cancel: false,
            undone: vec![],
            // A simulation rolls with the generator, and tells nobody.
            hooks: Default::default(),
            waiting: None,
            spare: Default::default(),
        };
        s.state.rng = rand::SeedableRng::seed_from_u64(seed);
        s.state.forced.clear();
        s
    }

    /// Starts one path of a walk through every roll, for the next action (an event, a roll, a
    /// scenario): its dice show `faces`, in order, and the first die past them stops it (see
    /// [`Session::walk_needs`]). The walk ends with that action, whatever happens: the dice after it
    /// roll as usual again.
    pub(crate) fn walk(&mut self, faces: &[i64]) {
        self.state.walk =
            Some(crate::dice::Walk { faces: faces.iter().copied().collect(), ..Default::default() });
    }

    /// Starts a random path of a walk for the next action: its dice roll with the generator, and
    /// [`Session::walk_met`] tells how many faces each had.
    pub(crate) fn explore(&mut self) {
        self.state.walk = Some(crate::dice::Walk { explore: true, ..Default::default() });
    }

    /// The number of faces of each die an exploring path met.
    pub(crate) fn walk_met(&self) -> &[usize] {
        self.state.walk.as_ref().map_or(&[], |w| &w.met)
    }

    /// The faces of the die that stopped the walk's path, if one did.
    pub(crate) fn walk_needs(&self) -> Option<&[i64]> {
        self.state.walk.as_ref().and_then(|w| w.needs.as_deref())
    }

    /// How many faces of the die each face of [`Session::walk_needs`] stands for, when the walk
    /// offered one face of each class of faces (see `dice::Walk::class`); empty when each face
    /// stands for itself.
    pub(crate) fn walk_shares(&self) -> &[u64] {
        self.state.walk.as_ref().map_or(&[], |w| &w.shares)
    }

    /// Ends the walk, if one was under way: what it learnt stays readable.
    pub(super) fn end_walk(&mut self) {
        if let Some(w) = &mut self.state.walk {
            w.done = true;
        }
    }

    /// The session's generator, for samplers.
    pub(crate) fn rng(&mut self) -> &mut rand_chacha::ChaCha8Rng {
        &mut self.state.rng
    }

    /// Rolls check `check` for `subject` with the session's generator and settles it, applying no
    /// effects and writing no log: one run of a simulation. `inputs` are `(input index, value)`
    /// pairs, as [`Session::resolve`] gives them (a slice or a vector).
    ///
    /// Nothing of the roll is kept but its total, target and outcome, so a quiet roll allocates
    /// nothing once the session has rolled the check before: its frame and its dice are used again.
    pub(crate) fn roll_quietly(
        &mut self,
        check: CheckId,
        subject: Option<u32>,
        inputs: impl AsRef<[(u32, Value)]>,
    ) -> Result<QuietRoll, Diagnostic> {
        let mut log = vec![];
        let mut r = self.quiet_runner(&mut log);
        let rolled = (|| {
            let (mut slots, setup) = r.prepare_quietly(check, subject, inputs.as_ref())?;
            let (total, target, outcome) = r.roll_and_settle::<ANY_RUN>(check, &setup, &mut slots, None)?;
            r.keep_check_frame(check, slots);
            Ok(QuietRoll { total, target, outcome })
        })();
        r.end();
        // A walk is for one action.
        self.end_walk();
        rolled
    }
    /// [`Session::roll_quietly`], also following the outcome's effects on `subject` as exact odds
    /// do ([`Prepared::effects`]): the attributes they leave, or why they cannot be followed, and
    /// nothing changed. `None` for an outcome without effects.
    #[allow(clippy::type_complexity, reason = "the roll, and what its effects leave")]
    pub(crate) fn roll_quietly_following(
        &mut self,
        check: CheckId,
        subject: u32,
        inputs: impl AsRef<[(u32, Value)]>,
    ) -> Result<(QuietRoll, Option<Result<Vec<Value>, String>>), Diagnostic> {
        let mut log = vec![];
        let mut r = self.quiet_runner(&mut log);
        let rolled = (|| {
            let (mut slots, setup) = r.prepare_quietly(check, Some(subject), inputs.as_ref())?;
            let (total, target, outcome) = r.roll_and_settle::<ANY_RUN>(check, &setup, &mut slots, None)?;
            let after = if r.program().checks[check as usize].outcomes[outcome].body.is_empty() {
                None
            } else {
                let mut frame = slots.clone();
                Some(r.effects_after(check, subject, (total, target, outcome), &mut frame)?)
            };
            r.keep_check_frame(check, slots);
            Ok((QuietRoll { total, target, outcome }, after))
        })();
        r.end();
        self.end_walk();
        rolled
    }
}
