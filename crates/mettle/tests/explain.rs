//! Explanations that say everything: the table row a lookup matched, a target's parts, and (in the
//! verbose explanation) each rule skipped by its condition with the values the condition read.

use mettle::{Ruleset, Session};

const RULES: &str = r#"
kind unit { hp: 0..9 = 6  shaken: flag = no }
event damaged(unit: unit, hp_lost: 0..9)
table wounds(lost: 0..9) -> flag {
  0..2: no
  3..: yes
}
define tn(markers: 0..) = 6 + triangular(markers)
check nerve for unit {
  input markers: 0..9 = 0
  roll d20
  target tn(markers) + 1
  let fled = wounds(markers)
  outcome holds when total >= target
  otherwise breaks { set unit.shaken to yes }
}
check steady {
  roll d6
  target 2 + triangular(3)
  outcome ok when total >= target
  otherwise wobbles
}
on damaged when hp_lost >= 3 and unit.hp > 2 { roll nerve for unit with markers = hp_lost }
on damaged when wounds(hp_lost) { note "a heavy blow" }
scenario light "A light hit sets off nothing" {
  new unit z
  trigger damaged(unit: z, hp_lost: 2)
}
scenario heavy "A heavy hit tests nerve" {
  new unit z
  dice 12
  trigger damaged(unit: z, hp_lost: 4)
  dice 3
  roll steady
}
"#;

fn play(scenario: &str, verbose: bool) -> String {
    let rules = Ruleset::from_str("explain.mettle", RULES).unwrap_or_else(|e| panic!("{}", e.render(100)));
    let mut s = Session::new(&rules, 0);
    let report = s.run_scenario(scenario).unwrap();
    assert!(report.failures.is_empty());
    if verbose {
        mettle::session::render_log_verbose(s.log(), rules.text())
    } else {
        mettle::session::render_log(s.log(), rules.text())
    }
}

#[test]
fn a_skipped_rule_says_why_in_the_verbose_explanation_only() {
    let verbose = play("light", true);
    insta::assert_snapshot!("explain_light_verbose", verbose);
    assert!(verbose.contains(
        "rule on damaged when hp_lost >= 3 and unit.hp > 2 skipped: its condition is no (hp_lost = 2, unit.hp = 6)  (line 23)"
    ));
    assert!(!play("light", false).contains("skipped"));
}

#[test]
fn lookups_show_their_row_and_targets_their_parts() {
    let shown = play("heavy", false);
    insta::assert_snapshot!("explain_heavy", shown);
    // tn(4) is a formula: it is shown by its body, with triangular spelt out.
    assert!(shown.contains("total 12 against target 17 = 6 + 1 + 2 + 3 + 4 + 1 (margin -5)"), "{shown}");
    assert!(shown.contains("total 3 against target 8 = 2 + 1 + 2 + 3 (margin -5)"), "{shown}");
    assert!(shown.contains("table wounds(4): row `3..: yes` gives yes  (line 6)"), "{shown}");
}

#[test]
fn a_value_worked_out_for_one_outcome_is_shown_under_it_only() {
    let rules = Ruleset::from_str(
        "lets.mettle",
        r#"
kind unit { hp: 0..9 = 6 }
check nerve for unit {
  roll d6
  target 4
  let lost = 7 - total
  let shown = total * 2
  outcome holds when total >= target and shown > 0
  otherwise breaks { remove lost from unit.hp }
}
"#,
    )
    .unwrap_or_else(|e| panic!("{}", e.render(100)));
    let mut s = Session::new(&rules, 0);
    let u = s.create("unit", "u", &[]).unwrap();
    s.force_dice(&[5]);
    let held = s.roll_for("nerve", Some(u), &[]).unwrap().rolled.unwrap();
    assert_eq!(held.values, [("shown".to_string(), "10".to_string())], "`lost` is for `breaks` only");
    s.force_dice(&[2]);
    let broke = s.roll_for("nerve", Some(u), &[]).unwrap().rolled.unwrap();
    assert_eq!(broke.values, [("lost".to_string(), "5".to_string()), ("shown".to_string(), "4".to_string())]);
    assert_eq!(s.get("u", "hp"), Some(&mettle::Value::Int(1)));
}
