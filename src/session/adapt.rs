//! Carrying a saved state over to a ruleset whose structure changed since: every stored value is
//! found again by name (kind, attribute, state, check, outcome, choice, option, result) and must fit
//! its new type, or the save is refused with every value that does not.

use super::State;
use super::structure::Structure;
use crate::program::{CheckResult, Program, Ty, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// A state carried over, and what was let go on the way (a last roll of a check whose values
/// changed, a timed change of a removed attribute), in words.
pub(super) struct Carried {
    pub state: State,
    pub notes: Vec<String>,
}

/// The old structure's positions and the new program's, matched by name.
struct Maps<'a> {
    old: &'a Structure,
    new: Structure,
    p: &'a Program,
    /// Old set → the new set with the same names (sets with the same names are one set).
    sets: Vec<Option<u32>>,
    /// Old check → new check of the same name.
    checks: Vec<Option<u32>>,
    /// Each entity's new kind (none when its kind was removed).
    kinds: Vec<Option<u32>>,
    /// The entities' names, for messages.
    names: Vec<String>,
}

/// `st`, saved over structure `old`, carried over to program `p`; or what does not fit.
pub(super) fn carry_over(old: &Structure, p: &Program, mut st: State) -> Result<Carried, Vec<String>> {
    let new = Structure::of(p);
    let set_ids: HashMap<&[String], u32> =
        new.sets.iter().enumerate().map(|(i, s)| (s.as_slice(), i as u32)).collect();
    let sets = old.sets.iter().map(|s| set_ids.get(s.as_slice()).copied()).collect();
    let check_ids = index(new.checks.iter().map(|c| &c.name));
    let checks = old.checks.iter().map(|c| check_ids.get(&c.name).copied()).collect();
    let kind_ids = index(new.kinds.iter().map(|k| &k.name));
    let mut problems = vec![];
    // By id: a removed entity's place has no kind and no name.
    let slots = st.entities.slots();
    let mut kinds = vec![None; slots];
    let mut names = vec![String::new(); slots];
    let mut old_kinds = vec![None; slots];
    for (id, e) in st.entities.iter() {
        let old_kind = old.kinds.get(e.kind as usize);
        let k = old_kind.and_then(|k| kind_ids.get(&k.name).copied());
        if k.is_none() {
            let name = old_kind.map_or("kind the save does not describe", |k| k.name.as_str());
            problems.push(format!("`{}` is a {name}, and the ruleset no longer has that kind", e.name));
        }
        kinds[id as usize] = k;
        names[id as usize] = e.name.clone();
        old_kinds[id as usize] = Some(e.kind);
    }
    let m = Maps { old, new, p, sets, checks, kinds, names };
    let mut notes = vec![];

    // Attributes, by name; an added one takes its default.
    for (id, e) in st.entities.iter_mut() {
        let (Some(k), Some(shape)) = (m.kinds[id as usize], old.kinds.get(e.kind as usize)) else { continue };
        let kind = &p.kinds[k as usize];
        let mut fields = Vec::with_capacity(kind.fields.len());
        for def in &kind.fields {
            let v = match shape.attributes.iter().position(|a| a.name == def.name) {
                Some(i) => match e.fields.get(i).map(|v| m.typed(v, &def.ty)) {
                    Some(Ok(v)) => v,
                    Some(Err(why)) => {
                        problems.push(format!("`{}.{}` is {why}", e.name, def.name));
                        continue;
                    }
                    None => {
                        problems.push(format!("`{}` has no value for `{}`", e.name, def.name));
                        continue;
                    }
                },
                None => match (&def.default, &def.ty) {
                    (Some(d), _) => d.clone(),
                    (None, Ty::Entity(_)) => Value::None,
                    (None, _) => {
                        problems.push(format!(
                            "attribute {} of {} was added without a default, so `{}` has no value for it",
                            def.name, kind.name, e.name
                        ));
                        continue;
                    }
                },
            };
            fields.push(v);
        }
        e.kind = k;
        e.fields = fields;
    }

    // Timed changes follow their attribute; one whose attribute is gone is let go.
    let mut timed = vec![];
    for mut t in std::mem::take(&mut st.timed) {
        let who = m.names.get(t.entity as usize).cloned().unwrap_or_else(|| format!("#{}", t.entity));
        let (Some(Some(k)), Some(Some(old_kind))) =
            (m.kinds.get(t.entity as usize), old_kinds.get(t.entity as usize))
        else {
            continue;
        };
        let Some(attr) = old.kinds.get(*old_kind as usize).and_then(|s| s.attributes.get(t.field as usize))
        else {
            problems.push(format!("a timed change of `{who}` is of an attribute the save does not describe"));
            continue;
        };
        let Some(i) = p.kinds[*k as usize].fields.iter().position(|f| f.name == attr.name) else {
            notes.push(format!(
                "the timed change of `{who}.{}` was let go: the attribute was removed",
                attr.name
            ));
            continue;
        };
        // A save names events by their place, which another ruleset may have moved.
        if let super::Expiry::Event(_) = t.expiry {
            notes.push(format!(
                "the timed change of `{who}.{}` was let go, its value kept: it lasted until an event, and the \
                 ruleset changed",
                attr.name
            ));
            continue;
        }
        match m.typed(&t.restore, &p.kinds[*k as usize].fields[i].ty) {
            Ok(v) => {
                (t.field, t.restore) = (i as u32, v);
                timed.push(t);
            }
            Err(why) => {
                problems.push(format!("the timed change of `{who}.{}` would restore {why}", attr.name))
            }
        }
    }
    st.timed = timed;

    // Waiting answers follow their choice; one for a removed choice is let go.
    let choice_ids = index(p.choices.iter().map(|c| &c.name));
    let mut answers = vec![];
    let mut by_host = vec![];
    for (i, (c, v)) in std::mem::take(&mut st.answers).into_iter().enumerate() {
        let Some(name) = old.choices.get(c as usize).map(|c| &c.name) else {
            problems.push(format!("an answer waits for choice #{c}, which the save does not describe"));
            continue;
        };
        let Some(&n) = choice_ids.get(name) else {
            notes.push(format!("the answer waiting for choice {name} was let go: the choice was removed"));
            continue;
        };
        let ty = &p.choices[n as usize].ty;
        let v = match (ty, &v) {
            // An answer to a number choice is checked when it is asked, as a fresh one is.
            (Ty::Int { .. }, Value::Int(_)) => Ok(v.clone()),
            _ => m.typed(&v, ty),
        };
        match v {
            Ok(v) => {
                answers.push((n, v));
                by_host.push(st.host_answers.get(i).copied().unwrap_or(false));
            }
            Err(why) => problems.push(format!("the answer waiting for choice {name} is {why}")),
        }
    }
    st.answers = answers;
    if !st.host_answers.is_empty() {
        st.host_answers = by_host;
    }

    // Last results follow their check; one that no longer fits it is forgotten, as if not rolled.
    let mut last = vec![None; p.checks.len()];
    for (i, r) in st.last.iter().enumerate() {
        let (Some(r), Some(Some(c))) = (r, m.checks.get(i)) else { continue };
        match m.result(r) {
            Some(r) if r.check_id == *c => last[*c as usize] = Some(r),
            _ => notes.push(format!(
                "the last roll of check {} was forgotten: its outcomes, inputs or values changed",
                p.checks[*c as usize].name
            )),
        }
    }
    st.last = last;

    // Options by name; an added one takes its default. (A save from before options has none.)
    if !st.options.is_empty() {
        let mut options = vec![];
        for def in &p.options {
            match old.options.iter().position(|o| o.name == def.name) {
                Some(i) => match st.options.get(i).map(|v| m.typed(v, &def.ty)) {
                    Some(Ok(v)) => options.push(v),
                    Some(Err(why)) => problems.push(format!("option {} is {why}", def.name)),
                    None => problems.push(format!("option {} has no value in the save", def.name)),
                },
                None => options.push(def.default.clone().unwrap_or(Value::None)),
            }
        }
        st.options = options;
    }

    if let Some(o) = &mut st.over {
        let name = old.set(Some(old.results)).and_then(|s| s.get(o.index as usize));
        match name.and_then(|n| p.sets[p.results as usize].names.iter().position(|r| r == n)) {
            Some(i) => o.index = i as u32,
            None => {
                problems.push(format!("the game ended as {}, a result the ruleset no longer has", o.result))
            }
        }
    }
    if problems.is_empty() { Ok(Carried { state: st, notes }) } else { Err(problems) }
}

