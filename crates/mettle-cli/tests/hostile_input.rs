//! Hostile input to the REPL's piped input, to scripts and to the command line: endless lines, bad
//! bytes, long blocks, many definitions, many script blocks, scripts past what Rhai can number, and
//! usage mistakes. Each case checks the code, that the process ended or went on, and that nothing
//! on disk changed.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const IF: &str = "rulesets/infinite_frontiers.mettle";

/// Runs `mettle ARGS` with `input` on standard input, written from another thread (the command may
/// stop reading before the end).
fn mettle(args: &[&str], input: Vec<u8>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = mettle(args, vec![]);
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh folder holding `file` with `content`; returns the file's path.
fn file_in(name: &str, file: &str, content: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mettle-hostile-input-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(file);
    std::fs::write(&path, content).unwrap();
    path
}

const SMALL: &str = "kind unit { hp: 0..9 = 1 }\ncheck c {\n  input seen: data = []\n  roll d6\n  outcome high when total >= 4\n  otherwise low\n}\n";

// ---------------------------------------------------------------- the REPL's piped input

#[test]
fn endless_input_without_a_line_break_stops_with_a_code() {
    // 64 MiB of `x` with no line break: read past the line budget, then given up on at the block
    // budget (here 1 MB) instead of being read to the end.
    let input = vec![b'x'; 64 << 20];
    let started = Instant::now();
    let out = mettle(&["repl", IF, "--budget", "ruleset_bytes=1000000"], input);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("mettle::repl::line_too_long"), "{err}");
    assert!(err.contains("has no line break"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(60));
}

#[test]
fn bad_utf8_in_the_middle_of_piped_input_is_that_line_s_error_and_the_rest_runs() {
    let out = mettle(&["repl", IF], b"1 + 1\n\xff\xfe oops\n2 + 2\n".to_vec());
    let (stdout, err) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1));
    assert!(err.contains("mettle::repl::not_utf8"), "{err}");
    assert!(err.contains("line 2"), "{err}");
    assert!(stdout.contains("2\n") && stdout.ends_with("4\n"), "{stdout}");
}

#[test]
fn a_long_open_block_is_read_in_time_and_gives_its_value() {
    let mut input = String::from("let x = [\n");
    for i in 0..6000 {
        input.push_str(&format!("  {i},\n"));
    }
    input.push_str("  6000]\nx\n");
    let started = Instant::now();
    let out = mettle(&["repl", IF], input.into_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).ends_with("5999, 6000]\n"), "{}", text(&out.stdout));
    // Parsed at every line, the block took minutes in a debug build.
    assert!(started.elapsed() < Duration::from_secs(60), "{:?}", started.elapsed());
}

#[test]
fn a_bad_line_in_a_long_block_is_reported_and_the_lines_after_the_block_run() {
    let mut input = String::from("let x = [\n");
    for i in 0..3000 {
        input.push_str(&format!("  {i},\n"));
    }
    input.push_str("  3 4\n]\n1 + 1\n");
    let out = mettle(&["repl", IF], input.into_bytes());
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(err.contains("mettle::parse::"), "{err}");
    assert!(text(&out.stdout).ends_with("2\n"));
}

#[test]
fn many_definitions_typed_one_by_one_are_quick_and_all_kept() {
    let mut input = String::new();
    for i in 0..300 {
        input.push_str(&format!("define f{i}(x: int) = x + {i}\n"));
    }
    input.push_str("f299(1) + f0(1)\n:undo\nf298(0)\n");
    let started = Instant::now();
    let out = mettle(&["repl", IF], input.into_bytes());
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(stdout.contains("defined formula `f299`"));
    assert!(stdout.contains("\n301\n"), "{stdout}");
    assert!(stdout.ends_with("298\n"), "{stdout}");
    assert!(started.elapsed() < Duration::from_secs(60), "{:?}", started.elapsed());
}

#[test]
fn a_typed_definition_with_a_mistake_is_refused_and_the_session_goes_on() {
    let input = "define g(x: int) = x + 1\ndefine h(x: int) = nowhere + x\nh(1)\ng(1)\n";
    let out = mettle(&["repl", IF], input.as_bytes().to_vec());
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(err.contains("mettle::resolve::unknown_name"), "{err}");
    assert!(text(&out.stdout).ends_with("2\n"));
}

// ---------------------------------------------------------------- scripts

#[test]
fn thousands_of_script_blocks_load_in_time() {
    let mut rules = String::from("kind unit { hp: 0..9 = 1 }\n");
    for i in 0..3000 {
        rules.push_str(&format!("script {{ fn f{i}(x) {{ x + {i} }} }}\n"));
    }
    let path = file_in("blocks", "blocks.mettle", &rules);
    let started = Instant::now();
    let (code, _, err) = run(&["check", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(started.elapsed() < Duration::from_secs(60), "{:?}", started.elapsed());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), rules);
}

