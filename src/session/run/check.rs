//! Rolling a check: inputs, modifiers, the roll, the outcome it lands on and that outcome's rules.

use super::ANY_RUN;
use super::fold::{Amount, Cond, Live};
use super::{R, Runner, fail, put, set};
use crate::ast::Span;
use crate::diagnostics::Diagnostic;
use crate::program::*;
use crate::session::LogEntry;
use std::sync::Arc;

impl Runner<'_> {
    // ---------------------------------------------------------------- checks

    /// Rolls check `c`, made by `subject`. A check made by someone but rolled for nobody fails with
    /// a message saying so as soon as its rules read the missing subject.
    pub fn roll_check(
        &mut self,
        c: CheckId,
        subject: Option<u32>,
        args: Vec<(u32, Value)>,
        span: Span,
    ) -> R<Arc<CheckResult>> {
        let (mut f, given) = self.args_frame(c, &args, span)?;
        let r = self.roll_check_inner::<Arc<CheckResult>, ANY_RUN>(c, subject, &mut f, &given, span);
        self.let_go(f);
        self.no_subject(c, subject, r)
    }

    /// Rolls check `c` as [`Runner::roll_check`] does, for a rule, its inputs `given` already in
    /// frame `f` (from [`Runner::check_frame`]): its result is only kept as the check's last. The
    /// frame is taken from `f` when the roll is done with it; what is left there after an error is
    /// the caller's to let go.
    pub(super) fn roll_check_in_rule<const SIM: bool>(
        &mut self,
        c: CheckId,
        subject: Option<u32>,
        f: &mut Vec<Value>,
        given: &Given,
        span: Span,
    ) -> R<()> {
        let r = self.roll_check_inner::<(), SIM>(c, subject, f, given, span);
        self.no_subject(c, subject, r)
    }

    /// A frame for check `c`, every slot empty (its inputs given are recorded in a [`Given`]).
    pub(super) fn check_frame(&mut self, c: CheckId) -> Vec<Value> {
        self.frame(self.p.checks[c as usize].nslots as usize)
    }

    /// Keeps frame `f` to be used again, unless a roll took it.
    pub(super) fn let_go(&mut self, f: Vec<Value>) {
        if f.capacity() > 0 {
            self.recycle(f);
        } else {
            // Taken by the roll: it holds nothing, and forgetting it saves a call to drop it.
            std::mem::forget(f);
        }
    }

    /// A frame for check `c` with the inputs `args` written in, each checked against its range in
    /// the order given (a host may give one twice: each value is checked).
    fn args_frame(
        &mut self,
        c: CheckId,
        args: impl IntoIterator<Item = impl std::borrow::Borrow<(u32, Value)>>,
        span: Span,
    ) -> R<(Vec<Value>, Given)> {
        let mut f = self.check_frame(c);
        match self.write_args(c, &mut f, args, span) {
            Ok(given) => Ok((f, given)),
            Err(e) => {
                self.recycle(f);
                Err(e)
            }
        }
    }

    /// Writes the inputs `args` of check `c` into frame `f`, as [`Runner::args_frame`] does.
    fn write_args(
        &mut self,
        c: CheckId,
        f: &mut [Value],
        args: impl IntoIterator<Item = impl std::borrow::Borrow<(u32, Value)>>,
        span: Span,
    ) -> R<Given> {
        let mut given = Given::new(self.p.checks[c as usize].inputs.len());
        for arg in args {
            // Each value is written straight from where the caller keeps it into its slot.
            let (i, v) = arg.borrow();
            given_in_range(&self.p.checks[c as usize], *i, v, span)?;
            put(&mut f[*i as usize], v);
            given.set(*i as usize);
        }
        given.checked = true;
        Ok(given)
    }

    /// Says so when a check made by someone but rolled for nobody reads its subject.
    fn no_subject<T>(&self, c: CheckId, subject: Option<u32>, r: R<T>) -> R<T> {
        let check = &self.p.checks[c as usize];
        match (r, check.subject) {
            (Err(d), Some(k)) if subject.is_none() && d.is(crate::diagnostics::Code::NoEntity) => {
                let kind = &self.p.kinds[k as usize].name;
                Err(Box::new(Diagnostic::error(
                    crate::diagnostics::Code::NoSubject.path(),
                    format!("check `{}` is made by a {kind}, and this roll has none", check.name),
                    d.span(),
                    format!("this reads the {kind}'s attributes"),
                )
                .with_help(format!(
                    "roll it for a {kind}: `roll {} for …` in a rule or scenario, `Session::roll_for` from Rust, or `--with` on the command line",
                    check.name
                ))))
            }
            (r, _) => r,
        }
    }

    fn roll_check_inner<W: Wanted, const SIM: bool>(
        &mut self,
        c: CheckId,
        subject: Option<u32>,
        f: &mut Vec<Value>,
        given: &Given,
        span: Span,
    ) -> R<W> {
        let p = self.p;
        let check = &p.checks[c as usize];
        self.span = span;
        self.tick(1)?;
        let outer = self.rule.replace((check.span, check.name.as_str()));
        let r = self.roll_check_body::<W, SIM>(c, subject, f, given, span);
        self.rule = outer;
        r
    }

    fn roll_check_body<W: Wanted, const SIM: bool>(
        &mut self,
        c: CheckId,
        subject: Option<u32>,
        f: &mut Vec<Value>,
        given: &Given,
        span: Span,
    ) -> R<W> {
        let check = &self.p.checks[c as usize];
        // What is logged while the check is worked out (a table looked up) goes under its line.
        let mark = self.log.len();
        // A simulated game's results are never shown: their modifiers' labels are not kept.
        let labels = !self.kept::<SIM>().game;
        let mut setup = Setup::default();
        // The frame and setup are filled in place (returning them measured slower).
        self.prepare_frame::<SIM>(c, subject, f, given, span, labels, &mut setup)?;
        let mut rerolled = vec![];
        let keep = self.kept::<SIM>().log.then_some(&mut rerolled);
        let (total, target, oi) = self.roll_and_settle::<SIM>(c, &setup, f, keep)?;
        let outcome = &check.outcomes[oi];
        let target_parts = match &check.target {
            Some(t) if self.kept::<SIM>().log => self.parts(t, f),
            _ => None,
        };
        let margin = match target {
            Some(t) if check.under => Some(t.checked_sub(total).ok_or_else(|| self.overflow())?),
            Some(t) => Some(total.checked_sub(t).ok_or_else(|| self.overflow())?),
            None => None,
        };
        let settled = Settled { subject, total, target, margin, oi: oi as u32 };
        // A rule's roll in a simulated game keeps its frame as it is: the result is made from it
        // only if something reads it (see `Pending`). An outcome with effects applies them in a
        // copy of the frame, which they may write in.
        if W::LAZY && self.kept::<SIM>().reuse {
            let effects = subject.is_some() && !outcome.body.is_empty();
            // Effects that write none of the frame's values and read no last result are applied in
            // the frame itself, before it is kept (nothing they do can read it as the last result).
            if effects && outcome.in_place {
                self.drop_pending(c);
                // A copy in a spare frame (a simulated game allocates nothing more for it).
                #[cfg(debug_assertions)]
                let before = {
                    let mut copy = self.frame(f.len());
                    copy.iter_mut().zip(f.iter()).for_each(|(to, from)| put(to, from));
                    copy
                };
                let r = self.exec_body::<SIM>(&outcome.body, f);
                // What makes the frame safe to keep as the result: the effects wrote none of it.
                #[cfg(debug_assertions)]
                {
                    assert!(r.is_err() || *f == before, "effects applied in place wrote their check's frame");
                    self.recycle(before);
                }
                self.set_pending(c, Pending { settled, frame: std::mem::take(f) });
                r?;
                return Ok(W::none());
            }
            if !effects {
                self.set_pending(c, Pending { settled, frame: std::mem::take(f) });
                return Ok(W::none());
            }
            let mut copy = self.frame(f.len());
            for (to, from) in copy.iter_mut().zip(f.iter()) {
                put(to, from);
            }
            self.set_pending(c, Pending { settled, frame: std::mem::take(f) });
            let r = self.exec_body::<SIM>(&outcome.body, &mut copy);
            self.recycle(copy);
            r?;
            return Ok(W::none());
        }
        self.drop_pending(c);
        let shown = if self.kept::<SIM>().log {
            // A value worked out for some outcomes' effects only is not shown under the others.
            let shown = |i: usize| match check.lets_for.get(i) {
                Some(Some(only)) => only.contains(&(oi as u32)),
                _ => true,
            };
            Shown {
                applied: setup.applied,
                rerolled,
                target_parts,
                inputs: check
                    .inputs
                    .iter()
                    .enumerate()
                    .map(|(i, inp)| (inp.field.name.clone(), self.show(&f[i])))
                    .collect(),
                values: check
                    .lets
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| shown(*i))
                    .map(|(_, (n, s))| (n.clone(), self.show(&f[*s as usize])))
                    .collect(),
            }
        } else {
            Shown { applied: setup.applied, ..Shown::default() }
        };
        let logging = self.kept::<SIM>().log;
        let result = self.keep_result(c, &settled, f, shown);
        let wanted = W::of(result);
        if let Some(entry) = logging.then(|| LogEntry::Check(Box::new((**result).clone()))) {
            let during = self.log.split_off(mark.min(self.log.len()));
            self.push::<SIM>(entry);
            // Already counted against the log's budget when first logged.
            self.log
                .extend(during.into_iter().map(|l| super::LogLine { depth: l.depth + 1, entry: l.entry }));
        }
        // The host's action collects the result before the effects, which may roll other checks.
        if let Some(o) = self.host.outcome.as_deref_mut()
            && let Some(r) = &self.st.last[c as usize]
        {
            o.checks.push(r.clone());
        }
        if subject.is_some() {
            self.exec_body::<SIM>(&outcome.body, f)?;
        }
        self.recycle_check(c, std::mem::take(f));
        Ok(wanted)
    }

    /// What the effects of outcome `oi` of check `c` leave of `subject`'s attributes, for exact odds:
    /// applied as a real roll applies them (its result made the check's last first), with no dice to
    /// roll (a die stops them), then everything they changed put back. `Ok(Err(why))` when they
    /// cannot be followed from this roll alone; `Err` only when the work ran out or the roll was
    /// cancelled.
    pub fn effects_after(
        &mut self,
        c: CheckId,
        subject: u32,
        (total, target, oi): (i64, Option<i64>, usize),
        f: &mut Vec<Value>,
    ) -> R<Result<Vec<Value>, String>> {
        let check = &self.p.checks[c as usize];
        let saved = self.st.clone();
        self.st.walk = Some(crate::dice::Walk::default());
        let margin =
            target.map(|t| if check.under { t.saturating_sub(total) } else { total.saturating_sub(t) });
        let settled = Settled { subject: Some(subject), total, target, margin, oi: oi as u32 };
        self.keep_result(c, &settled, f, Shown::default());
        let r = self.exec_body::<ANY_RUN>(&check.outcomes[oi].body, f);
        let rolled = self.st.walk.as_ref().is_some_and(|w| w.needs.is_some());
        let after = match r {
            Ok(()) => Ok(self.st.entities[subject as usize].fields.clone()),
            Err(_) if rolled => Err("its effects roll dice of their own".to_string()),
            Err(e) if crate::odds::work::dry() || self.cancel.load(std::sync::atomic::Ordering::Relaxed) => {
                *self.st = saved;
                return Err(e);
            }
            Err(e) => Err(format!("its effects stop with an error: {}", e.message)),
        };
        *self.st = saved;
        Ok(after)
    }

    /// Makes the result of a roll of check `c` that settled as `s` with frame `f` the check's last,
    /// over the last one when nothing else holds it (its strings and vectors used again, its old
    /// dice kept for the next roll).
    fn keep_result(&mut self, c: CheckId, s: &Settled, f: &[Value], shown: Shown) -> &Arc<CheckResult> {
        let check = &self.p.checks[c as usize];
        let outcome = &check.outcomes[s.oi as usize];
        // The dice are read where the check's frame keeps them.
        let pool = match (&check.roll, &f[check.slots.dice as usize]) {
            (Some(_), Value::Pool(p)) => Some(&**p),
            _ => None,
        };
        let fresh = Fresh {
            check: &check.name,
            check_id: c,
            pool,
            modifiers: shown.applied,
            rerolled: shown.rerolled,
            total: s.total,
            target: s.target,
            margin: s.margin,
            under: check.under,
            target_parts: shown.target_parts,
            inputs: shown.inputs,
            values: shown.values,
            outcome: &self.p.sets[check.outcome_set as usize].names[outcome.index as usize],
            outcome_index: outcome.index,
            outcome_span: outcome.span,
            span: check.span,
            slots: f,
            dice_slot: check.slots.dice as usize,
        };
        let st = &mut *self.st;
        let who = s.subject.map(|s| st.entities[s as usize].name.as_str());
        let last = st.last[c as usize].take().or_else(|| self.kit.results.get_mut(c as usize)?.take());
        let result = match last {
            Some(mut last) => match Arc::get_mut(&mut last) {
                Some(old) => {
                    if let Some(Value::Pool(p)) = fresh.refill(old, who) {
                        self.kit.pool = Some(p);
                    }
                    last
                }
                None => Arc::new(fresh.build(who)),
            },
            None => Arc::new(fresh.build(who)),
        };
        self.st.last[c as usize].insert(result)
    }

    /// Lets go of a roll of check `c` whose result nobody read, now that a later roll replaces it.
    fn drop_pending(&mut self, c: CheckId) {
        if let Some(old) = self.pending_slot(c).take() {
            self.keep_check_frame(c, old.frame);
        }
    }

    /// Makes `p` check `c`'s roll left to be made when read, in place of the one before (let go as
    /// [`Runner::drop_pending`] lets it go).
    #[inline(always)]
    fn set_pending(&mut self, c: CheckId, p: Pending) {
        if let Some(old) = self.pending_slot(c).replace(p) {
            self.keep_check_frame(c, old.frame);
        }
    }

    /// Where check `c`'s roll left to be made when read is kept (a place for each check, made once).
    #[inline(always)]
    fn pending_slot(&mut self, c: CheckId) -> &mut Option<Pending> {
        if self.kit.pending.len() < self.p.checks.len() {
            self.kit.pending.resize_with(self.p.checks.len(), || None);
        }
        &mut self.kit.pending[c as usize]
    }

    /// Makes the result of check `c`'s last roll, if it was left to be made when read.
    #[inline]
    pub(super) fn settle_last(&mut self, c: CheckId) {
        if let Some(Some(_)) = self.kit.pending.get(c as usize) {
            self.make_pending(c);
        }
    }

    #[inline(never)]
    fn make_pending(&mut self, c: CheckId) {
        if let Some(Pending { settled, frame }) = self.kit.pending[c as usize].take() {
            self.keep_result(c, &settled, &frame, Shown::default());
            self.keep_check_frame(c, frame);
        }
    }

    /// Makes every result left to be made when read: before the entities they name move, and when
    /// the game is over.
    pub(in crate::session) fn settle_all_last(&mut self) {
        for c in 0..self.kit.pending.len() {
            self.settle_last(c as CheckId);
        }
    }

    /// Lets go of the rolls whose results were left to be made when read, without making them.
    pub(in crate::session) fn let_go_pending(&mut self) {
        for c in 0..self.kit.pending.len() {
            if let Some(p) = self.kit.pending[c].take() {
                self.keep_check_frame(c as CheckId, p.frame);
            }
        }
    }

    /// Check `c`'s last result, made first if it was left to be made when read.
    pub(super) fn last_result(&mut self, c: CheckId) -> &Option<Arc<CheckResult>> {
        self.settle_last(c);
        &self.st.last[c as usize]
    }

    /// The place, in the check's outcome set, of check `c`'s last outcome, read without making its
    /// result.
    #[inline]
    pub(super) fn last_outcome(&self, c: usize) -> Option<u32> {
        match self.kit.pending.get(c) {
            Some(Some(p)) => Some(self.p.checks[c].outcomes[p.settled.oi as usize].index),
            _ => self.st.last.get(c)?.as_ref().map(|r| r.outcome_index),
        }
    }

    /// Keeps a check's finished frame, and its dice, to be used again.
    pub fn recycle_check(&mut self, c: CheckId, mut f: Vec<Value>) {
        self.keep_dice(c, &mut f);
        self.recycle(f);
    }

    /// Takes the dice out of a finished frame of check `c`, to be rolled again when nothing else
    /// holds them.
    #[inline(always)]
    fn keep_dice(&mut self, c: CheckId, f: &mut [Value]) {
        let dice = self.p.checks[c as usize].slots.dice as usize;
        if let Some(Value::Pool(p)) = f.get_mut(dice).map(|v| std::mem::replace(v, Value::None))
            && (self.kit.pool.is_none() || Arc::strong_count(&p) == 1)
        {
            self.kit.pool = Some(p);
        }
    }

    /// The frame a finished roll of check `c` left (see [`Runner::keep_check_frame`]), if one did.
    fn kept_check_frame(&mut self, c: CheckId) -> Option<Vec<Value>> {
        let f = self.kit.check_frames.get_mut(c as usize).and_then(Option::take);
        #[cfg(debug_assertions)]
        let f = f.map(super::scrambled);
        f
    }

    /// Everything of a roll that comes before the dice: inputs (given or default), the `let`s written
    /// before the roll line, and the modifiers. Returns the check's slots so far and the setup of the
    /// roll. Draws no dice unless a rule before the roll does. Without `labels`, the setup keeps
    /// no modifiers' labels (nor `applied`): a quiet roll that nobody reads them from.
    pub fn prepare_check(
        &mut self,
        c: CheckId,
        subject: Option<u32>,
        args: impl IntoIterator<Item = impl std::borrow::Borrow<(u32, Value)>>,
        span: Span,
        labels: bool,
    ) -> R<(Vec<Value>, Setup)> {
        let (mut f, given) = self.args_frame(c, args, span)?;
        let mut setup = Setup::default();
        if let Err(e) = self.prepare_frame::<ANY_RUN>(c, subject, &mut f, &given, span, labels, &mut setup) {
            self.recycle(f);
            return Err(e);
        }
        Ok((f, setup))
    }

    /// [`Runner::prepare_check`] for a quiet roll ([`crate::Session::roll_quietly`]), which keeps
    /// no modifiers' labels, in the frame a finished quiet roll of the check, or roll of it in a
    /// quiet game, left (see [`Runner::keep_check_frame`]).
    pub fn prepare_quietly(
        &mut self,
        c: CheckId,
        subject: Option<u32>,
        args: impl IntoIterator<Item = impl std::borrow::Borrow<(u32, Value)>>,
    ) -> R<(Vec<Value>, Setup)> {
        let mut f = match self.kept_check_frame(c) {
            Some(f) => f,
            None => self.check_frame(c),
        };
        let given = self.write_args(c, &mut f, args, Span::default())?;
        let mut setup = Setup::default();
        self.prepare_frame::<ANY_RUN>(c, subject, &mut f, &given, Span::default(), false, &mut setup)?;
        Ok((f, setup))
    }

    /// Keeps a finished frame of check `c` for its next quiet roll, or roll in a quiet game, its
    /// values as they are: every slot a roll reads is written first in the same roll (the inputs,
    /// given or by default; each `let` before it is read, as the checker's scopes make sure; the
    /// dice, total and target before the outcomes). A quiet roll makes no result; a roll in a game
    /// empties first the slots that it may leave unwritten (see [`Runner::stale_check_frame`]), so
    /// a result made from it is the one a fresh frame gives. Its dice go back to be rolled again,
    /// as [`Runner::recycle_check`] gives them.
    pub fn keep_check_frame(&mut self, c: CheckId, mut f: Vec<Value>) {
        if self.kit.check_frames.get(c as usize).is_some_and(Option::is_some) {
            return self.recycle_check(c, f);
        }
        self.keep_dice(c, &mut f);
        if self.kit.check_frames.len() <= c as usize {
            self.kit.check_frames.resize_with(self.p.checks.len().max(c as usize + 1), || None);
        }
        // Empty, as just seen: written without dropping what it held.
        if let Some(slot @ None) = self.kit.check_frames.get_mut(c as usize) {
            *slot = Some(f);
        }
    }

    /// A frame for a rule's roll of check `c`: in a quiet game, the one a finished roll of it left
    /// (see [`Runner::keep_check_frame`]), its slots that a roll may leave unwritten emptied (the
    /// places of `number of`'s candidates, of outcomes' own values and loops: everything but the
    /// inputs, the `let`s and the check's own slots), the others as they were; else an empty one.
    pub(super) fn stale_check_frame<const SIM: bool>(&mut self, c: CheckId) -> Vec<Value> {
        if !self.kept::<SIM>().reuse {
            return self.check_frame(c);
        }
        let Some(mut f) = self.kept_check_frame(c) else {
            return self.check_frame(c);
        };
        if self.kit.scratch.len() <= c as usize {
            self.kit.scratch.resize_with(self.p.checks.len().max(c as usize + 1), || None);
        }
        let check = &self.p.checks[c as usize];
        let scratch = self.kit.scratch[c as usize].get_or_insert_with(|| scratch_slots(check));
        for s in scratch.iter() {
            set(&mut f[*s as usize], Value::None);
        }
        f
    }

    /// Checks the inputs `given` in frame `f` against their ranges and fills in the others of check
    /// `c`: from `subject`'s attribute of the same name, a default, or an error.
    #[inline(always)]
    fn fill_inputs(
        &mut self,
        c: CheckId,
        subject: Option<u32>,
        f: &mut Vec<Value>,
        given: &Given,
        span: Span,
    ) -> R<()> {
        let check = &self.p.checks[c as usize];
        // A rule gives its inputs in the order they are declared: the first out of range is named.
        if !given.checked {
            for (i, v) in f.iter().enumerate().take(check.inputs.len()) {
                if given.get(i) {
                    given_in_range(check, i as u32, v, span)?;
                }
            }
        }
        // The subject, when it is of the kind that makes the check (its attributes give inputs):
        // looked for at the first input that can come from it.
        let mut maker: Option<Option<u32>> = None;
        for (i, input) in check.inputs.iter().enumerate() {
            if given.get(i) {
                continue;
            }
            // The subject's own attribute first: a plain default does not hide it.
            if let Some(a) = self.code.subject_input(c, i)
                && let Some(id) = *maker.get_or_insert_with(|| {
                    subject
                        .filter(|s| self.st.entities.get(*s).is_some_and(|e| check.subject == Some(e.kind)))
                })
            {
                // A check made by a unit takes an input the unit has as an attribute from the unit.
                let who = &self.st.entities[id as usize];
                let v = &who.fields[a as usize];
                if let (Ty::Int { lo, hi }, Value::Int(x)) = (&input.field.ty, v)
                    && (lo.is_some_and(|l| *x < l) || hi.is_some_and(|h| *x > h))
                {
                    return Err(Box::new(
                        fail(
                            "out_of_range",
                            format!(
                                "input `{}` of check `{}` is {x}, taken from {}'s {}, outside its range",
                                input.field.name, check.name, who.name, input.field.name
                            ),
                            if span.is_empty() { input.field.span } else { span },
                            &format!(
                                "give `{}` a value {}",
                                input.field.name,
                                crate::check::range_words(*lo, *hi)
                            ),
                        )
                        .with_label(input.field.span, "declared here"),
                    ));
                }
                put(&mut f[i], v);
            } else if let Some(v) = &input.field.default {
                put(&mut f[i], v);
            } else if let Some(e) = &input.default {
                self.span = input.field.span;
                f[i] = self.calc::<ANY_RUN>(e, f)?;
            } else {
                return Err(Box::new(fail(
                    crate::diagnostics::Code::MissingInput.name(),
                    format!("check `{}` needs input `{}`", check.name, input.field.name),
                    if span.is_empty() { input.field.span } else { span },
                    &format!(
                        "give `{}` a value (`--set {}=…` on the command line)",
                        input.field.name, input.field.name
                    ),
                )));
            }
        }
        Ok(())
    }

    /// [`Runner::prepare_check`], the inputs `given` already written into frame `f`.
    #[allow(clippy::too_many_arguments, reason = "two call sites; the frame and setup are written in place")]
    fn prepare_frame<const SIM: bool>(
        &mut self,
        c: CheckId,
        subject: Option<u32>,
        f: &mut Vec<Value>,
        given: &Given,
        span: Span,
        labels: bool,
        setup: &mut Setup,
    ) -> R<()> {
        let check = &self.p.checks[c as usize];
        // Until a rule with a place of its own runs, errors point at the check.
        self.span = check.span;
        set(&mut f[check.slots.subject as usize], subject.map(Value::Entity).unwrap_or(Value::None));
        if !check.inputs.is_empty() {
            self.fill_inputs(c, subject, f, given, span)?;
        }
        for (i, step) in check.steps.iter().enumerate() {
            match step {
                CheckStep::Let(slot, e) => {
                    let v = self.calc::<SIM>(e, f)?;
                    f[*slot as usize] = v;
                }
                CheckStep::Roll => {
                    setup.after = i + 1;
                    break;
                }
            }
        }
        // Only the modifiers that may apply under the options are looked at (the others' conditions
        // are known to fail, and reading them has no effect).
        self.fold_check(c);
        // Read from a list taken out of the folds while the modifiers are applied (nothing they
        // work out folds this check again), and put back whatever happens.
        let live = self.kit.folds.take(c);
        let applied = self.apply_modifiers(c, &live, f, labels, setup);
        self.kit.folds.put_back(c, live);
        applied?;
        // Where the last modifier would have left it.
        if let Some(m) = check.modifiers.last() {
            self.span = m.span;
        }
        Ok(())
    }

    /// Applies the modifiers of check `c` that may apply under the options (`live`) to `setup`. Its
    /// place for errors is set only where one may arise: reading a flag or a local cannot fail.
    #[inline(always)]
    fn apply_modifiers(
        &mut self,
        c: CheckId,
        live: &[Live],
        f: &mut Vec<Value>,
        labels: bool,
        setup: &mut Setup,
    ) -> R<()> {
        let check = &self.p.checks[c as usize];
        for live in live {
            let holds = match live.cond {
                Cond::Always => true,
                Cond::Flag(slot, not) => f.get(slot as usize).is_some_and(Value::truth) != not,
                Cond::Rule => match &check.modifiers[live.index as usize].when {
                    Some(w) => {
                        self.span = live.span;
                        self.holds(w, f)?
                    }
                    None => true,
                },
            };
            if !holds {
                continue;
            }
            let amount = match live.amount {
                Amount::Const(a) => a,
                Amount::Local(s) => f.get(s as usize).map_or(0, Value::int),
                Amount::Rule => {
                    self.span = live.span;
                    let m = &check.modifiers[live.index as usize];
                    let amount = self.calc_int(&m.amount, f)?;
                    match &m.cap {
                        // A cap of i64::MIN reads as the largest cap there is, not as an overflow.
                        Some(cap) => {
                            let cap = self.calc_int(cap, f)?.checked_abs().unwrap_or(i64::MAX);
                            amount.clamp(-cap, cap)
                        }
                        None => amount,
                    }
                }
            };
            if amount == 0 {
                continue;
            }
            let sum = if live.dice { &mut setup.extra } else { &mut setup.flat };
            match sum.checked_add(amount) {
                Some(v) => *sum = v,
                None => {
                    self.span = live.span;
                    return Err(Box::new(self.overflow()));
                }
            }
            if !labels {
                continue;
            }
            let label = &check.modifiers[live.index as usize].label;
            if live.dice && amount > 0 {
                setup.labels.push((label.clone(), amount));
            }
            setup.applied.push(AppliedModifier {
                label: label.clone(),
                amount,
                dice: live.dice,
                span: live.span,
            });
        }
        Ok(())
    }

    /// Rolls check `c`'s dice (set up by `setup`, in frame `f`) and settles them, as
    /// [`Runner::settle_check`] does; then, while `reroll when …` says so, rolls them again and
    /// settles the new roll, at most [`Reroll::bound`] times. Each roll set aside goes to `keep`
    /// when there is one (for the explanation). Gives what the roll that stands settled to.
    #[inline]
    pub fn roll_and_settle<const SIM: bool>(
        &mut self,
        c: CheckId,
        setup: &Setup,
        f: &mut Vec<Value>,
        keep: Option<&mut Vec<Rerolled>>,
    ) -> R<(i64, Option<i64>, usize)> {
        // A check with no `reroll` rolls once, here (the most frequent roll: measured faster than
        // going through the loop below).
        match self.p.checks[c as usize].reroll {
            None => self.roll_once::<SIM>(c, setup, f),
            Some(_) => self.roll_until_it_stands::<SIM>(c, setup, f, keep),
        }
    }

    /// [`Runner::roll_and_settle`] for a check with `reroll when …`.
    #[inline(never)]
    fn roll_until_it_stands<const SIM: bool>(
        &mut self,
        c: CheckId,
        setup: &Setup,
        f: &mut Vec<Value>,
        mut keep: Option<&mut Vec<Rerolled>>,
    ) -> R<(i64, Option<i64>, usize)> {
        let check = &self.p.checks[c as usize];
        let mut again = 0;
        loop {
            let settled = self.roll_once::<SIM>(c, setup, f)?;
            let Some(reroll) = &check.reroll else { return Ok(settled) };
            if again >= reroll.bound() || !self.rerolls(c, settled.2, f)? {
                return Ok(settled);
            }
            again += 1;
            self.tick(1)?;
            if let Some(keep) = keep.as_deref_mut() {
                let pool = match &f[check.slots.dice as usize] {
                    Value::Pool(p) if check.roll.is_some() => Some((**p).clone()),
                    _ => None,
                };
                let set = &self.p.sets[check.outcome_set as usize];
                let outcome = set.names[check.outcomes[settled.2].index as usize].clone();
                keep.push(Rerolled { pool, total: settled.0, outcome });
            }
        }
    }

    /// Rolls check `c`'s dice once and settles them ([`Runner::settle_check`]).
    #[inline(always)]
    fn roll_once<const SIM: bool>(
        &mut self,
        c: CheckId,
        setup: &Setup,
        f: &mut Vec<Value>,
    ) -> R<(i64, Option<i64>, usize)> {
        let pool = match &self.p.checks[c as usize].roll {
            Some(r) => {
                self.span = r.span;
                let classed = self.class_dice::<SIM>(c, &r.dice.mods);
                let pool = self.roll_pool(&r.dice, setup.extra, &setup.labels, f);
                if classed {
                    self.unclass_dice();
                }
                Some(pool?)
            }
            None => None,
        };
        self.settle_check::<SIM>(c, setup, pool, f)
    }

    /// Whether a roll of check `c` that landed on outcome `oi` (its values in frame `f`) is rolled
    /// again: the outcome is one `reroll when …` names and its condition, if any, holds.
    pub fn rerolls(&mut self, c: CheckId, oi: usize, f: &mut Vec<Value>) -> R<bool> {
        let Some(reroll) = &self.p.checks[c as usize].reroll else { return Ok(false) };
        if !reroll.outcomes.contains(&(oi as u32)) {
            return Ok(false);
        }
        match &reroll.when {
            Some(w) => {
                self.span = w.span;
                self.compiled(w, f)
            }
            None => Ok(true),
        }
    }

    /// Everything of a roll that comes after the dice: the total, target and margin, the `let`s after
    /// the roll line, and the outcome (its index in `check.outcomes`). Applies no effects.
    // Inlined where it is called, which measured faster for the quiet roll.
    #[inline]
    pub fn settle_check<const SIM: bool>(
        &mut self,
        c: CheckId,
        setup: &Setup,
        pool: Option<Arc<Pool>>,
        f: &mut Vec<Value>,
    ) -> R<(i64, Option<i64>, usize)> {
        let check = &self.p.checks[c as usize];
        let mut total = 0;
        match pool {
            Some(p) => {
                set(
                    &mut f[check.slots.natural as usize],
                    Value::Int(p.dice.first().map(|d| d.face).unwrap_or(0)),
                );
                total = p.value;
                set(&mut f[check.slots.dice as usize], Value::Pool(p));
            }
            None => {
                set(&mut f[check.slots.natural as usize], Value::Int(0));
                set(&mut f[check.slots.dice as usize], Value::Int(0));
            }
        }
        total = total.checked_add(setup.flat).ok_or_else(|| self.overflow())?;
        set(&mut f[check.slots.total as usize], Value::Int(total));
        let mut target = None;
        if let Some(t) = &check.target {
            self.span = check.roll.as_ref().map(|r| r.span).unwrap_or(check.span);
            let t = self.calc_int(t, f)?;
            target = Some(t);
            set(&mut f[check.slots.target as usize], Value::Int(t));
            let margin = if check.under { t.checked_sub(total) } else { total.checked_sub(t) };
            set(&mut f[check.slots.margin as usize], Value::Int(margin.ok_or_else(|| self.overflow())?));
        } else {
            set(&mut f[check.slots.target as usize], Value::Int(0));
            set(&mut f[check.slots.margin as usize], Value::Int(total));
        }
        for step in &check.steps[setup.after..] {
            if let CheckStep::Let(slot, e) = step {
                let v = self.calc::<SIM>(e, f)?;
                set(&mut f[*slot as usize], v);
            }
        }
        let mut chosen = None;
        for (i, o) in check.outcomes.iter().enumerate() {
            self.span = o.span;
            let hit = match &o.when {
                Some(w) => self.holds(w, f)?,
                None => true,
            };
            if hit {
                chosen = Some(i);
                break;
            }
        }
        let Some(oi) = chosen else {
            return Err(Box::new(fail(
                crate::diagnostics::Code::NoOutcome.name(),
                format!("no outcome of check `{}` matched this roll", check.name),
                check.span,
                "end the outcomes with `otherwise NAME`",
            )));
        };
        Ok((total, target, oi))
    }
}

