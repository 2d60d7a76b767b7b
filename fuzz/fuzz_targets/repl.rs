//! A sequence of lines → a REPL session over the Infinite Frontiers ruleset. Commands that touch files
//! (`:load`, `:reload`, `:save`, `:restore`) are left out: the fuzzer must not write to the disk.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mettle::internals::repl::Repl;

const RULESET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../rulesets/infinite_frontiers.mettle");

thread_local! {
    // The ruleset is loaded once; each run starts from a fork of this REPL.
    static LOADED: Repl = {
        let mut repl = Repl::new(1, false, 80);
        let load = repl.handle(&format!(":load {RULESET}"));
        assert!(!load.failed, "{}", load.err);
        repl
    };
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut repl = LOADED.with(Repl::fork);
    for line in text.lines().take(16) {
        let command = line.trim_start();
        if [":load", ":reload", ":save", ":restore"].iter().any(|c| command.starts_with(c)) {
            continue;
        }
        let reply = repl.handle(line);
        if reply.quit {
            break;
        }
    }
});
