//! The hand-written games of the benchmarks (`morale_race`, `firefight`) play the same games as the
//! rulesets' scenarios: seeded alike they end alike, and over many games the shares of each end agree
//! within sampling error (and a game with other odds is told apart).

#[path = "../benches/hand/firefight.rs"]
mod firefight;
#[path = "../benches/hand/morale_race.rs"]
mod morale_race;

use mettle::session::LogEntry;
use mettle::{Ruleset, Session};
use morale_race::{End, Game};
use std::collections::BTreeMap;

fn ruleset(file: &str) -> Ruleset {
    Ruleset::from_path(format!("{}/rulesets/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn rules() -> Ruleset {
    ruleset("combat_hq.mettle")
}

/// Plays `scenario` by the rules with the log off: the session, for reading the end, and the values
/// recorded.
fn played(r: &Ruleset, scenario: &str, seed: u64) -> (Session, BTreeMap<String, i64>) {
    let mut s = Session::new(r, seed);
    s.set_logging(false);
    let report = s.run_scenario(scenario).unwrap();
    assert!(report.failures.is_empty(), "seed {seed}: {:?}", report.failures);
    let rec = s
        .log()
        .iter()
        .filter_map(|l| match &l.entry {
            LogEntry::Record { label, value, .. } => Some((label.clone(), *value)),
            _ => None,
        })
        .collect();
    (s, rec)
}

/// The scenario played by the rules with the log off, read back as a [`Game`].
fn by_the_rules(r: &Ruleset, seed: u64) -> Game {
    let (s, rec) = played(r, "morale_race", seed);
    let over = s.state().over().cloned().expect("the engagement always ends");
    let who = |w: &Option<String>| match w.as_deref() {
        Some("max") => 0,
        Some("tom") => 1,
        w => panic!("seed {seed}: winner {w:?}"),
    };
    let end = match over.result.as_str() {
        "draw" => End::Draw,
        "major_victory" => End::Major(who(&over.winner)),
        "minor_victory" => End::Minor(who(&over.winner)),
        other => panic!("seed {seed}: result {other}"),
    };
    Game {
        end,
        turns: rec["turns taken"],
        mp: [rec["Max's Morale Points left"], rec["Tom's Morale Points left"]],
        by_time: rec["ended by time"] == 1,
    }
}

#[test]
fn seeded_alike_the_games_end_alike() {
    let r = rules();
    for seed in 0..400 {
        assert_eq!(morale_race::play(seed), by_the_rules(&r, seed), "seed {seed}");
    }
}

/// How many games ended each way.
fn shares<E: Ord>(ends: impl Iterator<Item = E>) -> BTreeMap<E, u64> {
    let mut m = BTreeMap::new();
    for e in ends {
        *m.entry(e).or_insert(0) += 1;
    }
    m
}

/// Whether two samples of `n` games each agree on the share of every end within five standard errors
/// of the difference (pooled).
fn agree<E: Ord>(a: &BTreeMap<E, u64>, b: &BTreeMap<E, u64>, n: u64) -> bool {
    a.keys().chain(b.keys()).all(|end| {
        let (x, y) = (a.get(end).copied().unwrap_or(0) as f64, b.get(end).copied().unwrap_or(0) as f64);
        let n = n as f64;
        let p = (x + y) / (2.0 * n);
        let sigma = (p * (1.0 - p) * 2.0 / n).sqrt();
        ((x - y) / n).abs() <= 5.0 * sigma
    })
}

#[test]
fn the_ends_come_up_as_often_as_by_the_rules() {
    const N: u64 = 6000;
    let r = rules();
    // Different seeds on each side: independent samples of the two games.
    let ruled = shares((0..N).map(|i| by_the_rules(&r, mettle::internals::sim::mix(1, i)).end));
    let hand = shares((0..N).map(|i| morale_race::play(mettle::internals::sim::mix(2, i)).end));
    assert!(agree(&ruled, &hand, N), "by the rules {ruled:?}, by hand {hand:?}");
    // The bound tells a game with other odds apart: a lost unit Tom's three times in seven, not four.
    let skewed = shares((0..N).map(|i| morale_race::play_with(mettle::internals::sim::mix(2, i), 3).end));
    assert!(!agree(&ruled, &skewed, N), "by the rules {ruled:?}, skewed {skewed:?}");
}

// ---------------------------------------------------------------- firefight

/// Infinite Frontiers' `firefight` played by the rules, read back as a [`firefight::Game`].
fn firefight_by_the_rules(r: &Ruleset, seed: u64) -> firefight::Game {
    let (s, rec) = played(r, "firefight", seed);
    let over = s.state().over().cloned().expect("the firefight always ends");
    let end = match (over.result.as_str(), over.winner.as_deref()) {
        ("firefight_drawn", None) => firefight::End::Drawn,
        ("firefight_won", Some("a")) => firefight::End::Won(0),
        ("firefight_won", Some("b")) => firefight::End::Won(1),
        other => panic!("seed {seed}: end {other:?}"),
    };
    firefight::Game {
        end,
        turns: rec["turns taken"],
        troopers: rec["troopers still fighting"],
        veterans: rec["veterans still fighting"],
        destroyed: rec["units destroyed"],
    }
}

#[test]
fn seeded_alike_the_firefights_end_alike() {
    let r = ruleset("infinite_frontiers.mettle");
    for seed in 0..400 {
        assert_eq!(firefight::play(seed), firefight_by_the_rules(&r, seed), "seed {seed}");
    }
    // A draw comes about once in 900 games: the hand-written game finds some, and the rules agree.
    let drawn: Vec<u64> =
        (0..20_000).filter(|&s| firefight::play(s).end == firefight::End::Drawn).take(8).collect();
    assert_eq!(drawn.len(), 8, "{drawn:?}");
    for seed in drawn {
        assert_eq!(firefight_by_the_rules(&r, seed).end, firefight::End::Drawn, "seed {seed}");
    }
}

#[test]
fn the_firefights_end_as_often_as_by_the_rules() {
    const N: u64 = 6000;
    let r = ruleset("infinite_frontiers.mettle");
    let ruled = shares((0..N).map(|i| firefight_by_the_rules(&r, mettle::internals::sim::mix(1, i)).end));
    let hand = shares((0..N).map(|i| firefight::play(mettle::internals::sim::mix(2, i)).end));
    assert!(agree(&ruled, &hand, N), "by the rules {ruled:?}, by hand {hand:?}");
    // The bound tells a game with other odds apart: morale checks against 9, not 7. (The ends move
    // little with morale: against 8 the veterans' share grows by about 4 points, at the edge of the
    // bound; against 9 by about 10.)
    let harder = firefight::Rules { morale_target: 9 };
    let skewed = shares((0..N).map(|i| firefight::play_with(mettle::internals::sim::mix(2, i), harder).end));
    assert!(!agree(&ruled, &skewed, N), "by the rules {ruled:?}, skewed {skewed:?}");
}
