//! Every shipped ruleset loads without warnings and passes every scenario, through the library and
//! through `mettle test rulesets/`.

use mettle::internals::RulesetInternals as _;
use mettle::{Ruleset, Session};
use std::path::PathBuf;
use std::process::Command;

fn shipped() -> Vec<PathBuf> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("rulesets");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mettle"))
        .collect();
    files.sort();
    files
}

#[test]
fn the_five_seed_rulesets_ship() {
    let names: Vec<String> =
        shipped().iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    for want in [
        "combat_hq.mettle",
        "dice_pool_morale.mettle",
        "infinite_frontiers.mettle",
        "shadow_deep_stress.mettle",
        "traveller_morale.mettle",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} is missing from rulesets/");
    }
}

#[test]
fn every_shipped_ruleset_is_clean_and_its_scenarios_pass() {
    for path in shipped() {
        let rules = Ruleset::from_path(&path).unwrap_or_else(|e| panic!("{}", e.render(100)));
        let warnings = mettle::diagnostics::render(
            rules.warnings(),
            rules.name(),
            rules.text(),
            &mettle::diagnostics::RenderOptions::default().with_width(100),
        );
        assert!(rules.warnings().is_empty(), "{} has warnings:\n{warnings}", path.display());
        assert!(!rules.program().scenarios.is_empty(), "{} has no scenarios", path.display());
        for sc in &rules.program().scenarios {
            // The seed matters only where a scenario leaves dice unforced; try several.
            for seed in [0, 1, 99] {
                let mut s = Session::new(&rules, seed);
                let report = s
                    .run_scenario(&sc.name)
                    .unwrap_or_else(|d| panic!("{} :: {}: {d}", path.display(), sc.name));
                assert!(
                    report.failures.is_empty() && report.passed > 0,
                    "{} :: {} (seed {seed}) failed:\n{}",
                    path.display(),
                    sc.name,
                    mettle::session::render_log(s.log(), rules.text())
                );
            }
        }
    }
}

#[test]
fn mettle_test_rulesets_passes() {
    let out = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(["test", "rulesets/"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    assert!(
        out.status.success(),
        "mettle test rulesets/ failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(last.ends_with(" passed, 0 failed"), "unexpected summary line: {last}");
    let passed: usize = last.split_whitespace().next().unwrap().parse().unwrap();
    assert!(passed >= 20, "only {passed} scenarios ran");
}

#[test]
fn a_failing_expectation_fails_mettle_test() {
    let dir = std::env::temp_dir().join(format!("mettle-failing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("failing.mettle");
    std::fs::write(&file, "kind unit { spi: 0..6 = 3 }\nscenario wrong { new unit u\n expect u.spi == 4 }\n")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mettle")).arg("test").arg(&file).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout.contains("0 passed, 1 failed"), "{stdout}");
    assert!(stdout.contains("expect u.spi == 4"), "{stdout}");
    assert!(stdout.contains("found 3, not 4"), "{stdout}");
}
