//! The REPL over many lines: a session of N lines of mixed input (units made, events fired, checks
//! rolled, expressions shown, definitions typed) against one of 4N lines, whose time should be about
//! four times as long; and one small event among 100 and among 10,000 units, which should cost the
//! same (a step costs what it changes, not what is in play). Last, a definition typed over 1 MB of
//! rules against loading them once: the ruleset is compiled again whole, so about the same.

#[path = "gen/mod.rs"]
#[allow(dead_code, reason = "each benchmark uses part of the generator")]
mod generate;

use criterion::{Criterion, criterion_group, criterion_main};
use mettle::internals::repl::Repl;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn ruleset() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/infinite_frontiers.mettle")
}

/// A REPL with the Infinite Frontiers rules loaded and one side in play.
fn loaded() -> Repl {
    let mut r = Repl::new(1, false, 80);
    assert!(!r.handle(&format!(":load {}", ruleset().display())).failed);
    assert!(!r.handle("new side blue").failed);
    r
}

/// Line `i` of a realistic session: five kinds of input in turn.
fn line(i: usize) -> String {
    let k = i / 5;
    match i % 5 {
        0 => format!("new unit u{k} with side = blue"),
        1 => format!("trigger wounded(unit: u{k}, loss: 1)"),
        2 => format!(":roll morale for u{k} spi=2"),
        3 => format!("u{k}.hp + {k}"),
        _ => format!("define bonus{k}(x: 0..) = x + {k}"),
    }
}

/// Plays `n` lines into a freshly loaded REPL.
fn session(n: usize) -> Repl {
    let mut r = loaded();
    for i in 0..n {
        let l = line(i);
        let reply = r.handle(&l);
        assert!(!reply.failed, "{l}: {}", reply.err);
    }
    r
}

/// A REPL restored from a save with `units` units on one side (written through the save format, so
/// that setting it up costs the same before and after any change to how steps are kept).
fn crowded(units: usize) -> Repl {
    let rules = mettle::Ruleset::from_str("if.mettle", &std::fs::read_to_string(ruleset()).unwrap()).unwrap();
    let mut s = mettle::Session::new(&rules, 1);
    let side = s.create("side", "blue", &[]).unwrap();
    s.create("unit", "u0", &[("side", mettle::Value::Entity(side))]).unwrap();
    let mut save: serde_json::Value = serde_json::from_str(&s.save()).unwrap();
    let ents = save["state"]["entities"].as_array_mut().unwrap();
    let unit = ents[1].clone();
    for i in 1..units {
        let mut u = unit.clone();
        u["name"] = format!("u{i}").into();
        ents.push(u);
    }
    let path = std::env::temp_dir().join(format!("mettle-bench-repl-{}-{units}.json", std::process::id()));
    std::fs::write(&path, save.to_string()).unwrap();
    let mut r = loaded();
    let reply = r.handle(&format!(":restore {}", path.display()));
    assert!(!reply.failed, "{}", reply.err);
    let _ = std::fs::remove_file(&path);
    r
}

fn repl(c: &mut Criterion) {
    let mut g = c.benchmark_group("repl/lines");
    g.sample_size(10);
    for n in [250, 1000] {
        g.bench_function(format!("{n} lines"), |b| b.iter(|| black_box(session(n))));
    }
    g.finish();
    let mut g = c.benchmark_group("repl/step");
    for units in [100, 10_000] {
        let mut r = crowded(units);
        let u = units / 2;
        // An attack rolls the unit's skill: the generator and the check's last result change.
        let event = format!(":event attack unit=u{u}");
        g.bench_function(format!("event among {units} units"), |b| {
            b.iter(|| black_box(r.handle(black_box(&event))))
        });
        // One attribute of one unit changes, back and forth.
        let sets = [format!("set u{u}.spi to 2"), format!("set u{u}.spi to 3")];
        let mut i = 0;
        g.bench_function(format!("set among {units} units"), |b| {
            b.iter(|| {
                i += 1;
                black_box(r.handle(black_box(&sets[i % 2])))
            })
        });
        g.bench_function(format!("event and undo among {units} units"), |b| {
            b.iter(|| {
                black_box(r.handle(black_box(&event)));
                black_box(r.handle(":undo"))
            })
        });
    }
    g.finish();
    linear();
}

/// Best of three sessions of N and of 4N lines, the ratio of their times, and the time of one step
/// among 100 and among 10,000 units.
fn linear() {
    let best = |f: &dyn Fn()| {
        (0..3)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
    };
    let (n, four) = (best(&|| drop(session(250))), best(&|| drop(session(1000))));
    println!("repl/lines: 250 lines in {n:.3} s, 1000 lines in {four:.3} s: {:.2}x the time", four / n);
    let step = |units: usize| {
        let mut r = crowded(units);
        let event = format!(":event attack unit=u{}", units / 2);
        let runs = 200;
        let t = Instant::now();
        for _ in 0..runs {
            black_box(r.handle(&event));
        }
        t.elapsed().as_secs_f64() / runs as f64
    };
    let (few, many) = (step(100), step(10_000));
    let text = generate::rules(1 << 20);
    let path = std::env::temp_dir().join(format!("mettle-bench-repl-{}.mettle", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    let mut r = Repl::new(1, false, 80);
    assert!(!r.handle(&format!(":load {}", path.display())).failed);
    let load = best(&|| drop(black_box(mettle::Ruleset::from_str("big.mettle", &text).unwrap())));
    let mut k = 0;
    let define = (0..3)
        .map(|_| {
            k += 1;
            let t = Instant::now();
            let reply = r.handle(&format!("define typed{k}(x: 0..) = x + {k}"));
            assert!(!reply.failed, "{}", reply.err);
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min);
    let t = Instant::now();
    black_box(r.handle("1 + 1"));
    let line = t.elapsed().as_secs_f64();
    let _ = std::fs::remove_file(&path);
    println!(
        "repl/1 MB: loading in {:.0} ms, a typed definition in {:.0} ms ({:.2}x), an expression line in {:.0} ms",
        load * 1e3,
        define * 1e3,
        define / load,
        line * 1e3
    );
    println!(
        "repl/step: an event among 100 units in {:.1} µs, among 10,000 in {:.1} µs: {:.2}x the time",
        few * 1e6,
        many * 1e6,
        many / few
    );
}

criterion_group!(benches, repl);
criterion_main!(benches);
