//! Rolling dice terms: counts, custom faces and the notation modifiers (keep, drop, explode, reroll,
//! raise, count successes), drawing faces from forced dice first, then from the host's [`DiceSource`] if it
//! gave one, else from the session's seeded generator.

use crate::ast::{Cmp, DiceMod};
use crate::diagnostics::Diagnostic;
use crate::program::{Die, Pool};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// Most dice an exploding or rerolling die may add or roll again.
pub(crate) const MAX_CHAIN: usize = 100;

/// What a modifier does to each die on its own, wherever it stands among the others: `rN` and `roN`
/// roll a matching die again, `minN` raises a low one. The roller, the sampler of exact odds and the
/// exact odds themselves (`odds::pool`) all take a die through these steps, so what each means is
/// written here once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DieStep {
    /// Roll the die again while it matches, at most `tries` times.
    Reroll { cmp: Cmp, n: i64, tries: usize },
    /// A die showing less than N shows N.
    Raise(i64),
}

/// What a [`DieStep`] did to a die, for its explanation.
pub(crate) enum Change {
    /// It showed this face and was rolled again.
    Rerolled(i64),
    /// It showed this face and was raised.
    Raised(i64),
}

impl DieStep {
    /// The step modifier `m` takes each die through, if it works die by die (a keep, drop, explosion
    /// or count works on the pool as a whole).
    pub(crate) fn of(m: &DiceMod) -> Option<DieStep> {
        match *m {
            DiceMod::Reroll(cmp, n) => Some(DieStep::Reroll { cmp, n, tries: MAX_CHAIN }),
            DiceMod::RerollOnce(cmp, n) => Some(DieStep::Reroll { cmp, n, tries: 1 }),
            DiceMod::Raise(n) => Some(DieStep::Raise(n)),
            DiceMod::KeepHighest(_)
            | DiceMod::KeepLowest(_)
            | DiceMod::DropHighest(_)
            | DiceMod::DropLowest(_)
            | DiceMod::Explode(..)
            | DiceMod::CountSuccesses(..) => None,
        }
    }

    /// The face a die showing `face` ends with after this step, with new faces from `draw`; `note`
    /// hears of each face it leaves behind.
    pub(crate) fn apply<E>(
        self,
        mut face: i64,
        draw: &mut impl FnMut() -> Result<i64, E>,
        mut note: impl FnMut(Change),
    ) -> Result<i64, E> {
        match self {
            DieStep::Reroll { cmp, n, tries } => {
                let mut done = 0;
                while done < tries && cmp.test(face, n) {
                    note(Change::Rerolled(face));
                    face = draw()?;
                    done += 1;
                }
            }
            DieStep::Raise(n) if face < n => {
                note(Change::Raised(face));
                face = n;
            }
            DieStep::Raise(_) => {}
        }
        Ok(face)
    }
}

impl DiceMod {
    /// Whether it keeps or drops some dice (`kh`, `kl`, `dh`, `dl`).
    pub(crate) fn selects(&self) -> bool {
        match self {
            DiceMod::KeepHighest(_)
            | DiceMod::KeepLowest(_)
            | DiceMod::DropHighest(_)
            | DiceMod::DropLowest(_) => true,
            DiceMod::Explode(..)
            | DiceMod::Reroll(..)
            | DiceMod::RerollOnce(..)
            | DiceMod::Raise(_)
            | DiceMod::CountSuccesses(..) => false,
        }
    }
}

/// What a die of a pool counts for when only the pool's value is read: the test that makes it a
/// success, when the pool's value is its count of successes (`cs>=4`) and nothing else of the
/// modifiers looks at single faces. Faces that agree on this test give the same value whichever of
/// them a die shows, so an exhaustive walk may try one face of each class, weighted by the faces it
/// stands for (see [`Walk::class`]). `None` when the faces matter one by one: a sum, and any
/// reroll, raise, explosion, keep or drop (they look at the face itself, or at its rank among the
/// others).
pub(crate) fn success_test(mods: &[DiceMod]) -> Option<(Cmp, i64)> {
    if DiceMod::as_rolled(mods) { DiceMod::counting(mods) } else { None }
}

