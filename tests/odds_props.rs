//! Random checks: the exact odds always equal an exhaustive walk through every roll the dice can make
//! (each path replayed with its faces through the real rules).

use mettle::internals::{RulesetInternals as _, SessionInternals as _};
use mettle::odds::{Chance, Fraction};
use mettle::{Ruleset, Session, Value};
use num_bigint::BigUint;
use proptest::prelude::*;

/// Every outcome's chance by walking every roll: depth first over the faces of each die met.
fn walked(r: &Ruleset, inputs: &[(&str, Value)]) -> Vec<Fraction> {
    let s = Session::new(r, 0);
    let (c, args) = s.resolve("c", inputs).unwrap();
    let n = r.program().checks[c as usize].outcomes.len();
    let mut sums: Vec<(BigUint, BigUint)> = vec![(0u32.into(), 1u32.into()); n];
    let mut stack: Vec<(Vec<i64>, BigUint)> = vec![(vec![], 1u32.into())];
    while let Some((faces, den)) = stack.pop() {
        let mut s = Session::new(r, 0);
        s.walk(&faces);
        match s.roll_quietly(c, None, args.clone()) {
            Ok(settled) => {
                let (num, d) = &mut sums[settled.outcome];
                // num/d + 1/den
                *num = &*num * &den + &*d;
                *d *= &den;
            }
            Err(e) => {
                let needs = s.walk_needs().unwrap_or_else(|| panic!("{e:?}")).to_vec();
                let den = den * BigUint::from(needs.len());
                for f in needs {
                    let mut next = faces.clone();
                    next.push(f);
                    stack.push((next, den.clone()));
                }
            }
        }
    }
    sums.into_iter().map(|(n, d)| Fraction::new(n, d)).collect()
}

fn exact(r: &Ruleset, inputs: &[(&str, Value)]) -> Vec<Fraction> {
    let mut s = Session::new(r, 0);
    let rep = mettle::odds::ask(&mut s, "c", None, inputs, 0).unwrap();
    rep.outcomes
        .into_iter()
        .map(|o| match o.chance {
            Chance::Exact(f) => f,
            c => panic!("not exact: {c:?}"),
        })
        .collect()
}

fn condition() -> impl Strategy<Value = String> {
    prop_oneof![
        (1i64..4).prop_map(|f| format!("first == {f}")),
        (2i64..14).prop_map(|t| format!("total >= {t}")),
        (0i64..3).prop_map(|k| format!("high >= {k}")),
        (3i64..12, 1i64..4).prop_map(|(t, f)| format!("total <= {t} and first > {f}")),
        (1i64..6).prop_map(|f| format!("any(dice, {f})")),
        (2i64..12).prop_map(|t| format!("sum(dice) >= {t}")),
        (0i64..3).prop_map(|m| format!("margin >= {m}")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn exact_odds_equal_a_walk_through_every_roll(
        n in 1usize..4,
        sides in 2i64..7,
        custom in proptest::option::of(proptest::collection::vec(0i64..5, 2..5)),
        mods in prop_oneof![Just(""), Just("ro1"), Just("cs>=3"), Just("ro2cs>=4")],
        threshold in 2i64..6,
        bonus in 0i64..4,
        first in condition(),
        second in condition(),
    ) {
        let die = match &custom {
            Some(faces) => format!("[{}]", faces.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")),
            None => sides.to_string(),
        };
        let text = format!(
            "check c {{
               input a: 0..3
               roll {n}d{die}{mods} as first
               modifier \"Bonus\" +a
               target 6
               let high = count(dice, >= {threshold})
               outcome one when {first}
               outcome two when {second}
               otherwise three
             }}"
        );
        let r = Ruleset::from_str("p.mettle", &text).map_err(|e| TestCaseError::fail(e.render(100)))?;
        let inputs = [("a", Value::Int(bonus))];
        prop_assert_eq!(exact(&r, &inputs), walked(&r, &inputs), "{}", text);
    }
}
