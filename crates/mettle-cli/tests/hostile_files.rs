//! Hostile places to write: symbolic links, pipes, devices, folders, the ruleset being read, files of
//! another kind, planted temporary names and folders with links out of them, for every command that
//! writes a file (card, --plot, fmt, :save, schemas). Each case checks the code, that the command ended
//! normally (never hung or crashed) and that nothing on disk changed: the bytes of every file and
//! whether each name is a link.

#![cfg(unix)]

use mettle::internals::repl::Repl;
use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const IF: &str = "rulesets/infinite_frontiers.mettle";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh folder holding `r.mettle` (a copy of a shipped ruleset) and `notes.txt`.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mettle-hostile-files-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(root().join(IF), dir.join("r.mettle")).unwrap();
    std::fs::write(dir.join("notes.txt"), "my notes\n").unwrap();
    dir
}

/// What is on disk below `dir`: for each name, a link's target, or a file's bytes, or the kind of
/// anything else.
fn disk(dir: &Path) -> BTreeMap<String, String> {
    let mut all = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            let shown = if meta.file_type().is_symlink() {
                format!("link -> {}", std::fs::read_link(&p).unwrap().display())
            } else if meta.is_dir() {
                todo.push(p.clone());
                "folder".into()
            } else if meta.is_file() {
                format!("file {:?}", std::fs::read(&p).unwrap())
            } else {
                "other".into()
            };
            all.insert(p.strip_prefix(dir).unwrap().display().to_string(), shown);
        }
    }
    all
}

fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

struct Run {
    code: i32,
    err: String,
}

