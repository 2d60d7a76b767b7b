//! Conditions compiled into closures that test them, and numbers into closures that work them out
//! (once per ruleset, by `super::lower`, for its two tables: conditions, and the expressions
//! statements read, `super::calc`).

// A filter's `u.side == s and u.on_field`, a rule's `when`, an `if`: each comparison of an
// attribute, a local or a constant reads its values where they are and compares them as their kinds
// are known to be; `and`, `or` and `not` call the closures of their sides. Anything else, and
// anything that does not read as expected (an attribute of no entity, a value of another kind), is
// tested by `truth`, so the result, the steps charged and the errors are the ones the evaluator
// gives. Numbers compared (`hp_lost * 2 >= unit.max_hp`, a count against a local) are read by
// closures of their own, as `int` reads them, left side first.
//
// A closure answers yes, no or failed (`Truth`), and a failed test leaves its error in the runner
// for `Runner::test` to hand back: answering with a `Result<bool, _>` measured slower in whole
// games, where conditions are the most frequent work.

use super::{R, Runner};
use crate::ast::{ArithError, BinOp};
use crate::program::{Builtin, DiceExpr, Expr, Global, Value};

type TestFn = dyn for<'a> Fn(&mut Runner<'a>, &mut Vec<Value>) -> Truth + Send + Sync;

/// What a closure finds: yes, no, or failed, the error of a failed test kept in the runner until
/// [`Runner::test`] gives it back (see the module's notes).
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum Truth {
    No,
    Yes,
    Failed,
}

impl Truth {
    #[inline(always)]
    fn of(b: bool) -> Truth {
        if b { Truth::Yes } else { Truth::No }
    }

    #[inline(always)]
    fn not(self) -> Truth {
        match self {
            Truth::No => Truth::Yes,
            Truth::Yes => Truth::No,
            Truth::Failed => Truth::Failed,
        }
    }
}

/// A condition's closure (see the module's notes), made by the lowering (`super::lower`). Closures
/// are boxed, each owned by the one that calls it (an `Arc` measured 3% slower in whole games).
pub(crate) struct Compiled(Box<TestFn>);

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Compiled")
    }
}

impl Runner<'_> {
    /// Whether the condition `c` compiled to holds.
    #[inline]
    pub(super) fn test(&mut self, c: &Compiled, f: &mut Vec<Value>) -> R<bool> {
        match (c.0)(self, f) {
            Truth::No => Ok(false),
            Truth::Yes => Ok(true),
            Truth::Failed => Err(self.failed.take().unwrap_or_else(|| Box::new(self.lost_error()))),
        }
    }

    /// Whether condition `t` holds, by its compiled closure. In a debug build under
    /// [`super::differ::watch`], the reference evaluator answers too (see that module).
    #[inline(always)]
    pub(super) fn holds(&mut self, t: &crate::program::Test, f: &mut Vec<Value>) -> R<bool> {
        #[cfg(debug_assertions)]
        if super::differ::on() && pure(&t.expr) {
            let by_eval = |r: &mut Self, f: &mut Vec<Value>| Ok(r.eval(&t.expr, f)?.truth());
            return self.both_ways(&t.expr, f, |r, f| r.compiled(t, f), by_eval);
        }
        self.compiled(t, f)
    }

    /// Whether condition `t` holds, by its compiled form in the lowered table, or by the reference
    /// evaluator for a condition the table does not hold (one typed at a prompt).
    #[inline(always)]
    pub(super) fn compiled(&mut self, t: &crate::program::Test, f: &mut Vec<Value>) -> R<bool> {
        let tests = self.tests;
        match tests.get(t.id as usize) {
            Some(c) => self.test(c, f),
            None => self.alone(t, f),
        }
    }

    /// Whether a condition the lowering did not see holds, by the reference evaluator.
    #[cold]
    #[inline(never)]
    fn alone(&mut self, t: &crate::program::Test, f: &mut Vec<Value>) -> R<bool> {
        self.truth(&t.expr, f)
    }

    /// Keeps a closure's error for [`Runner::test`].
    #[cold]
    fn fail(&mut self, e: Box<crate::diagnostics::Diagnostic>) -> Truth {
        self.failed = Some(e);
        Truth::Failed
    }

    /// A condition tested by the evaluator, for a closure.
    #[inline(never)]
    fn slow_truth(&mut self, e: &Expr, f: &mut Vec<Value>) -> Truth {
        match self.truth(e, f) {
            Ok(b) => Truth::of(b),
            Err(e) => self.fail(e),
        }
    }
}

/// Where a leaf of a comparison, or an expression a statement reads (`super::calc`), is read from.
#[derive(Clone, Copy)]
pub(super) enum Leaf {
    /// A local slot.
    Local(u32),
    /// Attribute `field` of the entity held in local `slot`.
    Attr(u32, u32),
}

impl Leaf {
    pub(super) fn of(e: &Expr) -> Option<Leaf> {
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
    pub(super) fn read<'v>(self, r: &'v Runner<'_>, f: &'v [Value]) -> Option<&'v Value> {
        match self {
            Leaf::Local(s) => f.get(s as usize),
            Leaf::Attr(s, i) => r.attribute_of(s, i, f),
        }
    }
}

