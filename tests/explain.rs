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

/// A rule whose condition reads the game's state (a formula over attributes, the round, an option,
/// a check's last result, a count of units) says what it read: never "it reads no fact".
#[test]
fn a_skipped_rule_names_the_state_its_condition_read() {
    let rules = Ruleset::from_str(
        "state.mettle",
        r#"
option harsh: yes_please | no_thanks = no_thanks
kind unit { hp: 0..9 = 6  undead: flag = no }
define immune(u: unit) = u.undead or u.hp > 8
event hit(unit: unit)
check nerve { roll d6  outcome ok when total >= 4  otherwise wobbles }
on hit when immune(unit) { note "no fear" }
on hit when round > 3 { note "late" }
on hit when harsh is yes_please { note "harsh" }
on hit when last nerve is ok { note "steady" }
on hit when (number of unit u where u.hp > 7) >= 2 { note "crowd" }
scenario s "" {
  new unit z
  dice 2
  roll nerve
  trigger hit(unit: z)
  expect z.hp == 6
}
"#,
    )
    .unwrap_or_else(|e| panic!("{}", e.render(100)));
    let mut s = Session::new(&rules, 0);
    let report = s.run_scenario("s").unwrap();
    assert!(report.failures.is_empty());
    let shown = mettle::session::render_log_verbose(s.log(), rules.text());
    assert!(!shown.contains("reads no fact"), "{shown}");
    assert!(shown.contains("skipped: its condition is no (immune(unit) = no)"), "{shown}");
    assert!(shown.contains("skipped: its condition is no (round = 0)"), "{shown}");
    assert!(shown.contains("skipped: its condition is no (option harsh = no_thanks)"), "{shown}");
    assert!(shown.contains("skipped: its condition is no (last nerve = wobbles)"), "{shown}");
    assert!(shown.contains("skipped: its condition is no (number of unit = 0)"), "{shown}");
}

/// A condition that reads nothing that can change says so; one with dice is not rolled again to be
/// explained (the game's dice stay as they were).
#[test]
fn a_condition_that_reads_nothing_says_so_and_dice_are_not_rolled_to_explain() {
    let rules = Ruleset::from_str(
        "none.mettle",
        r#"
event tick
define lucky() = d6 > 9
on tick when 1 > 2 { note "never" }
on tick when lucky() { note "never either" }
check c { roll d6  outcome ok when total >= 1  otherwise no_way }
"#,
    )
    .unwrap_or_else(|e| panic!("{}", e.render(100)));
    let mut s = Session::new(&rules, 5);
    let mut same = Session::new(&rules, 5);
    s.apply("tick", &[]).unwrap();
    let shown = mettle::session::render_log_verbose(s.log(), rules.text());
    assert!(
        shown
            .contains("rule on tick when 1 > 2 skipped: its condition is no (it reads no fact and no state)"),
        "{shown}"
    );
    // The rule with dice rolled once for the game: the next roll is the one an untouched session
    // makes after rolling once.
    same.apply("tick", &[]).unwrap();
    let a = s.roll("c", &[]).unwrap().rolled.unwrap();
    let b = same.roll("c", &[]).unwrap().rolled.unwrap();
    assert_eq!(a.total, b.total);
}

/// A pool whose count or sides are worked out shows the dice it really threw, with the notation as
/// written beside them.
#[test]
fn a_worked_out_pool_shows_the_dice_it_threw() {
    let rules = Ruleset::from_str(
        "pool.mettle",
        r#"
check under {
  input base: 1..9 = 3
  input net: 0..3 = 1
  let sides = max(6, base + 1)
  let pool = 1 + net
  roll (pool)d(sides)
  outcome fight when count(dice, <= base) >= 1
  otherwise refuse
}
check plain { roll 2d6  outcome ok when total >= 2  otherwise no_way }
check cut {
  roll (3)d6cs>=4
  modifier "Shaken" -1 die
  outcome hit when total >= 1
  otherwise miss
}
"#,
    )
    .unwrap_or_else(|e| panic!("{}", e.render(100)));
    let mut s = Session::new(&rules, 0);
    s.force_dice(&[5, 6]);
    s.roll("under", &[]).unwrap();
    s.force_dice(&[5, 6]);
    s.roll("plain", &[]).unwrap();
    s.force_dice(&[4, 1]);
    s.roll("cut", &[]).unwrap();
    let shown = mettle::session::render_log(s.log(), rules.text());
    assert!(shown.contains("dice 2d6 (written (pool)d(sides)): 5, 6 = 11"), "{shown}");
    assert!(shown.contains("dice 2d6: 5, 6 = 11"), "{shown}");
    assert!(shown.contains("dice 2d6cs>=4 (written (3)d6cs>=4): 4, 1 = 1"), "{shown}");
}

/// A change or a note made inside `if`s says which conditions made it, as written, and whether each
/// held (an `else` is a condition that did not hold); one made by a rule fired from inside an `if`
/// does not carry that `if` along. The JSON log has them too.
#[test]
fn a_change_says_which_conditions_made_it() {
    let rules = Ruleset::from_str(
        "why.mettle",
        r#"
kind unit { morale: steady | shaken | broken = broken  seen: flag = no }
event recover(unit: unit, passed: flag)
event look(unit: unit)
on look { set unit.seen to yes }
on recover {
  if passed {
    if unit.morale is broken { set unit.morale to shaken } else { set unit.morale to steady }
    trigger look(unit: unit)
  } else {
    note "no recovery"
  }
  set unit.seen to no
}
"#,
    )
    .unwrap_or_else(|e| panic!("{}", e.render(100)));
    let mut s = Session::new(&rules, 0);
    let u = s.create("unit", "q", &[]).unwrap();
    s.apply("recover", &[("unit", mettle::Value::Entity(u)), ("passed", mettle::Value::Bool(true))]).unwrap();
    s.apply("recover", &[("unit", mettle::Value::Entity(u)), ("passed", mettle::Value::Bool(true))]).unwrap();
    s.apply("recover", &[("unit", mettle::Value::Entity(u)), ("passed", mettle::Value::Bool(false))])
        .unwrap();
    let shown = mettle::session::render_log(s.log(), rules.text());
    assert!(
        shown.contains(
            "q.morale: broken -> shaken, as `passed` holds and `unit.morale is broken` holds  (line 8)"
        ),
        "{shown}"
    );
    assert!(
        shown.contains("q.morale: shaken -> steady, as `passed` holds and `unit.morale is broken` does not hold  (line 8)"),
        "{shown}"
    );
    // The rule `look` fires from inside `if passed`: its change is its own, with no condition.
    assert!(shown.contains("    q.seen: no -> yes  (line 5)"), "{shown}");
    // A change after the `if`s has none; a note in an `else` says so.
    assert!(shown.contains("  q.seen: yes -> no  (line 13)"), "{shown}");
    assert!(shown.contains("note: no recovery, as `passed` does not hold  (line 11)"), "{shown}");
    // The JSON log carries each condition's place and whether it held.
    let doc = serde_json::to_value(mettle::wire::log(&s, s.log())).unwrap();
    let change = doc.as_array().unwrap().iter().find(|l| l["type"] == "change").unwrap();
    let because = change["because"].as_array().unwrap();
    assert_eq!(because.len(), 2);
    assert_eq!(because[0]["held"], true);
    let start = because[0]["condition"]["start"].as_u64().unwrap() as usize;
    let end = because[0]["condition"]["end"].as_u64().unwrap() as usize;
    assert_eq!(&rules.text()[start..end], "passed");
}
