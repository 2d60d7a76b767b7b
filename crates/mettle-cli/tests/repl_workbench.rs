//! The REPL as a workbench, piped as a new user would type it: the exact odds of a unit's check from
//! a fresh start, and a what-if that gives what the scenario odds of the same steps give.

use std::path::Path;
use std::process::{Command, Stdio};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Runs `mettle ARGS` in the checkout with `input` piped in: exit code, standard output, standard
/// error.
fn mettle(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env("METTLE_HISTORY", std::env::temp_dir().join("mettle-workbench-history"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// The outcome rows of a report printed with bars: `(name, exact chance)`.
fn rows(text: &str) -> Vec<(String, String)> {
    let mut out = vec![];
    let mut inside = false;
    for line in text.lines() {
        if line.trim_start().starts_with("outcome ") {
            inside = true;
            continue;
        }
        if inside && (line.trim().is_empty() || !line.starts_with("  ")) {
            break;
        }
        if inside {
            let cells: Vec<&str> = line.split("  ").map(str::trim).filter(|c| !c.is_empty()).collect();
            out.push((cells[0].to_string(), cells[2].to_string()));
        }
    }
    out
}

#[test]
fn a_new_users_first_odds_are_exact() {
    let (code, out, err) = mettle(
        &["repl", "rulesets/infinite_frontiers.mettle"],
        "new side blue\nnew unit alpha with side = blue, spi = 2\nodds morale for alpha\n",
    );
    assert_eq!(code, 0, "{err}");
    let got = rows(&out);
    let want: Vec<(String, String)> =
        [("broken", "1/6"), ("steady", "1/3"), ("shaken", "1/2")].map(|(a, b)| (a.into(), b.into())).to_vec();
    assert_eq!(got, want, "{out}");
    assert!(out.contains("exact odds"), "{out}");
    assert!(out.contains("(made by alpha as it is now)"), "{out}");
    // The same as `mettle odds` asked of a stand-in with the same spirit.
    let (_, cli, _) =
        mettle(&["odds", "rulesets/infinite_frontiers.mettle", "morale", "--with", "spi=2"], "");
    assert_eq!(rows(&cli), want, "{cli}");
}

#[test]
fn a_what_if_gives_the_scenario_odds_of_the_same_steps() {
    let (_, scenario, err) =
        mettle(&["odds", "rulesets/infinite_frontiers.mettle", "--scenario", "three_morale_checks"], "");
    let want = rows(&scenario);
    assert_eq!(want.len(), 3, "{scenario}{err}");
    let roll = "roll morale for u with spi = u.spi, recovery = u.morale is not steady";
    let input = format!(
        "option resolve_needs = seven_sixes\nnew side a\nnew unit u with side = a, spi = 2\nodds {roll}  {roll}  {roll}\nu.morale\n"
    );
    let (code, out, err) = mettle(&["repl", "rulesets/infinite_frontiers.mettle"], &input);
    assert_eq!(code, 0, "{err}");
    assert_eq!(rows(&out), want, "{out}");
    assert!(out.contains("its ends over all 216 ways its dice can fall"), "{out}");
    assert!(scenario.contains("over all 216 ways"), "{scenario}");
    // The game was not changed by asking.
    assert!(out.trim_end().ends_with("steady"), "{out}");
}

#[test]
fn the_readme_session_runs_as_shown() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let block = readme
        .split("```\n")
        .find(|b| b.starts_with("$ mettle repl") && b.contains("mettle> odds morale"))
        .expect("the README shows a REPL session with odds");
    let args: Vec<&str> = block.lines().next().unwrap().split_whitespace().skip(2).collect();
    let typed: String =
        block.lines().filter_map(|l| l.strip_prefix("mettle> ")).map(|l| format!("{l}\n")).collect();
    assert!(typed.contains("odds morale for alpha") && typed.contains("odds trigger"), "{typed}");
    let (code, out, err) = mettle(&args, &typed);
    assert_eq!(code, 0, "{err}");
    // `…` stands for lines the README leaves out.
    let shown = |l: &&str| {
        !l.starts_with("mettle> ") && !l.starts_with("$ ") && !l.trim().is_empty() && l.trim() != "…"
    };
    for line in block.lines().filter(shown) {
        assert!(out.contains(line.trim_end()), "the README shows `{line}`, the REPL printed:\n{out}");
    }
}

/// A what-if tells ends apart by the game's result too, and gives the distribution of each value
/// recorded on the way, exactly.
#[test]
fn a_what_if_gives_the_games_end_and_the_records() {
    use mettle::internals::repl::Repl;
    let mut r = Repl::new(1, false, 80);
    for line in [
        "kind unit { hp: 0..9 = 2 }",
        "result fallen \"Fallen\"",
        "event hit(u: unit)",
        "on hit { if d6 >= 4 { remove 1 from u.hp }  if u.hp == 0 { end game with fallen } }",
        "new unit a",
    ] {
        let reply = r.handle(line);
        assert!(!reply.failed, "{line}: {}", reply.err);
    }
    let before = r.session().state().clone();
    let reply = r.handle("odds trigger hit(u: a)  trigger hit(u: a)  record \"hp left\" = a.hp");
    assert!(!reply.failed, "{}", reply.err);
    // Columns line up with spaces: compared with one space each.
    let out = &reply.out.split(' ').filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ");
    assert!(out.contains("its ends over all 36 ways its dice can fall"), "{out}");
    assert!(out.contains("the game goes on, a.hp = 1 50.00% 1/2"), "{out}");
    assert!(out.contains("fallen, a.hp = 0 25.00% 1/4"), "{out}");
    assert!(out.contains("the game goes on, a.hp = 2 25.00% 1/4"), "{out}");
    assert!(out.contains("hp left\n 0 25.00% 1/4"), "{out}");
    assert_eq!(r.session().state(), &before);
}

/// A scenario whose ends differ in how the game ended, in an attribute, and in a run stopped inside
/// a rule (hp stays at 9 at most: that `repeat` never ends).
const STEPS: &str = r#"kind unit { morale: steady | shaken | broken = steady  hp: 0..9 = 3 }
check morale for unit { roll d6  outcome hold when total >= 3 {} otherwise slip { set unit.morale to shift(unit.morale, 1) } }
result rout "Rout"
event boom(unit: unit)
on boom {
  if unit.morale is broken { end game with rout for unit }
  if unit.morale is shaken { repeat { add 1 to unit.hp } until unit.hp == 0 }
}
scenario steps {
  new unit u
  roll morale for u
  roll morale for u
  trigger boom(unit: u)
  record "hp" = u.hp
}
"#;

/// The report of a `--json` odds answer as `rows` reads a printed one.
fn json_rows(v: &serde_json::Value) -> Vec<(String, String)> {
    let rows = v["outcomes"].as_array().unwrap().iter();
    rows.map(|o| (o["outcome"].as_str().unwrap().into(), o["exact"].as_str().unwrap_or("-").into())).collect()
}

#[test]
fn a_what_if_names_its_ends_as_the_scenario_odds_do() {
    let mut f = tempfile::Builder::new().suffix(".mettle").tempfile().unwrap();
    std::io::Write::write_all(&mut f, STEPS.as_bytes()).unwrap();
    let path = f.path().to_str().unwrap();
    let (code, scenario, err) = mettle(&["odds", path, "--scenario", "steps", "--json"], "");
    assert_eq!(code, 0, "{err}");
    let scenario: serde_json::Value = serde_json::from_str(&scenario).unwrap();
    let want = json_rows(&scenario);
    assert_eq!(
        want,
        [
            (
                "(stopped at line 7: `repeat` ran 1000 times without its condition coming true)".to_string(),
                "4/9".to_string()
            ),
            ("the game goes on, u.morale = steady".into(), "4/9".into()),
            ("rout for u, u.morale = broken".into(), "1/9".into()),
        ]
    );
    let input = "new unit u\nodds roll morale for u  roll morale for u  trigger boom(unit: u)  record \"hp\" = u.hp\n";
    let (code, out, err) = mettle(&["repl", path], input);
    assert_eq!(code, 0, "{err}");
    assert_eq!(rows(&out), want, "{out}");
    // The recorded value, under its label as `mettle odds` shows it, over the runs that ended.
    assert!(out.contains("\nhp\n"), "{out}");
    assert_eq!(scenario["values"][0]["name"], "hp");
}
