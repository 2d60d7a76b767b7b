//! The `mettle` command: a thin layer over the library that reads files, prints and sets exit codes.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
