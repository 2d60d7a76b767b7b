//! Command-line parsing (clap) and the commands: check, roll, play, test, export, card, repl, fmt, lsp.

/// `print!` for the command's output: control characters from the input are escaped, and a write
/// that fails (a full disk) ends the program with a message and exit status 1 instead of a panic.
macro_rules! out {
    ($($t:tt)*) => { $crate::cli::write_out(&format!($($t)*)) };
}

/// `println!` the same way as [`out!`].
macro_rules! outln {
    () => { $crate::cli::write_out("\n") };
    ($($t:tt)*) => { $crate::cli::write_out(&format!("{}\n", format_args!($($t)*))) };
}

mod card;
mod commands;
mod dice;
mod fmt;
pub(crate) mod json;
mod odds;
mod plot;
mod sim;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  mettle check rulesets/infinite_frontiers.mettle
  mettle roll rulesets/infinite_frontiers.mettle morale --set spi=3 --set leadership=1 --seed 7
  mettle roll rulesets/infinite_frontiers.mettle skill --set dice_pool=3 --with morale=shaken
  mettle play rulesets/combat_hq.mettle example_excess
  mettle test rulesets/
  mettle repl rulesets/infinite_frontiers.mettle";

/// mettle: write morale and battle-pressure rules, then roll them, test them and play them out.
#[derive(Parser, Debug)]
#[command(name = "mettle", version, about, after_help = EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Raise or lower a limit, as NAME=VALUE (repeatable): ruleset_bytes, script_bytes, save_bytes,
    /// line_bytes, steps, log_entries, script_operations, odds_work, odds_states, data_values, undo_steps. See
    /// docs/security.md.
    #[arg(long = "budget", value_name = "NAME=VALUE", global = true)]
    budget: Vec<String>,
    /// Choose a reading of a house rule the ruleset offers (`option NAME: a | b = a`), as NAME=VALUE
    /// (repeatable): every session the command plays starts with it.
    #[arg(long = "option", value_name = "NAME=VALUE", global = true)]
    option: Vec<String>,
}

/// The house-rule options chosen with `--option`, for every ruleset the command loads.
static OPTIONS: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();

/// The options chosen for this run of the command.
pub(crate) fn options() -> Vec<(String, String)> {
    OPTIONS.get().cloned().unwrap_or_default()
}

/// Reads `--option NAME=VALUE` values; whether the option exists is checked when a ruleset loads.
fn parse_options(given: &[String]) -> Result<Vec<(String, String)>, String> {
    given
        .iter()
        .map(|g| match g.split_once('=') {
            Some((n, v)) if !n.trim().is_empty() && !v.trim().is_empty() => {
                Ok((n.trim().to_string(), v.trim().to_string()))
            }
            _ => Err(format!("`--option {g}` needs NAME=VALUE, such as `--option leadership_die=extra_d6`")),
        })
        .collect()
}

/// The limits given with `--budget`, for every ruleset the command loads.
static BUDGET: std::sync::OnceLock<mettle::Budget> = std::sync::OnceLock::new();

/// `--force`, and the files this run reads, for every file it writes.
static WRITING: std::sync::OnceLock<(bool, Vec<PathBuf>)> = std::sync::OnceLock::new();

/// Writes `bytes` to `path` the one way mettle writes files (`mettle::internals::files`): never over
/// a file this run reads, nor over one of another kind without `--force`.
pub(crate) fn write_file(
    path: &std::path::Path,
    kind: mettle::internals::files::Kind,
    bytes: &[u8],
) -> Result<(), mettle::Diagnostic> {
    use mettle::internals::files::Target;
    let (force, inputs) = WRITING.get().map_or((false, &[][..]), |(f, i)| (*f, i.as_slice()));
    let inputs: Vec<&std::path::Path> = inputs.iter().map(PathBuf::as_path).collect();
    let target = Target { force, inputs: &inputs, save_cap: budget().save_bytes, ..Target::new(path, kind) };
    mettle::internals::files::write(&target, bytes)
}

/// Draws the REPL's last odds into `path` for `:plot` (see [`odds`]'s `repl_plot`).
pub(crate) fn repl_plot(
    odds: &mettle::internals::repl::LastOdds,
    path: &std::path::Path,
) -> Result<String, mettle::Diagnostic> {
    odds::repl_plot(odds, path)
}

