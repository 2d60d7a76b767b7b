//! Running compiled rules: evaluating expressions, applying statements, firing triggers, rolling checks.

use super::{Entity, Expiry, GameOver, LogEntry, LogLine, State, Timed};
use crate::ast::{BinOp, Duration, Span};
use crate::diagnostics::Diagnostic;
use crate::dice::{self, Faces, Source};
use crate::program::*;
use std::sync::Arc;

/// Deepest chain of events firing events, and of formulas calling formulas.
const MAX_DEPTH: u32 = 64;
/// Most times a `repeat` runs.
const MAX_REPEAT: usize = 1000;

type R<T> = Result<T, Diagnostic>;

fn fail(code: &str, message: impl Into<String>, span: Span, help: &str) -> Diagnostic {
    Diagnostic::error(&format!("run::{code}"), message, span, "while applying this rule").with_help(help)
}

/// A value as people read it.
pub(super) fn show_value(p: &Program, st: &State, v: &Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.into(),
        Value::Name { set, index } => p
            .sets
            .get(*set as usize)
            .and_then(|s| s.names.get(*index as usize))
            .cloned()
            .unwrap_or_else(|| "?".into()),
        Value::Entity(e) => {
            st.entities.get(*e as usize).map(|e| e.name.clone()).unwrap_or_else(|| "?".into())
        }
        Value::None => "none".into(),
        Value::Pool(pool) => {
            let faces: Vec<String> = pool
                .dice
                .iter()
                .map(|d| if d.kept { d.face.to_string() } else { format!("({})", d.face) })
                .collect();
            format!("[{}] = {}", faces.join(", "), pool.value)
        }
        Value::Result(r) => r.outcome.clone(),
    }
}

pub(super) struct Runner<'a> {
    p: &'a Program,
    st: &'a mut State,
    log: &'a mut Vec<LogLine>,
    logging: bool,
    depth: u32,
    /// Events being applied, for the log's nesting.
    nest: u32,
    /// The statement being applied, for errors.
    span: Span,
}

impl<'a> Runner<'a> {
    pub fn new(p: &'a Program, st: &'a mut State, log: &'a mut Vec<LogLine>, logging: bool) -> Self {
        Runner { p, st, log, logging, depth: 0, nest: 0, span: Span::default() }
    }

    fn push(&mut self, entry: LogEntry) {
        self.log.push(LogLine { depth: self.nest, entry });
    }

    fn show(&self, v: &Value) -> String {
        show_value(self.p, self.st, v)
    }

    fn entity_id(&self, v: &Value, what: &str) -> R<u32> {
        match v {
            Value::Entity(e) if (*e as usize) < self.st.entities.len() => Ok(*e),
            _ => Err(fail(
                "no_entity",
                format!("{what} is none, so it has no attributes"),
                self.span,
                "make sure the host or scenario supplies this entity (for example the event's fact)",
            )),
        }
    }

    // ---------------------------------------------------------------- expressions

