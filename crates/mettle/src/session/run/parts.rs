//! The parts of a worked-out number, for explanations: a target `6 + triangular(stress)` is shown as
//! `6 + 1 + 2 + 3 + 4`.

use super::Runner;
use crate::ast::BinOp;
use crate::program::{Builtin, Expr, Value};

/// Largest `n` whose `triangular(n)` is spelt out as `1 + 2 + … + n`.
const SPELT_OUT: i64 = 10;

impl Runner<'_> {
    /// Logs a table lookup: the keys, the row that matched and its value.
    pub(super) fn log_lookup(&mut self, table: u32, keys: &[Value], value: &Value, row: crate::ast::Span) {
        let keys = keys.iter().map(|k| self.show(k)).collect();
        let table = self.p.tables[table as usize].name.clone();
        let value = self.show(value);
        self.push(crate::session::LogEntry::Lookup { table, keys, value, span: row });
    }

    /// `e` written with the values it was worked out from, or `None` when that says no more than the
    /// number itself (a constant) or `e` rolls dice or calls a script (working it out again would
    /// roll or call again).
    pub(super) fn parts(&mut self, e: &Expr, f: &mut Vec<Value>) -> Option<String> {
        if !pure(e) || matches!(e, Expr::Const(_)) {
            return None;
        }
        let shown = self.part(e, f, false)?;
        let value = self.eval(e, f).ok()?.int();
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
            _ => match self.eval(e, f).ok()? {
                Value::Int(i) if i < 0 => Some(bracket(i.to_string(), true)),
                v => Some(v.int().to_string()),
            },
        }
    }
}

/// Whether working `e` out again changes nothing: no dice, no scripts.
fn pure(e: &Expr) -> bool {
    match e {
        Expr::Dice(_) | Expr::Script(..) => false,
        Expr::Const(_) | Expr::Local(_) | Expr::Global(_) | Expr::Last(_) => true,
        Expr::Field(x, _) | Expr::Neg(x) | Expr::Not(x) | Expr::Outcome(x) | Expr::ResultSlot(x, _) => pure(x),
        Expr::Bin(_, a, b) => pure(a) && pure(b),
        Expr::If(c, a, b) => pure(c) && pure(a) && pure(b),
        Expr::Builtin(_, args) | Expr::Table(_, args) => args.iter().all(pure),
        // A formula's body is not followed here: it may roll.
        Expr::Define(..) | Expr::NumberOf { .. } => false,
    }
}
