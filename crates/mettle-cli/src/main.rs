//! The `mettle` command: a thin layer over the library that reads files, prints and sets exit codes.

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

mod cli;
mod lsp;
mod repl;
mod serve;

// Simulations allocate small states on every thread at once; mimalloc keeps two threads nearly twice
// as fast as one, where the system allocator gave about 1.6 times.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // Printing into a closed pipe (`mettle odds … | head`) ends the program quietly, as other command-line
    // tools do, instead of panicking.
    sigpipe::reset();
    cli::main()
}

/// Writes `text` to standard error with its control characters escaped (see `eprint!` above). A
/// failure to write to standard error has nowhere to be reported, and is ignored.
fn write_err(text: &str) {
    use std::io::Write;
    let _ = std::io::stderr().lock().write_all(mettle::text::escape_controls(text).as_bytes());
}
