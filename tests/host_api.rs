//! The host's side of a session: dice it supplies, choices it answers, changes it observes and makes,
//! values written as text, and walks that end with their action.

use mettle::dice::{DieRequest, QueuedDice};
use mettle::internals::SessionInternals as _;
use mettle::{Change, Question, Reply, Ruleset, Session, Value};
use std::sync::{Arc, Mutex};

fn rules(text: &str) -> Ruleset {
    Ruleset::from_str("t.mettle", text).unwrap_or_else(|e| panic!("{}", e.render(100)))
}

/// The log as the command line prints it.
fn shown(s: &Session) -> String {
    mettle::session::render_log(s.log(), s.ruleset().text())
}

const MORALE: &str = r#"
kind unit { spi: 0..6 = 3  hp: 0..9 = 6  morale: steady | shaken | broken = steady  leader: unit }
event hit(unit: unit)
check morale for unit {
  input spi: 0..6
  roll d6
  modifier "Spirit" +spi
  target 7
  outcome steady when total >= target
  otherwise shaken { set unit.morale to shaken }
}
on hit { remove 2 from unit.hp  roll morale for unit }
"#;

// ------------------------------------------------------------------------------------------ dice

#[test]
fn without_a_source_the_seeded_generator_rolls_as_before() {
    let r = rules("check c { roll 3d6  otherwise done }");
    let mut plain = Session::new(&r, 42);
    let mut other = Session::new(&r, 42);
    other.set_dice_source(QueuedDice::new());
    other.clear_dice_source();
    for _ in 0..5 {
        assert_eq!(
            plain.roll("c", &[]).unwrap().rolled.unwrap().total,
            other.roll("c", &[]).unwrap().rolled.unwrap().total
        );
    }
}

#[test]
fn typed_dice_are_used_in_order_and_an_empty_queue_is_a_coded_error() {
    let r = rules(MORALE);
    let mut s = Session::new(&r, 1);
    let z = Value::Entity(s.create("unit", "z", &[("spi", Value::Int(2))]).unwrap());
    let typed = QueuedDice::new();
    s.set_dice_source(typed.clone());
    let before = (s.state().clone(), s.log().len());
    let drawn = s.generator_position();
    let e = s.apply("hit", &[("unit", z.clone())]).unwrap_err();
    assert_eq!(e.code, "mettle::dice::no_face");
    assert_eq!(e.message, "no face was given for the next die of `d6`");
    assert_eq!(
        e.help.as_deref(),
        Some("roll a d6 and push its face (`QueuedDice::push`), then run this again")
    );
    assert_eq!(e.labels.len(), 1, "it points at the dice in the rules");
    assert_eq!((s.state().clone(), s.log().len()), before, "the event is undone");
    typed.push(&[3, 6]);
    s.apply("hit", &[("unit", z)]).unwrap();
    assert_eq!(s.show(s.get("z", "morale").unwrap()), "shaken", "3 + 2 is short of 7");
    assert_eq!(typed.len(), 1, "one die was used, the 6 waits");
    assert_eq!(s.generator_position(), drawn, "the generator was not touched");
}

#[test]
fn faces_taken_by_an_action_that_failed_go_back_to_the_queue() {
    let r = rules("check c { roll 3d6  otherwise done }");
    let mut s = Session::new(&r, 1);
    let typed = QueuedDice::new();
    s.set_dice_source(typed.clone());
    typed.push(&[1, 2]);
    assert_eq!(s.roll("c", &[]).unwrap_err().code, "mettle::dice::no_face");
    assert_eq!(typed.len(), 2);
    typed.push(&[4]);
    let r = s.roll("c", &[]).unwrap().rolled.unwrap();
    let faces: Vec<i64> = r.pool.as_ref().unwrap().dice.iter().map(|d| d.face).collect();
    assert_eq!(faces, [1, 2, 4]);
}

#[test]
fn a_host_generator_is_asked_for_each_die_and_checked() {
    let r = rules("check c { roll 2d6  otherwise done }");
    let mut s = Session::new(&r, 1);
    let asked = Arc::new(Mutex::new(vec![]));
    let seen = asked.clone();
    s.set_dice_source(move |die: DieRequest<'_>| {
        seen.lock().unwrap().push(die.notation.to_string());
        Ok(die.faces.max())
    });
    assert_eq!(s.roll("c", &[]).unwrap().rolled.unwrap().total, 12);
    assert_eq!(*asked.lock().unwrap(), ["2d6", "2d6"]);
    s.set_dice_source(|_: DieRequest<'_>| Ok(7));
    let e = s.roll("c", &[]).unwrap_err();
    assert_eq!(e.code, "mettle::dice::bad_face");
    assert_eq!(e.message, "the dice source gave 7, which a die of 2d6 cannot show");
}

