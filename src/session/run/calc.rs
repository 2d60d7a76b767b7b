//! How the rules read each expression a statement or a check is given (`set`'s value, `add`'s
//! amount, a `let` or `var`, a fact given to an event, an input given to a check or worked out by its
//! default, a modifier's amount and cap, a target, a record, an argument given to a reaction or a
//! script a rule follows): decided once per ruleset by the lowering (`super::lower`), from the
//! expression's shape and what the statement wants of it, and kept in the runtime's table by the
//! expression's id ([`Calc`]). Every reading gives what the reference
//! evaluator gives (`eval`, or `int` for a number): the same value, dice, steps and errors; it only
//! skips building a `Value` for each step where nobody will read one.

use super::compile::{Compiled, IntFn, Leaf, compile, number};
use super::{R, Runner};
use crate::ast::BinOp;
use crate::program::*;

/// What a statement wants of an expression it reads, as the lowering is told it.
#[derive(Clone, Copy)]
pub(super) enum Want<'p> {
    /// Its value (`set`, `let`, an input's default, a reaction's or a followed script's argument).
    Value,
    /// A number (`add`'s amount, a modifier's amount and cap, a target, a record).
    Number,
    /// A value for a fact or an input of this type (none for a fact the event does not declare).
    Given(Option<&'p Ty>),
}

/// How the runner reads one expression (see the module's notes).
pub(crate) enum Reading {
    /// A constant, read where it is written.
    Const(Value),
    /// A local, or an attribute of the entity a local holds, read where it is.
    At(Leaf),
    /// A number however it is read (a count, arithmetic, `add`'s amount): worked out by its
    /// compiled closure, as `int` works it out.
    Number(Box<IntFn>),
    /// A number given for a number when nothing is logged (a die drawn with no pool made); the
    /// evaluator when the log keeps the roll.
    QuietNumber(Box<IntFn>),
    /// A yes/no given for a yes/no when nothing is logged; the evaluator when the log keeps it.
    QuietFlag(Compiled),
    /// Anything else: the reference evaluator.
    Eval,
}

/// How expression `e` is read by a statement that wants `want` of it.
pub(super) fn reading(e: &Expr, want: Want<'_>) -> Reading {
    if let Expr::Const(v) = e {
        return Reading::Const(v.clone());
    }
    if let Some(leaf) = Leaf::of(e) {
        return Reading::At(leaf);
    }
    // A count, a sum, a difference, a product and a quotient are numbers however they are read; a
    // count of a pool a local holds too.
    let a_number = match e {
        Expr::NumberOf { .. } | Expr::Bin(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div, ..) => true,
        Expr::Builtin(Builtin::Count(_), args) => matches!(args.first(), Some(Expr::Local(_))),
        _ => false,
    };
    match want {
        Want::Number => Reading::Number(number(e)),
        _ if a_number => Reading::Number(number(e)),
        Want::Given(Some(Ty::Int { .. })) => Reading::QuietNumber(number(e)),
        Want::Given(Some(Ty::Flag)) => Reading::QuietFlag(compile(e)),
        Want::Value | Want::Given(_) => Reading::Eval,
    }
}

impl Runner<'_> {
    /// How `c` is read: its reading in the lowered table, or none for one the checker did not
    /// number (typed at a prompt), which the evaluator reads.
    #[inline(always)]
    fn reading_of(&self, c: &Calc) -> Option<&Reading> {
        let calcs = self.calcs;
        calcs.get(c.id as usize)
    }

    /// The value `c` gives, where it already is: a constant, a local, an attribute of a local's
    /// entity; `None` for anything else (and an attribute of no entity, which `calc` reports).
    #[inline(always)]
    pub(super) fn calc_peek<'v>(&'v self, c: &'v Calc, f: &'v [Value]) -> Option<&'v Value> {
        match self.reading_of(c)? {
            Reading::Const(v) => Some(v),
            Reading::At(leaf) => leaf.read(self, f),
            Reading::Number(_) | Reading::QuietNumber(_) | Reading::QuietFlag(_) | Reading::Eval => None,
        }
    }

    /// The value `c` gives, read as its reading says. In a debug build under
    /// [`super::differ::watch`], the reference evaluator reads it too (see that module).
    #[inline(always)]
    pub(super) fn calc<const SIM: bool>(&mut self, c: &Calc, f: &mut Vec<Value>) -> R<Value> {
        #[cfg(debug_assertions)]
        if super::differ::on() && super::compile::pure(&c.expr) {
            let by_eval = |r: &mut Self, f: &mut Vec<Value>| r.eval(c, f);
            return self.both_ways(c, f, |r, f| r.calc_lowered::<SIM>(c, f), by_eval);
        }
        self.calc_lowered::<SIM>(c, f)
    }

    /// [`Runner::calc`] by the lowered table.
    #[inline(always)]
    fn calc_lowered<const SIM: bool>(&mut self, c: &Calc, f: &mut Vec<Value>) -> R<Value> {
        let calcs = self.calcs;
        match calcs.get(c.id as usize) {
            Some(Reading::Const(v)) => Ok(super::copied(v)),
            Some(Reading::At(leaf)) => match leaf.read(self, f) {
                Some(v) => Ok(super::copied(v)),
                None => self.eval(c, f),
            },
            Some(Reading::Number(n)) => Ok(Value::Int(n(self, f)?)),
            Some(Reading::QuietNumber(n)) if !self.kept::<SIM>().log => Ok(Value::Int(n(self, f)?)),
            Some(Reading::QuietFlag(t)) if !self.kept::<SIM>().log => Ok(Value::Bool(self.test(t, f)?)),
            _ => self.eval(c, f),
        }
    }

    /// The number `c` gives, as `int` reads it (compared with the reference as [`Runner::calc`]
    /// is).
    #[inline(always)]
    pub(super) fn calc_int(&mut self, c: &Calc, f: &mut Vec<Value>) -> R<i64> {
        #[cfg(debug_assertions)]
        if super::differ::on() && super::compile::pure(&c.expr) {
            let by_eval = |r: &mut Self, f: &mut Vec<Value>| Ok(r.eval(c, f)?.int());
            return self.both_ways(c, f, |r, f| r.calc_int_lowered(c, f), by_eval);
        }
        self.calc_int_lowered(c, f)
    }

    /// [`Runner::calc_int`] by the lowered table.
    #[inline(always)]
    fn calc_int_lowered(&mut self, c: &Calc, f: &mut Vec<Value>) -> R<i64> {
        let calcs = self.calcs;
        match calcs.get(c.id as usize) {
            Some(Reading::Const(v)) => Ok(v.int()),
            Some(Reading::At(leaf)) => match leaf.read(self, f) {
                Some(v) => Ok(v.int()),
                None => self.int(c, f),
            },
            Some(Reading::Number(n) | Reading::QuietNumber(n)) => n(self, f),
            _ => self.int(c, f),
        }
    }
}