/// The faces of a die: `1..=n`, or a list.
#[derive(Debug, Clone, Copy)]
pub enum Faces<'a> {
    /// `dN`
    Count(i64),
    /// `d[…]`
    List(&'a [i64]),
}

impl Faces<'_> {
    /// The largest face.
    pub fn max(&self) -> i64 {
        match self {
            Faces::Count(n) => *n,
            Faces::List(l) => l.iter().copied().max().unwrap_or(0),
        }
    }
}

/// The die a [`DiceSource`] is asked to roll: its faces and the dice term it belongs to, as the
/// ruleset writes it (`2d6`, `(n)d6cs>=4`), so that a host can say which dice to pick up.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct DieRequest<'a> {
    /// The faces it can show.
    pub faces: Faces<'a>,
    /// The dice term, as written in the ruleset.
    pub notation: &'a str,
}

impl DieRequest<'_> {
    /// Whether the die can show `face`.
    ///
    /// ```
    /// use mettle::dice::{DieRequest, Faces};
    /// let d6 = DieRequest::new(Faces::Count(6), "d6");
    /// assert!(d6.can_show(6) && !d6.can_show(7));
    /// ```
    pub fn can_show(&self, face: i64) -> bool {
        match self.faces {
            Faces::Count(n) => (1..=n).contains(&face),
            Faces::List(l) => l.contains(&face),
        }
    }
}

impl<'a> DieRequest<'a> {
    /// A request for one die with `faces`, from the dice term `notation`.
    pub fn new(faces: Faces<'a>, notation: &'a str) -> Self {
        DieRequest { faces, notation }
    }
}

