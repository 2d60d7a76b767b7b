//! Exact odds of whole scenarios by merging equal game states, against independent enumerations:
//! a Markov chain of Combat HQ's whole `morale_race` written here from the seed's rules (not through
//! mettle's evaluator), the path-by-path walk on every shipped scenario it can do, and geometric
//! `repeat`s summed by hand.

use mettle::Ruleset;
use mettle::odds::{Chance, Fraction, How, scenario_states};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// An exact chance, in lowest terms.
#[derive(Clone, Debug, PartialEq)]
struct Q(BigUint, BigUint);

impl Q {
    fn int(n: u64, d: u64) -> Q {
        Q(n.into(), d.into()).norm()
    }
    fn norm(self) -> Q {
        let g = self.0.gcd(&self.1);
        if g.is_zero() { Q(BigUint::zero(), BigUint::one()) } else { Q(&self.0 / &g, &self.1 / &g) }
    }
    fn mul(&self, o: &Q) -> Q {
        Q(&self.0 * &o.0, &self.1 * &o.1).norm()
    }
    fn add(&self, o: &Q) -> Q {
        Q(&self.0 * &o.1 + &o.0 * &self.1, &self.1 * &o.1).norm()
    }
    fn frac(&self) -> Fraction {
        Fraction::new(self.0.clone(), self.1.clone())
    }
}

fn add_to<K: Ord>(m: &mut BTreeMap<K, Q>, k: K, p: Q) {
    let v = m.remove(&k).map_or(p.clone(), |v| v.add(&p));
    m.insert(k, v);
}

/// One battle group of `morale_race`: Morale Points, and whether it was ever reduced to zero.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Group {
    mp: i64,
    zero: bool,
}

/// A unit of `loser`'s is Dispersed: it rolls a D3 and the Combat HQ rules move the points.
fn dispersed(loser: Group, other: Group, loss: i64) -> (Group, Group) {
    let (mut l, mut o) = (loser, other);
    if l.mp == 0 {
        o.mp += loss;
    } else if loss > l.mp {
        o.mp += loss - l.mp;
        l.mp = 0;
        l.zero = true;
    } else {
        l.mp -= loss;
        if l.mp == 0 {
            l.zero = true;
        }
    }
    (l, o)
}

/// Each way one D3 roll for `loser` can go, with its chance.
fn d3(loser: Group, other: Group) -> Vec<((Group, Group), Q)> {
    (1..=3).map(|loss| (dispersed(loser, other, loss), Q::int(1, 3))).collect()
}

/// How the end of a turn ends the game, if it does: `Some(name)`.
fn turn_end(max: Group, tom: Group) -> Option<String> {
    match (max.mp == 0, tom.mp == 0) {
        (true, true) => Some("draw".into()),
        (true, false) => {
            Some(format!("{} for tom", if tom.zero { "minor_victory" } else { "major_victory" }))
        }
        (false, true) => {
            Some(format!("{} for max", if max.zero { "minor_victory" } else { "major_victory" }))
        }
        (false, false) => None,
    }
}

/// An end of the chain: how the game ended, the turns, Max's and Tom's points, ended by time.
type End = (String, i64, i64, i64, i64);
type Ends = BTreeMap<End, Q>;
/// What one recorded value reads of an end.
type Pick = fn(&End) -> String;

/// The end of a tie-break still tied after the 1,000 turns a `repeat` may run, named with the line
/// of the tie-break's `repeat` (the ruleset's first), as a run that went round it to the end is.
fn stuck() -> String {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/combat_hq.mettle")).unwrap();
    let line = text.lines().position(|l| l.trim() == "repeat {").expect("the tie-break's `repeat`") + 1;
    format!("(stopped at line {line}: `repeat` ran 1000 times without its condition coming true)")
}

/// The chance that two Command Dice a side give as many sixes on each side 1,000 turns running:
/// sixes on 2d6 are 0, 1, 2 with chances 25, 10, 1 in 36, so a turn ties with (625 + 100 + 1)/1296.
fn tie_after_1000() -> Q {
    let tie = Q::int(25 * 25 + 10 * 10 + 1, 36 * 36);
    Q(tie.0.pow(1000), tie.1.pow(1000)).norm()
}

