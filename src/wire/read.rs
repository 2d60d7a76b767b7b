//! Values a host gives as JSON, read by the types the rules declare: a number for a number,
//! `true`/`false` for yes/no, a name (a string) for a state or an entity in play, `null` for none,
//! anything for `data` and shaped data. The server, the JavaScript package and the Python package all
//! read their values here.

use crate::diagnostics::{Diagnostic, suggest};
use crate::program::{FieldDef, Ty};
use crate::{Session, Value};
use serde_json::Value as Json;

/// Whose declared names JSON values are read against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fields<'a> {
    /// The facts of the event called this.
    Facts(&'a str),
    /// The attributes of the kind called this.
    Attributes(&'a str),
    /// The inputs of the check called this.
    Inputs(&'a str),
    /// The ruleset's house-rule options.
    Options,
}

/// The named values `given` for `fields`, in the order the rules declare them.
///
/// ```
/// use mettle::{Ruleset, Session, Value};
/// use mettle::wire::{Fields, read};
/// let rules = Ruleset::from_str("r.mettle", "kind unit { morale: steady | shaken = steady }\n\
///     event hit(unit: unit, hp_lost: 0..9)").unwrap();
/// let mut s = Session::new(&rules, 1);
/// let a = s.create("unit", "alpha", &[]).unwrap();
/// let given = serde_json::json!({ "hp_lost": 3, "unit": "alpha" });
/// let facts = read(&s, Fields::Facts("hit"), given.as_object().unwrap()).unwrap();
/// assert_eq!(facts, vec![("unit".to_string(), Value::Entity(a)), ("hp_lost".to_string(), Value::Int(3))]);
/// let wrong = serde_json::json!({ "hp_lots": 3 });
/// let e = read(&s, Fields::Facts("hit"), wrong.as_object().unwrap()).unwrap_err();
/// assert_eq!((e.code.as_str(), e.help.as_deref()), ("mettle::value::unknown_field", Some("did you mean `hp_lost`?")));
/// ```
pub fn read(
    s: &Session,
    fields: Fields<'_>,
    given: &serde_json::Map<String, Json>,
) -> Result<Vec<(String, Value)>, Diagnostic> {
    let (declared, what) = declared(s, fields)?;
    let mut out = vec![];
    for (name, v) in given {
        let Some(f) = declared.iter().find(|f| &f.name == name) else {
            let known: Vec<&str> = declared.iter().map(|f| f.name.as_str()).collect();
            return Err(Diagnostic::plain(
                "value::unknown_field",
                format!("there is no {what} called `{name}`"),
            )
            .with_help(suggest(name, &what, &known)));
        };
        out.push((f.name.clone(), value(s, &f.ty, v, &format!("{what} `{name}`"))?));
    }
    out.sort_by_key(|(n, _)| declared.iter().position(|f| &f.name == n));
    Ok(out)
}

/// One value `v` given for `name` of `fields`.
///
/// ```
/// use mettle::{Ruleset, Session};
/// use mettle::wire::{Fields, read_one};
/// let rules = Ruleset::from_str("r.mettle", "kind unit { morale: steady | shaken = steady }").unwrap();
/// let s = Session::new(&rules, 1);
/// let v = read_one(&s, Fields::Attributes("unit"), "morale", &serde_json::json!("shaken")).unwrap();
/// assert_eq!(rules.text_of(&v), "shaken");
/// let e = read_one(&s, Fields::Attributes("unit"), "morale", &serde_json::json!(3)).unwrap_err();
/// assert_eq!(e.code, "mettle::value::wrong_type");
/// ```
pub fn read_one(s: &Session, fields: Fields<'_>, name: &str, v: &Json) -> Result<Value, Diagnostic> {
    let mut given = serde_json::Map::new();
    given.insert(name.to_string(), v.clone());
    Ok(read(s, fields, &given)?.pop().map(|(_, v)| v).unwrap_or(Value::None))
}

/// The fields of `fields` and what one of them is called in a message.
fn declared<'s>(s: &'s Session, fields: Fields<'_>) -> Result<(Vec<&'s FieldDef>, String), Diagnostic> {
    let p = s.ruleset().program();
    let missing = |what: &str, name: &str, known: Vec<&str>| {
        Diagnostic::plain(
            format!("value::unknown_{what}").as_str(),
            format!("there is no {what} called `{name}`"),
        )
        .with_help(suggest(name, what, &known))
    };
    match fields {
        Fields::Facts(event) => match p.events.iter().find(|e| e.name == event) {
            Some(e) => Ok((e.facts.iter().collect(), format!("fact of event `{event}`"))),
            None => Err(missing("event", event, p.events.iter().map(|e| e.name.as_str()).collect())),
        },
        Fields::Attributes(kind) => match p.kinds.iter().find(|k| k.name == kind) {
            Some(k) => Ok((k.fields.iter().collect(), format!("attribute of a {kind}"))),
            None => Err(missing("kind", kind, p.kinds.iter().map(|k| k.name.as_str()).collect())),
        },
        Fields::Inputs(check) => match p.checks.iter().find(|c| c.name == check) {
            Some(c) => Ok((c.inputs.iter().map(|i| &i.field).collect(), format!("input of check `{check}`"))),
            None => Err(missing("check", check, p.checks.iter().map(|c| c.name.as_str()).collect())),
        },
        Fields::Options => Ok((p.options.iter().collect(), "option".to_string())),
    }
}

/// `v`, given for `what`, as a value of `ty`.
fn value(s: &Session, ty: &Ty, v: &Json, what: &str) -> Result<Value, Diagnostic> {
    let p = s.ruleset().program();
    let wrong = |wanted: &str| {
        Diagnostic::plain(
            crate::diagnostics::Code::WrongType.path(),
            format!("{what} is {v}, but it takes {wanted}"),
        )
        .with_help("numbers as numbers, yes/no as true/false, states and entities by name as strings")
    };
    match ty {
        // Whether a number is in range is the library's to say, where the value is used.
        Ty::Int { .. } | Ty::Pool => v.as_i64().map(Value::Int).ok_or_else(|| wrong("a whole number")),
        Ty::Flag => v.as_bool().map(Value::Bool).ok_or_else(|| wrong("true or false")),
        Ty::Name(id) => {
            let set = &p.sets[*id as usize];
            let Some(name) = v.as_str() else {
                return Err(wrong(&format!("a name: {}", set.names.join(", "))));
            };
            crate::values::name(p, *id, name, what)
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
///
/// ```
/// use mettle::{Ruleset, Session};
/// let rules = Ruleset::from_str("r.mettle", "kind unit { }\nkind side { }").unwrap();
/// let mut s = Session::new(&rules, 1);
/// let a = s.create("unit", "alpha", &[]).unwrap();
/// assert_eq!(mettle::wire::entity(&s, "alpha", None).unwrap(), a);
/// assert_eq!(mettle::wire::entity(&s, "alpah", None).unwrap_err().help.as_deref(), Some("did you mean `alpha`?"));
/// ```
pub fn entity(s: &Session, name: &str, kind: Option<u32>) -> Result<u32, Diagnostic> {
    let p = s.ruleset().program();
    match s.entity(name).and_then(|e| Some((e, s.state().entities().get(e)?.kind))) {
        Some((e, found)) => match kind {
            Some(k) if k != found => Err(Diagnostic::plain(
                "value::wrong_kind",
                format!("`{name}` is a {}, not a {}", p.kinds[found as usize].name, p.kinds[k as usize].name),
            )),
            _ => Ok(e),
        },
        None => {
            // Of a kind asked for, the names of that kind are the ones to suggest.
            let noun = kind.map_or("entity", |k| p.kinds[k as usize].name.as_str());
            let known: Vec<&str> = s
                .state()
                .entities()
                .iter()
                .filter(|(_, e)| kind.is_none_or(|k| e.kind == k))
                .map(|(_, e)| e.name.as_str())
                .collect();
            Err(Diagnostic::plain(
                "value::unknown_entity",
                format!("there is no {noun} in play called `{name}`"),
            )
            .with_help(suggest(name, noun, &known)))
        }
    }
}

/// An answer `v` to the choice called `choice`, read by the type of its answer.
///
/// ```
/// use mettle::{Ruleset, Session};
/// let rules = Ruleset::from_str("r.mettle", "event dare\non dare { choose risk \"How far?\" from 1..3 }").unwrap();
/// let s = Session::new(&rules, 1);
/// assert_eq!(mettle::wire::read_answer(&s, "risk", &serde_json::json!(2)).unwrap(), mettle::Value::Int(2));
/// assert_eq!(mettle::wire::read_answer(&s, "rsik", &serde_json::json!(2)).unwrap_err().code, "mettle::value::unknown_choice");
/// ```
pub fn read_answer(s: &Session, choice: &str, v: &Json) -> Result<Value, Diagnostic> {
    let p = s.ruleset().program();
    let Some(c) = p.choices.iter().find(|c| c.name == choice) else {
        let known: Vec<&str> = p.choices.iter().map(|c| c.name.as_str()).collect();
        return Err(Diagnostic::plain(
            "value::unknown_choice",
            format!("there is no choice called `{choice}`"),
        )
        .with_help(suggest(choice, "choice", &known)));
    };
    value(s, &c.ty, v, &format!("the answer to `{choice}`"))
}