/// The slots of `check` that a roll may leave unwritten: all but its inputs, its `let`s and its own
/// slots (subject, dice, natural die, total, target and margin), which every roll writes before it
/// reads them.
fn scratch_slots(check: &Check) -> Vec<u32> {
    let mut written = vec![false; check.nslots as usize];
    let s = &check.slots;
    let lets = check.steps.iter().filter_map(|step| match step {
        CheckStep::Let(slot, _) => Some(*slot),
        CheckStep::Roll => None,
    });
    for slot in (0..check.inputs.len() as u32)
        .chain([s.subject, s.dice, s.natural, s.total, s.target, s.margin])
        .chain(lets)
    {
        if let Some(w) = written.get_mut(slot as usize) {
            *w = true;
        }
    }
    (0..check.nslots).filter(|i| !written[*i as usize]).collect()
}

/// An error if `v`, given for input `i` of `check`, is a number outside the input's range.
#[inline]
fn given_in_range(check: &Check, i: u32, v: &Value, span: Span) -> R<()> {
    let input = &check.inputs[i as usize].field;
    if let (Ty::Int { lo, hi }, Value::Int(x)) = (&input.ty, v)
        && (lo.is_some_and(|l| *x < l) || hi.is_some_and(|h| *x > h))
    {
        return Err(out_of_range(check, input, *x, (*lo, *hi), span));
    }
    Ok(())
}