/// The exact distribution of (end, turns, Max's points, Tom's points, ended by time) of
/// `morale_race`, state by state, turn by turn.
fn morale_race_chain(turns: i64) -> Ends {
    let mut open: BTreeMap<(Group, Group), Q> = BTreeMap::new();
    open.insert((Group { mp: 6, zero: false }, Group { mp: 5, zero: false }), Q::int(1, 1));
    let mut ends = Ends::new();
    let stuck_end = stuck();
    for turn in 1..=turns {
        let mut next: BTreeMap<(Group, Group), Q> = BTreeMap::new();
        for ((max, tom), p) in open {
            let mut after: Vec<((Group, Group), Q)> = vec![((max, tom), Q::int(1, 3))];
            // Tom loses a unit (4/7 of 2/3), and in one exchange in four Max loses one too.
            for ((t, m), q) in d3(tom, max) {
                let q = q.mul(&Q::int(2 * 4, 3 * 7));
                after.push(((m, t), q.mul(&Q::int(3, 4))));
                for ((m2, t2), q2) in d3(m, t) {
                    after.push(((m2, t2), q.mul(&Q::int(1, 4)).mul(&q2)));
                }
            }
            for ((m, t), q) in d3(max, tom) {
                let q = q.mul(&Q::int(2 * 3, 3 * 7));
                after.push(((m, t), q.mul(&Q::int(3, 4))));
                for ((t2, m2), q2) in d3(t, m) {
                    after.push(((m2, t2), q.mul(&Q::int(1, 4)).mul(&q2)));
                }
            }
            for ((m, t), q) in after {
                let q = q.mul(&p);
                match turn_end(m, t) {
                    Some(end) => add_to(&mut ends, (end, turn, m.mp, t.mp, 0), q),
                    None if turn == turns => {
                        // Time: the most points win a Minor Victory; equal points go to the Command
                        // Dice, two each, rolled until one side has more sixes: a coin toss.
                        let by_time = i64::from(m.mp > 0 && t.mp > 0);
                        if m.mp == t.mp {
                            // Each turn of the tie-break ties with chance `tie`; mettle stops a
                            // `repeat` after 1,000 turns, with an error, so that much never ends.
                            let tie = tie_after_1000();
                            let half = q.mul(&Q(&tie.1 - &tie.0, tie.1.clone() * 2u32).norm());
                            add_to(
                                &mut ends,
                                ("minor_victory for max".into(), turns, m.mp, t.mp, by_time),
                                half.clone(),
                            );
                            add_to(
                                &mut ends,
                                ("minor_victory for tom".into(), turns, m.mp, t.mp, by_time),
                                half,
                            );
                            add_to(&mut ends, (stuck_end.clone(), turns, m.mp, t.mp, by_time), q.mul(&tie));
                        } else {
                            let w = if m.mp > t.mp { "max" } else { "tom" };
                            add_to(
                                &mut ends,
                                (format!("minor_victory for {w}"), turns, m.mp, t.mp, by_time),
                                q,
                            );
                        }
                    }
                    None => add_to(&mut next, (m, t), q),
                }
            }
        }
        open = next;
    }
    ends
}

fn combat_hq() -> Ruleset {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/combat_hq.mettle")).unwrap();
    Ruleset::from_str("combat_hq.mettle", &text).unwrap()
}

fn marginal(
    ends: &Ends,
    pick: impl Fn(&(String, i64, i64, i64, i64)) -> String,
) -> BTreeMap<String, Fraction> {
    let mut m: BTreeMap<String, Q> = BTreeMap::new();
    for (k, q) in ends {
        add_to(&mut m, pick(k), q.clone());
    }
    m.into_iter().map(|(k, q)| (k, q.frac())).collect()
}

