//! Whether a saved state can belong to a program: every value in it of its type, range and shape,
//! and every reference in it pointing at something that exists.

use super::State;
use crate::program::{Check, CheckResult, Program, Ty, Value};
use crate::shape::{ShapeTy, conform};

/// Whether `v` is a value of type `ty` in program `p` with entities `st`: numbers within range, names
/// of the right set, entities of the right kind, data of its shape.
fn value_fits(p: &Program, st: &State, v: &Value, ty: &Ty) -> bool {
    match (ty, v) {
        (Ty::Int { lo, hi }, Value::Int(x)) => lo.is_none_or(|l| *x >= l) && hi.is_none_or(|h| *x <= h),
        (Ty::Flag, Value::Bool(_)) | (Ty::Data, Value::Data(_)) | (Ty::Entity(_), Value::None) => true,
        (Ty::Shape(_), Value::Data(_)) => shape_problem(p, ty, v, "").is_none(),
        (Ty::Name(s), Value::Name { set, index }) => {
            set == s && p.sets.get(*set as usize).is_some_and(|n| (*index as usize) < n.names.len())
        }
        (Ty::Entity(k), Value::Entity(e)) => st.entities.get(*e).is_some_and(|e| e.kind == *k),
        (Ty::Result(c), Value::Result(r)) => r.check_id == *c && result_fits(p, st, r).is_ok(),
        (Ty::Pool, Value::Pool(_)) => true,
        _ => false,
    }
}

/// What is wrong with data `v` for a shaped type, if anything (`root` names it).
fn shape_problem(p: &Program, ty: &Ty, v: &Value, root: &str) -> Option<String> {
    let (Ty::Shape(s), Value::Data(d)) = (ty, v) else { return None };
    // The values were counted as the save was read (`data_values`), so no budget is needed here.
    conform(&p.shapes, &ShapeTy::Shape(*s), d, root, u64::MAX).err().map(|e| e.message)
}

/// Whether `v` is well formed where its type is not known (a check's scratch slots): every reference
/// in it points at something that exists.
fn any_fits(p: &Program, st: &State, v: &Value) -> bool {
    match v {
        Value::Entity(e) => st.entities.get(*e).is_some(),
        Value::Name { set, index } => {
            p.sets.get(*set as usize).is_some_and(|s| (*index as usize) < s.names.len())
        }
        Value::Result(r) => result_fits(p, st, r).is_ok(),
        _ => true,
    }
}

/// Whether `r` is a result of its check: as many slots as the check has, an outcome of the check's,
/// and every value the check names (`last CHECK.total`) of its type. Says what does not fit.
fn result_fits(p: &Program, st: &State, r: &CheckResult) -> Result<(), String> {
    let Some(c) = p.checks.get(r.check_id as usize) else {
        return Err("it is a result of a check the ruleset does not have".into());
    };
    if c.nslots as usize != r.slots.len() {
        return Err(format!("it has {} values, the check {}", r.slots.len(), c.nslots));
    }
    if p.sets.get(c.outcome_set as usize).is_none_or(|s| (r.outcome_index as usize) >= s.names.len()) {
        return Err("its outcome is not one of the check's".into());
    }
    for (i, v) in r.slots.iter().enumerate() {
        let named = c.named.iter().find(|(_, slot, _)| *slot as usize == i);
        let ok = match named {
            Some((_, _, ty)) => slot_fits(p, st, c, i, v, ty),
            None if i == c.slots.subject as usize => match (c.subject, v) {
                (Some(k), Value::Entity(_)) => value_fits(p, st, v, &Ty::Entity(k)),
                (_, Value::None) => true,
                _ => false,
            },
            None => any_fits(p, st, v),
        };
        if !ok {
            let name = named.map(|(n, _, _)| n.as_str()).unwrap_or("subject");
            return Err(format!("its `{name}` is not {}", slot_words(p, named.map(|n| &n.2))));
        }
    }
    Ok(())
}

fn slot_words(p: &Program, ty: Option<&Ty>) -> String {
    match ty {
        Some(Ty::Int { .. }) => "a number".into(),
        Some(ty) => crate::export::type_name(p, ty),
        None => "an entity of the check's subject kind".into(),
    }
}

/// Whether `v` fits slot `i` of check `c`, of type `ty`. Inputs are held to their declared types and
/// ranges; the values every roll works out (`natural`, `total`, `target`, `margin`) must be numbers;
/// the ranges the checker works out for them and for `let`s are estimates, so only the kind of value
/// is checked there, and a `let` may be unset.
fn slot_fits(p: &Program, st: &State, c: &Check, i: usize, v: &Value, ty: &Ty) -> bool {
    let s = &c.slots;
    if i < c.inputs.len() {
        return value_fits(p, st, v, ty) || (matches!(ty, Ty::Text | Ty::None) && any_fits(p, st, v));
    }
    if i == s.dice as usize {
        return matches!(v, Value::Pool(_) | Value::Int(0));
    }
    if [s.natural, s.total, s.target, s.margin].contains(&(i as u32)) {
        return matches!(v, Value::Int(_));
    }
    match (ty, v) {
        (_, Value::None) => true,
        (Ty::Int { .. }, Value::Int(_)) => true,
        (Ty::Int { .. }, _) => false,
        (Ty::Pool, Value::Int(_)) => true,
        (Ty::Text | Ty::None | Ty::Error, _) => any_fits(p, st, v),
        _ => value_fits(p, st, v, ty),
    }
}

