//! Data shapes: data a host passes with an event is checked against its declared shape before any
//! rule sees it; bad data is a coded error naming the field path, and the session is unchanged.

use mettle::{Budget, LoadOptions, Ruleset, Session, Value};
use serde_json::json;
use std::sync::Arc;

const RULES: &str = r#"
kind creature { stress: 0..999 = 0 }
/// The table around a creature.
shape situation {
  in_combat: flag = no
  enemies: list of { name: text, distance: 0.., in_combat: flag = no } = []
  mood: calm | angry = calm
  shoot_target: text = none
}
event spotted(creature: creature, seen: situation)
script {
  fn enemies(s) { s.enemies.len() }
  fn fighting(s) { if s.in_combat { 1 } else { 0 } }
  fn flags_given(s) { let n = 0; for e in s.enemies { if e.in_combat == false { n += 1; } } n }
  fn no_target(s) { if s.shoot_target == () { 1 } else { 0 } }
}
on spotted {
  add enemies(seen) + fighting(seen) + flags_given(seen) + no_target(seen) to creature.stress
}
"#;

fn rules() -> Ruleset {
    Ruleset::from_str("shapes.mettle", RULES).unwrap_or_else(|e| panic!("{}", e.render(100)))
}

/// Applies `spotted` with `seen` to a fresh creature: the creature's stress after it, or the error.
fn spot(rules: &Ruleset, seen: serde_json::Value) -> Result<i64, mettle::Diagnostic> {
    let mut s = Session::new(rules, 1);
    let c = s.create("creature", "c", &[]).unwrap();
    let before = s.save();
    let r = s.apply("spotted", &[("creature", Value::Entity(c)), ("seen", Value::Data(Arc::new(seen)))]);
    match r {
        Ok(_) => Ok(s.get("c", "stress").and_then(Value::as_int).unwrap_or(-1)),
        Err(e) => {
            assert_eq!(s.save(), before, "bad data changed the session");
            Err(e)
        }
    }
}

fn error(seen: serde_json::Value) -> (String, String) {
    let e = spot(&rules(), seen).expect_err("the data must be refused");
    (e.code, e.message)
}

#[test]
fn fields_left_out_take_their_defaults_before_scripts_see_them() {
    // No enemies (0), not in combat (0), no flags to count (0), no shoot target (1).
    assert_eq!(spot(&rules(), json!({})).unwrap(), 1);
    // Two enemies, one with in_combat left out (counted as no), in combat, a target.
    let seen = json!({"in_combat": true, "shoot_target": "ranger",
        "enemies": [{"name": "a", "distance": 3}, {"name": "b", "distance": 0, "in_combat": true}]});
    assert_eq!(spot(&rules(), seen).unwrap(), 2 + 1 + 1);
    // `none` is the same as leaving a field out.
    assert_eq!(spot(&rules(), json!({"shoot_target": null, "enemies": null})).unwrap(), 1);
}

#[test]
fn bad_data_is_a_coded_error_naming_the_field_path() {
    let bad = |seen| error(seen);
    assert_eq!(
        bad(
            json!({"enemies": [{"name": "a", "distance": 1}, {"name": "b", "distance": 2}, {"name": "c", "distance": -1}]})
        ),
        (
            "mettle::data::out_of_range".into(),
            "fact `seen` of event `spotted`: `seen.enemies[2].distance` is -1, but it must be at least 0"
                .into()
        )
    );
    assert_eq!(
        bad(json!({"enemies": [{"distance": 1}]})),
        (
            "mettle::data::missing_field".into(),
            "fact `seen` of event `spotted`: `seen.enemies[0].name` is missing, and it has no default".into()
        )
    );
    assert_eq!(
        bad(json!({"in_combat": "yes"})),
        (
            "mettle::data::wrong_type".into(),
            "fact `seen` of event `spotted`: `seen.in_combat` is the text \"yes\", but it must be yes or no"
                .into()
        )
    );
    assert_eq!(
        bad(json!({"enemies": [{"name": "a", "distance": 1, "in_combt": true}]})),
        (
            "mettle::data::unknown_field".into(),
            "fact `seen` of event `spotted`: `seen.enemies[0]` has no field `in_combt`".into()
        )
    );
    assert_eq!(bad(json!({"mood": "angy"})).0, "mettle::data::unknown_name");
    assert_eq!(bad(json!({"enemies": {"name": "a"}})).0, "mettle::data::wrong_type");
    assert_eq!(bad(json!({"enemies": [{"name": "a", "distance": 1.5}]})).0, "mettle::data::wrong_type");
    assert_eq!(bad(json!([1, 2])).0, "mettle::data::wrong_type");
    let e = spot(&rules(), json!({"enemies": [{"distance": 1}]})).unwrap_err();
    assert_eq!(e.help.as_deref(), Some("give `name`: text"));
    let e = spot(&rules(), json!({"enemies": [{"name": "a", "distance": 1, "in_combt": true}]})).unwrap_err();
    assert_eq!(e.help.as_deref(), Some("did you mean `in_combat`?"));
}

