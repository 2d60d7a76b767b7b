//! `mettle lsp` and `mettle check` against hostile input: broken framing, huge claims, bodies that are
//! not messages, floods of diagnostics, renames that would break the ruleset, requests after
//! `shutdown`. Each case checks the code it gets and that the server still answers afterwards.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Lsp {
    child: Child,
    input: Option<ChildStdin>,
    output: BufReader<ChildStdout>,
    next: i64,
}

fn frame(msg: &Value) -> Vec<u8> {
    let body = serde_json::to_string(msg).unwrap();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

fn hover_request(id: i64) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
            "params": { "textDocument": { "uri": URI }, "position": { "line": 0, "character": 6 } } })
}

const URI: &str = "untitled:hostile.mettle";
const RULES: &str = "kind unit { spi: 0..6 = 3 }\nevent hit(unit: unit)\ndefine tn(x: int) = x + 1\n\
check brave for unit {\n  roll d6\n  outcome held when total >= tn(3)\n  otherwise broke\n}\non hit { }\n";

impl Lsp {
    /// A server past `initialize`, with `RULES` open.
    fn start() -> Lsp {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mettle"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("mettle lsp starts");
        let input = child.stdin.take();
        let output = BufReader::new(child.stdout.take().unwrap());
        let mut lsp = Lsp { child, input, output, next: 100 };
        lsp.call("initialize", json!({ "capabilities": {} }));
        lsp.raw(&frame(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} })));
        lsp.open(RULES);
        lsp
    }

    fn open(&mut self, text: &str) {
        let doc = json!({ "uri": URI, "languageId": "mettle", "version": 1, "text": text });
        let open =
            json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": { "textDocument": doc } });
        self.raw(&frame(&open));
    }

    fn raw(&mut self, bytes: &[u8]) {
        let input = self.input.as_mut().unwrap();
        input.write_all(bytes).unwrap();
        input.flush().unwrap();
    }

    fn read(&mut self) -> Option<Value> {
        let mut len = None;
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line).unwrap() == 0 {
                return None;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(v) = line.strip_prefix("Content-Length: ") {
                len = Some(v.parse::<usize>().unwrap());
            }
        }
        let mut body = vec![0; len.expect("a Content-Length header")];
        self.output.read_exact(&mut body).unwrap();
        Some(serde_json::from_slice(&body).unwrap())
    }

    /// Sends a request and returns the whole reply (`result` or `error`).
    fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        self.raw(&frame(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })));
        self.reply(id)
    }

    fn reply(&mut self, id: i64) -> Value {
        loop {
            let m = self.read().expect("the server answers");
            if m["id"] == id {
                return m;
            }
        }
    }

    /// The first `window/logMessage` the server sends that starts with `code`, skipping other
    /// messages (a refusal may follow another, such as a bad header before a truncated message).
    fn logged(&mut self, code: &str) -> String {
        let mut seen = vec![];
        loop {
            let m = self.read().unwrap_or_else(|| panic!("no {code} logged, only {seen:?}"));
            if m["method"] == "window/logMessage" {
                let text = m["params"]["message"].as_str().unwrap().to_string();
                if text.starts_with(code) {
                    return text;
                }
                seen.push(text);
            }
        }
    }

    /// The server still answers: a hover over `kind unit` in the open document.
    fn answers(&mut self) {
        let id = self.next;
        self.next += 1;
        self.raw(&frame(&hover_request(id)));
        let r = self.reply(id);
        assert!(r["result"]["contents"]["value"].as_str().unwrap().contains("unit"), "{r}");
    }

    /// Closes the input and waits; the exit status and what was written to standard error.
    fn close(mut self) -> (Option<i32>, String) {
        drop(self.input.take());
        let status = self.child.wait().unwrap();
        let mut err = String::new();
        self.child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        (status.code(), err)
    }

    fn shut_down(mut self) {
        assert_eq!(self.call("shutdown", Value::Null)["result"], Value::Null);
        self.raw(&frame(&json!({ "jsonrpc": "2.0", "method": "exit" })));
        let (code, err) = self.close();
        assert_eq!(code, Some(0), "{err}");
    }
}

