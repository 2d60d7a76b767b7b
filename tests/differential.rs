//! The compiled conditions against the reference evaluator, on real games: every scenario of every
//! shipped ruleset, test ruleset and example in the language reference's folder is played with
//! several seeds while `internals::differ` evaluates each condition the runner tests a second time
//! with `eval`. The answers, the errors and the steps charged must be the same every time. (That a
//! watch does see a difference is tested beside the runner, in `session/run/compile.rs`.)

use mettle::internals::differ;
use mettle::{Ruleset, Session};
use std::path::Path;

fn rulesets() -> Vec<Ruleset> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![];
    for dir in ["rulesets", "tests/inputs/good", "tests/inputs/odds"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths.into_iter().filter(|p| p.extension().is_some_and(|x| x == "mettle")) {
            if let Ok(r) = Ruleset::from_path(&p) {
                out.push(r);
            }
        }
    }
    out
}

#[test]
fn every_condition_met_in_play_agrees_with_the_evaluator() {
    let rules = rulesets();
    assert!(rules.len() >= 8, "found {} rulesets", rules.len());
    let watch = differ::watch();
    let mut games = 0;
    for r in &rules {
        let names: Vec<String> = r.scenarios().map(str::to_string).collect();
        for name in &names {
            for seed in [1, 7, 42] {
                let mut s = Session::new(r, seed);
                // A scenario may fail on purpose (a rule's error it tests): the comparison still counts.
                let _ = s.run_scenario(name);
                games += 1;
            }
        }
    }
    assert!(games > 60, "played {games} games");
    assert_eq!(watch.differences(), Vec::<String>::new());
    eprintln!("{games} games, {} conditions compared", watch.compared());
    if cfg!(debug_assertions) {
        assert!(watch.compared() > 5_000, "compared only {} conditions", watch.compared());
    }
}
