//! Values written on a command line (`:roll morale spi=2`): numbers, yes/no, names and entities.

use crate::diagnostics::{Diagnostic, suggest};
use crate::program::{FieldDef, Ty, Value};
use crate::session::Session;

fn bad(code: &str, message: String, help: String) -> Diagnostic {
    Diagnostic::plain(&format!("repl::{code}"), message).with_help(help)
}

/// Reads `text` as a value of `ty` for `what` (such as "input `spi`"), as a host's text is read
/// ([`crate::values::parse_in`]); data and shapes are given in statements at the prompt.
pub(super) fn value(s: &Session, ty: &Ty, text: &str, what: &str) -> Result<Value, Diagnostic> {
    match ty {
        Ty::Data | Ty::Shape(_) | Ty::Pool | Ty::Result(_) | Ty::Text | Ty::None | Ty::Error => Err(bad(
            "bad_value",
            format!("{what} cannot be given on a command line"),
            "use the statement form at the prompt instead".into(),
        )),
        ty => crate::values::parse_in(s, ty, text, what),
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