/// Set by Ctrl-C while a long command (`sim`, `test`) runs: the work stops cleanly between runs, or
/// in the middle of a game, and the command says what was done. The handler is installed the first
/// time a command asks for the flag.
pub(crate) fn interrupted() -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    static FLAG: std::sync::OnceLock<std::sync::Arc<std::sync::atomic::AtomicBool>> =
        std::sync::OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let set = flag.clone();
        // Without a handler (one already set), Ctrl-C ends the process as before.
        let _ = ctrlc::set_handler(move || set.store(true, std::sync::atomic::Ordering::Relaxed));
        flag
    })
    .clone()
}

/// Exit status of a command stopped by Ctrl-C (128 + SIGINT, as shells report it).
pub(crate) const INTERRUPTED: u8 = 130;

/// The limits for this run of the command.
pub(crate) fn budget() -> mettle::Budget {
    BUDGET.get().cloned().unwrap_or_default()
}

/// How to load the ruleset at `path`: scripts from its folder, within this run's limits.
pub(crate) fn load_options(path: &std::path::Path) -> mettle::LoadOptions {
    mettle::LoadOptions {
        base: path.parent().map(std::path::Path::to_path_buf),
        budget: budget(),
        options: options(),
        ..Default::default()
    }
}

/// Reads `--budget NAME=VALUE` values; a mistake is a usage error (exit 2).
fn parse_budget(given: &[String]) -> Result<mettle::Budget, String> {
    let mut b = mettle::Budget::default();
    for g in given {
        let Some((name, value)) = g.split_once('=') else {
            return Err(format!("`--budget {g}` needs NAME=VALUE, such as `--budget steps=50000000`"));
        };
        let value: u64 = value
            .trim()
            .replace('_', "")
            .parse()
            .map_err(|_| format!("`--budget {g}`: `{value}` is not a whole number of 0 or more"))?;
        b.set(name.trim(), value).map_err(|d| format!("{} ({})", d.message, d.help.unwrap_or_default()))?;
    }
    Ok(b)
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check ruleset files and report every error and warning (exit 1 if any has errors).
    #[command(after_help = "Example:\n  mettle check rulesets/*.mettle")]
    Check {
        /// Ruleset files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print the diagnostics as JSON (one object per file) instead of rendering them.
        #[arg(long)]
        json: bool,
    },
    /// Print a ruleset's outline as JSON (kinds, events, checks, tables, results, scenarios, docs).
    #[command(after_help = "Example:\n  mettle export rulesets/infinite_frontiers.mettle > outline.json")]
    Export {
        /// The ruleset.
        file: PathBuf,
    },
    /// Make a printable quick-reference card of a ruleset: checks in words with their odds, states,
    /// tables and rules.
    #[command(
        after_help = "Examples:\n  mettle card rulesets/infinite_frontiers.mettle -o frontiers.html\n  mettle card rulesets/combat_hq.mettle --format md > combat_hq.md"
    )]
    Card {
        /// The ruleset.
        file: PathBuf,
        /// html (one page to print) or md (GitHub Markdown).
        #[arg(long, value_enum, default_value = "html")]
        format: card::Format,
        /// Write the card to this file instead of standard output (replaced whole, never half-written).
        #[arg(short = 'o', long = "output", value_name = "OUT")]
        output: Option<PathBuf>,
        /// Replace OUT even if it is not a card (it is never the ruleset, a link, a folder or a pipe).
        #[arg(long, requires = "output")]
        force: bool,
    },
    /// Roll one check once and explain the result.
    #[command(
        after_help = "Example:\n  mettle roll rulesets/dice_pool_morale.mettle morale --set base=3 --set bonus=2 --seed 1"
    )]
    Roll {
        /// The ruleset.
        #[arg(required_unless_present = "dice")]
        file: Option<PathBuf>,
        /// The check to roll.
        #[arg(required_unless_present = "dice")]
        check: Option<String>,
        /// Roll a bare dice expression instead of a check, such as `4d6kh3` or `2d6+3 >= 8`.
        #[arg(long, value_name = "EXPR", conflicts_with_all = ["file", "check", "with"])]
        dice: Option<String>,
        /// An input value, as name=value (repeatable).
        #[arg(long = "set", value_name = "NAME=VALUE")]
        set: Vec<String>,
        /// For a check made by someone (`check … for unit`): an attribute of the stand-in who rolls,
        /// as name=value (repeatable); the others keep their defaults.
        #[arg(long = "with", value_name = "NAME=VALUE")]
        with: Vec<String>,
        /// Seed for the dice.
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = seed)]
        seed: u64,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// The exact chance of every outcome of a check (and the distributions of its numbers), or of a
    /// bare dice expression.
    #[command(
        after_help = "Examples:\n  mettle odds rulesets/infinite_frontiers.mettle morale --set spi=2\n  mettle odds rulesets/infinite_frontiers.mettle morale --sweep spi=0..6 --sweep leadership=0..2\n  mettle odds rulesets/infinite_frontiers.mettle morale --set spi=2 --json\n  mettle odds rulesets/infinite_frontiers.mettle morale --sweep spi=0..6 --plot morale.svg\n  mettle odds rulesets/infinite_frontiers.mettle --scenario three_morale_checks\n  mettle odds rulesets/combat_hq.mettle --scenario morale_race --report 'winner, turn > 6'\n  mettle odds --dice '4d6kh3'\n  mettle odds --dice '2d6+3 >= 8'"
    )]
    Odds {
        /// The ruleset.
        #[arg(required_unless_present = "dice")]
        file: Option<PathBuf>,
        /// The check.
        #[arg(required_unless_present_any = ["dice", "scenario"])]
        check: Option<String>,
        /// The exact end states of a scenario instead, trying every roll it can meet.
        #[arg(long, value_name = "NAME", conflicts_with_all = ["check", "set", "with", "sweep", "dice"])]
        scenario: Option<String>,
        /// What each row of a scenario's odds shows, instead of its own `report` line: values read
        /// at its end, separated by commas (`--report "game, a.morale, turn"`); each different set
        /// of them is a row.
        #[arg(long, value_name = "EXPR,EXPR…", requires = "scenario", conflicts_with_all = ["check", "dice"])]
        report: Option<String>,
        /// An input value, as name=value (repeatable).
        #[arg(long = "set", value_name = "NAME=VALUE")]
        set: Vec<String>,
        /// For a check made by someone: an attribute of the stand-in who rolls, as name=value.
        #[arg(long = "with", value_name = "NAME=VALUE")]
        with: Vec<String>,
        /// An input, option or stand-in attribute to run through its values (repeatable: one row per
        /// combination): NAME=LO..HI for whole numbers, NAME alone for yes/no, names and options,
        /// KIND.ATTRIBUTE=LO..HI for the stand-in who makes the check (`unit.leadership=6..10`).
        #[arg(long = "sweep", value_name = "NAME[=LO..HI]")]
        sweep: Vec<String>,
        /// A house-rule option to run through every reading, side by side (repeatable); `--sweep
        /// NAME` with no range does the same.
        #[arg(long = "option-sweep", value_name = "NAME")]
        option_sweep: Vec<String>,
        /// Outcomes to add up under one name, as NAME=OUTCOME,OUTCOME… (repeatable), such as
        /// `--group pass=holds,inspired`: shown beside the outcomes, in sweeps too.
        #[arg(long = "group", value_name = "NAME=OUTCOMES")]
        group: Vec<String>,
        /// A bare dice expression instead of a check, such as `4d6kh3`, `2d6+3 >= 8` or `10d6cs<=3`.
        #[arg(long, value_name = "EXPR", conflicts_with_all = ["file", "check", "set", "with", "sweep"])]
        dice: Option<String>,
        /// Print the odds as JSON.
        #[arg(long)]
        json: bool,
        /// Also draw the odds as an SVG chart into this file: one check's outcomes and total (the
        /// target marked); a sweep over one input as lines of each outcome's chance; over two as a
        /// heat map of one outcome or group (`--plot-of`).
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<PathBuf>,
        /// The outcome or group a heat map shows (a sweep over two inputs; the first group, else
        /// the first outcome, when left out).
        #[arg(long = "plot-of", value_name = "NAME", requires = "plot")]
        plot_of: Option<String>,
        /// Replace the `--plot` file even if it is not an SVG chart (never the ruleset, a link, a
        /// folder or a pipe).
        #[arg(long, requires = "plot")]
        force: bool,
        /// Seed for the simulation used when exact odds are out of reach.
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = seed)]
        seed: u64,
    },
    /// Play a scenario (or roll a check) many times and report how often each result came up.
    #[command(
        after_help = "Examples:\n  mettle sim rulesets/combat_hq.mettle morale_race --runs 100000 --seed 1\n  mettle sim rulesets/infinite_frontiers.mettle --check morale --set spi=2 --runs 1000000"
    )]
    Sim {
        /// The ruleset.
        file: PathBuf,
        /// The scenario to play.
        #[arg(required_unless_present = "check")]
        scenario: Option<String>,
        /// Roll this check instead of playing a scenario.
        #[arg(long, conflicts_with = "scenario")]
        check: Option<String>,
        /// An input value of the check, as name=value (repeatable).
        #[arg(long = "set", value_name = "NAME=VALUE", requires = "check")]
        set: Vec<String>,
        /// For a check made by someone: an attribute of the stand-in who rolls, as name=value.
        #[arg(long = "with", value_name = "NAME=VALUE", requires = "check")]
        with: Vec<String>,
        /// How many times.
        #[arg(long, default_value_t = 10_000)]
        runs: u64,
        /// Seed of the whole run: the same seed gives the same report, whatever the thread count.
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = seed)]
        seed: u64,
        /// Worker threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Outcomes of the check added up under one name, as NAME=OUTCOME,OUTCOME… (repeatable), as
        /// `mettle odds` takes them: shown as `[NAME]` under the outcomes.
        #[arg(long = "group", value_name = "NAME=OUTCOMES", requires = "check")]
        group: Vec<String>,
    },
    /// Play a scenario and print its explained log.
    #[command(
        after_help = "Example:\n  mettle play rulesets/infinite_frontiers.mettle morale_failure --seed 3"
    )]
    Play {
        /// The ruleset.
        file: PathBuf,
        /// The scenario's name.
        scenario: String,
        /// Seed for the dice.
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = seed)]
        seed: u64,
        /// Print the log as JSON.
        #[arg(long)]
        json: bool,
        /// Also show each rule that did not run because its condition was no, and why.
        #[arg(long)]
        verbose: bool,
    },
    /// Open a prompt over one session: load rules, create units, fire events, roll checks, see why.
    #[command(
        after_help = "Example:\n  mettle repl rulesets/infinite_frontiers.mettle\n  mettle repl rules.mettle --seed 3 < steps.txt   # piped: no prompt, exit 1 if a step failed\n\nThe history is kept in $METTLE_HISTORY, else in mettle/history in the user's data folder."
    )]
    Repl {
        /// A ruleset to load first.
        file: Option<PathBuf>,
        /// Seed for the dice.
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = seed)]
        seed: u64,
        /// On piped input, print each input line (after the prompt) before its output, as a transcript.
        #[arg(long)]
        echo: bool,
        /// Width of rendered diagnostics, in columns.
        #[arg(long, default_value_t = 100)]
        width: usize,
    },
    /// Rewrite rulesets in the one canonical layout, keeping every comment (`--check`: change nothing,
    /// show the changes as a diff, exit 1 if any file is not formatted).
    #[command(
        after_help = "Examples:\n  mettle fmt rulesets/\n  mettle fmt --check rulesets/ morale.mettle\n  mettle fmt --stdin < morale.mettle"
    )]
    Fmt {
        /// Ruleset files, or folders: every .mettle file below them.
        #[arg(required_unless_present = "stdin", conflicts_with = "stdin")]
        paths: Vec<PathBuf>,
        /// Format standard input and print it to standard output (for editors).
        #[arg(long)]
        stdin: bool,
        /// Rewrite nothing: print a diff of what would change, and exit 1 if any file would.
        #[arg(long)]
        check: bool,
        /// Also rewrite files named on the command line that do not end in `.mettle`.
        #[arg(long, conflicts_with = "stdin")]
        force: bool,
    },
    /// Run a language server over standard input and output, for editors (see docs/lsp.md).
    #[command(after_help = "Example (an editor starts it):\n  mettle lsp")]
    Lsp,
    /// Keep a session open over standard input and output: one JSON-RPC request a line, one reply a
    /// line (see docs/protocol.md).
    #[command(
        after_help = "Example:\n  echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"roll\",\"params\":{\"check\":\"morale\",\"set\":{\"spi\":2}}}' | mettle serve rulesets/infinite_frontiers.mettle"
    )]
    Serve {
        /// A ruleset to load first (a `load` request can load one later).
        file: Option<PathBuf>,
        /// Seed for the dice.
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = seed)]
        seed: u64,
        /// Let `load` requests read ruleset files under this folder (and nowhere else). Without it, a
        /// client can load rulesets only from their text.
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
    },
    /// Write the JSON Schemas of every `--json` output and of `mettle serve` (how `schemas/` is made).
    #[command(hide = true)]
    Schemas {
        /// The folder to write them to.
        #[arg(long)]
        out: PathBuf,
    },
    /// Run every scenario's expectations in the given files or folders.
    #[command(after_help = "Example:\n  mettle test rulesets/")]
    Test {
        /// Ruleset files or folders of them.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Seed for the dice.
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = seed)]
        seed: u64,
    },
}