#[test]
fn morale_race_is_exact_and_equals_a_markov_chain_of_the_seed() {
    // The whole race as shipped: 12 turns, two Command Dice a side.
    let chain = morale_race_chain(12);
    let m = scenario_states(&combat_hq(), "morale_race").unwrap().unwrap();
    assert!(m.remainder.is_none());
    // The same count in every build (a release build once counted 10,241: it kept values of
    // frames used again that nothing read, which a debug build overwrites). 10,202 while a pause
    // inside a rule was keyed by the faces that led to it: paths that took different faces to the
    // same roll of the tie-break now merge there.
    assert_eq!(m.states, 7_629);
    let want = marginal(&chain, |k| k.0.clone());
    let got: BTreeMap<String, Fraction> = m.ends.iter().cloned().collect();
    assert_eq!(got.keys().collect::<Vec<_>>(), want.keys().collect::<Vec<_>>());
    for (name, p) in &want {
        let g = &got[name];
        assert_eq!(&g.num * &p.den, &p.num * &g.den, "{name}: {} against {}", g.to_f64(), p.to_f64());
    }
    // Recorded values are over the runs that ended: all but those stuck in the tie-break.
    let stuck = stuck();
    let ended: Ends =
        chain.iter().filter(|(k, _)| k.0 != stuck).map(|(k, q)| (k.clone(), q.clone())).collect();
    let total = ended.values().fold(Q::int(0, 1), |a, q| a.add(q));
    let values: BTreeMap<&str, &mettle::odds::Dist> = m.values.iter().map(|(l, d)| (l.as_str(), d)).collect();
    let checks: [(&str, Pick); 4] = [
        ("turns taken", |k| k.1.to_string()),
        ("Max's Morale Points left", |k| k.2.to_string()),
        ("Tom's Morale Points left", |k| k.3.to_string()),
        ("ended by time", |k| k.4.to_string()),
    ];
    for (label, pick) in checks {
        let want = marginal(&ended, pick);
        let d = values[label];
        for (v, p) in want {
            let got = d.probability(v.parse().unwrap());
            // p / total, exactly.
            assert_eq!(
                &got.num * &p.den * &total.0,
                &p.num * &got.den * &total.1,
                "{label} = {v}: {} against {}",
                got.to_f64(),
                p.to_f64()
            );
        }
    }
}

#[test]
fn the_report_of_morale_race_is_exact_and_names_the_ends() {
    let r = mettle::odds::scenario(&combat_hq(), "morale_race", 1).unwrap();
    assert_eq!(r.how, How::Exact);
    assert!(r.merging.as_ref().is_some_and(|m| m.states > 10), "{:?}", r.merging);
    assert!(r.outcomes.iter().any(|o| o.name == "major_victory for max"), "{:?}", r.outcomes);
    assert!(matches!(r.outcomes[0].chance, Chance::Exact(_)));
    assert_eq!(r.values.len(), 4);
}

/// Every shipped scenario the path-by-path walk works out exactly gives the same chances by merging
/// equal states, under the names both give.
#[test]
fn merging_agrees_with_the_path_walk_on_every_shipped_scenario() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets");
    let mut compared = 0;
    for f in std::fs::read_dir(dir).unwrap() {
        let path = f.unwrap().path();
        if path.extension().is_none_or(|e| e != "mettle") {
            continue;
        }
        let rules = Ruleset::from_path(&path).unwrap();
        let names: Vec<String> = rules.scenarios().map(String::from).collect();
        for name in names {
            let Ok(Ok(walk)) = mettle::odds::scenario_ends(&rules, &name) else { continue };
            let Ok(merged) = scenario_states(&rules, &name).unwrap() else {
                panic!("{name}: merging gave up where walking paths did not")
            };
            let a: BTreeMap<_, _> = walk.ends.iter().cloned().collect();
            let b: BTreeMap<_, _> = merged.ends.iter().cloned().collect();
            // The walk names ends by what differs between them; merging names games that ended by
            // their result. Where the names agree the chances must; either way they add up to one.
            let total = |m: &BTreeMap<String, Fraction>| m.values().map(Fraction::to_f64).sum::<f64>();
            assert!((total(&b) - 1.0).abs() < 1e-12, "{name}: {b:?}");
            if a.keys().eq(b.keys()) {
                assert_eq!(a, b, "{name}");
                compared += 1;
            } else {
                let mut pa: Vec<_> = a.values().map(|f| f.to_string()).collect();
                let mut pb: Vec<_> = b.values().map(|f| f.to_string()).collect();
                pa.sort();
                pb.sort();
                assert_eq!(pa, pb, "{name}: {a:?} against {b:?}");
                compared += 1;
            }
        }
    }
    assert!(compared > 50, "{compared}");
}

