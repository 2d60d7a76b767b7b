//! What a check does to the one who makes it, in its odds: each attribute's values after the check,
//! checked against independent enumerations of every roll; effects that cannot be followed said so;
//! and nothing of the session changed by asking.

use mettle::odds::{Chance, EffectOdds, Fraction, How, Report};
use mettle::{Ruleset, Session, Value};

fn frontiers() -> Ruleset {
    Ruleset::from_path(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/infinite_frontiers.mettle")).unwrap()
}

/// The odds of `check` made by a stand-in with attributes `with`, under `options` (name, reading).
fn ask(
    r: &Ruleset,
    check: &str,
    options: &[(&str, &str)],
    with: &[(&str, Value)],
    inputs: &[(&str, Value)],
) -> Report {
    let mut s = Session::new(r, 0);
    for (name, reading) in options {
        s.set_option(name, r.option_value(name, reading).unwrap()).unwrap();
    }
    let with: Vec<(String, Value)> = with.iter().map(|(n, v)| (n.to_string(), v.clone())).collect();
    let who = mettle::odds::stand_in(&mut s, check, &with).unwrap().map(|(id, _)| id);
    mettle::odds::ask(&mut s, check, who, inputs, 0).unwrap()
}

fn effect<'a>(rep: &'a Report, target: &str) -> &'a EffectOdds {
    rep.effects
        .iter()
        .find(|e| e.target == target)
        .unwrap_or_else(|| panic!("no effect on {target}: {:?}", rep.effects))
}

/// Each value of `target` after the check as `value p/q`.
fn shown(rep: &Report, target: &str) -> Vec<String> {
    effect(rep, target)
        .values
        .iter()
        .map(|v| match &v.chance {
            Chance::Exact(f) => format!("{} {f}", v.name),
            c => panic!("not exact: {c:?}"),
        })
        .collect()
}

fn frac(n: u64, d: u64) -> Fraction {
    Fraction::new(n.into(), d.into())
}

fn int(n: i64) -> Value {
    Value::Int(n)
}

fn yes() -> Value {
    Value::Bool(true)
}

#[test]
fn resolve_is_earned_one_time_in_six_at_spi_3() {
    let r = frontiers();
    let rep = ask(&r, "morale", &[("resolve_needs", "a_six")], &[], &[("spi", int(3))]);
    assert_eq!(rep.how, How::Exact);
    // One d6 + 3 against 7: a 6 passes with a six among the dice.
    assert_eq!(shown(&rep, "unit.resolve_next"), ["no 5/6", "yes 1/6"]);
    // A 1 breaks, 2–3 shake, 4–6 hold (and a steady unit stays steady).
    assert_eq!(shown(&rep, "unit.morale"), ["steady 1/2", "shaken 1/3", "broken 1/6"]);
    // No roll spends AP without `steadying`: listed, because an outcome can change it, at its value.
    assert_eq!(shown(&rep, "unit.ap"), ["0 1/1"]);
    let seven = ask(&r, "morale", &[("resolve_needs", "seven_sixes")], &[], &[("spi", int(3))]);
    assert_eq!(shown(&seven, "unit.resolve_next"), ["no 1/1"]);
}

/// Every roll of `dice` d6, with the base die first, through the seed's rules for the morale check
/// with flat bonus `flat`: the chance that Resolve is earned when it needs `sixes_needed` sixes.
fn resolve_by_enumeration(dice: u32, flat: i64, sixes_needed: usize) -> Fraction {
    let (mut hits, mut all) = (0u64, 0u64);
    let mut faces = vec![1i64; dice as usize];
    loop {
        all += 1;
        let total: i64 = faces.iter().sum::<i64>() + flat;
        let sixes = faces.iter().filter(|f| **f == 6).count();
        // A natural 1 on the base die breaks the unit whatever the total; 7 or more passes.
        if faces[0] != 1 && total >= 7 && sixes >= sixes_needed {
            hits += 1;
        }
        // The next roll, as an odometer.
        let mut i = 0;
        loop {
            if i == faces.len() {
                return frac(hits, all);
            }
            faces[i] += 1;
            if faces[i] <= 6 {
                break;
            }
            faces[i] = 1;
            i += 1;
        }
    }
}

