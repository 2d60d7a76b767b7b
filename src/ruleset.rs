//! Loading a ruleset: text to syntax tree to checked, compiled program, kept with its source so that
//! diagnostics and explanations can point into it.

use crate::diagnostics::{Diagnostic, render_plain};
use crate::program::Program;
use std::path::Path;
use std::sync::Arc;

/// A loaded, compiled ruleset. Cheap to clone and shareable across threads.
#[derive(Debug, Clone)]
pub struct Ruleset {
    program: Arc<Program>,
    name: Arc<str>,
    text: Arc<str>,
    warnings: Arc<[Diagnostic]>,
}

/// Why a ruleset did not load: every error found (and the warnings), with the source to render them.
#[derive(Debug, Clone)]
pub struct LoadError {
    /// The file's name as given.
    pub name: String,
    /// Its text.
    pub text: String,
    /// Errors and warnings, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

impl LoadError {
    /// The diagnostics rendered without colour at `width` columns.
    pub fn render(&self, width: usize) -> String {
        render_plain(&self.diagnostics, &self.name, &self.text, width)
    }
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(100))
    }
}

impl std::error::Error for LoadError {}

impl Ruleset {
    /// Parses, checks and compiles ruleset `text`; `name` is used in messages.
    ///
    /// ```
    /// let r = mettle::Ruleset::from_str("x.mettle", "kind unit { spi: 0..6 = 3 }").unwrap();
    /// assert_eq!(r.program().kinds[0].name, "unit");
    /// let e = mettle::Ruleset::from_str("x.mettle", "kind unit { spi: 0..6 = 9 }").unwrap_err();
    /// assert_eq!(e.diagnostics[0].code, "mettle::resolve::out_of_range");
    /// ```
    #[allow(clippy::should_implement_trait, reason = "it needs a name and returns every diagnostic")]
    pub fn from_str(name: &str, text: &str) -> Result<Ruleset, LoadError> {
        let (file, mut diags) = crate::syntax::parse(text);
        let fail = |diagnostics| LoadError { name: name.to_string(), text: text.to_string(), diagnostics };
        if diags.iter().any(|d| d.is_error()) {
            return Err(fail(diags));
        }
        let (program, more) = crate::check::check(&file, text);
        diags.extend(more);
        match program {
            Some(program) => Ok(Ruleset {
                program: Arc::new(program),
                name: name.into(),
                text: text.into(),
                warnings: diags.into(),
            }),
            None => Err(fail(diags)),
        }
    }

    /// Reads and loads the ruleset at `path`.
    pub fn from_path(path: impl AsRef<Path>) -> Result<Ruleset, LoadError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        match std::fs::read_to_string(path) {
            Ok(text) => Ruleset::from_str(&name, &text),
            Err(e) => Err(LoadError {
                name: name.clone(),
                text: String::new(),
                diagnostics: vec![
                    Diagnostic::error(
                        "io::read",
                        format!("cannot read `{name}`: {e}"),
                        crate::ast::Span::default(),
                        "",
                    )
                    .with_help("check the path and that the file is readable"),
                ],
            }),
        }
    }

    /// The compiled program.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The file name given when loading.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The source text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Warnings found while checking.
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }
}
