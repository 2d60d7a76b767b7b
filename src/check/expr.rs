//! Checking expressions: names, types, and the range of values each can take (for warnings about
//! conditions that can never, or always, hold).

use super::Checker;
use crate::ast::{self, BinOp, ExprKind, Span, UnOp};
use crate::diagnostics::{Diagnostic, did_you_mean, suggest, suggest_or};
use crate::program::*;

/// What the dice of a pool can show, for range analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PoolInfo {
    pub count: (i64, i64),
    pub faces: (i64, i64),
    pub successes: bool,
}

/// A checked expression.
#[derive(Debug, Clone)]
pub(crate) struct T {
    pub e: Expr,
    pub ty: Ty,
    /// Whether a condition is known to be always true or always false.
    pub known: Option<bool>,
    pub pool: Option<PoolInfo>,
}

impl T {
    pub(super) fn new(e: Expr, ty: Ty) -> T {
        T { e, ty, known: None, pool: None }
    }
    pub(super) fn int(e: Expr, lo: Option<i64>, hi: Option<i64>) -> T {
        T::new(e, Ty::Int { lo, hi })
    }
    pub(super) fn flag(e: Expr, known: Option<bool>) -> T {
        T { e, ty: Ty::Flag, known, pool: None }
    }
    /// Range of an integer (or pool) value.
    pub fn range(&self) -> (Option<i64>, Option<i64>) {
        match (&self.ty, self.pool) {
            (Ty::Int { lo, hi }, _) => (*lo, *hi),
            (Ty::Pool, Some(p)) if p.successes => (Some(0), Some(p.count.1)),
            (Ty::Pool, Some(p)) => {
                let lo = p.count.0.saturating_mul(p.faces.0).min(p.count.1.saturating_mul(p.faces.0));
                let hi = p.count.1.saturating_mul(p.faces.1).max(p.count.0.saturating_mul(p.faces.1));
                (Some(lo), Some(hi))
            }
            _ => (None, None),
        }
    }
}

/// The value of an expression that needs nothing from a session.
pub(crate) fn const_value(e: &Expr) -> Option<Value> {
    match e {
        Expr::Const(v) => Some(v.clone()),
        Expr::Neg(x) => match const_value(x)? {
            Value::Int(i) => Some(Value::Int(i.checked_neg()?)),
            _ => None,
        },
        Expr::Not(x) => match const_value(x)? {
            Value::Bool(b) => Some(Value::Bool(!b)),
            _ => None,
        },
        Expr::Bin(op, a, b) => {
            let (Value::Int(a), Value::Int(b)) = (const_value(a)?, const_value(b)?) else { return None };
            op.arith(a, b).ok().map(Value::Int)
        }
        _ => None,
    }
}

/// Words for a range: "between 0 and 6", "at least 1", …
pub fn range_words(lo: Option<i64>, hi: Option<i64>) -> String {
    match (lo, hi) {
        (Some(l), Some(h)) => format!("between {l} and {h}"),
        (Some(l), None) => format!("at least {l}"),
        (None, Some(h)) => format!("at most {h}"),
        (None, None) => "a whole number".into(),
    }
}

fn sat(op: BinOp, a: i64, b: i64) -> i64 {
    match op {
        BinOp::Add => a.saturating_add(b),
        BinOp::Sub => a.saturating_sub(b),
        BinOp::Mul => a.saturating_mul(b),
        _ => 0,
    }
}

impl<'a> Checker<'a> {
    pub(crate) fn ty_words(&self, ty: &Ty) -> String {
        match ty {
            Ty::Int { lo: None, hi: None } => "a number".into(),
            Ty::Int { lo: Some(l), hi: Some(h) } if l == h => format!("the number {l}"),
            Ty::Int { lo, hi } => format!("a number {}", range_words(*lo, *hi)),
            Ty::Flag => "yes/no".into(),
            Ty::Name(s) => {
                let set = &self.prog.sets[*s as usize];
                let names: Vec<&str> = set.names.iter().take(5).map(|s| s.as_str()).collect();
                let more = if set.names.len() > 5 { " | …" } else { "" };
                format!("one of {}{more}", names.join(" | "))
            }
            Ty::Entity(k) => format!("a {}", self.prog.kinds[*k as usize].name),
            Ty::Pool => "dice".into(),
            Ty::Result(c) => format!("a result of check `{}`", self.prog.checks[*c as usize].name),
            Ty::Text => "text".into(),
            Ty::Data => "data".into(),
            Ty::Shape(s) => format!("data of shape `{}`", self.prog.shapes[*s as usize].name),
            Ty::List(s) => format!("a list of `{}`s", self.prog.shapes[*s as usize].name),
            Ty::None => "`none`".into(),
            Ty::Error => "unknown".into(),
        }
    }

