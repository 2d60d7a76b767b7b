//! Exact odds of scenarios whose rolls are inside rules: paths that took different faces merge
//! where they reach the same roll, inside the same calls and turns of loops, with the same game
//! state. Compared with independent enumerations written here: Traveller's `experience` worked
//! from the ruleset's rules by hand, small rules against the path-by-path walk (built so that a key
//! leaving out a caller's value, a loop's turn or an outcome's effects gives other chances), and
//! binomial counts; and the hostile cases: states that explode inside a rule, recursion past the
//! depth limit, a `for each` over many entities.

use mettle::Ruleset;
use mettle::odds::{Dist, Fraction, How, scenario_ends, scenario_states};
use num_bigint::BigUint;
use std::collections::BTreeMap;

fn shipped(file: &str) -> Ruleset {
    Ruleset::from_path(format!("{}/rulesets/{file}.mettle", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Ways 2D throw `t`, of 36.
fn ways(t: i64) -> u64 {
    (6 - (t - 7).abs()) as u64
}

/// `p` is `n / d`.
fn is(p: &Fraction, n: &BigUint, d: &BigUint) -> bool {
    &p.num * d == n * &p.den
}

/// An end's name (`a.x = 1, b.y = 2`) as its parts.
fn parts(name: &str) -> BTreeMap<String, String> {
    name.split(", ")
        .filter_map(|p| p.split_once(" = "))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

#[test]
fn experience_is_exact_and_equals_the_rulesets_checks_worked_by_hand() {
    let m = scenario_states(&shipped("traveller_morale"), "experience").unwrap().unwrap();
    assert!(m.remainder.is_none());
    // Its last step: lucky is wounded (a minor wound) and passes on the forced dice; then green,
    // vet, old and rookie, who see it, each make a Routine (7) check on 2D + DMs, no level shifts
    // (the leader has Leadership 0; all are trained; contact is long). Nobody's action changes, so
    // their DMs are only experience: green -2 (the 1D-3 forced in the first meeting), vet +3, old
    // +2, rookie 0. A pass brings a character below normal back to normal; a failure sets the
    // level its margin reaches (`level_for`) when that is lower. Green is shaken from the meetings.
    let green = |t: i64| match t - 2 - 7 {
        m if m >= 0 => "normal",
        -7 => "panicked",
        -6..=-4 => "scared",
        _ => "shaken",
    };
    let vet = |t: i64| if t + 3 >= 7 { "normal" } else { "shaken" };
    let old = |t: i64| if t + 2 >= 7 { "normal" } else { "shaken" };
    let rookie = |t: i64| match t - 7 {
        m if m >= 0 => "normal",
        -5 | -4 => "scared",
        _ => "shaken",
    };
    let mut want: BTreeMap<[&str; 4], u64> = BTreeMap::new();
    for a in 2..=12 {
        for b in 2..=12 {
            for c in 2..=12 {
                for d in 2..=12 {
                    let k = [green(a), vet(b), old(c), rookie(d)];
                    *want.entry(k).or_default() += ways(a) * ways(b) * ways(c) * ways(d);
                }
            }
        }
    }
    assert_eq!(want.len(), 48);
    assert_eq!(m.ends.len(), want.len(), "{:?}", m.ends);
    let all = BigUint::from(36u64.pow(4));
    for (name, p) in &m.ends {
        let at = parts(name);
        let level = |who: &str| at.get(&format!("{who}.morale")).map_or("normal", String::as_str);
        let k = [level("green"), level("vet"), level("old"), level("rookie")];
        let n = BigUint::from(want[&k]);
        assert!(is(p, &n, &all), "{name}: {p} against {n}/{all}");
    }
}

/// A volley in each of whose turns a caller's value (`k`), read after the call returns, differs
/// between paths; a roll inside an outcome's effects, after which the effects go on; and a check
/// whose result is read after another roll.
const CALLS: &str = r#"
    kind unit { hits: 0.. = 0  tag: 0.. = 0 }
    check shot for unit { roll d6  outcome hit when total >= 4 { add 1 to unit.hits }  otherwise miss }
    check save for unit { roll d6  outcome saved when total >= 5 {}  otherwise hurt { add 1 to unit.hits } }
    check aim for unit {
      roll d6
      outcome hit when total >= 4 { trigger wound(unit: unit)  add 2 to unit.tag }
      otherwise miss
    }
    event wound(unit: unit)
    on wound { roll save for unit  roll save for unit }
    event volley(unit: unit)
    on volley {
      let before = unit.hits
      roll shot for unit
      roll shot for unit
      if unit.hits - before == 2 { add 1 to unit.tag }
    }
    event salvo
    on salvo {
      for each unit u {
        let k = d3
        trigger volley(unit: u)
        add k * 3 to u.tag
      }
    }
    event aimed
    on aimed {
      for each unit u {
        roll aim for u
        if last aim is hit { add 5 to u.tag }
      }
    }
    scenario calls { new unit a  new unit b  trigger salvo  record "a" = a.tag  record "b" = b.tag }
    scenario effects { new unit a  new unit b  trigger aimed  record "a" = a.tag * 10 + a.hits  record "b" = b.tag * 10 + b.hits }
"#;

/// The recorded values of scenario `name` by merging equal states and by walking every path agree
/// exactly, and merging followed fewer states than the walk's paths.
fn merging_agrees_with_the_walk(rules: &Ruleset, name: &str) {
    let walk = scenario_ends(rules, name).unwrap().unwrap();
    let merged = scenario_states(rules, name).unwrap().unwrap();
    assert!(merged.states < walk.paths, "{name}: {} states for {} paths", merged.states, walk.paths);
    let by_label = |v: &[(String, Dist)]| -> BTreeMap<String, Vec<Fraction>> {
        v.iter().map(|(l, d)| (l.clone(), (-5..=200).map(|x| d.probability(x)).collect())).collect()
    };
    let (a, b) = (by_label(&walk.values), by_label(&merged.values));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (label, ps) in &a {
        for (i, (p, q)) in ps.iter().zip(&b[label]).enumerate() {
            assert!(is(p, &q.num, &q.den), "{name}: {label} = {}: walk {p}, merging {q}", i as i64 - 5);
        }
    }
}

#[test]
fn a_callers_values_and_an_outcomes_effects_after_a_pause_are_kept_apart() {
    let rules = Ruleset::from_str("calls.mettle", CALLS).unwrap();
    merging_agrees_with_the_walk(&rules, "calls");
    merging_agrees_with_the_walk(&rules, "effects");
}

/// A chain of `n` events each rolling a shot and firing the next.
fn chain(n: u32) -> Ruleset {
    Ruleset::from_str(
        "chain.mettle",
        &format!(
            r#"
            kind unit {{ hits: 0.. = 0 }}
            check shot for unit {{ roll d6  outcome hit when total >= 4 {{ add 1 to unit.hits }}  otherwise miss }}
            event chain(unit: unit, n: 0..)
            on chain when n > 0 {{ roll shot for unit  trigger chain(unit: unit, n: n - 1) }}
            scenario deep {{ new unit u  trigger chain(unit: u, n: {n})  record "hits" = u.hits }}
            "#
        ),
    )
    .unwrap()
}

/// C(n, k) / 2^n, the chance of `k` hits in `n` shots of one half.
fn binomial(n: u32, k: u32) -> (BigUint, BigUint) {
    let mut c = BigUint::from(1u32);
    for i in 0..k {
        c = c * (n - i) / (i + 1);
    }
    (c, BigUint::from(1u32) << n)
}

#[test]
fn recursion_of_triggers_merges_at_every_depth() {
    // 40 deep (6^40 paths): the hits are binomial, at every depth of the chain.
    let m = scenario_states(&chain(40), "deep").unwrap().unwrap();
    let d = &m.values[0].1;
    for k in 0..=40 {
        let (n, all) = binomial(40, k);
        assert!(is(&d.probability(k as i64), &n, &all), "{k} hits: {}", d.probability(k as i64));
    }
    // A pause is tried at each depth; the states stay few: a hit count and a depth.
    assert!(m.states < 5_000, "{}", m.states);
}

#[test]
fn recursion_past_the_depth_limit_ends_every_path_with_its_error() {
    // Hostile: 100 deep, past the runner's 64: each path stops with the error, exactly, and
    // merging still merges on the way down.
    let started = std::time::Instant::now();
    let m = scenario_states(&chain(100), "deep").unwrap().unwrap();
    assert_eq!(m.ends.len(), 1, "{:?}", m.ends);
    assert!(m.ends[0].0.contains("64 deep"), "{:?}", m.ends);
    assert_eq!(m.ends[0].1.to_string(), "1/1");
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
}

/// `n` units on one side whose score counts hits up to 3, and a rule shooting with each in turn.
fn crowd(n: usize) -> Ruleset {
    let units: String = (0..n).map(|i| format!("new unit u{i} with side = s\n")).collect();
    Ruleset::from_str(
        "crowd.mettle",
        &format!(
            r#"
            kind side {{ score: 0..3 = 0 }}
            kind unit {{ side: side  shown: 0.. = 0 }}
            check shot for unit {{ roll d6  outcome hit when total >= 4 {{ add 1 to unit.side.score }}  otherwise miss }}
            check mark for unit {{ roll d6  otherwise shown {{ set unit.shown to total }} }}
            event volley
            on volley {{ for each unit u {{ roll shot for u }} }}
            event marks
            on marks {{ for each unit u {{ roll mark for u }} }}
            scenario crowd {{ new side s  {units}  trigger volley  record "score" = s.score }}
            scenario marked {{ new side s  {units}  trigger marks  record "score" = s.score }}
            "#
        ),
    )
    .unwrap()
}

#[test]
fn a_for_each_over_many_entities_is_exact() {
    // 200 units (6^200 paths): the score is the hits, capped at 3.
    let m = scenario_states(&crowd(200), "crowd").unwrap().unwrap();
    let d = &m.values[0].1;
    let mut below = BigUint::from(0u32);
    for k in 0..3 {
        let (n, all) = binomial(200, k);
        assert!(is(&d.probability(k as i64), &n, &all), "{k}: {}", d.probability(k as i64));
        below += n;
    }
    let all = BigUint::from(1u32) << 200;
    assert!(is(&d.probability(3), &(&all - below), &all));
    assert!(m.states < 2_000, "{}", m.states);
}

#[test]
fn states_that_explode_inside_a_rule_stop_within_the_budget_and_say_how_many() {
    // Hostile: each of 30 units keeps its own die (6^30 states), all inside one `trigger`.
    let mut rules = crowd(30);
    let mut b = rules.budget().clone();
    b.set("odds_work", 20_000_000).unwrap();
    rules = rules.with_budget(b);
    let started = std::time::Instant::now();
    let Err(why) = scenario_states(&rules, "marked").unwrap() else { panic!("exact past the budget") };
    assert!(why.contains("distinct game states"), "{why}");
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
    // The report falls back to an estimate that says why.
    let r = mettle::odds::scenario(&rules, "marked", 1).unwrap();
    let How::Estimated { reason, runs, .. } = &r.how else { panic!("{:?}", r.how) };
    assert!(reason.contains("distinct game states"), "{reason}");
    assert!(*runs > 0);
}

/// Two volleys of a pool of d6, each 5+ a success, rolled inside a rule; two successes or more
/// add the successes to the hits. Also with a die of listed faces, `d[1,1,2,3]` (2+ a success).
const POOLS: &str = r#"
    kind unit { hits: 0.. = 0 }
    check volley for unit {
      input pool: 1..10 = 4
      roll (pool)d6cs>=5
      outcome hit when total >= 2 { add total to unit.hits }
      otherwise miss
    }
    check odd for unit { roll 3d[1,1,2,3]cs>=2  outcome hit when total >= 2 { add total to unit.hits }  otherwise miss }
    event fire(unit: unit, pool: 1..10)
    on fire { roll volley for unit with pool = pool  roll volley for unit with pool = pool + 1 }
    event odds_at(unit: unit)
    on odds_at { roll odd for unit  roll odd for unit }
    scenario salvo { new unit u  trigger fire(unit: u, pool: 4)  record "hits" = u.hits }
    scenario odd { new unit u  trigger odds_at(unit: u)  record "hits" = u.hits }
"#;

/// The distribution of the hits of pools of `sizes` dice with `faces`, each face from `least` up
/// a success and two successes or more adding their count: every face of every die, one pool at a
/// time.
fn pools_by_every_face(sizes: &[u32], faces: &[i64], least: i64) -> BTreeMap<i64, u64> {
    let mut hits = BTreeMap::from([(0i64, 1u64)]);
    for &n in sizes {
        let mut one: BTreeMap<i64, u64> = BTreeMap::new();
        for roll in 0..(faces.len() as u64).pow(n) {
            let (mut r, mut k) = (roll, 0);
            for _ in 0..n {
                k += i64::from(faces[(r % faces.len() as u64) as usize] >= least);
                r /= faces.len() as u64;
            }
            *one.entry(if k >= 2 { k } else { 0 }).or_default() += 1;
        }
        let mut next = BTreeMap::new();
        for (a, x) in &hits {
            for (b, y) in &one {
                *next.entry(a + b).or_default() += x * y;
            }
        }
        hits = next;
    }
    hits
}

#[test]
fn a_pool_that_counts_successes_is_walked_by_class_and_equals_every_face() {
    let rules = Ruleset::from_str("pools.mettle", POOLS).unwrap();
    for (name, sizes, faces, least) in
        [("salvo", &[4u32, 5][..], &[1i64, 2, 3, 4, 5, 6][..], 5), ("odd", &[3, 3], &[1, 1, 2, 3], 2)]
    {
        let m = scenario_states(&rules, name).unwrap().unwrap();
        let want = pools_by_every_face(sizes, faces, least);
        let all = BigUint::from(faces.len() as u64).pow(sizes.iter().sum::<u32>());
        let d = &m.values[0].1;
        for h in -1..=12 {
            let n = BigUint::from(want.get(&h).copied().unwrap_or(0));
            assert!(
                is(&d.probability(h), &n, &all),
                "{name}: {h} hits: {} against {n}/{all}",
                d.probability(h)
            );
        }
        // One face of each class (a success or not), not every face: each path of a pool is run
        // again from where the pool began for each die it adds (2 + 4 + 8 + 16 runs for the first
        // pool; the second, 62 for each way the first ended), where every face would take 1,554
        // runs for the first pool alone.
        assert!(m.runs < 400, "{name}: {} runs", m.runs);
    }
}

/// Pools counting successes whose faces are read all the same: a count of sixes, the first die, a
/// reroll of ones, an explosion, and the dice read through the check's last result; and a pool
/// whose size is rolled (the d3 must not be walked as one of the pool's dice). Walked by class
/// (success or not) they would give other chances: one face stands for the successes, one for
/// the rest.
const READ_FACES: &str = r#"
    kind unit { hits: 0.. = 0  sixes: 0.. = 0  fumbles: 0.. = 0 }
    check sixes for unit { roll 2d6cs>=4  let six = count(dice, 6)  outcome hit when total >= 1 { add six to unit.sixes }  otherwise miss }
    check fumble for unit {
      roll 2d6cs>=4 as first
      outcome fumble when first == 1 { add 1 to unit.fumbles }
      outcome hit when total >= 2 { add 1 to unit.hits }
      otherwise miss
    }
    check again for unit { roll 3d6ro1cs>=4  outcome hit when total >= 2 { add 1 to unit.hits }  otherwise miss }
    check burst for unit { roll 1d4xcs>=3  outcome hit when total >= 2 { add total to unit.hits }  otherwise miss }
    check plain for unit { roll 2d6cs>=4  outcome hit when total >= 2 { add 1 to unit.hits }  otherwise miss }
    check varied for unit { roll (d3)d6cs>=5  outcome hit when total >= 1 { add total to unit.hits }  otherwise miss }
    event shoot(unit: unit)
    on shoot { roll sixes for unit  roll sixes for unit }
    event fumble_at(unit: unit)
    on fumble_at { roll fumble for unit  roll fumble for unit }
    event again_at(unit: unit)
    on again_at { roll again for unit }
    event burst_at(unit: unit)
    on burst_at { roll burst for unit }
    event plain_at(unit: unit)
    on plain_at { roll plain for unit  roll plain for unit }
    scenario sixes { new unit u  trigger shoot(unit: u)  record "sixes" = u.sixes }
    scenario fumbles { new unit u  trigger fumble_at(unit: u)  record "fumbles" = u.fumbles * 10 + u.hits }
    scenario rerolled { new unit u  trigger again_at(unit: u)  record "hits" = u.hits }
    scenario burst { new unit u  trigger burst_at(unit: u)  record "hits" = u.hits }
    event varied_at(unit: unit)
    on varied_at { roll varied for unit  roll varied for unit }
    scenario varied { new unit u  trigger varied_at(unit: u)  record "hits" = u.hits }
    scenario last_dice { new unit u  trigger plain_at(unit: u)  record "sixes" = count(last plain.dice, 6) * 10 + u.hits }
"#;

#[test]
fn pools_whose_faces_are_read_are_walked_face_by_face() {
    let rules = Ruleset::from_str("faces.mettle", READ_FACES).unwrap();
    for name in ["sixes", "fumbles", "rerolled", "burst", "last_dice", "varied"] {
        merging_agrees_with_the_walk(&rules, name);
    }
}

/// A script's reaction (`follow`) on the way to the rolls inside a rule, before each of them.
const SCRIPTED: &str = r#"
    script { fn mark(u) { add_to(u, "seen", 1) } }
    kind unit { hits: 0.. = 0  seen: 0.. = 0 }
    check shot for unit { roll 2d6cs>=4  outcome hit when total >= 1 { add 1 to unit.hits }  otherwise miss }
    event volley(unit: unit)
    on volley { follow mark(unit)  roll shot for unit  follow mark(unit)  roll shot for unit }
    scenario scripted { new unit u  trigger volley(unit: u)  record "hits" = u.hits * 10 + u.seen }
"#;

#[test]
fn a_scripts_reaction_on_the_way_to_a_pause_keeps_merging_exact_and_the_faces_read() {
    let rules = Ruleset::from_str("scripted.mettle", SCRIPTED).unwrap();
    merging_agrees_with_the_walk(&rules, "scripted");
    // A script may read anything, the faces too: the pools are walked face by face (the first
    // pool alone takes 1 + 6 + 36 runs; by class it would take 1 + 2 + 4).
    let m = scenario_states(&rules, "scripted").unwrap().unwrap();
    assert!(m.runs >= 43, "{} runs", m.runs);
    let d = &m.values[0].1;
    // Two pools of two dice, each hitting unless both miss (1/4); the reaction ran twice.
    for (hits, n) in [(0, 1u32), (1, 6), (2, 9)] {
        assert!(is(&d.probability(hits * 10 + 2), &BigUint::from(n), &BigUint::from(16u32)), "{hits}");
    }
}
