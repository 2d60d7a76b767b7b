//! Values written on a command line (`:roll morale spi=2`): numbers, yes/no, names and entities.

use crate::diagnostics::{Diagnostic, suggest};
use crate::program::{FieldDef, Ty, Value};
use crate::session::Session;

fn bad(code: &str, message: String, help: String) -> Diagnostic {
    Diagnostic::plain(&format!("repl::{code}"), message).with_help(help)
}

/// Reads `text` as a value of `ty` for `what` (such as "input `spi`").
pub(super) fn value(s: &Session, ty: &Ty, text: &str, what: &str) -> Result<Value, Diagnostic> {
    let p = s.ruleset().program();
    match ty {
        Ty::Int { lo, hi } => match text.parse::<i64>() {
            Ok(x) if lo.is_some_and(|l| x < l) || hi.is_some_and(|h| x > h) => Err(bad(
                "bad_value",
                format!("{what} cannot be {x}"),
                format!("give a value {}", crate::check::range_words(*lo, *hi)),
            )),
            Ok(x) => Ok(Value::Int(x)),
            Err(_) => Err(bad(
                "bad_value",
                format!("{what} is a number, not `{text}`"),
                "give a whole number".into(),
            )),
        },
        Ty::Flag => match text {
            "yes" | "true" | "on" => Ok(Value::Bool(true)),
            "no" | "false" | "off" => Ok(Value::Bool(false)),
            _ => Err(bad(
                "bad_value",
                format!("{what} is yes or no, not `{text}`"),
                "give `yes` or `no`".into(),
            )),
        },
        Ty::Name(set) => {
            let names = &p.sets[*set as usize].names;
            match names.iter().position(|n| n == text) {
                Some(i) => Ok(Value::Name { set: *set, index: i as u32 }),
                None => {
                    let known: Vec<&str> = names.iter().map(|n| n.as_str()).collect();
                    Err(bad("bad_value", format!("{what} cannot be `{text}`"), suggest(text, "name", &known)))
                }
            }
        }
        Ty::Entity(k) => {
            if text == "none" {
                return Ok(Value::None);
            }
            let kind = &p.kinds[*k as usize].name;
            let ents = &s.state().entities;
            match ents.iter().find(|(_, e)| e.name == text && e.kind == *k) {
                Some((id, _)) => Ok(Value::Entity(id)),
                None => {
                    let known: Vec<&str> =
                        ents.iter().filter(|(_, e)| e.kind == *k).map(|(_, e)| e.name.as_str()).collect();
                    Err(bad(
                        "bad_value",
                        format!("{what} must be a {kind}; there is no {kind} called `{text}`"),
                        suggest(text, kind, &known),
                    ))
                }
            }
        }
        _ => Err(bad(
            "bad_value",
            format!("{what} cannot be given on a command line"),
            "use the statement form at the prompt instead".into(),
        )),
    }
}

/// Reads `name=value` words against `fields` (the inputs of a check, the facts of an event).
pub(super) fn assignments(
    s: &Session,
    words: &[&str],
    fields: &[&FieldDef],
    owner: &str,
    what: &str,
) -> Result<Vec<(String, Value)>, Diagnostic> {
    let mut out = vec![];
    for w in words {
        let Some((name, text)) = w.split_once('=') else {
            return Err(bad(
                "bad_argument",
                format!("`{w}` needs the form NAME=VALUE"),
                format!("for example `{}=3`", fields.first().map_or("name", |f| f.name.as_str())),
            ));
        };
        let Some(f) = fields.iter().find(|f| f.name == name) else {
            let known: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
            return Err(bad(
                &format!("unknown_{what}"),
                format!("`{owner}` has no {what} `{name}`"),
                suggest(name, what, &known),
            ));
        };
        out.push((name.to_string(), value(s, &f.ty, text, &format!("{what} `{name}`"))?));
    }
    Ok(out)
}
