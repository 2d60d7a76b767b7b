//! How the reference evaluator reads an expression as a number, a yes/no, a value or an entity:
//! a constant, a local or an attribute of a local's entity where it is, anything else by `eval`.
//! (The compiled forms of conditions and of the expressions statements read are made by the
//! lowering, `super::lower`, and fall back to these.) Also a single die drawn without building a
//! pool when nobody will read it, for the compiled forms.

use super::compile::Leaf;
use super::{R, Runner, fail};
use crate::dice::{DrawError, Faces, Source};
use crate::program::*;

impl Runner<'_> {
    /// The integer an expression of number (or pool, or flag) type gives: a leaf where it is,
    /// anything else as `eval` gives it.
    #[inline(always)]
    pub(super) fn int(&mut self, e: &Expr, f: &mut Vec<Value>) -> R<i64> {
        match self.leaf_int(e, f) {
            Some(i) => Ok(i),
            None => self.int_by_eval(e, f),
        }
    }

    #[inline(never)]
    fn int_by_eval(&mut self, e: &Expr, f: &mut Vec<Value>) -> R<i64> {
        Ok(self.eval(e, f)?.int())
    }

    /// Which side `if c then a else b` takes: `a` when `c` holds, else `b`.
    #[inline(always)]
    pub(super) fn branch<'e>(
        &mut self,
        c: &Expr,
        a: &'e Expr,
        b: &'e Expr,
        f: &mut Vec<Value>,
    ) -> R<&'e Expr> {
        Ok(if self.truth(c, f)? { a } else { b })
    }

    /// Whether a condition (an expression of flag type) holds: a leaf where it is, anything else
    /// as `eval` gives it.
    #[inline]
    pub(super) fn truth(&mut self, e: &Expr, f: &mut Vec<Value>) -> R<bool> {
        match self.peek(e, f) {
            Some(v) => Ok(v.truth()),
            None => self.truth_by_eval(e, f),
        }
    }

    #[inline(never)]
    fn truth_by_eval(&mut self, e: &Expr, f: &mut Vec<Value>) -> R<bool> {
        Ok(self.eval(e, f)?.truth())
    }

    /// Where the value of a constant, a local or an attribute of a local's entity already is; `None`
    /// for anything else (and for an attribute of no entity, which `eval` reports).
    #[inline]
    pub(super) fn peek<'e>(&'e self, e: &'e Expr, f: &'e [Value]) -> Option<&'e Value> {
        match e {
            Expr::Const(v) => Some(v),
            _ => Leaf::of(e)?.read(self, f),
        }
    }

    /// Attribute `i` of the entity local `s` holds, where it is; `None` if it holds no entity in
    /// play. (The compiled conditions read their leaves with it too.)
    #[inline(always)]
    pub(super) fn attribute_of<'e>(&'e self, s: u32, i: u32, f: &'e [Value]) -> Option<&'e Value> {
        match f.get(s as usize)? {
            // A tombstone has no attributes to find.
            Value::Entity(id) => self.st.entities.slot(*id)?.fields.get(i as usize),
            _ => None,
        }
    }

    /// The number a constant, a local or an attribute of a local's entity gives, as `int` reads
    /// it; `None` for anything else.
    #[inline(always)]
    fn leaf_int(&self, e: &Expr, f: &[Value]) -> Option<i64> {
        match e {
            Expr::Const(Value::Int(i)) => Some(*i),
            Expr::Global(Global::Turn) => Some(self.st.turn),
            _ => Leaf::of(e)?.read(self, f).map(Value::int),
        }
    }

    /// How many entities of `kind` pass `filter` (each put in `slot` to be tested).
    pub(super) fn number_of(
        &mut self,
        kind: KindId,
        slot: u32,
        filter: Option<&Test>,
        f: &mut Vec<Value>,
    ) -> R<i64> {
        let mut n = 0;
        // A removed entity's tombstone is of no kind a scan asks for.
        for id in 0..self.st.entities.slots() {
            if self.st.entities[id].kind != kind {
                continue;
            }
            self.tick(1)?;
            super::set(&mut f[slot as usize], Value::Entity(id as u32));
            if match filter {
                Some(c) => self.holds(c, f)?,
                None => true,
            } {
                n += 1;
            }
        }
        Ok(n)
    }

    /// The entity an expression of entity type names; an error if it names none.
    #[inline]
    pub(super) fn entity(&mut self, e: &Expr, f: &mut Vec<Value>) -> R<u32> {
        self.entity_as(e, f, "the entity")
    }

    /// The entity an expression of entity type names, `what` naming it in the error if it names
    /// none.
    #[inline]
    pub(super) fn entity_as(&mut self, e: &Expr, f: &mut Vec<Value>, what: &str) -> R<u32> {
        if let Expr::Local(s) = e
            && let Some(Value::Entity(id)) = f.get(*s as usize)
            && (*id as usize) < self.st.entities.slots()
        {
            return Ok(*id);
        }
        self.entity_node(e, f, what)
    }

    /// [`Runner::entity_as`] for anything but a local naming an entity.
    #[inline(never)]
    fn entity_node(&mut self, e: &Expr, f: &mut Vec<Value>, what: &str) -> R<u32> {
        // An entity a local's entity names (`group.opponent`), read where it is.
        if let Expr::Field(..) = e
            && let Some(Value::Entity(id)) = self.peek(e, f)
            && (*id as usize) < self.st.entities.slots()
        {
            return Ok(*id);
        }
        // The winner of a game that is over, as scenarios' closing checks ask for it.
        if let Expr::Global(Global::Winner) = e
            && let Some(id) = self.st.over.as_ref().and_then(|o| o.winner_id)
            && self.st.entities.get(id).is_some()
        {
            return Ok(id);
        }
        let v = self.eval(e, f)?;
        self.entity_id(&v, what)
    }

    /// A roll of one plain die of a fixed number of sides (`with chance P/Q`'s dQ, a bare `d6`): its
    /// face, drawn and charged as `roll_dice` would; `None` for any other roll.
    pub(super) fn one_die(&mut self, d: &DiceExpr) -> R<Option<i64>> {
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
        // Nothing forced and no walk: the face is the generator's, as `Source::face` draws it. No
        // reroll or explosion either: no more dice drawn than thrown, and no more steps.
        if self.st.forced.is_empty() && self.st.walk.as_ref().is_none_or(|w| w.done) {
            return Ok(Some(crate::dice::draw(&mut self.st.rng, Faces::Count(*n))));
        }
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
    pub(super) fn draw_error(&mut self, m: DrawError, d: &DiceExpr) -> crate::diagnostics::Diagnostic {
        if m == DrawError::Overflow {
            self.overflow()
        } else if m == DrawError::HostFailed
            && let Some(mut e) = self.host.dice_error.take()
        {
            if e.labels.is_empty() {
                e.labels.push(crate::diagnostics::Label {
                    span: d.span,
                    text: "rolling this".into(),
                    primary: true,
                });
            }
            *e
        } else {
            fail(
                crate::diagnostics::Code::ForcedDice.name(),
                m.message(),
                d.span,
                "force faces the die can show",
            )
        }
    }
}