#[test]
fn forced_dice_come_first_and_can_be_cleared() {
    let r = rules("check c { roll d6  otherwise done }");
    let mut s = Session::new(&r, 1);
    let typed = QueuedDice::new();
    s.set_dice_source(typed.clone());
    typed.push(&[2]);
    s.force_dice(&[5, 6]);
    assert_eq!(s.roll("c", &[]).unwrap().rolled.unwrap().total, 5);
    s.clear_forced_dice();
    assert!(s.state().forced().next().is_none());
    assert_eq!(s.roll("c", &[]).unwrap().rolled.unwrap().total, 2, "the typed die, not the forced 6");
}

#[test]
fn a_save_keeps_the_generator_and_not_the_hosts_source() {
    let r = rules("check c { roll 3d6  otherwise done }");
    let mut s = Session::new(&r, 9);
    let typed = QueuedDice::new();
    s.set_dice_source(typed.clone());
    typed.push(&[6, 6, 6]);
    s.roll("c", &[]).unwrap().rolled.unwrap();
    let mut loaded = Session::load(&r, &s.save()).unwrap();
    // The loaded session rolls with the generator, which the typed dice never moved.
    let mut fresh = Session::new(&r, 9);
    assert_eq!(
        loaded.roll("c", &[]).unwrap().rolled.unwrap().total,
        fresh.roll("c", &[]).unwrap().rolled.unwrap().total
    );
    // The host sets its source again to go on with typed dice.
    loaded.set_dice_source(typed.clone());
    typed.push(&[1, 1, 1]);
    assert_eq!(loaded.roll("c", &[]).unwrap().rolled.unwrap().total, 3);
}

// --------------------------------------------------------------------------------------- choices

const DARE: &str = r#"
kind unit { pick: red | blue | green = red  n: 0..99 = 0 }
event ask(unit: unit)
on ask {
  set unit.n to d6
  choose colour "Which colour?" from red | blue | green default green
  set unit.pick to colour
}
"#;

#[test]
fn a_chooser_answers_and_is_logged_as_the_host() {
    let r = rules(DARE);
    let mut s = Session::new(&r, 3);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    let questions = Arc::new(Mutex::new(vec![]));
    let q2 = questions.clone();
    s.set_chooser(move |q: &Question| {
        q2.lock().unwrap().push((q.choice.clone(), q.question.clone(), q.shown.clone()));
        Reply::Answer(q.options[1].clone())
    });
    s.apply("ask", &[("unit", u.clone())]).unwrap();
    assert_eq!(s.show(s.get("u", "pick").unwrap()), "blue");
    assert_eq!(
        *questions.lock().unwrap(),
        [(
            "colour".to_string(),
            "Which colour?".to_string(),
            vec!["red".to_string(), "blue".into(), "green".into()]
        )]
    );
    assert!(shown(&s).contains("choice colour: \"Which colour?\" -> blue (by host)"), "{}", shown(&s));
    // Replying with the default takes the rules' default.
    s.set_chooser(|_: &Question| Reply::Default);
    s.apply("ask", &[("unit", u.clone())]).unwrap();
    assert_eq!(s.show(s.get("u", "pick").unwrap()), "green");
    // Without a chooser: the default, as always.
    s.clear_chooser();
    s.set_attribute("u", "pick", r.value("pick", "red").unwrap()).unwrap();
    s.apply("ask", &[("unit", u)]).unwrap();
    assert_eq!(s.show(s.get("u", "pick").unwrap()), "green");
}

/// Among units `a` (hp 4), `b` (hp 3) and `zero` (hp 0): the first passes the filter, the last
/// divides by zero.
const PICK: &str = r#"
kind unit { hp: 0..9 = 4  picked: unit }
event pick(unit: unit)
on pick {
  choose target "Which unit?" from unit t where 12 / t.hp >= 3
  set unit.picked to target
}
"#;