#[cold]
fn out_of_range(
    check: &Check,
    input: &FieldDef,
    x: i64,
    (lo, hi): (Option<i64>, Option<i64>),
    span: Span,
) -> Box<Diagnostic> {
    Box::new(
        fail(
            "out_of_range",
            format!("input `{}` of check `{}` is {x}, outside its range", input.name, check.name),
            if span.is_empty() { input.span } else { span },
            &format!("give a value {}", crate::check::range_words(lo, hi)),
        )
        .with_label(input.span, "declared here"),
    )
}

/// What a roll gives back to its caller: the result (a second handle on it) or nothing (a rule's
/// roll, whose result is only kept as the check's last).
trait Wanted {
    /// Whether the result may be left to be made when read.
    const LAZY: bool;
    fn of(result: &Arc<CheckResult>) -> Self;
    fn none() -> Self;
}

impl Wanted for Arc<CheckResult> {
    const LAZY: bool = false;
    fn of(result: &Arc<CheckResult>) -> Self {
        result.clone()
    }
    fn none() -> Self {
        unreachable!("a roll that gives its result back makes it")
    }
}

impl Wanted for () {
    const LAZY: bool = true;
    fn of(_: &Arc<CheckResult>) {}
    fn none() {}
}

/// How a roll settled: what its result is made from, with its frame.
#[derive(Debug)]
pub(super) struct Settled {
    subject: Option<u32>,
    total: i64,
    target: Option<i64>,
    margin: Option<i64>,
    /// The outcome, by its place in the check's outcomes.
    oi: u32,
}

