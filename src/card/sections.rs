//! The sections of a card besides its checks: states and what sets them, tables, rules by event.

use super::effects;
use super::words::{self, Source};
use super::{EventCard, RuleCard, StateCard, TableCard, Words};
use crate::program::{Program, Ty};

/// Every attribute whose values are names, every ladder no attribute uses, and what sets them.
pub(super) fn states(p: &Program, src: &Source) -> Vec<StateCard> {
    use crate::program::Stmt;
    // Where each attribute is set: by the rules, then by the outcomes of checks; each with the
    // conditions it is set under.
    let mut sets: Vec<(u32, u32, Words, Words)> = vec![];
    let mut record = |walk: &mut effects::Walk, written: &[crate::ast::Stmt], by: &Words| {
        walk.effects(written, &mut |s, chain| {
            if let Stmt::Set { place, value, span, .. } = s {
                let mut to = Words::default();
                match words::constant(p, value) {
                    Some(v) => to.strong(&v),
                    None => to.code(&words::set_value(src, *span)),
                }
                let mut by = by.clone();
                // "if A and B", "if A, unless B": two conditions in a row share their "if"; the
                // values the conditions read follow them, once each.
                let mut last_if = false;
                let mut lets: Vec<(String, String)> = vec![];
                for c in chain {
                    let plain = c.words.plain();
                    match (last_if, plain.strip_prefix("if ")) {
                        (true, Some(_)) => {
                            by.text(" and ");
                            let mut rest = c.words.clone();
                            if let Some(super::Piece::Text(t)) = rest.0.first_mut() {
                                *t = t["if ".len()..].to_string();
                            }
                            by.extend(rest);
                        }
                        _ => {
                            by.text(", ");
                            by.extend(c.words.clone());
                        }
                    }
                    last_if = plain.starts_with("if ");
                    for l in &c.lets {
                        if !lets.contains(l) {
                            lets.push(l.clone());
                        }
                    }
                }
                by.extend(effects::where_lets(&lets));
                if !sets
                    .iter()
                    .any(|(k, f, t, b)| *k == place.kind && *f == place.field && *t == to && *b == by)
                {
                    sets.push((place.kind, place.field, to, by));
                }
            }
        });
    };
    for t in &p.triggers {
        let mut by = Words::default();
        by.text("rule ");
        by.code(&t.text);
        if let Some(def) = trigger_def(src, t) {
            record(&mut effects::Walk::new(p, src, &t.body, vec![]), &def.body, &by);
        }
    }
    for c in &p.checks {
        let names = words::outcome_names(p, c);
        let Some(def) = src.check(&c.name) else { continue };
        let written = outcome_defs(def);
        let lets = check_lets(src, def);
        for ((o, name), w) in c.outcomes.iter().zip(&names).zip(written) {
            let mut by = Words::default();
            by.text("check ");
            by.strong(&c.name);
            by.text(", outcome ");
            by.strong(name);
            record(&mut effects::Walk::new(p, src, &o.body, lets.clone()), &w.body, &by);
        }
    }
    let mut used = vec![];
    let mut out = vec![];
    for (ki, k) in p.kinds.iter().enumerate() {
        for (fi, f) in k.fields.iter().enumerate() {
            let Ty::Name(set) = f.ty else { continue };
            let Some(ns) = p.sets.get(set as usize) else { continue };
            used.push(set);
            out.push(StateCard {
                name: format!("{}.{}", k.name, f.name),
                doc: f.doc.clone(),
                names: names_of(ns),
                default: f.default.as_ref().map(|v| words::value(p, v)),
                ladder: is_ladder(src, &ns.name).then(|| ns.name.clone()),
                moves: sets
                    .iter()
                    .filter(|(k, f, _, _)| *k as usize == ki && *f as usize == fi)
                    .map(|(_, _, to, by)| (to.clone(), by.clone()))
                    .collect(),
            });
        }
    }
    for (si, ns) in p.sets.iter().enumerate() {
        if is_ladder(src, &ns.name) && !used.contains(&(si as u32)) {
            out.push(StateCard {
                name: ns.name.clone(),
                doc: ladder_doc(src, &ns.name),
                names: names_of(ns),
                default: None,
                ladder: Some(ns.name.clone()),
                moves: vec![],
            });
        }
    }
    out
}

fn names_of(ns: &crate::program::NameSet) -> Vec<(String, Option<i64>)> {
    ns.names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), ns.values.as_ref().and_then(|v| v.get(i).copied())))
        .collect()
}

fn is_ladder(src: &Source, name: &str) -> bool {
    src.is_ladder(name)
}

fn ladder_doc(src: &Source, name: &str) -> Option<String> {
    src.ladder(name).and_then(|i| i.doc.clone())
}

