//! What rules and outcomes do, in words, each effect under the conditions and loops it is written in.

use super::words::{self, Source};
use super::{Effect, Words};
use crate::ast::{self, ExprKind, Span, StmtKind};
use crate::program::{Program, Stmt, Until};
use std::collections::HashMap;

/// The conditions and loops an effect is written under, outermost first.
pub(super) type Chain = [Link];

/// A condition or loop an effect is written under, as the card shows it beside the effect (in the
/// list of where a state is set): "if `recovery`", "unless `unit.morale is broken`", "for each unit
/// `u` where `u.resolve_next`"; with the values worked out by `let` that it reads, by name and as
/// written.
#[derive(Debug, Clone)]
pub(super) struct Link {
    /// The condition or loop.
    pub words: Words,
    /// The values it reads that `let` works out: name, and what it is.
    pub lets: Vec<(String, String)>,
}

/// The program's statements of a body by where they are written, to put them in words; the
/// statements that are not effects (`let`) and those that hold others are left out.
fn leaves(body: &[Stmt]) -> HashMap<(usize, usize), &Stmt> {
    fn walk<'a>(body: &'a [Stmt], out: &mut HashMap<(usize, usize), &'a Stmt>) {
        for s in body {
            match s {
                Stmt::If(_, a, b) => {
                    walk(a, out);
                    walk(b, out);
                }
                Stmt::ForEach { body, .. } | Stmt::Repeat { body, .. } => walk(body, out),
                Stmt::Set { span, .. }
                | Stmt::Add { span, .. }
                | Stmt::Roll { span, .. }
                | Stmt::Trigger { span, .. }
                | Stmt::Choose { span, .. }
                | Stmt::EndGame { span, .. }
                | Stmt::Note(_, span)
                | Stmt::Follow { span, .. }
                | Stmt::React { span, .. }
                | Stmt::Order { span, .. } => {
                    out.insert((span.start, span.end), s);
                }
                // Not effects a card shows: worked-out values, and scenario steps.
                Stmt::Let(..)
                | Stmt::LetFlag(..)
                | Stmt::New { .. }
                | Stmt::Dice(..)
                | Stmt::SetOption { .. }
                | Stmt::ExpectNoDice { .. }
                | Stmt::Answer { .. }
                | Stmt::ExpectOrder { .. }
                | Stmt::Record { .. }
                | Stmt::Report { .. }
                | Stmt::Expect { .. } => {}
            }
        }
    }
    let mut out = HashMap::new();
    walk(body, &mut out);
    out
}

/// Puts the statements of one rule or outcome into words.
pub(super) struct Walk<'a> {
    p: &'a Program,
    src: &'a Source<'a>,
    leaves: HashMap<(usize, usize), &'a Stmt>,
    /// The values worked out so far with `let`: a condition that reads one says what it is.
    lets: Vec<Let>,
    /// How many effects have been put into words so far: a value worked out before some of them may
    /// differ from what its formula gives after them.
    done: usize,
}

/// A value worked out with `let`, as written.
#[derive(Debug, Clone)]
pub(super) struct Let {
    /// Its name.
    name: String,
    /// What it is, as written.
    text: String,
    /// The names it reads.
    reads: Vec<String>,
    /// How many effects came before it (`None` for a check's value, worked out from its roll).
    at: Option<usize>,
    /// Whether a condition reads it after effects that may have changed what it reads: then it is
    /// shown where it is worked out.
    shown: bool,
}

impl Let {
    /// `let name = e`.
    pub fn of(src: &Source, name: &ast::Ident, e: &ast::Expr) -> Let {
        let mut reads = vec![];
        names(e, &mut reads);
        Let { name: name.name.clone(), text: src.quote(e.span), reads, at: None, shown: false }
    }
}

