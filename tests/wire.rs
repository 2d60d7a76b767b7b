//! The typed JSON views (`mettle::wire`): numbers as numbers, yes/no as booleans, states and entities
//! by name, chances as fractions — read through the real rulesets.

use mettle::{Ruleset, Session, Value};
use serde_json::{Value as Json, json};

fn frontiers() -> Ruleset {
    Ruleset::from_path("rulesets/infinite_frontiers.mettle").unwrap_or_else(|e| panic!("{}", e.render(100)))
}

/// Unit y of the seed's "morale in combat": side a, SPI 3, 4 HP, engaged by two and losing 2 HP.
fn morale_in_combat() -> Session {
    let rules = frontiers();
    let mut s = Session::new(&rules, 7);
    let a = s.create("side", "a", &[]).unwrap();
    let y = s
        .create(
            "unit",
            "y",
            &[
                ("side", Value::Entity(a)),
                ("spi", Value::Int(3)),
                ("max_hp", Value::Int(4)),
                ("hp", Value::Int(4)),
            ],
        )
        .unwrap();
    s.apply("turn_start", &[]).unwrap();
    s.force_dice(&[4]);
    s.apply("engaged", &[("unit", Value::Entity(y)), ("enemies", Value::Int(2))]).unwrap();
    s.apply("damaged", &[("unit", Value::Entity(y)), ("hp_lost", Value::Int(2))]).unwrap();
    s.apply("wounded", &[("unit", Value::Entity(y)), ("loss", Value::Int(1))]).unwrap();
    s
}

fn log(s: &Session) -> Vec<Json> {
    serde_json::to_value(mettle::wire::log(s, s.log())).unwrap().as_array().unwrap().clone()
}

#[test]
fn a_check_in_the_log_has_typed_inputs_and_values() {
    let s = morale_in_combat();
    let log = log(&s);
    let check = log.iter().find(|l| l["type"] == "check" && l["check"] == "morale").expect("a morale check");
    assert_eq!(check["subject"], "y");
    assert_eq!(check["total"], 7);
    assert_eq!(check["target"], 7);
    assert_eq!(check["outcome"], "steady");
    let input = |n: &str| {
        check["inputs"].as_array().unwrap().iter().find(|i| i["name"] == n).unwrap()["value"].clone()
    };
    assert_eq!(input("spi"), json!(3), "numbers are numbers");
    assert_eq!(input("comms"), json!(false), "flags are booleans");
    assert_eq!(check["pool"]["dice"][0], json!({ "face": 4, "kept": true }));
    assert_eq!(check["modifiers"][0]["amount"], 3);
}

#[test]
fn changes_carry_values_of_their_attributes_type() {
    let s = morale_in_combat();
    let log = log(&s);
    let hp = log.iter().find(|l| l["type"] == "change" && l["field"] == "hp").expect("hp changes");
    assert_eq!((hp["from"].clone(), hp["to"].clone()), (json!(4), json!(3)));
    let event = log.iter().find(|l| l["type"] == "event" && l["name"] == "engaged").unwrap();
    assert_eq!(event["depth"], 0);
    assert_eq!(event["facts"][0], json!({ "name": "unit", "value": "y" }), "entities by name");
    assert_eq!(event["facts"][1], json!({ "name": "enemies", "value": 2 }));
    let new = log.iter().find(|l| l["type"] == "new").unwrap();
    assert_eq!(new["entity"], "a");
}

#[test]
fn a_state_change_is_a_name_and_a_flag_is_a_boolean() {
    let rules = Ruleset::from_str(
        "t.mettle",
        "kind unit { morale: steady | shaken = steady  pinned: flag = no  leader: unit }\n\
         event hit(unit: unit) on hit { set unit.morale to shaken  set unit.pinned to yes }",
    )
    .unwrap();
    let mut s = Session::new(&rules, 0);
    let u = s.create("unit", "u", &[]).unwrap();
    s.apply("hit", &[("unit", Value::Entity(u))]).unwrap();
    let changes: Vec<(Json, Json)> = log(&s)
        .iter()
        .filter(|l| l["type"] == "change")
        .map(|l| (l["from"].clone(), l["to"].clone()))
        .collect();
    assert_eq!(changes, vec![(json!("steady"), json!("shaken")), (json!(false), json!(true))]);
    let state = serde_json::to_value(mettle::wire::state(&s)).unwrap();
    assert_eq!(
        state["entities"][0]["attributes"],
        json!([
            { "name": "morale", "value": "shaken" },
            { "name": "pinned", "value": true },
            { "name": "leader", "value": null }
        ])
    );
}

