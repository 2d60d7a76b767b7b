//! The statements a scenario runs once or a rule seldom (`end game`, `repeat`, `new`, `dice`,
//! house rules, answers, reactions, orders, reports, records and expectations): the runner's main
//! function, [`Runner::exec`], keeps to the ones rules run over and over.

use super::{MAX_REPEAT, R, Runner, fail, put, set};
use crate::program::*;
use crate::session::{GameOver, LogEntry};

impl Runner<'_> {
    /// The statements [`Runner::exec`] leaves out of its own body.
    #[inline(never)]
    pub(super) fn exec_seldom<const SIM: bool>(&mut self, s: &Stmt, f: &mut Vec<Value>) -> R<()> {
        match s {
            Stmt::EndGame { result, winner, span } => {
                self.at(*span)?;
                let set = &self.p.sets[self.p.results as usize];
                let winner_id = match winner {
                    Some(w) => match self.eval(w, f)? {
                        Value::Entity(e) => Some(e),
                        _ => None,
                    },
                    None => None,
                };
                let winner = winner_id.and_then(|e| self.st.entities.get(e)).map(|e| e.name.clone());
                let name = set.names[*result as usize].clone();
                if self.kept::<SIM>().log {
                    let label = set.labels[*result as usize].clone().unwrap_or_else(|| name.clone());
                    self.push::<SIM>(LogEntry::GameOver {
                        result: name.clone(),
                        label,
                        winner: winner.clone(),
                        span: *span,
                    });
                }
                self.st.over = Some(GameOver { result: name, winner, index: *result, winner_id });
                Ok(())
            }
            Stmt::Repeat { body, until, span } => {
                self.at(*span)?;
                let entered = self.st.walk.as_ref().map_or(0, |w| w.used);
                let mark = self.outer_mark::<SIM>();
                for turn in 0..MAX_REPEAT {
                    if turn > 0 {
                        self.loop_turn::<SIM>(*span, turn, entered, f)?;
                    }
                    self.span = *span;
                    self.tick(1)?;
                    self.enter_at(mark, crate::dice::Outer::Turn(turn));
                    let r = self.exec_block::<SIM>(body, f);
                    self.leave(mark);
                    r?;
                    self.span = *span;
                    if self.holds(until, f)? || self.st.over.is_some() {
                        return Ok(());
                    }
                }
                Err(Box::new(fail(
                    "endless_repeat",
                    format!("`repeat` ran {MAX_REPEAT} times without its condition coming true"),
                    *span,
                    "make sure the condition after `until` can become true",
                )))
            }
            Stmt::New { kind, slot, name, with, span } => {
                self.at(*span)?;
                // Every value is worked out, then each checked against its range, in order.
                let mut e = self.blank(*kind);
                for (i, x, _) in with {
                    if let Some(v) = self.peek(x, f) {
                        put(&mut e.fields[*i as usize], v);
                        continue;
                    }
                    match self.eval(x, f) {
                        Ok(v) => set(&mut e.fields[*i as usize], v),
                        Err(err) => {
                            self.kit.entities.push(e);
                            return Err(err);
                        }
                    }
                }
                for (i, _, _) in with {
                    if let Err(err) = self.fits(*kind, *i, &e.fields[*i as usize], name, *span) {
                        self.kit.entities.push(e);
                        return Err(err);
                    }
                }
                let id = self.add::<SIM>(e, name, *span);
                f[*slot as usize] = Value::Entity(id);
                Ok(())
            }
            Stmt::Dice(faces, span) => {
                self.at(*span)?;
                self.st.forced.extend(faces.iter().copied());
                Ok(())
            }
            Stmt::SetOption { option, value, span } => {
                self.at(*span)?;
                let v = self.eval(value, f)?;
                let decl = &self.p.options[*option as usize];
                let shown = self.show(&v);
                if let Some(slot) = self.st.options.get_mut(*option as usize) {
                    *slot = v;
                }
                self.push::<SIM>(LogEntry::Note {
                    text: format!("house rule: option {} = {shown}", decl.name),
                    because: vec![],
                    span: *span,
                });
                Ok(())
            }
            Stmt::Answer { choice, value, span } => {
                self.at(*span)?;
                let v = self.eval(value, f)?;
                self.st.answers.push((*choice, v));
                Ok(())
            }
            Stmt::Follow { func, args, span } => {
                self.at(*span)?;
                // A script's actions are not described (see `Runner::context`).
                let mark = self.outer_mark::<SIM>();
                self.enter_at(mark, crate::dice::Outer::Opaque);
                let r = self.follow(*func, args, *span, f);
                self.leave(mark);
                r
            }
            Stmt::React { reaction, args, fresh, span } => {
                self.at(*span)?;
                let mark = self.enter_call::<SIM>(*span, f);
                let r = self.react(*reaction, args, *fresh, *span, f);
                self.leave(mark);
                r
            }
            Stmt::Order { parts, span } => {
                self.at(*span)?;
                self.give_order(parts, *span, f)
            }
            Stmt::Report { items, span } => {
                self.at(*span)?;
                let mut values = Vec::with_capacity(items.len());
                for (label, e) in items {
                    let v = self.eval(e, f)?;
                    values.push((label.clone(), self.show(&v)));
                }
                // Logged even with the log off, like a record: the odds of a scenario read it.
                match self.game.as_mut() {
                    Some(g) => g.reported = Some(values),
                    None => self.push::<SIM>(LogEntry::Report {
                        values: values.into_iter().map(|(l, v)| (l.to_string(), v)).collect(),
                        span: *span,
                    }),
                }
                Ok(())
            }
            Stmt::Record { label, value, span } => {
                self.at(*span)?;
                // Logged even with the log off: a simulation reads the values recorded in each run.
                if self.kept::<SIM>().game {
                    let value = self.calc_int(value, f)?;
                    self.game_record::<SIM>(label, value);
                    return Ok(());
                }
                let v = self.eval(value, f)?;
                let value = v.int();
                let shown = self.show(&v);
                self.push::<SIM>(LogEntry::Record { label: label.to_string(), value, shown, span: *span });
                Ok(())
            }
            Stmt::ExpectOrder { text, absent, message, span } => {
                self.at(*span)?;
                let given = self.st.orders.iter().any(|o| o.text == *text);
                let passed = given != *absent;
                let found = (!passed).then(|| {
                    if self.st.orders.is_empty() {
                        "the last reaction gave no orders".to_string()
                    } else {
                        let given: Vec<String> =
                            self.st.orders.iter().map(|o| format!("\"{}\"", o.text)).collect();
                        format!("the last reaction ordered {}", given.join(", "))
                    }
                });
                let not = if *absent { "not " } else { "" };
                self.push::<SIM>(LogEntry::Expect {
                    passed,
                    text: format!("{not}order \"{text}\""),
                    found,
                    message: message.clone(),
                    span: *span,
                });
                Ok(())
            }
            Stmt::ExpectNoDice { message, span } => {
                self.at(*span)?;
                let passed = self.st.forced.is_empty();
                let found = (!passed).then(|| {
                    let faces: Vec<String> = self.st.forced.iter().map(i64::to_string).collect();
                    let n = faces.len();
                    format!(
                        "{n} forced {} never rolled: {}",
                        if n == 1 { "die was" } else { "dice were" },
                        faces.join(", ")
                    )
                });
                self.push::<SIM>(LogEntry::Expect {
                    passed,
                    text: "no dice waiting".into(),
                    found,
                    message: message.clone(),
                    span: *span,
                });
                Ok(())
            }
            Stmt::Expect { cond, message, text, span } => {
                self.at(*span)?;
                let passed = self.holds(cond, f)?;
                if self.kept::<SIM>().game {
                    self.game_expect::<SIM>(passed);
                    return Ok(());
                }
                let found = if passed { None } else { self.explain_failure(&cond.expr, f) };
                self.push::<SIM>(LogEntry::Expect {
                    passed,
                    text: text.clone(),
                    found,
                    message: message.clone(),
                    span: *span,
                });
                Ok(())
            }
            Stmt::Set { .. }
            | Stmt::Add { .. }
            | Stmt::Let(..)
            | Stmt::LetFlag(..)
            | Stmt::Roll { .. }
            | Stmt::If(..)
            | Stmt::ForEach { .. }
            | Stmt::Trigger { .. }
            | Stmt::Choose { .. }
            | Stmt::Note(..) => self.exec::<SIM>(s, f),
        }
    }
}
