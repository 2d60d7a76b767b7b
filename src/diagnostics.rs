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

/// The codes mettle itself acts on: where a caller must tell one error from another (an unknown
/// scenario from a failed run, a budget spent from a wrong value), it matches on one of these with
/// [`Diagnostic::is`], never on a code's text, and the code is made from the same variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Code {
    /// `mettle::parse::too_deep`: brackets or blocks nested past the parser's limit.
    TooDeep,
    /// `mettle::resolve::missing_otherwise`: a check whose outcomes may all fail to match.
    MissingOtherwise,
    /// `mettle::resolve::unreachable`: an outcome or rule that can never be reached.
    Unreachable,
    /// `mettle::resolve::unread_attribute`: an attribute no rule reads.
    UnreadAttribute,
    /// `mettle::resolve::always`: a condition that always holds.
    Always,
    /// `mettle::run::no_entity`: a rule reached an entity that is none.
    NoEntity,
    /// `mettle::run::forced_dice`: a forced face the die cannot show.
    ForcedDice,
    /// `mettle::run::no_outcome`: no outcome of a check matched the roll.
    NoOutcome,
    /// `mettle::run::unknown_scenario`: no scenario has the name asked for.
    UnknownScenario,
    /// `mettle::run::missing_input`: a check rolled without a value for an input that has no default.
    MissingInput,
    /// `mettle::run::no_subject`: a check made by someone, rolled for nobody, read its subject.
    NoSubject,
    /// `mettle::run::cancelled`: the host or the user stopped the work under way.
    Cancelled,
    /// `mettle::value::wrong_type`: a value of another type than the one asked for.
    WrongType,
    /// `mettle::odds::out_of_work`: exact odds or an estimate spent their budget of work.
    OutOfWork,
    /// `mettle::budget::total_steps`: a whole piece of work spent its budget of steps.
    TotalSteps,
    /// `mettle::data::missing_field`: a record of data lacks a field its shape gives no default.
    DataMissingField,
    /// `mettle::data::unknown_field`: a record of data has a field its shape does not.
    DataUnknownField,
    /// `mettle::data::wrong_type`: a value of data of another type than its shape says.
    DataWrongType,
    /// `mettle::data::out_of_range`: a number of data outside its shape's range.
    DataOutOfRange,
    /// `mettle::data::unknown_name`: a name of data that is not one of its shape's names.
    DataUnknownName,
    /// `mettle::data::too_deep`: data nested deeper than shapes may be.
    DataTooDeep,
    /// `mettle::data::too_large`: data of more values than its budget.
    DataTooLarge,
    /// `mettle::fmt::unknown_text`: text the formatter has no token for (a bug of the formatter).
    FmtUnknownText,
    /// `mettle::fmt::changed_meaning`: formatting that would change what the ruleset means (a bug
    /// of the formatter).
    FmtChangedMeaning,
}