#[test]
fn resolve_with_every_bonus_die_matches_an_enumeration_of_every_roll() {
    let r = frontiers();
    // The base die, three of leadership, comms, inspiring presence and an AP: seven d6, SPI 0.
    let inputs = [
        ("spi", int(0)),
        ("leadership", int(3)),
        ("comms", yes()),
        ("inspired", yes()),
        ("extra_die", yes()),
    ];
    for (reading, needed) in [("a_six", 1), ("seven_sixes", 7)] {
        let rep = ask(&r, "morale", &[("bonus_die", "extra_d6"), ("resolve_needs", reading)], &[], &inputs);
        assert_eq!(rep.how, How::Exact, "{reading}");
        let yes = effect(&rep, "unit.resolve_next").chance_of("yes");
        assert_eq!(yes, Chance::Exact(resolve_by_enumeration(7, 0, needed)), "{reading}");
    }
    // Seven sixes out of seven dice: 1 in 6^7.
    let rep = ask(&r, "morale", &[("bonus_die", "extra_d6"), ("resolve_needs", "seven_sixes")], &[], &inputs);
    assert_eq!(effect(&rep, "unit.resolve_next").chance_of("yes"), Chance::Exact(frac(1, 279_936)));
}

#[test]
fn steadying_spends_ap_only_on_the_rolls_that_would_shake() {
    let r = frontiers();
    let rep = ask(&r, "morale", &[], &[("ap", int(2))], &[("spi", int(3)), ("steadying", yes())]);
    // 2–3 would shake: one AP is spent and the unit stays steady.
    assert_eq!(shown(&rep, "unit.ap"), ["1 1/3", "2 2/3"]);
    assert_eq!(shown(&rep, "unit.morale"), ["steady 5/6", "broken 1/6"]);
}

#[test]
fn a_sweep_over_an_option_that_changes_only_effects_shows_the_difference() {
    let r = frontiers();
    let mut s = Session::new(&r, 0);
    s.set_option("bonus_die", r.option_value("bonus_die", "flat_plus_one").unwrap()).unwrap();
    let sweeps = mettle::odds::sweeps(&r, "morale", &[], &["resolve_needs"]).unwrap();
    let rows = mettle::odds::sweep(&mut s, "morale", &[], &[("spi".into(), int(3))], &sweeps, 0).unwrap();
    let outcomes: Vec<_> = rows.iter().map(|row| row.report.outcomes.clone()).collect();
    assert_eq!(outcomes[0], outcomes[1], "the outcomes are the same under both readings");
    let columns = mettle::odds::effect_columns(rows.iter().map(|row| row.report.effects.as_slice()));
    let resolve = columns.columns.iter().find(|(t, _)| t == "unit.resolve_next").expect("a resolve column");
    let cells: Vec<Chance> =
        rows.iter().map(|row| mettle::odds::effect_chance(&row.report.effects, resolve)).collect();
    assert_eq!(cells, [Chance::Exact(frac(1, 6)), Chance::Exact(frac(0, 1))]);
}

const SMALL: &str = r#"
kind unit { hp: 0..9 = 5  lucky: flag = no  heard: flag = no  mark: 0..9 = 0 }
event cheered(unit: unit)
on cheered { set unit.heard to yes }
check other for unit { roll d6  outcome up when total >= 4 { add 1 to unit.hp }  otherwise flat }
check rolls for unit { roll d6  outcome hi when total >= 4 { roll other for unit }  otherwise lo { remove 1 from unit.hp } }
check reads for unit { roll 2d6  outcome hi when total >= 7 { set unit.mark to count(dice, 6) }  otherwise lo }
check cheers for unit { roll d6  outcome hi when total == 6 { trigger cheered(unit: unit) }  otherwise lo }
check nobody { roll d6  outcome hi when total >= 4  otherwise lo }
check plain for unit { roll d6  outcome hi when total >= 4  otherwise lo }
"#;

fn small() -> Ruleset {
    Ruleset::from_str("small.mettle", SMALL).unwrap()
}

#[test]
fn effects_that_roll_dice_are_not_followed_and_say_so() {
    let r = small();
    let rep = ask(&r, "rolls", &[], &[], &[]);
    let hp = effect(&rep, "unit.hp");
    // 1–3 lose a hit point; 4–6 roll another check, which the odds do not follow.
    assert_eq!(hp.values.len(), 1);
    assert_eq!((hp.values[0].name.as_str(), &hp.values[0].chance), ("4", &Chance::Exact(frac(1, 2))));
    let u = hp.unfollowed.as_ref().expect("the rolls of `hi` are not followed");
    assert_eq!(u.chance, Chance::Exact(frac(1, 2)));
    assert!(u.why.contains("roll dice"), "{}", u.why);
    // The value a roll never leaves is 0, not a guess.
    assert_eq!(hp.chance_of("5"), Chance::Exact(frac(0, 1)));
}