#[test]
fn huge_lists_and_deep_nesting_are_bounded() {
    // 100,000 values by default: a list of 60,000 records of two fields is 180,001 values.
    let many: Vec<_> = (0..60_000).map(|i| json!({"name": "e", "distance": i})).collect();
    let (code, message) = error(json!({"enemies": many}));
    assert_eq!(code, "mettle::data::too_large");
    assert!(message.ends_with("`seen` holds more than 100000 values"), "{message}");
    // A smaller budget says so sooner; a larger one lets it through.
    let mut budget = Budget::default();
    budget.set("data_values", 10).unwrap();
    let small = Ruleset::load("shapes.mettle", RULES, &LoadOptions { budget, ..Default::default() }).unwrap();
    let five: Vec<_> = (0..5).map(|i| json!({"name": "e", "distance": i})).collect();
    assert_eq!(spot(&small, json!({"enemies": five})).unwrap_err().code, "mettle::data::too_large");
    let mut budget = Budget::default();
    budget.set("data_values", 1_000_000).unwrap();
    let big = Ruleset::load("shapes.mettle", RULES, &LoadOptions { budget, ..Default::default() }).unwrap();
    let many: Vec<_> = (0..60_000).map(|i| json!({"name": "e", "distance": i % 7})).collect();
    // The data is let through; the script that reads it has its own limit of 1,000 items a list.
    assert_eq!(spot(&big, json!({"enemies": many})).unwrap_err().code, "mettle::script::too_large");
    let some: Vec<_> = (0..100).map(|i| json!({"name": "e", "distance": i % 7})).collect();
    assert_eq!(spot(&big, json!({"enemies": some})).unwrap(), 100 + 100 + 1);

    // Untyped data is held to the same limits: nesting past 64 is refused, not followed.
    let untyped = Ruleset::from_str("d.mettle", "event seen(d: data)\non seen { note \"x\" }").unwrap();
    let mut deep = json!(1);
    for _ in 0..100 {
        deep = json!([deep]);
    }
    let mut s = Session::new(&untyped, 1);
    let e = s.apply("seen", &[("d", Value::Data(Arc::new(deep)))]).unwrap_err();
    assert_eq!(e.code, "mettle::data::too_deep");
    s.apply("seen", &[("d", Value::Data(Arc::new(json!([[1]]))))]).expect("shallow data passes");
}

#[test]
fn the_outline_shows_shapes() {
    let out = mettle::export::outline(&rules());
    let shape = &out["shapes"][0];
    assert_eq!(shape["name"], "situation");
    assert_eq!(shape["doc"], "The table around a creature.");
    assert_eq!(shape["fields"][1]["name"], "enemies");
    assert_eq!(shape["fields"][1]["type"], "list of { name: text, distance: 0.., in_combat: flag = no }");
    assert_eq!(shape["fields"][1]["default"], "[]");
    assert_eq!(shape["fields"][1]["fields"][0]["required"], true);
    assert_eq!(shape["fields"][3]["default"], "none");
    assert_eq!(out["events"][4]["facts"][1]["type"], "situation");
}

#[test]
fn shadow_deep_refuses_a_bad_situation_and_keeps_the_session() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/shadow_deep_stress.mettle");
    let rules = Ruleset::from_path(path).unwrap_or_else(|e| panic!("{}", e.render(100)));
    let mut s = Session::new(&rules, 1);
    let orc = s.create("creature", "orc", &[("stress", Value::Int(2))]).unwrap();
    let before = s.save();
    let seen = json!({"friends": [{"name": "goblin", "distance": 5, "reachable": "yes"}]});
    let e = s
        .apply("activates", &[("creature", Value::Entity(orc)), ("situation", Value::Data(Arc::new(seen)))])
        .unwrap_err();
    assert_eq!(e.code, "mettle::data::wrong_type");
    assert_eq!(
        e.message,
        "fact `situation` of event `activates`: `situation.friends[0].reachable` is the text \"yes\", but it must be yes or no"
    );
    assert_eq!(s.save(), before, "no test was rolled and no marker removed");
    // The same with `yes` is played: a failed test (a 1) moves the orc towards the goblin.
    s.force_dice(&[1]);
    let seen = json!({"friends": [{"name": "goblin", "distance": 5, "reachable": true}]});
    s.apply("activates", &[("creature", Value::Entity(orc)), ("situation", Value::Data(Arc::new(seen)))])
        .unwrap();
    assert_eq!(s.get("orc", "stress"), Some(&Value::Int(1)));
}

#[test]
fn deep_shapes_are_refused_when_checked() {
    let codes = |text: &str| -> Vec<String> {
        match Ruleset::from_str("deep.mettle", text) {
            Ok(_) => vec![],
            Err(e) => e.diagnostics.iter().map(|d| d.code.clone()).collect(),
        }
    };
    // `list of` 300 times: capped like an operator chain.
    let lists = format!("shape s {{ x: {}int }}", "list of ".repeat(300));
    assert_eq!(codes(&lists), ["mettle::parse::too_deep"]);
    // 3,000 shapes each holding the next: past 64 deep, and never followed further.
    let mut chain: String = (0..3000).map(|i| format!("shape s{i} {{ x: s{} = none }}\n", i + 1)).collect();
    chain.push_str("shape s3000 { y: int }\n");
    assert_eq!(codes(&chain), ["mettle::resolve::too_deep"]);
    // A shape holding itself through another.
    assert_eq!(codes("shape a { b: b = none }\nshape b { a: a = none }"), ["mettle::resolve::shape_cycle"]);
}