    /// Whether a value of type `got` can be used where `want` is expected.
    pub(crate) fn fits(want: &Ty, got: &Ty) -> bool {
        match (want, got) {
            (Ty::Error, _) | (_, Ty::Error) => true,
            (Ty::Int { .. }, Ty::Int { .. } | Ty::Pool) => true,
            (Ty::Entity(_), Ty::None) => true,
            // An entry `nearest` did not find, an optional field left out.
            (Ty::Shape(_) | Ty::Text, Ty::None) => true,
            // Checked data can go wherever any data may.
            (Ty::Data, Ty::Shape(_)) => true,
            (Ty::Name(a), Ty::Name(b)) => a == b,
            (a, b) => std::mem::discriminant(a) == std::mem::discriminant(b) && a == b,
        }
    }

    /// Reports a type mismatch; returns whether the types fit.
    pub(crate) fn expect_ty(&mut self, t: &T, want: &Ty, span: Span, what: &str) -> bool {
        if Self::fits(want, &t.ty) {
            return true;
        }
        let help = match (want, &t.ty) {
            (Ty::Int { .. }, Ty::Flag) => {
                "a yes/no value is not a number: write `if … then 1 else 0`".to_string()
            }
            (Ty::Flag, Ty::Int { lo: Some(l), hi: Some(h) }) if l == h => "write `yes` or `no`".to_string(),
            (Ty::Flag, Ty::Int { .. } | Ty::Pool) => {
                "a number is not yes/no: compare it, e.g. `… >= 7`".to_string()
            }
            (Ty::Flag, Ty::Name(_)) => "compare the name with `is`, e.g. `unit.morale is shaken`".to_string(),
            (Ty::Int { .. }, Ty::Name(set)) if self.prog.sets[*set as usize].values.is_some() => {
                "a ladder rung is not a number: use `value(…)` for its number or `rank(…)` for its position"
                    .to_string()
            }
            (Ty::Int { .. }, Ty::Name(_)) => {
                "a name is not a number: compare names with `is`, e.g. `unit.morale is shaken`".to_string()
            }
            (Ty::Shape(s), Ty::Data) => format!(
                "data of no declared shape is not checked: declare it as `{}` where it comes in",
                self.prog.shapes[*s as usize].name
            ),
            _ => format!("give {} here", self.ty_words(want)),
        };
        let d = Diagnostic::error(
            "resolve::type_mismatch",
            format!("{what} must be {}, but this is {}", self.ty_words(want), self.ty_words(&t.ty)),
            span,
            format!("this is {}", self.ty_words(&t.ty)),
        )
        .with_help(help);
        self.error(d);
        false
    }

    pub(super) fn int_arg(&mut self, e: &ast::Expr, what: &str) -> T {
        let t = self.expr(e, Some(&Ty::INT));
        self.expect_ty(&t, &Ty::INT, e.span, what);
        self.as_int(t)
    }

    /// Turns a pool into its value.
    pub(super) fn as_int(&self, t: T) -> T {
        if t.ty == Ty::Pool {
            let (lo, hi) = t.range();
            T::int(t.e, lo, hi)
        } else {
            t
        }
    }