#[test]
fn a_repeat_that_goes_round_the_same_states_is_summed_exactly() {
    // Roll two dice until they differ: a 5/6 chance each turn, 1/2 each for the higher one.
    let rules = Ruleset::from_str(
        "duel.mettle",
        r#"
        kind side { score: 0.. = 0 }
        check throw for side { roll d6  otherwise thrown { set side.score to total } }
        result win
        event duel(a: side, b: side)
        on duel {
          repeat { roll throw for a  roll throw for b } until a.score != b.score
          if a.score > b.score { end game with win for a } else { end game with win for b }
        }
        scenario duel { new side a  new side b  trigger duel(a: a, b: b) }
        "#,
    )
    .unwrap();
    let m = scenario_states(&rules, "duel").unwrap().unwrap();
    let half = |n: &str| m.ends.iter().find(|(e, _)| e == n).map(|(_, p)| p.to_f64()).unwrap();
    assert!((half("win for a") - 0.5).abs() < 1e-300);
    assert!((half("win for b") - 0.5).abs() < 1e-300);
    assert!(m.remainder.is_none());
    // The runs still tied after the 1,000 turns a `repeat` may run are stopped at its line, as a
    // run played that far is.
    let stuck = m.ends.iter().find(|(e, _)| e.starts_with("(stopped")).expect("the runs past the last turn");
    assert_eq!(stuck.0, "(stopped at line 7: `repeat` ran 1000 times without its condition coming true)");
    assert!(stuck.1.to_f64() < 1e-300);
}

#[test]
fn a_repeat_that_never_merges_ends_in_a_lower_bound_and_its_remainder() {
    // Each turn counts: the states never repeat, and the chances shrink by half a turn.
    let rules = Ruleset::from_str(
        "coin.mettle",
        r#"
        kind coin { flips: 0.. = 0  heads: flag = no }
        check flip for coin { roll d2  outcome heads when total == 2 { set coin.heads to yes }  otherwise tails }
        scenario flips { new coin c  repeat { add 1 to c.flips  roll flip for c } until c.heads  record "flips" = c.flips }
        "#,
    )
    .unwrap();
    let m = scenario_states(&rules, "flips").unwrap().unwrap();
    let r = m.remainder.expect("a remainder");
    assert!(r.to_f64() > 0.0 && r.to_f64() < 2f64.powi(-59), "{r}");
    let total: f64 = m.ends.iter().map(|(_, p)| p.to_f64()).sum();
    assert!((total + r.to_f64() - 1.0).abs() < 1e-15);
    // Recorded values are over the runs that ended: one flip four times as likely as three.
    let d = &m.values[0].1;
    assert_eq!(d.weight(1), d.weight(3) * 4u32);
    assert!((d.probability(1).to_f64() - 0.5).abs() < 1e-15);
}

#[test]
fn too_little_work_falls_back_to_an_estimate_and_says_why() {
    let mut rules = combat_hq();
    let mut b = rules.budget().clone();
    b.set("odds_work", 2_000_000).unwrap();
    rules = rules.with_budget(b);
    let r = mettle::odds::scenario(&rules, "morale_race", 1).unwrap();
    let How::Estimated { reason, .. } = &r.how else { panic!("{:?}", r.how) };
    assert!(reason.contains("merging equal game states"), "{reason}");
    assert!(reason.contains("odds_work"), "{reason}");
    // The estimate shows the recorded values, as the exact report does.
    assert_eq!(r.values.len(), 4);
}

#[test]
fn an_unknown_scenario_is_an_error() {
    let e = scenario_states(&combat_hq(), "morale_rase").unwrap_err();
    assert!(e.code.ends_with("unknown_scenario"));
    assert!(e.help.unwrap_or_default().contains("morale_race"));
}

/// Ten units each counting hits for 30 turns: the game states multiply past any small budget.
fn exploding() -> Ruleset {
    Ruleset::from_str(
        "many.mettle",
        r#"
        kind unit { hits: 0.. = 0 }
        check shot for unit { roll d6  outcome hit when total >= 4 { add 1 to unit.hits }  otherwise miss }
        scenario many {
          new unit a  new unit b  new unit c  new unit d  new unit e
          new unit f  new unit g  new unit h  new unit i  new unit j
          repeat { for each unit u { roll shot for u } } until turn >= 30
          record "a" = a.hits
        }
        "#,
    )
    .unwrap()
}

