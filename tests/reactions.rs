//! Reactions written in the language: `reaction NAME(…) { … }` run by `follow`, `order "…"`, fields of
//! shaped data, and `nearest`/`first … in … where … by …`. Behaviour, then hostile cases by code.

use mettle::{Ruleset, Session, Value};
use serde_json::json;
use std::sync::Arc;

/// A small ruleset: a creature, the table around it, and reactions choosing from it.
const RULES: &str = r#"
kind creature { stress: 0..9 = 0, missile: flag = no }
shape friend { name: text, distance: 0.., in_combat: flag = no, reachable: flag = no, turns: 0.. = 0 }
shape cover { name: text, reachable: flag = no }
shape seen {
  friends: list of friend = []
  cover: list of cover = []
  target: text = none
  post: cover = none
}
event falters(creature: creature, seen: seen)
event reads_post(creature: creature, seen: seen)
event soonest(creature: creature, seen: seen)

define can_shoot(c: creature, s: seen) = c.missile and s.target is not none

reaction shoot_if_able(c: creature, s: seen) {
  if can_shoot(c, s) { order "shoot at {s.target}" }
}

reaction falter(c: creature, s: seen) {
  let friend = nearest f in s.friends where not f.in_combat
  let cover = first k in s.cover where k.reachable
  if friend is not none {
    order "move towards {friend.name} ({friend.distance} inches, {c})"
    if friend.reachable { order "position behind {friend.name}" }
  } else if cover is not none {
    order "move towards {cover.name}"
  } else {
    order "lose the action: nowhere to go"
  }
  follow shoot_if_able(c, s)
  add 1 to c.stress
}

reaction guard_post(s: seen) {
  order "hold {s.post.name}"
}

reaction by_turns(s: seen) {
  let f = nearest x in s.friends by turns
  if f is not none { order "run to {f.name}" }
}

on falters { follow falter(creature, seen) }
on reads_post { follow guard_post(seen) }
on soonest { follow by_turns(seen) }
"#;

fn rules() -> Ruleset {
    Ruleset::from_str("reactions.mettle", RULES).unwrap_or_else(|e| panic!("{}", e.render(100)))
}

fn data(v: serde_json::Value) -> Value {
    Value::Data(Arc::new(v))
}

/// A session with one creature `orc` (missile-armed when `missile`), and its id.
fn session(r: &Ruleset, missile: bool) -> (Session, Value) {
    let mut s = Session::new(r, 1);
    let id = s.create("creature", "orc", &[("missile", Value::Bool(missile))]).unwrap();
    (s, Value::Entity(id))
}

fn orders(s: &Session) -> Vec<String> {
    s.state().orders().iter().map(|o| o.text.clone()).collect()
}

/// The error code of a ruleset that does not load.
fn load_error(text: &str) -> Vec<String> {
    match Ruleset::from_str("bad.mettle", text) {
        Ok(_) => panic!("loaded: {text}"),
        Err(e) => e.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code.clone()).collect(),
    }
}

fn fails(text: &str, code: &str) {
    let codes = load_error(&format!("{RULES}\n{text}"));
    assert!(codes.iter().any(|c| c == code), "wanted {code} for {text:?}, got {codes:?}");
}

// ------------------------------------------------------------------ behaviour

#[test]
fn nearest_skips_what_fails_its_condition_and_the_orders_show_values() {
    let r = rules();
    let (mut s, orc) = session(&r, true);
    let seen = json!({
        "friends": [{"name": "goblin", "distance": 2, "in_combat": true}, {"name": "troll", "distance": 9},
                    {"name": "ogre", "distance": 6, "reachable": true}],
        "target": "ranger"
    });
    s.apply("falters", &[("creature", orc.clone()), ("seen", data(seen))]).unwrap();
    assert_eq!(
        orders(&s),
        ["move towards ogre (6 inches, orc)", "position behind ogre", "shoot at ranger"],
        "the goblin is closer but in combat"
    );
    assert_eq!(s.get("orc", "stress"), Some(&Value::Int(1)), "a reaction's body changes the game too");
}

#[test]
fn nearest_takes_the_first_listed_on_a_tie_and_first_takes_the_order_listed() {
    let r = rules();
    let (mut s, orc) = session(&r, false);
    let seen = json!({"friends": [{"name": "a", "distance": 4}, {"name": "b", "distance": 4}]});
    s.apply("falters", &[("creature", orc.clone()), ("seen", data(seen))]).unwrap();
    assert_eq!(orders(&s), ["move towards a (4 inches, orc)"]);
    let seen = json!({"cover": [{"name": "hedge"}, {"name": "wall", "reachable": true}, {"name": "ruin", "reachable": true}]});
    s.apply("falters", &[("creature", orc.clone()), ("seen", data(seen))]).unwrap();
    assert_eq!(orders(&s), ["move towards wall"], "the orders start afresh with each rule's follow");
    s.apply("falters", &[("creature", orc), ("seen", data(json!({})))]).unwrap();
    assert_eq!(
        orders(&s),
        ["lose the action: nowhere to go"],
        "none passes: none, and no shot without a target"
    );
}

