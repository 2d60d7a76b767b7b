//! Byte offsets in a text to LSP positions (line and UTF-16 column) and back.

use lsp_types::{Position, Range};
use mettle::internals::ast::Span;

/// Bytes between two marks of a line that is not plain ASCII.
const MARK: usize = 128;

/// Where each line of a text starts, to turn byte offsets into LSP positions and back.
#[derive(Debug, Clone)]
pub struct LineIndex {
    /// Byte offset of the start of each line.
    starts: Vec<usize>,
    /// Whether each line is plain ASCII, where a column is a byte count (however long the line).
    ascii: Vec<bool>,
    /// On the other lines, (byte offset, UTF-16 column) every [`MARK`] bytes or so from the line's
    /// start, so that a position is found without counting from the start of a long line.
    marks: Vec<(usize, u32)>,
    /// The text's length in bytes.
    len: usize,
}

impl LineIndex {
    /// The line starts of `text`. Lines end at `\n` (a `\r` before it belongs to the line).
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        let mut ascii = vec![true];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                starts.push(i + 1);
                ascii.push(true);
            } else if !b.is_ascii()
                && let Some(last) = ascii.last_mut()
            {
                *last = false;
            }
        }
        let mut marks = vec![];
        for (line, &start) in starts.iter().enumerate() {
            if ascii[line] {
                continue;
            }
            let end = starts.get(line + 1).map_or(text.len(), |&e| e - 1);
            let (mut col, mut last) = (0u32, start);
            marks.push((start, 0));
            for (i, c) in text.get(start..end).unwrap_or("").char_indices() {
                if start + i - last >= MARK {
                    marks.push((start + i, col));
                    last = start + i;
                }
                col += c.len_utf16() as u32;
            }
        }
        LineIndex { starts, ascii, marks, len: text.len() }
    }

    /// The marks of line `line` (a line that is not plain ASCII).
    fn marks_of(&self, line: usize) -> &[(usize, u32)] {
        let start = self.starts.get(line).copied().unwrap_or(0);
        let end = self.starts.get(line + 1).copied().unwrap_or(usize::MAX);
        let from = self.marks.partition_point(|m| m.0 < start);
        let to = self.marks.partition_point(|m| m.0 < end);
        &self.marks[from..to.max(from)]
    }

    /// The LSP position of byte `offset` of `text` (the text this index was made from). An offset
    /// inside a character counts as the start of that character; one past the end, the end.
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = offset.min(self.len).min(text.len());
        let line = self.starts.partition_point(|&s| s <= offset).saturating_sub(1);
        let start = self.starts.get(line).copied().unwrap_or(0).min(offset);
        if self.ascii.get(line).copied().unwrap_or(false) {
            return Position::new(line as u32, (offset - start) as u32);
        }
        let marks = self.marks_of(line);
        let (start, mut col) = marks
            .get(marks.partition_point(|m| m.0 <= offset).wrapping_sub(1))
            .copied()
            .unwrap_or((start, 0));
        for (i, c) in text.get(start..).unwrap_or("").char_indices() {
            if start + i + c.len_utf8() > offset {
                break;
            }
            col += c.len_utf16() as u32;
        }
        Position::new(line as u32, col)
    }

    /// The byte offset of LSP position `pos` in `text`: a column past the end of its line is the end
    /// of the line, a line past the end of the text is the end of the text, and a column inside a
    /// character (between the halves of a surrogate pair) is the start of that character.
    pub fn offset(&self, text: &str, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else { return text.len() };
        let end = self.starts.get(pos.line as usize + 1).map_or(text.len(), |&e| e - 1);
        let line = text.get(start..end.max(start)).unwrap_or("");
        let line = line.strip_suffix('\r').unwrap_or(line);
        if self.ascii.get(pos.line as usize).copied().unwrap_or(false) {
            return start + line.len().min(pos.character as usize);
        }
        let marks = self.marks_of(pos.line as usize);
        let (from, mut col) = marks
            .get(marks.partition_point(|m| m.1 <= pos.character).wrapping_sub(1))
            .copied()
            .unwrap_or((start, 0));
        let rest = line.get(from - start..).unwrap_or("");
        for (i, c) in rest.char_indices() {
            let next = col + c.len_utf16() as u32;
            if next > pos.character {
                return from + i;
            }
            col = next;
        }
        start + line.len()
    }

    /// The LSP range of byte span `span` of `text`.
    pub fn range(&self, text: &str, span: Span) -> Range {
        Range::new(self.position(text, span.start), self.position(text, span.end.max(span.start)))
    }

    /// The byte span of LSP range `range` of `text`.
    pub fn span(&self, text: &str, range: Range) -> Span {
        let start = self.offset(text, range.start);
        Span::new(start, self.offset(text, range.end).max(start))
    }

    /// The line that byte `offset` is on.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset).saturating_sub(1)
    }
}