/// A rule's roll in a simulated game, its result not made yet: most are never read (an attack
/// that misses, a morale check nobody asks about) and are replaced by the next roll of the same
/// check. The result is made the first time `last` reads it, before an entity is taken out of
/// play, and when the game ends, exactly as it would have been made at the roll: the outcome's
/// effects work in a copy of the frame, so nothing changes this one in between.
#[derive(Debug)]
pub(super) struct Pending {
    settled: Settled,
    frame: Vec<Value>,
}

/// What only a logged roll shows: the modifiers that applied (kept when labels are), how the
/// target was worked out, the inputs and the values.
#[derive(Default)]
struct Shown {
    applied: Vec<AppliedModifier>,
    rerolled: Vec<Rerolled>,
    target_parts: Option<String>,
    inputs: Vec<(String, String)>,
    values: Vec<(String, String)>,
}

/// What [`Runner::prepare_check`] works out before the dice are rolled.
#[derive(Debug, Clone, Default)]
pub struct Setup {
    /// Modifiers that applied, in order.
    pub applied: Vec<AppliedModifier>,
    /// Sum of the flat modifiers.
    pub flat: i64,
    /// Dice the modifiers add (or take away).
    pub extra: i64,
    /// Labels of the dice modifiers that add dice, and how many each adds.
    pub labels: Vec<(String, i64)>,
    /// Index of the first step after the roll.
    pub after: usize,
}

