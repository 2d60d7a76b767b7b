//! Data shapes: the declared form of the lists and records a host passes with an event, and the
//! check that data has that form (filling in what may be left out) before any rule or script sees it.

use crate::ast::Span;
use crate::diagnostics::Code;
use serde::{Deserialize, Serialize};
use serde_json::Value as J;

/// Index of a shape in [`crate::program::Program::shapes`].
pub type ShapeId = u32;

/// Records and lists nested inside one piece of data, at most (the shape's own depth is capped the
/// same way when the ruleset is checked).
pub const MAX_DEPTH: usize = 64;

/// `shape NAME { fields }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shape {
    /// Its name.
    pub name: String,
    /// Doc comment.
    pub doc: Option<String>,
    /// Its fields.
    pub fields: Vec<ShapeField>,
    /// Where it is defined.
    pub span: Span,
}

/// A field of a shape or of a record inside one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShapeField {
    /// Its name.
    pub name: String,
    /// Doc comment.
    pub doc: Option<String>,
    /// What it holds.
    pub ty: ShapeTy,
    /// The value used when the field is left out (or given as `none`); a field without one must be
    /// given. `none` (JSON null) makes the field optional.
    // Left out when there is none, so that `none`'s null reads back as a default, not as no default.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "given")]
    pub default: Option<J>,
    /// Where it is defined.
    pub span: Span,
}

/// A field's default as written, `null` included.
fn given<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<J>, D::Error> {
    J::deserialize(d).map(Some)
}

/// What a field of a shape holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ShapeTy {
    /// A whole number within bounds.
    Int {
        /// Lowest allowed.
        lo: Option<i64>,
        /// Highest allowed.
        hi: Option<i64>,
    },
    /// yes / no.
    Flag,
    /// Text.
    Text,
    /// One of these names, given as text.
    Names(Vec<String>),
    /// `list of T`.
    List(Box<ShapeTy>),
    /// `{ fields }`.
    Record(Vec<ShapeField>),
    /// Another shape, by index.
    Shape(ShapeId),
    /// `data`: anything (still within the depth and size limits).
    Any,
}

/// One step of the path to a value inside data: a field or a list position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// `.name`
    Key(String),
    /// `[i]`, from 0.
    Index(usize),
}

/// Data that does not have its shape: which value, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataError {
    /// What is wrong: one of the `mettle::data::…` codes.
    pub code: Code,
    /// The steps to the value the error is about (for a missing field, to the record that lacks it).
    pub at: Vec<Step>,
    /// One sentence, naming the value by its path (`seen.enemies[2].distance`).
    pub message: String,
    /// How to fix it.
    pub help: String,
}

