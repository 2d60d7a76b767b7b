//! Checking shapes: their fields and defaults, that no shape holds itself, and data literals written
//! for a shape.

use super::Checker;
use super::expr::T;
use crate::ast::{self, ExprKind, Span, TypeKind, UnOp};
use crate::diagnostics::{Code, Diagnostic, suggest_or};
use crate::program::{Expr, Ty, Value};
use crate::shape::{self, DataError, ShapeField, ShapeId, ShapeTy};
use serde_json::Value as J;

/// Values one data literal of a ruleset may hold (the ruleset's own size bounds it long before).
const LITERAL_VALUES: u64 = u64::MAX;

impl Checker<'_> {
    /// The fields of a shape or of a record inside one.
    pub(super) fn shape_fields(&mut self, fields: &[ast::Field]) -> Vec<ShapeField> {
        let mut out: Vec<ShapeField> = vec![];
        for f in fields {
            if let Some(prev) = out.iter().find(|p| p.name == f.name.name) {
                let prev = prev.span;
                self.error(
                    Diagnostic::error(
                        "resolve::duplicate",
                        format!("field `{}` is defined twice", f.name.name),
                        f.name.span,
                        "defined again here",
                    )
                    .with_label(prev, "first defined here")
                    .with_help("remove one of them or rename it"),
                );
                continue;
            }
            if f.strict {
                self.error(
                    Diagnostic::error(
                        "resolve::strict_not_number",
                        format!(
                            "field `{}` of a shape cannot be `strict`: data is checked, never clamped",
                            f.name.name
                        ),
                        f.span,
                        "not for shapes",
                    )
                    .with_help("remove `, strict`"),
                );
            }
            let ty = self.shape_ty(&f.ty);
            let default = f.default.as_ref().and_then(|d| self.shape_default(d, &ty, &f.name.name));
            out.push(ShapeField {
                name: f.name.name.clone(),
                doc: f.doc.clone(),
                ty,
                default,
                span: f.name.span,
            });
        }
        out
    }

    fn shape_ty(&mut self, t: &ast::TypeExpr) -> ShapeTy {
        match &t.kind {
            TypeKind::Range { lo, hi } => match self.ty(t, "") {
                Ty::Int { .. } => ShapeTy::Int { lo: *lo, hi: *hi },
                _ => ShapeTy::Any,
            },
            TypeKind::Flag => ShapeTy::Flag,
            TypeKind::Text => ShapeTy::Text,
            TypeKind::Data => ShapeTy::Any,
            TypeKind::Names(names) => {
                let mut out: Vec<String> = vec![];
                for n in names {
                    if out.contains(&n.name) {
                        self.error(
                            Diagnostic::error(
                                "resolve::duplicate",
                                format!("`{}` is listed twice", n.name),
                                n.span,
                                "listed again here",
                            )
                            .with_help("remove one of them"),
                        );
                    } else {
                        out.push(n.name.clone());
                    }
                }
                ShapeTy::Names(out)
            }
            TypeKind::List(item) => ShapeTy::List(Box::new(self.shape_ty(item))),
            TypeKind::Record(fields) => ShapeTy::Record(self.shape_fields(fields)),
            TypeKind::Named(id) => {
                if let Some(&s) = self.shapes.get(&id.name) {
                    ShapeTy::Shape(s)
                } else if let Some(&set) = self.ladders.get(&id.name) {
                    ShapeTy::Names(self.prog.sets[set as usize].names.clone())
                } else if self.kinds.contains_key(&id.name) {
                    self.error(
                        Diagnostic::error(
                            "resolve::shape_type",
                            format!("a shape cannot hold a `{}`: data from a host holds no entities", id.name),
                            id.span,
                            "an entity kind",
                        )
                        .with_help("name it by text (`name: text`) and pass the entity itself as a fact of the event"),
                    );
                    ShapeTy::Any
                } else {
                    let mut known: Vec<&str> = self.shapes.keys().map(|s| s.as_str()).collect();
                    known.extend(self.ladders.keys().map(|s| s.as_str()));
                    known.extend(["flag", "int", "text", "data"]);
                    let help = suggest_or(
                        &id.name,
                        "type",
                        &known,
                        "a shape's field is a range such as `0..`, `flag`, `int`, `text`, names such as `a | b`, `list of …`, a record `{ … }`, or another shape",
                    );
                    self.error(
                        Diagnostic::error(
                            "resolve::unknown_type",
                            format!("there is no shape or ladder called `{}`", id.name),
                            id.span,
                            "unknown type",
                        )
                        .with_help(help),
                    );
                    ShapeTy::Any
                }
            }
        }
    }

    /// A field's default: a constant of its type, such as `no`, `0`, `none`, `[]` or `"gate"`.
    fn shape_default(&mut self, e: &ast::Expr, ty: &ShapeTy, name: &str) -> Option<J> {
        let value = match &e.kind {
            ExprKind::Int(i) => Some(J::from(*i)),
            ExprKind::Unary(UnOp::Neg, x) => match x.kind {
                ExprKind::Int(i) => i.checked_neg().map(J::from),
                _ => None,
            },
            ExprKind::Bool(b) => Some(J::Bool(*b)),
            ExprKind::None => return Some(J::Null),
            ExprKind::Str(s) => Some(J::String(s.clone())),
            ExprKind::Name(n) => Some(J::String(n.name.clone())),
            ExprKind::Data(d) => Some(d.clone()),
            _ => None,
        };
        let Some(value) = value else {
            self.error(
                Diagnostic::error(
                    "resolve::not_constant",
                    format!("the default of `{name}` must be a constant"),
                    e.span,
                    "not a plain value",
                )
                .with_help("write a plain value such as `0`, `no`, `none`, `[]` or `\"text\"`"),
            );
            return None;
        };
        match shape::conform(&self.prog.shapes, ty, &value, name, LITERAL_VALUES) {
            Ok(v) => Some(v),
            Err(err) => {
                self.data_error(err, e.span, matches!(e.kind, ExprKind::Data(_)));
                None
            }
        }
    }

    /// Reports data that does not fit its shape, at the value inside the literal at `lit`.
    fn data_error(&mut self, err: DataError, lit: Span, literal: bool) {
        let span = if literal {
            crate::syntax::data_span(self.text, lit, &err.at, err.code == Code::DataUnknownField)
        } else {
            lit
        };
        let label = match err.code {
            Code::DataMissingField => "this record lacks it",
            Code::DataUnknownField => "not a field of the shape",
            Code::DataOutOfRange => "out of range",
            Code::DataUnknownName => "not one of the names",
            _ => "not of the shape",
        };
        self.error(Diagnostic::error(err.code.path(), err.message, span, label).with_help(err.help));
    }

    /// Every shape holds only others that do not hold it, at most [`shape::MAX_DEPTH`] deep.
    pub(super) fn shape_depths(&mut self) {
        let n = self.prog.shapes.len();
        // The depth of each shape through the shapes it names: None while it is being measured.
        let mut depth: Vec<Option<Option<usize>>> = vec![None; n];
        for s in 0..n {
            let mut path = vec![];
            if let Err(cycle) = self.shape_depth(s as ShapeId, &mut depth, &mut path) {
                let shape = &self.prog.shapes[s];
                let (code, message, help) = match cycle {
                    Some(through) => (
                        "resolve::shape_cycle",
                        format!("shape `{}` holds itself (through {through})", shape.name),
                        "data from a host is finite: make the inner field `data`, or `list of` a smaller shape",
                    ),
                    None => (
                        "resolve::too_deep",
                        format!(
                            "shape `{}` nests other shapes more than {} deep",
                            shape.name,
                            shape::MAX_DEPTH
                        ),
                        "flatten the shapes",
                    ),
                };
                let span = shape.span;
                self.error(Diagnostic::error(code, message, span, "here").with_help(help));
                // Once is enough: the shapes it names would say the same.
                return;
            }
        }
    }

    /// The depth of shape `s`; `Err(Some(names))` for a cycle, `Err(None)` when too deep.
    fn shape_depth(
        &self,
        s: ShapeId,
        depth: &mut Vec<Option<Option<usize>>>,
        path: &mut Vec<ShapeId>,
    ) -> Result<usize, Option<String>> {
        match depth[s as usize] {
            Some(Some(d)) => return Ok(d),
            Some(None) => {
                let names: Vec<&str> =
                    path.iter().chain([&s]).map(|i| self.prog.shapes[*i as usize].name.as_str()).collect();
                return Err(Some(names.join(" → ")));
            }
            None => {}
        }
        if path.len() >= shape::MAX_DEPTH {
            return Err(None);
        }
        depth[s as usize] = Some(None);
        path.push(s);
        let mut named = vec![];
        for f in &self.prog.shapes[s as usize].fields {
            collect_named(&f.ty, &mut named);
        }
        let mut d = 1;
        for t in named {
            d = d.max(1 + self.shape_depth(t, depth, path)?);
        }
        path.pop();
        depth[s as usize] = Some(Some(d));
        Ok(d)
    }

    /// A data literal given where data of shape `s` is wanted: checked, and completed from the
    /// shape's defaults.
    pub(super) fn shape_literal(&mut self, d: &J, s: ShapeId, span: Span) -> T {
        let root = self.data_root.clone().unwrap_or_else(|| self.prog.shapes[s as usize].name.clone());
        let value =
            match shape::conform(&self.prog.shapes, &shape::ShapeTy::Shape(s), d, &root, LITERAL_VALUES) {
                Ok(v) => v,
                Err(err) => {
                    self.data_error(err, span, true);
                    d.clone()
                }
            };
        T::new(Expr::Const(Value::Data(std::sync::Arc::new(value))), Ty::Shape(s))
    }
}

/// The shapes named anywhere inside a field type.
fn collect_named(t: &ShapeTy, out: &mut Vec<ShapeId>) {
    match t {
        ShapeTy::Shape(s) => out.push(*s),
        ShapeTy::List(t) => collect_named(t, out),
        ShapeTy::Record(fields) => fields.iter().for_each(|f| collect_named(&f.ty, out)),
        _ => {}
    }
}
