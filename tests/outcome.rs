//! What an action did (`Outcome`), collected with the log on or off, and actions that wait on a
//! question: who asks, the dice they resume with, dropping them, and the answers queued.

use mettle::dice::{DieRequest, QueuedDice};
use mettle::{Change, Diagnostic, Question, Reply, Ruleset, Session, Value};

fn rules(text: &str) -> Ruleset {
    Ruleset::from_str("t.mettle", text).unwrap_or_else(|e| panic!("{}", e.render(100)))
}

const FIGHT: &str = r#"
kind unit { hp: 0..9 = 4  shaken: flag = no }
result wiped "Wiped out"
check nerve for unit { roll d6  outcome fail when total <= 3 { set unit.shaken to yes  note "shaken" }  otherwise hold }
check hurt { roll d6  outcome bad when total >= 4  otherwise mild }
event hit(unit: unit)
on hit {
  roll hurt
  remove 2 from unit.hp
  roll nerve for unit
  if unit.hp == 0 { end game with wiped }
}
"#;

/// `hit` applied twice to a fresh unit with the log `on` or off, and what each time did.
fn fight(logging: bool) -> Vec<mettle::Outcome> {
    let r = rules(FIGHT);
    let mut s = Session::new(&r, 5);
    s.set_logging(logging);
    let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    s.force_dice(&[5, 1, 2, 6]);
    (0..2).map(|_| s.apply("hit", &[("unit", u.clone())]).unwrap()).collect()
}

