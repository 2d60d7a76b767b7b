//! Lowering: the checked program's conditions compiled, once per ruleset, into the table of closures
//! the runner tests them with, and the expressions its statements read into the table of how each
//! is read (`super::calc`), kept beside the program with the ruleset's compiled scripts. The program
//! stays plain data; each `Test` and each `Calc` names its lowered form by its id, and one without
//! one is read by the reference evaluator.

use super::calc::{Reading, Want, reading};
use super::compile::{Compiled, compile};
use crate::program::*;
use std::sync::Arc;

/// The runtime's half of a loaded ruleset: the compiled forms of its program's conditions, by
/// `Test`'s id, the attribute of its maker each check input is taken from, and its compiled
/// scripts.
pub(crate) struct Lowered {
    tests: Box<[Compiled]>,
    /// How each expression statements read is read, by `Calc`'s id.
    calcs: Box<[Reading]>,
    /// By check, then input: [`Program::subject_attribute`], asked at every roll.
    from_subject: Box<[Box<[Option<u32>]>]>,
    scripts: Option<Arc<crate::script::Scripts>>,
}

impl std::fmt::Debug for Lowered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Lowered({} conditions, {} expressions, scripts: {})",
            self.tests.len(),
            self.calcs.len(),
            self.scripts.is_some()
        )
    }
}

impl Lowered {
    /// The compiled forms of the program's conditions, by `Test`'s id.
    pub(super) fn tests(&self) -> &[Compiled] {
        &self.tests
    }

    /// How each expression statements read is read, by `Calc`'s id.
    pub(super) fn calcs(&self) -> &[Reading] {
        &self.calcs
    }

    /// The attribute of check `c`'s maker that input `input` is taken from, if any (see
    /// [`Program::subject_attribute`]).
    #[inline]
    pub(super) fn subject_input(&self, c: CheckId, input: usize) -> Option<u32> {
        *self.from_subject.get(c as usize)?.get(input)?
    }

    /// The ruleset's compiled scripts, if it has any.
    pub(crate) fn scripts(&self) -> Option<&Arc<crate::script::Scripts>> {
        self.scripts.as_ref()
    }

    /// A table of the given compiled forms, for tests that need one made otherwise.
    #[cfg(test)]
    pub(super) fn of(tests: Vec<Compiled>) -> Lowered {
        Lowered { tests: tests.into(), calcs: Box::new([]), from_subject: Box::new([]), scripts: None }
    }
}

/// Compiles every condition program `p` numbered, found where the rules keep it, and keeps
/// `scripts` beside them.
pub(crate) fn lower(p: &Program, scripts: Option<Arc<crate::script::Scripts>>) -> Lowered {
    // A quiet roll applies an outcome's effects in the frame it keeps as the check's result only
    // when the effects are simple (see `simple_effects`): the checker's word for it is checked here.
    for c in &p.checks {
        for o in &c.outcomes {
            debug_assert!(
                !o.in_place || simple_effects(&o.body),
                "check `{}`: effects marked in place",
                c.name
            );
        }
    }
    let mut tests: Vec<Option<Compiled>> = (0..p.conditions).map(|_| None).collect();
    let mut calcs: Vec<Option<Reading>> = (0..p.calcs).map(|_| None).collect();
    walk(
        p,
        &mut |t| {
            if let Some(slot) = tests.get_mut(t.id as usize)
                && slot.is_none()
            {
                *slot = Some(compile(&t.expr));
            }
        },
        &mut |c, want| {
            if let Some(slot) = calcs.get_mut(c.id as usize)
                && slot.is_none()
            {
                *slot = Some(reading(&c.expr, want));
            }
        },
    );
    // Every numbered condition and expression is found (debug builds assert it, and a test walks
    // every shipped ruleset); were a condition not, testing it would say so as an error of
    // mettle's, not answer; an expression not found is read by the evaluator.
    debug_assert!(tests.iter().all(Option::is_some), "a numbered condition was not found");
    debug_assert!(calcs.iter().all(Option::is_some), "a numbered expression was not found");
    let tests = tests.into_iter().map(|t| t.unwrap_or_else(super::compile::lost)).collect();
    let calcs = calcs.into_iter().map(|c| c.unwrap_or(Reading::Eval)).collect();
    let from_subject = (0..p.checks.len() as CheckId)
        .map(|c| (0..p.checks[c as usize].inputs.len() as u32).map(|i| p.subject_attribute(c, i)).collect())
        .collect();
    Lowered { tests, calcs, from_subject, scripts }
}

