//! Exact dice terms against fractions worked by hand and against every roll, fed to the roller.

use super::*;
use crate::dice::{Source, roll};
use crate::odds::Fraction;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, VecDeque};

fn p(count: usize, sides: i64, mods: &[DiceMod], v: i64) -> String {
    term(count, Faces::Count(sides), mods).unwrap().probability(v).to_string()
}

#[test]
fn plain_sums() {
    assert_eq!(p(2, 6, &[], 7), "1/6");
    assert_eq!(p(2, 6, &[], 2), "1/36");
    assert_eq!(p(0, 6, &[], 0), "1/1");
    let d = term(3, Faces::Count(6), &[]).unwrap();
    // 3d6 >= 11 is an even bet; >= 10 adds the 27 ways of rolling 10: 135/216.
    let at_least = |n: i64| Fraction::new((n..=18).map(|v| d.weight(v)).sum(), d.total()).to_string();
    assert_eq!((at_least(11), at_least(10)), ("1/2".into(), "5/8".into()));
}

#[test]
fn custom_faces_count_each_listed_face() {
    let d = term(2, Faces::List(&[0, 0, 1, 1, 2, 3]), &[]).unwrap();
    // 0 needs two blanks: (2/6)^2.
    assert_eq!(d.probability(0).to_string(), "1/9");
    assert_eq!(d.probability(6).to_string(), "1/36");
}

#[test]
fn keep_highest_three_of_four() {
    assert_eq!(p(4, 6, &[DiceMod::KeepHighest(3)], 18), "7/432"); // 21/1296
    assert_eq!(p(4, 6, &[DiceMod::KeepHighest(3)], 3), "1/1296");
    assert_eq!(p(4, 6, &[DiceMod::DropLowest(1)], 18), "7/432");
    // Advantage: the higher of two d20 is 20 in 39 of 400 rolls, 1 in 1.
    assert_eq!(p(2, 20, &[DiceMod::KeepHighest(1)], 20), "39/400");
    assert_eq!(p(2, 20, &[DiceMod::KeepLowest(1)], 20), "1/400");
    // The middle die of three d6 (drop the highest, then keep the highest left) is 1 in 16 of 216.
    assert_eq!(p(3, 6, &[DiceMod::DropHighest(1), DiceMod::KeepHighest(1)], 1), "2/27");
}

#[test]
fn big_keeps_match_closed_forms_and_mirrors() {
    // The best of 20d20 is m in m^20 - (m-1)^20 ways.
    let d = term(20, Faces::Count(20), &[DiceMod::KeepHighest(1)]).unwrap();
    for m in 1..=20u32 {
        assert_eq!(d.weight(m as i64), BigUint::from(m).pow(20) - BigUint::from(m - 1).pow(20), "{m}");
    }
    // Keeping the 50 lowest of 100d6 mirrors keeping the 50 highest: v ↔ 350 - v.
    let hi = term(100, Faces::Count(6), &[DiceMod::KeepHighest(50)]).unwrap();
    let lo = term(100, Faces::Count(6), &[DiceMod::KeepLowest(50)]).unwrap();
    assert_eq!(hi.total(), BigUint::from(6u32).pow(100));
    assert!((50..=300).all(|v| hi.weight(v) == lo.weight(350 - v)));
}

#[test]
fn counted_successes_are_binomial() {
    let d = term(10, Faces::Count(6), &[DiceMod::CountSuccesses(Cmp::Le, 3)]).unwrap();
    let binom = [1u32, 10, 45, 120, 210, 252, 210, 120, 45, 10, 1];
    for (k, c) in binom.iter().enumerate() {
        assert_eq!(d.probability(k as i64), Fraction::new(BigUint::from(*c), BigUint::from(1024u32)));
    }
}

