//! Names, types and arity: turns the syntax tree into a compiled [`Program`], collecting every error
//! and warning on the way rather than stopping at the first.

mod checks;
mod expr;
mod scope;
mod stmt;

pub use expr::{div_floor, range_words};

use crate::ast::{self, ItemKind, Span, TypeKind};
use crate::diagnostics::{Diagnostic, suggest, suggest_or};
use crate::program::*;
use scope::Scope;
use std::collections::HashMap;

/// What kind of rule is being checked: decides which statements are allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ctx {
    Trigger,
    Outcome,
    Scenario,
    Pure,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Progress {
    NotStarted,
    Running,
    Done,
}

/// The checker's state for one ruleset.
pub(crate) struct Checker<'a> {
    text: &'a str,
    diags: Vec<Diagnostic>,
    prog: Program,
    /// Every top-level name and where it was defined.
    names: HashMap<String, (&'static str, Span)>,
    kinds: HashMap<String, KindId>,
    ladders: HashMap<String, SetId>,
    events: HashMap<String, EventId>,
    defines: HashMap<String, u32>,
    tables: HashMap<String, u32>,
    checks: HashMap<String, CheckId>,
    choices: HashMap<String, u32>,
    define_ast: Vec<&'a ast::DefineDef>,
    define_progress: Vec<Progress>,
    define_ty: Vec<Ty>,
    define_used: Vec<bool>,
    /// Formulas being checked, innermost last (to show a loop).
    define_stack: Vec<u32>,
    table_ast: Vec<&'a ast::TableDef>,
    table_progress: Vec<Progress>,
    table_used: Vec<bool>,
    check_ast: Vec<&'a ast::CheckDef>,
    check_progress: Vec<Progress>,
    /// Named slots of each check, once checked: (name, slot, type).
    check_slots: Vec<Vec<(String, u32, Ty)>>,
    event_fired: Vec<bool>,
    scope: Scope,
    /// What the dice in pool-typed slots can show.
    pool_slots: Vec<(u32, expr::PoolInfo)>,
    /// The kind of entity named as winner by `end game … for`, for the global `winner`.
    winner_kind: Option<KindId>,
    /// Range of the target of the check being checked.
    target_range: (Option<i64>, Option<i64>),
    ctx: Ctx,
}

/// Checks a parsed ruleset and compiles it. Returns the program (when there are no errors) and all
/// diagnostics, warnings included.
pub fn check(file: &ast::File, text: &str) -> (Option<Program>, Vec<Diagnostic>) {
    let mut c = Checker::new(text, file);
    c.run(file);
    let errors = c.diags.iter().any(|d| d.is_error());
    if errors {
        // Ranges worked out around an error are not to be trusted: say nothing about them.
        c.diags.retain(|d| {
            d.is_error()
                || !matches!(d.code.as_str(), "mettle::resolve::unreachable" | "mettle::resolve::always")
        });
    }
    c.diags.sort_by_key(|d| (d.span().start, !d.is_error()));
    (if errors { None } else { Some(c.prog) }, c.diags)
}

impl<'a> Checker<'a> {
    fn new(text: &'a str, file: &ast::File) -> Self {
        let mut events = HashMap::new();
        let mut decls = Vec::new();
        for (i, name) in TIME_EVENTS.iter().enumerate() {
            events.insert(name.to_string(), i as EventId);
            decls.push(EventDecl {
                name: name.to_string(),
                doc: None,
                facts: vec![],
                triggers: vec![],
                span: Span::default(),
            });
        }
        let results =
            NameSet { name: "result".into(), names: vec![], values: None, labels: vec![], spans: vec![] };
        Checker {
            text,
            diags: vec![],
            prog: Program {
                title: file.title.as_ref().map(|t| t.0.clone()),
                kinds: vec![],
                sets: vec![results],
                events: decls,
                triggers: vec![],
                defines: vec![],
                tables: vec![],
                checks: vec![],
                choices: vec![],
                results: 0,
                scenarios: vec![],
            },
            names: HashMap::new(),
            kinds: HashMap::new(),
            ladders: HashMap::new(),
            events,
            defines: HashMap::new(),
            tables: HashMap::new(),
            checks: HashMap::new(),
            choices: HashMap::new(),
            define_ast: vec![],
            define_progress: vec![],
            define_ty: vec![],
            define_used: vec![],
            define_stack: vec![],
            table_ast: vec![],
            table_progress: vec![],
            table_used: vec![],
            check_ast: vec![],
            check_progress: vec![],
            check_slots: vec![],
            event_fired: vec![true; TIME_EVENTS.len()],
            scope: Scope::default(),
            pool_slots: vec![],
            target_range: (None, None),
            winner_kind: None,
            ctx: Ctx::Pure,
        }
    }

