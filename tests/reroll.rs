//! Re-rolled checks (`reroll when OUTCOME [once] [if CONDITION]`): play rolls the whole check again,
//! the explanation shows each roll set aside, and exact odds agree with an enumeration written here,
//! roll by roll, apart from the engine.

use mettle::odds::{Chance, Fraction, How};
use mettle::{Ruleset, Session, Value};
use num_bigint::BigUint;

const RULES: &str = r#"
kind squad { nerve: 2..12 = 7  state: steady | shaken = steady }

check rally for squad {
  input spend: flag = yes
  roll 2d6
  target squad.nerve
  outcome holds when total <= target
  otherwise falters { set squad.state to shaken }
  reroll when falters once if spend
}

check snake {
  roll 2d6
  outcome low when total < 7
  otherwise high
  reroll when low once if natural == 1
}

check stubborn {
  roll d6
  outcome pass when total >= 4
  otherwise fail
  reroll when fail
}

check best {
  roll 2d6kh1
  outcome great when total == 6
  outcome fine when total >= 4
  otherwise bad
  reroll when bad, fine once
}

check hopeless {
  input edge: 0..6 = 0
  roll d6
  outcome pass when total + edge > 6
  otherwise fail
  reroll when fail
}

scenario second_chance "A spent point re-rolls a failed rally" {
  new squad s with nerve = 7
  dice 6, 5, 3, 2
  roll rally for s
  expect last rally is holds
  expect last rally.total == 5
  expect s.state is steady
}

scenario once_only "The second failure stands" {
  new squad s with nerve = 7
  dice 6, 5, 6, 6
  roll rally for s
  expect last rally is falters
  expect s.state is shaken
}

scenario no_point "Without the point the failure stands at once" {
  new squad s with nerve = 7
  dice 6, 5
  roll rally for s with spend = no
  expect last rally is falters
}
"#;

fn rules() -> Ruleset {
    Ruleset::from_str("reroll.mettle", RULES).unwrap_or_else(|e| panic!("{}", e.render(100)))
}

/// Every roll of `n` dice of `sides` faces, each once.
fn rolls(n: usize, sides: i64) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for _ in 0..n {
        out = out.into_iter().flat_map(|r| (1..=sides).map(move |f| [r.clone(), vec![f]].concat())).collect();
    }
    out
}

/// The exact chance of each outcome of a check rolled again by the rule written here: `settle` gives
/// a roll's outcome and whether it is rolled again; at most `bound` re-rolls, the last roll stands.
/// Worked out level by level: the chance of reaching re-roll k, times each roll at that level.
fn enumerate(
    dice: &[Vec<i64>],
    settle: impl Fn(&[i64]) -> (usize, bool),
    outcomes: usize,
    bound: usize,
) -> Vec<Fraction> {
    let t = BigUint::from(dice.len());
    // Ways over t^(k+1) at each level: numerators kept over a common denominator t^(bound+1).
    let mut ways = vec![BigUint::from(0u32); outcomes];
    let mut reach = BigUint::from(1u32); // ways to be rolling at this level, over t^level
    for level in 0..=bound {
        let mut again = BigUint::from(0u32);
        for roll in dice {
            let (o, re) = settle(roll);
            let scale = t.pow((bound - level) as u32);
            if re && level < bound {
                again += &reach;
            } else {
                ways[o] += &reach * scale;
            }
        }
        reach = again;
        if reach == BigUint::from(0u32) {
            break;
        }
    }
    let all = t.pow(bound as u32 + 1);
    ways.into_iter().map(|w| Fraction::new(w, all.clone())).collect()
}

fn exact(s: &mut Session, check: &str, inputs: &[(&str, Value)]) -> Vec<Fraction> {
    // The rally is made by a squad of nerve 7 (the first made); the other checks by nobody.
    let who =
        (check == "rally").then(|| s.entity("s").unwrap_or_else(|| s.create("squad", "s", &[]).unwrap()));
    let rep = mettle::odds::ask(s, check, who, inputs, 0).unwrap_or_else(|e| panic!("{}", e.message));
    assert_eq!(rep.how, How::Exact, "{check}");
    rep.outcomes
        .iter()
        .map(|o| match &o.chance {
            Chance::Exact(f) => f.clone(),
            other => panic!("{check}: {other:?}"),
        })
        .collect()
}