/// Reads a `--seed`: a whole number from 0 up, said plainly when it is not (a negative seed would
/// otherwise be taken for an unknown option).
fn seed(s: &str) -> Result<u64, String> {
    s.trim().parse().map_err(|_| format!("a seed is a whole number from 0 to {}, not `{s}`", u64::MAX))
}

/// Reports a mistake on the command line that clap found, with a code like every other error
/// (`mettle::cli::bad_value` for a value, `mettle::cli::usage` for the rest); help and version are
/// printed as clap prints them. Exit status 2 for a mistake.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let code = match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
        ErrorKind::InvalidValue | ErrorKind::ValueValidation => "mettle::cli::bad_value",
        _ => "mettle::cli::usage",
    };
    // clap's text: the mistake, then tips and the usage line, then where to read more.
    let text = e.render().to_string();
    let text = text.trim_start_matches("error: ").replace("\n\nFor more information, try '--help'.", "");
    let more = "`mettle help` lists the commands, `mettle COMMAND --help` what each one takes";
    let (message, help) = match text.trim_end().split_once("\n\n") {
        Some((m, h)) => (m.to_string(), format!("{}\n{more}", h.trim())),
        None => (text.trim_end().to_string(), more.to_string()),
    };
    if wants_json() {
        json::print_errors(vec![json::plain_error(code, &message, Some(&help))]);
    } else {
        let help: Vec<&str> = help.lines().filter(|l| !l.trim().is_empty()).collect();
        eprintln!("{code}\n\n  × {message}\n  help: {}", help.join("\n        "));
    }
    ExitCode::from(2)
}

