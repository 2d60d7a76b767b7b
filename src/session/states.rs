//! A scenario's game state as a key for merging equal states, and runs from a saved one: what exact
//! odds of whole scenarios are worked out with (`odds::states`).

use super::{QuietGame, Session, State};
use crate::dice::{Paused, Walk};
use crate::program::*;
use std::sync::Arc;

/// Writes what tells game state `st` apart from another to `out`: everything but its seed, its
/// generator and its walk. The last results of checks are written only for checks `lasts` marks
/// (all of them when it is `None`): the others are never read again.
pub(crate) fn state_key(st: &State, lasts: Option<&[bool]>, out: &mut Vec<u8>) {
    let last: Vec<Option<&Arc<CheckResult>>> = st
        .last
        .iter()
        .enumerate()
        .map(|(i, l)| l.as_ref().filter(|_| lasts.is_none_or(|m| m.get(i).copied().unwrap_or(true))))
        .collect();
    // Serialising plain values into a vector cannot fail.
    let _ = serde_json::to_writer(
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
        lasts: &Arc<Vec<bool>>,
    ) -> (Result<(), crate::diagnostics::Diagnostic>, Option<Paused>) {
        self.state.clone_from(state);
        self.state.walk = Some(Walk {
            faces: faces.iter().copied().collect(),
            pause: true,
            skip,
            lasts: Some(lasts.clone()),
            ..Default::default()
        });
        let mut runner = self.runner();
        runner.game = Some(std::mem::take(game));
        let r = runner.scenario_from(scenario, at, frame).and_then(|()| runner.finish());
        *game = runner.game.take().unwrap_or_default();
        runner.put_away();
        runner.end();
        self.end_walk();
        let paused = self.state.walk.as_mut().and_then(|w| w.paused.take());
        (r.map_err(|e| *e), paused)
    }
}
