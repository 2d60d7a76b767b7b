//! The `mettle` command: a thin layer over the library that reads files, prints and sets exit codes.

mod cli;

fn main() -> std::process::ExitCode {
    // Printing into a closed pipe (`mettle odds … | head`) ends the program quietly, as other command-line
    // tools do, instead of panicking.
    sigpipe::reset();
    cli::main()
}
