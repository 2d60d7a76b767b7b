//! Running the REPL on a terminal (rustyline, with history) or on piped input (no prompt, no colour).

use super::Repl;
use super::editor::MettleHelper;
use rustyline::Editor;
use rustyline::config::Config;
use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// The largest history file read at start-up (a larger one, or one that is not a file, is left alone).
const MAX_HISTORY: u64 = 4 * 1024 * 1024;

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
    /// Limits for the rulesets loaded and the lines read.
    pub budget: mettle::Budget,
    /// House-rule options chosen for every ruleset the REPL loads (`--option NAME=VALUE`).
    pub options: Vec<(String, String)>,
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
    repl.set_budget(opts.budget.clone());
    repl.set_options(opts.options.clone());
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

/// Does what the library leaves to the front end (`:plot FILE` draws the last odds into FILE), and
/// adds what came of it to the reply.
fn deliver(repl: &Repl, mut reply: super::Reply) -> super::Reply {
    if let (Some(path), Some(odds)) = (reply.plot.take(), repl.last_odds()) {
        match crate::cli::repl_plot(odds, &path) {
            Ok(said) => {
                reply.out.push_str(&said);
                reply.out.push('\n');
            }
            Err(d) => {
                reply.err.push_str(&repl.render_plain(&d));
                reply.failed = true;
            }
        }
    }
    reply
}

/// Prints a reply, its control characters and bidirectional overrides escaped (names, notes and
/// echoed lines come from input); on standard error, the diagnostics' own colour codes pass.
fn print(reply: &super::Reply) {
    let mut out = std::io::stdout().lock();
    let written = out.write_all(mettle::text::visible(&reply.out).as_bytes()).and_then(|()| out.flush());
    drop(out);
    if let Err(e) = written {
        // A closed pipe has already ended the program quietly (SIGPIPE); a full disk ends it here.
        eprintln!(
            "mettle::io::write\n\n  × cannot write the output: {e}\n  help: check the free space where the output goes"
        );
        std::process::exit(1);
    }
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(mettle::text::escape_controls(&reply.err).as_bytes());
    let _ = err.flush();
}

/// The length up to which an open block is checked at every line for whether it can still become
/// valid.
const CHECK_EVERY_LINE: usize = 4 * 1024;

/// One line of piped input, read within the line budget.
enum Line {
    Text(String),
    TooLong(u64),
    /// A line over the budget that went on past `give_up` bytes without a line break: the input is
    /// not read further.
    Endless(u64),
    NotUtf8(usize),
    End,
}

/// Reads one line (without its line break) of at most `cap` bytes; a longer line is read past, never
/// held whole, up to `give_up` bytes: input with no line break would otherwise be read forever.
fn read_line<R: BufRead>(input: &mut R, cap: u64, give_up: u64) -> std::io::Result<Line> {
    let mut raw = Vec::new();
    let n = <&mut R as std::io::Read>::take(&mut *input, cap + 1).read_until(b'\n', &mut raw)?;
    if n == 0 {
        return Ok(Line::End);
    }
    if raw.len() as u64 > cap && raw.last() != Some(&b'\n') {
        // Skip the rest of the line a block at a time.
        let mut skipped = raw.len() as u64;
        loop {
            let buf = input.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            match buf.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    input.consume(i + 1);
                    skipped += i as u64;
                    break;
                }
                None => {
                    let len = buf.len();
                    input.consume(len);
                    skipped += len as u64;
                    if skipped > give_up {
                        return Ok(Line::Endless(skipped));
                    }
                }
            }
        }
        return Ok(Line::TooLong(skipped));
    }
    while raw.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
        raw.pop();
    }
    match String::from_utf8(raw) {
        Ok(t) => Ok(Line::Text(t)),
        Err(e) => Ok(Line::NotUtf8(e.utf8_error().valid_up_to())),
    }
}

