//! `mettle odds` and the unreachable-outcome warning of `mettle check`, run through the real binary.

mod common;
use common::{err, json, mettle, out};

const FRONTIERS: &str = "rulesets/infinite_frontiers.mettle";

/// `p/q` strings added up exactly.
fn sum_exact(outcomes: &[serde_json::Value]) -> (u128, u128) {
    let gcd = |mut a: u128, mut b: u128| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    outcomes.iter().fold((0u128, 1u128), |(n, d), o| {
        let (p, q) = o["exact"].as_str().unwrap().split_once('/').unwrap();
        let (p, q): (u128, u128) = (p.parse().unwrap(), q.parse().unwrap());
        let (n, d) = (n * q + p * d, d * q);
        let g = gcd(n, d);
        (n / g, d / g)
    })
}

#[test]
fn odds_of_a_check_in_text() {
    let o = mettle(&["odds", FRONTIERS, "morale", "--set", "spi=3"]);
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(text.contains("exact odds"), "{text}");
    for line in ["broken     16.67%  1/6", "steady     50.00%  1/2", "shaken     33.33%  1/3"] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
    assert!(text.contains('█'), "bars: {text}");
}

#[test]
fn odds_json_sums_to_exactly_one() {
    let v = json(&[
        "odds",
        FRONTIERS,
        "morale",
        "--set",
        "spi=2",
        "--set",
        "leadership=2",
        "--option",
        "bonus_die=extra_d6",
        "--json",
    ]);
    assert_eq!(v["exact"], true);
    let outcomes = v["outcomes"].as_array().unwrap();
    let names: Vec<&str> = outcomes.iter().map(|o| o["outcome"].as_str().unwrap()).collect();
    assert_eq!(names, ["broken", "steady", "shaken"]);
    assert_eq!(outcomes[1]["exact"], "179/216");
    assert!((outcomes[1]["probability"].as_f64().unwrap() - 179.0 / 216.0).abs() < 1e-12);
    assert_eq!(sum_exact(outcomes), (1, 1));
}

#[test]
fn a_sweep_gives_one_row_per_combination() {
    let v =
        json(&["odds", FRONTIERS, "morale", "--sweep", "spi=0..6", "--sweep", "leadership=0..2", "--json"]);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 21);
    assert_eq!(rows[0]["set"], serde_json::json!({ "spi": 0, "leadership": 0 }));
    assert_eq!(rows[20]["set"], serde_json::json!({ "spi": 6, "leadership": 2 }));
    // SPI 0, no leadership: one die can never make 7.
    assert_eq!(rows[0]["outcomes"][1]["exact"], "0/1");
    for r in rows {
        assert_eq!(sum_exact(r["outcomes"].as_array().unwrap()), (1, 1));
    }
    let text = out(&mettle(&["odds", FRONTIERS, "morale", "--sweep", "spi=0..1"]));
    assert!(text.contains("█ broken  ▓ steady  ▒ shaken"), "{text}");
}

