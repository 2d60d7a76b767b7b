//! `mettle odds --dice` and `mettle roll --dice`, run as the real binary.

use std::process::{Command, Output};

/// Runs `mettle ARGS` without colour.
fn mettle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mettle")).args(args).env("NO_COLOR", "1").output().expect("mettle runs")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_str(&out(o)).expect("JSON on stdout")
}

#[test]
fn odds_of_a_comparison_are_yes_and_no() {
    let o = mettle(&["odds", "--dice", "2d6 + 3 >= 8"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).contains("yes") && out(&o).contains("no"), "{}", out(&o));
}

#[test]
fn odds_of_a_number_run() {
    for e in ["4d6kh3", "10d6cs<=3", "3d6 + 1d4", "1000d6"] {
        let o = mettle(&["odds", "--dice", e]);
        assert_eq!(o.status.code(), Some(0), "{e}: {}", err(&o));
    }
}

#[test]
fn a_bad_expression_is_located() {
    let o = mettle(&["odds", "--dice", "2d6 + foo"]);
    assert_eq!(o.status.code(), Some(2));
    let e = err(&o);
    assert!(e.contains("mettle::resolve::unknown_name") && e.contains("unknown name `foo`"), "{e}");
    assert!(e.contains("--dice:1:7") && e.contains("2d6 + foo"), "{e}");
    let o = mettle(&["roll", "--dice", "2d6 +"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("expected an expression, found end of file"), "{}", err(&o));
}

#[test]
fn odds_out_of_reach_say_why_and_are_estimated() {
    let o = mettle(&["odds", "--dice", "3d6xkh2 >= 10", "--seed", "4", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["exact"], false);
    assert!(v["method"]["reason"].as_str().unwrap().contains("after they explode"), "{v}");
    assert_eq!((v["method"]["runs"].as_u64(), v["method"]["seed"].as_u64()), (Some(40_000), Some(4)));
    let yes = &v["outcomes"][0];
    assert_eq!(yes["exact"], serde_json::Value::Null);
    assert!(yes["low"].as_f64().unwrap() < yes["probability"].as_f64().unwrap());
    // The same seed, the same estimate.
    assert_eq!(o.stdout, mettle(&["odds", "--dice", "3d6xkh2 >= 10", "--seed", "4", "--json"]).stdout);
}

#[test]
fn a_roll_shows_its_dice_and_repeats_with_its_seed() {
    let o = mettle(&["roll", "--dice", "4d6kh3 + d4", "--seed", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o), out(&mettle(&["roll", "--dice", "4d6kh3 + d4", "--seed", "3"])));
    assert!(out(&o).starts_with("4d6kh3: [") && out(&o).contains("\nd4: ["), "{}", out(&o));
}

#[test]
fn a_rolled_sum_in_json_adds_its_faces() {
    for seed in ["1", "2", "3"] {
        let v = json(&mettle(&["roll", "--dice", "3d6", "--seed", seed, "--json"]));
        let faces: i64 = v["rolls"][0]["faces"].as_array().unwrap().iter().map(|f| f.as_i64().unwrap()).sum();
        assert_eq!(v["value"].as_i64(), Some(faces), "{v}");
    }
    let v = json(&mettle(&["roll", "--dice", "d6 >= 1", "--json"]));
    assert_eq!(v["value"], serde_json::json!(true));
}

/// Exact odds say how small a tiny chance is: never `≈` or `<0.01%` under "exact odds", never `0`
/// for a chance that is not nothing (even one too small for a floating-point number).
#[test]
fn tiny_exact_chances_are_shown_by_their_size() {
    let o = mettle(&["odds", "--dice", "6d6r1"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    assert!(text.contains("exact odds"), "{text}");
    assert!(!text.contains('≈') && !text.contains("<0.01%"), "{text}");
    // 6 is every die showing 1 at each reroll: 1/6^… , far below what an f64 holds.
    assert!(text.contains("   6  2.7e-470%  2.756e-472"), "{text}");
    assert!(text.contains("  11   4.8e-80%  4.898e-82"), "{text}");
    // Every row has its exact column: a chance is 0 only when it cannot happen.
    for line in text.lines().skip(4).filter(|l| !l.trim().is_empty()) {
        assert!(line.split_whitespace().nth(1).is_none_or(|p| p != "0"), "{line}");
    }
    // A plain chance keeps its fraction.
    let o = mettle(&["odds", "--dice", "2d6"]);
    assert!(out(&o).contains("   2     2.78%  1/36"), "{}", out(&o));
}
