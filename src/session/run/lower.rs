//! Lowering: the checked program's conditions compiled, once per ruleset, into the table of closures
//! the runner tests them with. The program stays plain data; each `Test` names its compiled form by
//! its id, and one without a compiled form is tested by the reference evaluator.

use super::compile::{Compiled, compile};
use crate::program::Program;

/// The runtime's compiled forms of a program's conditions, by `Test`'s id.
pub(crate) struct Lowered {
    tests: Box<[Compiled]>,
}

impl std::fmt::Debug for Lowered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Lowered({} conditions)", self.tests.len())
    }
}

impl Lowered {
    /// The compiled form of condition `id`, if the program listed it.
    #[inline(always)]
    pub(super) fn test(&self, id: u32) -> Option<&Compiled> {
        self.tests.get(id as usize)
    }

    /// A table of the given compiled forms, for tests that need one made otherwise.
    #[cfg(test)]
    pub(super) fn of(tests: Vec<Compiled>) -> Lowered {
        Lowered { tests: tests.into() }
    }
}

/// Compiles every condition program `p` lists.
pub(crate) fn lower(p: &Program) -> Lowered {
    Lowered { tests: p.conditions.iter().map(compile).collect() }
}

#[cfg(test)]
mod tests {
    use crate::Ruleset;
    use crate::program::{Stmt, Test};

    /// The condition `t` names in the program's list is its own.
    fn listed(rules: &Ruleset, t: &Test) -> String {
        let p = rules.program();
        assert!(rules.lowered().test(t.id).is_some(), "condition {} is lowered", t.id);
        assert_eq!(format!("{:?}", p.conditions[t.id as usize]), format!("{:?}", t.expr));
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
        assert_eq!(p.conditions.len(), 3);
        assert_eq!(rules.lowered().tests.len(), 3);
        // A copy of the rules shares the table: nothing is compiled again.
        let other = rules.with_budget(rules.budget().clone());
        assert!(std::ptr::eq(other.lowered(), rules.lowered()));
    }

    #[test]
    fn a_condition_outside_the_list_is_tested_by_the_evaluator() {
        let rules = Ruleset::from_str("t.mettle", "kind unit { hp: 0..9 = 3 }").unwrap();
        assert!(rules.lowered().test(Test::ALONE).is_none());
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
}
