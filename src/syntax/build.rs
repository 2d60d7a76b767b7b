//! pest pairs to syntax tree: items, check lines and statements (expressions are in `expr.rs`).

use super::parse::Rule;
use super::scan;
use crate::ast::*;
use crate::diagnostics::Diagnostic;
use pest::iterators::Pair;
use std::cell::{Cell, RefCell};

/// The deepest the builder recurses: nested expressions and blocks, and runs of prefix operators
/// (which the Pratt parser recurses on). Brackets are capped at 64 before pest runs, but `if … then`
/// chains, `else if` chains and `not not …` are not bracketed. 128 levels fit in 1 MiB of stack even
/// in a debug build.
pub(super) const MAX_NEST: usize = 128;

/// The deepest syntax tree built, counting each operator as a level too (`a + b + c` is as deep as it
/// is long), so that no later pass, nor dropping the tree, recurses too deep.
pub(super) const MAX_TREE: usize = 256;

/// Levels of nesting a node adds: to the builder's recursion, and to the tree's depth.
#[derive(Debug, Clone, Copy)]
pub(super) struct Levels {
    pub(super) nest: usize,
    pub(super) tree: usize,
}

impl Levels {
    /// One level of both.
    pub(super) const ONE: Levels = Levels { nest: 1, tree: 1 };
}

/// Builds syntax trees from pairs of a text that starts at byte `offset` of the whole file,
/// collecting errors (numbers out of range, trees too deep) as it goes.
pub(super) struct Builder {
    offset: usize,
    nest: Cell<usize>,
    tree: Cell<usize>,
    errors: RefCell<Vec<Diagnostic>>,
}

/// The children of a pair, with lookups by rule.
pub(super) struct Kids<'i>(Vec<Pair<'i, Rule>>);

impl<'i> Kids<'i> {
    pub(super) fn of(pair: Pair<'i, Rule>) -> Self {
        Kids(pair.into_inner().collect())
    }
    /// The first child matching `rule`.
    pub(super) fn find(&self, rule: Rule) -> Option<Pair<'i, Rule>> {
        self.0.iter().find(|p| p.as_rule() == rule).cloned()
    }
    /// The first child matching `rule`, which the grammar guarantees.
    pub(super) fn get(&self, rule: Rule) -> Pair<'i, Rule> {
        self.find(rule).unwrap_or_else(|| unreachable!("the grammar guarantees a {rule:?} here"))
    }
    /// Every child matching `rule`.
    pub(super) fn all(&self, rule: Rule) -> std::vec::IntoIter<Pair<'i, Rule>> {
        let matching: Vec<_> = self.0.iter().filter(|p| p.as_rule() == rule).cloned().collect();
        matching.into_iter()
    }
    /// The `n`th child matching `rule`, which the grammar guarantees.
    pub(super) fn nth(&self, rule: Rule, n: usize) -> Pair<'i, Rule> {
        self.all(rule).nth(n).unwrap_or_else(|| unreachable!("the grammar guarantees {} {rule:?}", n + 1))
    }
    /// The child right after the token `rule` (such as `kw_when`), if the token is there.
    pub(super) fn after(&self, rule: Rule) -> Option<Pair<'i, Rule>> {
        let i = self.0.iter().position(|p| p.as_rule() == rule)?;
        self.0.get(i + 1).cloned()
    }
    /// Whether a child matches `rule`.
    pub(super) fn has(&self, rule: Rule) -> bool {
        self.0.iter().any(|p| p.as_rule() == rule)
    }
    /// The first child: the alternative taken by a rule such as `type_expr` or `pattern`.
    pub(super) fn first(&self) -> Pair<'i, Rule> {
        self.0.first().cloned().unwrap_or_else(|| unreachable!("the grammar guarantees a child here"))
    }
}

impl Builder {
    pub(super) fn new(offset: usize) -> Self {
        Builder { offset, nest: Cell::new(0), tree: Cell::new(0), errors: RefCell::new(Vec::new()) }
    }

    /// The errors found while building.
    pub(super) fn finish(self) -> Vec<Diagnostic> {
        self.errors.into_inner()
    }

    pub(super) fn error(&self, diag: Diagnostic) {
        self.errors.borrow_mut().push(diag);
    }

    /// The span of a pair in the whole text, without trailing whitespace and comments.
    pub(super) fn span(&self, pair: &Pair<'_, Rule>) -> Span {
        let start = self.offset + pair.as_span().start();
        Span::new(start, start + scan::trimmed_len(pair.as_str()))
    }

