//! Checking `check` definitions: inputs, the roll, modifiers, target, values and outcomes.

use super::expr::PoolInfo;
use super::{Checker, Ctx, Progress};
use crate::ast::{self, CheckLineKind, Span};
use crate::diagnostics::Diagnostic;
use crate::program::*;

impl<'a> Checker<'a> {
    /// Pass 1: the check's name, outcome names and a placeholder body.
    pub(crate) fn declare_check(&mut self, ch: &'a ast::CheckDef, item: &ast::Item) {
        let id = self.prog.checks.len() as CheckId;
        self.checks.insert(ch.name.name.clone(), id);
        let outcome_names: Vec<ast::Ident> = ch
            .lines
            .iter()
            .filter_map(|l| match &l.kind {
                CheckLineKind::Outcome(o) => Some(o.name.clone()),
                _ => None,
            })
            .collect();
        let outcome_set = self.new_set(&format!("{} outcome", ch.name.name), &outcome_names);
        self.prog.checks.push(Check {
            name: ch.name.name.clone(),
            doc: item.doc.clone(),
            subject: None,
            inputs: vec![],
            slots: CheckSlots { subject: 0, dice: 0, natural: 0, total: 0, target: 0, margin: 0 },
            nslots: 0,
            lets: vec![],
            named: vec![],
            lets_for: vec![],
            steps: vec![],
            roll: None,
            modifiers: vec![],
            target: None,
            outcomes: vec![],
            under: false,
            outcome_set,
            groups: vec![],
            reroll: None,
            span: item.span,
        });
        self.check_ast.push(ch);
        self.check_progress.push(Progress::NotStarted);
        self.check_slots.push(vec![]);
    }

    /// Resolves subjects and inputs of every check, so that rules can roll any check.
    pub(crate) fn check_inputs(&mut self) {
        for id in 0..self.check_ast.len() {
            let ch = self.check_ast[id];
            let subject = ch.subject.as_ref().and_then(|s| self.kind(s));
            self.scope = Default::default();
            let mut inputs = vec![];
            let fields: Vec<ast::Field> = ch
                .lines
                .iter()
                .filter_map(|l| match &l.kind {
                    CheckLineKind::Input(f) => Some(f.clone()),
                    _ => None,
                })
                .collect();
            // Defaults may use the subject and earlier inputs, so check them one by one.
            let subject_name = ch.subject.as_ref().map(|s| s.name.clone());
            let resolved = {
                let no_defaults: Vec<ast::Field> =
                    fields.iter().map(|f| ast::Field { default: None, ..f.clone() }).collect();
                self.fields(&no_defaults, "input")
            };
            // Inputs take slots 0..n in order and the subject slot n; a default may use the subject and
            // the inputs before it (they are worked out in order), so names come into scope one by one.
            let n = resolved.len() as u32;
            self.scope.next = n + 1;
            if let (Some(k), Some(name)) = (subject, &subject_name) {
                let span = ch.subject.as_ref().map(|s| s.span).unwrap_or_default();
                self.scope.push_var(super::scope::Var {
                    name: name.clone(),
                    slot: n,
                    ty: Ty::Entity(k),
                    span,
                    used: true,
                    warn_unused: false,
                });
            }
            for f in resolved {
                inputs.push(Input { field: f, default: None });
            }
            for (i, input) in inputs.iter_mut().enumerate() {
                let Some(f) = fields.iter().find(|f| f.name.name == input.field.name) else { continue };
                let bind = |c: &mut Self, input: &Input| {
                    c.scope.push_var(super::scope::Var {
                        name: input.field.name.clone(),
                        slot: i as u32,
                        ty: input.field.ty.clone(),
                        span: input.field.span,
                        used: true,
                        warn_unused: false,
                    });
                };
                let Some(d) = &f.default else {
                    // The subject's attribute of the same name, which the input takes unless given.
                    if let Some(k) = subject {
                        self.own_attribute(k, f, &input.field.ty, &ch.name.name);
                    }
                    bind(self, input);
                    continue;
                };
                let t = self.expr(d, Some(&input.field.ty));
                self.expect_ty(
                    &t,
                    &input.field.ty,
                    d.span,
                    &format!("the default of input `{}`", f.name.name),
                );
                match super::expr::const_value(&t.e) {
                    Some(v) => {
                        self.in_bounds(&v, &input.field.ty, d.span, &f.name.name);
                        input.field.default = Some(v);
                    }
                    None => input.default = Some(self.calc(t.e)),
                }
                // A plain default does not hide the subject's own; one worked out from something does.
                if let (Some(k), None) = (subject, &input.default) {
                    self.own_attribute(k, f, &input.field.ty, &ch.name.name);
                }
                bind(self, input);
            }
            let c = &mut self.prog.checks[id];
            c.subject = subject;
            c.inputs = inputs;
        }
        self.scope = Default::default();
    }

