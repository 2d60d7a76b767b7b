//! Diagnostics as Python objects, and failures as Python exceptions that carry them.

use mettle::Diagnostic;
use mettle::wire::{ErrorInfo, Severity, error_info};
use pyo3::prelude::*;
use pyo3::types::PyList;

pyo3::create_exception!(
    _mettle,
    MettleError,
    pyo3::exceptions::PyException,
    "A failure of mettle: `.code` is the diagnostic's stable code (`mettle::run::unknown_event`), \
     `.diagnostics` every diagnostic, and `str()` the rendered report."
);
pyo3::create_exception!(
    _mettle,
    RulesetError,
    MettleError,
    "A ruleset that does not load: `.diagnostics` holds each error and warning."
);

/// One labelled place of a diagnostic.
#[pyclass(frozen, get_all, module = "mettle")]
pub struct Label {
    /// What the label says.
    text: String,
    /// Whether it is the main label.
    primary: bool,
    /// The line the label starts on, from 1.
    line: usize,
    /// Its column in characters of UTF-8 bytes, from 1 (as `mettle check --json`'s `column_utf8`).
    column: usize,
    /// Its column in UTF-16 code units, from 1.
    column_utf16: usize,
    /// The byte range in the file, start and end.
    start: usize,
    end: usize,
}

#[pymethods]
impl Label {
    fn __repr__(&self) -> String {
        format!("Label({:?}, line={}, column={})", self.text, self.line, self.column)
    }
}

/// An error or warning: a stable code, a message, help, and labels on the text.
#[pyclass(frozen, get_all, name = "Diagnostic", module = "mettle")]
pub struct Diag {
    /// `"error"` or `"warning"`.
    severity: &'static str,
    code: String,
    message: String,
    help: Option<String>,
    /// The file the labels point into (the ruleset, a script file), when there is one.
    file: Option<String>,
    line: Option<usize>,
    column: Option<usize>,
    labels: Vec<Py<Label>>,
}

#[pymethods]
impl Diag {
    fn __repr__(&self) -> String {
        format!("Diagnostic({:?}, {:?})", self.code, self.message)
    }

    fn __str__(&self) -> String {
        let at = match (&self.file, self.line, self.column) {
            (Some(f), Some(l), Some(c)) => format!("{f}:{l}:{c}: "),
            _ => String::new(),
        };
        let help = self.help.as_ref().map(|h| format!(" (help: {h})")).unwrap_or_default();
        format!("{at}{}[{}]: {}{help}", self.severity, self.code, self.message)
    }
}

fn diag(py: Python<'_>, e: ErrorInfo) -> PyResult<Py<Diag>> {
    let labels = e
        .labels
        .into_iter()
        .map(|l| {
            Py::new(
                py,
                Label {
                    text: l.text,
                    primary: l.primary,
                    line: l.at.line,
                    column: l.at.column_utf8,
                    column_utf16: l.at.column_utf16,
                    start: l.span.start,
                    end: l.span.end,
                },
            )
        })
        .collect::<PyResult<_>>()?;
    Py::new(
        py,
        Diag {
            severity: match e.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            },
            code: e.code,
            message: e.message,
            help: e.help,
            file: e.file,
            line: e.line,
            column: e.column_utf8,
            labels,
        },
    )
}

/// The diagnostics as Python objects, with lines and columns in `text` (the file `name`).
pub fn diags(py: Python<'_>, ds: &[Diagnostic], name: &str, text: &str) -> PyResult<Vec<Py<Diag>>> {
    ds.iter().map(|d| diag(py, error_info(d, name, text))).collect()
}

/// The report a person reads: each diagnostic with the lines it points at.
pub fn rendered(ds: &[Diagnostic], name: &str, text: &str) -> String {
    let opts = mettle::diagnostics::RenderOptions::default().with_color(false).with_width(100);
    mettle::diagnostics::render(ds, name, text, &opts)
}

/// An exception of type `E` for `ds`: its text the rendered report, with `.code` (the first error's),
/// `.message`, `.help` and `.diagnostics`.
fn raise<E: pyo3::PyTypeInfo>(py: Python<'_>, ds: &[Diagnostic], name: &str, text: &str) -> PyErr {
    let report = rendered(ds, name, text);
    let err = PyErr::new::<E, _>(report.trim_end().to_string());
    let first = ds.iter().find(|d| d.is_error()).or(ds.first());
    let set = || -> PyResult<()> {
        let v = err.value(py);
        v.setattr("code", first.map(|d| d.code.clone()))?;
        v.setattr("message", first.map(|d| d.message.clone()))?;
        v.setattr("help", first.and_then(|d| d.help.clone()))?;
        v.setattr("diagnostics", PyList::new(py, diags(py, ds, name, text)?)?)?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// A runtime failure: a [`MettleError`] located in the ruleset's text.
pub fn run_error(py: Python<'_>, d: &Diagnostic, name: &str, text: &str) -> PyErr {
    raise::<MettleError>(py, std::slice::from_ref(d), name, text)
}

/// A failure with several diagnostics (a dice expression that does not compile, a format).
pub fn run_errors(py: Python<'_>, ds: &[Diagnostic], name: &str, text: &str) -> PyErr {
    raise::<MettleError>(py, ds, name, text)
}

/// A ruleset that does not load.
pub fn load_error(py: Python<'_>, e: &mettle::LoadError) -> PyErr {
    raise::<RulesetError>(py, &e.diagnostics, &e.name, &e.text)
}

/// A failure of the binding itself, with a code of its own (`mettle::py::…`).
pub fn plain(py: Python<'_>, code: &str, message: impl Into<String>) -> PyErr {
    raise::<MettleError>(py, &[Diagnostic::plain(code, message)], "", "")
}