#[test]
fn effects_that_read_the_dice_themselves_are_not_followed_and_say_how_to_fix_it() {
    let r = small();
    let rep = ask(&r, "reads", &[], &[], &[]);
    let mark = effect(&rep, "unit.mark");
    // 2d6 below 7 (15 of 36) leave the mark; the others read the dice in their effects.
    assert_eq!(mark.values.len(), 1);
    assert_eq!(mark.values[0].chance, Chance::Exact(frac(15, 36)));
    let u = mark.unfollowed.as_ref().unwrap();
    assert_eq!(u.chance, Chance::Exact(frac(21, 36)));
    assert!(u.why.contains("`let`"), "{}", u.why);
}

#[test]
fn an_attribute_changed_through_an_event_the_effects_trigger_is_listed() {
    let r = small();
    let rep = ask(&r, "cheers", &[], &[], &[]);
    assert_eq!(rep.effects.len(), 1, "{:?}", rep.effects);
    assert_eq!(shown(&rep, "unit.heard"), ["no 5/6", "yes 1/6"]);
}

#[test]
fn a_check_without_effects_or_without_a_maker_lists_none() {
    let r = small();
    assert!(ask(&r, "nobody", &[], &[], &[]).effects.is_empty());
    assert!(ask(&r, "plain", &[], &[], &[]).effects.is_empty());
}

#[test]
fn asking_changes_nothing_in_the_session() {
    let r = frontiers();
    let mut s = Session::new(&r, 7);
    let with = [("ap".to_string(), int(2))];
    let (who, _) = mettle::odds::stand_in(&mut s, "morale", &with).unwrap().unwrap();
    let before = s.state().clone();
    let rep =
        mettle::odds::ask(&mut s, "morale", Some(who), &[("spi", int(3)), ("steadying", yes())], 0).unwrap();
    assert!(!rep.effects.is_empty());
    // Attributes, last results, timed changes, the dice generator: all as they were.
    assert_eq!(&before, s.state(), "the odds changed the session");
    // The session goes on: a real roll still applies its effects.
    s.force_dice(&[2]);
    s.roll_for("morale", Some(who), &[("spi", int(3)), ("steadying", yes())]).unwrap();
    let ap = s.state().entities().get(who).unwrap().fields.clone();
    assert!(ap.contains(&int(1)), "{ap:?}");
}

#[test]
fn an_estimate_counts_the_effects_over_its_runs() {
    // Exploding dice read by more than their total are out of reach exactly.
    let r = Ruleset::from_str(
        "e.mettle",
        "kind unit { lucky: flag = no }
         check c for unit { roll 2d6x  outcome hi when count(dice, 6) >= 1 { set unit.lucky to yes } otherwise lo }",
    )
    .unwrap();
    let rep = ask(&r, "c", &[], &[], &[]);
    let How::Estimated { runs, .. } = rep.how else { panic!("expected an estimate: {:?}", rep.how) };
    let lucky = effect(&rep, "unit.lucky");
    let Chance::Estimate { hits, runs: r2, low, high } = lucky.chance_of("yes") else { panic!() };
    assert_eq!(r2, runs);
    let hi = rep.outcomes[0].chance.clone();
    assert_eq!(Chance::Estimate { hits, runs, low, high }, hi, "yes exactly when the outcome is hi");
    // 1 - (5/6)^2 = 11/36, within the interval.
    assert!(low <= 11.0 / 36.0 && 11.0 / 36.0 <= high, "{low} {high}");
}

#[test]
fn a_table_leaves_out_an_attribute_it_cannot_show_and_says_why() {
    let r = small();
    let rolls = ask(&r, "rolls", &[], &[], &[]);
    let shown = mettle::odds::effect_columns([rolls.effects.as_slice()]);
    assert!(shown.columns.is_empty(), "{shown:?}");
    assert_eq!(shown.left_out.len(), 1);
    assert_eq!(shown.left_out[0].0, "unit.hp");
    assert!(shown.left_out[0].1.contains("roll dice"), "{shown:?}");
    // A number left with more values across the rows than a table has room for.
    let rows: Vec<Report> = (0..6).map(|hp| ask(&r, "other", &[], &[("hp", int(hp))], &[])).collect();
    let shown = mettle::odds::effect_columns(rows.iter().map(|r| r.effects.as_slice()));
    assert!(shown.columns.is_empty(), "{shown:?}");
    assert!(shown.left_out[0].1.contains("7 different values"), "{shown:?}");
}
