//! What the odds of a scenario report: `--report EXPR,…` and a scenario's `report` line, ends named
//! by how the game ended or what differs, stopped runs named by what stopped them, the exact and
//! estimated answers laid out alike. Run through the real binary.

mod common;
use common::{err, json, mettle, out};

const FRONTIERS: &str = "rulesets/infinite_frontiers.mettle";

/// The outcome rows of a `--json` report: name and exact fraction (or `-` for an estimate).
fn rows(v: &serde_json::Value) -> Vec<(String, String)> {
    v["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["outcome"].as_str().unwrap().to_string(), o["exact"].as_str().unwrap_or("-").to_string()))
        .collect()
}

/// A ruleset written to a temporary file, kept as long as the value lives.
fn ruleset(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new().suffix(".mettle").tempfile().unwrap();
    std::io::Write::write_all(&mut f, text.as_bytes()).unwrap();
    f
}

const ROUT: &str = r#"kind unit { morale: steady | shaken | broken = steady  hp: 0..9 = 3 }
check morale for unit { roll d6  outcome hold when total >= 3 {} otherwise slip { set unit.morale to shift(unit.morale, 1) } }
result rout "Rout"
event boom(unit: unit)
on boom { end game with rout for unit }
scenario twice {
  new unit u
  new unit v
  roll morale for u
  roll morale for u
  record "rolls" = 2
}
scenario reported {
  new unit u
  report u.morale is broken
  roll morale for u
  roll morale for u
}
scenario stops {
  new unit u
  roll morale for u
  if u.morale is shaken { trigger boom(unit: u) }
  trigger boom(unit: u)
}
"#;

#[test]
fn report_chooses_the_rows_of_a_scenario() {
    let v = json(&[
        "odds",
        FRONTIERS,
        "--scenario",
        "three_morale_checks",
        "--report",
        "u.morale is broken",
        "--json",
    ]);
    assert_eq!(v["method"]["kind"], "exact");
    assert_eq!(
        rows(&v),
        [
            ("u.morale is broken = no".into(), "17/24".into()),
            ("u.morale is broken = yes".into(), "7/24".into())
        ]
    );
}

#[test]
fn report_rows_read_as_text() {
    let o = mettle(&["odds", FRONTIERS, "--scenario", "three_morale_checks", "--report", "u.morale,  turn"]);
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(text.contains("  u.morale = shaken, turn = 0    45.83%  11/24"), "{text}");
    assert!(text.contains("  u.morale = steady, turn = 0    25.00%  1/4"), "{text}");
}

#[test]
fn a_scenario_report_line_names_its_rows_and_records_are_shown() {
    let f = ruleset(ROUT);
    let path = f.path().to_str().unwrap();
    let v = json(&["odds", path, "--scenario", "reported", "--json"]);
    assert_eq!(
        rows(&v),
        [("u.morale is broken = no".into(), "8/9".into()), ("u.morale is broken = yes".into(), "1/9".into())]
    );
    // No report line: only what differs between the ends (v never changes), and the recorded value.
    let v = json(&["odds", path, "--scenario", "twice", "--json"]);
    let names: Vec<String> = rows(&v).into_iter().map(|r| r.0).collect();
    assert_eq!(names, ["u.morale = shaken", "u.morale = steady", "u.morale = broken"]);
    assert_eq!(v["values"][0]["name"], "rolls", "{v}");
    // --report replaces the scenario's own line.
    let v = json(&["odds", path, "--scenario", "reported", "--report", "u.morale", "--json"]);
    assert_eq!(rows(&v)[2], ("u.morale = broken".into(), "1/9".into()));
}

#[test]
fn a_run_stopped_by_an_error_is_named_with_what_stopped_it_and_where() {
    let f = ruleset(ROUT);
    let v = json(&["odds", f.path().to_str().unwrap(), "--scenario", "stops", "--json"]);
    assert_eq!(
        rows(&v),
        [
            ("rout for u".into(), "2/3".into()),
            ("(stopped at line 23: the game is over (rout))".into(), "1/3".into())
        ]
    );
}

#[test]
fn an_estimate_names_its_rows_as_the_exact_answer_does() {
    let f = ruleset(ROUT);
    let path = f.path().to_str().unwrap();
    let exact = json(&["odds", path, "--scenario", "stops", "--json"]);
    // Too little work for the walk or for merging: estimated, rows named the same.
    let est = json(&["odds", path, "--scenario", "stops", "--json", "--budget", "odds_work=3000"]);
    assert_eq!(est["method"]["kind"], "estimate", "{est}");
    let names = |v: &serde_json::Value| {
        let mut n: Vec<String> = rows(v).into_iter().map(|r| r.0).collect();
        n.sort();
        n
    };
    assert_eq!(names(&est), names(&exact));
    let est = json(&["odds", path, "--scenario", "twice", "--json", "--budget", "odds_work=3000"]);
    assert_eq!(est["method"]["kind"], "estimate", "{est}");
    assert!(names(&est).contains(&"u.morale = broken".to_string()), "{est}");
    assert_eq!(est["values"][0]["name"], "rolls", "the estimate shows recorded values too: {est}");
}

// ---------------------------------------------------------------- hostile `--report`

/// A `--report` that must be refused: exit 2, the code on stderr, nothing on stdout, and the
/// ruleset untouched.
fn refused(report: &str, code: &str) -> String {
    let f = ruleset(ROUT);
    let path = f.path().to_str().unwrap();
    let o = mettle(&["odds", path, "--scenario", "twice", "--report", report]);
    assert_eq!(o.status.code(), Some(2), "{report}: {}", err(&o));
    assert!(out(&o).is_empty(), "{report}: {}", out(&o));
    let e = err(&o);
    assert!(e.contains(code), "{report}: {e}");
    assert_eq!(std::fs::read_to_string(f.path()).unwrap(), ROUT, "the ruleset is left as it was");
    e
}

#[test]
fn a_bad_report_is_located_in_the_typed_text() {
    let e = refused("u.moral", "mettle::resolve::unknown_attribute");
    assert!(e.contains("--report:1:3"), "{e}");
    assert!(e.contains("did you mean `morale`?"), "{e}");
    let e = refused("u.hp, nobody", "mettle::resolve::unknown_name");
    assert!(e.contains("--report:1:7"), "{e}");
}

#[test]
fn a_report_that_rolls_dice_or_is_no_value_is_refused() {
    refused("u.hp + d6", "mettle::resolve::report_not_exact");
    refused("last morale", "mettle::resolve::report_value");
}

#[test]
fn a_report_that_is_not_a_list_of_values_is_a_syntax_error() {
    refused("u.hp,", "mettle::parse::");
    // Text that would close the scenario and start another is no expression.
    refused("u.hp } scenario evil { new unit w", "mettle::parse::");
    refused("u.hp\n}\nscenario evil {", "mettle::parse::");
    refused(&"(".repeat(5000), "mettle::parse::too_deep");
    refused("", "mettle::parse::");
}

#[test]
fn a_report_for_an_unknown_scenario_suggests_one() {
    let f = ruleset(ROUT);
    let o = mettle(&["odds", f.path().to_str().unwrap(), "--scenario", "twic", "--report", "u.hp"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("did you mean `twice`?"), "{}", err(&o));
}

#[test]
fn report_needs_a_scenario() {
    let o = mettle(&["odds", FRONTIERS, "morale", "--report", "u.hp"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("mettle::cli::usage") && err(&o).contains("--report"), "{}", err(&o));
}
