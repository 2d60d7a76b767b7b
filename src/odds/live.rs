//! What a path paused on its way through a scenario can still read later: the values of the frame
//! it paused in, and the parts of the checks' last results. Paths that differ only in what nothing
//! reads again reach the same game state, and merging equal game states (`odds::states`) keys
//! only what is live, so that the count of states is the same in every build, whatever a frame
//! used again held before.

use crate::program::*;
use crate::session::{Keep, LastRead};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

type Slots = BTreeSet<u32>;

/// What the rules and scenario `scenario` can read later, worked out once before merging.
pub(crate) struct Live<'p> {
    p: &'p Program,
    body: &'p [Stmt],
    /// What of each check's last result anything reads.
    reads: Vec<LastRead>,
    /// Checks whose last result a rule can read before rolling it in the same firing: at a step
    /// of the scenario, their last results tell states apart.
    uncovered: Vec<bool>,
    /// Checks whose last result a rule reads at all.
    in_rules: Vec<bool>,
    /// For each top-level step of the scenario: the checks whose last result it, or a later step,
    /// reads.
    later: Vec<Vec<bool>>,
    /// The slots read after each `roll`, `trigger` and reaction's `follow`, and at each turn of
    /// each `repeat`, by its span.
    frames: HashMap<(usize, usize), Slots>,
    /// Keys made so far, by the scenario's top-level step.
    keeps: HashMap<usize, Arc<Keep>>,
    /// The scenario's live slots before each place, by place.
    places: HashMap<Vec<usize>, Arc<[u32]>>,
    scripts: bool,
    /// The checks whose dice may be walked by class of faces (see [`Keep::classed`]).
    classed: Arc<[bool]>,
}

