//! The seeds as a player reads them: every reading a ruleset offers passes every scenario, and the
//! decisions that are not scenarios (values a host must give) are enforced.

use mettle::internals::RulesetInternals as _;
use mettle::{LoadOptions, Ruleset, Session, Value};
use std::path::Path;

mod common;
use common::mettle;

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

/// The names between backticks in `cell` (`` `a` = `b`, `c` `` gives a, b, c).
fn quoted(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

/// docs/readings.md, the table of readings, says true things of the rulesets: a section for each
/// shipped ruleset; every option it names exists, with the readings it names, the played one first;
/// every option of a ruleset is in its table with all its readings; every scenario it names exists.
#[test]
fn the_readings_table_is_held_to_the_rulesets() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let doc = std::fs::read_to_string(root.join("docs/readings.md")).unwrap();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(readme.contains("docs/readings.md"), "the README links to the table");
    let mut shipped: Vec<String> = std::fs::read_dir(root.join("rulesets"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".mettle"))
        .collect();
    shipped.sort();
    let mut seen = vec![];
    for section in doc.split("\n## ").skip(1) {
        let heading = section.lines().next().unwrap();
        let file = quoted(heading).into_iter().find(|q| q.starts_with("rulesets/")).expect("a file");
        let file = file.trim_start_matches("rulesets/");
        seen.push(file.to_string());
        let rules = Ruleset::from_path(root.join("rulesets").join(file)).unwrap();
        let p = rules.program();
        let s = Session::new(&rules, 0);
        let rows: Vec<Vec<&str>> = section
            .lines()
            .filter(|l| l.starts_with('|'))
            .skip(2)
            .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
            .collect();
        assert!(!rows.is_empty(), "{file}: a table");
        let mut named_options = vec![];
        for row in &rows {
            assert_eq!(row.len(), 5, "{file}: five cells: {row:?}");
            if let [option, readings @ ..] = quoted(row[3]).as_slice() {
                let o = p.options.iter().find(|o| o.name == *option);
                assert!(o.is_some(), "{file}: option `{option}` exists");
                let played = s.show(s.option(option).unwrap());
                assert_eq!(
                    readings.first().copied(),
                    Some(played.as_str()),
                    "{file}: `{option}` plays the first"
                );
                let all: Vec<String> = match &o.unwrap().ty {
                    mettle::internals::program::Ty::Name(set) => p.sets[*set as usize].names.clone(),
                    other => panic!("{file}: `{option}` is read as names, not {other:?}"),
                };
                let mut named: Vec<String> = readings.iter().map(|r| r.to_string()).collect();
                named.sort();
                let mut all = all;
                all.sort();
                assert_eq!(named, all, "{file}: every reading of `{option}`, and only those");
                named_options.push(option.to_string());
            } else {
                assert_eq!(row[3], "—", "{file}: a decided reading says so: {row:?}");
            }
            let proofs: Vec<&str> =
                quoted(row[4]).into_iter().filter(|q| !q.contains('/') && !q.contains('.')).collect();
            assert!(!proofs.is_empty() || row[4].contains("tests/"), "{file}: a proof: {row:?}");
            for name in proofs {
                assert!(p.scenarios.iter().any(|sc| sc.name == name), "{file}: scenario `{name}` exists");
            }
        }
        for o in &p.options {
            assert!(named_options.contains(&o.name), "{file}: option `{}` is in the table", o.name);
        }
    }
    seen.sort();
    assert_eq!(seen, shipped, "a section for each shipped ruleset");
}
