//! The Rhai bridge. A ruleset's scripts are compiled once, when it loads, into one program run by a
//! sandboxed engine; mettle calls a script function only where a rule uses it, and maps every script
//! error back to a span in the ruleset or the script file.

mod actions;
mod errors;
pub(crate) use errors::type_words;
mod sandbox;
mod sources;

pub(crate) use actions::Action;
pub use actions::Order;
pub(crate) use actions::{HANDLE_KEY, Handle, Named, named};
pub use sandbox::{Clock, ScriptLimits};
pub(crate) use sandbox::{action_left, begin_action};

use crate::ast::{ScriptDef, Span};
use crate::diagnostics::{Diagnostic, SourceFile};
use rhai::{AST, CallFnOptions, Dynamic, Engine, Scope};
use sources::Sources;
use std::collections::{BTreeMap, HashMap};
use std::path::{Component, Path};
use std::sync::Arc;

/// A function a script defines.
#[derive(Debug, Clone)]
pub struct ScriptFn {
    /// Its name.
    pub name: String,
    /// Its parameters' names.
    pub params: Vec<String>,
    /// Its name where it is defined (in the ruleset, or in `file`).
    pub span: Span,
    /// The script file it is in, if not the ruleset.
    pub file: Option<String>,
}

/// A host hook that adds functions to the engine before scripts are compiled
/// ([`crate::LoadOptions::hook`]); see [`host`].
pub type EngineHook = Arc<dyn Fn(&mut Engine) + Send + Sync>;

/// The one door to the Rhai engine that runs a ruleset's scripts, for hosts that give scripts
/// functions of their own (line of sight, distances on the host's table). A hook in
/// [`crate::LoadOptions::hook`] gets the engine before the scripts compile and registers functions
/// on it with the types here; nothing else of Rhai is part of mettle's API, and the engine stays
/// sandboxed (limits, no modules, no `eval`). A registered function that panics stops its script with
/// `mettle::script::panicked`.
///
/// ```
/// use std::sync::Arc;
/// use mettle::script::{EngineHook, host::Engine};
/// use mettle::{LoadOptions, Ruleset, Session, Value};
///
/// let hook: EngineHook = Arc::new(|e: &mut Engine| {
///     // The host knows the table: here, everything further than 6 is out of sight.
///     e.register_fn("in_sight", |distance: i64| distance <= 6);
/// });
/// let opts = LoadOptions { hook: Some(hook), ..Default::default() };
/// let rules = Ruleset::load("h.mettle", r#"
///     kind unit { stance: calm | wary = calm }
///     event seen(unit: unit, distance: 0..99)
///     script { fn look(u, d) { if in_sight(d) { [set_to(u, "stance", "wary")] } else { [] } } }
///     on seen { follow look(unit, distance) }
/// "#, &opts).unwrap();
/// let mut s = Session::new(&rules, 1);
/// let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
/// s.apply("seen", &[("unit", u.clone()), ("distance", Value::Int(9))]).unwrap();
/// assert_eq!(s.show(s.get("u", "stance").unwrap()), "calm");
/// s.apply("seen", &[("unit", u), ("distance", Value::Int(4))]).unwrap();
/// assert_eq!(s.show(s.get("u", "stance").unwrap()), "wary");
/// ```
///
/// Rhai itself is not re-exported:
///
/// ```compile_fail
/// let engine = mettle::rhai::Engine::new_raw();
/// ```
pub mod host {
    pub use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString, Map, NativeCallContext};
}

/// The compiled scripts of a ruleset.
pub struct Scripts {
    engine: Engine,
    ast: AST,
    /// The functions defined, in the order written.
    pub functions: Vec<ScriptFn>,
    sources: Sources,
    limits: ScriptLimits,
}

impl std::fmt::Debug for Scripts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scripts").field("functions", &self.functions).field("limits", &self.limits).finish()
    }
}

/// What a call gave back.
#[derive(Debug)]
pub(crate) struct Called {
    /// The function's result.
    pub value: Dynamic,
    /// What the script printed (`print`, `debug`), for the log.
    pub printed: Vec<String>,
}