impl<'p> Live<'p> {
    /// Works out what is read where in the rules and in scenario `scenario` (rules with `scripts`
    /// may read any value).
    pub(crate) fn new(p: &'p Program, scripts: bool, scenario: usize) -> Live<'p> {
        let n = p.checks.len();
        let body = &p.scenarios[scenario].body;
        let mut l = Live {
            p,
            body,
            reads: vec![LastRead::default(); n],
            uncovered: vec![false; n],
            in_rules: vec![false; n],
            later: vec![],
            frames: HashMap::new(),
            keeps: HashMap::new(),
            places: HashMap::new(),
            scripts,
            classed: Arc::new([]),
        };
        l.rules();
        // The scenario: what each step on reads of last results, and its frame's live slots.
        let mut acc = vec![false; n];
        let mut later = vec![acc.clone()];
        for st in body.iter().rev() {
            let mut lasts = Slots::new();
            l.collect(st, &mut lasts);
            for c in lasts {
                acc[c as usize] = true;
            }
            later.push(acc.clone());
        }
        later.reverse();
        l.later = later;
        l.live_in(body, Slots::new());
        l.classed = (0..n).map(|c| l.faces_unread(c)).collect();
        l
    }

    /// Whether check `c` rolls a pool whose value is its count of successes and nothing reads the
    /// faces of its dice: neither its own rules (its `dice` and `natural`, in any of its parts or
    /// outcomes' effects) nor any other, through its last result; and no script, which may read
    /// anything. Its dice are then alike within each class of faces (success or not): a walk that
    /// tries one face of each, weighted by the faces it stands for, finds the same chances.
    fn faces_unread(&mut self, c: usize) -> bool {
        let p = self.p;
        let check = &p.checks[c];
        let Some(roll) = &check.roll else { return false };
        if self.scripts || crate::dice::success_test(&roll.dice.mods).is_none() {
            return false;
        }
        // The class is the walk's while the pool's dice are drawn, with its count and sides worked
        // out then too: they must draw no die of their own.
        let sides = match &roll.dice.sides {
            SidesExpr::Count(e) => no_dice(e),
            SidesExpr::Faces(_) => true,
        };
        if !no_dice(&roll.dice.count) || !sides {
            return false;
        }
        let (dice, natural) = (check.slots.dice, check.slots.natural);
        let r = &self.reads[c];
        if r.whole || r.slots.contains(&dice) || r.slots.contains(&natural) {
            return false;
        }
        // Every slot any part of the check reads: what it works out before the roll as well
        // (nothing there can see the dice, but a wider net costs nothing).
        let mut read = Slots::new();
        let mut lasts = Slots::new();
        let (before, after) = super::scan::parts(check);
        for e in before.into_iter().chain(after) {
            self.expr(e, &mut read, &mut lasts);
        }
        for o in &check.outcomes {
            read.extend(self.live_in(&o.body, Slots::new()));
        }
        !read.contains(&dice) && !read.contains(&natural)
    }

    /// Reads every rule: what of the last results it reads, which reads come before the rule
    /// rolls the check, and the live slots at each pause inside it.
    fn rules(&mut self) {
        let p = self.p;
        // Reads outside a rule's statements (inputs, modifiers, targets, conditions, formulas,
        // tables) may come at any time.
        let mut anywhere = Slots::new();
        let mut sink = Slots::new();
        for c in &p.checks {
            for i in &c.inputs {
                if let Some(e) = &i.default {
                    self.expr(e, &mut sink, &mut anywhere);
                }
            }
            for s in &c.steps {
                if let CheckStep::Let(_, e) = s {
                    self.expr(e, &mut sink, &mut anywhere);
                }
            }
            if let Some(r) = &c.roll {
                self.dice(&r.dice, &mut sink, &mut anywhere);
            }
            for m in &c.modifiers {
                self.expr(&m.amount, &mut sink, &mut anywhere);
                if let Some(t) = &m.when {
                    self.expr(&t.expr, &mut sink, &mut anywhere);
                }
                if let Some(e) = &m.cap {
                    self.expr(e, &mut sink, &mut anywhere);
                }
            }
            if let Some(e) = &c.target {
                self.expr(e, &mut sink, &mut anywhere);
            }
            for o in &c.outcomes {
                if let Some(t) = &o.when {
                    self.expr(&t.expr, &mut sink, &mut anywhere);
                }
            }
            if let Some(t) = c.reroll.as_ref().and_then(|r| r.when.as_ref()) {
                self.expr(&t.expr, &mut sink, &mut anywhere);
            }
        }
        for t in &p.triggers {
            if let Some(w) = &t.when {
                self.expr(&w.expr, &mut sink, &mut anywhere);
            }
        }
        for d in &p.defines {
            self.expr(&d.body, &mut sink, &mut anywhere);
        }
        for t in &p.tables {
            for (_, e, _) in &t.rows {
                self.expr(e, &mut sink, &mut anywhere);
            }
        }
        for c in anywhere {
            self.uncovered[c as usize] = true;
        }
        // Statements: a read after the rule rolled the check in the same firing reads that roll.
        for c in &p.checks {
            for o in &c.outcomes {
                self.cover(&o.body, &mut Slots::new());
                self.live_in(&o.body, Slots::new());
            }
        }
        for t in &p.triggers {
            self.cover(&t.body, &mut Slots::new());
            // The triggers of an event run one after another in one frame: the next reads the facts.
            let facts = p.events.get(t.event as usize).map_or(0, |e| e.facts.len() as u32);
            self.live_in(&t.body, (0..facts).collect());
        }
        for r in &p.reactions {
            self.cover(&r.body, &mut Slots::new());
            self.live_in(&r.body, Slots::new());
        }
        for (c, r) in self.reads.iter().enumerate() {
            self.in_rules[c] = r.read;
        }
        self.in_rules.iter_mut().zip(&self.uncovered).for_each(|(a, u)| *a |= u);
    }

    /// What to key at the places of the scenario from top-level step `step` on: the checks'
    /// last results that a later statement can read (at a step, those of the scenario's later
    /// steps and those a rule reads before rolling; inside a rule, those any rule reads too),
    /// and the live slots after each pause inside a rule.
    pub(crate) fn keep(&mut self, step: usize) -> Arc<Keep> {
        if let Some(k) = self.keeps.get(&step) {
            return k.clone();
        }
        let n = self.p.checks.len();
        let later = self.later.get(step).cloned().unwrap_or_else(|| vec![false; n]);
        let at_step: Vec<bool> = (0..n).map(|c| self.scripts || later[c] || self.uncovered[c]).collect();
        let in_rule: Vec<bool> = (0..n).map(|c| at_step[c] || self.in_rules[c]).collect();
        let reads: Arc<[LastRead]> = if self.scripts {
            vec![LastRead { whole: true, ..LastRead::default() }; n].into()
        } else {
            self.reads.clone().into()
        };
        let frames = match self.keeps.values().next() {
            Some(k) => k.frames.clone(),
            None => Arc::new(self.frames.iter().map(|(k, v)| (*k, v.iter().copied().collect())).collect()),
        };
        let classed = self.classed.clone();
        let k = Arc::new(Keep { at_step, in_rule, reads, frames, classed });
        self.keeps.insert(step, k.clone());
        k
    }

    /// The slots of the scenario's frame that a statement at or after place `at` can read.
    pub(crate) fn scenario_slots(&mut self, at: &[usize]) -> Arc<[u32]> {
        if let Some(s) = self.places.get(at) {
            return s.clone();
        }
        let body = self.body;
        let s: Arc<[u32]> = self.before(body, at, Slots::new()).into_iter().collect();
        self.places.insert(at.to_vec(), s.clone());
        s
    }

    /// The live slots before the statement at place `at` of `stmts`, with `out` live after them.
    fn before(&mut self, stmts: &[Stmt], at: &[usize], out: Slots) -> Slots {
        let Some(&j) = at.first() else { return self.live_in(stmts, out) };
        let Some(st) = stmts.get(j) else { return out };
        let rest = self.live_in(&stmts[j + 1..], out);
        if at.len() == 1 {
            return self.stmt_in(st, rest);
        }
        match st {
            Stmt::If(_, a, b) => {
                let block = if at[1] == 0 { a } else { b };
                self.before(block, &at[2..], rest)
            }
            Stmt::Repeat { body, until, .. } => {
                let head = self.head(body, until, rest.clone());
                let mut after = rest;
                self.test(until, &mut after);
                after.extend(head);
                self.before(body, &at[2..], after)
            }
            _ => self.stmt_in(st, rest),
        }
    }

    /// The live slots before `stmts`, with `out` live after them; notes those after each pause.
    fn live_in(&mut self, stmts: &[Stmt], out: Slots) -> Slots {
        stmts.iter().rev().fold(out, |live, st| self.stmt_in(st, live))
    }

    /// The live slots at the start of each turn of a `repeat`, with `out` live after it.
    fn head(&mut self, body: &[Stmt], until: &Test, out: Slots) -> Slots {
        let mut head = Slots::new();
        loop {
            let mut after = out.clone();
            self.test(until, &mut after);
            after.extend(head.iter().copied());
            let new = self.live_in(body, after);
            if new == head {
                return head;
            }
            head = new;
        }
    }

    /// The live slots at the start of each turn of a `for each` (before its value is written), with
    /// `out` live after it.
    fn each_head(&mut self, slot: u32, filter: Option<&Test>, body: &[Stmt], out: Slots) -> Slots {
        let mut live = out.clone();
        loop {
            let mut inner = self.live_in(body, live.clone());
            if let Some(t) = filter {
                self.test(t, &mut inner);
            }
            inner.remove(&slot);
            let mut new = out.clone();
            new.extend(inner);
            if new == live {
                return live;
            }
            live = new;
        }
    }

    fn test(&mut self, t: &Test, s: &mut Slots) {
        let mut lasts = Slots::new();
        self.expr(&t.expr, s, &mut lasts);
    }

    fn exprs<'e>(&mut self, es: impl IntoIterator<Item = &'e Expr>, s: &mut Slots) {
        let mut lasts = Slots::new();
        for e in es {
            self.expr(e, s, &mut lasts);
        }
    }

