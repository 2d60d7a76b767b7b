//! Rolls the Infinite Frontiers morale check many times with the log off, and prints how often each
//! outcome came up for each SPI. (Exact odds are a later feature; this samples.)
//!
//! Run with `cargo run --release --example frequencies [ROLLS]`.

use mettle::{Ruleset, Session, Value};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rolls: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let rules =
        Ruleset::from_path(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/infinite_frontiers.mettle"))
            .map_err(|e| e.render(100))?;
    let p = rules.program();
    let check = p.checks.iter().position(|c| c.name == "morale").ok_or("no morale check")? as u32;
    let spi =
        p.checks[check as usize].inputs.iter().position(|i| i.field.name == "spi").ok_or("no spi")? as u32;
    let mut session = Session::new(&rules, 1);
    session.set_logging(false);
    let start = Instant::now();
    println!("SPI  steady  shaken  broken");
    for s in 0..=6 {
        let mut counts = std::collections::BTreeMap::new();
        for _ in 0..rolls {
            let r = session.roll_id(check, vec![(spi, Value::Int(s))])?;
            *counts.entry(r.outcome.clone()).or_insert(0u32) += 1;
        }
        let pct = |o: &str| 100.0 * f64::from(*counts.get(o).unwrap_or(&0)) / f64::from(rolls);
        println!("{s:>3}  {:5.1}%  {:5.1}%  {:5.1}%", pct("steady"), pct("shaken"), pct("broken"));
    }
    let n = 7 * rolls;
    let secs = start.elapsed().as_secs_f64();
    println!("{n} checks in {secs:.2} s: {:.0} checks a second", f64::from(n) / secs);
    Ok(())
}