/// Which inputs of a check were given, and whether their values were checked against their ranges
/// as they were written (a host's are; a rule's are checked all together, once written).
pub(super) struct Given {
    which: Which,
    checked: bool,
}

/// Bits for the usual few inputs, a list past 64.
enum Which {
    Bits(u64),
    List(Vec<bool>),
}

impl Given {
    pub(super) fn new(n: usize) -> Given {
        let which = if n <= 64 { Which::Bits(0) } else { Which::List(vec![false; n]) };
        Given { which, checked: false }
    }

    pub(super) fn set(&mut self, i: usize) {
        match &mut self.which {
            Which::Bits(b) => *b |= 1 << i,
            Which::List(l) => l[i] = true,
        }
    }

    fn get(&self, i: usize) -> bool {
        match &self.which {
            Which::Bits(b) => b & (1 << i) != 0,
            Which::List(l) => l[i],
        }
    }
}

/// A check's result as just worked out, borrowing what it can, to be made into a [`CheckResult`]
/// or written over an old one.
struct Fresh<'a> {
    check: &'a str,
    check_id: CheckId,
    pool: Option<&'a Pool>,
    modifiers: Vec<AppliedModifier>,
    rerolled: Vec<Rerolled>,
    total: i64,
    target: Option<i64>,
    margin: Option<i64>,
    under: bool,
    target_parts: Option<String>,
    inputs: Vec<(String, String)>,
    values: Vec<(String, String)>,
    outcome: &'a str,
    outcome_index: u32,
    outcome_span: Span,
    span: Span,
    slots: &'a [Value],
    dice_slot: usize,
}

