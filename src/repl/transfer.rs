//! Moving a session and the prompt's `let` values over to a changed ruleset: what still fits is
//! kept, and every thing that no longer fits is named.

use super::Let;
use crate::Ruleset;
use crate::program::{CheckResult, Program, Ty, Value};
use crate::session::{Entities, Entity, GameOver, Session, State, Timed};
use std::sync::Arc;

/// Maps the values of one program to another.
struct Mover<'a> {
    old: &'a Program,
    new: &'a Program,
    /// Id of each old entity in the new state, by old id: the same id, or none when it is dropped
    /// (or was removed already).
    ids: Vec<Option<u32>>,
    /// Kind of each kept entity in the new program, by id (anything for the others).
    kinds: Vec<u32>,
}

impl Mover<'_> {
    /// `v` as a value of type `ty` of the new program, if it still is one.
    fn typed(&self, v: &Value, ty: &Ty) -> Option<Value> {
        match (ty, v) {
            (Ty::Int { lo, hi }, Value::Int(x)) => {
                (lo.is_none_or(|l| *x >= l) && hi.is_none_or(|h| *x <= h)).then(|| v.clone())
            }
            (Ty::Flag, Value::Bool(_))
            | (Ty::Pool, Value::Pool(_))
            | (Ty::Data | Ty::Shape(_), Value::Data(_)) => Some(v.clone()),
            (Ty::Name(s), Value::Name { set, index }) => {
                let name = self.old.sets.get(*set as usize)?.names.get(*index as usize)?;
                let index = self.new.sets.get(*s as usize)?.names.iter().position(|n| n == name)?;
                Some(Value::Name { set: *s, index: index as u32 })
            }
            (Ty::Entity(_), Value::None) => Some(Value::None),
            (Ty::Entity(k), Value::Entity(id)) => {
                let new = (*self.ids.get(*id as usize)?)?;
                (self.kinds[new as usize] == *k).then_some(Value::Entity(new))
            }
            (Ty::Result(c), Value::Result(r)) => {
                self.result(r).filter(|r| r.check_id == *c).map(Value::Result)
            }
            _ => None,
        }
    }

    /// `v` moved over where its type is not known: names go to the set with the same names.
    fn untyped(&self, v: &Value) -> Option<Value> {
        match v {
            Value::Name { set, index } => {
                let old = self.old.sets.get(*set as usize)?;
                let s = self.new.sets.iter().position(|s| s.name == old.name && s.names == old.names)?;
                Some(Value::Name { set: s as u32, index: *index })
            }
            Value::Entity(id) => Some(Value::Entity((*self.ids.get(*id as usize)?)?)),
            Value::Result(r) => self.result(r).map(Value::Result),
            _ => Some(v.clone()),
        }
    }

    /// A check result moved over: its check must still be there with the same slots.
    fn result(&self, r: &CheckResult) -> Option<Arc<CheckResult>> {
        let c = self.new.checks.iter().position(|c| c.name == r.check)?;
        if self.new.checks[c].nslots as usize != r.slots.len() {
            return None;
        }
        let slots = r.slots.iter().map(|v| self.untyped(v)).collect::<Option<Vec<_>>>()?;
        Some(Arc::new(CheckResult { check_id: c as u32, slots, ..r.clone() }))
    }

    /// A type of the old program in the new one.
    fn ty(&self, ty: &Ty) -> Option<Ty> {
        Some(match ty {
            Ty::Name(s) => {
                let old = self.old.sets.get(*s as usize)?;
                let s = self.new.sets.iter().position(|s| s.name == old.name && s.names == old.names)?;
                Ty::Name(s as u32)
            }
            Ty::Entity(k) => {
                let name = &self.old.kinds.get(*k as usize)?.name;
                Ty::Entity(self.new.kinds.iter().position(|k| &k.name == name)? as u32)
            }
            Ty::Result(c) => {
                let name = &self.old.checks.get(*c as usize)?.name;
                Ty::Result(self.new.checks.iter().position(|c| &c.name == name)? as u32)
            }
            other => other.clone(),
        })
    }
}

