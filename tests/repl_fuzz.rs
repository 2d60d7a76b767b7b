//! Random lines at the prompt: pieces of real input, shuffled and cut short. The REPL never panics, and
//! a line that fails leaves the session and its saved form exactly as they were.

use mettle::internals::repl::Repl;
use proptest::prelude::*;

/// Lines a person might type, good and bad, over the Infinite Frontiers and Shadow Deep rulesets.
const LINES: &[&str] = &[
    ":load rulesets/infinite_frontiers.mettle",
    ":load rulesets/shadow_deep_stress.mettle",
    ":load rulesets/nowhere.mettle",
    "new side blue",
    "new unit alpha with side = blue, spi = 2",
    "new unit alpha with spi = 9",
    "new creature orc with stress = 3, will = 1",
    "trigger turn_start",
    "trigger damaged(unit: alpha, hp_lost: 3)",
    "trigger activates(creature: orc, situation: {friends: [{name: \"goblin\", distance: 4}]})",
    "trigger activates(creature: orc, situation: {friends: [\"goblin\"]})",
    "follow failed_test(orc, {enemies: []})",
    "follow failed_test(orc)",
    "roll morale for alpha with spi = 2",
    ":roll morale_test for orc stress=2 will=1",
    ":roll morale spi=",
    "alpha.spi + 1",
    "orc.stress * 2",
    "set alpha.morale to shaken",
    "set orc.stress to 99",
    "dice 1, 6, 3",
    "let x = 2d6 + 1",
    "x",
    "kind squad { nerve: 0..6 = 3 }",
    "kind squad {",
    "check quick { roll d6 otherwise done }",
    "script { fn f(x) { loop { } } }",
    "script { fn g(x) { x + } }",
    ":explain",
    ":undo",
    ":units",
    ":state",
    ":seed 5",
    ":save",
    ":help roll",
    ":reload",
    ")))(((",
    "expect alpha.spi == 2",
    "{friends: [1, 2, 3]}",
    "d0",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn random_lines_never_break_the_repl(
        picks in prop::collection::vec((0..LINES.len(), 0usize..40), 1..25)
    ) {
        let dir = std::env::temp_dir().join(format!("mettle-repl-fuzz-{}", std::process::id()));
        let _ = std::fs::create_dir_all(dir.join("rulesets"));
        for f in ["infinite_frontiers.mettle", "shadow_deep_stress.mettle"] {
            let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets").join(f);
            let _ = std::fs::copy(from, dir.join("rulesets").join(f));
        }
        let mut repl = Repl::new(1, false, 80);
        for (i, cut) in picks {
            // Lines are run from the scratch folder, as a person would from theirs.
            let line = LINES[i];
            let line = if cut < line.len() && line.is_char_boundary(cut) && cut % 3 == 0 { &line[..cut] } else { line };
            let line = line.replace("rulesets/", &format!("{}/rulesets/", dir.display()));
            let before = repl.session().save();
            let reply = repl.handle(&line);
            if reply.failed {
                prop_assert_eq!(repl.session().save(), before, "`{}` failed but changed the session", line);
            }
        }
    }
}
