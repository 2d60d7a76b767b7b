//! Values a host sends as JSON, read by the type the rules declare: a number for a number,
//! `true`/`false` for yes/no, a name (a string) for a state or an entity, `null` for none, any JSON
//! for `data`. The reverse of [`super::value`], for bindings in other languages.
//!
//! A name the rules do not know (an event, a check, a kind, an attribute) is left to the session,
//! which refuses it with its own diagnostic: these functions read only what they can type.

use crate::diagnostics::{Diagnostic, suggest};
use crate::program::{FieldDef, Ty, Value};
use crate::session::Session;
use serde_json::{Map, Value as Json};

/// Named values, in the order the rules declare them.
pub type Values = Vec<(String, Value)>;

fn refused(code: &str, message: String, help: Option<String>) -> Diagnostic {
    let d = Diagnostic::plain(&format!("value::{code}"), message);
    match help {
        Some(h) => d.with_help(h),
        None => d,
    }
}

// `v`, given for `what`, as a value of `ty`.
fn typed(s: &Session, ty: &Ty, v: &Json, what: &str) -> Result<Value, Diagnostic> {
    let p = s.ruleset().program();
    let wrong = |wanted: &str| {
        refused(
            "wrong_type",
            format!("{what} is {v}, but it takes {wanted}"),
            Some("numbers as numbers, yes/no as true/false, states and entities by name as strings".into()),
        )
    };
    match ty {
        Ty::Int { .. } | Ty::Pool => v.as_i64().map(Value::Int).ok_or_else(|| wrong("a whole number")),
        Ty::Flag => v.as_bool().map(Value::Bool).ok_or_else(|| wrong("true or false")),
        Ty::Name(id) => {
            let set = &p.sets[*id as usize];
            let Some(name) = v.as_str() else {
                return Err(wrong(&format!("a name: {}", set.names.join(", "))));
            };
            match set.names.iter().position(|n| n == name) {
                Some(i) => Ok(Value::Name { set: *id, index: i as u32 }),
                None => {
                    let known: Vec<&str> = set.names.iter().map(String::as_str).collect();
                    Err(refused(
                        "unknown_name",
                        format!("{what} has no value `{name}`"),
                        Some(suggest(name, "name", &known)),
                    ))
                }
            }
        }
        Ty::Entity(k) => match v {
            Json::Null => Ok(Value::None),
            Json::String(name) => entity(s, name, Some(*k)).map(Value::Entity),
            _ => Err(wrong(&format!("the name of a {}", p.kinds[*k as usize].name))),
        },
        // A shape is checked by the session when the value comes in, with the field path in its error.
        Ty::Data | Ty::Shape(_) => Ok(Value::Data(std::sync::Arc::new(v.clone()))),
        Ty::None if v.is_null() => Ok(Value::None),
        _ => Err(wrong("a value the host cannot give")),
    }
}

/// The id of the entity in play called `name`, of kind `kind` when one is named. A removed entity's
/// name names nothing (until a new entity takes it).
///
/// ```
/// let rules = mettle::Ruleset::from_str("r.mettle", "kind unit { spi: 0..6 = 3 }").unwrap();
/// let mut s = mettle::Session::new(&rules, 1);
/// let a = s.create("unit", "alpha", &[]).unwrap();
/// assert_eq!(mettle::wire::read::entity(&s, "alpha", None).unwrap(), a);
/// assert_eq!(mettle::wire::read::entity(&s, "alph", None).unwrap_err().help.as_deref(), Some("did you mean `alpha`?"));
/// ```
pub fn entity(s: &Session, name: &str, kind: Option<u32>) -> Result<u32, Diagnostic> {
    let p = s.ruleset().program();
    match s.entity(name).and_then(|e| Some((e, s.state().entities().get(e)?.kind))) {
        Some((e, found)) => match kind {
            Some(k) if k != found => Err(refused(
                "wrong_kind",
                format!("`{name}` is a {}, not a {}", p.kinds[found as usize].name, p.kinds[k as usize].name),
                None,
            )),
            _ => Ok(e),
        },
        None => {
            let known: Vec<&str> = s.state().entities().iter().map(|(_, e)| e.name.as_str()).collect();
            Err(refused(
                "unknown_entity",
                format!("there is no entity in play called `{name}`"),
                Some(suggest(name, "entity", &known)),
            ))
        }
    }
}