/// Where a session's dice come from, when the host supplies them: dice typed in by the players
/// ([`QueuedDice`]) or a generator of the host's own (any closure taking a [`DieRequest`]).
///
/// Without one, a session rolls with its own generator, seeded from the session's seed, which a save
/// keeps. A dice source is the host's: it is not saved, so after [`crate::Session::load`] the host
/// sets it again with [`crate::Session::set_dice_source`]. Forced dice
/// ([`crate::Session::force_dice`], a scenario's `dice`) still come first, and samplers, simulations
/// and odds always use the seeded generator.
///
/// ```
/// use mettle::{Ruleset, Session};
/// let rules = Ruleset::from_str("d.mettle", "check c { roll 2d6  otherwise done }").unwrap();
/// let mut s = Session::new(&rules, 1);
/// // A host generator of its own: here every die shows its highest face.
/// s.set_dice_source(|die: mettle::dice::DieRequest<'_>| Ok(die.faces.max()));
/// assert_eq!(s.roll("c", &[]).unwrap().rolled.unwrap().total, 12);
/// ```
pub trait DiceSource: Send {
    /// One face of the die `die`. An error stops the action, which is undone; the faces this source
    /// gave during it are handed back through [`DiceSource::give_back`].
    fn face(&mut self, die: DieRequest<'_>) -> Result<i64, Diagnostic>;

    /// Takes back `faces`, in the order given, when the action that drew them failed and was
    /// undone, so that running it again draws them again. By default they are dropped.
    fn give_back(&mut self, faces: &[i64]) {
        let _ = faces;
    }
}

impl<F> DiceSource for F
where
    F: FnMut(DieRequest<'_>) -> Result<i64, Diagnostic> + Send,
{
    fn face(&mut self, die: DieRequest<'_>) -> Result<i64, Diagnostic> {
        self(die)
    }
}

/// Dice typed in by the players: a queue of faces that the host fills and the session empties. A
/// handle: clones share one queue, so the host keeps one and gives the session another.
///
/// When the queue is empty, the die that needed a face stops the action with
/// `mettle::dice::no_face` (the action is undone, and the faces it had taken go back to the front of
/// the queue): the host asks the players for more dice and runs it again.
///
/// ```
/// use mettle::{Ruleset, Session, dice::QueuedDice};
/// let rules = Ruleset::from_str("q.mettle", "check c { roll 2d6  otherwise done }").unwrap();
/// let mut s = Session::new(&rules, 1);
/// let table = QueuedDice::new();
/// s.set_dice_source(table.clone());
/// table.push(&[4]);
/// let e = s.roll("c", &[]).unwrap_err();
/// assert_eq!(e.code, "mettle::dice::no_face");
/// assert_eq!(table.len(), 1, "the 4 went back to the queue");
/// table.push(&[5]);
/// assert_eq!(s.roll("c", &[]).unwrap().rolled.unwrap().total, 9);
/// ```
#[derive(Debug, Clone, Default)]
pub struct QueuedDice {
    faces: Arc<Mutex<VecDeque<i64>>>,
}

impl QueuedDice {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds faces at the back of the queue, in order.
    pub fn push(&self, faces: &[i64]) {
        self.queue().extend(faces);
    }

    /// How many faces wait.
    pub fn len(&self) -> usize {
        self.queue().len()
    }

    /// Whether no face waits.
    pub fn is_empty(&self) -> bool {
        self.queue().is_empty()
    }

    /// Drops every face waiting.
    pub fn clear(&self) {
        self.queue().clear();
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, VecDeque<i64>> {
        // A queue of numbers cannot be left half-changed: a poisoned lock is still a good queue.
        self.faces.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl DiceSource for QueuedDice {
    fn face(&mut self, die: DieRequest<'_>) -> Result<i64, Diagnostic> {
        self.queue().pop_front().ok_or_else(|| {
            Diagnostic::plain(
                "dice::no_face",
                format!("no face was given for the next die of `{}`", die.notation),
            )
            .with_help(format!(
                "roll a {} and push its face (`QueuedDice::push`), then run this again",
                match die.faces {
                    Faces::Count(n) => format!("d{n}"),
                    Faces::List(l) => format!("d{l:?}"),
                }
            ))
        })
    }

    fn give_back(&mut self, faces: &[i64]) {
        let mut q = self.queue();
        for f in faces.iter().rev() {
            q.push_front(*f);
        }
    }
}

/// A host's dice source, as a session keeps it (clones of the session share it).
pub(crate) type SharedSource = Arc<Mutex<dyn DiceSource>>;

/// The host's source while a roll draws from it: the source, the faces drawn in this action (to give
/// back if it fails), and the error it stopped with.
pub(crate) struct Host<'a> {
    pub(crate) source: &'a mut dyn DiceSource,
    /// Faces to give again before the source is asked: those an action that waited on a question
    /// drew, now that it runs on.
    pub(crate) replay: &'a mut VecDeque<i64>,
    pub(crate) drawn: &'a mut Vec<i64>,
    pub(crate) error: &'a mut Option<Box<Diagnostic>>,
}

/// Where faces come from: forced values first (scenarios' `dice 4, 3`), then a walk's faces when
/// every roll is being tried in turn, then the host's dice source, else the generator.
pub(crate) struct Source<'a> {
    /// The seeded generator.
    pub rng: &'a mut ChaCha8Rng,
    /// Faces the next dice must show.
    pub forced: &'a mut VecDeque<i64>,
    /// An exhaustive walk through every roll, if one is under way.
    pub walk: Option<&'a mut Walk>,
    /// The host's dice source, if it gave one.
    pub host: Option<Host<'a>>,
    /// The dice term being rolled, for the host.
    pub notation: &'a str,
}

/// One path of an exhaustive walk through every roll: the faces its dice show, in order. When they run
/// out, the next die stops the run and leaves its faces in `needs`, so the walk can try each.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Walk {
    /// Faces the next dice show.
    pub faces: VecDeque<i64>,
    /// The faces of the die that found `faces` empty.
    pub needs: Option<Vec<i64>>,
    /// Past `faces`, roll on with the generator instead of stopping, noting how many faces each die
    /// had in `met`: one random path, for estimating how many paths there are.
    pub explore: bool,
    /// Faces of each die met past `faces`, while exploring.
    pub met: Vec<usize>,
    /// Set when the action the walk was for has ended: later dice roll as usual, and what the walk
    /// learnt (`needs`, `met`) can still be read.
    pub done: bool,
    /// Faces taken from `faces` so far.
    pub used: usize,
    /// Stop at the first `repeat` turn past `skip` of them (counting from the start of the walk),
    /// so that paths reaching the same game state there can be merged (see `odds::states`).
    pub pause: bool,
    /// `repeat` turns to run through before pausing.
    pub skip: u32,
    /// `repeat` turns met so far.
    pub seen: u32,
    /// Where the walk paused, when it did.
    pub paused: Option<Paused>,
    /// Set while a `roll` that is itself a statement of the scenario's blocks runs: the pause
    /// before the next statement follows it, so it does not pause after its roll.
    pub step_roll: bool,
    /// What a pause tells states apart by (the checks' last results and the slots of frames that
    /// something reads later); everything when not given.
    pub keep: Option<std::sync::Arc<crate::session::Keep>>,
    /// What encloses the statement running now, outermost first, while a walk that pauses is
    /// under way: the pause inside a rule is keyed by it (see `Runner::context`).
    pub outer: Vec<Outer>,
    /// Set while the dice of a pool that only counts successes are drawn, and nothing reads
    /// their faces but that count (see `Runner::class_dice`): a die past `faces` then needs one
    /// face of each class (success or not, by this test) instead of every face.
    pub class: Option<(Cmp, i64)>,
    /// How many of the die's faces each face in `needs` stands for, when they stand for classes;
    /// empty when each stands for itself.
    pub shares: Vec<u64>,
}

/// One construct around a pause inside a rule: with the game state and the innermost frame, what
/// a path does after the pause depends on these and nothing else, so that paths that took
/// different faces to the same place merge (see `odds::states`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub(crate) enum Outer {
    /// A call (a trigger, a check's roll, a reaction) made by the statement at this span, with the
    /// values of the caller's frame that anything reads after it returns.
    Call((usize, usize), Vec<crate::program::Value>),
    /// The turn of a `for each` at entity `id` of the first `n` entity slots.
    Each(u32, u32),
    /// The turn of a `repeat`.
    Turn(usize),
    /// Something whose state only the runner's own stack holds (a script's reaction): pauses under
    /// it are keyed by the faces that led to them instead.
    Opaque,
}

/// Where a walk through a scenario paused, to be merged with the other paths that reach the same
/// game state there.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Paused {
    /// Before the statement of the scenario at this place: indices through its blocks (see
    /// `Runner::scenario_from`).
    Step {
        /// The place.
        at: Vec<usize>,
    },
    /// At a turn of a `repeat` inside a rule: `key` tells the game state and the rule's values
    /// apart, and `context` (or the faces before `entered`) what encloses the `repeat`.
    Loop {
        /// Faces used when the `repeat` began.
        entered: usize,
        /// What encloses the `repeat` (its own turn left out), as bytes, when everything that does
        /// is described; else the faces before `entered` stand for it.
        context: Option<Vec<u8>>,
        /// The game state, the rule's values and the `repeat`, as bytes.
        key: Vec<u8>,
        /// The turn about to begin.
        turn: usize,
        /// Where the `repeat` is.
        span: (usize, usize),
    },
    /// Just after a check rolled inside a rule (its dice used): `key` tells the game state and the
    /// rule's values apart, and `context` (or the faces before `entered`) what encloses the roll.
    Roll {
        /// Faces used when the roll began.
        entered: usize,
        /// What encloses the roll, as bytes, when everything that does is described; else the
        /// faces before `entered` stand for it.
        context: Option<Vec<u8>>,
        /// The game state and the rule's values, as bytes.
        key: Vec<u8>,
        /// Where the roll is.
        span: (usize, usize),
    },
}

