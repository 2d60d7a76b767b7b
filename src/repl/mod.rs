//! The REPL: one session over a ruleset, driven a line at a time from a prompt or a pipe.
//!
//! [`Repl`] is the engine: it takes what was typed and returns what to print, so it works the same
//! behind a line editor, a pipe or a test. The `mettle` command puts it behind a line editor or
//! standard input; [`Names`] are what its completion offers.

mod commands;
mod help;
mod input;
mod names;
mod odds;
mod show;
mod transfer;
mod values;
mod workbench;

pub use names::Names;
pub use odds::LastOdds;

use crate::program::{Ty, Value};
use crate::{LoadError, Ruleset, Session, ast};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;

/// A value bound with `let` at the prompt, known to later lines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Let {
    name: String,
    ty: Ty,
    value: Value,
}

/// Everything `:undo` puts back: the ruleset (file and typed definitions), the session and the
/// prompt's `let` values. Every part is shared by the steps `:undo` keeps until one changes it:
/// copying a world copies pointers (and one per chunk of entities, see [`crate::session::Entities`]).
#[derive(Debug, Clone)]
struct World {
    /// The ruleset file loaded, if any.
    file: Option<PathBuf>,
    /// Its text as read.
    file_text: Arc<str>,
    /// Definitions typed at the prompt, in order; the ruleset is the file's text followed by these.
    items: Arc<Vec<Arc<str>>>,
    rules: Ruleset,
    ast: Arc<ast::File>,
    session: Session,
    lets: Arc<Vec<Let>>,
}

impl World {
    /// Compiles the file's text followed by the typed definitions, parsing it once for both the
    /// ruleset and the syntax tree the prompt's lines are checked against.
    fn compile(
        file: Option<&PathBuf>,
        file_text: &str,
        items: &[Arc<str>],
        budget: &crate::Budget,
        options: &[(String, String)],
    ) -> Result<(Ruleset, ast::File), LoadError> {
        let mut text =
            String::with_capacity(file_text.len() + items.iter().map(|i| i.len() + 1).sum::<usize>());
        text.push_str(file_text);
        for i in items {
            text.push('\n');
            text.push_str(i);
        }
        let name = file.map_or_else(|| "prompt".to_string(), |f| f.display().to_string());
        // Script files are read from the ruleset's folder, as when the file is loaded on its own.
        let opts = crate::LoadOptions {
            base: file.and_then(|f| f.parent()).map(|p| p.to_path_buf()),
            budget: budget.clone(),
            options: options.to_vec(),
            ..Default::default()
        };
        if text.len() as u64 > budget.ruleset_bytes {
            // Refused before it is read: the same error as loading it.
            return Ruleset::load(&name, &text, &opts).map(|r| (r, ast::File::default()));
        }
        let text = crate::syntax::normalize(&text);
        let (ast, diags) = crate::syntax::parse(&text);
        let rules = Ruleset::load_parsed(&name, &text, &ast, diags, &opts)?;
        Ok((rules, ast))
    }
}

/// A step `:undo` can take back: the world before it and the input that made it.
#[derive(Debug)]
struct Step {
    before: World,
    input: String,
    /// `Some(n)`: the world was kept without its session's log, which was then the first `n` lines
    /// of the log that follows it; undoing cuts the log back to them. Steps that keep the session
    /// (a roll, an event, a statement, a definition) are kept this way, so a step costs the same
    /// however long the log has grown. `None`: the world was kept whole (`:load`, `:restore`).
    log_len: Option<usize>,
}

impl World {
    /// The world without its session's log, and the log's length: what a step that keeps the
    /// session needs for `:undo`.
    fn light(&self) -> (World, usize) {
        let w = World {
            file: self.file.clone(),
            file_text: self.file_text.clone(),
            items: self.items.clone(),
            rules: self.rules.clone(),
            ast: self.ast.clone(),
            session: self.session.without_log(),
            lets: self.lets.clone(),
        };
        (w, self.session.log().len())
    }
}

