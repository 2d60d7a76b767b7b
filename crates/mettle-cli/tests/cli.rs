//! The command line, tested by running the real binary on the shipped rulesets and on the inputs in
//! `tests/inputs/`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

// ---------------------------------------------------------------- helpers

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

const FRONTIERS: &str = "rulesets/infinite_frontiers.mettle";

/// Runs `mettle ARGS` from the crate's folder, without colour.
fn mettle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("the mettle binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

/// `(path relative to the crate, level, code)` from each bad input's `// expect: LEVEL CODE` line.
fn bad_inputs() -> Vec<(String, String, String)> {
    let dir = root().join("tests/inputs/bad");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/inputs/bad exists")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "mettle"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable input");
            let line = text.lines().find_map(|l| l.strip_prefix("// expect: ")).expect("an expect line");
            let (level, code) = line.split_once(' ').expect("LEVEL CODE");
            let rel = p.strip_prefix(root()).expect("inside the crate").display().to_string();
            (rel, level.to_string(), code.trim().to_string())
        })
        .collect()
}

// ---------------------------------------------------------------- check

#[test]
fn check_reports_each_bad_input() {
    let inputs = bad_inputs();
    assert!(inputs.len() >= 30);
    for (file, level, expected) in &inputs {
        let o = mettle(&["check", file]);
        let err = stderr(&o);
        match level.as_str() {
            "error" => {
                assert_eq!(code(&o), 1, "{file}: exit code\n{err}");
                assert!(err.contains(expected.as_str()), "{file}: no {expected} in\n{err}");
                assert!(err.contains(" error"), "{file}: no error count in\n{err}");
            }
            "warning" => {
                assert_eq!(code(&o), 0, "{file}: warnings alone must not fail\n{err}");
                assert!(err.contains(expected.as_str()), "{file}: no {expected} in\n{err}");
                assert!(stdout(&o).contains("1 warning"), "{file}: {}", stdout(&o));
            }
            "runtime" => {
                assert_eq!(code(&o), 0, "{file}: loads cleanly\n{err}");
                let t = mettle(&["test", file]);
                assert_eq!(code(&t), 1, "{file}: `mettle test` must fail");
                assert!(stderr(&t).contains(expected.as_str()), "{file}: no {expected} in\n{}", stderr(&t));
                assert!(stdout(&t).trim_end().ends_with("0 passed, 1 failed"), "{}", stdout(&t));
            }
            other => panic!("{file}: unknown level {other}"),
        }
    }
}

#[test]
fn check_accepts_the_shipped_ruleset() {
    let o = mettle(&["check", FRONTIERS]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains(": ok ("), "{}", stdout(&o));
    assert!(stderr(&o).is_empty(), "warnings: {}", stderr(&o));
}

#[test]
fn check_of_a_missing_file_fails() {
    let o = mettle(&["check", "rulesets/no_such_file.mettle"]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("mettle::io::read"), "{}", stderr(&o));
}

// ---------------------------------------------------------------- test

/// The numbers in the last line, `N passed, M failed`.
fn summary(out: &str) -> (usize, usize) {
    let last = out.lines().last().unwrap_or_default();
    let words: Vec<&str> = last.split_whitespace().collect();
    match words.as_slice() {
        [p, "passed,", f, "failed"] => (p.parse().expect("a count"), f.parse().expect("a count")),
        _ => panic!("last line is not `N passed, M failed`: {last:?}"),
    }
}

