//! Loading a ruleset: text to syntax tree to checked, compiled program, kept with its source so that
//! diagnostics and explanations can point into it.

use crate::Budget;
use crate::ast::ItemKind;
use crate::diagnostics::{Diagnostic, RenderOptions, render};
use crate::program::Program;
use crate::script::{EngineHook, ScriptLimits, Scripts};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How to load a ruleset: where its script files are, and the limits its scripts run under.
#[derive(Clone, Default)]
pub struct LoadOptions {
    /// The folder `script "file.rhai"` is read from; the current folder when `None`.
    pub base: Option<PathBuf>,
    /// Script files given in memory, by the name the ruleset writes (`"reactions.rhai"`), for hosts with
    /// no file system (a browser, a bot holding its rulesets in a database). When set, `script "NAME"`
    /// is looked up here only and no file is read; each text is held to the budget's `script_bytes`.
    pub scripts: Option<std::collections::BTreeMap<String, String>>,
    /// Limits on every script call.
    pub limits: ScriptLimits,
    /// Adds host functions to the script engine (line of sight, distances…) before scripts compile.
    pub hook: Option<EngineHook>,
    /// Limits on reading files and on what one action may do; sessions over this ruleset keep them.
    pub budget: Budget,
    /// House-rule options chosen, as `(name, value)` written as on the command line
    /// (`("leadership_die", "extra_d6")`): every session over this ruleset starts with them.
    pub options: Vec<(String, String)>,
}

/// Reads `text` as a value of option `name` of `p`.
fn option_value(p: &Program, name: &str, text: &str) -> Result<crate::Value, Diagnostic> {
    use crate::Value;
    use crate::program::Ty;
    let known: Vec<&str> = p.options.iter().map(|o| o.name.as_str()).collect();
    let Some(o) = p.options.iter().find(|o| o.name == name) else {
        let help = if known.is_empty() {
            "this ruleset has no options; a ruleset declares them with `option NAME: a | b = a`".to_string()
        } else {
            crate::diagnostics::suggest(name, "option", &known)
        };
        return Err(Diagnostic::plain("option::unknown", format!("there is no option called `{name}`"))
            .with_help(help));
    };
    let text = text.trim();
    let bad = |readings: String| {
        Diagnostic::plain("option::bad_value", format!("option `{name}` cannot be `{text}`"))
            .with_help(format!("it is one of: {readings}"))
    };
    match &o.ty {
        Ty::Flag => match text {
            "yes" => Ok(Value::Bool(true)),
            "no" => Ok(Value::Bool(false)),
            _ => Err(bad("yes, no".into())),
        },
        Ty::Name(set) => {
            let names = &p.sets[*set as usize].names;
            match names.iter().position(|n| n == text) {
                Some(i) => Ok(Value::Name { set: *set, index: i as u32 }),
                None => {
                    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
                    Err(Diagnostic::plain("option::bad_value", format!("option `{name}` cannot be `{text}`"))
                        .with_help(crate::diagnostics::suggest(text, "reading", &refs)))
                }
            }
        }
        Ty::Int { lo, hi } => {
            let range = match (lo, hi) {
                (None, None) => "a whole number".to_string(),
                _ => format!("a whole number {}", crate::check::range_words(*lo, *hi)),
            };
            match text.parse::<i64>() {
                Ok(v) if lo.is_none_or(|l| v >= l) && hi.is_none_or(|h| v <= h) => Ok(Value::Int(v)),
                _ => Err(bad(range)),
            }
        }
        _ => Err(bad("nothing a command line can give".into())),
    }
}

impl std::fmt::Debug for LoadOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoadOptions")
            .field("base", &self.base)
            .field("scripts", &self.scripts.as_ref().map(|m| m.keys().collect::<Vec<_>>()))
            .field("limits", &self.limits)
            .field("hook", &self.hook.is_some())
            .field("budget", &self.budget)
            .field("options", &self.options)
            .finish()
    }
}

/// A loaded, compiled ruleset. Cheap to clone (one shared count, so that sessions on many threads
/// at once contend as little as possible) and shareable across threads.
#[derive(Debug, Clone)]
pub struct Ruleset(Arc<Loaded>);

