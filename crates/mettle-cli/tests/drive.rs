//! `mettle serve` driven from other languages: tests/drive/frontiers.py (Python's standard library)
//! and tests/drive/frontiers.mjs (Node, no packages) play an Infinite Frontiers engagement and a Shadow
//! Deep reaction and check every reply against the schemas. Each runs when its interpreter is on the
//! machine, and says so plainly when it is not.

use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Whether `program --version` runs.
fn present(program: &str) -> bool {
    Command::new(program).arg("--version").output().is_ok_and(|o| o.status.success())
}

fn drive(program: &str, script: &str) {
    if !present(program) {
        eprintln!("SKIPPED: `{program}` is not on this machine, so {script} did not run");
        return;
    }
    let out = Command::new(program)
        .arg(root().join(script))
        .arg(env!("CARGO_BIN_EXE_mettle"))
        .current_dir(root())
        .output()
        .expect("the drive runs");
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{script} failed:\n{said}");
    assert!(said.contains("2 passed, 0 failed"), "{script} said:\n{said}");
}

#[test]
fn python_drives_mettle_serve() {
    drive("python3", "tests/drive/frontiers.py");
}

#[test]
fn node_drives_mettle_serve() {
    drive("node", "tests/drive/frontiers.mjs");
}
