//! Exact odds of whole scenarios by merging equal game states, against independent enumerations:
//! a Markov chain of Combat HQ's `morale_race` written here from the seed's rules (not through
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

/// The exact distribution of (end, turns, Max's points, Tom's points, ended by time) of
/// `morale_race`, state by state, turn by turn.
fn morale_race_chain(turns: i64) -> Ends {
    let mut open: BTreeMap<(Group, Group), Q> = BTreeMap::new();
    open.insert((Group { mp: 6, zero: false }, Group { mp: 5, zero: false }), Q::int(1, 1));
    let mut ends = Ends::new();
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
                            let half = q.mul(&Q::int(1, 2));
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

/// Combat HQ with `morale_race` played to `turns` turns instead of 12, and one Command Die a side
/// (the whole race is more work than the default budget of exact odds; see the README).
fn combat_hq_to(turns: i64) -> Ruleset {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/combat_hq.mettle")).unwrap();
    let text = text
        .replace("turn >= 12", &format!("turn >= {turns}"))
        .replace("turn <= 12", &format!("turn <= {turns}"))
        .replace("turn == 12", &format!("turn == {turns}"))
        // One Command Die each: the tie-break is still a coin toss, at 42 rolls a turn, not 1,554.
        .replace("command_dice = 2", "command_dice = 1");
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
    let chain = morale_race_chain(3);
    let m = scenario_states(&combat_hq_to(3), "morale_race").unwrap().unwrap();
    // The tie-break goes on without bound; its turns are summed at once, all but the chance that it
    // runs a thousand times (26/36 a turn: less than 10^-140), which is shown as the error it would stop with.
    assert!(m.remainder.is_none());
    let (stuck, ends): (Vec<_>, Vec<_>) = m.ends.iter().partition(|(n, _)| n.starts_with("(stopped"));
    assert!(stuck.iter().all(|(_, p)| p.to_f64() < 1e-100), "{stuck:?}");
    let want = marginal(&chain, |k| k.0.clone());
    let got: BTreeMap<String, Fraction> = ends.into_iter().cloned().collect();
    // Within the stuck chance: the tie-break's ends fall short of one half each by half of it.
    for (name, p) in &want {
        let g = &got[name];
        let diff = (g.to_f64() - p.to_f64()).abs();
        let floats = |m: &BTreeMap<String, Fraction>| {
            m.iter().map(|(k, v)| (k.clone(), v.to_f64())).collect::<Vec<_>>()
        };
        assert!(diff < 1e-100, "{name}: {:?} against {:?}", floats(&got), floats(&want));
        if !name.starts_with("minor") {
            assert_eq!(&g.num * &p.den, &p.num * &g.den, "{name}");
        }
    }
    assert_eq!(got.len(), want.len());
    let values: BTreeMap<&str, &mettle::odds::Dist> = m.values.iter().map(|(l, d)| (l.as_str(), d)).collect();
    let checks: [(&str, Pick); 4] = [
        ("turns taken", |k| k.1.to_string()),
        ("Max's Morale Points left", |k| k.2.to_string()),
        ("Tom's Morale Points left", |k| k.3.to_string()),
        ("ended by time", |k| k.4.to_string()),
    ];
    for (label, pick) in checks {
        let want = marginal(&chain, pick);
        let d = values[label];
        for (v, p) in want {
            let got = d.probability(v.parse().unwrap());
            // Over the runs that ended (all but those stuck in the tie-break, under 10^-140), and
            // read as floating point.
            assert!(
                (got.to_f64() - p.to_f64()).abs() < 1e-12,
                "{label} = {v}: {} against {}",
                got.to_f64(),
                p.to_f64()
            );
        }
    }
}

#[test]
fn the_report_of_morale_race_is_exact_and_names_the_ends() {
    let r = mettle::odds::scenario(&combat_hq_to(3), "morale_race", 1).unwrap();
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