/// What to print after one input.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reply {
    /// Normal output.
    pub out: String,
    /// Diagnostics and other errors.
    pub err: String,
    /// The input asked to leave.
    pub quit: bool,
    /// `:plot FILE`: the front end draws [`Repl::last_odds`] as an SVG chart into this file (the
    /// library draws no charts).
    pub plot: Option<PathBuf>,
    /// The input failed (an error was reported).
    pub failed: bool,
}

impl Reply {
    fn say(&mut self, line: impl AsRef<str>) {
        self.out.push_str(line.as_ref());
        if !self.out.ends_with('\n') {
            self.out.push('\n');
        }
    }

    fn fail(&mut self, text: impl AsRef<str>) {
        self.err.push_str(text.as_ref());
        if !self.err.ends_with('\n') {
            self.err.push('\n');
        }
        self.failed = true;
    }
}

/// A REPL session: the loaded ruleset, the game on it, and the history `:undo` walks back through.
#[derive(Debug)]
pub struct Repl {
    world: World,
    /// Worlds before each step, with the input that made the step, oldest first: at most the
    /// budget's `undo_steps`.
    undo: VecDeque<Step>,
    /// Steps forgotten because the budget was spent: `:undo` past the oldest kept says so.
    forgotten: u64,
    /// The input being handled.
    current: String,
    /// The full explanation of the last input that rolled or fired anything.
    explained: Option<String>,
    /// Seed for sessions started by `:load`.
    seed: u64,
    color: bool,
    width: usize,
    /// Limits for every ruleset the REPL compiles.
    budget: crate::Budget,
    /// House-rule options chosen for every ruleset loaded (`--option`).
    options: Vec<(String, String)>,
    /// Stops the input being worked out (Ctrl-C); shared by every session the REPL plays.
    cancel: Arc<std::sync::atomic::AtomicBool>,
    /// The odds last shown, for `:plot`.
    last_odds: Option<LastOdds>,
    /// Told how many runs of `:sim` are done, and of how many.
    progress: Option<Progress>,
}

/// What a front end draws the progress of a long `:sim` with: runs done, runs asked for.
#[derive(Clone)]
pub struct Progress(pub Arc<dyn Fn(u64, u64) + Send + Sync>);

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress")
    }
}

impl Repl {
    /// A REPL with an empty ruleset, dice seeded from `seed`; diagnostics rendered `width` columns
    /// wide, in colour when `color` is set.
    ///
    /// ```
    /// let mut repl = mettle::internals::repl::Repl::new(1, false, 80);
    /// repl.handle("kind unit { spi: 0..6 = 3 }");
    /// repl.handle("new unit alpha with spi = 2");
    /// assert_eq!(repl.handle("alpha.spi + 1").out, "3\n");
    /// assert!(repl.handle("alpha.spy").failed);
    /// ```
    pub fn new(seed: u64, color: bool, width: usize) -> Repl {
        let (rules, ast) = match World::compile(None, "", &[], &crate::Budget::default(), &[]) {
            Ok(r) => r,
            Err(e) => unreachable!("an empty ruleset compiles: {e}"),
        };
        let session = Session::new(&rules, seed);
        let world = World {
            file: None,
            file_text: Arc::from(""),
            items: Arc::default(),
            rules,
            ast: Arc::new(ast),
            session,
            lets: Arc::default(),
        };
        Repl {
            world,
            undo: VecDeque::new(),
            forgotten: 0,
            current: String::new(),
            explained: None,
            seed,
            color,
            width,
            budget: crate::Budget::default(),
            options: vec![],
            cancel: Arc::default(),
            last_odds: None,
            progress: None,
        }
    }