#[derive(Debug)]
struct Loaded {
    program: Program,
    /// Its conditions compiled, once (shared by the copies `with_budget` makes).
    lowered: Arc<crate::session::Lowered>,
    name: String,
    text: String,
    warnings: Vec<Diagnostic>,
    budget: Budget,
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
        render(&self.diagnostics, &self.name, &self.text, &RenderOptions::default().with_width(width))
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
    /// assert_eq!(r.kind_name(0), Some("unit"));
    /// let e = mettle::Ruleset::from_str("x.mettle", "kind unit { spi: 0..6 = 9 }").unwrap_err();
    /// assert_eq!(e.diagnostics[0].code, "mettle::resolve::out_of_range");
    /// ```
    #[allow(clippy::should_implement_trait, reason = "it needs a name and returns every diagnostic")]
    pub fn from_str(name: &str, text: &str) -> Result<Ruleset, LoadError> {
        Ruleset::load(name, text, &LoadOptions::default())
    }

    /// Like [`Ruleset::from_str`], with options for scripts.
    ///
    /// ```
    /// use mettle::{LoadOptions, Ruleset, ScriptLimits};
    /// let text = "script { fn tn(n) { 6 + n * (n + 1) / 2 } }\ndefine stress_tn(n: 0..) = tn(n)";
    /// let opts = LoadOptions { limits: ScriptLimits { operations: 10_000, ..Default::default() }, ..Default::default() };
    /// let r = Ruleset::load("s.mettle", text, &opts).unwrap();
    /// assert_eq!(r.name(), "s.mettle");
    /// ```
    pub fn load(name: &str, text: &str, opts: &LoadOptions) -> Result<Ruleset, LoadError> {
        if text.len() as u64 > opts.budget.ruleset_bytes {
            let d = Diagnostic::plain(
                "io::too_large",
                format!("the ruleset `{name}` is larger than {} bytes", opts.budget.ruleset_bytes),
            )
            .with_help("raise the limit if the ruleset is meant to be this large (see docs/security.md)");
            return Err(LoadError { name: name.to_string(), text: String::new(), diagnostics: vec![d] });
        }
        // A byte order mark or old Mac line endings read as plain text, every span unchanged.
        let text = &*crate::syntax::normalize(text);
        let (file, diags) = crate::syntax::parse(text);
        Ruleset::load_parsed(name, text, &file, diags, opts)
    }

    /// Like [`Ruleset::load`], for a text already parsed: `file` and `diags` are what
    /// [`crate::syntax::parse`] gave for `text`, which must be normalized
    /// ([`crate::syntax::normalize`]). For hosts that keep the syntax tree too (the language
    /// server), so that a text is parsed once.
    pub(crate) fn load_parsed(
        name: &str,
        text: &str,
        file: &crate::ast::File,
        mut diags: Vec<Diagnostic>,
        opts: &LoadOptions,
    ) -> Result<Ruleset, LoadError> {
        let fail = |diagnostics| LoadError { name: name.to_string(), text: text.to_string(), diagnostics };
        if text.len() as u64 > opts.budget.ruleset_bytes {
            return Ruleset::load(name, text, opts);
        }
        if diags.iter().any(|d| d.is_error()) {
            return Err(fail(diags));
        }
        let defs: Vec<_> = file
            .items
            .iter()
            .filter_map(|i| match &i.kind {
                ItemKind::Script(s) => Some(s),
                _ => None,
            })
            .collect();
        let scripts = if defs.is_empty() {
            None
        } else {
            let (scripts, more) = Scripts::compile(
                &defs,
                text,
                super::script::Files { base: opts.base.as_deref(), given: opts.scripts.as_ref() },
                &opts.limits,
                opts.budget.script_bytes,
                opts.hook.as_ref(),
            );
            diags.extend(more);
            match scripts {
                Some(s) => Some(Arc::new(s)),
                None => {
                    diags.sort_by_key(|d| d.span().start);
                    return Err(fail(diags));
                }
            }
        };
        let (program, more) = crate::check::check(file, text, scripts.clone());
        diags.extend(more);
        match program {
            Some(mut program) => {
                for (option, value) in &opts.options {
                    let v = option_value(&program, option, value).map_err(|d| fail(vec![d]))?;
                    let i = program.options.iter().position(|o| o.name == *option).unwrap_or_default();
                    program.options[i].default = Some(v);
                }
                let pending = diags.iter().any(|d| d.is(crate::diagnostics::Code::MissingOtherwise));
                let mut rules = Ruleset(Arc::new(Loaded {
                    lowered: Arc::new(crate::session::lower(&program, scripts)),
                    program,
                    name: name.into(),
                    text: text.into(),
                    warnings: diags,
                    budget: opts.budget.clone(),
                }));
                if pending {
                    // Checks without `otherwise`: kept only where their outcomes cover every roll.
                    let settled = crate::odds::settle_missing_otherwise(&rules, rules.warnings().to_vec());
                    if settled.iter().any(|d| d.is_error()) {
                        return Err(fail(settled));
                    }
                    // The sessions of the analysis are gone, so nothing else holds the ruleset.
                    if let Some(loaded) = Arc::get_mut(&mut rules.0) {
                        loaded.warnings = settled;
                    }
                }
                Ok(rules)
            }
            None => Err(fail(diags)),
        }
    }