/// Compiles condition `e` (an expression of flag type).
pub(crate) fn compile(e: &Expr) -> Compiled {
    Compiled(closure(e))
}

/// A condition the lowering did not find: testing it is an error of mettle's (see
/// [`Runner::lost_error`]).
pub(super) fn lost() -> Compiled {
    Compiled(Box::new(|_, _| Truth::Failed))
}

/// Whether evaluating `e` twice leaves the game as once: no dice, scripts, formulas (which may roll)
/// or table lookups (which are logged).
#[cfg(debug_assertions)]
pub(super) fn pure(e: &Expr) -> bool {
    match e {
        Expr::Const(_) | Expr::Local(_) | Expr::Global(_) | Expr::Last(_) => true,
        Expr::Field(x, _) | Expr::Neg(x) | Expr::Not(x) | Expr::Outcome(x) | Expr::ResultSlot(x, _) => {
            pure(x)
        }
        Expr::Bin(_, a, b) => pure(a) && pure(b),
        Expr::If(c, a, b) => pure(c) && pure(a) && pure(b),
        Expr::Builtin(_, args) => args.iter().all(pure),
        Expr::NumberOf { filter, .. } => filter.as_ref().is_none_or(|t| pure(&t.expr)),
        Expr::DataField(x, _) => pure(x),
        Expr::Dice(_)
        | Expr::Define(..)
        | Expr::Table(..)
        | Expr::Script(_)
        | Expr::Total(_)
        | Expr::Pick(_) => false,
    }
}

fn slow(e: &Expr) -> Box<TestFn> {
    let e = e.clone();
    Box::new(move |r, f| r.slow_truth(&e, f))
}