    /// Enters a node that adds `levels`; false (after reporting it, once) when that would be too
    /// deep. Pair with [`Builder::leave`] when it returns true.
    pub(super) fn enter(&self, levels: Levels, span: Span) -> bool {
        let (nest, tree) = (self.nest.get() + levels.nest, self.tree.get() + levels.tree);
        if nest <= MAX_NEST && tree <= MAX_TREE {
            self.nest.set(nest);
            self.tree.set(tree);
            return true;
        }
        if self.errors.borrow().iter().any(|d| d.is(crate::diagnostics::Code::TooDeep)) {
            return false;
        }
        let (message, label) = if nest > MAX_NEST {
            (format!("this is nested more than {MAX_NEST} levels deep"), "nested too deep from here on")
        } else {
            (
                format!("this expression is more than {MAX_TREE} operators deep"),
                "too many operators from here on",
            )
        };
        let help = "split this into smaller expressions or let-bindings";
        self.error(
            Diagnostic::error(crate::diagnostics::Code::TooDeep.path(), message, span, label).with_help(help),
        );
        false
    }

    pub(super) fn leave(&self, levels: Levels) {
        self.nest.set(self.nest.get().saturating_sub(levels.nest));
        self.tree.set(self.tree.get().saturating_sub(levels.tree));
    }

    /// The span of an atomic pair, which never holds trailing whitespace.
    pub(super) fn exact_span(&self, pair: &Pair<'_, Rule>) -> Span {
        let s = pair.as_span();
        Span::new(self.offset + s.start(), self.offset + s.end())
    }

    pub(super) fn ident(&self, pair: Pair<'_, Rule>) -> Ident {
        Ident { name: pair.as_str().to_string(), span: self.span(&pair) }
    }

    /// The text of a `string` pair without its quotes, and the span of the whole literal.
    pub(super) fn string(&self, pair: Pair<'_, Rule>) -> (String, Span) {
        let span = self.span(&pair);
        (Kids::of(pair).get(Rule::string_inner).as_str().to_string(), span)
    }

    /// An `int` or `signed_int`; out of range is reported and read as 0.
    pub(super) fn int(&self, pair: &Pair<'_, Rule>) -> i64 {
        pair.as_str().parse().unwrap_or_else(|_| {
            self.error(
                Diagnostic::error(
                    "parse::bad_number",
                    format!("the number `{}` is too large", pair.as_str()),
                    self.span(pair),
                    "does not fit in 64 bits",
                )
                .with_help(format!("numbers must lie between {} and {}", i64::MIN, i64::MAX)),
            );
            0
        })
    }

    /// A count inside dice notation (`kh3`); out of range is reported and read as 0.
    pub(super) fn count(&self, pair: &Pair<'_, Rule>) -> u32 {
        pair.as_str().parse().unwrap_or_else(|_| {
            self.error(
                Diagnostic::error(
                    "parse::bad_number",
                    format!("the dice count `{}` is too large", pair.as_str()),
                    self.span(pair),
                    "does not fit in 32 bits",
                )
                .with_help(format!("keep and drop counts are at most {}", u32::MAX)),
            );
            0
        })
    }

    /// A `doc` pair as text: `///` and one space stripped from each line, lines joined with `\n`.
    fn doc(&self, pair: Pair<'_, Rule>) -> String {
        let lines = Kids::of(pair).all(Rule::doc_line).map(|l| {
            let text = l.as_str().strip_prefix("///").unwrap_or(l.as_str());
            let text = text.strip_suffix('\r').unwrap_or(text);
            text.strip_prefix(' ').unwrap_or(text).to_string()
        });
        lines.collect::<Vec<_>>().join("\n")
    }

    fn opt_doc(&self, kids: &Kids<'_>) -> Option<String> {
        kids.find(Rule::doc).map(|d| self.doc(d))
    }

    /// A `file` (or `repl_items`) pair.
    pub(super) fn file(&self, pair: Pair<'_, Rule>) -> File {
        let kids = Kids::of(pair);
        let title = kids.find(Rule::header).map(|h| self.string(Kids::of(h).get(Rule::string)));
        File { title, items: kids.all(Rule::item).map(|i| self.item(i)).collect() }
    }

