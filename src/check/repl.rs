//! Checking what is typed at a REPL prompt against a ruleset, with names that last from line to line.

use super::{Checker, Ctx};
use crate::ast;
use crate::diagnostics::Diagnostic;
use crate::program::{Expr, Stmt, Ty};

/// A name known at the prompt from earlier lines: an entity in play or a `let` value.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptName {
    /// The name.
    pub name: String,
    /// Its type (an entity's is `Ty::Entity` of its kind).
    pub ty: Ty,
}

/// What was typed: statements or one expression.
#[derive(Debug, Clone, Copy)]
pub enum PromptInput<'a> {
    /// Statements, run like the steps of a scenario.
    Stmts(&'a [ast::Stmt]),
    /// An expression to evaluate and show.
    Expr(&'a ast::Expr),
}

/// Checked and compiled prompt input. Slots `0..names.len()` hold the earlier names, in order.
#[derive(Debug, Clone)]
pub enum PromptCode {
    /// Statements to run.
    Stmts {
        /// The statements.
        stmts: Vec<Stmt>,
        /// Slots the frame needs.
        slots: u32,
        /// Names the statements bind at top level (`let`, `new`), with their types and slots: they
        /// are known to later lines.
        bound: Vec<(String, Ty, u32)>,
    },
    /// An expression to evaluate.
    Expr {
        /// The expression.
        expr: Expr,
        /// Its type.
        ty: Ty,
        /// Slots the frame needs.
        slots: u32,
    },
}

/// Checks prompt input against the ruleset parsed as `file` from `file_text` (which must check
/// cleanly), with `names` bound to slots `0..names.len()`. The input's spans point into `line_text`.
/// Returns the compiled code (when there are no errors) and every diagnostic, warnings included.
///
/// A `choose` typed at the prompt is refused: it would add a choice the session's program lacks.
pub fn check_prompt<'a>(
    file: &'a ast::File,
    file_text: &'a str,
    names: &[PromptName],
    input: PromptInput<'_>,
    line_text: &'a str,
    scripts: Option<std::sync::Arc<crate::script::Scripts>>,
) -> (Option<PromptCode>, Vec<Diagnostic>) {
    let mut c = Checker::new(file_text, file);
    c.use_scripts(scripts);
    c.run(file);
    // The ruleset was already checked: only what the prompt adds matters here.
    c.diags.clear();
    c.text = line_text;
    c.ctx = Ctx::Scenario;
    c.scope = super::Scope::default();
    for n in names {
        c.scope.bind(&n.name, n.ty.clone(), ast::Span::default(), false);
    }
    c.prompt_names = names.len() as u32;
    let (choices, sets) = (c.prog.choices.len(), c.prog.sets.len());
    let code = match input {
        PromptInput::Stmts(stmts) => {
            let before = c.scope.vars().len();
            let out: Vec<Stmt> = stmts.iter().filter_map(|s| c.stmt(s)).collect();
            if c.prog.choices.len() != choices || c.prog.sets.len() != sets {
                let at = stmts
                    .iter()
                    .find(|s| matches!(s.kind, ast::StmtKind::Choose(_)))
                    .map_or_else(|| stmts.first().map(|s| s.span).unwrap_or_default(), |s| s.span);
                c.error(
                    Diagnostic::error(
                        "repl::new_choice",
                        "a new choice cannot be asked at the prompt",
                        at,
                        "asks a choice the ruleset does not have",
                    )
                    .with_help("ask choices in rules; at the prompt, answer them with `answer NAME = VALUE`"),
                );
            }
            let bound =
                c.scope.vars()[before..].iter().map(|v| (v.name.clone(), v.ty.clone(), v.slot)).collect();
            PromptCode::Stmts { stmts: out, slots: c.scope.next, bound }
        }
        PromptInput::Expr(e) => {
            let t = c.expr(e, None);
            PromptCode::Expr { expr: t.e, ty: t.ty, slots: c.scope.next }
        }
    };
    let errors = c.diags.iter().any(|d| d.is_error());
    c.diags.sort_by_key(|d| (d.span().start, !d.is_error()));
    (if errors { None } else { Some(code) }, c.diags)
}
