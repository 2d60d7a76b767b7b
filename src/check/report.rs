//! `report game, a.morale`: what the odds of a scenario show for each way it ends. Checked once
//! everything else in the scenario is, with every name it made by then, and put last: it is read at
//! the scenario's end, and must be worked out from the game state alone (no dice, no scripts), so that
//! the odds stay exact.

use super::Checker;
use crate::ast::{self, Span};
use crate::diagnostics::Diagnostic;
use crate::program::{Expr, Stmt, Ty};
use std::sync::Arc;

impl Checker<'_> {
    /// The scenario's body with its `report` line (at most one, at its top level) checked after the
    /// other statements and put last.
    pub(super) fn scenario_body(&mut self, body: &[ast::Stmt]) -> Vec<Stmt> {
        self.scope.push();
        let mut out = vec![];
        let mut reports: Vec<(&[ast::Expr], Span)> = vec![];
        for s in body {
            match &s.kind {
                ast::StmtKind::Report(items) => reports.push((items, s.span)),
                _ => out.extend(self.stmt(s)),
            }
        }
        if let Some(&(_, first)) = reports.first() {
            for &(_, again) in &reports[1..] {
                self.error(
                    Diagnostic::error(
                        "resolve::report_twice",
                        "a scenario has one `report` line, and this is a second",
                        again,
                        "second `report` line",
                    )
                    .with_label(first, "the first one")
                    .with_help(
                        "put every value to report on one line, separated by commas: \
                         `report game, winner, a.morale`",
                    ),
                );
            }
        }
        if let Some(&(items, span)) = reports.first()
            && let Some(st) = self.report(items, span)
        {
            out.push(st);
        }
        self.scope.pop();
        out
    }

    /// A `report` line's values, checked in the scope at the scenario's end.
    fn report(&mut self, items: &[ast::Expr], span: Span) -> Option<Stmt> {
        let mut out = vec![];
        for e in items {
            let t = self.expr(e, None);
            let shown = matches!(
                t.ty,
                Ty::Int { .. } | Ty::Flag | Ty::Name(_) | Ty::Entity(_) | Ty::Text | Ty::None | Ty::Error
            );
            if !shown {
                let words = self.ty_words(&t.ty);
                self.error(
                    Diagnostic::error(
                        "resolve::report_value",
                        format!("a reported value must be a number, yes/no, a name or an entity, but this is {words}"),
                        e.span,
                        format!("this is {words}"),
                    )
                    .with_help(
                        "report what a game state holds, e.g. `report a.morale, game`; for a check's result, \
                         report its outcome or total (`last morale.outcome`)",
                    ),
                );
                continue;
            }
            if let Some(why) = self.not_exact(&t.e) {
                self.error(
                    Diagnostic::error(
                        "resolve::report_not_exact",
                        format!(
                            "a reported value is read from the game at the scenario's end, but this {why}"
                        ),
                        e.span,
                        format!("this {why}"),
                    )
                    .with_help(
                        "report only what the game's state holds (attributes, `turn`, `game`, `winner`, \
                         formulas of them), so that the odds stay exact; roll dice in the scenario's steps \
                         and `record` what they gave",
                    ),
                );
                continue;
            }
            let label: Arc<str> = self.src(e.span).split_whitespace().collect::<Vec<_>>().join(" ").into();
            out.push((label, t.e));
        }
        (out.len() == items.len()).then_some(Stmt::Report { items: out, span })
    }

    /// Why `e` cannot be read from the game state alone (it rolls dice, or calls a script), if it
    /// cannot; formulas are looked into.
    fn not_exact(&self, e: &Expr) -> Option<&'static str> {
        let mut seen = vec![false; self.prog.defines.len()];
        not_exact(e, &self.prog.defines, &mut seen)
    }

    /// A `report` line anywhere but at a scenario's top level.
    pub(super) fn report_misplaced(&mut self, span: Span) {
        let scenario = self.ctx == super::Ctx::Scenario;
        self.error(
            Diagnostic::error(
                "resolve::report_place",
                if scenario {
                    "a `report` line belongs at the top level of a scenario, not inside a block"
                } else {
                    "`report` can only be used in a scenario"
                },
                span,
                if scenario { "inside a block" } else { "not allowed in a rule" },
            )
            .with_help(
                "`report` says what the odds of a scenario show for each way it ends, read once it has \
                 ended: write it as a line of the scenario itself, e.g. `report game, a.morale`",
            ),
        );
    }
}

fn not_exact(e: &Expr, defines: &[crate::program::Define], seen: &mut Vec<bool>) -> Option<&'static str> {
    let all = |xs: &[Expr], seen: &mut Vec<bool>| xs.iter().find_map(|x| not_exact(x, defines, seen));
    match e {
        Expr::Dice(_) => Some("rolls dice"),
        Expr::Script(_) => Some("calls a script"),
        Expr::Const(_) | Expr::Local(_) | Expr::Global(_) | Expr::Last(_) | Expr::NumberOf { .. } => None,
        Expr::Field(x, _) | Expr::Neg(x) | Expr::Not(x) | Expr::Outcome(x) | Expr::ResultSlot(x, _) => {
            not_exact(x, defines, seen)
        }
        Expr::DataField(x, _) => not_exact(x, defines, seen),
        Expr::Bin(_, a, b) => not_exact(a, defines, seen).or_else(|| not_exact(b, defines, seen)),
        Expr::If(c, a, b) => not_exact(c, defines, seen)
            .or_else(|| not_exact(a, defines, seen))
            .or_else(|| not_exact(b, defines, seen)),
        Expr::Builtin(_, xs) | Expr::Table(_, xs) => all(xs, seen),
        Expr::Define(i, xs) => {
            let i = *i as usize;
            if let Some(d) = defines.get(i)
                && !std::mem::replace(&mut seen[i], true)
                && let Some(why) = not_exact(&d.body, defines, seen)
            {
                return Some(why);
            }
            all(xs, seen)
        }
        Expr::Total(t) => t
            .value
            .as_ref()
            .and_then(|v| not_exact(v, defines, seen))
            .or_else(|| t.empty.as_ref().and_then(|v| not_exact(v, defines, seen))),
        Expr::Pick(p) => not_exact(&p.list, defines, seen),
    }
}