    /// The subject's attribute named like input `f`: read by the check (it takes the input from the
    /// subject unless the roll gives it; `Program::subject_attribute` is the rule), or, of another
    /// type or a wider range, a warning that says how to bind it.
    fn own_attribute(&mut self, kind: KindId, f: &ast::Field, ty: &Ty, check: &str) {
        let k = &self.prog.kinds[kind as usize];
        let Some((i, attr)) = k.fields.iter().enumerate().find(|(_, a)| a.name == f.name.name) else {
            return;
        };
        let fits = match (ty, &attr.ty) {
            (Ty::Int { lo, hi }, Ty::Int { lo: alo, hi: ahi }) => {
                lo.is_none_or(|l| alo.is_some_and(|a| a >= l))
                    && hi.is_none_or(|h| ahi.is_some_and(|a| a <= h))
            }
            (a, b) => a == b,
        };
        // Bound, even if out of range when rolled (an error then): the check reads it.
        if fits || matches!((ty, &attr.ty), (Ty::Int { .. }, Ty::Int { .. })) {
            self.attr_read.insert((kind, i as u32));
        }
        if fits {
            return;
        }
        let (name, kname) = (&f.name.name, &k.name);
        let (theirs, ours) = (self.ty_words(&attr.ty), self.ty_words(ty));
        let help = match (ty, &attr.ty) {
            (Ty::Int { .. }, Ty::Int { lo, hi }) => {
                let bound = |b: &Option<i64>| b.map(|b| b.to_string()).unwrap_or_default();
                let range = if lo.is_none() && hi.is_none() {
                    "int".to_string()
                } else {
                    format!("{}..{}", bound(lo), bound(hi))
                };
                format!(
                    "give the input the attribute's range, so that every {kname}'s value fits: `input \
                     {name}: {range}`; or give it when rolling: `roll {check} for … with {name} = …`; or \
                     rename the input if it means something else"
                )
            }
            _ => format!(
                "rename the input if it means something else, or give it when rolling: `roll {check} for … \
                 with {name} = …`"
            ),
        };
        self.error(
            Diagnostic::warning(
                "resolve::input_unlike_attribute",
                format!(
                    "input `{name}` of check `{check}` is {ours}, but attribute `{name}` of {kname} is {theirs}: \
                     {}",
                    if matches!((ty, &attr.ty), (Ty::Int { .. }, Ty::Int { .. })) {
                        format!("the check takes the {kname}'s own, which may be out of range (an error when rolled)")
                    } else {
                        format!("the check does not take the {kname}'s own")
                    }
                ),
                f.span,
                ours.clone(),
            )
            .with_label(attr.span, theirs.clone())
            .with_help(help),
        );
    }

    pub(crate) fn check_check(&mut self, id: CheckId) {
        if self.check_progress[id as usize] != Progress::NotStarted {
            return;
        }
        self.check_progress[id as usize] = Progress::Running;
        self.apart(|c| c.check_body(id));
        self.check_progress[id as usize] = Progress::Done;
    }

