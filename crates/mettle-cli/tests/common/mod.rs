//! Running the real `mettle` binary from the repository's root, for the tests that drive it.
//! (Each test file uses what it needs of these.)
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// Runs `mettle ARGS…` from the repository's root, without colour.
pub fn mettle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(args)
        .current_dir(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")))
        .env("NO_COLOR", "1")
        .output()
        .expect("the mettle binary runs")
}

/// What a run printed.
pub fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What a run printed on its error stream.
pub fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The JSON document a run that succeeded printed.
pub fn json(args: &[&str]) -> serde_json::Value {
    let o = mettle(args);
    assert!(o.status.success(), "{}", err(&o));
    serde_json::from_slice(&o.stdout).expect("JSON")
}
