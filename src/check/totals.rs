//! Checking totals over a kind: `max(u.leadership for each unit u where u.able else 0)`.

use super::Checker;
use super::expr::T;
use crate::ast::{self, ExprKind, TotalOp};
use crate::diagnostics::Diagnostic;
use crate::program::*;
use std::sync::Arc;

impl<'a> Checker<'a> {
    /// A total over the entities of a kind. What it totals must fit the total (numbers for `max`,
    /// `min` and `sum`, yes/no for `count`, `any` and `all`); `else` is only for `max` and `min`,
    /// the totals that have no answer for no entity.
    pub(super) fn total(&mut self, e: &ast::Expr) -> T {
        let ExprKind::Total { op, value, kind, var, filter, empty } = &e.kind else {
            unreachable!("called on a total")
        };
        let op = *op;
        let numeric = matches!(op, TotalOp::Max | TotalOp::Min | TotalOp::Sum);
        let fallback = || match op {
            TotalOp::Any | TotalOp::All => T::flag(Expr::Const(Value::Bool(op == TotalOp::All)), None),
            _ => T::int(Expr::Const(Value::Int(0)), None, None),
        };
        let Some(k) = self.kind(kind) else { return fallback() };
        self.scope.push();
        let slot = self.scope.bind(&var.name, Ty::Entity(k), var.span, false);
        let f = filter.as_ref().map(|f| {
            let t = self.expr(f, Some(&Ty::Flag));
            self.expect_ty(&t, &Ty::Flag, f.span, "the condition after `where`");
            Arc::new(self.test(t.e))
        });
        let want = if numeric { Ty::Int { lo: None, hi: None } } else { Ty::Flag };
        let v = value.as_ref().map(|v| {
            let t = self.expr(v, Some(&want));
            if op == TotalOp::Sum && t.ty == Ty::Flag {
                self.error(self.sum_of_flags(kind, var, v));
            } else {
                self.expect_ty(&t, &want, v.span, &format!("what `{}` totals", op.word()));
            }
            t
        });
        self.scope.pop();
        if v.is_none() && (numeric || op == TotalOp::All) {
            self.error(self.total_needs_value(op, kind, var, e.span));
        }
        let extreme = matches!(op, TotalOp::Max | TotalOp::Min);
        let em = empty.as_ref().map(|x| {
            let t = self.expr(x, Some(&want));
            if extreme {
                self.expect_ty(&t, &want, x.span, "the value after `else`");
            }
            t
        });
        if let (Some(x), false) = (empty, extreme) {
            let none = match op {
                TotalOp::Any => "no",
                TotalOp::All => "yes",
                _ => "0",
            };
            self.error(
                Diagnostic::error(
                    "resolve::total_else",
                    format!("`{}` of no {} is always {none}: `else` is only for `max` and `min`", op.word(), kind.name),
                    x.span,
                    "not needed here",
                )
                .with_label(e.span, format!("`{}` of no {} gives {none}", op.word(), kind.name))
                .with_help("remove `else …`; to give another value when none pass, write `if count(each …) == 0 then … else …`"),
            );
        }
        let range = |t: &Option<T>| t.as_ref().map_or((None, None), |t| t.range());
        let (vlo, vhi) = range(&v);
        let ty = match op {
            TotalOp::Max | TotalOp::Min => {
                let (elo, ehi) = match &em {
                    Some(t) => t.range(),
                    None => (vlo, vhi),
                };
                let lo = vlo.zip(elo).map(|(a, b)| a.min(b));
                let hi = vhi.zip(ehi).map(|(a, b)| a.max(b));
                Ty::Int { lo, hi }
            }
            TotalOp::Sum => {
                Ty::Int { lo: vlo.filter(|l| *l >= 0).map(|_| 0), hi: vhi.filter(|h| *h <= 0).map(|_| 0) }
            }
            TotalOp::Count => Ty::Int { lo: Some(0), hi: None },
            TotalOp::Any | TotalOp::All => Ty::Flag,
        };
        let total = Total {
            op,
            kind: k,
            slot,
            value: v.map(|t| t.e),
            filter: f,
            empty: em.map(|t| t.e),
            span: e.span,
        };
        T::new(Expr::Total(Box::new(total)), ty)
    }

    fn sum_of_flags(&self, kind: &ast::Ident, var: &ast::Ident, value: &ast::Expr) -> Diagnostic {
        let (k, v) = (&kind.name, &var.name);
        let what = self.src(value.span);
        Diagnostic::error(
            "resolve::type_mismatch",
            "what `sum` adds up must be a number, but this is yes/no",
            value.span,
            "this is yes/no",
        )
        .with_help(format!("to count the ones for which it is yes, write `count({what} for each {k} {v} …)`"))
    }

    fn total_needs_value(
        &self,
        op: TotalOp,
        kind: &ast::Ident,
        var: &ast::Ident,
        span: ast::Span,
    ) -> Diagnostic {
        let (k, v, w) = (&kind.name, &var.name, op.word());
        let example = match op {
            TotalOp::All => format!("`all({v}.ready for each {k} {v} where …)`"),
            _ => format!("`{w}({v}.strength for each {k} {v} where …)`"),
        };
        let why = match op {
            TotalOp::All => "`all` needs a yes/no to ask of each one",
            _ => "a number total needs the number to read from each one",
        };
        Diagnostic::error(
            "resolve::total_needs_value",
            format!("`{w}(each {k} {v} …)` does not say what to total"),
            span,
            why,
        )
        .with_help(format!("write what to read before `for each`, e.g. {example}"))
    }
}
