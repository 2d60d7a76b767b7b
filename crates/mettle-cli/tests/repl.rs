//! The REPL driven as a person would: transcripts piped to `mettle repl`, the README's steps, a
//! reload after the file changed, and a session in a real pseudo-terminal.
//!
//! Each file in `tests/inputs/repl/` is piped in with `--echo`; the output (standard output and
//! standard error together, in order) is kept as an insta snapshot. To regenerate after a deliberate
//! change: `INSTA_UPDATE=always cargo test --test repl`, then read every changed `.snap` file.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mettle-repl-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `mettle repl ARGS` in `dir` with `input` piped in; returns the exit code and everything
/// printed, standard error interleaved with standard output as it happened.
fn repl(dir: &Path, args: &[&str], input: &str) -> (i32, String) {
    let out_path = dir.join(".output");
    let out = std::fs::File::create(&out_path).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .arg("repl")
        .args(args)
        .current_dir(dir)
        .env("METTLE_HISTORY", dir.join(".history"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(out.try_clone().unwrap())
        .stderr(out)
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(input.as_bytes()).unwrap();
    }
    let status = child.wait().unwrap();
    let printed = std::fs::read_to_string(&out_path).unwrap();
    (status.code().unwrap_or(-1), printed)
}

/// A folder with a copy of the shipped rulesets, so saves land there and not in the checkout.
fn with_rulesets(name: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(dir.join("rulesets")).unwrap();
    for f in std::fs::read_dir(root().join("rulesets")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.join("rulesets").join(f.file_name().unwrap())).unwrap();
    }
    dir
}

#[test]
fn transcripts() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/inputs/repl"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 3, "the transcripts are there");
    for f in files {
        let name = f.file_stem().unwrap().to_string_lossy().to_string();
        let dir = with_rulesets(&name);
        let input = std::fs::read_to_string(&f).unwrap();
        let (code, out) = repl(&dir, &["--echo", "--width", "80", "--seed", "1"], &input);
        insta::assert_snapshot!(name.clone(), format!("exit {code}\n{out}"));
    }
}

/// `:reload` keeps what still fits after the file changed, and names what does not.
#[test]
fn reload_moves_the_session_over() {
    let dir = scratch("reload");
    let file = dir.join("rules.mettle");
    std::fs::write(
        &file,
        "kind unit {\n  spi: 0..6 = 3\n  grit: 0..3 = 1\n  morale: steady | shaken | broken = steady\n}\nkind crate { full: flag = yes }\n",
    )
    .unwrap();
    let mut repl = mettle::internals::repl::Repl::new(1, false, 80);
    let mut said = String::new();
    let mut run = |line: &str| {
        let r = repl.handle(line);
        said.push_str(&format!("mettle> {line}\n{}{}", r.out, r.err));
        r
    };
    assert!(!run(&format!(":load {}", file.display())).failed);
    run("new unit alpha with spi = 5, morale = broken");
    run("new unit bravo with spi = 2");
    run("new crate box");
    run("let best = alpha");
    // The edit: spi's range shrinks, grit goes, nerve comes, `broken` becomes `routed`, crates go.
    std::fs::write(
        &file,
        "kind unit {\n  spi: 0..4 = 3\n  nerve: 0..3 = 2\n  morale: steady | shaken | routed = steady\n}\n",
    )
    .unwrap();
    let r = run(":reload");
    assert!(!r.failed);
    run(":units");
    run("best.nerve");
    // A file that no longer loads changes nothing.
    std::fs::write(&file, "kind unit {\n  spi: 0..4 = 3\n").unwrap();
    assert!(run(":reload").failed);
    run(":units");
    let said = said.replace(&dir.display().to_string(), "DIR");
    insta::assert_snapshot!(said);
}

/// The README's REPL walk-through, run as written: every `mettle>` line is typed in, and what the
/// README shows after it is what mettle prints.
#[test]
fn readme_repl_steps_work_as_written() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme.find("```\n$ mettle repl ").expect("the README has the REPL walk-through") + 4;
    let block = &readme[start..];
    let block = &block[..block.find("```").unwrap()];
    let (command, shown) = block.split_once('\n').unwrap();
    let args: Vec<&str> = command.trim_start_matches("$ mettle repl").split_whitespace().collect();
    let input: String =
        shown.lines().filter_map(|l| l.strip_prefix("mettle> ")).map(|l| format!("{l}\n")).collect();
    let dir = with_rulesets("readme");
    let mut all = args.clone();
    all.push("--echo");
    let (code, printed) = repl(&dir, &all, &input);
    assert_eq!(printed, shown, "the README's REPL walk-through differs from what mettle prints");
    assert_eq!(code, 1, "the walk-through shows one mistake, so a piped run exits 1");
    assert!(dir.join("alpha.json").exists(), "`:save` wrote the file");
}

