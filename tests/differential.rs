//! The lowered forms against the reference evaluator, on real games: every scenario of every
//! shipped ruleset, test ruleset and example in the language reference's folder is played with
//! several seeds while `internals::differ` evaluates each condition the runner tests, and each
//! expression a statement reads, a second time with `eval`. The answers, the errors and the steps
//! charged must be the same every time. (That a
//! watch does see a difference is tested beside the runner, in `session/run/compile.rs`.)

use mettle::internals::differ;
use mettle::{Ruleset, Session};
use std::path::Path;

fn rulesets() -> Vec<Ruleset> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![];
    for dir in ["rulesets", "tests/inputs/good", "tests/inputs/odds"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths.into_iter().filter(|p| p.extension().is_some_and(|x| x == "mettle")) {
            if let Ok(r) = Ruleset::from_path(&p) {
                out.push(r);
            }
        }
    }
    out
}

#[test]
fn every_condition_met_in_play_agrees_with_the_evaluator() {
    let rules = rulesets();
    assert!(rules.len() >= 8, "found {} rulesets", rules.len());
    let watch = differ::watch();
    let mut games = 0;
    for r in &rules {
        let names: Vec<String> = r.scenarios().map(str::to_string).collect();
        for name in &names {
            for seed in [1, 7, 42] {
                let mut s = Session::new(r, seed);
                // A scenario may fail on purpose (a rule's error it tests): the comparison still counts.
                let _ = s.run_scenario(name);
                games += 1;
            }
        }
    }
    assert!(games > 60, "played {games} games");
    assert_eq!(watch.differences(), Vec::<String>::new());
    eprintln!("{games} games, {} conditions compared", watch.compared());
    if cfg!(debug_assertions) {
        assert!(watch.compared() > 5_000, "compared only {} conditions", watch.compared());
    }
}

// ---------------------------------------------------------------- generated conditions

use proptest::prelude::*;

/// A number over the tiny ruleset of `generated_conditions_agree_with_the_evaluator`: its units'
/// attributes, the turn, constants (two large enough to overflow), arithmetic with division (by
/// attributes that can be 0), `if`, `min`/`max`, `abs` and counts.
fn a_number() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        (-3i64..10).prop_map(|n| n.to_string()),
        Just("u.hp".to_string()),
        Just("v.hp".to_string()),
        Just("u.big".to_string()),
        Just("turn".to_string()),
        Just("4611686018427387904".to_string()),
        Just("9223372036854775807".to_string()),
        (0i64..10).prop_map(|k| format!("(number of unit w where w.hp >= {k})")),
    ];
    leaf.prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            (inner.clone(), prop_oneof![Just("+"), Just("-"), Just("*"), Just("/")], inner.clone())
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            inner.clone().prop_map(|a| format!("-({a})")),
            inner.clone().prop_map(|a| format!("abs({a})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("min({a}, {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("max({a}, {b})")),
            (a_flag_leaf(), inner.clone(), inner).prop_map(|(c, a, b)| format!("(if {c} then {a} else {b})")),
        ]
    })
}

/// A yes/no that needs no number: the units' flags, constants, entities compared.
fn a_flag_leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("u.up".to_string()),
        Just("v.up".to_string()),
        Just("yes".to_string()),
        Just("no".to_string()),
        Just("u.friend == v".to_string()),
        Just("v.friend is none".to_string()),
    ]
}

/// A condition: numbers compared, flags, `not`, `and`, `or`.
fn a_condition() -> impl Strategy<Value = String> {
    let op = prop_oneof![Just("<"), Just("<="), Just(">"), Just(">="), Just("=="), Just("!=")];
    let compared = (a_number(), op, a_number()).prop_map(|(a, op, b)| format!("{a} {op} {b}"));
    prop_oneof![a_flag_leaf(), compared].prop_recursive(2, 8, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| format!("not ({a})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) and ({b})")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("({a}) or ({b})")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Generated conditions, tested in a scenario's `expect`s and `if`s, and generated numbers, read
    /// by `var`, `add` (to a `var` and to an attribute) and `let`, with the log on and off: the lowered form and the reference
    /// evaluator give the same answer or the same error (an overflow, a division by zero), and
    /// charge the same steps.
    #[test]
    fn generated_conditions_agree_with_the_evaluator(
        conds in proptest::collection::vec(a_condition(), 3),
        nums in proptest::collection::vec(a_number(), 3),
        hp in (0i64..10, 0i64..10),
        big in prop_oneof![Just(0i64), Just(3), Just(4611686018427387904)],
    ) {
        let text = format!(
            "kind unit {{ hp: 0..9 = 3\n big: 0.. = 0\n up: flag = yes\n friend: unit }}\n\
             scenario s {{\n\
               new unit u with hp = {hu}, big = {big}\n\
               new unit v with hp = {hv}, up = no, friend = u\n\
               set u.friend to v\n\
               expect {c0}\n\
               if {c1} {{ set u.up to no }}\n\
               expect {c2}\n\
               set v.hp to {hu}\n\
               expect {c0}\n\
               var n = {n0}\n\
               add {n1} to n\n\
               let m = {n2}\n\
               let k = {c2}\n\
               add {n2} to u.big\n\
             }}\n",
            c0 = conds[0], c1 = conds[1], c2 = conds[2], hu = hp.0, hv = hp.1,
            n0 = nums[0], n1 = nums[1], n2 = nums[2],
        );
        // A condition the checker refuses (a constant division by zero, say) says nothing here.
        let rules = Ruleset::from_str("generated.mettle", &text);
        prop_assume!(rules.is_ok(), "{:?}", rules.err().map(|e| e.to_string()));
        let rules = rules.unwrap();
        let watch = differ::watch();
        for logging in [true, false] {
            let mut s = Session::new(&rules, 3);
            s.set_logging(logging);
            // An error (an overflow, a division by zero) stops the scenario: both tiers gave it.
            let _ = s.run_scenario("s");
        }
        prop_assert_eq!(watch.differences(), Vec::<String>::new(), "{}", text);
        if cfg!(debug_assertions) {
            prop_assert!(watch.compared() >= 2, "compared {} in {}", watch.compared(), text);
        }
    }
}

/// The generator above makes rulesets the checker takes, and games that reach both answers and
/// both kinds of error: a run that fails to load or never errs would make the property say little.
#[test]
fn generated_conditions_reach_answers_and_errors() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut loaded, mut overflow, mut divide, mut passed, mut failed) = (0, 0, 0, 0, 0);
    for _ in 0..300 {
        let c = a_condition().new_tree(&mut runner).unwrap().current();
        let text = format!(
            "kind unit {{ hp: 0..9 = 3\n big: 0.. = 0\n up: flag = yes\n friend: unit }}\n\
             scenario s {{\n new unit u with hp = 2, big = 4611686018427387904\n new unit v with hp = 0, up = no\n expect {c}\n}}\n"
        );
        let Ok(rules) = Ruleset::from_str("generated.mettle", &text) else { continue };
        loaded += 1;
        let mut s = Session::new(&rules, 1);
        match s.run_scenario("s") {
            Ok(report) if report.failures.is_empty() => passed += 1,
            Ok(_) => failed += 1,
            Err(e) if e.code.contains("overflow") => overflow += 1,
            Err(e) if e.code.contains("divide_by_zero") => divide += 1,
            Err(_) => {}
        }
    }
    assert!(loaded > 200, "{loaded} of 300 loaded");
    assert!(
        passed > 10 && failed > 10 && overflow > 5 && divide > 5,
        "passed {passed}, failed {failed}, overflow {overflow}, divide by zero {divide}"
    );
}