    /// The live slots before statement `st`, with `out` live after it.
    fn stmt_in(&mut self, st: &Stmt, mut out: Slots) -> Slots {
        // Every kind is named, so that a new statement must say what it reads and writes.
        match st {
            Stmt::Set { place, value, until, .. } => {
                let fact = match until {
                    Some(Until::Event { fact: Some((_, e)), .. }) => Some(e),
                    _ => None,
                };
                self.exprs([&place.entity, &value.expr].into_iter().chain(fact), &mut out);
            }
            Stmt::Add { place, amount, .. } => self.exprs([&place.entity, &amount.expr], &mut out),
            Stmt::Let(slot, e) => {
                out.remove(slot);
                self.exprs([&e.expr], &mut out);
            }
            Stmt::LetFlag(slot, t) => {
                out.remove(slot);
                self.test(t, &mut out);
            }
            Stmt::Roll { subject, args, span, .. } => {
                self.frames.entry((span.start, span.end)).or_default().extend(out.iter().copied());
                self.exprs(subject.iter().chain(args.iter().map(|(_, e)| &e.expr)), &mut out);
            }
            Stmt::If(t, a, b) => {
                let mut live = self.live_in(a, out.clone());
                live.extend(self.live_in(b, out));
                self.test(t, &mut live);
                return live;
            }
            Stmt::ForEach { slot, filter, body, .. } => {
                return self.each_head(*slot, filter.as_ref(), body, out);
            }
            // A call keys the caller's values read after it returns (`Runner::enter_call`).
            Stmt::Trigger { args, span, .. } | Stmt::React { args, span, .. } => {
                self.frames.entry((span.start, span.end)).or_default().extend(out.iter().copied());
                self.exprs(args.iter().map(|c| &c.expr), &mut out)
            }
            Stmt::Follow { args, .. } => self.exprs(args.iter().map(|c| &c.expr), &mut out),
            Stmt::Choose { slot, options, default, asker, .. } => {
                out.remove(slot);
                self.exprs(default, &mut out);
                out.extend(asker);
                if let ChoiceOpts::Entities { slot: cand, filter, sure, .. } = options {
                    let mut inner = Slots::new();
                    if let Some(t) = filter {
                        self.test(t, &mut inner);
                    }
                    inner.remove(cand);
                    out.extend(inner);
                    out.extend(sure.iter().flat_map(|s| s.iter().copied()));
                }
            }
            Stmt::EndGame { winner, .. } => self.exprs(winner, &mut out),
            Stmt::Repeat { body, until, span } => {
                let head = self.head(body, until, out);
                self.frames.entry((span.start, span.end)).or_default().extend(head.iter().copied());
                return head;
            }
            Stmt::New { slot, with, .. } => {
                out.remove(slot);
                self.exprs(with.iter().map(|(_, e, _)| e), &mut out);
            }
            Stmt::SetOption { value, .. } | Stmt::Answer { value, .. } => self.exprs([value], &mut out),
            Stmt::Record { value, .. } => self.exprs([&value.expr], &mut out),
            // Read at the scenario's end: what it reads is live until then.
            Stmt::Report { items, .. } => self.exprs(items.iter().map(|(_, e)| e), &mut out),
            Stmt::Order { parts, .. } => self.exprs(
                parts.iter().filter_map(|p| match p {
                    OrderPart::Value(e) => Some(e),
                    OrderPart::Text(_) => None,
                }),
                &mut out,
            ),
            Stmt::Expect { cond, .. } => self.test(cond, &mut out),
            Stmt::Note(..) | Stmt::Dice(..) | Stmt::ExpectNoDice { .. } | Stmt::ExpectOrder { .. } => {}
        }
        out
    }

