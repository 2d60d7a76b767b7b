//! House-rule options: declared in a ruleset, chosen on the command line, in a scenario, in the REPL
//! or by a host, and respected by rolls, exact odds, the check lint and saves.

use mettle::{LoadOptions, Ruleset, Session, Value};
use std::path::Path;

mod common;
use common::{json, mettle};

const OPTIONS: &str = "tests/inputs/good/options.mettle";

fn load(options: &[(&str, &str)]) -> Result<Ruleset, mettle::LoadError> {
    let text =
        std::fs::read_to_string(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join(OPTIONS))
            .unwrap();
    let options = options.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
    Ruleset::load("options.mettle", &text, &LoadOptions { options, ..Default::default() })
}

/// The exact chance of `outcome` in an odds report, as `p/q`.
fn exact(report: &serde_json::Value, outcome: &str) -> String {
    let o = report["outcomes"].as_array().unwrap().iter().find(|o| o["outcome"] == outcome).unwrap();
    o["exact"].as_str().unwrap().to_string()
}

#[test]
fn a_chosen_reading_changes_the_exact_odds() {
    // Read flat, leadership 1: d6 + 1 >= 6 on a 5 or 6, 1/3. As an extra d6: 2d6 >= 6 (and below
    // 10), 20/36, and 10 or more, 6/36.
    let flat = json(&["odds", OPTIONS, "nerve", "--set", "leadership=1", "--json"]);
    assert_eq!(exact(&flat, "holds"), "1/3");
    assert_eq!(exact(&flat, "inspired"), "0/1");
    assert!(flat["question"].as_str().unwrap().contains("under option leadership_die = flat_plus_one"));
    let die = json(&[
        "odds",
        OPTIONS,
        "nerve",
        "--set",
        "leadership=1",
        "--option",
        "leadership_die=extra_d6",
        "--json",
    ]);
    assert_eq!(exact(&die, "holds"), "5/9");
    assert_eq!(exact(&die, "inspired"), "1/6");
}

#[test]
fn an_option_sweep_shows_every_reading_side_by_side() {
    let v = json(&[
        "odds",
        OPTIONS,
        "nerve",
        "--option-sweep",
        "leadership_die",
        "--set",
        "leadership=1",
        "--json",
    ]);
    let rows = v["rows"].as_array().unwrap();
    let readings: Vec<&str> = rows.iter().map(|r| r["set"]["leadership_die"].as_str().unwrap()).collect();
    assert_eq!(readings, ["extra_d6", "flat_plus_one"]);
    assert_eq!(exact(&rows[0], "holds"), "5/9");
    assert_eq!(exact(&rows[1], "holds"), "1/3");
    // `--sweep NAME` without a range sweeps an option too, crossed with an input sweep.
    let v =
        json(&["odds", OPTIONS, "nerve", "--sweep", "sixes_pass", "--sweep", "leadership=0..2", "--json"]);
    assert_eq!(v["rows"].as_array().unwrap().len(), 6);
    let text = String::from_utf8_lossy(
        &mettle(&["odds", OPTIONS, "nerve", "--option-sweep", "leadership_die"]).stdout,
    )
    .into_owned();
    assert!(text.contains("extra_d6") && text.contains("flat_plus_one"), "{text}");
}

