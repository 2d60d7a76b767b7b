//! Totals over a kind: `max(u.leadership for each unit u where u.able else 0)` and the rest.

use super::{R, Runner};
use crate::ast::TotalOp;
use crate::diagnostics::Diagnostic;
use crate::program::*;

impl Runner<'_> {
    /// The total `t`, reading the entities of its kind in the order they came into play. `any`
    /// and `all` stop at the first entity that settles them, so a value of a later one is never
    /// worked out (nor its dice rolled).
    pub(super) fn total(&mut self, t: &Total, f: &mut Vec<Value>) -> R<Value> {
        let mut best: Option<i64> = None;
        let mut sum: i64 = 0;
        let mut count: i64 = 0;
        for id in 0..self.st.entities.slots() {
            // A removed entity's tombstone is of no kind a scan asks for.
            if self.st.entities[id].kind != t.kind {
                continue;
            }
            self.tick(1)?;
            super::set(&mut f[t.slot as usize], Value::Entity(id as u32));
            if let Some(c) = &t.filter
                && !self.holds(c, f)?
            {
                continue;
            }
            match t.op {
                TotalOp::Max | TotalOp::Min | TotalOp::Sum => {
                    let Some(v) = &t.value else { continue };
                    let v = self.int(v, f)?;
                    match t.op {
                        TotalOp::Sum => sum = sum.checked_add(v).ok_or_else(|| self.overflow())?,
                        TotalOp::Max => best = Some(best.map_or(v, |b| b.max(v))),
                        _ => best = Some(best.map_or(v, |b| b.min(v))),
                    }
                }
                TotalOp::Count | TotalOp::Any | TotalOp::All => {
                    let yes = match &t.value {
                        Some(v) => self.truth(v, f)?,
                        None => true,
                    };
                    match t.op {
                        TotalOp::Any if yes => return Ok(Value::Bool(true)),
                        TotalOp::All if !yes => return Ok(Value::Bool(false)),
                        _ => count += i64::from(yes),
                    }
                }
            }
        }
        Ok(match t.op {
            TotalOp::Sum => Value::Int(sum),
            TotalOp::Count => Value::Int(count),
            TotalOp::Any => Value::Bool(false),
            TotalOp::All => Value::Bool(true),
            TotalOp::Max | TotalOp::Min => match (best, &t.empty) {
                (Some(b), _) => Value::Int(b),
                (None, Some(e)) => Value::Int(self.int(e, f)?),
                (None, None) => return Err(Box::new(self.total_of_none(t))),
            },
        })
    }

    /// The error for `max` or `min` of no entity when the rules did not say what that gives.
    fn total_of_none(&self, t: &Total) -> Diagnostic {
        let kind = &self.p.kinds[t.kind as usize].name;
        let (w, most) = match t.op {
            TotalOp::Min => ("min", "lowest"),
            _ => ("max", "highest"),
        };
        let which = if t.filter.is_some() { "passed its `where`" } else { "is in play" };
        Diagnostic::error(
            "run::total_of_none",
            format!("`{w}` of no {kind}: no {kind} {which}, so there is no {most} value"),
            t.span,
            format!("no {kind} to take the {most} of"),
        )
        .with_help(format!(
            "say what it gives when there is none, with `else` before the closing bracket: `{w}(… else 0)`"
        ))
    }
}