#[test]
fn an_outcome_holds_the_checks_changes_notes_and_end_in_order_with_the_log_off() {
    let quiet = fight(false);
    let first = &quiet[0];
    let checks: Vec<(&str, &str)> =
        first.checks.iter().map(|c| (c.check.as_str(), c.outcome.as_str())).collect();
    assert_eq!(checks, [("hurt", "bad"), ("nerve", "fail")]);
    let changes: Vec<String> = first
        .changes
        .iter()
        .map(|c| match c {
            Change::Attribute { name, attribute, from, to, .. } => {
                format!("{name}.{attribute} {from:?}->{to:?}")
            }
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(changes, ["u.hp Int(4)->Int(2)", "u.shaken Bool(false)->Bool(true)"]);
    assert_eq!(first.notes.iter().map(|n| n.text.as_str()).collect::<Vec<_>>(), ["shaken"]);
    assert!(first.ended.is_none() && first.question.is_none() && first.rolled.is_none());
    let second = &quiet[1];
    assert_eq!(second.checks[1].outcome, "hold");
    assert!(second.notes.is_empty());
    assert_eq!(second.ended.as_ref().map(|e| e.result.as_str()), Some("wiped"));
    // The same with the log on.
    let loud = fight(true);
    for (a, b) in quiet.iter().zip(&loud) {
        assert_eq!(a.changes, b.changes);
        assert_eq!(a.notes, b.notes);
        assert_eq!(a.ended, b.ended);
        let outcomes = |o: &mettle::Outcome| o.checks.iter().map(|c| c.total).collect::<Vec<_>>();
        assert_eq!(outcomes(a), outcomes(b));
    }
}

#[test]
fn a_roll_gives_its_own_result_first_and_host_changes_give_theirs() {
    let r = rules(FIGHT);
    let mut s = Session::new(&r, 5);
    let u = s.create("unit", "u", &[]).unwrap();
    s.force_dice(&[2]);
    let done = s.roll_for("nerve", Some(u), &[]).unwrap();
    assert_eq!(done.rolled.as_ref().map(|r| r.outcome.as_str()), Some("fail"));
    assert!(std::sync::Arc::ptr_eq(done.rolled.as_ref().unwrap(), &done.checks[0]));
    let set = s.set_attribute("u", "hp", Value::Int(1)).unwrap();
    assert!(matches!(&set.changes[..], [Change::Attribute { from: Value::Int(4), to: Value::Int(1), .. }]));
    let gone = s.remove_entity("u").unwrap();
    assert!(matches!(&gone.changes[..], [Change::Removed { name, .. }] if name == "u"));
}

const ASK: &str = r#"
kind side { ap: 0..6 = 0 }
kind unit { side: side  n: 0..99 = 0  brave: flag = no }
check dare for unit { roll d6  outcome go when total >= 1 { choose bold "Be bold?" from yes | no default no  set unit.brave to bold }  otherwise stay }
event muster(side: side, unit: unit)
on muster {
  set unit.n to d6
  choose who "Who goes first?" from unit u where u.side == side
  add 1 to side.ap
}
event test(unit: unit)
on test { roll dare for unit }
scenario asks { new side s  new unit a with side = s  trigger muster(side: s, unit: a) }
"#;

#[test]
fn the_question_says_who_asks_its_options_and_its_default() {
    let r = rules(ASK);
    let mut s = Session::new(&r, 1);
    let side = s.create("side", "blue", &[]).unwrap();
    let a = s.create("unit", "a", &[("side", Value::Entity(side))]).unwrap();
    s.set_chooser(|_: &Question| Reply::Wait);
    let q = s.apply("muster", &[("side", Value::Entity(side)), ("unit", Value::Entity(a))]).unwrap();
    let q = q.question.unwrap();
    assert_eq!(q.asker, Some(side), "the first entity fact of the event");
    assert_eq!((q.options.clone(), q.default.clone()), (vec![Value::Entity(a)], Some(Value::Entity(a))));
    s.abandon().unwrap();
    let q = s.apply("test", &[("unit", Value::Entity(a))]).unwrap().question.unwrap();
    assert_eq!(q.asker, Some(a), "the unit making the check");
    assert_eq!(q.default, Some(Value::Bool(false)));
    s.abandon().unwrap();
    let fresh = &mut Session::new(&r, 1);
    fresh.set_chooser(|_: &Question| Reply::Wait);
    let report = fresh.run_scenario("asks").unwrap();
    assert_eq!(report.outcome.question.unwrap().asker, Some(0), "the scenario fires the event");
}

/// A session of `ASK` with a side and a unit in play, asking and waiting.
fn waiting(seed: u64) -> (Session, [Value; 2]) {
    let r = rules(ASK);
    let mut s = Session::new(&r, seed);
    let side = Value::Entity(s.create("side", "blue", &[]).unwrap());
    let a = Value::Entity(s.create("unit", "a", &[("side", side.clone())]).unwrap());
    s.set_chooser(|_: &Question| Reply::Wait);
    (s, [side, a])
}

#[test]
fn a_waiting_action_resumes_with_the_faces_a_closure_source_gave() {
    let (mut s, [side, a]) = waiting(1);
    let mut next = 0;
    s.set_dice_source(move |_: DieRequest<'_>| -> Result<i64, Diagnostic> {
        next = next % 6 + 1;
        Ok(next)
    });
    let before = s.checkpoint();
    let asked = s.apply("muster", &[("side", side.clone()), ("unit", a.clone())]).unwrap();
    assert!(asked.question.is_some());
    assert_eq!(s.get("a", "n"), Some(&Value::Int(0)), "undone while it waits");
    s.answer("who", a.clone()).unwrap();
    let done = s.resume().unwrap();
    assert_eq!(s.get("a", "n"), Some(&Value::Int(1)), "the face drawn before the question, not a new one");
    assert_eq!(done.changes.len(), 2);
    // The next die is the source's next face.
    s.rewind(before);
    s.answer("who", a.clone()).unwrap();
    s.apply("muster", &[("side", side), ("unit", a)]).unwrap();
    assert_eq!(s.get("a", "n"), Some(&Value::Int(2)));
}

#[test]
fn dropping_a_waiting_action_gives_its_faces_back_and_leaves_the_session_as_it_was() {
    let (mut s, [side, a]) = waiting(1);
    let typed = QueuedDice::new();
    s.set_dice_source(typed.clone());
    typed.push(&[4]);
    let before = (s.state().clone(), s.log().len());
    s.apply("muster", &[("side", side.clone()), ("unit", a.clone())]).unwrap();
    assert_eq!(typed.len(), 0, "the face waits with the action");
    assert_eq!(s.abandon().unwrap().choice, "who");
    assert_eq!(typed.len(), 1, "and goes back when it is dropped");
    assert_eq!((s.state().clone(), s.log().len()), before);
    // Another action drops it too.
    s.apply("muster", &[("side", side.clone()), ("unit", a.clone())]).unwrap();
    s.set_attribute("a", "n", Value::Int(7)).unwrap();
    assert!(s.question().is_none());
    assert_eq!(s.resume().unwrap_err().code, "mettle::run::nothing_to_resume");
    assert_eq!(typed.len(), 1);
}

#[test]
fn a_checkpoint_keeps_the_waiting_action() {
    let (mut s, [side, a]) = waiting(2);
    s.apply("muster", &[("side", side), ("unit", a.clone())]).unwrap();
    let asked = s.checkpoint();
    s.answer("who", a).unwrap();
    s.resume().unwrap();
    assert!(s.question().is_none());
    s.rewind(asked);
    assert_eq!(s.question().map(|q| q.choice.as_str()), Some("who"));
    assert!(s.answers().is_empty(), "the answer came after the checkpoint");
}

#[test]
fn queued_answers_are_listed_and_cleared() {
    let (mut s, [_, a]) = waiting(3);
    s.answer("who", a.clone()).unwrap();
    s.answer("bold", Value::Bool(true)).unwrap();
    let listed: Vec<(String, Value, bool)> =
        s.answers().into_iter().map(|q| (q.choice, q.value, q.by_host)).collect();
    assert_eq!(listed, [("who".into(), a, true), ("bold".into(), Value::Bool(true), true)]);
    s.clear_answers();
    assert!(s.answers().is_empty());
}