#[test]
fn states_that_explode_fall_back_within_the_states_budget_and_say_how_many() {
    let mut rules = exploding();
    let mut b = rules.budget().clone();
    b.set("odds_states", 2_000).unwrap();
    // Enough work for far more states than that; less for the estimate to take long.
    b.set("odds_work", 50_000_000).unwrap();
    rules = rules.with_budget(b);
    let started = std::time::Instant::now();
    let Err(why) = scenario_states(&rules, "many").unwrap() else { panic!("exact past the budget") };
    assert!(why.contains("odds_states") && why.contains("2000"), "{why}");
    // How far through the scenario it got, in words: the turn of its `repeat`, and the line.
    assert!(
        why.contains("by the time it is in turn ") && why.contains(" of the `repeat` at line 7"),
        "{why}"
    );
    // The report falls back to an estimate that says why, and the session of rules is untouched.
    let r = mettle::odds::scenario(&rules, "many", 1).unwrap();
    let How::Estimated { reason, runs, .. } = &r.how else { panic!("{:?}", r.how) };
    assert!(reason.contains("odds_states"), "{reason}");
    assert!(*runs > 0);
    assert!(started.elapsed().as_secs() < 120, "{:?}", started.elapsed());
}

#[test]
fn merging_spends_only_half_the_work_and_says_how_many_states_it_reached() {
    let mut rules = exploding();
    let mut b = rules.budget().clone();
    b.set("odds_work", 3_000_000).unwrap();
    rules = rules.with_budget(b);
    // Under a running budget of the same size, merging leaves at least half of it.
    use mettle::internals::odds::work;
    let ((merged, left), _) =
        work::within(3_000_000, || (scenario_states(&rules, "many").unwrap(), work::left()));
    let Err(why) = merged else { panic!("exact past the budget") };
    assert!(why.contains("had followed") && why.contains("half"), "{why}");
    assert!(why.contains(", in turn ") && why.contains(" of the `repeat` at line 7,"), "{why}");
    assert!(left >= 1_500_000, "{left}");
    // The estimate after it still has a budget of its own.
    let r = mettle::odds::scenario(&rules, "many", 1).unwrap();
    let How::Estimated { reason, runs, .. } = &r.how else { panic!("{:?}", r.how) };
    assert!(reason.contains("had followed"), "{reason}");
    assert!(*runs >= 1, "{runs}");
}

#[test]
fn a_small_scenario_equals_its_enumeration_by_hand() {
    // Two tosses of a d2 a turn inside a rule (a 2 is a head), for 3 turns: two heads end the game,
    // one adds to the score. Each turn ends it with 1/4, so 1 - (3/4)^3 = 37/64 in all.
    let rules = Ruleset::from_str(
        "hand.mettle",
        r#"
        kind coin { heads: 0.. = 0  shown: 0.. = 0 }
        check toss for coin { roll d2  otherwise tossed { set coin.shown to total } }
        result double
        event turn_of(c: coin)
        on turn_of {
          roll toss for c
          let first = c.shown
          roll toss for c
          if first == 2 and c.shown == 2 { end game with double }
          else if first == 2 or c.shown == 2 { add 1 to c.heads }
        }
        scenario three { new coin c  repeat { trigger turn_start  trigger turn_of(c: c) } until game is not none or turn >= 3  record "heads" = c.heads }
        "#,
    )
    .unwrap();
    let m = scenario_states(&rules, "three").unwrap().unwrap();
    // (The ends are named by the result and the heads; every chance is a multiple of 1/64, so
    // their sum as floating point is exact.)
    let double: f64 = m.ends.iter().filter(|(n, _)| n.starts_with("double")).map(|(_, p)| p.to_f64()).sum();
    assert_eq!(double, 37.0 / 64.0, "{:?}", m.ends);
    // Heads recorded: a turn that goes on (3/4) gives a head with 2/3 of it (1/2 in all), none
    // with 1/4. Enumerated over the 4^3 ways of three turns:
    let mut want = [0u32; 4];
    for ways in 0..64u32 {
        let turns = [ways % 4, ways / 4 % 4, ways / 16];
        let mut heads = 0;
        for t in turns {
            // t: 0 = no head, 1 and 2 = one head, 3 = both (the game ends)
            if t == 3 {
                break;
            }
            heads += u32::from(t > 0);
        }
        want[heads as usize] += 1;
    }
    let d = &m.values[0].1;
    for (h, w) in want.iter().enumerate() {
        let p = d.probability(h as i64);
        assert_eq!(&p.num * 64u32, &p.den * *w, "{h}: {p}");
    }
}

/// A volley whose total a value of the scenario holds for one step, then two shots: once that
/// step is past, nothing reads the value, nor the volley's result, again.
const VOLLEY: &str = r#"
    kind unit { hits: 0.. = 0 }
    check shot for unit { roll d6  outcome hit when total >= 4 { add 1 to unit.hits }  otherwise miss }
    check volley for unit { roll d6  otherwise fired }
    scenario once {
      new unit u
      roll volley for u
      let t = last volley.total
      add t - t to u.hits
      roll shot for u
      roll shot for u
      record "hits" = u.hits
    }