    /// Notes the checks whose last result `stmts` read before rolling them (`covered`: those
    /// rolled so far in this firing).
    fn cover(&mut self, stmts: &[Stmt], covered: &mut Slots) {
        for st in stmts {
            let mut lasts = Slots::new();
            self.own_lasts(st, &mut lasts);
            for c in lasts.difference(covered) {
                self.uncovered[*c as usize] = true;
            }
            match st {
                Stmt::If(_, a, b) => {
                    self.cover(a, &mut covered.clone());
                    self.cover(b, &mut covered.clone());
                }
                Stmt::ForEach { body, .. } => self.cover(body, &mut covered.clone()),
                Stmt::Repeat { body, until, .. } => {
                    let mut inner = covered.clone();
                    self.cover(body, &mut inner);
                    let mut lasts = Slots::new();
                    self.expr(&until.expr, &mut Slots::new(), &mut lasts);
                    for c in lasts.difference(&inner) {
                        self.uncovered[*c as usize] = true;
                    }
                }
                Stmt::Roll { check, .. } => {
                    covered.insert(*check);
                }
                _ => {}
            }
        }
    }

    /// The checks whose last result statement `st` itself reads (not the blocks inside it).
    fn own_lasts(&mut self, st: &Stmt, lasts: &mut Slots) {
        let mut sink = Slots::new();
        match st {
            Stmt::If(t, ..) => self.expr(&t.expr, &mut sink, lasts),
            Stmt::ForEach { filter, .. } => {
                if let Some(t) = filter {
                    self.expr(&t.expr, &mut sink, lasts);
                }
            }
            Stmt::Repeat { .. } => {}
            // The others have no block inside.
            _ => self.collect(st, lasts),
        }
    }

