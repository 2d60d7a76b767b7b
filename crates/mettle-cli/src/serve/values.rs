//! Values in requests, read by the type the rules declare: a number for a number, `true`/`false` for
//! yes/no, a name (a string) for a state or an entity, `null` for none, anything for `data`.

use super::{Failure, code};
use mettle::internals::RulesetInternals as _;
use mettle::internals::diagnostics::suggest;
use mettle::internals::program::{FieldDef, Ty};
use mettle::{Session, Value};
use serde_json::Value as Json;

/// `v`, given for `what`, as a value of `ty`.
pub fn value(s: &Session, ty: &Ty, v: &Json, what: &str) -> Result<Value, Failure> {
    let p = s.ruleset().program();
    let wrong = |wanted: &str| {
        Failure::plain(
            code::INVALID_PARAMS,
            "mettle::serve::wrong_type",
            &format!("{what} is {v}, but it takes {wanted}"),
            Some("numbers as numbers, yes/no as true/false, states and entities by name as strings"),
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
                    Err(Failure::plain(
                        code::RULES,
                        "mettle::serve::unknown_name",
                        &format!("{what} has no value `{name}`"),
                        Some(&suggest(name, "name", &known)),
                    ))
                }
            }
        }
        Ty::Entity(k) => match v {
            Json::Null => Ok(Value::None),
            Json::String(name) => entity(s, name, Some(*k)).map(Value::Entity),
            _ => Err(wrong(&format!("the name of a {}", p.kinds[*k as usize].name))),
        },
        // A shape is checked by the library when the event is applied, with the field path in its error.
        Ty::Data | Ty::Shape(_) => Ok(Value::Data(std::sync::Arc::new(v.clone()))),
        Ty::None if v.is_null() => Ok(Value::None),
        _ => Err(wrong("a value the host cannot give")),
    }
}

/// The entity in play called `name` (of kind `kind`, when given). A removed entity's name names
/// nothing (until a new entity takes it).
pub fn entity(s: &Session, name: &str, kind: Option<u32>) -> Result<u32, Failure> {
    let p = s.ruleset().program();
    match s.entity(name).and_then(|e| Some((e, s.state().entities().get(e)?.kind))) {
        Some((e, found)) => match kind {
            Some(k) if k != found => Err(Failure::plain(
                code::RULES,
                "mettle::serve::wrong_kind",
                &format!(
                    "`{name}` is a {}, not a {}",
                    p.kinds[found as usize].name, p.kinds[k as usize].name
                ),
                None,
            )),
            _ => Ok(e),
        },
        None => {
            let known: Vec<&str> = s.state().entities().iter().map(|(_, e)| e.name.as_str()).collect();
            Err(Failure::plain(
                code::RULES,
                "mettle::serve::unknown_entity",
                &format!("there is no entity in play called `{name}`"),
                Some(&suggest(name, "entity", &known)),
            ))
        }
    }
}

/// Named values given for `fields` (`what` says whose: "fact of event `hit`"), in the fields' order.
pub fn named<'a>(
    s: &Session,
    fields: &'a [FieldDef],
    given: &super::protocol::Values,
    what: &str,
) -> Result<Vec<(&'a str, Value)>, Failure> {
    let mut out = vec![];
    for (name, v) in given {
        let Some(f) = fields.iter().find(|f| &f.name == name) else {
            let known: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
            return Err(Failure::plain(
                code::RULES,
                "mettle::serve::unknown_field",
                &format!("there is no {what} called `{name}`"),
                Some(&suggest(name, what, &known)),
            ));
        };
        out.push((f.name.as_str(), value(s, &f.ty, v, &format!("{what} `{name}`"))?));
    }
    out.sort_by_key(|(n, _)| fields.iter().position(|f| f.name == *n));
    Ok(out)
}
