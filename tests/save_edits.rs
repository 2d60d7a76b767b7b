//! Saves that survive edits: a save is checked against the structure it depends on, not the text.
//! Edits of comments, docs and rule bodies leave old saves loadable; a change of structure is named,
//! refused, or carried over by name when the host asks.

use mettle::session::SaveOptions;
use mettle::{Ruleset, Session, Value};

const RULES: &str = r#"
kind side { vp: 0..10 = 0 }
kind unit { side: side = none  hp: 0..10 = 6  morale: steady | shaken | routed = steady }
event hit(unit: unit)
on hit { remove 1 from unit.hp }
check rally { input spi: 0..6 = 3  roll d6  let need = 7 - spi  outcome back when total >= need  otherwise down }
event dare(unit: unit)
on dare { choose go "Go on?" from go_on | stop default stop  set unit.hp to 6 }
option house: plain | fancy = plain
"#;

fn rules(text: &str) -> Ruleset {
    Ruleset::from_str("edits.mettle", text).unwrap()
}

/// A game over `RULES`: a side, two units (one hit twice, one shaken), a roll, saved.
fn saved() -> String {
    let mut s = Session::new(&rules(RULES), 5);
    let blue = Value::Entity(s.create("side", "blue", &[]).unwrap());
    let u = Value::Entity(s.create("unit", "u", &[("side", blue)]).unwrap());
    let shaken = s.ruleset().value("morale", "shaken").unwrap();
    s.create("unit", "w", &[("hp", Value::Int(9)), ("morale", shaken)]).unwrap();
    s.apply("hit", &[("unit", u.clone())]).unwrap();
    s.apply("hit", &[("unit", u)]).unwrap();
    s.roll("rally", &[]).unwrap();
    s.save()
}

/// The ruleset with `from` replaced by `to`.
fn edited(from: &str, to: &str) -> Ruleset {
    assert!(RULES.contains(from), "{from}");
    rules(&RULES.replacen(from, to, 1))
}

fn refusal(r: &Ruleset) -> (String, String) {
    let e = Session::load(r, &saved()).unwrap_err();
    (e.code, e.message)
}

fn carried(r: &Ruleset) -> (Session, Vec<String>) {
    let (s, w) = Session::load_with(r, &saved(), true).unwrap();
    (s, w.into_iter().map(|d| d.message).collect())
}

#[test]
fn a_save_restores_after_comments_and_docs_are_edited() {
    let r = rules(&format!(
        "// Edited after the game was saved.\n{}",
        RULES.replace("kind unit", "/// A unit on the table.\nkind unit")
    ));
    let s = Session::load(&r, &saved()).unwrap();
    assert_eq!(s.get("u", "hp"), Some(&Value::Int(4)));
}

#[test]
fn a_save_restores_after_a_rule_body_is_edited() {
    let r = edited("on hit { remove 1 from unit.hp }", "on hit { remove 2 from unit.hp  note \"ouch\" }");
    let mut s = Session::load(&r, &saved()).unwrap();
    s.apply("hit", &[("unit", Value::Entity(1))]).unwrap();
    assert_eq!(s.get("u", "hp"), Some(&Value::Int(2)), "the edited rule plays on");
}

#[test]
fn a_save_restores_after_declarations_move() {
    let side = "kind side { vp: 0..10 = 0 }\n";
    let moved = rules(&format!("{}{side}", RULES.replacen(side, "", 1)));
    let (s, warnings) = Session::load_with(&moved, &saved(), false).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(s.get("w", "hp"), Some(&Value::Int(9)));
    assert_eq!(s.show(s.get("w", "morale").unwrap()), "shaken");
    assert_eq!(s.show(s.get("u", "side").unwrap()), "blue");
}

#[test]
fn a_range_change_is_refused_with_the_attribute_named() {
    let (code, message) = refusal(&edited("hp: 0..10 = 6", "hp: 0..6 = 6"));
    assert_eq!(code, "mettle::save::changed_rules");
    assert_eq!(message, "the rules changed since this save: attribute hp of unit: was 0..10, now 0..6");
}

#[test]
fn a_narrowed_range_is_carried_over_only_when_every_value_fits() {
    // w's hp is 9: the save cannot be carried over to 0..6, and says which value does not fit.
    let e = Session::load_with(&edited("hp: 0..10 = 6", "hp: 0..6 = 6"), &saved(), true).unwrap_err();
    assert_eq!(e.code, "mettle::save::does_not_fit");
    assert_eq!(e.message, "this save cannot be carried over to the changed rules: `w.hp` is 9, outside 0..6");
    // 0..9 holds every hp in the save.
    let (s, warnings) = carried(&edited("hp: 0..10 = 6", "hp: 0..9 = 6"));
    assert_eq!(warnings, ["the rules changed since this save: attribute hp of unit: was 0..10, now 0..9"]);
    assert_eq!(s.get("w", "hp"), Some(&Value::Int(9)));
}

#[test]
fn states_added_and_removed_are_named() {
    let r = edited("steady | shaken | routed", "steady | shaken | routed | fled");
    assert_eq!(refusal(&r).1, "the rules changed since this save: state fled of morale of unit was added");
    let (s, _) = carried(&r);
    assert_eq!(s.show(s.get("w", "morale").unwrap()), "shaken");
    // Nobody is routed: removing it carries over; removing shaken, which w is, does not.
    let r = edited("steady | shaken | routed", "steady | shaken");
    assert_eq!(
        refusal(&r).1,
        "the rules changed since this save: state routed of morale of unit was removed"
    );
    assert!(Session::load_with(&r, &saved(), true).is_ok());
    let r = edited("steady | shaken | routed", "routed | steady");
    let e = Session::load_with(&r, &saved(), true).unwrap_err();
    assert!(e.message.contains("`w.morale` is shaken, which is not one of routed | steady"), "{}", e.message);
}

