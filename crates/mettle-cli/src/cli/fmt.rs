//! `mettle fmt`: rewrites rulesets in the canonical layout, or with `--check` shows what would change.

use mettle::diagnostics::{Code, Diagnostic};
use mettle::internals::files::{Kind, Target};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Formats every file given and every `.mettle` file below the folders given. Exit status: 0 when
/// all went well (and, with `check`, every file was already formatted), 1 otherwise, 2 when there was
/// nothing to format.
/// A file named on the command line that does not end in `.mettle` is refused unless `force`.
pub fn run(paths: &[PathBuf], check: bool, force: bool) -> u8 {
    let mut found = Vec::new();
    for p in paths {
        // A folder named by a link is walked; links met inside folders are not followed.
        if p.is_dir() {
            below(p, &mut found);
        } else {
            found.push(p.clone());
        }
    }
    // A file named twice (`mettle fmt a.mettle .`) is formatted once.
    let mut seen = std::collections::HashSet::new();
    let files: Vec<PathBuf> = found.into_iter().filter(|f| seen.insert(identity(f))).collect();
    if files.is_empty() {
        plain(
            "fmt::no_files",
            &format!("no .mettle files found in {}", shown(paths)),
            "give ruleset files, or folders that hold some",
        );
        return 2;
    }
    let (mut failed, mut unformatted) = (0usize, 0usize);
    for file in &files {
        let name = file.display().to_string();
        // What would be refused as a place to write is not read either: a link, a pipe, a folder,
        // a file that is not a ruleset (unless forced).
        let target = Target { force, ..Target::new(file, Kind::Ruleset) };
        if let Err(d) = mettle::internals::files::check(&target) {
            eprint!("{}", super::commands::render(&[d], &name, ""));
            failed += 1;
            continue;
        }
        let text = match read(file) {
            Ok(t) => t,
            Err(d) => {
                eprint!("{}", super::commands::render(&[d], &name, ""));
                failed += 1;
                continue;
            }
        };
        let formatted = match mettle::fmt::format(&text) {
            Ok(f) => f,
            Err(diags) => {
                eprint!("{}", super::commands::render(&diags, &name, &text));
                // Only the formatter's own errors come from text that parses.
                let parses =
                    diags.iter().any(|d| d.is(Code::FmtUnknownText) || d.is(Code::FmtChangedMeaning));
                eprintln!(
                    "{}: left as it was{}",
                    mettle::text::visible(&name),
                    if parses { "" } else { ", as it does not parse" }
                );
                failed += 1;
                continue;
            }
        };
        if formatted == text {
            continue;
        }
        unformatted += 1;
        if check {
            out!("{}", mettle::fmt::unified_diff(&name, &text, &formatted));
        } else if let Err(d) = mettle::internals::files::write(&target, formatted.as_bytes()) {
            eprint!("{}", super::commands::render(&[d], &name, ""));
            failed += 1;
        } else {
            outln!("formatted {name}");
        }
    }
    if check && unformatted > 0 {
        eprintln!(
            "{unformatted} file{} not formatted: `mettle fmt {}` formats {}",
            if unformatted == 1 { " is" } else { "s are" },
            shown(paths),
            if unformatted == 1 { "it" } else { "them" }
        );
    }
    u8::from(failed > 0 || (check && unformatted > 0))
}

/// Formats standard input to standard output; with `check`, prints a diff instead and exits 1 if the
/// text is not formatted. Text that does not parse: its diagnostics, exit 1, nothing on the output.
pub fn stdin(check: bool) -> u8 {
    use std::io::Read;
    let limit = super::budget().ruleset_bytes;
    let mut text = String::new();
    if let Err(e) = std::io::stdin().take(limit.saturating_add(1)).read_to_string(&mut text) {
        plain("fmt::read", &format!("cannot read standard input: {e}"), "give UTF-8 text on standard input");
        return 1;
    }
    if text.len() as u64 > limit {
        eprint!("{}", super::commands::render(&[too_large("standard input", limit)], "<stdin>", ""));
        return 1;
    }
    match mettle::fmt::format(&text) {
        Ok(formatted) if check => {
            out!("{}", mettle::fmt::unified_diff("<stdin>", &text, &formatted));
            u8::from(formatted != text)
        }
        Ok(formatted) => {
            // Written as is: a ruleset's own control characters are not escaped here.
            let mut out = std::io::stdout().lock();
            if out.write_all(formatted.as_bytes()).and_then(|()| out.flush()).is_err() {
                return 1;
            }
            0
        }
        Err(diags) => {
            eprint!("{}", super::commands::render(&diags, "<stdin>", &text));
            1
        }
    }
}

/// What names a file for finding it named twice: its folder's real path and its own name, a link
/// itself and not what it points to (a link is refused, the file it points to is not).
fn identity(file: &Path) -> PathBuf {
    let folder = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(folder), file.file_name()) {
        (Ok(f), Some(name)) => f.join(name),
        _ => file.to_path_buf(),
    }
}

/// The `.mettle` files below `dir`, in name order, folder by folder.
fn below(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    entries.sort();
    for e in entries {
        // Symbolic links are not followed, to folders (a link back up would never end) or to files
        // (one could point out of the folder, at a file that is not meant to be rewritten).
        let Ok(meta) = e.symlink_metadata() else { continue };
        if meta.is_dir() {
            below(&e, out);
        } else if meta.is_file() && e.extension().is_some_and(|x| x == "mettle") {
            out.push(e);
        }
    }
}

/// The text of `file`, within the size limit on rulesets.
fn read(file: &Path) -> Result<String, Diagnostic> {
    let name = file.display();
    let limit = super::budget().ruleset_bytes;
    let cannot = |e: std::io::Error| {
        Diagnostic::plain("fmt::read", format!("cannot read {name}: {e}"))
            .with_help("check the path and its permissions, and that the file is UTF-8 text")
    };
    let meta = std::fs::metadata(file).map_err(cannot)?;
    if !meta.is_file() {
        return Err(Diagnostic::plain("fmt::read", format!("{name} is not a regular file"))
            .with_help("give ruleset files, or folders that hold some"));
    }
    if meta.len() > limit {
        return Err(too_large(&name.to_string(), limit));
    }
    std::fs::read_to_string(file).map_err(cannot)
}

fn too_large(what: &str, limit: u64) -> Diagnostic {
    Diagnostic::plain("io::too_large", format!("{what} is larger than {limit} bytes, the limit on a ruleset"))
        .with_help("raise the limit with `--budget ruleset_bytes=N` if it is meant to be this large")
}

/// Prints a diagnostic about no source text.
fn plain(code: &str, message: &str, help: &str) {
    let d = Diagnostic::plain(code, message).with_help(help);
    eprint!("{}", super::commands::render(&[d], "", ""));
}

fn shown(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" ")
}