#[test]
fn test_runs_the_shipped_scenarios() {
    let o = mettle(&["test", FRONTIERS]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let (passed, failed) = summary(&stdout(&o));
    assert!(passed > 0);
    assert_eq!(failed, 0);
}

#[test]
fn test_runs_a_folder() {
    let o = mettle(&["test", "tests/inputs/good"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert_eq!(summary(&stdout(&o)).1, 0);
}

// ---------------------------------------------------------------- roll

fn roll_json(seed: &str) -> serde_json::Value {
    let o = mettle(&[
        "roll",
        FRONTIERS,
        "morale",
        "--set",
        "spi=3",
        "--set",
        "leadership=1",
        "--seed",
        seed,
        "--json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", stdout(&o)))
}

#[test]
fn roll_prints_json() {
    let v = roll_json("7");
    let outcome = v.get("outcome").and_then(|o| o.as_str()).expect("an `outcome` string");
    assert!(["broken", "steady", "shaken"].contains(&outcome), "{outcome}");
    assert!(v.get("total").is_some_and(|t| t.is_i64()), "{v}");
    // The same seed gives the same roll.
    assert_eq!(v, roll_json("7"));
}

#[test]
fn roll_explains_in_text() {
    let o = mettle(&["roll", FRONTIERS, "morale", "--set", "spi=3", "--seed", "1"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("morale: "), "{}", stdout(&o));
}

#[test]
fn roll_of_an_unknown_check_suggests() {
    let o = mettle(&["roll", FRONTIERS, "moral", "--set", "spi=3"]);
    assert_ne!(code(&o), 0);
    assert!(stderr(&o).contains("did you mean"), "{}", stderr(&o));
    assert!(stderr(&o).contains("morale"), "{}", stderr(&o));
}

#[test]
fn roll_with_a_bad_input_value_fails() {
    let o = mettle(&["roll", FRONTIERS, "morale", "--set", "comms=maybe", "--set", "spi=3"]);
    assert_ne!(code(&o), 0);
    assert!(stderr(&o).contains("comms"), "{}", stderr(&o));
}

#[test]
fn export_prints_the_outline_as_json() {
    let out = mettle(&["export", FRONTIERS]);
    assert_eq!(code(&out), 0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let morale = v["checks"].as_array().unwrap().iter().find(|c| c["name"] == "morale").unwrap();
    let names = |list: &serde_json::Value| -> Vec<String> {
        list.as_array().unwrap().iter().map(|i| i["name"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(&names(&morale["inputs"])[..3], ["spi", "leadership", "comms"]);
    assert_eq!(names(&morale["outcomes"]), ["broken", "steady", "shaken"]);
    assert!(morale["doc"].as_str().unwrap().contains("natural"));
}

#[test]
fn check_json_gives_codes_and_positions() {
    let out =
        mettle(&["check", "--json", "tests/inputs/bad/09_unknown_kind.mettle", "rulesets/combat_hq.mettle"]);
    assert_eq!(code(&out), 1);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["mettle"]["schema"], 1);
    let files = &v["files"];
    assert_eq!(files[0]["ok"], false);
    let d = &files[0]["diagnostics"][0];
    assert_eq!(d["code"], "mettle::resolve::unknown_kind");
    assert_eq!(d["labels"][0]["line"], 7);
    assert_eq!(
        (d["line"].clone(), d["severity"].clone()),
        (serde_json::json!(7), serde_json::json!("error"))
    );
    assert_eq!(files[1]["ok"], true);
}

#[test]
fn roll_of_a_check_made_by_someone_uses_a_stand_in() {
    let shaken = ["roll", FRONTIERS, "skill", "--set", "dice_pool=3", "--with", "morale=shaken"];
    let out = mettle(&shaken);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("Shaken -1 die"), "{}", stdout(&out));
    let out = mettle(&[&shaken[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["pool"]["dice"].as_array().unwrap().len(), 2, "three dice, one fewer for Shaken");
    let typo = mettle(&["roll", FRONTIERS, "morale", "--set", "spi=2", "--with", "moral=shaken"]);
    assert_eq!(code(&typo), 2);
    assert!(stderr(&typo).contains("did you mean `morale`?"));
}

#[test]
fn check_points_into_a_broken_script_file() {
    let out = mettle(&["check", "tests/inputs/scripts/broken.mettle"]);
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    assert!(err.contains("mettle::script::syntax"), "{err}");
    assert!(err.contains("broken.rhai:3:"), "{err}");
    let json = mettle(&["check", "--json", "tests/inputs/scripts/broken.mettle"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    let d = &v["files"][0]["diagnostics"][0];
    assert!(d["file"].as_str().unwrap().ends_with("broken.rhai"), "{d}");
    assert_eq!(d["labels"][0]["line"], 3);
}

#[test]
fn export_lists_script_functions_in_order() {
    let out = mettle(&["export", "tests/inputs/scripts/uses_file.mettle"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let names: Vec<&str> =
        v["script_functions"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["closest", "react"]);
    assert_eq!(v["script_functions"][1]["line"], 10);
}

#[test]
fn roll_takes_data_inputs_as_written_in_a_ruleset() {
    let dir = std::env::temp_dir().join(format!("mettle-cli-data-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("data.mettle");
    std::fs::write(
        &file,
        "script { fn nearest(seen) { let d = 99; for e in seen.enemies { if e.distance < d { d = e.distance; } } d } }\n\
         check spot { input seen: data  roll d6  target nearest(seen)  outcome seen_one when total >= target  otherwise none_seen }\n",
    )
    .unwrap();
    let file = file.to_string_lossy().into_owned();
    let out = mettle(&[
        "roll",
        &file,
        "spot",
        "--set",
        "seen={enemies: [{name: \"hound\", distance: 4}]}",
        "--json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["target"], 4);
    let bad = mettle(&["roll", &file, "spot", "--set", "seen=hound"]);
    assert_eq!(code(&bad), 2);
    assert!(stderr(&bad).contains("`seen` is data"), "{}", stderr(&bad));
}

/// `mettle test` says what went wrong where: a file that does not load is a load error, not a
/// failed scenario; dice forced but never rolled are a warning (and `expect no dice waiting` an
/// expectation); one expectation is "1 expectation".
#[test]
fn test_tells_load_errors_leftover_dice_and_counts_apart() {
    let dir = std::env::temp_dir().join(format!("mettle-test-cmd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.mettle");
    std::fs::write(
        &good,
        "check c { roll d6  otherwise done }\n\
         scenario one { dice 3  roll c  expect last c.total == 3 }\n\
         scenario left { dice 3, 4  roll c  expect last c.total == 3 }\n\
         scenario waiting { dice 5, 6  roll c  expect no dice waiting, \"one die too many\" }\n",
    )
    .unwrap();
    let bad = dir.join("bad.mettle");
    std::fs::write(&bad, "check c { roll d6  otherwise }\n").unwrap();
    let o = mettle(&["test", good.to_str().unwrap(), bad.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(code(&o), 1, "{out}");
    assert!(out.contains(":: one (1 expectation)"), "{out}");
    assert!(out.contains("warning: 1 forced die was never rolled (4)"), "{out}");
    assert!(
        out.contains("failed: expect no dice waiting (1 forced die was never rolled: 6): one die too many"),
        "{out}"
    );
    assert!(out.contains(&format!("LOAD ERROR  {}", bad.display())), "{out}");
    assert!(out.trim_end().ends_with("2 passed, 1 failed, 1 file did not load"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_verbose_shows_the_rules_skipped_by_their_condition() {
    let args = ["play", "rulesets/shadow_deep_stress.mettle", "board_edge"];
    let plain = stdout(&mettle(&args));
    let o = mettle(&[&args[..], &["--verbose"]].concat());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let verbose = stdout(&o);
    assert!(!plain.contains("skipped"), "{plain}");
    assert!(
        verbose.contains(
            "rule on crosses_board_edge when forbidden skipped: its condition is no (forbidden = no)"
        ),
        "{verbose}"
    );
    assert!(
        verbose.contains(
            "rule on activates when creature.in_play skipped: its condition is no (creature.in_play = no)"
        ),
        "{verbose}"
    );
}

// ---------------------------------------------------------------- warnings

/// A ruleset's warnings are shown in full by `check` only: every other command says how many there
/// are in one line on standard error, once, and where to read them; `--json` keeps them whole.
#[test]
fn warnings_are_shown_once_where_they_help() {
    const WARNED: &str = "tests/inputs/bad/35_unreachable_outcome.mettle";
    let line = format!("1 warning; `mettle check {WARNED}` shows it\n");
    let full = mettle(&["check", WARNED]);
    assert_eq!(code(&full), 0);
    assert!(stderr(&full).contains("outcome `heroic` can never happen"), "{}", stderr(&full));
    assert!(!stderr(&full).contains("shows it"), "{}", stderr(&full));
    for args in [
        vec!["roll", WARNED, "morale", "--seed", "3"],
        vec!["odds", WARNED, "morale"],
        vec!["sim", WARNED, "--check", "morale", "--runs", "50"],
        vec!["test", WARNED],
        vec!["export", WARNED],
    ] {
        let o = mettle(&args);
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), line, "{args:?}: standard error is the one line");
        assert!(!stdout(&o).contains("warning"), "{args:?}: {}", stdout(&o));
    }
    // --json: the warning stays whole in the JSON document on standard error.
    let o = mettle(&["roll", WARNED, "morale", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(stderr(&o).trim()).expect("JSON on stderr");
    assert_eq!(doc["errors"][0]["severity"], "warning");
    assert_eq!(doc["errors"][0]["code"], "mettle::resolve::unreachable");
    serde_json::from_str::<serde_json::Value>(&stdout(&o)).expect("the roll is JSON on stdout");
    // The REPL says it once as it loads the file.
    let mut child = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(["repl", WARNED])
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the mettle binary runs");
    use std::io::Write as _;
    child.stdin.take().expect("stdin").write_all(b":roll morale\n:quit\n").expect("written");
    let o = child.wait_with_output().expect("the REPL ends");
    assert_eq!(stderr(&o).matches("1 warning; `mettle check").count(), 1, "{}", stderr(&o));
    assert!(!stderr(&o).contains("can never happen"), "{}", stderr(&o));
    assert!(stdout(&o).contains("morale: "), "{}", stdout(&o));
}

// ---------------------------------------------------------------- explanations

/// What `mettle play` tells a player is true: a change says which conditions made it, a note
/// speaks of the unit as it is, a skipped rule names the state it read, a pool shows its dice.
#[test]
fn explanations_say_what_made_each_step() {
    let o = mettle(&["play", FRONTIERS, "broken_cannot_attack", "--verbose"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    // "outcome: steady" and then broken -> shaken: the explanation says why.
    assert!(
        text.contains(
            "q.morale: broken -> shaken, as `recovery` holds and `unit.morale is broken` holds  (line 289)"
        ),
        "{text}"
    );
    // Shaken and recovering: the note does not speak of Broken units.
    let after = text.split("q.morale: broken -> shaken").nth(1).unwrap_or_default();
    let next_attack = after.split("event attack").nth(1).unwrap_or_default();
    let next_attack = next_attack.split("expect").next().unwrap_or_default();
    assert!(
        next_attack.contains("note: a unit that spent this turn's activation recovering makes no attack"),
        "{next_attack}"
    );
    assert!(!next_attack.contains("a Broken unit"), "{next_attack}");
    assert!(!text.contains("reads no fact"), "{text}");
    assert!(text.contains("dice 2d6cs>=4 (written (dice_pool)d6cs>=4): 4, 4 = 2"), "{text}");
    let o = mettle(&["play", "rulesets/shadow_deep_stress.mettle", "immune_to_morale", "--verbose"]);
    assert!(stdout(&o).contains("skipped: its condition is no (immune(creature) = yes)"), "{}", stdout(&o));
    let o = mettle(&["play", "rulesets/dice_pool_morale.mettle", "one_failure_refuses"]);
    assert!(stdout(&o).contains("dice 1d6 (written (pool)d(sides)): 5 = 5"), "{}", stdout(&o));
}