    /// The value of option `name` written as `text` (`extra_d6`, `yes`, `3`), checked against the
    /// option's readings.
    ///
    /// ```
    /// let r = mettle::Ruleset::from_str("o.mettle", "option die: extra | flat = flat").unwrap();
    /// assert!(r.option_value("die", "extra").is_ok());
    /// assert_eq!(r.option_value("die", "extar").unwrap_err().help.as_deref(), Some("did you mean `extra`?"));
    /// assert_eq!(r.option_value("dei", "extra").unwrap_err().code, "mettle::option::unknown");
    /// ```
    pub fn option_value(&self, name: &str, text: &str) -> Result<crate::Value, Diagnostic> {
        option_value(self.program(), name, text)
    }

    /// Reads and loads the ruleset at `path`.
    pub fn from_path(path: impl AsRef<Path>) -> Result<Ruleset, LoadError> {
        let path = path.as_ref();
        let opts = LoadOptions { base: path.parent().map(Path::to_path_buf), ..LoadOptions::default() };
        Ruleset::from_path_with(path, &opts)
    }

    /// Reads and loads the ruleset at `path` with `opts`; scripts are read from `opts.base`.
    pub fn from_path_with(path: impl AsRef<Path>, opts: &LoadOptions) -> Result<Ruleset, LoadError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        match crate::budget::read_capped(path, opts.budget.ruleset_bytes, "ruleset") {
            Ok(text) => Ruleset::load(&name, &text, opts),
            Err(d) => Err(LoadError { name, text: String::new(), diagnostics: vec![d] }),
        }
    }

    /// The compiled program.
    pub(crate) fn program(&self) -> &Program {
        &self.0.program
    }

    /// The compiled forms of its program's conditions, and its compiled scripts.
    pub(crate) fn lowered(&self) -> &crate::session::Lowered {
        &self.0.lowered
    }

    /// Its compiled scripts, if it has any (kept beside the program, which is plain data).
    pub(crate) fn scripts(&self) -> Option<&Arc<crate::script::Scripts>> {
        self.0.lowered.scripts()
    }

    /// The file name given when loading.
    pub fn name(&self) -> &str {
        &self.0.name
    }

    /// The source text.
    pub fn text(&self) -> &str {
        &self.0.text
    }

    /// The limits this ruleset was loaded with, which its sessions keep.
    pub fn budget(&self) -> &Budget {
        &self.0.budget
    }

    /// The same ruleset under other limits (for sessions made from it from now on).
    ///
    /// ```
    /// let r = mettle::Ruleset::from_str("b.mettle", "kind unit { hp: 0..9 = 1 }").unwrap();
    /// let mut b = r.budget().clone();
    /// b.set("steps", 500).unwrap();
    /// assert_eq!(r.with_budget(b).budget().steps, 500);
    /// assert_eq!(r.budget().steps, 10_000_000);
    /// ```
    pub fn with_budget(&self, budget: Budget) -> Ruleset {
        Ruleset(Arc::new(Loaded {
            program: self.0.program.clone(),
            lowered: self.0.lowered.clone(),
            name: self.0.name.clone(),
            text: self.0.text.clone(),
            warnings: self.0.warnings.clone(),
            budget,
        }))
    }

    /// This ruleset with `program` checked from `text` in its place (the same rules, a scenario
    /// asked about otherwise: `odds::with_report`), keeping its name, budget and the readings of its
    /// house rules it was loaded with.
    pub(crate) fn with_program(&self, mut program: Program, text: String) -> Ruleset {
        for o in &mut program.options {
            if let Some(old) = self.0.program.options.iter().find(|p| p.name == o.name) {
                o.default = old.default.clone();
            }
        }
        Ruleset(Arc::new(Loaded {
            lowered: Arc::new(crate::session::lower(&program, self.scripts().cloned())),
            program,
            name: self.0.name.clone(),
            text,
            warnings: self.0.warnings.clone(),
            budget: self.0.budget.clone(),
        }))
    }

    /// Warnings found while checking.
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.0.warnings
    }

    /// The names of the ruleset's scenarios, in the order the file gives them.
    ///
    /// ```
    /// let text = "event tick\nscenario quiet { trigger tick }\nscenario busy { trigger tick }";
    /// let r = mettle::Ruleset::from_str("s.mettle", text).unwrap();
    /// assert_eq!(r.scenarios().collect::<Vec<_>>(), ["quiet", "busy"]);
    /// ```
    pub fn scenarios(&self) -> impl Iterator<Item = &str> {
        self.0.program.scenarios.iter().map(|s| s.name.as_str())
    }

    /// The kind that makes `check` (its `for KIND`), or `None` for a check no one makes or a name that
    /// is not a check. A host reads the stand-in's attributes (`with`) by this kind's fields.
    ///
    /// ```
    /// let text = "kind unit { spi: 0..6 = 3 }
    /// check morale for unit { roll 1d6  outcome steady when total >= 4  otherwise shaken }
    /// check luck { roll 1d6  outcome lucky when total == 6  otherwise plain }";
    /// let r = mettle::Ruleset::from_str("m.mettle", text).unwrap();
    /// assert_eq!(r.maker("morale"), Some("unit"));
    /// assert_eq!((r.maker("luck"), r.maker("nothing")), (None, None));
    /// ```
    pub fn maker(&self, check: &str) -> Option<&str> {
        let p = &self.0.program;
        let c = p.checks.iter().find(|c| c.name == check)?;
        c.subject.map(|k| p.kinds[k as usize].name.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `rules` with its program replaced by `program`, lowered again beside the same scripts.
    fn with_program(rules: &Ruleset, program: Program) -> Ruleset {
        let scripts = rules.scripts().cloned();
        Ruleset(Arc::new(Loaded {
            lowered: Arc::new(crate::session::lower(&program, scripts)),
            program,
            name: rules.0.name.clone(),
            text: rules.0.text.clone(),
            warnings: rules.0.warnings.clone(),
            budget: rules.0.budget.clone(),
        }))
    }

    /// The program is plain data: each shipped ruleset's survives a trip through JSON unchanged, and
    /// the copy plays every scenario as the original does (the same logs, seed for seed).
    #[test]
    fn a_program_survives_a_serde_round_trip_and_plays_the_same() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
        let mut played = 0;
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let rules = Ruleset::from_path(e.path()).unwrap();
            let json = serde_json::to_string(rules.program()).unwrap();
            let program: Program = serde_json::from_str(&json).unwrap();
            assert_eq!(serde_json::to_string(&program).unwrap(), json, "{:?}", e.path());
            assert_eq!(format!("{program:?}"), format!("{:?}", rules.program()), "{:?}", e.path());
            let copy = with_program(&rules, program);
            for scenario in rules.scenarios() {
                for seed in [0, 7] {
                    let play = |r: &Ruleset| {
                        let mut s = crate::Session::new(r, seed);
                        s.set_logging(true);
                        let report = s.run_scenario(scenario).map(|r| (r.passed, r.failures.len()));
                        (format!("{report:?}"), format!("{:?}", s.log()))
                    };
                    assert_eq!(play(&copy), play(&rules), "{scenario} at seed {seed}");
                    played += 1;
                }
            }
        }
        assert!(played > 100, "{played} games");
    }
}