/// Why dice could not be rolled: what the runner tells apart to report each its own way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DrawError {
    /// The kept dice add up past the largest whole number mettle counts.
    Overflow,
    /// An exhaustive walk has no face for the next die (the faces it needs are in the walk).
    WalkEnd,
    /// The host's dice source failed or gave a face the die cannot show; the source's own error is
    /// in [`Host`].
    HostFailed,
    /// A forced face the die cannot show: what to say.
    Forced(String),
}

impl DrawError {
    /// What the error says.
    pub(crate) fn message(&self) -> &str {
        match self {
            DrawError::Overflow => "the dice add up to more than mettle can count",
            DrawError::WalkEnd => "an exhaustive walk needs the next face",
            DrawError::HostFailed => "the host's dice source gave no usable face",
            DrawError::Forced(m) => m,
        }
    }
}

/// The sum of `faces`, or `None` if it would overflow (`[1, 2, 3]` gives 6, `[i64::MAX, 1]` none).
pub(crate) fn checked_sum(faces: impl IntoIterator<Item = i64>) -> Option<i64> {
    faces.into_iter().try_fold(0i64, |a, b| a.checked_add(b))
}

/// One face of a die with `faces`, drawn from `rng`: the one draw every roll makes from the seeded
/// generator (the roller, the fast paths and the sampler of exact odds), so that a seed gives the
/// same faces whichever of them rolls. A die with no faces shows 0 without a draw.
#[inline(always)]
pub(crate) fn draw(rng: &mut ChaCha8Rng, faces: Faces<'_>) -> i64 {
    match faces {
        Faces::Count(n) => rng.random_range(1..=n.max(1)),
        Faces::List([]) => 0,
        Faces::List(l) => l[rng.random_range(0..l.len())],
    }
}

