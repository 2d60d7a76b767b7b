//! Hostile lines for the REPL's workbench (`odds`, what-if, `:sim`, `:test`, `:card`, `:plot`): each
//! is refused with its code, pointing into the line where it can, and the session goes on unchanged,
//! with nothing written on disk.

use mettle::internals::repl::{Repl, Reply};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// A REPL over Infinite Frontiers with alpha in play: shaken, holding an AP, Resolve running.
fn game() -> Repl {
    let mut r = Repl::new(1, false, 80);
    let mut reply = Reply::default();
    assert!(r.load(&root().join("rulesets/infinite_frontiers.mettle"), &mut reply), "{}", reply.err);
    for line in [
        "new side blue",
        "new unit alpha with side = blue, spi = 2",
        "set alpha.resolve_next to yes",
        "trigger round_start",
        "set alpha.morale to shaken",
        "set alpha.ap to 1",
    ] {
        let reply = r.handle(line);
        assert!(!reply.failed, "{line}: {}", reply.err);
    }
    r
}

/// `line` is refused with `code`, and the session is as it was; then a line still runs.
fn refused(r: &mut Repl, line: &str, code: &str) -> Reply {
    let before = r.session().state().clone();
    let log = r.session().log().len();
    let reply = r.handle(line);
    assert!(reply.failed, "{line} was not refused: {}", reply.out);
    assert!(reply.err.contains(code), "{line}: wanted {code}, got {}", reply.err);
    assert!(reply.plot.is_none(), "{line}: a refused line asks for no chart");
    assert_eq!(r.session().state(), &before, "{line} changed the game");
    assert_eq!(r.session().log().len(), log, "{line} logged something");
    assert_eq!(r.handle("alpha.ap + 1").out, "2\n", "the session goes on after {line}");
    reply
}

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mettle-hostile-odds-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
    v.sort();
    v
}

// ---------------------------------------------------------------- odds questions

#[test]
fn an_unknown_check_is_located_with_a_suggestion() {
    let mut r = game();
    let reply = refused(&mut r, "odds morael for alpha", "mettle::repl::unknown_check");
    assert!(reply.err.contains("did you mean `morale`?"), "{}", reply.err);
    assert!(reply.err.contains("odds morael for alpha\n"), "the line is shown: {}", reply.err);
    refused(&mut r, ":odds nothing", "mettle::repl::unknown_check");
}

#[test]
fn an_unknown_unit_is_located_with_a_suggestion() {
    let mut r = game();
    let reply = refused(&mut r, "odds morale for alhpa", "mettle::repl::unknown_unit");
    assert!(reply.err.contains("did you mean `alpha`?"), "{}", reply.err);
    refused(&mut r, "odds morale for", "mettle::repl::missing_argument");
    // A side does not make morale checks.
    refused(&mut r, "odds morale for blue", "mettle::repl::unknown_unit");
}

#[test]
fn unknown_and_bad_values_are_refused() {
    let mut r = game();
    refused(&mut r, "odds morale for alpha with spy = 3", "mettle::repl::unknown_input");
    refused(&mut r, "odds morale for alpha with spi = 9", "mettle::value::out_of_range");
    refused(&mut r, "odds morale for alpha with spi = lots", "mettle::value::not_a_number");
    refused(&mut r, "odds morale for alpha with bonus_die = d12", "mettle::value::unknown_name");
    refused(&mut r, "odds morale for alpha with spi 3", "mettle::repl::bad_argument");
    refused(&mut r, "odds morale for alpha whatever", "mettle::repl::bad_argument");
    refused(&mut r, "odds", "mettle::repl::missing_argument");
}

#[test]
fn bad_sweeps_are_refused() {
    let mut r = game();
    refused(&mut r, "odds morale for alpha sweep spi 0..60", "mettle::odds::bad_sweep");
    refused(&mut r, "odds morale for alpha sweep spi 6..0", "mettle::odds::bad_sweep");
    refused(&mut r, "odds morale for alpha sweep spi 0..x", "mettle::odds::bad_sweep");
    refused(&mut r, "odds morale for alpha sweep nothing", "mettle::odds::bad_sweep");
    refused(&mut r, "odds morale for alpha sweep spi, spi", "mettle::odds::bad_sweep");
    refused(&mut r, "odds morale for alpha sweep", "mettle::repl::missing_argument");
}

#[test]
fn a_huge_sweep_is_refused_before_any_row_is_asked() {
    let mut r = Repl::new(1, false, 80);
    assert!(
        !r.handle("check c { input n: int  roll d6  outcome hit when total + n >= 7  otherwise miss }")
            .failed
    );
    let before = r.session().state().clone();
    let start = std::time::Instant::now();
    let reply = r.handle("odds c sweep n 0..99999999");
    assert!(reply.failed);
    assert!(reply.err.contains("mettle::odds::bad_sweep"), "{}", reply.err);
    assert!(reply.err.contains("more than 10000 rows"), "{}", reply.err);
    assert!(start.elapsed().as_secs() < 5, "refused at once");
    assert_eq!(r.session().state(), &before);
    assert!(!r.handle("odds c with n = 3").failed);
}

