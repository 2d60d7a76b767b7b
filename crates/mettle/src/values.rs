//! Values written as text through a ruleset (`shaken`, `3`, `yes`) and back, for hosts that hold
//! names rather than indices.

use crate::Ruleset;
use crate::diagnostics::{Diagnostic, suggest};
use crate::program::{Program, Ty, Value};

fn bad(code: &str, message: String, help: String) -> Diagnostic {
    Diagnostic::plain(&format!("value::{code}"), message).with_help(help)
}

/// Everything with a type that a host can name: named sets first, then attributes, options,
/// choices, check inputs and event facts, in the ruleset's order.
fn typed(p: &Program) -> Vec<(&str, Ty)> {
    let mut out: Vec<(&str, Ty)> =
        p.sets.iter().enumerate().map(|(i, s)| (s.name.as_str(), Ty::Name(i as u32))).collect();
    for k in &p.kinds {
        out.extend(k.fields.iter().map(|f| (f.name.as_str(), f.ty.clone())));
    }
    out.extend(p.options.iter().map(|o| (o.name.as_str(), o.ty.clone())));
    out.extend(p.choices.iter().map(|c| (c.name.as_str(), c.ty.clone())));
    for c in &p.checks {
        out.extend(c.inputs.iter().map(|i| (i.field.name.as_str(), i.field.ty.clone())));
    }
    for e in &p.events {
        out.extend(e.facts.iter().map(|f| (f.name.as_str(), f.ty.clone())));
    }
    out
}

/// `text` read as a value of type `ty`, for `what`.
pub(crate) fn parse(p: &Program, ty: &Ty, text: &str, what: &str) -> Result<Value, Diagnostic> {
    let text = text.trim();
    match ty {
        Ty::Int { lo, hi } => match text.parse::<i64>() {
            Ok(x) if lo.is_some_and(|l| x < l) || hi.is_some_and(|h| x > h) => Err(bad(
                "out_of_range",
                format!("{what} cannot be {x}"),
                format!("give a number {}", crate::check::range_words(*lo, *hi)),
            )),
            Ok(x) => Ok(Value::Int(x)),
            Err(_) => Err(bad(
                "not_a_number",
                format!("{what} is a number, not `{text}`"),
                "give a whole number".into(),
            )),
        },
        Ty::Flag => match text {
            "yes" => Ok(Value::Bool(true)),
            "no" => Ok(Value::Bool(false)),
            _ => Err(bad(
                "not_a_flag",
                format!("{what} is yes or no, not `{text}`"),
                "give `yes` or `no`".into(),
            )),
        },
        Ty::Name(set) => {
            let names = &p.sets[*set as usize].names;
            match names.iter().position(|n| n == text) {
                Some(i) => Ok(Value::Name { set: *set, index: i as u32 }),
                None => {
                    let known: Vec<&str> = names.iter().map(String::as_str).collect();
                    Err(bad(
                        "unknown_name",
                        format!("{what} cannot be `{text}`"),
                        suggest(text, "name", &known),
                    ))
                }
            }
        }
        _ => Err(bad(
            "not_text",
            format!("{what} is not written as text"),
            "entities are found by name with `Session::entity`; data is JSON".into(),
        )),
    }
}

impl Ruleset {
    /// The value written `text` of the type of `of`: a named set or ladder, or anything with a type
    /// (an attribute, option, choice, check input or event fact) called `of`. Names of a set, whole
    /// numbers within range, and `yes`/`no` are read; a wrong name gets a "did you mean".
    ///
    /// ```
    /// use mettle::{Ruleset, Value};
    /// let rules = Ruleset::from_str("v.mettle", "kind unit { morale: steady | shaken = steady  spi: 0..6 = 3  hero: flag = no }").unwrap();
    /// let shaken = rules.value("morale", "shaken").unwrap();
    /// assert_eq!(rules.text_of(&shaken), "shaken");
    /// assert_eq!(rules.value("spi", "4").unwrap(), Value::Int(4));
    /// assert_eq!(rules.value("hero", "yes").unwrap(), Value::Bool(true));
    /// let e = rules.value("morale", "shakn").unwrap_err();
    /// assert_eq!((e.code.as_str(), e.help.as_deref()), ("mettle::value::unknown_name", Some("did you mean `shaken`?")));
    /// assert_eq!(rules.value("spi", "9").unwrap_err().code, "mettle::value::out_of_range");
    /// assert_eq!(rules.value("moral", "shaken").unwrap_err().help.as_deref(), Some("did you mean `morale`?"));
    /// ```
    pub fn value(&self, of: &str, text: &str) -> Result<Value, Diagnostic> {
        let p = self.program();
        let all = typed(p);
        match all.iter().find(|(n, _)| *n == of) {
            Some((_, ty)) => parse(p, ty, text, &format!("`{of}`")),
            None => {
                let known: Vec<&str> = all.iter().map(|(n, _)| *n).collect();
                Err(bad(
                    "unknown_type",
                    format!("nothing in the ruleset is called `{of}`"),
                    suggest(of, "name", &known),
                ))
            }
        }
    }

    /// A value as text, as [`Ruleset::value`] reads it back: a name, a number, `yes` or `no`, and
    /// `none`. Entities are shown by id (`#0`): a session knows their names ([`crate::Session::show`]).
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("t.mettle", "kind unit { spi: 0..6 = 3 }").unwrap();
    /// assert_eq!(rules.text_of(&mettle::Value::Int(3)), "3");
    /// assert_eq!(rules.text_of(&mettle::Value::Bool(false)), "no");
    /// ```
    pub fn text_of(&self, v: &Value) -> String {
        match v {
            Value::Entity(e) => format!("#{e}"),
            v => crate::Session::new(self, 0).show(v),
        }
    }
}