/// The span of `fn NAME` in `text`, searched from its definition keyword.
fn fn_span(text: &str, name: &str, within: Span) -> Span {
    let body = &text[within.start.min(text.len())..within.end.min(text.len())];
    let mut from = 0;
    while let Some(i) = body[from..].find("fn ") {
        let at = from + i + 3;
        let rest = body[at..].trim_start();
        let skip = body.len() - at - rest.len();
        if rest.starts_with(name) && rest[name.len()..].trim_start().starts_with('(') {
            let start = within.start + at + skip;
            return Span { start, end: start + name.len() };
        }
        from = at;
    }
    within
}

/// Whether a script path stays inside the ruleset's folder.
fn safe_path(path: &str) -> bool {
    let p = Path::new(path);
    !path.is_empty() && p.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// Where a ruleset's script files come from: the texts the host gave, when it gave any, or else files
/// in folder `base` (the current folder when `None`).
#[derive(Clone, Copy)]
pub(crate) struct Files<'a> {
    pub(crate) base: Option<&'a Path>,
    pub(crate) given: Option<&'a BTreeMap<String, String>>,
}

/// Compiling a ruleset's scripts one by one into one program, collecting every error.
struct Compiler<'a> {
    engine: &'a Engine,
    text: &'a str,
    files: Files<'a>,
    /// The largest script file that may be read.
    script_bytes: u64,
    sources: Sources,
    diags: Vec<Diagnostic>,
    ast: AST,
    functions: Vec<ScriptFn>,
    /// Functions defined so far, by name and number of parameters: where, and in which file.
    seen: HashMap<(String, usize), (Span, Option<String>)>,
}