/// Reads inputs from standard input, a line at a time, joining lines while a block is open.
/// Returns whether any input failed. A line over the budget, or not UTF-8, is an error for that line
/// (and the block it was part of); the lines after it still run.
fn piped(repl: &mut Repl, echo: bool) -> bool {
    let mut failed = false;
    let mut buffer = String::new();
    // The buffer's length when it was last parsed to see whether it can still become valid.
    let mut checked = 0usize;
    // The brackets open at the end of the buffer, measured a line at a time as lines are added.
    let mut open = 0usize;
    let mut input = std::io::stdin().lock();
    let mut number = 0usize;
    loop {
        let cap = repl.budget().line_bytes;
        let block_cap = repl.budget().ruleset_bytes;
        number += 1;
        // Prints the error for a line refused whole.
        let refused = |code: &str, message: String, help: &str| {
            let d = mettle::Diagnostic::plain(code, message).with_help(help);
            let err = mettle::diagnostics::render(&[d], "input", "", &Default::default());
            print(&super::Reply { err, failed: true, ..Default::default() });
        };
        let line = match read_line(&mut input, cap, block_cap.max(cap)) {
            Ok(Line::Text(l)) => Some(l),
            Ok(Line::End) => None,
            Ok(bad) => {
                match bad {
                    Line::TooLong(n) => refused(
                        "repl::line_too_long",
                        format!("line {number} is {n} bytes long, more than the {cap} a line may be"),
                        "split it over several lines, or raise the budget (`--budget line_bytes=N`)",
                    ),
                    Line::Endless(n) => {
                        refused(
                            "repl::line_too_long",
                            format!(
                                "line {number} has no line break in its first {n} bytes: the rest of the input is not read"
                            ),
                            "end each line with a line break; a line may be at most `line_bytes` long \
                             (`--budget line_bytes=N`)",
                        );
                        return true;
                    }
                    Line::NotUtf8(at) => refused(
                        "repl::not_utf8",
                        format!("line {number} is not UTF-8 text (a bad byte after {at} good ones)"),
                        "save the input as UTF-8 text",
                    ),
                    Line::Text(_) | Line::End => {}
                }
                failed = true;
                buffer.clear();
                (checked, open) = (0, 0);
                continue;
            }
            Err(e) => {
                eprintln!("mettle::io::read\n  × cannot read the input: {e}");
                return true;
            }
        };
        let at_end = line.is_none();
        if let Some(l) = line {
            if echo {
                let mark = if buffer.is_empty() { PROMPT } else { "        " };
                print(&super::Reply { out: format!("{mark}{l}\n"), ..Default::default() });
            }
            // A command cannot continue an open block: the block is reported as it stands, then the
            // command runs.
            if !buffer.is_empty() && l.trim_start().starts_with(':') {
                let reply = repl.handle(&buffer);
                let reply = deliver(repl, reply);
                failed |= reply.failed;
                print(&reply);
                buffer.clear();
                (checked, open) = (0, 0);
            }
            if !buffer.is_empty() {
                buffer.push('\n');
            }
            buffer.push_str(&l);
            let (depth, in_string) = mettle::internals::syntax::open_brackets(&l, open);
            open = depth;
            let command = buffer.trim_start().starts_with(':');
            if buffer.len() as u64 > block_cap {
                refused(
                    "repl::block_too_long",
                    format!("the block that line {number} continues is longer than {block_cap} bytes"),
                    "close the block sooner, or raise the budget (`--budget ruleset_bytes=N`)",
                );
                failed = true;
                buffer.clear();
                (checked, open) = (0, 0);
                continue;
            }
            if !command && (open > 0 || in_string) {
                // Read on only while the lines so far could still become valid: a line that makes
                // that impossible is reported now. Past 4 KiB the text is parsed again only each
                // time it has grown by half, so a long block costs time in proportion to its length
                // (a block of 6,000 lines was parsed 6,000 times), and a bad line in it is reported
                // when the block has grown by half since the last look.
                let due = buffer.len() <= CHECK_EVERY_LINE || buffer.len() >= checked + checked / 2;
                if !due || !mettle::internals::syntax::never_completes(&buffer) {
                    if due {
                        checked = buffer.len();
                    }
                    continue;
                }
            }
        } else if !buffer.trim().is_empty() && mettle::internals::syntax::is_incomplete(&buffer) {
            refused(
                "repl::unclosed",
                "the input ended inside a block or bracket that was never closed".into(),
                "close every `{`, `(` and `[` (and string) before the end of the input",
            );
            return true;
        }
        if !buffer.trim().is_empty() {
            let reply = repl.handle(&buffer);
            let reply = deliver(repl, reply);
            failed |= reply.failed;
            print(&reply);
            if reply.quit {
                break;
            }
        }
        buffer.clear();
        (checked, open) = (0, 0);
        if at_end {
            break;
        }
    }
    failed
}

/// Saves the history the one way mettle writes files (never through a link, onto a pipe or half
/// written), quietly: a history that cannot be written must not stop the session.
fn keep_history(ed: &mut Editor<MettleHelper, FileHistory>, path: Option<&Path>) {
    use mettle::internals::files::{Kind, Target, write_with};
    if let Some(p) = path {
        if let Some(dir) = p.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        // The line editor writes its own format, into the new file by its name. It writes nothing
        // when no line was added since it last saved: then the history there is kept as it is.
        let _ = write_with(&Target::new(p, Kind::History), |file, temp| {
            ed.save_history(temp).map_err(std::io::Error::other)?;
            if file.metadata()?.len() == 0 {
                return Err(std::io::Error::other("no new lines"));
            }
            Ok(())
        });
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
    // Ctrl-C while an input is being worked out stops it (the session's cancel flag: the statement,
    // roll, event or script stops, undone) and must not end the session; at the prompt the line editor
    // reads it as a key and drops the line being typed.
    let cancel = repl.cancel_flag();
    let _ = ctrlc::set_handler(move || cancel.store(true, std::sync::atomic::Ordering::Relaxed));
    // A long `:sim` shows how far it has got, on its own line of standard error, cleared at the end.
    if std::io::stderr().is_terminal() {
        // Written straight to the terminal: the line is mettle's own, with no input in it to escape.
        repl.set_progress(mettle::internals::repl::Progress(std::sync::Arc::new(|done, of| {
            let mut err = std::io::stderr().lock();
            let _ = if done >= of {
                write!(err, "\r\x1b[K")
            } else {
                write!(err, "\r{done}/{of} runs (Ctrl-C stops)")
            };
            let _ = err.flush();
        })));
    }
    let history = history_path();
    if let Some(p) = &history
        && std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() <= MAX_HISTORY)
    {
        let _ = ed.load_history(p);
    }
    print(&super::Reply {
        out: "mettle REPL: `:help` for help, `:quit` or Ctrl-D to leave\n".into(),
        ..Default::default()
    });
    loop {
        match ed.readline(PROMPT) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = ed.add_history_entry(line.as_str());
                    keep_history(&mut ed, history.as_deref());
                }
                let reply = repl.handle(&line);
                let reply = deliver(repl, reply);
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
