//! Save text → `Session::load` into each shipped ruleset; a save that loads must roll, fire time
//! forward and save again.
#![no_main]

use mettle::internals::RulesetInternals as _;
use libfuzzer_sys::fuzz_target;
use mettle::{Ruleset, Session};
use std::sync::OnceLock;

fn rulesets() -> &'static [Ruleset] {
    static RULES: OnceLock<Vec<Ruleset>> = OnceLock::new();
    RULES.get_or_init(|| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../rulesets");
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "mettle"))
            .collect();
        paths.sort();
        paths.iter().map(|p| Ruleset::from_path(p).unwrap()).collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for rules in rulesets() {
        if let Ok(mut s) = Session::load(rules, text) {
            let checks: Vec<String> = rules.program().checks.iter().map(|c| c.name.clone()).collect();
            for c in checks {
                let _ = s.roll(&c, &[]);
            }
            for event in ["round_start", "turn_start", "turn_end", "round_end"] {
                let _ = s.apply(event, &[]);
            }
            let again = s.save();
            assert!(Session::load(rules, &again).is_ok(), "a session saved by mettle does not load again");
        }
    }
});
