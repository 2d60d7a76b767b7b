//! A ruleset's outline as JSON for other tools: kinds, events, checks, tables, results, choices and
//! scenarios, with their doc comments and the lines where they are defined.

use crate::Ruleset;
use crate::ast::Span;
use crate::program::{FieldDef, Program, Ty, Value};
use serde_json::{Value as Json, json};

/// The outline of a ruleset as JSON.
///
/// ```
/// let rules = mettle::Ruleset::from_str("x.mettle", "/// A unit.\nkind unit { spi: 0..6 = 3 }").unwrap();
/// let out = mettle::export::outline(&rules);
/// assert_eq!(out["kinds"][0]["name"], "unit");
/// assert_eq!(out["kinds"][0]["doc"], "A unit.");
/// assert_eq!(out["kinds"][0]["attributes"][0]["type"], "0..6");
/// assert_eq!(out["kinds"][0]["attributes"][0]["default"], "3");
/// // A ladder's rungs and their numbers, for a form to offer.
/// let rules = mettle::Ruleset::from_str("l.mettle", "ladder level { low = 3  high = 7 }\ncheck c { input lvl: level  roll 2d6  outcome pass when total >= value(lvl)  otherwise fail }").unwrap();
/// let out = mettle::export::outline(&rules);
/// assert_eq!(out["checks"][0]["inputs"][0]["names"], serde_json::json!(["low", "high"]));
/// assert_eq!(out["ladders"][0], serde_json::json!({ "name": "level", "rungs": [{ "name": "low", "value": 3 }, { "name": "high", "value": 7 }] }));
/// ```
pub fn outline(rules: &Ruleset) -> Json {
    let p = rules.program();
    let line = |span: Span| -> Json {
        if span.is_empty() && span.start == 0 {
            return Json::Null;
        }
        let end = span.start.min(rules.text().len());
        json!(rules.text().as_bytes()[..end].iter().filter(|&&b| b == b'\n').count() + 1)
    };
    let fields = |fs: &[FieldDef]| -> Json {
        fs.iter()
            .map(|f| {
                json!({
                    "name": f.name,
                    "type": type_name(p, &f.ty),
                    "names": names(p, &f.ty),
                    "default": f.default.as_ref().map(|v| value_name(p, v)),
                    "strict": f.strict,
                    "doc": f.doc,
                    "line": line(f.span),
                })
            })
            .collect()
    };
    let results = &p.sets[p.results as usize];
    let mut out = json!({
        "title": p.title,
        "file": rules.name(),
        "kinds": p.kinds.iter().map(|k| json!({
            "name": k.name, "doc": k.doc, "line": line(k.span), "attributes": fields(&k.fields),
        })).collect::<Vec<_>>(),
        "events": p.events.iter().map(|e| json!({
            "name": e.name, "doc": e.doc, "line": line(e.span), "facts": fields(&e.facts),
            "built_in": e.span.is_empty() && e.span.start == 0,
            "rules": e.triggers.iter().map(|&t| json!({
                "when": p.triggers[t as usize].text,
                "doc": p.triggers[t as usize].doc,
                "line": line(p.triggers[t as usize].span),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "checks": p.checks.iter().map(|c| json!({
            "name": c.name,
            "doc": c.doc,
            "line": line(c.span),
            "made_by": c.subject.map(|k| p.kinds[k as usize].name.clone()),
            "inputs": fields(&c.inputs.iter().map(|i| i.field.clone()).collect::<Vec<_>>()),
            "roll": c.roll.as_ref().map(|r| r.dice.text.clone()),
            // Roll-under: passes with a total at most the target; `margin` is then `target - total`.
            "under": c.under,
            "modifiers": c.modifiers.iter().map(|m| json!({
                "label": m.label, "dice": m.dice, "doc": m.doc, "line": line(m.span),
            })).collect::<Vec<_>>(),
            "values": c.lets.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>(),
            "outcomes": c.outcomes.iter().map(|o| json!({
                "name": p.sets[c.outcome_set as usize].names[o.index as usize],
                "doc": o.doc,
                "line": line(o.span),
                "otherwise": o.when.is_none(),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "tables": p.tables.iter().map(|t| json!({
            "name": t.name, "doc": t.doc, "line": line(t.span), "keys": fields(&t.params), "result": type_name(p, &t.result),
        })).collect::<Vec<_>>(),
        "formulas": p.defines.iter().map(|d| json!({
            "name": d.name, "doc": d.doc, "line": line(d.span), "parameters": fields(&d.params),
        })).collect::<Vec<_>>(),
        // The shapes of host data: each field with its type as written, its default (a field
        // without one must be given) and, for a record, its own fields.
        "shapes": p.shapes.iter().map(|s| json!({
            "name": s.name, "doc": s.doc, "line": line(s.span), "fields": shape_fields(p, &s.fields, &line),
        })).collect::<Vec<_>>(),
        // House-rule options: each with its readings and the one chosen (`default`).
        "options": fields(&p.options),
        "results": results.names.iter().zip(&results.labels).map(|(n, l)| json!({
            "name": n, "label": l,
        })).collect::<Vec<_>>(),
        "choices": p.choices.iter().map(|c| json!({
            "name": c.name, "question": c.question, "type": type_name(p, &c.ty), "names": names(p, &c.ty),
            "line": line(c.span),
        })).collect::<Vec<_>>(),
        "scenarios": p.scenarios.iter().map(|s| json!({
            "name": s.name, "title": s.title, "doc": s.doc, "line": line(s.span),
        })).collect::<Vec<_>>(),
        // A function in a script file gives its file; its line is then in that file.
        "script_functions": rules.scripts().iter().flat_map(|s| s.functions.iter()).map(|f| json!({
            "name": f.name, "parameters": f.params, "file": f.file,
            "line": match &f.file {
                None => line(f.span),
                Some(name) => json!(rules.scripts().and_then(|s| s.file(name)).map_or(0, |file| {
                    file.text.as_bytes()[..f.span.start.min(file.text.len())].iter().filter(|&&b| b == b'\n').count() + 1
                })),
            },
        })).collect::<Vec<_>>(),
    });
    // Ladders: each rung, lowest first, with its number.
    out["ladders"] = p
        .sets
        .iter()
        .filter_map(|set| {
            let values = set.values.as_ref()?;
            let rungs: Vec<Json> =
                set.names.iter().zip(values).map(|(n, v)| json!({ "name": n, "value": v })).collect();
            Some(json!({ "name": set.name, "rungs": rungs }))
        })
        .collect();
    out
}

/// A shape's fields as JSON; records inside give their fields too.
fn shape_fields(p: &Program, fields: &[crate::shape::ShapeField], line: &dyn Fn(Span) -> Json) -> Json {
    use crate::shape::ShapeTy;
    fields
        .iter()
        .map(|f| {
            let record = match &f.ty {
                ShapeTy::Record(r) => Some(r),
                ShapeTy::List(t) => match &**t {
                    ShapeTy::Record(r) => Some(r),
                    _ => None,
                },
                _ => None,
            };
            json!({
                "name": f.name,
                "type": crate::shape::written(&p.shapes, &f.ty),
                "default": f.default.as_ref().map(crate::shape::value_written),
                "required": f.default.is_none(),
                "doc": f.doc,
                "line": line(f.span),
                "fields": record.map(|r| shape_fields(p, r, line)),
            })
        })
        .collect()
}

/// A type as written in a ruleset: `0..6`, `flag`, `steady | shaken`, a kind's or ladder's name.
/// The names a value of `ty` may take, in order (a ladder's from its lowest rung), or null for a type
/// that is not a set of names: what a form offers to choose from.
fn names(p: &Program, ty: &Ty) -> Json {
    match ty {
        Ty::Name(s) => json!(p.sets[*s as usize].names),
        _ => Json::Null,
    }
}

pub(crate) fn type_name(p: &Program, ty: &Ty) -> String {
    match ty {
        Ty::Int { lo: None, hi: None } => "int".into(),
        Ty::Int { lo, hi } => format!(
            "{}..{}",
            lo.map(|l| l.to_string()).unwrap_or_default(),
            hi.map(|h| h.to_string()).unwrap_or_default()
        ),
        Ty::Flag => "flag".into(),
        Ty::Name(s) => {
            let set = &p.sets[*s as usize];
            if set.values.is_some() { set.name.clone() } else { set.names.join(" | ") }
        }
        Ty::Entity(k) => p.kinds[*k as usize].name.clone(),
        Ty::Pool => "dice".into(),
        Ty::Result(c) => format!("result of {}", p.checks[*c as usize].name),
        Ty::Text => "text".into(),
        Ty::Data => "data".into(),
        Ty::Shape(s) => p.shapes[*s as usize].name.clone(),
        Ty::List(s) => format!("list of {}", p.shapes[*s as usize].name),
        Ty::None => "none".into(),
        Ty::Error => "unknown".into(),
    }
}

/// A constant as written in a ruleset.
/// A plain value as written in a ruleset (`3`, `yes`, `shaken`, `none`).
pub(crate) fn value_name(p: &Program, v: &Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.into(),
        Value::Name { set, index } => p
            .sets
            .get(*set as usize)
            .and_then(|s| s.names.get(*index as usize))
            .cloned()
            .unwrap_or_else(|| "?".into()),
        Value::None => "none".into(),
        _ => "?".into(),
    }
}