    /// The body of check `id`, on fresh locals.
    fn check_body(&mut self, id: CheckId) {
        let ch = self.check_ast[id as usize];
        self.ctx = Ctx::Pure;
        self.roll_under = roll_under(ch);
        self.prog.checks[id as usize].under = self.roll_under;
        let inputs = self.prog.checks[id as usize].inputs.clone();
        let subject = self.prog.checks[id as usize].subject;
        for i in &inputs {
            self.scope.bind(&i.field.name, i.field.ty.clone(), i.field.span, false);
        }
        let subject_slot = match (subject, &ch.subject) {
            (Some(k), Some(s)) => self.scope.bind(&s.name, Ty::Entity(k), s.span, false),
            _ => {
                let s = self.scope.next;
                self.scope.next += 1;
                s
            }
        };
        self.asker = subject.map(|_| subject_slot);
        let mut slots =
            CheckSlots { subject: subject_slot, dice: 0, natural: 0, total: 0, target: 0, margin: 0 };
        let mut steps = vec![];
        let mut lets = vec![];
        let mut roll: Option<RollLine> = None;
        let mut roll_info: Option<PoolInfo> = None;
        let mut rolled = false;
        let has_roll_line = ch.lines.iter().any(|l| matches!(l.kind, CheckLineKind::Roll { .. }));
        let mut modifiers = vec![];
        let mut target = None;
        let mut named: Vec<(String, u32, Ty)> = inputs
            .iter()
            .enumerate()
            .map(|(i, f)| (f.field.name.clone(), i as u32, f.field.ty.clone()))
            .collect();

        for line in &ch.lines {
            match &line.kind {
                CheckLineKind::Let(name, e) => {
                    if matches!(name.name.as_str(), "dice" | "natural" | "total" | "target" | "margin") {
                        self.error(
                            Diagnostic::error(
                                "resolve::reserved_name",
                                format!("`{}` is a built-in value of every check", name.name),
                                name.span,
                                "would hide the built-in value",
                            )
                            .with_help("choose another name for this value"),
                        );
                    }
                    let t = self.expr(e, None);
                    let slot = self.scope.bind(&name.name, t.ty.clone(), name.span, false);
                    if let Some(p) = t.pool {
                        self.pool_slots.push((slot, p));
                    }
                    named.push((name.name.clone(), slot, t.ty.clone()));
                    lets.push((name.name.clone(), slot));
                    steps.push(CheckStep::Let(slot, self.calc(t.e)));
                }
                CheckLineKind::Roll { dice, name } => {
                    if rolled {
                        self.error(
                            Diagnostic::error(
                                "resolve::duplicate",
                                format!("check `{}` has more than one `roll` line", ch.name.name),
                                line.span,
                                "second roll",
                            )
                            .with_label(roll.as_ref().map(|r| r.span).unwrap_or_default(), "first roll here")
                            .with_help("a check rolls once: put all its dice in one roll, and add dice with `modifier … dice`"),
                        );
                        continue;
                    }
                    let t = self.expr(dice, None);
                    match t.e {
                        Expr::Dice(d) => {
                            roll = Some(RollLine { dice: *d, span: line.span });
                            roll_info = t.pool;
                        }
                        _ => {
                            self.error(
                                Diagnostic::error(
                                    "resolve::roll_not_dice",
                                    "a check's roll must be a single dice term",
                                    dice.span,
                                    "not a dice term",
                                )
                                .with_help("write dice such as `2d6` or `(n)d6`; add flat numbers with `modifier \"Label\" +N`"),
                            );
                        }
                    }
                    let roll_name = name.clone();
                    self.roll_point(
                        ch,
                        &mut modifiers,
                        &mut target,
                        &mut slots,
                        roll_info,
                        &mut named,
                        roll_name.as_ref(),
                    );
                    rolled = true;
                    steps.push(CheckStep::Roll);
                }
                CheckLineKind::Outcome(_) if !rolled && !has_roll_line => {
                    self.roll_point(ch, &mut modifiers, &mut target, &mut slots, None, &mut named, None);
                    rolled = true;
                    steps.push(CheckStep::Roll);
                }
                _ => {}
            }
        }
        if !rolled {
            self.roll_point(ch, &mut modifiers, &mut target, &mut slots, None, &mut named, None);
            steps.push(CheckStep::Roll);
        }
        // Record the check's named slots before its outcomes, so that outcomes may read `last` of it.
        self.check_slots[id as usize] = named.clone();
        let reroll = self.reroll(ch);
        let outcomes = self.outcomes(ch, id);
        let groups = self.groups(ch);
        let lets_for = lets.iter().map(|(name, _)| self.let_for(ch, name)).collect();
        let target = target.map(|e| self.calc(e));
        let c = &mut self.prog.checks[id as usize];
        c.groups = groups;
        c.reroll = reroll;
        c.lets_for = lets_for;
        c.slots = slots;
        c.lets = lets;
        c.named = named;
        c.steps = steps;
        c.roll = roll;
        c.modifiers = modifiers;
        c.target = target;
        c.outcomes = outcomes;
        self.close_scope();
        self.prog.checks[id as usize].nslots = self.scope.next;
    }