/// Plays event `pick` of `text` with `steps` steps, with the chooser replying with the default
/// (`asked`) or with no chooser, after `setup` has made the units and given the event's facts: the
/// error code, or whom `a` picked.
fn play_pick(
    text: &str,
    steps: u64,
    asked: bool,
    setup: impl FnOnce(&mut Session) -> Vec<(&'static str, Value)>,
) -> Result<String, String> {
    let mut budget = mettle::Budget::default();
    budget.steps = steps;
    let r = rules(text).with_budget(budget);
    let mut s = Session::new(&r, 1);
    let facts = setup(&mut s);
    if asked {
        s.set_chooser(|_: &Question| Reply::Default);
    }
    match s.apply("pick", &facts) {
        Ok(_) => Ok(s.show(s.get("a", "picked").unwrap())),
        Err(e) => Err(e.code.to_string()),
    }
}

/// Plays `pick` for `a` with `steps` steps (see `play_pick`), with a unit of no hit points when
/// `zero`.
fn pick(steps: u64, asked: bool, zero: bool) -> Result<String, String> {
    play_pick(PICK, steps, asked, |s| {
        let a = Value::Entity(s.create("unit", "a", &[]).unwrap());
        s.create("unit", "b", &[("hp", Value::Int(3))]).unwrap();
        if zero {
            s.create("unit", "zero", &[("hp", Value::Int(0))]).unwrap();
        }
        vec![("unit", a)]
    })
}

/// `play(steps, asked, failing)` with a chooser taking the default and with none: `a` is picked
/// without the failing unit or fact, the error `code` is raised with it, and the fewest steps the
/// action needs are the same both ways.
fn same_asked_or_not(play: impl Fn(u64, bool, bool) -> Result<String, String>, code: &str) {
    for asked in [false, true] {
        assert_eq!(play(10_000, asked, false), Ok("a".into()), "asked: {asked}");
        assert_eq!(play(10_000, asked, true), Err(code.into()), "asked: {asked}");
    }
    let fewest = |asked| (1..200).find(|&n| play(n, asked, false).is_ok());
    assert!(fewest(false).is_some());
    assert_eq!(fewest(false), fewest(true));
}

#[test]
fn an_unasked_choice_goes_through_every_candidate_as_an_asked_one_does() {
    // Nobody asked: the first unit that passes, as when the chooser takes the default; a later
    // candidate's error is raised although the first already passed; the candidates cost the same
    // steps.
    same_asked_or_not(pick, "mettle::run::divide_by_zero");
}

/// A choice whose filter reads only attributes of the candidate and of locals: once the first unit
/// passes, the others are counted as steps without being tested, unless a local it reads holds
/// no entity (then a later candidate may fail where the first did not).
const PICK_PLAIN: &str = r#"
kind unit { hp: 0..9 = 4  picked: unit }
event pick(unit: unit, other: unit)
on pick {
  choose target "Which unit?" from unit t where t.hp > 5 or t.hp >= other.hp
  set unit.picked to target
}
"#;

/// Plays `pick` for `a` (hp 9), against `b` (hp 3) or against none (`none`), with `steps` steps
/// (see `play_pick`).
fn pick_plain(steps: u64, asked: bool, none: bool) -> Result<String, String> {
    play_pick(PICK_PLAIN, steps, asked, |s| {
        let a = Value::Entity(s.create("unit", "a", &[("hp", Value::Int(9))]).unwrap());
        let b = Value::Entity(s.create("unit", "b", &[("hp", Value::Int(3))]).unwrap());
        s.create("unit", "c", &[]).unwrap();
        vec![("unit", a), ("other", if none { Value::None } else { b })]
    })
}

#[test]
fn an_unasked_choice_stops_testing_at_the_first_candidate_only_where_nothing_can_fail() {
    // With `other` none, `a` passes on its own hit points and `b` reads `other.hp` and fails, asked
    // or not; the candidates not tested are still steps.
    same_asked_or_not(pick_plain, "mettle::run::no_entity");
}

#[test]
fn a_wrong_answer_from_the_chooser_is_a_coded_error_and_changes_nothing() {
    let r = rules(DARE);
    let mut s = Session::new(&r, 3);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    s.set_chooser(|_: &Question| Reply::Answer(Value::Int(4)));
    let before = (s.state().clone(), s.log().len());
    let e = s.apply("ask", &[("unit", u)]).unwrap_err();
    assert_eq!(e.code, "mettle::run::bad_answer");
    assert_eq!(e.message, "`4` is not an option for choice `colour` here");
    assert_eq!(e.help.as_deref(), Some("answer one of: red, blue, green"));
    assert_eq!((s.state().clone(), s.log().len()), before);
}

#[test]
fn a_step_waits_for_an_answer_and_resumes_with_the_same_dice() {
    let r = rules(DARE);
    let mut s = Session::new(&r, 3);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    // What the dice would show, from a copy of the session.
    let mut copy = s.clone();
    copy.apply("ask", &[("unit", u.clone())]).unwrap();
    let rolled = copy.get("u", "n").unwrap().clone();

    s.set_chooser(|_: &Question| Reply::Wait);
    let before = (s.state().clone(), s.log().len());
    let stop = s.apply("ask", &[("unit", u)]).unwrap();
    assert_eq!(stop.question.as_ref().map(|q| q.question.as_str()), Some("Which colour?"));
    assert!(stop.changes.is_empty() && stop.checks.is_empty(), "nothing happened yet");
    assert_eq!((s.state().clone(), s.log().len()), before, "nothing happened yet");
    let q = s.question().unwrap();
    assert_eq!((q.choice.as_str(), q.shown.len()), ("colour", 3));

    // A wrong answer: a coded error, and the session is as it was.
    assert_eq!(s.answer("colour", Value::Int(0)).unwrap_err().code, "mettle::run::type_mismatch");
    let stray = Value::Name { set: 99, index: 0 };
    assert!(s.answer("colour", stray).is_err());
    assert_eq!((s.state().clone(), s.log().len()), before);
    assert!(s.question().is_some(), "still waiting");

    s.answer("colour", r.value("pick", "blue").unwrap()).unwrap();
    s.resume().unwrap();
    assert_eq!(s.show(s.get("u", "pick").unwrap()), "blue");
    assert_eq!(s.get("u", "n"), Some(&rolled), "the die before the question rolled the same");
    assert!(shown(&s).contains("-> blue (by host)"), "{}", shown(&s));
    assert!(s.question().is_none());
    assert_eq!(s.resume().unwrap_err().code, "mettle::run::nothing_to_resume");
}

#[test]
fn an_answer_outside_the_waiting_questions_options_is_refused() {
    let r = rules(
        r#"kind unit { n: 0..99 = 0 }
        event ask(unit: unit)
        on ask { choose bet "How much?" from 1..20  set unit.n to bet }"#,
    );
    let mut s = Session::new(&r, 3);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    s.set_chooser(|_: &Question| Reply::Wait);
    assert!(s.apply("ask", &[("unit", u)]).unwrap().question.is_some());
    assert_eq!(s.question().unwrap().range, Some((1, Some(20))));
    let before = s.state().clone();
    let e = s.answer("bet", Value::Int(0)).unwrap_err();
    assert_eq!(e.code, "mettle::run::out_of_range");
    assert_eq!(e.help.as_deref(), Some("give a value between 1 and 20"));
    assert_eq!(*s.state(), before);
    s.answer("bet", Value::Int(12)).unwrap();
    s.resume().unwrap();
    assert_eq!(s.get("u", "n"), Some(&Value::Int(12)));
}

// ------------------------------------------------------------------------------------- observers

fn watch(s: &mut Session) -> Arc<Mutex<Vec<String>>> {
    let seen = Arc::new(Mutex::new(vec![]));
    let out = seen.clone();
    s.observe(move |c: &Change| {
        out.lock().unwrap().push(match c {
            Change::Attribute { entity, name, attribute, from, to, span } => {
                format!("#{entity} {name}.{attribute}: {from:?} -> {to:?} @{}", span.start)
            }
            Change::Created { entity, name, kind, .. } => format!("new {kind} #{entity} {name}"),
            Change::Removed { entity, name } => format!("removed #{entity} {name}"),
            other => format!("{other:?}"),
        })
    });
    seen
}

#[test]
fn observers_hear_of_every_change_with_its_rule() {
    let r = rules(MORALE);
    let mut s = Session::new(&r, 1);
    let seen = watch(&mut s);
    let z = Value::Entity(s.create("unit", "z", &[("spi", Value::Int(2))]).unwrap());
    s.force_dice(&[1]);
    s.apply("hit", &[("unit", z)]).unwrap();
    let hp_rule = MORALE.find("remove 2 from unit.hp").unwrap();
    let shaken_rule = MORALE.find("set unit.morale to shaken").unwrap();
    assert_eq!(
        *seen.lock().unwrap(),
        [
            "new unit #0 z".to_string(),
            format!("#0 z.hp: Int(6) -> Int(4) @{hp_rule}"),
            format!(
                "#0 z.morale: {:?} -> {:?} @{shaken_rule}",
                r.value("morale", "steady").unwrap(),
                r.value("morale", "shaken").unwrap()
            ),
        ]
    );
}

#[test]
fn observers_hear_nothing_of_an_action_that_was_undone_and_can_stop_listening() {
    let r = rules(
        "kind unit { hp: 0..9 = 1, strict  n: 0..9 = 0 } event hit(unit: unit) on hit { add 1 to unit.n  remove 5 from unit.hp }",
    );
    let mut s = Session::new(&r, 1);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    let seen = watch(&mut s);
    assert!(s.apply("hit", &[("unit", u)]).is_err());
    assert!(seen.lock().unwrap().is_empty());
    let other = s.observe(|_: &Change| {});
    assert!(s.unobserve(other));
    assert!(!s.unobserve(other));
}

#[test]
fn observers_hear_of_timed_changes_running_out() {
    let r = rules(
        "kind unit { a: flag = no } event boost(unit: unit) on boost { set unit.a to yes until end of turn }",
    );
    let mut s = Session::new(&r, 1);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    s.apply("boost", &[("unit", u)]).unwrap();
    let seen = watch(&mut s);
    s.apply("turn_end", &[]).unwrap();
    let rule = r.text().find("set unit.a").unwrap();
    assert_eq!(*seen.lock().unwrap(), [format!("#0 u.a: Bool(true) -> Bool(false) @{rule}")]);
}

// -------------------------------------------------------------------------------- host operations

#[test]
fn the_host_sets_attributes_checked_and_logged() {
    let r = rules(MORALE);
    let mut s = Session::new(&r, 1);
    let seen = watch(&mut s);
    s.create("unit", "z", &[]).unwrap();
    s.create("unit", "y", &[]).unwrap();
    s.set_attribute("z", "hp", Value::Int(2)).unwrap();
    s.set_attribute("z", "morale", r.value("morale", "broken").unwrap()).unwrap();
    s.set_attribute("z", "leader", Value::Entity(1)).unwrap();
    assert_eq!(s.get("z", "hp"), Some(&Value::Int(2)));
    assert!(shown(&s).contains("z.hp: 6 -> 2\n"), "{}", shown(&s));
    assert!(shown(&s).contains("z.leader: none -> y\n"), "{}", shown(&s));
    assert_eq!(seen.lock().unwrap()[2], "#0 z.hp: Int(6) -> Int(2) @0");

    let before = (s.state().clone(), s.log().len());
    let err = |r: Result<mettle::Outcome, mettle::Diagnostic>| {
        let e = r.unwrap_err();
        (e.code, e.help.unwrap_or_default())
    };
    assert_eq!(
        err(s.set_attribute("z", "hp", Value::Int(10))),
        ("mettle::run::out_of_range".into(), "give a value between 0 and 9".into())
    );
    assert_eq!(err(s.set_attribute("z", "hp", Value::Bool(true))).0, "mettle::run::type_mismatch");
    assert_eq!(err(s.set_attribute("z", "leader", Value::Entity(7))).0, "mettle::run::unknown_entity");
    assert_eq!(
        err(s.set_attribute("zz", "hp", Value::Int(1))),
        ("mettle::run::unknown_entity".into(), "did you mean `z`?".into())
    );
    assert_eq!(
        err(s.set_attribute("z", "moral", Value::Int(1))),
        ("mettle::run::unknown_attribute".into(), "did you mean `morale`?".into())
    );
    assert_eq!((s.state().clone(), s.log().len()), before, "refused changes change nothing");
}

#[test]
fn removing_an_entity_clears_references_and_keeps_every_other_id() {
    let r = rules(
        "kind unit { leader: unit  a: flag = no }
         event boost(unit: unit)
         on boost { set unit.a to yes until end of turn }",
    );
    let mut s = Session::new(&r, 1);
    let boss = s.create("unit", "boss", &[]).unwrap();
    let grunt = s.create("unit", "grunt", &[("leader", Value::Entity(boss))]).unwrap();
    let other = s.create("unit", "other", &[("leader", Value::Entity(grunt))]).unwrap();
    s.apply("boost", &[("unit", Value::Entity(boss))]).unwrap();
    s.apply("boost", &[("unit", Value::Entity(other))]).unwrap();
    let seen = watch(&mut s);
    s.remove_entity("boss").unwrap();
    assert_eq!((s.entity("grunt"), s.entity("other"), s.entity("boss")), (Some(1), Some(2), None));
    assert_eq!(s.get("grunt", "leader"), Some(&Value::None));
    assert_eq!(s.get("other", "leader"), Some(&Value::Entity(grunt)));
    assert_eq!(s.state().timed().len(), 1, "boss's timed change is gone");
    assert_eq!(s.state().timed()[0].entity, other);
    assert!(shown(&s).ends_with("removed unit boss\n"), "{}", shown(&s));
    assert_eq!(*seen.lock().unwrap(), ["removed #0 boss"]);
    // The state still fits the rules: it saves and loads, and the timed change still runs out.
    let mut back = Session::load(&r, &s.save()).unwrap();
    back.apply("turn_end", &[]).unwrap();
    assert_eq!(back.get("other", "a"), Some(&Value::Bool(false)));
    assert_eq!(s.remove_entity("boss").unwrap_err().code, "mettle::run::unknown_entity");
}

/// A session of units `a`, `b`, `c` with `b` removed, and their ids.
fn without_b() -> (Session, [u32; 3]) {
    let mut s = Session::new(&rules(MORALE), 1);
    let ids = ["a", "b", "c"].map(|n| s.create("unit", n, &[]).unwrap());
    s.remove_entity("b").unwrap();
    (s, ids)
}

/// The code of an error, and whether its help names `b`.
fn removed(e: mettle::Diagnostic) -> (String, bool) {
    let names_b = e.help.as_deref().is_some_and(|h| h.contains("`b`"));
    (e.code, names_b)
}

#[test]
fn an_id_names_the_same_entity_after_another_is_removed() {
    let (mut s, [a, _, c]) = without_b();
    assert_eq!((s.entity("a"), s.entity("c")), (Some(a), Some(c)));
    // An order meant for `c`, given by the id the host kept, reaches `c`.
    s.apply("hit", &[("unit", Value::Entity(c))]).unwrap();
    assert_eq!(s.get("c", "hp"), Some(&Value::Int(4)));
    assert_eq!(s.get("a", "hp"), Some(&Value::Int(6)), "`a` was not hit");
    s.set_attribute("a", "leader", Value::Entity(c)).unwrap();
    let r = s.roll_for("morale", Some(c), &[]).unwrap();
    assert!(shown(&s).contains("morale"), "{r:?}");
    assert_eq!(s.state().entities().get(c).map(|e| e.name.as_str()), Some("c"));
    let view = mettle::wire::state(&s);
    let names: Vec<&str> = view.entities.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["a", "c"]);
    assert_eq!(mettle::wire::value(&s, s.get("a", "leader").unwrap()), mettle::wire::Val::Name("c".into()));
}