/// Whether the command line asks for JSON (read before the command is parsed in full, for errors
/// in the global options).
fn wants_json() -> bool {
    std::env::args().any(|a| a == "--json") || std::env::args().nth(1).is_some_and(|a| a == "serve")
}

/// Reports a bad global option (`--budget`, `--option`) as text or JSON; exit status 2.
fn global_option_error(code: &str, message: &str) -> ExitCode {
    if wants_json() {
        json::print_errors(vec![json::plain_error(code, message, None)]);
    } else {
        eprintln!("{code}\n\n  × {}", mettle::text::visible(message));
    }
    ExitCode::from(2)
}

/// Runs the command line.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    match parse_budget(&cli.budget) {
        Ok(b) => {
            let _ = BUDGET.set(b);
        }
        Err(message) => return global_option_error("mettle::cli::budget", &message),
    }
    match parse_options(&cli.option) {
        Ok(o) => {
            let _ = OPTIONS.set(o);
        }
        Err(message) => return global_option_error("mettle::cli::option", &message),
    }
    let json = match &cli.command {
        Command::Check { json, .. }
        | Command::Roll { json, .. }
        | Command::Odds { json, .. }
        | Command::Sim { json, .. }
        | Command::Play { json, .. } => *json,
        Command::Serve { .. } => true,
        _ => false,
    };
    if json {
        json::turn_on();
    }
    let writing = match &cli.command {
        Command::Card { file, force, .. } => (*force, vec![file.clone()]),
        Command::Odds { file, force, .. } => (*force, file.iter().cloned().collect()),
        Command::Fmt { force, .. } => (*force, vec![]),
        _ => (false, vec![]),
    };
    let _ = WRITING.set(writing);
    let code = match cli.command {
        Command::Check { files, json } => commands::check(&files, json),
        Command::Export { file } => commands::export(&file),
        Command::Card { file, format, output, .. } => card::run(&file, format, output.as_deref()),
        Command::Roll { dice: Some(expr), seed, json, .. } => dice::roll(&expr, seed, json),
        Command::Roll { file, check, set, with, seed, json, .. } => match (file, check) {
            (Some(file), Some(check)) => commands::roll(&file, &check, &set, &with, seed, json),
            _ => 2,
        },
        Command::Odds { dice: Some(expr), json, plot, seed, .. } => {
            dice::odds(&expr, json, plot.as_deref(), seed)
        }
        Command::Odds { file: Some(file), scenario: Some(name), report, json, plot, seed, .. } => {
            odds::scenario(&file, &name, report.as_deref(), json, plot.as_deref(), seed)
        }
        Command::Odds {
            file,
            check,
            set,
            with,
            sweep,
            option_sweep,
            group,
            json,
            plot,
            plot_of,
            seed,
            ..
        } => match (file, check) {
            (Some(file), Some(check)) => odds::run(&odds::Args {
                file,
                check,
                set,
                with,
                sweep,
                option_sweep,
                group,
                json,
                plot,
                plot_of,
                seed,
            }),
            _ => 2,
        },
        Command::Sim { file, scenario, check, set, with, runs, seed, threads, json, group } => {
            sim::run(&sim::Args { file, scenario, check, set, with, runs, seed, threads, json, group })
        }
        Command::Play { file, scenario, seed, json, verbose } => {
            commands::play(&file, &scenario, seed, json, verbose)
        }
        Command::Test { paths, seed } => commands::test(&paths, seed),
        Command::Serve { file, seed, root } => crate::serve::run(file.as_deref(), seed, root.as_deref()),
        Command::Schemas { out } => json::write_schemas(&out),
        Command::Lsp => crate::lsp::run(),
        Command::Fmt { stdin: true, check, .. } => fmt::stdin(check),
        Command::Fmt { paths, check, force, .. } => fmt::run(&paths, check, force),
        Command::Repl { file, seed, echo, width } => crate::repl::run(&crate::repl::Options {
            file,
            seed,
            echo,
            width,
            budget: budget(),
            options: options(),
        }),
    };
    ExitCode::from(code)
}