#[test]
fn a_roll_read_directly_matches_the_log() {
    let rules = frontiers();
    let mut s = Session::new(&rules, 3);
    s.force_dice(&[1]);
    let r = s.roll("morale", &[("spi", Value::Int(6))]).unwrap().rolled.unwrap();
    let view = serde_json::to_value(mettle::wire::check(&s, &r)).unwrap();
    assert_eq!(view["outcome"], "broken", "a natural 1 breaks the unit even with SPI 6");
    assert_eq!(view["subject"], Json::Null);
    assert_eq!(view["inputs"][0], json!({ "name": "spi", "value": 6 }));
    let logged = log(&s).into_iter().find(|l| l["type"] == "check").unwrap();
    assert_eq!(logged["inputs"], view["inputs"]);
}

#[test]
fn odds_are_exact_fractions_and_numbers() {
    let rules = frontiers();
    let mut s = Session::new(&rules, 0);
    let r = mettle::odds::ask(&mut s, "morale", None, &[("spi", Value::Int(2))], 0).unwrap();
    let v = serde_json::to_value(mettle::wire::odds(&r)).unwrap();
    assert_eq!(v["exact"], true);
    assert_eq!(v["method"], json!({ "kind": "exact" }));
    let outcomes: Vec<(String, String)> = v["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["outcome"].as_str().unwrap().to_string(), o["exact"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(
        outcomes,
        [("broken", "1/6"), ("steady", "1/3"), ("shaken", "1/2")]
            .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    assert_eq!(v["outcomes"][2]["probability"], json!(0.5));
    assert_eq!(v["values"][0]["name"], "total");
    assert_eq!(
        v["values"][0]["distribution"][0],
        json!({ "value": 3, "probability": 1.0 / 6.0, "exact": "1/6" })
    );
}

#[test]
fn an_estimate_says_so_with_counts_and_an_interval() {
    let rules =
        Ruleset::from_str("t.mettle", "check c { roll d6  outcome hi when total >= 4  otherwise lo }")
            .unwrap();
    let mut s = Session::new(&rules, 0);
    let r = mettle::odds::ask(&mut s, "c", None, &[], 0).unwrap();
    let mut est = r.clone();
    est.how = mettle::odds::How::Estimated { reason: "too many dice".into(), runs: 10, seed: 5 };
    est.outcomes[0].chance = mettle::odds::Chance::Estimate { hits: 4, runs: 10, low: 0.1, high: 0.7 };
    let v = serde_json::to_value(mettle::wire::odds(&est)).unwrap();
    assert_eq!(v["method"], json!({ "kind": "estimate", "reason": "too many dice", "runs": 10, "seed": 5 }));
    assert_eq!(
        v["outcomes"][0],
        json!({ "outcome": "hi", "probability": 0.4, "exact": null, "hits": 4, "runs": 10, "low": 0.1, "high": 0.7 })
    );
}

#[test]
fn rewinding_puts_back_the_dice_and_the_log_but_keeps_nothing_of_what_followed() {
    let rules = frontiers();
    let mut s = Session::new(&rules, 9);
    let before = s.checkpoint();
    let first = s.roll("morale", &[("spi", Value::Int(2))]).unwrap().rolled.unwrap().total;
    s.force_dice(&[6, 6]);
    s.rewind(before);
    assert!(s.log().is_empty());
    assert!(s.state().forced().next().is_none(), "forced dice are part of what is taken back");
    assert_eq!(
        s.roll("morale", &[("spi", Value::Int(2))]).unwrap().rolled.unwrap().total,
        first,
        "the generator too"
    );
}

#[test]
fn a_choice_answered_with_an_entity_is_logged_by_name() {
    let rules = frontiers();
    let mut s = Session::new(&rules, 0);
    let a = s.create("side", "a", &[]).unwrap();
    s.create("side", "b", &[]).unwrap();
    let v = s.create("unit", "v", &[("side", Value::Entity(a))]).unwrap();
    let b = s.state().entities().iter().find(|(_, e)| e.name == "b").unwrap().0;
    for n in ["b1", "b2"] {
        s.create("unit", n, &[("side", Value::Entity(b))]).unwrap();
    }
    s.apply("turn_start", &[]).unwrap();
    s.answer("holder", Value::Entity(v)).unwrap();
    s.apply("assign_ap", &[("side", Value::Entity(a))]).unwrap();
    let choice = log(&s).into_iter().find(|l| l["type"] == "choice").expect("the AP's holder was chosen");
    assert_eq!(choice["answer"], "v");
    let ap = log(&s).into_iter().find(|l| l["type"] == "change" && l["field"] == "ap_this_turn").unwrap();
    assert_eq!((ap["from"].clone(), ap["to"].clone()), (json!(false), json!(true)));
}
