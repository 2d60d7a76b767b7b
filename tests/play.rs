//! Golden explanations: what `mettle play` shows for the seeds' worked examples. A change to how
//! results are explained, or to the shipped rulesets, shows up here for review.
//!
//! To accept intended changes: `INSTA_UPDATE=always cargo test --test play`, then read the diff.

use mettle::internals::RulesetInternals as _;
use mettle::{Ruleset, Session};

fn play(file: &str, scenario: &str) -> String {
    let path = format!("{}/rulesets/{file}", env!("CARGO_MANIFEST_DIR"));
    let rules = Ruleset::from_path(&path).unwrap();
    let mut s = Session::new(&rules, 0);
    let report = s.run_scenario(scenario).unwrap();
    assert!(report.failures.is_empty(), "{scenario}: {:?}", report.failures);
    mettle::session::render_log(s.log(), rules.text())
}

#[test]
fn infinite_frontiers_examples() {
    insta::assert_snapshot!(
        "if_resource_compensation",
        play("infinite_frontiers.mettle", "resource_compensation")
    );
    insta::assert_snapshot!("if_morale_in_combat", play("infinite_frontiers.mettle", "morale_in_combat"));
    insta::assert_snapshot!("if_morale_failure", play("infinite_frontiers.mettle", "morale_failure"));
}

#[test]
fn combat_hq_examples() {
    insta::assert_snapshot!("chq_example_excess", play("combat_hq.mettle", "example_excess"));
    insta::assert_snapshot!("chq_example_recovery", play("combat_hq.mettle", "example_recovery"));
}

#[test]
fn traveller_morale_examples() {
    insta::assert_snapshot!("trav_heroic_pass_by_one", play("traveller_morale.mettle", "heroic_pass_by_one"));
    insta::assert_snapshot!("trav_heroic_fail_by_one", play("traveller_morale.mettle", "heroic_fail_by_one"));
    insta::assert_snapshot!("trav_wound_serious", play("traveller_morale.mettle", "wound_serious"));
}

#[test]
fn shadow_deep_stress_examples() {
    let sds = |scenario| play("shadow_deep_stress.mettle", scenario);
    insta::assert_snapshot!("sds_three_markers_from_one_wound", sds("three_markers_from_one_wound"));
    insta::assert_snapshot!("sds_tn_by_markers", sds("tn_by_markers"));
    insta::assert_snapshot!("sds_marker_removed_after_test", sds("marker_removed_after_test"));
}

#[test]
fn dice_pool_examples() {
    let rules =
        Ruleset::from_path(format!("{}/rulesets/dice_pool_morale.mettle", env!("CARGO_MANIFEST_DIR")))
            .unwrap();
    for sc in &rules.program().scenarios {
        insta::assert_snapshot!(format!("dpm_{}", sc.name), play("dice_pool_morale.mettle", &sc.name));
    }
}

#[test]
fn the_log_as_json_keeps_every_number() {
    let path = format!("{}/rulesets/infinite_frontiers.mettle", env!("CARGO_MANIFEST_DIR"));
    let rules = Ruleset::from_path(&path).unwrap();
    let mut s = Session::new(&rules, 0);
    s.run_scenario("morale_failure").unwrap();
    let json = serde_json::to_value(s.log()).unwrap();
    let check = json.as_array().unwrap().iter().find(|l| l["type"] == "check").unwrap();
    assert_eq!(check["check"], "morale");
    assert_eq!(check["subject"], "z");
    assert_eq!(check["pool"]["dice"][0]["face"], 3);
    assert_eq!(check["modifiers"][0]["label"], "Spirit (SPI)");
    assert_eq!(check["modifiers"][0]["amount"], 2);
    assert_eq!(check["total"], 5);
    assert_eq!(check["target"], 7);
    assert_eq!(check["outcome"], "shaken");
    assert_eq!(check["depth"], 2, "under the damaged event and the morale_test it fires");
    let change =
        json.as_array().unwrap().iter().find(|l| l["type"] == "change" && l["field"] == "morale").unwrap();
    // Each value is kept typed: a state by its name.
    assert_eq!(change["from"], serde_json::json!({"type": "name", "value": "steady"}));
    assert_eq!(change["to"], serde_json::json!({"type": "name", "value": "shaken"}));
    assert!(change["span"]["start"].as_u64().unwrap() > 0, "every change points at its rule");
}