impl<'a> Walk<'a> {
    /// A walk over `body`, the compiled form of what is written; `lets` are the values worked out
    /// before it (a check's `let` lines, for an outcome).
    pub fn new(p: &'a Program, src: &'a Source<'a>, body: &'a [Stmt], lets: Vec<Let>) -> Walk<'a> {
        Walk { p, src, leaves: leaves(body), lets, done: 0 }
    }

    /// The effects of `written` (the statements as written), each under its conditions; `each` is
    /// called on every effect's statement with the conditions and loops it is under.
    pub fn effects(&mut self, written: &[ast::Stmt], each: &mut dyn FnMut(&Stmt, &Chain)) -> Vec<Effect> {
        let mut chain = vec![];
        let lets = self.lets.len();
        let out = self.block(written, &mut chain, each);
        self.lets.truncate(lets);
        out
    }

    fn block(
        &mut self,
        written: &[ast::Stmt],
        chain: &mut Vec<Link>,
        each: &mut dyn FnMut(&Stmt, &Chain),
    ) -> Vec<Effect> {
        let lets = self.lets.len();
        let mut out: Vec<Effect> = vec![];
        // Where each `let` of this block is, in case it must be shown.
        let mut places = vec![];
        for s in written {
            if let StmtKind::Let(name, e) | StmtKind::Var(name, e) = &s.kind {
                let mut l = Let::of(self.src, name, e);
                // A `var` is never read as what it started at: a condition names it, and the card
                // shows where it starts and each change.
                let var = matches!(s.kind, StmtKind::Var(..));
                l.at = Some(if var { usize::MAX } else { self.done });
                l.shown = var;
                let mut w = Words::default();
                w.text("works out ");
                w.code(&l.name);
                w.text(" as ");
                w.code(&l.text);
                if matches!(s.kind, StmtKind::Var(..)) {
                    // A `var` may change after: the card says what it starts at, not what it is.
                    w.text(" to start with (the rule changes it)");
                }
                places.push((out.len(), self.lets.len()));
                out.push(Effect { words: w, under: vec![], span: s.span });
                self.lets.push(l);
                continue;
            }
            out.extend(self.stmt(s, chain, each));
        }
        for (at, l) in places.into_iter().rev() {
            if !self.lets[l].shown {
                out.remove(at);
            }
        }
        self.lets.truncate(lets);
        out
    }

    /// The effects of one statement: one for an effect, one or two for an `if` (its `otherwise`
    /// follows it), none for a `let` or a block that does nothing a card shows.
    fn stmt(
        &mut self,
        s: &ast::Stmt,
        chain: &mut Vec<Link>,
        each: &mut dyn FnMut(&Stmt, &Chain),
    ) -> Vec<Effect> {
        if let Some(words) = var_change(self.src, s) {
            self.done += 1;
            return vec![Effect { words, under: vec![], span: s.span }];
        }
        match &s.kind {
            StmtKind::Set { .. }
            | StmtKind::Add { .. }
            | StmtKind::Remove { .. }
            | StmtKind::Roll { .. }
            | StmtKind::Trigger { .. }
            | StmtKind::Choose(_)
            | StmtKind::EndGame { .. }
            | StmtKind::Note(_)
            | StmtKind::Order(..)
            | StmtKind::Follow(..) => {
                let Some(&compiled) = self.leaves.get(&(s.span.start, s.span.end)) else { return vec![] };
                each(compiled, chain);
                self.done += 1;
                let Some(words) = effect(self.p, self.src, compiled) else { return vec![] };
                vec![Effect { words, under: vec![], span: s.span }]
            }
            // Put in words by `block`, where they are needed.
            StmtKind::Let(..) | StmtKind::Var(..) => vec![],
            StmtKind::If { cond, then, otherwise } => {
                let cond = self.condition(cond);
                self.branches(s.span, cond, then, otherwise, chain, each)
            }
            StmtKind::Chance { chance, sides, then, otherwise, .. } => {
                let mut w = Words::default();
                w.text(&format!("the {} in {} chance comes up", chance.0, sides.0));
                self.branches(s.span, (w, vec![]), then, otherwise, chain, each)
            }
            StmtKind::ForEach { kind, var, filter, body } => {
                let mut w = Words::default();
                w.text(&format!("for each {} ", kind.name));
                w.code(&var.name);
                let mut lets = vec![];
                if let Some(f) = filter {
                    w.text(" where ");
                    let (c, l) = self.condition(f);
                    w.extend(c);
                    lets = l;
                }
                self.under(s.span, Link { words: w, lets }, body, chain, each).into_iter().collect()
            }
            StmtKind::Repeat { body, until } => {
                let mut w = Words::default();
                w.text("again and again until ");
                let (c, lets) = self.condition(until);
                w.extend(c);
                self.under(s.span, Link { words: w, lets }, body, chain, each).into_iter().collect()
            }
            // Scenario steps: a rule holds none.
            StmtKind::New { .. }
            | StmtKind::Dice(_)
            | StmtKind::SetOption { .. }
            | StmtKind::Answer { .. }
            | StmtKind::Expect { .. }
            | StmtKind::ExpectOrder { .. }
            | StmtKind::ExpectNoDice { .. }
            | StmtKind::Record { .. }
            | StmtKind::Report(_) => vec![],
        }
    }

    /// An `if` (or a chance) with its `otherwise`: "if C: …" then "otherwise: …", or "otherwise, if
    /// D: …" for an `else if`; "unless C: …" when nothing happens if C holds.
    #[allow(clippy::too_many_arguments, reason = "the parts of an `if`, and the walk's state")]
    fn branches(
        &mut self,
        span: Span,
        (cond, lets): (Words, Vec<(String, String)>),
        then: &[ast::Stmt],
        otherwise: &[ast::Stmt],
        chain: &mut Vec<Link>,
        each: &mut dyn FnMut(&Stmt, &Chain),
    ) -> Vec<Effect> {
        let link = |lead: &str| {
            let mut w = Words::default();
            w.text(lead);
            w.extend(cond.clone());
            Link { words: w, lets: lets.clone() }
        };
        let when = |lead: &str| link(lead).with_lets();
        // Only one branch runs: what the first does has not happened when the second starts.
        let before = self.done;
        chain.push(link("if "));
        let yes = self.block(then, chain, each);
        chain.pop();
        let after_yes = self.done;
        self.done = before;
        chain.push(link("unless "));
        let mut no = self.block(otherwise, chain, each);
        chain.pop();
        self.done += after_yes - before;
        let mut out = vec![];
        if !yes.is_empty() {
            out.push(Effect { words: when("if "), under: yes, span });
        }
        if no.is_empty() {
            return out;
        }
        if out.is_empty() {
            out.push(Effect { words: when("unless "), under: no, span });
            return out;
        }
        // `else if`: "otherwise, if D", followed by its own `otherwise`.
        if let [only] = otherwise
            && matches!(only.kind, StmtKind::If { .. } | StmtKind::Chance { .. })
            && no.first().is_some_and(|e| e.words.plain().starts_with("if "))
        {
            let mut first = no.remove(0);
            let mut w = Words::default();
            w.text("otherwise, ");
            w.extend(first.words);
            first.words = w;
            out.push(first);
            out.extend(no);
            return out;
        }
        let mut w = Words::default();
        w.text("otherwise");
        out.push(Effect { words: w, under: no, span });
        out
    }

    /// A loop: its words with the effects under it, or nothing if it does nothing a card shows.
    fn under(
        &mut self,
        span: Span,
        link: Link,
        body: &[ast::Stmt],
        chain: &mut Vec<Link>,
        each: &mut dyn FnMut(&Stmt, &Chain),
    ) -> Option<Effect> {
        let words = link.with_lets();
        chain.push(link);
        let under = self.block(body, chain, each);
        chain.pop();
        (!under.is_empty()).then_some(Effect { words, under, span })
    }

    /// A condition as written, with the values worked out by `let` that it reads (and those they
    /// read): a condition that is one such value is shown as what it is (`if extra` reads `if spend_ap
    /// and unit.ap > 0`), and the others are named after it ("where `stronger` is …"). A value worked
    /// out before effects that may have changed what it reads is not: it is shown where it is worked
    /// out.
    fn condition(&mut self, e: &ast::Expr) -> (Words, Vec<(String, String)>) {
        let done = self.done;
        let fresh = |l: &Let| l.at.is_none_or(|at| at == done);
        let mut w = Words::default();
        if let ExprKind::Name(n) = &e.kind
            && let Some(l) = self.lets.iter().rev().find(|l| l.name == n.name)
            && fresh(l)
        {
            w.code(&l.text);
            let mut read = l.reads.clone();
            return (w, self.explained(&mut read));
        }
        w.code(&self.src.quote(e.span));
        let mut read = vec![];
        names(e, &mut read);
        (w, self.explained(&mut read))
    }

    /// The values worked out by `let` among `read`, and those they read, by name and as written; a
    /// value that may be out of date is marked to be shown where it is worked out instead.
    fn explained(&mut self, read: &mut Vec<String>) -> Vec<(String, String)> {
        let done = self.done;
        let mut out: Vec<(String, String)> = vec![];
        let mut i = 0;
        while let Some(n) = read.get(i).cloned() {
            i += 1;
            if out.iter().any(|(m, _)| *m == n) {
                continue;
            }
            let Some(l) = self.lets.iter_mut().rev().find(|l| l.name == n) else { continue };
            if l.at.is_some_and(|at| at != done) {
                l.shown = true;
                continue;
            }
            out.push((l.name.clone(), l.text.clone()));
            read.extend(l.reads.iter().cloned());
        }
        out
    }
}

