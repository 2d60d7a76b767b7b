//! Values written as text through a ruleset (`shaken`, `3`, `yes`) and back, for hosts that hold
//! names rather than indices; and values converted to and from Rust numbers and yes/no.

use crate::Ruleset;
use crate::diagnostics::{Diagnostic, suggest};
use crate::program::{KindId, Program, Ty, Value};

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

/// `text` read as a value of type `ty`, for `what`: the one reader of values written as text, for
/// hosts ([`Ruleset::value`]), the REPL's commands and, through [`name`], the JSON of `serve` and the
/// packages. Entities are read by [`parse_in`], which knows who is in play.
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
        Ty::Name(set) => name(p, *set, text, what),
        _ => Err(bad(
            "not_text",
            format!("{what} is not written as text"),
            "entities are found by name with `Session::entity`; data is JSON".into(),
        )),
    }
}

/// [`parse`], and an entity in play by its name (`none` for none), for a reader with a session.
pub(crate) fn parse_in(s: &crate::Session, ty: &Ty, text: &str, what: &str) -> Result<Value, Diagnostic> {
    match ty {
        Ty::Entity(_) if text.trim() == "none" => Ok(Value::None),
        Ty::Entity(k) => crate::wire::entity(s, text.trim(), Some(*k)).map(Value::Entity),
        ty => parse(s.ruleset().program(), ty, text, what),
    }
}

/// The name `text` of name set `set`, for `what`, with a "did you mean" when it is none of them.
pub(crate) fn name(p: &Program, set: u32, text: &str, what: &str) -> Result<Value, Diagnostic> {
    let names = &p.sets[set as usize].names;
    match names.iter().position(|n| n == text) {
        Some(i) => Ok(Value::Name { set, index: i as u32 }),
        None => {
            let known: Vec<&str> = names.iter().map(String::as_str).collect();
            Err(bad("unknown_name", format!("{what} cannot be `{text}`"), suggest(text, "name", &known)))
        }
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

/// A value was not of the type it was read as ([`Value::as_int`]'s `TryFrom` forms).
///
/// ```
/// let e = i64::try_from(&mettle::Value::Bool(true)).unwrap_err();
/// assert_eq!(e.to_string(), "expected a number, got yes/no");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrongType {
    /// What was asked for: `a number`, `yes/no`, `an entity`.
    pub expected: &'static str,
    /// What the value is, in the same words.
    pub found: &'static str,
}

impl std::fmt::Display for WrongType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "expected {}, got {}", self.expected, self.found)
    }
}

impl std::error::Error for WrongType {}

impl Value {
    /// What kind of value this is, in words (`a number`, `yes/no`, `a name`, `an entity`, `none`,
    /// `dice`, `a check's result`, `data`).
    ///
    /// ```
    /// assert_eq!(mettle::Value::Int(3).kind_words(), "a number");
    /// ```
    pub fn kind_words(&self) -> &'static str {
        match self {
            Value::Int(_) => "a number",
            Value::Bool(_) => "yes/no",
            Value::Name { .. } => "a name",
            Value::Entity(_) => "an entity",
            Value::None => "none",
            Value::Pool(_) => "dice",
            Value::Result(_) => "a check's result",
            Value::Data(_) => "data",
        }
    }

    /// The number this is: a number, or the value of rolled dice; `None` for anything else.
    ///
    /// ```
    /// use mettle::Value;
    /// assert_eq!(Value::Int(4).as_int(), Some(4));
    /// assert_eq!(Value::Bool(true).as_int(), None);
    /// ```
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            Value::Pool(p) => Some(p.value),
            _ => None,
        }
    }

    /// Yes or no, for a flag; `None` for anything else.
    ///
    /// ```
    /// assert_eq!(mettle::Value::Bool(false).as_bool(), Some(false));
    /// assert_eq!(mettle::Value::Int(0).as_bool(), None);
    /// ```
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The id of the entity this names; `None` for anything else (`Value::None` included).
    ///
    /// ```
    /// assert_eq!(mettle::Value::Entity(2).as_entity(), Some(2));
    /// assert_eq!(mettle::Value::None.as_entity(), None);
    /// ```
    pub fn as_entity(&self) -> Option<u32> {
        match self {
            Value::Entity(e) => Some(*e),
            _ => None,
        }
    }
}

impl From<i64> for Value {
    /// A number.
    fn from(x: i64) -> Value {
        Value::Int(x)
    }
}

impl From<bool> for Value {
    /// Yes or no.
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl TryFrom<&Value> for i64 {
    type Error = WrongType;
    /// The number, as [`Value::as_int`] reads it; anything else is an error that says what it was.
    fn try_from(v: &Value) -> Result<i64, WrongType> {
        v.as_int().ok_or(WrongType { expected: "a number", found: v.kind_words() })
    }
}

impl TryFrom<Value> for i64 {
    type Error = WrongType;
    fn try_from(v: Value) -> Result<i64, WrongType> {
        i64::try_from(&v)
    }
}

impl TryFrom<&Value> for bool {
    type Error = WrongType;
    /// Yes or no; anything else is an error that says what it was.
    fn try_from(v: &Value) -> Result<bool, WrongType> {
        v.as_bool().ok_or(WrongType { expected: "yes/no", found: v.kind_words() })
    }
}

impl TryFrom<Value> for bool {
    type Error = WrongType;
    fn try_from(v: Value) -> Result<bool, WrongType> {
        bool::try_from(&v)
    }
}

impl Ruleset {
    /// The name of kind `kind` (an entity's [`crate::session::Entity::kind`]), as the ruleset spells
    /// it; `None` for a kind the ruleset lacks.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("k.mettle", "kind unit { hp: 0.. = 3 }  kind banner { }").unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// let id = s.create("banner", "red", &[]).unwrap();
    /// let kind = s.state().entities().get(id).unwrap().kind;
    /// assert_eq!(rules.kind_name(kind), Some("banner"));
    /// assert_eq!(rules.kind_name(7), None);
    /// ```
    pub fn kind_name(&self, kind: KindId) -> Option<&str> {
        self.program().kinds.get(kind as usize).map(|k| k.name.as_str())
    }

    /// The name a name value stands for (`shaken`), as the ruleset spells it; `None` for a value that
    /// is not a name of this ruleset. The other way is [`Ruleset::value`].
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("n.mettle", "kind unit { morale: steady | shaken = steady }").unwrap();
    /// let v = rules.value("morale", "shaken").unwrap();
    /// assert_eq!(rules.name_of(&v), Some("shaken"));
    /// assert_eq!(rules.name_of(&mettle::Value::Int(1)), None);
    /// ```
    pub fn name_of(&self, v: &Value) -> Option<&str> {
        match v {
            Value::Name { set, index } => {
                self.program().sets.get(*set as usize)?.names.get(*index as usize).map(String::as_str)
            }
            _ => None,
        }
    }
}