    /// An `item` pair. Its span leaves out the doc comment.
    pub(super) fn item(&self, pair: Pair<'_, Rule>) -> Item {
        let kids = Kids::of(pair);
        let doc = self.opt_doc(&kids);
        let def = kids.0.into_iter().find(|p| p.as_rule() != Rule::doc);
        let def = def.unwrap_or_else(|| unreachable!("the grammar guarantees a definition in an item"));
        let span = self.span(&def);
        let rule = def.as_rule();
        let k = Kids::of(def);
        let kind = match rule {
            Rule::kind_def => ItemKind::Kind(KindDef { name: self.name(&k), fields: self.fields(&k) }),
            Rule::ladder_def => ItemKind::Ladder(LadderDef {
                name: self.name(&k),
                rungs: k.all(Rule::rung).map(|r| self.rung(r)).collect(),
            }),
            Rule::event_def => ItemKind::Event(EventDef { name: self.name(&k), facts: self.fields(&k) }),
            Rule::define_def => ItemKind::Define(DefineDef {
                name: self.name(&k),
                params: self.fields(&k),
                body: self.expr(k.get(Rule::expr)),
            }),
            Rule::table_def => ItemKind::Table(TableDef {
                name: self.name(&k),
                params: self.fields(&k),
                result: k.find(Rule::type_expr).map(|t| self.type_expr(t)),
                rows: k.all(Rule::table_row).map(|r| self.table_row(r)).collect(),
            }),
            Rule::check_def => ItemKind::Check(CheckDef {
                name: self.name(&k),
                subject: k.after(Rule::kw_for).map(|i| self.ident(i)),
                lines: k.all(Rule::check_line).map(|l| self.check_line(l)).collect(),
            }),
            Rule::trigger_def => ItemKind::Trigger(TriggerDef {
                event: self.name(&k),
                when: k.after(Rule::kw_when).map(|e| self.expr(e)),
                body: self.block(k.get(Rule::block)),
            }),
            Rule::result_def => ItemKind::Result(ResultDef {
                name: self.name(&k),
                label: k.find(Rule::string).map(|s| self.string(s)),
            }),
            Rule::scenario_def => ItemKind::Scenario(ScenarioDef {
                name: self.name(&k),
                title: k.find(Rule::string).map(|s| self.string(s)),
                body: self.block(k.get(Rule::block)),
            }),
            Rule::script_def => ItemKind::Script(self.script(&k)),
            Rule::option_def => ItemKind::Option(self.field(k.get(Rule::field))),
            Rule::shape_def => ItemKind::Shape(ShapeDef { name: self.name(&k), fields: self.fields(&k) }),
            r => unreachable!("the grammar has no item {r:?}"),
        };
        Item { doc, span, kind }
    }

    /// The first `ident` child: the name of most definitions.
    fn name(&self, kids: &Kids<'_>) -> Ident {
        self.ident(kids.get(Rule::ident))
    }

    /// The fields of the `field_list` child, if any.
    fn fields(&self, kids: &Kids<'_>) -> Vec<Field> {
        match kids.find(Rule::field_list) {
            Some(list) => Kids::of(list).all(Rule::field).map(|f| self.field(f)).collect(),
            None => Vec::new(),
        }
    }

    /// A `field` or `input_line` pair. The span leaves out the doc comment and `input`.
    fn field(&self, pair: Pair<'_, Rule>) -> Field {
        let kids = Kids::of(pair);
        let name = self.name(&kids);
        let ty = self.type_expr(kids.get(Rule::type_expr));
        let default = kids.after(Rule::equals).map(|e| self.expr(e));
        let strict = kids.has(Rule::kw_strict);
        let end = kids.0.last().map_or(name.span, |p| self.span(p));
        Field { doc: self.opt_doc(&kids), span: name.span.to(end), name, ty, default, strict }
    }

    /// A `type_expr`, or a `choice_range` (whose one child is a `range_type`).
    pub(super) fn type_expr(&self, pair: Pair<'_, Rule>) -> TypeExpr {
        let span = self.span(&pair);
        let inner = Kids::of(pair).first();
        let kind = match inner.as_rule() {
            Rule::range_type => {
                let (lo, hi) = self.range(inner);
                TypeKind::Range { lo, hi }
            }
            Rule::kw_flag => TypeKind::Flag,
            Rule::kw_data => TypeKind::Data,
            Rule::kw_int => TypeKind::Range { lo: None, hi: None },
            Rule::names_type => TypeKind::Names(
                inner
                    .into_inner()
                    .filter(|p| matches!(p.as_rule(), Rule::ident | Rule::kw_none))
                    .map(|i| self.ident(i))
                    .collect(),
            ),
            Rule::ident => TypeKind::Named(self.ident(inner)),
            Rule::kw_text => TypeKind::Text,
            // `list of list of …` is not bracketed: its depth is capped like an operator chain's.
            Rule::list_type if self.enter(Levels::ONE, span) => {
                let t = self.type_expr(Kids::of(inner).get(Rule::type_expr));
                self.leave(Levels::ONE);
                TypeKind::List(Box::new(t))
            }
            Rule::list_type => TypeKind::Data,
            Rule::record_type => TypeKind::Record(self.fields(&Kids::of(inner))),
            r => unreachable!("the grammar has no type {r:?}"),
        };
        TypeExpr { kind, span }
    }