#[test]
fn nearest_by_a_field_the_author_names() {
    let r = rules();
    let (mut s, orc) = session(&r, false);
    let seen = json!({"friends": [{"name": "near", "distance": 1, "turns": 3}, {"name": "quick", "distance": 8, "turns": 1}]});
    s.apply("soonest", &[("creature", orc), ("seen", data(seen))]).unwrap();
    assert_eq!(orders(&s), ["run to quick"]);
}

#[test]
fn the_log_names_the_reaction_once_and_each_order_at_its_line() {
    let r = rules();
    let (mut s, orc) = session(&r, true);
    let seen = json!({"cover": [{"name": "wall", "reachable": true}], "target": "ranger"});
    s.apply("falters", &[("creature", orc), ("seen", data(seen))]).unwrap();
    let log = mettle::session::render_log(s.log(), r.text());
    assert_eq!(log.matches("reaction ").count(), 1, "{log}");
    assert!(log.contains("reaction falter"), "{log}");
    let line = RULES[..RULES.find("order \"shoot at").unwrap()].matches('\n').count() + 1;
    assert!(log.contains(&format!("order: shoot at ranger  (line {line})")), "{log}");
}

// ------------------------------------------------------------------ hostile: in play

#[test]
fn a_field_of_none_is_a_located_error_and_the_event_is_undone() {
    let r = rules();
    let (mut s, orc) = session(&r, false);
    let seen = json!({"friends": [{"name": "a", "distance": 1}]});
    s.apply("falters", &[("creature", orc.clone()), ("seen", data(seen))]).unwrap();
    let before = s.save();
    let err = s.apply("reads_post", &[("creature", orc.clone()), ("seen", data(json!({})))]).unwrap_err();
    assert_eq!(err.code, "mettle::run::no_entry");
    let at = RULES.find("order \"hold").unwrap();
    assert_eq!(err.span().start, at);
    assert!(err.help.as_deref().unwrap_or("").contains("is not none"), "{:?}", err.help);
    assert_eq!(s.save(), before, "nothing changed");
    // The session goes on.
    let seen = json!({"post": {"name": "the gate"}});
    s.apply("reads_post", &[("creature", orc), ("seen", data(seen))]).unwrap();
    assert_eq!(orders(&s), ["hold the gate"]);
}

#[test]
fn a_huge_list_is_walked_within_the_steps_budget() {
    let r = rules();
    let friends: Vec<_> =
        (0..20_000).map(|i| json!({"name": format!("f{i}"), "distance": 20_000 - i})).collect();
    let seen = data(json!({ "friends": friends }));
    // Within the default budgets: the last, nearest, is found.
    let (mut s, orc) = session(&r, false);
    s.apply("falters", &[("creature", orc.clone()), ("seen", seen.clone())]).unwrap();
    assert_eq!(orders(&s)[0], "move towards f19999 (1 inches, orc)");
    // Under a small budget the walk stops with a coded error, and the session is unchanged.
    let mut budget = mettle::Budget::default();
    budget.steps = 5_000;
    let small = Ruleset::load(
        "reactions.mettle",
        RULES,
        &mettle::LoadOptions { budget, ..mettle::LoadOptions::default() },
    )
    .unwrap();
    let (mut s, orc) = session(&small, false);
    let before = s.save();
    let err = s.apply("falters", &[("creature", orc.clone()), ("seen", seen)]).unwrap_err();
    assert_eq!(err.code, "mettle::budget::steps");
    assert_eq!(s.save(), before);
    s.apply("falters", &[("creature", orc), ("seen", data(json!({})))]).unwrap();
    assert_eq!(orders(&s), ["lose the action: nowhere to go"]);
}

#[test]
fn bad_data_for_a_reaction_is_refused_before_it_runs() {
    let r = rules();
    let (mut s, orc) = session(&r, false);
    let before = s.save();
    let seen = json!({"friends": [{"name": "a", "distance": -1}]});
    let err = s.apply("falters", &[("creature", orc.clone()), ("seen", data(seen))]).unwrap_err();
    assert_eq!(err.code, "mettle::data::out_of_range");
    let seen = json!({"friends": {"name": "a", "distance": 1}});
    let err = s.apply("falters", &[("creature", orc), ("seen", data(seen))]).unwrap_err();
    assert_eq!(err.code, "mettle::data::wrong_type");
    assert_eq!(s.save(), before);
}

