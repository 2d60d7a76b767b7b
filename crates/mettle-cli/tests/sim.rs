//! `with chance`, `record` and `mettle sim`: reproducible reports whatever the threads, frequencies that
//! agree with exact chances, forced dice, errors counted, the JSON shape and the shipped random scenarios.

use mettle::sim::{self, Options, Report, Target};
use mettle::{Ruleset, Session, Value};
use std::path::Path;
use std::process::Command;

// ---------------------------------------------------------------- helpers

fn rules(text: &str) -> Ruleset {
    Ruleset::from_str("sim.mettle", text).unwrap_or_else(|e| panic!("{}", e.render(100)))
}

fn shipped(name: &str) -> Ruleset {
    Ruleset::from_path(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("rulesets").join(name))
        .expect("shipped ruleset")
}

fn sim(r: &Ruleset, scenario: &str, runs: u64, seed: u64, threads: usize) -> Report {
    let opts = Options { runs, seed, threads };
    sim::simulate(r, &Target::Scenario(scenario.into()), &opts, &|_| {}).expect("simulation starts")
}

fn check(r: &Ruleset, name: &str, inputs: &[(&str, i64)], runs: u64) -> Report {
    let inputs = inputs.iter().map(|(n, v)| (n.to_string(), Value::Int(*v))).collect();
    let target = Target::Check { name: name.into(), inputs, with: vec![] };
    sim::simulate(r, &target, &Options { runs, seed: 11, threads: 2 }, &|_| {}).expect("simulation starts")
}

/// Runs with this result (or check outcome).
fn count(rep: &Report, result: &str) -> u64 {
    rep.results.iter().filter(|f| f.result.as_deref() == Some(result)).map(|f| f.count).sum()
}

/// Asserts the result's share lies in its 95% interval and the interval holds the exact chance `p`.
#[track_caller]
fn agrees(rep: &Report, result: &str, p: f64) {
    let f = rep.results.iter().find(|f| f.result.as_deref() == Some(result)).expect("result came up");
    assert!(f.low <= f.share && f.share <= f.high, "{f:?}");
    assert!(f.low < p && p < f.high, "{result}: exact {p} outside {:.4}..{:.4}", f.low, f.high);
}

