//! Quiet rolls (`Session::roll_quietly`, one run of a simulation) allocate nothing once a session has
//! rolled the check before, a simulated game allocates little more than its entities, and modifiers'
//! conditions on house-rule options follow the options as a session changes them.
//!
//! Allocations are counted per thread (the test harness allocates on its own threads while other
//! tests finish), and the tests still run one at a time (a lock), each counting between its marks.

use mettle::internals::{RulesetInternals as _, SessionInternals as _};
use mettle::{Ruleset, Session, Value};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Mutex;

/// The system's allocator, counting allocations and reallocations.
struct Counting;

thread_local! {
    /// Allocations and reallocations made by this thread.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

/// How many allocations this thread has made so far.
fn allocated() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

fn count() {
    // A thread being torn down has no counter left; its allocations are not the tests'.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is passed on unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn frontiers() -> Ruleset {
    Ruleset::from_path(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/infinite_frontiers.mettle")).unwrap()
}

/// Allocations made by `n` quiet rolls of `check` for a unit, after a first roll.
fn allocations(s: &mut Session, check: &str, inputs: &[(&str, Value)], n: u64) -> u64 {
    let unit = s.create("unit", "u", &[]).unwrap();
    let (id, args) = s.resolve(check, inputs).unwrap();
    s.roll_quietly(id, Some(unit), &args).unwrap();
    let before = allocated();
    for _ in 0..n {
        std::hint::black_box(s.roll_quietly(id, Some(unit), &args).unwrap());
    }
    allocated() - before
}

#[test]
fn a_quiet_roll_of_the_morale_check_allocates_nothing() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let rules = frontiers();
    let mut s = Session::new(&rules, 1);
    s.set_logging(false);
    let inputs = [("spi", Value::Int(2)), ("leadership", Value::Int(1))];
    assert_eq!(allocations(&mut s, "morale", &inputs, 1000), 0);
}

#[test]
fn a_quiet_roll_with_dice_from_modifiers_allocates_nothing() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let rules = frontiers();
    let mut s = Session::new(&rules, 1);
    s.set_logging(false);
    s.set_option("bonus_die", rules.option_value("bonus_die", "extra_d6").unwrap()).unwrap();
    let inputs = [("spi", Value::Int(2)), ("leadership", Value::Int(1)), ("comms", Value::Bool(true))];
    assert_eq!(allocations(&mut s, "morale", &inputs, 1000), 0);
}

#[test]
fn modifiers_follow_an_option_changed_between_rolls() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let rules = frontiers();
    let mut s = Session::new(&rules, 1);
    let unit = s.create("unit", "u", &[]).unwrap();
    // Flat bonuses: one die, 6 + SPI 2 + Leadership 1 + Comms 1.
    let (id, args) = s
        .resolve(
            "morale",
            &[("spi", Value::Int(2)), ("leadership", Value::Int(1)), ("comms", Value::Bool(true))],
        )
        .unwrap();
    s.force_dice(&[6]);
    assert_eq!(s.roll_quietly(id, Some(unit), &args).unwrap().total, 10);
    // Extra dice: three dice, 6 + 6 + 6 + SPI 2.
    s.set_option("bonus_die", rules.option_value("bonus_die", "extra_d6").unwrap()).unwrap();
    s.force_dice(&[6, 6, 6]);
    assert_eq!(s.roll_quietly(id, Some(unit), &args).unwrap().total, 20);
    let r = s.roll_for("morale", Some(unit), &[("spi", Value::Int(2)), ("comms", Value::Bool(true))]);
    assert_eq!(
        r.unwrap().rolled.unwrap().pool.as_ref().unwrap().dice.len(),
        2,
        "SPI and Comms Gear: a second die"
    );
    // And back.
    s.set_option("bonus_die", rules.option_value("bonus_die", "flat_plus_one").unwrap()).unwrap();
    s.force_dice(&[6]);
    assert_eq!(s.roll_quietly(id, Some(unit), &args).unwrap().total, 10);
}