#[test]
fn a_removed_id_is_refused_by_every_entry_point_with_its_name() {
    let r = rules(
        "kind unit { spi: 0..6 = 3  hp: 0..9 = 6  leader: unit }
         kind side { vp: 0.. = 0 }
         event hit(unit: unit)
         on hit { remove 2 from unit.hp }
         check morale for unit { input who: unit  roll d6  otherwise done }
         on hit { choose pick \"Who?\" from unit u  set unit.leader to pick }",
    );
    let mut s = Session::new(&r, 1);
    let [_a, b, c] = ["a", "b", "c"].map(|n| s.create("unit", n, &[]).unwrap());
    s.remove_entity("b").unwrap();
    let before = (s.state().clone(), s.log().len());
    let gone = Value::Entity(b);
    let want = ("mettle::run::removed_entity".to_string(), true);
    assert_eq!(removed(s.apply("hit", &[("unit", gone.clone())]).unwrap_err()), want, "a fact");
    assert_eq!(removed(s.create("unit", "d", &[("leader", gone.clone())]).unwrap_err()), want, "with");
    assert_eq!(removed(s.set_attribute("c", "leader", gone.clone()).unwrap_err()), want, "an attribute");
    assert_eq!(removed(s.roll_for("morale", Some(b), &[]).unwrap_err()), want, "a subject");
    assert_eq!(removed(s.roll("morale", &[("who", gone.clone())]).unwrap_err()), want, "an input");
    assert_eq!(removed(s.answer("pick", gone.clone()).unwrap_err()), want, "an answer");
    assert_eq!((s.state().clone(), s.log().len()), before, "refused, nothing changed");
    // An id never given, and an entity of the wrong kind, are refused too.
    let e = s.apply("hit", &[("unit", Value::Entity(99))]).unwrap_err();
    assert_eq!(e.code, "mettle::run::unknown_entity");
    assert!(s.roll_for("morale", Some(99), &[]).is_err());
    let side = s.create("side", "blue", &[]).unwrap();
    let e = s.apply("hit", &[("unit", Value::Entity(side))]).unwrap_err();
    assert_eq!(e.code, "mettle::run::type_mismatch");
    assert!(e.message.contains("unit") && e.message.contains("side"), "{}", e.message);
    let e = s.roll_for("morale", Some(side), &[]).unwrap_err();
    assert_eq!(e.code, "mettle::run::type_mismatch");
    assert_eq!(s.get("blue", "vp"), Some(&Value::Int(0)));
    s.apply("hit", &[("unit", Value::Entity(c))]).unwrap();
}

#[test]
fn a_removed_id_is_never_given_again_though_its_name_may_be() {
    let (mut s, [a, b, c]) = without_b();
    let d = s.create("unit", "d", &[]).unwrap();
    assert!(![a, b, c].contains(&d), "a new entity gets a new id, not b's");
    let b2 = s.create("unit", "b", &[]).unwrap();
    assert_ne!(b2, b, "the name is free again, the id is not");
    assert_eq!(s.entity("b"), Some(b2));
    let e = s.apply("hit", &[("unit", Value::Entity(b))]).unwrap_err();
    assert_eq!(e.code, "mettle::run::removed_entity");
    s.apply("hit", &[("unit", Value::Entity(b2))]).unwrap();
    assert_eq!(s.get("b", "hp"), Some(&Value::Int(4)));
    assert_eq!(s.state().entities().len(), 4);
    assert_eq!(s.state().entities().slots(), 5);
}

#[test]
fn ids_and_removals_survive_save_and_load() {
    let (s, [a, b, c]) = without_b();
    let saved = s.save();
    let mut back = Session::load(s.ruleset(), &saved).unwrap();
    assert_eq!(back.state(), s.state());
    assert_eq!((back.entity("a"), back.entity("c"), back.entity("b")), (Some(a), Some(c), None));
    let e = back.apply("hit", &[("unit", Value::Entity(b))]).unwrap_err();
    assert_eq!(removed(e), ("mettle::run::removed_entity".to_string(), true));
    back.apply("hit", &[("unit", Value::Entity(c))]).unwrap();
    assert_eq!(back.get("c", "hp"), Some(&Value::Int(4)));
    assert!(back.create("unit", "d", &[]).unwrap() > c, "ids go on after the removed one");
    // The removed entity's place is in the save; an attribute naming it is refused on loading.
    let mut json: serde_json::Value = serde_json::from_str(&saved).unwrap();
    assert_eq!(json["state"]["entities"][b as usize], serde_json::json!({ "removed": "b" }));
    json["state"]["entities"][a as usize]["fields"][3] = serde_json::json!({ "Entity": b });
    let e = Session::load(s.ruleset(), &json.to_string()).unwrap_err();
    assert_eq!(e.code, "mettle::save::bad_value", "{e:?}");
}

#[test]
fn the_host_creates_entities_checked_and_logged() {
    let r = rules(MORALE);
    let mut s = Session::new(&r, 1);
    let e = s.create("unti", "z", &[]).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.help.as_deref()),
        ("mettle::run::unknown_kind", Some("did you mean `unit`?"))
    );
    let e = s.create("unit", "z", &[("spi", Value::Int(7))]).unwrap_err();
    assert_eq!(e.code, "mettle::run::out_of_range");
    s.create("unit", "z", &[]).unwrap();
    assert_eq!(s.create("unit", "z", &[]).unwrap_err().code, "mettle::run::duplicate");
    assert_eq!(shown(&s), "new unit z\n");
}