"#;

#[test]
fn values_nothing_reads_again_do_not_tell_states_apart() {
    // States where paths merge, before each statement: 1 at the start, 1 before the volley; 6
    // before the `let` (the volley's total is read there), 6 before the `add` (`t` is); then 1
    // before the first shot (neither is read again, and the hits are the same), 2 before the
    // second, 3 before the record. Keeping what nothing reads again (or what a frame used again
    // held before, which differs between builds) would make that 1 + 1 + 6 + 6 + 6 + 12 + 18.
    let m = scenario_states(&Ruleset::from_str("volley.mettle", VOLLEY).unwrap(), "once").unwrap().unwrap();
    assert_eq!(m.states, 1 + 1 + 6 + 6 + 1 + 2 + 3);
    // Two shots, each a hit with 1/2.
    let d = &m.values[0].1;
    for (h, w) in [1u32, 2, 1].iter().enumerate() {
        let p = d.probability(h as i64);
        assert_eq!(&p.num * 4u32, &p.den * *w, "{h}: {p}");
    }
}

#[test]
fn paths_that_never_merge_stop_early_and_say_why() {
    // Each turn writes its die as one more digit in base 7: no two paths ever reach the same
    // score, so the states grow with the paths (6^20 of them).
    let rules = Ruleset::from_str(
        "digits.mettle",
        r#"
        kind unit { score: 0.. = 0 }
        check digit for unit { roll d6  otherwise shown { set unit.score to unit.score * 7 + total } }
        scenario digits { new unit u  repeat { roll digit for u } until turn >= 20  record "score" = u.score }
        "#,
    )
    .unwrap();
    let started = std::time::Instant::now();
    let Err(why) = scenario_states(&rules, "digits").unwrap() else { panic!("exact without merging") };
    assert!(why.contains("stopped early") && why.contains("only 0 times"), "{why}");
    // Well before the budget's share of the work (a debug build, a loaded machine).
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    // The estimate says it.
    let r = mettle::odds::scenario(&rules, "digits", 1).unwrap();
    let How::Estimated { reason, .. } = &r.how else { panic!("{:?}", r.how) };
    assert!(reason.contains("stopped early"), "{reason}");
}

/// Two shots at a unit that turns angry when the first one hits: what the states hold can be
/// counted by hand, place by place.
const TWO_SHOTS: &str = r#"
    kind unit { hits: 0.. = 0  mood: calm | angry = calm }
    check shot for unit { roll d6  outcome hit when total >= 5 { add 1 to unit.hits }  otherwise miss }
    scenario two {
      new unit u
      roll shot for u
      if last shot is hit { set u.mood to angry }
      roll shot for u
      record "hits" = u.hits
    }
"#;

#[test]
fn states_merge_exactly_when_what_is_read_again_is_equal() {
    // States where paths merge, before each statement: 1 at the start, 1 before the first shot;
    // 2 before the `if` (only the shot's outcome is read: its six totals make two states); 1
    // before the `set` inside it; 2 before the second shot (the first shot is never read again);
    // 4 before the record: hits 0, 1 and 2, and one hit both calm (a miss, then a hit) and angry
    // (a hit, then a miss), different states although their hits are equal. Keying what nothing
    // reads again (each total) would make that 1 + 1 + 6 + 2 + 2 + 4; merging the calm and the
    // angry hit, 1 + 1 + 2 + 1 + 2 + 3.
    let m = scenario_states(&Ruleset::from_str("shots.mettle", TWO_SHOTS).unwrap(), "two").unwrap().unwrap();
    assert_eq!(m.states, 1 + 1 + 2 + 1 + 2 + 4);
    // Each shot hits with 1/3: no hit 4/9, one 4/9, two 1/9.
    let d = &m.values[0].1;
    for (h, w) in [4u32, 4, 1].iter().enumerate() {
        let p = d.probability(h as i64);
        assert_eq!(&p.num * 9u32, &p.den * *w, "{h}: {p}");
    }
    // The ends tell the moods apart: the calm and the angry single hit are two ends.
    assert_eq!(m.ends.len(), 4, "{:?}", m.ends);
}
