//! `mettle card FILE [--format html|md] [-o OUT]`: a ruleset's printable quick-reference sheet.

use mettle::internals::files::Kind;
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
        Some(path) => match super::write_file(path, kind(format), text.as_bytes()) {
            Ok(()) => {
                eprintln!("card written to {}", mettle::text::visible(&path.display().to_string()));
                0
            }
            Err(d) => {
                eprint!("{}", super::commands::render(&[d], "", ""));
                1
            }
        },
    }
}

/// What a card in `format` is, as a file.
fn kind(format: Format) -> Kind {
    match format {
        Format::Html => Kind::CardHtml,
        Format::Md => Kind::CardMd,
    }
}
