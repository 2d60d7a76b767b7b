//! Budgets: every limit that keeps a hostile ruleset, script, save or typed line from running forever,
//! filling memory or reading what it was not given. Each has a documented default and a coded error.

use crate::diagnostics::Diagnostic;
use std::io::Read;
use std::path::Path;

/// Limits on what mettle reads and on what one action may do. Each default is far above what any
/// shipped ruleset needs (see `docs/security.md`); raise them through [`crate::LoadOptions`] or the
/// command line's `--budget NAME=VALUE`.
///
/// ```
/// let b = mettle::Budget::default();
/// assert_eq!(b.ruleset_bytes, 8 * 1024 * 1024);
/// assert_eq!(b.steps, 10_000_000);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Budget {
    /// Largest ruleset file, in bytes. Default 8 MiB.
    pub ruleset_bytes: u64,
    /// Largest script file (`script "file.rhai"`), in bytes. Default 1 MiB.
    pub script_bytes: u64,
    /// Largest saved session (`Session::load`, `:restore`), in bytes. Default 64 MiB.
    pub save_bytes: u64,
    /// Longest line typed or piped into the REPL, in bytes. Default 64 KiB.
    pub line_bytes: u64,
    /// Most steps one top-level action (an event, a roll, a scenario, a REPL line) may take: statements,
    /// triggers, rerolls, explosions and loop turns. Default 10,000,000.
    pub steps: u64,
    /// Most steps one whole piece of work may take in all, over every action in it: a simulation's
    /// runs together (each run counts at least one), `mettle test` over all its scenarios, one
    /// request to `mettle serve`. Default 1,000,000,000 (about a minute of a heavy scenario).
    pub total_steps: u64,
    /// Most log entries one top-level action may add. Default 1,000,000.
    pub log_entries: u64,
    /// Most script operations one top-level action may spend across all its script calls. Default
    /// 10,000,000.
    pub script_operations: u64,
    /// Most work one exact answer may take, in units of about one word-sized operation on a weight
    /// (a step of a rule counts 50, a script operation 100): the odds of a check or a dice expression,
    /// every row of a sweep together, a scenario's walk, or the `mettle check` lint over every check
    /// and combination of inputs. An estimate from samples falls back on the same amount again.
    /// Default 600,000,000 (about a second on a small machine).
    pub odds_work: u64,
    /// Most game states exact odds of a whole scenario follow by merging equal ones (counted at
    /// every place where paths merge, over the whole scenario), before they fall back to an
    /// estimate that says how many were reached. Default 1,000,000.
    pub odds_states: u64,
    /// Most values (numbers, texts, list items, records…) in one piece of data a host passes with an
    /// event, a check's input or an entity. Default 100,000.
    pub data_values: u64,
    /// Most steps the REPL's `:undo` and `mettle serve`'s `undo` keep to take back; older ones are
    /// forgotten. A kept step costs what it changed (the entities it touched, a definition's
    /// ruleset), not a copy of the game. Default 100.
    pub undo_steps: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            ruleset_bytes: 8 * 1024 * 1024,
            script_bytes: 1024 * 1024,
            save_bytes: 64 * 1024 * 1024,
            line_bytes: 64 * 1024,
            steps: 10_000_000,
            total_steps: 1_000_000_000,
            log_entries: 1_000_000,
            script_operations: 10_000_000,
            odds_work: 600_000_000,
            odds_states: crate::odds::MAX_STATES,
            data_values: 100_000,
            undo_steps: 100,
        }
    }
}

impl Budget {
    /// The names `--budget NAME=VALUE` accepts, in the order of the fields.
    pub const NAMES: [&'static str; 12] = [
        "ruleset_bytes",
        "script_bytes",
        "save_bytes",
        "line_bytes",
        "steps",
        "total_steps",
        "log_entries",
        "script_operations",
        "odds_work",
        "odds_states",
        "data_values",
        "undo_steps",
    ];

    /// Sets the limit called `name` to `value` (zero is read as one: a limit is never off).
    ///
    /// ```
    /// let mut b = mettle::Budget::default();
    /// b.set("steps", 10).unwrap();
    /// assert_eq!(b.steps, 10);
    /// assert_eq!(b.set("stpes", 1).unwrap_err().help.as_deref(), Some("did you mean `steps`?"));
    /// ```
    pub fn set(&mut self, name: &str, value: u64) -> Result<(), Diagnostic> {
        let v = value.max(1);
        let slot = match name {
            "ruleset_bytes" => &mut self.ruleset_bytes,
            "script_bytes" => &mut self.script_bytes,
            "save_bytes" => &mut self.save_bytes,
            "line_bytes" => &mut self.line_bytes,
            "steps" => &mut self.steps,
            "total_steps" => &mut self.total_steps,
            "log_entries" => &mut self.log_entries,
            "script_operations" => &mut self.script_operations,
            "odds_work" => &mut self.odds_work,
            "odds_states" => &mut self.odds_states,
            "data_values" => &mut self.data_values,
            "undo_steps" => &mut self.undo_steps,
            _ => {
                return Err(Diagnostic::plain(
                    "budget::unknown",
                    format!("there is no budget called `{name}`"),
                )
                .with_help(crate::diagnostics::suggest(name, "budget", &Budget::NAMES)));
            }
        };
        *slot = v;
        Ok(())
    }
}

