//! Checking statements: effects in rules and steps in scenarios.

use super::expr::{T, const_value};
use super::{Checker, Ctx};
use crate::ast::{self, BinOp, Span, StmtKind};
use crate::diagnostics::{Diagnostic, suggest, suggest_or};
use crate::program::*;

impl<'a> Checker<'a> {
    pub(crate) fn block(&mut self, stmts: &[ast::Stmt]) -> Vec<Stmt> {
        self.scope.push();
        let out = stmts.iter().filter_map(|s| self.stmt(s)).collect();
        self.scope.pop();
        out
    }

    fn scenario_only(&mut self, span: Span, what: &str) -> bool {
        if self.ctx == Ctx::Scenario {
            return true;
        }
        self.error(
            Diagnostic::error(
                "resolve::scenario_only",
                format!("`{what}` can only be used in a scenario"),
                span,
                "not allowed in a rule",
            )
            .with_help(if what == "option" {
                "a house rule is chosen before play, not by a rule: choose it in a scenario \
                 (`option NAME = VALUE`), with `--option NAME=VALUE`, or with `:option` in the REPL"
                    .to_string()
            } else {
                format!("move this into a `scenario {{ … }}` block; rules cannot `{what}`")
            }),
        );
        false
    }

    /// Checks the target of `set`/`add`/`remove`: an attribute of an entity.
    fn place(&mut self, e: &ast::Expr, verb: &str) -> Option<(Place, Ty, String)> {
        let errors = self.diags.len();
        self.placing = true;
        let t = self.expr(e, None);
        self.placing = false;
        if self.diags.len() > errors {
            // Already reported (a misspelt attribute, say): one mistake, one message.
            return None;
        }
        if let Expr::Field(ent, idx) = t.e
            && let Some(kind) = self.entity_kind_of(&ent)
        {
            let f = &self.prog.kinds[kind as usize].fields[idx as usize];
            let range = match f.ty {
                Ty::Int { lo, hi } => (lo.unwrap_or(i64::MIN), hi.unwrap_or(i64::MAX)),
                _ => (i64::MIN, i64::MAX),
            };
            return Some((Place { entity: *ent, field: idx, kind, range }, t.ty, f.name.clone()));
        }
        self.error(
            Diagnostic::error(
                "resolve::not_assignable",
                format!("`{verb}` needs an attribute of an entity, such as `unit.spi`"),
                e.span,
                "not an attribute",
            )
            .with_help("values worked out with `let`, inputs and facts cannot be changed; change an entity's attribute"),
        );
        None
    }

