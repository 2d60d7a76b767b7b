//! What a run does for the host: the answers a question takes, and taking an entity out of play.

use super::ANY_RUN;
use super::{R, Runner, fail};
use crate::ast::Span;
use crate::diagnostics::Diagnostic;
use crate::program::*;
use crate::session::LogEntry;
use crate::session::host::{Change, Question};

/// The answers a question takes, in words.
pub(in crate::session) fn shown_options(q: &Question) -> String {
    match q.range {
        Some((lo, hi)) => format!("a number {}", crate::check::range_words(Some(lo), hi)),
        None if q.shown.is_empty() => "(none)".into(),
        None => q.shown.join(", "),
    }
}

impl Runner<'_> {
    /// The error for an answer `v` that question `q` does not take.
    pub(super) fn bad_answer(&self, q: &Question, v: &Value) -> Diagnostic {
        fail(
            "bad_answer",
            format!("`{}` is not an option for choice `{}` here", self.show(v), q.choice),
            q.span,
            &format!(
                "answer {}",
                if q.range.is_some() { shown_options(q) } else { format!("one of: {}", shown_options(q)) }
            ),
        )
    }
}

impl Runner<'_> {
    /// Takes entity `id` out of play: its id stays with it, unused, and no other id moves.
    /// References to it become none, and its timed changes and the answers naming it are dropped.
    pub fn remove(&mut self, id: u32) -> R<()> {
        self.tick(1)?;
        // Results not made yet read the entity where it is.
        self.settle_all_last();
        let Some(gone) = self.st.entities.remove(id) else {
            return Err(Box::new(fail(
                "removed_entity",
                format!("entity #{id} is not in play"),
                Span::default(),
                "remove an entity in play, by its name",
            )));
        };
        let forget = |v: &mut Value| {
            if *v == Value::Entity(id) {
                *v = Value::None;
            }
        };
        fn result(r: &mut std::sync::Arc<CheckResult>, forget: &dyn Fn(&mut Value)) {
            if r.slots.iter().any(|v| matches!(v, Value::Entity(_) | Value::Result(_))) {
                let r = std::sync::Arc::make_mut(r);
                for v in &mut r.slots {
                    if let Value::Result(inner) = v {
                        result(inner, forget);
                    }
                    forget(v);
                }
            }
        }
        for (_, e) in self.st.entities.iter_mut() {
            for v in &mut e.fields {
                if let Value::Result(r) = v {
                    result(r, &forget);
                }
                forget(v);
            }
        }
        self.st.timed.retain(|t| t.entity != id);
        for t in &mut self.st.timed {
            forget(&mut t.restore);
        }
        let mut keep = vec![];
        for (i, (c, v)) in std::mem::take(&mut self.st.answers).into_iter().enumerate() {
            let by_host = self.st.host_answers.get(i).copied().unwrap_or(false);
            if v != Value::Entity(id) {
                keep.push(((c, v), by_host));
            }
        }
        (self.st.answers, self.st.host_answers) = keep.into_iter().unzip();
        for r in self.st.last.iter_mut().flatten() {
            result(r, &forget);
        }
        if let Some(over) = &mut self.st.over
            && over.winner_id == Some(id)
        {
            over.winner_id = None;
        }
        for v in &mut self.st.options {
            forget(v);
        }
        let kind = self.p.kinds[gone.kind as usize].name.clone();
        self.changed::<ANY_RUN>(|| Change::Removed { entity: id, name: gone.name.clone() });
        if self.mode.log {
            self.push::<ANY_RUN>(LogEntry::Removed { entity: gone.name, kind });
        }
        Ok(())
    }
}