#[test]
fn odds_of_a_check_rolled_again_once_agree_with_an_enumeration() {
    let r = rules();
    let mut s = Session::new(&r, 0);
    let two = rolls(2, 6);
    // Rally: 2d6 at most 7 holds; a failure is rolled again once when the point is spent.
    let want = enumerate(&two, |d| if d[0] + d[1] <= 7 { (0, false) } else { (1, true) }, 2, 1);
    assert_eq!(exact(&mut s, "rally", &[]), want);
    assert_eq!(want[0].to_string(), "119/144", "7/12 + 5/12 x 7/12");
    // Not spent: no re-roll.
    let want = enumerate(&two, |d| if d[0] + d[1] <= 7 { (0, false) } else { (1, false) }, 2, 1);
    assert_eq!(exact(&mut s, "rally", &[("spend", Value::Bool(false))]), want);
    assert_eq!(want[0].to_string(), "7/12");
    // The condition reads the roll itself: only a low roll whose first die is 1 is rolled again.
    let want = enumerate(&two, |d| if d[0] + d[1] < 7 { (0, d[0] == 1) } else { (1, false) }, 2, 1);
    assert_eq!(exact(&mut s, "snake", &[]), want);
    // Keep the highest of two (the engine reads only the roll's value): two outcomes rolled again.
    let want = enumerate(
        &two,
        |d| {
            let v = d[0].max(d[1]);
            if v == 6 {
                (0, false)
            } else if v >= 4 {
                (1, true)
            } else {
                (2, true)
            }
        },
        3,
        1,
    );
    assert_eq!(exact(&mut s, "best", &[]), want);
}

#[test]
fn odds_of_a_check_rolled_again_until_it_passes_count_the_bound() {
    let r = rules();
    let mut s = Session::new(&r, 0);
    let one = rolls(1, 6);
    let want = enumerate(&one, |d| if d[0] >= 4 { (0, false) } else { (1, true) }, 2, 100);
    let got = exact(&mut s, "stubborn", &[]);
    assert_eq!(got, want);
    // A fail stands only after a hundred re-rolls that all failed: (1/2)^101.
    assert_eq!(got[1], Fraction::new(1u32.into(), BigUint::from(2u32).pow(101)));
}

#[test]
fn a_check_that_rolls_every_roll_again_stops_exact_odds_at_its_reroll_line() {
    let r = rules();
    let mut s = Session::new(&r, 0);
    let e = mettle::odds::ask(&mut s, "hopeless", None, &[], 0).unwrap_err();
    assert_eq!(e.code, "mettle::odds::reroll_forever");
    let at = &RULES[e.span().start..e.span().end];
    assert_eq!(at, "reroll when fail");
    // With an edge some rolls pass: the odds are exact again, and the session goes on.
    let got = exact(&mut s, "hopeless", &[("edge", Value::Int(1))]);
    let want = enumerate(&rolls(1, 6), |d| if d[0] + 1 > 6 { (0, false) } else { (1, true) }, 2, 100);
    assert_eq!(got, want);
    // Play still rolls it: the roll after the hundredth re-roll stands.
    let res = s.roll("hopeless", &[]).unwrap().rolled.unwrap();
    assert_eq!(res.outcome, "fail");
}

#[test]
fn play_rolls_the_whole_check_again_and_the_explanation_shows_both_rolls() {
    let r = rules();
    for name in ["second_chance", "once_only", "no_point"] {
        let mut s = Session::new(&r, 0);
        let report = s.run_scenario(name).unwrap();
        assert!(report.failures.is_empty(), "{name}: {:?}", report.failures);
    }
    let mut s = Session::new(&r, 0);
    s.run_scenario("second_chance").unwrap();
    let log = mettle::session::render_log(s.log(), r.text());
    assert!(log.contains("dice 2d6: 6, 5 = 11, total 11: falters, so rolled again"), "{log}");
    assert!(log.contains("dice 2d6: 3, 2 = 5\n"), "{log}");
    let last = s.state().last()[0].clone().unwrap();
    assert_eq!(last.rerolled.len(), 1);
    assert_eq!(last.rerolled[0].outcome, "falters");
    let json = serde_json::to_value(&*last).unwrap();
    assert_eq!(json["rerolled"][0]["total"], 11);
    // A roll that stands at once has no `rerolled` in its JSON.
    let mut s = Session::new(&r, 0);
    let who = s.create("squad", "a", &[]).unwrap();
    s.force_dice(&[6, 6]);
    let res = s.roll_for("rally", Some(who), &[("spend", Value::Bool(false))]).unwrap().rolled.unwrap();
    assert_eq!(res.outcome, "falters");
    assert!(serde_json::to_value(&*res).unwrap().get("rerolled").is_none());
}

#[test]
fn simulated_rolls_land_where_the_exact_odds_say() {
    let r = rules();
    let mut s = Session::new(&r, 7);
    let who = s.create("squad", "a", &[]).unwrap();
    let runs = 20_000;
    let mut holds = 0;
    for _ in 0..runs {
        if s.roll_for("rally", Some(who), &[]).unwrap().rolled.unwrap().outcome == "holds" {
            holds += 1;
        }
    }
    // 119/144 = 0.826; five standard errors is about 0.013.
    let share = holds as f64 / runs as f64;
    assert!((share - 119.0 / 144.0).abs() < 0.014, "{share}");
}