    /// Checks an expression. `want` guides how bare names are read (a name of a state, a ladder).
    pub(crate) fn expr(&mut self, e: &ast::Expr, want: Option<&Ty>) -> T {
        match &e.kind {
            ExprKind::Int(i) => T::int(Expr::Const(Value::Int(*i)), Some(*i), Some(*i)),
            ExprKind::Bool(b) => T::flag(Expr::Const(Value::Bool(*b)), Some(*b)),
            // `none` where a state with a `none` name is wanted is that name (`fubar: none | pinned`).
            ExprKind::None => match want {
                Some(Ty::Name(s)) if self.prog.sets[*s as usize].names.iter().any(|n| n == "none") => {
                    let index =
                        self.prog.sets[*s as usize].names.iter().position(|n| n == "none").unwrap_or(0);
                    T::new(Expr::Const(Value::Name { set: *s, index: index as u32 }), Ty::Name(*s))
                }
                _ => T::new(Expr::Const(Value::None), Ty::None),
            },
            ExprKind::Data(d) => match want {
                Some(Ty::Shape(s)) => self.shape_literal(d, *s, e.span),
                _ => T::new(Expr::Const(Value::Data(std::sync::Arc::new(d.clone()))), Ty::Data),
            },
            // Text where text is wanted: a reaction's `text` parameter, shown by its orders.
            ExprKind::Str(s) if want == Some(&Ty::Text) => T::new(
                Expr::Const(Value::Data(std::sync::Arc::new(serde_json::Value::String(s.clone())))),
                Ty::Text,
            ),
            ExprKind::Str(_) => {
                self.error(
                    Diagnostic::error(
                        "resolve::text_value",
                        "text cannot be used as a value here",
                        e.span,
                        "text",
                    )
                    .with_help("text is for labels, notes and questions; use a number, yes/no or a name"),
                );
                T::new(Expr::Const(Value::Int(0)), Ty::Error)
            }
            ExprKind::Name(id) => self.name(id, want),
            ExprKind::Field(base, field) => self.field(base, field),
            ExprKind::Pick { nearest, var, list, filter, by } => {
                self.pick(*nearest, var, list, filter.as_deref(), by.as_ref(), e.span)
            }
            ExprKind::Call(f, args) => self.call(f, args, e.span, want),
            ExprKind::Dice { count, sides, mods } => self.dice(e, count.as_deref(), sides, mods),
            ExprKind::Unary(UnOp::Neg, x) => {
                let t = self.int_arg(x, "the value after `-`");
                let (lo, hi) = t.range();
                T::int(
                    Expr::Neg(Box::new(t.e)),
                    hi.map(|h| h.saturating_neg()),
                    lo.map(|l| l.saturating_neg()),
                )
            }
            ExprKind::Unary(UnOp::Not, x) => {
                let t = self.expr(x, Some(&Ty::Flag));
                self.expect_ty(&t, &Ty::Flag, x.span, "the value after `not`");
                T::flag(Expr::Not(Box::new(t.e)), t.known.map(|k| !k))
            }
            ExprKind::If(c, a, b) => {
                let c = self.expr(c, Some(&Ty::Flag));
                self.expect_ty(&c, &Ty::Flag, e.span, "the condition of `if`");
                let ta = self.expr(a, want);
                let tb = self.expr(b, Some(&ta.ty.clone()));
                let ty = match (&ta.ty, &tb.ty) {
                    (Ty::Int { .. } | Ty::Pool, Ty::Int { .. } | Ty::Pool) => {
                        let (al, ah) = ta.range();
                        let (bl, bh) = tb.range();
                        Ty::Int {
                            lo: al.zip(bl).map(|(x, y)| x.min(y)),
                            hi: ah.zip(bh).map(|(x, y)| x.max(y)),
                        }
                    }
                    (Ty::Entity(k), Ty::None) | (Ty::None, Ty::Entity(k)) => Ty::Entity(*k),
                    (x, y) if x == y => x.clone(),
                    _ => {
                        let d = Diagnostic::error(
                            "resolve::type_mismatch",
                            format!(
                                "both branches of `if` must give the same type, but one is {} and the other {}",
                                self.ty_words(&ta.ty),
                                self.ty_words(&tb.ty)
                            ),
                            b.span,
                            format!("this is {}", self.ty_words(&tb.ty)),
                        )
                        .with_label(a.span, format!("this is {}", self.ty_words(&ta.ty)))
                        .with_help("make both branches numbers, both yes/no, or both names of the same kind");
                        self.error(d);
                        ta.ty.clone()
                    }
                };
                let known = match c.known {
                    Some(true) => ta.known,
                    Some(false) => tb.known,
                    None if ta.known == tb.known => ta.known,
                    None => None,
                };
                T { e: Expr::If(Box::new(c.e), Box::new(ta.e), Box::new(tb.e)), ty, known, pool: None }
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e.span),
            ExprKind::Last(check) => match self.check_named(check) {
                Some(c) => T::new(Expr::Last(c), Ty::Result(c)),
                None => T::new(Expr::Const(Value::None), Ty::Error),
            },
            ExprKind::NumberOf { kind, var, filter } => {
                let Some(k) = self.kind(kind) else {
                    return T::int(Expr::Const(Value::Int(0)), Some(0), None);
                };
                self.scope.push();
                let slot = self.scope.bind(&var.name, Ty::Entity(k), var.span, false);
                let f = filter.as_ref().map(|f| {
                    let t = self.expr(f, Some(&Ty::Flag));
                    self.expect_ty(&t, &Ty::Flag, f.span, "the condition after `where`");
                    std::sync::Arc::new(self.test(t.e))
                });
                self.scope.pop();
                T::int(Expr::NumberOf { kind: k, slot, filter: f }, Some(0), None)
            }
            ExprKind::Total { .. } => self.total(e),
        }
    }