// ------------------------------------------------------------------ hostile: before play

#[test]
fn choosing_from_what_is_not_a_list_of_a_shape() {
    fails(
        "reaction x(c: creature) { let f = nearest y in c.stress\n order \"{c}\" }",
        "mettle::resolve::not_a_list",
    );
    fails(
        "reaction x(s: seen) { let f = first y in s.post\n if f is none { order \"none\" } }",
        "mettle::resolve::not_a_list",
    );
    fails(
        "shape loose { things: list of { name: text } = [] }\nevent e(l: loose)\non e { let t = first y in l.things }",
        "mettle::resolve::not_a_list",
    );
}

#[test]
fn nearest_needs_a_number_to_order_by() {
    fails(
        "reaction x(s: seen) { let f = nearest y in s.cover\n if f is none { order \"-\" } }",
        "mettle::resolve::nearest_by",
    );
    fails(
        "reaction x(s: seen) { let f = nearest y in s.friends by name\n if f is none { order \"-\" } }",
        "mettle::resolve::nearest_by",
    );
    fails(
        "reaction x(s: seen) { let f = nearest y in s.friends by speed\n if f is none { order \"-\" } }",
        "mettle::resolve::nearest_by",
    );
    fails(
        "reaction x(s: seen) { let f = first y in s.friends by distance\n if f is none { order \"-\" } }",
        "mettle::resolve::nearest_by",
    );
}

#[test]
fn unknown_fields_conditions_that_are_not_flags_and_lists_read_as_records() {
    fails("reaction x(s: seen) { order \"{s.targt}\" }", "mettle::resolve::unknown_field");
    fails(
        "reaction x(s: seen) { let f = first y in s.cover where y.name\n if f is none { order \"-\" } }",
        "mettle::resolve::type_mismatch",
    );
    fails("reaction x(s: seen) { order \"{s.friends.name}\" }", "mettle::resolve::unreadable_data");
    fails("event raw(d: data)\non raw { if d.x == 1 { note \"x\" } }", "mettle::resolve::unreadable_data");
}

#[test]
fn follow_gives_each_parameter_a_value_of_its_type() {
    fails("on falters { follow falter(creature) }", "mettle::resolve::arity");
    fails("on falters { follow falter(seen, creature) }", "mettle::resolve::type_mismatch");
    fails("reaction y(n: 0..3 = 1) { order \"{n}\" }", "mettle::resolve::reaction_default");
}

#[test]
fn orders_belong_in_reactions_and_their_braces_hold_names() {
    fails("on falters { order \"flee\" }", "mettle::resolve::order_outside_reaction");
    fails("scenario s { order \"flee\" }", "mettle::resolve::order_outside_reaction");
    fails("reaction y(s: seen) { order \"move to {s.target\" }", "mettle::resolve::bad_order_text");
    fails("reaction y(s: seen) { order \"move} to\" }", "mettle::resolve::bad_order_text");
    fails("reaction y(s: seen) { order \"move to {s.target + 1}\" }", "mettle::resolve::bad_order_text");
    fails("reaction y(s: seen) { order \"the list {s.friends}\" }", "mettle::resolve::bad_order_text");
}

#[test]
fn a_reaction_that_follows_itself_is_refused() {
    fails("reaction y() { follow y() }", "mettle::resolve::reaction_cycle");
    fails(
        "reaction y() { follow z() }\nreaction z() { order \"z\"\n follow y() }",
        "mettle::resolve::reaction_cycle",
    );
    fails("define falter(a: 0..1) = a", "mettle::resolve::duplicate");
    fails("script { fn falter(c, s) { flee() } }", "mettle::script::name_taken");
}

#[test]
fn every_error_is_located_with_help() {
    for text in [
        "reaction y(s: seen) { order \"move to {s.target\" }",
        "reaction x(s: seen) { let f = nearest y in s.cover\n if f is none { order \"-\" } }",
        "on falters { order \"flee\" }",
        "reaction y() { follow y() }",
    ] {
        let full = format!("{RULES}\n{text}");
        let err = Ruleset::from_str("bad.mettle", &full).unwrap_err();
        let d = err.diagnostics.iter().find(|d| d.is_error()).unwrap();
        assert!(d.span().start >= RULES.len(), "{text}: located in the added text, {:?}", d.span());
        assert!(d.help.as_deref().is_some_and(|h| !h.is_empty()), "{text}: help");
    }
}
