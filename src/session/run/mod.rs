//! Running compiled rules: evaluating expressions, applying statements, firing triggers, rolling checks.

mod check;
pub(super) use check::Setup;
mod eval;
mod exec;
mod script;

use super::{LogEntry, LogLine, State};
use crate::ast::Span;
use crate::diagnostics::Diagnostic;
use crate::program::*;

/// Deepest chain of events firing events, and of formulas calling formulas.
const MAX_DEPTH: u32 = 64;
/// Most times a `repeat` runs.
const MAX_REPEAT: usize = 1000;

type R<T> = Result<T, Diagnostic>;

fn fail(code: &str, message: impl Into<String>, span: Span, help: &str) -> Diagnostic {
    Diagnostic::error(&format!("run::{code}"), message, span, "while applying this rule").with_help(help)
}

/// A value as people read it.
pub(super) fn show_value(p: &Program, st: &State, v: &Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.into(),
        Value::Name { set, index } => p
            .sets
            .get(*set as usize)
            .and_then(|s| s.names.get(*index as usize))
            .cloned()
            .unwrap_or_else(|| "?".into()),
        Value::Entity(e) => {
            st.entities.get(*e as usize).map(|e| e.name.clone()).unwrap_or_else(|| "?".into())
        }
        Value::None => "none".into(),
        Value::Pool(pool) => {
            let faces: Vec<String> = pool
                .dice
                .iter()
                .map(|d| if d.kept { d.face.to_string() } else { format!("({})", d.face) })
                .collect();
            format!("[{}] = {}", faces.join(", "), pool.value)
        }
        Value::Result(r) => r.outcome.clone(),
        Value::Data(d) => show_data(d),
    }
}

/// Data as a ruleset writes it: `{friends: [{name: "orc", in_combat: no}], leader: none}`.
fn show_data(d: &serde_json::Value) -> String {
    use serde_json::Value as J;
    match d {
        J::Null => "none".into(),
        J::Bool(b) => if *b { "yes" } else { "no" }.into(),
        J::Number(n) => n.to_string(),
        J::String(s) => format!("{s:?}"),
        J::Array(items) => format!("[{}]", items.iter().map(show_data).collect::<Vec<_>>().join(", ")),
        J::Object(m) => {
            let entries: Vec<String> = m
                .iter()
                .map(|(k, v)| {
                    let plain = k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                    let key = if plain && !k.is_empty() { k.clone() } else { format!("{k:?}") };
                    format!("{key}: {}", show_data(v))
                })
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
    }
}

pub(super) struct Runner<'a> {
    p: &'a Program,
    st: &'a mut State,
    log: &'a mut Vec<LogLine>,
    logging: bool,
    depth: u32,
    /// Events being applied, for the log's nesting.
    nest: u32,
    /// The statement being applied, for errors.
    span: Span,
}

impl<'a> Runner<'a> {
    pub fn new(p: &'a Program, st: &'a mut State, log: &'a mut Vec<LogLine>, logging: bool) -> Self {
        Runner { p, st, log, logging, depth: 0, nest: 0, span: Span::default() }
    }

    pub fn program(&self) -> &'a Program {
        self.p
    }

    fn push(&mut self, entry: LogEntry) {
        self.log.push(LogLine { depth: self.nest, entry });
    }

    fn show(&self, v: &Value) -> String {
        show_value(self.p, self.st, v)
    }

    fn entity_id(&self, v: &Value, what: &str) -> R<u32> {
        match v {
            Value::Entity(e) if (*e as usize) < self.st.entities.len() => Ok(*e),
            _ => Err(fail(
                "no_entity",
                format!("{what} is none, so it has no attributes"),
                self.span,
                "make sure the host or scenario supplies this entity (for example the event's fact)",
            )),
        }
    }

    fn deeper(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(fail(
                "too_deep",
                format!("rules called each other more than {MAX_DEPTH} deep"),
                self.span,
                "an event probably fires itself, directly or through other rules; add a condition that stops it",
            ));
        }
        Ok(())
    }

    fn overflow(&self) -> Diagnostic {
        fail("overflow", "a number grew too large", self.span, "check the arithmetic of this rule")
    }

    fn int(&mut self, e: &Expr, f: &mut Vec<Value>) -> R<i64> {
        Ok(self.eval(e, f)?.int())
    }

    /// Statements typed at a prompt: run like scenario steps, each even after the game has ended.
    pub fn prompt(&mut self, stmts: &[Stmt], f: &mut Vec<Value>) -> R<()> {
        for s in stmts {
            self.exec_block(std::slice::from_ref(s), f)?;
        }
        Ok(())
    }
}
