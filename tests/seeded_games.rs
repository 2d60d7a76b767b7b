//! The same seed gives the same game: every scenario of every shipped ruleset, played with fixed
//! seeds, logs exactly what it logged when these snapshots were taken, and the simulations of the
//! random scenarios report the same counts. The snapshots were taken before the evaluator was made
//! faster; a change to the random stream or to what a rule does shows up here for review.
//!
//! With the log off a game must end the same way and record the same values as with it on, and so
//! must a game played as a simulation plays it (`Session::play_quietly`, in one session used again
//! for every game of the ruleset), down to the checks' last results.
//!
//! To accept intended changes: `INSTA_UPDATE=always cargo test -p mettle --test seeded_games`, then
//! read the diff.

use mettle::internals::session::QuietGame;
use mettle::internals::{RulesetInternals as _, SessionInternals as _};
use mettle::session::{LogEntry, render_log};
use mettle::sim::{self, Options, Target};
use mettle::{Ruleset, Session};
use std::fmt::Write;

const SEEDS: [u64; 2] = [1, 7];

fn rules(file: &str) -> Ruleset {
    Ruleset::from_path(format!("{}/rulesets/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// How a game ended and what it recorded, as the simulation sees it.
fn ending(s: &Session) -> String {
    let over = match s.state().over() {
        Some(o) => format!("{} for {:?}", o.result, o.winner),
        None => "not over".into(),
    };
    let records: Vec<String> = s
        .log()
        .iter()
        .filter_map(|l| match &l.entry {
            LogEntry::Record { label, value, .. } => Some(format!("{label}={value}")),
            _ => None,
        })
        .collect();
    format!("{over}; recorded {}", records.join(", "))
}

/// Every scenario of `file` with each seed: its log as `mettle play` shows it, and how it ended.
fn games(file: &str) -> String {
    let r = rules(file);
    let mut out = String::new();
    let mut reused = Session::new(&r, 0);
    let mut game = QuietGame::default();
    for (index, sc) in r.program().scenarios.iter().enumerate() {
        for seed in SEEDS {
            let mut s = Session::new(&r, seed);
            let played = s.run_scenario(&sc.name);
            let _ = writeln!(out, "=== {} seed {seed}", sc.name);
            match &played {
                Ok(report) => {
                    let _ = writeln!(out, "passed {}, failed {}", report.passed, report.failures.len());
                    out.push_str(&render_log(s.log(), r.text()));
                }
                Err(d) => {
                    let _ = writeln!(out, "error {}: {}", d.code, d.message);
                    out.push_str(&render_log(s.undone_log(), r.text()));
                }
            }
            let on = ending(&s);
            let _ = writeln!(out, "ending: {on}");
            // The same game with the log off.
            let mut quiet = Session::new(&r, seed);
            quiet.set_logging(false);
            let quiet_played = quiet.run_scenario(&sc.name);
            assert_eq!(played.is_ok(), quiet_played.is_ok(), "{file} {} seed {seed}", sc.name);
            if played.is_ok() {
                assert_eq!(on, ending(&quiet), "{file} {} seed {seed}: the log changed the game", sc.name);
            }
            // The same game as a simulation plays it.
            let sim_played = reused.play_quietly(index, seed, &mut game);
            assert_eq!(played.is_ok(), sim_played.is_ok(), "{file} {} seed {seed}", sc.name);
            if let Ok(report) = &played {
                let records: Vec<String> = game.records.iter().map(|(l, v)| format!("{l}={v}")).collect();
                let ended =
                    ending(&reused).replace("; recorded ", &format!("; recorded {}", records.join(", ")));
                assert_eq!(on, ended, "{file} {} seed {seed}: played as a simulation", sc.name);
                assert_eq!(report.failures.is_empty(), !game.failed, "{file} {} seed {seed}", sc.name);
                // The checks' last results, made when read or when the game ended, are those the
                // game with the log off made at each roll (a simulation keeps no modifiers' labels,
                // on the result or on the dice they add).
                let unlabelled = |s: &Session| {
                    let mut last = s.state().last().to_vec();
                    for r in last.iter_mut().flatten() {
                        let r = std::sync::Arc::make_mut(r);
                        r.modifiers.clear();
                        let slots = r.slots.iter_mut().filter_map(|v| match v {
                            mettle::Value::Pool(p) => Some(std::sync::Arc::make_mut(p)),
                            _ => None,
                        });
                        for d in r.pool.iter_mut().chain(slots).flat_map(|p| &mut p.dice) {
                            d.from = None;
                        }
                    }
                    last
                };
                assert_eq!(
                    unlabelled(&quiet),
                    unlabelled(&reused),
                    "{file} {} seed {seed}: results",
                    sc.name
                );
            }
        }
    }
    out
}

#[test]
fn combat_hq() {
    insta::assert_snapshot!(games("combat_hq.mettle"));
}

#[test]
fn dice_pool_morale() {
    insta::assert_snapshot!(games("dice_pool_morale.mettle"));
}

#[test]
fn infinite_frontiers() {
    insta::assert_snapshot!(games("infinite_frontiers.mettle"));
}

#[test]
fn shadow_deep_stress() {
    insta::assert_snapshot!(games("shadow_deep_stress.mettle"));
}

#[test]
fn traveller_morale() {
    insta::assert_snapshot!(games("traveller_morale.mettle"));
}

/// A simulation's counts, recorded values and errors, as data.
fn simulated(file: &str, scenario: &str) -> String {
    let opts = Options { runs: 3000, seed: 11, threads: 1 };
    let report = sim::simulate(&rules(file), &Target::Scenario(scenario.into()), &opts, &|_| {}).unwrap();
    let mut out =
        format!("runs {}, errors {}, failed {}\n", report.runs, report.errors, report.failed_expectations);
    for f in &report.results {
        let _ = writeln!(out, "{}: {}", f.name(), f.count);
    }
    for d in &report.records {
        let counts: Vec<String> = d.counts.iter().map(|c| format!("{}x{}", c.value, c.runs)).collect();
        let _ = writeln!(out, "{}: {}", d.label, counts.join(" "));
    }
    out
}

#[test]
fn simulations() {
    insta::assert_snapshot!("sim_morale_race", simulated("combat_hq.mettle", "morale_race"));
    insta::assert_snapshot!("sim_firefight", simulated("infinite_frontiers.mettle", "firefight"));
}