#[test]
fn an_added_attribute_takes_its_default_and_one_without_is_refused() {
    let (s, warnings) =
        carried(&edited("kind side { vp: 0..10 = 0 }", "kind side { cp: 0..3 = 2  vp: 0..10 = 0 }"));
    assert_eq!(warnings, ["the rules changed since this save: attribute cp of side was added"]);
    assert_eq!(s.get("blue", "cp"), Some(&Value::Int(2)));
    let e =
        Session::load_with(&edited("vp: 0..10 = 0", "vp: 0..10 = 0  cp: 0..3"), &saved(), true).unwrap_err();
    assert!(e.message.contains("attribute cp of side was added without a default"), "{}", e.message);
}

#[test]
fn a_removed_kind_is_refused_while_an_entity_needs_it() {
    let r = rules(&RULES.replace("kind side { vp: 0..10 = 0 }", "").replace("side: side = none  ", ""));
    let (code, message) = refusal(&r);
    assert_eq!(code, "mettle::save::changed_rules");
    assert_eq!(
        message,
        "the rules changed since this save: kind side was removed; attribute side of unit was removed"
    );
    let e = Session::load_with(&r, &saved(), true).unwrap_err();
    assert!(e.message.contains("`blue` is a side, and the ruleset no longer has that kind"), "{}", e.message);
}

#[test]
fn a_last_roll_follows_its_check_or_is_forgotten() {
    // A check added before rally moves it: its last roll follows it by name.
    let r = edited("check rally", "check scout { roll d6  otherwise seen }\ncheck rally");
    let (s, warnings) = carried(&r);
    assert_eq!(warnings, ["the rules changed since this save: check scout was added"]);
    let rally = s.state().last()[1].as_ref().expect("rally's last roll");
    assert_eq!(rally.check, "rally");
    assert!(s.state().last()[0].is_none());
    // Its values changed: the last roll is forgotten, as if rally had not been rolled.
    let (s, warnings) = carried(&edited(
        "let need = 7 - spi  outcome back when total >= need",
        "let goal = 7 - spi  outcome back when total >= goal",
    ));
    assert!(s.state().last()[0].is_none());
    assert!(
        warnings.iter().any(|w| w
            .ends_with("the last roll of check rally was forgotten: its outcomes, inputs or values changed")),
        "{warnings:?}"
    );
}

#[test]
fn options_and_choices_are_matched_by_name() {
    let r = edited(
        "option house: plain | fancy = plain",
        "option bonus: 0..2 = 1\noption house: plain | fancy = plain",
    );
    let (s, warnings) = carried(&r);
    assert_eq!(warnings, ["the rules changed since this save: option bonus was added"]);
    assert_eq!(s.option("bonus"), Some(&Value::Int(1)));
    assert_eq!(s.show(s.option("house").unwrap()), "plain");
    let r = edited("from go_on | stop default", "from go_on | stop | wait default");
    assert_eq!(refusal(&r).1, "the rules changed since this save: answer wait of choice go was added");
}

#[test]
fn a_save_without_its_log_restores_the_game_and_numbers_lines_on() {
    let mut a = Session::load(&rules(RULES), &saved()).unwrap();
    let mut options = SaveOptions::default();
    options.log = false;
    let text = a.save_with(&options).unwrap();
    let mut b = Session::load(&rules(RULES), &text).unwrap();
    assert!(b.log().is_empty());
    assert_eq!(b.log_start(), a.log().len());
    assert_eq!(
        a.roll("rally", &[]).unwrap().rolled.unwrap().total,
        b.roll("rally", &[]).unwrap().rolled.unwrap().total
    );
    assert_eq!(a.state(), b.state());
    assert_eq!(a.log_start() + a.log().len(), b.log_start() + b.log().len());
}

#[test]
fn trimming_the_log_keeps_its_numbering_and_its_checkpoints() {
    let mut s = Session::load(&rules(RULES), &saved()).unwrap();
    let total = s.log().len();
    let before = s.checkpoint();
    s.roll("rally", &[]).unwrap();
    assert_eq!(s.trim_log(1), total);
    assert_eq!(s.log_start(), total);
    s.rewind(before);
    assert!(s.log().is_empty(), "the roll's line is taken back, the lines let go stay gone");
    let reloaded = Session::load(&rules(RULES), &s.save()).unwrap();
    assert_eq!(reloaded.log_start(), total);
}

#[test]
fn a_save_over_the_budget_is_refused_when_saved() {
    let mut budget = mettle::Budget::default();
    budget.set("save_bytes", 20_000).unwrap();
    let r = Ruleset::load("b.mettle", RULES, &mettle::LoadOptions { budget, ..Default::default() }).unwrap();
    let mut s = Session::new(&r, 1);
    for _ in 0..200 {
        s.roll("rally", &[]).unwrap();
    }
    let e = s.save_with(&SaveOptions::default()).unwrap_err();
    assert_eq!(e.code, "mettle::save::too_large");
    let mut options = SaveOptions::default();
    options.log = false;
    assert!(s.save_with(&options).is_ok());
}