impl Source<'_> {
    /// One face of a die.
    // Inlined where dice are rolled: a die of N sides drawn from the generator, with no face forced,
    // no walk and no host, the common case, is read straight from it.
    #[inline]
    pub fn face(&mut self, faces: Faces<'_>) -> Result<i64, DrawError> {
        if let Faces::Count(_) = faces
            && self.forced.is_empty()
            && self.walk.is_none()
            && self.host.is_none()
        {
            return Ok(draw(self.rng, faces));
        }
        self.face_otherwise(faces)
    }

    /// [`Source::face`] for a forced face, a walk, the host's source, or custom faces.
    #[inline(never)]
    fn face_otherwise(&mut self, faces: Faces<'_>) -> Result<i64, DrawError> {
        if let Some(f) = self.forced.pop_front() {
            let ok = match faces {
                Faces::Count(n) => (1..=n).contains(&f),
                Faces::List(l) => l.contains(&f),
            };
            if !ok {
                return Err(DrawError::Forced(match faces {
                    Faces::Count(n) => format!("a forced die shows {f}, which a d{n} cannot roll"),
                    Faces::List(l) => format!("a forced die shows {f}, which is not a face of d{l:?}"),
                }));
            }
            return Ok(f);
        }
        if let Some(walk) = self.walk.as_deref_mut() {
            return match walk.faces.pop_front() {
                Some(f) => {
                    walk.used += 1;
                    Ok(f)
                }
                None if walk.explore => {
                    let n = match faces {
                        Faces::Count(n) => n.max(1) as usize,
                        Faces::List(l) => l.len(),
                    };
                    walk.met.push(n);
                    Ok(draw(self.rng, faces))
                }
                None => {
                    let all: Vec<i64> = match faces {
                        Faces::Count(n) => (1..=n).collect(),
                        Faces::List(l) => l.to_vec(),
                    };
                    (walk.needs, walk.shares) = match walk.class {
                        Some(test) => {
                            let (needs, shares) = classes(&all, test);
                            (Some(needs), shares)
                        }
                        None => (Some(all), vec![]),
                    };
                    Err(DrawError::WalkEnd)
                }
            };
        }
        if let Some(host) = self.host.as_mut() {
            let die = DieRequest { faces, notation: self.notation };
            let given = match host.replay.pop_front() {
                Some(f) => Ok(f),
                None => host.source.face(die),
            };
            let face = match given {
                Ok(f) if die.can_show(f) => f,
                Ok(f) => {
                    *host.error = Some(Box::new(
                        Diagnostic::plain(
                            "dice::bad_face",
                            format!("the dice source gave {f}, which a die of {} cannot show", self.notation),
                        )
                        .with_help("give a face the die has"),
                    ));
                    return Err(DrawError::HostFailed);
                }
                Err(e) => {
                    *host.error = Some(Box::new(e));
                    return Err(DrawError::HostFailed);
                }
            };
            host.drawn.push(face);
            return Ok(face);
        }
        Ok(draw(self.rng, faces))
    }
}