    /// Adds the checks whose last result `st` reads to `lasts`.
    fn collect(&mut self, st: &Stmt, lasts: &mut Slots) {
        let mut sink = Slots::new();
        let mut es: Vec<&Expr> = vec![];
        match st {
            Stmt::Set { place, value, until, .. } => {
                es.extend([&place.entity, value]);
                if let Some(Until::Event { fact: Some((_, e)), .. }) = until {
                    es.push(e);
                }
            }
            Stmt::Add { place, amount, .. } => es.extend([&place.entity, &amount.expr]),
            Stmt::Let(_, e) => es.push(&e.expr),
            Stmt::LetFlag(_, t) => es.push(&t.expr),
            Stmt::Roll { subject, args, .. } => {
                es.extend(subject);
                es.extend(args.iter().map(|(_, e)| &e.expr));
            }
            Stmt::If(t, a, b) => {
                es.push(&t.expr);
                for s in a.iter().chain(b) {
                    self.collect(s, lasts);
                }
            }
            Stmt::ForEach { filter, body, .. } => {
                es.extend(filter.iter().map(|t| &t.expr));
                for s in body {
                    self.collect(s, lasts);
                }
            }
            Stmt::Repeat { body, until, .. } => {
                es.push(&until.expr);
                for s in body {
                    self.collect(s, lasts);
                }
            }
            Stmt::Trigger { args, .. } | Stmt::Follow { args, .. } | Stmt::React { args, .. } => {
                es.extend(args.iter().map(|c| &c.expr))
            }
            Stmt::Choose { options, default, .. } => {
                es.extend(default);
                if let ChoiceOpts::Entities { filter: Some(t), .. } = options {
                    es.push(&t.expr);
                }
            }
            Stmt::EndGame { winner, .. } => es.extend(winner),
            Stmt::New { with, .. } => es.extend(with.iter().map(|(_, e, _)| e)),
            Stmt::SetOption { value, .. } | Stmt::Answer { value, .. } => es.push(value),
            Stmt::Record { value, .. } => es.push(&value.expr),
            Stmt::Report { items, .. } => es.extend(items.iter().map(|(_, e)| e)),
            Stmt::Order { parts, .. } => es.extend(parts.iter().filter_map(|p| match p {
                OrderPart::Value(e) => Some(e),
                OrderPart::Text(_) => None,
            })),
            Stmt::Expect { cond, .. } => es.push(&cond.expr),
            Stmt::Note(..) | Stmt::Dice(..) | Stmt::ExpectNoDice { .. } | Stmt::ExpectOrder { .. } => {}
        }
        for e in es {
            self.expr(e, &mut sink, lasts);
        }
    }