/// Runs `mettle ARGS` in `dir`; a run that has not ended after 20 s (blocked on a pipe) fails.
fn mettle_in(dir: &Path, args: &[&str], input: &str) -> Run {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("`mettle {}` hung", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    Run { code: o.status.code().expect("ended normally, not by a signal"), err }
}

/// Runs `mettle ARGS` in a fresh folder set up by `plant`, and checks that it is refused with `code`
/// and that nothing changed on disk.
fn refused(name: &str, plant: impl FnOnce(&Path), args: &[&str], code: &str) -> PathBuf {
    let dir = folder(name);
    plant(&dir);
    let before = disk(&dir);
    let r = mettle_in(&dir, args, "");
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(r.err.contains(code), "wanted {code}: {}", r.err);
    assert_eq!(r.err.matches(code).count(), 1, "printed once: {}", r.err);
    assert!(!r.err.contains("mettle::mettle::"), "{}", r.err);
    assert_eq!(disk(&dir), before, "something changed on disk");
    dir
}

const CARD: [&str; 2] = ["card", "r.mettle"];
const PLOT: [&str; 5] = ["odds", "r.mettle", "morale", "--set", "spi=2"];

fn with<'a>(head: &[&'a str], tail: &[&'a str]) -> Vec<&'a str> {
    head.iter().chain(tail).copied().collect()
}

// ---------------------------------------------------------------- the ruleset being read

#[test]
fn card_never_replaces_its_own_ruleset_even_when_forced() {
    refused("card-self", |_| {}, &with(&CARD, &["-o", "r.mettle"]), "mettle::io::same_as_input");
    refused(
        "card-self-force",
        |_| {},
        &with(&CARD, &["-o", "r.mettle", "--force"]),
        "mettle::io::same_as_input",
    );
}

#[test]
fn card_never_replaces_its_ruleset_through_a_hard_link() {
    let plant = |d: &Path| std::fs::hard_link(d.join("r.mettle"), d.join("card.html")).unwrap();
    refused("card-hard", plant, &with(&CARD, &["-o", "card.html", "--force"]), "mettle::io::same_as_input");
}

#[test]
fn a_plot_never_replaces_the_ruleset() {
    refused("plot-self", |_| {}, &with(&PLOT, &["--plot", "r.mettle"]), "mettle::io::same_as_input");
    refused(
        "plot-self-force",
        |_| {},
        &with(&PLOT, &["--plot", "r.mettle", "--force"]),
        "mettle::io::same_as_input",
    );
}

// ---------------------------------------------------------------- links, pipes, devices, folders

#[test]
fn card_never_writes_through_a_link() {
    let plant = |d: &Path| symlink(d.join("notes.txt"), d.join("card.html")).unwrap();
    refused("card-link", plant, &with(&CARD, &["-o", "card.html", "--force"]), "mettle::io::link");
}

#[test]
fn a_plot_never_writes_through_a_link() {
    let plant = |d: &Path| symlink("notes.txt", d.join("chart.svg")).unwrap();
    refused("plot-link", plant, &with(&PLOT, &["--plot", "chart.svg", "--force"]), "mettle::io::link");
    let plant = |d: &Path| symlink("notes.txt", d.join("chart.svg")).unwrap();
    refused("dice-plot-link", plant, &["odds", "--dice", "2d6", "--plot", "chart.svg"], "mettle::io::link");
}

#[test]
fn card_and_plot_never_block_on_a_pipe() {
    refused(
        "card-fifo",
        |d| mkfifo(&d.join("card.html")),
        &with(&CARD, &["-o", "card.html"]),
        "mettle::io::not_a_file",
    );
    refused(
        "plot-fifo",
        |d| mkfifo(&d.join("p.svg")),
        &with(&PLOT, &["--plot", "p.svg", "--force"]),
        "mettle::io::not_a_file",
    );
}

#[test]
fn card_and_plot_never_write_to_a_device_or_a_folder() {
    refused("card-dev", |_| {}, &with(&CARD, &["-o", "/dev/null", "--force"]), "mettle::io::not_a_file");
    let plant = |d: &Path| std::fs::create_dir(d.join("out.svg")).unwrap();
    refused("plot-dir", plant, &["odds", "--dice", "2d6", "--plot", "out.svg"], "mettle::io::not_a_file");
}

// ---------------------------------------------------------------- files of another kind

#[test]
fn card_leaves_a_file_that_is_not_a_card_alone_unless_forced() {
    let dir = refused("card-kind", |_| {}, &with(&CARD, &["-o", "notes.txt"]), "mettle::io::other_kind");
    // An HTML page that mettle did not write is not a card either.
    let plant = |d: &Path| std::fs::write(d.join("page.md"), "some *notes*\n").unwrap();
    refused(
        "card-kind-md",
        plant,
        &with(&CARD, &["--format", "md", "-o", "page.md"]),
        "mettle::io::other_kind",
    );
    // Forced, it is replaced, and only it.
    let before = disk(&dir);
    let r = mettle_in(&dir, &with(&CARD, &["-o", "notes.txt", "--force"]), "");
    assert_eq!(r.code, 0, "{}", r.err);
    let after = disk(&dir);
    assert!(std::fs::read_to_string(dir.join("notes.txt")).unwrap().starts_with("<!DOCTYPE html>"));
    assert_eq!(after.len(), before.len(), "no temporary file left: {:?}", after.keys());
    assert_eq!(after["r.mettle"], before["r.mettle"]);
}

#[test]
fn a_plot_leaves_a_file_that_is_not_a_chart_alone_unless_forced() {
    let plant = |d: &Path| std::fs::write(d.join("logo.svg"), "<p>not a chart</p>").unwrap();
    let dir = refused(
        "plot-kind",
        plant,
        &["odds", "--dice", "2d6", "--plot", "logo.svg"],
        "mettle::io::other_kind",
    );
    refused(
        "plot-kind-txt",
        |_| {},
        &["odds", "--dice", "2d6", "--plot", "notes.txt"],
        "mettle::io::other_kind",
    );
    let r = mettle_in(&dir, &["odds", "--dice", "2d6", "--plot", "logo.svg", "--force"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(std::fs::read_to_string(dir.join("logo.svg")).unwrap().starts_with("<svg"));
    // A chart mettle wrote is replaced without being forced.
    let r = mettle_in(&dir, &["odds", "--dice", "3d6", "--plot", "logo.svg"], "");
    assert_eq!(r.code, 0, "{}", r.err);
}

#[test]
fn fmt_rewrites_only_rulesets_unless_forced() {
    // Text that parses as a ruleset, but is someone's notes.
    let plant = |d: &Path| std::fs::write(d.join("notes.txt"), "kind unit {spi: 0..6 = 3}\n").unwrap();
    let dir = refused("fmt-kind", plant, &["fmt", "notes.txt"], "mettle::io::other_kind");
    let r = mettle_in(&dir, &["fmt", "notes.txt", "--force"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read_to_string(dir.join("notes.txt")).unwrap(), "kind unit { spi: 0..6 = 3 }\n");
}

// ---------------------------------------------------------------- fmt and links

#[test]
fn fmt_never_writes_through_a_link_it_is_given() {
    let plant = |d: &Path| {
        std::fs::write(d.join("real.mettle"), "kind unit {spi: 0..6 = 3}\n").unwrap();
        symlink("real.mettle", d.join("link.mettle")).unwrap();
    };
    refused("fmt-link", plant, &["fmt", "link.mettle"], "mettle::io::link");
}

#[test]
fn fmt_never_blocks_on_a_pipe_it_is_given() {
    refused("fmt-fifo", |d| mkfifo(&d.join("p.mettle")), &["fmt", "p.mettle"], "mettle::io::not_a_file");
}

#[test]
fn fmt_of_a_folder_never_follows_a_link_out_of_it() {
    let outside = folder("fmt-outside");
    std::fs::write(outside.join("theirs.mettle"), "kind unit {spi: 0..6 = 3}\n").unwrap();
    let dir = folder("fmt-walk");
    std::fs::create_dir(dir.join("sub")).unwrap();
    symlink(outside.join("theirs.mettle"), dir.join("sub/theirs.mettle")).unwrap();
    symlink(&outside, dir.join("sub/away")).unwrap();
    std::fs::write(dir.join("sub/mine.mettle"), "kind unit {spi: 0..6 = 3}\n").unwrap();
    let (before_out, before) = (disk(&outside), disk(&dir));
    let r = mettle_in(&dir, &["fmt", "sub"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(disk(&outside), before_out, "a file outside the folder changed");
    let after = disk(&dir);
    assert_eq!(after["sub/theirs.mettle"], before["sub/theirs.mettle"], "the link is still a link");
    assert_ne!(after["sub/mine.mettle"], before["sub/mine.mettle"], "the folder's own file was formatted");
    assert_eq!(after.len(), before.len(), "no temporary file left");
}

// ---------------------------------------------------------------- planted temporary names

/// Plants, for the next few hundred process ids, a link at each name the old writers used for their
/// temporary files (`.NAME.card-PID.tmp`, `.NAME.fmt-PID.tmp`, `.NAME.mettle-PID.tmp`), all pointing
/// at `victim`.
fn plant_temp_names(dir: &Path, name: &str, victim: &Path) {
    let next = std::process::id();
    for pid in next..next + 2000 {
        for tag in ["card", "fmt", "mettle"] {
            let _ = symlink(victim, dir.join(format!(".{name}.{tag}-{pid}.tmp")));
        }
    }
}

#[test]
fn planted_temporary_names_are_never_followed() {
    let shared = folder("planted");
    let victim = folder("planted-victim").join("notes.txt");
    let victim_before = std::fs::read(&victim).unwrap();
    plant_temp_names(&shared, "card.html", &victim);
    plant_temp_names(&shared, "r.mettle", &victim);
    std::fs::write(shared.join("r.mettle"), "kind unit {spi: 0..6 = 3}\n").unwrap();
    let links = disk(&shared).values().filter(|v| v.starts_with("link")).count();
    let r = mettle_in(&shared, &["card", IF_ABS.as_str(), "-o", "card.html"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    let r = mettle_in(&shared, &["fmt", "r.mettle"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read(&victim).unwrap(), victim_before, "the planted link was followed");
    let after = disk(&shared);
    assert!(after["card.html"].starts_with("file"), "the card is a file of its own");
    assert!(after["r.mettle"].starts_with("file"));
    assert_eq!(after.values().filter(|v| v.starts_with("link")).count(), links, "the links are as planted");
}

static IF_ABS: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| root().join(IF).canonicalize().unwrap().display().to_string());

// ---------------------------------------------------------------- :save and schemas

/// A REPL with the copy of the ruleset in `dir` loaded and one side made.
fn repl_in(dir: &Path) -> Repl {
    let mut repl = Repl::new(1, false, 80);
    assert!(!repl.handle(&format!(":load {}", dir.join("r.mettle").display())).failed);
    assert!(!repl.handle("new side blue").failed);
    repl
}

/// `:save` (or `:save!`) to `name` in a fresh folder set up by `plant`: refused with `code`, nothing
/// changed on disk, and the session goes on.
fn save_refused(folder_name: &str, plant: impl FnOnce(&Path), line: &str, name: &str, code: &str) {
    let dir = folder(folder_name);
    plant(&dir);
    let mut repl = repl_in(&dir);
    let before = disk(&dir);
    let reply = repl.handle(&format!("{line} {}", dir.join(name).display()));
    assert!(reply.failed, "{}", reply.out);
    assert!(reply.err.contains(code), "wanted {code}: {}", reply.err);
    assert_eq!(disk(&dir), before, "something changed on disk");
    assert!(!repl.handle("new side red").failed, "the session goes on");
}

#[test]
fn save_never_writes_through_a_link_even_when_forced() {
    let plant = |d: &Path| symlink("notes.txt", d.join("game.json")).unwrap();
    save_refused("save-link", plant, ":save!", "game.json", "mettle::io::link");
}

#[test]
fn save_never_blocks_on_a_pipe() {
    save_refused(
        "save-fifo",
        |d| mkfifo(&d.join("game.json")),
        ":save!",
        "game.json",
        "mettle::io::not_a_file",
    );
}

#[test]
fn save_never_replaces_a_folder_or_the_ruleset() {
    let plant = |d: &Path| std::fs::create_dir(d.join("game.json")).unwrap();
    save_refused("save-dir", plant, ":save!", "game.json", "mettle::io::not_a_file");
    save_refused("save-self", |_| {}, ":save!", "r.mettle", "mettle::io::same_as_input");
    save_refused("save-notes", |_| {}, ":save", "notes.txt", "mettle::io::other_kind");
}

#[test]
fn schemas_never_write_through_a_link() {
    let plant = |d: &Path| {
        std::fs::create_dir(d.join("out")).unwrap();
        symlink("../notes.txt", d.join("out/check.json")).unwrap();
    };
    let dir = folder("schemas-link");
    plant(&dir);
    let before = std::fs::read(dir.join("notes.txt")).unwrap();
    let r = mettle_in(&dir, &["schemas", "--out", "out"], "");
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(r.err.contains("mettle::io::link"), "{}", r.err);
    assert_eq!(std::fs::read(dir.join("notes.txt")).unwrap(), before);
    assert!(std::fs::symlink_metadata(dir.join("out/check.json")).unwrap().file_type().is_symlink());
}

#[test]
fn a_new_file_gets_the_usual_permissions_and_no_temporary_file_stays() {
    use std::os::unix::fs::PermissionsExt;
    let dir = folder("perms");
    let r = mettle_in(&dir, &with(&CARD, &["-o", "card.html"]), "");
    assert_eq!(r.code, 0, "{}", r.err);
    let mode = std::fs::metadata(dir.join("card.html")).unwrap().permissions().mode() & 0o777;
    assert_ne!(mode & 0o400, 0);
    assert_ne!(mode, 0o600, "not the temporary file's own mode");
    // A replaced file keeps its mode.
    std::fs::set_permissions(dir.join("card.html"), std::fs::Permissions::from_mode(0o640)).unwrap();
    let r = mettle_in(&dir, &with(&CARD, &["-o", "card.html"]), "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::metadata(dir.join("card.html")).unwrap().permissions().mode() & 0o777, 0o640);
    assert_eq!(disk(&dir).len(), 3, "{:?}", disk(&dir).keys());
}
