//! `mettle card FILE [--format html|md] [-o OUT]`: a ruleset's printable quick-reference sheet.

use mettle::Diagnostic;
use std::io::Write;
use std::path::Path;

/// The formats a card is made in.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One self-contained HTML page, ready to print.
    Html,
    /// GitHub-flavoured Markdown.
    Md,
}

/// Runs `mettle card`: the card on standard output, or written to `out`.
pub fn run(file: &Path, format: Format, out: Option<&Path>) -> u8 {
    let Some(rules) = super::commands::load(file) else { return 1 };
    let card = mettle::card::build(&rules);
    let text = match format {
        Format::Html => mettle::card::html::render(&card),
        Format::Md => mettle::card::md::render(&card),
    };
    match out {
        None => {
            out!("{text}");
            if !text.ends_with('\n') {
                outln!();
            }
            0
        }
        Some(path) => match write_atomically(path, &text) {
            Ok(()) => {
                eprintln!("card written to {}", path.display());
                0
            }
            Err(d) => {
                eprint!("{}", super::commands::render(&[d], "", ""));
                1
            }
        },
    }
}

/// Writes `text` to `path` through a new file beside it, flushed and then renamed over it, so that a
/// failure leaves what was there before. Only a regular file (or nothing) is replaced: a folder, a
/// device, a pipe or a symbolic link at `path` is an error, never followed.
fn write_atomically(path: &Path, text: &str) -> Result<(), Diagnostic> {
    let cannot = |e: std::io::Error| {
        Diagnostic::plain("mettle::io::write", format!("cannot write the card to `{}`: {e}", path.display()))
            .with_help("check the folder exists and has room; a file that was there is unchanged")
    };
    let old = std::fs::symlink_metadata(path).ok();
    if let Some(meta) = &old
        && !meta.file_type().is_file()
    {
        return Err(Diagnostic::plain(
            "mettle::io::write",
            format!("`{}` is not a regular file, so the card is not written there", path.display()),
        )
        .with_help("give the name of a new or ordinary file with `-o`"));
    }
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "card".into());
    let temp = folder.join(format!(".{name}.card-{}.tmp", std::process::id()));
    // `create_new` fails on anything already at the temporary name, a link included.
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(&temp).map_err(cannot)?;
    let written = (|| {
        file.write_all(text.as_bytes())?;
        // A card written over an old one keeps the old one's permissions.
        if let Some(meta) = &old {
            file.set_permissions(meta.permissions())?;
        }
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temp, path)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(cannot(e));
    }
    Ok(())
}
