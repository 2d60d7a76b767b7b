//! Firing events and applying statements: triggers, timed changes, attribute writes and scenarios.

use super::check::Given;
use super::host::shown_options;
use super::{ANY_RUN, SIM_GAME};
use super::{R, Runner, copied, fail, put, set};
use crate::ast::{BinOp, Span};
use crate::diagnostics::Diagnostic;
use crate::program::*;
use crate::session::host::{Change, Question, Reply};
use crate::session::{Entity, Expiry, LogEntry, Timed};

impl Runner<'_> {
    // ---------------------------------------------------------------- events

    pub fn fire(&mut self, event: EventId, facts: &[Value], span: Span) -> R<()> {
        let n = self.p.events[event as usize].frame.max(facts.len() as u32) as usize;
        if n == 0 {
            // Nothing to keep: no frame is taken.
            return self.fire_in::<ANY_RUN>(event, &mut Vec::new(), 0, span);
        }
        let mut f = self.frame(n);
        for (slot, v) in f.iter_mut().zip(facts) {
            put(slot, v);
        }
        let r = self.fire_in::<ANY_RUN>(event, &mut f, facts.len(), span);
        self.recycle(f);
        r
    }

    /// Fires `event` with its `n` facts in the first slots of frame `f`, which has the slots its
    /// triggers need (the event's `frame`): they run in it one after another.
    fn fire_in<const SIM: bool>(
        &mut self,
        event: EventId,
        f: &mut Vec<Value>,
        n: usize,
        span: Span,
    ) -> R<()> {
        if let Some(over) = &self.st.over {
            return Err(Box::new(fail(
                "game_over",
                format!("the game is over ({})", over.result),
                span,
                "start a new session to play again",
            )));
        }
        self.tick(1)?;
        self.deeper()?;
        let decl = &self.p.events[event as usize];
        if self.kept::<SIM>().log {
            let shown = decl
                .facts
                .iter()
                .zip(&f[..n])
                .map(|(f, v)| (f.name.clone(), self.log_fact(&f.ty, v)))
                .collect();
            self.push::<SIM>(LogEntry::Event { name: decl.name.clone(), facts: shown });
        }
        match event {
            0 => {
                self.st.round = self.st.round.checked_add(1).ok_or_else(|| self.overflow())?;
            }
            1 => {
                self.st.turn = self.st.turn.checked_add(1).ok_or_else(|| self.overflow())?;
            }
            _ => {}
        }
        // Changes made until this event fires (with these facts) end before its rules run.
        if self.until_event && self.st.timed.iter().any(|t| t.expiry == Expiry::Event(event)) {
            let mut timed = std::mem::take(&mut self.st.timed);
            timed.retain(|t| {
                let due = t.expiry == Expiry::Event(event)
                    && t.fact.as_ref().is_none_or(|(i, v)| f.get(*i as usize).is_some_and(|x| x == v));
                if due {
                    self.undo_timed::<SIM>(t);
                }
                !due
            });
            self.st.timed = timed;
        }
        self.nest += 1;
        let r = self.run_triggers::<SIM>(event, f, n);
        if r.is_ok() {
            match event {
                2 => self.expire::<SIM>(|e| e == Expiry::TurnEnd),
                3 => {
                    let round = self.st.round;
                    self.expire::<SIM>(|e| {
                        matches!(e, Expiry::RoundEnd(r) if r <= round) || e == Expiry::TurnEnd
                    });
                }
                _ => {}
            }
        }
        self.nest -= 1;
        self.depth -= 1;
        r
    }

    fn run_triggers<const SIM: bool>(&mut self, event: EventId, f: &mut Vec<Value>, n: usize) -> R<()> {
        let p = self.p;
        for (k, &t) in p.events[event as usize].triggers.iter().enumerate() {
            if k > 0 {
                // The facts stay; what the trigger before worked out is let go.
                for v in &mut f[n..] {
                    set(v, Value::None);
                }
            }
            self.run_trigger::<SIM>(t, event, f)?;
            if self.st.over.is_some() {
                break;
            }
        }
        Ok(())
    }

    /// Applies trigger `t` if its condition holds, in frame `f` (its facts filled in).
    fn run_trigger<const SIM: bool>(&mut self, t: u32, event: EventId, f: &mut Vec<Value>) -> R<()> {
        let p = self.p;
        let trig = &p.triggers[t as usize];
        self.span = trig.head;
        self.tick(1)?;
        if let Some(w) = &trig.when
            && !self.holds(w, f)?
        {
            if self.kept::<SIM>().log {
                self.log_skipped(t, event, f);
            }
            return Ok(());
        }
        if self.kept::<SIM>().log {
            self.push::<SIM>(LogEntry::Rule { text: trig.text.clone(), span: trig.head });
        }
        let outer = self.rule.replace((trig.head, trig.text.as_str()));
        let r = self.exec_body::<SIM>(&trig.body, f);
        self.rule = outer;
        r
    }

    /// Undoes timed changes that are due. For numbers only the timed change itself is undone: what
    /// other rules added or removed meanwhile stays.
    fn expire<const SIM: bool>(&mut self, due: impl Fn(Expiry) -> bool) {
        if self.st.timed.is_empty() {
            return;
        }
        // The list is taken and given back with what stays: its allocation is kept for the next
        // timed changes.
        let mut timed = std::mem::take(&mut self.st.timed);
        timed.retain(|t| {
            if !due(t.expiry) {
                return true;
            }
            self.undo_timed::<SIM>(t);
            false
        });
        self.st.timed = timed;
    }

    /// Undoes timed change `t`, which is due.
    fn undo_timed<const SIM: bool>(&mut self, t: &Timed) {
        let quiet = self.kept::<SIM>().quiet;
        let e = &mut self.st.entities[t.entity as usize];
        let def = &self.p.kinds[e.kind as usize].fields[t.field as usize];
        let slot = &mut e.fields[t.field as usize];
        let back = match (&t.restore, &*slot, t.delta) {
            (_, Value::Int(now), Some(delta)) => {
                let (lo, hi) = match def.ty {
                    Ty::Int { lo, hi } => (lo.unwrap_or(i64::MIN), hi.unwrap_or(i64::MAX)),
                    _ => (i64::MIN, i64::MAX),
                };
                Value::Int(now.saturating_sub(delta).clamp(lo, hi))
            }
            (restore, _, _) => copied(restore),
        };
        // Quiet and unobserved, nobody reads what it was.
        if quiet {
            set(slot, back);
            return;
        }
        let before = std::mem::replace(slot, back);
        let after = &self.st.entities[t.entity as usize];
        if self.kept::<SIM>().watched && after.fields[t.field as usize] != before {
            let change = Change::Attribute {
                entity: t.entity,
                name: after.name.clone(),
                attribute: def.name.clone(),
                from: before,
                to: after.fields[t.field as usize].clone(),
                span: t.span,
            };
            self.changed::<SIM>(|| change);
        }
        if self.kept::<SIM>().log {
            let e = &self.st.entities[t.entity as usize];
            let entity = e.name.clone();
            let field = def.name.clone();
            let to = self.log_value(&self.st.entities[t.entity as usize].fields[t.field as usize]);
            self.push::<SIM>(LogEntry::Expired { entity, field, to, span: t.span });
        }
    }

    // ---------------------------------------------------------------- statements

    /// Runs the body of a rule or an outcome: the `if`s around whoever fired it or rolled it are
    /// not what makes this body's changes.
    #[inline]
    pub(super) fn exec_body<const SIM: bool>(&mut self, stmts: &[Stmt], f: &mut Vec<Value>) -> R<()> {
        // Only a logged run notes the `if`s (see `Stmt::If`).
        if !self.kept::<SIM>().log {
            return self.exec_block::<SIM>(stmts, f);
        }
        let outer = std::mem::take(&mut self.because);
        let r = self.exec_block::<SIM>(stmts, f);
        self.because = outer;
        r
    }

    pub(super) fn exec_block<const SIM: bool>(&mut self, stmts: &[Stmt], f: &mut Vec<Value>) -> R<()> {
        for s in stmts {
            self.exec::<SIM>(s, f)?;
            if self.st.over.is_some() {
                break;
            }
        }
        Ok(())
    }

    /// [`Runner::write`] for a statement's `place`: quiet and unobserved, a value within the
    /// attribute's range (or not a number) is written straight into the entity of the place's kind.
    #[inline(always)]
    fn write_place<const SIM: bool>(&mut self, entity: u32, place: &Place, v: Value, span: Span) -> R<()> {
        let fits = match v {
            Value::Int(x) => place.range.0 <= x && x <= place.range.1,
            Value::Pool(_) => false,
            _ => true,
        };
        if fits
            && self.kept::<SIM>().quiet
            && let Some(slot) = self
                .st
                .entities
                .slot_mut(entity)
                .filter(|e| e.kind == place.kind)
                .and_then(|e| e.fields.get_mut(place.field as usize))
        {
            set(slot, v);
            return Ok(());
        }
        self.write::<SIM>(entity, place.field, v, span)
    }

    /// Writes an attribute, keeping it within bounds (or failing, for `strict` attributes).
    pub(in crate::session) fn write<const SIM: bool>(
        &mut self,
        entity: u32,
        field: u32,
        v: Value,
        span: Span,
    ) -> R<()> {
        let e = &self.st.entities[entity as usize];
        let def = &self.p.kinds[e.kind as usize].fields[field as usize];
        let mut v = v;
        if let Value::Pool(p) = &v {
            v = Value::Int(p.value);
        }
        let mut note = None;
        if let (Ty::Int { lo, hi }, Value::Int(x)) = (&def.ty, &v) {
            let clamped = (*x).max(lo.unwrap_or(i64::MIN)).min(hi.unwrap_or(i64::MAX));
            if clamped != *x {
                if def.strict {
                    let bound = if Some(clamped) == *hi { "above its cap" } else { "below its floor" };
                    return Err(Box::new(Diagnostic::error(
                        "run::out_of_bounds",
                        format!("{}'s {} would become {x}, {bound} of {clamped}", e.name, def.name),
                        span,
                        "this rule pushes it past its bounds",
                    )
                    .with_label(def.span, format!("`{}` is strict: {}", def.name, crate::check::range_words(*lo, *hi)))
                    .with_help("the rules forbid this; check the rule's condition, or drop `strict` to clamp instead")));
                }
                if self.kept::<SIM>().log {
                    note = Some(format!("{x} kept within {}", crate::check::range_words(*lo, *hi)));
                }
                v = Value::Int(clamped);
            }
        }
        // Quiet and unobserved, nobody reads the old value: it is written over in place.
        if self.kept::<SIM>().quiet {
            set(&mut self.st.entities[entity as usize].fields[field as usize], v);
            return Ok(());
        }
        let old = std::mem::replace(&mut self.st.entities[entity as usize].fields[field as usize], v.clone());
        if old != v && self.kept::<SIM>().watched {
            let name = self.st.entities[entity as usize].name.clone();
            let (attribute, to) = (def.name.clone(), v.clone());
            let from = old.clone();
            self.changed::<SIM>(|| Change::Attribute { entity, name, attribute, from, to, span });
        }
        if self.kept::<SIM>().log && old != v {
            let e = &self.st.entities[entity as usize];
            let (entity, field) = (e.name.clone(), def.name.clone());
            let (from, to) = (self.log_value(&old), self.log_value(&v));
            let because = self.because.clone();
            self.push::<SIM>(LogEntry::Change { entity, field, from, to, note, because, span });
        }
        Ok(())
    }

    pub fn create(&mut self, kind: KindId, name: &str, with: Vec<(u32, Value)>, span: Span) -> R<u32> {
        let mut e = self.blank(kind);
        for (i, v) in with {
            if let Err(err) = self.fits(kind, i, &v, name, span) {
                self.kit.entities.push(e);
                return Err(err);
            }
            e.fields[i as usize] = v;
        }
        Ok(self.add::<ANY_RUN>(e, name, span))
    }

    /// An entity of `kind`, every attribute at its default and no name yet, in the buffers of one
    /// from an earlier game when there is one.
    pub(super) fn blank(&mut self, kind: KindId) -> Entity {
        let mut e =
            self.kit.entities.pop().unwrap_or_else(|| Entity { kind, name: String::new(), fields: vec![] });
        e.kind = kind;
        e.name.clear();
        let row = self.row(kind);
        if e.fields.len() == row.len() {
            // The buffer of an entity with as many attributes: each is written over in place.
            for (slot, v) in e.fields.iter_mut().zip(row) {
                put(slot, v);
            }
        } else {
            e.fields.clear();
            e.fields.extend(row.iter().map(copied));
        }
        e
    }

    /// A new entity of `kind`'s attributes, each at its default (the lowest value of its type when it
    /// has none).
    fn row(&mut self, kind: KindId) -> &[Value] {
        let k = kind as usize;
        let rows = &mut self.kit.bufs.get_or_insert_with(Default::default).rows;
        if rows.len() <= k {
            rows.resize_with(k + 1, || None);
        }
        let p = self.p;
        rows[k].get_or_insert_with(|| {
            p.kinds[k]
                .fields
                .iter()
                .map(|f| f.default.as_ref().map(copied).or_else(|| f.ty.lowest()).unwrap_or(Value::None))
                .collect()
        })
    }

    /// An error if `v`, given for attribute `i` of a new `kind` called `name`, is outside its range.
    #[inline]
    pub(super) fn fits(&self, kind: KindId, i: u32, v: &Value, name: &str, span: Span) -> R<()> {
        let def = &self.p.kinds[kind as usize].fields[i as usize];
        if let (Ty::Int { lo, hi }, Value::Int(x)) = (&def.ty, v)
            && (lo.is_some_and(|l| *x < l) || hi.is_some_and(|h| *x > h))
        {
            return Err(unfit(def, *x, (*lo, *hi), name, span));
        }
        Ok(())
    }

    /// Puts entity `e` in play as `name`; gives its id.
    pub(super) fn add<const SIM: bool>(&mut self, mut e: Entity, name: &str, span: Span) -> u32 {
        let kind = &self.p.kinds[e.kind as usize].name;
        e.name.push_str(name);
        let id = self.st.entities.push(e);
        self.changed::<SIM>(|| Change::Created {
            entity: id,
            name: name.to_string(),
            kind: kind.clone(),
            span,
        });
        if self.kept::<SIM>().log {
            self.push::<SIM>(LogEntry::New { entity: name.to_string(), kind: kind.clone(), span });
        }
        id
    }

    pub(super) fn exec<const SIM: bool>(&mut self, s: &Stmt, f: &mut Vec<Value>) -> R<()> {
        // Each statement is a step, charged where it stands (its span, for a budget's error). The
        // statements a rule runs over and over are here; the others, which a scenario runs once or a
        // rule seldom, are in `exec_seldom`.
        match s {
            Stmt::Set { place, value, until, span } => {
                self.at(*span)?;
                let id = self.entity(&place.entity, f)?;
                let v = self.calc::<SIM>(value, f)?;
                if let Some(u) = until {
                    return self.set_until::<SIM>(id, place, v, u, *span, f);
                }
                if self.st.timed.iter().any(|t| t.entity == id && t.field == place.field) {
                    self.st.timed.retain(|t| !(t.entity == id && t.field == place.field));
                }
                self.write_place::<SIM>(id, place, v, *span)
            }
            Stmt::Add { place, amount, negate, span } => {
                self.at(*span)?;
                let id = self.entity(&place.entity, f)?;
                let n = self.calc_int(amount, f)?;
                let cur = self.st.entities[id as usize].fields[place.field as usize].int();
                let new = if *negate { cur.checked_sub(n) } else { cur.checked_add(n) };
                let new = new.ok_or_else(|| self.overflow())?;
                self.write_place::<SIM>(id, place, Value::Int(new), *span)
            }
            Stmt::Let(slot, e) => {
                self.tick(1)?;
                let v = self.calc::<SIM>(e, f)?;
                set(&mut f[*slot as usize], v);
                Ok(())
            }
            Stmt::LetFlag(slot, c) => {
                self.tick(1)?;
                let v = self.holds(c, f)?;
                set(&mut f[*slot as usize], Value::Bool(v));
                Ok(())
            }
            Stmt::Roll { check, subject, args, span } => {
                self.roll_stmt::<SIM>(*check, subject.as_ref(), args, *span, f)
            }
            Stmt::If(c, a, b) => {
                self.tick(1)?;
                let held = self.holds(c, f)?;
                let block = if held { a } else { b };
                if self.kept::<SIM>().log && !c.span.is_empty() {
                    self.because.push((c.span, held));
                    let r = self.exec_block::<SIM>(block, f);
                    self.because.pop();
                    r
                } else {
                    self.exec_block::<SIM>(block, f)
                }
            }
            Stmt::ForEach { kind, slot, filter, body } => {
                self.tick(1)?;
                // Rules only ever add entities, at the end: the ones in play now keep their ids and
                // kinds while the body runs, so they are visited without listing them first. A
                // removed entity's tombstone is of no kind a loop asks for.
                let n = self.st.entities.slots() as u32;
                let mark = self.outer_mark::<SIM>();
                for id in 0..n {
                    if self.st.entities.slot(id).is_none_or(|e| e.kind != *kind) {
                        continue;
                    }
                    self.tick(1)?;
                    set(&mut f[*slot as usize], Value::Entity(id));
                    if let Some(c) = filter
                        && !self.holds(c, f)?
                    {
                        continue;
                    }
                    self.enter_at(mark, crate::dice::Outer::Each(id, n));
                    let r = self.exec_block::<SIM>(body, f);
                    self.leave(mark);
                    r?;
                }
                Ok(())
            }
            Stmt::Trigger { event, args, span } => {
                self.at(*span)?;
                // The facts go in a spare frame, the one the event's triggers run in, given back
                // once the event is over.
                let n = self.p.events[*event as usize].frame.max(args.len() as u32) as usize;
                if n == 0 {
                    let mark = self.enter_call::<SIM>(*span, f);
                    let r = self.fire_in::<SIM>(*event, &mut Vec::new(), 0, *span);
                    self.leave(mark);
                    return r;
                }
                let mut values = self.event_frame::<SIM>(*event, n);
                for (slot, a) in values.iter_mut().zip(args) {
                    if let Some(v) = self.calc_peek(a, f) {
                        put(slot, v);
                        continue;
                    }
                    match self.calc::<SIM>(a, f) {
                        Ok(v) => set(slot, v),
                        Err(e) => {
                            self.keep_event_frame::<SIM>(*event, values);
                            return Err(e);
                        }
                    }
                }
                let mark = self.enter_call::<SIM>(*span, f);
                let r = self.fire_in::<SIM>(*event, &mut values, args.len(), *span);
                self.leave(mark);
                self.keep_event_frame::<SIM>(*event, values);
                r
            }
            Stmt::Choose { choice, slot, options, default, asker, span } => {
                self.at(*span)?;
                self.choose::<SIM>(*choice, *slot, options, default.as_ref(), *asker, *span, f)
            }
            Stmt::Note(text, span) => {
                self.at(*span)?;
                if let Some(o) = self.host.outcome.as_deref_mut() {
                    o.notes.push(crate::session::Note { text: text.clone(), span: *span });
                }
                if self.kept::<SIM>().log {
                    let because = self.because.clone();
                    self.push::<SIM>(LogEntry::Note { text: text.clone(), because, span: *span });
                }
                Ok(())
            }
            Stmt::EndGame { .. }
            | Stmt::Repeat { .. }
            | Stmt::New { .. }
            | Stmt::Dice(..)
            | Stmt::SetOption { .. }
            | Stmt::Answer { .. }
            | Stmt::Follow { .. }
            | Stmt::React { .. }
            | Stmt::Order { .. }
            | Stmt::Report { .. }
            | Stmt::Record { .. }
            | Stmt::ExpectOrder { .. }
            | Stmt::ExpectNoDice { .. }
            | Stmt::Expect { .. } => self.exec_seldom::<SIM>(s, f),
        }
    }

    /// `set … until …`: the change is written and noted with when it ends and what to go back to.
    #[inline(never)]
    fn set_until<const SIM: bool>(
        &mut self,
        id: u32,
        place: &Place,
        v: Value,
        u: &Until,
        span: Span,
        f: &mut Vec<Value>,
    ) -> R<()> {
        let (expiry, fact) = match u {
            Until::EndOfTurn => (Expiry::TurnEnd, None),
            Until::EndOfRound => (Expiry::RoundEnd(self.st.round), None),
            Until::NextRound => (Expiry::RoundEnd(self.st.round.max(0) + 1), None),
            Until::Event { event, fact: None } => (Expiry::Event(*event), None),
            Until::Event { event, fact: Some((i, e)) } => {
                (Expiry::Event(*event), Some((*i, self.eval(e, f)?)))
            }
        };
        self.until_event |= matches!(expiry, Expiry::Event(_));
        let at = match self.st.timed.iter().position(|t| t.entity == id && t.field == place.field) {
            // A second timed change of the same attribute keeps the first's value to go
            // back to, and lasts as long as the longer of the two.
            Some(at) => {
                let t = &mut self.st.timed[at];
                if expiry.later_than(t.expiry) {
                    t.expiry = expiry;
                    t.fact = fact;
                }
                t.span = span;
                at
            }
            None => {
                let restore = copied(&self.st.entities[id as usize].fields[place.field as usize]);
                self.st.timed.push(Timed {
                    entity: id,
                    field: place.field,
                    restore,
                    delta: None,
                    expiry,
                    fact,
                    span,
                });
                self.st.timed.len() - 1
            }
        };
        // (Writing an attribute leaves the timed changes as they are: `at` still names this one.)
        self.write_place::<SIM>(id, place, v, span)?;
        if let Value::Int(after) = self.st.entities[id as usize].fields[place.field as usize]
            && let Some(t) = self.st.timed.get_mut(at)
            && let Value::Int(before) = t.restore
        {
            t.delta = after.checked_sub(before);
        }
        Ok(())
    }

    /// A `roll` statement: the check's inputs worked out into its frame, then the check rolled in
    /// the rule.
    #[inline(never)]
    fn roll_stmt<const SIM: bool>(
        &mut self,
        check: CheckId,
        subject: Option<&Expr>,
        args: &[(u32, Calc)],
        span: Span,
        f: &mut Vec<Value>,
    ) -> R<()> {
        self.at(span)?;
        let subject = match subject {
            Some(e) => Some(self.entity_as(e, f, "who makes the check")?),
            None => None,
        };
        // The inputs are written straight into the check's frame.
        let mut values = self.stale_check_frame::<SIM>(check);
        let mut given = Given::new(self.p.checks[check as usize].inputs.len());
        for (i, e) in args {
            let slot = &mut values[*i as usize];
            if let Some(v) = self.calc_peek(e, f) {
                put(slot, v);
            } else {
                match self.calc::<SIM>(e, f) {
                    Ok(v) => set(slot, v),
                    Err(e) => {
                        self.recycle(values);
                        return Err(e);
                    }
                }
            }
            given.set(*i as usize);
        }
        if let Err(e) = self.deeper() {
            self.recycle(values);
            return Err(e);
        }
        let entered = self.st.walk.as_ref().map_or(0, |w| w.used);
        let mark = self.enter_call::<SIM>(span, f);
        let r = self.roll_check_in_rule::<SIM>(check, subject, &mut values, &given, span);
        self.leave(mark);
        self.depth -= 1;
        self.let_go(values);
        r?;
        self.rolled::<SIM>(span, entered, f)
    }

    /// Asks choice `choice` (its answer into `slot`): an answer the scenario gave, the host's, or the
    /// default.
    #[inline(never)]
    #[allow(
        clippy::too_many_arguments,
        reason = "the parts of one `choose` statement, read where they stand"
    )]
    fn choose<const SIM: bool>(
        &mut self,
        choice: u32,
        slot: u32,
        options: &ChoiceOpts,
        default: Option<&Expr>,
        asker: Option<u32>,
        span: Span,
        f: &mut Vec<Value>,
    ) -> R<()> {
        self.span = span;
        let decl = &self.p.choices[choice as usize];
        let answered = self.st.answers.iter().position(|(c, _)| *c == choice);
        let chooser = self.hooks.and_then(|h| h.chooser.as_ref());
        if answered.is_none() && chooser.is_none() {
            // Nobody to ask and no answer waiting: the default, or the first candidate. The
            // candidates are still gone through (their steps charged, their errors raised),
            // but not listed.
            let first = match options {
                ChoiceOpts::Flags(order) => order.first().map(|b| Value::Bool(*b)),
                ChoiceOpts::Range { lo, .. } => Some(Value::Int(*lo)),
                ChoiceOpts::Names(set, idx) => idx.first().map(|i| Value::Name { set: *set, index: *i }),
                ChoiceOpts::Entities { kind, slot: cs, filter, sure } => {
                    let mut first = None;
                    // A filter that cannot fail (see `sure_filter`) is tested only until the answer is
                    // known: the default's, or the first candidate's.
                    let sure = sure.as_deref().is_some_and(|locals| {
                        locals.iter().all(|s| {
                            matches!(f.get(*s as usize), Some(Value::Entity(e)) if (*e as usize) < self.st.entities.slots())
                        })
                    });
                    // A removed entity's tombstone is of no kind a scan asks for.
                    for id in 0..self.st.entities.slots() as u32 {
                        if self.st.entities[id as usize].kind != *kind {
                            continue;
                        }
                        self.tick(1)?;
                        if sure && (first.is_some() || default.is_some()) {
                            continue;
                        }
                        set(&mut f[*cs as usize], Value::Entity(id));
                        if match filter {
                            Some(c) => self.holds(c, f)?,
                            None => true,
                        } && first.is_none()
                        {
                            first = Some(Value::Entity(id));
                        }
                    }
                    first
                }
            };
            let answer = match default {
                // A default written out (`default keep`) is read where it is.
                Some(d) => match self.peek(d, f) {
                    Some(v) => copied(v),
                    None => self.eval(d, f)?,
                },
                None => first.unwrap_or(Value::None),
            };
            self.answered::<SIM>(choice, slot, answer, "default", span, f);
            return Ok(());
        }
        let candidates: Vec<Value> = match options {
            ChoiceOpts::Flags(order) => order.iter().map(|b| Value::Bool(*b)).collect(),
            // Too many to list: only the first, the answer when there is no default.
            ChoiceOpts::Range { lo, .. } => vec![Value::Int(*lo)],
            ChoiceOpts::Names(set, idx) => idx.iter().map(|i| Value::Name { set: *set, index: *i }).collect(),
            ChoiceOpts::Entities { kind, slot: cs, filter, .. } => {
                let mut out = vec![];
                for id in 0..self.st.entities.slots() as u32 {
                    if self.st.entities[id as usize].kind != *kind {
                        continue;
                    }
                    self.tick(1)?;
                    f[*cs as usize] = Value::Entity(id);
                    if match filter {
                        Some(c) => self.holds(c, f)?,
                        None => true,
                    } {
                        out.push(Value::Entity(id));
                    }
                }
                out
            }
        };
        let asked_by = match asker.and_then(|s| f.get(s as usize)) {
            Some(Value::Entity(e)) if (*e as usize) < self.st.entities.len() => Some(*e),
            _ => None,
        };
        let question = |r: &Self, default: Option<Value>| Question {
            choice: decl.name.clone(),
            question: decl.question.clone(),
            shown: candidates.iter().map(|c| r.show(c)).collect(),
            options: candidates.clone(),
            range: match options {
                ChoiceOpts::Range { lo, hi } => Some((*lo, *hi)),
                _ => None,
            },
            default: default.or_else(|| candidates.first().cloned()),
            asker: asked_by,
            span,
        };
        let (answer, by) = match answered {
            Some(i) => {
                let (_, v) = self.st.answers.remove(i);
                let by_host = self.st.host_answers.get(i).copied().unwrap_or(false);
                if i < self.st.host_answers.len() {
                    self.st.host_answers.remove(i);
                }
                let q = question(self, None);
                if !q.takes(&v) {
                    return Err(Box::new(self.bad_answer(&q, &v)));
                }
                (v, if by_host { "host" } else { "scenario" })
            }
            None => {
                // The default is worked out once, before the chooser is asked: it shows it.
                let default = match default {
                    Some(d) => Some(self.eval(d, f)?),
                    None => None,
                };
                let reply = match chooser {
                    Some(c) => {
                        let q = question(self, default.clone());
                        let reply = c.lock().unwrap_or_else(|e| e.into_inner()).choose(&q);
                        Some((q, reply))
                    }
                    None => None,
                };
                match reply {
                    Some((q, Reply::Answer(v))) => {
                        if !q.takes(&v) {
                            return Err(Box::new(self.bad_answer(&q, &v)));
                        }
                        (v, "host")
                    }
                    Some((q, Reply::Wait)) => {
                        let e = fail(
                            "needs_answer",
                            format!("choice `{}` waits for an answer: \"{}\"", q.choice, q.question),
                            span,
                            &format!(
                                "answer it (`Session::answer(\"{}\", …)`: one of {}) and resume",
                                q.choice,
                                shown_options(&q)
                            ),
                        );
                        self.host.asked = Some(Box::new(q));
                        return Err(Box::new(e));
                    }
                    Some((_, Reply::Default)) | None => match default {
                        Some(d) => (d, "default"),
                        None => (candidates.first().cloned().unwrap_or(Value::None), "default"),
                    },
                }
            }
        };
        self.answered::<SIM>(choice, slot, answer, by, span, f);
        Ok(())
    }

    /// Puts choice `choice`'s answer in `slot`, and logs who gave it (`by`).
    #[inline(always)]
    fn answered<const SIM: bool>(
        &mut self,
        choice: u32,
        slot: u32,
        answer: Value,
        by: &str,
        span: Span,
        f: &mut [Value],
    ) {
        if self.kept::<SIM>().log {
            let decl = &self.p.choices[choice as usize];
            let answer = self.log_value(&answer);
            self.push::<SIM>(LogEntry::Choice {
                name: decl.name.clone(),
                question: decl.question.clone(),
                answer,
                by: by.into(),
                span,
            });
        }
        set(&mut f[slot as usize], answer);
    }

    /// A frame of `n` slots for firing `event` from a rule. In a quiet simulated game it is the frame
    /// the event's last firing left (when no firing of it is under way), its slots as they were:
    /// every slot a rule reads is written first in the same firing (the facts, then each value
    /// before it is read, as the checker's scopes make sure), so nothing is emptied in between.
    #[inline]
    fn event_frame<const SIM: bool>(&mut self, event: EventId, n: usize) -> Vec<Value> {
        if self.kept::<SIM>().reuse
            && let Some(f) = self
                .kit
                .bufs
                .as_mut()
                .and_then(|b| b.event_frames.get_mut(event as usize))
                .and_then(Option::take)
        {
            #[cfg(debug_assertions)]
            let f = super::scrambled(f);
            return f;
        }
        self.frame(n)
    }

    /// Gives back the frame of a firing of `event` (see [`Runner::event_frame`]).
    #[inline]
    fn keep_event_frame<const SIM: bool>(&mut self, event: EventId, f: Vec<Value>) {
        if self.kept::<SIM>().reuse
            && let Some(slot @ None) =
                self.kit.bufs.as_mut().and_then(|b| b.event_frames.get_mut(event as usize))
        {
            *slot = Some(f);
            return;
        }
        self.keep_event_frame_slowly(event, f);
    }

    /// [`Runner::keep_event_frame`] the first time, when a firing of the event is under way, and
    /// outside quiet games.
    #[inline(never)]
    fn keep_event_frame_slowly(&mut self, event: EventId, f: Vec<Value>) {
        let e = event as usize;
        if !self.mode.reuse {
            return self.recycle(f);
        }
        let frames = &mut self.kit.bufs.get_or_insert_with(Default::default).event_frames;
        if frames.len() <= e {
            frames.resize_with(self.p.events.len().max(e + 1), || None);
        }
        match &mut frames[e] {
            slot @ None => *slot = Some(f),
            Some(_) => self.recycle(f),
        }
    }

    /// Charges a statement's step, at its `span`.
    #[inline(always)]
    pub(super) fn at(&mut self, span: Span) -> R<()> {
        self.span = span;
        self.tick(1)
    }

    /// For a failed `expect a OP b`, what the two sides actually were.
    pub(super) fn explain_failure(&mut self, cond: &Expr, f: &mut Vec<Value>) -> Option<String> {
        match cond {
            Expr::Bin(op, a, b) if !matches!(op, BinOp::And | BinOp::Or) => {
                let x = self.eval(a, f).ok()?;
                let y = self.eval(b, f).ok()?;
                let (x, y) = (self.show(&x), self.show(&y));
                Some(match op {
                    BinOp::Eq | BinOp::Is => format!("found {x}, not {y}"),
                    _ => format!("the left side is {x}, the right side {y}"),
                })
            }
            _ => None,
        }
    }

    pub fn scenario(&mut self, s: usize) -> R<()> {
        // A simulated game played quietly runs the statements compiled for it (see `Runner::kept`).
        if self.mode == super::Mode::SIM {
            self.scenario_as::<SIM_GAME>(s)
        } else {
            self.scenario_as::<ANY_RUN>(s)
        }
    }

    /// [`Runner::scenario`], its statements compiled for a simulated game (`SIM`) or not.
    fn scenario_as<const SIM: bool>(&mut self, s: usize) -> R<()> {
        let sc = &self.p.scenarios[s];
        self.rule = Some((sc.span, sc.name.as_str()));
        let mut f = self.frame(sc.slots as usize);
        // Scenario steps that fail stop the scenario; expectations do not.
        // Unlike a rule, a scenario goes on after the game ends, so it can test how it ended.
        let mut r = Ok(());
        for step in &sc.body {
            r = self.exec::<SIM>(step, &mut f);
            if let Err(d) = r {
                // Say which step of the scenario led to the error, when it is not the step itself.
                r = Err(match step.span() {
                    // A forced face the die cannot show is the scenario's mistake: point at the step
                    // alone, not at a roll that may be many lines away.
                    Some(s) if d.is(crate::diagnostics::Code::ForcedDice) => Box::new(forced_at(*d, s)),
                    Some(s) if !d.labels.iter().any(|l| l.span == s) => {
                        Box::new(d.with_label(s, "during this scenario step"))
                    }
                    _ => d,
                });
                break;
            }
        }
        self.recycle(f);
        r
    }
}

/// The error of a new entity called `name` given `x` for attribute `def`, outside its range.
#[cold]
fn unfit(
    def: &FieldDef,
    x: i64,
    (lo, hi): (Option<i64>, Option<i64>),
    name: &str,
    span: Span,
) -> Box<Diagnostic> {
    Box::new(fail(
        "out_of_range",
        format!("{name}'s {} cannot be {x}", def.name),
        span,
        &format!("give a value {}", crate::check::range_words(lo, hi)),
    ))
}

/// A forced-dice error pointed at the scenario step that rolled the die.
fn forced_at(d: Diagnostic, step: Span) -> Diagnostic {
    let mut short = Diagnostic::error(
        crate::diagnostics::Code::ForcedDice.path(),
        d.message.clone(),
        step,
        "this step rolls that die",
    );
    short.help = Some(
        "the `dice` line forces the next dice rolled, in order: force faces the die can show, or force fewer"
            .into(),
    );
    short
}
