//! Checking declarations: types, attributes and their defaults, ladders, formulas and tables.

use super::{Checker, Progress, expr};
use crate::ast::{self, Span, TypeKind};
use crate::diagnostics::{Diagnostic, suggest, suggest_or};
use crate::program::*;

impl Checker<'_> {
    pub(crate) fn new_set(&mut self, name: &str, names: &[ast::Ident]) -> SetId {
        let id = self.prog.sets.len() as SetId;
        let mut set =
            NameSet { name: name.to_string(), names: vec![], values: None, labels: vec![], spans: vec![] };
        // Where each name was first listed: a map keeps long lists linear.
        let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for n in names {
            if let Some(&i) = seen.get(n.name.as_str()) {
                let first = set.spans[i];
                self.error(
                    Diagnostic::error(
                        "resolve::duplicate",
                        format!("`{}` is listed twice", n.name),
                        n.span,
                        "listed again here",
                    )
                    .with_label(first, "first listed here")
                    .with_help("remove one of them"),
                );
                continue;
            }
            seen.insert(n.name.as_str(), set.names.len());
            set.names.push(n.name.clone());
            set.labels.push(None);
            set.spans.push(n.span);
        }
        // The same names written twice are the same type: `steady | shaken` on a unit and on a check
        // input can be compared and assigned to each other.
        if let Some(same) = self.set_index.same(&self.prog.sets, &set.names) {
            return same;
        }
        self.prog.sets.push(set);
        id
    }

    pub(super) fn ladder_values(&mut self, l: &ast::LadderDef, set: SetId) {
        let given = l.rungs.iter().filter(|r| r.1.is_some()).count();
        if given == 0 {
            return;
        }
        if given != l.rungs.len() {
            let missing = l.rungs.iter().find(|r| r.1.is_none()).map(|r| &r.0);
            if let Some(m) = missing {
                self.error(
                    Diagnostic::error(
                        "resolve::ladder_value",
                        format!("rung `{}` has no number but others do", m.name),
                        m.span,
                        "no number",
                    )
                    .with_help(format!("give every rung a number, e.g. `{} = 7`, or none of them", m.name)),
                );
            }
            return;
        }
        let mut values = vec![];
        for (name, e) in &l.rungs {
            let Some(e) = e else { continue };
            let t = self.expr(e, Some(&Ty::INT));
            match expr::const_value(&t.e) {
                Some(Value::Int(v)) => values.push(v),
                _ => {
                    self.error(
                        Diagnostic::error(
                            "resolve::not_constant",
                            format!("the number of rung `{}` must be a constant", name.name),
                            e.span,
                            "not a constant number",
                        )
                        .with_help("write a plain number such as `7`"),
                    );
                    return;
                }
            }
        }
        self.prog.sets[set as usize].values = Some(values);
    }

    /// Resolves a written type.
    pub(crate) fn ty(&mut self, t: &ast::TypeExpr, owner: &str) -> Ty {
        match &t.kind {
            TypeKind::Data => Ty::Data,
            TypeKind::Range { lo, hi } => {
                if let (Some(l), Some(h)) = (lo, hi)
                    && l > h
                {
                    self.error(
                        Diagnostic::error(
                            "resolve::empty_range",
                            format!("the range {l}..{h} is empty"),
                            t.span,
                            "lowest is above highest",
                        )
                        .with_help(format!("write the lowest value first: `{h}..{l}`")),
                    );
                }
                Ty::Int { lo: *lo, hi: *hi }
            }
            TypeKind::Flag => Ty::Flag,
            TypeKind::Names(names) => Ty::Name(self.new_set(owner, names)),
            TypeKind::List(_) | TypeKind::Record(_) | TypeKind::Text => {
                let what = match &t.kind {
                    TypeKind::List(_) => "a list",
                    TypeKind::Record(_) => "a record",
                    _ => "text",
                };
                self.error(
                    Diagnostic::error(
                        "resolve::shape_only",
                        format!("{what} can only be a field of a shape"),
                        t.span,
                        "only inside `shape`",
                    )
                    .with_help(format!(
                        "declare `shape {owner}_data {{ … }}` with this as a field, and use its name here"
                    )),
                );
                Ty::Error
            }
            TypeKind::Named(id) => {
                if let Some(&k) = self.kinds.get(&id.name) {
                    Ty::Entity(k)
                } else if let Some(&s) = self.ladders.get(&id.name) {
                    Ty::Name(s)
                } else if let Some(&s) = self.shapes.get(&id.name) {
                    Ty::Shape(s)
                } else {
                    let mut known: Vec<&str> = self.kinds.keys().map(|s| s.as_str()).collect();
                    known.extend(self.ladders.keys().map(|s| s.as_str()));
                    known.extend(self.shapes.keys().map(|s| s.as_str()));
                    known.extend(["flag", "int"]);
                    let help = suggest_or(
                        &id.name,
                        "type",
                        &known,
                        "a type is a range such as `0..6`, `flag`, `int`, names such as `steady | shaken`, or a kind or ladder",
                    );
                    self.error(
                        Diagnostic::error(
                            "resolve::unknown_type",
                            format!("there is no kind, ladder or shape called `{}`", id.name),
                            id.span,
                            "unknown type",
                        )
                        .with_help(help),
                    );
                    Ty::Error
                }
            }
        }
    }

    /// Resolves attributes/facts/inputs, with constant defaults checked against their types.
    pub(crate) fn fields(&mut self, fields: &[ast::Field], what: &str) -> Vec<FieldDef> {
        let mut out: Vec<FieldDef> = vec![];
        for f in fields {
            if let Some(prev) = out.iter().find(|p| p.name == f.name.name) {
                let prev = prev.span;
                self.error(
                    Diagnostic::error(
                        "resolve::duplicate",
                        format!("{what} `{}` is defined twice", f.name.name),
                        f.name.span,
                        "defined again here",
                    )
                    .with_label(prev, "first defined here")
                    .with_help("remove one of them or rename it"),
                );
                continue;
            }
            let ty = self.ty(&f.ty, &f.name.name);
            let default = f.default.as_ref().and_then(|d| self.const_default(d, &ty, &f.name.name));
            if f.strict && !matches!(ty, Ty::Int { .. }) {
                self.error(
                    Diagnostic::error(
                        "resolve::strict_not_number",
                        format!("only numbers can be `strict`, and `{}` is not a number", f.name.name),
                        f.span,
                        "not a number",
                    )
                    .with_help("remove `, strict`"),
                );
            }
            out.push(FieldDef {
                name: f.name.name.clone(),
                doc: f.doc.clone(),
                ty,
                default,
                strict: f.strict,
                span: f.name.span,
            });
        }
        out
    }

    /// A house-rule option: a field whose default is the reading used unless another is chosen.
    pub(super) fn option(&mut self, id: u32, o: &ast::Field) {
        let doc = self.prog.options[id as usize].doc.clone();
        let Some(mut f) = self.fields(std::slice::from_ref(o), "option").pop() else { return };
        if o.default.is_none() {
            self.error(
                Diagnostic::error(
                    "resolve::option_default",
                    format!(
                        "option `{}` needs a default: the reading used unless a group picks another",
                        f.name
                    ),
                    o.span,
                    "no default",
                )
                .with_help(format!("add one, such as `option {}: a | b = a`", f.name)),
            );
        }
        if f.strict {
            self.error(
                Diagnostic::error(
                    "resolve::option_strict",
                    format!("option `{}` cannot be `strict`: no rule changes it", f.name),
                    o.span,
                    "not for options",
                )
                .with_help("remove `, strict`"),
            );
        }
        if matches!(f.ty, Ty::Entity(_) | Ty::Data | Ty::Shape(_) | Ty::Text) {
            self.error(
                Diagnostic::error(
                    "resolve::option_type",
                    format!("option `{}` must be yes/no, a whole number or one of a few names", f.name),
                    o.ty.span,
                    "not a reading a group can choose",
                )
                .with_help("write its readings as names, such as `extra_d6 | flat_plus_one`"),
            );
        }
        f.doc = doc;
        self.prog.options[id as usize] = f;
    }

    /// Checks a default value: a constant of the field's type, within its bounds.
    fn const_default(&mut self, e: &ast::Expr, ty: &Ty, name: &str) -> Option<Value> {
        let t = self.apart(|c| c.expr(e, Some(ty)));
        self.expect_ty(&t, ty, e.span, &format!("the default of `{name}`"));
        match expr::const_value(&t.e) {
            Some(v) => {
                self.in_bounds(&v, ty, e.span, name);
                Some(v)
            }
            None => {
                self.error(
                    Diagnostic::error(
                        "resolve::not_constant",
                        format!("the default of `{name}` must be a constant"),
                        e.span,
                        "worked out while the game runs",
                    )
                    .with_help("write a plain value such as `3`, `no` or a name"),
                );
                None
            }
        }
    }

    /// Reports a constant integer outside the bounds of `ty`.
    pub(crate) fn in_bounds(&mut self, v: &Value, ty: &Ty, span: Span, name: &str) {
        // A value with an error inside it (an unknown attribute, say) stands for nothing: its
        // placeholder is not reported as out of range too.
        let caused = self
            .diags
            .iter()
            .any(|d| d.is_error() && span.start <= d.span().start && d.span().end <= span.end);
        if let (Value::Int(x), Ty::Int { lo, hi }) = (v, ty)
            && (lo.is_some_and(|l| *x < l) || hi.is_some_and(|h| *x > h))
            && !caused
        {
            self.error(
                Diagnostic::error(
                    "resolve::out_of_range",
                    format!("{x} is outside the range of `{name}`"),
                    span,
                    format!("`{name}` must be {}", expr::range_words(*lo, *hi)),
                )
                .with_help(format!("use a value {}", expr::range_words(*lo, *hi))),
            );
        }
    }

    pub(super) fn check_define(&mut self, id: u32) {
        if self.define_progress[id as usize] != Progress::NotStarted {
            return;
        }
        self.define_progress[id as usize] = Progress::Running;
        self.define_stack.push(id);
        let d = self.define_ast[id as usize];
        let params = self.fields(&d.params, "parameter");
        let (t, slots) = self.apart(|c| {
            for p in &params {
                c.scope.bind(&p.name, p.ty.clone(), p.span, false);
            }
            let t = c.expr(&d.body, None);
            (t, c.scope.next)
        });
        let def = &mut self.prog.defines[id as usize];
        def.params = params;
        def.body = t.e;
        def.slots = slots;
        self.define_ty[id as usize] = t.ty;
        self.define_progress[id as usize] = Progress::Done;
        self.define_stack.pop();
    }

    pub(super) fn check_table(&mut self, id: u32) {
        if self.table_progress[id as usize] != Progress::NotStarted {
            return;
        }
        self.table_progress[id as usize] = Progress::Running;
        let t = self.table_ast[id as usize];
        let params = self.fields(&t.params, "key");
        let result = match &t.result {
            Some(r) => self.ty(r, &t.name.name),
            None => Ty::INT,
        };
        let (rows, slots) = self.apart(|c| c.table_rows(t, &params, &result));
        let tab = &mut self.prog.tables[id as usize];
        tab.params = params;
        tab.result = result;
        tab.rows = rows;
        tab.slots = slots;
        self.table_progress[id as usize] = Progress::Done;
    }

    /// A table's rows, checked against its keys and result type; and the slots they need.
    fn table_rows(
        &mut self,
        t: &ast::TableDef,
        params: &[FieldDef],
        result: &Ty,
    ) -> (Vec<(Vec<Pat>, Expr, Span)>, u32) {
        let mut rows = vec![];
        let mut seen_otherwise = false;
        for row in &t.rows {
            if seen_otherwise {
                self.error(
                    Diagnostic::warning(
                        crate::diagnostics::Code::Unreachable.path(),
                        "this row comes after `otherwise` and is never used",
                        row.span,
                        "never used",
                    )
                    .with_help("move `otherwise` to the end of the table"),
                );
            }
            if row.keys.is_empty() {
                seen_otherwise = true;
            } else if row.keys.len() != params.len() {
                self.error(
                    Diagnostic::error(
                        "resolve::arity",
                        format!(
                            "this row has {} key{} but table `{}` has {}",
                            row.keys.len(),
                            if row.keys.len() == 1 { "" } else { "s" },
                            t.name.name,
                            params.len()
                        ),
                        row.span,
                        "wrong number of keys",
                    )
                    .with_help("give one pattern per key, separated by commas; `_` matches anything"),
                );
                continue;
            }
            let pats: Vec<Pat> =
                row.keys.iter().zip(params).map(|(k, p)| self.pattern(k, &p.ty, &p.name)).collect();
            let v = self.expr(&row.value, Some(result));
            self.expect_ty(&v, result, row.value.span, &format!("a row of table `{}`", t.name.name));
            rows.push((pats, v.e, row.span));
        }
        (rows, self.scope.next)
    }

    fn pattern(&mut self, p: &ast::Pattern, ty: &Ty, key: &str) -> Pat {
        use ast::PatternKind as P;
        let mismatch = |c: &mut Self, want: &str| {
            c.error(
                Diagnostic::error(
                    "resolve::type_mismatch",
                    format!("key `{key}` is {}, so this pattern cannot match it", c.ty_words(ty)),
                    p.span,
                    format!("expected {want}"),
                )
                .with_help("write a pattern of the key's type, or `_` for anything"),
            );
            Pat::Any
        };
        match (&p.kind, ty) {
            (P::Any, _) => Pat::Any,
            (P::Int(i), Ty::Int { .. }) => Pat::Range(*i, *i),
            (P::Range(lo, hi), Ty::Int { .. }) => Pat::Range(lo.unwrap_or(i64::MIN), hi.unwrap_or(i64::MAX)),
            (P::Bool(b), Ty::Flag) => Pat::Bool(*b),
            (P::Name(n), Ty::Name(set)) => {
                match self.prog.sets[*set as usize].names.iter().position(|x| *x == n.name) {
                    Some(i) => Pat::Name(i as u32),
                    None => {
                        let known: Vec<&str> =
                            self.prog.sets[*set as usize].names.iter().map(|s| s.as_str()).collect();
                        let help = suggest(&n.name, "name", &known);
                        self.error(
                            Diagnostic::error(
                                "resolve::unknown_name",
                                format!("`{}` is not one of the names of key `{key}`", n.name),
                                n.span,
                                "unknown name",
                            )
                            .with_help(help),
                        );
                        Pat::Any
                    }
                }
            }
            (_, Ty::Int { .. }) => mismatch(self, "a number or a range such as `2..6`"),
            (_, Ty::Flag) => mismatch(self, "`yes` or `no`"),
            (_, Ty::Name(_)) => mismatch(self, "a name"),
            _ => mismatch(self, "`_`"),
        }
    }
}