/// The value an attribute starts with: its default, else the lowest it can be (never below 0), no,
/// the first name, or none.
pub(super) fn initial(ty: &Ty, default: Option<&Value>) -> Value {
    default.cloned().unwrap_or(match ty {
        Ty::Int { lo, .. } => Value::Int(lo.unwrap_or(0).max(0)),
        Ty::Flag => Value::Bool(false),
        Ty::Name(set) => Value::Name { set: *set, index: 0 },
        _ => Value::None,
    })
}

/// Moves `session` and `lets` over to `rules`. Returns the new session, the `let` values that still
/// fit, and a line for each thing that did not (or changed).
pub(super) fn move_over(
    session: &Session,
    lets: &[Let],
    rules: &Ruleset,
) -> (Session, Vec<Let>, Vec<String>) {
    let old = session.ruleset().program();
    let new = rules.program();
    let st = session.state();
    let mut notes = vec![];
    let show = |v: &Value| session.show(v);
    // Entities first, so that references between them can be mapped. Every entity keeps its id;
    // one whose kind is gone is removed, as are those removed already.
    let mut m = Mover { old, new, ids: vec![], kinds: vec![] };
    for id in 0..st.entities.slots() as u32 {
        let Some(e) = st.entities.get(id) else {
            m.ids.push(None);
            m.kinds.push(0);
            continue;
        };
        let kname = &old.kinds[e.kind as usize].name;
        match new.kinds.iter().position(|k| &k.name == kname) {
            Some(k) => {
                m.ids.push(Some(id));
                m.kinds.push(k as u32);
            }
            None => {
                notes.push(format!("{}: removed, there is no kind `{kname}` any more", e.name));
                m.ids.push(None);
                m.kinds.push(0);
            }
        }
    }
    let mut entities = Entities::default();
    for id in 0..st.entities.slots() as u32 {
        let (Some(e), Some(new_id)) = (st.entities.get(id), m.ids[id as usize]) else {
            let name = st.entities.get(id).map(|e| e.name.as_str()).or_else(|| st.entities.removed(id));
            entities.push_removed(name.unwrap_or_default().to_string());
            continue;
        };
        let okind = &old.kinds[e.kind as usize];
        let nkind = &new.kinds[m.kinds[new_id as usize] as usize];
        let mut fields = vec![];
        for f in &nkind.fields {
            let start = initial(&f.ty, f.default.as_ref());
            let v = match okind.fields.iter().position(|o| o.name == f.name) {
                Some(j) => match m.typed(&e.fields[j], &f.ty) {
                    Some(v) => v,
                    None => {
                        notes.push(format!(
                            "{}.{}: {} no longer fits; now {}",
                            e.name,
                            f.name,
                            show(&e.fields[j]),
                            show_new(new, &entities_names(st, &m), &start)
                        ));
                        start
                    }
                },
                None => {
                    notes.push(format!(
                        "{}.{}: a new attribute, {}",
                        e.name,
                        f.name,
                        show_new(new, &entities_names(st, &m), &start)
                    ));
                    start
                }
            };
            fields.push(v);
        }
        for (j, o) in okind.fields.iter().enumerate() {
            if !nkind.fields.iter().any(|f| f.name == o.name) {
                notes.push(format!(
                    "{}.{}: no longer an attribute (it was {})",
                    e.name,
                    o.name,
                    show(&e.fields[j])
                ));
            }
        }
        entities.push(Entity { kind: m.kinds[new_id as usize], name: e.name.clone(), fields });
    }
    let mut timed = vec![];
    for t in &st.timed {
        let Some(e) = st.entities.get(t.entity) else { continue };
        let fname = &old.kinds[e.kind as usize].fields[t.field as usize].name;
        let moved = m.ids[t.entity as usize].and_then(|id| {
            let kind = &new.kinds[m.kinds[id as usize] as usize];
            let field = kind.fields.iter().position(|f| &f.name == fname)?;
            let restore = m.typed(&t.restore, &kind.fields[field].ty)?;
            Some(Timed { entity: id, field: field as u32, restore, ..t.clone() })
        });
        match moved {
            Some(t) => timed.push(t),
            None => notes.push(format!("{}.{}: its timed change is dropped", e.name, fname)),
        }
    }
    let mut answers = vec![];
    for (c, v) in &st.answers {
        let name = &old.choices[*c as usize].name;
        let moved = new.choices.iter().position(|x| &x.name == name).and_then(|i| {
            let v = m.typed(v, &new.choices[i].ty)?;
            Some((i as u32, v))
        });
        match moved {
            Some(a) => answers.push(a),
            None => notes.push(format!("the answer {} to `{name}` is dropped", show(v))),
        }
    }
    let mut last = vec![None; new.checks.len()];
    for r in st.last.iter().flatten() {
        match m.result(r) {
            Some(r) => {
                let i = r.check_id as usize;
                last[i] = Some(r);
            }
            None if new.checks.iter().any(|c| c.name == r.check) => {
                notes.push(format!("the last result of check `{}` is forgotten (the check changed)", r.check))
            }
            None => {}
        }
    }
    let over = st.over.as_ref().and_then(|o| {
        let set = &new.sets[new.results as usize];
        let index = set.names.iter().position(|n| *n == o.result);
        if index.is_none() {
            notes.push(format!("the game's result `{}` is no longer a result; the game goes on", o.result));
        }
        Some(GameOver {
            index: index? as u32,
            winner_id: o.winner_id.and_then(|w| m.ids.get(w as usize).copied().flatten()),
            ..o.clone()
        })
    });
    let state = State {
        seed: st.seed,
        rng: st.rng.clone(),
        round: st.round,
        turn: st.turn,
        entities,
        forced: st.forced.clone(),
        answers,
        host_answers: vec![],
        timed,
        last,
        over,
        orders: st.orders.clone(),
        options: new
            .options
            .iter()
            .map(|o| {
                // An option kept by name keeps its value, if that still fits its readings.
                let old = session.ruleset().program().options.iter().position(|p| p.name == o.name);
                old.and_then(|i| st.options.get(i))
                    .and_then(|v| m.typed(v, &o.ty))
                    .or_else(|| o.default.clone())
                    .unwrap_or(Value::None)
            })
            .collect(),
        walk: None,
    };
    let mut kept = vec![];
    for l in lets {
        match m.ty(&l.ty).and_then(|ty| Some((m.typed(&l.value, &ty).or_else(|| m.untyped(&l.value))?, ty))) {
            Some((value, ty)) => kept.push(Let { name: l.name.clone(), ty, value }),
            None => notes.push(format!("`{}` is forgotten: its value no longer fits the rules", l.name)),
        }
    }
    let session = match Session::from_state(rules, state, session.log().to_vec()) {
        Ok(s) => s,
        Err(_) => {
            notes.push("the session could not be moved over; it starts afresh".into());
            let mut s = Session::new(rules, st.seed);
            s.reseed(st.seed);
            kept.clear();
            s
        }
    };
    (session, kept, notes)
}