fn mettle(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .args(args)
        .output()
        .expect("mettle runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

const THIRD: &str = r#"
kind side { hits: 0.. = 0 }
result lucky "Lucky"
result unlucky "Unlucky"
scenario third {
  new side a
  with chance 1/3 { end game with lucky for a } otherwise { end game with unlucky }
}
"#;

// ---------------------------------------------------------------- reproducible

#[test]
fn same_seed_same_report_whatever_the_threads() {
    let r = shipped("combat_hq.mettle");
    let one = sim(&r, "morale_race", 1500, 42, 1);
    assert_eq!(one, sim(&r, "morale_race", 1500, 42, 2));
    assert_eq!(one, sim(&r, "morale_race", 1500, 42, 3));
    assert_eq!(one.runs, 1500);
}

#[test]
fn another_seed_gives_another_report() {
    let r = shipped("combat_hq.mettle");
    assert_ne!(sim(&r, "morale_race", 1500, 42, 2), sim(&r, "morale_race", 1500, 43, 2));
}

#[test]
fn runs_not_a_multiple_of_the_chunk_are_all_counted() {
    let rep = sim(&rules(THIRD), "third", 1000, 1, 3);
    assert_eq!((rep.runs, count(&rep, "lucky") + count(&rep, "unlucky")), (1000, 1000));
}

// ---------------------------------------------------------------- frequencies

#[test]
fn a_third_comes_up_a_third_of_the_time() {
    let rep = sim(&rules(THIRD), "third", 30_000, 5, 2);
    agrees(&rep, "lucky", 1.0 / 3.0);
    agrees(&rep, "unlucky", 2.0 / 3.0);
    assert_eq!(rep.results[0].result.as_deref(), Some("unlucky"), "most frequent first");
    assert_eq!(rep.results[1].winner.as_deref(), Some("a"));
}

#[test]
fn a_check_rolled_many_times_matches_its_exact_odds() {
    // d6 + 3 against 7: steady on 4-6 (1/2), broken on a natural 1 (1/6), shaken on 2-3 (1/3).
    let rep = check(&shipped("infinite_frontiers.mettle"), "morale", &[("spi", 3)], 60_000);
    agrees(&rep, "steady", 0.5);
    agrees(&rep, "broken", 1.0 / 6.0);
    agrees(&rep, "shaken", 1.0 / 3.0);
    let total = &rep.records[0];
    assert_eq!((total.label.as_str(), total.min, total.max), ("total", 4, 9), "d6 + 3");
    assert!((total.mean - 6.5).abs() < 0.05, "{}", total.mean);
}

#[test]
fn a_check_without_a_subject_is_rolled_too() {
    let r = rules("check c { roll d4  outcome low when total <= 1  otherwise high }");
    agrees(&check(&r, "c", &[], 8000), "low", 0.25);
}

#[test]
fn wilson_interval_matches_hand_computation() {
    // 10 of 40: centre (0.25 + z²/80) / (1 + z²/40) = 0.27191, half-width 0.13003.
    let (lo, hi) = sim::wilson(10, 40);
    assert!((lo - 0.14187).abs() < 1e-4 && (hi - 0.40194).abs() < 1e-4, "{lo} {hi}");
}

// ---------------------------------------------------------------- records

#[test]
fn recorded_values_become_distributions() {
    let r = rules(
        r#"
        kind side { n: 0.. = 0 }
        scenario s {
          new side a
          record "die" = 7
          record "die" = d4
          record "four" = a.n == 0
        }
    "#,
    );
    let rep = sim(&r, "s", 4000, 9, 2);
    let die = &rep.records[0];
    assert_eq!(
        (die.label.as_str(), die.runs, die.min, die.max),
        ("die", 4000, 1, 4),
        "the last value counts"
    );
    assert_eq!(die.counts.iter().map(|c| c.runs).sum::<u64>(), 4000);
    let mean = die.counts.iter().map(|c| c.value as f64 * c.runs as f64).sum::<f64>() / 4000.0;
    assert!((die.mean - mean).abs() < 1e-9 && (die.mean - 2.5).abs() < 0.1, "{}", die.mean);
    assert_eq!((rep.records[1].label.as_str(), rep.records[1].mean), ("four", 1.0), "yes counts as 1");
}

#[test]
fn record_is_logged_in_play() {
    let r = rules(r#"kind side { n: 0.. = 0 }  scenario s { new side a  record "n" = a.n + 2 }"#);
    let mut s = Session::new(&r, 1);
    s.run_scenario("s").unwrap();
    assert!(mettle::session::render_log(s.log(), r.text()).contains("record \"n\" = 2"));
}

// ---------------------------------------------------------------- forced dice and errors

#[test]
fn forced_dice_decide_a_chance_in_play() {
    let r = rules(
        r#"
        kind side { hits: 0.. = 0 }
        scenario forced {
          new side a
          dice 2, 3
          with chance 2/3 { add 1 to a.hits } otherwise { add 10 to a.hits }
          expect a.hits == 1, "2 is within the chance"
          with chance 2/3 { add 1 to a.hits } otherwise { add 10 to a.hits }
          expect a.hits == 11, "3 is not"
        }
    "#,
    );
    let rep = Session::new(&r, 0).run_scenario("forced").unwrap();
    assert_eq!((rep.passed, rep.failures.len()), (2, 0), "{:?}", rep.failures);
}

#[test]
fn runs_stopped_by_an_error_are_counted_with_the_first_error() {
    let r = rules(
        r#"
        kind side { n: 0..3 = 0, strict }
        result done "Done"
        scenario risky { new side a  with chance 1/2 { add 5 to a.n }  end game with done }
    "#,
    );
    let rep = sim(&r, "risky", 2000, 3, 2);
    assert_eq!(rep.errors + count(&rep, "done"), 2000);
    assert!((800..1200).contains(&rep.errors), "{}", rep.errors);
    assert_eq!(rep.first_error.as_ref().map(|d| d.code.as_str()), Some("mettle::run::out_of_bounds"));
    assert_eq!(rep, sim(&r, "risky", 2000, 3, 1), "the same first error whatever the threads");
}

#[test]
fn a_scenario_with_every_die_forced_warns_that_every_run_is_the_same() {
    // `example_excess` forces each die it rolls.
    let (code, out, err) = mettle(&["sim", "rulesets/combat_hq.mettle", "example_excess", "--runs", "20"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("20 runs"), "{out}");
    assert!(
        err.contains(
            "warning: every run of scenario `example_excess` is the same: its `dice` lines force every die"
        ),
        "{err}"
    );
    // A scenario left to chance gets no such warning.
    let dir = std::env::temp_dir().join(format!("mettle-sim-forced-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("third.mettle");
    std::fs::write(&file, THIRD).unwrap();
    let (code, _, err) = mettle(&["sim", file.to_str().unwrap(), "third", "--runs", "20"]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("every run"), "{err}");
}

#[test]
fn unknown_scenario_says_did_you_mean() {
    let opts = Options { runs: 10, seed: 0, threads: 1 };
    let e = sim::simulate(&rules(THIRD), &Target::Scenario("thrid".into()), &opts, &|_| {}).unwrap_err();
    assert_eq!(e.help.as_deref(), Some("did you mean `third`?"));
}

// ---------------------------------------------------------------- the shipped random scenarios

#[test]
fn shipped_random_scenarios_end_and_keep_their_expectations() {
    for (file, scenario) in [("combat_hq.mettle", "morale_race"), ("infinite_frontiers.mettle", "firefight")]
    {
        let rep = sim(&shipped(file), scenario, 600, 8, 2);
        assert_eq!((rep.errors, rep.failed_expectations), (0, 0), "{scenario}: {:?}", rep.first_error);
        assert!(rep.results.iter().all(|f| f.result.is_some()), "{scenario}: every game ends");
        assert!(rep.records.iter().any(|d| d.label == "turns taken"), "{scenario} records its turns");
    }
}

#[test]
fn shipped_rulesets_pass_mettle_test() {
    let (code, out, err) =
        mettle(&["test", "rulesets/combat_hq.mettle", "rulesets/infinite_frontiers.mettle"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("morale_race") && out.contains("firefight"), "{out}");
}

#[test]
fn json_report_has_stable_fields() {
    let (code, out, err) = mettle(&[
        "sim",
        "rulesets/combat_hq.mettle",
        "morale_race",
        "--runs",
        "300",
        "--seed",
        "2",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!((v["runs"].as_u64(), v["seed"].as_u64(), v["errors"].as_u64()), (Some(300), Some(2), Some(0)));
    assert_eq!(v["target"]["scenario"], "morale_race");
    let first = &v["results"][0];
    for key in ["result", "winner", "count", "share", "low", "high"] {
        assert!(first.get(key).is_some(), "results have `{key}`: {first}");
    }
    let turns = v["records"].as_array().unwrap().iter().find(|d| d["label"] == "turns taken").expect("turns");
    for key in ["runs", "mean", "min", "max", "counts"] {
        assert!(turns.get(key).is_some(), "records have `{key}`: {turns}");
    }
    assert!(turns["counts"][0]["value"].is_i64() && turns["counts"][0]["runs"].is_u64());
}

#[test]
fn text_report_and_unknown_names() {
    let (code, out, _) = mettle(&["sim", "rulesets/combat_hq.mettle", "morale_race", "--runs", "300"]);
    assert_eq!(code, 0);
    assert!(out.contains("95% interval") && out.contains("turns taken"), "{out}");
    let (code, _, err) = mettle(&["sim", "rulesets/combat_hq.mettle", "morale_rase"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `morale_race`?"), "{err}");
    let (code, _, err) =
        mettle(&["sim", "rulesets/infinite_frontiers.mettle", "--check", "morale", "--set", "sip=2"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `spi`?"), "{err}");
}

/// `mettle sim --check` takes an input the maker has as an attribute from the stand-in, as a roll
/// does (it used to ask for `--set spi` though every unit has a `spi`); an input nobody has is
/// still asked for; re-rolls count in the frequencies.
#[test]
fn sim_of_a_check_takes_inputs_from_the_stand_in_s_attributes() {
    let r = rules(
        "kind unit { spi: 0..6 = 3 }\n\
         check morale for unit { input spi: 0..6  roll d6  modifier \"Spirit\" +spi  outcome steady when total >= 7  otherwise shaken }\n\
         check nerve for unit { input grit: 0..6  roll d6  modifier \"Grit\" +grit  outcome steady when total >= 7  otherwise shaken }\n\
         check rally { roll 2d6  outcome holds when total <= 7  otherwise falters  reroll when falters once }",
    );
    let target =
        |name: &str, with: Vec<(String, Value)>| Target::Check { name: name.into(), inputs: vec![], with };
    let opts = Options { runs: 20_000, seed: 5, threads: 2 };
    // spi 3: steady on 4, 5, 6 (1/2); spi 5: on 2..6 (5/6).
    let rep = sim::simulate(&r, &target("morale", vec![]), &opts, &|_| {}).expect("no --set spi needed");
    agrees(&rep, "steady", 0.5);
    let rep =
        sim::simulate(&r, &target("morale", vec![("spi".into(), Value::Int(5))]), &opts, &|_| {}).unwrap();
    agrees(&rep, "steady", 5.0 / 6.0);
    let e = sim::simulate(&r, &target("nerve", vec![]), &opts, &|_| {}).unwrap_err();
    assert_eq!(e.code, "mettle::sim::missing_input");
    let rep = sim::simulate(&r, &target("rally", vec![]), &opts, &|_| {}).unwrap();
    agrees(&rep, "holds", 119.0 / 144.0);
    let out = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(["sim", "../../rulesets/infinite_frontiers.mettle", "--check", "morale", "--runs", "200"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