    /// The bounds of a `range_type` or `range_pattern`: `signed_int? ~ dotdot ~ signed_int?`.
    fn range(&self, pair: Pair<'_, Rule>) -> (Option<i64>, Option<i64>) {
        let (mut lo, mut hi) = (None, None);
        let mut seen_dots = false;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::dotdot => seen_dots = true,
                Rule::signed_int if seen_dots => hi = Some(self.int(&p)),
                Rule::signed_int => lo = Some(self.int(&p)),
                _ => {}
            }
        }
        (lo, hi)
    }

    fn rung(&self, pair: Pair<'_, Rule>) -> (Ident, Option<Expr>) {
        let kids = Kids::of(pair);
        (self.name(&kids), kids.after(Rule::equals).map(|e| self.expr(e)))
    }

    fn table_row(&self, pair: Pair<'_, Rule>) -> TableRow {
        let span = self.span(&pair);
        let kids = Kids::of(pair);
        let keys = kids.all(Rule::pattern).map(|p| self.pattern(p)).collect();
        TableRow { keys, value: self.expr(kids.get(Rule::expr)), span }
    }

    fn pattern(&self, pair: Pair<'_, Rule>) -> Pattern {
        let span = self.span(&pair);
        let inner = Kids::of(pair).first();
        let kind = match inner.as_rule() {
            Rule::any_pattern => PatternKind::Any,
            Rule::range_pattern => {
                let (lo, hi) = self.range(inner);
                PatternKind::Range(lo, hi)
            }
            Rule::signed_int => PatternKind::Int(self.int(&inner)),
            Rule::kw_yes => PatternKind::Bool(true),
            Rule::kw_no => PatternKind::Bool(false),
            Rule::ident => PatternKind::Name(self.ident(inner)),
            r => unreachable!("the grammar has no pattern {r:?}"),
        };
        Pattern { kind, span }
    }

    /// A `check_line` pair. The span leaves out the doc comment.
    fn check_line(&self, pair: Pair<'_, Rule>) -> CheckLine {
        let kids = Kids::of(pair);
        let doc = self.opt_doc(&kids);
        let line = kids.0.iter().find(|p| p.as_rule() != Rule::doc).cloned();
        let line = line.unwrap_or_else(|| unreachable!("the grammar guarantees a line after a doc comment"));
        let span = self.span(&line);
        let rule = line.as_rule();
        let k = Kids::of(line.clone());
        let kind = match rule {
            Rule::input_line => CheckLineKind::Input(self.field(line)),
            Rule::roll_line => CheckLineKind::Roll {
                dice: self.expr(k.get(Rule::expr)),
                name: k.after(Rule::kw_as).map(|i| self.ident(i)),
            },
            Rule::modifier_line => CheckLineKind::Modifier(ModifierDef {
                label: self.string(k.get(Rule::string)),
                amount: self.expr(k.get(Rule::expr)),
                dice: k.has(Rule::kw_dice) || k.has(Rule::kw_die),
                when: k.after(Rule::kw_when).map(|e| self.expr(e)),
                cap: k.after(Rule::kw_max).map(|e| self.expr(e)),
            }),
            Rule::target_line => CheckLineKind::Target(self.expr(k.get(Rule::expr))),
            Rule::let_line => CheckLineKind::Let(self.name(&k), self.expr(k.get(Rule::expr))),
            Rule::outcome_line | Rule::otherwise_line => CheckLineKind::Outcome(OutcomeDef {
                name: self.name(&k),
                when: k.after(Rule::kw_when).map(|e| self.expr(e)),
                otherwise: rule == Rule::otherwise_line,
                body: k.find(Rule::block).map(|b| self.block(b)).unwrap_or_default(),
            }),
            Rule::group_line => {
                let mut names =
                    k.0.iter().filter(|p| p.as_rule() == Rule::ident).map(|i| self.ident(i.clone()));
                let name = names.next().unwrap_or_else(|| unreachable!("the grammar gives a group a name"));
                CheckLineKind::Group { name, members: names.collect() }
            }
            Rule::reroll_line => CheckLineKind::Reroll(RerollDef {
                outcomes: k
                    .0
                    .iter()
                    .filter(|p| p.as_rule() == Rule::ident)
                    .map(|i| self.ident(i.clone()))
                    .collect(),
                once: k.has(Rule::kw_once),
                when: k.after(Rule::kw_if).map(|e| self.expr(e)),
            }),
            r => unreachable!("the grammar has no check line {r:?}"),
        };
        CheckLine { doc, span, kind }
    }

    fn script(&self, kids: &Kids<'_>) -> ScriptDef {
        match kids.find(Rule::script_body) {
            Some(body) => {
                let text = Kids::of(body).get(Rule::script_text);
                ScriptDef { source: (text.as_str().to_string(), self.exact_span(&text)), is_file: false }
            }
            None => {
                let inner = Kids::of(kids.get(Rule::string)).get(Rule::string_inner);
                ScriptDef { source: (inner.as_str().to_string(), self.exact_span(&inner)), is_file: true }
            }
        }
    }
}