/// A session in a real pseudo-terminal: the line editor, multi-line input, Tab completion, a bad
/// line, Ctrl-C, Ctrl-D, and the history file. Keys are sent only once the prompt is back, as a
/// person would (the line editor drops what was typed ahead while it was busy).
#[cfg(unix)]
#[test]
fn terminal_session() {
    use expectrl::{ControlCode, Eof, Expect};
    use std::time::Duration;
    let dir = scratch("pty");
    let history = dir.join("history");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mettle"));
    cmd.args(["repl", "rulesets/infinite_frontiers.mettle", "--seed", "1"])
        .current_dir(root())
        .env("METTLE_HISTORY", &history)
        .env("NO_COLOR", "1")
        .env("TERM", "xterm");
    let mut p = expectrl::Session::spawn(cmd).expect("a pseudo-terminal");
    p.set_expect_timeout(Some(Duration::from_secs(10)));
    p.expect("mettle> ").unwrap();
    p.send_line("new side blue").unwrap();
    p.expect("new side blue\r\n").unwrap();
    p.expect("mettle> ").unwrap();
    // A block goes on until it is closed.
    p.send_line("check quick {").unwrap();
    p.send_line("  roll d6").unwrap();
    p.send_line("  otherwise done").unwrap();
    p.send_line("}").unwrap();
    p.expect("defined check `quick`").unwrap();
    p.expect("mettle> ").unwrap();
    // Tab completes the event's name.
    p.send("trigger turn_st\t\r").unwrap();
    p.expect("event turn_start").unwrap();
    p.expect("mettle> ").unwrap();
    // A bad line gets its diagnostic, and the session goes on.
    p.send_line("blue.spy").unwrap();
    p.expect("a side has no attribute `spy`").unwrap();
    p.expect("mettle> ").unwrap();
    // Ctrl-C drops the line being typed.
    p.send("new side red").unwrap();
    // The line editor may redraw the line as it hints, or echo the keys as they come: wait for the
    // last of them either way.
    p.expect("red").unwrap();
    p.send(ControlCode::EndOfText).unwrap();
    p.expect("mettle> ").unwrap();
    p.send_line(":units").unwrap();
    p.expect("blue (side) ap=0").unwrap();
    p.expect("mettle> ").unwrap();
    // Ctrl-D leaves.
    p.send(ControlCode::EndOfTransmission).unwrap();
    p.expect(Eof).unwrap();
    let kept = std::fs::read_to_string(&history).expect("the history was saved");
    assert!(kept.contains("new side blue"), "{kept}");
    assert!(kept.contains("blue.spy"), "a failed line is kept too: {kept}");
    assert!(!kept.contains("new side red"), "a line dropped by Ctrl-C is not: {kept}");
    assert_eq!(kept.lines().filter(|l| *l == ":units").count(), 1, "{kept}");
}

/// `:undo` keeps each step without a copy of the log, and cuts the shared log back exactly: after
/// rolls, a definition, a `:load` and undos, the log is line for line what it was at that point.
#[test]
fn undo_cuts_the_shared_log_back_exactly() {
    let mut r = mettle::internals::repl::Repl::new(1, false, 80);
    let path = root().join("rulesets/infinite_frontiers.mettle");
    assert!(!r.handle(&format!(":load {}", path.display())).failed);
    assert!(!r.handle("new unit u with spi = 2").failed);
    let mut logs = vec![r.session().log().to_vec()];
    for line in [
        ":roll morale for u spi=2",
        "roll morale for u with spi = 3",
        "define bonus(x: 0..) = x + 2",
        ":seed 9",
    ] {
        let reply = r.handle(line);
        assert!(!reply.failed, "{line}: {}", reply.err);
        logs.push(r.session().log().to_vec());
    }
    assert!(logs[2].len() > logs[1].len() && logs[1].len() > logs[0].len(), "the rolls were logged");
    // A second `:load` replaces the session: its step is kept whole.
    assert!(!r.handle(&format!(":load {}", path.display())).failed);
    assert!(r.session().log().is_empty());
    for expected in logs.iter().rev() {
        let reply = r.handle(":undo");
        assert!(!reply.failed, "{}", reply.err);
        assert_eq!(r.session().log(), expected.as_slice());
    }
    assert_eq!(r.session().entity("u").map(|_| ()), Some(()));
}
