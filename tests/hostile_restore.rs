//! Hostile saves against the values they hold: last results with values of the wrong type or too
//! few, shaped data that breaks its shape, data past the `data_values` budget, and counters that
//! cannot go on are refused whole with a coded error, and a REPL that was asked to restore one plays
//! on unchanged.

use mettle::internals::repl::Repl;
use mettle::{Budget, LoadOptions, Ruleset, Session, Value};
use serde_json::json;
use std::sync::Arc;

const RULES: &str = r#"
shape situation { enemies: list of 0.. = []  mood: calm | angry = calm }
kind unit { hp: 0..6 = 6  seen: situation = {}  notes: data = [] }
check c {
  input bonus: 0..3 = 0
  roll d6
  target 4
  let big = total >= 5
  outcome high when total >= 4
  otherwise low
}
script { fn enemies(s) { s.enemies.len() } }
event look(u: unit)
on look { set u.hp to enemies(u.seen) }
"#;

fn rules_with(budget: Budget) -> Ruleset {
    Ruleset::load("restore.mettle", RULES, &LoadOptions { budget, ..Default::default() })
        .unwrap_or_else(|e| panic!("{}", e.render(100)))
}

fn rules() -> Ruleset {
    rules_with(Budget::default())
}

/// A session with a unit holding shaped data and a roll of `c`, saved, as JSON to edit.
fn saved() -> serde_json::Value {
    let r = rules();
    let mut s = Session::new(&r, 3);
    let seen = Value::Data(Arc::new(json!({"enemies": [1, 2]})));
    s.create("unit", "u", &[("seen", seen)]).unwrap();
    s.roll("c", &[]).unwrap().rolled.unwrap();
    serde_json::from_str(&s.save()).unwrap()
}

/// The save with `f` applied, loaded: the error's code and message.
fn edited(f: impl FnOnce(&mut serde_json::Value)) -> (String, String) {
    let mut v = saved();
    f(&mut v);
    let e = Session::load(&rules(), &v.to_string()).expect_err("the save should be refused");
    (e.code, e.message)
}

/// The slot of `c`'s last result that holds `name` (inputs first, then the subject, the dice, …).
fn slot(name: &str) -> usize {
    ["bonus", "subject", "dice", "natural", "total", "target", "margin", "big"]
        .iter()
        .position(|n| *n == name)
        .unwrap()
}

fn set_slot(v: &mut serde_json::Value, name: &str, to: serde_json::Value) {
    v["state"]["last"][0]["slots"][slot(name)] = to;
}

#[test]
fn the_unedited_save_loads_and_plays_on() {
    let mut s = Session::load(&rules(), &saved().to_string()).unwrap();
    s.apply("look", &[("u", Value::Entity(0))]).unwrap();
    assert_eq!(s.get("u", "hp"), Some(&Value::Int(2)));
    s.roll("c", &[]).unwrap();
}

#[test]
fn a_total_that_is_none_is_refused() {
    let (code, message) = edited(|v| set_slot(v, "total", json!("None")));
    assert_eq!(code, "mettle::save::bad_value");
    assert!(
        message.contains("the last result of `c` does not fit the check: its `total` is not a number"),
        "{message}"
    );
}

#[test]
fn a_margin_that_is_a_flag_is_refused() {
    let (code, message) = edited(|v| set_slot(v, "margin", json!({"Bool": true})));
    assert_eq!(code, "mettle::save::bad_value");
    assert!(message.contains("`margin`"), "{message}");
}

#[test]
fn an_input_out_of_its_range_is_refused() {
    let (code, message) = edited(|v| set_slot(v, "bonus", json!({"Int": 99})));
    assert_eq!(code, "mettle::save::bad_value");
    assert!(message.contains("`bonus`"), "{message}");
}

#[test]
fn a_let_of_the_wrong_type_is_refused() {
    let (code, _) = edited(|v| set_slot(v, "big", json!({"Int": 3})));
    assert_eq!(code, "mettle::save::bad_value");
}

#[test]
fn dice_that_are_a_flag_are_refused() {
    let (code, _) = edited(|v| set_slot(v, "dice", json!({"Bool": false})));
    assert_eq!(code, "mettle::save::bad_value");
}

