//! How a session runs rules: one small ruleset per behaviour.

use mettle::internals::RulesetInternals as _;
use mettle::{Ruleset, Session, Value};

fn rules(text: &str) -> Ruleset {
    Ruleset::from_str("t.mettle", text).unwrap_or_else(|e| panic!("{}", e.render(100)))
}

fn int(s: &Session, e: &str, f: &str) -> i64 {
    s.get(e, f).unwrap().as_int().unwrap()
}

const COUNTER: &str = "kind unit { n: 0..100 = 0  log: 0..1000 = 0 } event poke(unit: unit)";

#[test]
fn program_is_send_and_sync() {
    fn assert_both<T: Send + Sync>() {}
    assert_both::<mettle::internals::program::Program>();
    assert_both::<Ruleset>();
}

#[test]
fn triggers_run_in_file_order() {
    let r = rules(&format!(
        "{COUNTER} on poke {{ set unit.log to unit.log * 10 + 1 }} on poke {{ set unit.log to unit.log * 10 + 2 }}"
    ));
    let mut s = Session::new(&r, 0);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    s.apply("poke", &[("unit", u)]).unwrap();
    assert_eq!(int(&s, "u", "log"), 12);
}

#[test]
fn each_trigger_of_an_event_reads_the_facts_as_given_and_none_of_the_others_locals() {
    // The triggers of an event run one after another in one frame: the first's locals (a `let`, a
    // loop's unit, a count's, a choice) must not reach the second, nor change its facts.
    let r = rules(
        "kind unit { n: 0..100 = 0  log: 0..1000 = 0  pick: unit }\n\
         event poke(unit: unit, by: 0..9)\n\
         on poke { let twice = by * 2  for each unit u { add twice to u.n }\n\
           let c = number of unit v where v.n > 0\n\
           choose who \"Which?\" from unit w where w.n > 100\n\
           set unit.log to c }\n\
         on poke { set unit.n to unit.n * 10 + by  set unit.pick to unit }\n\
         on poke { let fresh = by  set unit.log to unit.log * 10 + fresh }",
    );
    let mut s = Session::new(&r, 0);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    s.create("unit", "other", &[]).unwrap();
    s.apply("poke", &[("unit", u.clone()), ("by", Value::Int(3))]).unwrap();
    assert_eq!(int(&s, "u", "n"), 63);
    assert_eq!(int(&s, "other", "n"), 6);
    assert_eq!(int(&s, "u", "log"), 23);
    assert_eq!(s.get("u", "pick").unwrap(), &u);
}

#[test]
fn an_event_that_fires_itself_stops_with_an_error() {
    let r = rules(&format!("{COUNTER} on poke {{ add 1 to unit.n  trigger poke(unit: unit) }}"));
    let mut s = Session::new(&r, 0);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    let e = s.apply("poke", &[("unit", u)]).unwrap_err();
    assert_eq!(e.code, "mettle::run::too_deep");
    assert_eq!(int(&s, "u", "n"), 0, "the whole event is undone");
}

#[test]
fn numbers_are_clamped_unless_strict() {
    let r = rules(&format!("{COUNTER} on poke {{ add 500 to unit.n }}"));
    let mut s = Session::new(&r, 0);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    s.apply("poke", &[("unit", u)]).unwrap();
    assert_eq!(int(&s, "u", "n"), 100);
}

#[test]
fn timed_changes_expire() {
    let r = rules(
        "kind unit { a: flag = no  b: flag = no  c: flag = no }
         event boost(unit: unit)
         on boost { set unit.a to yes until end of turn  set unit.b to yes until end of round
                    set unit.c to yes for next round }",
    );
    let mut s = Session::new(&r, 0);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    let flags = |s: &Session| ["a", "b", "c"].map(|f| s.get("u", f).unwrap().as_bool().unwrap());
    s.apply("round_start", &[]).unwrap();
    s.apply("turn_start", &[]).unwrap();
    s.apply("boost", &[("unit", u)]).unwrap();
    assert_eq!(flags(&s), [true, true, true]);
    s.apply("turn_end", &[]).unwrap();
    assert_eq!(flags(&s), [false, true, true]);
    s.apply("round_end", &[]).unwrap();
    assert_eq!(flags(&s), [false, false, true]);
    s.apply("round_start", &[]).unwrap();
    s.apply("round_end", &[]).unwrap();
    assert_eq!(flags(&s), [false, false, false]);
}

