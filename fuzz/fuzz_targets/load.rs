//! Ruleset text → load (parse, check, compile) → render the diagnostics, or run every scenario.
#![no_main]

use mettle::internals::RulesetInternals as _;
use libfuzzer_sys::fuzz_target;
use mettle::{Budget, LoadOptions, Ruleset, Session};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // Small budgets keep one execution short; the limits themselves are what is being tried.
    let mut budget = Budget::default();
    for (name, value) in [("steps", 20_000), ("log_entries", 2_000), ("script_operations", 20_000)] {
        budget.set(name, value).unwrap();
    }
    let opts = LoadOptions { budget, ..Default::default() };
    match Ruleset::load("fuzz.mettle", text, &opts) {
        Ok(rules) => {
            for w in rules.warnings() {
                let _ = w.code.len();
            }
            let names: Vec<String> = rules.program().scenarios.iter().map(|s| s.name.clone()).collect();
            for name in names {
                let mut s = Session::new(&rules, 1);
                if s.run_scenario(&name).is_err() {
                    let _ = mettle::session::render_log(s.undone_log(), rules.text());
                } else {
                    let _ = mettle::session::render_log(s.log(), rules.text());
                }
                let _ = s.save();
            }
        }
        Err(e) => {
            let _ = e.render(80);
        }
    }
});
