//! A saved and reloaded session continues exactly as the original would have.

use mettle::{Ruleset, Session, Value};
use proptest::prelude::*;
use std::sync::OnceLock;

fn rules() -> &'static Ruleset {
    static R: OnceLock<Ruleset> = OnceLock::new();
    R.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/infinite_frontiers.mettle");
        Ruleset::from_path(path).expect("the shipped ruleset loads")
    })
}

/// One step a host could take.
#[derive(Debug, Clone)]
enum Step {
    Time(&'static str),
    Engaged { unit: usize, enemies: i64, leadership: i64 },
    Damaged { unit: usize, hp_lost: i64 },
    Destroyed { unit: usize, distance: i64 },
    Activation { unit: usize },
    Assign { side: usize },
    Roll { spi: i64, leadership: i64 },
}

const UNITS: [&str; 4] = ["u1", "u2", "u3", "u4"];
const SIDES: [&str; 2] = ["red", "blue"];

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        prop::sample::select(vec!["round_start", "turn_start", "turn_end", "round_end"]).prop_map(Step::Time),
        (0..4usize, 0..4i64, 0..4i64).prop_map(|(unit, enemies, leadership)| Step::Engaged {
            unit,
            enemies,
            leadership
        }),
        (0..4usize, 0..8i64).prop_map(|(unit, hp_lost)| Step::Damaged { unit, hp_lost }),
        (0..4usize, 0..10i64).prop_map(|(unit, distance)| Step::Destroyed { unit, distance }),
        (0..4usize).prop_map(|unit| Step::Activation { unit }),
        (0..2usize).prop_map(|side| Step::Assign { side }),
        (0..7i64, 0..4i64).prop_map(|(spi, leadership)| Step::Roll { spi, leadership }),
    ]
}

fn setup(seed: u64) -> Session {
    let mut s = Session::new(rules(), seed);
    for side in SIDES {
        s.create("side", side, &[]).unwrap();
    }
    for (i, u) in UNITS.iter().enumerate() {
        let side = Value::Entity(s.entity(SIDES[i % 3 / 2]).unwrap());
        s.create("unit", u, &[("side", side), ("spi", Value::Int(i as i64 + 1))]).unwrap();
    }
    s
}

fn apply(s: &mut Session, step: &Step) {
    let ent = |s: &Session, n: &str| Value::Entity(s.entity(n).unwrap());
    // Errors (such as a strict counter pushed past its cap) are part of the behaviour under test: the
    // session must come out of them unchanged, in the original and the reloaded copy alike.
    let _ = match step {
        Step::Time(e) => s.apply(e, &[]),
        Step::Engaged { unit, enemies, leadership } => {
            let u = ent(s, UNITS[*unit]);
            s.apply(
                "engaged",
                &[("unit", u), ("enemies", Value::Int(*enemies)), ("leadership", Value::Int(*leadership))],
            )
        }
        Step::Damaged { unit, hp_lost } => {
            let u = ent(s, UNITS[*unit]);
            s.apply("damaged", &[("unit", u), ("hp_lost", Value::Int(*hp_lost))])
        }
        Step::Destroyed { unit, distance } => {
            let u = ent(s, UNITS[*unit]);
            s.apply(
                "friend_destroyed",
                &[("unit", u), ("distance", Value::Int(*distance)), ("in_sight", Value::Bool(true))],
            )
        }
        Step::Activation { unit } => {
            let u = ent(s, UNITS[*unit]);
            s.apply("activation", &[("unit", u)])
        }
        Step::Assign { side } => {
            let sd = ent(s, SIDES[*side]);
            s.apply("assign_ap", &[("side", sd)])
        }
        Step::Roll { spi, leadership } => {
            s.roll("morale", &[("spi", Value::Int(*spi)), ("leadership", Value::Int(*leadership))])
        }
    };
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn reloaded_session_continues_identically(seed in any::<u64>(), steps in prop::collection::vec(step(), 1..40), cut in 0usize..40) {
        let cut = cut.min(steps.len());
        let mut original = setup(seed);
        for s in &steps {
            apply(&mut original, s);
        }
        let mut first = setup(seed);
        for s in &steps[..cut] {
            apply(&mut first, s);
        }
        let saved = first.save();
        let mut resumed = Session::load(rules(), &saved).unwrap();
        for s in &steps[cut..] {
            apply(&mut resumed, s);
        }
        prop_assert_eq!(original.state(), resumed.state());
        prop_assert_eq!(original.log(), resumed.log());
    }
}