    pub(crate) fn kind(&mut self, id: &ast::Ident) -> Option<KindId> {
        if let Some(&k) = self.kinds.get(&id.name) {
            return Some(k);
        }
        let known: Vec<&str> = self.kinds.keys().map(|s| s.as_str()).collect();
        let help =
            suggest_or(&id.name, "kind", &known, &format!("declare it with `kind {} {{ … }}`", id.name));
        self.error(
            Diagnostic::error(
                "resolve::unknown_kind",
                format!("there is no kind called `{}`", id.name),
                id.span,
                "unknown kind",
            )
            .with_help(help),
        );
        None
    }

    fn name(&mut self, id: &ast::Ident, want: Option<&Ty>) -> T {
        if let Some(v) = self.scope.lookup(&id.name) {
            let (slot, ty) = (v.slot, v.ty.clone());
            let mut t = T::new(Expr::Local(slot), ty);
            if let Some(p) = self.pool_info_of(slot) {
                t.pool = Some(p);
            }
            return t;
        }
        if let Some(&o) = self.options.get(&id.name) {
            let ty = self.prog.options[o as usize].ty.clone();
            return T::new(Expr::Global(Global::Option(o)), ty);
        }
        match id.name.as_str() {
            "round" => return T::int(Expr::Global(Global::Round), Some(0), None),
            "turn" => return T::int(Expr::Global(Global::Turn), Some(0), None),
            "game" => return T::new(Expr::Global(Global::Game), Ty::Name(self.prog.results)),
            "winner" => {
                return match self.winner_kind {
                    Some(k) => T::new(Expr::Global(Global::Winner), Ty::Entity(k)),
                    None => T::new(Expr::Global(Global::Winner), Ty::None),
                };
            }
            _ => {}
        }
        if let Some(Ty::Name(set)) = want
            && let Some(i) = self.prog.sets[*set as usize].names.iter().position(|n| *n == id.name)
        {
            return T::new(Expr::Const(Value::Name { set: *set, index: i as u32 }), Ty::Name(*set));
        }
        // A name of some set, when nothing says which.
        if want.is_none() || !matches!(want, Some(Ty::Name(_))) {
            let found = self.set_index.with_name(&self.prog.sets, &id.name);
            if let Some((set, index)) = found
                && want.is_none()
            {
                return T::new(Expr::Const(Value::Name { set, index }), Ty::Name(set));
            }
        }
        if want == Some(&Ty::Error) {
            // Compared with something already reported as wrong: one mistake, one message.
            return T::new(Expr::Const(Value::Int(0)), Ty::Error);
        }
        let mut known = self.scope.names();
        let local = known.len();
        known.extend(["round", "turn", "game", "winner"]);
        if let Some(Ty::Name(set)) = want {
            known.extend(self.prog.sets[*set as usize].names.iter().map(|s| s.as_str()));
        }
        // Where one of a few names (a state, an outcome) is wanted, suggest those names first, and
        // list them rather than suggest an unrelated name.
        let wanted_names: Vec<&str> = match want {
            Some(Ty::Name(set)) => self.prog.sets[*set as usize].names.iter().map(|s| s.as_str()).collect(),
            _ => vec![],
        };
        let close = did_you_mean(&id.name, wanted_names.iter().copied()).or_else(|| {
            did_you_mean(&id.name, known[..local].iter().copied()).filter(|_| !wanted_names.is_empty())
        });
        let mut help = match did_you_mean(&id.name, known.iter().copied()) {
            _ if !wanted_names.is_empty() => match close {
                Some(k) => format!("did you mean `{k}`?"),
                None => format!(
                    "did you mean one of {}?",
                    wanted_names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
                ),
            },
            Some(k) => format!("did you mean `{k}`?"),
            None if local == 0 && !matches!(want, Some(Ty::Name(_))) => format!(
                "nothing called `{}` is defined here: define it first with `let`, `new`, an event's fact or a check's input",
                id.name
            ),
            None => suggest(&id.name, "name", &known),
        };
        if self.kinds.contains_key(&id.name) {
            help = format!(
                "`{}` is a kind, not a value: name one entity of it, such as an event's fact",
                id.name
            );
        } else if self.checks.contains_key(&id.name) {
            help = format!(
                "`{}` is a check: roll it with `roll {}`, or read its result with `last {}`",
                id.name, id.name, id.name
            );
        } else if matches!(id.name.as_str(), "true" | "false" | "null" | "nil") {
            // Words a script writer types out of habit.
            let word = match id.name.as_str() {
                "true" => "`yes`",
                "false" => "`no`",
                _ => "`none`",
            };
            help =
                format!("did you mean {word}? mettle writes yes/no as `yes` and `no`, and nothing as `none`");
        }
        let label = match want {
            Some(Ty::Name(set)) => format!("not one of {}", self.prog.sets[*set as usize].names.join(" | ")),
            Some(Ty::Flag) => {
                if !help.starts_with("did you mean") {
                    help = "a yes/no value is written `yes` or `no`".to_string();
                }
                "not yes or no".to_string()
            }
            _ => "not defined here".to_string(),
        };
        self.error(
            Diagnostic::error("resolve::unknown_name", format!("unknown name `{}`", id.name), id.span, label)
                .with_help(help),
        );
        T::new(Expr::Const(Value::Int(0)), Ty::Error)
    }

