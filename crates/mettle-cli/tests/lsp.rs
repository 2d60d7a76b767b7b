//! `mettle lsp` as an editor runs it: the real binary over stdio with Content-Length framing.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Lsp {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    next: i64,
}

impl Lsp {
    fn start() -> Lsp {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mettle"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("mettle lsp starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Lsp { child, input, output, next: 1 }
    }

    fn send(&mut self, msg: Value) {
        let body = serde_json::to_string(&msg).unwrap();
        write!(self.input, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.input.flush().unwrap();
    }

    fn read(&mut self) -> Value {
        let mut len = None;
        loop {
            let mut line = String::new();
            assert!(self.output.read_line(&mut line).unwrap() > 0, "the server closed its output");
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
        serde_json::from_slice(&body).unwrap()
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let m = self.read();
            if m["id"] == id {
                assert!(m.get("error").is_none(), "{method}: {m}");
                return m["result"].clone();
            }
        }
    }

    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let m = self.read();
            if m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri {
                return m["params"]["diagnostics"].as_array().cloned().unwrap();
            }
        }
    }
}

fn at(text: &str, needle: &str, skip: usize) -> Value {
    let i = text.find(needle).unwrap() + skip;
    let line = text[..i].matches('\n').count();
    let col = text[text[..i].rfind('\n').map_or(0, |j| j + 1)..i].encode_utf16().count();
    json!({ "line": line, "character": col })
}

#[test]
fn the_binary_speaks_lsp_over_stdio() {
    let path =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("rulesets/infinite_frontiers.mettle");
    let text = std::fs::read_to_string(&path).unwrap();
    let uri = format!("file://{}", path.display()).replace(' ', "%20");
    let mut lsp = Lsp::start();
    let init = lsp.request("initialize", json!({ "processId": null, "rootUri": null, "capabilities": {} }));
    assert_eq!(init["serverInfo"]["name"], "mettle");
    assert_eq!(init["capabilities"]["renameProvider"]["prepareProvider"], true);
    lsp.notify("initialized", json!({}));
    let doc = json!({ "uri": uri, "languageId": "mettle", "version": 1, "text": text });
    lsp.notify("textDocument/didOpen", json!({ "textDocument": doc }));
    assert_eq!(lsp.diagnostics(&uri), Vec::<Value>::new());
    let td = json!({ "uri": uri });

    let hover = lsp.request(
        "textDocument/hover",
        json!({ "textDocument": td, "position": at(&text, "spi: 0..6 = 3", 0) }),
    );
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(
        shown.contains("spi: 0..6 = 3") && shown.contains("Spirit: added to every morale check."),
        "{shown}"
    );

    let def = lsp.request(
        "textDocument/definition",
        json!({ "textDocument": td, "position": at(&text, "roll skill for unit", 5) }),
    );
    assert_eq!(def["range"]["start"], at(&text, "check skill for unit", 6));

    let refs = lsp.request(
        "textDocument/references",
        json!({ "textDocument": td, "position": at(&text, "check skill", 6), "context": { "includeDeclaration": true } }),
    );
    assert_eq!(
        refs.as_array().unwrap().len(),
        1 + text.matches("roll skill").count() + text.matches("last skill").count()
    );

    let marks = lsp.request(
        "textDocument/documentHighlight",
        json!({ "textDocument": td, "position": at(&text, "check skill", 6) }),
    );
    assert_eq!(marks.as_array().unwrap().len(), refs.as_array().unwrap().len());

    let symbols = lsp.request("textDocument/documentSymbol", json!({ "textDocument": td }));
    let names: Vec<&str> = symbols.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert!(
        names.contains(&"unit") && names.contains(&"morale") && names.contains(&"on turn_start"),
        "{names:?}"
    );

    let tokens = lsp.request("textDocument/semanticTokens/full", json!({ "textDocument": td }));
    assert_eq!(tokens["data"].as_array().unwrap().len() % 5, 0);

    let edit = lsp.request(
        "textDocument/rename",
        json!({ "textDocument": td, "position": at(&text, "event morale_test", 6), "newName": "morale_called_for" }),
    );
    assert_eq!(edit["changes"][&uri].as_array().unwrap().len(), text.matches("morale_test(").count() + 1);

    // An edit that breaks a name: an error with a fix, and a quick fix for it.
    let broken = text.replacen("unit.spi", "unit.sip", 1);
    let change =
        json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{ "text": broken }] });
    lsp.notify("textDocument/didChange", change);
    let diags = lsp.diagnostics(&uri);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(diags[0]["message"].as_str().unwrap().contains("did you mean `spi`?"));
    let actions = lsp.request(
        "textDocument/codeAction",
        json!({ "textDocument": td, "range": diags[0]["range"], "context": { "diagnostics": diags } }),
    );
    assert_eq!(actions[0]["edit"]["changes"][&uri][0]["newText"], "spi");

    let items = lsp.request(
        "textDocument/completion",
        json!({ "textDocument": td, "position": at(&broken, "unit.sip", 5) }),
    );
    let labels: Vec<&str> = items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect();
    assert!(labels.contains(&"spi") && labels.contains(&"morale"), "{labels:?}");
    // This client takes no snippets: constructs complete as plain text.
    let items = lsp.request(
        "textDocument/completion",
        json!({ "textDocument": td, "position": { "line": 2, "character": 0 } }),
    );
    let kind = items.as_array().unwrap().iter().find(|i| i["label"] == "kind").unwrap();
    assert_eq!(kind["insertTextFormat"], 1);
    assert!(kind["insertText"].as_str().unwrap().starts_with("kind unit {"), "{kind}");

    let at_call = at(&broken, "trigger morale_test(unit: unit, ", 32);
    let sig = lsp.request("textDocument/signatureHelp", json!({ "textDocument": td, "position": at_call }));
    assert_eq!(
        sig["signatures"][0]["label"],
        "trigger morale_test(unit: unit, leadership: 0..3 = 0, inspirer: unit)"
    );
    assert_eq!(sig["activeParameter"], 1);

    assert_eq!(lsp.request("shutdown", Value::Null), Value::Null);
    lsp.notify("exit", Value::Null);
    let status = lsp.child.wait().unwrap();
    assert!(status.success(), "{status}");
}