/// Sends `bytes` and checks the server logs `code`, then still answers and shuts down cleanly.
fn refused_then_answers(bytes: &[u8], code: &str) {
    let mut lsp = Lsp::start();
    lsp.raw(bytes);
    lsp.logged(code);
    lsp.answers();
    lsp.shut_down();
}

/// Sends `bytes`, checks the server logs `code`, and that it ends cleanly when the input does.
fn refused_then_ends(bytes: &[u8], code: &str) {
    let mut lsp = Lsp::start();
    lsp.answers();
    lsp.raw(bytes);
    // Some refusals come only once the input has ended.
    drop(lsp.input.take());
    lsp.logged(code);
    let (status, err) = lsp.close();
    assert_eq!(status, Some(0), "{err}");
    assert!(!err.contains("panicked") && !err.contains("memory allocation"), "{err}");
}

#[test]
fn a_claim_of_100_gigabytes_is_refused_without_allocating() {
    refused_then_ends(b"Content-Length: 100000000000\r\n\r\n{}", "mettle::lsp::too_large");
}

#[test]
fn the_largest_u64_length_is_refused_without_a_panic() {
    refused_then_ends(b"Content-Length: 18446744073709551615\r\n\r\n{}", "mettle::lsp::too_large");
}

#[test]
fn an_oversized_body_that_is_sent_is_skipped_and_the_next_message_answered() {
    let n = 64 * 1024 * 1024 + 1;
    let mut bytes = format!("Content-Length: {n}\r\n\r\n").into_bytes();
    bytes.resize(bytes.len() + n, b' ');
    refused_then_answers(&bytes, "mettle::lsp::too_large");
}

#[test]
fn a_length_past_u64_is_not_a_size() {
    let mut bytes = b"Content-Length: 99999999999999999999999\r\n\r\n{}".to_vec();
    bytes.extend(frame(&json!({ "jsonrpc": "2.0", "method": "x" })));
    refused_then_answers(&bytes, "mettle::lsp::bad_length");
}

#[test]
fn a_negative_or_wordy_length_is_not_a_size() {
    for v in ["-5", "ten", "", "1e3", "0x10"] {
        refused_then_answers(
            format!("Content-Length: {v}\r\n\r\n{{}}").as_bytes(),
            "mettle::lsp::bad_length",
        );
    }
}

#[test]
fn a_message_without_a_length_is_skipped_to_the_next_header() {
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "textDocument/hover" }).to_string();
    refused_then_answers(
        format!("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{body}").as_bytes(),
        "mettle::lsp::no_length",
    );
}

#[test]
fn a_line_that_is_not_a_header_is_read_past() {
    let mut bytes = b"GET / HTTP/1.1 hello\r\n".to_vec();
    bytes.extend(frame(&json!({ "jsonrpc": "2.0", "method": "x" })));
    refused_then_answers(&bytes, "mettle::lsp::bad_header");
}

#[test]
fn a_megabyte_header_line_is_dropped_not_held() {
    let mut bytes = b"X-Junk: ".to_vec();
    bytes.resize(1024 * 1024, b'a');
    bytes.extend(b"\r\n");
    bytes.extend(frame(&json!({ "jsonrpc": "2.0", "method": "x" })));
    refused_then_answers(&bytes, "mettle::lsp::bad_header");
}

#[test]
fn a_body_shorter_than_claimed_at_the_end_is_reported_and_the_server_ends() {
    refused_then_ends(b"Content-Length: 500\r\n\r\n{\"jsonrpc\":", "mettle::lsp::truncated");
}

#[test]
fn input_ending_inside_the_headers_is_reported() {
    refused_then_ends(b"Content-Length: 5\r\nContent-Ty", "mettle::lsp::truncated");
}

#[test]
fn a_body_shorter_than_claimed_loses_its_neighbour_and_no_more() {
    let mut lsp = Lsp::start();
    let mut bytes = b"Content-Length: 10\r\n\r\n{}".to_vec();
    bytes.extend(frame(&json!({ "jsonrpc": "2.0", "method": "x" })));
    lsp.raw(&bytes);
    lsp.logged("mettle::lsp::");
    lsp.answers();
    lsp.shut_down();
}