/// Calls `test` with every condition of program `p` and `calc` with every expression a statement
/// reads, with what the statement wants of it, wherever the rules keep them (a copy of one as often
/// as it is kept). The matches below are exhaustive, so that a new statement or expression that
/// holds a condition or an expression read is not passed over.
fn walk<'p>(p: &'p Program, test: &mut dyn FnMut(&Test), calc: &mut dyn FnMut(&Calc, Want<'p>)) {
    let mut w = Walk { test, calc, p };
    for t in &p.triggers {
        w.maybe(t.when.as_ref());
        w.stmts(&t.body);
    }
    for d in &p.defines {
        w.expr(&d.body);
    }
    for r in &p.reactions {
        w.stmts(&r.body);
    }
    for t in &p.tables {
        t.rows.iter().for_each(|(_, e, _)| w.expr(e));
    }
    for c in &p.checks {
        c.inputs.iter().filter_map(|i| i.default.as_ref()).for_each(|e| w.calc(e, Want::Value));
        for s in &c.steps {
            match s {
                CheckStep::Let(_, c) => w.calc(c, Want::Value),
                CheckStep::Roll => {}
            }
        }
        if let Some(r) = &c.roll {
            w.dice(&r.dice);
        }
        for m in &c.modifiers {
            w.calc(&m.amount, Want::Number);
            w.maybe(m.when.as_ref());
            m.cap.iter().for_each(|e| w.calc(e, Want::Number));
        }
        c.target.iter().for_each(|e| w.calc(e, Want::Number));
        for o in &c.outcomes {
            w.maybe(o.when.as_ref());
            w.stmts(&o.body);
        }
        if let Some(r) = &c.reroll {
            w.maybe(r.when.as_ref());
        }
    }
    for s in &p.scenarios {
        w.stmts(&s.body);
    }
}

struct Walk<'f, 'p> {
    test: &'f mut dyn FnMut(&Test),
    calc: &'f mut dyn FnMut(&Calc, Want<'p>),
    p: &'p Program,
}

