//! The evaluator's short ways for what rules do most: a number, a condition or an entity worked out
//! without building a `Value` for each step of the expression, and a single die (a `with chance`)
//! drawn without building a pool when nobody will read it. Each gives the same result, draws the same
//! dice and charges the same steps as the general `eval`, which it falls back to for anything else.

use super::{R, Runner, fail};
use crate::ast::BinOp;
use crate::dice::{self, Faces, Source};
use crate::program::*;
use std::borrow::Cow;

impl Runner<'_> {
    /// The integer an expression of number (or pool, or flag) type gives.
    pub(super) fn int(&mut self, e: &Expr, f: &mut Vec<Value>) -> R<i64> {
        match e {
            Expr::Const(Value::Int(i)) => Ok(*i),
            Expr::Local(s) => Ok(f.get(*s as usize).map_or(0, Value::int)),
            Expr::Field(base, i) => {
                let id = self.entity(base, f)?;
                Ok(self.st.entities[id as usize].fields[*i as usize].int())
            }
            Expr::Global(Global::Turn) => Ok(self.st.turn),
            Expr::Global(Global::Round) => Ok(self.st.round),
            Expr::Bin(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b) => {
                let x = self.int(a, f)?;
                let y = self.int(b, f)?;
                let v = match op {
                    BinOp::Add => x.checked_add(y),
                    BinOp::Sub => x.checked_sub(y),
                    _ => x.checked_mul(y),
                };
                Ok(v.ok_or_else(|| self.overflow())?)
            }
            Expr::NumberOf { kind, slot, filter } => self.number_of(*kind, *slot, filter.as_deref(), f),
            Expr::If(c, a, b) => {
                if self.truth(c, f)? {
                    self.int(a, f)
                } else {
                    self.int(b, f)
                }
            }
            Expr::Dice(d) if !self.logging => match self.one_die(d)? {
                Some(face) => Ok(face),
                None => Ok(self.eval(e, f)?.int()),
            },
            _ => Ok(self.eval(e, f)?.int()),
        }
    }

    /// Whether a condition (an expression of flag type) holds.
    pub(super) fn truth(&mut self, e: &Expr, f: &mut Vec<Value>) -> R<bool> {
        match e {
            Expr::Const(Value::Bool(b)) => Ok(*b),
            Expr::Local(_) | Expr::Field(..) => match self.peek(e, f) {
                Some(v) => Ok(v.truth()),
                None => Ok(self.eval(e, f)?.truth()),
            },
            Expr::Not(x) => Ok(!self.truth(x, f)?),
            Expr::Bin(BinOp::And, a, b) => Ok(self.truth(a, f)? && self.truth(b, f)?),
            Expr::Bin(BinOp::Or, a, b) => Ok(self.truth(a, f)? || self.truth(b, f)?),
            Expr::Bin(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) => {
                let x = self.int(a, f)?;
                let y = self.int(b, f)?;
                Ok(match op {
                    BinOp::Lt => x < y,
                    BinOp::Le => x <= y,
                    BinOp::Gt => x > y,
                    _ => x >= y,
                })
            }
            Expr::Bin(op @ (BinOp::Eq | BinOp::Ne | BinOp::Is | BinOp::IsNot), a, b) => {
                let eq = matches!(op, BinOp::Eq | BinOp::Is);
                // Constants, locals and attributes are compared where they are, without copies.
                if let (Some(x), Some(y)) = (self.quick(a, f), self.quick(b, f)) {
                    return Ok(same(&x, &y) == eq);
                }
                let x = self.value(a, f)?;
                let y = self.value(b, f)?;
                Ok(same(&x, &y) == eq)
            }
            _ => Ok(self.eval(e, f)?.truth()),
        }
    }

    /// The value of a constant, a local or an attribute without going through `eval`; anything else
    /// through it.
    pub(super) fn value(&mut self, e: &Expr, f: &mut Vec<Value>) -> R<Value> {
        match e {
            Expr::Const(v) => Ok(v.clone()),
            Expr::Local(s) => Ok(f.get(*s as usize).cloned().unwrap_or(Value::None)),
            Expr::Field(base, i) => {
                let id = self.entity(base, f)?;
                Ok(self.st.entities[id as usize].fields[*i as usize].clone())
            }
            _ => self.eval(e, f),
        }
    }

    /// Where the value of a constant, a local or an attribute of a local's entity already is; `None`
    /// for anything else (and for an attribute of no entity, which `value` reports).
    fn peek<'e>(&'e self, e: &'e Expr, f: &'e [Value]) -> Option<&'e Value> {
        match e {
            Expr::Const(v) => Some(v),
            Expr::Local(s) => f.get(*s as usize),
            Expr::Field(base, i) => match &**base {
                Expr::Local(s) => match f.get(*s as usize)? {
                    Value::Entity(id) => self.st.entities.get(*id as usize)?.fields.get(*i as usize),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// The value of what `peek` finds, and of the game's result and a check's last outcome, worked
    /// out without copying a check's result; `None` for anything else, and where `eval` would
    /// report an error.
    fn quick<'e>(&'e self, e: &'e Expr, f: &'e [Value]) -> Option<Cow<'e, Value>> {
        match e {
            Expr::Outcome(r) => match &**r {
                Expr::Last(c) => {
                    let r = self.st.last.get(*c as usize)?.as_ref()?;
                    let set = self.p.checks.get(r.check_id as usize)?.outcome_set;
                    Some(Cow::Owned(Value::Name { set, index: r.outcome_index }))
                }
                _ => None,
            },
            Expr::Global(Global::Game) => Some(Cow::Owned(match &self.st.over {
                Some(o) => Value::Name { set: self.p.results, index: o.index },
                None => Value::None,
            })),
            _ => self.peek(e, f).map(Cow::Borrowed),
        }
    }

    /// How many entities of `kind` pass `filter` (each put in `slot` to be tested).
    pub(super) fn number_of(
        &mut self,
        kind: KindId,
        slot: u32,
        filter: Option<&Expr>,
        f: &mut Vec<Value>,
    ) -> R<i64> {
        let mut n = 0;
        for id in 0..self.st.entities.len() {
            if self.st.entities[id].kind != kind {
                continue;
            }
            self.tick(1)?;
            f[slot as usize] = Value::Entity(id as u32);
            if match filter {
                Some(c) => self.truth(c, f)?,
                None => true,
            } {
                n += 1;
            }
        }
        Ok(n)
    }

    /// The entity an expression of entity type names; an error if it names none.
    pub(super) fn entity(&mut self, e: &Expr, f: &mut Vec<Value>) -> R<u32> {
        if let Expr::Local(s) = e
            && let Some(Value::Entity(id)) = f.get(*s as usize)
            && (*id as usize) < self.st.entities.len()
        {
            return Ok(*id);
        }
        let v = self.eval(e, f)?;
        self.entity_id(&v, "the entity")
    }

    /// A roll of one plain die of a fixed number of sides (`with chance P/Q`'s dQ, a bare `d6`): its
    /// face, drawn and charged as `roll_dice` would; `None` for any other roll.
    fn one_die(&mut self, d: &DiceExpr) -> R<Option<i64>> {
        let (Expr::Const(Value::Int(1)), SidesExpr::Count(Expr::Const(Value::Int(n)))) = (&d.count, &d.sides)
        else {
            return Ok(None);
        };
        // A host's dice source sees every roll with its notation: the whole roll goes to it.
        if *n < 1 || !d.mods.is_empty() || self.hooks.is_some_and(|h| h.dice.is_some()) {
            return Ok(None);
        }
        self.span = d.span;
        self.tick(1)?;
        let mut src = Source {
            rng: &mut self.st.rng,
            forced: &mut self.st.forced,
            walk: self.st.walk.as_mut().filter(|w| !w.done),
            host: None,
            notation: "",
        };
        let face = src.face(Faces::Count(*n)).map_err(|m| self.draw_error(m, d))?;
        // No reroll or explosion: no more dice drawn than thrown.
        self.tick(0)?;
        Ok(Some(face))
    }

    /// The error of a die that could not be drawn.
    pub(super) fn draw_error(&mut self, m: String, d: &DiceExpr) -> crate::diagnostics::Diagnostic {
        if m == dice::OVERFLOW {
            self.overflow()
        } else if m == dice::HOST_FAILED
            && let Some(mut e) = self.host.dice_error.take()
        {
            if e.labels.is_empty() {
                e.labels.push(crate::diagnostics::Label {
                    span: d.span,
                    text: "rolling this".into(),
                    primary: true,
                });
            }
            e
        } else {
            fail("forced_dice", m, d.span, "force faces the die can show")
        }
    }
}

/// Whether two values are equal as `==` and `is` compare them: numbers by value (a pool by its
/// value), names by their place in their set.
pub(super) fn same(x: &Value, y: &Value) -> bool {
    match (x, y) {
        (Value::Int(_) | Value::Pool(_), Value::Int(_) | Value::Pool(_)) => x.int() == y.int(),
        (Value::Name { index: i, .. }, Value::Name { index: j, .. }) => i == j,
        _ => x == y,
    }
}
