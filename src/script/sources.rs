//! Where script text came from: Rhai reports line and character column, and this turns them into byte
//! spans in the ruleset or in a script file.
//
// Every script is compiled with blank lines (and, for an inline block, spaces) in front of it, so that
// Rhai's line numbers are already the ruleset's: an inline block's line 12 is the ruleset's line 12.
// Script files are given lines after the ruleset's last one, each file its own range. One position
// then names one place, even after all the scripts are merged into one program.

use crate::ast::Span;
use crate::diagnostics::SourceFile;
use std::sync::Arc;

/// A script file and the lines it was given.
#[derive(Debug)]
pub(super) struct FileLines {
    pub(super) file: Arc<SourceFile>,
    /// The first line number given to the file.
    pub(super) first: usize,
    /// Byte offsets where its lines start.
    starts: Vec<usize>,
}

/// The ruleset's text and the script files, for turning positions into spans.
#[derive(Debug)]
pub(super) struct Sources {
    text: Arc<str>,
    starts: Vec<usize>,
    pub(super) files: Vec<FileLines>,
}

/// A place in the sources: which file (`None` for the ruleset) and a byte span.
#[derive(Debug, Clone)]
pub(super) struct Place {
    pub(super) file: Option<Arc<SourceFile>>,
    pub(super) span: Span,
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect()
}

/// The byte offset of 1-based character column `col` on the line starting at `start`, then the span of
/// the word there (at least one character).
fn word_at(text: &str, start: usize, col: usize) -> Span {
    let line = &text[start..];
    let line = &line[..line.find('\n').unwrap_or(line.len())];
    let offset = line.char_indices().nth(col.saturating_sub(1)).map_or(line.len(), |(i, _)| i);
    let rest = &line[offset..];
    let word = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
    let len = if word > 0 { word } else { rest.chars().next().map_or(0, char::len_utf8) };
    Span { start: start + offset, end: start + offset + len }
}

impl Sources {
    pub(super) fn new(text: &str) -> Sources {
        Sources { starts: line_starts(text), text: text.into(), files: Vec::new() }
    }

    /// The 1-based ruleset line holding byte `offset`.
    pub(super) fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset)
    }

    /// The next line number free for a script file.
    fn next_line(&self) -> usize {
        self.files.last().map_or(self.starts.len() + 1, |f| f.first + f.starts.len())
    }

    /// The text to compile for an inline block whose code starts at byte `at` of the ruleset: padded so
    /// that positions match the ruleset's.
    pub(super) fn pad_inline(&self, at: usize, code: &str) -> String {
        let line = self.starts.partition_point(|&s| s <= at);
        let col = self.text[self.starts[line - 1]..at].chars().count();
        let mut padded = String::with_capacity(line + col + code.len());
        padded.extend(std::iter::repeat_n('\n', line - 1));
        padded.extend(std::iter::repeat_n(' ', col));
        padded.push_str(code);
        padded
    }

    /// Gives `file` the next free lines and returns the text to compile, or `None` when the lines would
    /// run past what Rhai can number.
    pub(super) fn add_file(&mut self, file: Arc<SourceFile>) -> Option<String> {
        let first = self.next_line();
        let starts = line_starts(&file.text);
        if first + starts.len() > usize::from(u16::MAX) {
            return None;
        }
        let mut padded = String::with_capacity(first + file.text.len());
        padded.extend(std::iter::repeat_n('\n', first - 1));
        padded.push_str(&file.text);
        self.files.push(FileLines { file, first, starts });
        Some(padded)
    }

    /// The place Rhai's `pos` names.
    pub(super) fn place(&self, pos: rhai::Position) -> Option<Place> {
        let (line, col) = (pos.line()?, pos.position().unwrap_or(1));
        if line <= self.starts.len() {
            let span = word_at(&self.text, self.starts[line - 1], col);
            return Some(Place { file: None, span });
        }
        let f = self.files.iter().find(|f| line >= f.first && line < f.first + f.starts.len())?;
        let span = word_at(&f.file.text, f.starts[line - f.first], col);
        Some(Place { file: Some(f.file.clone()), span })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_in_inline_blocks_are_ruleset_positions() {
        let text = "kind unit {}\nscript {\n  fn tn(x) { x + 1 }\n}\n";
        let s = Sources::new(text);
        let at = text.find("\n  fn").unwrap();
        let padded = s.pad_inline(at, &text[at..text.rfind('}').unwrap()]);
        assert_eq!(padded.lines().nth(2), Some("  fn tn(x) { x + 1 }"));
        let p = s.place(rhai::Position::new(3, 6)).unwrap();
        assert_eq!(&text[p.span.start..p.span.end], "tn");
    }

    #[test]
    fn files_get_lines_after_the_ruleset() {
        let mut s = Sources::new("a\nb\n");
        let f = Arc::new(SourceFile { name: "x.rhai".into(), text: "fn a() {\n  oops\n}\n".into() });
        let padded = s.add_file(f).unwrap();
        assert_eq!(padded.lines().nth(4), Some("  oops"));
        let p = s.place(rhai::Position::new(5, 3)).unwrap();
        assert_eq!(p.file.unwrap().name, "x.rhai");
        assert_eq!(p.span, Span { start: 11, end: 15 });
    }
}
