//! The parts of a worked-out number, for explanations: a target `6 + triangular(stress)` is shown as
//! `6 + 1 + 2 + 3 + 4`.

use super::ANY_RUN;
use super::Runner;
use crate::ast::BinOp;
use crate::program::{Builtin, Expr, Value};

/// Largest `n` whose `triangular(n)` is spelt out as `1 + 2 + … + n`.
const SPELT_OUT: i64 = 10;

impl Runner<'_> {
    /// Logs that trigger `t` of `event` did not run, with the facts and attributes its condition read.
    pub(super) fn log_skipped(&mut self, t: u32, event: u32, f: &mut Vec<Value>) {
        let p = self.p;
        let trig = &p.triggers[t as usize];
        let facts = &p.events[event as usize].facts;
        let mut read: Vec<(String, String)> = vec![];
        if let Some(w) = &trig.when {
            self.reads(&w.expr, facts, f, &mut read);
        }
        let why: Vec<String> = read.into_iter().map(|(k, v)| format!("{k} = {v}")).collect();
        // Nothing read that can change: the condition is no whatever happens.
        let why = if why.is_empty() { "it reads no fact and no state".to_string() } else { why.join(", ") };
        self.push::<ANY_RUN>(crate::session::LogEntry::Skipped {
            text: trig.text.clone(),
            why,
            span: trig.head,
        });
    }

    /// The facts (`hp_lost`) and their attributes (`unit.hp`) that `e` reads, with their values.
    fn reads(
        &mut self,
        e: &Expr,
        facts: &[crate::program::FieldDef],
        f: &mut Vec<Value>,
        out: &mut Vec<(String, String)>,
    ) {
        let add = |out: &mut Vec<(String, String)>, k: String, v: String| {
            if !out.iter().any(|(n, _)| *n == k) {
                out.push((k, v));
            }
        };
        match e {
            Expr::Local(i)
                if (*i as usize) < facts.len()
                    && !matches!(facts[*i as usize].ty, crate::program::Ty::Entity(_)) =>
            {
                let v = self.show(&f[*i as usize]);
                add(out, facts[*i as usize].name.clone(), v);
            }
            Expr::Field(base, field) => match &**base {
                Expr::Local(i) if (*i as usize) < facts.len() => {
                    let Ok(v) = self.eval(e, f) else { return };
                    let kind = match facts[*i as usize].ty {
                        crate::program::Ty::Entity(k) => k,
                        _ => return,
                    };
                    let Some(attr) = self.p.kinds[kind as usize].fields.get(*field as usize) else { return };
                    let v = self.show(&v);
                    add(out, format!("{}.{}", facts[*i as usize].name, attr.name), v);
                }
                other => self.reads(other, facts, f, out),
            },
            Expr::Neg(x) | Expr::Not(x) | Expr::Outcome(x) | Expr::ResultSlot(x, _) => {
                self.reads(x, facts, f, out)
            }
            Expr::Bin(_, a, b) => {
                self.reads(a, facts, f, out);
                self.reads(b, facts, f, out);
            }
            Expr::If(c, a, b) => {
                for x in [c, a, b] {
                    self.reads(x, facts, f, out);
                }
            }
            Expr::Builtin(_, args) => {
                for a in args {
                    self.reads(a, facts, f, out);
                }
            }
            // A formula or a table reads more than its arguments (`immune(creature)` reads the
            // creature's attributes): its value, under the call as written, says what it read.
            Expr::Table(i, args) | Expr::Define(i, args) => {
                let name = match e {
                    Expr::Table(..) => self.p.tables.get(*i as usize).map(|t| t.name.clone()),
                    _ => self.p.defines.get(*i as usize).map(|d| d.name.clone()),
                };
                if let (Some(name), Some(v)) = (name, self.quietly(e, f)) {
                    let args: Vec<String> = args.iter().map(|a| self.called_with(a, facts)).collect();
                    let v = self.show(&v);
                    add(out, format!("{name}({})", args.join(", ")), v);
                }
                for a in args {
                    self.reads(a, facts, f, out);
                }
            }
            Expr::Global(g) => {
                let name = match g {
                    crate::program::Global::Round => "round".to_string(),
                    crate::program::Global::Turn => "turn".to_string(),
                    crate::program::Global::Game => "game".to_string(),
                    crate::program::Global::Winner => "winner".to_string(),
                    crate::program::Global::Option(i) => match self.p.options.get(*i as usize) {
                        Some(o) => format!("option {}", o.name),
                        None => return,
                    },
                };
                if let Some(v) = self.quietly(e, f) {
                    let v = self.show(&v);
                    add(out, name, v);
                }
            }
            Expr::Last(c) => {
                if let (Some(check), Some(v)) = (self.p.checks.get(*c as usize), self.quietly(e, f)) {
                    let v = self.show(&v);
                    add(out, format!("last {}", check.name), v);
                }
            }
            Expr::NumberOf { kind, filter, .. } => {
                if filter.as_ref().is_some_and(|t| !pure(self.p, &t.expr, 0)) {
                    return;
                }
                if let (Some(k), Some(v)) = (self.p.kinds.get(*kind as usize), self.quietly(e, f)) {
                    let v = self.show(&v);
                    add(out, format!("number of {}", k.name), v);
                }
            }
            Expr::Total(t) => {
                let parts = [t.value.as_ref(), t.filter.as_ref().map(|x| &x.expr), t.empty.as_ref()];
                if parts.into_iter().flatten().any(|x| !pure(self.p, x, 0)) {
                    return;
                }
                if let (Some(k), Some(v)) = (self.p.kinds.get(t.kind as usize), self.quietly(e, f)) {
                    let v = self.show(&v);
                    add(out, format!("{} over each {}", t.op.word(), k.name), v);
                }
            }
            Expr::Script(call) => {
                for a in &call.args {
                    self.reads(a, facts, f, out);
                }
            }
            _ => {}
        }
    }

    /// The value of `e` for an explanation, when working it out changes nothing (no dice, no
    /// scripts) and logs nothing (a table looked up here is not a lookup of the game).
    fn quietly(&mut self, e: &Expr, f: &mut Vec<Value>) -> Option<Value> {
        let counted = matches!(e, Expr::NumberOf { .. } | Expr::Total(_));
        if !counted && !pure(self.p, e, 0) {
            return None;
        }
        let mode = self.mode;
        self.mode = mode.unlogged();
        let v = self.eval(e, f).ok();
        self.mode = mode;
        v
    }

    /// An argument of a call as the explanation names it: a fact or its attribute by name, a
    /// constant by its value, anything else as `…`.
    fn called_with(&self, a: &Expr, facts: &[crate::program::FieldDef]) -> String {
        match a {
            Expr::Local(i) if (*i as usize) < facts.len() => facts[*i as usize].name.clone(),
            Expr::Field(base, field) => match &**base {
                Expr::Local(i) if (*i as usize) < facts.len() => {
                    let kind = match facts[*i as usize].ty {
                        crate::program::Ty::Entity(k) => k,
                        _ => return "…".into(),
                    };
                    match self.p.kinds[kind as usize].fields.get(*field as usize) {
                        Some(attr) => format!("{}.{}", facts[*i as usize].name, attr.name),
                        None => "…".into(),
                    }
                }
                _ => "…".into(),
            },
            Expr::Const(v) => self.show(v),
            _ => "…".into(),
        }
    }

    /// Logs a table lookup: the keys, the row that matched and its value.
    pub(super) fn log_lookup(&mut self, table: u32, keys: &[Value], value: &Value, row: crate::ast::Span) {
        let keys = keys.iter().map(|k| self.log_value(k)).collect();
        let table = self.p.tables[table as usize].name.clone();
        let value = self.log_value(value);
        self.push::<ANY_RUN>(crate::session::LogEntry::Lookup { table, keys, value, span: row });
    }

    /// `e` written with the values it was worked out from, or `None` when that says no more than the
    /// number itself (a constant) or `e` rolls dice or calls a script (working it out again would
    /// roll or call again).
    pub(super) fn parts(&mut self, e: &Expr, f: &mut Vec<Value>) -> Option<String> {
        if !pure(self.p, e, 0) || matches!(e, Expr::Const(_)) {
            return None;
        }
        // Worked out again quietly: the lookups it makes are in the log already.
        let mode = self.mode;
        self.mode = mode.unlogged();
        let shown = self.part(e, f, false);
        let value = self.eval(e, f).map(|v| v.int());
        self.mode = mode;
        let (shown, value) = (shown?, value.ok()?);
        (shown != value.to_string()).then_some(shown)
    }

    /// One part; `inner` when it is an operand of `*`, `/` or the right side of `-` (sums get brackets).
    fn part(&mut self, e: &Expr, f: &mut Vec<Value>, inner: bool) -> Option<String> {
        let bracket = |s: String, sum: bool| if inner && sum { format!("({s})") } else { s };
        match e {
            Expr::Bin(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                let sign = if *op == BinOp::Add { "+" } else { "-" };
                let (a, b) = (self.part(a, f, false)?, self.part(b, f, *op == BinOp::Sub)?);
                Some(bracket(format!("{a} {sign} {b}"), true))
            }
            Expr::Bin(op @ (BinOp::Mul | BinOp::Div), a, b) => {
                let sign = if *op == BinOp::Mul { "×" } else { "/" };
                Some(format!("{} {sign} {}", self.part(a, f, true)?, self.part(b, f, true)?))
            }
            Expr::Builtin(Builtin::Triangular, args) if args.len() == 1 => {
                let n = self.eval(&args[0], f).ok()?.int();
                match n {
                    ..=0 => Some("0".into()),
                    1..=SPELT_OUT => {
                        let terms: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
                        Some(bracket(terms.join(" + "), n > 1))
                    }
                    _ => Some(format!("triangular({n})")),
                }
            }
            Expr::Neg(x) => Some(format!("-{}", self.part(x, f, true)?)),
            // A formula is shown by its body, worked out with its arguments.
            Expr::Define(d, args) => {
                let def = &self.p.defines[*d as usize];
                let mut frame = vec![Value::None; (def.slots as usize).max(args.len())];
                for (i, a) in args.iter().enumerate() {
                    frame[i] = self.eval(a, f).ok()?;
                }
                self.part(&def.body, &mut frame, inner)
            }
            _ => match self.eval(e, f).ok()? {
                Value::Int(i) if i < 0 => Some(bracket(i.to_string(), true)),
                v => Some(v.int().to_string()),
            },
        }
    }
}

