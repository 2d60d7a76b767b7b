//! Formatting: the library's formatter (`mettle fmt`), answered as one edit of the whole document.

use super::analysis::Analysis;
use lsp_types::{Position, Range, TextEdit};

/// A formatter: the formatted text of a ruleset, or `None` when it cannot be formatted (it does not
/// parse).
pub type Formatter = fn(&str) -> Option<String>;

/// The formatter the server uses: `mettle fmt`'s. (Returning `None` would stop advertising
/// formatting and answering `textDocument/formatting`.)
pub fn formatter() -> Option<Formatter> {
    Some(|text| mettle::fmt::format(text).ok())
}

/// The edits formatting the document: one edit replacing the whole text, none when it is already
/// formatted, `None` when it cannot be formatted.
pub fn edits(a: &Analysis, format: Formatter) -> Option<Vec<TextEdit>> {
    let formatted = format(&a.text)?;
    if formatted == a.text {
        return Some(vec![]);
    }
    let end = a.lines.position(&a.text, a.text.len());
    Some(vec![TextEdit::new(Range::new(Position::new(0, 0), end), formatted)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_formatted_document_is_one_whole_edit() {
        let a = Analysis::new("kind unit {\n  spi: 0..6 = 3 }\n", None, &Default::default());
        let squash: Formatter = |t| Some(t.split_whitespace().collect::<Vec<_>>().join(" "));
        let e = edits(&a, squash).unwrap();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].range.end, Position::new(2, 0));
        assert_eq!(e[0].new_text, "kind unit { spi: 0..6 = 3 }");
        let same: Formatter = |t| Some(t.to_string());
        assert!(edits(&a, same).unwrap().is_empty());
        let fails: Formatter = |_| None;
        assert!(edits(&a, fails).is_none());
    }
}
