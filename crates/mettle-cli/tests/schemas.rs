//! The JSON Schemas in `schemas/`: regenerating them gives the checked-in files, and the real output of
//! every `--json` command (and of `mettle serve`) fits its schema, errors included.
//!
//! After changing a JSON type, regenerate with `cargo run -q -- schemas --out schemas`.

use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn mettle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("the mettle binary runs")
}

fn schema(name: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("schemas").join(name)).expect("the schema is checked in");
    let v: Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::validator_for(&v).unwrap_or_else(|e| panic!("{name} is not a schema: {e}"))
}

/// Panics with every error when `doc` does not fit `name`.
fn fits(name: &str, doc: &Value) {
    let v = schema(name);
    let errors: Vec<String> = v.iter_errors(doc).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{name}: {errors:#?}\n{doc:#}");
}

#[test]
fn regenerating_the_schemas_gives_the_checked_in_files() {
    let dir = std::env::temp_dir().join(format!("mettle-schemas-{}", std::process::id()));
    let out = mettle(&["schemas", "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let names = |d: &Path| {
        let mut n: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        n.sort();
        n
    };
    let checked_in = root().join("schemas");
    assert_eq!(names(&dir), names(&checked_in), "regenerate with `cargo run -q -- schemas --out schemas`");
    for n in names(&dir) {
        let made = std::fs::read_to_string(dir.join(&n)).unwrap();
        let kept = std::fs::read_to_string(checked_in.join(&n)).unwrap();
        assert!(
            made == kept,
            "schemas/{n} is out of date: regenerate with `cargo run -q -- schemas --out schemas`"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

const IF: &str = "rulesets/infinite_frontiers.mettle";

/// `(schema, arguments, exit status)` of a run of every `--json` command that succeeds.
const OUTPUTS: &[(&str, &[&str], i32)] = &[
    ("check.json", &["check", "--json", IF, "rulesets/shadow_deep_stress.mettle"], 0),
    ("check.json", &["check", "--json", "tests/inputs/bad/09_unknown_kind.mettle"], 1),
    ("roll.json", &["roll", IF, "morale", "--set", "spi=2", "--json"], 0),
    ("roll.json", &["roll", IF, "skill", "--set", "dice_pool=3", "--with", "morale=shaken", "--json"], 0),
    ("dice-roll.json", &["roll", "--dice", "3d6", "--json"], 0),
    ("dice-roll.json", &["roll", "--dice", "d6 >= 4", "--json"], 0),
    ("odds.json", &["odds", IF, "morale", "--set", "spi=2", "--group", "fail=broken,shaken", "--json"], 0),
    ("odds.json", &["odds", IF, "--scenario", "three_morale_checks", "--json"], 0),
    ("odds.json", &["odds", "--dice", "3d6xkh2 >= 10", "--json"], 0),
    ("odds.json", &["odds", "--dice", "2d6+3", "--json"], 0),
    ("odds-sweep.json", &["odds", IF, "morale", "--sweep", "spi=0..2", "--json"], 0),
    ("sim.json", &["sim", IF, "firefight", "--runs", "50", "--json"], 0),
    ("sim.json", &["sim", IF, "--check", "morale", "--set", "spi=2", "--runs", "50", "--json"], 0),
    ("play.json", &["play", IF, "morale_in_combat", "--json"], 0),
    ("play.json", &["play", "rulesets/shadow_deep_stress.mettle", "one_out_of_combat", "--json"], 0),
    ("export.json", &["export", IF], 0),
];

#[test]
fn every_json_output_fits_its_schema_and_names_its_version() {
    for (name, args, status) in OUTPUTS {
        let out = mettle(args);
        assert_eq!(out.status.code(), Some(*status), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        assert_eq!(doc["mettle"]["schema"], 1, "{args:?}");
        fits(name, &doc);
    }
}

/// `(arguments, exit status, error code)` of commands that fail under `--json`.
const FAILURES: &[(&[&str], i32, &str)] = &[
    (&["roll", IF, "moral", "--json"], 2, "mettle::cli::unknown_check"),
    (&["roll", IF, "morale", "--set", "spi=9", "--json"], 1, "mettle::run::out_of_range"),
    (&["roll", "tests/inputs/bad/09_unknown_kind.mettle", "x", "--json"], 1, "mettle::resolve::unknown_kind"),
    (&["odds", "--dice", "3d", "--json"], 2, ""),
    (
        &["odds", IF, "morale", "--set", "spi=2", "--group", "fail=brokn", "--json"],
        2,
        "mettle::cli::bad_group",
    ),
    (&["sim", IF, "firefight", "--runs", "0", "--json"], 2, "mettle::cli::bad_runs"),
    (&["play", IF, "no_such_scenario", "--json"], 1, "mettle::run::unknown_scenario"),
    (&["roll", IF, "morale", "--budget", "stpes=3", "--json"], 2, "mettle::cli::budget"),
    (
        &[
            "odds",
            IF,
            "morale",
            "--sweep",
            "spi=0..2",
            "--sweep",
            "leadership=0..1",
            "--plot-of",
            "stedy",
            "--plot",
            "target/never-written.svg",
            "--json",
        ],
        2,
        "mettle::cli::bad_plot",
    ),
];

#[test]
fn errors_under_json_are_json_with_the_same_exit_status() {
    for (args, status, code) in FAILURES {
        let out = mettle(args);
        assert_eq!(out.status.code(), Some(*status), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = err.lines().collect();
        assert!(!lines.is_empty(), "{args:?} printed no error");
        for line in &lines {
            let doc: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{args:?}: {e}: {line}"));
            fits("error.json", &doc);
        }
        let first: Value = serde_json::from_str(lines[0]).unwrap();
        let e = &first["errors"][0];
        if !code.is_empty() {
            assert_eq!(e["code"], *code, "{args:?}");
        }
        assert!(e["message"].as_str().is_some_and(|m| !m.is_empty()), "{args:?}");
    }
}

#[test]
fn an_error_in_a_file_gives_line_and_both_columns() {
    // `ü` is two bytes of UTF-8 and one unit of UTF-16: past it, the two columns differ.
    let out = mettle(&["roll", "--dice", "\"ü\" + foo", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let doc: Value = serde_json::from_slice(&out.stderr).unwrap();
    let e = &doc["errors"][1];
    assert_eq!(e["code"], "mettle::resolve::unknown_name");
    assert_eq!(e["file"], "--dice");
    assert_eq!(
        (e["line"].clone(), e["column_utf8"].clone(), e["column_utf16"].clone()),
        (1.into(), 8.into(), 7.into())
    );
    assert_eq!(e["span"], serde_json::json!({ "start": 7, "end": 10 }));
    assert_eq!(e["labels"][0]["primary"], true);
}

/// Runs `mettle serve ARGS` with `lines` on its input; its replies, one a line.
pub fn serve(args: &[&str], lines: &[String]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .arg("serve")
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("mettle serve starts");
    let mut input = child.stdin.take().unwrap();
    for l in lines {
        writeln!(input, "{l}").unwrap();
    }
    drop(input);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn the_transcript_requests_and_replies_fit_the_serve_schemas() {
    let text = std::fs::read_to_string(root().join("tests/drive/transcript.jsonl")).unwrap();
    let requests: Vec<String> = text.lines().map(String::from).collect();
    let replies = serve(&[], &requests);
    assert_eq!(replies.len(), requests.len(), "one reply a request");
    for (r, reply) in requests.iter().zip(&replies) {
        if let Ok(req) = serde_json::from_str::<Value>(r)
            && reply.get("result").is_some()
        {
            fits("serve-request.json", &req);
        }
        fits("serve-reply.json", reply);
    }
}

/// A ruleset that warns on loading (a formula nothing uses), with a scenario that forces every die it
/// rolls, so that `sim` warns as well.
const WARNS: &str = r#"
define half(x: 0..) = x / 2

check attack {
  input bonus: 0..2 = 0
  roll d6
  modifier "Bonus" +bonus
  target 4
  outcome hit when total >= target
  otherwise miss
}

scenario forced "Every die it rolls is forced" {
  dice 5
  roll attack
  expect last attack is hit
}
"#;

#[test]
fn warnings_under_json_are_json_documents_on_standard_error() {
    let dir = std::env::temp_dir().join(format!("mettle-json-warnings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("warns.mettle");
    std::fs::write(&file, WARNS).unwrap();
    let (f, chart) = (file.to_str().unwrap(), dir.join("chart.svg"));
    let chart = chart.to_str().unwrap();
    const UNUSED: &str = "mettle::resolve::unused";
    // `(arguments, a warning code it must give)`: every `--json` command that warns.
    let runs: &[(&[&str], &str)] = &[
        (&["roll", f, "attack", "--json"], UNUSED),
        (&["odds", f, "attack", "--json"], UNUSED),
        (&["odds", f, "attack", "--sweep", "bonus=0..2", "--json", "--plot", chart], UNUSED),
        (&["odds", f, "--scenario", "forced", "--json", "--plot", chart], UNUSED),
        (&["sim", f, "forced", "--runs", "5", "--json"], "mettle::sim::same_every_run"),
        (&["sim", f, "--check", "attack", "--runs", "5", "--json"], UNUSED),
        (&["play", f, "forced", "--json"], UNUSED),
    ];
    for (args, code) in runs {
        let out = mettle(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let mut codes = vec![];
        for line in String::from_utf8_lossy(&out.stderr).lines() {
            let doc: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{args:?}: a line that is not JSON ({e}): {line}"));
            fits("error.json", &doc);
            for e in doc["errors"].as_array().unwrap() {
                assert_eq!(e["severity"], "warning", "{args:?}: {line}");
                codes.push(e["code"].as_str().unwrap().to_string());
            }
        }
        assert!(codes.iter().any(|c| c == code), "{args:?} gave {codes:?}, not {code}");
    }
    // `check --json` reports its warnings in its document, and nothing on standard error.
    let out = mettle(&["check", "--json", f]);
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["files"][0]["diagnostics"][0]["code"], UNUSED);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_request_may_leave_out_params_when_its_method_needs_none() {
    let bare = |id: i64, method: &str| serde_json::json!({ "jsonrpc": "2.0", "id": id, "method": method });
    let requests = [bare(1, "state"), bare(2, "log"), bare(3, "save"), bare(4, "export")];
    let replies = serve(&[IF], &requests.iter().map(Value::to_string).collect::<Vec<_>>());
    for (r, reply) in requests.iter().zip(&replies) {
        fits("serve-request.json", r);
        assert!(reply.get("result").is_some(), "{r}: {reply}");
        fits("serve-reply.json", reply);
    }
    // A method with parameters it cannot do without still needs them: the schema and the server agree.
    let create = bare(5, "create");
    assert!(!schema("serve-request.json").is_valid(&create), "the schema takes `create` without params");
    let reply = &serve(&[IF], &[create.to_string()])[0];
    assert_eq!(reply["error"]["data"]["errors"][0]["code"], "mettle::serve::bad_params", "{reply}");
}
