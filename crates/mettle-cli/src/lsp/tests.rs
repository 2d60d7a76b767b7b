//! Scripted sessions with the server over an in-memory connection, on every shipped ruleset.

use super::analysis::path_to_uri;
use lsp_server::{Connection, Message, Notification, Request, Response};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::Duration;

/// A client talking to a server on another thread.
pub(super) struct Client {
    conn: Connection,
    server: Option<JoinHandle<Result<(), String>>>,
    next: i32,
    /// Diagnostics published (URI, version, diagnostics), latest last.
    published: Vec<(String, Value, Value)>,
}

impl Client {
    pub(super) fn start() -> Client {
        let (server, conn) = Connection::memory();
        let handle = std::thread::spawn(move || super::serve(&server, mettle::Budget::default()));
        let mut c = Client { conn, server: Some(handle), next: 1, published: vec![] };
        let caps =
            json!({ "textDocument": { "completion": { "completionItem": { "snippetSupport": true } } } });
        let init =
            c.request("initialize", json!({ "capabilities": caps, "processId": null, "rootUri": null }));
        assert!(init["capabilities"]["hoverProvider"].as_bool().unwrap_or(false), "{init}");
        assert_eq!(init["capabilities"]["documentFormattingProvider"], true, "{init}");
        c.notify("initialized", json!({}));
        c
    }

    pub(super) fn notify(&self, method: &str, params: Value) {
        self.conn.sender.send(Notification::new(method.into(), params).into()).unwrap();
    }

    /// Sends a request and waits for its answer (an error reply as `Err`).
    pub(super) fn try_request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        let id = self.next;
        self.next += 1;
        self.conn.sender.send(Request::new(id.into(), method.into(), params).into()).unwrap();
        loop {
            match self.conn.receiver.recv_timeout(Duration::from_secs(60)).expect("the server answers") {
                Message::Response(Response { id: rid, response_result }) if rid == id.into() => {
                    return response_result.map_err(|e| format!("{}: {}", e.code, e.message));
                }
                Message::Notification(n) => self.keep(n),
                _ => {}
            }
        }
    }

    pub(super) fn request(&mut self, method: &str, params: Value) -> Value {
        self.try_request(method, params).unwrap_or_else(|e| panic!("{method} failed: {e}"))
    }

    fn keep(&mut self, n: Notification) {
        if n.method == "textDocument/publishDiagnostics" {
            let uri = n.params["uri"].as_str().unwrap_or("").to_string();
            self.published.push((uri, n.params["version"].clone(), n.params["diagnostics"].clone()));
        }
    }

    /// Waits for the next diagnostics published for `uri`.
    pub(super) fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        self.published.retain(|(u, ..)| u != uri);
        loop {
            match self.conn.receiver.recv_timeout(Duration::from_secs(60)).expect("diagnostics are published")
            {
                Message::Notification(n) => {
                    self.keep(n);
                    if let Some((.., d)) = self.published.iter().rev().find(|(u, ..)| u == uri) {
                        return d.as_array().cloned().unwrap_or_default();
                    }
                }
                m => panic!("unexpected {m:?}"),
            }
        }
    }

    pub(super) fn open(&mut self, uri: &str, text: &str) {
        let doc = json!({ "uri": uri, "languageId": "mettle", "version": 1, "text": text });
        self.notify("textDocument/didOpen", json!({ "textDocument": doc }));
    }

    pub(super) fn change(&mut self, uri: &str, version: i32, text: &str) {
        let params = json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": text }] });
        self.notify("textDocument/didChange", params);
    }

    pub(super) fn at(&mut self, method: &str, uri: &str, pos: (u32, u32)) -> Value {
        self.request(
            method,
            json!({ "textDocument": { "uri": uri }, "position": { "line": pos.0, "character": pos.1 } }),
        )
    }

    pub(super) fn stop(mut self) {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        let result = self.server.take().unwrap().join().expect("the server thread ends");
        assert_eq!(result, Ok(()));
    }
}

pub(super) fn rulesets() -> Vec<PathBuf> {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("rulesets");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mettle"))
        .collect();
    v.sort();
    assert!(v.len() >= 5);
    v
}

pub(super) fn uri_of(p: &Path) -> String {
    path_to_uri(p).unwrap().as_str().to_string()
}