    /// The kind of an entity-typed expression (re-derived from how it was built).
    fn entity_kind_of(&self, e: &Expr) -> Option<KindId> {
        match e {
            Expr::Local(slot) => self.scope.in_slot(*slot).and_then(|v| match v.ty {
                Ty::Entity(k) => Some(k),
                _ => None,
            }),
            Expr::Field(base, idx) => {
                let k = self.entity_kind_of(base)?;
                match self.prog.kinds[k as usize].fields[*idx as usize].ty {
                    Ty::Entity(k2) => Some(k2),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    pub(super) fn value_for(&mut self, e: &ast::Expr, ty: &Ty, what: &str, name: &str) -> Expr {
        let root = self.data_root.replace(name.to_string());
        let t = self.expr(e, Some(ty));
        self.data_root = root;
        self.expect_ty(&t, ty, e.span, what);
        if let Some(v) = const_value(&t.e) {
            self.in_bounds(&v, ty, e.span, name);
        }
        t.e
    }

    /// How long a timed `set` lasts; for `until EVENT for EXPR`, the one fact of the event with the
    /// expression's type.
    fn until(&mut self, d: &ast::Duration, span: Span) -> Option<Until> {
        Some(match d {
            ast::Duration::EndOfTurn => Until::EndOfTurn,
            ast::Duration::EndOfRound => Until::EndOfRound,
            ast::Duration::NextRound => Until::NextRound,
            ast::Duration::Event { event, fact } => {
                let ev = self.event_named(event)?;
                let Some(fact) = fact else { return Some(Until::Event { event: ev, fact: None }) };
                let t = self.expr(fact, None);
                let facts = &self.prog.events[ev as usize].facts;
                let alike = |a: &Ty| a == &t.ty || matches!((a, &t.ty), (Ty::Int { .. }, Ty::Int { .. }));
                let same: Vec<usize> =
                    facts.iter().enumerate().filter(|(_, f)| alike(&f.ty)).map(|(i, _)| i).collect();
                let [only] = same.as_slice() else {
                    let ty = self.ty_words(&t.ty);
                    let (what, help) = if same.is_empty() {
                        (
                            format!("event `{}` has no fact that is {ty}", event.name),
                            if facts.is_empty() {
                                format!(
                                    "`{}` has no facts: leave out `for …` to end the change the next time it fires, or declare an event of your own with the fact (`event activated(side: side)`) and trigger it",
                                    event.name
                                )
                            } else {
                                let names: Vec<String> =
                                    facts.iter().map(|f| format!("`{}`", f.name)).collect();
                                format!("give a value of the type of one of its facts ({})", names.join(", "))
                            },
                        )
                    } else {
                        (
                            format!("event `{}` has more than one fact that is {ty}", event.name),
                            "declare an event with one fact of this type, so that mettle knows which one to compare"
                                .to_string(),
                        )
                    };
                    self.error(
                        Diagnostic::error(
                            "resolve::until_fact",
                            what,
                            fact.span,
                            "compared with a fact of the event",
                        )
                        .with_label(span, "the change lasts until then")
                        .with_help(help),
                    );
                    return None;
                };
                Until::Event { event: ev, fact: Some((*only as u32, t.e)) }
            }
        })
    }

    pub(super) fn cond(&mut self, e: &ast::Expr, what: &str) -> T {
        let t = self.expr(e, Some(&Ty::Flag));
        self.expect_ty(&t, &Ty::Flag, e.span, what);
        t
    }

    pub(crate) fn stmt(&mut self, s: &ast::Stmt) -> Option<Stmt> {
        let span = s.span;
        Some(match &s.kind {
            StmtKind::Set { place: at, value, until } => {
                if let Some(slot) = self.var_named(at, "set") {
                    return self.set_var(slot, at, value, until.as_ref().map(|u| u.1));
                }
                let (place, ty, name) = self.place(at, "set")?;
                let value = self.value_for(value, &ty, &format!("the new value of `{name}`"), &name);
                let until = match until {
                    Some((d, s)) => Some(self.until(d, *s)?),
                    None => None,
                };
                Stmt::Set { place, value: self.calc(value), until, span }
            }
            StmtKind::Add { amount, .. } | StmtKind::Remove { amount, .. } => {
                let negate = matches!(s.kind, StmtKind::Remove { .. });
                let verb = if negate { "remove" } else { "add" };
                let amount = self.expr(amount, Some(&Ty::INT));
                self.expect_ty(&amount, &Ty::INT, span, &format!("the amount to {verb}"));
                if let Some(slot) = self.var_named(place_expr(s), verb) {
                    return self.add_to_var(slot, place_expr(s), amount.e, negate);
                }
                let (place, ty, name) = self.place(place_expr(s), verb)?;
                if !matches!(ty, Ty::Int { .. }) {
                    let words = self.ty_words(&ty);
                    self.error(
                        Diagnostic::error(
                            "resolve::type_mismatch",
                            format!("`{verb}` needs a number, but `{name}` is {words}"),
                            place_expr(s).span,
                            format!("this is {words}"),
                        )
                        .with_help("use `set … to …` for attributes that are not numbers"),
                    );
                    return None;
                }
                Stmt::Add { place, amount: self.calc(amount.e), negate, span }
            }
            StmtKind::Var(name, e) => return self.var_stmt(name, e),
            StmtKind::Let(name, e) => {
                let t = self.expr(e, None);
                if t.ty == Ty::Text {
                    return None;
                }
                self.declared_twice(name, false);
                let slot = self.scope.bind(&name.name, t.ty.clone(), name.span, true);
                self.scope.declared.insert(slot, false);
                if let Some(p) = t.pool {
                    self.pool_slots.push((slot, p));
                }
                // A yes/no worked out by an operator is the same as that condition's truth.
                let condition = matches!(
                    &t.e,
                    Expr::Not(_)
                        | Expr::Bin(
                            BinOp::And
                                | BinOp::Or
                                | BinOp::Eq
                                | BinOp::Ne
                                | BinOp::Is
                                | BinOp::IsNot
                                | BinOp::Lt
                                | BinOp::Le
                                | BinOp::Gt
                                | BinOp::Ge,
                            ..
                        )
                );
                if t.ty == Ty::Flag && condition {
                    Stmt::LetFlag(slot, Box::new(self.test(t.e)))
                } else {
                    Stmt::Let(slot, self.calc(t.e))
                }
            }
            StmtKind::Roll { check, subject, args } => self.roll_stmt(check, subject.as_ref(), args, span)?,
            StmtKind::If { cond, then, otherwise } => {
                let c = self.cond(cond, "the condition of `if`");
                if let Some(k) = c.known {
                    self.diags.push(
                        Diagnostic::warning(
                            crate::diagnostics::Code::Always.path(),
                            format!("this condition is always {}", if k { "true" } else { "false" }),
                            cond.span,
                            if k { "always holds" } else { "never holds" },
                        )
                        .with_help("check the numbers against the ranges of the values used"),
                    );
                }
                let then = self.block(then);
                let otherwise = self.block(otherwise);
                Stmt::If(self.test_at(c.e, cond.span), then, otherwise)
            }
            StmtKind::ForEach { kind, var, filter, body } => {
                let kind = self.kind(kind)?;
                self.scope.push();
                let slot = self.scope.bind(&var.name, Ty::Entity(kind), var.span, false);
                let filter = filter.as_ref().map(|f| {
                    let c = self.cond(f, "the condition after `where`").e;
                    self.test(c)
                });
                let body = self.block(body);
                self.scope.pop();
                Stmt::ForEach { kind, slot, filter, body }
            }
            StmtKind::Trigger { event, args } => {
                let ev = self.event_named(event)?;
                self.event_fired[ev as usize] = true;
                let facts = self.prog.events[ev as usize].facts.clone();
                let values = self.named_args(&event.name, "fact", &facts, args, span, false);
                Stmt::Trigger {
                    event: ev,
                    args: values
                        .into_iter()
                        .map(|v| self.calc(v.unwrap_or(Expr::Const(Value::None))))
                        .collect(),
                    span,
                }
            }
            StmtKind::Choose(c) => self.choose(c, span)?,
            StmtKind::EndGame { result, winner } => {
                let set = &self.prog.sets[self.prog.results as usize];
                let Some(i) = set.names.iter().position(|n| *n == result.name) else {
                    let known: Vec<&str> = set.names.iter().map(|s| s.as_str()).collect();
                    let help = suggest_or(
                        &result.name,
                        "result",
                        &known,
                        &format!("declare results with `result {} \"Label\"`", result.name),
                    );
                    self.error(
                        Diagnostic::error(
                            "resolve::unknown_result",
                            format!("there is no result called `{}`", result.name),
                            result.span,
                            "unknown result",
                        )
                        .with_help(help),
                    );
                    return None;
                };
                let winner = match winner {
                    Some(w) => {
                        let t = self.expr(w, None);
                        if let Ty::Entity(k) = t.ty {
                            self.winner_kind.get_or_insert(k);
                        }
                        if !matches!(t.ty, Ty::Entity(_)) {
                            let words = self.ty_words(&t.ty);
                            self.error(
                                Diagnostic::error(
                                    "resolve::type_mismatch",
                                    format!("the winner must be an entity, but this is {words}"),
                                    w.span,
                                    format!("this is {words}"),
                                )
                                .with_help("name the winning side, e.g. `for group.opponent`"),
                            );
                        }
                        Some(t.e)
                    }
                    None => None,
                };
                Stmt::EndGame { result: i as u32, winner, span }
            }
            StmtKind::Note(text) => Stmt::Note(text.clone(), span),
            StmtKind::Repeat { body, until } => {
                // The condition is part of the body's block, so it can read the body's lets.
                self.scope.push();
                let body = body.iter().filter_map(|s| self.stmt(s)).collect();
                let until = self.cond(until, "the condition after `until`").e;
                self.scope.pop();
                Stmt::Repeat { body, until: self.test(until), span }
            }
            StmtKind::New { kind, name, with } => {
                if !self.scenario_only(span, "new") {
                    return None;
                }
                let Some(k) = self.kind(kind) else {
                    // Keep the name, so that later steps using it are not reported again.
                    self.scope.bind(&name.name, Ty::Error, name.span, false);
                    return None;
                };
                if self.scope.find(&name.name).is_some() {
                    let prev = self.scope.find(&name.name).map(|v| v.span).unwrap_or_default();
                    self.error(
                        Diagnostic::error(
                            "resolve::duplicate",
                            format!("`{}` is already defined in this scenario", name.name),
                            name.span,
                            "defined again",
                        )
                        .with_label(prev, "first defined here")
                        .with_help("give the new entity another name"),
                    );
                }
                let fields = self.prog.kinds[k as usize].fields.clone();
                let kname = self.prog.kinds[k as usize].name.clone();
                let mut out = vec![];
                for (f, e) in with {
                    match fields.iter().position(|x| x.name == f.name) {
                        Some(i) => {
                            if out.iter().any(|(j, _, _)| *j == i as u32) {
                                self.error(
                                    Diagnostic::error(
                                        "resolve::duplicate",
                                        format!("`{}` is given twice", f.name),
                                        f.span,
                                        "given again",
                                    )
                                    .with_help("give each attribute once"),
                                );
                                continue;
                            }
                            let v = self.value_for(e, &fields[i].ty, &format!("`{}`", f.name), &f.name);
                            out.push((i as u32, v, e.span));
                        }
                        None => {
                            let known: Vec<&str> = fields.iter().map(|x| x.name.as_str()).collect();
                            let help = suggest(&f.name, "attribute", &known);
                            self.error(
                                Diagnostic::error(
                                    "resolve::unknown_attribute",
                                    format!("a {kname} has no attribute `{}`", f.name),
                                    f.span,
                                    "unknown attribute",
                                )
                                .with_help(help),
                            );
                        }
                    }
                }
                for (i, f) in fields.iter().enumerate() {
                    if f.default.is_none()
                        && !matches!(f.ty, Ty::Entity(_))
                        && !out.iter().any(|(j, _, _)| *j == i as u32)
                    {
                        self.error(
                            Diagnostic::error(
                                "resolve::missing_attribute",
                                format!(
                                    "`{}` needs a value for `{}`, which has no default",
                                    name.name, f.name
                                ),
                                span,
                                format!("no `{}` given", f.name),
                            )
                            .with_label(f.span, "declared without a default here")
                            .with_help(format!("add `with {} = …`, or give the attribute a default", f.name)),
                        );
                    }
                }
                let slot = self.scope.bind(&name.name, Ty::Entity(k), name.span, false);
                Stmt::New { kind: k, slot, name: name.name.clone(), with: out, span }
            }
            StmtKind::Dice(faces) => {
                if !self.scenario_only(span, "dice") {
                    return None;
                }
                for (f, fs) in faces {
                    if *f >= 0 {
                        self.forced.push((*f, *fs));
                    }
                    if *f < 0 {
                        self.error(
                            Diagnostic::error(
                                "resolve::bad_dice",
                                "a forced die cannot show a negative face",
                                *fs,
                                "negative",
                            )
                            .with_help("force faces of 0 or more (custom dice), usually 1 and up"),
                        );
                    }
                }
                Stmt::Dice(faces.iter().map(|f| f.0).collect(), span)
            }
            StmtKind::SetOption { option, value } => {
                if !self.scenario_only(span, "option") {
                    return None;
                }
                let Some(&o) = self.options.get(&option.name) else {
                    let known: Vec<&str> = self.options.keys().map(|s| s.as_str()).collect();
                    let help = suggest_or(
                        &option.name,
                        "option",
                        &known,
                        &format!("declare it with `option {}: a | b = a`", option.name),
                    );
                    self.error(
                        Diagnostic::error(
                            "resolve::unknown_option",
                            format!("there is no option called `{}`", option.name),
                            option.span,
                            "unknown option",
                        )
                        .with_help(help),
                    );
                    return None;
                };
                let ty = self.prog.options[o as usize].ty.clone();
                let value = self.value_for(value, &ty, &format!("option `{}`", option.name), &option.name);
                Stmt::SetOption { option: o, value, span }
            }
            StmtKind::Answer { choice, value } => {
                if !self.scenario_only(span, "answer") {
                    return None;
                }
                let Some(&c) = self.choices.get(&choice.name) else {
                    let known: Vec<&str> = self.choices.keys().map(|s| s.as_str()).collect();
                    let help = suggest(&choice.name, "choice", &known);
                    self.error(
                        Diagnostic::error(
                            "resolve::unknown_choice",
                            format!("no rule asks a choice called `{}`", choice.name),
                            choice.span,
                            "unknown choice",
                        )
                        .with_help(help),
                    );
                    return None;
                };
                let ty = self.prog.choices[c as usize].ty.clone();
                let value =
                    self.value_for(value, &ty, &format!("the answer to `{}`", choice.name), &choice.name);
                Stmt::Answer { choice: c, value, span }
            }
            StmtKind::ExpectNoDice { message } => {
                if !self.scenario_only(span, "expect") {
                    return None;
                }
                Stmt::ExpectNoDice { message: message.clone(), span }
            }
            StmtKind::ExpectOrder { text, absent, message } => {
                if !self.scenario_only(span, "expect") {
                    return None;
                }
                Stmt::ExpectOrder { text: text.clone(), absent: *absent, message: message.clone(), span }
            }
            StmtKind::Order(text, at) => self.order(text, *at, span)?,
            StmtKind::Follow(name, args) => {
                if let Some(&r) = self.reactions.get(&name.name) {
                    return self.follow_reaction(r, name, args, span);
                }
                let Some(&f) = self.script_fns.get(&name.name) else {
                    let mut known: Vec<&str> = self.script_fns.keys().map(|s| s.as_str()).collect();
                    known.extend(self.reactions.keys().map(|s| s.as_str()));
                    let help = if known.is_empty() {
                        "a reaction is written `reaction NAME(…) { … }` (or as a function in a `script { … }` \
                         block): define it there"
                            .to_string()
                    } else {
                        suggest(&name.name, "reaction", &known)
                    };
                    self.error(
                        Diagnostic::error(
                            "resolve::unknown_reaction",
                            format!("there is no script function called `{}`", name.name),
                            name.span,
                            "unknown reaction",
                        )
                        .with_help(help),
                    );
                    return None;
                };
                let args = self.script_args(f, args, span).into_iter().map(|e| self.calc(e)).collect();
                Stmt::Follow { func: f, args, span }
            }
            StmtKind::Chance { chance, sides, head, then, otherwise } => {
                self.chance(*chance, *sides, *head, then, otherwise)?
            }
            StmtKind::Record { label, value } => self.record(label, value, span)?,
            StmtKind::Report(_) => {
                self.report_misplaced(span);
                return None;
            }
            StmtKind::Expect { cond, message } => {
                if !self.scenario_only(span, "expect") {
                    return None;
                }
                let c = self.cond(cond, "an expectation");
                Stmt::Expect {
                    cond: self.test(c.e),
                    message: message.clone(),
                    text: self.src(cond.span).to_string(),
                    span,
                }
            }
        })
    }

    /// Checks `name = value` arguments against declared fields; returns one value per field, reporting
    /// unknown, repeated and missing names. Defaults are filled in, unless `callee_defaults` says the
    /// callee works them out itself (a check's inputs, whose defaults may use its other inputs).
    pub(crate) fn named_args(
        &mut self,
        owner: &str,
        what: &str,
        fields: &[FieldDef],
        args: &[(ast::Ident, ast::Expr)],
        span: Span,
        callee_defaults: bool,
    ) -> Vec<Option<Expr>> {
        let mut out: Vec<Option<Expr>> = vec![None; fields.len()];
        for (name, e) in args {
            match fields.iter().position(|f| f.name == name.name) {
                Some(i) if out[i].is_some() => {
                    self.error(
                        Diagnostic::error(
                            "resolve::duplicate",
                            format!("{what} `{}` is given twice", name.name),
                            name.span,
                            "given again",
                        )
                        .with_help("give each value once"),
                    );
                }
                Some(i) => {
                    let v = self.value_for(e, &fields[i].ty, &format!("{what} `{}`", name.name), &name.name);
                    out[i] = Some(v);
                }
                None => {
                    let known: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
                    let help = suggest(&name.name, what, &known);
                    self.error(
                        Diagnostic::error(
                            &format!("resolve::unknown_{what}"),
                            format!("`{owner}` has no {what} `{}`", name.name),
                            name.span,
                            format!("unknown {what}"),
                        )
                        .with_help(help),
                    );
                }
            }
        }
        for (i, f) in fields.iter().enumerate() {
            if out[i].is_none() && !callee_defaults {
                if let Some(v) = &f.default {
                    out[i] = Some(Expr::Const(v.clone()));
                } else if matches!(f.ty, Ty::Entity(_)) && what == "fact" {
                    // An entity fact may be left out: it is then `none`.
                    out[i] = Some(Expr::Const(Value::None));
                } else {
                    self.error(
                        Diagnostic::error(
                            &format!("resolve::missing_{what}"),
                            format!("`{owner}` needs {what} `{}`, which has no default", f.name),
                            span,
                            format!("no `{}` given", f.name),
                        )
                        .with_label(f.span, "declared here")
                        .with_help(format!("add `{}: …`", f.name)),
                    );
                }
            }
        }
        out
    }

    fn roll_stmt(
        &mut self,
        check: &ast::Ident,
        subject: Option<&ast::Expr>,
        args: &[(ast::Ident, ast::Expr)],
        span: Span,
    ) -> Option<Stmt> {
        let c = self.check_named(check)?;
        let want = self.prog.checks[c as usize].subject;
        let subject = match (subject, want) {
            (Some(s), Some(k)) => {
                let t = self.expr(s, Some(&Ty::Entity(k)));
                self.expect_ty(&t, &Ty::Entity(k), s.span, &format!("who makes check `{}`", check.name));
                Some(t.e)
            }
            (Some(s), None) => {
                self.error(
                    Diagnostic::error(
                        "resolve::no_subject",
                        format!("check `{}` is not made by anyone", check.name),
                        s.span,
                        "not needed",
                    )
                    .with_help(format!(
                        "remove `for …`, or declare the check as `check {} for KIND`",
                        check.name
                    )),
                );
                None
            }
            (None, Some(k)) if self.ctx != Ctx::Scenario => {
                let kname = self.prog.kinds[k as usize].name.clone();
                self.error(
                    Diagnostic::error(
                        "resolve::missing_subject",
                        format!("check `{}` is made by a {kname}: say which one", check.name),
                        check.span,
                        "who rolls?",
                    )
                    .with_help(format!(
                        "write `roll {} for SOME_{}`",
                        check.name,
                        kname.to_uppercase()
                    )),
                );
                None
            }
            _ => None,
        };
        let inputs: Vec<FieldDef> =
            self.prog.checks[c as usize].inputs.iter().map(|i| i.field.clone()).collect();
        let has_default: Vec<bool> = self.prog.checks[c as usize]
            .inputs
            .iter()
            .map(|i| i.default.is_some() || i.field.default.is_some())
            .collect();
        let values = self.named_args(&check.name, "input", &inputs, args, span, true);
        for (i, f) in inputs.iter().enumerate() {
            // A check made by someone takes an input its subject has as an attribute from it.
            let from_subject = subject.is_some() && self.prog.subject_attribute(c, i as u32).is_some();
            if values[i].is_none() && !has_default[i] && !from_subject {
                self.error(
                    Diagnostic::error(
                        "resolve::missing_input",
                        format!("check `{}` needs input `{}`, which has no default", check.name, f.name),
                        span,
                        format!("no `{}` given", f.name),
                    )
                    .with_label(f.span, "declared here")
                    .with_help(format!("add `with {} = …`", f.name)),
                );
            }
        }
        let args =
            values.into_iter().enumerate().filter_map(|(i, v)| v.map(|v| (i as u32, self.calc(v)))).collect();
        Some(Stmt::Roll { check: c, subject, args, span })
    }
}

fn place_expr(s: &ast::Stmt) -> &ast::Expr {
    match &s.kind {
        StmtKind::Add { place, .. } | StmtKind::Remove { place, .. } => place,
        _ => unreachable!("only called for add and remove"),
    }
}
