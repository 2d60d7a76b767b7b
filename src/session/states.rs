//! A scenario's game state as a key for merging equal states, and runs from a saved one: what exact
//! odds of whole scenarios are worked out with (`odds::states`).

use super::{QuietGame, Session, State};
use crate::dice::{Paused, Walk};
use crate::program::*;
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

mod key;
pub(crate) use key::write_key;

/// What of check results and frames tells paused paths apart (worked out by `odds::live`): what
/// nothing reads again is left out, so that paths differing only there merge, and so that what a
/// frame used again held before (which differs between builds) never counts.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Keep {
    /// The checks whose last results tell states apart at a step of the scenario.
    pub at_step: Vec<bool>,
    /// The same, at a pause inside a rule (those any rule reads too).
    pub in_rule: Vec<bool>,
    /// What of each check's last result anything reads.
    pub reads: Arc<[LastRead]>,
    /// The slots of its frame read later, after each `roll`, `trigger` and reaction (by its span:
    /// at a pause there, or for a call made there that encloses a pause) and at each turn of each
    /// `repeat`; a pause at another place keys its whole frame, a call there is not described.
    pub frames: Arc<Frames>,
    /// The checks whose dice a walk may follow by class of faces (success or not) instead of
    /// face by face: their pools only count successes, and nothing reads their faces.
    pub classed: Arc<[bool]>,
}

/// The live slots after each pause or call inside a rule, by the span of its statement.
pub(crate) type Frames = HashMap<(usize, usize), Box<[u32]>>;

/// What the rules and a scenario read of a check's last result.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct LastRead {
    /// Something reads it.
    pub read: bool,
    /// Something reads it whole (as a value, or whether there is one): nothing of it is left out.
    pub whole: bool,
    /// Its outcome is read.
    pub outcome: bool,
    /// These of its slots are read (`last CHECK.name`).
    pub slots: BTreeSet<u32>,
}

/// A check's last result, as far as it tells states apart.
#[derive(Serialize)]
enum LastKey<'a> {
    Whole(&'a CheckResult),
    Part(Option<u32>, Vec<&'a Value>),
}

/// Writes what tells game state `st` apart from another to `out`: everything but its seed, its
/// generator and its walk. The last results of checks are written only for checks `lasts` marks
/// (all of them when it is `None`), and of those only what `reads` says is read: the rest is never
/// read again.
pub(crate) fn state_key(st: &State, lasts: Option<(&[bool], &[LastRead])>, out: &mut Vec<u8>) {
    let last: Vec<Option<LastKey>> = st
        .last
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let l = l.as_deref()?;
            let Some((marks, reads)) = lasts else { return Some(LastKey::Whole(l)) };
            if !marks.get(i).copied().unwrap_or(true) {
                return None;
            }
            Some(match reads.get(i) {
                Some(r) if !r.whole => LastKey::Part(
                    r.outcome.then_some(l.outcome_index),
                    r.slots.iter().map(|s| l.slots.get(*s as usize).unwrap_or(&Value::None)).collect(),
                ),
                _ => LastKey::Whole(l),
            })
        })
        .collect();
    write_key(
        out,
        &(
            st.round,
            st.turn,
            &st.entities,
            &st.forced,
            &st.answers,
            &st.host_answers,
            &st.timed,
            last,
            &st.over,
            &st.orders,
            &st.options,
        ),
    );
}

impl Session {
    /// The game state, to carry on from later with [`Session::run_from`].
    pub(crate) fn take_state(&self) -> State {
        let mut st = self.state.clone();
        st.walk = None;
        st
    }

    /// Runs scenario `scenario` on from `state`, at place `at` (see `Runner::scenario_from`), with
    /// the scenario's values in `frame` and what it recorded in `game`: one path of a walk whose dice
    /// show `faces` and that pauses at the first step, or turn of a `repeat`, past the `skip` turns
    /// of `repeat`s inside rules it runs through. Says where it paused, if it did; the faces of the
    /// die it stopped at are in [`Session::walk_needs`].
    #[allow(clippy::too_many_arguments, reason = "one path of a walk: where, from what, with what")]
    pub(crate) fn run_from(
        &mut self,
        state: &State,
        scenario: usize,
        at: &[usize],
        frame: &mut Vec<Value>,
        game: &mut QuietGame,
        faces: &[i64],
        skip: u32,
        keep: &Arc<Keep>,
    ) -> (Result<(), crate::diagnostics::Diagnostic>, Option<Paused>) {
        self.state.clone_from(state);
        self.state.walk = Some(Walk {
            faces: faces.iter().copied().collect(),
            pause: true,
            skip,
            keep: Some(keep.clone()),
            ..Default::default()
        });
        let mut runner = self.runner();
        runner.play(std::mem::take(game));
        let r = runner.scenario_from(scenario, at, frame).and_then(|()| runner.finish());
        *game = runner.game_over();
        runner.put_away();
        runner.end();
        self.end_walk();
        let paused = self.state.walk.as_mut().and_then(|w| w.paused.take());
        (r.map_err(|e| *e), paused)
    }
}
