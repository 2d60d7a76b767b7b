//! What is typed without a colon: definitions extend the ruleset, statements run on the session, an
//! expression is evaluated and shown.

use super::{Let, Repl, Reply, World, show, transfer};
use crate::ast::{self, ItemKind};
use crate::check::{PromptCode, PromptInput, PromptName, check_prompt};
use crate::program::{Ty, Value};
use crate::syntax::{ReplInput, parse_repl_at};
use std::sync::Arc;

impl Repl {
    /// Offset at which typed input starts: just past the ruleset's text and a newline, as if it were
    /// appended to the file. Spans at or after it point into the input.
    pub(super) fn base(&self) -> usize {
        self.world.rules.text().len() + 1
    }

    pub(super) fn input(&mut self, input: &str, reply: &mut Reply) {
        let base = self.base();
        // Parse the input where it would sit after the ruleset, so that its spans are told apart from
        // the ruleset's: a diagnostic can then point into the input, the file, or both.
        let placed = format!("{}{input}", " ".repeat(base));
        match parse_repl_at(input, base) {
            Err(diags) => reply.fail(self.render(&diags, input)),
            Ok(ReplInput::Items(items)) => self.define(input, &items, reply),
            Ok(ReplInput::Stmts(stmts)) => self.statements(input, &placed, &stmts, reply),
            Ok(ReplInput::Expr(e)) => self.expression(input, &placed, &e, reply),
        }
    }

    /// Definitions: recompile the ruleset with them appended and move the session over.
    fn define(&mut self, input: &str, items: &[ast::Item], reply: &mut Reply) {
        if items.is_empty() {
            return;
        }
        let base = self.base();
        // The texts are shared with every step `:undo` keeps: the list copies pointers.
        let mut typed = Vec::with_capacity(self.world.items.len() + 1);
        typed.extend(self.world.items.iter().cloned());
        typed.push(Arc::<str>::from(input));
        let w = &self.world;
        let compiled = match self.appended(input, items) {
            Some(r) => r,
            None => World::compile(w.file.as_ref(), &w.file_text, &typed, &self.budget, &self.options),
        };
        let (rules, ast) = match compiled {
            Ok(r) => r,
            Err(e) => {
                let mine: Vec<_> = e.diagnostics.into_iter().filter(|d| d.span().start >= base).collect();
                reply.fail(self.render(&mine, input));
                return;
            }
        };
        // An attribute typed at the prompt is read by rules typed later: `mettle check` says it.
        let warnings: Vec<_> = rules
            .warnings()
            .iter()
            .filter(|d| d.span().start >= base && !d.is(crate::diagnostics::Code::UnreadAttribute))
            .cloned()
            .collect();
        if !warnings.is_empty() {
            reply.err.push_str(&self.render(&warnings, input));
        }
        let (session, lets, notes) = transfer::move_over(&w.session, &w.lets, &rules);
        // The new session carries the same log: the step is kept without it.
        let before = self.world.light();
        self.world = World {
            items: Arc::new(typed),
            rules,
            ast: Arc::new(ast),
            session,
            lets: Arc::new(lets),
            ..before.0.clone()
        };
        self.checkpoint_light(before);
        for item in items {
            reply.say(format!("defined {}", describe(item)));
        }
        for n in notes {
            reply.say(format!("  {n}"));
        }
    }