#[test]
fn a_script_block_past_line_65534_is_refused_not_misplaced() {
    let mut rules =
        String::from("kind unit { hp: 0..9 = 1 }\nevent hit(u: unit)\non hit { set u.hp to f(0) }\n");
    rules.push_str(&"// filler\n".repeat(70_000));
    rules.push_str("script {\n  fn f(x) { 1 / x }\n}\n");
    let path = file_in("far", "far.mettle", &rules);
    let (code, _, err) = run(&["check", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("mettle::script::too_long"), "{err}");
    assert!(err.contains("ends on line 70006"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), rules);
}

// ---------------------------------------------------------------- the command line

#[test]
fn threads_past_the_limit_are_a_usage_error() {
    let (code, out, err) = run(&["sim", IF, "morale_failure", "--runs", "10", "--threads", "100000"]);
    assert_eq!(code, 2);
    assert!(err.contains("mettle::cli::bad_threads"), "{err}");
    assert!(err.contains("at most 256"), "{err}");
    assert!(out.is_empty());
}

#[test]
fn the_library_refuses_too_many_threads_too() {
    let rules = mettle::Ruleset::from_str("t.mettle", SMALL).unwrap();
    let target = mettle::sim::Target::Check { name: "c".into(), inputs: vec![], with: vec![] };
    let opts = mettle::sim::Options { runs: 10, seed: 1, threads: 100_000 };
    let e = mettle::sim::simulate(&rules, &target, &opts, &|_| {}).unwrap_err();
    assert_eq!(e.code, "mettle::sim::too_many_threads");
    // The same simulation within the limit runs.
    let opts = mettle::sim::Options { threads: 2, ..opts };
    assert!(mettle::sim::simulate(&rules, &target, &opts, &|_| {}).is_ok());
}

#[test]
fn a_negative_seed_says_what_a_seed_is() {
    let (code, out, err) = run(&["roll", IF, "morale", "--seed", "-1"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("mettle::cli::bad_value"), "{err}");
    assert!(err.contains("a seed is a whole number from 0"), "{err}");
    assert!(!err.contains("unexpected argument"), "{err}");
    assert!(out.is_empty());
}

#[test]
fn a_usage_mistake_carries_a_code_as_text_and_as_json() {
    let (code, _, err) = run(&["rol", IF]);
    assert_eq!(code, 2);
    assert!(err.starts_with("mettle::cli::usage"), "{err}");
    let (code, out, err) = run(&["roll", IF, "morale", "--json", "--bogus"]);
    assert_eq!(code, 2);
    let doc: serde_json::Value =
        serde_json::from_str(if err.trim().is_empty() { &out } else { &err }).unwrap();
    assert_eq!(doc["errors"][0]["code"], "mettle::cli::usage", "{doc}");
    // Help is not a mistake.
    let (code, out, _) = run(&["roll", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Usage: mettle roll"));
}

#[test]
fn a_sweep_past_the_row_limit_says_so_with_a_code() {
    let (code, out, err) =
        run(&["odds", "rulesets/dice_pool_morale.mettle", "morale", "--sweep", "base=1..20000"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("mettle::odds::bad_sweep"), "{err}");
    assert!(err.contains("more than 10000 rows"), "{err}");
    assert!(out.is_empty());
}

#[test]
fn set_data_nested_too_deep_says_what_is_wrong() {
    let path = file_in("deep", "deep.mettle", SMALL);
    let deep = format!("seen={}{}", "[".repeat(200), "]".repeat(200));
    let (code, out, err) = run(&["roll", path.to_str().unwrap(), "c", "--set", &deep]);
    assert_eq!(code, 2);
    assert!(err.contains("mettle::cli::bad_value"), "{err}");
    assert!(err.contains("`seen` is nested too deep"), "{err}");
    assert!(!err.contains("write it as in a ruleset"), "{err}");
    assert!(out.is_empty());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), SMALL);
}

#[test]
fn set_data_past_the_value_budget_is_refused_with_a_code() {
    let path = file_in("many", "many.mettle", SMALL);
    let many = format!("seen=[{}]", vec!["1"; 2000].join(","));
    let (code, _, err) =
        run(&["roll", path.to_str().unwrap(), "c", "--set", &many, "--budget", "data_values=1000"]);
    assert_ne!(code, 0);
    assert!(err.contains("mettle::data::too_large"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), SMALL);
}
