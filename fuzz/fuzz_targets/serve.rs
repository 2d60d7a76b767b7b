//! Lines of JSON-RPC → `mettle serve`'s replies, in process. Each run starts a fresh server with no
//! file access (no `--root`) and small budgets, so a run stays quick; every line must get exactly one
//! reply that is a line of JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mettle_cli::serve::Server;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut budget = mettle::Budget::default();
    for (name, value) in [("steps", 100_000), ("total_steps", 1_000_000), ("odds_work", 20_000_000)] {
        budget.set(name, value).ok();
    }
    let mut server = Server::new(1, budget);
    for line in text.lines().take(8) {
        let reply = server.line(line);
        assert!(!reply.contains('\n'), "a reply is one line");
        let v: serde_json::Value = serde_json::from_str(&reply).expect("a reply is JSON");
        assert_eq!(v["jsonrpc"], "2.0");
    }
});