// ----------------------------------------------------------------------------------------- values

#[test]
fn values_are_read_and_written_as_text_through_the_rules() {
    let r = rules(MORALE);
    let shaken = r.value("morale", "shaken").unwrap();
    assert_eq!(r.text_of(&shaken), "shaken");
    assert_eq!(r.value("spi", " 4 ").unwrap(), Value::Int(4));
    let e = r.value("spi", "four").unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.message.as_str()),
        ("mettle::value::not_a_number", "`spi` is a number, not `four`")
    );
    assert_eq!(r.value("leader", "boss").unwrap_err().code, "mettle::value::not_text");
    assert_eq!(r.value("nothing", "x").unwrap_err().code, "mettle::value::unknown_type");
    assert_eq!(r.text_of(&Value::Entity(3)), "#3");
}

#[test]
fn a_check_made_for_a_unit_takes_missing_inputs_from_its_attributes() {
    let r = rules(MORALE);
    let mut s = Session::new(&r, 1);
    let z = s.create("unit", "z", &[("spi", Value::Int(5))]).unwrap();
    s.force_dice(&[2]);
    let res = s.roll_for("morale", Some(z), &[]).unwrap().rolled.unwrap();
    assert_eq!((res.total, res.outcome.as_str()), (7, "steady"), "2 + z's spi of 5");
    // Given, the input wins.
    s.force_dice(&[2]);
    assert_eq!(s.roll_for("morale", Some(z), &[("spi", Value::Int(1))]).unwrap().rolled.unwrap().total, 3);
    // Made by nobody, the input must be given.
    assert_eq!(s.roll("morale", &[]).unwrap_err().code, "mettle::run::missing_input");
    // The rules may say `roll morale for unit` without `with spi = unit.spi`.
    let mut s = Session::new(&r, 1);
    let z = Value::Entity(s.create("unit", "z", &[("spi", Value::Int(5))]).unwrap());
    s.force_dice(&[2]);
    s.apply("hit", &[("unit", z)]).unwrap();
    assert_eq!(s.show(s.get("z", "morale").unwrap()), "steady");
}

