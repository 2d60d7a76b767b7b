//! Names, types and arity: turns the syntax tree into a compiled [`Program`], collecting every error
//! and warning on the way rather than stopping at the first.

mod calls;
mod chance;
mod checks;
mod choice;
mod decls;
mod dice;
mod expr;
mod reactions;
mod repl;
mod report;
mod scope;
mod sets;
mod shapes;
mod stmt;
mod totals;
mod vars;

pub use chance::MAX_CHANCE_SIDES;
pub use expr::range_words;
pub use repl::{PromptCode, PromptInput, PromptName, check_prompt};

use crate::ast::{self, ItemKind, Span};
use crate::diagnostics::{Code, Diagnostic, suggest, suggest_or};
use crate::program::*;
use scope::Scope;
use sets::SetIndex;
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
    /// The compiled scripts whose functions the rules call, if the ruleset has any: they stay
    /// beside the program (in the loaded ruleset), not in it.
    scripts: Option<std::sync::Arc<crate::script::Scripts>>,
    /// Every top-level name and where it was defined.
    names: HashMap<String, (&'static str, Span)>,
    kinds: HashMap<String, KindId>,
    ladders: HashMap<String, SetId>,
    /// The name sets by their names.
    set_index: SetIndex,
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
    /// How many formulas and tables are being checked inside each other.
    nested: usize,
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
    /// The slot of the entity the rule being checked is about, who asks its choices: the subject of
    /// the check whose outcomes are checked, or the first entity among a trigger's facts.
    asker: Option<u32>,
    /// Script functions by name.
    script_fns: HashMap<String, u32>,
    /// House-rule options by name.
    options: HashMap<String, u32>,
    /// Shapes of host data by name.
    shapes: HashMap<String, crate::shape::ShapeId>,
    /// The name a data literal being checked against a shape goes by in messages (the fact or
    /// attribute it is given for).
    data_root: Option<String>,
    /// The check being checked passes by rolling under its target (see `checks::roll_under`).
    roll_under: bool,
    /// At the REPL prompt: slots `0..prompt_names` hold the names given on earlier lines.
    prompt_names: u32,
    /// Attributes some rule reads (kind, attribute), for the `unread_attribute` warning.
    attr_read: std::collections::HashSet<(KindId, u32)>,
    /// The attribute being checked is the target of `set`, `add` or `remove`: not a read.
    placing: bool,
    /// The text of the ruleset's scripts (blocks and files): an attribute they name counts as read.
    script_text: String,
    /// The lowest and highest face any die of the rules may show (`None` before the first die).
    die_faces: Option<(i64, i64)>,
    /// The faces scenarios' `dice` lines force, with where each is written.
    forced: Vec<(i64, Span)>,
    /// Whether conditions are listed in the program for the lowering to compile: not those typed
    /// at a prompt, which run on a session whose rules were compiled before.
    listing: bool,
    /// Reactions of the ruleset by name.
    reactions: HashMap<String, u32>,
    reaction_ast: Vec<&'a ast::ReactionDef>,
    /// The reaction being checked, if any: orders are given only there.
    reacting: Option<u32>,
    /// Which reaction follows which, and where, to find one that follows itself.
    reaction_calls: Vec<(u32, u32, Span)>,
}