impl Compiler<'_> {
    /// The text to compile for `def` (padded so that Rhai's lines are ours), and its file if it has one.
    fn source(&mut self, def: &ScriptDef) -> Option<(String, Option<Arc<SourceFile>>)> {
        let (code, span) = (&def.source.0, def.source.1);
        if !def.is_file {
            // Rhai numbers lines up to 65,535 and no further: a block that reaches past it could
            // not be pointed at (every error in it would be reported at line 65,535).
            let last = self.sources.line_of(span.end);
            if last >= usize::from(u16::MAX) {
                self.diags.push(
                    Diagnostic::error(
                        "script::too_long",
                        format!(
                            "this script block ends on line {last}, past the 65,534 lines the script engine can number"
                        ),
                        span,
                        "this block",
                    )
                    .with_help("move the script block nearer the top of the ruleset, or split the ruleset"),
                );
                return None;
            }
            return Some((self.sources.pad_inline(span.start, code), None));
        }
        if !safe_path(code) || !code.ends_with(".rhai") {
            self.diags.push(
                Diagnostic::error(
                    "script::bad_path",
                    format!("`{code}` is not a script file this ruleset may use"),
                    span,
                    "not allowed",
                )
                .with_help(
                    "name a `.rhai` file in the ruleset's folder or below it, such as `script \"reactions.rhai\"`",
                ),
            );
            return None;
        }
        let (name, read) = match self.files.given {
            Some(given) => (code.to_string(), self.given(code, given)),
            None => {
                let path = self.files.base.map_or_else(|| Path::new(code).to_path_buf(), |b| b.join(code));
                (path.display().to_string(), self.read(code, &path))
            }
        };
        let text = match read {
            Ok(t) => t,
            Err(mut d) => {
                d.labels
                    .insert(0, crate::diagnostics::Label { span, text: "this file".into(), primary: true });
                self.diags.push(d);
                return None;
            }
        };
        let file = Arc::new(SourceFile { name, text });
        let Some(padded) = self.sources.add_file(file.clone()) else {
            self.diags.push(Diagnostic::error(
                "script::too_long",
                "the ruleset and its scripts are too long for the script engine (65,535 lines)",
                span,
                "this file",
            ));
            return None;
        };
        Some((padded, Some(file)))
    }

    /// Reads script file `code` (at `path`): only a regular file whose real path, links followed, is in
    /// the ruleset's folder, and no larger than the budget. No message ever shows what a refused file
    /// holds.
    fn read(&self, code: &str, path: &Path) -> Result<String, Diagnostic> {
        let unreadable = |e: std::io::Error| {
            Diagnostic::plain("script::unreadable", format!("cannot read the script file `{code}`: {e}"))
                .with_help("check the name; script files are found next to the ruleset")
        };
        let folder = std::fs::canonicalize(self.files.base.unwrap_or(Path::new("."))).map_err(unreadable)?;
        let real = std::fs::canonicalize(path).map_err(unreadable)?;
        if !real.starts_with(&folder) {
            return Err(Diagnostic::plain(
                "script::outside_folder",
                format!("the script file `{code}` leads outside the ruleset's folder"),
            )
            .with_help(
                "a ruleset may only use script files in its own folder or below it; copy the script there \
                 (a link that points elsewhere is not followed)",
            ));
        }
        crate::budget::read_capped(&real, self.script_bytes, "script file").map_err(|mut d| {
            d.code = d.code.replace("mettle::io::", "mettle::script::");
            d
        })
    }

    /// Script file `code` from the texts the host gave, held to the same size budget as a file.
    fn given(&self, code: &str, given: &BTreeMap<String, String>) -> Result<String, Diagnostic> {
        let Some(text) = given.get(code) else {
            let known: Vec<&str> = given.keys().map(String::as_str).collect();
            let help = if known.is_empty() {
                format!("no script files were given with the ruleset; give `{code}` with it")
            } else {
                crate::diagnostics::suggest(code, "script file", &known)
            };
            return Err(Diagnostic::plain(
                "script::unreadable",
                format!("the script file `{code}` was not given with the ruleset"),
            )
            .with_help(help));
        };
        if text.len() as u64 > self.script_bytes {
            return Err(Diagnostic::plain(
                "script::too_large",
                format!("the script file `{code}` is larger than {} bytes", self.script_bytes),
            )
            .with_help("raise the budget's `script_bytes` if the script is meant to be this large"));
        }
        Ok(text.clone())
    }

    /// Compiles one script and adds its functions.
    fn add(&mut self, def: &ScriptDef) {
        let span = def.source.1;
        let Some((padded, file)) = self.source(def) else { return };
        let compiled = match self.engine.compile(&padded) {
            Ok(a) => a,
            Err(e) => return self.diags.push(errors::syntax(&e, &self.sources, span)),
        };
        // The script's own statements, outside any function.
        let outside: &[_] = compiled.as_ref();
        if let Some(stmt) = outside.first() {
            let d = Diagnostic::error(
                "script::outside_function",
                "a script may only define functions",
                span,
                "",
            )
            .with_help(
                "put the code inside `fn name(…) { … }`; mettle calls functions where the rules use them",
            );
            let place = self.sources.place(stmt.position());
            return self.diags.push(errors::point(d, place, "this runs outside any function"));
        }
        // Rhai lists functions in no particular order: keep them in the order written.
        let text = file.as_ref().map_or(self.text, |f| f.text.as_str());
        let within = if file.is_some() { Span { start: 0, end: text.len() } } else { span };
        let mut defined: Vec<_> =
            compiled.iter_functions().map(|f| (fn_span(text, f.name, within), f)).collect();
        defined.sort_by_key(|(at, _)| at.start);
        for (at, f) in defined {
            let key = (f.name.to_string(), f.params.len());
            let in_file = file.as_ref().map(|f| f.name.clone());
            if let Some((first, first_file)) = self.seen.get(&key) {
                let mut d = Diagnostic::error(
                    "script::duplicate_function",
                    format!(
                        "script function `{}` with {} parameter{} is defined twice",
                        f.name,
                        f.params.len(),
                        if f.params.len() == 1 { "" } else { "s" }
                    ),
                    at,
                    "defined again here",
                )
                .with_help("give one of them another name");
                if *first_file == in_file {
                    d = d.with_label(*first, "first defined here");
                }
                if let Some(f) = &file {
                    d = d.in_file(f.clone());
                }
                self.diags.push(d);
                continue;
            }
            self.seen.insert(key, (at, in_file.clone()));
            self.functions.push(ScriptFn {
                name: f.name.to_string(),
                params: f.params.iter().map(|p| p.to_string()).collect(),
                span: at,
                file: in_file,
            });
        }
        // Combined in place: merging copied every function so far for each block (thousands of
        // blocks took minutes).
        self.ast.combine(compiled);
    }
}

