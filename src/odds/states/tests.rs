//! Ways to states made again give what whole snapshots give.

use super::*;

/// Merges scenario `name` of the ruleset `text` twice, once keeping every state whole and once
/// keeping every state but the first as the way to it: the ends, values, states and runs agree.
fn same_either_way(file: &str, text: &str, name: &str) {
    let rules = Ruleset::from_str(file, text).unwrap();
    let i = rules.program().scenarios.iter().position(|s| s.name == name).unwrap();
    let budget = rules.budget().odds_work;
    let (whole, _) = work::within(budget, || merged_from(&rules, i, u64::MAX));
    let (ways, _) = work::within(budget, || merged_from(&rules, i, 0));
    let (whole, ways) = (whole.unwrap(), ways.unwrap());
    assert_eq!(whole.ends, ways.ends, "{name}");
    assert_eq!(whole.values.len(), ways.values.len(), "{name}");
    for ((a, x), (b, y)) in whole.values.iter().zip(&ways.values) {
        assert_eq!((a, x), (b, y), "{name}");
    }
    assert_eq!((whole.states, whole.runs), (ways.states, ways.runs), "{name}");
    assert!(whole.states > 100, "{name}: {} states", whole.states);
}

#[test]
fn ways_to_states_give_what_whole_snapshots_give() {
    same_either_way("combat_hq.mettle", include_str!("../../../rulesets/combat_hq.mettle"), "morale_race");
    let traveller = include_str!("../../../rulesets/traveller_morale.mettle");
    same_either_way("traveller_morale.mettle", traveller, "experience");
}