/// Whether a saved state can belong to this program: every entity is of a kind it has, with every
/// attribute of its type, range and shape; the round and turn counters can go on counting; every
/// timed change, answer, last result and game result refers to something that exists, with values
/// of the right type. Says what does not fit.
pub(super) fn fits(p: &Program, st: &State) -> Result<(), String> {
    if st.last.len() != p.checks.len() {
        return Err(format!("it has results for {} checks, the ruleset {}", st.last.len(), p.checks.len()));
    }
    for (what, n) in [("round", st.round), ("turn", st.turn)] {
        if !(0..i64::MAX).contains(&n) {
            return Err(format!("its {what} counter is {n}, which no game can reach and go on from"));
        }
    }
    let mut seen = std::collections::HashSet::new();
    for (i, e) in st.entities.iter() {
        let Some(kind) = p.kinds.get(e.kind as usize) else {
            return Err(format!("entity #{i} is of a kind the ruleset does not have"));
        };
        if kind.fields.len() != e.fields.len() {
            return Err(format!(
                "`{}` has {} attributes, a {} has {}",
                e.name,
                e.fields.len(),
                kind.name,
                kind.fields.len()
            ));
        }
        if !seen.insert(e.name.as_str()) {
            return Err(format!("two entities are called `{}`", e.name));
        }
        for (def, v) in kind.fields.iter().zip(&e.fields) {
            let root = format!("{}.{}", e.name, def.name);
            if let Some(problem) = shape_problem(p, &def.ty, v, &root) {
                return Err(format!("`{root}` does not fit its shape: {problem}"));
            }
            if !value_fits(p, st, v, &def.ty) {
                return Err(format!(
                    "`{root}` holds a value that is not {}",
                    crate::export::type_name(p, &def.ty)
                ));
            }
        }
    }
    for t in &st.timed {
        let Some(e) = st.entities.get(t.entity) else {
            return Err(format!(
                "a timed change is of entity #{}, which is not in play in the save",
                t.entity
            ));
        };
        let Some(def) = p.kinds[e.kind as usize].fields.get(t.field as usize) else {
            return Err(format!(
                "a timed change is of attribute #{} of `{}`, which it does not have",
                t.field, e.name
            ));
        };
        if !value_fits(p, st, &t.restore, &def.ty) {
            return Err(format!(
                "the timed change of `{}.{}` would restore a value it cannot hold",
                e.name, def.name
            ));
        }
        if let super::Expiry::Event(ev) = t.expiry {
            let Some(event) = p.events.get(ev as usize) else {
                return Err(format!(
                    "the timed change of `{}.{}` lasts until event #{ev}, which the ruleset does not have",
                    e.name, def.name
                ));
            };
            if let Some((i, v)) = &t.fact
                && !event.facts.get(*i as usize).is_some_and(|f| value_fits(p, st, v, &f.ty))
            {
                return Err(format!(
                    "the timed change of `{}.{}` waits for a fact of `{}` it does not have",
                    e.name, def.name, event.name
                ));
            }
        } else if t.fact.is_some() {
            return Err(format!(
                "the timed change of `{}.{}` has a fact but waits for no event",
                e.name, def.name
            ));
        }
    }
    for (c, v) in &st.answers {
        let Some(choice) = p.choices.get(*c as usize) else {
            return Err(format!("an answer waits for choice #{c}, which the ruleset does not have"));
        };
        if !value_fits(p, st, v, &choice.ty) && !matches!((&choice.ty, v), (Ty::Int { .. }, Value::Int(_))) {
            return Err(format!("the answer waiting for `{}` is not of its type", choice.name));
        }
    }
    for (i, r) in st.last.iter().enumerate() {
        let Some(r) = r else { continue };
        let name = &p.checks[i].name;
        if r.check_id as usize != i {
            return Err(format!("the last result of `{name}` is a result of another check"));
        }
        if let Err(what) = result_fits(p, st, r) {
            return Err(format!("the last result of `{name}` does not fit the check: {what}"));
        }
    }
    // A save from before options has none: it plays on with the ruleset's readings.
    if !st.options.is_empty() && st.options.len() != p.options.len() {
        return Err(format!(
            "it has {} house-rule options, the ruleset {}",
            st.options.len(),
            p.options.len()
        ));
    }
    for (def, v) in p.options.iter().zip(&st.options) {
        if !value_fits(p, st, v, &def.ty) {
            return Err(format!(
                "option `{}` holds a value that is not {}",
                def.name,
                crate::export::type_name(p, &def.ty)
            ));
        }
    }
    if let Some(o) = &st.over {
        if (o.index as usize) >= p.sets[p.results as usize].names.len() {
            return Err("the game's result is not one of the ruleset's results".into());
        }
        if o.winner_id.is_some_and(|w| st.entities.get(w).is_none()) {
            return Err("the game's winner is not in the save".into());
        }
    }
    Ok(())
}