    /// Modifiers and target are worked out when the dice are rolled: check them with the names known
    /// at that point, then bring `dice`, `natural`, `total`, `target` and `margin` into scope.
    #[allow(clippy::too_many_arguments, reason = "one call site, which owns all of these")]
    fn roll_point(
        &mut self,
        ch: &ast::CheckDef,
        modifiers: &mut Vec<Modifier>,
        target: &mut Option<Expr>,
        slots: &mut CheckSlots,
        roll_info: Option<PoolInfo>,
        named: &mut Vec<(String, u32, Ty)>,
        roll_name: Option<&ast::Ident>,
    ) {
        let mut extra = (0i64, 0i64);
        let mut flat = (0i64, 0i64);
        for line in &ch.lines {
            match &line.kind {
                CheckLineKind::Modifier(m) => {
                    let amount = self.expr(&m.amount, Some(&Ty::INT));
                    self.expect_ty(&amount, &Ty::INT, m.amount.span, "a modifier's amount");
                    let when = m.when.as_ref().map(|w| {
                        let t = self.expr(w, Some(&Ty::Flag));
                        self.expect_ty(&t, &Ty::Flag, w.span, "a modifier's condition");
                        t
                    });
                    let cap = m.cap.as_ref().map(|c| {
                        let t = self.expr(c, Some(&Ty::INT));
                        self.expect_ty(&t, &Ty::INT, c.span, "a modifier's cap");
                        t
                    });
                    if m.dice && roll_info.is_none() {
                        self.error(
                            Diagnostic::error(
                                "resolve::dice_without_roll",
                                "this modifier adds dice, but the check rolls none",
                                line.span,
                                "no `roll` line to add to",
                            )
                            .with_help(
                                "add a `roll` line such as `roll d6`, or make the modifier a flat number",
                            ),
                        );
                    }
                    let (mut lo, mut hi) = amount.range();
                    if let Some(c) = cap.as_ref().and_then(|c| c.range().1) {
                        hi = hi.map(|h| h.min(c)).or(Some(c));
                        lo = lo.map(|l| l.max(c.saturating_neg()));
                    }
                    let possible = when.as_ref().and_then(|w| w.known) != Some(false);
                    let (lo, hi) =
                        if when.is_some() { (lo.map(|l| l.min(0)), hi.map(|h| h.max(0))) } else { (lo, hi) };
                    if possible {
                        let acc = if m.dice { &mut extra } else { &mut flat };
                        acc.0 = acc.0.saturating_add(lo.unwrap_or(-1_000_000));
                        acc.1 = acc.1.saturating_add(hi.unwrap_or(1_000_000));
                    }
                    modifiers.push(Modifier {
                        label: m.label.0.clone(),
                        doc: line.doc.clone(),
                        amount: self.calc(amount.e),
                        dice: m.dice,
                        when: when.map(|w| self.test(w.e)),
                        cap: cap.map(|c| self.calc(c.e)),
                        span: line.span,
                    });
                }
                CheckLineKind::Target(e) => {
                    if target.is_some() {
                        self.error(
                            Diagnostic::error(
                                "resolve::duplicate",
                                "this check has two targets",
                                line.span,
                                "second target",
                            )
                            .with_help("keep one `target` line"),
                        );
                        continue;
                    }
                    let t = self.expr(e, Some(&Ty::INT));
                    self.expect_ty(&t, &Ty::INT, e.span, "the target");
                    self.target_range = t.range();
                    *target = Some(t.e);
                }
                _ => {}
            }
        }
        let dice_info = roll_info.map(|p| PoolInfo {
            count: ((p.count.0.saturating_add(extra.0)).max(0), p.count.1.saturating_add(extra.1).max(0)),
            ..p
        });
        let sp = ch.name.span;
        slots.dice = self.scope.bind("dice", Ty::Pool, sp, false);
        if let Some(p) = dice_info {
            self.pool_slots.push((slots.dice, p));
        }
        let faces = roll_info.map(|p| p.faces).unwrap_or((0, 0));
        slots.natural = self.scope.bind(
            "natural",
            Ty::Int { lo: Some(faces.0.min(0).max(faces.0)), hi: Some(faces.1) },
            sp,
            false,
        );
        if let Some(n) = roll_name {
            self.scope.push_var(super::scope::Var {
                name: n.name.clone(),
                slot: slots.natural,
                ty: Ty::Int { lo: Some(faces.0), hi: Some(faces.1) },
                span: n.span,
                used: true,
                warn_unused: false,
            });
            named.push((n.name.clone(), slots.natural, Ty::Int { lo: Some(faces.0), hi: Some(faces.1) }));
        }
        let pool_range = match dice_info {
            Some(p) if p.successes => (0, p.count.1),
            Some(p) => (
                p.count.0.saturating_mul(p.faces.0).min(p.count.1.saturating_mul(p.faces.0)),
                p.count.1.saturating_mul(p.faces.1),
            ),
            None => (0, 0),
        };
        let total = (pool_range.0.saturating_add(flat.0), pool_range.1.saturating_add(flat.1));
        slots.total = self.scope.bind("total", Ty::Int { lo: Some(total.0), hi: Some(total.1) }, sp, false);
        let (tl, th) = self.target_range;
        slots.target = self.scope.bind("target", Ty::Int { lo: tl, hi: th }, sp, false);
        // Roll-under: the margin is how far under the target the total came, so that it too is
        // positive for a pass.
        let margin = if self.roll_under {
            (th.map(|h| h.saturating_sub(total.0)), tl.map(|l| l.saturating_sub(total.1)))
        } else {
            (tl.map(|l| total.1.saturating_sub(l)), th.map(|h| total.0.saturating_sub(h)))
        };
        slots.margin = self.scope.bind("margin", Ty::Int { lo: margin.1, hi: margin.0 }, sp, false);
        for (n, s) in [
            ("dice", slots.dice),
            ("natural", slots.natural),
            ("total", slots.total),
            ("target", slots.target),
            ("margin", slots.margin),
        ] {
            let ty = self.scope.find(n).map(|v| v.ty.clone()).unwrap_or(Ty::INT);
            named.push((n.to_string(), s, ty));
        }
        self.target_range = (None, None);
    }

