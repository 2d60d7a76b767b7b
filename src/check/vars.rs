//! Checking a rule's variables: `var n = 0`, changed with `set n to …`, `add … to n` and
//! `remove … from n`; and a name given twice in one rule.

use super::Checker;
use crate::ast::{self, BinOp, ExprKind, Span};
use crate::diagnostics::Diagnostic;
use crate::program::*;

impl<'a> Checker<'a> {
    /// `var NAME = VALUE`: a local the rule may change. A number may later take any number (its
    /// first value does not bound it); dice are kept as their value.
    pub(super) fn var_stmt(&mut self, name: &ast::Ident, e: &ast::Expr) -> Option<Stmt> {
        let t = self.expr(e, None);
        let ty = match t.ty {
            Ty::Int { .. } | Ty::Pool => Ty::INT,
            Ty::Text => return None,
            ty => ty,
        };
        self.declared_twice(name, true);
        let slot = self.scope.bind(&name.name, ty, name.span, true);
        self.scope.declared.insert(slot, true);
        Some(Stmt::Let(slot, self.calc(t.e)))
    }

    /// An error when `name` is already a `let` or `var` of this rule that is still in scope: a
    /// second `let` of a name used to hide the first without a word.
    pub(super) fn declared_twice(&mut self, name: &ast::Ident, var: bool) {
        let Some(v) = self.scope.find(&name.name) else { return };
        let Some(&was_var) = self.scope.declared.get(&v.slot) else { return };
        let first = v.span;
        let n = &name.name;
        let (word, was) = (if var { "var" } else { "let" }, if was_var { "var" } else { "let" });
        let help = if was_var {
            format!("`{n}` can already change: write `set {n} to …` instead of declaring it again")
        } else {
            format!(
                "a `let` value never changes: to change it, declare it once with `var {n} = …` and then \
                 write `set {n} to …` (or `add … to {n}`); or give this value another name"
            )
        };
        self.error(
            Diagnostic::error(
                "resolve::declared_twice",
                format!("`{n}` is already declared by `{was}` in this rule"),
                name.span,
                format!("`{word}` declares it again here"),
            )
            .with_label(first, "first declared here")
            .with_help(help),
        );
    }

    /// The slot of the `var` that `e` names, for `set`, `add` or `remove`; `None` when `e` is not
    /// the name of a local (an attribute, say). A `let` named here is an error that says to use
    /// `var`, reported here (the caller then gives up on the statement).
    pub(super) fn var_named(&mut self, e: &ast::Expr, verb: &str) -> Option<u32> {
        let ExprKind::Name(id) = &e.kind else { return None };
        let v = self.scope.find(&id.name)?;
        let (slot, first) = (v.slot, v.span);
        match self.scope.declared.get(&slot) {
            Some(true) => Some(slot),
            Some(false) => {
                let n = &id.name;
                self.error(
                    Diagnostic::error(
                        "resolve::let_is_fixed",
                        format!("`{n}` is a `let` value, which cannot change"),
                        e.span,
                        format!("`{verb}` would change it"),
                    )
                    .with_label(first, "declared with `let` here")
                    .with_help(format!("to change it, declare it with `var {n} = …` instead of `let`")),
                );
                // Already reported: one mistake, one message.
                Some(u32::MAX)
            }
            // A value given at an earlier prompt line: the prompt changes it with `let` again.
            None if slot < self.prompt_names
                && !matches!(self.scope.in_slot(slot).map(|v| &v.ty), Some(Ty::Entity(_))) =>
            {
                let n = &id.name;
                self.error(
                    Diagnostic::error(
                        "repl::earlier_name",
                        format!("`{n}` was given on an earlier line, and `{verb}` cannot change it here"),
                        e.span,
                        format!("`{verb}` would change it"),
                    )
                    .with_help(format!(
                        "at the prompt, give it a new value with `let {n} = …` (for example `let {n} = {n} + 1`)"
                    )),
                );
                Some(u32::MAX)
            }
            None => None,
        }
    }

    /// `set NAME to VALUE` for a `var`.
    pub(super) fn set_var(
        &mut self,
        slot: u32,
        at: &ast::Expr,
        value: &ast::Expr,
        until: Option<Span>,
    ) -> Option<Stmt> {
        if slot == u32::MAX {
            return None;
        }
        let ExprKind::Name(id) = &at.kind else { return None };
        let ty = self.scope.in_slot(slot)?.ty.clone();
        let value = self.value_for(value, &ty, &format!("the new value of `{}`", id.name), &id.name);
        if let Some(span) = until {
            self.error(
                Diagnostic::error(
                    "resolve::var_duration",
                    format!("`{}` is a `var` of this rule: it has no time to last", id.name),
                    span,
                    "only attributes are set for a while",
                )
                .with_help(
                    "a `var` keeps its value until the rule changes it or ends: remove the duration, or \
                     set an attribute of an entity for a while instead",
                ),
            );
            return None;
        }
        Some(Stmt::Let(slot, self.calc(value)))
    }

    /// `add AMOUNT to NAME` and `remove AMOUNT from NAME` for a `var`.
    pub(super) fn add_to_var(
        &mut self,
        slot: u32,
        at: &ast::Expr,
        amount: Expr,
        negate: bool,
    ) -> Option<Stmt> {
        if slot == u32::MAX {
            return None;
        }
        let ExprKind::Name(id) = &at.kind else { return None };
        let ty = self.scope.in_slot(slot)?.ty.clone();
        if !matches!(ty, Ty::Int { .. }) {
            let words = self.ty_words(&ty);
            let verb = if negate { "remove" } else { "add" };
            self.error(
                Diagnostic::error(
                    "resolve::type_mismatch",
                    format!("`{verb}` needs a number, but `{}` is {words}", id.name),
                    at.span,
                    format!("this is {words}"),
                )
                .with_help(format!("use `set {} to …` for values that are not numbers", id.name)),
            );
            return None;
        }
        let op = if negate { BinOp::Sub } else { BinOp::Add };
        Some(Stmt::Let(slot, self.calc(Expr::Bin(op, Box::new(Expr::Local(slot)), Box::new(amount)))))
    }
}
