//! Statements in rules and scenarios, for the index: the names they use and declare.

use super::index::SymKind;
use super::resolve::{Builder, one_line};
use mettle::internals::ast::*;

impl Builder<'_> {
    /// Declares a variable holding an entity of kind `kind` (if known) and puts it in scope.
    pub(super) fn variable(&mut self, var: &Ident, kind: Option<usize>, full: Span) -> usize {
        self.variable_as(SymKind::Variable, var, kind, full)
    }

    /// Declares a name of `sym` kind holding an entity of kind `kind` (if known) and puts it in scope.
    fn variable_as(&mut self, sym: SymKind, var: &Ident, kind: Option<usize>, full: Span) -> usize {
        let d = self.def(var, sym, full, None, None);
        self.ix.defs[d].entity = kind;
        if let Some(k) = kind {
            self.ix.defs[d].detail = format!("{}: {}", var.name, self.ix.defs[k].name);
        }
        self.scope.push((var.name.clone(), d));
        d
    }

    pub(super) fn block(&mut self, stmts: &[Stmt]) {
        let mark = self.scope.len();
        for s in stmts {
            self.stmt(s);
        }
        self.scope.truncate(mark);
    }

    /// Named arguments: each name a member of `owner` of kind `kind`, each value hinted by it.
    pub(super) fn args(&mut self, owner: Option<usize>, kind: SymKind, args: &[(Ident, Expr)]) {
        for (n, v) in args {
            let d = owner.and_then(|o| self.ix.child(o, &n.name, &[kind]));
            self.refer(n.span, d);
            self.expr(v, d);
        }
    }

    pub(super) fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Set { place, value, until } => {
                self.expr(place, None);
                let h = self.hint(place);
                self.expr(value, h);
                // `until activated for unit.side`: a use of the event, and of what the fact is compared with.
                if let Some((Duration::Event { event, fact }, _)) = until {
                    let ev = self.top(&event.name, &[SymKind::Event]);
                    self.refer(event.span, ev);
                    if let Some(f) = fact {
                        self.expr(f, None);
                    }
                }
            }
            StmtKind::Add { amount, place } | StmtKind::Remove { amount, place } => {
                self.expr(amount, None);
                self.expr(place, None);
            }
            StmtKind::Let(n, e) | StmtKind::Var(n, e) => {
                self.expr(e, None);
                let kind = self.owner(e).filter(|&k| self.ix.defs[k].kind == SymKind::Kind);
                let d = self.variable_as(SymKind::Let, n, kind, s.span);
                self.ix.defs[d].detail = one_line(self.slice(s.span));
            }
            StmtKind::Roll { check, subject, args } => {
                let c = self.top(&check.name, &[SymKind::Check]);
                self.refer(check.span, c);
                if let Some(e) = subject {
                    self.expr(e, None);
                }
                self.args(c, SymKind::Input, args);
            }
            StmtKind::If { cond, then, otherwise } => {
                self.expr(cond, None);
                self.block(then);
                self.block(otherwise);
            }
            StmtKind::ForEach { kind, var, filter, body } => {
                let k = self.top(&kind.name, &[SymKind::Kind]);
                self.refer(kind.span, k);
                let mark = self.scope.len();
                self.variable(var, k, s.span);
                if let Some(f) = filter {
                    self.expr(f, None);
                }
                self.block(body);
                self.scope.truncate(mark);
            }
            StmtKind::Trigger { event, args } => {
                let ev = self.top(&event.name, &[SymKind::Event]);
                self.refer(event.span, ev);
                self.args(ev, SymKind::Fact, args);
            }
            StmtKind::Choose(c) => self.choose(c, s.span),
            StmtKind::EndGame { result, winner } => {
                let r = self.top(&result.name, &[SymKind::Result]);
                self.refer(result.span, r);
                if let Some(w) = winner {
                    self.expr(w, None);
                }
            }
            StmtKind::Repeat { body, until } => {
                let mark = self.scope.len();
                for s in body {
                    self.stmt(s);
                }
                self.expr(until, None);
                self.scope.truncate(mark);
            }
            StmtKind::New { kind, name, with } => {
                let k = self.top(&kind.name, &[SymKind::Kind]);
                self.refer(kind.span, k);
                self.args(k, SymKind::Attribute, with);
                self.variable(name, k, s.span);
            }
            StmtKind::SetOption { option, value } => {
                let d = self.top(&option.name, &[SymKind::Option]);
                self.refer(option.span, d);
                self.expr(value, d);
            }
            StmtKind::Answer { choice, value } => {
                let c = self.ix.find_any(SymKind::Choice, &choice.name);
                self.refer(choice.span, c);
                self.expr(value, c);
            }
            StmtKind::Expect { cond, .. } => self.expr(cond, None),
            StmtKind::Follow(f, args) => {
                let d = self.top(&f.name, &[SymKind::Reaction, SymKind::ScriptFn]);
                self.refer(f.span, d);
                for a in args {
                    match a {
                        Arg::Expr(e) | Arg::Cmp(_, e, _) => self.expr(e, None),
                    }
                }
            }
            StmtKind::Chance { then, otherwise, .. } => {
                self.block(then);
                self.block(otherwise);
            }
            StmtKind::Record { value, .. } => self.expr(value, None),
            StmtKind::Report(items) => items.iter().for_each(|e| self.expr(e, None)),
            // The `{friend.name}` values of an order are uses of what they name.
            StmtKind::Order(text, at) => {
                for p in mettle::internals::ast::order_pieces(text, at.start + 1).unwrap_or_default() {
                    if let mettle::internals::ast::OrderPiece::Value(e) = p {
                        self.expr(&e, None);
                    }
                }
            }
            StmtKind::Dice(_)
            | StmtKind::Note(_)
            | StmtKind::ExpectOrder { .. }
            | StmtKind::ExpectNoDice { .. } => {}
        }
    }

    pub(super) fn choose(&mut self, c: &ChooseDef, span: Span) {
        let mut kind = None;
        let mark = self.scope.len();
        let d = self.def(&c.name, SymKind::Choice, span, None, None);
        self.ix.defs[d].detail = format!("choose {} \"{}\"", c.name.name, c.question.0);
        match &c.options {
            ChoiceOptions::Names(names) => {
                for n in names {
                    if !matches!(n.name.as_str(), "yes" | "no") {
                        self.def(n, SymKind::State, n.span, None, Some(d));
                    }
                }
            }
            ChoiceOptions::Range(_) => {}
            ChoiceOptions::Entities { kind: k, var, filter } => {
                kind = self.top(&k.name, &[SymKind::Kind]);
                self.refer(k.span, kind);
                self.variable(var, kind, span);
                if let Some(f) = filter {
                    self.expr(f, None);
                }
            }
        }
        self.scope.truncate(mark);
        if let Some(e) = &c.default {
            self.expr(e, Some(d));
        }
        self.ix.defs[d].entity = kind;
        self.scope.push((c.name.name.clone(), d));
    }
}
