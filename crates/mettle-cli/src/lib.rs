//! The `mettle` command as a library: the front ends (command line, REPL, JSON-RPC server, language
//! server) that the binary in `main.rs` runs. It is a library so that the fuzz targets in `fuzz/` can
//! drive the server's and the language server's message handling in process; it is not a public API.

pub mod cli;
pub mod lsp;
pub mod repl;
pub mod serve;