#[test]
fn a_condition_that_reads_a_missing_subject_still_fails_under_any_option() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let rules = Ruleset::from_str(
        "f.mettle",
        r#"
option mode: calm | wild = calm
kind unit { brave: flag = no }
check rally for unit {
  roll d6
  modifier "Brave and wild" +1 when unit.brave and mode is wild
  otherwise done
}
"#,
    )
    .unwrap();
    let mut s = Session::new(&rules, 1);
    let err = s.roll("rally", &[]).unwrap_err();
    assert_eq!(err.code, "mettle::run::no_subject");
    let (id, args) = s.resolve("rally", &[]).unwrap();
    assert_eq!(s.roll_quietly(id, None, &args).unwrap_err().code, "mettle::run::no_entity");
}

const ASSAULT: &str = r#"
option cover: none | light = light
check assault {
  input strength: 1..6 = 3
  input charging: flag = no
  roll (strength)d6kh2
  modifier "Cover" -1 when cover is light
  modifier "Charge" +1 die when charging
  target 8
  let sixes = count(dice, 6)
  outcome rout when sixes >= 2
  outcome win when total >= target
  otherwise repulsed
}
"#;

/// A check as `morale_race` rolls one: dice, a `let`, outcomes (no modifiers, no keep or drop).
const DISPERSAL: &str = r#"
check dispersal {
  input mp: 0..20 = 6
  roll d3 as loss
  let excess = loss - mp
  outcome to_opponent when mp == 0
  outcome below_zero when excess > 0
  otherwise lost
}
"#;

#[test]
fn rolling_a_check_again_with_the_log_off_allocates_nothing() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let rules = Ruleset::from_str("d.mettle", DISPERSAL).unwrap();
    let mut s = Session::new(&rules, 5);
    s.set_logging(false);
    let (id, _) = s.resolve("dispersal", &[]).unwrap();
    // The first rolls make the result and the two pools of dice that later rolls take turns with.
    for _ in 0..3 {
        s.roll_id(id, vec![]).unwrap();
    }
    let before = allocated();
    for _ in 0..1000 {
        std::hint::black_box(s.roll_id(id, vec![]).unwrap());
    }
    // Modifiers that apply still allocate their labels (`CheckResult::modifiers`), and keeping or
    // dropping dice its order: this check has neither.
    assert_eq!(allocated() - before, 0);
}

#[test]
fn a_result_written_over_the_last_one_equals_a_new_one() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let rules = Ruleset::from_str("a.mettle", ASSAULT).unwrap();
    for logging in [false, true] {
        // One session lets go of each result (so the next is written over it), the other keeps
        // them all (so each is new): the same seed gives equal results.
        let mut reused = Session::new(&rules, 9);
        let mut kept = Session::new(&rules, 9);
        reused.set_logging(logging);
        kept.set_logging(logging);
        let mut all = vec![];
        for strength in [1, 2, 6, 3, 6, 1, 4] {
            let inputs = [("strength", Value::Int(strength)), ("charging", Value::Bool(strength > 3))];
            let a = (*reused.roll("assault", &inputs).unwrap().rolled.unwrap()).clone();
            let b = kept.roll("assault", &inputs).unwrap().rolled.unwrap();
            assert_eq!(&a, &*b, "strength {strength}, logging {logging}");
            all.push(b);
        }
        assert_eq!(reused.log(), kept.log());
    }
}

/// Allocations made by `n` games of `scenario` played as a simulation plays them, after a first.
fn game_allocations(rules: &Ruleset, scenario: &str, n: u64) -> u64 {
    let index = rules.program().scenarios.iter().position(|s| s.name == scenario).unwrap();
    let mut s = Session::new(rules, 0);
    let mut game = mettle::internals::session::QuietGame::default();
    s.play_quietly(index, 1, &mut game).unwrap();
    let before = allocated();
    for seed in 2..2 + n {
        s.play_quietly(index, seed, &mut game).unwrap();
        std::hint::black_box(&game);
    }
    allocated() - before
}

