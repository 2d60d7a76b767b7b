//! Parse + check + compile of each shipped ruleset, against a baseline in the same run: reading the
//! file's bytes into a String (what any loader must at least do). Then generated rules of 1 MB and
//! 4 MB, whose times should stand in the ratio of their sizes, and a scenario of 20,000 `new` lines.

#[path = "gen/mod.rs"]
#[allow(dead_code, reason = "each benchmark uses part of the generator")]
mod generate;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Instant;

fn rulesets() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets");
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("rulesets/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "mettle"))
        .map(|p| {
            (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

fn load(c: &mut Criterion) {
    for (name, text) in rulesets() {
        let mut g = c.benchmark_group(format!("load/{name}"));
        g.bench_function("baseline: copy text", |b| b.iter(|| black_box(text.clone())));
        g.bench_function("parse", |b| {
            b.iter(|| black_box(mettle::internals::syntax::parse(black_box(&text))))
        });
        g.bench_function("parse + check + compile", |b| {
            b.iter(|| black_box(mettle::Ruleset::from_str(&name, black_box(&text)).unwrap()))
        });
        g.finish();
    }
    let mut g = c.benchmark_group("load/generated");
    g.sample_size(10);
    for mb in [1, 4] {
        let text = generate::rules(mb << 20);
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(format!("{mb} MB"), |b| {
            b.iter(|| black_box(mettle::Ruleset::from_str("big.mettle", black_box(&text)).unwrap()))
        });
    }
    let text = generate::news(20_000);
    g.throughput(Throughput::Elements(20_000));
    g.bench_function("20000 new lines", |b| {
        b.iter(|| black_box(mettle::Ruleset::from_str("news.mettle", black_box(&text)).unwrap()))
    });
    g.finish();
    linear();
}

/// Best of three loads of 1 MB and of 4 MB of rules, and the ratio of their times.
fn linear() {
    let best = |text: &str| {
        (0..3)
            .map(|_| {
                let t = Instant::now();
                black_box(mettle::Ruleset::from_str("big.mettle", text).unwrap());
                t.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
    };
    let (one, four) = (best(&generate::rules(1 << 20)), best(&generate::rules(4 << 20)));
    println!("load/generated: 1 MB in {one:.3} s, 4 MB in {four:.3} s: {:.2}x the time", four / one);
}

criterion_group!(benches, load);
criterion_main!(benches);