impl<'p> Walk<'_, 'p> {
    fn test(&mut self, t: &Test) {
        (self.test)(t);
        self.expr(&t.expr);
    }

    fn calc(&mut self, c: &Calc, want: Want<'p>) {
        (self.calc)(c, want);
        self.expr(&c.expr);
    }

    fn maybe(&mut self, t: Option<&Test>) {
        t.into_iter().for_each(|t| self.test(t));
    }

    fn exprs<'e>(&mut self, es: impl IntoIterator<Item = &'e Expr>) {
        es.into_iter().for_each(|e| self.expr(e));
    }

    fn dice(&mut self, d: &DiceExpr) {
        self.expr(&d.count);
        match &d.sides {
            SidesExpr::Count(e) => self.expr(e),
            SidesExpr::Faces(_) => {}
        }
    }

    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::Const(_) | Expr::Local(_) | Expr::Global(_) | Expr::Last(_) => {}
            Expr::Field(x, _)
            | Expr::Neg(x)
            | Expr::Not(x)
            | Expr::Outcome(x)
            | Expr::ResultSlot(x, _)
            | Expr::DataField(x, _) => self.expr(x),
            Expr::Bin(_, a, b) => self.exprs([&**a, &**b]),
            Expr::If(c, a, b) => self.exprs([&**c, &**a, &**b]),
            Expr::Dice(d) => self.dice(d),
            Expr::Builtin(_, args) | Expr::Define(_, args) | Expr::Table(_, args) => self.exprs(args),
            Expr::NumberOf { filter, .. } => self.maybe(filter.as_deref()),
            Expr::Script(c) => self.exprs(&c.args),
            Expr::Total(t) => {
                self.exprs(&t.value);
                self.maybe(t.filter.as_deref());
                self.exprs(&t.empty);
            }
            Expr::Pick(p) => {
                self.expr(&p.list);
                self.maybe(p.filter.as_deref());
            }
        }
    }

    fn stmts(&mut self, body: &[Stmt]) {
        body.iter().for_each(|s| self.stmt(s));
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Set { place, value, until, .. } => {
                self.expr(&place.entity);
                self.calc(value, Want::Value);
                match until {
                    Some(Until::Event { fact: Some((_, e)), .. }) => self.expr(e),
                    Some(
                        Until::Event { fact: None, .. }
                        | Until::EndOfTurn
                        | Until::EndOfRound
                        | Until::NextRound,
                    )
                    | None => {}
                }
            }
            Stmt::Add { place, amount, .. } => {
                self.expr(&place.entity);
                self.calc(amount, Want::Number);
            }
            Stmt::Let(_, c) => self.calc(c, Want::Value),
            Stmt::Record { value, .. } => self.calc(value, Want::Number),
            Stmt::SetOption { value: e, .. } | Stmt::Answer { value: e, .. } => self.expr(e),
            Stmt::Report { items, .. } => self.exprs(items.iter().map(|(_, e)| e)),
            Stmt::LetFlag(_, t) => self.test(t),
            Stmt::Roll { check, subject, args, .. } => {
                self.exprs(subject);
                let p = self.p;
                for (i, c) in args {
                    let input = p.checks[*check as usize].inputs.get(*i as usize);
                    self.calc(c, Want::Given(input.map(|x| &x.field.ty)));
                }
            }
            Stmt::If(c, a, b) => {
                self.test(c);
                self.stmts(a);
                self.stmts(b);
            }
            Stmt::ForEach { filter, body, .. } => {
                self.maybe(filter.as_ref());
                self.stmts(body);
            }
            Stmt::Trigger { event, args, .. } => {
                let p = self.p;
                for (k, c) in args.iter().enumerate() {
                    let fact = p.events[*event as usize].facts.get(k);
                    self.calc(c, Want::Given(fact.map(|d| &d.ty)));
                }
            }
            Stmt::Follow { args, .. } | Stmt::React { args, .. } => {
                args.iter().for_each(|c| self.calc(c, Want::Value))
            }
            Stmt::Choose { options, default, .. } => {
                match options {
                    ChoiceOpts::Entities { filter, .. } => self.maybe(filter.as_deref()),
                    ChoiceOpts::Names(..) | ChoiceOpts::Flags(_) | ChoiceOpts::Range { .. } => {}
                }
                self.exprs(default);
            }
            Stmt::EndGame { winner, .. } => self.exprs(winner),
            Stmt::Repeat { body, until, .. } => {
                self.stmts(body);
                self.test(until);
            }
            Stmt::New { with, .. } => self.exprs(with.iter().map(|(_, e, _)| e)),
            Stmt::Order { parts, .. } => {
                for part in parts {
                    match part {
                        OrderPart::Value(e) => self.expr(e),
                        OrderPart::Text(_) => {}
                    }
                }
            }
            Stmt::Expect { cond, .. } => self.test(cond),
            Stmt::Note(..) | Stmt::Dice(..) | Stmt::ExpectNoDice { .. } | Stmt::ExpectOrder { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::Ruleset;
    use crate::program::{Stmt, Test};

    /// Condition `t` has a compiled form, found where the rules keep it.
    fn listed(rules: &Ruleset, t: &Test) -> String {
        assert!(t.id < rules.program().conditions, "condition {} is numbered", t.id);
        assert!(rules.lowered().tests().get(t.id as usize).is_some(), "condition {} is lowered", t.id);
        format!("{:?}", t.expr)
    }

    #[test]
    fn each_condition_names_its_own_compiled_form() {
        let rules = Ruleset::from_str(
            "t.mettle",
            "kind unit { hp: 0..9 = 3 }\n\
             event hit(unit: unit)\n\
             on hit when unit.hp > 1 { if unit.hp < 3 and (number of unit u where u.hp == 0) == 0 { set unit.hp to 1 } }",
        )
        .unwrap();
        let p = rules.program();
        let trigger = p.triggers.iter().find(|t| t.when.is_some()).expect("the trigger");
        let when = trigger.when.as_ref().unwrap();
        let Some(Stmt::If(cond, ..)) = trigger.body.first() else {
            panic!("an `if` first: {:?}", trigger.body)
        };
        assert_ne!(listed(&rules, when), listed(&rules, cond));
        assert_ne!(when.id, cond.id);
        // The filter inside the `if`'s condition, and nothing else, is the third.
        assert_eq!(p.conditions, 3);
        assert_eq!(rules.lowered().tests.len(), 3);
        // A copy of the rules shares the table: nothing is compiled again.
        let other = rules.with_budget(rules.budget().clone());
        assert!(std::ptr::eq(other.lowered(), rules.lowered()));
    }

    #[test]
    fn a_condition_outside_the_list_is_tested_by_the_evaluator() {
        let rules = Ruleset::from_str("t.mettle", "kind unit { hp: 0..9 = 3 }").unwrap();
        assert!(rules.lowered().tests().get(Test::ALONE as usize).is_none());
        let mut s = crate::Session::new(&rules, 1);
        let u = s.create("unit", "u", &[]).unwrap();
        let ge = |k| {
            Test::alone(crate::program::Expr::Bin(
                crate::ast::BinOp::Ge,
                Box::new(crate::program::Expr::Field(Box::new(crate::program::Expr::Local(0)), 0)),
                Box::new(crate::program::Expr::Const(crate::Value::Int(k))),
            ))
        };
        let mut r = s.runner();
        let mut f = vec![crate::Value::Entity(u)];
        assert!(r.holds(&ge(3), &mut f).unwrap());
        assert!(!r.holds(&ge(4), &mut f).unwrap());
    }

    /// Every condition and every expression read the checker numbered in every shipped ruleset and
    /// every test ruleset that loads is found where the rules keep it, and those found under one
    /// number are copies of one.
    #[test]
    fn the_walk_finds_every_numbered_condition_and_expression() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = vec![];
        let mut dirs = vec![root.join("rulesets"), root.join("tests/inputs")];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let path = e.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|x| x == "mettle") {
                    files.push(path);
                }
            }
        }
        let mut loaded = 0;
        for file in files {
            let Ok(rules) = Ruleset::from_path(&file) else { continue };
            let p = rules.program();
            let mut found: Vec<Option<String>> = vec![None; p.conditions as usize];
            let mut read: Vec<Option<String>> = vec![None; p.calcs as usize];
            let once = |seen: &mut Option<String>, text: String, what: &str, id: u32| {
                assert!(
                    seen.as_ref().is_none_or(|s| *s == text),
                    "{}: two {what} numbered {id}",
                    file.display()
                );
                *seen = Some(text);
            };
            super::walk(
                p,
                &mut |t| once(&mut found[t.id as usize], format!("{:?}", t.expr), "conditions", t.id),
                &mut |c, _| once(&mut read[c.id as usize], format!("{:?}", c.expr), "expressions", c.id),
            );
            let missing: Vec<usize> = (0..found.len()).filter(|&i| found[i].is_none()).collect();
            assert!(missing.is_empty(), "{}: conditions {missing:?} not found", file.display());
            let missing: Vec<usize> = (0..read.len()).filter(|&i| read[i].is_none()).collect();
            assert!(missing.is_empty(), "{}: expressions {missing:?} not found", file.display());
            assert_eq!(rules.lowered().calcs().len(), read.len());
            loaded += 1;
        }
        assert!(loaded > 20, "{loaded} rulesets");
    }
}