fn index<'a>(names: impl Iterator<Item = &'a String>) -> HashMap<&'a String, u32> {
    names.enumerate().map(|(i, n)| (n, i as u32)).collect()
}

impl Maps<'_> {
    /// `v` as a value of the new type `ty`, or what it is that does not fit (`8, outside 0..6`).
    fn typed(&self, v: &Value, ty: &Ty) -> Result<Value, String> {
        let new_ty = || crate::export::type_name(self.p, ty);
        match (ty, v) {
            (Ty::Int { lo, hi }, Value::Int(x)) => {
                if lo.is_some_and(|l| *x < l) || hi.is_some_and(|h| *x > h) {
                    Err(format!("{x}, outside {}", new_ty()))
                } else {
                    Ok(v.clone())
                }
            }
            (Ty::Name(s), Value::Name { set, index }) => {
                let Some(name) = self.old.set(Some(*set)).and_then(|n| n.get(*index as usize)) else {
                    return Err("a name the save does not describe".into());
                };
                match self.p.sets[*s as usize].names.iter().position(|n| n == name) {
                    Some(i) => Ok(Value::Name { set: *s, index: i as u32 }),
                    None => Err(format!("{name}, which is not one of {}", new_ty())),
                }
            }
            (Ty::Entity(k), Value::Entity(e)) => match self.kinds.get(*e as usize) {
                Some(Some(kind)) if kind == k => Ok(v.clone()),
                Some(_) if !self.names[*e as usize].is_empty() => {
                    Err(format!("`{}`, which is not a {}", self.names[*e as usize], new_ty()))
                }
                _ => Err(format!("entity #{e}, which is not in play in the save")),
            },
            (Ty::Result(c), Value::Result(r)) => match self.result(r) {
                Some(r) if r.check_id == *c => Ok(Value::Result(r)),
                _ => Err(format!("a result that no longer fits check {}", new_ty())),
            },
            (Ty::Flag, Value::Bool(_))
            | (Ty::Entity(_), Value::None)
            | (Ty::Data | Ty::Shape(_), Value::Data(_))
            | (Ty::Pool, Value::Pool(_)) => Ok(v.clone()),
            _ => Err(format!("a value that is not {}", new_ty())),
        }
    }

    /// A value of a check's slot, whose type the program does not keep: its names follow their set,
    /// its results their check.
    fn untyped(&self, v: &Value) -> Option<Value> {
        match v {
            Value::Name { set, index } => {
                Some(Value::Name { set: (*self.sets.get(*set as usize)?)?, index: *index })
            }
            Value::Entity(e) => self.kinds.get(*e as usize)?.map(|_| v.clone()),
            Value::Result(r) => self.result(r).map(Value::Result),
            _ => Some(v.clone()),
        }
    }

    /// A check's result in the new program: its check and outcome found by name, its slots kept when
    /// the check's slots hold what they held.
    fn result(&self, r: &CheckResult) -> Option<Arc<CheckResult>> {
        let old = self.old.checks.get(r.check_id as usize)?;
        let c = (*self.checks.get(r.check_id as usize)?)?;
        let new = self.new.checks.get(c as usize)?;
        if old.slots != new.slots || r.slots.len() != new.slots.len() {
            return None;
        }
        let outcome = self.old.set(Some(old.outcomes))?.get(r.outcome_index as usize)?;
        let index = self.new.set(Some(new.outcomes))?.iter().position(|o| o == outcome)?;
        let slots = r.slots.iter().map(|v| self.untyped(v)).collect::<Option<Vec<_>>>()?;
        Some(Arc::new(CheckResult { check_id: c, outcome_index: index as u32, slots, ..r.clone() }))
    }
}
