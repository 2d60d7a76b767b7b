//! Exact odds of the shipped checks: fractions worked out by hand, and a brute-force cross-check that
//! forces every possible roll through the real session.

use mettle::internals::{RulesetInternals as _, SessionInternals as _};
use mettle::odds::{Chance, How, Report};
use mettle::{Ruleset, Session, Value};

fn rules(name: &str) -> Ruleset {
    Ruleset::from_path(format!("{}/rulesets/{name}.mettle", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// A session with a stand-in subject (attributes `with`) if the check is made by someone.
fn setup(r: &Ruleset, check: &str, with: &[(&str, Value)]) -> (Session, Option<u32>) {
    let mut s = Session::new(r, 0);
    let p = r.program();
    let c = p.checks.iter().find(|c| c.name == check).unwrap();
    // Attributes that name another entity (a party, an opponent) get one of their own.
    let who = c.subject.map(|k| {
        let kind = &p.kinds[k as usize];
        let mut all = with.to_vec();
        for f in &kind.fields {
            if let mettle::internals::program::Ty::Entity(other) = f.ty
                && !with.iter().any(|(n, _)| *n == f.name)
            {
                let id = s
                    .create_stand_in(&p.kinds[other as usize].name, &format!("{}_of_stand_in", f.name), &[])
                    .unwrap();
                all.push((f.name.as_str(), Value::Entity(id)));
            }
        }
        s.create(&kind.name, "stand_in", &all).unwrap()
    });
    (s, who)
}

fn report(file: &str, check: &str, with: &[(&str, Value)], inputs: &[(&str, Value)]) -> Report {
    report_under(file, check, &[], with, inputs)
}

/// The same, under the house-rule readings `options` (name, reading).
fn report_under(
    file: &str,
    check: &str,
    options: &[(&str, &str)],
    with: &[(&str, Value)],
    inputs: &[(&str, Value)],
) -> Report {
    let r = rules(file);
    let (mut s, who) = setup(&r, check, with);
    for (name, reading) in options {
        s.set_option(name, r.option_value(name, reading).unwrap()).unwrap();
    }
    mettle::odds::ask(&mut s, check, who, inputs, 0).unwrap()
}

/// Each outcome's exact chance as `name p/q`.
fn exact(file: &str, check: &str, with: &[(&str, Value)], inputs: &[(&str, Value)]) -> Vec<String> {
    let rep = report(file, check, with, inputs);
    assert_eq!(rep.how, How::Exact, "{file} {check}");
    rep.outcomes
        .iter()
        .map(|o| match &o.chance {
            Chance::Exact(f) => format!("{} {f}", o.name),
            c => panic!("not exact: {c:?}"),
        })
        .collect()
}

fn int(n: i64) -> Value {
    Value::Int(n)
}

fn yes() -> Value {
    Value::Bool(true)
}

#[test]
fn infinite_frontiers_morale() {
    // One die plus SPI 3 against 7: a 1 breaks, 4–6 pass, 2–3 shake.
    assert_eq!(
        exact("infinite_frontiers", "morale", &[], &[("spi", int(3))]),
        ["broken 1/6", "steady 1/2", "shaken 1/3"]
    );
    // A leader's +1 read flat (the default), SPI 0: only a 6 makes 7.
    assert_eq!(
        exact("infinite_frontiers", "morale", &[], &[("spi", int(0)), ("leadership", int(1))]),
        ["broken 1/6", "steady 1/6", "shaken 2/3"]
    );
    // Read as an extra d6: two dice, SPI 0: the base die is not 1 and the two make 7 or more in 20
    // of 36 rolls.
    let rep = report_under(
        "infinite_frontiers",
        "morale",
        &[("bonus_die", "extra_d6")],
        &[],
        &[("spi", int(0)), ("leadership", int(1))],
    );
    let shown: Vec<String> = rep
        .outcomes
        .iter()
        .map(|o| match &o.chance {
            Chance::Exact(f) => format!("{} {f}", o.name),
            c => panic!("not exact: {c:?}"),
        })
        .collect();
    assert_eq!(shown, ["broken 1/6", "steady 5/9", "shaken 5/18"]);
    // SPI 6: anything but a natural 1 passes.
    assert_eq!(
        exact("infinite_frontiers", "morale", &[], &[("spi", int(6))]),
        ["broken 1/6", "steady 5/6", "shaken 0/1"]
    );
}

#[test]
fn resolve_needs_seven_dice() {
    // Read literally, Resolve takes seven sixes: only with every bonus read as a die.
    let sixes = |inputs: &[(&str, Value)]| {
        let rep = report_under("infinite_frontiers", "morale", &[("bonus_die", "extra_d6")], &[], inputs);
        let d = rep.values.iter().find(|(n, _)| n == "sixes").unwrap().1.clone();
        d.probability(7).to_string()
    };
    let six_dice = [("spi", int(0)), ("leadership", int(3)), ("comms", yes()), ("inspired", yes())];
    assert_eq!(sixes(&six_dice), "0/1");
    let mut seven = six_dice.to_vec();
    seven.push(("extra_die", yes()));
    assert_eq!(sixes(&seven), "1/279936");
}

#[test]
fn infinite_frontiers_skill() {
    assert_eq!(exact("infinite_frontiers", "skill", &[], &[("dice_pool", int(2))]), ["hit 3/4", "miss 1/4"]);
    assert_eq!(exact("infinite_frontiers", "skill", &[], &[("dice_pool", int(3))]), ["hit 7/8", "miss 1/8"]);
}

#[test]
fn dice_pool_morale() {
    // d6 against base 3, no net dice: pass on 1–3, refuse otherwise.
    assert_eq!(
        exact("dice_pool_morale", "morale", &[], &[("base", int(3))]),
        ["fight 1/2", "refuse 1/2", "flee 0/1"]
    );
    // Two penalty dice: three dice, all must be 3 or less; exactly one failure only refuses.
    assert_eq!(
        exact("dice_pool_morale", "morale", &[], &[("base", int(3)), ("penalty", int(2))]),
        ["fight 1/8", "refuse 3/8", "flee 1/2"]
    );
    assert_eq!(exact("dice_pool_morale", "reaction", &[], &[]), ["surrender 5/18", "flee 13/18"]);
}

#[test]
fn combat_hq() {
    assert_eq!(
        exact("combat_hq", "dispersal", &[("mp", int(0))], &[]),
        ["to_opponent 1/1", "below_zero 0/1", "lost 0/1"]
    );
    assert_eq!(
        exact("combat_hq", "dispersal", &[("mp", int(2))], &[]),
        ["to_opponent 0/1", "below_zero 1/3", "lost 2/3"]
    );
    assert_eq!(
        exact("combat_hq", "command_roll", &[("command_dice", int(4)), ("mp", int(3))], &[]),
        ["rolled 1/1"]
    );
}

#[test]
fn shadow_deep() {
    assert_eq!(
        exact("shadow_deep_stress", "morale_test", &[], &[("stress", int(0)), ("will", int(0))]),
        ["pass 3/4", "fail 1/4"]
    );
    // Stress 2: target 6 + 3 = 9; Will +2 needs a 7 on the d20.
    assert_eq!(
        exact("shadow_deep_stress", "morale_test", &[], &[("stress", int(2)), ("will", int(2))]),
        ["pass 7/10", "fail 3/10"]
    );
}

#[test]
fn traveller() {
    let r = rules("traveller_morale");
    let routine = Value::Name {
        set: r.program().sets.iter().position(|s| s.name == "difficulty").unwrap() as u32,
        index: 1,
    };
    assert_eq!(
        exact("traveller_morale", "morale", &[], &[("difficulty", routine), ("dm", int(0))]),
        ["pass 7/12", "fail 5/12"]
    );
    assert_eq!(exact("traveller_morale", "level_shifts", &[], &[]), ["counted 1/1"]);
    assert_eq!(exact("traveller_morale", "dms", &[], &[]), ["counted 1/1"]);
    assert_eq!(
        exact(
            "traveller_morale",
            "heroic_result",
            &[],
            &[("margin", int(1)), ("hero_modifier", int(0)), ("passed", yes())]
        ),
        ["new_level 1/1"]
    );
}

/// Every roll of a check, forced through a fresh session one by one, gives the same counts as the
/// exact odds.
fn brute_force(file: &str, check: &str, with: &[(&str, Value)], inputs: &[(&str, Value)]) {
    brute_force_in(&rules(file), check, with, inputs);
}

fn brute_force_in(r: &Ruleset, check: &str, with: &[(&str, Value)], inputs: &[(&str, Value)]) {
    let file = r.name();
    let (mut s, who) = setup(r, check, with);
    let (c, args) = s.resolve(check, inputs).unwrap();
    let prepared = s.prepare(c, who, args).unwrap();
    let spec = prepared.dice.clone().unwrap();
    let faces = spec.faces.all();
    let n = spec.count as u32;
    let mut counts = vec![0u64; r.program().checks[c as usize].outcomes.len()];
    let names = &r.program().sets[r.program().checks[c as usize].outcome_set as usize].names;
    for mut i in 0..(faces.len() as u64).pow(n) {
        let mut roll = vec![];
        for _ in 0..n {
            roll.push(faces[(i % faces.len() as u64) as usize]);
            i /= faces.len() as u64;
        }
        let mut t = s.clone();
        t.set_logging(false);
        t.force_dice(&roll);
        let res = t.roll_for(check, who, inputs).unwrap().rolled.unwrap();
        let k = r.program().checks[c as usize]
            .outcomes
            .iter()
            .position(|o| names[o.index as usize] == res.outcome);
        counts[k.unwrap()] += 1;
    }
    let all = (faces.len() as u64).pow(n);
    let rep = mettle::odds::ask(&mut s, check, who, inputs, 0).unwrap();
    for (o, k) in rep.outcomes.iter().zip(counts) {
        let want = mettle::odds::Fraction::new(k.into(), all.into());
        assert_eq!(o.chance, Chance::Exact(want), "{file} {check} {inputs:?}: {}", o.name);
    }
}

#[test]
fn exact_odds_agree_with_every_forced_roll() {
    for spi in 0..=6 {
        for leadership in 0..=2 {
            brute_force(
                "infinite_frontiers",
                "morale",
                &[],
                &[("spi", int(spi)), ("leadership", int(leadership))],
            );
        }
    }
    brute_force(
        "infinite_frontiers",
        "morale",
        &[],
        &[("spi", int(1)), ("leadership", int(1)), ("comms", yes())],
    );
    for pool in 1..=4 {
        brute_force("infinite_frontiers", "skill", &[], &[("dice_pool", int(pool))]);
    }
    for base in [2, 5, 7] {
        for (bonus, penalty) in [(0, 0), (2, 0), (0, 2), (1, 0)] {
            brute_force(
                "dice_pool_morale",
                "morale",
                &[],
                &[("base", int(base)), ("bonus", int(bonus)), ("penalty", int(penalty))],
            );
        }
    }
    for mp in 0..=3 {
        brute_force("combat_hq", "dispersal", &[("mp", int(mp))], &[]);
    }
    for (stress, will) in [(0, 0), (1, 3), (3, -1), (5, 2)] {
        brute_force(
            "shadow_deep_stress",
            "morale_test",
            &[],
            &[("stress", int(stress)), ("will", int(will))],
        );
    }
}

/// Dice raised with `minN` (each die below N shows N), read by their total, by their place and as a
/// sorted pool: the exact odds count the same as every forced roll.
#[test]
fn raised_dice_agree_with_every_forced_roll() {
    let r = Ruleset::from_str(
        "raise.mettle",
        "check total { roll 4d6min2kh3  outcome high when total >= 15  otherwise low }
         check placed { roll 3d6min3  outcome snake when die(dice, 1) == 3 and natural == 3  \
             outcome high when total >= 14  otherwise low }
         check sorted { roll 4d6min3dl1  outcome pair when count(dice, 3) >= 2  outcome high when total >= 14  \
             otherwise low }
         check counted { roll 5d6min4cs>=5  outcome many when total >= 3  otherwise few }",
    )
    .unwrap();
    for check in ["total", "placed", "sorted", "counted"] {
        brute_force_in(&r, check, &[], &[]);
    }
    // A die raised and then rolled again can show a face below the raise: no outcome is unreachable.
    let late = Ruleset::from_str(
        "late.mettle",
        "check c { roll d6min3r3  outcome low when total <= 2  otherwise high }",
    )
    .unwrap();
    assert!(late.warnings().is_empty(), "{:?}", late.warnings());
    let rep = mettle::odds::ask(&mut Session::new(&r, 0), "total", None, &[], 0).unwrap();
    assert_eq!(
        rep.outcomes[0].chance,
        Chance::Exact(mettle::odds::Fraction::new(25u32.into(), 108u32.into()))
    );
}

/// A sampler draws the same dice as a real roll: with the same seed, the same outcomes, one by one.
fn same_as_rolling(file: &str, check: &str, with: &[(&str, Value)], inputs: &[(&str, Value)]) {
    let r = rules(file);
    let (mut s, who) = setup(&r, check, with);
    let sampler = s.sampler(check, who, inputs).unwrap().expect("a sampler");
    let (c, args) = s.resolve(check, inputs).unwrap();
    let mut a = s.reseeded(99);
    let mut b = s.reseeded(99);
    for i in 0..2000 {
        let rolled = a.roll_quietly(c, who, args.clone()).unwrap().outcome;
        assert_eq!(b.sample(&sampler), rolled, "{file} {check} {inputs:?}, roll {i}");
    }
}

#[test]
fn samplers_roll_like_the_rules() {
    same_as_rolling("infinite_frontiers", "morale", &[], &[("spi", int(2)), ("leadership", int(2))]);
    same_as_rolling("infinite_frontiers", "skill", &[], &[("dice_pool", int(5))]);
    same_as_rolling("dice_pool_morale", "morale", &[], &[("base", int(4)), ("penalty", int(1))]);
    same_as_rolling("dice_pool_morale", "reaction", &[], &[]);
    same_as_rolling("combat_hq", "dispersal", &[("mp", int(2))], &[]);
    same_as_rolling("shadow_deep_stress", "morale_test", &[], &[("stress", int(2)), ("will", int(1))]);
    let rr = Ruleset::from_str(
        "rr.mettle",
        "check c { roll 3d6r1ro2  outcome high when total >= 12  otherwise low }
         check raised { roll 3d6min2r2  outcome high when total >= 12  outcome odd when natural == 3  otherwise low }
         check late { roll 3d6ro1min3  outcome high when total >= 12  outcome odd when natural == 3  otherwise low }",
    )
    .unwrap();
    for c in 0..3u32 {
        let mut s = Session::new(&rr, 0);
        let name = &rr.program().checks[c as usize].name;
        let sampler = s.sampler(name, None, &[]).unwrap().unwrap();
        let mut a = s.reseeded(5);
        let mut b = s.reseeded(5);
        for _ in 0..2000 {
            assert_eq!(b.sample(&sampler), a.roll_quietly(c, None, vec![]).unwrap().outcome, "check {name}");
        }
    }
}

/// Monte Carlo agrees with the exact odds: 60,000 samples land inside each outcome's 95% interval
/// (fixed seed, so this cannot flake).
#[test]
fn simulation_agrees_with_exact_odds() {
    let r = rules("infinite_frontiers");
    let (mut s, who) = setup(&r, "morale", &[]);
    let inputs = [("spi", int(1)), ("leadership", int(2))];
    let sampler = s.sampler("morale", who, &inputs).unwrap().unwrap();
    let runs = 60_000u64;
    let mut hits = [0u64; 3];
    let mut sim = s.reseeded(2026);
    for _ in 0..runs {
        hits[sim.sample(&sampler)] += 1;
    }
    let rep = mettle::odds::ask(&mut s, "morale", who, &inputs, 0).unwrap();
    for (o, h) in rep.outcomes.iter().zip(hits) {
        let (lo, hi) = mettle::sim::wilson(h, runs);
        let p = o.chance.value();
        assert!(lo <= p && p <= hi, "{}: exact {p}, simulated {lo}..{hi}", o.name);
    }
}

#[test]
fn three_morale_checks_end_exactly_as_worked_out_by_hand() {
    // Per check with SPI 2: a natural 1 breaks (1/6), 5–6 pass (1/3), 2–4 shake (1/2); a Broken unit
    // recovers to Shaken on a pass and stays Broken otherwise. Three steps of that chain from Steady.
    let ends =
        mettle::odds::scenario_ends(&rules("infinite_frontiers"), "three_morale_checks").unwrap().unwrap();
    let shown: Vec<String> = ends.ends.iter().map(|(e, p)| format!("{e}: {p}")).collect();
    assert_eq!(shown, ["u.morale = shaken: 11/24", "u.morale = broken: 7/24", "u.morale = steady: 1/4"]);
    assert_eq!(ends.paths, 216);
}

#[test]
fn a_long_scenario_is_out_of_exact_reach_and_says_so_at_once() {
    let why = mettle::odds::scenario_ends(&rules("combat_hq"), "morale_race").unwrap().unwrap_err();
    assert!(why.contains("estimated from 32 random runs"), "{why}");
    assert!(mettle::odds::scenario_ends(&rules("combat_hq"), "no_such").is_err());
}

#[test]
fn out_of_exact_reach_is_estimated_and_says_why() {
    // The rules count sixes of a roll whose sixes explode: the count depends on how many dice the
    // explosions add, which exact odds do not follow, so the odds are simulated, and the reason names
    // the construct, where it is, and what would be exact.
    let r = Ruleset::from_str(
        "k.mettle",
        "check k {\n  roll 2d6x as first\n  outcome one when first == 1\n  otherwise other\n}",
    )
    .unwrap();
    let mut s = Session::new(&r, 0);
    let rep = mettle::odds::ask(&mut s, "k", None, &[], 7).unwrap();
    let How::Estimated { reason, runs, seed } = &rep.how else { panic!("{:?}", rep.how) };
    assert_eq!(
        reason,
        "the rules read more of the roll than its total, and its dice explode (line 2, column 3); exploding dice \
         are exact when the rules after them read only the roll's total"
    );
    assert_eq!((*runs, *seed), (mettle::odds::FALLBACK_RUNS, 7));
    let Chance::Estimate { low, high, .. } = rep.outcomes[0].chance else { panic!() };
    assert!(low < 1.0 / 6.0 && 1.0 / 6.0 < high, "{low}..{high}");
    // The same seed gives the same estimate.
    let again = mettle::odds::ask(&mut s, "k", None, &[], 7).unwrap();
    assert_eq!(again.outcomes[0].chance, rep.outcomes[0].chance);
}

/// The reason a check's odds are estimated, for a check written in `text`.
fn estimated_because(text: &str) -> String {
    let r = Ruleset::from_str("e.mettle", text).unwrap();
    let mut s = Session::new(&r, 0);
    match mettle::odds::ask(&mut s, &r.program().checks[0].name, None, &[], 0).unwrap().how {
        How::Estimated { reason, .. } => reason,
        How::Exact => panic!("exact: {text}"),
    }
}

#[test]
fn what_is_still_not_exact_says_where_and_how_to_write_it_exactly() {
    let why = estimated_because(
        "check c {\n  roll 2d6\n  let k = total - 5\n  outcome one when die(dice, k) == 1\n  otherwise other\n}",
    );
    assert_eq!(
        why,
        "`die(dice, i)` reads a die whose place is worked out after the roll (line 4, column 20); to make it \
         exact, give the die's place as a number worked out before the roll, or count faces instead \
         (`count(dice, 1) == 2` for a double 1)"
    );
    let why = estimated_because(
        "check c {\n  roll 3d6\n  outcome one when count(dice, >= total - 10) >= 2\n  otherwise other\n}",
    );
    assert!(
        why.starts_with(
            "a count of the dice compares with a number worked out after the roll (line 3, column 20)"
        ),
        "{why}"
    );
    let why = estimated_because(
        "check c {\n  roll 4d6kh3r1\n  outcome one when count(dice, 6) >= 2\n  otherwise other\n}",
    );
    assert!(why.contains("write the reroll before the keep (`4d6r1kh3`)"), "{why}");
}

/// The exact chance of each outcome of the only check in `text`, as `name p/q`.
fn exact_in(text: &str) -> Vec<String> {
    let r = Ruleset::from_str("x.mettle", text).unwrap();
    let mut s = Session::new(&r, 0);
    let rep = mettle::odds::ask(&mut s, &r.program().checks[0].name, None, &[], 0).unwrap();
    assert_eq!(rep.how, How::Exact, "{text}");
    rep.outcomes
        .iter()
        .map(|o| match &o.chance {
            Chance::Exact(f) => format!("{} {f}", o.name),
            c => panic!("not exact: {c:?}"),
        })
        .collect()
}

#[test]
fn single_dice_highest_and_lowest_are_exact() {
    // A double 1 on 2d6 the natural way: one roll in 36; a 6 on the second die and not the first, 5/36.
    let double = "check d { roll 2d6  outcome snake when die(dice, 1) == 1 and die(dice, 2) == 1
                   outcome late_six when die(dice, 2) == 6 and die(dice, 1) != 6  otherwise other }";
    assert_eq!(exact_in(double), ["snake 1/36", "late_six 5/36", "other 5/6"]);
    let r = Ruleset::from_str("d.mettle", double).unwrap();
    brute_force_in(&r, "d", &[], &[]);
    // Single dice leave the roll sampleable: the same outcomes as real rolls, one by one.
    let mut s = Session::new(&r, 0);
    let sampler = s.sampler("d", None, &[]).unwrap().expect("a sampler");
    let (mut a, mut b) = (s.reseeded(3), s.reseeded(3));
    for _ in 0..2000 {
        assert_eq!(b.sample(&sampler), a.roll_quietly(0, None, vec![]).unwrap().outcome);
    }
    // The highest of 3d6 is a 6 unless no die is: 1 - 125/216 = 91/216. Otherwise the lowest is a 1
    // when the dice are 1–5 but not all 2–5: (125 - 64)/216 = 61/216. The rest: 64/216 = 8/27.
    let sorted =
        "check h { roll 3d6  outcome six when highest(dice, 1) == 6  outcome one when lowest(dice, 1) == 1
                  otherwise mid }";
    assert_eq!(exact_in(sorted), ["six 91/216", "one 61/216", "mid 8/27"]);
    let r = Ruleset::from_str(
        "h.mettle",
        "check h { input k: 1..3  roll 4d6  outcome great when highest(dice, k) >= 5 * k
                   outcome poor when lowest(dice, 2) <= 3  otherwise fair }",
    )
    .unwrap();
    for k in 1..=3 {
        brute_force_in(&r, "h", &[], &[("k", int(k))]);
    }
}

