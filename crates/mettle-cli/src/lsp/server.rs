//! The server's loop: documents in memory, edits coalesced, requests answered, panics caught.

use super::analysis::{Analysis, uri_to_path};
use super::odds::OddsCache;
use super::{complete, diag, features, format, outline, signature};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentHighlightRequest, DocumentSymbolRequest, FoldingRangeRequest,
    Formatting, GotoDefinition, HoverRequest, PrepareRenameRequest, References, Rename, Request as _,
    SemanticTokensFullRequest, SignatureHelpRequest,
};
use lsp_types::*;
use mettle::Budget;
use std::collections::{HashMap, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// How long the server waits after an edit for more edits before checking the document again.
const DEBOUNCE: Duration = Duration::from_millis(120);

/// What the server can do.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(PositionEncodingKind::UTF16),
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::INCREMENTAL),
            save: Some(TextDocumentSyncSaveOptions::Supported(true)),
            ..TextDocumentSyncOptions::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_highlight_provider: Some(OneOf::Left(true)),
        signature_help_provider: Some(SignatureHelpOptions {
            trigger_characters: Some(vec!["(".into(), ",".into()]),
            retrigger_characters: None,
            work_done_progress_options: WorkDoneProgressOptions::default(),
        }),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into()]),
            ..CompletionOptions::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: outline::legend(),
                full: Some(SemanticTokensFullOptions::Bool(true)),
                range: None,
                work_done_progress_options: WorkDoneProgressOptions::default(),
            },
        )),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..CodeActionOptions::default()
        })),
        // Advertised once `format::formatter` gives a formatter.
        document_formatting_provider: format::formatter().map(|_| OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

/// One open document.
struct Doc {
    uri: Uri,
    text: String,
    /// The editor's version of `text`.
    version: i32,
    /// The analysis of `text`, once made.
    now: Option<Rc<Analysis>>,
    /// The last analysis whose ruleset loaded: names and odds while the text is broken.
    good: Option<Rc<Analysis>>,
    /// Script files diagnostics were last published for.
    scripts: HashSet<String>,
}

/// Whether `uri` names a script file (Rhai), which is not a ruleset.
fn is_script(uri: &str) -> bool {
    uri.ends_with(".rhai")
}

impl Doc {
    fn analysis(&mut self, budget: &Budget) -> Rc<Analysis> {
        if let Some(a) = &self.now {
            return a.clone();
        }
        let path = uri_to_path(&self.uri);
        // A script opened by an editor is read by the rulesets that name it, not checked as a ruleset.
        let text = if is_script(self.uri.as_str()) { "" } else { &self.text };
        let a = Rc::new(Analysis::new(text, path.as_deref(), budget));
        if a.ruleset.is_some() {
            self.good = Some(a.clone());
        }
        self.now = Some(a.clone());
        a
    }
}

struct Server {
    sender: crossbeam_channel::Sender<Message>,
    docs: HashMap<String, Doc>,
    /// Documents edited since their diagnostics were last published.
    dirty: HashSet<String>,
    /// When the last edit came.
    last_edit: Instant,
    /// Whether the client takes snippets in completions.
    snippets: bool,
    odds: OddsCache,
    /// Limits for loading rulesets.
    budget: Budget,
}

/// Serves `connection` until `exit`: the initialize handshake, then every message. Rulesets are
/// loaded within `budget`. An `exit` that does not follow `shutdown` is an error (exit status 1, as
/// the protocol asks).
pub fn serve(connection: &Connection, budget: Budget) -> Result<(), String> {
    let caps = serde_json::to_value(capabilities()).map_err(|e| e.to_string())?;
    let (id, params) = connection.initialize_start().map_err(|e| e.to_string())?;
    // Snippets only for clients that say they take them.
    let snippets = params
        .pointer("/capabilities/textDocument/completion/completionItem/snippetSupport")
        .and_then(serde_json::Value::as_bool)
        .unwrap_or(false);
    let answer = serde_json::json!({
        "capabilities": caps,
        "serverInfo": { "name": "mettle", "version": env!("CARGO_PKG_VERSION") },
    });
    connection.initialize_finish(id, answer).map_err(|e| e.to_string())?;
    let mut server = Server {
        sender: connection.sender.clone(),
        docs: HashMap::new(),
        dirty: HashSet::new(),
        last_edit: Instant::now(),
        snippets,
        odds: OddsCache::default(),
        budget,
    };
    let mut shut_down = false;
    loop {
        // Diagnostics wait until no edit has come for a moment; other messages do not delay them.
        let msg = if server.dirty.is_empty() || shut_down {
            match connection.receiver.recv() {
                Ok(m) => m,
                Err(_) => return Ok(()),
            }
        } else {
            let waited = server.last_edit.elapsed();
            if waited >= DEBOUNCE {
                server.publish_dirty();
                continue;
            }
            match connection.receiver.recv_timeout(DEBOUNCE - waited) {
                Ok(m) => m,
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => continue,
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => return Ok(()),
            }
        };
        match msg {
            // After `shutdown`, the protocol asks that every request be refused as invalid until `exit`.
            Message::Request(req) if shut_down => {
                server.send(Response::new_err(
                    req.id,
                    ErrorCode::InvalidRequest as i32,
                    format!(
                        "mettle lsp: the server is shutting down and answers nothing more ({} after \
                         `shutdown`); send `exit`",
                        req.method
                    ),
                ));
            }
            Message::Request(req) if req.method == "shutdown" => {
                shut_down = true;
                server.send(Response::new_ok(req.id, serde_json::Value::Null));
            }
            Message::Request(req) => server.request(req),
            Message::Notification(n) if n.method == "exit" => {
                return if shut_down {
                    Ok(())
                } else {
                    Err("the client sent `exit` without `shutdown` first".into())
                };
            }
            Message::Notification(n) if n.method == super::REFUSED => {
                let text = n.params.get("message").and_then(serde_json::Value::as_str).unwrap_or("");
                let code = n.params.get("code").and_then(serde_json::Value::as_str).unwrap_or("");
                server.log(&format!("{code}: {text}"));
            }
            Message::Notification(_) if shut_down => {}
            Message::Notification(n) => {
                let method = n.method.clone();
                if catch_unwind(AssertUnwindSafe(|| server.notification(n))).is_err() {
                    server.log(&format!(
                        "mettle lsp: an internal error handling {method}; the document is kept as it was"
                    ));
                }
            }
            Message::Response(_) => {}
        }
    }
}

type Answer = Result<serde_json::Value, (i32, String)>;

/// Decodes a request's parameters, runs `f`, and encodes its result.
fn on<R: lsp_types::request::Request>(
    req: Request,
    f: impl FnOnce(R::Params) -> Result<R::Result, String>,
) -> Answer {
    let params: R::Params =
        serde_json::from_value(req.params).map_err(|e| (ErrorCode::InvalidParams as i32, e.to_string()))?;
    let result = f(params).map_err(|e| (ErrorCode::RequestFailed as i32, e))?;
    serde_json::to_value(result).map_err(|e| (ErrorCode::InternalError as i32, e.to_string()))
}

impl Server {
    fn send(&self, msg: impl Into<Message>) {
        let _ = self.sender.send(msg.into());
    }

    fn log(&self, text: &str) {
        let params = LogMessageParams { typ: MessageType::ERROR, message: text.into() };
        self.send(Notification::new("window/logMessage".into(), params));
    }

    /// Answers `req`; a panic while answering is an error reply, and the server goes on.
    fn request(&mut self, req: Request) {
        let id: RequestId = req.id.clone();
        let method = req.method.clone();
        let answer = catch_unwind(AssertUnwindSafe(|| self.answer(req)));
        let response = match answer {
            Ok(Ok(v)) => Response::new_ok(id, v),
            Ok(Err((code, message))) => Response::new_err(id, code, message),
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!("mettle lsp: an internal error answering {method}"),
            ),
        };
        self.send(response);
    }

    /// The latest analysis of the document at `uri`, and the last one that loaded.
    fn analysis(&mut self, uri: &Uri) -> Result<(Rc<Analysis>, Option<Rc<Analysis>>), String> {
        let doc = self.docs.get_mut(uri.as_str()).ok_or_else(|| format!("{} is not open", uri.as_str()))?;
        Ok((doc.analysis(&self.budget), doc.good.clone()))
    }

    fn answer(&mut self, req: Request) -> Answer {
        match req.method.as_str() {
            HoverRequest::METHOD => on::<HoverRequest>(req, |p| {
                let uri = &p.text_document_position_params.text_document.uri;
                let (a, good) = self.analysis(uri)?;
                let rules = a.ruleset.as_ref().or(good.as_ref().and_then(|g| g.ruleset.as_ref()));
                Ok(features::hover(&a, p.text_document_position_params.position, rules, &mut self.odds))
            }),
            GotoDefinition::METHOD => on::<GotoDefinition>(req, |p| {
                let uri = &p.text_document_position_params.text_document.uri;
                let (a, _) = self.analysis(uri)?;
                Ok(features::definition(&a, uri, p.text_document_position_params.position)
                    .map(GotoDefinitionResponse::Scalar))
            }),
            References::METHOD => on::<References>(req, |p| {
                let uri = &p.text_document_position.text_document.uri;
                let (a, _) = self.analysis(uri)?;
                let found = features::references(
                    &a,
                    uri,
                    p.text_document_position.position,
                    p.context.include_declaration,
                );
                Ok(Some(found))
            }),
            DocumentHighlightRequest::METHOD => on::<DocumentHighlightRequest>(req, |p| {
                let uri = &p.text_document_position_params.text_document.uri;
                let (a, _) = self.analysis(uri)?;
                Ok(Some(features::highlights(&a, p.text_document_position_params.position)))
            }),
            SignatureHelpRequest::METHOD => on::<SignatureHelpRequest>(req, |p| {
                let uri = &p.text_document_position_params.text_document.uri;
                let (a, good) = self.analysis(uri)?;
                Ok(signature::signature_help(&a, good.as_deref(), p.text_document_position_params.position))
            }),
            Completion::METHOD => on::<Completion>(req, |p| {
                let uri = &p.text_document_position.text_document.uri;
                let (a, good) = self.analysis(uri)?;
                let mut items = complete::complete(&a, good.as_deref(), p.text_document_position.position);
                if !self.snippets {
                    complete::without_snippets(&mut items);
                }
                Ok(Some(CompletionResponse::Array(items)))
            }),
            DocumentSymbolRequest::METHOD => on::<DocumentSymbolRequest>(req, |p| {
                let (a, _) = self.analysis(&p.text_document.uri)?;
                Ok(Some(DocumentSymbolResponse::Nested(outline::document_symbols(&a))))
            }),
            FoldingRangeRequest::METHOD => on::<FoldingRangeRequest>(req, |p| {
                let (a, _) = self.analysis(&p.text_document.uri)?;
                Ok(Some(outline::folding_ranges(&a)))
            }),
            SemanticTokensFullRequest::METHOD => on::<SemanticTokensFullRequest>(req, |p| {
                let (a, _) = self.analysis(&p.text_document.uri)?;
                Ok(Some(SemanticTokensResult::Tokens(outline::semantic_tokens(&a))))
            }),
            PrepareRenameRequest::METHOD => on::<PrepareRenameRequest>(req, |p| {
                let (a, _) = self.analysis(&p.text_document.uri)?;
                Ok(features::prepare_rename(&a, p.position))
            }),
            Rename::METHOD => {
                // A refused rename is an error whose data carries its code.
                let mut refused = None;
                let answer = on::<Rename>(req, |p| {
                    let uri = &p.text_document_position.text_document.uri;
                    let (a, _) = self.analysis(uri)?;
                    features::rename(&a, uri, p.text_document_position.position, &p.new_name).map_err(
                        |(code, message)| {
                            refused = Some(code);
                            message
                        },
                    )
                });
                match (answer, refused) {
                    (Err((c, m)), Some(code)) => Err((c, format!("{m} ({code})"))),
                    (a, _) => a,
                }
            }
            CodeActionRequest::METHOD => on::<CodeActionRequest>(req, |p| {
                let (a, _) = self.analysis(&p.text_document.uri)?;
                Ok(Some(diag::code_actions(&a, &p)))
            }),
            Formatting::METHOD if format::formatter().is_some() => on::<Formatting>(req, |p| {
                let (a, _) = self.analysis(&p.text_document.uri)?;
                Ok(format::formatter().and_then(|f| format::edits(&a, f)))
            }),
            #[cfg(test)]
            "mettle/panic" => panic!("a test asked for a panic"),
            m => Err((ErrorCode::MethodNotFound as i32, format!("mettle lsp does not answer {m}"))),
        }
    }

    fn notification(&mut self, n: Notification) {
        if n.method.starts_with("textDocument/did") {
            self.last_edit = Instant::now();
        }
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(p) = n.extract::<DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD) else {
                    return;
                };
                let uri = p.text_document.uri;
                let key = uri.as_str().to_string();
                let old = self.docs.remove(&key);
                let scripts = old.map(|d| d.scripts).unwrap_or_default();
                self.docs.insert(
                    key.clone(),
                    Doc {
                        uri,
                        text: p.text_document.text,
                        version: p.text_document.version,
                        now: None,
                        good: None,
                        scripts,
                    },
                );
                // A script's diagnostics come from the rulesets that name it.
                if !is_script(&key) {
                    self.dirty.insert(key);
                }
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) = n.extract::<DidChangeTextDocumentParams>(DidChangeTextDocument::METHOD) else {
                    return;
                };
                let key = p.text_document.uri.as_str().to_string();
                let Some(doc) = self.docs.get_mut(&key) else { return };
                for change in p.content_changes {
                    apply_change(&mut doc.text, change);
                }
                doc.version = p.text_document.version;
                doc.now = None;
                // A script's diagnostics come from the rulesets that name it.
                if !is_script(&key) {
                    self.dirty.insert(key);
                }
            }
            DidSaveTextDocument::METHOD => {
                // The rulesets read their scripts from disk: a saved script is read again.
                let Ok(p) = n.extract::<DidSaveTextDocumentParams>(DidSaveTextDocument::METHOD) else {
                    return;
                };
                if is_script(p.text_document.uri.as_str()) {
                    for (key, doc) in self.docs.iter_mut().filter(|(k, _)| !is_script(k)) {
                        doc.now = None;
                        self.dirty.insert(key.clone());
                    }
                }
            }
            DidCloseTextDocument::METHOD => {
                let Ok(p) = n.extract::<DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD) else {
                    return;
                };
                let key = p.text_document.uri.as_str().to_string();
                self.dirty.remove(&key);
                if let Some(doc) = self.docs.remove(&key).filter(|_| !is_script(&key)) {
                    self.publish(doc.uri.clone(), vec![]);
                    for s in doc.scripts {
                        if let Ok(u) = s.parse() {
                            self.publish(u, vec![]);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn publish(&self, uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>) {
        self.publish_version(uri, diagnostics, None);
    }

    fn publish_version(&self, uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>, version: Option<i32>) {
        let params = PublishDiagnosticsParams { uri, diagnostics, version };
        self.send(Notification::new(PublishDiagnostics::METHOD.into(), params));
    }

    /// Checks every edited document again and publishes its diagnostics (and those in its scripts).
    fn publish_dirty(&mut self) {
        let keys: Vec<String> = self.dirty.drain().collect();
        for key in keys {
            let done = catch_unwind(AssertUnwindSafe(|| {
                let doc = self.docs.get_mut(&key)?;
                let a = doc.analysis(&self.budget);
                let files = diag::to_lsp(&a, &doc.uri);
                let now: HashSet<String> =
                    files.iter().skip(1).map(|(u, _)| u.as_str().to_string()).collect();
                let gone: Vec<String> = doc.scripts.difference(&now).cloned().collect();
                doc.scripts = now;
                Some((files, gone, doc.version))
            }));
            match done {
                Ok(Some((files, gone, version))) => {
                    // The document's own diagnostics come first and carry its version.
                    for (i, (uri, d)) in files.into_iter().enumerate() {
                        self.publish_version(uri, d, (i == 0).then_some(version));
                    }
                    for g in gone {
                        if let Ok(u) = g.parse() {
                            self.publish(u, vec![]);
                        }
                    }
                }
                Ok(None) => {}
                Err(_) => self.log(&format!("mettle lsp: an internal error checking {key}")),
            }
        }
    }
}

/// Applies one edit to `text`: a whole new text, or a range (in UTF-16 positions) replaced.
fn apply_change(text: &mut String, change: TextDocumentContentChangeEvent) {
    match change.range {
        None => *text = change.text,
        Some(range) => {
            let lines = super::position::LineIndex::new(text);
            let span = lines.span(text, range);
            text.replace_range(span.start..span.end, &change.text);
        }
    }
}
