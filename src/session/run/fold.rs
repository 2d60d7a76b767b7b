//! Modifiers' conditions folded under a session's house-rule options: `bonus_die is extra_d6` is
//! known once the options are, so a roll checks what is left (a flag input, or nothing). The list
//! of modifiers that may apply keeps what a roll reads of each (see `Live`).

use super::Runner;
use super::read::same;
use crate::ast::BinOp;
use crate::program::*;

/// What a modifier's condition comes to under the options it was folded with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cond {
    /// It holds (or there is none).
    Always,
    /// It holds when slot `.0` is `yes` (when it is not, with `.1` set).
    Flag(u32, bool),
    /// Worked out from the rule, as written.
    Rule,
}

/// Conditions folded under one set of option values, by check.
#[derive(Debug, Default)]
pub(super) struct Folds {
    options: Vec<Value>,
    /// By check: whether it was folded, and its modifiers that may apply.
    checks: Vec<Option<Vec<Live>>>,
}

/// A modifier that may apply under the options: what a roll reads of it, in a few bytes, where the
/// modifier itself spans several lines of cache.
#[derive(Debug, Clone, Copy)]
pub(super) struct Live {
    /// Its place in the check's modifiers.
    pub index: u32,
    /// Its condition under the options.
    pub cond: Cond,
    /// Its amount, read without the rule when it can be.
    pub amount: Amount,
    /// Whether it adds dice.
    pub dice: bool,
    /// Where it is written, for errors.
    pub span: crate::ast::Span,
}

/// A modifier's amount.
#[derive(Debug, Clone, Copy)]
pub(super) enum Amount {
    /// A number written out, without a cap.
    Const(i64),
    /// A local's value (an input's, or a value's worked out before the roll), without a cap.
    Local(u32),
    /// Worked out from the rule, as written.
    Rule,
}

impl Folds {
    /// Check `c`'s modifiers that may apply under the options (once [`Runner::fold_check`] has run),
    /// taken out until [`Folds::put_back`] gives them back.
    #[inline]
    pub(super) fn take(&mut self, c: CheckId) -> Vec<Live> {
        self.checks.get_mut(c as usize).and_then(Option::take).unwrap_or_default()
    }

    /// Puts back what [`Folds::take`] took.
    #[inline]
    pub(super) fn put_back(&mut self, c: CheckId, live: Vec<Live>) {
        if let Some(slot) = self.checks.get_mut(c as usize) {
            *slot = Some(live);
        }
    }
}

impl Runner<'_> {
    /// Folds the conditions of check `c`'s modifiers under the session's options as they are now,
    /// unless they were already (all are folded again whenever the options differ from those of the
    /// last fold).
    pub(super) fn fold_check(&mut self, c: CheckId) {
        let folds = &mut self.kit.folds;
        // Options are names or yes/no, nearly always: compared as such before the general equality.
        let scalar_eq = |a: &Value, b: &Value| match (a, b) {
            (Value::Name { set: s, index: i }, Value::Name { set: t, index: j }) => s == t && i == j,
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::Int(x), Value::Int(y)) => x == y,
            _ => a == b,
        };
        let same = folds.options.len() == self.st.options.len()
            && folds.options.iter().zip(&self.st.options).all(|(a, b)| scalar_eq(a, b));
        if !same {
            folds.options.clone_from(&self.st.options);
            folds.checks.clear();
        }
        if let Some(Some(_)) = folds.checks.get(c as usize) {
            return;
        }
        let options = &self.st.options;
        let live = self.p.checks[c as usize]
            .modifiers
            .iter()
            .enumerate()
            .filter_map(|(i, m)| {
                let cond = match m.when.as_ref().map(|w| fold(&w.expr, options)) {
                    None | Some(Folded::Known(true)) => Cond::Always,
                    Some(Folded::Known(false)) => return None,
                    Some(Folded::Flag(slot, not)) => Cond::Flag(slot, not),
                    Some(Folded::Other) => Cond::Rule,
                };
                // `-1` may be written as a negated number: read as `int` reads it.
                let amount = match (&m.amount.expr, &m.cap) {
                    (Expr::Const(Value::Int(k)), None) => Amount::Const(*k),
                    (Expr::Local(s), None) => Amount::Local(*s),
                    (Expr::Neg(x), None) => match &**x {
                        Expr::Const(Value::Int(k)) => k.checked_neg().map_or(Amount::Rule, Amount::Const),
                        _ => Amount::Rule,
                    },
                    _ => Amount::Rule,
                };
                Some(Live { index: i as u32, cond, amount, dice: m.dice, span: m.span })
            })
            .collect();
        if folds.checks.len() <= c as usize {
            folds.checks.resize_with(c as usize + 1, || None);
        }
        folds.checks[c as usize] = Some(live);
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
        // `and` and `or` stop at their left side as the rule does (`BinOp::decides`); a right side
        // is dropped only where the left one is a flag read, which has no effect and no error, so
        // a known right side decides alone (`… and no`) or leaves the flag to decide.
        Expr::Bin(op @ (BinOp::And | BinOp::Or), a, b) => match fold(a, options) {
            Known(l) => match op.decides(l) {
                Some(answer) => Known(answer),
                None => fold(b, options),
            },
            Other => Other,
            left @ Flag(..) => match fold(b, options) {
                Known(r) => op.decides(r).map_or(left, Known),
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