    /// The check's `reroll` line, if it has one: each outcome named is one of the check's, the
    /// condition a flag read with the values after the roll, one line at most.
    fn reroll(&mut self, ch: &ast::CheckDef) -> Option<Reroll> {
        let outcomes = outcome_names(ch);
        let mut out: Option<Reroll> = None;
        for line in &ch.lines {
            let CheckLineKind::Reroll(r) = &line.kind else { continue };
            if let Some(first) = &out {
                self.error(
                    Diagnostic::error(
                        "resolve::duplicate",
                        format!("check `{}` has two `reroll` lines", ch.name.name),
                        line.span,
                        "second reroll",
                    )
                    .with_label(first.span, "first reroll here")
                    .with_help(
                        "name every outcome that is rolled again in one line: `reroll when fail, shaken`",
                    ),
                );
                continue;
            }
            let mut picked: Vec<u32> = vec![];
            for o in &r.outcomes {
                match outcomes.iter().position(|n| *n == o.name) {
                    Some(i) if !picked.contains(&(i as u32)) => picked.push(i as u32),
                    Some(_) => {}
                    None => self.error(
                        Diagnostic::error(
                            "resolve::unknown_name",
                            format!("check `{}` has no outcome `{}`", ch.name.name, o.name),
                            o.span,
                            "not an outcome of this check",
                        )
                        .with_help(crate::diagnostics::suggest(&o.name, "outcome", &outcomes)),
                    ),
                }
            }
            let when = r.when.as_ref().map(|w| {
                let t = self.expr(w, Some(&Ty::Flag));
                self.expect_ty(&t, &Ty::Flag, w.span, "a re-roll's condition");
                self.test_at(t.e, w.span)
            });
            if !r.once && picked.len() == outcomes.len() && when.is_none() && !outcomes.is_empty() {
                self.error(
                    Diagnostic::error(
                        "resolve::reroll_forever",
                        format!("every outcome of check `{}` rolls it again", ch.name.name),
                        line.span,
                        "no roll would ever stand",
                    )
                    .with_help("leave out at least one outcome, or write `once` to roll again at most once"),
                );
            }
            out = Some(Reroll { outcomes: picked, once: r.once, when, span: line.span });
        }
        out
    }

