//! Command-line parsing (clap) and the commands: check, roll, play, test, export, repl.

mod commands;

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
    /// Roll one check once and explain the result.
    #[command(
        after_help = "Example:\n  mettle roll rulesets/dice_pool_morale.mettle morale --set base=3 --set bonus=2 --seed 1"
    )]
    Roll {
        /// The ruleset.
        file: PathBuf,
        /// The check to roll.
        check: String,
        /// An input value, as name=value (repeatable).
        #[arg(long = "set", value_name = "NAME=VALUE")]
        set: Vec<String>,
        /// For a check made by someone (`check … for unit`): an attribute of the stand-in who rolls,
        /// as name=value (repeatable); the others keep their defaults.
        #[arg(long = "with", value_name = "NAME=VALUE")]
        with: Vec<String>,
        /// Seed for the dice.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
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
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Print the log as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Open a prompt over one session: load rules, create units, fire events, roll checks, see why.
    #[command(
        after_help = "Example:\n  mettle repl rulesets/infinite_frontiers.mettle\n  mettle repl rules.mettle --seed 3 < steps.txt   # piped: no prompt, exit 1 if a step failed\n\nThe history is kept in $METTLE_HISTORY, else in mettle/history in the user's data folder."
    )]
    Repl {
        /// A ruleset to load first.
        file: Option<PathBuf>,
        /// Seed for the dice.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// On piped input, print each input line (after the prompt) before its output, as a transcript.
        #[arg(long)]
        echo: bool,
        /// Width of rendered diagnostics, in columns.
        #[arg(long, default_value_t = 100)]
        width: usize,
    },
    /// Run every scenario's expectations in the given files or folders.
    #[command(after_help = "Example:\n  mettle test rulesets/")]
    Test {
        /// Ruleset files or folders of them.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Seed for the dice.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
}

/// Runs the command line.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Check { files, json } => commands::check(&files, json),
        Command::Export { file } => commands::export(&file),
        Command::Roll { file, check, set, with, seed, json } => {
            commands::roll(&file, &check, &set, &with, seed, json)
        }
        Command::Play { file, scenario, seed, json } => commands::play(&file, &scenario, seed, json),
        Command::Test { paths, seed } => commands::test(&paths, seed),
        Command::Repl { file, seed, echo, width } => {
            mettle::repl::run(&mettle::repl::Options { file, seed, echo, width })
        }
    };
    ExitCode::from(code)
}
