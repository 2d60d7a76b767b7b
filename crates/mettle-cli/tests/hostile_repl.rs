//! Hostile input to the REPL and the command line: over-long and broken lines, control characters,
//! blocks left open, output that cannot be written, and Ctrl-C. Each case checks the code and that the
//! session (or the next line) goes on.

use mettle::internals::repl::Repl;
use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::Ordering;

const IF: &str = "rulesets/infinite_frontiers.mettle";

/// Runs `mettle ARGS` with `input` on standard input.
fn mettle(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn repl(input: &[u8]) -> (i32, String, String) {
    let out = mettle(&["repl", IF], input);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// Runs `mettle ARGS` with its output going to `/dev/full`.
fn to_full_disk(args: &[&str]) -> (i32, String) {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn a_line_over_the_budget_is_refused_and_the_next_runs() {
    let mut input = b"new side blue\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 70_000));
    input.extend(b"\nnew unit a with side = blue\na.spi\n");
    let (code, out, err) = repl(&input);
    assert_eq!(code, 1);
    assert!(err.contains("mettle::repl::line_too_long"), "{err}");
    assert!(!err.contains("xxxxxxxxxx"), "the long line was echoed");
    assert!(out.ends_with("3\n"), "{out}");
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_next_runs() {
    let (code, out, err) = repl(b"new side blue\n\xff\xfe\xfd\nnew unit a with side = blue\na.spi\n");
    assert_eq!(code, 1);
    assert!(err.contains("mettle::repl::not_utf8"), "{err}");
    assert!(out.ends_with("3\n"), "{out}");
}

#[test]
fn a_block_left_open_at_the_end_of_input_is_an_error() {
    let (code, _, err) = repl(b"new side blue\nif yes {\n  new unit a with side = blue\n");
    assert_eq!(code, 1);
    assert!(err.contains("mettle::repl::unclosed"), "{err}");
}

#[test]
fn control_characters_typed_are_escaped_on_the_way_out() {
    let out = mettle(&["repl", IF, "--echo"], b"new side b\x1b]0;owned\x07lue\n");
    let shown = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(
        !shown.contains('\u{1b}') || !shown.contains("]0;owned\u{7}"),
        "a raw escape reached the terminal"
    );
    assert!(shown.contains("\\u{1b}"), "{shown}");
}

#[test]
fn control_characters_in_a_ruleset_are_escaped_in_play() {
    let dir = std::env::temp_dir().join(format!("mettle-hostile-repl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bell.mettle");
    std::fs::write(&file, "scenario s { note \"ring\u{7}\u{1b}[2J\" }\n").unwrap();
    let out = mettle(&["play", file.to_str().unwrap(), "s"], b"");
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(!shown.contains('\u{7}'), "{shown}");
    assert!(shown.contains("\\u{7}"), "{shown}");
}

#[test]
fn a_nul_in_a_line_is_a_located_error_and_the_next_line_runs() {
    let (code, out, err) = repl(b"new side blue\x00\nnew side red\n1 + 1\n");
    assert_eq!(code, 1);
    assert!(err.contains("mettle::parse::invisible_character"), "{err}");
    assert!(err.contains("U+0000"), "{err}");
    assert!(out.ends_with("2\n"), "{out}");
}

#[test]
fn play_to_a_full_disk_fails_with_a_message() {
    let (code, err) = to_full_disk(&["play", "rulesets/combat_hq.mettle", "example_excess"]);
    assert_eq!(code, 1);
    assert!(err.contains("mettle::io::write"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn check_json_to_a_full_disk_fails_with_a_message() {
    let (code, err) = to_full_disk(&["check", "--json", IF]);
    assert_eq!(code, 1);
    assert!(err.contains("mettle::io::write"), "{err}");
}

#[test]
fn the_repl_to_a_full_disk_fails_with_a_message() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(["repl", IF])
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"1 + 1\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("mettle::io::write"));
}

#[test]
fn a_ruleset_that_is_a_device_is_refused() {
    let out = mettle(&["check", "/dev/zero"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("mettle::io::not_a_file"));
}

#[test]
fn load_of_a_device_in_the_repl_is_refused_and_the_session_goes_on() {
    let (code, out, err) = repl(b"new side blue\n:load /dev/zero\nnew unit a with side = blue\na.spi\n");
    assert_eq!(code, 1);
    assert!(err.contains("mettle::io::not_a_file"), "{err}");
    assert!(out.ends_with("3\n"), "{out}");
}

#[test]
fn ctrl_c_stops_a_running_line_and_keeps_the_session() {
    let mut r = Repl::new(1, false, 80);
    assert!(!r.handle("kind unit { n: int = 0 }").failed);
    assert!(!r.handle("new unit a").failed);
    let before = r.session().state().clone();
    let flag = r.cancel_flag();
    let setter = std::thread::spawn(move || {
        for _ in 0..3_000 {
            flag.store(true, Ordering::Relaxed);
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    });
    // About two million steps of work: only the flag stops it early.
    let reply = r.handle("repeat { set a.n to 0  repeat { add 1 to a.n } until a.n >= 999 } until a.n < 0");
    setter.join().unwrap();
    assert!(reply.failed);
    assert!(reply.err.contains("mettle::run::cancelled"), "{}", reply.err);
    assert_eq!(r.session().state(), &before);
    assert!(!r.handle("a.n + 1").failed);
}

#[test]
fn save_bang_and_restore_bang_are_commands() {
    let mut r = Repl::new(1, false, 80);
    let reply = r.handle(":sav x");
    assert!(reply.err.contains("did you mean `:save`?"), "{}", reply.err);
    let reply = r.handle(":restore!");
    assert!(reply.err.contains("mettle::repl::missing_argument"), "{}", reply.err);
}

#[test]
fn a_budget_from_the_command_line_applies() {
    let out = mettle(&["play", "rulesets/combat_hq.mettle", "example_excess", "--budget", "steps=20"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("mettle::budget::steps"));
    let out =
        mettle(&["play", "rulesets/combat_hq.mettle", "example_excess", "--budget", "steps=100000"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_budget_that_does_not_exist_is_a_usage_error() {
    let out = mettle(&["check", IF, "--budget", "stpes=5"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean `steps`?"));
    let out = mettle(&["check", IF, "--budget", "steps=lots"], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_line_budget_from_the_command_line_applies_to_the_repl() {
    let out = mettle(&["repl", IF, "--budget", "line_bytes=8"], b"1 + 1\nnew side blue\n2 + 2\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("mettle::repl::line_too_long"));
    assert!(String::from_utf8_lossy(&out.stdout).ends_with("4\n"));
}

#[test]
fn a_sweep_over_every_whole_number_is_a_usage_error() {
    let dir = std::env::temp_dir().join(format!("mettle-hostile-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("big.mettle");
    std::fs::write(&file, "check big { input n: int  roll d6  outcome o when total > n  otherwise x }\n")
        .unwrap();
    for range in ["n=-9223372036854775808..9223372036854775807", "n=0..9223372036854775807", "n=-5..99999"] {
        let out = mettle(&["odds", file.to_str().unwrap(), "big", "--sweep", range], b"");
        assert_eq!(out.status.code(), Some(2), "{range}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stderr).contains("rows"), "{range}");
    }
}

#[test]
fn a_command_inside_an_open_block_reports_the_block_and_runs() {
    let (code, out, err) = repl(b"let x = (2 +\n:units\n1 + 1\n");
    assert_eq!(code, 1);
    assert!(err.contains("mettle::parse::syntax"), "{err}");
    assert!(out.ends_with("2\n"), "{out}");
}

#[test]
fn a_continuation_that_can_never_be_valid_is_reported_at_once() {
    // `3 4` cannot continue `(2 +` into anything valid: the error comes at that line, and the lines
    // after it run as lines of their own (the `1 + 1` is not swallowed into the open bracket).
    let (code, out, err) = repl(b"let x = (2 +\n3 4\n1 + 1\nlet y = (2 +\n3)\ny\n");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("mettle::parse::syntax"), "{err}");
    assert!(err.contains("found `4`"), "{err}");
    assert!(out.contains("2\n"), "{out}");
    assert!(out.ends_with("5\n"), "a valid continuation still joins its block: {out}");
}

#[test]
fn a_continuation_that_can_never_be_valid_is_sent_at_once_from_the_line_editor() {
    // The line editor's check: read on while the text may still become valid, send it when not.
    assert!(mettle::internals::syntax::is_incomplete("on damaged {\n  note \"a\""));
    assert!(!mettle::internals::syntax::never_completes("on damaged {\n  note \"a\""));
    assert!(mettle::internals::syntax::never_completes("on damaged {\n  note \"a\" \"b\""));
    assert!(mettle::internals::syntax::never_completes("kind unit {\n  spi: 0..6 = \u{200b}3"));
}

#[test]
fn a_block_longer_than_the_budget_is_refused_and_the_next_line_runs() {
    let mut input = b"scenario s {\n".to_vec();
    for _ in 0..200 {
        input.extend(b"  note \"a line of the block\"\n");
    }
    input.extend(b"}\n1 + 1\n");
    let out = mettle(&["repl", "--budget", "ruleset_bytes=2000"], &input);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("mettle::repl::block_too_long"), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).ends_with("2\n"));
}
