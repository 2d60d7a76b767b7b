//! Points a host can take a session back to: the state without the log, the log's length, and the
//! action waiting on a question, so a checkpoint costs the same however long the log has grown (as
//! the REPL's `:undo` does).

use super::{Session, State, action::Waiting};

/// A point a session can go back to with [`Session::rewind`].
#[derive(Debug, Clone)]
pub struct Checkpoint {
    state: State,
    /// How long the game's log was, counting the lines let go before the session's first.
    log_len: usize,
    waiting: Option<Waiting>,
}

impl Session {
    /// A point to come back to: the state (generator included), how long the log is, and the action
    /// waiting on a question, if one does.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("c.mettle", "kind unit { n: 0..9 = 0 } event poke(unit: unit) on poke { add 1 to unit.n }").unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// let u = mettle::Value::Entity(s.create("unit", "u", &[]).unwrap());
    /// let before = s.checkpoint();
    /// s.apply("poke", &[("unit", u)]).unwrap();
    /// assert_eq!(s.get("u", "n"), Some(&mettle::Value::Int(1)));
    /// s.rewind(before);
    /// assert_eq!(s.get("u", "n"), Some(&mettle::Value::Int(0)));
    /// assert_eq!(s.log().len(), 1, "only the creation is left in the log");
    /// ```
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            state: self.state.clone(),
            log_len: self.log_start + self.log.len(),
            waiting: self.waiting.clone(),
        }
    }

    /// Goes back to `checkpoint`: its state, the log cut back to its length (lines let go by
    /// [`Session::trim_log`] since do not come back), and the action that waited then (none if
    /// none did).
    pub fn rewind(&mut self, checkpoint: Checkpoint) {
        self.state = checkpoint.state;
        self.waiting = checkpoint.waiting;
        self.log.truncate(checkpoint.log_len.saturating_sub(self.log_start));
    }
}
