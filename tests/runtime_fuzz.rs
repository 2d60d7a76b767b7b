//! Random hosts driving every shipped ruleset: random events with random (in-range) facts and random
//! check rolls. Rules may refuse (an error), but never panic, and a refused step changes nothing.

use mettle::internals::RulesetInternals as _;
use mettle::internals::program::{Program, Ty};
use mettle::{Ruleset, Session, Value};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng as TestRng;

fn shipped() -> Vec<Ruleset> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mettle"))
        .collect();
    paths.sort();
    paths.iter().map(|p| Ruleset::from_path(p).unwrap()).collect()
}

/// A random value of `ty`, drawing entities from the first `entities` of the session.
fn value(p: &Program, ty: &Ty, entities: &[(u32, u32)], rng: &mut TestRng) -> Value {
    match ty {
        Ty::Int { lo, hi } => {
            let lo = lo.unwrap_or(-3).max(-20);
            let hi = hi.unwrap_or(lo + 12).min(lo + 30).max(lo);
            Value::Int(rng.random_range(lo..=hi))
        }
        Ty::Flag => Value::Bool(rng.random()),
        Ty::Name(set) => {
            let n = p.sets[*set as usize].names.len() as u32;
            Value::Name { set: *set, index: rng.random_range(0..n) }
        }
        Ty::Entity(k) => {
            let of_kind: Vec<u32> =
                entities.iter().filter(|(_, kind)| kind == k).map(|(id, _)| *id).collect();
            if of_kind.is_empty() || rng.random_ratio(1, 8) {
                Value::None
            } else {
                Value::Entity(of_kind[rng.random_range(0..of_kind.len())])
            }
        }
        Ty::Data => Value::Data(std::sync::Arc::new(data(rng, 0))),
        _ => Value::None,
    }
}

/// Random data of the shape a host describes a situation with: records of names, distances and
/// yes/no fields, lists of them, and now and then something unexpected.
fn data(rng: &mut TestRng, depth: u32) -> serde_json::Value {
    use serde_json::{Value as J, json};
    const KEYS: [&str; 12] = [
        "friends",
        "enemies",
        "cover",
        "target_points",
        "in_combat",
        "shoot_target",
        "guarding",
        "name",
        "distance",
        "reachable",
        "enemy_within_6",
        "one_move",
    ];
    match rng.random_range(0..10) {
        0..=3 if depth < 3 => {
            let n = rng.random_range(0..5);
            J::Object(
                (0..n)
                    .map(|_| (KEYS[rng.random_range(0..KEYS.len())].to_string(), data(rng, depth + 1)))
                    .collect(),
            )
        }
        4..=5 if depth < 3 => {
            let n = rng.random_range(0..4);
            J::Array((0..n).map(|_| data(rng, depth + 1)).collect())
        }
        6 => json!(rng.random_range(-2..30)),
        7 => json!(rng.random::<bool>()),
        8 => json!(format!("x{}", rng.random_range(0..4))),
        _ => J::Null,
    }
}

fn drive(rules: &Ruleset, seed: u64, steps: usize, rng: &mut TestRng) {
    let p = rules.program();
    let mut s = Session::new(rules, seed);
    let mut entities = vec![];
    // Two or three of every kind, with random attributes where the value fits.
    for (k, kind) in p.kinds.iter().enumerate() {
        for i in 0..rng.random_range(2..4) {
            let name = format!("{}{i}", kind.name);
            let mut with: Vec<(String, Value)> = vec![];
            for f in &kind.fields {
                if rng.random_ratio(1, 2) {
                    let v = value(p, &f.ty, &entities, rng);
                    if v != Value::None {
                        with.push((f.name.clone(), v));
                    }
                }
            }
            let refs: Vec<(&str, Value)> = with.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
            if let Ok(id) = s.create(&kind.name, &name, &refs) {
                entities.push((id, k as u32));
            }
        }
    }
    for _ in 0..steps {
        let before = s.state().clone();
        let log_len = s.log().len();
        let result = if rng.random_ratio(3, 4) {
            let e = &p.events[rng.random_range(0..p.events.len())];
            let facts: Vec<(String, Value)> =
                e.facts.iter().map(|f| (f.name.clone(), value(p, &f.ty, &entities, rng))).collect();
            let refs: Vec<(&str, Value)> = facts.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
            s.apply(&e.name, &refs).map(|_| ())
        } else {
            let c = &p.checks[rng.random_range(0..p.checks.len())];
            let inputs: Vec<(String, Value)> = c
                .inputs
                .iter()
                .map(|i| (i.field.name.clone(), value(p, &i.field.ty, &entities, rng)))
                .collect();
            let refs: Vec<(&str, Value)> = inputs.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
            s.roll(&c.name, &refs).map(|_| ())
        };
        if let Err(d) = result {
            // The rules may refuse, and so may a script given data it cannot read; nothing may crash.
            let clean = d.code.starts_with("mettle::run::")
                || (d.code.starts_with("mettle::script::") && d.code != "mettle::script::panicked");
            assert!(clean, "{}: {d:?}", rules.name());
            assert!(
                s.state() == &before && s.log().len() == log_len,
                "{}: a refused step changed the session ({})",
                rules.name(),
                d.code
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_hosts_never_break_a_session(seed in any::<u64>(), steps in 1usize..60) {
        let mut rng = TestRng::seed_from_u64(seed);
        for rules in shipped() {
            drive(&rules, seed, steps, &mut rng);
        }
    }
}
