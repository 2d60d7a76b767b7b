//! `mettle roll --dice` and `mettle odds --dice`: mettle as a dice calculator.

use std::path::Path;

/// Rolls a bare dice expression once and shows the dice.
pub fn roll(expr: &str, seed: u64, json: bool) -> u8 {
    let _ = (expr, seed, json);
    eprintln!("error: `--dice` is not ready yet");
    2
}

/// The exact distribution of a bare dice expression.
pub fn odds(expr: &str, json: bool, plot: Option<&Path>) -> u8 {
    let _ = (expr, json, plot);
    eprintln!("error: `--dice` is not ready yet");
    2
}