/// What `==` and `is` compare of a value that is not a check's result nor host data: numbers by
/// value (a pool by its value), names by their place in their set (see `same`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Key {
    Int(i64),
    Bool(bool),
    Name(u32),
    Entity(u32),
    None,
}

impl Key {
    // Tested one kind after another, the most common first (numbers, then names, entities, flags):
    // measured faster than one `match` over the kinds.
    #[inline(always)]
    fn of(v: &Value) -> Option<Key> {
        if let Value::Int(i) = v {
            return Some(Key::Int(*i));
        }
        if let Value::Name { index, .. } = v {
            return Some(Key::Name(*index));
        }
        if let Value::Entity(e) = v {
            return Some(Key::Entity(*e));
        }
        if let Value::Bool(b) = v {
            return Some(Key::Bool(*b));
        }
        if let Value::None = v {
            return Some(Key::None);
        }
        if let Value::Pool(p) = v {
            return Some(Key::Int(p.value));
        }
        None
    }
}

/// Whether two values are equal as `==` and `is` compare them: numbers by value (a pool by its
/// value), names by their place in their set.
pub(super) fn same(x: &Value, y: &Value) -> bool {
    match (Key::of(x), Key::of(y)) {
        (Some(a), Some(b)) => a == b,
        _ => x == y,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn values_compare_as_the_language_says() {
        let pool =
            |value| Value::Pool(Arc::new(Pool { notation: "d6".into(), sides: 6, dice: vec![], value }));
        let name = |set, index| Value::Name { set, index };
        // A pool is its value; names are their place, whatever their set; yes is not 1.
        assert!(same(&pool(1), &Value::Int(1)) && same(&pool(2), &pool(2)));
        assert!(!same(&pool(1), &Value::Int(2)));
        assert!(same(&name(0, 1), &name(3, 1)) && !same(&name(0, 1), &name(0, 2)));
        assert!(!same(&Value::Bool(true), &Value::Int(1)));
        assert!(same(&Value::Entity(1), &Value::Entity(1)) && !same(&Value::Entity(0), &Value::Entity(1)));
        assert!(same(&Value::None, &Value::None) && !same(&Value::None, &Value::Entity(0)));
        assert!(!same(&name(0, 0), &Value::Int(0)));
    }
}