    /// The ruleset with `items` (parsed from `input`, placed after the ruleset's text) appended,
    /// without parsing again what was parsed before: typing definitions one by one would otherwise
    /// parse the whole ruleset each time (2,000 of them took minutes). `None` when the input's text
    /// reads otherwise inside the whole (a byte order mark, a carriage return, a ruleset parsed
    /// with errors), and the whole is parsed instead.
    fn appended(
        &self,
        input: &str,
        items: &[ast::Item],
    ) -> Option<Result<(crate::Ruleset, ast::File), crate::LoadError>> {
        let w = &self.world;
        let titled = input.lines().any(|l| l.trim_start().starts_with("ruleset"));
        if titled
            || input.contains(['\r', '\u{feff}'])
            || (w.ast.items.is_empty() && !w.rules.text().trim().is_empty())
        {
            return None;
        }
        let text = format!("{}\n{input}", w.rules.text());
        if text.len() as u64 > self.budget.ruleset_bytes {
            return None;
        }
        let mut ast = ast::File {
            title: w.ast.title.clone(),
            items: Vec::with_capacity(w.ast.items.len() + items.len()),
        };
        ast.items.extend(w.ast.items.iter().cloned());
        ast.items.extend(items.iter().cloned());
        let name = w.file.as_ref().map_or_else(|| "prompt".to_string(), |f| f.display().to_string());
        let opts = crate::LoadOptions {
            base: w.file.as_ref().and_then(|f| f.parent()).map(|p| p.to_path_buf()),
            budget: self.budget.clone(),
            options: self.options.to_vec(),
            ..Default::default()
        };
        Some(crate::Ruleset::load_parsed(&name, &text, &ast, vec![], &opts).map(|r| (r, ast)))
    }

    /// The names earlier lines left: entities in play, then `let` values (which shadow them). With
    /// `only`, just the entities whose names are among its words (the rest cannot be read by the line).
    fn prompt_names(&self, only: Option<&std::collections::HashSet<&str>>) -> (Vec<PromptName>, Vec<Value>) {
        let mut names = vec![];
        let mut frame = vec![];
        let entities = &self.world.session.state().entities;
        for (id, e) in entities.iter() {
            if only.is_some_and(|words| !words.contains(e.name.as_str())) {
                continue;
            }
            names.push(PromptName { name: e.name.clone(), ty: Ty::Entity(e.kind) });
            frame.push(Value::Entity(id));
        }
        for l in self.world.lets.iter() {
            names.push(PromptName { name: l.name.clone(), ty: l.ty.clone() });
            // A `let` that named an entity since removed names none.
            frame.push(match l.value {
                Value::Entity(id) if entities.get(id).is_none() => Value::None,
                ref v => v.clone(),
            });
        }
        (names, frame)
    }

    /// Checks a line with the prompt's names bound, and the frame of their values. Only the entities
    /// the line names are bound, so a line costs the same among 10,000 units as among ten; a line
    /// the checker says anything about is checked again with every name, for the same messages
    /// (a "did you mean" among all the units).
    pub(super) fn check_with_names(
        &self,
        input: &str,
        line: PromptInput<'_>,
        placed: &str,
    ) -> (Vec<Value>, Option<PromptCode>, Vec<crate::diagnostics::Diagnostic>) {
        let words: std::collections::HashSet<&str> =
            input.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
        let (names, frame) = self.prompt_names(Some(&words));
        let (code, diags) = self.check_line(&names, line, placed);
        if code.is_some() && diags.is_empty() {
            return (frame, code, diags);
        }
        let (names, frame) = self.prompt_names(None);
        let (code, diags) = self.check_line(&names, line, placed);
        (frame, code, diags)
    }

    /// Checks a line against the loaded rules (and their scripts), with the prompt's names bound.
    fn check_line(
        &self,
        names: &[PromptName],
        input: PromptInput<'_>,
        placed: &str,
    ) -> (Option<PromptCode>, Vec<crate::diagnostics::Diagnostic>) {
        let w = &self.world;
        check_prompt(&w.ast, w.rules.text(), names, input, placed, w.rules.scripts().cloned())
    }

