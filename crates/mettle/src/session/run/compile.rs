//! Conditions compiled once, when the rules are checked, into closures that test them: a filter's
//! `u.side == s and u.on_field`, a rule's `when`, an `if`. Each comparison of an attribute, a local
//! or a constant reads its values where they are and compares them as their kinds are known to be;
//! `and`, `or` and `not` call the closures of their sides. Anything else, and anything that does not
//! read as expected (an attribute of no entity, a value of another kind), is tested by `truth`, so
//! the result, the steps charged and the errors are the ones the evaluator gives.

use super::{R, Runner};
use crate::ast::BinOp;
use crate::program::{Expr, Global, Value};
use std::sync::Arc;

type TestFn = dyn for<'a> Fn(&mut Runner<'a>, &mut Vec<Value>) -> R<bool> + Send + Sync;

/// A condition's closure (see the module's notes).
#[derive(Clone)]
pub(crate) struct Compiled(Arc<TestFn>);

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Compiled")
    }
}

impl Runner<'_> {
    /// Whether the condition `c` compiled to holds.
    #[inline]
    pub(super) fn test(&mut self, c: &Compiled, f: &mut Vec<Value>) -> R<bool> {
        (c.0)(self, f)
    }
}

/// Where a leaf of a comparison is read from.
#[derive(Clone, Copy)]
enum Leaf {
    /// A local slot.
    Local(u32),
    /// Attribute `field` of the entity held in local `slot`.
    Attr(u32, u32),
}

impl Leaf {
    fn of(e: &Expr) -> Option<Leaf> {
        match e {
            Expr::Local(s) => Some(Leaf::Local(*s)),
            Expr::Field(base, i) => match &**base {
                Expr::Local(s) => Some(Leaf::Attr(*s, *i)),
                _ => None,
            },
            _ => None,
        }
    }

    /// The value, where it is; `None` for an attribute of no entity in play.
    #[inline(always)]
    fn read<'v>(self, r: &'v Runner<'_>, f: &'v [Value]) -> Option<&'v Value> {
        match self {
            Leaf::Local(s) => f.get(s as usize),
            Leaf::Attr(s, i) => match f.get(s as usize)? {
                Value::Entity(id) => r.st.entities.get(*id as usize)?.fields.get(i as usize),
                _ => None,
            },
        }
    }
}

/// Compiles condition `e` (an expression of flag type).
pub(crate) fn compile(e: &Expr) -> Compiled {
    Compiled(closure(e))
}

fn slow(e: &Expr) -> Arc<TestFn> {
    let e = e.clone();
    Arc::new(move |r, f| r.truth(&e, f))
}

fn closure(e: &Expr) -> Arc<TestFn> {
    match e {
        Expr::Const(Value::Bool(b)) => {
            let b = *b;
            Arc::new(move |_, _| Ok(b))
        }
        Expr::Bin(BinOp::And, a, b) => {
            let (a, b) = (closure(a), closure(b));
            Arc::new(move |r, f| Ok(a(r, f)? && b(r, f)?))
        }
        Expr::Bin(BinOp::Or, a, b) => {
            let (a, b) = (closure(a), closure(b));
            Arc::new(move |r, f| Ok(a(r, f)? || b(r, f)?))
        }
        Expr::Not(x) => {
            let x = closure(x);
            Arc::new(move |r, f| Ok(!x(r, f)?))
        }
        Expr::Local(_) | Expr::Field(..) => match Leaf::of(e) {
            Some(leaf) => {
                let e = e.clone();
                Arc::new(move |r, f| match leaf.read(r, f) {
                    Some(v) => Ok(v.truth()),
                    None => r.truth(&e, f),
                })
            }
            None => slow(e),
        },
        Expr::Bin(op @ (BinOp::Eq | BinOp::Ne | BinOp::Is | BinOp::IsNot), a, b) => {
            equality(e, matches!(op, BinOp::Eq | BinOp::Is), a, b)
        }
        Expr::Bin(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) => order(e, *op, a, b),
        _ => slow(e),
    }
}