/// The faces `all` of a die sorted by `test` (`cmp n`) into successes and the rest: the first face
/// of each class that has any, and how many of `all` each stands for.
fn classes(all: &[i64], (cmp, n): (Cmp, i64)) -> (Vec<i64>, Vec<u64>) {
    let (mut needs, mut shares) = (vec![], vec![]);
    for success in [true, false] {
        let mut class = all.iter().filter(|f| cmp.test(**f, n) == success);
        if let Some(first) = class.next() {
            needs.push(*first);
            shares.push(1 + class.count() as u64);
        }
    }
    (needs, shares)
}

/// What the kept `dice` come to: how many show a success, when `successes` says what one is, else
/// their sum ([`DrawError::Overflow`] if it is more than a number holds).
pub(crate) fn kept_value(dice: &[Die], successes: Option<(Cmp, i64)>) -> Result<i64, DrawError> {
    match successes {
        Some((cmp, n)) => Ok(dice.iter().filter(|d| d.kept && cmp.test(d.face, n)).count() as i64),
        None => checked_sum(dice.iter().filter(|d| d.kept).map(|d| d.face)).ok_or(DrawError::Overflow),
    }
}

/// Rolls `count` dice with `faces` and applies `mods` in order. `labels` names, for each die past the
/// first `count - labels.len()`, the modifier that added it.
pub(crate) fn roll(
    count: usize,
    faces: Faces<'_>,
    mods: &[DiceMod],
    src: &mut Source<'_>,
) -> Result<Pool, DrawError> {
    let mut pool = Pool { notation: String::new(), sides: 0, dice: Vec::with_capacity(count), value: 0 };
    roll_into(&mut pool, count, faces, mods, src)?;
    Ok(pool)
}

