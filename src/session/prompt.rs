//! What a REPL needs of a session: running checked prompt input on it, reseeding it, and moving a
//! state over to a changed ruleset.

use super::fits::fits;
use super::{LogLine, Session, State, api_error};
use crate::Ruleset;
use crate::diagnostics::Diagnostic;
use crate::program::{Expr, Stmt, Value};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

impl Session {
    /// A session over `rules` in the given state, with the given log. Refused when the state names
    /// kinds, entities, names, checks or choices the ruleset lacks.
    pub(crate) fn from_state(
        rules: &Ruleset,
        state: State,
        log: Vec<LogLine>,
    ) -> Result<Session, Diagnostic> {
        if fits(rules.program(), &state).is_err() {
            return Err(api_error(
                "save_mismatch",
                "this state does not fit the ruleset".into(),
                "build the state for this ruleset's kinds, names and checks".into(),
            ));
        }
        Ok(Session {
            rules: rules.clone(),
            state,
            log,
            log_start: 0,
            logging: true,
            cancel: Default::default(),
            clears_cancel: true,
            undone: vec![],
            hooks: Default::default(),
            waiting: None,
            spare: Default::default(),
        })
    }

    /// Runs statements compiled by [`crate::check::check_prompt`] on `frame` (their locals), like the
    /// steps of a scenario. On an error the session and the frame are left as they were.
    pub(crate) fn run_prompt(&mut self, stmts: &[Stmt], frame: &mut Vec<Value>) -> Result<(), Diagnostic> {
        let before = frame.clone();
        let r = self.host_change(|r| r.prompt(stmts, frame)).map(drop);
        if r.is_err() {
            *frame = before;
        }
        r
    }

    /// Evaluates an expression compiled by [`crate::check::check_prompt`] (dice in it are rolled).
    pub(crate) fn eval_prompt(&mut self, expr: &Expr, frame: &mut Vec<Value>) -> Result<Value, Diagnostic> {
        self.host_change(|r| r.eval(expr, frame)).map(|(v, _)| v)
    }

    /// Starts the dice generator again from `seed`; everything else stays.
    pub(crate) fn reseed(&mut self, seed: u64) {
        self.state.seed = seed;
        self.state.rng = ChaCha8Rng::seed_from_u64(seed);
    }
}
