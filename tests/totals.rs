//! Totals over a kind (`max(u.leadership for each unit u where u.able else 0)` and the rest): what
//! they give, what a total of no entity gives, their explanation, and exact odds that follow them
//! (or say why they cannot).

use mettle::odds::{Chance, How};
use mettle::{Ruleset, Session, Value};

const RULES: &str = r#"
kind unit {
  side: red | blue = red
  leadership: 0..10 = 5
  able: flag = yes
}
check morale for unit {
  roll 2d6
  target max(u.leadership for each unit u where u.side is unit.side and u.able else 0)
  outcome holds when total <= target
  otherwise flees
}
check firm for unit {
  roll 2d6
  target min(u.leadership for each unit u where u.able)
  outcome holds when total <= target
  otherwise flees
}
event rout
on rout when count(each unit u where u.able) == 0 {
  note "routed"
}
check rally for unit {
  roll d6
  modifier "Helpers" +sum(d6 for each unit u where u.side is unit.side)
  target 6
  outcome rallies when total >= target
  otherwise stays
}
"#;

fn rules() -> Ruleset {
    Ruleset::from_str("totals.mettle", RULES).unwrap_or_else(|e| panic!("{}", e.render(100)))
}

/// A session with units of the given (side, leadership, able).
fn units(r: &Ruleset, list: &[(&str, i64, bool)]) -> (Session, Vec<u32>) {
    let mut s = Session::new(r, 0);
    let p = mettle::internals::RulesetInternals::program(r);
    let set = p.kinds[0].fields[0].ty.set().unwrap();
    let ids = list
        .iter()
        .enumerate()
        .map(|(i, (side, lead, able))| {
            let index = p.sets[set as usize].names.iter().position(|n| n == side).unwrap() as u32;
            let with = [
                ("side", Value::Name { set, index }),
                ("leadership", Value::Int(*lead)),
                ("able", Value::Bool(*able)),
            ];
            s.create("unit", &format!("u{i}"), &with).unwrap()
        })
        .collect();
    (s, ids)
}

#[test]
fn max_reads_the_units_that_pass_and_else_gives_the_empty_total() {
    let r = rules();
    let (mut s, ids) =
        units(&r, &[("red", 4, true), ("red", 8, true), ("red", 9, false), ("blue", 10, true)]);
    s.force_dice(&[4, 4]);
    let res = s.roll_for("morale", Some(ids[0]), &[]).unwrap().rolled.unwrap();
    assert_eq!((res.target, res.outcome.as_str()), (Some(8), "holds"));
    // A rule that did not run names the total it read and what it came to.
    s.apply("rout", &[]).unwrap();
    let log = mettle::session::render_log_verbose(s.log(), r.text());
    assert!(log.contains("count over each unit = 3"), "{log}");

    let (mut s, ids) = units(&r, &[("red", 4, false)]);
    s.force_dice(&[1, 1]);
    let res = s.roll_for("morale", Some(ids[0]), &[]).unwrap().rolled.unwrap();
    assert_eq!((res.target, res.outcome.as_str()), (Some(0), "flees"));
}

#[test]
fn min_of_no_unit_without_else_is_a_located_error_and_the_session_goes_on() {
    let r = rules();
    let (mut s, ids) = units(&r, &[("red", 4, false)]);
    s.force_dice(&[1, 1]);
    let err = s.roll_for("firm", Some(ids[0]), &[]).unwrap_err();
    assert_eq!(err.code, "mettle::run::total_of_none");
    let at = RULES.find("min(").unwrap();
    assert_eq!(err.span().start, at);
    assert!(err.help.as_deref().unwrap_or("").contains("else 0"), "{:?}", err.help);
    // Nothing changed, and the same session rolls again once a unit is able.
    assert_eq!(s.get("u0", "leadership"), Some(&Value::Int(4)));
    let u = s.create("unit", "able", &[("leadership", Value::Int(6))]).unwrap();
    s.force_dice(&[1, 1]);
    let res = s.roll_for("firm", Some(u), &[]).unwrap().rolled.unwrap();
    assert_eq!(res.target, Some(6));
}

#[test]
fn exact_odds_follow_a_total_over_the_units_in_play() {
    let r = rules();
    let (mut s, ids) = units(&r, &[("red", 4, true), ("red", 8, true), ("blue", 10, true)]);
    let rep = mettle::odds::ask(&mut s, "morale", Some(ids[0]), &[], 0).unwrap();
    assert_eq!(rep.how, How::Exact);
    let holds = rep.outcomes.iter().find(|o| o.name == "holds").unwrap();
    // 2d6 <= 8: 26 of 36.
    assert!(matches!(&holds.chance, Chance::Exact(f) if f.to_string() == "13/18"), "{:?}", holds.chance);
}

#[test]
fn a_total_that_rolls_dice_is_not_followed_exactly_and_says_why() {
    let r = rules();
    let (mut s, ids) = units(&r, &[("red", 4, true), ("red", 8, true)]);
    let rep = mettle::odds::ask(&mut s, "rally", Some(ids[0]), &[], 0).unwrap();
    match &rep.how {
        How::Estimated { reason, .. } => assert!(reason.contains("roll dice of their own"), "{reason}"),
        other => panic!("{other:?}"),
    }
}