/// Rolls as [`roll`] does into `pool`, whose dice vector is emptied and filled again (its
/// allocation kept); the notation is left as it is.
pub(crate) fn roll_into(
    pool: &mut Pool,
    count: usize,
    faces: Faces<'_>,
    mods: &[DiceMod],
    src: &mut Source<'_>,
) -> Result<(), DrawError> {
    let mut dice = std::mem::take(&mut pool.dice);
    dice.clear();
    dice.reserve(count);
    for _ in 0..count {
        dice.push(Die::new(src.face(faces)?));
    }
    let mut successes: Option<(Cmp, i64)> = None;
    for m in mods {
        if let Some(step) = DieStep::of(m) {
            for d in dice.iter_mut() {
                let (rerolled, raised) = (&mut d.rerolled, &mut d.raised);
                d.face = step.apply(d.face, &mut || src.face(faces), |c| match c {
                    Change::Rerolled(f) => rerolled.push(f),
                    // Raised twice (`min2min3`), it still shows the face it was rolled with.
                    Change::Raised(f) => *raised = Some(raised.unwrap_or(f)),
                })?;
            }
            continue;
        }
        match *m {
            // Steps of each die, taken above.
            DiceMod::Reroll(..) | DiceMod::RerollOnce(..) | DiceMod::Raise(_) => {}
            DiceMod::Explode(cmp, n) => {
                let n = n.unwrap_or_else(|| faces.max());
                let mut out = Vec::with_capacity(dice.len());
                for d in dice.drain(..) {
                    let mut last = d.face;
                    // A die already set aside (by a keep or drop written before) does not explode.
                    let kept = d.kept;
                    out.push(d);
                    if !kept {
                        continue;
                    }
                    let mut chain = 0;
                    while cmp.test(last, n) && chain < MAX_CHAIN {
                        last = src.face(faces)?;
                        out.push(Die { exploded: true, ..Die::new(last) });
                        chain += 1;
                    }
                }
                dice = out;
            }
            DiceMod::KeepHighest(k)
            | DiceMod::KeepLowest(k)
            | DiceMod::DropHighest(k)
            | DiceMod::DropLowest(k) => {
                let mut order: Vec<usize> = (0..dice.len()).filter(|&i| dice[i].kept).collect();
                // Stable: among equal faces, earlier dice count as higher.
                order.sort_by(|&a, &b| dice[b].face.cmp(&dice[a].face));
                let k = k as usize;
                let n = order.len();
                let dropped: Vec<usize> = match m {
                    DiceMod::KeepHighest(_) => order.iter().skip(k).copied().collect(),
                    DiceMod::KeepLowest(_) => order.iter().take(n.saturating_sub(k)).copied().collect(),
                    DiceMod::DropHighest(_) => order.iter().take(k).copied().collect(),
                    _ => order.iter().skip(n.saturating_sub(k)).copied().collect(),
                };
                for i in dropped {
                    dice[i].kept = false;
                }
            }
            DiceMod::CountSuccesses(cmp, n) => successes = Some((cmp, n)),
        }
    }
    let value = kept_value(&dice, successes)?;
    pool.sides = faces.max();
    pool.dice = dice;
    pool.value = value;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn forced(faces: &[i64], count: usize, sides: i64, mods: &[DiceMod]) -> Pool {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut q: VecDeque<i64> = faces.iter().copied().collect();
        roll(
            count,
            Faces::Count(sides),
            mods,
            &mut Source { rng: &mut rng, forced: &mut q, walk: None, host: None, notation: "" },
        )
        .unwrap()
    }

    #[test]
    fn sums_kept_dice() {
        assert_eq!(forced(&[3, 5, 1, 6], 4, 6, &[DiceMod::KeepHighest(3)]).value, 14);
        assert_eq!(forced(&[3, 5, 1, 6], 4, 6, &[DiceMod::DropLowest(1)]).value, 14);
        assert_eq!(forced(&[3, 5, 1, 6], 4, 6, &[DiceMod::KeepLowest(1)]).value, 1);
        assert_eq!(forced(&[3, 5, 1, 6], 4, 6, &[DiceMod::DropHighest(2)]).value, 4);
    }

    #[test]
    fn explodes_and_rerolls() {
        let p = forced(&[6, 6, 2, 4], 2, 6, &[DiceMod::Explode(Cmp::Ge, None)]);
        assert_eq!(p.dice.len(), 4);
        assert_eq!(p.value, 18);
        // `r1` rerolls until the die is not a 1; `ro1` rerolls once and keeps what comes.
        let p = forced(&[1, 1, 4], 1, 6, &[DiceMod::Reroll(Cmp::Eq, 1)]);
        assert_eq!((p.dice[0].face, p.dice[0].rerolled.clone()), (4, vec![1, 1]));
        let p = forced(&[1, 1, 4], 1, 6, &[DiceMod::RerollOnce(Cmp::Eq, 1)]);
        assert_eq!((p.dice[0].face, p.dice[0].rerolled.clone()), (1, vec![1]));
    }

    #[test]
    fn counts_successes() {
        assert_eq!(forced(&[5, 6, 1, 4], 4, 6, &[DiceMod::CountSuccesses(Cmp::Ge, 5)]).value, 2);
    }

    #[test]
    fn rejects_impossible_forced_faces() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut q: VecDeque<i64> = [7].into_iter().collect();
        let e = roll(
            1,
            Faces::Count(6),
            &[],
            &mut Source { rng: &mut rng, forced: &mut q, walk: None, host: None, notation: "" },
        )
        .unwrap_err();
        assert!(matches!(&e, DrawError::Forced(m) if m.contains("d6 cannot roll")), "{e:?}");
    }
}