fn closure(e: &Expr) -> Box<TestFn> {
    match e {
        Expr::Const(Value::Bool(b)) => {
            let b = *b;
            Box::new(move |_, _| Truth::of(b))
        }
        Expr::Bin(op @ (BinOp::And | BinOp::Or), a, b) => {
            let (and, a) = (*op == BinOp::And, closure(a));
            // A flag, its negation or a name compared, on the right (`u.side == s and u.on_field`,
            // `… and not u.ap_this_turn`, `… and u.morale is not broken`): read in the closure of
            // the `and` itself, as the closure of its own would read it, without a call.
            if let Some(x) = Leaf::of(b) {
                let whole = (**b).clone();
                return then(and, a, move |r, f| match x.read(r, f) {
                    Some(v) => Truth::of(v.truth()),
                    None => r.slow_truth(&whole, f),
                });
            }
            if let Expr::Not(n) = &**b
                && let Some(x) = Leaf::of(n)
            {
                let inner = (**n).clone();
                return then(and, a, move |r, f| match x.read(r, f) {
                    Some(v) => Truth::of(!v.truth()),
                    None => r.slow_truth(&inner, f).not(),
                });
            }
            if let Expr::Bin(op @ (BinOp::Is | BinOp::IsNot), l, k) = &**b
                && let (Some(x), Expr::Const(Value::Name { index, .. })) = (Leaf::of(l), &**k)
            {
                let (k, eq, whole) = (*index, *op == BinOp::Is, (**b).clone());
                return then(and, a, move |r, f| match x.read(r, f) {
                    Some(Value::Name { index, .. }) => Truth::of((*index == k) == eq),
                    _ => r.slow_truth(&whole, f),
                });
            }
            let b = closure(b);
            then(and, a, move |r, f| b(r, f))
        }
        Expr::Not(x) => {
            let x = closure(x);
            Box::new(move |r, f| x(r, f).not())
        }
        Expr::Local(_) | Expr::Field(..) => match Leaf::of(e) {
            Some(leaf) => {
                let e = e.clone();
                Box::new(move |r, f| match leaf.read(r, f) {
                    Some(v) => Truth::of(v.truth()),
                    None => r.slow_truth(&e, f),
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

/// `a and b` (`a or b` when `and` is false), `b` tested by `right` when `a` does not decide, as
/// [`BinOp::decides`] says (the operator fixed in a closure of its own for each).
fn then<F>(and: bool, a: Box<TestFn>, right: F) -> Box<TestFn>
where
    F: for<'a> Fn(&mut Runner<'a>, &mut Vec<Value>) -> Truth + Send + Sync + 'static,
{
    // What the left side gives is the answer when it failed or `decides` says it decides; the
    // right side's closure is called last, so that its answer is handed back as it is.
    #[inline(always)]
    fn decided(op: BinOp, left: Truth, right: impl FnOnce() -> Truth) -> Truth {
        match left {
            Truth::Failed => Truth::Failed,
            t => match op.decides(t == Truth::Yes) {
                Some(answer) => Truth::of(answer),
                None => right(),
            },
        }
    }
    if and {
        Box::new(move |r, f| decided(BinOp::And, a(r, f), || right(r, f)))
    } else {
        Box::new(move |r, f| decided(BinOp::Or, a(r, f), || right(r, f)))
    }
}

/// `a == b` (or `is`; `!=` and `is not` when `eq` is false) of a leaf and a constant, or of two
/// leaves.
fn equality(e: &Expr, eq: bool, a: &Expr, b: &Expr) -> Box<TestFn> {
    // How the game ended (`game is none`, `game is draw`): its result's place, or none.
    if let Expr::Global(Global::Game) = a {
        let want = match b {
            Expr::Const(Value::None) => None,
            Expr::Const(Value::Name { index, .. }) => Some(*index),
            _ => return slow(e),
        };
        return Box::new(move |r, _| Truth::of((r.st.over.as_ref().map(|o| o.index) == want) == eq));
    }
    // A check's last outcome (`last skill is hit`): its place in the check's outcomes.
    if let (Expr::Outcome(r), Expr::Const(Value::Name { index, .. })) = (a, b)
        && let Expr::Last(c) = &**r
    {
        let (c, k, whole) = (*c as usize, *index, e.clone());
        return Box::new(move |r, f| match r.last_outcome(c) {
            Some(last) => Truth::of((last == k) == eq),
            _ => r.slow_truth(&whole, f),
        });
    }
    // A count against a number (`(number of unit u where …) == 0`).
    if let (Expr::NumberOf { kind, slot, filter }, Expr::Const(Value::Int(k))) = (a, b) {
        let (kind, slot, filter, k) = (*kind, *slot, filter.clone(), *k);
        return Box::new(move |r, f| match r.number_of(kind, slot, filter.as_deref(), f) {
            Ok(n) => Truth::of((n == k) == eq),
            Err(e) => r.fail(e),
        });
    }
    // A house-rule option against a name (`resolve_needs is a_six`): the option's value, by its
    // place, as `same` compares names.
    if let (Expr::Global(Global::Option(o)), Expr::Const(Value::Name { index, .. })) = (a, b) {
        let (o, k, whole) = (*o as usize, *index, e.clone());
        return Box::new(move |r, f| match r.st.options.get(o) {
            Some(Value::Name { index, .. }) => Truth::of((*index == k) == eq),
            _ => r.slow_truth(&whole, f),
        });
    }
    let Some(x) = Leaf::of(a) else { return slow(e) };
    // What the evaluator tests when a leaf reads otherwise than expected.
    let whole = e.clone();
    match (b, Leaf::of(b)) {
        // A name constant: the attribute's name is compared by its place, as `same` does.
        (Expr::Const(Value::Name { index, .. }), _) => {
            let k = *index;
            Box::new(move |r, f| match x.read(r, f) {
                Some(Value::Name { index, .. }) => Truth::of((*index == k) == eq),
                _ => r.slow_truth(&whole, f),
            })
        }
        (Expr::Const(Value::Int(k)), _) => {
            let k = *k;
            Box::new(move |r, f| match x.read(r, f) {
                Some(Value::Int(i)) => Truth::of((*i == k) == eq),
                _ => r.slow_truth(&whole, f),
            })
        }
        (Expr::Const(Value::None), _) => Box::new(move |r, f| match x.read(r, f) {
            Some(Value::None) => Truth::of(eq),
            Some(Value::Entity(_)) => Truth::of(!eq),
            _ => r.slow_truth(&whole, f),
        }),
        // Two leaves: entities (`u.side == s`) and names of the same kind are compared directly.
        (_, Some(y)) => Box::new(move |r, f| match (x.read(r, f), y.read(r, f)) {
            (Some(Value::Entity(p)), Some(Value::Entity(q))) => Truth::of((p == q) == eq),
            (Some(Value::Name { index: p, .. }), Some(Value::Name { index: q, .. })) => {
                Truth::of((p == q) == eq)
            }
            (Some(Value::Int(p)), Some(Value::Int(q))) => Truth::of((p == q) == eq),
            _ => r.slow_truth(&whole, f),
        }),
        _ => Box::new(move |r, f| r.slow_truth(&whole, f)),
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

/// `$body` with `$cmp` bound to order comparison `$op` as [`BinOp::holds`] gives it, the operator
/// fixed in a closure of its own for each: the compiled form compares without asking which
/// operator it is, and the comparison's meaning stays the one `BinOp::compare` writes. `$otherwise`
/// for an operator that is not an order comparison.
macro_rules! by_order {
    ($op:expr, $otherwise:expr, $cmp:ident => $body:expr) => {
        match $op {
            BinOp::Lt => {
                let $cmp = |p: i64, q: i64| BinOp::Lt.holds(p, q);
                $body
            }
            BinOp::Le => {
                let $cmp = |p: i64, q: i64| BinOp::Le.holds(p, q);
                $body
            }
            BinOp::Gt => {
                let $cmp = |p: i64, q: i64| BinOp::Gt.holds(p, q);
                $body
            }
            BinOp::Ge => {
                let $cmp = |p: i64, q: i64| BinOp::Ge.holds(p, q);
                $body
            }
            BinOp::Add
            | BinOp::Sub
            | BinOp::Mul
            | BinOp::Div
            | BinOp::Eq
            | BinOp::Ne
            | BinOp::And
            | BinOp::Or
            | BinOp::Is
            | BinOp::IsNot => $otherwise,
        }
    };
}

fn order(e: &Expr, op: BinOp, a: &Expr, b: &Expr) -> Box<TestFn> {
    // A single die against a number (`with chance 2/3`'s `d3 <= 2`): its face drawn as `int` draws
    // it when the log is off.
    if let (Expr::Dice(d), Expr::Const(Value::Int(k))) = (a, b) {
        let (d, k, dice) = ((**d).clone(), *k, a.clone());
        let one = move |r: &mut Runner<'_>, f: &mut Vec<Value>, cmp: fn(i64, i64) -> bool| match die(
            r, &d, &dice, f,
        ) {
            Ok(face) => Truth::of(cmp(face, k)),
            Err(e) => r.fail(e),
        };
        return by_order!(op, slow(e), cmp => Box::new(move |r, f| one(r, f, cmp)));
    }
    let (Some(x), Some(y)) = (Num::of(a), Num::of(b)) else {
        // The evaluator reads both sides as numbers, left then right: so do these.
        let (x, y) = (number(a), number(b));
        return by_order!(op, slow(e), cmp => Box::new(move |r, f| both(r, f, &*x, &*y, cmp)));
    };
    by_order!(op, slow(e), cmp => ordered(e, x, y, cmp))
}

/// Both sides read as numbers, left then right, and compared by `cmp`.
#[inline(always)]
fn both(r: &mut Runner<'_>, f: &mut Vec<Value>, x: &IntFn, y: &IntFn, cmp: fn(i64, i64) -> bool) -> Truth {
    let p = match x(r, f) {
        Ok(p) => p,
        Err(e) => return r.fail(e),
    };
    match y(r, f) {
        Ok(q) => Truth::of(cmp(p, q)),
        Err(e) => r.fail(e),
    }
}

pub(super) type IntFn = dyn for<'a> Fn(&mut Runner<'a>, &mut Vec<Value>) -> R<i64> + Send + Sync;

/// Expression `e` read as a number, as [`Runner::int`] reads it (the same steps, errors and
/// answers), by a closure: counts, arithmetic (as [`BinOp::arith`] says), `min` and `max`, a single
/// die, a condition read as a number and `if … then … else` of numbers are read without going
/// through the evaluator.
pub(super) fn number(e: &Expr) -> Box<IntFn> {
    match e {
        Expr::Const(Value::Int(k)) => {
            let k = *k;
            Box::new(move |_, _| Ok(k))
        }
        Expr::NumberOf { kind, slot, filter } => {
            let (kind, slot, filter) = (*kind, *slot, filter.clone());
            Box::new(move |r, f| r.number_of(kind, slot, filter.as_deref(), f))
        }
        Expr::Bin(op, a, b) => match by_arith(*op) {
            Some(op) => {
                if let (Some(x), Some(y)) = (Num::of(a), Num::of(b)) {
                    let e = e.clone();
                    return Box::new(move |r, f| match (x.read(r, f), y.read(r, f)) {
                        (Some(p), Some(q)) => op(p, q).map_err(|why| Box::new(r.arith_error(why))),
                        _ => r.int(&e, f),
                    });
                }
                let (x, y) = (number(a), number(b));
                Box::new(move |r, f| {
                    let (p, q) = (x(r, f)?, y(r, f)?);
                    op(p, q).map_err(|why| Box::new(r.arith_error(why)))
                })
            }
            // Any other operator makes a condition, read as a number (a yes or no a scenario
            // records): 1 when it holds, 0 when not, as `eval` gives it.
            None => yes_or_no(e),
        },
        Expr::Not(_) => yes_or_no(e),
        // An attribute of an entity named otherwise than by a local (`winner.opponent.mp`).
        Expr::Field(base, i) if Leaf::of(e).is_none() => {
            let (base, i) = ((**base).clone(), *i as usize);
            Box::new(move |r, f| {
                let id = r.entity(&base, f)?;
                Ok(r.st.entities[id as usize].fields[i].int())
            })
        }
        Expr::Builtin(b @ (Builtin::Min | Builtin::Max), args) => {
            let (b, xs): (Builtin, Vec<Box<IntFn>>) = (*b, args.iter().map(|a| number(a)).collect());
            Box::new(move |r, f| super::eval::extreme(b, xs.len(), |i| xs[i](r, f)))
        }
        // How many dice of a pool show what `c` asks for.
        Expr::Builtin(Builtin::Count(c), args) => {
            let (c, args) = (*c, args.clone());
            Box::new(move |r, f| r.tally(c, &args, f, |hits, _| hits as i64))
        }
        Expr::Dice(d) => {
            let (d, whole) = ((**d).clone(), e.clone());
            Box::new(move |r, f| die(r, &d, &whole, f))
        }
        Expr::If(c, a, b) => {
            let (c, a, b) = (closure(c), number(a), number(b));
            let c = Compiled(c);
            Box::new(move |r, f| if r.test(&c, f)? { a(r, f) } else { b(r, f) })
        }
        _ => match Num::of(e) {
            Some(Num::Leaf(leaf)) => {
                let e = e.clone();
                Box::new(move |r, f| match leaf.read(r, f) {
                    Some(Value::Int(i)) => Ok(*i),
                    _ => r.int(&e, f),
                })
            }
            _ => {
                let e = e.clone();
                Box::new(move |r, f| r.int(&e, f))
            }
        },
    }
}

/// Condition `e` read as a number: 1 when it holds, 0 when not.
fn yes_or_no(e: &Expr) -> Box<IntFn> {
    let c = compile(e);
    Box::new(move |r, f| Ok(i64::from(r.test(&c, f)?)))
}

/// The face of die `d` (`whole`, a roll of one die or of more), read as `int` reads it: drawn
/// alone when nothing is logged and it is one plain die, else by the evaluator, which logs the
/// roll.
#[inline(always)]
fn die(r: &mut Runner<'_>, d: &DiceExpr, whole: &Expr, f: &mut Vec<Value>) -> R<i64> {
    if !r.mode.log
        && let Some(face) = r.one_die(d)?
    {
        return Ok(face);
    }
    r.int(whole, f)
}

/// An arithmetic operator's meaning ([`BinOp::arith`]) with the operator fixed.
type ArithFn = fn(i64, i64) -> Result<i64, ArithError>;

/// Arithmetic operator `op` as [`BinOp::arith`] gives it, fixed in a function of its own for each
/// (the compiled form works it out without asking which operator it is); `None` for an operator
/// that is not arithmetic.
fn by_arith(op: BinOp) -> Option<ArithFn> {
    Some(match op {
        BinOp::Add => |p, q| BinOp::Add.arith(p, q),
        BinOp::Sub => |p, q| BinOp::Sub.arith(p, q),
        BinOp::Mul => |p, q| BinOp::Mul.arith(p, q),
        BinOp::Div => |p, q| BinOp::Div.arith(p, q),
        BinOp::Eq
        | BinOp::Ne
        | BinOp::Lt
        | BinOp::Le
        | BinOp::Gt
        | BinOp::Ge
        | BinOp::And
        | BinOp::Or
        | BinOp::Is
        | BinOp::IsNot => return None,
    })
}

fn ordered(e: &Expr, x: Num, y: Num, cmp: impl Fn(i64, i64) -> bool + Send + Sync + 'static) -> Box<TestFn> {
    let whole = e.clone();
    Box::new(move |r, f| match (x.read(r, f), y.read(r, f)) {
        (Some(p), Some(q)) => Truth::of(cmp(p, q)),
        _ => r.slow_truth(&whole, f),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Ruleset;
    use crate::program::Test;
    use crate::session::Session;
    use std::sync::Arc;

    fn field(slot: u32, i: u32) -> Expr {
        Expr::Field(Box::new(Expr::Local(slot)), i)
    }

    fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr::Bin(op, Box::new(a), Box::new(b))
    }

    #[test]
    fn compiled_conditions_agree_with_the_evaluator() {
        let rules = Ruleset::from_str(
            "t.mettle",
            "kind side { }\n\
             kind unit { side: side\n hp: 0..9 = 3\n on_field: flag = yes\n morale: steady | shaken | broken = steady }",
        )
        .unwrap();
        let p = rules.program();
        let kind = |n: &str| p.kinds.iter().position(|k| k.name == n).unwrap();
        let unit = &p.kinds[kind("unit")];
        let at = |n: &str| unit.fields.iter().position(|f| f.name == n).unwrap() as u32;
        let (side, hp, on_field, morale) = (at("side"), at("hp"), at("on_field"), at("morale"));
        let Some(Value::Name { set, .. }) = unit.fields[morale as usize].default.clone() else {
            panic!("morale has a default name")
        };
        let shaken = Expr::Const(Value::Name { set, index: 1 });
        let mut s = Session::new(&rules, 1);
        let a = s.create("side", "a", &[]).unwrap();
        let b = s.create("side", "b", &[]).unwrap();
        let u = s.create("unit", "u", &[("side", Value::Entity(a)), ("hp", Value::Int(2))]).unwrap();
        let v =
            s.create("unit", "v", &[("side", Value::Entity(b)), ("on_field", Value::Bool(false))]).unwrap();
        // Slots: 0 and 1 two units, 2 a side, 3 a number, 4 none, 5 a flag, 6 nothing at all.
        let frames = [
            vec![
                Value::Entity(u),
                Value::Entity(v),
                Value::Entity(a),
                Value::Int(2),
                Value::None,
                Value::Bool(true),
            ],
            vec![
                Value::Entity(v),
                Value::Entity(u),
                Value::Entity(b),
                Value::Int(3),
                Value::Entity(a),
                Value::Bool(false),
            ],
            // An attribute of none: both report the same error.
            vec![
                Value::None,
                Value::Entity(u),
                Value::Entity(b),
                Value::Int(0),
                Value::None,
                Value::Bool(false),
            ],
        ];
        let conds = [
            bin(BinOp::Eq, field(0, side), Expr::Local(2)),
            bin(BinOp::Ne, field(0, side), field(1, side)),
            bin(BinOp::Is, field(0, morale), Expr::Const(Value::Name { set, index: 0 })),
            bin(BinOp::IsNot, field(0, morale), shaken.clone()),
            bin(BinOp::Eq, field(0, hp), Expr::Const(Value::Int(2))),
            bin(BinOp::Ne, field(0, hp), Expr::Local(3)),
            bin(BinOp::Eq, Expr::Local(4), Expr::Const(Value::None)),
            bin(BinOp::IsNot, Expr::Local(4), Expr::Const(Value::None)),
            bin(BinOp::Ge, field(0, hp), Expr::Local(3)),
            bin(BinOp::Lt, Expr::Global(Global::Turn), Expr::Const(Value::Int(1))),
            bin(BinOp::Gt, field(1, hp), field(0, hp)),
            field(0, on_field),
            Expr::Local(5),
            Expr::Not(Box::new(field(1, on_field))),
            bin(
                BinOp::And,
                bin(BinOp::Eq, field(0, side), Expr::Local(2)),
                bin(BinOp::Or, field(0, on_field), bin(BinOp::Is, field(0, morale), shaken.clone())),
            ),
            // A flag, its negation and a name compared, read on the right of `and` and `or` by the
            // closure of the `and` or `or` itself (each side of an attribute of none in one frame).
            bin(BinOp::And, bin(BinOp::Eq, field(0, side), Expr::Local(2)), field(0, on_field)),
            bin(BinOp::And, Expr::Local(5), Expr::Not(Box::new(field(1, on_field)))),
            bin(BinOp::Or, Expr::Local(5), bin(BinOp::IsNot, field(0, morale), shaken.clone())),
            bin(BinOp::Or, field(1, on_field), Expr::Not(Box::new(Expr::Local(4)))),
            bin(BinOp::Is, Expr::Global(Global::Game), Expr::Const(Value::None)),
            bin(
                BinOp::Eq,
                Expr::NumberOf {
                    kind: kind("unit") as u32,
                    slot: 6,
                    filter: Some(Arc::new(Test::alone(field(6, on_field)))),
                },
                Expr::Const(Value::Int(1)),
            ),
            bin(
                BinOp::Gt,
                Expr::NumberOf { kind: kind("unit") as u32, slot: 6, filter: None },
                Expr::Const(Value::Int(1)),
            ),
            // Numbers worked out: a count against a local, sums and products (one overflowing),
            // and `if … then … else`.
            bin(
                BinOp::Le,
                Expr::NumberOf {
                    kind: kind("unit") as u32,
                    slot: 6,
                    filter: Some(Arc::new(Test::alone(bin(BinOp::Ge, field(6, hp), Expr::Local(3))))),
                },
                Expr::Local(3),
            ),
            bin(
                BinOp::Ge,
                bin(BinOp::Mul, field(0, hp), Expr::Const(Value::Int(3))),
                Expr::Const(Value::Int(6)),
            ),
            bin(BinOp::Lt, bin(BinOp::Sub, Expr::Local(3), field(0, hp)), Expr::Global(Global::Turn)),
            bin(
                BinOp::Gt,
                bin(
                    BinOp::Sub,
                    field(0, hp),
                    bin(BinOp::Mul, Expr::Local(3), Expr::Const(Value::Int(i64::MAX / 2))),
                ),
                Expr::Const(Value::Int(0)),
            ),
            bin(
                BinOp::Ge,
                Expr::Local(3),
                Expr::If(
                    Box::new(field(0, on_field)),
                    Box::new(bin(BinOp::Add, field(1, hp), Expr::Const(Value::Int(1)))),
                    Box::new(Expr::NumberOf { kind: kind("side") as u32, slot: 6, filter: None }),
                ),
            ),
        ];
        let mut r = s.runner();
        let mut checked = 0;
        for frame in &frames {
            for c in &conds {
                let mut f1 = frame.clone();
                f1.push(Value::None);
                let mut f2 = f1.clone();
                let before = r.steps;
                let slow = r.truth(c, &mut f1).map_err(|d| d.code.clone());
                let charged = r.steps - before;
                let fast = r.test(&compile(c), &mut f2).map_err(|d| d.code.clone());
                assert_eq!(fast, slow, "{c:?} in {frame:?}");
                assert_eq!(r.steps - before - charged, charged, "the same steps for {c:?}");
                checked += usize::from(slow.is_ok());
            }
        }
        assert!(checked > 40, "most conditions hold or fail without an error ({checked})");
    }

    /// Conditions over a world of two sides and two units, built from leaves that read the frame's
    /// slots as `compiled_conditions_agree_with_the_evaluator` lays them out (0 and 1 units, 2 a
    /// side, 3 a number, 4 none or a side, 5 a flag, 6 the candidate of a count).
    fn a_condition(
        hp: u32,
        on_field: u32,
        side: u32,
        unit: u32,
    ) -> impl proptest::strategy::Strategy<Value = Expr> {
        use proptest::prelude::*;
        let number_leaf = prop_oneof![
            (-3i64..10).prop_map(|n| Expr::Const(Value::Int(n))),
            Just(Expr::Local(3)),
            (0u32..2).prop_map(move |s| field(s, hp)),
            Just(Expr::Global(Global::Turn)),
            Just(Expr::NumberOf { kind: unit, slot: 6, filter: None }),
            Just(Expr::Const(Value::Int(i64::MAX / 2))),
        ];
        let flag_leaf = prop_oneof![
            any::<bool>().prop_map(|b| Expr::Const(Value::Bool(b))),
            Just(Expr::Local(5)),
            (0u32..2).prop_map(move |s| field(s, on_field)),
            Just(Expr::Not(Box::new(Expr::Local(4)))),
            (0u32..2, prop_oneof![Just(BinOp::Eq), Just(BinOp::Ne)]).prop_map(move |(s, op)| bin(
                op,
                field(s, side),
                Expr::Local(2)
            )),
            prop_oneof![Just(BinOp::Is), Just(BinOp::IsNot)].prop_map(|op| bin(
                op,
                Expr::Local(4),
                Expr::Const(Value::None)
            )),
        ];
        let number = number_leaf.prop_recursive(3, 12, 2, move |inner| {
            prop_oneof![
                (
                    prop_oneof![Just(BinOp::Add), Just(BinOp::Sub), Just(BinOp::Mul), Just(BinOp::Div)],
                    inner.clone(),
                    inner.clone()
                )
                    .prop_map(|(op, a, b)| bin(op, a, b)),
                inner.clone().prop_map(|a| Expr::Neg(Box::new(a))),
                (Just(()), inner.clone(), inner).prop_map(move |(_, a, b)| {
                    Expr::If(Box::new(field(0, on_field)), Box::new(a), Box::new(b))
                }),
            ]
        });
        let compare = prop_oneof![
            Just(BinOp::Lt),
            Just(BinOp::Le),
            Just(BinOp::Gt),
            Just(BinOp::Ge),
            Just(BinOp::Eq),
            Just(BinOp::Ne)
        ];
        let compared = (compare, number.clone(), number).prop_map(|(op, a, b)| bin(op, a, b));
        prop_oneof![flag_leaf, compared].prop_recursive(3, 16, 2, move |inner| {
            prop_oneof![
                inner.clone().prop_map(|a| Expr::Not(Box::new(a))),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| bin(BinOp::And, a, b)),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| bin(BinOp::Or, a, b)),
                (inner, 0i64..3).prop_map(move |(c, n)| {
                    let filter = Some(Arc::new(Test::alone(c)));
                    bin(BinOp::Ge, Expr::NumberOf { kind: unit, slot: 6, filter }, Expr::Const(Value::Int(n)))
                }),
            ]
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// Generated conditions: the compiled closure, the evaluator's reader (`truth`) and the reference
        /// evaluator (`eval`) give the same answer or the same error, and charge the same steps.
        #[test]
        fn generated_conditions_agree_in_every_tier(c in a_condition(1, 2, 0, 1)) {
            let rules = Ruleset::from_str(
                "t.mettle",
                "kind side { }\nkind unit { side: side\n hp: 0..9 = 3\n on_field: flag = yes }",
            )
            .unwrap();
            let mut s = Session::new(&rules, 1);
            let a = s.create("side", "a", &[]).unwrap();
            let b = s.create("side", "b", &[]).unwrap();
            let u = s.create("unit", "u", &[("side", Value::Entity(a)), ("hp", Value::Int(2))]).unwrap();
            let v = s
                .create("unit", "v", &[("side", Value::Entity(b)), ("on_field", Value::Bool(false))])
                .unwrap();
            let frames = [
                [Value::Entity(u), Value::Entity(v), Value::Entity(a), Value::Int(2), Value::None, Value::Bool(true)],
                [Value::Entity(v), Value::Entity(u), Value::Entity(b), Value::Int(3), Value::Entity(a), Value::Bool(false)],
                [Value::None, Value::Entity(u), Value::Entity(b), Value::Int(0), Value::None, Value::Bool(false)],
            ];
            let run = compile(&c);
            let mut r = s.runner();
            for frame in &frames {
                let mut f: Vec<Value> = frame.to_vec();
                f.push(Value::None);
                let (mut f1, mut f2) = (f.clone(), f.clone());
                let at = r.steps;
                let reference = r.eval(&c, &mut f).map(|v| v.truth()).map_err(|d| d.code.clone());
                let by_eval = r.steps - at;
                let at = r.steps;
                let fast = r.truth(&c, &mut f1).map_err(|d| d.code.clone());
                let by_truth = r.steps - at;
                let at = r.steps;
                let compiled = r.test(&run, &mut f2).map_err(|d| d.code.clone());
                let by_closure = r.steps - at;
                proptest::prop_assert_eq!(&fast, &reference, "truth, in {:?}", frame);
                proptest::prop_assert_eq!(&compiled, &reference, "compiled, in {:?}", frame);
                proptest::prop_assert_eq!((by_truth, by_closure), (by_eval, by_eval), "steps, in {:?}", frame);
            }
        }
    }

    /// A watch sees a difference: a condition whose closure was compiled from another expression
    /// stands in for a compiled form that went wrong.
    #[test]
    fn a_watch_reports_a_closure_that_differs_from_its_condition() {
        let rules = Ruleset::from_str("t.mettle", "kind unit { hp: 0..9 = 3 }").unwrap();
        let right = bin(BinOp::Le, field(0, 0), Expr::Const(Value::Int(3)));
        let code = super::super::lower::Lowered::of(vec![
            compile(&bin(BinOp::Ge, field(0, 0), Expr::Const(Value::Int(4)))),
            compile(&right),
        ]);
        let mut s = Session::new(&rules, 1);
        let u = s.create("unit", "u", &[]).unwrap();
        let wrong = Test { id: 0, ..Test::alone(bin(BinOp::Ge, field(0, 0), Expr::Const(Value::Int(2)))) };
        let right = Test { id: 1, ..Test::alone(right) };
        let watch = super::super::differ::watch();
        let mut r = s.runner();
        r.lowered_by(&code);
        assert!(!r.holds(&wrong, &mut vec![Value::Entity(u)]).unwrap(), "the closure answers");
        assert!(r.holds(&right, &mut vec![Value::Entity(u)]).unwrap());
        assert_eq!(watch.compared(), 2);
        let found = watch.differences();
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("compiled false in 0 steps, evaluated true in 0 steps"), "{}", found[0]);
    }

    #[test]
    fn a_compiled_option_reads_what_the_evaluator_reads() {
        let rules = Ruleset::from_str("t.mettle", "option mode: calm | wild | grim = calm").unwrap();
        let Ok(Value::Name { set, .. }) = rules.option_value("mode", "wild") else {
            panic!("wild is a name")
        };
        let mut s = Session::new(&rules, 1);
        let mut seen = vec![];
        for mode in ["calm", "wild", "grim"] {
            s.set_option("mode", rules.option_value("mode", mode).unwrap()).unwrap();
            let mut r = s.runner();
            for (op, index) in [(BinOp::Is, 1), (BinOp::IsNot, 1), (BinOp::Is, 0), (BinOp::Eq, 2)] {
                let c = bin(op, Expr::Global(Global::Option(0)), Expr::Const(Value::Name { set, index }));
                let slow = r.truth(&c, &mut vec![]).unwrap();
                assert_eq!(r.test(&compile(&c), &mut vec![]).unwrap(), slow, "{mode}: {c:?}");
                seen.push(slow);
            }
        }
        assert!(seen.contains(&true) && seen.contains(&false));
    }

    #[test]
    fn a_compiled_chance_draws_the_dice_the_evaluator_draws() {
        let rules = Ruleset::from_str("t.mettle", "kind unit { n: 0..9 = 0 }").unwrap();
        let die = |sides: i64| crate::program::DiceExpr {
            count: Expr::Const(Value::Int(1)),
            sides: crate::program::SidesExpr::Count(Expr::Const(Value::Int(sides))),
            mods: vec![],
            text: format!("d{sides}"),
            span: crate::ast::Span::default(),
        };
        let cases = [(BinOp::Le, 3, 2), (BinOp::Lt, 7, 4), (BinOp::Gt, 6, 5), (BinOp::Ge, 4, 3)];
        // With the log off the die is drawn by the closure itself; with it on, by the evaluator.
        for ((op, sides, k), logging) in cases.into_iter().flat_map(|c| [(c, false), (c, true)]) {
            let c = bin(op, Expr::Dice(Box::new(die(sides))), Expr::Const(Value::Int(k)));
            let (mut a, mut b) = (Session::new(&rules, 7), Session::new(&rules, 7));
            a.set_logging(logging);
            b.set_logging(logging);
            let (mut ra, mut rb) = (a.runner(), b.runner());
            let run = compile(&c);
            let slow: Vec<bool> = (0..64).map(|_| ra.truth(&c, &mut vec![]).unwrap()).collect();
            let fast: Vec<bool> = (0..64).map(|_| rb.test(&run, &mut vec![]).unwrap()).collect();
            assert_eq!(fast, slow, "{c:?}");
            assert!(slow.contains(&true) && slow.contains(&false), "both ways come up in 64 draws");
            assert_eq!(ra.steps, rb.steps, "the same steps charged");
        }
    }

    #[test]
    fn a_compiled_last_outcome_reads_what_the_evaluator_reads() {
        let rules = Ruleset::from_str(
            "t.mettle",
            "check skill {\n  roll d6\n  outcome hit when total >= 4\n  otherwise miss\n}",
        )
        .unwrap();
        let outcome = |index| {
            let hit = Expr::Outcome(Box::new(Expr::Last(0)));
            bin(
                BinOp::Is,
                hit,
                Expr::Const(Value::Name { set: rules.program().checks[0].outcome_set, index }),
            )
        };
        let mut s = Session::new(&rules, 3);
        // Before any roll both report the same error; after each roll, the same answer.
        let mut seen = vec![];
        for roll in 0..12 {
            if roll > 0 {
                s.roll("skill", &[]).unwrap().rolled.unwrap();
            }
            let mut r = s.runner();
            for index in [0, 1] {
                let c = outcome(index);
                let slow = r.truth(&c, &mut vec![]).map_err(|d| d.code.clone());
                let fast = r.test(&compile(&c), &mut vec![]).map_err(|d| d.code.clone());
                assert_eq!(fast, slow, "roll {roll}, outcome {index}");
                seen.push(slow);
            }
        }
        assert!(seen.contains(&Ok(true)) && seen.contains(&Ok(false)) && seen.iter().any(Result::is_err));
    }
}