/// Writes `text` to standard output, its control characters and bidirectional overrides escaped (the
/// command prints no colours there). A closed pipe has already ended the
/// program quietly (SIGPIPE); any other failure ends it with a coded message.
pub(crate) fn write_out(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(mettle::text::visible(text).as_bytes()) {
        drop(out);
        let (message, help) =
            (format!("cannot write the output: {e}"), "check the free space where the output goes");
        if json::on() {
            json::print_errors(vec![json::plain_error("mettle::io::write", &message, Some(help))]);
        } else {
            eprintln!("mettle::io::write\n\n  × {message}\n  help: {help}");
        }
        std::process::exit(1);
    }
}

/// Most diagnostics reported for one file, by `mettle check` (text and `--json`), every command that
/// prints a ruleset's errors, and the language server; past it, one more diagnostic
/// (`mettle::check::too_many`) says how many were left out. A ruleset of hundreds of thousands of
/// errors would otherwise print hundreds of megabytes and stall an editor on every keystroke.
pub const DIAGNOSTICS_SHOWN: usize = 200;

/// The first [`DIAGNOSTICS_SHOWN`] of `diags`, and then one saying how many more there were.
pub fn capped(diags: &[mettle::Diagnostic]) -> std::borrow::Cow<'_, [mettle::Diagnostic]> {
    if diags.len() <= DIAGNOSTICS_SHOWN {
        return std::borrow::Cow::Borrowed(diags);
    }
    let (shown, rest) = diags.split_at(DIAGNOSTICS_SHOWN);
    let errors = rest.iter().filter(|d| d.is_error()).count();
    let warnings = rest.len() - errors;
    let mut more = mettle::Diagnostic::plain(
        "check::too_many",
        format!(
            "and {} more not shown ({errors} error{}, {warnings} warning{}): only the first \
             {DIAGNOSTICS_SHOWN} of a file are reported",
            rest.len(),
            if errors == 1 { "" } else { "s" },
            if warnings == 1 { "" } else { "s" },
        ),
    )
    .with_help(
        "fix the ones shown and check again; many errors at once often come from one mistake, such \
         as a missing `}` or a name written differently everywhere",
    );
    if errors == 0 {
        more.level = mettle::diagnostics::Level::Warning;
    }
    let mut out = shown.to_vec();
    out.push(more);
    std::borrow::Cow::Owned(out)
}
