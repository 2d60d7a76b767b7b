//! Sampling and exact odds of the shipped checks, each against a baseline in the same run:
//! - the Infinite Frontiers morale check sampled through a session, against a hand-written Rust
//!   function rolling the same dice with the same generator (target: under 3× it, over 20 million
//!   checks a second), and against a full quiet roll of the rules;
//! - the exact odds of every shipped check (target: each under 1 ms), against settling one roll.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mettle::internals::{RulesetInternals as _, SessionInternals as _};
use mettle::{Ruleset, Session, Value};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

fn rules(name: &str) -> Ruleset {
    Ruleset::from_path(format!("{}/rulesets/{name}.mettle", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The morale check written by hand: a base d6 and `extra` more, plus SPI, against 7; a natural 1
/// breaks. Outcome indices as the ruleset orders them (broken, steady, shaken).
#[inline]
fn by_hand(rng: &mut ChaCha8Rng, spi: i64, extra: usize) -> usize {
    let base = rng.random_range(1..=6i64);
    let mut total = base + spi;
    for _ in 0..extra {
        total += rng.random_range(1..=6i64);
    }
    if base == 1 {
        0
    } else if total >= 7 {
        1
    } else {
        2
    }
}

fn sampling(c: &mut Criterion) {
    let r = rules("infinite_frontiers");
    let mut s = Session::new(&r, 1);
    s.set_logging(false);
    let unit = s.create("unit", "u", &[]).unwrap();
    let inputs = [("spi", Value::Int(2)), ("leadership", Value::Int(1))];
    let sampler = s.sampler("morale", Some(unit), &inputs).unwrap().unwrap();
    let (id, args) = s.resolve("morale", &inputs).unwrap();
    let mut g = c.benchmark_group("sample/infinite_frontiers morale (spi 2, leadership 1)");
    g.throughput(Throughput::Elements(1));
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    g.bench_function("baseline: hand-written Rust", |b| b.iter(|| black_box(by_hand(&mut rng, 2, 1))));
    g.bench_function("session sampler", |b| b.iter(|| black_box(s.sample(&sampler))));
    g.bench_function("session: full quiet roll of the rules", |b| {
        b.iter(|| black_box(s.roll_quietly(id, Some(unit), &args).unwrap().outcome))
    });
    g.finish();
}

/// A ruleset, a check, and its inputs.
type Case = (&'static str, &'static str, Vec<(&'static str, Value)>);

fn exact(c: &mut Criterion) {
    let cases: [Case; 7] = [
        (
            "infinite_frontiers",
            "morale",
            vec![
                ("spi", Value::Int(2)),
                ("leadership", Value::Int(3)),
                ("comms", Value::Bool(true)),
                ("inspired", Value::Bool(true)),
                ("extra_die", Value::Bool(true)),
            ],
        ),
        ("infinite_frontiers", "skill", vec![("dice_pool", Value::Int(20))]),
        ("dice_pool_morale", "morale", vec![("base", Value::Int(4)), ("bonus", Value::Int(3))]),
        ("combat_hq", "command_roll", vec![]),
        ("shadow_deep_stress", "morale_test", vec![("stress", Value::Int(3)), ("will", Value::Int(2))]),
        ("traveller_morale", "morale", vec![("dm", Value::Int(1))]),
        ("combat_hq", "dispersal", vec![]),
    ];
    let mut g = c.benchmark_group("exact odds");
    for (file, check, inputs) in cases {
        let r = rules(file);
        let mut s = Session::new(&r, 1);
        let p = r.program();
        let decl = p.checks.iter().find(|c| c.name == check).unwrap();
        let who = decl.subject.map(|k| {
            let kind = &p.kinds[k as usize];
            let with: Vec<(&str, Value)> = if kind.name == "group" {
                vec![("command_dice", Value::Int(6)), ("mp", Value::Int(2))]
            } else {
                vec![]
            };
            s.create(&kind.name, "u", &with).unwrap()
        });
        let mut inputs = inputs;
        if check == "morale" && file == "traveller_morale" {
            let set = p.sets.iter().position(|s| s.name == "difficulty").unwrap() as u32;
            inputs.push(("difficulty", Value::Name { set, index: 2 }));
        }
        g.bench_function(format!("{file} {check}"), |b| {
            b.iter(|| black_box(mettle::odds::ask(&mut s, check, who, &inputs, 0).unwrap()))
        });
        if check == "morale" && file == "infinite_frontiers" {
            let (id, args) = s.resolve(check, &inputs).unwrap();
            g.bench_function(format!("baseline: one quiet roll of {file} {check}"), |b| {
                b.iter(|| black_box(s.roll_quietly(id, who, &args).unwrap().outcome))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, sampling, exact);
criterion_main!(benches);
