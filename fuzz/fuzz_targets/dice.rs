//! A dice expression → roll it once, and ask its exact odds.
#![no_main]

use mettle::internals::SessionInternals as _;
use libfuzzer_sys::fuzz_target;
use mettle::internals::odds::expr::{compile, dist};
use mettle::{Ruleset, Session, Value};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let compiled = match compile(text) {
        Ok(c) => c,
        Err(diags) => {
            let _ = mettle::diagnostics::render(&diags, "--dice", text, &Default::default());
            return;
        }
    };
    let rules = Ruleset::from_str("--dice", "").unwrap();
    let mut session = Session::new(&rules, 7);
    let mut frame = vec![Value::None; compiled.slots as usize];
    let _ = session.eval_prompt(&compiled.expr, &mut frame);
    let _ = dist(&compiled.expr);
});
