//! A scenario run from one of its steps, and walks that pause where their paths can be merged: at
//! each step of the scenario, at each turn of a `repeat`, and after each roll inside a rule (see
//! `odds::states`).

use super::ANY_RUN;
use super::{MAX_REPEAT, R, Runner, fail};
use crate::ast::Span;
use crate::dice::{Outer, Paused};
use crate::program::*;

impl Runner<'_> {
    /// Whether a walk that pauses is under way: never outside the runs `odds::states` makes
    /// (`Mode::pauses`), which pay only that test.
    #[inline(always)]
    fn pausing(&self) -> bool {
        self.mode.pauses && self.paused_walk().is_some()
    }

    /// The walk under way, if it pauses and has not ended.
    #[inline(always)]
    fn paused_walk(&self) -> Option<&crate::dice::Walk> {
        self.st.walk.as_ref().filter(|w| w.pause && !w.done)
    }

    /// At turn `turn` of the `repeat` at `span` (begun when the walk had used `entered` faces), in a
    /// walk that pauses: counts the turn, and pauses there once past the turns it was to skip.
    #[inline]
    pub(super) fn loop_turn<const SIM: bool>(
        &mut self,
        span: Span,
        turn: usize,
        entered: usize,
        f: &[Value],
    ) -> R<()> {
        if !self.pausing() {
            return Ok(());
        }
        let Some(w) = self.st.walk.as_mut() else { return Ok(()) };
        w.seen += 1;
        if w.seen <= w.skip {
            return Ok(());
        }
        let key = self.pause_key(f, span);
        let context = self.context();
        if let Some(w) = self.st.walk.as_mut() {
            w.paused = Some(Paused::Loop { entered, context, key, turn, span: (span.start, span.end) });
        }
        Err(Box::new(paused(span)))
    }

    /// Just after a check rolled at `span` inside a rule or a scenario's `for each` (begun when the
    /// walk had used `entered` faces), in a walk that pauses: pauses there once past the pauses it
    /// was to skip, when the roll used dice, so that paths whose rolls left the same game state go on
    /// as one. A roll that is a statement of the scenario's blocks pauses before the next one instead.
    #[inline(always)]
    pub(super) fn rolled<const SIM: bool>(&mut self, span: Span, entered: usize, f: &[Value]) -> R<()> {
        if !self.kept::<SIM>().pauses {
            return Ok(());
        }
        self.rolled_in_walk(span, entered, f)
    }

    /// [`Runner::rolled`] in a run that may pause.
    #[inline(never)]
    fn rolled_in_walk(&mut self, span: Span, entered: usize, f: &[Value]) -> R<()> {
        if !self.pausing() {
            return Ok(());
        }
        let Some(w) = self.st.walk.as_mut() else { return Ok(()) };
        if self.depth == 0 && std::mem::take(&mut w.step_roll) || w.used == entered {
            return Ok(());
        }
        w.seen += 1;
        if w.seen <= w.skip {
            return Ok(());
        }
        let key = self.pause_key(f, span);
        let context = self.context();
        if let Some(w) = self.st.walk.as_mut() {
            w.paused = Some(Paused::Roll { entered, context, key, span: (span.start, span.end) });
        }
        Err(Box::new(paused(span)))
    }

    /// Before the dice of check `c` (with modifiers `mods`) are drawn, in a walk that pauses:
    /// when the walk's key says nothing reads their faces but the pool's count of successes
    /// (`Keep::classed`), and no log shows them, lets the walk offer one face of each class of
    /// faces (`dice::Walk::class`). Whether it did, for [`Runner::unclass_dice`] after the roll;
    /// outside such a walk, one test of the run's mode.
    #[inline(always)]
    pub(super) fn class_dice<const SIM: bool>(&mut self, c: CheckId, mods: &[crate::ast::DiceMod]) -> bool {
        self.kept::<SIM>().pauses && self.note_class(c, mods)
    }

    /// [`Runner::class_dice`] in a run that may pause.
    #[inline(never)]
    fn note_class(&mut self, c: CheckId, mods: &[crate::ast::DiceMod]) -> bool {
        if self.mode.log || !self.pausing() {
            return false;
        }
        let Some(w) = self.st.walk.as_mut() else { return false };
        let classed = w.keep.as_ref().is_some_and(|k| k.classed.get(c as usize).copied().unwrap_or(false));
        w.class = if classed { crate::dice::success_test(mods) } else { None };
        w.class.is_some()
    }

    /// The dice of the check are drawn: the next dice of the walk are offered face by face again.
    #[inline(never)]
    pub(super) fn unclass_dice(&mut self) {
        if let Some(w) = self.st.walk.as_mut() {
            w.class = None;
        }
    }

    /// Where the constructs around the running statement are noted, while a walk that pauses is
    /// under way: `None` otherwise, and then a call or loop costs one test of the run's mode.
    #[inline(always)]
    pub(super) fn outer_mark<const SIM: bool>(&self) -> Option<usize> {
        if !self.kept::<SIM>().pauses {
            return None;
        }
        self.noted_so_far()
    }

    /// [`Runner::outer_mark`] in a run that may pause.
    #[inline(never)]
    fn noted_so_far(&self) -> Option<usize> {
        self.paused_walk().map(|w| w.outer.len())
    }

    /// Notes, in a walk that pauses, the call made by the statement at `span` from frame `f`: the
    /// values of `f` that anything reads after the call (by `odds::live`; all of them when the walk
    /// was given nothing to go by, and none, the call then left undescribed, for a statement it
    /// does not know). Returns where to go back to with [`Runner::leave`].
    #[inline(always)]
    pub(super) fn enter_call<const SIM: bool>(&mut self, span: Span, f: &[Value]) -> Option<usize> {
        if !self.kept::<SIM>().pauses {
            return None;
        }
        self.note_call(span, f)
    }

    /// [`Runner::enter_call`] in a run that may pause.
    #[inline(never)]
    fn note_call(&mut self, span: Span, f: &[Value]) -> Option<usize> {
        let mark = self.noted_so_far()?;
        let w = self.st.walk.as_mut()?;
        let at = (span.start, span.end);
        let entry = match w.keep.as_deref() {
            Some(k) => match k.frames.get(&at) {
                Some(live) => Outer::Call(
                    at,
                    live.iter().map(|i| f.get(*i as usize).cloned().unwrap_or(Value::None)).collect(),
                ),
                None => Outer::Opaque,
            },
            None => Outer::Call(at, f.to_vec()),
        };
        w.outer.push(entry);
        Some(mark)
    }

    /// Notes `o` around what runs next, in place of whatever was noted from `mark` on (a loop's
    /// turn replaces the turn before); nothing outside a walk that pauses.
    #[inline(always)]
    pub(super) fn enter_at(&mut self, mark: Option<usize>, o: Outer) {
        if let Some(m) = mark {
            self.note_at(m, o);
        }
    }

    /// [`Runner::enter_at`] in a walk that pauses.
    #[inline(never)]
    fn note_at(&mut self, m: usize, o: Outer) {
        if let Some(w) = self.st.walk.as_mut() {
            w.outer.truncate(m);
            w.outer.push(o);
        }
    }

    /// Forgets what was noted from `mark` on: the construct it was noted for is left (also when it
    /// stopped with an error, so that nothing stale is left behind).
    #[inline(always)]
    pub(super) fn leave(&mut self, mark: Option<usize>) {
        if let Some(m) = mark {
            self.forget_from(m);
        }
    }

    /// [`Runner::leave`] in a walk that pauses.
    #[inline(never)]
    fn forget_from(&mut self, m: usize) {
        if let Some(w) = self.st.walk.as_mut() {
            w.outer.truncate(m);
        }
    }

    /// What encloses a pause inside a rule, as bytes: each call on the way to it (where it was made,
    /// the live values of the frame that made it), each `for each` and `repeat` turn. With the game
    /// state and the innermost frame's live values (`pause_key`), what a path does after the pause
    /// depends on nothing else: the statements left in each block follow from where each call was
    /// made (a call's statement is in one block of one rule, and which outcome's effects or which
    /// trigger of an event runs follows from it too); the event of a trigger, the check of a roll
    /// follow from the statement. What is not in the key, and why it may be left out: the
    /// results of checks left to be made when read (made before the key is written, by
    /// `pause_key`); timed changes, the round and turn (in the game state); whether a roll further
    /// out pauses after it returns (that changes where paths merge, not what they reach); the
    /// count of steps against the step budget (a merged path goes on with the count of the path
    /// that stands for it, as paths merged at a step of the scenario start again from none).
    /// `None` when something on the way is not described (a script's reaction): the faces
    /// that led to the pause stand for it then, as they always did.
    fn context(&self) -> Option<Vec<u8>> {
        let w = self.st.walk.as_ref()?;
        if w.outer.iter().any(|o| matches!(o, Outer::Opaque)) {
            return None;
        }
        let mut out = vec![];
        crate::session::states::write_key(&mut out, &w.outer);
        Some(out)
    }

    /// What tells a path paused inside a rule, at the `roll` or `repeat` at `span`, apart: the game
    /// state, the rule's values `f` that a later statement reads, and what the scenario recorded
    /// so far.
    fn pause_key(&mut self, f: &[Value], span: Span) -> Vec<u8> {
        let keep = self.st.walk.as_ref().and_then(|w| w.keep.clone());
        self.settle_all_last();
        let mut key = vec![];
        let lasts = keep.as_deref().map(|k| (k.in_rule.as_slice(), &*k.reads));
        crate::session::state_key(self.st, lasts, &mut key);
        let records = self.game.as_ref().map(|g| g.records.as_slice()).unwrap_or(&[]);
        let live = keep.as_deref().and_then(|k| k.frames.get(&(span.start, span.end)));
        match live {
            Some(live) => {
                let f: Vec<&Value> =
                    live.iter().map(|i| f.get(*i as usize).unwrap_or(&Value::None)).collect();
                crate::session::states::write_key(&mut key, &(f, records));
            }
            None => crate::session::states::write_key(&mut key, &(f, records)),
        }
        key
    }

    /// Runs scenario `s` on from place `at` (indices through its blocks: the step; in a `repeat`,
    /// the turn and the statement of its body; in an `if` or `with chance`, the branch and the
    /// statement), with the scenario's values in `f`. A walk that pauses stops before each later
    /// statement of the scenario's own blocks (rules run whole, pausing only at their `repeat`s).
    pub fn scenario_from(&mut self, s: usize, at: &[usize], f: &mut Vec<Value>) -> R<()> {
        let sc = &self.p.scenarios[s];
        self.rule = Some((sc.span, sc.name.as_str()));
        let pausing = self.pausing();
        let mut path = vec![];
        let r = self.block_from(&sc.body, at, &mut path, true, pausing, f);
        if let Err(d) = r {
            if self.st.walk.as_ref().is_some_and(|w| w.paused.is_some()) {
                return Err(d);
            }
            let step = path.first().and_then(|i| sc.body.get(*i)).and_then(Stmt::span);
            return Err(match step {
                Some(s) if !d.labels.iter().any(|l| l.span == s) => {
                    Box::new(d.with_label(s, "during this scenario step"))
                }
                _ => d,
            });
        }
        Ok(())
    }

    /// Runs `stmts` (a block of the scenario, at `path`) from place `at` in it: an empty `at` runs
    /// it from the start, pausing before its first statement too. A block inside another stops
    /// once the game is over, as `exec_block` does; the scenario's own steps go on.
    fn block_from(
        &mut self,
        stmts: &[Stmt],
        at: &[usize],
        path: &mut Vec<usize>,
        top: bool,
        pausing: bool,
        f: &mut Vec<Value>,
    ) -> R<()> {
        let start = at.first().copied().unwrap_or(0);
        for (j, st) in stmts.iter().enumerate().skip(start) {
            if !top && self.st.over.is_some() {
                break;
            }
            let resumed = !at.is_empty() && j == start;
            path.push(j);
            if pausing && !resumed {
                return Err(self.pause_at(path, st.span().unwrap_or_default()));
            }
            let inner = if resumed { &at[1..] } else { &[][..] };
            match st {
                Stmt::If(c, a, b) => {
                    let branch = match inner.first() {
                        Some(&br) => br,
                        None => {
                            self.tick(1)?;
                            usize::from(!self.holds(c, f)?)
                        }
                    };
                    let block = if branch == 0 { a } else { b };
                    path.push(branch);
                    let rest = inner.get(1..).unwrap_or(&[]);
                    // Entered now, the branch pauses before its first statement.
                    self.block_from(block, rest, path, false, pausing, f)?;
                    path.pop();
                }
                Stmt::Repeat { body, until, span } => {
                    self.repeat_from((body, until, *span), inner, path, pausing, f)?;
                }
                Stmt::Roll { .. } => {
                    if let Some(w) = self.st.walk.as_mut() {
                        w.step_roll = true;
                    }
                    let r = self.exec::<ANY_RUN>(st, f);
                    if let Some(w) = self.st.walk.as_mut() {
                        w.step_roll = false;
                    }
                    r?
                }
                _ => self.exec::<ANY_RUN>(st, f)?,
            }
            path.pop();
        }
        Ok(())
    }

    /// A `repeat` of the scenario's own, from place `at` in it (the turn, then the place in the
    /// body), pausing before each statement of its body.
    fn repeat_from(
        &mut self,
        (body, until, span): (&[Stmt], &Test, Span),
        at: &[usize],
        path: &mut Vec<usize>,
        pausing: bool,
        f: &mut Vec<Value>,
    ) -> R<()> {
        let from = match at.first() {
            Some(&t) => t,
            None => {
                self.at(span)?;
                0
            }
        };
        for turn in from..MAX_REPEAT {
            path.push(turn);
            let rest = if turn == from { at.get(1..).unwrap_or(&[]) } else { &[][..] };
            if rest.is_empty() {
                self.span = span;
                self.tick(1)?;
            }
            self.block_from(body, rest, path, false, pausing, f)?;
            path.pop();
            self.span = span;
            if self.holds(until, f)? || self.st.over.is_some() {
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

    /// Pauses the walk before the statement at `path`.
    fn pause_at(&mut self, path: &[usize], at: Span) -> Box<crate::diagnostics::Diagnostic> {
        self.settle_all_last();
        if let Some(w) = self.st.walk.as_mut() {
            w.paused = Some(Paused::Step { at: path.to_vec() });
        }
        Box::new(paused(at))
    }
}

/// The error that unwinds a paused walk's run (never shown: the walk reads where it paused).
fn paused(at: Span) -> crate::diagnostics::Diagnostic {
    fail("walk_paused", "an exhaustive walk paused here", at, "nothing to fix")
}
