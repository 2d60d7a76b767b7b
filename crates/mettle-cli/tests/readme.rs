//! The README's example ruleset works, and the log it shows is what `mettle play` prints.

use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(concat!(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."), "/README.md")).unwrap()
}

/// The text of the first fenced block after `fence` (e.g. "```mettle").
fn block_after(text: &str, fence: &str) -> String {
    let start = text.find(fence).expect("the README has the block") + fence.len();
    let rest = &text[start..];
    let body = rest.trim_start_matches(|c| c != '\n').trim_start_matches('\n');
    body[..body.find("```").unwrap()].to_string()
}

/// A fenced block's text, from the line starting with `first` to the closing fence.
fn block_starting(text: &str, first: &str) -> String {
    let start = text.find(&format!("```\n{first}")).expect("the README has the block") + 4;
    let body = &text[start..];
    body[..body.find("```").unwrap()].to_string()
}

#[test]
fn readme_example_plays_as_shown() {
    let text = readme();
    let rules = block_after(&text, "```mettle");
    let dir = std::env::temp_dir().join(format!("mettle-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("example.mettle");
    std::fs::write(&file, &rules).unwrap();
    let out =
        Command::new(env!("CARGO_BIN_EXE_mettle")).arg("play").arg(&file).arg("example").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let printed = String::from_utf8_lossy(&out.stdout);
    // The README shows the part of the log from the event on.
    let shown = block_starting(&text, "event damaged");
    assert!(printed.contains(shown.trim_end()), "README log differs from `mettle play`:\n{printed}");
}

#[test]
fn readme_error_example_is_what_mettle_check_prints() {
    let dir = std::env::temp_dir().join(format!("mettle-readme-err-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("morale.mettle"),
        "kind unit { spi: 0..6 = 3 }\ncheck morale {\n  input spi: 0..6\n  roll d6\n  modifier \"Spirit\" +spirit\n  target 7\n  outcome steady when total >= target\n  otherwise shaken\n}\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .arg("check")
        .arg("morale.mettle")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let printed = String::from_utf8_lossy(&out.stderr);
    let shown = block_starting(&readme(), "mettle::resolve::unknown_name");
    assert!(printed.contains(shown.trim_end()), "README error differs from `mettle check`:\n{printed}");
}

#[test]
fn readme_odds_example_is_what_mettle_odds_prints() {
    let text = readme();
    let shown = block_starting(&text, "$ mettle odds rulesets/infinite_frontiers.mettle morale");
    let mut lines = shown.lines();
    let command = lines.next().unwrap().trim_start_matches("$ mettle ");
    let out = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(command.split_whitespace())
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let printed = String::from_utf8_lossy(&out.stdout);
    let rest: Vec<&str> = lines.collect();
    assert!(
        printed.contains(rest.join("\n").trim_end()),
        "README odds differ from `mettle odds`:\n{printed}"
    );
}
