//! `mettle lsp`: a language server over standard input and output (lsp-server, no async runtime).

mod analysis;
mod complete;
mod diag;
mod features;
mod format;
mod index;
mod odds;
mod outline;
mod position;
mod resolve;
#[cfg(test)]
mod robust_tests;
mod server;
mod signature;
mod statements;
#[cfg(test)]
mod tests;

pub use server::serve;

/// Runs the server over standard input and output until the client says `exit`; the exit status.
/// Documents are checked within the limits given with `--budget`.
pub fn run() -> u8 {
    let (connection, io) = lsp_server::Connection::stdio();
    let status = match serve(&connection, crate::cli::budget()) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("mettle::lsp::protocol\n\n  × {e}");
            1
        }
    };
    drop(connection);
    match io.join() {
        Ok(()) => status,
        Err(e) => {
            eprintln!("mettle::lsp::io\n\n  × {e}");
            1
        }
    }
}
