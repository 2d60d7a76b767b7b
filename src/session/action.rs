//! Running what the host asks for as one action: undone if it fails, its outcome collected as it
//! runs, and kept to run on when it stops on a question the host wants to answer first.

use super::host::Question;
use super::outcome::{Outcome, QueuedAnswer};
use super::run::Runner;
use super::{Session, api_error};
use crate::ast::Span;
use crate::diagnostics::Diagnostic;
use crate::program::{CheckId, EventId, Value};
use std::sync::atomic::Ordering;

/// An action that stopped on a question: the question, the action to run on once it is answered,
/// and the faces it drew from the host's dice source, to be given again when it does.
#[derive(Debug, Clone)]
pub(super) struct Waiting {
    pub question: Question,
    pub action: Replay,
    pub dice: Vec<i64>,
}

/// An action the host asked for that rules run in, as it can be run again.
#[derive(Debug, Clone)]
pub(super) enum Replay {
    Apply(EventId, Vec<Value>),
    Roll(CheckId, Option<u32>, Vec<(u32, Value)>),
    Scenario(usize),
}

impl Session {
    /// Runs `f` as one action, within the ruleset's budget (steps, log entries) and stopped by the
    /// cancel flag, collecting its [`Outcome`]. If it fails, the state and log are put back as they
    /// were: an error never leaves a half-applied event behind, and what the failed action logged is
    /// kept aside ([`Session::undone_log`]). If it stops on a question the chooser wants to wait on,
    /// it is undone the same way and, when it is an `action` that can run again, kept with the
    /// question: the result is then none, and the outcome holds only the question. `dice` are faces
    /// to give again before the host's dice source is asked.
    pub(super) fn atomic<T>(
        &mut self,
        action: Option<Replay>,
        dice: Vec<i64>,
        f: impl FnOnce(&mut Runner<'_>) -> Result<T, Box<Diagnostic>>,
    ) -> Result<(Option<T>, Outcome), Diagnostic> {
        // A stop that came between actions does not stop the next one, when the flag is the
        // session's own (one the host gave, the host clears; a what-if's runs keep their question's).
        if self.clears_cancel {
            self.cancel.store(false, Ordering::Relaxed);
        }
        // A new action drops the one waiting on a question.
        self.abandon_quietly();
        let saved = self.state.clone();
        let log_len = self.log.len();
        let (r, host) = {
            let mut runner = self.runner();
            runner.collect();
            runner.host.replay = dice.into();
            let r = f(&mut runner).and_then(|v| runner.finish().map(|()| v));
            runner.put_away();
            let host = std::mem::take(&mut runner.host);
            runner.end();
            (r, host)
        };
        self.end_walk();
        let mut faces = host.drawn;
        let left: Vec<i64> = host.replay.into();
        match r {
            Ok(v) => {
                self.hooks.tell(&host.changes);
                // Faces kept for an answer that took the action elsewhere, with fewer dice.
                self.give_back(&left);
                let mut outcome = host.outcome.map(|o| *o).unwrap_or_default();
                outcome.changes = host.changes;
                if saved.over.is_none() {
                    outcome.ended = self.state.over.clone();
                }
                Ok((Some(v), outcome))
            }
            Err(e) => {
                // A walk through every roll learns from the run that stopped which die it needs next.
                let walk = self.state.walk.take();
                self.state = saved;
                self.state.walk = walk;
                self.undone = self.log.split_off(log_len);
                faces.extend(left);
                match (host.asked, action) {
                    (Some(question), Some(action)) => {
                        let question = *question;
                        self.waiting = Some(Waiting { question: question.clone(), action, dice: faces });
                        Ok((None, Outcome { question: Some(question), ..Outcome::default() }))
                    }
                    _ => {
                        // Faces the host's dice gave go back, so that running the action again draws
                        // them again.
                        self.give_back(&faces);
                        Err(*e)
                    }
                }
            }
        }
    }

    /// [`Session::atomic`] for a change the host makes itself, where no rule runs and so no question
    /// is asked.
    pub(super) fn host_change<T>(
        &mut self,
        f: impl FnOnce(&mut Runner<'_>) -> Result<T, Box<Diagnostic>>,
    ) -> Result<(T, Outcome), Diagnostic> {
        match self.atomic(None, vec![], f)? {
            (Some(v), outcome) => Ok((v, outcome)),
            (None, _) => Err(api_error(
                "no_result",
                "the action stopped without a result".into(),
                "this is a bug in mettle: please report it".into(),
            )),
        }
    }

    /// Runs `action` as one action (`dice` given again first); if it stops on a question, keeps it to
    /// run on.
    pub(super) fn act(&mut self, action: Replay, dice: Vec<i64>) -> Result<Outcome, Diagnostic> {
        let again = action.clone();
        let (rolled, mut outcome) = match action {
            Replay::Apply(e, facts) => {
                let (_, o) = self.atomic(Some(again), dice, |r| r.fire(e, &facts, Span::default()))?;
                (None, o)
            }
            Replay::Roll(c, subject, args) => {
                self.atomic(Some(again), dice, |r| r.roll_check(c, subject, args, Span::default()))?
            }
            Replay::Scenario(s) => {
                let (_, o) = self.atomic(Some(again), dice, |r| r.scenario(s))?;
                (None, o)
            }
        };
        outcome.rolled = rolled;
        Ok(outcome)
    }

    /// Gives `faces` back to the host's dice source, if it has one.
    fn give_back(&self, faces: &[i64]) {
        if let Some(source) = &self.hooks.dice
            && !faces.is_empty()
        {
            source.lock().unwrap_or_else(|e| e.into_inner()).give_back(faces);
        }
    }

    /// The question the last action stopped on, when the chooser replied [`crate::Reply::Wait`]: the
    /// action was undone and waits. Answer it with [`Session::answer`] and run the action on with
    /// [`Session::resume`], or drop it with [`Session::abandon`]. Another action started meanwhile
    /// drops it too.
    ///
    /// ```
    /// use mettle::{Reply, Ruleset, Session, Value};
    /// let rules = Ruleset::from_str("w.mettle", r#"
    ///     kind unit { brave: flag = no }
    ///     event dare(unit: unit)
    ///     on dare { choose go "Take the dare?" from yes | no default no  set unit.brave to go }
    /// "#).unwrap();
    /// let mut s = Session::new(&rules, 1);
    /// let u = s.create("unit", "u", &[]).unwrap();
    /// s.set_chooser(|_: &mettle::Question| Reply::Wait);
    /// let stopped = s.apply("dare", &[("unit", Value::Entity(u))]).unwrap();
    /// let q = stopped.question.unwrap();
    /// assert_eq!((q.question.as_str(), q.asker), ("Take the dare?", Some(u)));
    /// assert_eq!(q.default, Some(Value::Bool(false)));
    /// assert_eq!(s.question(), Some(&q));
    /// s.answer("go", Value::Bool(true)).unwrap();
    /// let done = s.resume().unwrap();
    /// assert_eq!(done.changes.len(), 1);
    /// assert_eq!(s.get("u", "brave"), Some(&Value::Bool(true)));
    /// ```
    pub fn question(&self) -> Option<&Question> {
        self.waiting.as_ref().map(|w| &w.question)
    }

    /// Runs on the action that stopped on [`Session::question`], now that the host has answered
    /// ([`Session::answer`]): it starts again from where it started (it was undone, generator
    /// included), with the faces it drew from the host's dice source given again first, so it rolls
    /// the same dice up to the question whatever the source. Returns what it did, which may be the
    /// next question. Forced dice were put back with the state.
    ///
    /// Fails with `mettle::run::nothing_to_resume` when no action waits.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("r.mettle", "check c { roll d6  otherwise done }").unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// assert_eq!(s.resume().unwrap_err().code, "mettle::run::nothing_to_resume");
    /// ```
    pub fn resume(&mut self) -> Result<Outcome, Diagnostic> {
        let Some(Waiting { action, dice, .. }) = self.waiting.take() else {
            return Err(api_error(
                "nothing_to_resume",
                "no action is waiting for an answer".into(),
                "resume runs on an action that stopped on a question (`Outcome::question`)".into(),
            ));
        };
        self.act(action, dice)
    }

    /// Drops the action waiting on [`Session::question`], and returns its question: the session is as
    /// it was before that action, and faces it drew from the host's dice source go back to the
    /// source ([`crate::DiceSource::give_back`]). Answers queued for it stay queued
    /// ([`Session::clear_answers`] drops them).
    ///
    /// Fails with `mettle::run::nothing_waiting` when no action waits.
    ///
    /// ```
    /// use mettle::{Reply, Ruleset, Session, Value};
    /// let rules = Ruleset::from_str("a.mettle", r#"
    ///     kind unit { brave: flag = no }
    ///     event dare(unit: unit)
    ///     on dare { choose go "Take the dare?" from yes | no default no  set unit.brave to go }
    /// "#).unwrap();
    /// let mut s = Session::new(&rules, 1);
    /// let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    /// s.set_chooser(|_: &mettle::Question| Reply::Wait);
    /// s.apply("dare", &[("unit", u)]).unwrap();
    /// assert_eq!(s.abandon().unwrap().choice, "go");
    /// assert!(s.question().is_none());
    /// assert_eq!(s.abandon().unwrap_err().code, "mettle::run::nothing_waiting");
    /// ```
    pub fn abandon(&mut self) -> Result<Question, Diagnostic> {
        let Some(w) = self.waiting.take() else {
            return Err(api_error(
                "nothing_waiting",
                "no action is waiting for an answer".into(),
                "only an action that stopped on a question (`Outcome::question`) can be abandoned".into(),
            ));
        };
        self.give_back(&w.dice);
        Ok(w.question)
    }

    /// Drops the action waiting on a question, if one does.
    fn abandon_quietly(&mut self) {
        let _ = self.abandon();
    }

    /// The answers waiting for their choices, in the order they will be taken.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("q.mettle", r#"
    ///     event ask()
    ///     on ask { choose go "Go?" from yes | no default no  note "asked" }
    /// "#).unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// s.answer("go", mettle::Value::Bool(true)).unwrap();
    /// let queued = s.answers();
    /// assert_eq!((queued[0].choice.as_str(), queued[0].by_host), ("go", true));
    /// s.clear_answers();
    /// assert!(s.answers().is_empty());
    /// ```
    pub fn answers(&self) -> Vec<QueuedAnswer> {
        let p = self.rules.program();
        self.state
            .answers
            .iter()
            .enumerate()
            .map(|(i, (c, v))| QueuedAnswer {
                choice: p.choices.get(*c as usize).map(|c| c.name.clone()).unwrap_or_default(),
                value: v.clone(),
                by_host: self.state.host_answers.get(i).copied().unwrap_or(false),
            })
            .collect()
    }

    /// Drops every answer waiting for its choice (the host's and a scenario's).
    pub fn clear_answers(&mut self) {
        self.state.answers.clear();
        self.state.host_answers.clear();
    }
}
