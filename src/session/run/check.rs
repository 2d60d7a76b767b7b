//! Rolling a check: inputs, modifiers, the roll, the outcome it lands on and that outcome's rules.

use super::{R, Runner, fail};
use crate::ast::Span;
use crate::diagnostics::Diagnostic;
use crate::program::*;
use crate::session::LogEntry;
use std::sync::Arc;

impl Runner<'_> {
    // ---------------------------------------------------------------- checks

    /// Rolls check `c`, made by `subject`. A check made by someone but rolled for nobody fails with
    /// a message saying so as soon as its rules read the missing subject.
    pub fn roll_check(
        &mut self,
        c: CheckId,
        subject: Option<u32>,
        args: Vec<(u32, Value)>,
        span: Span,
    ) -> R<Arc<CheckResult>> {
        let r = self.roll_check_inner(c, subject, args, span);
        let check = &self.p.checks[c as usize];
        match (r, check.subject) {
            (Err(d), Some(k)) if subject.is_none() && d.code == "mettle::run::no_entity" => {
                let kind = &self.p.kinds[k as usize].name;
                Err(Diagnostic::error(
                    "run::no_subject",
                    format!("check `{}` is made by a {kind}, and this roll has none", check.name),
                    d.span(),
                    format!("this reads the {kind}'s attributes"),
                )
                .with_help(format!(
                    "roll it for a {kind}: `roll {} for …` in a rule or scenario, `Session::roll_for` from Rust, or `--with` on the command line",
                    check.name
                )))
            }
            (r, _) => r,
        }
    }

    fn roll_check_inner(
        &mut self,
        c: CheckId,
        subject: Option<u32>,
        args: Vec<(u32, Value)>,
        span: Span,
    ) -> R<Arc<CheckResult>> {
        let check = &self.p.checks[c as usize];
        let mut f = vec![Value::None; check.nslots as usize];
        f[check.slots.subject as usize] = subject.map(Value::Entity).unwrap_or(Value::None);
        let mut given = vec![false; check.inputs.len()];
        for (i, v) in args {
            let input = &check.inputs[i as usize].field;
            if let (Ty::Int { lo, hi }, Value::Int(x)) = (&input.ty, &v)
                && (lo.is_some_and(|l| *x < l) || hi.is_some_and(|h| *x > h))
            {
                return Err(fail(
                    "out_of_range",
                    format!("input `{}` of check `{}` is {x}, outside its range", input.name, check.name),
                    if span.is_empty() { input.span } else { span },
                    &format!("give a value {}", crate::check::range_words(*lo, *hi)),
                )
                .with_label(input.span, "declared here"));
            }
            f[i as usize] = v;
            given[i as usize] = true;
        }
        for (i, input) in check.inputs.iter().enumerate() {
            if given[i] {
                continue;
            }
            if let Some(v) = &input.field.default {
                f[i] = v.clone();
            } else if let Some(e) = &input.default {
                self.span = input.field.span;
                f[i] = self.eval(e, &mut f)?;
            } else {
                return Err(fail(
                    "missing_input",
                    format!("check `{}` needs input `{}`", check.name, input.field.name),
                    if span.is_empty() { input.field.span } else { span },
                    &format!(
                        "give `{}` a value (`--set {}=…` on the command line)",
                        input.field.name, input.field.name
                    ),
                ));
            }
        }
        let mut applied = vec![];
        let mut pool = None;
        let mut total = 0;
        let mut target = None;
        for step in &check.steps {
            match step {
                CheckStep::Let(slot, e) => {
                    let v = self.eval(e, &mut f)?;
                    f[*slot as usize] = v;
                }
                CheckStep::Roll => {
                    let mut flat = 0i64;
                    let mut extra = 0i64;
                    let mut labels = vec![];
                    for m in &check.modifiers {
                        self.span = m.span;
                        if let Some(w) = &m.when
                            && !self.eval(w, &mut f)?.truth()
                        {
                            continue;
                        }
                        let mut amount = self.int(&m.amount, &mut f)?;
                        if let Some(cap) = &m.cap {
                            let cap = self.int(cap, &mut f)?.abs();
                            amount = amount.clamp(-cap, cap);
                        }
                        if amount == 0 {
                            continue;
                        }
                        if m.dice {
                            extra += amount;
                            if amount > 0 {
                                labels.push((m.label.clone(), amount));
                            }
                        } else {
                            flat = flat.checked_add(amount).ok_or_else(|| self.overflow())?;
                        }
                        applied.push(AppliedModifier {
                            label: m.label.clone(),
                            amount,
                            dice: m.dice,
                            span: m.span,
                        });
                    }
                    if let Some(r) = &check.roll {
                        self.span = r.span;
                        let p = self.roll_dice(&r.dice, extra, &labels, &mut f)?;
                        f[check.slots.natural as usize] =
                            Value::Int(p.dice.first().map(|d| d.face).unwrap_or(0));
                        total = p.value;
                        let p = Arc::new(p);
                        f[check.slots.dice as usize] = Value::Pool(p.clone());
                        pool = Some(p);
                    } else {
                        f[check.slots.natural as usize] = Value::Int(0);
                        f[check.slots.dice as usize] = Value::Int(0);
                    }
                    total = total.checked_add(flat).ok_or_else(|| self.overflow())?;
                    f[check.slots.total as usize] = Value::Int(total);
                    if let Some(t) = &check.target {
                        let t = self.int(t, &mut f)?;
                        target = Some(t);
                        f[check.slots.target as usize] = Value::Int(t);
                        f[check.slots.margin as usize] = Value::Int(total - t);
                    } else {
                        f[check.slots.target as usize] = Value::Int(0);
                        f[check.slots.margin as usize] = Value::Int(total);
                    }
                }
            }
        }
        let mut chosen = None;
        for (i, o) in check.outcomes.iter().enumerate() {
            self.span = o.span;
            let hit = match &o.when {
                Some(w) => self.eval(w, &mut f)?.truth(),
                None => true,
            };
            if hit {
                chosen = Some(i);
                break;
            }
        }
        let Some(oi) = chosen else {
            return Err(fail(
                "no_outcome",
                format!("no outcome of check `{}` matched this roll", check.name),
                check.span,
                "end the outcomes with `otherwise NAME`",
            ));
        };
        let outcome = &check.outcomes[oi];
        let set = &self.p.sets[check.outcome_set as usize];
        let result = CheckResult {
            check: check.name.clone(),
            check_id: c,
            subject: subject.map(|s| self.st.entities[s as usize].name.clone()),
            inputs: if self.logging {
                check
                    .inputs
                    .iter()
                    .enumerate()
                    .map(|(i, inp)| (inp.field.name.clone(), self.show(&f[i])))
                    .collect()
            } else {
                vec![]
            },
            pool: pool.map(|p| (*p).clone()),
            modifiers: applied,
            total,
            target,
            margin: target.map(|t| total - t),
            values: if self.logging {
                check.lets.iter().map(|(n, s)| (n.clone(), self.show(&f[*s as usize]))).collect()
            } else {
                vec![]
            },
            outcome: set.names[outcome.index as usize].clone(),
            outcome_index: outcome.index,
            outcome_span: outcome.span,
            span: check.span,
            slots: f.clone(),
        };
        let result = Arc::new(result);
        self.st.last[c as usize] = Some(result.clone());
        if self.logging {
            self.push(LogEntry::Check(Box::new((*result).clone())));
        }
        if subject.is_some() {
            self.exec_block(&outcome.body, &mut f)?;
        }
        Ok(result)
    }
}