    pub fn eval(&mut self, e: &Expr, f: &mut Vec<Value>) -> R<Value> {
        Ok(match e {
            Expr::Const(v) => v.clone(),
            Expr::Local(s) => f.get(*s as usize).cloned().unwrap_or(Value::None),
            Expr::Global(Global::Round) => Value::Int(self.st.round),
            Expr::Global(Global::Turn) => Value::Int(self.st.turn),
            Expr::Global(Global::Game) => match &self.st.over {
                Some(o) => Value::Name { set: self.p.results, index: o.index },
                None => Value::None,
            },
            Expr::Global(Global::Winner) => match self.st.over.as_ref().and_then(|o| o.winner_id) {
                Some(id) => Value::Entity(id),
                None => Value::None,
            },
            Expr::Field(base, i) => {
                let b = self.eval(base, f)?;
                let id = self.entity_id(&b, "the entity")?;
                self.st.entities[id as usize].fields[*i as usize].clone()
            }
            Expr::Neg(x) => Value::Int(self.int(x, f)?.checked_neg().ok_or_else(|| self.overflow())?),
            Expr::Not(x) => Value::Bool(!self.eval(x, f)?.truth()),
            Expr::Bin(op, a, b) => self.binary(*op, a, b, f)?,
            Expr::If(c, a, b) => {
                if self.eval(c, f)?.truth() {
                    self.eval(a, f)?
                } else {
                    self.eval(b, f)?
                }
            }
            Expr::Dice(d) => {
                let pool = self.roll_dice(d, 0, &[], f)?;
                if self.logging {
                    self.push(LogEntry::Roll {
                        text: d.text.clone(),
                        faces: pool.dice.iter().map(|d| d.face).collect(),
                        value: pool.value,
                        span: d.span,
                    });
                }
                Value::Pool(Arc::new(pool))
            }
            Expr::Builtin(b, args) => self.builtin(*b, args, f)?,
            Expr::Define(d, args) => {
                let def = &self.p.defines[*d as usize];
                let mut frame = vec![Value::None; def.slots.max(args.len() as u32) as usize];
                for (i, a) in args.iter().enumerate() {
                    frame[i] = self.eval(a, f)?;
                }
                self.deeper()?;
                let v = self.eval(&def.body, &mut frame);
                self.depth -= 1;
                v?
            }
            Expr::Table(t, args) => {
                let mut keys = Vec::with_capacity(args.len());
                for a in args {
                    keys.push(self.eval(a, f)?);
                }
                let table = &self.p.tables[*t as usize];
                let row = table.rows.iter().find(|(pats, _, _)| {
                    pats.is_empty()
                        || pats.iter().zip(&keys).all(|(p, k)| match (p, k) {
                            (Pat::Any, _) => true,
                            (Pat::Range(lo, hi), v) => (*lo..=*hi).contains(&v.int()),
                            (Pat::Bool(b), Value::Bool(v)) => b == v,
                            (Pat::Name(n), Value::Name { index, .. }) => n == index,
                            _ => false,
                        })
                });
                match row {
                    Some((_, v, _)) => {
                        let mut frame = vec![Value::None; table.slots as usize];
                        self.eval(v, &mut frame)?
                    }
                    None => {
                        let shown: Vec<String> = keys.iter().map(|k| self.show(k)).collect();
                        return Err(fail(
                            "no_row",
                            format!("table `{}` has no row for {}", table.name, shown.join(", ")),
                            self.span,
                            "add a row for these keys, or an `otherwise:` row",
                        )
                        .with_label(table.span, "the table"));
                    }
                }
            }
            Expr::Last(c) => match &self.st.last[*c as usize] {
                Some(r) => Value::Result(r.clone()),
                None => {
                    return Err(fail(
                        "not_rolled",
                        format!("check `{}` has not been rolled yet", self.p.checks[*c as usize].name),
                        self.span,
                        "roll the check before reading `last`",
                    ));
                }
            },
            Expr::Outcome(r) => match self.eval(r, f)? {
                Value::Result(r) => Value::Name {
                    set: self.p.checks[r.check_id as usize].outcome_set,
                    index: r.outcome_index,
                },
                v => v,
            },
            Expr::ResultSlot(r, s) => match self.eval(r, f)? {
                Value::Result(r) => r.slots.get(*s as usize).cloned().unwrap_or(Value::None),
                _ => Value::None,
            },
            Expr::NumberOf { kind, slot, filter } => {
                let mut n = 0;
                for id in 0..self.st.entities.len() {
                    if self.st.entities[id].kind != *kind {
                        continue;
                    }
                    f[*slot as usize] = Value::Entity(id as u32);
                    if match filter {
                        Some(c) => self.eval(c, f)?.truth(),
                        None => true,
                    } {
                        n += 1;
                    }
                }
                Value::Int(n)
            }
        })
    }