    fn pool_info_of(&self, slot: u32) -> Option<PoolInfo> {
        self.pool_slots.iter().find(|(s, _)| *s == slot).map(|(_, p)| *p)
    }

    fn field(&mut self, base: &ast::Expr, field: &ast::Ident) -> T {
        // Only the outermost attribute of `set a.leader.hp to …` is written; the rest are read.
        let placing = std::mem::take(&mut self.placing);
        let b = self.expr(base, None);
        match &b.ty {
            Ty::Entity(k) => {
                let kind = &self.prog.kinds[*k as usize];
                match kind.fields.iter().position(|f| f.name == field.name) {
                    Some(i) => {
                        if !placing && self.ctx != super::Ctx::Scenario {
                            self.attr_read.insert((*k, i as u32));
                        }
                        let kind = &self.prog.kinds[*k as usize];
                        let ty = kind.fields[i].ty.clone();
                        T::new(Expr::Field(Box::new(b.e), i as u32), ty)
                    }
                    None => {
                        let known: Vec<&str> = kind.fields.iter().map(|f| f.name.as_str()).collect();
                        let help = suggest(&field.name, "attribute", &known);
                        let kname = kind.name.clone();
                        self.error(
                            Diagnostic::error(
                                "resolve::unknown_attribute",
                                format!("a {kname} has no attribute `{}`", field.name),
                                field.span,
                                "unknown attribute",
                            )
                            .with_help(help),
                        );
                        T::new(Expr::Const(Value::Int(0)), Ty::Error)
                    }
                }
            }
            Ty::Result(c) => {
                let c = *c;
                if field.name == "outcome" {
                    let set = self.prog.checks[c as usize].outcome_set;
                    return T::new(Expr::Outcome(Box::new(b.e)), Ty::Name(set));
                }
                // Its values' types are known once its body is checked (now, if not yet).
                self.check_check(c);
                let slots = self.check_slots[c as usize].clone();
                match slots.iter().find(|(n, _, _)| *n == field.name) {
                    Some((_, slot, ty)) => T::new(Expr::ResultSlot(Box::new(b.e), *slot), ty.clone()),
                    None => {
                        let mut known: Vec<&str> = slots.iter().map(|(n, _, _)| n.as_str()).collect();
                        known.push("outcome");
                        let help = suggest(&field.name, "value", &known);
                        let name = self.prog.checks[c as usize].name.clone();
                        self.error(
                            Diagnostic::error(
                                "resolve::unknown_attribute",
                                format!("check `{name}` has no value `{}`", field.name),
                                field.span,
                                "unknown value",
                            )
                            .with_help(help),
                        );
                        T::new(Expr::Const(Value::Int(0)), Ty::Error)
                    }
                }
            }
            Ty::Error => T::new(Expr::Const(Value::Int(0)), Ty::Error),
            Ty::Shape(_) | Ty::Data | Ty::List(_) => self.data_field(b, base.span, field),
            _ => {
                let words = self.ty_words(&b.ty);
                self.error(
                    Diagnostic::error(
                        "resolve::no_attributes",
                        format!("`.{}` needs an entity or a check result, but this is {words}", field.name),
                        base.span,
                        format!("this is {words}"),
                    )
                    .with_help(
                        "only entities (such as a unit), `last CHECK` and data of a shape have fields",
                    ),
                );
                T::new(Expr::Const(Value::Int(0)), Ty::Error)
            }
        }
    }