    fn statements(&mut self, input: &str, placed: &str, stmts: &[ast::Stmt], reply: &mut Reply) {
        let (mut frame, code, diags) = self.check_with_names(input, PromptInput::Stmts(stmts), placed);
        let Some(PromptCode::Stmts { stmts, slots, bound }) = code else {
            reply.fail(self.render(&diags, input));
            return;
        };
        if !diags.is_empty() {
            reply.err.push_str(&self.render(&diags, input));
        }
        frame.resize(slots as usize, Value::None);
        let before = self.world.light();
        let start = before.1;
        if let Err(d) = self.world.session.run_prompt(&stmts, &mut frame) {
            reply.fail(self.render(std::slice::from_ref(&d), input));
            return;
        }
        for (name, ty, slot) in bound {
            let value = frame[slot as usize].clone();
            // `new` binds the entity's own name: the entity is known from the session already.
            if let Value::Entity(id) = value
                && self.world.session.state().entities.get(id).is_some_and(|e| e.name == name)
            {
                continue;
            }
            let lets = Arc::make_mut(&mut self.world.lets);
            lets.retain(|l| l.name != name);
            lets.push(Let { name, ty, value });
        }
        self.report_log(start, reply);
        // Entities the line left alone are shared with `before`: comparing them reads no entity.
        let lets_changed = !Arc::ptr_eq(&self.world.lets, &before.0.lets) && self.world.lets != before.0.lets;
        if self.world.session.state() != before.0.session.state() || lets_changed {
            self.checkpoint_light(before);
        }
    }

    fn expression(&mut self, input: &str, placed: &str, e: &ast::Expr, reply: &mut Reply) {
        let (mut frame, code, diags) = self.check_with_names(input, PromptInput::Expr(e), placed);
        let Some(PromptCode::Expr { expr, ty, slots }) = code else {
            reply.fail(self.render(&diags, input));
            return;
        };
        if ty == Ty::Text {
            reply.say(input.trim());
            return;
        }
        frame.resize(slots as usize, Value::None);
        let before = self.world.light();
        let start = before.1;
        match self.world.session.eval_prompt(&expr, &mut frame) {
            Ok(v) => {
                let shown = self.world.session.show(&v);
                match v {
                    Value::Entity(id) => reply.say(show::entity(&self.world.session, id)),
                    _ => reply.say(shown),
                }
                if self.world.session.log().len() > start {
                    let log = show::unplaced(&self.world.session.log()[start..], self.base());
                    let explained = crate::session::render_log_verbose(&log, self.world.rules.text());
                    self.explained = Some(self.typed_lines(&explained));
                }
                if self.world.session.state() != before.0.session.state() {
                    self.checkpoint_light(before);
                }
            }
            Err(d) => reply.fail(self.render(std::slice::from_ref(&d), input)),
        }
    }

    /// Prints what the session logged since `start`, briefly, and keeps the full explanation.
    pub(super) fn report_log(&mut self, start: usize, reply: &mut Reply) {
        let log = &self.world.session.log()[start..];
        if log.is_empty() {
            return;
        }
        let log = show::unplaced(log, self.base());
        let brief = show::brief(&log, self.world.rules.text());
        reply.out.push_str(&self.typed_lines(&brief));
        let explained = crate::session::render_log_verbose(&log, self.world.rules.text());
        self.explained = Some(self.typed_lines(&explained));
    }
}

/// "check `morale`", "rule on damaged", … for a definition typed at the prompt.
fn describe(item: &ast::Item) -> String {
    match &item.kind {
        ItemKind::Kind(k) => format!("kind `{}`", k.name.name),
        ItemKind::Ladder(l) => format!("ladder `{}`", l.name.name),
        ItemKind::Event(e) => format!("event `{}`", e.name.name),
        ItemKind::Define(d) => format!("formula `{}`", d.name.name),
        ItemKind::Table(t) => format!("table `{}`", t.name.name),
        ItemKind::Check(c) => format!("check `{}`", c.name.name),
        ItemKind::Trigger(t) => format!("a rule on `{}`", t.event.name),
        ItemKind::Result(r) => format!("result `{}`", r.name.name),
        ItemKind::Scenario(s) => format!("scenario `{}`", s.name.name),
        ItemKind::Script(_) => "a script".to_string(),
        ItemKind::Option(o) => format!("option `{}`", o.name.name),
        ItemKind::Shape(s) => format!("shape `{}`", s.name.name),
        ItemKind::Reaction(r) => format!("reaction `{}`", r.name.name),
    }
}
