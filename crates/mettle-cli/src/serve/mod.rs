//! `mettle serve`: a session kept open over standard input and output for programs in other
//! languages. One JSON-RPC 2.0 request a line in, one reply a line out (docs/protocol.md). A request
//! that fails leaves the session as it was, and the next line is read as usual.

mod files;
mod methods;
pub mod protocol;
mod questions;
mod values;

use crate::cli::json::{ErrorDoc, ErrorInfo, Meta, plain_error};
use mettle::{Ruleset, Session};
use protocol::{Id, Outcome, Reply, ReplyError};
use std::io::{BufRead, Write};
use std::path::Path;

/// What a reply's error code says.
pub mod code {
    /// The line is not JSON.
    pub const PARSE: i64 = -32700;
    /// The line is JSON but not a request.
    pub const INVALID_REQUEST: i64 = -32600;
    /// No such method.
    pub const UNKNOWN_METHOD: i64 = -32601;
    /// The parameters do not fit the method.
    pub const INVALID_PARAMS: i64 = -32602;
    /// The ruleset does not load.
    pub const LOAD: i64 = 1;
    /// The rules refused.
    pub const RULES: i64 = 2;
    /// Nothing to do it on.
    pub const NOTHING: i64 = 3;
    /// Over a budget.
    pub const BUDGET: i64 = 4;
    /// An action waits on a question.
    pub const WAITING: i64 = 5;
    /// The server may not read that file.
    pub const FORBIDDEN: i64 = 6;
}

/// A failed request: its code, and the errors.
#[derive(Debug)]
pub struct Failure {
    code: i64,
    errors: Vec<ErrorInfo>,
}

impl Failure {
    /// A failure with one error that has no place in a file.
    pub fn plain(code: i64, err: &str, message: &str, help: Option<&str>) -> Failure {
        Failure { code, errors: vec![plain_error(err, message, help)] }
    }

    /// The rules refused, with the library's diagnostic.
    pub fn rules(rules: &Ruleset, d: &mettle::Diagnostic) -> Failure {
        Failure {
            code: code::RULES,
            errors: vec![crate::cli::json::error_info(d, rules.name(), rules.text())],
        }
    }
}

/// A loaded ruleset and the game on it.
#[derive(Debug, Clone)]
pub struct World {
    rules: Ruleset,
    session: Session,
}

/// What `undo` puts back.
#[derive(Debug)]
enum Step {
    /// A step that kept the world: the session's state and log length before it.
    Kept(Box<mettle::session::Checkpoint>),
    /// A step that replaced the world (`load`, `restore`): the world before it, if any.
    Replaced(Option<Box<World>>),
}

/// The server: the world, if a ruleset is loaded, and the steps `undo` can take back.
#[derive(Debug)]
pub struct Server {
    world: Option<World>,
    /// Oldest first; at most the budget's `undo_steps`, as in the REPL.
    undo: std::collections::VecDeque<Step>,
    seed: u64,
    budget: mettle::Budget,
    /// The folder `load {"file"}` may read under (its real path); none: no file at all.
    root: Option<std::path::PathBuf>,
}

impl Server {
    /// A server with no ruleset yet, that reads no files.
    pub fn new(seed: u64, budget: mettle::Budget) -> Server {
        Server { world: None, undo: Default::default(), seed, budget, root: None }
    }

    /// The same server, letting `load` read files under `root` (a real path, see `files::root`).
    pub fn with_root(mut self, root: std::path::PathBuf) -> Server {
        self.root = Some(root);
        self
    }

    fn remember(&mut self, step: Step) {
        self.undo.push_back(step);
        while self.undo.len() as u64 > self.budget.undo_steps.max(1) {
            self.undo.pop_front();
        }
    }

    /// Answers one line: always one reply, a line of JSON without its newline.
    pub fn line(&mut self, line: &str) -> String {
        let reply = self.reply(line);
        crate::cli::json::safe(serde_json::to_string(&reply).unwrap_or_default())
    }