#[test]
fn odds_out_of_budget_say_so_and_the_session_goes_on() {
    let mut r = Repl::new(1, false, 80);
    let mut b = mettle::Budget::default();
    b.set("odds_work", 1).unwrap();
    r.set_budget(b);
    let mut reply = Reply::default();
    assert!(r.load(&root().join("rulesets/infinite_frontiers.mettle"), &mut reply), "{}", reply.err);
    assert!(!r.handle("new side blue").failed);
    assert!(!r.handle("new unit alpha with side = blue").failed);
    let before = r.session().state().clone();
    for line in ["odds morale for alpha", "odds trigger damaged(unit: alpha, hp_lost: 3)"] {
        let reply = r.handle(line);
        assert!(reply.failed, "{line}: {}", reply.out);
        assert!(reply.err.contains("mettle::odds::out_of_work"), "{line}: {}", reply.err);
        assert_eq!(r.session().state(), &before, "{line}");
    }
    assert_eq!(r.handle("alpha.spi").out, "3\n");
}

// ---------------------------------------------------------------- what-if and :sim

#[test]
fn a_what_if_with_a_mistake_is_refused_where_it_is() {
    let mut r = game();
    let reply =
        refused(&mut r, "odds trigger damaged(unit: alhpa, hp_lost: 3)", "mettle::resolve::unknown_name");
    assert!(reply.err.contains("did you mean `alpha`?"), "{}", reply.err);
    refused(&mut r, "odds trigger nothing()", "mettle::");
    refused(&mut r, "odds roll morale for alpha with spi = 99", "mettle::");
    refused(&mut r, "odds set alpha.spi to", "mettle::");
}

#[test]
fn a_what_if_leaves_the_game_as_it_was() {
    let mut r = game();
    let before = r.session().state().clone();
    let reply = r.handle("odds trigger damaged(unit: alpha, hp_lost: 3)");
    assert!(!reply.failed, "{}", reply.err);
    assert!(reply.out.contains("its ends over all 6 ways its dice can fall"), "{}", reply.out);
    assert!(
        reply.out.contains("alpha.morale = broken, alpha.resolve_next = no     16.67%  1/6"),
        "{}",
        reply.out
    );
    assert_eq!(r.session().state(), &before);
    // Nothing to take back: the what-if was not a step.
    assert!(r.handle(":undo").out.contains("set alpha.ap to 1"));
}

#[test]
fn bad_simulations_are_refused() {
    let mut r = game();
    refused(&mut r, ":sim", "mettle::repl::missing_argument");
    refused(&mut r, ":sim 0 trigger turn_start", "mettle::repl::bad_runs");
    refused(&mut r, ":sim lots trigger turn_start", "mettle::repl::bad_runs");
    refused(&mut r, ":sim 99999999999 trigger turn_start", "mettle::repl::bad_runs");
    refused(&mut r, ":sim 10", "mettle::repl::missing_argument");
    refused(&mut r, ":sim 10 trigger nothing()", "mettle::");
    refused(&mut r, ":sim 10 alpha.spi + 1", "mettle::repl::not_a_step");
}

