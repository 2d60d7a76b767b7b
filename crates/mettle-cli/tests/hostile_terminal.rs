//! Hostile text on its way to a terminal: escape sequences (window title, clipboard through OSC 52,
//! clearing the screen), C1 controls, DEL and bidirectional overrides in rulesets' comments and names,
//! command-line values, REPL lines and saves. Each case checks that what mettle prints holds none of
//! them raw (they are shown as `\u{1b}`), the code of any error, that the command ended normally or the
//! session went on, and that no file changed.

use mettle::internals::repl::Repl;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const IF: &str = "rulesets/infinite_frontiers.mettle";

/// A comment that would retitle the window, write the clipboard, clear the screen and reverse the
/// line, were it printed raw.
const HOSTILE: &str = "\u{1b}]0;owned\u{7} \u{1b}]52;c;aGk=\u{7} \u{1b}[2J \u{9b}2J \u{7f} \u{202e}esrever";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mettle-hostile-term-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The shipped Infinite Frontiers ruleset with the hostile text in a comment on its first line and in
/// its title; `tail` is added at the end.
fn hostile_ruleset(dir: &Path, tail: &str) -> PathBuf {
    let text = std::fs::read_to_string(root().join(IF)).unwrap();
    let text = text.replace("ruleset \"Infinite Frontiers\"", &format!("ruleset \"IF {HOSTILE}\""));
    let file = dir.join("h.mettle");
    std::fs::write(&file, format!("// {HOSTILE}\n{text}{tail}")).unwrap();
    file
}

/// The first raw control character (but line breaks and tabs) or bidirectional override in `text`.
fn raw(text: &[u8]) -> Option<char> {
    String::from_utf8_lossy(text).chars().find(|&c| mettle::text::escaped(c))
}

struct Run {
    code: i32,
    out: String,
    err: String,
}

/// Runs `mettle ARGS` in `dir` with `input` on standard input, and checks that nothing it printed
/// holds a raw control character.
fn mettle_in(dir: &Path, args: &[&str], input: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(raw(&o.stdout), None, "raw on standard output: {:?}", String::from_utf8_lossy(&o.stdout));
    assert_eq!(raw(&o.stderr), None, "raw on standard error: {:?}", String::from_utf8_lossy(&o.stderr));
    let code = o.status.code().expect("ended normally, not by a signal");
    Run {
        code,
        out: String::from_utf8_lossy(&o.stdout).into(),
        err: String::from_utf8_lossy(&o.stderr).into(),
    }
}

fn mettle(args: &[&str]) -> Run {
    mettle_in(&root(), args, "")
}

/// The bytes of every file in `dir`, to see that nothing changed.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap_or_default())
        })
        .collect();
    all.sort();
    all
}

#[test]
fn check_shows_a_hostile_comment_escaped_in_its_excerpt() {
    let dir = folder("check");
    let file = hostile_ruleset(&dir, "\nkind broken { spi 0..6 }\n");
    let before = contents(&dir);
    let r = mettle_in(&dir, &["check", file.to_str().unwrap()], "");
    assert_eq!(r.code, 1);
    assert!(r.err.contains("mettle::parse::"), "{}", r.err);
    assert_eq!(contents(&dir), before);
}

#[test]
fn a_diagnostic_on_a_line_with_escapes_still_points_at_its_place() {
    let dir = folder("columns");
    // `spi` is where the error is; the escapes before it are shown longer than they are.
    let file = dir.join("c.mettle");
    std::fs::write(&file, format!("ruleset \"{HOSTILE}\" spy\n")).unwrap();
    let r = mettle_in(&dir, &["check", "c.mettle"], "");
    assert_eq!(r.code, 1);
    let text = std::fs::read_to_string(&file).unwrap();
    let at = text.find("spy").unwrap();
    // The header names the file's own column (1-based, in bytes, as the editors count).
    assert!(r.err.contains(&format!("c.mettle:1:{}", at + 1)), "{}", r.err);
    // The underline starts under `spy` as shown.
    let lines: Vec<&str> = r.err.lines().collect();
    let shown = lines.iter().position(|l| l.contains("\" spy")).expect("the line is shown");
    let column = lines[shown].find("spy").unwrap();
    let marks = lines[shown + 1];
    let first_mark = marks.char_indices().find(|(_, c)| *c == '─' || *c == '┬').map(|(i, _)| i).unwrap();
    let width = |s: &str| s.chars().count();
    assert_eq!(width(&marks[..first_mark]), width(&lines[shown][..column]), "{}", r.err);
}