/// The (line, UTF-16 column) of the `n`th occurrence of `needle` in `text`, plus `skip` bytes.
pub(super) fn pos(text: &str, needle: &str, n: usize, skip: usize) -> (u32, u32) {
    let at = text.match_indices(needle).nth(n).unwrap_or_else(|| panic!("no {needle:?}")).0 + skip;
    let line = text[..at].matches('\n').count() as u32;
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    (line, text[start..at].encode_utf16().count() as u32)
}

fn labels(items: &Value) -> Vec<String> {
    let list = items.as_array().or_else(|| items["items"].as_array()).cloned().unwrap_or_default();
    list.iter().map(|i| i["label"].as_str().unwrap_or("").to_string()).collect()
}

#[test]
fn a_scripted_session_on_every_shipped_ruleset() {
    let mut c = Client::start();
    for path in rulesets() {
        let text = std::fs::read_to_string(&path).unwrap();
        let uri = uri_of(&path);
        c.open(&uri, &text);
        let diags = c.diagnostics(&uri);
        assert!(diags.iter().all(|d| d["severity"] != 1), "{}: {diags:?}", path.display());
        let symbols = c.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
        assert!(symbols.as_array().unwrap().len() > 5);
        let tokens = c.request("textDocument/semanticTokens/full", json!({ "textDocument": { "uri": uri } }));
        assert!(tokens["data"].as_array().unwrap().len() > 100);
        let folds = c.request("textDocument/foldingRange", json!({ "textDocument": { "uri": uri } }));
        assert!(!folds.as_array().unwrap().is_empty());
        // The first check: hover on its name, its definition from a `roll`, its references, a rename.
        let (name_at, name) = {
            let i = text.find("\ncheck ").unwrap() + 7;
            let name: String =
                text[i..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            (i, name)
        };
        let decl = pos(&text, &format!("check {name}"), 0, 6);
        let hover = c.at("textDocument/hover", &uri, decl);
        let shown = hover["contents"]["value"].as_str().unwrap();
        assert!(shown.contains(&format!("check {name}")), "{shown}");
        assert!(shown.contains("**Roll**") || shown.contains("Outcomes"), "{shown}");
        let refs = c.request(
            "textDocument/references",
            json!({ "textDocument": { "uri": uri }, "position": { "line": decl.0, "character": decl.1 }, "context": { "includeDeclaration": true } }),
        );
        let refs = refs.as_array().unwrap();
        if let Some(use_at) =
            text.match_indices(&format!("roll {name} ")).map(|(i, _)| i).find(|&i| i != name_at)
        {
            assert!(refs.len() >= 2, "{name}: {refs:?}");
            let at = pos(&text, &text[use_at..use_at + 5 + name.len()], 0, 5);
            let def = c.at("textDocument/definition", &uri, at);
            assert_eq!(def["range"]["start"]["line"], decl.0, "{name}");
            assert_eq!(def["uri"], uri);
        }
        // The kind a check is made by: its definition is the kind's declaration.
        let header = text.lines().find(|l| l.starts_with("check ") && l.contains(" for ")).unwrap();
        let kind: String = header
            .split(" for ")
            .nth(1)
            .unwrap()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let def =
            c.at("textDocument/definition", &uri, pos(&text, header, 0, header.find(" for ").unwrap() + 5));
        assert_eq!(def["range"]["start"], pos_json(pos(&text, &format!("kind {kind} {{"), 0, 5)), "{kind}");
        let prep = c.at("textDocument/prepareRename", &uri, decl);
        assert_eq!(prep["start"]["character"], decl.1);
        let edit = c.request(
            "textDocument/rename",
            json!({ "textDocument": { "uri": uri }, "position": { "line": decl.0, "character": decl.1 }, "newName": "renamed_check" }),
        );
        assert_eq!(edit["changes"][&uri].as_array().unwrap().len(), refs.len());
        let other = text.match_indices("\ncheck ").nth(1).map(|(i, _)| {
            text[i + 7..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect::<String>()
        });
        if let Some(other) = other {
            let taken = json!({ "textDocument": { "uri": uri }, "position": { "line": decl.0, "character": decl.1 }, "newName": other });
            assert!(c.try_request("textDocument/rename", taken).unwrap_err().contains("already a check"));
        }
        assert!(c.try_request("textDocument/rename", json!({ "textDocument": { "uri": uri }, "position": { "line": decl.0, "character": decl.1 }, "newName": "when" })).is_err());
        let completion = c.at("textDocument/completion", &uri, (text.lines().count() as u32, 0));
        let check = completion.as_array().unwrap().iter().find(|i| i["label"] == "check").unwrap();
        assert_eq!(check["insertTextFormat"], 2, "a snippet");
        // A misspelt kind: an error with a quick fix replacing it.
        let broken =
            text.replacen(header, &header.replacen(&format!(" for {kind}"), &format!(" for {kind}x"), 1), 1);
        c.change(&uri, 2, &broken);
        let diags = c.diagnostics(&uri);
        let d = diags.iter().find(|d| d["severity"] == 1).unwrap_or_else(|| panic!("{diags:?}"));
        assert!(d["message"].as_str().unwrap().contains(&format!("did you mean `{kind}`")), "{d}");
        let actions = c.request(
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": uri }, "range": d["range"], "context": { "diagnostics": [d] } }),
        );
        let edit = &actions[0]["edit"]["changes"][&uri][0];
        assert_eq!(edit["newText"], kind.as_str());
        assert_eq!(edit["range"], d["range"]);
        // Formatting: the shipped text is in `mettle fmt`'s layout, so nothing to change; squashed
        // indentation comes back as one edit with the shipped text.
        c.change(&uri, 3, &text);
        let opts = json!({ "tabSize": 2, "insertSpaces": true });
        let none =
            c.request("textDocument/formatting", json!({ "textDocument": { "uri": uri }, "options": opts }));
        assert_eq!(none, json!([]), "{}", path.display());
        let squashed: String = text.lines().map(|l| format!("{}\n", l.trim_start())).collect();
        c.change(&uri, 4, &squashed);
        let edits =
            c.request("textDocument/formatting", json!({ "textDocument": { "uri": uri }, "options": opts }));
        assert_eq!(edits[0]["newText"].as_str(), Some(text.as_str()), "{}", path.display());
        c.notify("textDocument/didClose", json!({ "textDocument": { "uri": uri } }));
        assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());
    }
    c.stop();
}

fn open_frontiers(c: &mut Client) -> (String, String) {
    let path =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("rulesets/infinite_frontiers.mettle");
    let text = std::fs::read_to_string(&path).unwrap();
    let uri = uri_of(&path);
    c.open(&uri, &text);
    c.diagnostics(&uri);
    (uri, text)
}

#[test]
fn hover_shows_ranges_docs_and_odds() {
    let mut c = Client::start();
    let (uri, text) = open_frontiers(&mut c);
    // `spi` where it is read: its range and its doc.
    let h = c.at("textDocument/hover", &uri, pos(&text, "spi = unit.spi", 0, 11));
    let shown = h["contents"]["value"].as_str().unwrap();
    assert!(shown.contains("spi: 0..6 = 3"), "{shown}");
    assert!(shown.contains("Spirit: added to every morale check."), "{shown}");
    assert!(shown.contains("attribute of kind `unit`"), "{shown}");
    // A check: dice, target and exact odds at default inputs (`spi` has no default: its lowest value).
    // (Odds being worked out for another test's hover make this one wait: ask again.)
    let mut shown = String::new();
    for _ in 0..50 {
        let h = c.at("textDocument/hover", &uri, pos(&text, "roll morale for unit", 0, 6));
        shown = h["contents"]["value"].as_str().unwrap().to_string();
        if !shown.contains("still working out") {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(shown.contains("**Roll** `d6`") && shown.contains("**Target** `7`"), "{shown}");
    assert!(shown.contains("Exact odds") && shown.contains("spi = 0"), "{shown}");
    assert!(shown.contains("`broken`: 1/6"), "{shown}");
    // A built-in name.
    let h = c.at("textDocument/hover", &uri, pos(&text, "trigger turn_start", 0, 9));
    assert!(h["contents"]["value"].as_str().unwrap().contains("built-in time event"), "{h}");
    // A state.
    let h = c.at("textDocument/hover", &uri, pos(&text, "is shaken", 0, 3));
    assert!(h["contents"]["value"].as_str().unwrap().contains("state of attribute `morale`"));
    c.stop();
}

#[test]
fn definitions_and_references_resolve_by_scope() {
    let mut c = Client::start();
    let (uri, text) = open_frontiers(&mut c);
    // An event fired from a rule jumps to its declaration.
    let d = c.at("textDocument/definition", &uri, pos(&text, "trigger morale_test", 0, 8));
    assert_eq!(d["range"]["start"], json!(pos_json(pos(&text, "event morale_test", 0, 6))));
    // A fact named in `trigger …(unit: …)` is the event's fact.
    let d = c.at("textDocument/definition", &uri, pos(&text, "trigger morale_test(unit", 0, 20));
    assert_eq!(d["range"]["start"]["line"], pos(&text, "event morale_test", 0, 0).0);
    // `side.ap` is the side's attribute, `unit.ap` the unit's.
    let side_ap = c.at("textDocument/definition", &uri, pos(&text, "side.ap > 0", 0, 5));
    assert_eq!(side_ap["range"]["start"]["line"], pos(&text, "  ap: 0..6 = 0", 0, 0).0);
    let unit_ap = c.at("textDocument/definition", &uri, pos(&text, "unit.ap > 0", 0, 5));
    assert_eq!(unit_ap["range"]["start"]["line"], pos(&text, "  ap: 0..6 = 0, strict", 0, 0).0);
    // References of a state include its uses after `is` and in `set … to`.
    let refs = c.request(
        "textDocument/references",
        json!({ "textDocument": { "uri": uri }, "position": pos_json(pos(&text, "steady | shaken | broken", 0, 10)), "context": { "includeDeclaration": false } }),
    );
    assert!(refs.as_array().unwrap().len() >= 5, "{refs}");
    c.stop();
}

pub(super) fn pos_json(p: (u32, u32)) -> Value {
    json!({ "line": p.0, "character": p.1 })
}

#[test]
fn script_functions_are_defined_in_their_file() {
    let mut c = Client::start();
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/inputs/scripts/uses_file.mettle");
    let text = std::fs::read_to_string(&path).unwrap();
    let uri = uri_of(&path);
    c.open(&uri, &text);
    c.diagnostics(&uri);
    let d = c.at("textDocument/definition", &uri, pos(&text, "follow react", 0, 8));
    assert!(d["uri"].as_str().unwrap().ends_with("tests/inputs/scripts/reactions.rhai"), "{d}");
    let rhai = std::fs::read_to_string(path.with_file_name("reactions.rhai")).unwrap();
    assert_eq!(d["range"]["start"], pos_json(pos(&rhai, "fn react", 0, 3)));
    let h = c.at("textDocument/hover", &uri, pos(&text, "follow react", 0, 8));
    assert!(h["contents"]["value"].as_str().unwrap().contains("fn react(c, seen)"), "{h}");
    c.stop();
}

#[test]
fn reactions_are_defined_hovered_and_completed() {
    let mut c = Client::start();
    let path =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("rulesets/shadow_deep_stress.mettle");
    let text = std::fs::read_to_string(&path).unwrap();
    let uri = uri_of(&path);
    c.open(&uri, &text);
    assert!(c.diagnostics(&uri).is_empty());
    // `follow` jumps to the reaction, in the same file.
    let d = c.at("textDocument/definition", &uri, pos(&text, "follow acts_normally", 0, 8));
    assert!(d["uri"].as_str().unwrap().ends_with("rulesets/shadow_deep_stress.mettle"), "{d}");
    assert_eq!(d["range"]["start"]["line"], pos(&text, "reaction acts_normally", 0, 0).0);
    // The hover shows the reaction's parameters and its doc.
    let h = c.at("textDocument/hover", &uri, pos(&text, "follow join(", 0, 8));
    let shown = h["contents"]["value"].as_str().unwrap();
    assert!(shown.contains("reaction join(friend: friend, shoots: flag)"), "{shown}");
    assert!(shown.contains("Moving towards a friend"), "{shown}");
    // A parameter of a reaction is known in its body.
    let d = c.at("textDocument/definition", &uri, pos(&text, "{why}", 0, 1));
    assert_eq!(d["range"]["start"]["line"], pos(&text, "reaction lose(why: text)", 0, 0).0);
    c.stop();
}

#[test]
fn errors_in_a_script_file_are_published_for_it() {
    let mut c = Client::start();
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("tests/inputs/scripts");
    let (ruleset, script) = (uri_of(&dir.join("broken.mettle")), uri_of(&dir.join("broken.rhai")));
    c.open(&ruleset, &std::fs::read_to_string(dir.join("broken.mettle")).unwrap());
    let d = c.diagnostics(&script);
    assert!(d.len() == 1 && d[0]["code"] == "mettle::script::syntax", "{d:?}");
    // Opening the script itself publishes nothing over them.
    c.published.clear();
    c.open(&script, &std::fs::read_to_string(dir.join("broken.rhai")).unwrap());
    std::thread::sleep(Duration::from_millis(300));
    let _ = c.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": script } }));
    assert!(c.published.iter().all(|(u, ..)| *u != script), "{:?}", c.published);
    // Saving it checks the ruleset again.
    c.notify("textDocument/didSave", json!({ "textDocument": { "uri": script } }));
    assert_eq!(c.diagnostics(&script).len(), 1);
    c.stop();
}

#[test]
fn completion_knows_its_context() {
    let mut c = Client::start();
    let (uri, text) = open_frontiers(&mut c);
    // Typing inside a rule whose event has a `unit` fact.
    let at = text.find("on defend {\n").unwrap() + "on defend {\n".len();
    let typed = |t: &str| format!("{}  {t}\n{}", &text[..at], &text[at..]);
    let line = pos(&text, "on defend {", 0, 0).0 + 1;
    let ask = |c: &mut Client, t: &str| {
        c.change(&uri, 2, &typed(t));
        labels(&c.at("textDocument/completion", &uri, (line, 2 + t.len() as u32)))
    };
    let l = ask(&mut c, "let x = unit.");
    assert!(l.contains(&"spi".into()) && l.contains(&"morale".into()) && l.contains(&"side".into()), "{l:?}");
    let l = ask(&mut c, "let x = unit.side.");
    assert_eq!(l, ["ap", "received"]);
    let l = ask(&mut c, "if unit.morale is ");
    assert!(l.contains(&"shaken".into()) && !l.contains(&"hit".into()), "{l:?}");
    let l = ask(&mut c, "roll ");
    assert!(
        l.contains(&"morale".into()) && l.contains(&"skill".into()) && !l.contains(&"spi".into()),
        "{l:?}"
    );
    let l = ask(&mut c, "trigger ");
    assert!(l.contains(&"morale_test".into()) && l.contains(&"turn_start".into()), "{l:?}");
    let l = ask(&mut c, "for each ");
    assert!(
        l.contains(&"side".into()) && l.contains(&"unit".into()) && !l.contains(&"morale".into()),
        "{l:?}"
    );
    let l = ask(&mut c, "for each side s { let y = s.");
    assert_eq!(l, ["ap", "received"]);
    let l = ask(&mut c, "roll morale for unit with spi = 1, ");
    assert!(
        l.contains(&"leadership".into()) && l.contains(&"steadying".into()) && !l.contains(&"morale".into()),
        "{l:?}"
    );
    let l = ask(&mut c, "trigger damaged(");
    assert!(
        l.contains(&"hp_lost".into()) && l.contains(&"inspirer".into()) && !l.contains(&"spi".into()),
        "{l:?}"
    );
    let l = ask(&mut c, "tr");
    assert!(l.contains(&"trigger".into()) && l.contains(&"dice_pool".into()), "{l:?}");
    c.stop();
}

#[test]
fn completion_after_reroll_when_lists_the_checks_outcomes() {
    let mut c = Client::start();
    let (uri, text) = open_frontiers(&mut c);
    let head = "check morale for unit {\n";
    let at = text.find(head).unwrap() + head.len();
    let line = text[..at].lines().count() as u32;
    let ask = |c: &mut Client, t: &str| {
        c.change(&uri, 2, &format!("{}  {t}\n{}", &text[..at], &text[at..]));
        labels(&c.at("textDocument/completion", &uri, (line, 2 + t.len() as u32)))
    };
    for typed in ["reroll when ", "reroll when broken, "] {
        let mut l = ask(&mut c, typed);
        l.sort();
        assert_eq!(l, ["broken", "shaken", "steady"], "after `{typed}`");
    }
    // After `if` the line wants a condition, not an outcome.
    let l = ask(&mut c, "reroll when broken if ");
    assert!(l.len() > 3 && l.contains(&"unit".into()), "{l:?}");
    c.stop();
}

#[test]
fn completion_after_a_dot_lists_that_kinds_attributes_only() {
    let mut c = Client::start();
    let path =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("rulesets/traveller_morale.mettle");
    let text = std::fs::read_to_string(&path).unwrap();
    let uri = uri_of(&path);
    c.open(&uri, &text);
    c.diagnostics(&uri);
    // In `on close_assault`, `attacker` is a character and `attacker.party` a party.
    let at = text.find("on close_assault when attacker.round_over {\n").unwrap();
    let at = at + text[at..].find('\n').unwrap() + 1;
    let line = text[..at].matches('\n').count() as u32;
    for (typed, has, lacks) in [
        ("attacker.", "melee", "organised"),
        ("defender.party.", "organised", "melee"),
        ("let q = number of party p where p.", "zero_g", "melee"),
    ] {
        c.change(&uri, 2, &format!("{}  {typed}\n{}", &text[..at], &text[at..]));
        let l = labels(&c.at("textDocument/completion", &uri, (line, 2 + typed.len() as u32)));
        assert!(l.contains(&has.into()) && !l.contains(&lacks.into()), "{typed}: {l:?}");
    }
    c.stop();
}

#[test]
fn edits_in_a_burst_are_checked_once() {
    let mut c = Client::start();
    let (uri, text) = open_frontiers(&mut c);
    for v in 2..40 {
        let typo = format!("unit.sp{}", "i".repeat(v as usize % 3));
        c.change(&uri, v, &text.replacen("unit.spi", &typo, 1));
    }
    c.change(&uri, 40, &text.replacen("unit.spi", "unit.spy", 1));
    let diags = c.diagnostics(&uri);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(diags[0]["message"].as_str().unwrap().contains("`spy`"), "{diags:?}");
    // Wait a little longer: nothing else is published for the burst.
    let _ = c.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    std::thread::sleep(Duration::from_millis(400));
    let _ = c.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    let published: Vec<&Value> = c.published.iter().filter(|(u, ..)| *u == uri).map(|(_, v, _)| v).collect();
    // Once for the burst (a busy machine may pause the test between two edits for longer than the
    // server waits, hence the slack).
    assert!(published.len() <= 3 && published.last() == Some(&&json!(40)), "{published:?}");
    // Requests coming all the time do not hold diagnostics back.
    c.change(&uri, 41, &text);
    for _ in 0..30 {
        let _ = c.at("textDocument/hover", &uri, (0, 0));
        std::thread::sleep(Duration::from_millis(30));
    }
    assert!(c.published.iter().any(|(u, v, _)| *u == uri && *v == json!(41)));
    c.stop();
}

#[test]
fn a_panic_in_a_handler_is_an_error_reply() {
    let mut c = Client::start();
    let e = c.try_request("mettle/panic", Value::Null).unwrap_err();
    assert!(e.contains("internal error"), "{e}");
    let e = c.try_request("textDocument/hover", json!({ "textDocument": { "uri": "file:///nowhere.mettle" }, "position": { "line": 0, "character": 0 } })).unwrap_err();
    assert!(e.contains("not open"), "{e}");
    let (uri, _) = open_frontiers(&mut c);
    let h = c.at("textDocument/hover", &uri, (9999, 9999));
    assert_eq!(h, Value::Null);
    c.stop();
}

#[test]
fn a_formulas_parameters_know_their_kind() {
    let text = "kind unit { spi: 0..6 = 3 }\ndefine grit(u: unit) = u.spi\n";
    let a = super::analysis::Analysis::new(text, None, &Default::default());
    let at = text.find("u.spi").unwrap() + 2;
    let items = super::complete::complete(&a, None, a.lines.position(&a.text, at));
    let l: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
    assert_eq!(l, ["spi"]);
}

#[test]
fn argument_names_complete_on_continued_lines() {
    let text = "check c { input spi: 0..6  input lead: 0..3  roll d6  otherwise x }\nevent e\n\
                on e {\n  roll c with spi = 1,\n    \n}\n";
    let a = super::analysis::Analysis::new(text, None, &Default::default());
    let at = text.find("1,\n    ").unwrap() + 7;
    let items = super::complete::complete(&a, None, a.lines.position(&a.text, at));
    let l: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
    assert_eq!(l, ["spi", "lead"]);
}

#[test]
fn shapes_are_outlined_hovered_and_defined() {
    let mut c = Client::start();
    let path =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("rulesets/shadow_deep_stress.mettle");
    let text = std::fs::read_to_string(&path).unwrap();
    let uri = uri_of(&path);
    c.open(&uri, &text);
    assert!(c.diagnostics(&uri).is_empty());
    // The fact's type jumps to the shape.
    let d = c.at("textDocument/definition", &uri, pos(&text, "situation: situation)", 0, 12));
    assert_eq!(d["range"]["start"]["line"], pos(&text, "shape situation", 0, 0).0);
    // A field of the shape, with its type and doc.
    let h = c.at("textDocument/hover", &uri, pos(&text, "shoot_target: text = none", 0, 2));
    let shown = h["contents"]["value"].as_str().unwrap();
    assert!(shown.contains("shoot_target: text = none"), "{shown}");
    assert!(shown.contains("The name of the enemy it could shoot, or none."), "{shown}");
    // The outline has the shape with its fields, records' fields under theirs.
    let symbols = c.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    let shape = symbols.as_array().unwrap().iter().find(|s| s["name"] == "situation").expect("the shape");
    let names = |v: &Value| -> Vec<String> {
        v.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap_or("").to_string()).collect()
    };
    let fields = names(&shape["children"]);
    assert_eq!(
        fields,
        ["in_combat", "friends", "enemies", "cover", "target_points", "shoot_target", "guarding"]
    );
    // A list's entries are a shape of their own, with its fields.
    let friend =
        symbols.as_array().unwrap().iter().find(|s| s["name"] == "friend").expect("the entries' shape");
    assert_eq!(names(&friend["children"]), ["name", "distance", "in_combat", "reachable", "closer_to_enemy"]);
    c.stop();
}

#[test]
fn a_scenarios_report_line_is_hovered_and_completed_where_it_fits() {
    let text = "kind unit { hp: 0..9 = 3 }\nevent hit(u: unit)\non hit {\n  if u.hp > 0 { remove 1 from u.hp }\n  \n}\n\
                scenario two \"Two hits\" {\n  new unit u\n  trigger hit(u: u)\n  record \"hp\" = u.hp\n  \
                report u.hp, u.hp <= 1\n  \n}\n";
    let mut c = Client::start();
    let uri = "file:///nowhere/report.mettle";
    c.open(uri, text);
    assert!(c.diagnostics(uri).is_empty());
    // The words say what they do, as the other statements' built-in words do.
    let h = c.at("textDocument/hover", uri, pos(text, "report u.hp", 0, 2));
    let shown = h["contents"]["value"].as_str().unwrap();
    assert!(shown.starts_with("```mettle\nreport\n```"), "{shown}");
    assert!(shown.contains("what each row of its odds"), "{shown}");
    assert!(shown.contains("no dice or scripts"), "{shown}");
    assert_eq!(h["range"]["start"], pos_json(pos(text, "report u.hp", 0, 0)), "{h}");
    let h = c.at("textDocument/hover", uri, pos(text, "record \"hp\"", 0, 1));
    assert!(h["contents"]["value"].as_str().unwrap().contains("`mettle odds` and `mettle sim`"), "{h}");
    // A name on the line is still the name, not the word.
    let h = c.at("textDocument/hover", uri, pos(text, "u.hp, u.hp", 0, 2));
    assert!(h["contents"]["value"].as_str().unwrap().contains("hp: 0..9 = 3"), "{h}");
    c.stop();
    // `report` is offered at a scenario's top level only; `record` in rules too.
    let a = super::analysis::Analysis::new(text, None, &Default::default());
    let offered = |at: usize| -> Vec<String> {
        super::complete::complete(&a, None, a.lines.position(&a.text, at))
            .into_iter()
            .map(|i| i.label)
            .collect()
    };
    let in_scenario = offered(text.rfind("  \n}").unwrap() + 2);
    assert!(
        in_scenario.contains(&"report".into()) && in_scenario.contains(&"record".into()),
        "{in_scenario:?}"
    );
    let in_rule = offered(text.find("  \n}").unwrap() + 2);
    assert!(!in_rule.contains(&"report".into()) && in_rule.contains(&"record".into()), "{in_rule:?}");
}
