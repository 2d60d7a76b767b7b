//! Builds the [`Index`] of a parsed ruleset: declares every item, then resolves names by scope.

use super::index::{Def, Index, SymKind, script_functions};
use mettle::internals::ast::*;

/// Reads a script file named by `script "x.rhai"`, if it can be read.
pub type ReadScript<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The index of `file`, parsed from `text`; `read` gives the text of script files.
pub fn index(file: &File, text: &str, read: ReadScript<'_>) -> Index {
    let mut b = Builder { text, ix: Index::default(), scope: vec![] };
    for item in &file.items {
        b.declare(item, read);
    }
    // Attributes, facts, inputs and parameters that hold entities know their kind.
    for i in 0..b.ix.defs.len() {
        if let Some(ty) = &b.ix.defs[i].ty {
            b.ix.defs[i].entity = b.ix.find(SymKind::Kind, ty);
        }
    }
    // Scenarios last: they answer choices that rules declare.
    let (scenarios, rules): (Vec<&Item>, Vec<&Item>) =
        file.items.iter().partition(|i| matches!(i.kind, ItemKind::Scenario(_)));
    for item in rules.into_iter().chain(scenarios) {
        b.walk_item(item);
    }
    b.ix
}

pub(super) struct Builder<'a> {
    text: &'a str,
    pub(super) ix: Index,
    /// Names in scope, innermost last.
    pub(super) scope: Vec<(String, usize)>,
}

