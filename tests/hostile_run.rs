//! Hostile rules at run time: each case runs rules built to loop, fan out, flood the log or overflow,
//! and checks the coded error, that the session is exactly as before, and that it still works.

use mettle::internals::SessionInternals as _;
use mettle::{Budget, LoadOptions, Ruleset, Session, Value};
use std::sync::atomic::Ordering;

/// A base every case adds to: a unit, an event about it, and a plain check that always works.
const BASE: &str = r#"
kind unit { hp: 0..100 = 10  tally: int = 0  a: int = 0  b: int = 0  c: int = 0 }
event poke(unit: unit)
check plain { roll d6  otherwise done }
"#;

fn rules_with(extra: &str, budget: Budget) -> Ruleset {
    let text = format!("{BASE}\n{extra}");
    let opts = LoadOptions { budget, ..Default::default() };
    Ruleset::load("hostile.mettle", &text, &opts).unwrap_or_else(|e| panic!("{}", e.render(100)))
}

fn rules(extra: &str) -> Ruleset {
    rules_with(extra, Budget::default())
}

fn small(steps: u64, log_entries: u64) -> Budget {
    let mut b = Budget::default();
    b.set("steps", steps).unwrap();
    b.set("log_entries", log_entries).unwrap();
    b
}

/// A session with one unit `u`.
fn session(r: &Ruleset) -> Session {
    let mut s = Session::new(r, 1);
    s.create("unit", "u", &[]).unwrap();
    s
}

/// Fires `event` at `u` and returns the error's code, after checking that the state and log are
/// exactly as before and that the session still rolls.
fn fails(r: &Ruleset, event: &str) -> String {
    let mut s = session(r);
    let (state, log) = (s.state().clone(), s.log().len());
    let u = s.entity("u").unwrap();
    let facts: &[(&str, Value)] = if event == "poke" { &[("unit", Value::Entity(u))] } else { &[] };
    let err = s.apply(event, facts).expect_err("the event should fail");
    assert_eq!(s.state(), &state, "a failed event changed the state");
    assert_eq!(s.log().len(), log, "a failed event left lines in the log");
    survives(&mut s);
    err.code
}

/// Rolls `check` with no inputs and returns the error's code, with the same checks as `fails`.
fn roll_fails(r: &Ruleset, check: &str) -> String {
    let mut s = session(r);
    let state = s.state().clone();
    let err = s.roll(check, &[]).expect_err("the roll should fail");
    assert_eq!(s.state(), &state, "a failed roll changed the state");
    survives(&mut s);
    err.code
}

fn survives(s: &mut Session) {
    s.roll("plain", &[]).expect("the session still rolls after the error");
}

#[test]
fn an_event_that_fires_itself_stops_at_the_depth_limit() {
    let r = rules("on poke { add 1 to unit.tally  trigger poke(unit: unit) }");
    assert_eq!(fails(&r, "poke"), "mettle::run::too_deep");
}

#[test]
fn fan_out_of_events_stops_at_the_step_budget() {
    // Ten rules per level, each firing the next level: 10^6 rules at the bottom, 10^7 steps in all.
    let mut text = String::new();
    for level in 0..7 {
        text.push_str(&format!("event e{level}\n"));
        for _ in 0..10 {
            text.push_str(&format!("on e{level} {{ trigger e{} }}\n", level + 1));
        }
    }
    text.push_str("event e7\n");
    let r = rules_with(&text, small(1_000_000, 100_000_000));
    assert_eq!(fails(&r, "e0"), "mettle::budget::steps");
}

#[test]
fn the_step_error_names_the_rule_that_was_running() {
    let r = rules_with("on poke { repeat { add 1 to unit.tally } until unit.tally < 0 }", small(50, 10_000));
    let mut s = session(&r);
    let err = s.apply("poke", &[("unit", Value::Entity(0))]).unwrap_err();
    assert_eq!(err.code, "mettle::budget::steps");
    assert!(err.message.contains("more than 50 steps"), "{}", err.message);
    assert!(err.labels.iter().any(|l| l.text.contains("on poke")), "{:?}", err.labels);
    assert!(err.help.as_deref().unwrap().contains("--budget steps="), "{:?}", err.help);
}

