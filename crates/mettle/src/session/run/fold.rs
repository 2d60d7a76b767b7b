//! Modifiers' conditions folded under a session's house-rule options: `bonus_die is extra_d6` is
//! known once the options are, so a roll checks what is left (a flag input, or nothing).

use super::Runner;
use super::fast::same;
use crate::ast::BinOp;
use crate::program::*;
use std::sync::Arc;

/// What a modifier's condition comes to under the options it was folded with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cond {
    /// It holds (or there is none).
    Always,
    /// It never holds.
    Never,
    /// It holds when slot `.0` is `yes` (when it is not, with `.1` set).
    Flag(u32, bool),
    /// Worked out from the rule, as written.
    Rule,
}

/// Conditions folded under one set of option values, by check.
#[derive(Debug, Default)]
pub(super) struct Folds {
    options: Vec<Value>,
    checks: Vec<Option<Arc<[Cond]>>>,
}

impl Runner<'_> {
    /// The conditions of check `c`'s modifiers, in order, folded under the session's options as
    /// they are now (folded again whenever they differ from the ones of the last fold).
    pub(super) fn folded(&mut self, c: CheckId) -> Arc<[Cond]> {
        let folds = &mut self.folds;
        if folds.options != self.st.options {
            folds.options.clone_from(&self.st.options);
            folds.checks.clear();
        }
        if let Some(Some(conds)) = folds.checks.get(c as usize) {
            return conds.clone();
        }
        let options = &self.st.options;
        let conds: Arc<[Cond]> = self.p.checks[c as usize]
            .modifiers
            .iter()
            .map(|m| match m.when.as_ref().map(|w| fold(w, options)) {
                None | Some(Folded::Known(true)) => Cond::Always,
                Some(Folded::Known(false)) => Cond::Never,
                Some(Folded::Flag(slot, not)) => Cond::Flag(slot, not),
                Some(Folded::Other) => Cond::Rule,
            })
            .collect();
        if folds.checks.len() <= c as usize {
            folds.checks.resize(c as usize + 1, None);
        }
        folds.checks[c as usize] = Some(conds.clone());
        conds
    }
}

/// A condition partly worked out: only what reading it cannot change or fail on is folded.
enum Folded {
    Known(bool),
    /// A slot read as a flag (negated with `.1`): it cannot fail.
    Flag(u32, bool),
    Other,
}

fn fold(e: &Expr, options: &[Value]) -> Folded {
    use Folded::*;
    match e {
        Expr::Const(v) => Known(v.truth()),
        Expr::Local(s) => Flag(*s, false),
        Expr::Not(x) => match fold(x, options) {
            Known(b) => Known(!b),
            Flag(s, not) => Flag(s, !not),
            Other => Other,
        },
        Expr::Bin(op @ (BinOp::Eq | BinOp::Ne | BinOp::Is | BinOp::IsNot), a, b) => {
            match (fixed(a, options), fixed(b, options)) {
                (Some(x), Some(y)) => Known(same(x, y) == matches!(op, BinOp::Eq | BinOp::Is)),
                _ => Other,
            }
        }
        // `and` and `or` stop at their left side as the rule does; a right side is dropped only
        // where the left one is a flag read, which has no effect and no error.
        Expr::Bin(BinOp::And, a, b) => match fold(a, options) {
            Known(false) => Known(false),
            Known(true) => fold(b, options),
            Other => Other,
            left @ Flag(..) => match fold(b, options) {
                Known(true) => left,
                Known(false) => Known(false),
                _ => Other,
            },
        },
        Expr::Bin(BinOp::Or, a, b) => match fold(a, options) {
            Known(true) => Known(true),
            Known(false) => fold(b, options),
            Other => Other,
            left @ Flag(..) => match fold(b, options) {
                Known(false) => left,
                Known(true) => Known(true),
                _ => Other,
            },
        },
        _ => Other,
    }
}

/// A constant, or an option's value in this session.
fn fixed<'a>(e: &'a Expr, options: &'a [Value]) -> Option<&'a Value> {
    const NONE: &Value = &Value::None;
    match e {
        Expr::Const(v) => Some(v),
        Expr::Global(Global::Option(o)) => Some(options.get(*o as usize).unwrap_or(NONE)),
        _ => None,
    }
}