    /// The check's `group` lines: each member an outcome of the check, each name new.
    fn groups(&mut self, ch: &ast::CheckDef) -> Vec<(String, Vec<String>)> {
        let outcomes = outcome_names(ch);
        let mut out: Vec<(String, Vec<String>)> = vec![];
        let mut seen: Vec<&ast::Ident> = vec![];
        for line in &ch.lines {
            let CheckLineKind::Group { name, members } = &line.kind else { continue };
            if outcomes.contains(&name.name.as_str()) {
                self.error(
                    Diagnostic::error(
                        "resolve::duplicate",
                        format!(
                            "group `{}` has the name of an outcome of check `{}`",
                            name.name, ch.name.name
                        ),
                        name.span,
                        "also an outcome",
                    )
                    .with_help("give the group a name of its own, such as `pass` or `fail`"),
                );
                continue;
            }
            if let Some(first) = seen.iter().find(|s| s.name == name.name) {
                self.error(
                    Diagnostic::error(
                        "resolve::duplicate",
                        format!("check `{}` has two groups called `{}`", ch.name.name, name.name),
                        name.span,
                        "second group",
                    )
                    .with_label(first.span, "first group here")
                    .with_help("put every outcome of the group in one `group` line"),
                );
                continue;
            }
            seen.push(name);
            let mut kept: Vec<String> = vec![];
            for m in members {
                if !outcomes.contains(&m.name.as_str()) {
                    self.error(
                        Diagnostic::error(
                            "resolve::unknown_name",
                            format!("check `{}` has no outcome `{}`", ch.name.name, m.name),
                            m.span,
                            "not an outcome of this check",
                        )
                        .with_help(crate::diagnostics::suggest(&m.name, "outcome", &outcomes)),
                    );
                } else if kept.contains(&m.name) {
                    self.diags.push(
                        Diagnostic::warning(
                            "resolve::duplicate",
                            format!("outcome `{}` is in group `{}` twice", m.name, name.name),
                            m.span,
                            "again",
                        )
                        .with_help("an outcome counts once in a group; remove the second"),
                    );
                } else {
                    kept.push(m.name.clone());
                }
            }
            out.push((name.name.clone(), kept));
        }
        out
    }

    fn outcomes(&mut self, ch: &ast::CheckDef, id: CheckId) -> Vec<Outcome> {
        let mut out = vec![];
        let mut always: Option<Span> = None;
        let set = self.prog.checks[id as usize].outcome_set;
        // Looked up once per outcome: a map keeps a check with thousands of outcomes linear.
        let index: std::collections::HashMap<String, u32> = self.prog.sets[set as usize]
            .names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i as u32))
            .collect();
        for line in &ch.lines {
            let CheckLineKind::Outcome(o) = &line.kind else { continue };
            let this_index = index.get(&o.name.name).copied().unwrap_or(0);
            let when = o.when.as_ref().map(|w| {
                let t = self.expr(w, Some(&Ty::Flag));
                self.expect_ty(&t, &Ty::Flag, w.span, "an outcome's condition");
                t
            });
            if let Some(prev) = always {
                self.diags.push(
                    Diagnostic::warning(
                        crate::diagnostics::Code::Unreachable.path(),
                        format!("outcome `{}` can never happen", o.name.name),
                        o.name.span,
                        "never reached",
                    )
                    .with_label(prev, "this outcome always applies first")
                    .with_help("outcomes are tried in order; move this one up or change the conditions"),
                );
            } else if let Some(false) = when.as_ref().and_then(|w| w.known) {
                let span = o.when.as_ref().map(|w| w.span).unwrap_or(o.name.span);
                self.diags.push(
                    Diagnostic::warning(
                        crate::diagnostics::Code::Unreachable.path(),
                        format!("outcome `{}` can never happen", o.name.name),
                        span,
                        "this condition never holds",
                    )
                    .with_help("check the numbers: with the dice and inputs this check allows, the condition is always false"),
                );
            }
            if o.otherwise || o.when.is_none() || when.as_ref().and_then(|w| w.known) == Some(true) {
                always.get_or_insert(o.name.span);
            }
            self.ctx = Ctx::Outcome;
            let body = self.block(&o.body);
            self.ctx = Ctx::Pure;
            out.push(Outcome {
                index: this_index,
                doc: line.doc.clone(),
                when: when.map(|w| self.test(w.e)),
                in_place: crate::program::simple_effects(&body),
                body,
                span: line.span,
            });
        }
        if always.is_none() {
            let span = ch.name.span;
            let d = if out.is_empty() {
                Diagnostic::error(
                    "resolve::no_outcomes",
                    format!("check `{}` has no outcomes", ch.name.name),
                    span,
                    "no outcomes",
                )
                .with_help("add outcomes such as `outcome pass when total >= target` and `otherwise fail`")
            } else {
                // Whether the conditions happen to cover every roll is not worked out here: say
                // "may", and how to write the last outcome so that they surely do.
                let last = ch.lines.iter().rev().find_map(|l| match &l.kind {
                    CheckLineKind::Outcome(o) => Some(o.name.name.as_str()),
                    _ => None,
                });
                let help = match last {
                    Some(last) => format!(
                        "mettle needs the last outcome to catch every roll the others leave: if `{last}` is meant \
                         for the rest, write it `otherwise {last}`; if not, add `otherwise NAME` after it"
                    ),
                    None => {
                        "end the outcomes with `otherwise NAME` for every roll the others do not cover".into()
                    }
                };
                Diagnostic::error(
                    crate::diagnostics::Code::MissingOtherwise.path(),
                    format!("check `{}` has no `otherwise` outcome", ch.name.name),
                    span,
                    "some rolls may match no outcome",
                )
                .with_help(help)
            };
            self.error(d);
        }
        out
    }
}