#[test]
fn the_step_error_points_at_the_statement_that_ran_out() {
    // The trigger is the first step, then each statement one; a `let` and an `if` have no place of
    // their own, so their step is charged where the statement before them stands.
    let rule =
        "on poke { add 1 to unit.tally  let big = unit.tally > 0  if big { set unit.a to 2 }  note \"end\" }";
    let mut at = vec![];
    for steps in 1..=7 {
        let r = rules_with(rule, small(steps, 10_000));
        let mut s = session(&r);
        match s.apply("poke", &[("unit", Value::Entity(0))]) {
            Ok(_) => at.push("done".to_string()),
            Err(e) => {
                assert_eq!(e.code, "mettle::budget::steps");
                let sp = e.span();
                at.push(r.text()[sp.start..sp.end].to_string());
            }
        }
    }
    assert_eq!(
        at,
        [
            "on poke",
            "add 1 to unit.tally",
            "add 1 to unit.tally",
            "add 1 to unit.tally",
            "set unit.a to 2",
            "note \"end\"",
            "done"
        ],
        "{at:?}"
    );
}

#[test]
fn nested_repeats_stop_at_the_step_budget() {
    let r = rules_with(
        "on poke { repeat { add 1 to unit.b  set unit.a to 0  repeat { add 1 to unit.a } until unit.a >= 999 } until unit.b >= 999 }",
        small(1_000_000, 100_000_000),
    );
    assert_eq!(fails(&r, "poke"), "mettle::budget::steps");
}

#[test]
fn a_repeat_that_never_ends_is_stopped_at_its_own_limit() {
    let r = rules("on poke { repeat { add 1 to unit.tally } until unit.tally < 0 }");
    assert_eq!(fails(&r, "poke"), "mettle::run::endless_repeat");
}

#[test]
fn for_each_over_many_units_is_counted() {
    let r = rules_with("on poke { for each unit v { add 1 to v.tally } }", small(100, 10_000));
    let mut s = session(&r);
    for i in 0..200 {
        s.create("unit", &format!("x{i}"), &[]).unwrap();
    }
    let state = s.state().clone();
    assert_eq!(s.apply("poke", &[("unit", Value::Entity(0))]).unwrap_err().code, "mettle::budget::steps");
    assert_eq!(s.state(), &state);
    survives(&mut s);
}

#[test]
fn explosions_count_against_the_budget() {
    let r = rules_with("check boom { roll 10000d6x>=2  otherwise done }", small(20_000, 10_000));
    assert_eq!(roll_fails(&r, "boom"), "mettle::budget::steps");
}

#[test]
fn rerolls_count_against_the_budget() {
    let r = rules_with("check again { roll 10000d6r<=5  otherwise done }", small(20_000, 10_000));
    assert_eq!(roll_fails(&r, "again"), "mettle::budget::steps");
}

#[test]
fn dice_are_charged_before_they_are_rolled() {
    let r = rules_with("check many { roll 5000d6  otherwise done }", small(1_000, 10_000));
    assert_eq!(roll_fails(&r, "many"), "mettle::budget::steps");
}

#[test]
fn a_huge_count_of_dice_is_refused() {
    let r = rules("check heap { input n: int  roll (n)d6  otherwise done }");
    let mut s = session(&r);
    let err = s.roll("heap", &[("n", Value::Int(1 << 40))]).unwrap_err();
    assert_eq!(err.code, "mettle::run::too_many_dice");
    survives(&mut s);
}

#[test]
fn dice_that_add_up_past_the_largest_number_overflow() {
    let r = rules("check big { roll 2d[9223372036854775807]  otherwise done }");
    assert_eq!(roll_fails(&r, "big"), "mettle::run::overflow");
}

#[test]
fn sum_of_huge_dice_overflows() {
    let r = rules("check big { roll 3d[4611686018427387904]cs>=1  let s = sum(dice)  otherwise done }");
    assert_eq!(roll_fails(&r, "big"), "mettle::run::overflow");
}

#[test]
fn highest_of_huge_dice_overflows() {
    let r =
        rules("check big { roll 3d[4611686018427387904]cs>=1  let s = highest(dice, 3)  otherwise done }");
    assert_eq!(roll_fails(&r, "big"), "mettle::run::overflow");
}