    fn deeper(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(fail(
                "too_deep",
                format!("rules called each other more than {MAX_DEPTH} deep"),
                self.span,
                "an event probably fires itself, directly or through other rules; add a condition that stops it",
            ));
        }
        Ok(())
    }

    fn overflow(&self) -> Diagnostic {
        fail("overflow", "a number grew too large", self.span, "check the arithmetic of this rule")
    }

    fn int(&mut self, e: &Expr, f: &mut Vec<Value>) -> R<i64> {
        Ok(self.eval(e, f)?.int())
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, f: &mut Vec<Value>) -> R<Value> {
        Ok(match op {
            BinOp::And => Value::Bool(self.eval(a, f)?.truth() && self.eval(b, f)?.truth()),
            BinOp::Or => Value::Bool(self.eval(a, f)?.truth() || self.eval(b, f)?.truth()),
            BinOp::Eq | BinOp::Ne | BinOp::Is | BinOp::IsNot => {
                let x = self.eval(a, f)?;
                let y = self.eval(b, f)?;
                let same = match (&x, &y) {
                    (Value::Int(_) | Value::Pool(_), Value::Int(_) | Value::Pool(_)) => x.int() == y.int(),
                    (Value::Name { index: i, .. }, Value::Name { index: j, .. }) => i == j,
                    _ => x == y,
                };
                Value::Bool(if matches!(op, BinOp::Eq | BinOp::Is) { same } else { !same })
            }
            _ => {
                let x = self.int(a, f)?;
                let y = self.int(b, f)?;
                match op {
                    BinOp::Add => Value::Int(x.checked_add(y).ok_or_else(|| self.overflow())?),
                    BinOp::Sub => Value::Int(x.checked_sub(y).ok_or_else(|| self.overflow())?),
                    BinOp::Mul => Value::Int(x.checked_mul(y).ok_or_else(|| self.overflow())?),
                    BinOp::Div => {
                        if y == 0 {
                            return Err(fail(
                                "divide_by_zero",
                                "division by zero",
                                self.span,
                                "divide by a number other than 0",
                            ));
                        }
                        Value::Int(crate::check::div_floor(x, y).ok_or_else(|| self.overflow())?)
                    }
                    BinOp::Lt => Value::Bool(x < y),
                    BinOp::Le => Value::Bool(x <= y),
                    BinOp::Gt => Value::Bool(x > y),
                    BinOp::Ge => Value::Bool(x >= y),
                    _ => unreachable!("handled above"),
                }
            }
        })
    }

    fn pool(&mut self, e: &Expr, f: &mut Vec<Value>) -> R<Arc<Pool>> {
        match self.eval(e, f)? {
            Value::Pool(p) => Ok(p),
            v => Ok(Arc::new(Pool { notation: String::new(), sides: 0, dice: vec![], value: v.int() })),
        }
    }

    fn builtin(&mut self, b: Builtin, args: &[Expr], f: &mut Vec<Value>) -> R<Value> {
        let ints =
            |r: &mut Self, f: &mut Vec<Value>| -> R<Vec<i64>> { args.iter().map(|a| r.int(a, f)).collect() };
        Ok(match b {
            Builtin::Min => Value::Int(ints(self, f)?.into_iter().min().unwrap_or(0)),
            Builtin::Max => Value::Int(ints(self, f)?.into_iter().max().unwrap_or(0)),
            Builtin::Abs => Value::Int(self.int(&args[0], f)?.checked_abs().ok_or_else(|| self.overflow())?),
            Builtin::Triangular => {
                let n = self.int(&args[0], f)?.max(0);
                Value::Int(n.checked_mul(n + 1).ok_or_else(|| self.overflow())? / 2)
            }
            Builtin::Clamp => {
                let v = ints(self, f)?;
                Value::Int(v[0].max(v[1]).min(v[2].max(v[1])))
            }
            Builtin::Sum => Value::Int(self.pool(&args[0], f)?.kept().sum()),
            Builtin::Size => Value::Int(self.pool(&args[0], f)?.kept().count() as i64),
            Builtin::Count(c) | Builtin::Any(c) | Builtin::All(c) => {
                let p = self.pool(&args[0], f)?;
                let n = self.int(&args[1], f)?;
                let hits = p.kept().filter(|x| c.test(*x, n)).count();
                match b {
                    Builtin::Count(_) => Value::Int(hits as i64),
                    Builtin::Any(_) => Value::Bool(hits > 0),
                    _ => Value::Bool(hits == p.kept().count()),
                }
            }
            Builtin::Highest | Builtin::Lowest => {
                let p = self.pool(&args[0], f)?;
                let k = self.int(&args[1], f)?.max(0) as usize;
                let mut faces: Vec<i64> = p.kept().collect();
                faces.sort_unstable();
                if b == Builtin::Highest {
                    faces.reverse();
                }
                Value::Int(faces.into_iter().take(k).sum())
            }
            Builtin::Die => {
                let p = self.pool(&args[0], f)?;
                let i = self.int(&args[1], f)?;
                Value::Int(if i >= 1 { p.dice.get(i as usize - 1).map(|d| d.face).unwrap_or(0) } else { 0 })
            }
            Builtin::Shift => {
                let (set, index) = match self.eval(&args[0], f)? {
                    Value::Name { set, index } => (set, index),
                    _ => return Ok(Value::None),
                };
                let n = self.int(&args[1], f)?;
                let len = self.p.sets[set as usize].names.len() as i64;
                Value::Name { set, index: (index as i64).saturating_add(n).clamp(0, len - 1) as u32 }
            }
            Builtin::RungValue | Builtin::Rank => match self.eval(&args[0], f)? {
                Value::Name { set, index } => Value::Int(if b == Builtin::Rank {
                    index as i64
                } else {
                    self.p.sets[set as usize]
                        .values
                        .as_ref()
                        .and_then(|v| v.get(index as usize))
                        .copied()
                        .unwrap_or(0)
                }),
                _ => Value::Int(0),
            },
        })
    }

    /// Rolls a dice term with `extra` more dice, labelled by the modifiers that added them.
    fn roll_dice(
        &mut self,
        d: &DiceExpr,
        extra: i64,
        labels: &[(String, i64)],
        f: &mut Vec<Value>,
    ) -> R<Pool> {
        let count = self.int(&d.count, f)?.saturating_add(extra).max(0);
        if count > 10_000 {
            return Err(fail(
                "too_many_dice",
                format!("{count} dice is too many for one roll"),
                d.span,
                "roll at most 10000 dice",
            ));
        }
        let sides_n;
        let faces = match &d.sides {
            SidesExpr::Count(e) => {
                sides_n = self.int(e, f)?;
                if sides_n < 1 {
                    return Err(fail(
                        "bad_dice",
                        format!("a die cannot have {sides_n} sides"),
                        d.span,
                        "give dice 1 or more sides",
                    ));
                }
                Faces::Count(sides_n)
            }
            SidesExpr::Faces(l) => Faces::List(l),
        };
        let mut src = Source { rng: &mut self.st.rng, forced: &mut self.st.forced };
        let mut pool = dice::roll(count as usize, faces, &d.mods, &mut src)
            .map_err(|m| fail("forced_dice", m, d.span, "force faces the die can show"))?;
        pool.notation = d.text.clone();
        // Label dice added by modifiers, after the roll's own dice.
        let own = (count - labels.iter().map(|l| l.1).sum::<i64>()).max(0) as usize;
        let mut i = own;
        for (label, n) in labels {
            for _ in 0..*n {
                if let Some(die) = pool.dice.iter_mut().filter(|d| !d.exploded).nth(i) {
                    die.from = Some(label.clone());
                }
                i += 1;
            }
        }
        Ok(pool)
    }

    // ---------------------------------------------------------------- checks

    pub fn roll_check(
        &mut self,
        c: CheckId,
        subject: Option<u32>,
        args: Vec<(u32, Value)>,
        span: Span,
    ) -> R<Arc<CheckResult>> {
        let check = &self.p.checks[c as usize];
        let mut f = vec![Value::None; check.nslots as usize];
        f[check.slots.subject as usize] = subject.map(Value::Entity).unwrap_or(Value::None);
        let mut given = vec![false; check.inputs.len()];
        for (i, v) in args {
            let input = &check.inputs[i as usize].field;
            if let (Ty::Int { lo, hi }, Value::Int(x)) = (&input.ty, &v)
                && (lo.is_some_and(|l| *x < l) || hi.is_some_and(|h| *x > h))
            {
                return Err(fail(
                    "out_of_range",
                    format!("input `{}` of check `{}` is {x}, outside its range", input.name, check.name),
                    if span.is_empty() { input.span } else { span },
                    &format!("give a value {}", crate::check::range_words(*lo, *hi)),
                )
                .with_label(input.span, "declared here"));
            }
            f[i as usize] = v;
            given[i as usize] = true;
        }
        for (i, input) in check.inputs.iter().enumerate() {
            if given[i] {
                continue;
            }
            if let Some(v) = &input.field.default {
                f[i] = v.clone();
            } else if let Some(e) = &input.default {
                self.span = input.field.span;
                f[i] = self.eval(e, &mut f)?;
            } else {
                return Err(fail(
                    "missing_input",
                    format!("check `{}` needs input `{}`", check.name, input.field.name),
                    if span.is_empty() { input.field.span } else { span },
                    &format!(
                        "give `{}` a value (`--set {}=…` on the command line)",
                        input.field.name, input.field.name
                    ),
                ));
            }
        }
        let mut applied = vec![];
        let mut pool = None;
        let mut total = 0;
        let mut target = None;
        for step in &check.steps {
            match step {
                CheckStep::Let(slot, e) => {
                    let v = self.eval(e, &mut f)?;
                    f[*slot as usize] = v;
                }
                CheckStep::Roll => {
                    let mut flat = 0i64;
                    let mut extra = 0i64;
                    let mut labels = vec![];
                    for m in &check.modifiers {
                        self.span = m.span;
                        if let Some(w) = &m.when
                            && !self.eval(w, &mut f)?.truth()
                        {
                            continue;
                        }
                        let mut amount = self.int(&m.amount, &mut f)?;
                        if let Some(cap) = &m.cap {
                            let cap = self.int(cap, &mut f)?.abs();
                            amount = amount.clamp(-cap, cap);
                        }
                        if amount == 0 {
                            continue;
                        }
                        if m.dice {
                            extra += amount;
                            if amount > 0 {
                                labels.push((m.label.clone(), amount));
                            }
                        } else {
                            flat = flat.checked_add(amount).ok_or_else(|| self.overflow())?;
                        }
                        applied.push(AppliedModifier {
                            label: m.label.clone(),
                            amount,
                            dice: m.dice,
                            span: m.span,
                        });
                    }
                    if let Some(r) = &check.roll {
                        self.span = r.span;
                        let p = self.roll_dice(&r.dice, extra, &labels, &mut f)?;
                        f[check.slots.natural as usize] =
                            Value::Int(p.dice.first().map(|d| d.face).unwrap_or(0));
                        total = p.value;
                        let p = Arc::new(p);
                        f[check.slots.dice as usize] = Value::Pool(p.clone());
                        pool = Some(p);
                    } else {
                        f[check.slots.natural as usize] = Value::Int(0);
                        f[check.slots.dice as usize] = Value::Int(0);
                    }
                    total = total.checked_add(flat).ok_or_else(|| self.overflow())?;
                    f[check.slots.total as usize] = Value::Int(total);
                    if let Some(t) = &check.target {
                        let t = self.int(t, &mut f)?;
                        target = Some(t);
                        f[check.slots.target as usize] = Value::Int(t);
                        f[check.slots.margin as usize] = Value::Int(total - t);
                    } else {
                        f[check.slots.target as usize] = Value::Int(0);
                        f[check.slots.margin as usize] = Value::Int(total);
                    }
                }
            }
        }
        let mut chosen = None;
        for (i, o) in check.outcomes.iter().enumerate() {
            self.span = o.span;
            let hit = match &o.when {
                Some(w) => self.eval(w, &mut f)?.truth(),
                None => true,
            };
            if hit {
                chosen = Some(i);
                break;
            }
        }
        let Some(oi) = chosen else {
            return Err(fail(
                "no_outcome",
                format!("no outcome of check `{}` matched this roll", check.name),
                check.span,
                "end the outcomes with `otherwise NAME`",
            ));
        };
        let outcome = &check.outcomes[oi];
        let set = &self.p.sets[check.outcome_set as usize];
        let result = CheckResult {
            check: check.name.clone(),
            check_id: c,
            subject: subject.map(|s| self.st.entities[s as usize].name.clone()),
            inputs: if self.logging {
                check
                    .inputs
                    .iter()
                    .enumerate()
                    .map(|(i, inp)| (inp.field.name.clone(), self.show(&f[i])))
                    .collect()
            } else {
                vec![]
            },
            pool: pool.map(|p| (*p).clone()),
            modifiers: applied,
            total,
            target,
            margin: target.map(|t| total - t),
            values: if self.logging {
                check.lets.iter().map(|(n, s)| (n.clone(), self.show(&f[*s as usize]))).collect()
            } else {
                vec![]
            },
            outcome: set.names[outcome.index as usize].clone(),
            outcome_index: outcome.index,
            outcome_span: outcome.span,
            span: check.span,
            slots: f.clone(),
        };
        let result = Arc::new(result);
        self.st.last[c as usize] = Some(result.clone());
        if self.logging {
            self.push(LogEntry::Check(Box::new((*result).clone())));
        }
        if subject.is_some() {
            self.exec_block(&outcome.body, &mut f)?;
        }
        Ok(result)
    }

    // ---------------------------------------------------------------- events

    pub fn fire(&mut self, event: EventId, facts: Vec<Value>, span: Span) -> R<()> {
        if let Some(over) = &self.st.over {
            return Err(fail(
                "game_over",
                format!("the game is over ({})", over.result),
                span,
                "start a new session to play again",
            ));
        }
        self.deeper()?;
        let decl = &self.p.events[event as usize];
        if self.logging {
            let shown = decl.facts.iter().zip(&facts).map(|(f, v)| (f.name.clone(), self.show(v))).collect();
            self.push(LogEntry::Event { name: decl.name.clone(), facts: shown });
        }
        match event {
            0 => {
                self.st.round += 1;
            }
            1 => {
                self.st.turn += 1;
            }
            _ => {}
        }
        self.nest += 1;
        let r = self.run_triggers(event, &facts);
        if r.is_ok() {
            match event {
                2 => self.expire(|e| e == Expiry::TurnEnd),
                3 => {
                    let round = self.st.round;
                    self.expire(|e| matches!(e, Expiry::RoundEnd(r) if r <= round) || e == Expiry::TurnEnd);
                }
                _ => {}
            }
        }
        self.nest -= 1;
        self.depth -= 1;
        r
    }

    fn run_triggers(&mut self, event: EventId, facts: &[Value]) -> R<()> {
        for &t in &self.p.events[event as usize].triggers {
            let trig = &self.p.triggers[t as usize];
            let mut f = vec![Value::None; trig.slots.max(facts.len() as u32) as usize];
            f[..facts.len()].clone_from_slice(facts);
            self.span = trig.head;
            if let Some(w) = &trig.when
                && !self.eval(w, &mut f)?.truth()
            {
                continue;
            }
            if self.logging {
                self.push(LogEntry::Rule { text: trig.text.clone(), span: trig.head });
            }
            self.exec_block(&trig.body, &mut f)?;
            if self.st.over.is_some() {
                break;
            }
        }
        Ok(())
    }

    /// Undoes timed changes that are due. For numbers only the timed change itself is undone: what
    /// other rules added or removed meanwhile stays.
    fn expire(&mut self, due: impl Fn(Expiry) -> bool) {
        let mut keep = vec![];
        for t in std::mem::take(&mut self.st.timed) {
            if due(t.expiry) {
                let e = &mut self.st.entities[t.entity as usize];
                let def = &self.p.kinds[e.kind as usize].fields[t.field as usize];
                let slot = &mut e.fields[t.field as usize];
                *slot = match (&t.restore, &*slot, t.delta) {
                    (_, Value::Int(now), Some(delta)) => {
                        let (lo, hi) = match def.ty {
                            Ty::Int { lo, hi } => (lo.unwrap_or(i64::MIN), hi.unwrap_or(i64::MAX)),
                            _ => (i64::MIN, i64::MAX),
                        };
                        Value::Int(now.saturating_sub(delta).clamp(lo, hi))
                    }
                    (restore, _, _) => restore.clone(),
                };
                if self.logging {
                    let entity = e.name.clone();
                    let field = def.name.clone();
                    let to = show_value(
                        self.p,
                        self.st,
                        &self.st.entities[t.entity as usize].fields[t.field as usize],
                    );
                    self.push(LogEntry::Expired { entity, field, to, span: t.span });
                }
            } else {
                keep.push(t);
            }
        }
        self.st.timed = keep;
    }

    // ---------------------------------------------------------------- statements

    fn exec_block(&mut self, stmts: &[Stmt], f: &mut Vec<Value>) -> R<()> {
        for s in stmts {
            self.exec(s, f)?;
            if self.st.over.is_some() {
                break;
            }
        }
        Ok(())
    }

    /// Writes an attribute, keeping it within bounds (or failing, for `strict` attributes).
    fn write(&mut self, entity: u32, field: u32, v: Value, span: Span) -> R<()> {
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
                    return Err(Diagnostic::error(
                        "run::out_of_bounds",
                        format!("{}'s {} would become {x}, {bound} of {clamped}", e.name, def.name),
                        span,
                        "this rule pushes it past its bounds",
                    )
                    .with_label(def.span, format!("`{}` is strict: {}", def.name, crate::check::range_words(*lo, *hi)))
                    .with_help("the rules forbid this; check the rule's condition, or drop `strict` to clamp instead"));
                }
                note = Some(format!("{x} kept within {}", crate::check::range_words(*lo, *hi)));
                v = Value::Int(clamped);
            }
        }
        let old = std::mem::replace(&mut self.st.entities[entity as usize].fields[field as usize], v.clone());
        if self.logging && old != v {
            let e = &self.st.entities[entity as usize];
            let (entity, field) = (e.name.clone(), def.name.clone());
            let (from, to) = (self.show(&old), self.show(&v));
            self.push(LogEntry::Change { entity, field, from, to, note, span });
        }
        Ok(())
    }

    pub fn create(&mut self, kind: KindId, name: &str, with: Vec<(u32, Value)>, span: Span) -> R<u32> {
        let k = &self.p.kinds[kind as usize];
        let mut fields: Vec<Value> = k
            .fields
            .iter()
            .map(|f| {
                f.default.clone().unwrap_or(match f.ty {
                    Ty::Int { lo, .. } => Value::Int(lo.unwrap_or(0).max(0)),
                    Ty::Flag => Value::Bool(false),
                    Ty::Name(set) => Value::Name { set, index: 0 },
                    _ => Value::None,
                })
            })
            .collect();
        for (i, v) in with {
            let def = &k.fields[i as usize];
            if let (Ty::Int { lo, hi }, Value::Int(x)) = (&def.ty, &v)
                && (lo.is_some_and(|l| *x < l) || hi.is_some_and(|h| *x > h))
            {
                return Err(fail(
                    "out_of_range",
                    format!("{name}'s {} cannot be {x}", def.name),
                    span,
                    &format!("give a value {}", crate::check::range_words(*lo, *hi)),
                ));
            }
            fields[i as usize] = v;
        }
        let id = self.st.entities.len() as u32;
        self.st.entities.push(Entity { kind, name: name.to_string(), fields });
        if self.logging {
            self.push(LogEntry::New { entity: name.to_string(), kind: k.name.clone(), span });
        }
        Ok(id)
    }

    fn exec(&mut self, s: &Stmt, f: &mut Vec<Value>) -> R<()> {
        match s {
            Stmt::Set { place, value, until, span } => {
                self.span = *span;
                let ent = self.eval(&place.entity, f)?;
                let id = self.entity_id(&ent, "the entity")?;
                let v = self.eval(value, f)?;
                if let Some(u) = until {
                    let expiry = match u {
                        Duration::EndOfTurn => Expiry::TurnEnd,
                        Duration::EndOfRound => Expiry::RoundEnd(self.st.round),
                        Duration::NextRound => Expiry::RoundEnd(self.st.round.max(0) + 1),
                    };
                    let restore = self.st.entities[id as usize].fields[place.field as usize].clone();
                    match self.st.timed.iter_mut().find(|t| t.entity == id && t.field == place.field) {
                        // A second timed change of the same attribute keeps the first's value to go
                        // back to, and lasts as long as the longer of the two.
                        Some(t) => {
                            if expiry.later_than(t.expiry) {
                                t.expiry = expiry;
                            }
                            t.span = *span;
                        }
                        None => self.st.timed.push(Timed {
                            entity: id,
                            field: place.field,
                            restore,
                            delta: None,
                            expiry,
                            span: *span,
                        }),
                    }
                } else {
                    self.st.timed.retain(|t| !(t.entity == id && t.field == place.field));
                }
                self.write(id, place.field, v, *span)?;
                if until.is_some() {
                    let now = self.st.entities[id as usize].fields[place.field as usize].clone();
                    if let Some(t) =
                        self.st.timed.iter_mut().find(|t| t.entity == id && t.field == place.field)
                        && let (Value::Int(before), Value::Int(after)) = (&t.restore, &now)
                    {
                        t.delta = Some(after - before);
                    }
                }
                Ok(())
            }
            Stmt::Add { place, amount, negate, span } => {
                self.span = *span;
                let ent = self.eval(&place.entity, f)?;
                let id = self.entity_id(&ent, "the entity")?;
                let n = self.int(amount, f)?;
                let cur = self.st.entities[id as usize].fields[place.field as usize].int();
                let new = if *negate { cur.checked_sub(n) } else { cur.checked_add(n) };
                let new = new.ok_or_else(|| self.overflow())?;
                self.write(id, place.field, Value::Int(new), *span)
            }
            Stmt::Let(slot, e) => {
                let v = self.eval(e, f)?;
                f[*slot as usize] = v;
                Ok(())
            }
            Stmt::Roll { check, subject, args, span } => {
                self.span = *span;
                let subject = match subject {
                    Some(e) => {
                        let v = self.eval(e, f)?;
                        Some(self.entity_id(&v, "who makes the check")?)
                    }
                    None => None,
                };
                let mut values = Vec::with_capacity(args.len());
                for (i, e) in args {
                    values.push((*i, self.eval(e, f)?));
                }
                self.deeper()?;
                let r = self.roll_check(*check, subject, values, *span);
                self.depth -= 1;
                r.map(|_| ())
            }
            Stmt::If(c, a, b) => {
                if self.eval(c, f)?.truth() {
                    self.exec_block(a, f)
                } else {
                    self.exec_block(b, f)
                }
            }
            Stmt::ForEach { kind, slot, filter, body } => {
                let ids: Vec<u32> = (0..self.st.entities.len() as u32)
                    .filter(|&i| self.st.entities[i as usize].kind == *kind)
                    .collect();
                for id in ids {
                    f[*slot as usize] = Value::Entity(id);
                    if let Some(c) = filter
                        && !self.eval(c, f)?.truth()
                    {
                        continue;
                    }
                    self.exec_block(body, f)?;
                }
                Ok(())
            }
            Stmt::Trigger { event, args, span } => {
                self.span = *span;
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.eval(a, f)?);
                }
                self.fire(*event, values, *span)
            }
            Stmt::Choose { choice, slot, options, default, span } => {
                self.span = *span;
                let decl = &self.p.choices[*choice as usize];
                let candidates: Vec<Value> = match options {
                    ChoiceOpts::Flags(order) => order.iter().map(|b| Value::Bool(*b)).collect(),
                    ChoiceOpts::Names(set, idx) => {
                        idx.iter().map(|i| Value::Name { set: *set, index: *i }).collect()
                    }
                    ChoiceOpts::Entities { kind, slot: cs, filter } => {
                        let mut out = vec![];
                        for id in 0..self.st.entities.len() as u32 {
                            if self.st.entities[id as usize].kind != *kind {
                                continue;
                            }
                            f[*cs as usize] = Value::Entity(id);
                            if match filter {
                                Some(c) => self.eval(c, f)?.truth(),
                                None => true,
                            } {
                                out.push(Value::Entity(id));
                            }
                        }
                        out
                    }
                };
                let answered = self.st.answers.iter().position(|(c, _)| c == choice);
                let (answer, by) = match answered {
                    Some(i) => {
                        let (_, v) = self.st.answers.remove(i);
                        if !candidates.contains(&v) {
                            let shown: Vec<String> = candidates.iter().map(|c| self.show(c)).collect();
                            return Err(fail(
                                "bad_answer",
                                format!(
                                    "`{}` is not an option for choice `{}` here",
                                    self.show(&v),
                                    decl.name
                                ),
                                *span,
                                &format!(
                                    "answer one of: {}",
                                    if shown.is_empty() { "(none)".into() } else { shown.join(", ") }
                                ),
                            ));
                        }
                        (v, "scenario")
                    }
                    None => match default {
                        Some(d) => (self.eval(d, f)?, "default"),
                        None => (candidates.first().cloned().unwrap_or(Value::None), "default"),
                    },
                };
                if self.logging {
                    let shown = self.show(&answer);
                    self.push(LogEntry::Choice {
                        name: decl.name.clone(),
                        question: decl.question.clone(),
                        answer: shown,
                        by: by.into(),
                        span: *span,
                    });
                }
                f[*slot as usize] = answer;
                Ok(())
            }
            Stmt::EndGame { result, winner, span } => {
                self.span = *span;
                let set = &self.p.sets[self.p.results as usize];
                let winner_id = match winner {
                    Some(w) => match self.eval(w, f)? {
                        Value::Entity(e) => Some(e),
                        _ => None,
                    },
                    None => None,
                };
                let winner = winner_id.and_then(|e| self.st.entities.get(e as usize)).map(|e| e.name.clone());
                let name = set.names[*result as usize].clone();
                let label = set.labels[*result as usize].clone().unwrap_or_else(|| name.clone());
                if self.logging {
                    self.push(LogEntry::GameOver {
                        result: name.clone(),
                        label,
                        winner: winner.clone(),
                        span: *span,
                    });
                }
                self.st.over = Some(GameOver { result: name, winner, index: *result, winner_id });
                Ok(())
            }
            Stmt::Note(text, span) => {
                if self.logging {
                    self.push(LogEntry::Note { text: text.clone(), span: *span });
                }
                Ok(())
            }
            Stmt::Repeat { body, until, span } => {
                for _ in 0..MAX_REPEAT {
                    self.exec_block(body, f)?;
                    self.span = *span;
                    if self.eval(until, f)?.truth() || self.st.over.is_some() {
                        return Ok(());
                    }
                }
                Err(fail(
                    "endless_repeat",
                    format!("`repeat` ran {MAX_REPEAT} times without its condition coming true"),
                    *span,
                    "make sure the condition after `until` can become true",
                ))
            }
            Stmt::New { kind, slot, name, with, span } => {
                self.span = *span;
                let mut values = vec![];
                for (i, e, _) in with {
                    values.push((*i, self.eval(e, f)?));
                }
                let id = self.create(*kind, name, values, *span)?;
                f[*slot as usize] = Value::Entity(id);
                Ok(())
            }
            Stmt::Dice(faces, _) => {
                self.st.forced.extend(faces.iter().copied());
                Ok(())
            }
            Stmt::Answer { choice, value, span } => {
                self.span = *span;
                let v = self.eval(value, f)?;
                self.st.answers.push((*choice, v));
                Ok(())
            }
            Stmt::Expect { cond, message, text, span } => {
                self.span = *span;
                let passed = self.eval(cond, f)?.truth();
                let found = if passed { None } else { self.explain_failure(cond, f) };
                self.push(LogEntry::Expect {
                    passed,
                    text: text.clone(),
                    found,
                    message: message.clone(),
                    span: *span,
                });
                Ok(())
            }
        }
    }

    /// For a failed `expect a OP b`, what the two sides actually were.
    fn explain_failure(&mut self, cond: &Expr, f: &mut Vec<Value>) -> Option<String> {
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
        let sc = &self.p.scenarios[s];
        let mut f = vec![Value::None; sc.slots as usize];
        // Scenario steps that fail stop the scenario; expectations do not.
        let logging = self.logging;
        self.logging = true;
        // Unlike a rule, a scenario goes on after the game ends, so it can test how it ended.
        let mut r = Ok(());
        for step in &sc.body {
            r = self.exec(step, &mut f);
            if let Err(d) = r {
                // Say which step of the scenario led to the error, when it is not the step itself.
                r = Err(match step.span() {
                    Some(s) if !d.labels.iter().any(|l| l.span == s) => {
                        d.with_label(s, "during this scenario step")
                    }
                    _ => d,
                });
                break;
            }
        }
        self.logging = logging;
        r
    }
}
