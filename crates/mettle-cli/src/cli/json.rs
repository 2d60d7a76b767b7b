//! What `--json` prints: every document carries `"mettle": { "schema": N }`, and with `--json` errors
//! are JSON too (on standard error, one document a line). The documents themselves are the library's
//! (`mettle::wire`), shared with the JavaScript and Python packages; with the server's own they are
//! what `schemas/` is generated from (`mettle schemas --out schemas`).

pub use mettle::wire::{
    CheckDoc, DiceRollDoc, ErrorDoc, ErrorInfo, ExportDoc, FileCheck, Group, Meta, OddsDoc, PlayDoc, RollDoc,
    SimDoc, SweepDoc, SweepRow, error_info, plain_error, plain_warning,
};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};

static ON: AtomicBool = AtomicBool::new(false);

/// Errors are printed as JSON from now on (the command was given `--json`).
pub fn turn_on() {
    ON.store(true, Ordering::Relaxed);
}

/// Whether errors are printed as JSON.
pub fn on() -> bool {
    ON.load(Ordering::Relaxed)
}

/// JSON text with the characters a terminal acts on that the JSON encoder leaves as they are (DEL,
/// the C1 controls, bidirectional overrides; it escapes the C0 controls itself) written as JSON
/// escapes (`\u009b`): the same document, safe on a terminal, and never broken by the terminal
/// escaping of standard output. They can only be inside strings, where such escapes are valid.
pub fn safe(json: String) -> String {
    if !json.chars().any(mettle::text::escaped) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if mettle::text::escaped(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Prints an error document on standard error, on one line.
pub fn print_errors(errors: Vec<ErrorInfo>) {
    let doc = ErrorDoc { mettle: Meta::default(), errors };
    eprintln!("{}", safe(serde_json::to_string(&doc).unwrap_or_default()));
}

/// An error without a place: its code, then `× MESSAGE` (with `help: …` under it), or JSON under
/// `--json`.
pub fn fail(code: &str, message: &str, help: Option<&str>) {
    if on() {
        print_errors(vec![plain_error(code, message, help)]);
    } else {
        let message = mettle::text::visible(message);
        let help = help.map(|h| format!("\n  help: {}", mettle::text::visible(h))).unwrap_or_default();
        eprintln!("{code}\n\n  × {message}{help}");
    }
}

/// Why a whole command stopped (its budget of work, Ctrl-C): `CODE: MESSAGE` with `help: …` under
/// it, or JSON under `--json`.
pub fn stopped(d: &mettle::Diagnostic) {
    if on() {
        print_errors(vec![plain_error(&d.code, &d.message, d.help.as_deref())]);
    } else {
        eprintln!(
            "{}: {}{}",
            d.code,
            d.message,
            d.help.as_deref().map(|h| format!("\n  help: {h}")).unwrap_or_default()
        );
    }
}

/// A warning without a place: `warning: MESSAGE` (with `help: …` under it), or JSON under `--json`.
pub fn warn(code: &str, message: &str, help: Option<&str>) {
    if on() {
        print_errors(vec![plain_warning(code, message, help)]);
    } else {
        let message = mettle::text::visible(message);
        eprintln!(
            "warning: {message}{}",
            help.map(|h| format!("\n  help: {}", mettle::text::visible(h))).unwrap_or_default()
        );
    }
}

/// Prints a document on standard output, pretty.
pub fn print<T: Serialize>(doc: &T) {
    outln!("{}", safe(serde_json::to_string_pretty(doc).unwrap_or_default()));
}

/// Every schema, by file name: the library's documents and the server's.
pub fn schemas() -> Vec<(&'static str, schemars::Schema)> {
    let mut all = mettle::wire::schemas();
    // What a client writes: read as the server reads it.
    all.push(("serve-request.json", crate::serve::protocol::request_schema()));
    all.push(("serve-reply.json", mettle::wire::written::<crate::serve::protocol::Reply>()));
    all
}

/// `mettle schemas --out DIR`: writes every schema, pretty, ending in a newline.
pub fn write_schemas(dir: &std::path::Path) -> u8 {
    if let Err(e) = std::fs::create_dir_all(dir) {
        fail("mettle::io::write", &format!("cannot make {}: {e}", dir.display()), None);
        return 1;
    }
    for (name, schema) in schemas() {
        let text = serde_json::to_string_pretty(&schema).unwrap_or_default() + "\n";
        if let Err(d) =
            super::write_file(&dir.join(name), mettle::internals::files::Kind::Schema, text.as_bytes())
        {
            eprint!("{}", super::commands::render(&[d], "", ""));
            return 1;
        }
    }
    0
}