#[test]
fn a_misspelt_option_is_a_coded_error_with_a_suggestion() {
    let o = mettle(&["odds", OPTIONS, "nerve", "--option", "leadership_dei=extra_d6"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("mettle::option::unknown") && e.contains("did you mean `leadership_die`?"), "{e}");
    let o = mettle(&["play", OPTIONS, "both_readings", "--option", "leadership_die=extra"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("mettle::option::bad_value") && e.contains("did you mean `extra_d6`?"), "{e}");
    let o = mettle(&["test", OPTIONS, "--option", "leadership_die"]);
    assert_eq!(o.status.code(), Some(2), "a value is needed: a usage error");
}

#[test]
fn every_command_takes_options() {
    let o = mettle(&[
        "roll",
        OPTIONS,
        "nerve",
        "--set",
        "leadership=1",
        "--option",
        "leadership_die=extra_d6",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["pool"]["dice"].as_array().map(Vec::len), Some(2), "{v}");
    // The scenario starts under the reading chosen, then switches to extra_d6 itself: both pass.
    for reading in ["flat_plus_one", "extra_d6"] {
        let o = mettle(&["test", OPTIONS, "--option", &format!("leadership_die={reading}")]);
        let out = String::from_utf8_lossy(&o.stdout);
        if reading == "flat_plus_one" {
            assert!(o.status.success(), "{out}");
        } else {
            // Read as a die from the start, the first roll has two dice: 4 and the next forced 4.
            assert_eq!(o.status.code(), Some(1), "{out}");
        }
    }
    let o = mettle(&[
        "sim",
        OPTIONS,
        "--check",
        "nerve",
        "--set",
        "leadership=2",
        "--runs",
        "2000",
        "--option",
        "leadership_die=extra_d6",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v.to_string().contains("inspired"), "{v}");
}

#[test]
fn the_repl_lists_and_picks_options_and_undoes_the_pick() {
    let mut r = mettle::internals::repl::Repl::new(1, false, 80);
    assert!(
        !r.handle(&format!(
            ":load {}",
            Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join(OPTIONS).display()
        ))
        .failed
    );
    let list = r.handle(":option").out;
    assert!(list.contains("option leadership_die = flat_plus_one"), "{list}");
    assert!(!r.handle(":option leadership_die extra_d6").failed);
    assert_eq!(r.session().show(r.session().option("leadership_die").unwrap()), "extra_d6");
    let bad = r.handle(":option leadership_die extra");
    assert!(bad.failed && bad.err.contains("did you mean `extra_d6`?"), "{}", bad.err);
    assert!(!r.handle(":undo").failed);
    assert_eq!(r.session().show(r.session().option("leadership_die").unwrap()), "flat_plus_one");
    // The statement works at the prompt as in a scenario.
    assert!(!r.handle("option sixes_pass = yes").failed);
    assert_eq!(r.session().option("sixes_pass"), Some(&Value::Bool(true)));
}

#[test]
fn a_save_keeps_the_options_and_a_bad_one_is_refused() {
    let rules = load(&[("leadership_die", "extra_d6")]).unwrap();
    let mut s = Session::new(&rules, 5);
    s.set_option("sixes_pass", Value::Bool(true)).unwrap();
    let saved = s.save();
    let back = Session::load(&rules, &saved).unwrap();
    assert_eq!(back.show(back.option("leadership_die").unwrap()), "extra_d6");
    assert_eq!(back.option("sixes_pass"), Some(&Value::Bool(true)));
    // An option holding a value that is not one of its readings.
    let mut v: serde_json::Value = serde_json::from_str(&saved).unwrap();
    v["state"]["options"][1] = serde_json::json!({"Int": 7});
    let e = Session::load(&rules, &v.to_string()).unwrap_err();
    assert_eq!(e.code, "mettle::save::bad_value", "{}", e.message);
    assert!(e.message.contains("sixes_pass"), "{}", e.message);
    // A save made before options existed plays on with the ruleset's readings.
    v["state"].as_object_mut().unwrap().remove("options");
    let old = Session::load(&rules, &v.to_string()).unwrap();
    assert_eq!(old.option("sixes_pass"), Some(&Value::Bool(false)));
}

#[test]
fn the_library_sets_options_by_value_and_refuses_wrong_ones() {
    let rules = load(&[]).unwrap();
    let mut s = Session::new(&rules, 1);
    let e = s.set_option("sixes_pass", Value::Int(3)).unwrap_err();
    assert_eq!(e.code, "mettle::run::type_mismatch");
    assert!(s.set_option("nope", Value::Bool(true)).unwrap_err().help.unwrap().contains("sixes_pass"));
    assert!(load(&[("sixes_pass", "maybe")]).is_err());
}

#[test]
fn the_lint_tries_every_reading() {
    // `inspired` needs 10 or more: out of reach read flat, in reach with an extra die. No warning.
    let o = mettle(&["check", OPTIONS]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success() && !e.contains("unreachable_outcome"), "{e}");
}