#[test]
fn negating_the_smallest_number_overflows() {
    let r = rules("on poke { set unit.tally to -(-9223372036854775807 - 1) }");
    assert_eq!(fails(&r, "poke"), "mettle::run::overflow");
}

#[test]
fn dividing_the_smallest_number_by_minus_one_overflows() {
    let r = rules("on poke { set unit.tally to (-9223372036854775807 - 1) / (0 - 1) }");
    assert_eq!(fails(&r, "poke"), "mettle::run::overflow");
}

#[test]
fn multiplying_past_the_largest_number_overflows() {
    let r = rules("on poke { set unit.tally to 4294967296 * 4294967296 }");
    assert_eq!(fails(&r, "poke"), "mettle::run::overflow");
}

#[test]
fn adding_past_the_largest_number_overflows() {
    let r = rules("on poke { set unit.tally to 9223372036854775807  add 1 to unit.tally }");
    assert_eq!(fails(&r, "poke"), "mettle::run::overflow");
}

#[test]
fn removing_past_the_smallest_number_overflows() {
    let r = rules("on poke { set unit.tally to -9223372036854775807  remove 2 from unit.tally }");
    assert_eq!(fails(&r, "poke"), "mettle::run::overflow");
}

#[test]
fn triangular_of_the_largest_number_overflows() {
    let r = rules("on poke { set unit.tally to triangular(9223372036854775807) }");
    assert_eq!(fails(&r, "poke"), "mettle::run::overflow");
}

#[test]
fn a_margin_past_the_largest_number_overflows() {
    let r =
        rules("check far { roll d6  modifier \"far\" +9223372036854775800  target -100  otherwise done }");
    assert_eq!(roll_fails(&r, "far"), "mettle::run::overflow");
}

#[test]
fn extra_dice_from_modifiers_that_overflow_are_an_error() {
    let r = rules(
        "check pile { roll d6  modifier \"a\" +9223372036854775807 dice  modifier \"b\" +9223372036854775807 dice  otherwise done }",
    );
    assert_eq!(roll_fails(&r, "pile"), "mettle::run::overflow");
}

#[test]
fn a_cap_of_the_smallest_number_is_not_a_panic() {
    let r =
        rules("check capped { roll d6  modifier \"m\" +3 max (-9223372036854775807 - 1)  otherwise done }");
    let mut s = session(&r);
    assert!(s.roll("capped", &[]).is_ok());
}

#[test]
fn a_log_flood_stops_at_the_log_budget() {
    let r = rules_with(
        "on poke { repeat { note \"again\"  add 1 to unit.tally } until unit.tally >= 900 }",
        small(1_000_000, 100),
    );
    assert_eq!(fails(&r, "poke"), "mettle::budget::log_entries");
}

#[test]
fn a_log_flood_at_the_very_end_of_an_action_is_still_caught() {
    let r = rules_with("on poke { note \"a\"  note \"b\"  note \"c\" }", small(1_000_000, 2));
    assert_eq!(fails(&r, "poke"), "mettle::budget::log_entries");
}

#[test]
fn a_scenario_over_budget_is_undone_and_keeps_its_log_aside() {
    let r = rules_with(
        "scenario long { new unit w  repeat { add 1 to w.tally } until w.tally < 0 }",
        small(100, 10_000),
    );
    let mut s = Session::new(&r, 1);
    let err = s.run_scenario("long").unwrap_err();
    assert_eq!(err.code, "mettle::budget::steps");
    assert!(s.state().entities().is_empty(), "the scenario's unit was kept");
    assert!(s.log().is_empty());
    assert!(!s.undone_log().is_empty(), "the undone log shows how far it got");
    survives(&mut s);
}

#[test]
fn a_cancel_between_actions_does_not_stop_the_next() {
    let r = rules("on poke { repeat { add 1 to unit.tally } until unit.tally < 0 }");
    let mut s = session(&r);
    let state = s.state().clone();
    s.cancel_flag().store(true, Ordering::Relaxed);
    // The flag is cleared when the action starts, so this one runs on to its own error.
    assert_eq!(
        s.apply("poke", &[("unit", Value::Entity(0))]).unwrap_err().code,
        "mettle::run::endless_repeat"
    );
    assert_eq!(s.state(), &state);
}

