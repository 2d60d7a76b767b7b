//! Errors and warnings as plain data with byte spans, and their rendering through miette.

use crate::ast::Span;
use serde::Serialize;
use std::fmt;
use std::sync::Arc;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Level {
    /// The ruleset cannot be used.
    Error,
    /// The ruleset works but something looks wrong.
    Warning,
}

/// A labelled span of a diagnostic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What to say there.
    pub text: String,
    /// The main label (there is one per diagnostic).
    pub primary: bool,
}

/// One error or warning: a code such as `mettle::resolve::unknown_name`, a message, labelled spans
/// and help saying how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Diagnostic {
    /// Error or warning.
    pub level: Level,
    /// A stable code, `mettle::PHASE::what`.
    pub code: String,
    /// One sentence saying what is wrong.
    pub message: String,
    /// Spans in the source, the first primary.
    pub labels: Vec<Label>,
    /// How to fix it.
    pub help: Option<String>,
    /// The file the labels point into, when it is not the ruleset itself (a `.rhai` script file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Arc<SourceFile>>,
}

/// A source file other than the ruleset, such as a script file a ruleset names.
#[derive(PartialEq, Eq, Serialize)]
pub struct SourceFile {
    /// Its name as shown in messages.
    pub name: String,
    /// Its text.
    #[serde(skip)]
    pub text: String,
}

impl fmt::Debug for SourceFile {
    // The name and size: a whole file's text in every debug print of a diagnostic helps nobody.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SourceFile({:?}, {} bytes)", self.name, self.text.len())
    }
}

impl Diagnostic {
    /// An error with `code`, `message`, and a primary label at `span`.
    pub fn error(code: &str, message: impl Into<String>, span: Span, label: impl Into<String>) -> Self {
        Diagnostic {
            level: Level::Error,
            code: format!("mettle::{code}"),
            message: message.into(),
            labels: vec![Label { span, text: label.into(), primary: true }],
            help: None,
            source: None,
        }
    }

    /// An error about something outside any source text (a command-line value, an API call): no label.
    pub fn plain(code: &str, message: impl Into<String>) -> Self {
        Diagnostic {
            level: Level::Error,
            code: format!("mettle::{code}"),
            message: message.into(),
            labels: vec![],
            help: None,
            source: None,
        }
    }

    /// A warning with `code`, `message`, and a primary label at `span`.
    pub fn warning(code: &str, message: impl Into<String>, span: Span, label: impl Into<String>) -> Self {
        Diagnostic { level: Level::Warning, ..Diagnostic::error(code, message, span, label) }
    }

    /// Adds help text.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Adds a secondary label.
    pub fn with_label(mut self, span: Span, text: impl Into<String>) -> Self {
        self.labels.push(Label { span, text: text.into(), primary: false });
        self
    }

    /// Points the labels into `file` rather than the ruleset.
    pub fn in_file(mut self, file: Arc<SourceFile>) -> Self {
        self.source = Some(file);
        self
    }

    /// The primary span.
    pub fn span(&self) -> Span {
        self.labels.first().map(|l| l.span).unwrap_or_default()
    }

    /// Whether this is an error (not a warning).
    pub fn is_error(&self) -> bool {
        self.level == Level::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diagnostic {}

impl From<Box<Diagnostic>> for Diagnostic {
    fn from(d: Box<Diagnostic>) -> Self {
        *d
    }
}

/// Renders diagnostics as text without colour, `width` columns wide: the form used by the CLI when
/// its output is not a terminal, and by the snapshot tests.
///
/// ```
/// let text = "check c {\n  input spi: 0..6\n  let x = spy\n  otherwise done\n}";
/// let err = mettle::Ruleset::from_str("r.mettle", text).unwrap_err();
/// let shown = mettle::diagnostics::render_plain(&err.diagnostics, "r.mettle", text, 80);
/// assert!(shown.contains("mettle::resolve::unknown_name"));
/// assert!(shown.contains("r.mettle:3:11"));
/// assert!(shown.contains("did you mean `spi`?"));
/// ```
pub fn render_plain(diags: &[Diagnostic], name: &str, text: &str, width: usize) -> String {
    crate::render::render(&crate::render::plain(width), diags, name, text)
}

/// Renders diagnostics in colour for a terminal.
pub fn render_color(diags: &[Diagnostic], name: &str, text: &str, width: usize) -> String {
    crate::render::render(&crate::render::color(width), diags, name, text)
}

/// The known name closest to `name`, if one is close enough to be a likely misspelling: at most one
/// edit (or one swap of neighbours) away for short names, a few for long ones, or very similar overall.
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    let budget = (name.chars().count() / 3).max(1);
    let mut best: Option<(usize, f64, &str)> = None;
    for k in known {
        if k == name {
            continue;
        }
        let kl = k.to_lowercase();
        let edits = strsim::osa_distance(&lower, &kl);
        let similar = strsim::jaro_winkler(&lower, &kl);
        if edits > budget && similar < 0.88 {
            continue;
        }
        let better = match best {
            None => true,
            Some((e, s, _)) => edits < e || (edits == e && similar > s),
        };
        if better {
            best = Some((edits, similar, k));
        }
    }
    best.map(|(_, _, k)| k)
}

/// `help` text for an unknown name: "did you mean" when a close name exists.
pub fn suggest(name: &str, what: &str, known: &[&str]) -> String {
    match did_you_mean(name, known.iter().copied()) {
        Some(k) => format!("did you mean `{k}`?"),
        None if known.is_empty() => format!("no {what} is defined here; define one first"),
        None => {
            let mut list: Vec<&str> = known.to_vec();
            list.sort_unstable();
            list.dedup();
            let shown: Vec<String> = list.iter().take(8).map(|k| format!("`{k}`")).collect();
            let more = if list.len() > 8 { ", …" } else { "" };
            format!("the {what}s here are {}{more}", shown.join(", "))
        }
    }
}

/// Like [`suggest`], but when no close name exists adds `otherwise` (such as how to declare the name).
pub fn suggest_or(name: &str, what: &str, known: &[&str], otherwise: &str) -> String {
    match did_you_mean(name, known.iter().copied()) {
        Some(k) => format!("did you mean `{k}`?"),
        None => format!("{}; {otherwise}", suggest(name, what, known)),
    }
}
