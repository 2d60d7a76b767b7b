//! Running the ruleset's reactions (`follow join(f)`), their orders, and reading the host's data:
//! a field of a record, and the entry `nearest` or `first` chooses from a list.

use super::ANY_RUN;
use super::{R, Runner, fail, set};
use crate::ast::Span;
use crate::program::*;
use crate::session::LogEntry;
use serde_json::Value as J;
use std::sync::Arc;

impl Runner<'_> {
    /// `follow NAME(…)` of a reaction of the ruleset: its steps, in a frame of its own.
    pub(super) fn react(
        &mut self,
        reaction: u32,
        args: &[Calc],
        fresh: bool,
        span: Span,
        f: &mut Vec<Value>,
    ) -> R<()> {
        let r = &self.p.reactions[reaction as usize];
        let mut frame = self.frame(r.slots.max(args.len() as u32) as usize);
        for (i, a) in args.iter().enumerate() {
            let v = self.calc::<ANY_RUN>(a, f)?;
            set(&mut frame[i], v);
        }
        if fresh {
            if self.mode.log {
                self.push::<ANY_RUN>(LogEntry::Reaction { name: r.name.clone(), span });
            }
            self.st.orders.clear();
        }
        self.deeper()?;
        let done = self.exec_body::<ANY_RUN>(&r.body, &mut frame);
        self.depth -= 1;
        self.recycle(frame);
        done
    }

    /// `order "…"`: the text with its values in words, for the table and the log.
    pub(super) fn give_order(&mut self, parts: &[OrderPart], span: Span, f: &mut Vec<Value>) -> R<()> {
        let mut text = String::new();
        for p in parts {
            match p {
                OrderPart::Text(t) => text.push_str(t),
                OrderPart::Value(e) => match self.eval(e, f)? {
                    Value::Data(d) if d.is_string() => text.push_str(d.as_str().unwrap_or_default()),
                    v => text.push_str(&self.show(&v)),
                },
            }
        }
        if self.mode.log {
            self.push::<ANY_RUN>(LogEntry::Order { text: text.clone(), span, from: None });
        }
        self.st.orders.push(crate::script::Order { who: None, verb: "order".into(), target: None, text });
        Ok(())
    }

    /// `base.name` of a record of data. The shape filled in every field it declares, so a field
    /// is missing only where it holds `none`.
    pub(super) fn data_field(&mut self, base: &Expr, name: &str, f: &mut Vec<Value>) -> R<Value> {
        match self.eval(base, f)? {
            Value::Data(d) => Ok(d.get(name).map_or(Value::None, from_json)),
            _ => Err(Box::new(fail(
                "no_entry",
                format!("`.{name}` was read from `none`: there is no entry to read it from"),
                self.span,
                "`nearest` and `first` give `none` when no entry passes, and an optional field left out is \
                 `none`: test it first, e.g. `if friend is not none { … }`",
            ))),
        }
    }

    /// `nearest x in LIST where …` (the least of its `by` field, the first listed on a tie) and
    /// `first x in LIST where …` (the first listed): the entry, or `none`.
    pub(super) fn pick(&mut self, p: &Pick, f: &mut Vec<Value>) -> R<Value> {
        let list = match self.eval(&p.list, f)? {
            Value::Data(d) => d,
            _ => return Ok(Value::None),
        };
        let Some(entries) = list.as_array() else { return Ok(Value::None) };
        let mut best: Option<(i64, usize)> = None;
        for (i, entry) in entries.iter().enumerate() {
            self.tick(1)?;
            if let Some(t) = &p.filter {
                set(&mut f[p.slot as usize], Value::Data(Arc::new(entry.clone())));
                if !self.holds(t, f)? {
                    continue;
                }
            }
            let Some(by) = &p.by else {
                best = Some((0, i));
                break;
            };
            let key = entry.get(&**by).and_then(J::as_i64).unwrap_or(i64::MAX);
            if best.is_none_or(|(k, _)| key < k) {
                best = Some((key, i));
            }
        }
        Ok(best.map_or(Value::None, |(_, i)| Value::Data(Arc::new(entries[i].clone()))))
    }
}

/// A value of data as the rules read it: numbers, yes/no and `none` as themselves, the rest as data.
fn from_json(j: &J) -> Value {
    match j {
        J::Null => Value::None,
        J::Bool(b) => Value::Bool(*b),
        J::Number(n) => n.as_i64().map_or(Value::None, Value::Int),
        J::String(_) | J::Array(_) | J::Object(_) => Value::Data(Arc::new(j.clone())),
    }
}