/// Whether a check passes by rolling at most its target: the first outcome that compares `total`
/// with `target` does so with `total <= target` or `total < target` (either way round).
pub(super) fn roll_under(ch: &ast::CheckDef) -> bool {
    ch.lines.iter().find_map(|l| match &l.kind {
        CheckLineKind::Outcome(o) => o.when.as_ref().and_then(direction),
        _ => None,
    }) == Some(true)
}

/// `Some(true)` for `total <= target`, `Some(false)` for `total >= target`, found anywhere in `e`.
fn direction(e: &ast::Expr) -> Option<bool> {
    use ast::{BinOp as B, ExprKind as K};
    let name = |e: &ast::Expr| match &e.kind {
        K::Name(n) => Some(n.name.clone()),
        _ => None,
    };
    match &e.kind {
        K::Binary(op, a, b) => {
            let pair = (name(a), name(b));
            let (total_first, target_first) = (
                pair.0.as_deref() == Some("total") && pair.1.as_deref() == Some("target"),
                pair.0.as_deref() == Some("target") && pair.1.as_deref() == Some("total"),
            );
            match op {
                B::Le | B::Lt if total_first => Some(true),
                B::Ge | B::Gt if target_first => Some(true),
                B::Ge | B::Gt if total_first => Some(false),
                B::Le | B::Lt if target_first => Some(false),
                _ => direction(a).or_else(|| direction(b)),
            }
        }
        K::Unary(_, x) => direction(x),
        _ => None,
    }
}

impl Checker<'_> {
    /// The outcomes a `let` is worked out for: `Some` when only the effects of some outcomes name it
    /// (no other line, and no outcome's condition), so that explanations leave it out of the others.
    fn let_for(&self, ch: &ast::CheckDef, name: &str) -> Option<Vec<u32>> {
        let names = |span: Span| names_word(self.src(span), name);
        let mut only = vec![];
        let mut outcome = 0u32;
        for line in &ch.lines {
            match &line.kind {
                CheckLineKind::Outcome(o) => {
                    if o.when.as_ref().is_some_and(|w| names(w.span)) {
                        return None;
                    }
                    if o.body.iter().any(|s| names(s.span)) {
                        only.push(outcome);
                    }
                    outcome += 1;
                }
                CheckLineKind::Let(n, _) if n.name == name => {}
                _ if names(line.span) => return None,
                _ => {}
            }
        }
        (!only.is_empty()).then_some(only)
    }
}

/// Whether `text` holds `word` as a whole name.
fn names_word(text: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        !text[..i].chars().next_back().is_some_and(is_ident)
            && !text[i + word.len()..].chars().next().is_some_and(is_ident)
    })
}

/// The names of a check's outcomes, in the order written.
fn outcome_names(ch: &ast::CheckDef) -> Vec<&str> {
    ch.lines
        .iter()
        .filter_map(|l| match &l.kind {
            CheckLineKind::Outcome(o) => Some(o.name.name.as_str()),
            _ => None,
        })
        .collect()
}
