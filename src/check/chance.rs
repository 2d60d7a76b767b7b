//! Checking `with chance P/Q { … } otherwise { … }` (compiled to an `if` over a die roll) and `record`.

use super::Checker;
use crate::ast::{self, BinOp, Span};
use crate::diagnostics::Diagnostic;
use crate::program::*;

/// The most sides the die of a `with chance` may have: 1/10000 is as fine a chance as tables need, and
/// exact odds stay quick to work out.
pub const MAX_CHANCE_SIDES: i64 = 10_000;

impl<'a> Checker<'a> {
    /// `with chance P/Q { then } otherwise { otherwise }`: one die with Q sides; `then` runs when it shows
    /// P or less. Compiles to `if dQ <= P { … } else { … }`, so the roll is logged, forced dice decide
    /// it and exact odds see an ordinary die.
    pub(super) fn chance(
        &mut self,
        (p, p_span): (i64, Span),
        (q, q_span): (i64, Span),
        head: Span,
        then: &[ast::Stmt],
        otherwise: &[ast::Stmt],
    ) -> Option<Stmt> {
        let errors = self.diags.len();
        for (n, span, what) in [(p, p_span, "chance"), (q, q_span, "number of sides")] {
            if n < 1 {
                self.error(
                    Diagnostic::error(
                        "resolve::bad_chance",
                        format!("the {what} in `with chance {p}/{q}` must be 1 or more"),
                        span,
                        "not a positive number",
                    )
                    .with_help(
                        "write the chance as a fraction of positive whole numbers, e.g. `with chance 1/3`",
                    ),
                );
            }
        }
        if q > MAX_CHANCE_SIDES {
            let g = gcd(p.max(1), q);
            let help = if q / g <= MAX_CHANCE_SIDES {
                format!("the same chance with smaller numbers is `{}/{}`", p / g, q / g)
            } else {
                format!("write the chance with a denominator of {MAX_CHANCE_SIDES} or less, e.g. `1/1000`")
            };
            self.error(
                Diagnostic::error(
                    "resolve::bad_chance",
                    format!("`with chance {p}/{q}` needs a die with more than {MAX_CHANCE_SIDES} sides"),
                    q_span,
                    "too many sides",
                )
                .with_help(help),
            );
        }
        if self.diags.len() == errors && p > q {
            self.error(
                Diagnostic::error(
                    "resolve::bad_chance",
                    format!("a chance of {p} in {q} is more than certain"),
                    Span::new(p_span.start, q_span.end),
                    format!("{p} is more than {q}"),
                )
                .with_help(format!(
                    "the first number counts the faces of a d{q} that pass, so it is at most {q}: did you mean `{q}/{p}`?"
                )),
            );
        }
        if self.diags.len() > errors {
            // Check the blocks anyway, so that mistakes inside them are reported too.
            self.block(then);
            self.block(otherwise);
            return None;
        }
        if p == q {
            self.diags.push(
                Diagnostic::warning(
                    crate::diagnostics::Code::Always.path(),
                    format!("a chance of {p} in {q} always comes true"),
                    Span::new(p_span.start, q_span.end),
                    "always happens",
                )
                .with_help("drop `with chance` and keep its block, or lower the chance"),
            );
        }
        self.may_show(1, q);
        let die = DiceExpr {
            count: Expr::Const(Value::Int(1)),
            sides: SidesExpr::Count(Expr::Const(Value::Int(q))),
            mods: vec![],
            text: format!("d{q}"),
            span: head,
        };
        let cond =
            Expr::Bin(BinOp::Le, Box::new(Expr::Dice(Box::new(die))), Box::new(Expr::Const(Value::Int(p))));
        let then = self.block(then);
        let otherwise = self.block(otherwise);
        Some(Stmt::If(self.test(cond), then, otherwise))
    }

    /// `record "label" = value`: a number or yes/no, which a simulation reports per label.
    pub(super) fn record(&mut self, label: &(String, Span), value: &ast::Expr, span: Span) -> Option<Stmt> {
        if label.0.trim().is_empty() {
            self.error(
                Diagnostic::error(
                    "resolve::bad_record",
                    "a recorded value needs a label",
                    label.1,
                    "empty label",
                )
                .with_help("name what is recorded, e.g. `record \"turns taken\" = turn`"),
            );
            return None;
        }
        let t = self.expr(value, None);
        if !matches!(t.ty, Ty::Int { .. } | Ty::Flag | Ty::Pool | Ty::Error) {
            let words = self.ty_words(&t.ty);
            let help = match t.ty {
                Ty::Name(_) => {
                    "record a number or yes/no: for a name, compare it (`unit.morale is shaken`) or record its `rank(…)`"
                }
                _ => "record a number or yes/no, e.g. `record \"turns taken\" = turn`",
            };
            self.error(
                Diagnostic::error(
                    "resolve::type_mismatch",
                    format!("a recorded value must be a number or yes/no, but this is {words}"),
                    value.span,
                    format!("this is {words}"),
                )
                .with_help(help),
            );
            return None;
        }
        Some(Stmt::Record { label: label.0.as_str().into(), value: self.calc(t.e), span })
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { gcd(b, a % b) }
}