#[test]
fn an_attribute_outside_the_inputs_range_is_an_error_not_clamped() {
    let r = rules(
        "kind unit { spi: 0..9 = 8 }
         check morale for unit { input spi: 0..6  roll d6  modifier \"Spirit\" +spi  otherwise done }",
    );
    let mut s = Session::new(&r, 1);
    let z = s.create("unit", "z", &[]).unwrap();
    let e = s.roll_for("morale", Some(z), &[]).unwrap_err();
    assert_eq!(e.code, "mettle::run::out_of_range");
    assert_eq!(e.message, "input `spi` of check `morale` is 8, taken from z's spi, outside its range");
}

#[test]
fn an_input_the_unit_lacks_is_still_missing_when_checked() {
    let e = Ruleset::from_str(
        "t.mettle",
        "kind unit { spi: 0..6 = 3 }
         event hit(unit: unit)
         check morale for unit { input nerve: 0..6  roll d6  otherwise done }
         on hit { roll morale for unit }",
    )
    .unwrap_err();
    assert_eq!(e.diagnostics[0].code, "mettle::resolve::missing_input");
}

// ------------------------------------------------------------------------------------------- walk

#[test]
fn a_walk_ends_with_its_action_and_the_session_plays_on() {
    let r = rules("kind unit { n: 0..99 = 0 } event go(unit: unit) on go { set unit.n to 2d6 }");
    let mut s = Session::new(&r, 5);
    let mut fresh = Session::new(&r, 5);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    fresh.create("unit", "u", &[]).unwrap();
    s.walk(&[4]);
    assert!(s.apply("go", &[("unit", u.clone())]).is_err(), "the walk stops at the second die");
    assert_eq!(s.walk_needs().map(<[i64]>::len), Some(6));
    // The walk is over: the same dice as a session that never walked.
    s.apply("go", &[("unit", u.clone())]).unwrap();
    fresh.apply("go", &[("unit", u.clone())]).unwrap();
    assert_eq!(s.get("u", "n"), fresh.get("u", "n"));
    // A complete path plays through, and ends too.
    s.walk(&[4, 5]);
    s.apply("go", &[("unit", u.clone())]).unwrap();
    assert_eq!(s.get("u", "n"), Some(&Value::Int(9)));
    s.apply("go", &[("unit", u.clone())]).unwrap();
    fresh.apply("go", &[("unit", u)]).unwrap();
    assert_eq!(s.get("u", "n"), fresh.get("u", "n"));
}

#[test]
fn an_answer_the_waiting_question_does_not_offer_is_refused_at_once() {
    let r = rules(
        r#"kind unit { ready: flag = no  picked: flag = no }
        event pick()
        on pick { choose who "Which unit acts?" from unit u where u.ready  set who.picked to yes }"#,
    );
    let mut s = Session::new(&r, 3);
    s.create("unit", "a", &[("ready", Value::Bool(true))]).unwrap();
    let idle = s.create("unit", "b", &[]).unwrap();
    s.set_chooser(|_: &Question| Reply::Wait);
    assert!(s.apply("pick", &[]).unwrap().question.is_some());
    assert_eq!(s.question().unwrap().shown, ["a"]);
    let before = (s.state().clone(), s.log().len());
    let e = s.answer("who", Value::Entity(idle)).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.message.as_str()),
        ("mettle::run::bad_answer", "`b` is not an option for choice `who` here")
    );
    assert_eq!(e.help.as_deref(), Some("answer one of: a"));
    assert_eq!((s.state().clone(), s.log().len()), before);
    s.answer("who", Value::Entity(0)).unwrap();
    s.resume().unwrap();
    assert_eq!(s.get("a", "picked"), Some(&Value::Bool(true)));
    assert_eq!(s.get("b", "picked"), Some(&Value::Bool(false)));
}