#[test]
fn a_last_result_with_too_few_values_is_refused() {
    let (code, message) = edited(|v| {
        v["state"]["last"][0]["slots"].as_array_mut().unwrap().pop();
    });
    assert_eq!(code, "mettle::save::bad_value");
    assert!(message.contains("it has 7 values, the check 8"), "{message}");
}

#[test]
fn a_last_result_with_an_outcome_the_check_lacks_is_refused() {
    let (code, _) = edited(|v| v["state"]["last"][0]["outcome_index"] = json!(7));
    assert_eq!(code, "mettle::save::bad_value");
}

#[test]
fn shaped_data_that_breaks_its_shape_is_refused() {
    let (code, message) = edited(|v| {
        v["state"]["entities"][0]["fields"][1] = json!({"Data": {"enemies": ["far"], "mood": "calm"}});
    });
    assert_eq!(code, "mettle::save::bad_value");
    assert!(message.contains("`u.seen` does not fit its shape"), "{message}");
    let (code, _) = edited(|v| {
        v["state"]["entities"][0]["fields"][1] = json!({"Data": {"mood": "bored"}});
    });
    assert_eq!(code, "mettle::save::bad_value");
}

#[test]
fn a_turn_counter_at_its_maximum_is_refused() {
    let (code, message) = edited(|v| v["state"]["turn"] = json!(i64::MAX));
    assert_eq!(code, "mettle::save::bad_value");
    assert!(message.contains("turn counter"), "{message}");
    let (code, _) = edited(|v| v["state"]["round"] = json!(-1));
    assert_eq!(code, "mettle::save::bad_value");
}

#[test]
fn data_past_the_budget_is_refused_while_it_is_read() {
    let mut budget = Budget::default();
    budget.set("data_values", 1000).unwrap();
    let r = rules_with(budget);
    let mut v = saved();
    let many: Vec<i64> = vec![1; 5000];
    v["state"]["entities"][0]["fields"][2] = json!({ "Data": many });
    let e = Session::load(&r, &v.to_string()).unwrap_err();
    assert_eq!(e.code, "mettle::data::too_large");
    assert!(e.message.contains("more than 1000 values"), "{}", e.message);
    // Within the budget, the same save loads.
    v["state"]["entities"][0]["fields"][2] = json!({ "Data": vec![1; 900] });
    assert!(Session::load(&r, &v.to_string()).is_ok());
}

#[test]
fn millions_of_numbers_in_a_shaped_attribute_are_refused_without_building_them() {
    // About 33 MB of `1,`: with every number built the load would take a gigabyte.
    let mut v = saved();
    v["state"]["entities"][0]["fields"][1] = json!({"Data": {"enemies": []}});
    let mut text = v.to_string();
    let at = text.find(r#""enemies":[]"#).unwrap() + r#""enemies":["#.len();
    let numbers = "1,".repeat(16_000_000);
    text.insert_str(at, &numbers[..numbers.len() - 1]);
    let started = std::time::Instant::now();
    let e = Session::load(&rules(), &text).unwrap_err();
    assert_eq!(e.code, "mettle::data::too_large");
    assert!(started.elapsed().as_secs() < 20);
}

#[test]
fn a_refused_restore_leaves_the_repl_session_as_it_was() {
    let dir = std::env::temp_dir().join(format!("mettle-hostile-restore-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("restore.mettle");
    std::fs::write(&file, RULES).unwrap();
    let mut repl = Repl::new(1, false, 80);
    assert!(!repl.handle(&format!(":load {}", file.display())).failed);
    assert!(!repl.handle("new unit u").failed);
    assert!(!repl.handle("roll c").failed);
    let good = dir.join("good.json");
    assert!(!repl.handle(&format!(":save {}", good.display())).failed);
    let before = std::fs::read_to_string(&good).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&before).unwrap();
    v["session"]["state"]["last"][0]["slots"][slot("total")] = json!("None");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, v.to_string()).unwrap();
    let reply = repl.handle(&format!(":restore {}", bad.display()));
    assert!(reply.failed);
    assert!(reply.err.contains("mettle::save::bad_value"), "{}", reply.err);
    // The session goes on as it was: saving it again gives the same save, and the file is untouched.
    let again = dir.join("again.json");
    assert!(!repl.handle(&format!(":save {}", again.display())).failed);
    assert_eq!(std::fs::read_to_string(&again).unwrap(), before);
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), v.to_string());
    assert!(!repl.handle("roll c").failed);
    std::fs::remove_dir_all(&dir).ok();
}
