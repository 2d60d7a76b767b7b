//! Parse + check + compile of each shipped ruleset, against a baseline in the same run: reading the
//! file's bytes into a String (what any loader must at least do).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn rulesets() -> Vec<(String, String)> {
    let dir = concat!(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."), "/rulesets");
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
        g.bench_function("parse", |b| b.iter(|| black_box(mettle::syntax::parse(black_box(&text)))));
        g.bench_function("parse + check + compile", |b| {
            b.iter(|| black_box(mettle::Ruleset::from_str(&name, black_box(&text)).unwrap()))
        });
        g.finish();
    }
}

criterion_group!(benches, load);
criterion_main!(benches);
