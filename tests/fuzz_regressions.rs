//! Inputs the fuzzers (`fuzz/`) found that crashed, hung or ran out of memory, each fed through the
//! same path as its fuzz target. Each file under `tests/inputs/fuzz/TARGET/` is one input.

use mettle::internals::odds::expr::{compile, dist};
use mettle::internals::{RulesetInternals as _, SessionInternals as _};
use mettle::{Ruleset, Session, Value};
use std::path::Path;

/// Every input saved for `target`.
fn inputs(target: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/fuzz").join(target);
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| {
                    (e.file_name().to_string_lossy().into_owned(), std::fs::read_to_string(e.path()).unwrap())
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// The dice target: compile, roll once, ask the exact odds (which may decline, saying why).
fn dice(text: &str) {
    let Ok(c) = compile(text) else { return };
    let rules = Ruleset::from_str("--dice", "").unwrap();
    let mut session = Session::new(&rules, 7);
    let mut frame = vec![Value::None; c.slots as usize];
    let _ = session.eval_prompt(&c.expr, &mut frame);
    let _ = dist(&c.expr);
}

/// The load target: load, then run every scenario.
fn load(text: &str) {
    if let Ok(rules) = Ruleset::from_str("fuzz.mettle", text) {
        let names: Vec<String> = rules.program().scenarios.iter().map(|s| s.name.clone()).collect();
        for name in names {
            let _ = Session::new(&rules, 1).run_scenario(&name);
        }
    }
}

#[test]
fn dice_inputs_found_by_fuzzing_finish() {
    let found = inputs("dice");
    assert!(!found.is_empty());
    for (_, text) in found {
        dice(&text);
    }
}

#[test]
fn an_exploding_d62_is_estimated_not_worked_out_for_minutes() {
    // `3d62x` took 25 s to work out exactly: its cost is now counted by the exploded die's width.
    let c = compile("3d62x").unwrap();
    assert!(dist(&c.expr).is_err(), "3d62x should be left to the estimate");
    let c = compile("3d6x").unwrap();
    assert!(dist(&c.expr).is_ok(), "3d6x is still exact");
}

#[test]
fn wide_dice_rerolled_many_times_are_estimated() {
    // `6d620r1ro20` took 12 s (6 s in a release build): its weights run to thousands of bits.
    let c = compile("6d620r1ro20").unwrap();
    assert!(dist(&c.expr).is_err(), "6d620r1ro20 should be left to the estimate");
    let c = compile("8d100r1").unwrap();
    assert!(dist(&c.expr).is_ok(), "8d100r1 is still exact");
}

#[test]
fn combining_rolls_with_long_weights_is_estimated() {
    // `2141d7 - d75` took 2 s (over 10 s with overflow checks): few pairs, but thousands of bits each.
    let c = compile("2141d7 - d75").unwrap();
    assert!(dist(&c.expr).is_err(), "2141d7 - d75 should be left to the estimate");
    let c = compile("100d6 - 50d6").unwrap();
    assert!(dist(&c.expr).is_ok(), "100d6 - 50d6 is still exact");
}

#[test]
fn load_inputs_found_by_fuzzing_finish() {
    for (_, text) in inputs("load") {
        load(&text);
    }
}
