//! `mettle odds FILE CHECK`: the exact chance of every outcome of a check, with sweeps over inputs.

use std::path::PathBuf;

/// The command line of `mettle odds` for a check.
pub struct Args {
    pub file: PathBuf,
    pub check: String,
    pub set: Vec<String>,
    pub with: Vec<String>,
    pub sweep: Vec<String>,
    pub json: bool,
    pub plot: Option<PathBuf>,
    pub seed: u64,
}

/// Runs `mettle odds` for a check.
pub fn run(args: &Args) -> u8 {
    let _ = args;
    eprintln!("error: `mettle odds` is not ready yet");
    2
}

/// Prints one report: bars in a terminal, JSON with `--json`, and an SVG chart with `--plot`.
pub fn print_report(report: &mettle::odds::Report, json: bool, plot: Option<&std::path::Path>) -> u8 {
    let _ = (json, plot);
    for o in &report.outcomes {
        println!("{} {:?}", o.name, o.chance);
    }
    0
}
