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
pub mod transport;

pub use server::serve;

/// Runs the server over standard input and output until the client says `exit`; the exit status.
/// Documents are checked within the limits given with `--budget`. Messages are read by
/// [`transport::Reader`], which refuses what it cannot take and goes on; a refusal reaches the server
/// as a [`REFUSED`] notification, which it writes to the editor's log.
pub fn run() -> u8 {
    let (to_server, from_client) = crossbeam_channel::bounded::<lsp_server::Message>(0);
    let (to_client, from_server) = crossbeam_channel::bounded::<lsp_server::Message>(0);
    // Not joined: it may be waiting on input when the server is done.
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut reader = transport::Reader::new(stdin.lock(), transport::MESSAGE_BYTES);
        while let Some(read) = reader.next() {
            let msg = match read {
                Ok(m) => m,
                Err(r) => lsp_server::Message::Notification(lsp_server::Notification::new(
                    REFUSED.into(),
                    serde_json::json!({ "code": r.code, "message": r.message }),
                )),
            };
            let exit = matches!(&msg, lsp_server::Message::Notification(n) if n.method == "exit");
            if to_server.send(msg).is_err() || exit {
                break;
            }
        }
    });
    let writer = std::thread::spawn(move || {
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        for msg in from_server {
            msg.write(&mut out)?;
        }
        Ok::<(), std::io::Error>(())
    });
    let connection = lsp_server::Connection { sender: to_client, receiver: from_client };
    let status = match serve(&connection, crate::cli::budget()) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("mettle::lsp::protocol\n\n  × {e}");
            1
        }
    };
    drop(connection);
    match writer.join() {
        Ok(Ok(())) => status,
        Ok(Err(e)) => {
            eprintln!("mettle::lsp::io\n\n  × {e}");
            1
        }
        Err(_) => 1,
    }
}

/// The notification the reader hands the server for a message it refused: `{ code, message }`.
pub const REFUSED: &str = "$/mettle/refused";

/// Runs a server in memory: an `initialize`, then the messages framed in `bytes` (read as [`run`]
/// reads standard input, taking bodies of at most `limit` bytes), until they run out. Returns how
/// the server ended and everything it sent. For the fuzz target and tests.
pub fn replay(bytes: &[u8], limit: u64) -> (Result<(), String>, Vec<lsp_server::Message>) {
    use lsp_server::{Message, Notification, Request};
    let (server, client) = lsp_server::Connection::memory();
    let lsp_server::Connection { sender, receiver } = client;
    let init = Request::new(1.into(), "initialize".into(), serde_json::json!({ "capabilities": {} }));
    let _ = sender.send(init.into());
    let _ = sender.send(Notification::new("initialized".into(), serde_json::json!({})).into());
    let mut reader = transport::Reader::new(bytes, limit);
    while let Some(read) = reader.next() {
        let msg = match read {
            Ok(m) => m,
            Err(r) => Message::Notification(Notification::new(
                REFUSED.into(),
                serde_json::json!({ "code": r.code, "message": r.message }),
            )),
        };
        let _ = sender.send(msg);
    }
    drop(sender);
    let ended = serve(&server, mettle::Budget::default());
    drop(server);
    (ended, receiver.try_iter().collect())
}