    /// A REPL at the same point as this one, with nothing to undo and a cancel flag of its own: a
    /// fresh start from a loaded ruleset without loading it again (the fuzzer starts every run so).
    #[doc(hidden)]
    pub fn fork(&self) -> Repl {
        let cancel: Arc<std::sync::atomic::AtomicBool> = Arc::default();
        let mut world = self.world.clone();
        world.session.set_cancel_flag(cancel.clone());
        Repl {
            world,
            undo: VecDeque::new(),
            forgotten: 0,
            current: String::new(),
            explained: None,
            seed: self.seed,
            color: self.color,
            width: self.width,
            budget: self.budget.clone(),
            options: self.options.clone(),
            cancel,
            last_odds: None,
            progress: self.progress.clone(),
        }
    }

    /// The session being played.
    pub fn session(&self) -> &Session {
        &self.world.session
    }

    /// Sets the limits for the rulesets loaded from now on (and for reading lines).
    pub fn set_budget(&mut self, budget: crate::Budget) {
        self.budget = budget;
    }

    /// Chooses house-rule options for the rulesets loaded from now on, as `(name, value)`.
    pub fn set_options(&mut self, options: Vec<(String, String)>) {
        self.options = options;
    }

    /// The limits in force.
    pub fn budget(&self) -> &crate::Budget {
        &self.budget
    }

    /// The flag that stops the input being worked out: set it (from a Ctrl-C handler) and the running
    /// statement, roll, event or script stops with `mettle::run::cancelled`, the session as before.
    pub fn cancel_flag(&self) -> Arc<std::sync::atomic::AtomicBool> {
        self.cancel.clone()
    }

    /// The odds last shown (by `odds`, `:odds` or `:sim`), which `:plot FILE` asks the front end to
    /// draw.
    pub fn last_odds(&self) -> Option<&LastOdds> {
        self.last_odds.as_ref()
    }

    /// Has `:sim` tell `progress` how many runs are done, and of how many, as it plays them.
    pub fn set_progress(&mut self, progress: Progress) {
        self.progress = Some(progress);
    }

    /// Handles one input: a command (`:help`), definitions, statements or an expression.
    pub fn handle(&mut self, input: &str) -> Reply {
        // The session may have been replaced (`:load`, `:restore`, `:undo`): it answers to the same flag.
        self.world.session.set_cancel_flag(self.cancel.clone());
        // A Ctrl-C that came before this line (or stopped the last) does not stop it.
        self.cancel.store(false, std::sync::atomic::Ordering::Relaxed);
        let mut reply = Reply::default();
        let trimmed = input.trim();
        self.current = trimmed.lines().next().unwrap_or("").to_string();
        let first = trimmed.split_whitespace().next().unwrap_or("");
        if first == ":odds" || (first == "odds" && !self.names_odds()) {
            self.odds_line(input, &mut reply);
        } else if trimmed.starts_with(':') {
            self.command(trimmed, &mut reply);
        } else if !trimmed.is_empty() {
            self.input(input, &mut reply);
        }
        reply
    }

    /// Whether `odds` names something at the prompt (a unit or a `let` value), and so is not the
    /// odds question.
    fn names_odds(&self) -> bool {
        self.world.lets.iter().any(|l| l.name == "odds")
            || self.world.session.state().entities.iter().any(|(_, e)| e.name == "odds")
    }

    /// Remembers the world before a step that replaced the session (kept whole), for `:undo`.
    fn checkpoint(&mut self, before: World) {
        self.remember(Step { before, input: self.current.clone(), log_len: None });
    }

    /// Remembers the world before a step that kept the session, from [`World::light`].
    fn checkpoint_light(&mut self, (before, log_len): (World, usize)) {
        self.remember(Step { before, input: self.current.clone(), log_len: Some(log_len) });
    }

    fn remember(&mut self, step: Step) {
        self.undo.push_back(step);
        while self.undo.len() as u64 > self.budget.undo_steps.max(1) {
            self.undo.pop_front();
            self.forgotten += 1;
        }
    }

    /// Names for completion: commands, checks, events, kinds, entities, attributes, states, lets.
    pub fn names(&self) -> Names {
        Names::of(&self.world.rules, &self.world.session, self.world.lets.iter().map(|l| l.name.as_str()))
    }
}