impl Code {
    /// The whole code, as printed: `mettle::run::no_entity`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Code::TooDeep => "mettle::parse::too_deep",
            Code::MissingOtherwise => "mettle::resolve::missing_otherwise",
            Code::Unreachable => "mettle::resolve::unreachable",
            Code::UnreadAttribute => "mettle::resolve::unread_attribute",
            Code::Always => "mettle::resolve::always",
            Code::NoEntity => "mettle::run::no_entity",
            Code::ForcedDice => "mettle::run::forced_dice",
            Code::NoOutcome => "mettle::run::no_outcome",
            Code::UnknownScenario => "mettle::run::unknown_scenario",
            Code::MissingInput => "mettle::run::missing_input",
            Code::NoSubject => "mettle::run::no_subject",
            Code::Cancelled => "mettle::run::cancelled",
            Code::WrongType => "mettle::value::wrong_type",
            Code::OutOfWork => "mettle::odds::out_of_work",
            Code::TotalSteps => "mettle::budget::total_steps",
            Code::DataMissingField => "mettle::data::missing_field",
            Code::DataUnknownField => "mettle::data::unknown_field",
            Code::DataWrongType => "mettle::data::wrong_type",
            Code::DataOutOfRange => "mettle::data::out_of_range",
            Code::DataUnknownName => "mettle::data::unknown_name",
            Code::DataTooDeep => "mettle::data::too_deep",
            Code::DataTooLarge => "mettle::data::too_large",
            Code::FmtUnknownText => "mettle::fmt::unknown_text",
            Code::FmtChangedMeaning => "mettle::fmt::changed_meaning",
        }
    }

    /// The code without `mettle::`, as [`Diagnostic::error`] and [`Diagnostic::plain`] take it:
    /// `run::no_entity`.
    pub(crate) fn path(self) -> &'static str {
        let s = self.as_str();
        s.strip_prefix("mettle::").unwrap_or(s)
    }

    /// The code's last part: `no_entity`.
    pub(crate) fn name(self) -> &'static str {
        let s = self.as_str();
        s.rsplit("::").next().unwrap_or(s)
    }
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

    /// The diagnostic with its labels moved `base` bytes back (clamped at 0): from a text that sits
    /// at byte `base` of a longer one, to that text alone.
    pub(crate) fn shifted_back(mut self, base: usize) -> Diagnostic {
        for l in &mut self.labels {
            l.span = Span::new(l.span.start.saturating_sub(base), l.span.end.saturating_sub(base));
        }
        self
    }

    /// Whether it has code `code`.
    ///
    /// ```
    /// use mettle::diagnostics::{Code, Diagnostic};
    /// let d = mettle::budget::over_total_steps("the tests", 12, 10, "3 of 8 scenarios played");
    /// assert!(d.is(Code::TotalSteps) && !d.is(Code::OutOfWork));
    /// ```
    pub fn is(&self, code: Code) -> bool {
        self.code == code.as_str()
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

/// How [`render`] lays diagnostics out: how many columns wide, and whether in colour for a
/// terminal. Made with [`RenderOptions::default`] (80 columns, no colour) and the `with_` methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RenderOptions {
    /// Columns the text may take.
    pub width: usize,
    /// Colours for a terminal (ANSI escapes); without them, plain text.
    pub color: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions { width: 80, color: false }
    }
}

impl RenderOptions {
    /// These options, `width` columns wide.
    ///
    /// ```
    /// let opts = mettle::diagnostics::RenderOptions::default().with_width(100);
    /// assert_eq!((opts.width, opts.color), (100, false));
    /// ```
    pub fn with_width(mut self, width: usize) -> Self {
        self.width = width;
        self
    }

    /// These options, in colour (`true`) or plain (`false`).
    ///
    /// ```
    /// let opts = mettle::diagnostics::RenderOptions::default().with_color(true);
    /// assert_eq!((opts.width, opts.color), (80, true));
    /// ```
    pub fn with_color(mut self, color: bool) -> Self {
        self.color = color;
        self
    }
}

/// Renders diagnostics against the text they point into (`name` is how the file is called in the
/// report), as the `mettle` command shows them: code, message, the lines with their labels, help.
/// Plain text is what the command writes when its output is not a terminal, and what the snapshot
/// tests compare.
///
/// ```
/// use mettle::diagnostics::{RenderOptions, render};
/// let text = "check c {\n  input spi: 0..6\n  let x = spy\n  otherwise done\n}";
/// let err = mettle::Ruleset::from_str("r.mettle", text).unwrap_err();
/// let shown = render(&err.diagnostics, "r.mettle", text, &RenderOptions::default());
/// assert!(shown.contains("mettle::resolve::unknown_name"));
/// assert!(shown.contains("r.mettle:3:11"));
/// assert!(shown.contains("did you mean `spi`?"));
/// assert!(!shown.contains('\u{1b}'), "no colour");
/// let coloured = render(&err.diagnostics, "r.mettle", text, &RenderOptions::default().with_color(true));
/// assert!(coloured.contains('\u{1b}'));
/// ```
pub fn render(diags: &[Diagnostic], name: &str, text: &str, opts: &RenderOptions) -> String {
    let handler =
        if opts.color { crate::render::color(opts.width) } else { crate::render::plain(opts.width) };
    crate::render::render(&handler, diags, name, text)
}

// "Did you mean" lives apart, for the crate and the command (`internals::diagnostics`).
#[cfg_attr(not(feature = "internals"), allow(unused_imports))]
pub(crate) use crate::suggest::{did_you_mean, suggest, suggest_or};
