//! Bytes → the language server's message reader (`Content-Length` framing, with a body limit of 512
//! bytes so that refusing a large message is reached too) → the messages through the server, after
//! an `initialize`, in memory. Nothing is written to the disk: the server only reads.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = mettle_cli::lsp::replay(data, 512);
});