pub(super) fn table_card(p: &Program, src: &Source, t: &crate::program::Table) -> TableCard {
    let keys = t.params.iter().map(|k| format!("{}: {}", k.name, words::type_name(p, src, &k.ty))).collect();
    let rows = match src.table(&t.name) {
        Some(def) => def
            .rows
            .iter()
            .map(|r| {
                let keys = r.keys.iter().map(|k| src.quote(k.span)).collect();
                (keys, src.quote(r.value.span))
            })
            .collect(),
        None => vec![],
    };
    let result = if matches!(t.result, Ty::Int { lo: None, hi: None }) {
        "number".into()
    } else {
        words::type_name(p, src, &t.result)
    };
    TableCard { name: t.name.clone(), doc: t.doc.clone(), keys, result, rows }
}

pub(super) fn events(p: &Program, src: &Source) -> Vec<EventCard> {
    p.events
        .iter()
        .filter(|e| !e.triggers.is_empty())
        .map(|e| EventCard {
            name: e.name.clone(),
            doc: with_shapes(p, e),
            facts: e
                .facts
                .iter()
                .map(|f| format!("{}: {}", f.name, words::type_name(p, src, &f.ty)))
                .collect(),
            rules: e
                .triggers
                .iter()
                .filter_map(|&t| p.triggers.get(t as usize))
                .map(|t| RuleCard {
                    when: trigger_condition(src, t),
                    doc: t.doc.clone(),
                    effects: trigger_def(src, t)
                        .map(|d| effects::Walk::new(p, src, &t.body, vec![]).effects(&d.body, &mut |_, _| {}))
                        .unwrap_or_default(),
                })
                .collect(),
        })
        .collect()
}

/// The ruleset's reactions, in the order written, each with its steps in words.
pub(super) fn reactions(p: &Program, src: &Source) -> Vec<super::ReactionCard> {
    let defs: Vec<&crate::ast::ReactionDef> = src
        .file
        .items
        .iter()
        .filter_map(|i| match &i.kind {
            crate::ast::ItemKind::Reaction(r) => Some(r),
            _ => None,
        })
        .collect();
    p.reactions
        .iter()
        .map(|r| super::ReactionCard {
            name: r.name.clone(),
            params: r
                .params
                .iter()
                .map(|f| format!("{}: {}", f.name, words::type_name(p, src, &f.ty)))
                .collect(),
            doc: r.doc.clone(),
            effects: defs
                .iter()
                .find(|d| d.name.name == r.name)
                .map(|d| effects::Walk::new(p, src, &r.body, vec![]).effects(&d.body, &mut |_, _| {}))
                .unwrap_or_default(),
        })
        .collect()
}

/// The `when` of a rule as written.
fn trigger_condition(src: &Source, t: &crate::program::Trigger) -> Option<Words> {
    trigger_def(src, t)?.when.as_ref().map(|c| {
        let mut w = Words::default();
        w.code(&src.quote(c.span));
        w
    })
}

/// A rule as written.
fn trigger_def<'s>(src: &'s Source, t: &crate::program::Trigger) -> Option<&'s crate::ast::TriggerDef> {
    src.file.items.iter().find_map(|i| match &i.kind {
        crate::ast::ItemKind::Trigger(d) if (t.head.start..=t.head.end).contains(&d.event.span.start) => {
            Some(d)
        }
        _ => None,
    })
}

/// A check's outcomes as written, in order.
pub(super) fn outcome_defs(def: &crate::ast::CheckDef) -> Vec<&crate::ast::OutcomeDef> {
    def.lines
        .iter()
        .filter_map(|l| match &l.kind {
            crate::ast::CheckLineKind::Outcome(o) => Some(o),
            _ => None,
        })
        .collect()
}

/// The values a check works out with `let`, by name, as written.
pub(super) fn check_lets(src: &Source, def: &crate::ast::CheckDef) -> Vec<effects::Let> {
    def.lines
        .iter()
        .filter_map(|l| match &l.kind {
            crate::ast::CheckLineKind::Let(name, e) => Some(effects::Let::of(src, name, e)),
            _ => None,
        })
        .collect()
}

/// An event's doc comment, followed by the fields of each shape its facts have: what the host must
/// describe, one line a field (`- \`friends\`: list of { … } = [] — every friend`).
fn with_shapes(p: &Program, e: &crate::program::EventDecl) -> Option<String> {
    let mut doc = e.doc.clone();
    for f in &e.facts {
        let Ty::Shape(s) = f.ty else { continue };
        let Some(shape) = p.shapes.get(s as usize) else { continue };
        let mut text = format!("`{}` has shape `{}`:\n", f.name, shape.name);
        for field in &shape.fields {
            let about =
                field.doc.as_ref().map(|d| format!(" — {}", d.replace('\n', " "))).unwrap_or_default();
            text.push_str(&format!("\n- `{}`{about}", crate::shape::field_written(&p.shapes, field)));
        }
        doc = Some(match doc {
            Some(d) => format!("{d}\n\n{text}"),
            None => text,
        });
    }
    doc
}
