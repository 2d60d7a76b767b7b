//! A scenario run from one of its steps, and walks that pause where their paths can be merged: at
//! each step of the scenario, and at each turn of a `repeat` (see `odds::states`).

use super::{MAX_REPEAT, R, Runner, fail};
use crate::ast::Span;
use crate::dice::Paused;
use crate::program::*;

impl Runner<'_> {
    /// Whether a walk that pauses is under way.
    fn pausing(&self) -> bool {
        self.st.walk.as_ref().is_some_and(|w| w.pause && !w.done)
    }

    /// At turn `turn` of the `repeat` at `span` (begun when the walk had used `entered` faces), in a
    /// walk that pauses: counts the turn, and pauses there once past the turns it was to skip.
    #[inline]
    pub(super) fn loop_turn(&mut self, span: Span, turn: usize, entered: usize, f: &[Value]) -> R<()> {
        if !self.pausing() {
            return Ok(());
        }
        let Some(w) = self.st.walk.as_mut() else { return Ok(()) };
        w.seen += 1;
        if w.seen <= w.skip {
            return Ok(());
        }
        let lasts = w.lasts.clone();
        self.settle_all_last();
        let mut key = vec![];
        crate::session::state_key(self.st, lasts.as_deref().map(|l| l.as_slice()), &mut key);
        let records = self.game.as_ref().map(|g| g.records.as_slice()).unwrap_or(&[]);
        // Serialising plain values into a vector cannot fail.
        let _ = serde_json::to_writer(&mut key, &(span.start, span.end, f, records));
        if let Some(w) = self.st.walk.as_mut() {
            w.paused = Some(Paused::Loop { entered, key, turn });
        }
        Err(Box::new(paused(span)))
    }

    /// Runs scenario `s` on from step `step` (from turn `turn` of its `repeat`, when it is one),
    /// with the scenario's values in `f`. A walk that pauses stops before the next step, or before
    /// the next turn of a `repeat` that is a step.
    pub fn scenario_from(&mut self, s: usize, step: usize, turn: usize, f: &mut Vec<Value>) -> R<()> {
        let sc = &self.p.scenarios[s];
        self.rule = Some((sc.span, sc.name.as_str()));
        let pausing = self.pausing();
        for (i, st) in sc.body.iter().enumerate().skip(step) {
            if pausing && i > step {
                return Err(self.pause_step(i, 0, st.span().unwrap_or_default()));
            }
            let r = match st {
                Stmt::Repeat { body, until, span } => {
                    self.top_repeat(i, if i == step { turn } else { 0 }, (body, until, *span), f, pausing)
                }
                _ => self.exec(st, f),
            };
            if let Err(d) = r {
                if self.st.walk.as_ref().is_some_and(|w| w.paused.is_some()) {
                    return Err(d);
                }
                return Err(match st.span() {
                    Some(s) if !d.labels.iter().any(|l| l.span == s) => {
                        Box::new(d.with_label(s, "during this scenario step"))
                    }
                    _ => d,
                });
            }
        }
        Ok(())
    }

    /// A `repeat` that is step `i` of a scenario, from turn `from`, as `exec` runs it, pausing
    /// before each later turn in a walk that pauses.
    fn top_repeat(
        &mut self,
        i: usize,
        from: usize,
        (body, until, span): (&[Stmt], &Test, Span),
        f: &mut Vec<Value>,
        pausing: bool,
    ) -> R<()> {
        self.at(span)?;
        for turn in from..MAX_REPEAT {
            if pausing && turn > from {
                return Err(self.pause_step(i, turn, span));
            }
            self.span = span;
            self.tick(1)?;
            self.exec_block(body, f)?;
            self.span = span;
            if self.test(&until.run, f)? || self.st.over.is_some() {
                return Ok(());
            }
        }
        Err(Box::new(fail(
            "endless_repeat",
            format!("`repeat` ran {MAX_REPEAT} times without its condition coming true"),
            span,
            "make sure the condition after `until` can become true",
        )))
    }

    /// Pauses the walk before step `step` (turn `turn` of its `repeat`).
    fn pause_step(&mut self, step: usize, turn: usize, at: Span) -> Box<crate::diagnostics::Diagnostic> {
        self.settle_all_last();
        if let Some(w) = self.st.walk.as_mut() {
            w.paused = Some(Paused::Step { step, turn });
        }
        Box::new(paused(at))
    }
}

/// The error that unwinds a paused walk's run (never shown: the walk reads where it paused).
fn paused(at: Span) -> crate::diagnostics::Diagnostic {
    fail("walk_paused", "an exhaustive walk paused here", at, "nothing to fix")
}