    fn binary(&mut self, op: BinOp, a: &ast::Expr, b: &ast::Expr, span: Span) -> T {
        match op {
            BinOp::And | BinOp::Or => {
                let ta = self.expr(a, Some(&Ty::Flag));
                self.expect_ty(
                    &ta,
                    &Ty::Flag,
                    a.span,
                    &format!("each side of `{}`", if op == BinOp::And { "and" } else { "or" }),
                );
                let tb = self.expr(b, Some(&Ty::Flag));
                self.expect_ty(
                    &tb,
                    &Ty::Flag,
                    b.span,
                    &format!("each side of `{}`", if op == BinOp::And { "and" } else { "or" }),
                );
                let known = match (op, ta.known, tb.known) {
                    (BinOp::And, Some(false), _) | (BinOp::And, _, Some(false)) => Some(false),
                    (BinOp::And, Some(true), Some(true)) => Some(true),
                    (BinOp::Or, Some(true), _) | (BinOp::Or, _, Some(true)) => Some(true),
                    (BinOp::Or, Some(false), Some(false)) => Some(false),
                    _ => None,
                };
                T::flag(Expr::Bin(op, Box::new(ta.e), Box::new(tb.e)), known)
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => {
                let sym = op.symbol();
                let ta = self.int_arg(a, &format!("each side of `{sym}`"));
                let tb = self.int_arg(b, &format!("each side of `{sym}`"));
                let (al, ah) = ta.range();
                let (bl, bh) = tb.range();
                let (lo, hi) = match op {
                    BinOp::Add => {
                        (al.zip(bl).map(|(x, y)| sat(op, x, y)), ah.zip(bh).map(|(x, y)| sat(op, x, y)))
                    }
                    BinOp::Sub => {
                        (al.zip(bh).map(|(x, y)| sat(op, x, y)), ah.zip(bl).map(|(x, y)| sat(op, x, y)))
                    }
                    BinOp::Mul => match (al, ah, bl, bh) {
                        (Some(a1), Some(a2), Some(b1), Some(b2)) => {
                            let c = [sat(op, a1, b1), sat(op, a1, b2), sat(op, a2, b1), sat(op, a2, b2)];
                            (c.iter().min().copied(), c.iter().max().copied())
                        }
                        _ => (None, None),
                    },
                    BinOp::Div => {
                        if let Some(Value::Int(0)) = const_value(&tb.e) {
                            self.error(
                                Diagnostic::error(
                                    "resolve::divide_by_zero",
                                    "division by zero",
                                    b.span,
                                    "this is 0",
                                )
                                .with_help("divide by a number other than 0"),
                            );
                        }
                        (None, None)
                    }
                    BinOp::Eq
                    | BinOp::Ne
                    | BinOp::Lt
                    | BinOp::Le
                    | BinOp::Gt
                    | BinOp::Ge
                    | BinOp::And
                    | BinOp::Or
                    | BinOp::Is
                    | BinOp::IsNot => (None, None),
                };
                let e = Expr::Bin(op, Box::new(ta.e), Box::new(tb.e));
                match const_value(&e) {
                    Some(Value::Int(v)) => T::int(Expr::Const(Value::Int(v)), Some(v), Some(v)),
                    _ => T::int(e, lo, hi),
                }
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let sym = op.symbol();
                let ta = self.int_arg(a, &format!("each side of `{sym}`"));
                let tb = self.int_arg(b, &format!("each side of `{sym}`"));
                let known = compare_known(op, ta.range(), tb.range());
                T::flag(Expr::Bin(op, Box::new(ta.e), Box::new(tb.e)), known)
            }
            BinOp::Eq | BinOp::Ne | BinOp::Is | BinOp::IsNot => {
                let mut ta = self.expr(a, None);
                if let Ty::Result(c) = ta.ty {
                    let set = self.prog.checks[c as usize].outcome_set;
                    ta = T::new(Expr::Outcome(Box::new(ta.e)), Ty::Name(set));
                }
                if ta.ty == Ty::Pool {
                    ta = self.as_int(ta);
                }
                let want = ta.ty.clone();
                let mut tb = self.expr(b, Some(&want));
                if tb.ty == Ty::Pool {
                    tb = self.as_int(tb);
                }
                let ok = Self::fits(&ta.ty, &tb.ty)
                    || Self::fits(&tb.ty, &ta.ty)
                    || (op_is(op) && (ta.ty == Ty::None || tb.ty == Ty::None));
                if !ok {
                    let d = Diagnostic::error(
                        "resolve::type_mismatch",
                        format!("cannot compare {} with {}", self.ty_words(&ta.ty), self.ty_words(&tb.ty)),
                        span,
                        "these differ",
                    )
                    .with_label(a.span, format!("this is {}", self.ty_words(&ta.ty)))
                    .with_label(b.span, format!("this is {}", self.ty_words(&tb.ty)))
                    .with_help(match (&ta.ty, &tb.ty) {
                        (Ty::Name(_), _) | (_, Ty::Name(_)) => {
                            "a name can only be compared with a name of the same list, with `is`: e.g. `u.morale is shaken`"
                        }
                        _ => "compare values of the same type",
                    });
                    self.error(d);
                }
                let eq = matches!(op, BinOp::Eq | BinOp::Is);
                let known = match (&ta.ty, &tb.ty) {
                    (Ty::Int { .. }, Ty::Int { .. }) => {
                        compare_known(BinOp::Eq, ta.range(), tb.range()).map(|k| if eq { k } else { !k })
                    }
                    _ => None,
                };
                let op = if eq { BinOp::Eq } else { BinOp::Ne };
                T::flag(Expr::Bin(op, Box::new(ta.e), Box::new(tb.e)), known)
            }
        }
    }
}

fn op_is(op: BinOp) -> bool {
    matches!(op, BinOp::Is | BinOp::IsNot)
}

/// Whether `a OP b` always or never holds, given the ranges of `a` and `b`.
fn compare_known(op: BinOp, a: (Option<i64>, Option<i64>), b: (Option<i64>, Option<i64>)) -> Option<bool> {
    let (al, ah, bl, bh) =
        (a.0.unwrap_or(i64::MIN), a.1.unwrap_or(i64::MAX), b.0.unwrap_or(i64::MIN), b.1.unwrap_or(i64::MAX));
    match op {
        BinOp::Ge if al >= bh => Some(true),
        BinOp::Ge if ah < bl => Some(false),
        BinOp::Gt if al > bh => Some(true),
        BinOp::Gt if ah <= bl => Some(false),
        BinOp::Le if ah <= bl => Some(true),
        BinOp::Le if al > bh => Some(false),
        BinOp::Lt if ah < bl => Some(true),
        BinOp::Lt if al >= bh => Some(false),
        BinOp::Eq if ah < bl || bh < al => Some(false),
        BinOp::Eq if al == ah && bl == bh && al == bl => Some(true),
        _ => None,
    }
}