#[test]
fn same_seed_same_log() {
    let run = |seed| {
        let mut s = setup(seed);
        for _ in 0..20 {
            s.roll("morale", &[("spi", Value::Int(2))]).unwrap().rolled.unwrap();
        }
        s.save()
    };
    assert_eq!(run(11), run(11));
    assert_ne!(run(11), run(12));
}

#[test]
fn a_failed_event_changes_nothing() {
    let mut s = setup(3);
    let u = Value::Entity(s.entity("u1").unwrap());
    s.apply("turn_start", &[]).unwrap();
    let before = s.save();
    // u1's `ap` is strict 0..1: setting it past the cap is an error, and the event is undone whole.
    let err = s.create("unit", "u1", &[]).unwrap_err();
    assert_eq!(err.code, "mettle::run::duplicate");
    // A fact outside its declared range is refused, and nothing changes.
    let err = s.apply("engaged", &[("unit", u), ("enemies", Value::Int(-1))]).unwrap_err();
    assert_eq!(err.code, "mettle::run::out_of_range");
    assert_eq!(s.save(), before);
}

#[test]
fn saving_a_loaded_session_gives_the_same_text() {
    let mut s = setup(5);
    let red = Value::Entity(s.entity("red").unwrap());
    s.apply("turn_start", &[]).unwrap();
    s.apply("assign_ap", &[("side", red)]).unwrap();
    s.roll("morale", &[("spi", Value::Int(2))]).unwrap().rolled.unwrap();
    let saved = s.save();
    let loaded = Session::load(rules(), &saved).unwrap();
    assert_eq!(loaded.save(), saved);
}

#[test]
fn loading_rejects_other_rulesets_and_garbage() {
    let other = Ruleset::from_str("other.mettle", "kind thing { size: 0..3 = 1 }").unwrap();
    let saved = setup(1).save();
    assert_eq!(Session::load(&other, &saved).unwrap_err().code, "mettle::save::other_ruleset");
    assert_eq!(Session::load(rules(), "{ not json").unwrap_err().code, "mettle::save::not_a_save");
}

#[test]
fn an_event_that_fails_halfway_is_undone_whole() {
    let rules = Ruleset::from_str(
        "halfway.mettle",
        "kind unit { hits: 0..9 = 0  ap: 0..1 = 0, strict }
         event hit(unit: unit)
         on hit { add 1 to unit.hits  add 1 to unit.ap }",
    )
    .unwrap();
    let mut s = Session::new(&rules, 1);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    s.apply("hit", &[("unit", u.clone())]).unwrap();
    let before = s.save();
    let err = s.apply("hit", &[("unit", u)]).unwrap_err();
    assert_eq!(err.code, "mettle::run::out_of_bounds");
    assert_eq!(s.get("u", "hits"), Some(&Value::Int(1)), "the first change of the failed event is undone");
    assert_eq!(s.save(), before);
}

#[test]
fn a_tampered_save_is_refused_not_trusted() {
    let saved = setup(2).save();
    // u1's side (the first attribute of a unit) now points at an entity that does not exist.
    let mut v: serde_json::Value = serde_json::from_str(&saved).unwrap();
    v["state"]["entities"][2]["fields"][0] = serde_json::json!({ "Entity": 99 });
    let e = Session::load(rules(), &v.to_string()).unwrap_err();
    assert_eq!(e.code, "mettle::save::bad_value");
    let mut v: serde_json::Value = serde_json::from_str(&saved).unwrap();
    v["state"]["entities"][2]["fields"][8] = serde_json::json!({ "Name": { "set": 999, "index": 0 } });
    assert_eq!(Session::load(rules(), &v.to_string()).unwrap_err().code, "mettle::save::bad_value");
}
