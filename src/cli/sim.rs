//! `mettle sim`: play a scenario or roll a check many times and report the frequencies.

use std::path::PathBuf;

/// The command line of `mettle sim`.
pub struct Args {
    pub file: PathBuf,
    pub scenario: Option<String>,
    pub check: Option<String>,
    pub set: Vec<String>,
    pub with: Vec<String>,
    pub runs: u64,
    pub seed: u64,
    pub threads: Option<usize>,
    pub json: bool,
}

/// Runs `mettle sim`.
pub fn run(args: &Args) -> u8 {
    let _ = args;
    eprintln!("error: `mettle sim` is not ready yet");
    2
}
