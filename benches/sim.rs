//! Games per second of each shipped random scenario, with one worker thread and with two in the same
//! run, and of the same game written by hand in Rust (`hand/`); after the criterion groups, a direct
//! timing prints the speed-up of two threads over one and how many times slower than by hand.

#[path = "hand/firefight.rs"]
#[allow(dead_code, reason = "the test of the baseline uses more of it than the benchmark")]
mod firefight;
#[path = "hand/morale_race.rs"]
#[allow(dead_code, reason = "the test of the baseline uses more of it than the benchmark")]
mod morale_race;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mettle::internals::sim::{CHUNK, mix};
use mettle::sim::{self, Options, Target};
use std::hint::black_box;
use std::time::Instant;

// The same allocator as the `mettle` binary.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The shipped scenarios that end by chance.
const RANDOM: [(&str, &str); 2] =
    [("combat_hq.mettle", "morale_race"), ("infinite_frontiers.mettle", "firefight")];

/// Games per criterion iteration: enough chunks for two threads to share evenly.
const RUNS: u64 = 16_384;

fn rules(file: &str) -> mettle::Ruleset {
    mettle::Ruleset::from_path(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets").join(file))
        .expect("shipped ruleset loads")
}

fn play(r: &mettle::Ruleset, scenario: &str, runs: u64, threads: usize) -> sim::Report {
    let opts = Options { runs, seed: 1, threads };
    sim::simulate(r, &Target::Scenario(scenario.into()), &opts, &|_| {}).expect("scenario exists")
}

/// The hand-written game for a scenario, if there is one: `RUNS` games seeded as a simulation seeds
/// them, their ends counted.
fn by_hand(scenario: &str) -> Option<fn(u64) -> u64> {
    match scenario {
        "morale_race" => Some(|runs| {
            let mut ends = [0u64; 5];
            for i in 0..runs {
                let chunk = mix(1, i / CHUNK);
                let g = morale_race::play(mix(chunk, i % CHUNK));
                ends[match g.end {
                    morale_race::End::Draw => 0,
                    morale_race::End::Major(w) => 1 + w,
                    morale_race::End::Minor(w) => 3 + w,
                }] += 1;
            }
            ends.iter().sum()
        }),
        "firefight" => Some(|runs| {
            let mut ends = [0u64; 3];
            for i in 0..runs {
                let chunk = mix(1, i / CHUNK);
                let g = firefight::play(mix(chunk, i % CHUNK));
                ends[match g.end {
                    firefight::End::Drawn => 0,
                    firefight::End::Won(w) => 1 + w,
                }] += 1;
            }
            ends.iter().sum()
        }),
        _ => None,
    }
}

fn games(c: &mut Criterion) {
    for (file, scenario) in RANDOM {
        let r = rules(file);
        let mut g = c.benchmark_group(format!("sim/{scenario}"));
        g.throughput(Throughput::Elements(RUNS));
        g.sample_size(20);
        for threads in [1, 2] {
            g.bench_function(format!("{threads} thread{}", if threads == 1 { "" } else { "s" }), |b| {
                b.iter(|| black_box(play(&r, scenario, RUNS, threads)))
            });
        }
        if let Some(hand) = by_hand(scenario) {
            g.bench_function("hand-written", |b| b.iter(|| black_box(hand(black_box(RUNS)))));
        }
        g.finish();
    }
    speedup();
}

/// Best of five timings of 16384 games with one thread and with two, and the ratio of their speeds.
fn speedup() {
    for (file, scenario) in RANDOM {
        let r = rules(file);
        let best = |threads: usize| {
            (0..5)
                .map(|_| {
                    let t = Instant::now();
                    black_box(play(&r, scenario, 4 * RUNS, threads));
                    t.elapsed().as_secs_f64()
                })
                .fold(f64::INFINITY, f64::min)
        };
        let (one, two) = (best(1), best(2));
        let per_sec = |s: f64| 4.0 * RUNS as f64 / s;
        let hand = by_hand(scenario).map(|hand| {
            let fastest = (0..5)
                .map(|_| {
                    let t = Instant::now();
                    black_box(hand(black_box(4 * RUNS)));
                    t.elapsed().as_secs_f64()
                })
                .fold(f64::INFINITY, f64::min);
            format!("; by hand {:.0} games/s, {:.1}x faster than 1 thread", per_sec(fastest), one / fastest)
        });
        println!(
            "sim/{scenario}: {:.0} games/s on 1 thread, {:.0} on 2: {:.2}x{}",
            per_sec(one),
            per_sec(two),
            one / two,
            hand.unwrap_or_default()
        );
    }
}

criterion_group!(benches, games);
criterion_main!(benches);
