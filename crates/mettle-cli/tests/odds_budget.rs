//! One budget of work for exact answers: the odds of a check, a dice expression, a sweep, a
//! scenario's walk and the `mettle check` lint all stop when it is spent, and then estimate from
//! samples or say the work was cut short — never run on for minutes.

use mettle::internals::SessionInternals as _;
use mettle::{Budget, LoadOptions, Ruleset, Session, Value};
use std::path::Path;

mod common;
use common::{json, mettle};

/// A check whose every settled roll costs 65,536 formula steps, and a scenario that rolls it.
const HEAVY: &str = "tests/inputs/odds/heavy.mettle";

fn heavy(units: u64) -> Ruleset {
    let mut budget = Budget::default();
    budget.set("odds_work", units).unwrap();
    let text = std::fs::read_to_string(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join(HEAVY))
        .unwrap();
    Ruleset::load("heavy.mettle", &text, &LoadOptions { budget, ..Default::default() }).unwrap()
}

#[test]
fn the_lint_says_it_was_cut_short() {
    let o = mettle(&["check", HEAVY, "--budget", "odds_work=5000000"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{e}");
    assert!(e.contains("mettle::odds::lint_cut_short"), "{e}");
    assert!(e.contains("budget of work ran out"), "{e}");
}

#[test]
fn shipped_rulesets_are_linted_whole() {
    for f in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets")).unwrap() {
        let f = f.unwrap().path();
        if f.extension().is_some_and(|x| x == "mettle") {
            let o = mettle(&["check", f.to_str().unwrap()]);
            let e = String::from_utf8_lossy(&o.stderr);
            assert!(o.status.success() && !e.contains("lint_cut_short"), "{}: {e}", f.display());
        }
    }
}

#[test]
fn a_check_past_the_budget_is_estimated_and_says_why() {
    let v = json(&[
        "odds",
        HEAVY,
        "heavy",
        "--set",
        "a=1",
        "--set",
        "b=1",
        "--budget",
        "odds_work=5000000",
        "--json",
    ]);
    assert_eq!(v["method"]["kind"], "estimate", "{v}");
    let reason = v["method"]["reason"].as_str().unwrap();
    assert!(reason.contains("more work than its budget allows"), "{reason}");
    // The estimate has a budget too: it stops early and says after how many rolls.
    assert!(reason.contains("the estimate stopped after"), "{reason}");
    let runs = v["method"]["runs"].as_u64().unwrap();
    assert!((1..mettle::odds::FALLBACK_RUNS).contains(&runs), "{runs}");
}

#[test]
fn a_sweep_shares_one_budget_and_refuses_rows_it_cannot_afford() {
    let o = mettle(&[
        "odds",
        HEAVY,
        "heavy",
        "--sweep",
        "a=0..20",
        "--sweep",
        "b=0..20",
        "--budget",
        "odds_work=5000000",
    ]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("mettle::odds::out_of_work"), "{e}");
    assert!(e.contains("fewer rows"), "{e}");
}

#[test]
fn a_scenario_walk_past_the_budget_is_estimated_with_the_runs_it_can_afford() {
    let v = json(&["odds", HEAVY, "--scenario", "slow", "--budget", "odds_work=20000000", "--json"]);
    assert_eq!(v["method"]["kind"], "estimate", "{v}");
    let reason = v["method"]["reason"].as_str().unwrap();
    assert!(reason.contains("more work than its budget allows"), "{reason}");
    assert!(reason.contains("runs fit in the budget of work"), "{reason}");
}

#[test]
fn dice_past_the_budget_are_estimated_and_small_dice_stay_exact() {
    let v = json(&["odds", "--dice", "6d10x", "--budget", "odds_work=1000000", "--json"]);
    assert_eq!(v["method"]["kind"], "estimate", "{v}");
    assert!(v["method"]["reason"].as_str().unwrap().contains("more work than its budget allows"), "{v}");
    let v = json(&["odds", "--dice", "3d6 + d4", "--budget", "odds_work=1000000", "--json"]);
    assert_eq!(v["method"]["kind"], "exact", "{v}");
}

#[test]
fn the_library_gives_the_reason_and_leaves_the_session_as_it_was() {
    let rules = heavy(2_000_000);
    let mut s = Session::new(&rules, 3);
    let state = s.state().clone();
    let (c, args) = s.resolve("heavy", &[("a", Value::Int(1)), ("b", Value::Int(1))]).unwrap();
    let prepared = s.prepare(c, None, args).unwrap();
    let why = mettle::internals::odds::check_odds(&mut s, &prepared).unwrap().unwrap_err();
    assert!(why.contains("more work than its budget allows"), "{why}");
    assert_eq!(s.state(), &state);
    // With room to work, the same question is exact: 3d6 reach 10 or more 135 ways in 216.
    let rules = heavy(1_000_000_000);
    let mut s = Session::new(&rules, 3);
    let (c, args) = s.resolve("heavy", &[("a", Value::Int(1)), ("b", Value::Int(1))]).unwrap();
    let prepared = s.prepare(c, None, args).unwrap();
    let odds = mettle::internals::odds::check_odds(&mut s, &prepared).unwrap().unwrap();
    let mid = &odds.outcomes.iter().find(|(n, _)| n == "mid").unwrap().1;
    assert_eq!((mid.to_string(), odds.total.to_string()), ("135".to_string(), "216".to_string()));
}

#[test]
fn the_budget_is_a_named_limit() {
    let mut b = Budget::default();
    assert_eq!(b.odds_work, 600_000_000);
    b.set("odds_work", 7).unwrap();
    assert_eq!(b.odds_work, 7);
    let o = mettle(&["odds", "--dice", "2d6", "--budget", "odds_wrok=7"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("odds_work"));
}

#[test]
fn a_rare_costly_run_of_an_estimated_scenario_is_stopped_not_waited_for() {
    // One run in 20 settles 65,536 formula steps; the probes did not meet one, so every run is held
    // to twice the costliest probe and those runs stop (counted as stopped), instead of the estimate
    // running on for the whole budget of each.
    // Merging, before the estimate, follows the 20^5 ways the five d20 of one statement fall until
    // its half of `odds_work` is spent: 300M units of the default budget took 40 s in a debug build.
    // A 60th of it leaves merging as far out of reach and the estimate still 12,500 runs.
    let v = json(&["odds", HEAVY, "--scenario", "spiky", "--budget", "odds_work=10000000", "--json"]);
    assert_eq!(v["method"]["kind"], "estimate", "{v}");
    assert!(
        v["method"]["reason"].as_str().unwrap().contains("merging equal game states: it had followed"),
        "{v}"
    );
    assert!(v["method"]["runs"].as_u64().unwrap() >= 10_000, "{v}");
    let stopped = v["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["outcome"].as_str().is_some_and(|n| n.starts_with("(stopped")));
    let stopped = stopped.expect("some runs were stopped");
    // Stopped by the estimate's hold on each run (twice the costliest probe, at least 1,000 steps),
    // not by the budget of a whole action (`steps`, 10,000,000).
    let why = stopped["outcome"].as_str().unwrap();
    assert!(why.contains("more than 1000 steps"), "{why}");
    let p = stopped["probability"].as_f64().unwrap();
    assert!((0.03..0.07).contains(&p), "about 1 in 20: {p}");
}