#[test]
fn keep_and_drop_with_counts_and_single_dice_are_exact() {
    // The first die of a roll that keeps the highest three is still a d6: a 1 one time in six.
    assert_eq!(
        exact_in("check k { roll 4d6kh3 as first  outcome one when first == 1  otherwise other }"),
        ["one 1/6", "other 5/6"]
    );
    let r = Ruleset::from_str(
        "k.mettle",
        "check k { roll 4d6kh3 as first  target 12
                   outcome crit when count(dice, 6) >= 2 and total >= target
                   outcome low when first == 1 and lowest(dice, 1) == 1
                   outcome pass when total >= target  otherwise fail }
         check d { roll 5d6dl2cs>=5  outcome two when size(dice) == 3 and sum(dice) >= 15 and die(dice, 5) == 6
                   outcome zero when total == 0  otherwise some }",
    )
    .unwrap();
    brute_force_in(&r, "k", &[], &[]);
    brute_force_in(&r, "d", &[], &[]);
    // Sorted rolls have no table to sample from: simulations roll them.
    assert!(Session::new(&r, 0).sampler("k", None, &[]).unwrap().is_none());
}

#[test]
fn checks_that_read_only_the_total_of_a_keep_or_explode_are_exact() {
    let r = Ruleset::from_str(
        "kx.mettle",
        "check best { roll 4d6kh3  target 12  outcome pass when total >= target  otherwise fail }
         check burst { roll 2d4x  outcome big when total >= 9  otherwise small }",
    )
    .unwrap();
    brute_force_in(&r, "best", &[], &[]);
    let mut s = Session::new(&r, 0);
    assert_eq!(s.sampler("best", None, &[]).unwrap().map(|_| ()), None, "no table to sample a keep from");
    // 2d4, a 4 rolling again: a die shows 1–3 (1/4 each) or 5–7 (1/16 each) or 9 and up. Under 9 in
    // all: both dice 1–3 (9/16), or one 5–7 with a small partner (5+1..3, 6+1..2, 7+1: 6 pairs, either
    // way round, 1/64 each: 3/16). So 9 or more is 1 - 12/16 = 1/4.
    let rep = mettle::odds::ask(&mut s, "burst", None, &[], 0).unwrap();
    assert_eq!(rep.outcomes[0].chance, Chance::Exact(mettle::odds::Fraction::new(1u32.into(), 4u32.into())));
}

#[test]
fn groups_declared_in_a_check_add_their_outcomes_up_exactly() {
    // Under 8 on 2d6 holds (21/36), 8–9 wavers (9/36), 10 and up flees (6/36): pass = 7/12 + 1/4.
    let r = Ruleset::from_str(
        "g.mettle",
        "kind group { nerve: 2..12 = 7 }
         check c for group { roll 2d6  outcome holds when total <= group.nerve  outcome wavers when total <= 9
           otherwise flees  group pass = holds, wavers  group fail = flees }",
    )
    .unwrap();
    let mut s = Session::new(&r, 0);
    let g = s.create("group", "g", &[]).unwrap();
    let rep = mettle::odds::ask(&mut s, "c", Some(g), &[], 0).unwrap();
    let groups: Vec<String> = rep
        .groups
        .iter()
        .map(|g| {
            format!(
                "{} {}",
                g.name,
                match &g.chance {
                    Chance::Exact(f) => f.to_string(),
                    c => format!("{c:?}"),
                }
            )
        })
        .collect();
    assert_eq!(groups, ["pass 5/6", "fail 1/6"]);
}