#[test]
fn a_flag_the_host_gave_is_left_for_the_host_to_clear() {
    let r = rules("on poke { repeat { add 1 to unit.tally } until unit.tally < 0 }");
    let mut s = session(&r);
    let state = s.state().clone();
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    s.set_cancel_flag(flag.clone());
    // A stop that landed between two of the host's actions (a test run's games, say) stops the
    // next, where the session's own flag would have been cleared (as in the test above).
    flag.store(true, Ordering::Relaxed);
    assert_eq!(s.apply("poke", &[("unit", Value::Entity(0))]).unwrap_err().code, "mettle::run::cancelled");
    assert_eq!(s.state(), &state);
    assert!(flag.load(Ordering::Relaxed), "the session cleared the host's flag");
    flag.store(false, Ordering::Relaxed);
    assert_eq!(
        s.apply("poke", &[("unit", Value::Entity(0))]).unwrap_err().code,
        "mettle::run::endless_repeat"
    );
}

#[test]
fn cancelling_while_running_stops_the_action() {
    // A billion steps: only the cancel flag can stop this early.
    let r = rules_with(
        "on poke { repeat { add 1 to unit.c  set unit.b to 0  repeat { add 1 to unit.b  set unit.a to 0  repeat { add 1 to unit.a } until unit.a >= 999 } until unit.b >= 999 } until unit.c >= 999 }",
        small(2_000_000_000, 2_000_000_000),
    );
    let mut s = session(&r);
    let state = s.state().clone();
    let flag = s.cancel_flag();
    let setter = std::thread::spawn(move || {
        // Keep setting it: the action clears the flag when it starts.
        for _ in 0..2_000 {
            flag.store(true, Ordering::Relaxed);
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    });
    let code = s.apply("poke", &[("unit", Value::Entity(0))]).unwrap_err().code;
    setter.join().unwrap();
    assert_eq!(code, "mettle::run::cancelled");
    assert_eq!(s.state(), &state);
    survives(&mut s);
}

#[test]
fn a_budget_name_that_does_not_exist_gets_a_suggestion() {
    let err = Budget::default().set("log_entires", 5).unwrap_err();
    assert_eq!(err.code, "mettle::budget::unknown");
    assert_eq!(err.help.as_deref(), Some("did you mean `log_entries`?"));
}

#[test]
fn a_budget_of_zero_is_read_as_one() {
    let mut b = Budget::default();
    b.set("steps", 0).unwrap();
    assert_eq!(b.steps, 1);
}

#[test]
fn a_simulated_game_counts_its_expectations_and_records_against_the_log_budget() {
    // 60 expectations and 60 records against a budget of 100 entries (the records alone fit): the game
    // stops with the same error whether it is played with a session of its own or as a simulation
    // plays it.
    let r = rules_with(
        "scenario flood { new unit w  repeat { expect w.tally >= 0  record \"t\" = w.tally  add 1 to w.tally } until w.tally >= 60 }",
        small(1_000_000, 100),
    );
    let mut own = Session::new(&r, 1);
    own.set_logging(false);
    assert_eq!(own.run_scenario("flood").unwrap_err().code, "mettle::budget::log_entries");
    let mut game = mettle::internals::session::QuietGame::default();
    let err = Session::new(&r, 0).play_quietly(0, 1, &mut game).unwrap_err();
    assert_eq!(err.code, "mettle::budget::log_entries");
    // Under the budget, both count the same expectations as passed and keep the same records.
    let r = rules_with(
        "scenario few { new unit w  repeat { expect w.tally >= 0  record \"t\" = w.tally  add 1 to w.tally } until w.tally >= 40 }",
        small(1_000_000, 100),
    );
    let mut own = Session::new(&r, 1);
    own.set_logging(false);
    assert_eq!(own.run_scenario("few").unwrap().passed, 40);
    Session::new(&r, 0).play_quietly(0, 1, &mut game).unwrap();
    assert_eq!((game.entries, game.failed, game.records.len()), (80, false, 40));
    assert_eq!(game.records.last().map(|(l, v)| (&**l, *v)), Some(("t", 39)));
}
