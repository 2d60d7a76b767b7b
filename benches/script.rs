//! What a script costs, against a baseline in the same run: the same morale test with its target
//! worked out natively (`6 + triangular(stress)`) and by a script function, and one reaction call
//! (`follow`) applying two actions, against the same event with the changes written as rules.

use criterion::{Criterion, criterion_group, criterion_main};
use mettle::internals::{RulesetInternals as _, SessionInternals as _};
use mettle::{Ruleset, Session, Value};
use std::hint::black_box;

const RULES: &str = r#"
kind creature { stress: 0..20 = 3, stance: calm | wary = calm }
event native(c: creature)
event scripted(c: creature, seen: data)
script {
  fn tn(n) { 6 + n * (n + 1) / 2 }
  fn react(c, seen) {
    let near = ();
    for e in seen.enemies { if near == () || e.distance < near.distance { near = e; } }
    [set_to(c, "stance", "wary"), move_away_from(near)]
  }
}
check native_test { input stress: 0..20  roll d20  target 6 + triangular(stress)  outcome pass when total >= target  otherwise fail }
check script_test { input stress: 0..20  roll d20  target tn(stress)  outcome pass when total >= target  otherwise fail }
on native { set c.stance to wary  note "move away from hound" }
on scripted { follow react(c, seen) }
"#;

fn checks(c: &mut Criterion) {
    let rules = Ruleset::from_str("bench.mettle", RULES).unwrap();
    let id = |name: &str| rules.program().checks.iter().position(|c| c.name == name).unwrap() as u32;
    let (native, script) = (id("native_test"), id("script_test"));
    let mut s = Session::new(&rules, 1);
    s.set_logging(false);
    let mut g = c.benchmark_group("script/check target");
    g.bench_function("baseline: native formula", |b| {
        b.iter(|| black_box(s.roll_id(native, vec![(0, Value::Int(3))]).unwrap()))
    });
    g.bench_function("script function", |b| {
        b.iter(|| black_box(s.roll_id(script, vec![(0, Value::Int(3))]).unwrap()))
    });
    g.finish();
}

fn reactions(c: &mut Criterion) {
    let rules = Ruleset::from_str("bench.mettle", RULES).unwrap();
    let mut s = Session::new(&rules, 1);
    s.set_logging(false);
    s.create("creature", "orc", &[]).unwrap();
    let seen: serde_json::Value = serde_json::json!({
        "enemies": [{"name": "ranger", "distance": 8}, {"name": "hound", "distance": 3}]
    });
    let seen = Value::Data(std::sync::Arc::new(seen));
    let orc = Value::Entity(0);
    let mut g = c.benchmark_group("script/reaction");
    g.bench_function("baseline: the same changes as rules", |b| {
        b.iter(|| s.apply("native", &[("c", orc.clone())]).unwrap())
    });
    g.bench_function("follow a reaction", |b| {
        b.iter(|| s.apply("scripted", &[("c", orc.clone()), ("seen", seen.clone())]).unwrap())
    });
    g.finish();
}

criterion_group!(benches, checks, reactions);
criterion_main!(benches);