impl Link {
    /// The condition followed by what the values it reads are: "if `drawn > 0`, where `drawn` is …".
    pub fn with_lets(&self) -> Words {
        let mut w = self.words.clone();
        w.extend(where_lets(&self.lets));
        w
    }
}

/// ", where `a` is `…` and `b` is `…`", or nothing.
pub(super) fn where_lets(lets: &[(String, String)]) -> Words {
    let mut w = Words::default();
    for (i, (name, text)) in lets.iter().enumerate() {
        w.text(if i == 0 { ", where " } else { " and " });
        w.code(name);
        w.text(" is ");
        w.code(text);
    }
    w
}

/// The plain names an expression reads (not attributes after a dot), in the order written.
fn names(e: &ast::Expr, out: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Name(n) => out.push(n.name.clone()),
        ExprKind::Field(base, _) => names(base, out),
        ExprKind::Call(_, args) => {
            for a in args {
                match a {
                    ast::Arg::Expr(x) | ast::Arg::Cmp(_, x, _) => names(x, out),
                }
            }
        }
        ExprKind::Dice { count, .. } => {
            if let Some(c) = count {
                names(c, out);
            }
        }
        ExprKind::Binary(_, a, b) => {
            names(a, out);
            names(b, out);
        }
        ExprKind::Unary(_, a) => names(a, out),
        ExprKind::If(c, a, b) => {
            names(c, out);
            names(a, out);
            names(b, out);
        }
        ExprKind::NumberOf { filter, .. } => {
            if let Some(f) = filter {
                names(f, out);
            }
        }
        ExprKind::Total { value, filter, empty, .. } => {
            for x in [value, filter, empty].into_iter().flatten() {
                names(x, out);
            }
        }
        ExprKind::Pick { list, filter, .. } => {
            names(list, out);
            if let Some(f) = filter {
                names(f, out);
            }
        }
        ExprKind::Int(_)
        | ExprKind::Bool(_)
        | ExprKind::None
        | ExprKind::Str(_)
        | ExprKind::Last(_)
        | ExprKind::Data(_) => {}
    }
}