/// Named values given for `fields` (`what` says whose: "fact of event `hit`"), in the fields' order.
fn named(
    s: &Session,
    fields: &[FieldDef],
    given: &Map<String, Json>,
    what: &str,
) -> Result<Values, Diagnostic> {
    let mut out = vec![];
    for (name, v) in given {
        let Some(f) = fields.iter().find(|f| &f.name == name) else {
            let known: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
            return Err(refused(
                "unknown_field",
                format!("there is no {what} called `{name}`"),
                Some(suggest(name, what, &known)),
            ));
        };
        out.push((f.name.clone(), typed(s, &f.ty, v, &format!("{what} `{name}`"))?));
    }
    out.sort_by_key(|(n, _)| fields.iter().position(|f| &f.name == n));
    Ok(out)
}

/// The facts of `event`, given by name. An unknown event reads as no facts (the session refuses it).
///
/// ```
/// use mettle::{Ruleset, Session, Value};
/// let rules = Ruleset::from_str("r.mettle", "event hit(damage: 1..6 = 1)").unwrap();
/// let s = Session::new(&rules, 1);
/// let facts = mettle::wire::read::facts(&s, "hit", serde_json::json!({ "damage": 3 }).as_object().unwrap()).unwrap();
/// assert_eq!(facts, vec![("damage".to_string(), Value::Int(3))]);
/// ```
pub fn facts(s: &Session, event: &str, given: &Map<String, Json>) -> Result<Values, Diagnostic> {
    let p = s.ruleset().program();
    match p.events.iter().find(|e| e.name == event) {
        Some(e) => named(s, &e.facts, given, &format!("fact of event `{event}`")),
        None => Ok(vec![]),
    }
}

/// The inputs of `check`, given by name. An unknown check reads as no inputs (the session refuses it).
///
/// ```
/// use mettle::{Ruleset, Session, Value};
/// let rules = Ruleset::from_str("r.mettle", "check c { input spi: 0..6  roll d6  outcome ok when total > spi  otherwise fail }").unwrap();
/// let s = Session::new(&rules, 1);
/// let given = serde_json::json!({ "sp": 3 });
/// let e = mettle::wire::read::inputs(&s, "c", given.as_object().unwrap()).unwrap_err();
/// assert_eq!((e.code.as_str(), e.help.as_deref()), ("mettle::value::unknown_field", Some("did you mean `spi`?")));
/// ```
pub fn inputs(s: &Session, check: &str, given: &Map<String, Json>) -> Result<Values, Diagnostic> {
    let p = s.ruleset().program();
    match p.checks.iter().find(|c| c.name == check) {
        Some(c) => {
            let fields: Vec<FieldDef> = c.inputs.iter().map(|i| i.field.clone()).collect();
            named(s, &fields, given, &format!("input of check `{check}`"))
        }
        None => Ok(vec![]),
    }
}

/// Who makes `check`: the entity called `name`, which must be of the check's kind.
///
/// ```
/// let rules = mettle::Ruleset::from_str("r.mettle", "kind a { x: 0..1 = 0 }  kind b { y: 0..1 = 0 }
///     check c for a { roll d6  outcome ok when total > 3  otherwise fail }").unwrap();
/// let mut s = mettle::Session::new(&rules, 1);
/// s.create("b", "bee", &[]).unwrap();
/// assert_eq!(mettle::wire::read::subject(&s, "c", "bee").unwrap_err().code, "mettle::value::wrong_kind");
/// ```
pub fn subject(s: &Session, check: &str, name: &str) -> Result<u32, Diagnostic> {
    let p = s.ruleset().program();
    let kind = p.checks.iter().find(|c| c.name == check).and_then(|c| c.subject);
    entity(s, name, kind)
}