    /// Adds the slots `e` reads to `s`, and the checks whose last result it reads to `lasts`
    /// (noting what of each it reads).
    fn expr(&mut self, e: &Expr, s: &mut Slots, lasts: &mut Slots) {
        match e {
            Expr::Const(_) | Expr::Global(_) => {}
            Expr::Local(i) => {
                s.insert(*i);
            }
            Expr::Field(x, _) | Expr::Neg(x) | Expr::Not(x) | Expr::DataField(x, _) => self.expr(x, s, lasts),
            Expr::Bin(_, a, b) => {
                self.expr(a, s, lasts);
                self.expr(b, s, lasts);
            }
            Expr::If(c, a, b) => {
                for x in [c, a, b] {
                    self.expr(x, s, lasts);
                }
            }
            Expr::Dice(d) => self.dice(d, s, lasts),
            Expr::Builtin(_, args) | Expr::Define(_, args) | Expr::Table(_, args) => {
                for x in args {
                    self.expr(x, s, lasts);
                }
            }
            Expr::Script(call) => {
                for x in &call.args {
                    self.expr(x, s, lasts);
                }
            }
            Expr::Last(c) => self.last(*c, lasts, |r| r.whole = true),
            Expr::Outcome(x) => match &**x {
                Expr::Last(c) => self.last(*c, lasts, |r| r.outcome = true),
                x => self.expr(x, s, lasts),
            },
            Expr::ResultSlot(x, k) => match &**x {
                Expr::Last(c) => self.last(*c, lasts, |r| {
                    r.slots.insert(*k);
                }),
                x => self.expr(x, s, lasts),
            },
            Expr::NumberOf { slot, filter, .. } => {
                let mut inner = Slots::new();
                if let Some(t) = filter {
                    self.expr(&t.expr, &mut inner, lasts);
                }
                inner.remove(slot);
                s.extend(inner);
            }
            Expr::Total(t) => {
                let mut inner = Slots::new();
                for x in t.value.iter().chain(t.filter.iter().map(|f| &f.expr)) {
                    self.expr(x, &mut inner, lasts);
                }
                inner.remove(&t.slot);
                s.extend(inner);
                if let Some(x) = &t.empty {
                    self.expr(x, s, lasts);
                }
            }
            Expr::Pick(p) => {
                self.expr(&p.list, s, lasts);
                let mut inner = Slots::new();
                if let Some(t) = &p.filter {
                    self.expr(&t.expr, &mut inner, lasts);
                }
                inner.remove(&p.slot);
                s.extend(inner);
            }
        }
    }

    fn dice(&mut self, d: &DiceExpr, s: &mut Slots, lasts: &mut Slots) {
        self.expr(&d.count, s, lasts);
        if let SidesExpr::Count(x) = &d.sides {
            self.expr(x, s, lasts);
        }
    }

    fn last(&mut self, c: CheckId, lasts: &mut Slots, what: impl FnOnce(&mut LastRead)) {
        lasts.insert(c);
        if let Some(r) = self.reads.get_mut(c as usize) {
            r.read = true;
            what(r);
        }
    }
}

/// Whether working out `e` surely rolls no die: it reads values and does arithmetic only (a
/// formula, a table, a script or a count over entities may, as far as this looks, roll one).
fn no_dice(e: &Expr) -> bool {
    match e {
        Expr::Const(_) | Expr::Local(_) | Expr::Global(_) => true,
        Expr::Field(x, _) | Expr::Neg(x) | Expr::Not(x) | Expr::DataField(x, _) => no_dice(x),
        Expr::Bin(_, a, b) => no_dice(a) && no_dice(b),
        Expr::If(c, a, b) => no_dice(c) && no_dice(a) && no_dice(b),
        Expr::Builtin(_, args) => args.iter().all(no_dice),
        Expr::Dice(_)
        | Expr::Define(..)
        | Expr::Table(..)
        | Expr::Last(_)
        | Expr::Outcome(_)
        | Expr::ResultSlot(..)
        | Expr::NumberOf { .. }
        | Expr::Script(_)
        | Expr::Total(_)
        | Expr::Pick(_) => false,
    }
}