    fn reply(&mut self, line: &str) -> Reply {
        let request: serde_json::Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                return error(
                    None,
                    Failure::plain(
                        code::PARSE,
                        "mettle::serve::not_json",
                        &format!("the line is not JSON: {e}"),
                        Some(
                            "send one JSON object a line: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"state\"}",
                        ),
                    ),
                );
            }
        };
        let id = request.get("id").and_then(|i| serde_json::from_value::<Id>(i.clone()).ok());
        match (self.request(&request), id) {
            (Ok(result), Some(id)) => Reply::Ok { jsonrpc: "2.0".into(), id, result: Box::new(result) },
            (Ok(_), None) => unreachable!("a request without an id is refused before it runs"),
            (Err(f), id) => error(id, f),
        }
    }

    fn request(&mut self, request: &serde_json::Value) -> Result<Outcome, Failure> {
        let invalid = |message: &str, help: &str| {
            Failure::plain(code::INVALID_REQUEST, "mettle::serve::not_a_request", message, Some(help))
        };
        let example = "a request is {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"roll\",\"params\":{…}}";
        let Some(obj) = request.as_object() else {
            return Err(invalid("the request is not a JSON object", example));
        };
        if obj.get("jsonrpc").and_then(|v| v.as_str()) != Some("2.0") {
            return Err(invalid("the request needs `\"jsonrpc\": \"2.0\"`", example));
        }
        match obj.get("id") {
            Some(serde_json::Value::Number(n)) if n.is_i64() => {}
            Some(serde_json::Value::String(_)) => {}
            _ => {
                return Err(invalid(
                    "the request needs an `id`: a whole number or a string, echoed in its reply",
                    example,
                ));
            }
        }
        let Some(method) = obj.get("method").and_then(|m| m.as_str()) else {
            return Err(invalid("the request needs a `method`, a string", example));
        };
        if let Some(extra) = obj.keys().find(|k| !["jsonrpc", "id", "method", "params"].contains(&k.as_str()))
        {
            return Err(invalid(
                &format!("the request has a member `{extra}` that means nothing here"),
                example,
            ));
        }
        if !protocol::METHODS.contains(&method) {
            return Err(Failure::plain(
                code::UNKNOWN_METHOD,
                "mettle::serve::unknown_method",
                &format!("there is no method `{method}`"),
                Some(&mettle::internals::diagnostics::suggest(method, "method", &protocol::METHODS)),
            ));
        }
        let params = match obj.get("params") {
            None | Some(serde_json::Value::Null) => serde_json::json!({}),
            Some(p @ serde_json::Value::Object(_)) => p.clone(),
            Some(_) => {
                return Err(Failure::plain(
                    code::INVALID_PARAMS,
                    "mettle::serve::bad_params",
                    "`params` must be an object of named parameters",
                    Some("see docs/protocol.md for each method's parameters"),
                ));
            }
        };
        self.call(method, params)
    }
}

/// Reads `P` from a request's params.
pub fn params<P: serde::de::DeserializeOwned>(method: &str, params: serde_json::Value) -> Result<P, Failure> {
    serde_json::from_value(params).map_err(|e| {
        Failure::plain(
            code::INVALID_PARAMS,
            "mettle::serve::bad_params",
            &format!("wrong parameters for `{method}`: {e}"),
            Some("see docs/protocol.md for each method's parameters"),
        )
    })
}

fn error(id: Option<Id>, f: Failure) -> Reply {
    let message = f.errors.first().map(|e| e.message.clone()).unwrap_or_default();
    let errors = f.errors;
    Reply::Err {
        jsonrpc: "2.0".into(),
        id,
        error: ReplyError { code: f.code, message, data: ErrorDoc { mettle: Meta::default(), errors } },
    }
}

/// Reads one line of at most `cap` bytes (without its newline). `Ok(None)` at the end of the input;
/// `Err(n)` for a longer line, read to its end and dropped (`n` bytes).
fn read_line(input: &mut impl BufRead, cap: u64) -> std::io::Result<Option<Result<String, u64>>> {
    let mut buf = vec![];
    let n = std::io::Read::take(&mut *input, cap + 1).read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    } else if buf.len() as u64 > cap {
        // Too long: skip to the end of the line, a bounded piece at a time.
        let mut dropped = buf.len() as u64;
        loop {
            let (done, used) = {
                let available = input.fill_buf()?;
                if available.is_empty() {
                    break;
                }
                match available.iter().position(|&b| b == b'\n') {
                    Some(i) => (true, i + 1),
                    None => (false, available.len()),
                }
            };
            input.consume(used);
            dropped += used as u64;
            if done {
                break;
            }
        }
        return Ok(Some(Err(dropped)));
    }
    Ok(Some(Ok(String::from_utf8_lossy(&buf).into_owned())))
}

/// Runs the server until standard input ends. Exit 0, or 1 when the first ruleset does not load or
/// the output cannot be written, or 2 for a `--root` that is not a folder.
pub fn run(file: Option<&Path>, seed: u64, root: Option<&Path>) -> u8 {
    let budget = crate::cli::budget();
    let mut server = Server::new(seed, budget.clone());
    if let Some(dir) = root {
        match files::root(dir) {
            Ok(real) => server = server.with_root(real),
            Err(message) => {
                crate::cli::json::fail(
                    "mettle::serve::bad_root",
                    &message,
                    Some("give `--root` an existing folder: the one clients may load rulesets from"),
                );
                return 2;
            }
        }
    }
    if let Some(f) = file {
        // The operator's own file, named on the command line: read wherever it is.
        let params = serde_json::json!({ "file": f.display().to_string() });
        if let Err(f) = methods::load_given(&mut server, params) {
            let reply = error(None, f);
            eprintln!("{}", crate::cli::json::safe(serde_json::to_string(&reply).unwrap_or_default()));
            return 1;
        }
        server.undo.clear();
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    loop {
        let reply = match read_line(&mut input, budget.line_bytes) {
            Ok(None) => return 0,
            Ok(Some(Ok(line))) if line.trim().is_empty() => continue,
            Ok(Some(Ok(line))) => server.line(&line),
            Ok(Some(Err(n))) => serde_json::to_string(&error(
                None,
                Failure::plain(
                    code::BUDGET,
                    "mettle::serve::line_too_long",
                    &format!(
                        "the request is {n} bytes, over the budget of {} bytes a line",
                        budget.line_bytes
                    ),
                    Some("raise the budget (`mettle serve --budget line_bytes=N`)"),
                ),
            ))
            .unwrap_or_default(),
            Err(e) => {
                eprintln!("mettle::io::read: cannot read the input: {e}");
                return 1;
            }
        };
        if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
            return 1;
        }
    }
}