#[test]
fn a_body_that_is_not_utf8_is_skipped() {
    refused_then_answers(b"Content-Length: 6\r\n\r\n\"\xff\xfe\xfd\"\n", "mettle::lsp::not_utf8");
}

#[test]
fn a_body_that_is_not_json_or_not_a_message_is_skipped() {
    for body in ["{not json", "[1, 2, 3]", "42", "{\"jsonrpc\":\"2.0\"}"] {
        refused_then_answers(
            format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes(),
            "mettle::lsp::bad_message",
        );
    }
}

#[test]
fn json_nested_a_hundred_thousand_deep_is_refused_not_a_stack_overflow() {
    let body = "[".repeat(100_000) + &"]".repeat(100_000);
    refused_then_answers(
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes(),
        "mettle::lsp::bad_message",
    );
}

#[test]
fn blank_lines_between_messages_are_read_past() {
    let mut lsp = Lsp::start();
    lsp.raw(b"\r\n\r\n\n");
    lsp.answers();
    lsp.shut_down();
}

#[test]
fn a_flood_of_errors_is_published_as_the_first_200_and_a_count() {
    let mut lsp = Lsp::start();
    let mut text = RULES.to_string();
    for _ in 0..5000 {
        text.push_str("event hit(u: nope) ");
    }
    let change =
        json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [{ "text": text }] });
    lsp.raw(&frame(&json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": change })));
    let diags = loop {
        let m = lsp.read().unwrap();
        if m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == 2 {
            break m["params"]["diagnostics"].as_array().unwrap().clone();
        }
    };
    assert_eq!(diags.len(), 201);
    let last = &diags[200];
    assert_eq!(last["code"], "mettle::check::too_many");
    assert!(last["message"].as_str().unwrap().contains("more not shown"), "{last}");
    lsp.shut_down();
}

/// Renames the name at the first `needle` (plus `skip` characters) to `to`; the whole reply.
fn rename(lsp: &mut Lsp, needle: &str, skip: usize, to: &str) -> Value {
    let i = RULES.find(needle).unwrap() + skip;
    let line = RULES[..i].matches('\n').count();
    let col = i - RULES[..i].rfind('\n').map_or(0, |j| j + 1);
    lsp.call(
        "textDocument/rename",
        json!({ "textDocument": { "uri": URI }, "position": { "line": line, "character": col }, "newName": to }),
    )
}

fn rename_refused(needle: &str, skip: usize, to: &str, code: &str) {
    let mut lsp = Lsp::start();
    let r = rename(&mut lsp, needle, skip, to);
    let message = r["error"]["message"].as_str().unwrap_or_else(|| panic!("{to}: {r}"));
    assert!(message.contains(code), "{message}");
    assert!(r.get("result").is_none(), "{r}");
    lsp.answers();
    // The document is as it was: renaming to a free name still works.
    let ok = rename(&mut lsp, needle, skip, "quite_free");
    assert!(ok["result"]["changes"][URI].as_array().is_some_and(|e| !e.is_empty()), "{ok}");
    lsp.shut_down();
}

#[test]
fn renaming_to_a_built_in_name_is_refused() {
    for name in ["turn", "round", "game", "winner", "round_start", "turn_end"] {
        rename_refused("event hit", 6, name, "mettle::lsp::rename_reserved");
    }
}

#[test]
fn renaming_a_formula_to_a_built_in_function_is_refused() {
    rename_refused("define tn", 7, "min", "mettle::lsp::rename_reserved");
}

#[test]
fn renaming_to_the_name_of_an_event_is_refused() {
    rename_refused("check brave", 6, "hit", "mettle::lsp::rename_taken");
}

#[test]
fn renaming_to_the_name_of_a_check_is_refused() {
    rename_refused("event hit", 6, "brave", "mettle::lsp::rename_taken");
}

#[test]
fn renaming_to_the_name_of_a_kind_or_formula_is_refused() {
    rename_refused("event hit", 6, "unit", "mettle::lsp::rename_taken");
    rename_refused("kind unit", 5, "tn", "mettle::lsp::rename_taken");
}

#[test]
fn renaming_to_a_keyword_or_a_non_name_is_refused() {
    for name in ["check", "1abc", "a b", ""] {
        rename_refused("event hit", 6, name, "mettle::lsp::rename_invalid");
    }
}

#[test]
fn requests_after_shutdown_are_invalid_and_the_server_stays_for_exit() {
    let mut lsp = Lsp::start();
    assert_eq!(lsp.call("shutdown", Value::Null)["result"], Value::Null);
    for _ in 0..2 {
        let id = lsp.next;
        lsp.next += 1;
        lsp.raw(&frame(&hover_request(id)));
        assert_eq!(lsp.reply(id)["error"]["code"], -32600);
    }
    // A notification after shutdown is ignored, and a second shutdown is a request like any other.
    lsp.open("kind x { }");
    assert_eq!(lsp.call("shutdown", Value::Null)["error"]["code"], -32600);
    lsp.raw(&frame(&json!({ "jsonrpc": "2.0", "method": "exit" })));
    let (code, err) = lsp.close();
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn exit_without_shutdown_is_still_status_1() {
    let mut lsp = Lsp::start();
    lsp.answers();
    lsp.raw(&frame(&json!({ "jsonrpc": "2.0", "method": "exit" })));
    let (code, _) = lsp.close();
    assert_eq!(code, Some(1));
}

// `mettle check` over a flood of errors.

/// A folder of its own for one test, removed when dropped.
struct Dir(std::path::PathBuf);

impl Dir {
    fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn flood(n: usize, name: &str) -> Dir {
    let dir = Dir(std::env::temp_dir().join(format!("mettle-hostile-lsp-{}-{name}", std::process::id())));
    std::fs::create_dir_all(dir.path()).unwrap();
    let mut text = "kind a { x: 0..6 }\n".to_string();
    for _ in 0..n {
        text.push_str("event e(u: nope) ");
    }
    std::fs::write(dir.path().join("flood.mettle"), text).unwrap();
    dir
}

fn check(dir: &Dir, json: bool) -> (Option<i32>, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mettle"));
    cmd.arg("check").arg(dir.path().join("flood.mettle")).env("NO_COLOR", "1");
    if json {
        cmd.arg("--json");
    }
    let out = cmd.output().unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn check_prints_the_first_200_diagnostics_and_a_count() {
    let dir = flood(1000, "text");
    let before = std::fs::read(dir.path().join("flood.mettle")).unwrap();
    let (code, _, err) = check(&dir, false);
    assert_eq!(code, Some(1));
    assert_eq!(err.matches("mettle::resolve::").count(), 200, "{}", &err[err.len().saturating_sub(2000)..]);
    assert!(err.contains("mettle::check::too_many"), "{}", &err[err.len() - 2000..]);
    assert!(err.contains("and 801 more not shown"), "{}", &err[err.len() - 2000..]);
    // The count of errors is of all of them.
    assert!(err.trim_end().ends_with("1000 errors"), "{}", &err[err.len() - 300..]);
    assert_eq!(std::fs::read(dir.path().join("flood.mettle")).unwrap(), before);
}

#[test]
fn check_json_lists_the_first_200_diagnostics_and_a_count() {
    let dir = flood(1000, "json");
    let (code, out, _) = check(&dir, true);
    assert_eq!(code, Some(1));
    let doc: Value = serde_json::from_str(&out).unwrap();
    let diags = doc["files"][0]["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 201);
    assert_eq!(diags[200]["code"], "mettle::check::too_many");
    assert_eq!(doc["files"][0]["ok"], false);
}

#[test]
fn check_under_the_cap_says_nothing_more() {
    let dir = flood(20, "few");
    let (code, _, err) = check(&dir, false);
    assert_eq!(code, Some(1));
    assert!(!err.contains("too_many"), "{err}");
}