#[test]
fn a_simulated_game_allocates_only_its_entities() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let combat =
        Ruleset::from_path(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/combat_hq.mettle")).unwrap();
    // What a game makes anew is little more than how it ended (its result's and winner's names); its two
    // groups are made in the last game's buffers, and checks' results, frames, dice and recorded
    // values are used again from game to game. (With a fresh session a game, as simulations played
    // before, it made 72; with its groups made anew, 12.)
    let per_game = game_allocations(&combat, "morale_race", 200) as f64 / 200.0;
    assert!(per_game <= 5.0, "morale_race: {per_game} allocations a game");
}

/// A quiet roll works in the frame the check's last quiet roll left: every value it reads must be
/// written again first. Inputs left out take their defaults (a written one and one worked out from
/// another input), not the last roll's values, and `count(dice, …)` counts this roll's dice.
#[test]
fn a_quiet_roll_reads_nothing_the_last_one_left() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let rules = Ruleset::from_str(
        "q.mettle",
        r#"
check c {
  input a: 0..9 = 0
  input b: 1..9 = a + 1
  let double = a * 2
  roll (b)d6
  modifier "Double" +double
  let sixes = count(dice, 6)
  outcome sixes_rolled when sixes >= 2
  otherwise fewer
}
"#,
    )
    .unwrap();
    let mut s = Session::new(&rules, 1);
    let (id, given) = s.resolve("c", &[("a", Value::Int(4))]).unwrap();
    let (_, none_given) = s.resolve("c", &[]).unwrap();
    // a = 4, b = 5: five dice and +8.
    s.force_dice(&[6, 6, 1, 1, 1]);
    let r = s.roll_quietly(id, None, &given).unwrap();
    assert_eq!((r.total, r.outcome), (23, 0));
    // a = 0, b = 1: one die and nothing more.
    s.force_dice(&[6]);
    let r = s.roll_quietly(id, None, &none_given).unwrap();
    assert_eq!((r.total, r.outcome), (6, 1));
    // b given alone: a = 0.
    let (_, three) = s.resolve("c", &[("b", Value::Int(3))]).unwrap();
    s.force_dice(&[6, 6, 6]);
    let r = s.roll_quietly(id, None, &three).unwrap();
    assert_eq!((r.total, r.outcome), (18, 0));
    s.force_dice(&[2, 6, 5, 1, 1]);
    let r = s.roll_quietly(id, None, &given).unwrap();
    assert_eq!((r.total, r.outcome), (23, 1));
}

/// A roll in a simulated game works in a frame an earlier roll of its check left, its values as they
/// were but for those a roll may leave unwritten: the places of `number of`'s candidates (here in
/// an outcome's condition that a low roll never reaches) and of an outcome's own values. The results
/// made from it, slot by slot, are those of the same game played with the log off.
#[test]
fn results_of_a_simulated_game_show_no_earlier_rolls_values() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let rules = Ruleset::from_str(
        "g.mettle",
        r#"
kind unit { hp: 0..9 = 3 }
check c for unit {
  roll d6
  let crowd = number of unit u where u.hp > 2
  outcome high when total >= 4 and (number of unit v where v.hp >= total - 3) > 0 {
    let gain = total - 3
    set unit.hp to gain
  }
  outcome mid when total >= 3
  otherwise low {
    let loss = 1
    remove loss from unit.hp
  }
}
scenario s {
  new unit a
  new unit b with hp = 1
  roll c for a
  roll c for b
  roll c for a
  roll c for b
  roll c for a
}
"#,
    )
    .unwrap();
    let mut reused = Session::new(&rules, 0);
    let mut game = mettle::internals::session::QuietGame::default();
    let mut outcomes = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let mut quiet = Session::new(&rules, seed);
        quiet.set_logging(false);
        quiet.run_scenario("s").unwrap();
        reused.play_quietly(0, seed, &mut game).unwrap();
        let last = |s: &Session| s.state().last().to_vec();
        assert_eq!(last(&quiet), last(&reused), "seed {seed}");
        outcomes.insert(quiet.state().last()[0].as_ref().unwrap().outcome.clone());
    }
    assert_eq!(outcomes.len(), 3, "every outcome comes last in some game: {outcomes:?}");
}