/// Checks a parsed ruleset and compiles it. Returns the program (when there are no errors) and all
/// diagnostics, warnings included.
pub fn check(
    file: &ast::File,
    text: &str,
    scripts: Option<std::sync::Arc<crate::script::Scripts>>,
) -> (Option<Program>, Vec<Diagnostic>) {
    let mut c = Checker::new(text, file);
    c.use_scripts(scripts);
    c.run(file);
    c.script_names();
    // A check without `otherwise` is an error unless the exact analysis, which needs the compiled
    // program, shows that its outcomes cover every roll: the program is returned when those are the
    // only errors, for the caller to settle them (see `odds::cover`).
    let errors = c.diags.iter().any(|d| d.is_error() && !d.is(Code::MissingOtherwise));
    if errors {
        // Ranges worked out around an error are not to be trusted: say nothing about them. Nor
        // about attributes read by nothing: the read may be the line in error.
        c.diags.retain(|d| {
            d.is_error() || !(d.is(Code::Unreachable) || d.is(Code::Always) || d.is(Code::UnreadAttribute))
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
                frame: 0,
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
                options: vec![],
                shapes: vec![],
                conditions: 0,
                calcs: 0,
                reactions: vec![],
            },
            scripts: None,
            names: HashMap::new(),
            kinds: HashMap::new(),
            ladders: HashMap::new(),
            set_index: SetIndex::default(),
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
            nested: 0,
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
            asker: None,
            script_fns: HashMap::new(),
            options: HashMap::new(),
            shapes: HashMap::new(),
            data_root: None,
            roll_under: false,
            prompt_names: 0,
            attr_read: Default::default(),
            placing: false,
            script_text: String::new(),
            die_faces: None,
            forced: vec![],
            listing: true,
            reactions: HashMap::new(),
            reaction_ast: vec![],
            reacting: None,
            reaction_calls: vec![],
        }
    }

    /// Condition `e`, listed in the program for the lowering to compile (see `Test`).
    pub(super) fn test(&mut self, e: Expr) -> Test {
        let mut t = Test::alone(e);
        if self.listing {
            t.id = self.prog.conditions;
            self.prog.conditions += 1;
        }
        t
    }

    /// Expression `e`, read by a statement, listed in the program for the lowering as conditions are
    /// (see `Calc`).
    pub(super) fn calc(&mut self, e: Expr) -> Calc {
        let mut c = Calc::alone(e);
        if self.listing {
            c.id = self.prog.calcs;
            self.prog.calcs += 1;
        }
        c
    }

    /// Condition `e` written at `span` (an `if`'s, which explanations quote), listed as by `test`.
    pub(super) fn test_at(&mut self, e: Expr, span: Span) -> Test {
        Test { span, ..self.test(e) }
    }

    /// Makes the compiled scripts' functions callable from the rules being checked.
    pub(crate) fn use_scripts(&mut self, scripts: Option<std::sync::Arc<crate::script::Scripts>>) {
        if let Some(s) = &scripts {
            self.script_fns =
                s.functions.iter().enumerate().map(|(i, f)| (f.name.clone(), i as u32)).collect();
        }
        self.scripts = scripts;
    }

    /// A script function may not take the name of a built-in function, a formula, a table or a
    /// reaction: a call (or a `follow`) would be ambiguous.
    fn script_names(&mut self) {
        let Some(scripts) = self.scripts.clone() else { return };
        for f in &scripts.functions {
            let taken = if calls::BUILTINS.contains(&f.name.as_str()) {
                Some(("a built-in function".to_string(), None))
            } else if let Some(&d) = self.defines.get(&f.name) {
                Some(("a formula".to_string(), Some(self.define_ast[d as usize].name.span)))
            } else if let Some(&r) = self.reactions.get(&f.name) {
                Some(("a reaction".to_string(), Some(self.reaction_ast[r as usize].name.span)))
            } else {
                self.tables
                    .get(&f.name)
                    .map(|&t| ("a table".to_string(), Some(self.table_ast[t as usize].name.span)))
            };
            if let Some((what, at)) = taken {
                let mut d = Diagnostic::error(
                    "script::name_taken",
                    format!("script function `{}` has the name of {what}", f.name),
                    f.span,
                    "this name is taken",
                )
                .with_help("rename the script function; calls would not know which one is meant");
                if let (Some(at), None) = (at, &f.file) {
                    d = d.with_label(at, format!("{what} is called `{}` here", f.name));
                }
                if let Some(file) = &f.file {
                    d.source = scripts.file(file);
                }
                self.error(d);
            }
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
        match reserved(&id.name, what) {
            Some(Reserved::Function) => {
                self.error(
                    Diagnostic::error(
                        "resolve::reserved_name",
                        format!("`{}` is a built-in function", id.name),
                        id.span,
                        "already a function of mettle",
                    )
                    .with_help(format!(
                        "give this {what} another name, such as `{}_table` or `my_{}`",
                        id.name, id.name
                    )),
                );
                return false;
            }
            Some(Reserved::Name) => {
                self.error(
                    Diagnostic::error(
                        "resolve::reserved_name",
                        format!("`{}` is a built-in name", id.name),
                        id.span,
                        "already defined by mettle",
                    )
                    .with_help(RESERVED_HELP),
                );
                return false;
            }
            None => {}
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
        // Where each scenario name is first used, for telling a second one with it.
        let mut first_scenario: HashMap<&str, Span> = HashMap::new();
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
                            frame: 0,
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
                            doc: item.doc.clone(),
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
                            doc: item.doc.clone(),
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
                    let first = *first_scenario.entry(s.name.name.as_str()).or_insert(s.name.span);
                    if first != s.name.span {
                        self.error(
                            Diagnostic::error(
                                "resolve::duplicate",
                                format!("scenario `{}` is defined twice", s.name.name),
                                s.name.span,
                                "defined again here",
                            )
                            .with_label(first, "first defined here")
                            .with_help("give one of them another name"),
                        );
                    }
                }
                ItemKind::Option(o) => {
                    if self.claim(&o.name, "option") {
                        self.options.insert(o.name.name.clone(), self.prog.options.len() as u32);
                        // The type and default are worked out in pass 2; a placeholder until then.
                        self.prog.options.push(FieldDef {
                            name: o.name.name.clone(),
                            doc: item.doc.clone().or_else(|| o.doc.clone()),
                            ty: Ty::Flag,
                            default: None,
                            strict: false,
                            span: o.name.span,
                        });
                    }
                }
                ItemKind::Shape(sh) => {
                    if self.claim(&sh.name, "shape") {
                        self.shapes.insert(sh.name.name.clone(), self.prog.shapes.len() as u32);
                        self.prog.shapes.push(crate::shape::Shape {
                            name: sh.name.name.clone(),
                            doc: item.doc.clone(),
                            fields: vec![],
                            span: item.span,
                        });
                    }
                }
                ItemKind::Reaction(r) => self.declare_reaction(r, item),
                ItemKind::Trigger(_) => {}
                // Compiled before checking (see `Ruleset::load`); their names are checked below.
                ItemKind::Script(_) => {}
            }
        }
        // Pass 2: shapes, attributes and facts, ladder numbers.
        for item in &file.items {
            if let ItemKind::Shape(sh) = &item.kind
                && let Some(&id) = self.shapes.get(&sh.name.name)
                && self.prog.shapes[id as usize].span == item.span
            {
                let fields = self.shape_fields(&sh.fields);
                self.prog.shapes[id as usize].fields = fields;
            }
        }
        self.shape_depths();
        for item in &file.items {
            if let ItemKind::Script(s) = &item.kind
                && !s.is_file
            {
                self.script_text.push_str(&s.source.0);
                self.script_text.push('\n');
            }
        }
        if let Some(scripts) = &self.scripts {
            for t in scripts.file_texts() {
                self.script_text.push_str(t);
                self.script_text.push('\n');
            }
        }
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
                ItemKind::Option(o) => {
                    if let Some(&id) = self.options.get(&o.name.name)
                        && self.prog.options[id as usize].span == o.name.span
                    {
                        self.option(id, o);
                    }
                }
                _ => {}
            }
        }
        self.reaction_params();
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
        self.check_reactions();
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
        self.forced_off_every_die();
        self.unused_warnings();
    }

    /// Notes that some die of the rules may show faces `lo` to `hi`.
    pub(crate) fn may_show(&mut self, lo: i64, hi: i64) {
        self.die_faces = Some(match self.die_faces {
            Some((l, h)) => (l.min(lo), h.max(hi)),
            None => (lo, hi),
        });
    }

    /// An error for each face a scenario's `dice` line forces that no die of the rules can show
    /// (`dice 4, 7` where every die is a d6): the scenario would stop at the roll. Rules with
    /// scripts are left alone, and so is a die whose number of sides has no upper bound.
    fn forced_off_every_die(&mut self) {
        if self.scripts.is_some() {
            return;
        }
        let (lo, hi) = self.die_faces.unwrap_or((1, 0));
        let shows = if self.die_faces.is_none() {
            "no die is rolled by these rules".to_string()
        } else if lo == 1 && lo < hi {
            format!("the dice of these rules show 1 to {hi}")
        } else {
            format!("the dice of these rules show {lo} to {hi} at most")
        };
        for (face, span) in std::mem::take(&mut self.forced) {
            if face >= lo && face <= hi {
                continue;
            }
            self.error(
                Diagnostic::error(
                    "resolve::forced_die_impossible",
                    format!("no die of these rules can show {face}"),
                    span,
                    "no die shows this",
                )
                .with_help(format!(
                    "{shows}: a `dice` line forces the faces of the next dice rolled, in order, so force faces \
                     they can show (or roll a bigger die in the rules)"
                )),
            );
        }
    }

    fn unused_warnings(&mut self) {
        for (k, kind) in self.prog.kinds.iter().enumerate() {
            for (i, f) in kind.fields.iter().enumerate() {
                if self.attr_read.contains(&(k as KindId, i as u32)) || mentions(&self.script_text, &f.name) {
                    continue;
                }
                self.diags.push(
                    Diagnostic::warning(
                        Code::UnreadAttribute.path(),
                        format!("no rule reads attribute `{}` of {}", f.name, kind.name),
                        f.span,
                        "never read",
                    )
                    .with_help(format!(
                        "read it in a rule (a condition, a modifier, a formula: `{}.{}`), or remove it; setting it, and reading it in scenarios, do not count",
                        kind.name, f.name
                    )),
                );
            }
        }
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

    /// Runs `f` with fresh locals (a formula, table or check checked from inside another rule, which
    /// needs its own slots from 0), then gives the caller its locals back.
    pub(crate) fn apart<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let scope = std::mem::take(&mut self.scope);
        let pools = std::mem::take(&mut self.pool_slots);
        let ctx = self.ctx;
        let r = f(self);
        self.scope = scope;
        self.pool_slots = pools;
        self.ctx = ctx;
        r
    }

    /// The check called `id`, or an error saying there is none.
    pub(crate) fn check_named(&mut self, id: &ast::Ident) -> Option<CheckId> {
        if let Some(&c) = self.checks.get(&id.name) {
            return Some(c);
        }
        let known: Vec<&str> = self.checks.keys().map(|s| s.as_str()).collect();
        let help = suggest(&id.name, "check", &known);
        self.error(
            Diagnostic::error(
                "resolve::unknown_check",
                format!("there is no check called `{}`", id.name),
                id.span,
                "unknown check",
            )
            .with_help(help),
        );
        None
    }

    /// The event called `id`, or an error saying there is none and how to declare it.
    pub(crate) fn event_named(&mut self, id: &ast::Ident) -> Option<EventId> {
        if let Some(&e) = self.events.get(&id.name) {
            return Some(e);
        }
        let known: Vec<&str> = self.events.keys().map(|s| s.as_str()).collect();
        let help = suggest_or(&id.name, "event", &known, &format!("declare it with `event {}(…)`", id.name));
        self.error(
            Diagnostic::error(
                "resolve::unknown_event",
                format!("there is no event called `{}`", id.name),
                id.span,
                "unknown event",
            )
            .with_help(help),
        );
        None
    }

    fn check_trigger(&mut self, t: &ast::TriggerDef, item: &ast::Item) {
        let Some(event) = self.event_named(&t.event) else { return };
        self.scope = Scope::default();
        self.ctx = Ctx::Trigger;
        let facts = self.prog.events[event as usize].facts.clone();
        self.asker = None;
        for f in &facts {
            let slot = self.scope.bind(&f.name, f.ty.clone(), f.span, false);
            if matches!(f.ty, Ty::Entity(_)) && self.asker.is_none() {
                self.asker = Some(slot);
            }
        }
        let when = t.when.as_ref().map(|w| {
            let c = self.expr(w, Some(&Ty::Flag));
            self.expect_ty(&c, &Ty::Flag, w.span, "the condition of a rule");
            c.e
        });
        let body = self.block(&t.body);
        self.close_scope();
        let idx = self.prog.triggers.len() as u32;
        // The first line ends with the condition, or the event's name: not at the first statement,
        // which may come after a comment.
        let head_end = t.when.as_ref().map_or(t.event.span.end, |w| w.span.end);
        let head = Span::new(item.span.start, head_end.max(item.span.start));
        let text = self.src(head).split_whitespace().collect::<Vec<_>>().join(" ");
        let when = when.map(|w| self.test(w));
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
        let ev = &mut self.prog.events[event as usize];
        ev.triggers.push(idx);
        ev.frame = ev.frame.max(self.scope.next);
        self.ctx = Ctx::Pure;
    }

    fn check_scenario(&mut self, s: &ast::ScenarioDef, item: &ast::Item) {
        self.scope = Scope::default();
        self.ctx = Ctx::Scenario;
        let body = self.scenario_body(&s.body);
        self.close_scope();
        self.prog.scenarios.push(Scenario {
            name: s.name.name.clone(),
            doc: item.doc.clone(),
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

/// Whether script text names `word` as a field (`c.word`, `"word"`): scripts read attributes from the
/// entities they are given, which the checker cannot follow.
fn mentions(text: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        matches!(before, Some('.') | Some('"')) && !after.is_some_and(is_ident)
    })
}

/// Why a top-level name cannot be taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reserved {
    /// A built-in function (`min`, `sum`…), which a formula or a table would hide.
    Function,
    /// A built-in name: `round`, `turn`, `game`, `winner` or a time event (`round_start`…).
    Name,
}

/// The help for a name that is built in.
pub const RESERVED_HELP: &str = "choose another name; `round`, `turn`, `game`, `winner` and the time events `round_start`, `turn_start`, `turn_end`, `round_end` are built in";

/// Whether `name` is reserved for a top-level item of the sort `what` (`"kind"`, `"formula"`…): the
/// one judgement the checker and the language server's rename share.
///
/// ```
/// use mettle::internals::check::{Reserved, reserved};
/// assert_eq!(reserved("turn", "event"), Some(Reserved::Name));
/// assert_eq!(reserved("min", "formula"), Some(Reserved::Function));
/// assert_eq!(reserved("min", "kind"), None);
/// ```
pub fn reserved(name: &str, what: &str) -> Option<Reserved> {
    if matches!(what, "formula" | "table") && calls::BUILTINS.contains(&name) {
        return Some(Reserved::Function);
    }
    (TIME_EVENTS.contains(&name) || matches!(name, "round" | "turn" | "game" | "winner"))
        .then_some(Reserved::Name)
}