    pub(crate) fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    pub(crate) fn src(&self, span: Span) -> &'a str {
        self.text.get(span.start..span.end).unwrap_or("")
    }

    /// Records a top-level name; reports a duplicate if it is taken.
    fn claim(&mut self, id: &ast::Ident, what: &'static str) -> bool {
        if TIME_EVENTS.contains(&id.name.as_str())
            || matches!(id.name.as_str(), "round" | "turn" | "game" | "winner")
        {
            self.error(
                Diagnostic::error(
                    "resolve::reserved_name",
                    format!("`{}` is a built-in name", id.name),
                    id.span,
                    "already defined by mettle",
                )
                .with_help("choose another name; `round`, `turn`, `game`, `winner` and the time events `round_start`, `turn_start`, `turn_end`, `round_end` are built in"),
            );
            return false;
        }
        if let Some((other, span)) = self.names.get(&id.name) {
            let d = Diagnostic::error(
                "resolve::duplicate",
                format!("`{}` is defined twice", id.name),
                id.span,
                format!("this {what} reuses the name"),
            )
            .with_label(*span, format!("first defined here as a {other}"))
            .with_help("give one of them another name");
            self.error(d);
            return false;
        }
        self.names.insert(id.name.clone(), (what, id.span));
        true
    }

    fn run(&mut self, file: &'a ast::File) {
        // Pass 1: declare names so that everything can refer to everything.
        for item in &file.items {
            match &item.kind {
                ItemKind::Kind(k) => {
                    if self.claim(&k.name, "kind") {
                        self.kinds.insert(k.name.name.clone(), self.prog.kinds.len() as KindId);
                        self.prog.kinds.push(Kind {
                            name: k.name.name.clone(),
                            doc: item.doc.clone(),
                            fields: vec![],
                            span: item.span,
                        });
                    }
                }
                ItemKind::Ladder(l) => {
                    if self.claim(&l.name, "ladder") {
                        let set = self
                            .new_set(&l.name.name, &l.rungs.iter().map(|r| r.0.clone()).collect::<Vec<_>>());
                        self.ladders.insert(l.name.name.clone(), set);
                    }
                }
                ItemKind::Event(e) => {
                    if self.claim(&e.name, "event") {
                        self.events.insert(e.name.name.clone(), self.prog.events.len() as EventId);
                        self.prog.events.push(EventDecl {
                            name: e.name.name.clone(),
                            doc: item.doc.clone(),
                            facts: vec![],
                            triggers: vec![],
                            span: item.span,
                        });
                        self.event_fired.push(false);
                    }
                }
                ItemKind::Define(d) => {
                    if self.claim(&d.name, "formula") {
                        self.defines.insert(d.name.name.clone(), self.define_ast.len() as u32);
                        self.define_ast.push(d);
                        self.define_progress.push(Progress::NotStarted);
                        self.define_ty.push(Ty::INT);
                        self.define_used.push(false);
                        self.prog.defines.push(Define {
                            name: d.name.name.clone(),
                            params: vec![],
                            body: Expr::Const(Value::Int(0)),
                            slots: 0,
                            span: item.span,
                        });
                    }
                }
                ItemKind::Table(t) => {
                    if self.claim(&t.name, "table") {
                        self.tables.insert(t.name.name.clone(), self.table_ast.len() as u32);
                        self.table_ast.push(t);
                        self.table_progress.push(Progress::NotStarted);
                        self.table_used.push(false);
                        self.prog.tables.push(Table {
                            name: t.name.name.clone(),
                            params: vec![],
                            result: Ty::INT,
                            rows: vec![],
                            slots: 0,
                            span: item.span,
                        });
                    }
                }
                ItemKind::Check(ch) => {
                    if self.claim(&ch.name, "check") {
                        self.declare_check(ch, item);
                    }
                }
                ItemKind::Result(r) => {
                    let set = &mut self.prog.sets[self.prog.results as usize];
                    if let Some(i) = set.names.iter().position(|n| *n == r.name.name) {
                        let first = set.spans[i];
                        self.error(
                            Diagnostic::error(
                                "resolve::duplicate",
                                format!("result `{}` is defined twice", r.name.name),
                                r.name.span,
                                "defined again here",
                            )
                            .with_label(first, "first defined here")
                            .with_help("remove one of them"),
                        );
                    } else {
                        set.names.push(r.name.name.clone());
                        set.labels.push(r.label.as_ref().map(|l| l.0.clone()));
                        set.spans.push(r.name.span);
                    }
                }
                ItemKind::Scenario(s) => {
                    if let Some(other) = file.items.iter().find_map(|i| match &i.kind {
                        ItemKind::Scenario(o) if o.name.name == s.name.name && o.name.span != s.name.span => {
                            Some(o.name.span)
                        }
                        _ => None,
                    }) && other.start < s.name.span.start
                    {
                        self.error(
                            Diagnostic::error(
                                "resolve::duplicate",
                                format!("scenario `{}` is defined twice", s.name.name),
                                s.name.span,
                                "defined again here",
                            )
                            .with_label(other, "first defined here")
                            .with_help("give one of them another name"),
                        );
                    }
                }
                ItemKind::Trigger(_) => {}
                ItemKind::Script(s) => {
                    self.error(
                        Diagnostic::error(
                            "resolve::script_unsupported",
                            "scripts are not supported by this version of mettle",
                            s.source.1,
                            "a Rhai script",
                        )
                        .with_help(
                            "write the rule with `on`, `check` and `table`, or remove the script block",
                        ),
                    );
                }
            }
        }
        // Pass 2: attributes and facts, ladder numbers.
        for item in &file.items {
            match &item.kind {
                ItemKind::Kind(k) => {
                    if let Some(&id) = self.kinds.get(&k.name.name)
                        && self.prog.kinds[id as usize].span == item.span
                    {
                        let fields = self.fields(&k.fields, "attribute");
                        self.prog.kinds[id as usize].fields = fields;
                    }
                }
                ItemKind::Event(e) => {
                    if let Some(&id) = self.events.get(&e.name.name)
                        && self.prog.events[id as usize].span == item.span
                    {
                        let facts = self.fields(&e.facts, "fact");
                        self.prog.events[id as usize].facts = facts;
                    }
                }
                ItemKind::Ladder(l) => {
                    if let Some(&set) = self.ladders.get(&l.name.name) {
                        self.ladder_values(l, set);
                    }
                }
                _ => {}
            }
        }
        self.check_inputs();
        // Pass 3: rules.
        for i in 0..self.define_ast.len() {
            self.check_define(i as u32);
        }
        for i in 0..self.table_ast.len() {
            self.check_table(i as u32);
        }
        for i in 0..self.check_ast.len() {
            self.check_check(i as CheckId);
        }
        for item in &file.items {
            if let ItemKind::Trigger(t) = &item.kind {
                self.check_trigger(t, item);
            }
        }
        // Scenarios last: they answer choices asked anywhere.
        for item in &file.items {
            if let ItemKind::Scenario(s) = &item.kind {
                self.check_scenario(s, item);
            }
        }
        self.unused_warnings();
    }

    fn unused_warnings(&mut self) {
        for (i, d) in self.define_ast.iter().enumerate() {
            if !self.define_used[i] {
                self.diags.push(
                    Diagnostic::warning(
                        "resolve::unused",
                        format!("formula `{}` is never used", d.name.name),
                        d.name.span,
                        "defined here",
                    )
                    .with_help("use it in a rule, or remove it"),
                );
            }
        }
        for (i, t) in self.table_ast.iter().enumerate() {
            if !self.table_used[i] {
                self.diags.push(
                    Diagnostic::warning(
                        "resolve::unused",
                        format!("table `{}` is never used", t.name.name),
                        t.name.span,
                        "defined here",
                    )
                    .with_help("look it up in a rule, or remove it"),
                );
            }
        }
        for (i, e) in self.prog.events.iter().enumerate() {
            if e.triggers.is_empty() && !self.event_fired[i] {
                self.diags.push(
                    Diagnostic::warning(
                        "resolve::unused",
                        format!("event `{}` has no trigger and is never fired", e.name),
                        e.span,
                        "defined here",
                    )
                    .with_help(format!("add a rule `on {} {{ … }}`, or remove the event", e.name)),
                );
            }
        }
    }

    pub(crate) fn new_set(&mut self, name: &str, names: &[ast::Ident]) -> SetId {
        let id = self.prog.sets.len() as SetId;
        let mut set =
            NameSet { name: name.to_string(), names: vec![], values: None, labels: vec![], spans: vec![] };
        for n in names {
            if let Some(i) = set.names.iter().position(|x| *x == n.name) {
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
            set.names.push(n.name.clone());
            set.labels.push(None);
            set.spans.push(n.span);
        }
        // The same names written twice are the same type: `steady | shaken` on a unit and on a check
        // input can be compared and assigned to each other.
        if let Some(same) =
            self.prog.sets.iter().skip(1).position(|s| s.names == set.names && s.values.is_none())
        {
            return same as SetId + 1;
        }
        self.prog.sets.push(set);
        id
    }

    fn ladder_values(&mut self, l: &ast::LadderDef, set: SetId) {
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
            TypeKind::Named(id) => {
                if let Some(&k) = self.kinds.get(&id.name) {
                    Ty::Entity(k)
                } else if let Some(&s) = self.ladders.get(&id.name) {
                    Ty::Name(s)
                } else {
                    let mut known: Vec<&str> = self.kinds.keys().map(|s| s.as_str()).collect();
                    known.extend(self.ladders.keys().map(|s| s.as_str()));
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
                            format!("there is no kind or ladder called `{}`", id.name),
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

    /// Checks a default value: a constant of the field's type, within its bounds.
    fn const_default(&mut self, e: &ast::Expr, ty: &Ty, name: &str) -> Option<Value> {
        let saved = std::mem::take(&mut self.scope);
        let t = self.expr(e, Some(ty));
        self.scope = saved;
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
        if let (Value::Int(x), Ty::Int { lo, hi }) = (v, ty)
            && (lo.is_some_and(|l| *x < l) || hi.is_some_and(|h| *x > h))
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

    fn check_define(&mut self, id: u32) {
        if self.define_progress[id as usize] != Progress::NotStarted {
            return;
        }
        self.define_progress[id as usize] = Progress::Running;
        self.define_stack.push(id);
        let d = self.define_ast[id as usize];
        let params = self.fields(&d.params, "parameter");
        let saved = std::mem::take(&mut self.scope);
        for p in &params {
            self.scope.bind(&p.name, p.ty.clone(), p.span, false);
        }
        let t = self.expr(&d.body, None);
        let slots = self.scope.next;
        self.scope = saved;
        let def = &mut self.prog.defines[id as usize];
        def.params = params;
        def.body = t.e;
        def.slots = slots;
        self.define_ty[id as usize] = t.ty;
        self.define_progress[id as usize] = Progress::Done;
        self.define_stack.pop();
    }

    fn check_table(&mut self, id: u32) {
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
        let saved = std::mem::take(&mut self.scope);
        let mut rows = vec![];
        let mut seen_otherwise = false;
        for row in &t.rows {
            if seen_otherwise {
                self.error(
                    Diagnostic::warning(
                        "resolve::unreachable",
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
                row.keys.iter().zip(&params).map(|(k, p)| self.pattern(k, &p.ty, &p.name)).collect();
            let v = self.expr(&row.value, Some(&result));
            self.expect_ty(&v, &result, row.value.span, &format!("a row of table `{}`", t.name.name));
            rows.push((pats, v.e, row.span));
        }
        let slots = self.scope.next;
        self.scope = saved;
        let tab = &mut self.prog.tables[id as usize];
        tab.params = params;
        tab.result = result;
        tab.rows = rows;
        tab.slots = slots;
        self.table_progress[id as usize] = Progress::Done;
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

    fn check_trigger(&mut self, t: &ast::TriggerDef, item: &ast::Item) {
        let Some(&event) = self.events.get(&t.event.name) else {
            let known: Vec<&str> = self.events.keys().map(|s| s.as_str()).collect();
            let help = suggest_or(
                &t.event.name,
                "event",
                &known,
                &format!("declare it with `event {}(…)`", t.event.name),
            );
            self.error(
                Diagnostic::error(
                    "resolve::unknown_event",
                    format!("there is no event called `{}`", t.event.name),
                    t.event.span,
                    "unknown event",
                )
                .with_help(help),
            );
            return;
        };
        self.scope = Scope::default();
        self.ctx = Ctx::Trigger;
        let facts = self.prog.events[event as usize].facts.clone();
        for f in &facts {
            self.scope.bind(&f.name, f.ty.clone(), f.span, false);
        }
        let when = t.when.as_ref().map(|w| {
            let c = self.expr(w, Some(&Ty::Flag));
            self.expect_ty(&c, &Ty::Flag, w.span, "the condition of a rule");
            c.e
        });
        let body = self.block(&t.body);
        self.close_scope();
        let idx = self.prog.triggers.len() as u32;
        let head_end = t.body.first().map(|s| s.span.start).unwrap_or(item.span.end);
        let head = Span::new(item.span.start, head_end.max(item.span.start));
        let head_text = self.src(head).trim_end().trim_end_matches('{').trim_end();
        let head = Span::new(head.start, head.start + head_text.len());
        let text = head_text.split_whitespace().collect::<Vec<_>>().join(" ");
        self.prog.triggers.push(Trigger {
            text,
            event,
            doc: item.doc.clone(),
            when,
            body,
            slots: self.scope.next,
            span: item.span,
            head,
        });
        self.prog.events[event as usize].triggers.push(idx);
        self.ctx = Ctx::Pure;
    }

    fn check_scenario(&mut self, s: &ast::ScenarioDef, item: &ast::Item) {
        self.scope = Scope::default();
        self.ctx = Ctx::Scenario;
        let body = self.block(&s.body);
        self.close_scope();
        self.prog.scenarios.push(Scenario {
            name: s.name.name.clone(),
            title: s.title.as_ref().map(|t| t.0.clone()),
            body,
            slots: self.scope.next,
            span: item.span,
        });
        self.ctx = Ctx::Pure;
    }

    /// Ends a rule: warns about lets that were never read.
    pub(crate) fn close_scope(&mut self) {
        for (name, span) in self.scope.finish() {
            self.diags.push(
                Diagnostic::warning(
                    "resolve::unused",
                    format!("`{name}` is never used"),
                    span,
                    "defined here",
                )
                .with_help("use it, or remove the `let`"),
            );
        }
    }
}