/// The path `root.a[2].b` of a value.
pub fn path(root: &str, steps: &[Step]) -> String {
    let mut out = root.to_string();
    for s in steps {
        match s {
            Step::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// Words for a shape type: "a number at least 0", "a list of records", "one of orc | goblin".
pub fn ty_words(shapes: &[Shape], ty: &ShapeTy) -> String {
    match ty {
        ShapeTy::Int { lo, hi } => match (lo, hi) {
            (None, None) => "a whole number".into(),
            _ => format!("a whole number {}", crate::check::range_words(*lo, *hi)),
        },
        ShapeTy::Flag => "yes or no".into(),
        ShapeTy::Text => "text".into(),
        ShapeTy::Names(n) => format!("one of {}", n.join(" | ")),
        ShapeTy::List(t) => format!("a list of {}", plural(shapes, t)),
        ShapeTy::Record(_) => "a record `{…}`".into(),
        ShapeTy::Shape(s) => format!("a `{}`", shapes.get(*s as usize).map_or("?", |s| s.name.as_str())),
        ShapeTy::Any => "data".into(),
    }
}

fn plural(shapes: &[Shape], ty: &ShapeTy) -> String {
    match ty {
        ShapeTy::Int { .. } => "whole numbers".into(),
        ShapeTy::Flag => "yes/no values".into(),
        ShapeTy::Text => "texts".into(),
        ShapeTy::Record(_) => "records".into(),
        ShapeTy::Shape(s) => format!("`{}`s", shapes.get(*s as usize).map_or("?", |s| s.name.as_str())),
        other => format!("({})", ty_words(shapes, other)),
    }
}

/// Words for a value as the host gave it.
fn value_words(v: &J) -> String {
    match v {
        J::Null => "none".into(),
        J::Bool(b) => if *b { "yes" } else { "no" }.into(),
        J::Number(n) => n.to_string(),
        J::String(s) if s.chars().count() <= 20 => format!("the text {s:?}"),
        J::String(_) => "text".into(),
        J::Array(a) => format!("a list of {}", a.len()),
        J::Object(_) => "a record".into(),
    }
}

/// Checks `value` against `ty`, which is named `root` in messages, and returns it with every field
/// left out filled in from its default. At most `budget` values are looked at (a longer list is
/// `too_large`), and nothing deeper than [`MAX_DEPTH`].
///
/// ```
/// use mettle::internals::shape::{conform, ShapeTy};
/// let ty = ShapeTy::List(Box::new(ShapeTy::Int { lo: Some(0), hi: None }));
/// assert!(conform(&[], &ty, &serde_json::json!([1, 2]), "distances", 100).is_ok());
/// let e = conform(&[], &ty, &serde_json::json!([1, -2]), "distances", 100).unwrap_err();
/// assert_eq!(e.code, mettle::diagnostics::Code::DataOutOfRange);
/// assert_eq!(e.message, "`distances[1]` is -2, but it must be at least 0");
/// ```
pub fn conform(shapes: &[Shape], ty: &ShapeTy, value: &J, root: &str, budget: u64) -> Result<J, DataError> {
    let mut c = Conformer { shapes, root, steps: vec![], seen: 0, budget: budget.max(1) };
    c.value(ty, value)
}

struct Conformer<'a> {
    shapes: &'a [Shape],
    root: &'a str,
    steps: Vec<Step>,
    seen: u64,
    budget: u64,
}

impl Conformer<'_> {
    fn error(&self, code: Code, message: String, help: String) -> DataError {
        DataError { code, at: self.steps.clone(), message, help }
    }

    fn here(&self) -> String {
        path(self.root, &self.steps)
    }

    /// Counts one more value and one more level; an error past the budget or the depth.
    fn enter(&mut self) -> Result<(), DataError> {
        self.seen += 1;
        if self.seen > self.budget {
            return Err(self.error(
                Code::DataTooLarge,
                format!("`{}` holds more than {} values", self.root, self.budget),
                "send less data, or raise the budget with `--budget data_values=N`".into(),
            ));
        }
        if self.steps.len() > MAX_DEPTH {
            return Err(self.error(
                Code::DataTooDeep,
                format!("`{}` nests lists and records more than {MAX_DEPTH} deep", self.root),
                "flatten the data".into(),
            ));
        }
        Ok(())
    }

    fn value(&mut self, ty: &ShapeTy, v: &J) -> Result<J, DataError> {
        self.enter()?;
        let shapes = self.shapes;
        match (ty, v) {
            (ShapeTy::Any, _) => {
                self.any(v)?;
                Ok(v.clone())
            }
            (ShapeTy::Int { lo, hi }, J::Number(n)) if n.as_i64().is_some() => {
                let x = n.as_i64().unwrap_or_default();
                if lo.is_some_and(|l| x < l) || hi.is_some_and(|h| x > h) {
                    let words = crate::check::range_words(*lo, *hi);
                    return Err(self.error(
                        Code::DataOutOfRange,
                        format!("`{}` is {x}, but it must be {words}", self.here()),
                        format!("give a number {words}"),
                    ));
                }
                Ok(v.clone())
            }
            (ShapeTy::Flag, J::Bool(_)) | (ShapeTy::Text, J::String(_)) => Ok(v.clone()),
            (ShapeTy::Names(names), J::String(s)) => {
                if names.contains(s) {
                    Ok(v.clone())
                } else {
                    let known: Vec<&str> = names.iter().map(String::as_str).collect();
                    Err(self.error(
                        Code::DataUnknownName,
                        format!("`{}` is {s:?}, which is not one of {}", self.here(), names.join(" | ")),
                        crate::diagnostics::suggest(s, "name", &known),
                    ))
                }
            }
            (ShapeTy::List(item), J::Array(items)) => {
                let mut out = Vec::with_capacity(items.len().min(1024));
                for (i, x) in items.iter().enumerate() {
                    self.steps.push(Step::Index(i));
                    out.push(self.value(item, x)?);
                    self.steps.pop();
                }
                Ok(J::Array(out))
            }
            (ShapeTy::Record(fields), J::Object(map)) => self.record(fields, map),
            (ShapeTy::Shape(s), J::Object(map)) => match shapes.get(*s as usize) {
                Some(shape) => self.record(&shape.fields, map),
                None => Ok(v.clone()),
            },
            _ => {
                let want = ty_words(shapes, ty);
                Err(self.error(
                    Code::DataWrongType,
                    format!("`{}` is {}, but it must be {want}", self.here(), value_words(v)),
                    format!("give {want}"),
                ))
            }
        }
    }

    fn record(&mut self, fields: &[ShapeField], map: &serde_json::Map<String, J>) -> Result<J, DataError> {
        if let Some(extra) = map.keys().find(|k| !fields.iter().any(|f| f.name == **k)) {
            let known: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
            let mut e = self.error(
                Code::DataUnknownField,
                format!("`{}` has no field `{extra}`", self.here()),
                if known.is_empty() {
                    "this record has no fields: leave it empty".into()
                } else {
                    crate::diagnostics::suggest(extra, "field", &known)
                },
            );
            e.at.push(Step::Key(extra.clone()));
            return Err(e);
        }
        let mut out = serde_json::Map::new();
        for f in fields {
            let v = match map.get(&f.name) {
                Some(v) if !v.is_null() => {
                    self.steps.push(Step::Key(f.name.clone()));
                    let v = self.value(&f.ty, v)?;
                    self.steps.pop();
                    v
                }
                given => match &f.default {
                    Some(d) => d.clone(),
                    None => {
                        let how = if given.is_some() { "is none" } else { "is missing" };
                        return Err(self.error(
                            Code::DataMissingField,
                            format!("`{}.{}` {how}, and it has no default", self.here(), f.name),
                            format!("give `{}`: {}", f.name, ty_words(self.shapes, &f.ty)),
                        ));
                    }
                },
            };
            out.insert(f.name.clone(), v);
        }
        Ok(J::Object(out))
    }

    /// Anything, within the depth and size limits.
    fn any(&mut self, v: &J) -> Result<(), DataError> {
        match v {
            J::Array(items) => {
                for (i, x) in items.iter().enumerate() {
                    self.steps.push(Step::Index(i));
                    self.enter()?;
                    self.any(x)?;
                    self.steps.pop();
                }
            }
            J::Object(map) => {
                for (k, x) in map {
                    self.steps.push(Step::Key(k.clone()));
                    self.enter()?;
                    self.any(x)?;
                    self.steps.pop();
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// A field type as written in a ruleset: `0..`, `text`, `list of { name: text, distance: 0.. }`.
pub fn written(shapes: &[Shape], ty: &ShapeTy) -> String {
    match ty {
        ShapeTy::Int { lo: None, hi: None } => "int".into(),
        ShapeTy::Int { lo, hi } => format!(
            "{}..{}",
            lo.map(|l| l.to_string()).unwrap_or_default(),
            hi.map(|h| h.to_string()).unwrap_or_default()
        ),
        ShapeTy::Flag => "flag".into(),
        ShapeTy::Text => "text".into(),
        ShapeTy::Names(n) => n.join(" | "),
        ShapeTy::List(t) => format!("list of {}", written(shapes, t)),
        ShapeTy::Record(fields) => {
            let inner: Vec<String> = fields.iter().map(|f| field_written(shapes, f)).collect();
            format!("{{ {} }}", inner.join(", "))
        }
        ShapeTy::Shape(s) => shapes.get(*s as usize).map_or("?".into(), |s| s.name.clone()),
        ShapeTy::Any => "data".into(),
    }
}

/// A field as written: `distance: 0.. = 0`.
pub fn field_written(shapes: &[Shape], f: &ShapeField) -> String {
    let default = f.default.as_ref().map(|d| format!(" = {}", value_written(d))).unwrap_or_default();
    format!("{}: {}{default}", f.name, written(shapes, &f.ty))
}

/// A default as written: `no`, `none`, `[]`, `"gate"`.
pub fn value_written(v: &J) -> String {
    match v {
        J::Null => "none".into(),
        J::Bool(b) => if *b { "yes" } else { "no" }.into(),
        J::Array(a) if a.is_empty() => "[]".into(),
        J::Object(m) if m.is_empty() => "{}".into(),
        other => other.to_string(),
    }
}

/// Data of a shape without the fields that hold just their defaults (recursively), as the log shows
/// it: what the host said, not what mettle filled in.
pub fn without_defaults(shapes: &[Shape], ty: &ShapeTy, v: &J) -> J {
    let fields = match ty {
        ShapeTy::Record(f) => f.as_slice(),
        ShapeTy::Shape(s) => shapes.get(*s as usize).map_or(&[][..], |s| s.fields.as_slice()),
        ShapeTy::List(item) => {
            return match v {
                J::Array(items) => {
                    J::Array(items.iter().map(|x| without_defaults(shapes, item, x)).collect())
                }
                other => other.clone(),
            };
        }
        _ => return v.clone(),
    };
    let J::Object(map) = v else { return v.clone() };
    let mut out = serde_json::Map::new();
    for (k, x) in map {
        match fields.iter().find(|f| f.name == *k) {
            Some(f) if f.default.as_ref() == Some(x) => {}
            Some(f) => {
                out.insert(k.clone(), without_defaults(shapes, &f.ty, x));
            }
            None => {
                out.insert(k.clone(), x.clone());
            }
        }
    }
    J::Object(out)
}