#[test]
fn roll_with_a_hostile_ruleset_prints_nothing_raw() {
    let dir = folder("roll");
    let file = hostile_ruleset(&dir, "");
    let before = contents(&dir);
    let r = mettle_in(&dir, &["roll", file.to_str().unwrap(), "morale", "--set", "spi=2"], "");
    assert!(r.code == 0 || r.code == 1, "{}", r.err);
    assert_eq!(contents(&dir), before);
}

#[test]
fn a_markdown_card_on_standard_output_shows_the_title_escaped() {
    let dir = folder("card-md");
    let file = hostile_ruleset(&dir, "");
    let before = contents(&dir);
    let r = mettle_in(&dir, &["card", file.to_str().unwrap(), "--format", "md"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    // The Markdown writer drops the control characters; the bidirectional override is shown escaped.
    assert!(r.out.starts_with("# IF "), "{}", &r.out[..200.min(r.out.len())]);
    assert!(r.out.contains("\\u{202e}esrever"), "{}", &r.out[..200.min(r.out.len())]);
    assert_eq!(contents(&dir), before);
}

#[test]
fn fmt_check_shows_its_diff_escaped_and_changes_nothing() {
    let dir = folder("fmt-check");
    std::fs::write(dir.join("m.mettle"), format!("// {HOSTILE}\nkind unit {{spi: 0..6 = 3}}\n")).unwrap();
    let before = contents(&dir);
    let r = mettle_in(&dir, &["fmt", "--check", "m.mettle"], "");
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(r.out.contains("\\u{1b}]52;c;aGk="), "{}", r.out);
    assert_eq!(contents(&dir), before);
}

#[test]
fn fmt_stdin_check_shows_its_diff_escaped() {
    let r = mettle_in(
        &root(),
        &["fmt", "--stdin", "--check"],
        &format!("// {HOSTILE}\nkind unit {{spi: 0..6 = 3}}\n"),
    );
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(r.out.contains("\\u{1b}[2J"), "{}", r.out);
}

#[test]
fn a_hostile_set_value_is_echoed_escaped() {
    let r = mettle(&["roll", IF, "morale", "--set", &format!("spi={HOSTILE}")]);
    assert_eq!(r.code, 2, "{}", r.err);
    assert!(r.err.contains("\\u{1b}]0;owned"), "{}", r.err);
}

#[test]
fn a_hostile_set_name_is_echoed_escaped() {
    let r = mettle(&["odds", IF, "morale", "--set", &format!("{HOSTILE}=2")]);
    assert!(r.code == 1 || r.code == 2, "{}", r.err);
    assert!(r.err.contains("called `\\u{1b}]0;owned"), "{}", r.err);
}

#[test]
fn a_hostile_check_name_is_echoed_escaped() {
    let r = mettle(&["roll", IF, &format!("morale{HOSTILE}")]);
    assert!(r.code == 1 || r.code == 2, "{}", r.err);
    assert!(r.err.contains("\\u{1b}"), "{}", r.err);
}

#[test]
fn hostile_dice_are_echoed_escaped_by_roll_and_odds() {
    for cmd in ["roll", "odds"] {
        let r = mettle(&[cmd, "--dice", &format!("2d6{HOSTILE}")]);
        assert!(r.code == 1 || r.code == 2, "{cmd}: {}", r.err);
        assert!(r.err.contains("mettle::parse::") || r.err.contains("mettle::dice::"), "{cmd}: {}", r.err);
    }
}

#[test]
fn a_hostile_file_name_is_echoed_escaped() {
    let r = mettle(&["check", &format!("no-such-{HOSTILE}.mettle")]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(r.err.contains("mettle::io::"), "{}", r.err);
}

#[test]
fn hostile_global_options_are_echoed_escaped() {
    let r = mettle(&["--budget", &format!("steps={HOSTILE}"), "check", IF]);
    assert_eq!(r.code, 2, "{}", r.err);
    let r = mettle(&["--option", &format!("bonus_die={HOSTILE}"), "check", IF]);
    assert!(r.code == 1 || r.code == 2, "{}", r.err);
}

#[test]
fn a_hostile_plot_name_is_echoed_escaped() {
    let dir = folder("plot-name");
    let r = mettle_in(&dir, &["odds", "--dice", "2d6", "--plot", &format!("{HOSTILE}.svg")], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.err.contains("chart written to \\u{1b}]0;owned"), "{}", r.err);
}

#[test]
fn the_repl_echoes_a_typed_escape_sequence_escaped_and_goes_on() {
    let r = mettle_in(&root(), &["repl", IF], &format!("new unit a {HOSTILE}\nnew side blue\n:state\n"));
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(r.err.contains("\\u{1b}"), "{}", r.err);
    assert!(r.out.contains("blue"), "the session went on: {}", r.out);
}

#[test]
fn the_repl_shows_a_typed_string_escaped_in_its_diagnostic() {
    let r = mettle_in(&root(), &["repl", IF], &format!("let t = \"{HOSTILE}\"\nnew side red\n:state\n"));
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(r.err.contains("mettle::resolve::text_value"), "{}", r.err);
    assert!(r.err.contains("\\u{1b}]52;c;aGk="), "{}", r.err);
    assert!(r.out.contains("red"), "the session went on: {}", r.out);
}

#[test]
fn entity_names_from_a_save_reach_the_terminal_escaped() {
    let dir = folder("save-names");
    let save = dir.join("s.json");
    // A save whose entity is renamed by hand.
    let mut repl = Repl::new(1, false, 80);
    assert!(!repl.handle(&format!(":load {}", root().join(IF).display())).failed);
    assert!(!repl.handle("new side blue").failed);
    assert!(!repl.handle(&format!(":save {}", save.display())).failed);
    let text = std::fs::read_to_string(&save).unwrap();
    let hostile = serde_json::to_string(&format!("blue{HOSTILE}")).unwrap();
    std::fs::write(&save, text.replace("\"blue\"", &hostile)).unwrap();
    let before = contents(&dir);
    let r =
        mettle_in(&root(), &["repl", IF], &format!(":restore {}\n:state\nnew side red\n", save.display()));
    assert!(r.out.contains("red") || r.err.contains("mettle::"), "{}{}", r.out, r.err);
    assert_eq!(contents(&dir), before);
}

#[test]
fn a_hostile_save_path_is_echoed_escaped() {
    let dir = folder("save-path");
    let path = dir.join(format!("s{HOSTILE}.json"));
    let r = mettle_in(&root(), &["repl", IF], &format!(":save {}\nnew side red\n", path.display()));
    assert!(r.out.contains("saved to"), "{}{}", r.out, r.err);
    assert!(r.out.contains("\\u{1b}]52"), "{}", r.out);
}

#[test]
fn json_errors_stay_valid_json_with_nothing_raw() {
    let r = mettle(&["roll", IF, "morale", "--set", &format!("spi={HOSTILE}"), "--json"]);
    assert_eq!(r.code, 2, "{}", r.err);
    let doc: serde_json::Value = serde_json::from_str(r.err.trim()).expect("one JSON document");
    assert!(doc.get("errors").is_some(), "{doc}");
    assert!(r.err.contains("\\u202e") || r.err.contains("\\u009b"), "{}", r.err);
}

#[test]
fn c1_controls_del_and_bidi_marks_are_all_escaped() {
    use mettle::text::{escape_controls, visible};
    for c in [
        '\u{0}', '\u{7}', '\u{8}', '\u{d}', '\u{1b}', '\u{7f}', '\u{85}', '\u{9b}', '\u{9d}', '\u{200e}',
        '\u{200f}', '\u{61c}', '\u{202a}', '\u{202e}', '\u{2066}', '\u{2069}',
    ] {
        let text = format!("a{c}b");
        assert_eq!(raw(visible(&text).as_bytes()), None, "{c:?}");
        assert_eq!(raw(escape_controls(&text).as_bytes()), None, "{c:?}");
    }
    // Text from outside never keeps a colour code; mettle's own output may.
    assert_eq!(visible("\u{1b}[31mred"), "\\u{1b}[31mred");
    assert_eq!(visible("tab\tand\nline"), "tab\tand\nline");
}