/// `a == b` (or `is`; `!=` and `is not` when `eq` is false) of a leaf and a constant, or of two
/// leaves.
fn equality(e: &Expr, eq: bool, a: &Expr, b: &Expr) -> Arc<TestFn> {
    let whole = e.clone();
    match (Leaf::of(a), b, Leaf::of(b)) {
        // A name constant: the attribute's name is compared by its place, as `same` does.
        (Some(leaf), Expr::Const(Value::Name { index, .. }), _) => {
            let k = *index;
            Arc::new(move |r, f| match leaf.read(r, f) {
                Some(Value::Name { index, .. }) => Ok((*index == k) == eq),
                _ => r.truth(&whole, f),
            })
        }
        (Some(leaf), Expr::Const(Value::Int(k)), _) => {
            let k = *k;
            Arc::new(move |r, f| match leaf.read(r, f) {
                Some(Value::Int(i)) => Ok((*i == k) == eq),
                _ => r.truth(&whole, f),
            })
        }
        (Some(leaf), Expr::Const(Value::None), _) => Arc::new(move |r, f| match leaf.read(r, f) {
            Some(Value::None) => Ok(eq),
            Some(Value::Entity(_)) => Ok(!eq),
            _ => r.truth(&whole, f),
        }),
        // Two leaves: entities (`u.side == s`) and names of the same kind are compared directly.
        (Some(x), _, Some(y)) => Arc::new(move |r, f| match (x.read(r, f), y.read(r, f)) {
            (Some(Value::Entity(p)), Some(Value::Entity(q))) => Ok((p == q) == eq),
            (Some(Value::Name { index: p, .. }), Some(Value::Name { index: q, .. })) => Ok((p == q) == eq),
            (Some(Value::Int(p)), Some(Value::Int(q))) => Ok((p == q) == eq),
            _ => r.truth(&whole, f),
        }),
        _ => slow(e),
    }
}

/// A number the order comparisons read without `int`: a constant, a number in a leaf, or the turn.
#[derive(Clone, Copy)]
enum Num {
    Const(i64),
    Leaf(Leaf),
    Turn,
}

impl Num {
    fn of(e: &Expr) -> Option<Num> {
        match e {
            Expr::Const(Value::Int(i)) => Some(Num::Const(*i)),
            Expr::Global(Global::Turn) => Some(Num::Turn),
            _ => Leaf::of(e).map(Num::Leaf),
        }
    }

    /// The number; `None` where `int` would read something else than a plain number.
    #[inline(always)]
    fn read(self, r: &Runner<'_>, f: &[Value]) -> Option<i64> {
        match self {
            Num::Const(i) => Some(i),
            Num::Turn => Some(r.st.turn),
            Num::Leaf(l) => match l.read(r, f)? {
                Value::Int(i) => Some(*i),
                _ => None,
            },
        }
    }
}

fn order(e: &Expr, op: BinOp, a: &Expr, b: &Expr) -> Arc<TestFn> {
    let (Some(x), Some(y)) = (Num::of(a), Num::of(b)) else { return slow(e) };
    match op {
        BinOp::Lt => ordered(e, x, y, |p, q| p < q),
        BinOp::Le => ordered(e, x, y, |p, q| p <= q),
        BinOp::Gt => ordered(e, x, y, |p, q| p > q),
        _ => ordered(e, x, y, |p, q| p >= q),
    }
}

fn ordered(e: &Expr, x: Num, y: Num, cmp: impl Fn(i64, i64) -> bool + Send + Sync + 'static) -> Arc<TestFn> {
    let whole = e.clone();
    Arc::new(move |r, f| match (x.read(r, f), y.read(r, f)) {
        (Some(p), Some(q)) => Ok(cmp(p, q)),
        _ => r.truth(&whole, f),
    })
}