/// A change of a rule's `var` in words ("adds `1` to `hits`"), or `None` for any other statement.
/// (A `set`, `add` or `remove` of a bare name that checked is one of a `var`.)
fn var_change(src: &Source, s: &ast::Stmt) -> Option<Words> {
    let mut w = Words::default();
    match &s.kind {
        StmtKind::Set { place: ast::Expr { kind: ExprKind::Name(n), .. }, value, .. } => {
            w.text("sets ");
            w.code(&n.name);
            w.text(" to ");
            w.code(&src.quote(value.span));
        }
        StmtKind::Add { amount, place: ast::Expr { kind: ExprKind::Name(n), .. } } => {
            w.text("adds ");
            w.code(&src.quote(amount.span));
            w.text(" to ");
            w.code(&n.name);
        }
        StmtKind::Remove { amount, place: ast::Expr { kind: ExprKind::Name(n), .. } } => {
            w.text("removes ");
            w.code(&src.quote(amount.span));
            w.text(" from ");
            w.code(&n.name);
        }
        _ => return None,
    }
    Some(w)
}

/// One effect in words ("sets `unit.morale` to **shaken**"), for the statements that are effects.
pub(super) fn effect(p: &Program, src: &Source, s: &Stmt) -> Option<Words> {
    let mut w = Words::default();
    match s {
        Stmt::Set { place, value, span, until } => {
            let q = src.quote(*span);
            let written = q.strip_prefix("set ").and_then(|r| r.split_once(" to "));
            let attr = written.map_or_else(
                || words::field_name(p, place.kind, place.field),
                |(place, _)| place.to_string(),
            );
            w.text("sets ");
            w.code(&attr);
            w.text(" to ");
            match words::constant(p, value) {
                Some(v) => w.strong(&v),
                None => w.code(&words::set_value(src, *span)),
            }
            match until {
                Some(Until::EndOfTurn) => w.text(" until the end of the turn"),
                Some(Until::EndOfRound) => w.text(" until the end of the round"),
                Some(Until::NextRound) => w.text(" until the end of next round"),
                Some(Until::Event { event, fact }) => {
                    let ev = &p.events[*event as usize];
                    w.text(" until ");
                    w.code(&ev.name);
                    w.text(" next happens");
                    if let Some(f) = fact.as_ref().and_then(|(i, _)| ev.facts.get(*i as usize)) {
                        w.text(" with the same ");
                        w.code(&f.name);
                    }
                }
                None => {}
            }
        }
        Stmt::Add { place, amount, negate, span } => {
            let q = src.quote(*span);
            let written = if *negate {
                q.strip_prefix("remove ").and_then(|r| r.rsplit_once(" from "))
            } else {
                q.strip_prefix("add ").and_then(|r| r.rsplit_once(" to "))
            };
            let (amount_text, attr) = match written {
                Some((a, place)) => (a.to_string(), place.to_string()),
                None => (q.clone(), words::field_name(p, place.kind, place.field)),
            };
            w.text(if *negate { "removes " } else { "adds " });
            match words::constant(p, amount) {
                Some(v) => w.text(&v),
                None => w.code(&amount_text),
            }
            w.text(if *negate { " from " } else { " to " });
            w.code(&attr);
        }
        Stmt::Roll { check, .. } => {
            w.text("rolls ");
            w.strong(&p.checks.get(*check as usize)?.name);
        }
        Stmt::Trigger { event, span, .. } => {
            w.text("triggers ");
            w.strong(&p.events.get(*event as usize)?.name);
            // Its facts as written: the same event with other facts is another effect.
            let q = src.quote(*span);
            if let Some(args) = q.split_once('(').and_then(|(_, rest)| rest.strip_suffix(')'))
                && !args.trim().is_empty()
            {
                w.text(" (");
                w.code(args.trim());
                w.text(")");
            }
        }
        Stmt::Choose { choice, .. } => {
            w.text("asks “");
            w.text(&p.choices.get(*choice as usize)?.question);
            w.text("”");
        }
        Stmt::EndGame { result, .. } => {
            let set = p.sets.get(p.results as usize)?;
            let i = *result as usize;
            let label = set.labels.get(i).cloned().flatten().or_else(|| set.names.get(i).cloned())?;
            w.text("ends the game: ");
            w.strong(&label);
        }
        Stmt::Note(text, _) => {
            w.text("“");
            w.text(text);
            w.text("”");
        }
        Stmt::Follow { span, .. } | Stmt::React { span, .. } => w.code(&src.quote(*span)),
        Stmt::Order { span, .. } => {
            w.text("orders ");
            w.code(src.quote(*span).trim_start_matches("order").trim());
        }
        _ => return None,
    }
    Some(w)
}
