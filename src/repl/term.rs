//! Running the REPL on a terminal (rustyline, with history) or on piped input (no prompt, no colour).

use super::Repl;
use super::editor::MettleHelper;
use rustyline::Editor;
use rustyline::config::Config;
use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// The prompt, also printed before each echoed input.
const PROMPT: &str = "mettle> ";

/// How to run the REPL.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// A ruleset to load first.
    pub file: Option<PathBuf>,
    /// Seed for the dice.
    pub seed: u64,
    /// On piped input, print each input line (after the prompt) before what it prints: a transcript.
    pub echo: bool,
    /// Width of rendered diagnostics.
    pub width: usize,
}

/// Where the history is kept: `$METTLE_HISTORY`, else `history` in mettle's folder of the user's
/// data directory.
pub fn history_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("METTLE_HISTORY") {
        return Some(PathBuf::from(p));
    }
    Some(dirs::data_dir()?.join("mettle").join("history"))
}

/// Runs the REPL until `:quit` or the end of input. Returns the exit code: on piped input 1 if any
/// input failed, else 0.
pub fn run(opts: &Options) -> u8 {
    let interactive = std::io::stdin().is_terminal();
    let no_color = std::env::var_os("NO_COLOR").is_some();
    let color = interactive && std::io::stderr().is_terminal() && !no_color;
    let mut repl = Repl::new(opts.seed, color, opts.width);
    let mut failed = false;
    if let Some(f) = &opts.file {
        let mut reply = super::Reply::default();
        repl.load(f, &mut reply);
        failed |= reply.failed;
        print(&reply);
    }
    if interactive {
        interact(&mut repl, color && std::io::stdout().is_terminal());
        0
    } else {
        u8::from(piped(&mut repl, opts.echo) || failed)
    }
}

fn print(reply: &super::Reply) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(reply.out.as_bytes());
    let _ = out.flush();
    drop(out);
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(reply.err.as_bytes());
    let _ = err.flush();
}

/// Reads inputs from standard input, a line at a time, joining lines while a block is open.
/// Returns whether any input failed.
fn piped(repl: &mut Repl, echo: bool) -> bool {
    let mut failed = false;
    let mut buffer = String::new();
    let mut lines = std::io::stdin().lock().lines();
    loop {
        let line = match lines.next() {
            Some(Ok(l)) => Some(l),
            Some(Err(e)) => {
                eprintln!("error: cannot read the input: {e}");
                return true;
            }
            None => None,
        };
        let at_end = line.is_none();
        if let Some(l) = line {
            if echo {
                let mark = if buffer.is_empty() { PROMPT } else { "        " };
                println!("{mark}{l}");
            }
            if !buffer.is_empty() {
                buffer.push('\n');
            }
            buffer.push_str(&l);
            let command = buffer.trim_start().starts_with(':');
            if !command && crate::syntax::is_incomplete(&buffer) {
                continue;
            }
        }
        if !buffer.trim().is_empty() {
            let reply = repl.handle(&buffer);
            failed |= reply.failed;
            print(&reply);
            if reply.quit {
                break;
            }
        }
        buffer.clear();
        if at_end {
            break;
        }
    }
    failed
}

/// Saves the history, quietly: a history that cannot be written must not stop the session.
fn keep_history(ed: &mut Editor<MettleHelper, FileHistory>, path: Option<&Path>) {
    if let Some(p) = path {
        if let Some(dir) = p.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = ed.save_history(p);
    }
}

/// The line editor over a terminal.
fn interact(repl: &mut Repl, color: bool) {
    let config = Config::builder().auto_add_history(false).history_ignore_space(true).build();
    let mut ed: Editor<MettleHelper, FileHistory> = match Editor::with_config(config) {
        Ok(ed) => ed,
        Err(e) => {
            eprintln!("error: cannot start the line editor: {e}");
            return;
        }
    };
    ed.set_helper(Some(MettleHelper::new(repl.names(), color)));
    // Ctrl-C while an input is being worked out must not end the session (at the prompt the line
    // editor reads it as a key and drops the line being typed).
    let _ = ctrlc::set_handler(|| {});
    let history = history_path();
    if let Some(p) = &history {
        let _ = ed.load_history(p);
    }
    println!("mettle REPL: `:help` for help, `:quit` or Ctrl-D to leave");
    loop {
        match ed.readline(PROMPT) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = ed.add_history_entry(line.as_str());
                    keep_history(&mut ed, history.as_deref());
                }
                let reply = repl.handle(&line);
                print(&reply);
                if let Some(h) = ed.helper() {
                    *h.names.borrow_mut() = repl.names();
                }
                if reply.quit {
                    break;
                }
            }
            // Ctrl-C drops the line being typed; the session goes on.
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                eprintln!("error: {e}");
                break;
            }
        }
    }
    keep_history(&mut ed, history.as_deref());
}
