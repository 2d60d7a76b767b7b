//! The hand-written `morale_race` of the benchmarks plays the same game as the ruleset's scenario:
//! seeded alike it ends alike, and over many games the shares of each end agree within sampling error
//! (and a game with other odds is told apart).

#[path = "../benches/hand/morale_race.rs"]
mod morale_race;

use mettle::session::LogEntry;
use mettle::{Ruleset, Session};
use morale_race::{End, Game};
use std::collections::BTreeMap;

fn rules() -> Ruleset {
    Ruleset::from_path(format!("{}/../../rulesets/combat_hq.mettle", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The scenario played by the rules with the log off, read back as a [`Game`].
fn by_the_rules(r: &Ruleset, seed: u64) -> Game {
    let mut s = Session::new(r, seed);
    s.set_logging(false);
    let report = s.run_scenario("morale_race").unwrap();
    assert!(report.failures.is_empty(), "seed {seed}: {:?}", report.failures);
    let over = s.state().over.clone().expect("the engagement always ends");
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
    let rec: BTreeMap<String, i64> = s
        .log()
        .iter()
        .filter_map(|l| match &l.entry {
            LogEntry::Record { label, value, .. } => Some((label.clone(), *value)),
            _ => None,
        })
        .collect();
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
fn shares(games: impl Iterator<Item = Game>) -> BTreeMap<End, u64> {
    let mut m = BTreeMap::new();
    for g in games {
        *m.entry(g.end).or_insert(0) += 1;
    }
    m
}

/// Whether two samples of `n` games each agree on the share of every end within five standard errors
/// of the difference (pooled).
fn agree(a: &BTreeMap<End, u64>, b: &BTreeMap<End, u64>, n: u64) -> bool {
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
    let ruled = shares((0..N).map(|i| by_the_rules(&r, mettle::sim::mix(1, i))));
    let hand = shares((0..N).map(|i| morale_race::play(mettle::sim::mix(2, i))));
    assert!(agree(&ruled, &hand, N), "by the rules {ruled:?}, by hand {hand:?}");
    // The bound tells a game with other odds apart: a lost unit Tom's three times in seven, not four.
    let skewed = shares((0..N).map(|i| morale_race::play_with(mettle::sim::mix(2, i), 3)));
    assert!(!agree(&ruled, &skewed, N), "by the rules {ruled:?}, skewed {skewed:?}");
}