/// Text on one line with runs of blank space as one space.
pub(super) fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Builder<'_> {
    pub(super) fn slice(&self, span: Span) -> &str {
        self.text.get(span.start..span.end).unwrap_or("")
    }

    pub(super) fn def(
        &mut self,
        name: &Ident,
        kind: SymKind,
        full: Span,
        doc: Option<&String>,
        parent: Option<usize>,
    ) -> usize {
        let detail = one_line(self.slice(full));
        self.ix.add(Def {
            name: name.name.clone(),
            kind,
            span: name.span,
            full,
            doc: doc.cloned(),
            detail,
            parent,
            entity: None,
            ty: None,
            file: None,
        })
    }

    pub(super) fn refer(&mut self, span: Span, def: Option<usize>) {
        if let Some(d) = def {
            self.ix.refs.push((span, d));
        }
    }

    /// A top-level name of one of `kinds`.
    pub(super) fn top(&self, name: &str, kinds: &[SymKind]) -> Option<usize> {
        kinds.iter().find_map(|k| self.ix.find(*k, name))
    }

    fn field(&mut self, f: &Field, kind: SymKind, parent: usize) -> usize {
        let d = self.def(&f.name, kind, f.span, f.doc.as_ref(), Some(parent));
        if let TypeKind::Named(n) = &f.ty.kind {
            self.ix.defs[d].ty = Some(n.name.clone());
        }
        self.states(&f.ty, d);
        d
    }

    fn states(&mut self, ty: &TypeExpr, parent: usize) {
        if let TypeKind::Names(names) = &ty.kind {
            for n in names {
                self.def(n, SymKind::State, n.span, None, Some(parent));
            }
        }
    }

    fn declare(&mut self, item: &Item, read: ReadScript<'_>) {
        let doc = item.doc.as_ref();
        match &item.kind {
            ItemKind::Kind(k) => {
                let d = self.def(&k.name, SymKind::Kind, item.span, doc, None);
                self.ix.defs[d].detail = format!("kind {}", k.name.name);
                for f in &k.fields {
                    self.field(f, SymKind::Attribute, d);
                }
            }
            ItemKind::Ladder(l) => {
                let d = self.def(&l.name, SymKind::Ladder, item.span, doc, None);
                let rungs: Vec<String> = l
                    .rungs
                    .iter()
                    .map(|(r, v)| match v {
                        Some(v) => format!("{} = {}", r.name, one_line(self.slice(v.span))),
                        None => r.name.clone(),
                    })
                    .collect();
                self.ix.defs[d].detail = format!("ladder {} {{ {} }}", l.name.name, rungs.join(", "));
                for (r, v) in &l.rungs {
                    let full = v.as_ref().map_or(r.span, |v| r.span.to(v.span));
                    self.def(r, SymKind::Rung, full, None, Some(d));
                }
            }
            ItemKind::Event(e) => {
                let d = self.def(&e.name, SymKind::Event, item.span, doc, None);
                for f in &e.facts {
                    self.field(f, SymKind::Fact, d);
                }
            }
            ItemKind::Define(f) => {
                let d = self.def(&f.name, SymKind::Formula, item.span, doc, None);
                for p in &f.params {
                    self.field(p, SymKind::Param, d);
                }
            }
            ItemKind::Table(t) => {
                let d = self.def(&t.name, SymKind::Table, item.span, doc, None);
                let head = t.rows.first().map_or(item.span.end, |r| r.span.start);
                let head = self.slice(Span::new(item.span.start, head)).trim_end().trim_end_matches('{');
                self.ix.defs[d].detail = one_line(head);
                for p in &t.params {
                    self.field(p, SymKind::Param, d);
                }
                if let Some(ty) = &t.result {
                    self.states(ty, d);
                }
            }
            ItemKind::Check(c) => {
                let d = self.def(&c.name, SymKind::Check, item.span, doc, None);
                self.ix.defs[d].detail = match &c.subject {
                    Some(s) => format!("check {} for {}", c.name.name, s.name),
                    None => format!("check {}", c.name.name),
                };
                for line in &c.lines {
                    match &line.kind {
                        CheckLineKind::Input(f) => {
                            self.field(f, SymKind::Input, d);
                        }
                        CheckLineKind::Roll { name: Some(n), .. } => {
                            self.def(n, SymKind::Let, line.span, line.doc.as_ref(), Some(d));
                        }
                        CheckLineKind::Let(n, _) => {
                            self.def(n, SymKind::Let, line.span, line.doc.as_ref(), Some(d));
                        }
                        // An outcome named twice is defined by its first line.
                        CheckLineKind::Outcome(o)
                            if self.ix.child(d, &o.name.name, &[SymKind::Outcome]).is_none() =>
                        {
                            let head = o.body.first().map_or(line.span.end, |s| s.span.start);
                            let o_def =
                                self.def(&o.name, SymKind::Outcome, line.span, line.doc.as_ref(), Some(d));
                            let head = self.slice(Span::new(line.span.start, head));
                            self.ix.defs[o_def].detail = one_line(head.trim_end().trim_end_matches('{'));
                        }
                        _ => {}
                    }
                }
            }
            ItemKind::Result(r) => {
                self.def(&r.name, SymKind::Result, item.span, doc, None);
            }
            ItemKind::Scenario(s) => {
                let d = self.def(&s.name, SymKind::Scenario, item.span, doc, None);
                let title = s.title.as_ref().map(|t| format!(" \"{}\"", t.0)).unwrap_or_default();
                self.ix.defs[d].detail = format!("scenario {}{title}", s.name.name);
            }
            ItemKind::Script(s) => {
                let (code, span) = &s.source;
                let (found, file) = if s.is_file {
                    (read(code).map(|t| script_functions(&t, 0)).unwrap_or_default(), Some(code.clone()))
                } else {
                    (script_functions(code, span.start), None)
                };
                for (name, at) in found {
                    let id = Ident { name: name.clone(), span: at };
                    let d = self.def(&id, SymKind::ScriptFn, item.span, None, None);
                    let d = &mut self.ix.defs[d];
                    d.file = file.clone();
                    d.full = at;
                    d.detail = format!("fn {name}(…)");
                }
            }
            ItemKind::Option(f) => {
                let d = self.def(&f.name, SymKind::Option, item.span, doc.or(f.doc.as_ref()), None);
                self.ix.defs[d].detail = format!("option {}", one_line(self.slice(f.span)));
                if let TypeKind::Named(n) = &f.ty.kind {
                    self.ix.defs[d].ty = Some(n.name.clone());
                }
                self.states(&f.ty, d);
            }
            ItemKind::Shape(s) => {
                let d = self.def(&s.name, SymKind::Shape, item.span, doc, None);
                self.ix.defs[d].detail = format!("shape {}", s.name.name);
                self.shape_fields(&s.fields, d);
            }
            ItemKind::Trigger(_) => {}
        }
    }

    /// The fields of a shape, and of the records inside it, as children of `parent`.
    fn shape_fields(&mut self, fields: &[Field], parent: usize) {
        for f in fields {
            let d = self.def(&f.name, SymKind::ShapeField, f.span, f.doc.as_ref(), Some(parent));
            self.ix.defs[d].detail = one_line(self.slice(f.span));
            let mut ty = &f.ty;
            while let TypeKind::List(inner) = &ty.kind {
                ty = inner;
            }
            match &ty.kind {
                TypeKind::Record(inner) => self.shape_fields(inner, d),
                TypeKind::Named(n) => self.ix.defs[d].ty = Some(n.name.clone()),
                _ => {}
            }
        }
    }

    fn walk_item(&mut self, item: &Item) {
        self.scope.clear();
        match &item.kind {
            ItemKind::Kind(k) => {
                let Some(d) = self.top(&k.name.name, &[SymKind::Kind]) else { return };
                for f in &k.fields {
                    let fd = self.ix.child(d, &f.name.name, &[SymKind::Attribute]);
                    self.walk_field(f, fd);
                }
            }
            ItemKind::Ladder(l) => {
                for (_, v) in &l.rungs {
                    if let Some(v) = v {
                        self.expr(v, None);
                    }
                }
            }
            ItemKind::Event(e) => {
                let d = self.top(&e.name.name, &[SymKind::Event]);
                self.fields_in_scope(d, &e.facts, SymKind::Fact);
            }
            ItemKind::Define(f) => {
                let d = self.top(&f.name.name, &[SymKind::Formula]);
                self.fields_in_scope(d, &f.params, SymKind::Param);
                self.expr(&f.body, None);
            }
            ItemKind::Table(t) => {
                let d = self.top(&t.name.name, &[SymKind::Table]);
                self.fields_in_scope(d, &t.params, SymKind::Param);
                if let Some(ty) = &t.result {
                    self.ty(ty);
                }
                for row in &t.rows {
                    for (i, p) in row.keys.iter().enumerate() {
                        if let PatternKind::Name(n) = &p.kind {
                            let hint = d.and_then(|d| self.ix.children(d).nth(i).map(|(i, _)| i));
                            let r = self.name(&n.name, hint);
                            self.refer(n.span, r);
                        }
                    }
                    self.expr(&row.value, d);
                }
            }
            ItemKind::Check(c) => self.check(c),
            ItemKind::Trigger(t) => {
                let ev = self.top(&t.event.name, &[SymKind::Event]);
                self.refer(t.event.span, ev);
                if let Some(ev) = ev {
                    let facts: Vec<(String, usize)> = self
                        .ix
                        .children(ev)
                        .filter(|(_, d)| d.kind == SymKind::Fact)
                        .map(|(i, d)| (d.name.clone(), i))
                        .collect();
                    self.scope.extend(facts);
                }
                if let Some(w) = &t.when {
                    self.expr(w, None);
                }
                self.block(&t.body);
            }
            ItemKind::Scenario(s) => self.block(&s.body),
            ItemKind::Result(_) | ItemKind::Script(_) => {}
            ItemKind::Shape(s) => self.shape_types(&s.fields),
            ItemKind::Option(f) => {
                let d = self.top(&f.name.name, &[SymKind::Option]);
                self.walk_field(f, d);
            }
        }
    }

    /// Puts fields in scope (in declaration order) and walks their types and defaults.
    fn fields_in_scope(&mut self, parent: Option<usize>, fields: &[Field], kind: SymKind) {
        for f in fields {
            let fd = parent.and_then(|p| self.ix.child(p, &f.name.name, &[kind]));
            self.walk_field(f, fd);
            if let Some(fd) = fd {
                self.scope.push((f.name.name.clone(), fd));
            }
        }
    }

    fn walk_field(&mut self, f: &Field, def: Option<usize>) {
        self.ty(&f.ty);
        if let Some(e) = &f.default {
            self.expr(e, def);
        }
    }

    fn ty(&mut self, ty: &TypeExpr) {
        match &ty.kind {
            TypeKind::Named(n) => {
                let d = self.top(&n.name, &[SymKind::Kind, SymKind::Ladder, SymKind::Shape]);
                self.refer(n.span, d);
            }
            TypeKind::List(inner) => self.ty(inner),
            TypeKind::Record(fields) => self.shape_types(fields),
            _ => {}
        }
    }

    /// The types named in a shape's fields.
    fn shape_types(&mut self, fields: &[Field]) {
        for f in fields {
            self.ty(&f.ty);
        }
    }

    fn check(&mut self, c: &CheckDef) {
        let Some(d) = self.top(&c.name.name, &[SymKind::Check]) else { return };
        if let Some(s) = &c.subject {
            // The subject is named like its kind in the body.
            let k = self.top(&s.name, &[SymKind::Kind]);
            self.refer(s.span, k);
            if let Some(k) = k {
                self.scope.push((s.name.clone(), k));
            }
        }
        let members: Vec<(String, usize)> = self
            .ix
            .children(d)
            .filter(|(_, m)| matches!(m.kind, SymKind::Input | SymKind::Let))
            .map(|(i, m)| (m.name.clone(), i))
            .collect();
        self.scope.extend(members);
        for line in &c.lines {
            match &line.kind {
                CheckLineKind::Input(f) => {
                    let fd = self.ix.child(d, &f.name.name, &[SymKind::Input]);
                    self.walk_field(f, fd);
                }
                CheckLineKind::Roll { dice, .. } => self.expr(dice, None),
                CheckLineKind::Modifier(m) => {
                    self.expr(&m.amount, None);
                    for e in m.when.iter().chain(&m.cap) {
                        self.expr(e, None);
                    }
                }
                CheckLineKind::Target(e) => self.expr(e, None),
                CheckLineKind::Let(_, e) => self.expr(e, None),
                CheckLineKind::Outcome(o) => {
                    let od = self.ix.child(d, &o.name.name, &[SymKind::Outcome]);
                    if od.is_some_and(|od| self.ix.defs[od].span != o.name.span) {
                        self.refer(o.name.span, od);
                    }
                    if let Some(w) = &o.when {
                        self.expr(w, None);
                    }
                    self.block(&o.body);
                }
                // A group's members are uses of the check's outcomes.
                CheckLineKind::Group { members, .. } => {
                    for m in members {
                        let od = self.ix.child(d, &m.name, &[SymKind::Outcome]);
                        self.refer(m.span, od);
                    }
                }
                // A re-roll's outcomes are uses of the check's outcomes.
                CheckLineKind::Reroll(r) => {
                    for m in &r.outcomes {
                        let od = self.ix.child(d, &m.name, &[SymKind::Outcome]);
                        self.refer(m.span, od);
                    }
                    if let Some(w) = &r.when {
                        self.expr(w, None);
                    }
                }
            }
        }
    }

    /// A bare name: a state of `hint`, else a name in scope, else any state, rung, outcome or result.
    pub(super) fn name(&self, name: &str, hint: Option<usize>) -> Option<usize> {
        // A name compared with or given to something with states is first one of those states.
        if let Some(h) = hint
            && let Some(s) = self.ix.child(h, name, &[SymKind::State, SymKind::Rung, SymKind::Outcome])
        {
            return Some(s);
        }
        if let Some((_, d)) = self.scope.iter().rev().find(|(n, _)| n == name) {
            return Some(*d);
        }
        let kinds = [SymKind::Option, SymKind::State, SymKind::Rung, SymKind::Result, SymKind::Outcome];
        kinds.iter().find_map(|k| self.ix.find_any(*k, name))
    }

    /// The definition whose states a value compared with or assigned to `e` is one of.
    pub(super) fn hint(&self, e: &Expr) -> Option<usize> {
        let d = match &e.kind {
            ExprKind::Name(n) => self.name(&n.name, None)?,
            ExprKind::Field(base, n) => self.field_def(base, &n.name)?,
            ExprKind::Last(c) => self.top(&c.name, &[SymKind::Check])?,
            ExprKind::Call(f, _) => self.top(&f.name, &[SymKind::Table])?,
            _ => return None,
        };
        Some(match self.ix.defs[d].kind {
            // A ladder-typed attribute: its ladder's rungs.
            SymKind::Attribute | SymKind::Fact | SymKind::Input | SymKind::Param => {
                self.ix.defs[d].ty.as_deref().and_then(|t| self.top(t, &[SymKind::Ladder])).unwrap_or(d)
            }
            _ => d,
        })
    }

    /// The kind or check whose members `e.x` names.
    pub(super) fn owner(&self, e: &Expr) -> Option<usize> {
        match &e.kind {
            ExprKind::Name(n) => {
                let d = self.name(&n.name, None)?;
                if self.ix.defs[d].kind == SymKind::Kind { Some(d) } else { self.ix.defs[d].entity }
            }
            ExprKind::Field(base, n) => self.ix.defs[self.field_def(base, &n.name)?].entity,
            ExprKind::Last(c) => self.top(&c.name, &[SymKind::Check]),
            _ => None,
        }
    }

    /// The definition `base.name` names: an attribute of the base's kind, a value of a check's result,
    /// or when the base is unknown the first attribute so called.
    fn field_def(&self, base: &Expr, name: &str) -> Option<usize> {
        match self.owner(base) {
            Some(o) => {
                self.ix.child(o, name, &[SymKind::Attribute, SymKind::Input, SymKind::Let, SymKind::Outcome])
            }
            None => self.ix.find_any(SymKind::Attribute, name),
        }
    }

    pub(super) fn expr(&mut self, e: &Expr, hint: Option<usize>) {
        match &e.kind {
            ExprKind::Name(n) => {
                let d = self.name(&n.name, hint);
                self.refer(n.span, d);
            }
            ExprKind::Field(base, n) => {
                self.expr(base, None);
                let d = self.field_def(base, &n.name);
                self.refer(n.span, d);
            }
            ExprKind::Call(f, args) => {
                let d = self.top(&f.name, &[SymKind::Formula, SymKind::Table, SymKind::ScriptFn]);
                self.refer(f.span, d);
                let params: Vec<usize> = d
                    .map(|d| {
                        self.ix
                            .children(d)
                            .filter(|(_, p)| p.kind == SymKind::Param)
                            .map(|(i, _)| i)
                            .collect()
                    })
                    .unwrap_or_default();
                for (i, a) in args.iter().enumerate() {
                    let h = params.get(i).copied();
                    match a {
                        Arg::Expr(e) | Arg::Cmp(_, e, _) => self.expr(e, h),
                    }
                }
            }
            ExprKind::Dice { count, sides, .. } => {
                if let Some(c) = count {
                    self.expr(c, None);
                }
                if let Sides::Count(s) = sides {
                    self.expr(s, None);
                }
            }
            ExprKind::Binary(op, a, b) => {
                self.expr(a, None);
                let h = match op {
                    BinOp::Is | BinOp::IsNot | BinOp::Eq | BinOp::Ne => self.hint(a),
                    _ => None,
                };
                self.expr(b, h);
            }
            ExprKind::Unary(_, a) => self.expr(a, None),
            ExprKind::If(c, a, b) => {
                self.expr(c, None);
                self.expr(a, hint);
                self.expr(b, hint);
            }
            ExprKind::Last(c) => {
                let d = self.top(&c.name, &[SymKind::Check]);
                self.refer(c.span, d);
            }
            ExprKind::NumberOf { kind, var, filter } => {
                let k = self.top(&kind.name, &[SymKind::Kind]);
                self.refer(kind.span, k);
                let mark = self.scope.len();
                self.variable(var, k, e.span);
                if let Some(f) = filter {
                    self.expr(f, None);
                }
                self.scope.truncate(mark);
            }
            ExprKind::Total { value, kind, var, filter, empty, .. } => {
                let k = self.top(&kind.name, &[SymKind::Kind]);
                self.refer(kind.span, k);
                let mark = self.scope.len();
                self.variable(var, k, e.span);
                for x in [value, filter].into_iter().flatten() {
                    self.expr(x, None);
                }
                self.scope.truncate(mark);
                if let Some(x) = empty {
                    self.expr(x, None);
                }
            }
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::None | ExprKind::Str(_) | ExprKind::Data(_) => {}
        }
    }
}
