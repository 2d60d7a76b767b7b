//! Exact dice odds against baselines measured in the same run: the naive one-die-at-a-time
//! convolution for sums, every roll listed for a small keep, and the closed form for the best of 20d20.

use criterion::{Criterion, criterion_group, criterion_main};
use mettle::dice::Faces;
use mettle::internals::ast::DiceMod;
use mettle::internals::odds::pool::term;
use num_bigint::BigUint;
use std::hint::black_box;

/// `n`dN by adding one die at a time: `n · 6n` big additions.
fn one_die_at_a_time(n: usize, sides: usize) -> Vec<BigUint> {
    let mut w = vec![BigUint::from(1u32)];
    for _ in 0..n {
        let mut next = vec![BigUint::default(); w.len() + sides - 1];
        for (i, x) in w.iter().enumerate() {
            for slot in &mut next[i..i + sides] {
                *slot += x;
            }
        }
        w = next;
    }
    w
}

/// Every roll of `n`d6, keeping the `k` highest: `6^n` rolls.
fn every_roll_keep(n: u32, k: usize) -> Vec<u64> {
    let mut counts = vec![0u64; 6 * k + 1];
    let mut faces = vec![0usize; n as usize];
    for mut r in 0..6usize.pow(n) {
        for f in faces.iter_mut() {
            *f = r % 6 + 1;
            r /= 6;
        }
        faces.sort_unstable_by(|a, b| b.cmp(a));
        counts[faces[..k].iter().sum::<usize>()] += 1;
    }
    counts
}

/// The best of 20d20 is at most `m` in `m^20` ways.
fn best_of_closed_form() -> Vec<BigUint> {
    (1..=20u32).map(|m| BigUint::from(m).pow(20) - BigUint::from(m - 1).pow(20)).collect()
}

fn sums(c: &mut Criterion) {
    let mut g = c.benchmark_group("1000d6");
    g.sample_size(10);
    g.bench_function("baseline: one die at a time", |b| b.iter(|| black_box(one_die_at_a_time(1000, 6))));
    g.bench_function("term", |b| b.iter(|| black_box(term(black_box(1000), Faces::Count(6), &[]).unwrap())));
    g.finish();
}

fn keeps(c: &mut Criterion) {
    let mut g = c.benchmark_group("6d6kh3");
    g.bench_function("baseline: every roll", |b| b.iter(|| black_box(every_roll_keep(6, 3))));
    let kh3 = [DiceMod::KeepHighest(3)];
    g.bench_function("term", |b| b.iter(|| black_box(term(black_box(6), Faces::Count(6), &kh3).unwrap())));
    g.finish();
    let mut g = c.benchmark_group("100d6kh50");
    g.sample_size(20);
    let kh50 = [DiceMod::KeepHighest(50)];
    g.bench_function("term", |b| b.iter(|| black_box(term(black_box(100), Faces::Count(6), &kh50).unwrap())));
    g.finish();
    let mut g = c.benchmark_group("20d20kh1");
    g.bench_function("baseline: closed form m^20 - (m-1)^20", |b| {
        b.iter(|| black_box(best_of_closed_form()))
    });
    let kh1 = [DiceMod::KeepHighest(1)];
    g.bench_function("term", |b| b.iter(|| black_box(term(black_box(20), Faces::Count(20), &kh1).unwrap())));
    g.finish();
}

criterion_group!(benches, sums, keeps);
criterion_main!(benches);
