//! Samples the Infinite Frontiers morale check many times for each SPI and prints how often each
//! outcome came up next to its exact chance.
//!
//! Run with `cargo run --release --example frequencies [ROLLS]`.

use mettle::{Ruleset, Session, Value};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rolls: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let rules =
        Ruleset::from_path(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/infinite_frontiers.mettle"))
            .map_err(|e| e.render(100))?;
    let mut session = Session::new(&rules, 1);
    session.set_logging(false);
    let unit = session.create("unit", "u", &[])?;
    let start = Instant::now();
    println!("SPI  outcome   sampled      exact");
    for spi in 0..=6 {
        let inputs = [("spi", Value::Int(spi))];
        // A sampler rolls the check's dice and reads its outcome from the exact analysis.
        let sampler = session.sampler("morale", Some(unit), &inputs)?.ok_or("out of exact reach")?;
        let mut counts = vec![0u32; 3];
        for _ in 0..rolls {
            counts[session.sample(&sampler)] += 1;
        }
        let report = mettle::odds::ask(&mut session, "morale", Some(unit), &inputs, 0)?;
        for (o, n) in report.outcomes.iter().zip(&counts) {
            let sampled = 100.0 * f64::from(*n) / f64::from(rolls);
            println!("{spi:>3}  {:8} {sampled:6.2}%  {:6.2}%", o.name, 100.0 * o.chance.value());
        }
    }
    let n = 7 * rolls;
    let secs = start.elapsed().as_secs_f64();
    println!("{n} checks in {secs:.2} s: {:.0} checks a second", f64::from(n) / secs);
    Ok(())
}