#[test]
fn choices_take_answers_in_order_then_defaults() {
    let r = rules(
        "kind unit { pick: red | blue | green = red }
         event ask(unit: unit)
         on ask { choose colour \"Which colour?\" from red | blue | green default green  set unit.pick to colour }",
    );
    let mut s = Session::new(&r, 0);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    let blue = Value::Name { set: r.program().choices[0].ty.set().unwrap(), index: 1 };
    s.answer("colour", blue).unwrap();
    s.apply("ask", &[("unit", u.clone())]).unwrap();
    assert_eq!(s.show(s.get("u", "pick").unwrap()), "blue");
    s.apply("ask", &[("unit", u)]).unwrap();
    assert_eq!(s.show(s.get("u", "pick").unwrap()), "green", "no answer left: the default");
}

#[test]
fn number_choices_take_answers_within_their_range() {
    let r = rules(
        "kind unit { stake: 0..50 = 0 }
         event ask(unit: unit)
         on ask { choose bet \"How much?\" from 1..20  set unit.stake to bet }",
    );
    let mut s = Session::new(&r, 0);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    let err = s.answer("bet", Value::Int(21)).unwrap_err();
    assert_eq!(err.code, "mettle::run::out_of_range");
    assert!(err.help.as_deref().unwrap_or_default().contains("between 1 and 20"), "{:?}", err.help);
    s.answer("bet", Value::Int(20)).unwrap();
    s.apply("ask", &[("unit", u.clone())]).unwrap();
    assert_eq!(s.get("u", "stake").unwrap(), &Value::Int(20));
    s.apply("ask", &[("unit", u)]).unwrap();
    assert_eq!(s.get("u", "stake").unwrap(), &Value::Int(1), "no answer, no default: the lowest");
}

#[test]
fn tables_ladders_and_formulas() {
    let r = rules(
        "ladder difficulty { simple = 3 routine = 7 difficult = 11 formidable = 15 impossible = 19 }
         table wound(level: minor | serious, party: flag) -> difficulty {
           minor, no: difficult   minor, yes: routine   serious, _: formidable }
         define tn(markers: 0..) = 6 + triangular(markers)
         check test {
           input level: minor | serious
           input party: flag = no
           input markers: 0..10 = 0
           input shift_by: -5..5 = 0
           let d = shift(wound(level, party), shift_by)
           let number = value(d)
           let stress = tn(markers)
           outcome ok when number > 0
           otherwise never
         }",
    );
    let mut s = Session::new(&r, 0);
    let level = |i| Value::Name { set: r.program().checks[0].inputs[0].field.ty.set().unwrap(), index: i };
    let run = |s: &mut Session, lvl, party, markers, shift| {
        let res = s
            .roll(
                "test",
                &[
                    ("level", level(lvl)),
                    ("party", Value::Bool(party)),
                    ("markers", Value::Int(markers)),
                    ("shift_by", Value::Int(shift)),
                ],
            )
            .unwrap()
            .rolled
            .unwrap();
        res.values.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
    };
    assert_eq!(run(&mut s, 0, false, 1, 0), "d=difficult number=11 stress=7");
    assert_eq!(run(&mut s, 0, true, 2, 0), "d=routine number=7 stress=9");
    assert_eq!(run(&mut s, 1, true, 3, 1), "d=impossible number=19 stress=12");
    assert_eq!(run(&mut s, 1, false, 0, 5), "d=impossible number=19 stress=6", "shifting stops at the top");
    assert_eq!(run(&mut s, 0, true, 0, -5), "d=simple number=3 stress=6", "and at the bottom");
}

#[test]
fn modifiers_apply_with_conditions_caps_and_dice() {
    let r = rules(
        "check c {
           input advancing: 0..10 = 0
           input shaken: flag = no
           roll 2d6
           modifier \"Members advancing\" +advancing max 2
           modifier \"Shaken\" -1 die when shaken
           target 8
           outcome pass when total >= target
           otherwise fail
         }",
    );
    let mut s = Session::new(&r, 0);
    s.force_dice(&[3, 4]);
    let res = s.roll("c", &[("advancing", Value::Int(5))]).unwrap().rolled.unwrap();
    assert_eq!((res.total, res.outcome.as_str()), (9, "pass"));
    assert_eq!(res.modifiers.len(), 1);
    assert_eq!((res.modifiers[0].label.as_str(), res.modifiers[0].amount), ("Members advancing", 2));
    s.force_dice(&[6]);
    let res = s.roll("c", &[("shaken", Value::Bool(true))]).unwrap().rolled.unwrap();
    assert_eq!(res.pool.as_ref().unwrap().dice.len(), 1);
    assert_eq!((res.total, res.outcome.as_str()), (6, "fail"));
}

#[test]
fn game_over_stops_further_events() {
    let r = rules(&format!(
        "{COUNTER} result done \"Done\" on poke {{ end game with done for unit  add 1 to unit.n }}"
    ));
    let mut s = Session::new(&r, 0);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    s.apply("poke", &[("unit", u.clone())]).unwrap();
    assert_eq!(int(&s, "u", "n"), 0, "the rule stops at the end of the game");
    assert_eq!(s.state().over().unwrap().winner.as_deref(), Some("u"));
    assert_eq!(s.apply("poke", &[("unit", u)]).unwrap_err().code, "mettle::run::game_over");
}

#[test]
fn forced_dice_must_fit_the_die() {
    let r = rules("check c { roll d6 outcome six when total == 6 otherwise other }");
    let mut s = Session::new(&r, 0);
    s.force_dice(&[7]);
    assert_eq!(s.roll("c", &[]).unwrap_err().code, "mettle::run::forced_dice");
}

#[test]
fn api_names_are_checked_with_suggestions() {
    let r = rules("check morale { input spi: 0..6 roll d6 outcome ok when total > 3 otherwise no_good }");
    let mut s = Session::new(&r, 0);
    let e = s.roll("moral", &[]).unwrap_err();
    assert_eq!(e.help.as_deref(), Some("did you mean `morale`?"));
    let e = s.roll("morale", &[("sip", Value::Int(1))]).unwrap_err();
    assert_eq!(e.help.as_deref(), Some("did you mean `spi`?"));
    let e = s.roll("morale", &[("spi", Value::Int(9))]).unwrap_err();
    assert_eq!(e.code, "mettle::run::out_of_range");
    // Each value given is checked, even one given again after it.
    let e = s.roll("morale", &[("spi", Value::Int(9)), ("spi", Value::Int(2))]).unwrap_err();
    assert_eq!(e.code, "mettle::run::out_of_range");
    let e = s.roll("morale", &[]).unwrap_err();
    assert_eq!(e.code, "mettle::run::missing_input");
}

#[test]
fn a_rule_rolling_a_check_gives_its_inputs_as_the_api_does() {
    let r = rules(
        "kind unit { n: 0..99 = 2  d: 0..9 = 1  got: 0..99 = 0 }\n\
         check c { input spi: 0..6\n input bonus: 0..99 = 0\n roll d6\n modifier \"Spirit\" +spi\n\
           modifier \"Bonus\" +bonus\n outcome ok when total > 0 otherwise no_good }\n\
         event hit(unit: unit)\n\
         on hit { roll c with spi = unit.n, bonus = 12 / unit.d  set unit.got to last c.total }",
    );
    let mut s = Session::new(&r, 0);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    s.apply("hit", &[("unit", u.clone())]).unwrap();
    let got = int(&s, "u", "got");
    assert!((15..=20).contains(&got), "a d6 + 2 + 12 ({got})");
    // An input out of its range: the same error as from the API, at the roll.
    s.set_attribute("u", "n", Value::Int(9)).unwrap();
    let e = s.apply("hit", &[("unit", u.clone())]).unwrap_err();
    assert_eq!(e.code, "mettle::run::out_of_range");
    assert_eq!(e.message, "input `spi` of check `c` is 9, outside its range");
    // Every input is worked out before any is checked against its range.
    s.set_attribute("u", "d", Value::Int(0)).unwrap();
    let e = s.apply("hit", &[("unit", u)]).unwrap_err();
    assert_eq!(e.code, "mettle::run::divide_by_zero");
    assert_eq!(int(&s, "u", "got"), got, "a failed action changes nothing");
}

#[test]
fn table_rows_may_count_entities() {
    let r = rules(
        "kind unit { n: 0..9 = 0 }
         table crowd(k: 1..2) { 1: number of unit u where u.n > 0  otherwise: 0 }
         scenario s { new unit a with n = 1  new unit b  expect crowd(1) == 1  expect crowd(2) == 0 }",
    );
    let report = Session::new(&r, 0).run_scenario("s").unwrap();
    assert_eq!((report.passed, report.failures.len()), (2, 0));
}

#[test]
fn yes_no_choices_keep_their_written_order() {
    let r = rules(
        "kind unit { f: flag = yes } event e(unit: unit)
         on e { choose c \"?\" from no | yes  set unit.f to c }",
    );
    let mut s = Session::new(&r, 0);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    s.apply("e", &[("unit", u)]).unwrap();
    assert_eq!(s.get("u", "f"), Some(&Value::Bool(false)), "no default: the first option written");
}

#[test]
fn dice_set_aside_do_not_explode() {
    let r = rules("check c { roll 2d6kl1x outcome any otherwise none_ }");
    let mut s = Session::new(&r, 0);
    s.force_dice(&[6, 2, 5]);
    assert_eq!(s.roll("c", &[]).unwrap().rolled.unwrap().total, 2);
}

#[test]
fn input_defaults_use_earlier_inputs() {
    let r = rules(
        "check c { input base: 0..6 = 2  input more: 0..9 = base + 1  outcome x when more == 3 otherwise y }",
    );
    let mut s = Session::new(&r, 0);
    assert_eq!(s.roll("c", &[]).unwrap().rolled.unwrap().outcome, "x");
    assert_eq!(s.roll("c", &[("base", Value::Int(5))]).unwrap().rolled.unwrap().outcome, "y");
    let bad =
        Ruleset::from_str("t.mettle", "check c { input a: 0..9 = b + 1  input b: 0..9 = 1  otherwise x }");
    assert_eq!(bad.unwrap_err().diagnostics[0].code, "mettle::resolve::unknown_name");
}

#[test]
fn an_outcome_without_condition_always_applies() {
    let r = Ruleset::from_str("t.mettle", "check c { roll d6 outcome a otherwise b }").unwrap();
    assert_eq!(r.warnings()[0].code, "mettle::resolve::unreachable");
}

#[test]
fn a_timed_change_runs_out_without_undoing_other_changes() {
    let r = rules(
        "kind unit { spi: 0..9 = 3 } event boost(unit: unit) event hurt(unit: unit)
         on boost { set unit.spi to unit.spi + 2 until end of turn }
         on hurt { remove 1 from unit.spi }",
    );
    let mut s = Session::new(&r, 0);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    s.apply("boost", &[("unit", u.clone())]).unwrap();
    s.apply("hurt", &[("unit", u)]).unwrap();
    assert_eq!(int(&s, "u", "spi"), 4);
    s.apply("turn_end", &[]).unwrap();
    assert_eq!(int(&s, "u", "spi"), 2, "the +2 runs out, the -1 stays");
}

#[test]
fn division_rounds_down() {
    let r = rules("check c { input a: int  input b: int  let q = a / b  otherwise x }");
    let mut s = Session::new(&r, 0);
    let q = |s: &mut Session, a, b| {
        s.roll("c", &[("a", Value::Int(a)), ("b", Value::Int(b))]).unwrap().rolled.unwrap().values[0]
            .1
            .clone()
    };
    assert_eq!(q(&mut s, 7, 2), "3");
    assert_eq!(q(&mut s, 7, -2), "-4");
    assert_eq!(q(&mut s, -7, 2), "-4");
    assert_eq!(
        s.roll("c", &[("a", Value::Int(1)), ("b", Value::Int(0))]).unwrap_err().code,
        "mettle::run::divide_by_zero"
    );
}

#[test]
fn a_check_made_by_someone_rolled_for_nobody_says_so() {
    let r = rules(
        "kind unit { spi: 0..6 = 3 } check c for unit { roll d6  modifier \"Spirit\" +unit.spi  otherwise done }",
    );
    let mut s = Session::new(&r, 0);
    let e = s.roll("c", &[]).unwrap_err();
    assert_eq!(e.code, "mettle::run::no_subject");
    assert!(e.message.contains("made by a unit"), "{}", e.message);
    let u = s.create("unit", "u", &[]).unwrap();
    s.force_dice(&[2]);
    assert_eq!(s.roll_for("c", Some(u), &[]).unwrap().rolled.unwrap().total, 5);
}

#[test]
fn table_rows_may_start_with_a_negative_number() {
    let r = rules(
        "table reaction(margin: int) -> flee | hold | rally {
           ..-3: flee
           -2..0: hold
           1..: rally
         }
         scenario s {
           expect reaction(-5) is flee
           expect reaction(-1) is hold
           expect reaction(2) is rally
           expect 7 - 2 == 5 and 3 -1 == 2
         }",
    );
    let report = Session::new(&r, 0).run_scenario("s").unwrap();
    assert_eq!((report.passed, report.failures.len()), (4, 0));
}

#[test]
fn a_rule_heading_stops_before_a_comment_in_its_body() {
    let rules = Ruleset::from_str(
        "r.mettle",
        "kind unit { hp: 0..9 = 5 }\nevent hit(u: unit)\non hit when u.hp > 0 { // a wound\n  remove 1 from u.hp\n}",
    )
    .unwrap();
    assert_eq!(rules.program().triggers[0].text, "on hit when u.hp > 0");
}

/// A change lasting until an event is undone when that event fires: in the same action, in a later
/// one (a new runner, which must know one is waiting), and after a save is loaded; and not by
/// another event.
#[test]
fn changes_until_an_event_end_when_it_fires() {
    let r = rules(
        "kind unit { pinned: flag = no }
         event pin(unit: unit)
         event rally
         event other
         on pin { set unit.pinned to yes until rally }
         event pin_and_rally(unit: unit)
         on pin_and_rally { trigger pin(unit: unit)  trigger rally }",
    );
    let pinned = |s: &Session| s.get("u", "pinned").unwrap().as_bool().unwrap();
    let mut s = Session::new(&r, 0);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    // Set and undone within one action.
    s.apply("pin_and_rally", &[("unit", u.clone())]).unwrap();
    assert!(!pinned(&s));
    // Set in one action, undone in a later one, not by another event.
    s.apply("pin", &[("unit", u.clone())]).unwrap();
    assert!(pinned(&s));
    s.apply("other", &[]).unwrap();
    assert!(pinned(&s));
    s.apply("rally", &[]).unwrap();
    assert!(!pinned(&s));
    // Set, saved, loaded, then undone.
    s.apply("pin", &[("unit", u)]).unwrap();
    let mut loaded = Session::load(&r, &s.save()).unwrap();
    assert!(pinned(&loaded));
    loaded.apply("other", &[]).unwrap();
    assert!(pinned(&loaded));
    loaded.apply("rally", &[]).unwrap();
    assert!(!pinned(&loaded));
}