#[test]
fn plot_writes_an_svg_chart() {
    let dir = std::env::temp_dir().join(format!("mettle-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let one = dir.join("one.svg");
    let o = mettle(&["odds", FRONTIERS, "morale", "--set", "spi=2", "--plot", one.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    let svg = std::fs::read_to_string(&one).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("broken") && svg.contains("steady"), "{svg}");
    // The total's columns mark the target, 7.
    assert!(svg.contains("target 7"), "{svg}");
    // Over one input: a line of each outcome's chance (and of each group, dashed), a point per value.
    let sweep = dir.join("sweep.svg");
    let o = mettle(&[
        "odds",
        FRONTIERS,
        "morale",
        "--sweep",
        "spi=0..6",
        "--group",
        "fail=broken,shaken",
        "--plot",
        sweep.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", err(&o));
    let svg = std::fs::read_to_string(&sweep).unwrap();
    assert_eq!(svg.matches("<polyline").count(), 5, "three outcomes, a group and Resolve earned: {svg}");
    assert_eq!(svg.matches("<circle").count(), 35, "a point per value of each line");
    assert!(svg.contains("unit.resolve_next=yes, spi 0: 0<"), "{svg}");
    // SPI 0 never passes: its point reads 0, not 0.0%.
    assert!(svg.contains("steady, spi 0: 0<"), "{svg}");
    // Over two inputs: a heat map of the group, a cell per combination.
    let heat = dir.join("heat.svg");
    let args = ["odds", FRONTIERS, "morale", "--sweep", "spi=0..6", "--sweep", "leadership=0..2"];
    let o =
        mettle(&[&args[..], &["--group", "fail=broken,shaken", "--plot", heat.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", err(&o));
    let svg = std::fs::read_to_string(&heat).unwrap();
    assert!(svg.contains("chance of group fail"), "{svg}");
    assert_eq!(svg.matches("<title>spi ").count(), 21, "{svg}");
    let o = mettle(&[&args[..], &["--plot-of", "stedy", "--plot", heat.to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("no outcome, group or effect called `stedy`"), "{}", err(&o));
    assert!(err(&o).contains("did you mean `steady`?"), "{}", err(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn odds_explain_mistakes() {
    let o = mettle(&["odds", FRONTIERS, "moral"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("did you mean `morale`"), "{}", err(&o));
    let o = mettle(&["odds", FRONTIERS, "morale", "--sweep", "spi=0-6"]);
    assert!(err(&o).contains("needs the form NAME=LO..HI"), "{}", err(&o));
    let o = mettle(&["odds", FRONTIERS, "morale", "--sweep", "spi=0..9"]);
    assert!(err(&o).contains("leaves the range of input `spi`"), "{}", err(&o));
    let o = mettle(&["odds", FRONTIERS, "morale", "--sweep", "comms=0..1"]);
    assert!(err(&o).contains("sweep every value with `comms`, without a range"), "{}", err(&o));
    let o = mettle(&["odds", FRONTIERS, "morale", "--sweep", "unit.leadershp=0..2"]);
    assert!(
        err(&o).contains("a unit has no attribute `leadershp`; did you mean `leadership`?"),
        "{}",
        err(&o)
    );
    let o = mettle(&["odds", FRONTIERS, "morale", "--sweep", "side.vp=0..2"]);
    assert!(err(&o).contains("made by a unit: sweep its attributes as `unit.vp`"), "{}", err(&o));
    let o = mettle(&["odds", FRONTIERS, "morale", "--sweep", "comm"]);
    assert!(err(&o).contains("no input or option `comm`; did you mean `comms`?"), "{}", err(&o));
}

/// A ruleset written to a temporary file for one test.
fn temp_rules(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mettle-odds-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.mettle"));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn yes_no_names_and_a_stand_ins_attributes_can_be_swept() {
    // Roll under leadership on 2d6: 15, 21, 26, 30 and 33 of the 36 rolls for 6 to 10.
    let f = temp_rules(
        "nerve",
        "kind unit { leadership: 2..12 = 7 }
         check nerve for unit { input stubborn: flag = no  roll 2d6  modifier \"Stubborn\" -1 when stubborn
           target unit.leadership  outcome holds when total <= target  otherwise flees }",
    );
    let f = f.to_str().unwrap();
    let v = json(&["odds", f, "nerve", "--sweep", "unit.leadership=6..10", "--json"]);
    let holds: Vec<&str> =
        v["rows"].as_array().unwrap().iter().map(|r| r["outcomes"][0]["exact"].as_str().unwrap()).collect();
    assert_eq!(holds, ["5/12", "7/12", "13/18", "5/6", "11/12"]);
    assert_eq!(v["rows"][0]["set"], serde_json::json!({ "unit.leadership": 6 }));
    // A yes/no input runs through no and yes; crossed with the attribute, the last sweep fastest.
    let v = json(&["odds", f, "nerve", "--sweep", "stubborn", "--sweep", "unit.leadership=6..7", "--json"]);
    let holds: Vec<&str> =
        v["rows"].as_array().unwrap().iter().map(|r| r["outcomes"][0]["exact"].as_str().unwrap()).collect();
    assert_eq!(holds, ["5/12", "7/12", "7/12", "13/18"]);
    assert_eq!(v["rows"][2]["set"], serde_json::json!({ "stubborn": true, "unit.leadership": 6 }));
    // A named input runs through each of its names, in order.
    let text = out(&mettle(&[
        "odds",
        "rulesets/traveller_morale.mettle",
        "morale",
        "--set",
        "dm=0",
        "--sweep",
        "difficulty",
    ]));
    for line in ["simple   97.22%    2.78%", "routine   58.33%   41.67%", "impossible        0  100.00%"] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
}

#[test]
fn check_warns_of_outcomes_no_roll_reaches() {
    let o = mettle(&["check", "tests/inputs/odds/unreachable.mettle"]);
    assert!(o.status.success());
    insta::assert_snapshot!(err(&o));
    // The shipped rulesets have none.
    for f in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets")).unwrap() {
        let f = f.unwrap().path();
        if f.extension().is_some_and(|e| e == "mettle") {
            let o = mettle(&["check", f.to_str().unwrap()]);
            assert!(!err(&o).contains("unreachable_outcome"), "{}", err(&o));
        }
    }
}

#[test]
fn a_stand_in_gets_stand_ins_for_the_entities_it_names() {
    // A Traveller character reads its party; a Combat HQ group hands points to its opponent.
    let v = json(&["odds", "rulesets/traveller_morale.mettle", "level_shifts", "--json"]);
    assert_eq!(v["outcomes"][0]["exact"], "1/1");
    // The opponent's points have no default and the effects read them: they are given, not a silent 0.
    let v = json(&[
        "odds",
        "rulesets/combat_hq.mettle",
        "dispersal",
        "--with",
        "mp=2",
        "--with",
        "opponent.mp=3",
        "--json",
    ]);
    let exact: Vec<&str> =
        v["outcomes"].as_array().unwrap().iter().map(|o| o["exact"].as_str().unwrap()).collect();
    assert_eq!(exact, ["0/1", "1/3", "2/3"]);
    let o = mettle(&[
        "roll",
        "rulesets/combat_hq.mettle",
        "dispersal",
        "--with",
        "mp=2",
        "--with",
        "opponent.mp=3",
        "--seed",
        "0",
    ]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("group's opponent.mp"), "{}", out(&o));
}

#[test]
fn a_long_scenario_is_worked_out_by_merging_equal_states() {
    let v =
        json(&["odds", "rulesets/combat_hq.mettle", "--scenario", "morale_race", "--seed", "3", "--json"]);
    assert_eq!(v["exact"], true, "{v}");
    assert_eq!(v["method"]["kind"], "exact");
    assert!(v["method"]["states"].as_u64().unwrap() > 1000, "{v}");
    let ends: Vec<&str> =
        v["outcomes"].as_array().unwrap().iter().map(|o| o["outcome"].as_str().unwrap()).collect();
    assert!(ends.contains(&"major_victory for max") && ends.contains(&"draw"), "{ends:?}");
    let recorded: Vec<&str> =
        v["values"].as_array().unwrap().iter().map(|d| d["name"].as_str().unwrap()).collect();
    assert!(recorded.contains(&"turns taken"), "{recorded:?}");
    let exact =
        json(&["odds", "rulesets/infinite_frontiers.mettle", "--scenario", "three_morale_checks", "--json"]);
    assert_eq!(exact["outcomes"][0]["exact"], "11/24");
}

#[test]
fn a_long_scenario_past_the_budget_is_estimated_and_says_why() {
    let v = json(&[
        "odds",
        "rulesets/combat_hq.mettle",
        "--scenario",
        "morale_race",
        "--seed",
        "3",
        "--budget",
        "odds_work=2000000",
        "--json",
    ]);
    assert_eq!(v["exact"], false);
    let reason = v["method"]["reason"].as_str().unwrap();
    assert!(reason.contains("ways") && reason.contains("merging equal game states"), "{v}");
    assert!(reason.contains("had followed"), "{reason}");
    let recorded: Vec<&str> =
        v["values"].as_array().unwrap().iter().map(|d| d["name"].as_str().unwrap()).collect();
    assert!(recorded.contains(&"turns taken"), "{recorded:?}");
}

#[test]
fn the_question_names_the_stand_in_and_every_value_given_with_with() {
    let v = json(&[
        "odds",
        "rulesets/combat_hq.mettle",
        "dispersal",
        "--with",
        "mp=2",
        "--with",
        "opponent.mp=3",
        "--json",
    ]);
    let q = v["question"].as_str().unwrap();
    assert!(
        q.contains(
            "made by a stand-in group with mp = 2, opponent.mp = 3, its other attributes at their defaults"
        ),
        "{q}"
    );
    let o = mettle(&["roll", FRONTIERS, "skill", "--with", "morale=shaken", "--with", "resolve=yes"]);
    let text = out(&o);
    assert!(text.contains("rolled by a stand-in unit with morale = shaken, resolve = yes"), "{text}");
}

#[test]
fn groups_add_outcomes_up_exactly_in_reports_and_sweeps() {
    let v = json(&["odds", FRONTIERS, "morale", "--set", "spi=2", "--group", "fail=broken,shaken", "--json"]);
    let g = &v["groups"][0];
    assert_eq!((g["group"].as_str(), g["exact"].as_str()), (Some("fail"), Some("2/3")));
    let v = json(&[
        "odds",
        FRONTIERS,
        "morale",
        "--sweep",
        "spi=0..6",
        "--group",
        "fail=broken,shaken",
        "--json",
    ]);
    let fails: Vec<&str> =
        v["rows"].as_array().unwrap().iter().map(|r| r["groups"][0]["exact"].as_str().unwrap()).collect();
    assert_eq!(fails, ["1/1", "5/6", "2/3", "1/2", "1/3", "1/6", "1/6"]);
    let text =
        out(&mettle(&["odds", FRONTIERS, "morale", "--set", "spi=2", "--group", "fail=broken,shaken"]));
    assert!(text.contains("group") && text.contains("fail") && text.contains("2/3"), "{text}");
    let o = mettle(&["odds", FRONTIERS, "morale", "--set", "spi=2", "--group", "fail=broken,shakn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("did you mean `shaken`?"), "{}", err(&o));
}

#[test]
fn groups_declared_in_the_ruleset_show_in_odds_sweeps_sims_and_cards() {
    let f = temp_rules(
        "grouped",
        "kind group { nerve: 2..12 = 7 }
         check nerve for group { roll 2d6  target group.nerve
           outcome steady when total <= target - 3  outcome holds when total <= target  otherwise flees
           group pass = steady, holds }",
    );
    let f = f.to_str().unwrap();
    // Under 8 on 2d6: 21 of 36 rolls.
    let v = json(&["odds", f, "nerve", "--json"]);
    assert_eq!(
        (v["groups"][0]["group"].as_str(), v["groups"][0]["exact"].as_str()),
        (Some("pass"), Some("7/12"))
    );
    // A group of the same name on the command line replaces the ruleset's.
    let v = json(&["odds", f, "nerve", "--group", "pass=steady", "--json"]);
    assert_eq!(v["groups"].as_array().unwrap().len(), 1);
    assert_eq!(v["groups"][0]["exact"].as_str(), Some("1/6"));
    let text = out(&mettle(&["odds", f, "nerve", "--sweep", "group.nerve=6..7"]));
    assert!(text.contains("[pass]") && text.contains("41.67%") && text.contains("58.33%"), "{text}");
    let text = out(&mettle(&["sim", f, "--check", "nerve", "--runs", "2000", "--seed", "1"]));
    let pass = text.lines().find(|l| l.starts_with("[pass]")).unwrap_or_else(|| panic!("{text}"));
    let runs: Vec<u64> = text
        .lines()
        .filter(|l| l.starts_with("steady") || l.starts_with("holds"))
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(pass.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap(), runs.iter().sum::<u64>());
    let card = out(&mettle(&["card", f, "--format", "md"]));
    assert!(card.contains("\\[pass\\]") && card.contains("58.3% (7/12)"), "{card}");
}

/// The header names every input the question left out, with the value the roll took and where it
/// came from (the stand-in's attribute of the same name, or else the input's default): SPI 3 is never
/// used unsaid, and a plain default (`leadership: 0..3 = 0`) does not hide the unit's own.
#[test]
fn the_header_names_every_input_left_at_its_default() {
    let o = mettle(&["odds", FRONTIERS, "morale"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let head = out(&o).lines().next().unwrap_or_default().to_string();
    assert!(
        head.contains(
            "; by default inspired = no, steadying = no, extra_die = no, recovery = no; from the unit spi = 3, leadership = 0, comms = no"
        ),
        "{head}"
    );
    // What is given is not said to be a default.
    let o = mettle(&["odds", FRONTIERS, "morale", "--set", "spi=2", "--set", "leadership=1"]);
    let head = out(&o).lines().next().unwrap_or_default().to_string();
    assert!(head.starts_with("check morale with spi = 2, leadership = 1,"), "{head}");
    assert!(!head.contains("from the unit spi") && !head.contains("leadership = 0"), "{head}");
    assert!(head.contains("; from the unit comms = no"), "{head}");
    // --json: each one as data.
    let doc = json(&["odds", FRONTIERS, "morale", "--json"]);
    let defaults = doc["defaults"].as_array().expect("defaults");
    assert_eq!(defaults.len(), 7);
    assert_eq!(defaults[0], serde_json::json!({"input": "spi", "value": "3", "from": "unit"}));
    // A plain default (`leadership: 0..3 = 0`) does not hide the unit's own.
    assert_eq!(defaults[1], serde_json::json!({"input": "leadership", "value": "0", "from": "unit"}));
    // Everything given: nothing defaulted.
    let doc = json(&[
        "odds",
        FRONTIERS,
        "morale",
        "--json",
        "--set",
        "spi=1",
        "--set",
        "leadership=0",
        "--set",
        "comms=no",
        "--set",
        "inspired=no",
        "--set",
        "steadying=no",
        "--set",
        "extra_die=no",
        "--set",
        "recovery=no",
    ]);
    assert_eq!(doc["defaults"], serde_json::json!([]));
    assert!(!doc["question"].as_str().unwrap_or_default().contains("by default"), "{doc}");
    // A sweep's header names what every row left out; a swept input is not among them.
    let o = mettle(&["odds", FRONTIERS, "morale", "--sweep", "leadership=0..2"]);
    let head = out(&o).lines().next().unwrap_or_default().to_string();
    assert!(
        head.contains("; by default inspired = no,") && head.contains("from the unit spi = 3, comms = no"),
        "{head}"
    );
    assert!(!head.contains("leadership = 0"), "{head}");
}

#[test]
fn odds_show_what_the_check_does_to_who_makes_it() {
    let o = mettle(&["odds", FRONTIERS, "morale", "--set", "spi=3"]);
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    // After the outcomes, before the numbers: each attribute the outcomes change, exactly.
    let at = |s: &str| text.find(s).unwrap_or_else(|| panic!("no `{s}` in {text}"));
    assert!(
        at("  shaken ") < at("unit.resolve_next after the check")
            && at("unit.resolve_next after") < at("\ntotal\n")
    );
    let resolve = &text[at("unit.resolve_next after the check")..at("\ntotal\n")];
    assert!(
        resolve.contains("  no     83.33%  5/6") && resolve.contains("  yes    16.67%  1/6"),
        "{resolve}"
    );
    // An attribute an outcome may change but no roll here does: one line.
    assert!(text.contains("unit.ap after the check: always 0"), "{text}");

    let v = json(&["odds", FRONTIERS, "morale", "--set", "spi=3", "--json"]);
    let effects = v["effects"].as_array().unwrap();
    let resolve = effects.iter().find(|e| e["target"] == "unit.resolve_next").expect("resolve in effects");
    assert_eq!(
        resolve["values"],
        serde_json::json!([
            { "value": "no", "probability": 5.0 / 6.0, "exact": "5/6" },
            { "value": "yes", "probability": 1.0 / 6.0, "exact": "1/6" }
        ])
    );
    for e in effects {
        assert!(e.get("unfollowed").is_none(), "{e}");
        assert_eq!(sum_exact(e["values"].as_array().unwrap()), (1, 1), "{e}");
    }
}

#[test]
fn a_sweep_over_a_reading_that_changes_only_effects_shows_the_difference() {
    let text = out(&mettle(&["odds", FRONTIERS, "morale", "--set", "spi=3", "--sweep", "resolve_needs"]));
    let line = |reading: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(reading))
            .unwrap_or_else(|| panic!("{text}"))
            .to_string()
    };
    let (six, sevens) = (line("a_six"), line("seven_sixes"));
    assert_ne!(six, sevens, "{text}");
    assert!(text.contains("unit.resolve_next=yes"), "{text}");
    assert_eq!(six.split_whitespace().nth(4), Some("16.67%"), "{six}");
    assert_eq!(sevens.split_whitespace().nth(4), Some("0"), "{sevens}");
    // The morale it leaves is the outcome's, and said so rather than repeated.
    assert!(
        text.contains("with the chance of the outcome of the same name in every row: unit.morale=steady"),
        "{text}"
    );

    let v = json(&["odds", FRONTIERS, "morale", "--set", "spi=3", "--sweep", "resolve_needs", "--json"]);
    let yes: Vec<String> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let e =
                r["effects"].as_array().unwrap().iter().find(|e| e["target"] == "unit.resolve_next").unwrap();
            let y = e["values"].as_array().unwrap().iter().find(|x| x["value"] == "yes");
            y.map_or("0".into(), |y| y["exact"].as_str().unwrap().to_string())
        })
        .collect();
    assert_eq!(yes, ["1/6", "0"]);
}

#[test]
fn an_effect_can_be_drawn_as_a_heat_map() {
    let dir = std::env::temp_dir().join(format!("mettle-plot-effect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let heat = dir.join("heat.svg");
    let args = ["odds", FRONTIERS, "morale", "--sweep", "resolve_needs", "--sweep", "spi=0..3", "--plot"];
    let o = mettle(&[&args[..], &[heat.to_str().unwrap(), "--plot-of", "unit.resolve_next=yes"]].concat());
    assert!(o.status.success(), "{}", err(&o));
    let svg = std::fs::read_to_string(&heat).unwrap();
    assert!(svg.contains("unit.resolve_next=yes"), "{svg}");
    assert!(svg.contains("chance of effect unit.resolve_next=yes"), "{svg}");
    // Without `--plot-of`, the heat map is of the first outcome, not of an effect.
    let plain = dir.join("plain.svg");
    let o = mettle(&[&args[..], &[plain.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", err(&o));
    let svg = std::fs::read_to_string(&plain).unwrap();
    assert!(svg.contains("chance of broken"), "{svg}");
    // Over one input, the effect is a dashed line named as its column, not bracketed as a group.
    let lines = dir.join("lines.svg");
    let o = mettle(&["odds", FRONTIERS, "morale", "--sweep", "spi=0..6", "--plot", lines.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    let svg = std::fs::read_to_string(&lines).unwrap();
    assert!(svg.contains("\nunit.resolve_next=yes\n") && !svg.contains("[unit.resolve_next=yes]"), "{svg}");
    assert!(svg.matches("<title>").count() >= 8, "a cell per combination: {svg}");
    // A misspelt effect: coded, with the nearest name, and no chart written.
    let missing = dir.join("missing.svg");
    let o = mettle(&[&args[..], &[missing.to_str().unwrap(), "--plot-of", "unit.resolve_next=ye"]].concat());
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("mettle::cli::bad_plot"), "{}", err(&o));
    assert!(err(&o).contains("did you mean `unit.resolve_next=yes`?"), "{}", err(&o));
    assert!(!missing.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sim_of_a_check_adds_up_groups_as_odds_does() {
    let args = ["sim", FRONTIERS, "--check", "morale", "--set", "spi=3", "--runs", "3000", "--threads", "1"];
    let o = mettle(&[&args[..], &["--group", "pass=steady", "--group", "down=broken,shaken"]].concat());
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    let runs = |label: &str| -> u64 {
        let l = text.lines().find(|l| l.starts_with(label)).unwrap_or_else(|| panic!("no {label} in {text}"));
        l.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    assert_eq!(runs("[pass]"), runs("steady"));
    assert_eq!(runs("[down]"), runs("broken") + runs("shaken"));
    assert!(text.find("[pass]").unwrap() > text.find("shaken").unwrap(), "groups under the outcomes: {text}");
    let v = json(&[&args[..], &["--group", "down=broken,shaken", "--json"]].concat());
    let groups = v["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0]["group"], "down");
    let count = |name: &str| {
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["result"] == name)
            .map_or(0, |r| r["count"].as_u64().unwrap())
    };
    assert_eq!(groups[0]["count"].as_u64().unwrap(), count("broken") + count("shaken"));
}

#[test]
fn sim_refuses_a_group_it_cannot_make_before_any_run() {
    let base = ["sim", FRONTIERS, "--check", "morale", "--set", "spi=3", "--runs", "1000000000"];
    for (group, said) in [
        ("pass=stedy", "did you mean `steady`?"),
        ("pass", "needs NAME=OUTCOME"),
        ("=steady", "needs a name and at least one outcome"),
    ] {
        let start = std::time::Instant::now();
        let o = mettle(&[&base[..], &["--group", group]].concat());
        assert_eq!(o.status.code(), Some(2), "{group}");
        assert!(err(&o).contains("mettle::cli::bad_group") && err(&o).contains(said), "{group}: {}", err(&o));
        assert!(out(&o).is_empty(), "{group}: nothing simulated, nothing printed");
        assert!(start.elapsed().as_secs() < 20, "{group}: refused before the billion runs");
    }
    // A scenario has no outcomes to group.
    let o = mettle(&["sim", FRONTIERS, "morale_failure", "--group", "a=b"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("only a check's outcomes can be grouped"), "{}", err(&o));
}

const HEAVY: &str = "kind unit { hp: 0..9 = 5 }
check c for unit {
  roll 3d100
  outcome hi when total >= 150 { repeat { add 0 to unit.hp } until unit.hp > 8 }
  otherwise lo { remove 1 from unit.hp }
}
";

#[test]
fn effects_that_fail_or_run_long_leave_the_outcomes_exact_and_say_why() {
    let file = temp_rules("heavy_effects.mettle", HEAVY);
    let before = std::fs::read(&file).unwrap();
    // Each `hi` roll's effects stop at the `repeat` limit: those rolls are not followed.
    let o = mettle(&["odds", file.to_str().unwrap(), "c"]);
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(text.contains("exact odds") && text.contains("hi         51.50%  257499/500000"), "{text}");
    assert!(text.contains("not followed    51.50%  257499/500000"), "{text}");
    assert!(text.contains("not followed: its effects stop with an error: `repeat` ran 1000 times"), "{text}");
    // With too little work to follow every roll's effects, the outcomes are still exact.
    let o = mettle(&["odds", file.to_str().unwrap(), "c", "--budget", "odds_work=2000000", "--json"]);
    assert!(o.status.success(), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["exact"], true);
    assert_eq!(v["outcomes"][0]["exact"], "257499/500000");
    let hp = &v["effects"][0];
    assert_eq!(hp["target"], "unit.hp");
    assert_eq!(hp["values"], serde_json::json!([]));
    assert_eq!(hp["unfollowed"]["exact"], "1/1");
    assert!(hp["unfollowed"]["why"].as_str().unwrap().contains("--budget odds_work=N"), "{hp}");
    assert_eq!(std::fs::read(&file).unwrap(), before, "the ruleset is left as it was");
}