thread_local! {
    static SPENT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Steps every action run on this thread has taken so far, added up (it only grows, wrapping past
/// 2^64). What one piece of work took is the difference of two readings around it: how `mettle test`
/// and a simulation hold their work to [`Budget::total_steps`].
///
/// ```
/// let rules = mettle::Ruleset::from_str("s.mettle", r#"
///     kind unit { tally: 0.. = 0 }
///     scenario s { new unit w  repeat { add 1 to w.tally } until w.tally >= 100 }
/// "#).unwrap();
/// let before = mettle::budget::steps_spent();
/// mettle::Session::new(&rules, 1).run_scenario("s").unwrap();
/// assert!(mettle::budget::steps_spent() - before >= 100);
/// ```
pub fn steps_spent() -> u64 {
    SPENT.with(std::cell::Cell::get)
}

/// Adds what an action took to [`steps_spent`].
pub(crate) fn spend(steps: u64) {
    SPENT.with(|s| s.set(s.get().wrapping_add(steps)));
}

/// The error of a whole piece of work (`what`: "the simulation", "the tests") that took `spent`
/// steps, more than its budget of `limit` in all.
///
/// ```
/// let d = mettle::budget::over_total_steps("the tests", 12, 10, "3 of 8 scenarios played");
/// assert_eq!(d.code, "mettle::budget::total_steps");
/// ```
pub fn over_total_steps(what: &str, spent: u64, limit: u64, done: &str) -> Diagnostic {
    Diagnostic::plain(
        crate::diagnostics::Code::TotalSteps.path(),
        format!("{what} took {spent} steps in all, over the budget of {limit} ({done}); it was stopped there"),
    )
    .with_help(
        "ask for less work at once (fewer runs or files), or raise the budget: `--budget total_steps=N` on the \
         command line, `Budget::total_steps` in `LoadOptions` (see docs/security.md)",
    )
}

/// Reads the regular file at `path` as UTF-8 text, refusing anything over `cap` bytes without reading
/// past it, and anything that is not a regular file (a folder, a pipe, a device such as `/dev/zero`).
/// `what` names the file in messages ("ruleset", "script file", "saved session"). Errors carry no span:
/// the caller adds one where there is a rule to point at.
///
/// ```
/// let e = mettle::budget::read_capped("/dev/zero".as_ref(), 1024, "ruleset").unwrap_err();
/// assert_eq!(e.code, "mettle::io::not_a_file");
/// ```
pub fn read_capped(path: &Path, cap: u64, what: &str) -> Result<String, Diagnostic> {
    let shown = path.display();
    let io = |e: std::io::Error| {
        Diagnostic::plain("io::read", format!("cannot read the {what} `{shown}`: {e}"))
            .with_help("check the path and that the file is readable")
    };
    let not_a_file = || {
        Diagnostic::plain("io::not_a_file", format!("the {what} `{shown}` is not a regular file"))
            .with_help("give the path of a file (not a folder, pipe or device)")
    };
    // Look before opening: opening a pipe waits for a writer, which may never come.
    if !std::fs::metadata(path).map_err(io)?.is_file() {
        return Err(not_a_file());
    }
    let file = std::fs::File::open(path).map_err(io)?;
    // Ask the open file too: the path may have been swapped for something else meanwhile.
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(not_a_file());
    }
    if meta.len() > cap {
        return Err(too_large(what, &shown.to_string(), cap));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(cap + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > cap {
        return Err(too_large(what, &shown.to_string(), cap));
    }
    String::from_utf8(bytes).map_err(|e| {
        Diagnostic::plain(
            "io::not_utf8",
            format!(
                "the {what} `{shown}` is not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
        .with_help("save the file as UTF-8 text")
    })
}

fn too_large(what: &str, shown: &str, cap: u64) -> Diagnostic {
    Diagnostic::plain("io::too_large", format!("the {what} `{shown}` is larger than {cap} bytes"))
        .with_help("raise the limit if the file is meant to be this large (see docs/security.md)")
}
