//! The `mettle` command as a library: the front ends (command line, REPL, JSON-RPC server, language
//! server) that the binary in `main.rs` runs. It is a library so that the fuzz targets in `fuzz/` can
//! drive the server's and the language server's message handling in process; it is not a public API.

// Every `eprint!`/`eprintln!` of the command goes through these, which shadow the standard macros in
// every module declared below: control characters and bidirectional overrides reach standard error
// escaped (`\u{1b}`); only colour codes pass, the ones the diagnostics renderer adds. Text from
// outside (a ruleset, a save, a command-line value) is escaped whole before it is put into a message,
// so its own colour codes do not pass either.
macro_rules! eprint {
    ($($t:tt)*) => { $crate::write_err(&format!($($t)*)) };
}

macro_rules! eprintln {
    () => { $crate::write_err("\n") };
    ($($t:tt)*) => { $crate::write_err(&format!("{}\n", format_args!($($t)*))) };
}

pub mod cli;
pub mod lsp;
pub mod repl;
pub mod serve;

/// Writes `text` to standard error with its control characters escaped (see `eprint!` above). A
/// failure to write to standard error has nowhere to be reported, and is ignored.
fn write_err(text: &str) {
    use std::io::Write;
    let _ = std::io::stderr().lock().write_all(mettle::text::escape_controls(text).as_bytes());
}