/// The attributes of a new entity of `kind`, given by name. An unknown kind reads as none (the
/// session refuses it).
///
/// ```
/// use mettle::{Ruleset, Session, Value};
/// let rules = Ruleset::from_str("r.mettle", "kind unit { morale: steady | shaken = steady }").unwrap();
/// let s = Session::new(&rules, 1);
/// let v = mettle::wire::read::attributes(&s, "unit", &serde_json::json!({ "morale": "shaken" }).as_object().unwrap()).unwrap();
/// assert_eq!(rules.text_of(&v[0].1), "shaken");
/// let e = mettle::wire::read::attributes(&s, "unit", &serde_json::json!({ "morale": 3 }).as_object().unwrap()).unwrap_err();
/// assert_eq!(e.code, "mettle::value::wrong_type");
/// ```
pub fn attributes(s: &Session, kind: &str, given: &Map<String, Json>) -> Result<Values, Diagnostic> {
    let p = s.ruleset().program();
    match p.kinds.iter().find(|k| k.name == kind) {
        Some(k) => named(s, &k.fields, given, &format!("attribute of a {kind}")),
        None => Ok(vec![]),
    }
}

/// The value `v` for attribute `attribute` of the entity called `entity`.
///
/// ```
/// use mettle::{Ruleset, Session, Value};
/// let rules = Ruleset::from_str("r.mettle", "kind unit { spi: 0..6 = 3 }").unwrap();
/// let mut s = Session::new(&rules, 1);
/// s.create("unit", "alpha", &[]).unwrap();
/// assert_eq!(mettle::wire::read::attribute(&s, "alpha", "spi", &serde_json::json!(4)).unwrap(), Value::Int(4));
/// assert_eq!(mettle::wire::read::attribute(&s, "alpha", "sp", &serde_json::json!(4)).unwrap_err().code, "mettle::value::unknown_field");
/// ```
pub fn attribute(s: &Session, entity_name: &str, attribute: &str, v: &Json) -> Result<Value, Diagnostic> {
    let p = s.ruleset().program();
    let id = entity(s, entity_name, None)?;
    let Some(held) = s.state().entities().get(id) else {
        return Err(refused(
            "unknown_entity",
            format!("there is no entity in play called `{entity_name}`"),
            None,
        ));
    };
    let kind = &p.kinds[held.kind as usize];
    let Some(f) = kind.fields.iter().find(|f| f.name == attribute) else {
        let known: Vec<&str> = kind.fields.iter().map(|f| f.name.as_str()).collect();
        return Err(refused(
            "unknown_field",
            format!("a {} has no attribute `{attribute}`", kind.name),
            Some(suggest(attribute, "attribute", &known)),
        ));
    };
    typed(s, &f.ty, v, &format!("`{entity_name}.{attribute}`"))
}

/// The value `v` for house-rule option `option`. An unknown option reads as none (the session
/// refuses it).
pub fn option(s: &Session, option: &str, v: &Json) -> Result<Value, Diagnostic> {
    let p = s.ruleset().program();
    match p.options.iter().find(|o| o.name == option) {
        Some(o) => typed(s, &o.ty, v, &format!("option `{option}`")),
        None => Ok(Value::None),
    }
}

/// The value `v` as an answer to choice `choice`. An unknown choice reads as none (the session
/// refuses it).
pub fn answer(s: &Session, choice: &str, v: &Json) -> Result<Value, Diagnostic> {
    let p = s.ruleset().program();
    match p.choices.iter().find(|c| c.name == choice) {
        Some(c) => typed(s, &c.ty, v, &format!("the answer to `{choice}`")),
        None => Ok(Value::None),
    }
}