impl Scripts {
    /// Compiles the scripts of a ruleset whose text is `text`; script files are read from `base`.
    pub(crate) fn compile(
        defs: &[&ScriptDef],
        text: &str,
        files: Files<'_>,
        limits: &ScriptLimits,
        script_bytes: u64,
        hook: Option<&EngineHook>,
    ) -> (Option<Scripts>, Vec<Diagnostic>) {
        let mut engine = sandbox::engine(limits);
        actions::register(&mut engine);
        if let Some(h) = hook {
            h(&mut engine);
        }
        // A ruleset named without a folder (`rules.mettle`) has the empty path as its folder: that is
        // the current folder, which `canonicalize` does not accept by that name.
        let files = Files { base: files.base.filter(|b| !b.as_os_str().is_empty()), ..files };
        let mut c = Compiler {
            engine: &engine,
            text,
            files,
            script_bytes,
            sources: Sources::new(text),
            diags: Vec::new(),
            ast: AST::empty(),
            functions: Vec::new(),
            seen: HashMap::new(),
        };
        for def in defs {
            c.add(def);
        }
        if c.diags.iter().any(Diagnostic::is_error) {
            return (None, c.diags);
        }
        let Compiler { ast, functions, sources, diags, .. } = c;
        (Some(Scripts { engine, ast, functions, sources, limits: limits.sane() }), diags)
    }

    /// Calls script function `f` with `args`; `call` is the rule that called it, for messages.
    pub(crate) fn call(&self, f: usize, args: Vec<Dynamic>, call: Span) -> Result<Called, Diagnostic> {
        let name = self.functions[f].name.as_str();
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        sandbox::start(self.limits.time, self.limits.clock);
        // A deep script on a small thread stack must not overflow it: make sure there is room.
        let result = stacker::maybe_grow(256 * 1024, 16 * 1024 * 1024, || {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                self.engine.call_fn_with_options::<Dynamic>(options, &mut Scope::new(), &self.ast, name, args)
            }))
        });
        let printed = sandbox::finish();
        match result {
            Ok(Ok(value)) => Ok(Called { value, printed }),
            Ok(Err(e)) => Err(errors::runtime(&e, name, call, &self.sources, &self.limits)),
            Err(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "no message".into());
                Err(errors::panicked(&message, name, call))
            }
        }
    }

    /// Reads the actions a reaction returned; a bad one is reported at the script line that made it.
    pub(crate) fn actions(&self, value: Dynamic, name: &str, call: Span) -> Result<Vec<Action>, Diagnostic> {
        actions::read(value).map_err(|actions::BadAction(message, at, help)| {
            let help = help.unwrap_or(
                "a reaction returns actions made by `set_to`, `add_to`, `remove_from`, `order`, \
                 `move_towards`, `move_away_from`, `flee` or `surrender`, or a list of them",
            );
            self.at(
                Diagnostic::error("script::bad_action", format!("`{name}`: {message}"), call, "called here")
                    .with_help(help),
                at,
                call,
            )
        })
    }

    /// Points `d` at script position `at` (keeping `call` as "called from here").
    pub(crate) fn at(&self, d: Diagnostic, at: rhai::Position, call: Span) -> Diagnostic {
        errors::locate(d, self.sources.place(at), Some(call), "asked for here")
    }

    /// Where script position `at` is, for the log: its span when it is in the ruleset, or the script
    /// file's name and line (`reactions.rhai line 12`) when it is in a file.
    pub(crate) fn origin(&self, at: rhai::Position) -> (Option<Span>, Option<String>) {
        match self.sources.place(at) {
            Some(sources::Place { file: None, span }) => (Some(span), None),
            Some(sources::Place { file: Some(f), span }) => {
                let line = f.text[..span.start.min(f.text.len())].matches('\n').count() + 1;
                let name = Path::new(&f.name)
                    .file_name()
                    .map_or(f.name.clone(), |n| n.to_string_lossy().into_owned());
                (None, Some(format!("{name} line {line}")))
            }
            None => (None, None),
        }
    }

    /// The script file called `name`, for diagnostics that point into it.
    pub fn file(&self, name: &str) -> Option<Arc<SourceFile>> {
        self.sources.files.iter().find(|f| f.file.name == name).map(|f| f.file.clone())
    }

    /// The text of each script file.
    pub(crate) fn file_texts(&self) -> impl Iterator<Item = &str> {
        self.sources.files.iter().map(|f| f.file.text.as_str())
    }

    /// The limits scripts run under.
    pub fn limits(&self) -> &ScriptLimits {
        &self.limits
    }
}