#[test]
fn rerolls_once_and_until() {
    // ro1: a 1 shows only when rolled twice; any other face in 1/6 + 1/36.
    assert_eq!(p(1, 6, &[DiceMod::RerollOnce(Cmp::Eq, 1)], 1), "1/36");
    assert_eq!(p(1, 6, &[DiceMod::RerollOnce(Cmp::Eq, 1)], 4), "7/36");
    // r1: a 1 stays only after 101 ones in a row.
    let ones = BigUint::from(6u32).pow(101);
    let d = term(1, Faces::Count(6), &[DiceMod::Reroll(Cmp::Eq, 1)]).unwrap();
    assert_eq!(d.probability(1), Fraction::new(BigUint::from(1u32), ones.clone()));
    assert_eq!(d.probability(4), Fraction::new((ones - 1u32) / 5u32, BigUint::from(6u32).pow(101)));
}

#[test]
fn raises_lift_low_faces_wherever_they_stand() {
    // `4d6min2kh3`: 1s count as 2s; 25/108 of rolls make 15 or more (by listing all 1296).
    let d = term(4, Faces::Count(6), &[DiceMod::Raise(2), DiceMod::KeepHighest(3)]).unwrap();
    let high: BigUint = (15..=18).map(|v| d.weight(v)).sum();
    assert_eq!(high * 108u32, d.total() * 25u32);
    assert_eq!(p(1, 20, &[DiceMod::Raise(10)], 10), "1/2");
    assert_eq!(p(1, 20, &[DiceMod::Raise(10)], 9), "0/1");
    // Raised after a reroll once, a 1 rolled again and showing 1 still becomes 3; raised before it, a
    // 1 is a 3 before the reroll looks, so nothing is rolled again.
    assert_eq!(p(1, 6, &[DiceMod::RerollOnce(Cmp::Eq, 1), DiceMod::Raise(3)], 3), "5/12");
    assert_eq!(p(1, 6, &[DiceMod::Raise(3), DiceMod::RerollOnce(Cmp::Eq, 1)], 3), "1/2");
    // Above every face, every die shows the raise.
    assert_eq!(p(2, 6, &[DiceMod::Raise(9)], 18), "1/1");
    assert!(term(1, Faces::Count(6), &[DiceMod::Raise(1 << 40)]).unwrap_err().contains("too far apart"));
}

#[test]
fn explosions_add_and_stop_at_the_cap() {
    let x = [DiceMod::Explode(Cmp::Ge, None)];
    assert_eq!(p(1, 6, &x, 6), "0/1");
    assert_eq!(p(1, 6, &x, 5), "1/6");
    assert_eq!(p(1, 6, &x, 8), "1/36");
    assert_eq!(p(1, 6, &x, 15), "1/216");
    // A d1 always explodes: 1 + 100 more dice.
    assert_eq!(term(1, Faces::Count(1), &x).unwrap(), Dist::constant(101));
}

#[test]
fn small_and_big_weights_agree() {
    for mods in
        [vec![], vec![DiceMod::KeepHighest(2)], vec![DiceMod::RerollOnce(Cmp::Le, 2), DiceMod::DropLowest(1)]]
    {
        let plan = Plan::new(5, Faces::Count(6), &mods).unwrap();
        assert_eq!(plan.run::<u128>().unwrap(), plan.run::<BigUint>().unwrap(), "{mods:?}");
    }
    // 60d6 has 6^60 > 2^128 rolls: the small weights give up and the big ones answer.
    let plan = Plan::new(60, Faces::Count(6), &[DiceMod::KeepHighest(3)]).unwrap();
    assert!(plan.run::<u128>().is_none());
    assert_eq!(
        term(60, Faces::Count(6), &[DiceMod::KeepHighest(3)]).unwrap().total(),
        BigUint::from(6u32).pow(60)
    );
}

#[test]
fn out_of_reach_terms_say_why() {
    let e =
        term(3, Faces::Count(6), &[DiceMod::Explode(Cmp::Ge, None), DiceMod::KeepHighest(2)]).unwrap_err();
    assert!(e.contains("after they explode"), "{e}");
    assert!(term(10_000, Faces::Count(100_000), &[]).unwrap_err().contains("too long"));
    assert!(term(2, Faces::Count(0), &[]).unwrap_err().contains("0 sides"));
}

