//! Playing a scenario of 20,000 events with its log, and rendering that log as `mettle play` shows it:
//! both should take time in proportion to the log's length (baseline: 2,000 events in the same run).

#[path = "gen/mod.rs"]
#[allow(dead_code, reason = "each benchmark uses part of the generator")]
mod generate;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mettle::{Ruleset, Session};
use std::hint::black_box;

fn play(rules: &Ruleset) -> String {
    let mut s = Session::new(rules, 1);
    let report = s.run_scenario("long").unwrap();
    assert!(report.failures.is_empty());
    mettle::session::render_log(s.log(), rules.text())
}

fn log(c: &mut Criterion) {
    let mut g = c.benchmark_group("play/with log");
    g.sample_size(10);
    for n in [2_000, 20_000] {
        let rules = Ruleset::from_str("long.mettle", &generate::events(n)).unwrap();
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(format!("{n} events"), |b| b.iter(|| black_box(play(&rules))));
    }
    g.finish();
}

criterion_group!(benches, log);
criterion_main!(benches);
