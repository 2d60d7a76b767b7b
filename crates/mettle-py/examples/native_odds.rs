//! The Rust side of `bench/bench.py`: times the odds call `Ruleset.odds` makes (a new session, a
//! stand-in for the check's maker, `mettle::odds::ask`) with no Python around it, and prints the
//! microseconds per call.
//!
//! cargo run --profile wheel -p mettle-py --example native_odds -- FILE CHECK INPUT=N CALLS

use mettle::{Ruleset, Session, Value};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, check, input, calls] = &args[..] else {
        eprintln!("usage: native_odds FILE CHECK INPUT=N CALLS");
        std::process::exit(2);
    };
    let rules = Ruleset::from_path(file).unwrap_or_else(|e| panic!("{}", e.render(100)));
    let (name, n) = input.split_once('=').expect("INPUT=N");
    let inputs = [(name, Value::Int(n.parse().expect("a number")))];
    let calls: u32 = calls.parse().expect("a count");
    let outline = mettle::export::outline(&rules);
    let maker = outline["checks"]
        .as_array()
        .and_then(|cs| cs.iter().find(|c| c["name"] == check.as_str()))
        .and_then(|c| c["made_by"].as_str().map(String::from));
    let ask = || {
        let mut s = Session::new(&rules, 0);
        s.set_logging(false);
        let subject = maker.as_ref().map(|k| s.stand_in(k, k, &[]).expect("a stand-in"));
        mettle::odds::ask(&mut s, check, subject, &inputs, 0).expect("odds")
    };
    for _ in 0..calls / 10 + 1 {
        std::hint::black_box(ask());
    }
    let start = Instant::now();
    for _ in 0..calls {
        std::hint::black_box(ask());
    }
    println!("{:.2}", start.elapsed().as_secs_f64() * 1e6 / f64::from(calls));
}
