//! The seeds as a player reads them: every reading a ruleset offers passes every scenario, and the
//! decisions that are not scenarios (values a host must give) are enforced.

use mettle::internals::RulesetInternals as _;
use mettle::{LoadOptions, Ruleset, Session, Value};
use std::path::Path;
use std::process::{Command, Output};

fn mettle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(args)
        .current_dir(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")))
        .env("NO_COLOR", "1")
        .output()
        .expect("the mettle binary runs")
}

fn load(file: &str, options: &[(&str, &str)]) -> Ruleset {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("rulesets").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let options = options.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
    Ruleset::load(file, &text, &LoadOptions { options, ..Default::default() }).unwrap()
}

/// Every scenario of `file` under the readings `options`: the names of those that failed.
fn failing(file: &str, options: &[(&str, &str)]) -> Vec<String> {
    let rules = load(file, options);
    let mut failed = vec![];
    for sc in &rules.program().scenarios {
        let mut s = Session::new(&rules, 0);
        match s.run_scenario(&sc.name) {
            Ok(r) if r.failures.is_empty() => {}
            _ => failed.push(sc.name.clone()),
        }
    }
    failed
}

#[test]
fn infinite_frontiers_passes_under_every_reading() {
    let rules = load("infinite_frontiers.mettle", &[]);
    let names: Vec<&str> = rules.program().options.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["bonus_die", "resolve_needs"]);
    for bonus in ["extra_d6", "flat_plus_one"] {
        for resolve in ["a_six", "seven_sixes"] {
            let options = [("bonus_die", bonus), ("resolve_needs", resolve)];
            assert_eq!(failing("infinite_frontiers.mettle", &options), Vec::<String>::new(), "{options:?}");
        }
    }
}

#[test]
fn the_defaults_make_resolve_live_and_read_plus_one_flat() {
    let rules = load("infinite_frontiers.mettle", &[]);
    let s = Session::new(&rules, 0);
    assert_eq!(s.show(s.option("bonus_die").unwrap()), "flat_plus_one");
    assert_eq!(s.show(s.option("resolve_needs").unwrap()), "a_six");
    // A pass with a six, from SPI 1 and one die: a 6 (1 in 6) — far from 1 in 279,936.
    let v = mettle(&["odds", "rulesets/infinite_frontiers.mettle", "morale", "--set", "spi=1", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&v.stdout).unwrap();
    let sixes = v["values"].as_array().unwrap().iter().find(|d| d["name"] == "sixes").unwrap();
    let one = sixes["distribution"].as_array().unwrap().iter().find(|r| r["value"] == 1).unwrap();
    assert_eq!(one["exact"], "1/6");
}

#[test]
fn a_combat_hq_group_needs_its_starting_morale_points() {
    let rules = load("combat_hq.mettle", &[]);
    let mut s = Session::new(&rules, 0);
    let e = s.create("group", "max", &[]).unwrap_err();
    assert_eq!(e.code, "mettle::run::missing_attribute");
    assert!(e.message.contains("`mp`"), "{}", e.message);
    assert!(s.state().entities().is_empty(), "nothing was created");
    s.create("group", "max", &[("mp", Value::Int(5))]).unwrap();
    // On the command line, the stand-in that makes a check must be given it too.
    let o = mettle(&["odds", "rulesets/combat_hq.mettle", "dispersal"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--with mp="));
    // And its opponent's, which the dispersal's effects add to: never a silent 0.
    let o = mettle(&["odds", "rulesets/combat_hq.mettle", "dispersal", "--with", "mp=2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--with opponent.mp="));
    let o = mettle(&[
        "odds",
        "rulesets/combat_hq.mettle",
        "dispersal",
        "--with",
        "mp=2",
        "--with",
        "opponent.mp=3",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