impl Fresh<'_> {
    fn build(self, subject: Option<&str>) -> CheckResult {
        CheckResult {
            check: self.check.to_owned(),
            check_id: self.check_id,
            subject: subject.map(str::to_owned),
            inputs: self.inputs,
            pool: self.pool.cloned(),
            modifiers: self.modifiers,
            total: self.total,
            target: self.target,
            margin: self.margin,
            target_parts: self.target_parts,
            under: self.under,
            values: self.values,
            outcome: self.outcome.to_owned(),
            outcome_index: self.outcome_index,
            outcome_span: self.outcome_span,
            span: self.span,
            slots: self.slots.to_vec(),
            rerolled: self.rerolled,
        }
    }

    /// Writes this result over `old`, as [`Fresh::build`] would make it, keeping `old`'s allocations;
    /// gives back what `old` held in the dice slot.
    fn refill(self, old: &mut CheckResult, subject: Option<&str>) -> Option<Value> {
        // A result is only ever written over by a roll of its own check: the check's name stands,
        // and an outcome's name is the same for the same index.
        let same_check = old.check_id == self.check_id;
        if !same_check {
            set_str(&mut old.check, self.check);
            old.check_id = self.check_id;
        }
        match (&mut old.subject, subject) {
            (Some(s), Some(who)) => {
                if s != who {
                    set_str(s, who);
                }
            }
            (slot, who) => *slot = who.map(str::to_owned),
        }
        old.inputs = self.inputs;
        match (&mut old.pool, self.pool) {
            (Some(p), Some(new)) => {
                if p.notation != new.notation {
                    set_str(&mut p.notation, &new.notation);
                }
                p.sides = new.sides;
                p.dice.clone_from(&new.dice);
                p.value = new.value;
            }
            (slot, new) => *slot = new.cloned(),
        }
        old.modifiers = self.modifiers;
        old.rerolled = self.rerolled;
        old.total = self.total;
        old.target = self.target;
        old.margin = self.margin;
        old.target_parts = self.target_parts;
        old.under = self.under;
        old.values = self.values;
        if !same_check || old.outcome_index != self.outcome_index {
            set_str(&mut old.outcome, self.outcome);
            old.outcome_index = self.outcome_index;
        }
        old.outcome_span = self.outcome_span;
        old.span = self.span;
        let dice = old.slots.get_mut(self.dice_slot).map(|v| std::mem::replace(v, Value::None));
        // Slot by slot, over the old values: a number, name or entity, which owns nothing, is written
        // in place (see `put`).
        old.slots.truncate(self.slots.len());
        for (o, n) in old.slots.iter_mut().zip(self.slots) {
            put(o, n);
        }
        let have = old.slots.len();
        old.slots.extend_from_slice(&self.slots[have..]);
        dice
    }
}

/// Makes `s` read `text`, in its own allocation when that is large enough.
fn set_str(s: &mut String, text: &str) {
    s.clear();
    s.push_str(text);
}
