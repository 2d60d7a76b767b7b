//! Loading a ruleset named without a folder, and the stand-in a check made by someone is rolled for:
//! it is asked only for what the check (and its effects) read, its attributes naming other entities
//! included (`--with opponent.mp=3`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Runs `mettle ARGS` in folder `dir`, without colour.
fn mettle_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the mettle binary runs")
}

fn mettle(args: &[&str]) -> Output {
    mettle_in(root(), args)
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn temp_file(name: &str, body: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mettle-loading-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join(name);
    std::fs::write(&path, body).expect("written");
    path
}

#[test]
fn a_ruleset_with_a_script_loads_when_named_without_a_folder() {
    let folder = root().join("rulesets");
    for name in ["shadow_deep_stress.mettle", "./shadow_deep_stress.mettle"] {
        let o = mettle_in(&folder, &["check", name]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", text(&o));
        assert!(!text(&o).contains("script::unreadable"), "{}", text(&o));
    }
    // The card and the scenarios too.
    let o = mettle_in(&folder, &["test", "shadow_deep_stress.mettle"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

const GROUPS: &str = r#"
kind group {
  size: 1..20
  morale: 2..12 = 7
}
check morale for group {
  roll 2d6
  outcome holds when total <= group.morale
  otherwise breaks
}
check headcount for group {
  roll d6
  outcome many when total <= group.size
  otherwise few
}
"#;

#[test]
fn a_stand_in_is_asked_only_for_what_its_check_reads() {
    let file = temp_file("groups.mettle", GROUPS);
    let file = file.to_str().expect("a path in UTF-8");
    // `morale` reads only `morale`, which has a default: `size` is not asked for.
    let o = mettle(&["odds", file, "morale"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("7/12"), "2d6 at most 7: {}", text(&o));
    // `headcount` reads `size`: the error names it and says where it is read.
    let o = mettle(&["odds", file, "headcount", "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("mettle::odds::missing_value"), "{t}");
    assert!(t.contains("`group.size` (line 13)"), "{t}");
    assert!(t.contains("--with size="), "{t}");
    let o = mettle(&["odds", file, "headcount", "--with", "size=3"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("1/2"), "{}", text(&o));
}

#[test]
fn the_stand_in_s_opponent_is_given_its_points_and_never_a_silent_zero() {
    let hq = "rulesets/combat_hq.mettle";
    // The dispersal's effects add to the opponent's Morale Points, which have no default.
    let o = mettle(&["odds", hq, "dispersal", "--with", "mp=2", "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("mettle::odds::missing_value") && t.contains("`opponent.mp`"), "{t}");
    assert!(t.contains("`group.opponent.mp` (line 52)"), "{t}");
    // Given, it is used: a group at zero hands its whole roll to an opponent that had 3.
    let o = mettle(&["roll", hq, "dispersal", "--with", "mp=0", "--with", "opponent.mp=3"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("outcome: to_opponent"), "{t}");
    assert!(t.contains("group's opponent.mp: 3 -> "), "{t}");
    // An attribute the opponent does not have is refused, with the names it could be.
    let o = mettle(&["odds", hq, "dispersal", "--with", "mp=2", "--with", "opponent.mpp=3"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("opponent.mp"), "{}", text(&o));
}