/// Whether working `e` out again changes nothing: no dice, no scripts (formulas followed `depth`
/// deep at most, as deep as they may call each other).
fn pure(p: &crate::program::Program, e: &Expr, depth: usize) -> bool {
    let each = |e: &Expr| pure(p, e, depth);
    match e {
        Expr::Dice(_) | Expr::Script(..) => false,
        Expr::DataField(x, _) => each(x),
        Expr::Pick(p) => each(&p.list) && p.filter.as_ref().is_none_or(|t| each(&t.expr)),
        Expr::Const(_) | Expr::Local(_) | Expr::Global(_) | Expr::Last(_) => true,
        Expr::Field(x, _) | Expr::Neg(x) | Expr::Not(x) | Expr::Outcome(x) | Expr::ResultSlot(x, _) => {
            each(x)
        }
        Expr::Bin(_, a, b) => each(a) && each(b),
        Expr::If(c, a, b) => each(c) && each(a) && each(b),
        Expr::Builtin(_, args) | Expr::Table(_, args) => args.iter().all(each),
        Expr::Define(d, args) => {
            depth < 64
                && args.iter().all(each)
                && p.defines.get(*d as usize).is_some_and(|def| pure(p, &def.body, depth + 1))
        }
        // A count or total reads every entity of its kind: shown by itself, never inside a part.
        Expr::NumberOf { .. } | Expr::Total(_) => false,
    }
}