/// Every way the roller can go, as (value, dice drawn): the faces are fed as forced dice, with one
/// impossible face after them to learn whether the roll wanted more. A face listed twice is tried
/// once, with twice the ways. `None` when there are too many ways to list (a die that explodes and
/// is rerolled on the same face branches at every die of the chain).
fn brute(count: usize, faces: Faces<'_>, mods: &[DiceMod]) -> Option<(BTreeMap<i64, BigUint>, BigUint)> {
    let all: Vec<i64> = match faces {
        Faces::Count(s) => (1..=s).collect(),
        Faces::List(l) => l.to_vec(),
    };
    let mut distinct: BTreeMap<i64, u32> = BTreeMap::new();
    for f in &all {
        *distinct.entry(*f).or_default() += 1;
    }
    let mut leaves = vec![];
    let mut stack = vec![(vec![], BigUint::from(1u32))];
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut budget = 100_000;
    while let Some((prefix, ways)) = stack.pop() {
        budget -= 1;
        if budget == 0 {
            return None;
        }
        let mut q: VecDeque<i64> = prefix.iter().copied().chain([i64::MIN]).collect();
        match roll(
            count,
            faces,
            mods,
            &mut Source { rng: &mut rng, forced: &mut q, walk: None, host: None, notation: "" },
        ) {
            Ok(pool) => leaves.push((pool.value, prefix.len(), ways)),
            Err(_) => {
                stack.extend(distinct.iter().map(|(&f, &m)| ([prefix.clone(), vec![f]].concat(), &ways * m)))
            }
        }
    }
    let depth = leaves.iter().map(|l| l.1).max().unwrap_or(0);
    let s = BigUint::from(all.len());
    let mut out = BTreeMap::new();
    for (v, d, ways) in leaves {
        *out.entry(v).or_insert_with(BigUint::default) += ways * s.pow((depth - d) as u32);
    }
    Some((out, s.pow(depth as u32)))
}

fn a_mod() -> impl Strategy<Value = DiceMod> {
    let cmp = prop_oneof![Just(Cmp::Eq), Just(Cmp::Lt), Just(Cmp::Le), Just(Cmp::Gt), Just(Cmp::Ge)];
    (0..9u8, cmp, 0..5i64, 0..4u32).prop_map(|(kind, cmp, n, k)| match kind {
        0 => DiceMod::KeepHighest(k),
        1 => DiceMod::KeepLowest(k),
        2 => DiceMod::DropHighest(k),
        3 => DiceMod::DropLowest(k),
        // Explosions only on the top face keep the brute force short.
        4 => DiceMod::Explode(Cmp::Ge, None),
        5 => DiceMod::Reroll(Cmp::Eq, n),
        6 => DiceMod::RerollOnce(cmp, n),
        7 => DiceMod::Raise(n),
        _ => DiceMod::CountSuccesses(cmp, n),
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    #[test]
    fn every_roll_agrees(
        count in 0..4usize,
        sides in 1..4i64,
        list in prop::option::of(prop::collection::vec(-1..4i64, 0..4)),
        mods in prop::collection::vec(a_mod(), 0..4),
    ) {
        let chains = mods.iter().filter(|m| matches!(m, DiceMod::Explode(..) | DiceMod::Reroll(..))).count();
        prop_assume!(count <= 3 - chains.min(2));
        let faces = list.as_deref().map_or(Faces::Count(sides), Faces::List);
        // An empty list always shows 0 and cannot be forced: nothing to list.
        prop_assume!(!matches!(faces, Faces::List([])));
        let Ok(d) = term(count, faces, &mods) else { return Ok(()) };
        let Some((want, total)) = brute(count, faces, &mods) else { return Ok(()) };
        for v in d.lo()..=d.hi().max(*want.keys().last().unwrap()) {
            let w = want.get(&v).cloned().unwrap_or_default();
            prop_assert_eq!(d.weight(v) * &total, w * d.total(), "value {}", v);
        }
    }
}