/// Entity names of the new state, by new id, for showing moved values.
fn entities_names(st: &State, m: &Mover<'_>) -> Vec<String> {
    (0..st.entities.slots() as u32)
        .map(|id| match (st.entities.get(id), m.ids[id as usize]) {
            (Some(e), Some(_)) => e.name.clone(),
            _ => String::new(),
        })
        .collect()
}

/// A value of the new program as people read it.
fn show_new(p: &Program, names: &[String], v: &Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.into(),
        Value::Name { set, index } => {
            p.sets.get(*set as usize).and_then(|s| s.names.get(*index as usize)).cloned().unwrap_or_default()
        }
        Value::Entity(e) => names.get(*e as usize).cloned().unwrap_or_default(),
        _ => "none".into(),
    }
}

/// Whether a `let` read from a save fits the session's ruleset and entities.
pub(super) fn fits(session: &Session, l: &Let) -> bool {
    let p = session.ruleset().program();
    let st = session.state();
    let m = Mover {
        old: p,
        new: p,
        ids: (0..st.entities.slots() as u32).map(|id| st.entities.get(id).map(|_| id)).collect(),
        kinds: (0..st.entities.slots() as u32).map(|id| st.entities.get(id).map_or(0, |e| e.kind)).collect(),
    };
    m.ty(&l.ty).is_some_and(|ty| ty == l.ty && m.typed(&l.value, &ty).is_some())
}
