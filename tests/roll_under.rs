//! Roll-under checks: a check whose outcomes pass on `total <= target` has its margin the right way
//! round (positive for a pass), says "needs N or less" in its explanation, and its odds agree.

use mettle::internals::RulesetInternals as _;
use mettle::odds::{Chance, How};
use mettle::{Ruleset, Session, Value};

const RULES: &str = r#"
kind agent { skill: 2..12 = 7 }
check nerve for agent {
  input wounded: flag = no
  roll 2d6
  modifier "Wounded" +1 when wounded
  target agent.skill
  outcome cool when margin >= 4
  outcome holds when total <= target
  otherwise rattled
}
check climb {
  roll d6
  target 3
  outcome up when target >= total
  otherwise down
}
check over {
  roll d6
  target 3
  outcome up when total >= target
  otherwise down
}
scenario under "Skill 9: 3 and 4 hold by 2" {
  new agent vera with skill = 9
  dice 3, 4
  roll nerve for vera with wounded = yes
  expect last nerve is holds
  expect last nerve.total == 8
  expect last nerve.margin == 1
}
"#;

fn rules() -> Ruleset {
    Ruleset::from_str("under.mettle", RULES).unwrap_or_else(|e| panic!("{}", e.render(100)))
}

#[test]
fn margin_reads_the_right_way_round_and_the_log_says_which_way_passes() {
    let r = rules();
    let p = r.program();
    let under: Vec<(&str, bool)> = p.checks.iter().map(|c| (c.name.as_str(), c.under)).collect();
    assert_eq!(under, [("nerve", true), ("climb", true), ("over", false)]);
    let mut s = Session::new(&r, 0);
    let report = s.run_scenario("under").unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    insta::assert_snapshot!("roll_under_log", mettle::session::render_log(s.log(), r.text()));
    let mut s = Session::new(&r, 0);
    s.force_dice(&[1, 2]);
    let v = s.create("agent", "vera", &[("skill", Value::Int(9))]).unwrap();
    let res = s.roll_for("nerve", Some(v), &[]).unwrap().rolled.unwrap();
    assert_eq!(
        (res.total, res.target, res.margin, res.under, res.outcome.as_str()),
        (3, Some(9), Some(6), true, "cool")
    );
    assert_eq!(serde_json::to_value(&*res).unwrap()["under"], true);
    s.force_dice(&[5]);
    let res = s.roll("over", &[]).unwrap().rolled.unwrap();
    assert_eq!((res.margin, res.under), (Some(2), false));
    assert!(
        serde_json::to_value(&*res).unwrap().get("under").is_none(),
        "roll-over results stay as they were"
    );
    assert_eq!(mettle::export::outline(&r)["checks"][0]["under"], true);
}

#[test]
fn odds_of_a_roll_under_check_count_the_margin_from_the_target() {
    let r = rules();
    let mut s = Session::new(&r, 0);
    let rep = mettle::odds::ask(&mut s, "climb", None, &[], 0).unwrap();
    assert_eq!(rep.how, How::Exact);
    let chances: Vec<String> = rep
        .outcomes
        .iter()
        .map(|o| match &o.chance {
            Chance::Exact(f) => format!("{} {f}", o.name),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(chances, ["up 1/2", "down 1/2"]);
    let margin = &rep.values.iter().find(|(n, _)| n == "margin").unwrap().1;
    // d6 against 3: margins 2, 1, 0 (passes) and -1, -2, -3.
    assert_eq!((margin.lo(), margin.hi()), (-3, 2));
    assert_eq!(margin.probability(2).to_string(), "1/6");
}