/// Presses Ctrl-C at the REPL again and again for a second, from another thread.
fn press_ctrl_c_for_a_second(r: &Repl) -> std::thread::JoinHandle<()> {
    let flag = r.cancel_flag();
    std::thread::spawn(move || {
        for _ in 0..100 {
            std::thread::sleep(std::time::Duration::from_millis(10));
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    })
}

#[test]
fn ctrl_c_stops_a_simulation_with_what_was_done() {
    let mut r = game();
    let before = r.session().state().clone();
    // Whenever the press lands (between runs, while a run's game is copied, in the middle of a
    // run) it stops the runs.
    let setter = press_ctrl_c_for_a_second(&r);
    let reply = r.handle(":sim 10000000 trigger damaged(unit: alpha, hp_lost: 3)");
    setter.join().unwrap();
    assert!(reply.failed);
    assert!(reply.err.contains("mettle::repl::interrupted"), "{}", reply.err);
    assert!(reply.out.contains("runs, seed 1"), "{}", reply.out);
    assert_eq!(r.session().state(), &before);
    assert!(!r.handle("alpha.spi").failed);
    // The stop is not left standing for the next simulation.
    let reply = r.handle(":sim 20 trigger damaged(unit: alpha, hp_lost: 3)");
    assert!(!reply.failed, "{}", reply.err);
    assert!(reply.out.contains("20 runs, seed 1"), "{}", reply.out);
}

#[test]
fn ctrl_c_stops_a_what_if_and_is_no_end_of_it() {
    let mut r = Repl::new(1, false, 80);
    for line in [
        "kind unit { n: int = 0  m: int = 0 }",
        "event long(u: unit)",
        // About 100,000 steps a way through, and seven ways: long enough to be pressed in.
        "on long { repeat { set u.m to 0  repeat { add 1 to u.m } until u.m >= 999  add 1 to u.n } until u.n >= 100  if d6 >= 4 { add 1 to u.n } }",
        "new unit a",
    ] {
        let reply = r.handle(line);
        assert!(!reply.failed, "{line}: {}", reply.err);
    }
    let before = r.session().state().clone();
    let setter = press_ctrl_c_for_a_second(&r);
    let reply = r.handle("odds trigger long(u: a)");
    setter.join().unwrap();
    assert!(reply.failed, "{}", reply.out);
    assert!(reply.err.contains("mettle::odds::cancelled"), "{}", reply.err);
    assert!(!reply.out.contains("cancelled"), "the stop is reported as an end: {}", reply.out);
    assert_eq!(r.session().state(), &before);
    // Asked again, unpressed, it is answered exactly.
    let reply = r.handle("odds trigger long(u: a)");
    assert!(!reply.failed, "{}", reply.err);
    assert!(reply.out.contains("50.00%"), "{}", reply.out);
}

// ---------------------------------------------------------------- :test, :card, :plot

#[test]
fn an_unknown_scenario_is_refused() {
    let mut r = game();
    let reply = refused(&mut r, ":test nothing", "mettle::repl::unknown_scenario");
    assert!(reply.err.contains(":test nothing"), "located: {}", reply.err);
}

#[test]
fn plot_needs_odds_and_an_svg_file_in_a_folder_that_exists() {
    let dir = scratch("plot");
    let mut r = game();
    refused(&mut r, ":plot chart.svg", "mettle::repl::no_odds");
    assert!(!r.handle("odds morale for alpha").failed);
    refused(&mut r, ":plot", "mettle::repl::missing_argument");
    refused(&mut r, &format!(":plot {}", dir.join("chart.png").display()), "mettle::repl::bad_file_name");
    refused(&mut r, &format!(":plot {}", dir.join("missing/chart.svg").display()), "mettle::repl::no_folder");
    std::fs::create_dir(dir.join("folder.svg")).unwrap();
    refused(&mut r, &format!(":plot {}", dir.join("folder.svg").display()), "mettle::io::not_a_file");
    std::fs::write(dir.join("notes.svg"), "my notes").unwrap();
    refused(&mut r, &format!(":plot {}", dir.join("notes.svg").display()), "mettle::io::other_kind");
    #[cfg(unix)]
    {
        std::fs::write(dir.join("target.svg"), "<svg/>").unwrap();
        std::os::unix::fs::symlink(dir.join("target.svg"), dir.join("link.svg")).unwrap();
        refused(&mut r, &format!(":plot {}", dir.join("link.svg").display()), "mettle::io::link");
        assert_eq!(std::fs::read_to_string(dir.join("target.svg")).unwrap(), "<svg/>");
    }
    assert_eq!(std::fs::read_to_string(dir.join("notes.svg")).unwrap(), "my notes");
    assert_eq!(files_in(&dir).len(), if cfg!(unix) { 4 } else { 2 }, "{:?}", files_in(&dir));
}

#[test]
fn card_refuses_other_files_links_and_missing_folders() {
    let dir = scratch("card");
    let mut r = game();
    refused(&mut r, &format!(":card {}", dir.join("card.txt").display()), "mettle::repl::bad_file_name");
    refused(&mut r, &format!(":card {}", dir.join("missing/card.md").display()), "mettle::io::write");
    std::fs::write(dir.join("notes.md"), "my notes").unwrap();
    refused(&mut r, &format!(":card {}", dir.join("notes.md").display()), "mettle::io::other_kind");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.join("notes.md"), dir.join("link.html")).unwrap();
        refused(&mut r, &format!(":card {}", dir.join("link.html").display()), "mettle::io::link");
    }
    assert_eq!(std::fs::read_to_string(dir.join("notes.md")).unwrap(), "my notes");
    // The ruleset read is never written over.
    let copy = dir.join("rules.mettle");
    std::fs::copy(root().join("rulesets/infinite_frontiers.mettle"), &copy).unwrap();
    let mut r2 = Repl::new(1, false, 80);
    let mut reply = Reply::default();
    assert!(r2.load(&copy, &mut reply));
    let same = std::fs::read(&copy).unwrap();
    let reply = r2.handle(&format!(":card {}", copy.display()));
    assert!(reply.failed);
    assert_eq!(std::fs::read(&copy).unwrap(), same);
}

/// Through the binary: a chart refused by the front end's writer (here a link planted after the
/// REPL checked) is a coded error, and the session goes on.
#[test]
fn the_front_end_writes_the_chart_or_says_why_not() {
    let dir = scratch("front");
    let input = "new side blue\nnew unit alpha with side = blue, spi = 2\nodds morale for alpha sweep spi 0..6\n\
                 :plot spi.svg\n:plot spi.svg\nalpha.spi\n";
    let mut child = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .arg("repl")
        .arg(root().join("rulesets/infinite_frontiers.mettle"))
        .current_dir(&dir)
        .env("NO_COLOR", "1")
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
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("chart written to spi.svg"), "{stdout}");
    assert!(stdout.ends_with("2\n"), "{stdout}");
    let svg = std::fs::read_to_string(dir.join("spi.svg")).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    assert_eq!(files_in(&dir), ["spi.svg"], "no temporary file is left");
}