/// Positions of increasing byte offsets in one text, each worked out from the one before: linear in
/// the text however long its lines.
pub struct Cursor<'a> {
    text: &'a str,
    offset: usize,
    pos: Position,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text`.
    pub fn new(text: &'a str) -> Cursor<'a> {
        Cursor { text, offset: 0, pos: Position::new(0, 0) }
    }

    /// The position of byte `offset` (as [`LineIndex::position`] gives it).
    pub fn to(&mut self, offset: usize) -> Position {
        let offset = offset.min(self.text.len());
        if offset < self.offset {
            *self = Cursor::new(self.text);
        }
        for (i, c) in self.text.get(self.offset..).unwrap_or("").char_indices() {
            if self.offset + i + c.len_utf8() > offset {
                self.offset += i;
                return self.pos;
            }
            if c == '\n' {
                self.pos = Position::new(self.pos.line + 1, 0);
            } else {
                self.pos.character += c.len_utf16() as u32;
            }
        }
        self.offset = self.text.len();
        self.pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_round_trips() {
        let text = "kind unit {\n  spi: 0..6\n}\n";
        let idx = LineIndex::new(text);
        assert_eq!(idx.position(text, 0), Position::new(0, 0));
        assert_eq!(idx.position(text, 14), Position::new(1, 2));
        assert_eq!(idx.offset(text, Position::new(1, 2)), 14);
        assert_eq!(idx.position(text, text.len()), Position::new(3, 0));
        for o in 0..=text.len() {
            assert_eq!(idx.offset(text, idx.position(text, o)), o);
        }
    }

    #[test]
    fn non_ascii_columns_count_utf16_units() {
        // `é` is 2 bytes and 1 UTF-16 unit; `𝔡` is 4 bytes and 2 units (a surrogate pair); `—` is 3
        // bytes and 1 unit.
        let text = "/// é — 𝔡 spi\nkind é\n";
        let idx = LineIndex::new(text);
        let spi = text.find("spi").unwrap();
        assert_eq!(idx.position(text, spi), Position::new(0, 11));
        assert_eq!(idx.offset(text, Position::new(0, 11)), spi);
        let d = text.find('𝔡').unwrap();
        assert_eq!(idx.position(text, d), Position::new(0, 8));
        // Between the two halves of the pair: the start of the character.
        assert_eq!(idx.offset(text, Position::new(0, 9)), d);
        // An offset inside a character counts as its start.
        assert_eq!(idx.position(text, d + 1), Position::new(0, 8));
        let e2 = text.rfind('é').unwrap();
        assert_eq!(idx.position(text, e2), Position::new(1, 5));
        assert_eq!(idx.position(text, e2 + 2), Position::new(1, 6));
        for (o, _) in text.char_indices() {
            assert_eq!(idx.offset(text, idx.position(text, o)), o);
        }
        let mut cursor = Cursor::new(text);
        for o in (0..=text.len()).chain([3, text.len() + 5]) {
            assert_eq!(cursor.to(o), idx.position(text, o), "at {o}");
        }
    }

    #[test]
    fn long_lines_with_other_characters_round_trip() {
        let text = format!("x\n{}\r\nend", "aé𝔡—b ".repeat(400));
        let idx = LineIndex::new(&text);
        let mut units = 0u32;
        let start = 2;
        for (i, c) in text[start..].char_indices().take_while(|(_, c)| *c != '\n') {
            assert_eq!(idx.position(&text, start + i), Position::new(1, units), "at {i}");
            assert_eq!(idx.offset(&text, Position::new(1, units)), start + i);
            units += c.len_utf16() as u32;
        }
        assert_eq!(idx.offset(&text, Position::new(1, 999_999)), text.find('\r').unwrap());
        assert_eq!(idx.position(&text, text.len()), Position::new(2, 3));
    }

    #[test]
    fn out_of_range_positions_are_clamped() {
        let text = "ab\r\ncd";
        let idx = LineIndex::new(text);
        assert_eq!(idx.offset(text, Position::new(0, 99)), 2);
        assert_eq!(idx.offset(text, Position::new(1, 99)), 6);
        assert_eq!(idx.offset(text, Position::new(7, 0)), 6);
        assert_eq!(idx.position(text, 999), Position::new(1, 2));
        assert_eq!(idx.line_of(5), 1);
    }
}
