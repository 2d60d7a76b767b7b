//! Tokens and comments back to text: indentation from bracket depth, spacing from each pair of tokens.

use crate::syntax::{Bracket, Token, TokenKind};

/// Spaces per level of indentation.
const INDENT: &str = "  ";

/// A `//` comment between two tokens.
struct Comment<'a> {
    /// Its text, without trailing whitespace.
    text: &'a str,
    /// Line breaks between the token or comment before it and it.
    breaks_before: usize,
}

/// What lies between two tokens (or before the first, or after the last).
struct Gap<'a> {
    comments: Vec<Comment<'a>>,
    /// Line breaks after the last comment (or in the whole gap, when there is no comment).
    breaks_after: usize,
}

impl Gap<'_> {
    /// Whether anything in the gap ends a line.
    fn breaks(&self) -> bool {
        !self.comments.is_empty() || self.breaks_after > 0
    }
}

/// Reads the gap `text[from..to]`. Anything there other than whitespace and comments is a token the
/// formatter missed: its offset is returned as the error, so that nothing is ever dropped.
fn gap(text: &str, from: usize, to: usize) -> Result<Gap<'_>, usize> {
    let bytes = text.as_bytes();
    let mut g = Gap { comments: Vec::new(), breaks_after: 0 };
    let mut i = from;
    while i < to {
        match bytes[i] {
            b'\n' => {
                g.breaks_after += 1;
                i += 1;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let start = i;
                while i < to && bytes[i] != b'\n' {
                    i += 1;
                }
                let text = text[start..i].trim_end();
                g.comments.push(Comment { text, breaks_before: g.breaks_after });
                g.breaks_after = 0;
            }
            _ => return Err(i),
        }
    }
    Ok(g)
}

/// An open bracket.
struct Frame {
    bracket: Bracket,
    /// Indentation of the line it was opened on.
    indent: usize,
}

/// The text being written.
struct Writer {
    out: String,
    /// Whether the current line ends with a comment, so that what comes next needs a new line.
    pending: bool,
    /// Indentation of the current line.
    indent: usize,
    /// Whether the current line continues an entry begun on an earlier line (one level deeper).
    continued: bool,
    /// Line breaks written so far.
    lines: usize,
    /// Characters on the current line so far.
    column: usize,
}

impl Writer {
    /// Ends the current line (with a blank line after it when `blank`) and indents the next one.
    fn line(&mut self, blank: bool, (indent, continued): (usize, bool)) {
        if !self.out.is_empty() {
            let kept = self.out.trim_end_matches([' ', '\t']).len();
            self.out.truncate(kept);
            self.out.push('\n');
            self.lines += 1;
            if blank {
                self.out.push('\n');
                self.lines += 1;
            }
        }
        for _ in 0..indent {
            self.out.push_str(INDENT);
        }
        self.column = indent * INDENT.len();
        self.pending = false;
        self.indent = indent;
        self.continued = continued;
    }

    fn push(&mut self, s: &str) {
        self.out.push_str(s);
        match s.rfind('\n') {
            Some(at) => self.column = s[at + 1..].chars().count(),
            None => self.column += s.chars().count(),
        }
    }
}

/// Lays out `tokens` of `text` (with the comments between them) in the canonical style. The error
/// is the offset of text that is neither a token, whitespace nor a comment.
pub(super) fn layout(text: &str, tokens: &[Token]) -> Result<String, usize> {
    let n = tokens.len();
    let mut gaps = Vec::with_capacity(n + 1);
    for i in 0..=n {
        let from = if i == 0 { 0 } else { tokens[i - 1].span.end };
        let to = if i == n { text.len() } else { tokens[i].span.start };
        gaps.push(gap(text, from, to.max(from))?);
    }
    let (tall, parent) = tall_blocks(tokens, &gaps);
    let mut rows: Vec<Row> = Vec::new();
    let mut w =
        Writer { out: String::new(), pending: false, indent: 0, continued: false, lines: 0, column: 0 };
    let mut stack: Vec<Frame> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| &tokens[p]);
        let g = &gaps[i];
        let target = indent_for(t, prev, &stack);
        let comment_indent = match t.kind {
            TokenKind::Close(_) => (stack.last().map_or(0, |f| f.indent + 1), false),
            _ => target,
        };
        let after_open = prev.is_some_and(|p| matches!(p.kind, TokenKind::Open(_)));
        comments(&mut w, g, after_open, comment_indent);

        if !w.out.is_empty() {
            let closes_tall = matches!(t.kind, TokenKind::Close(Bracket::Block)) && tall[i];
            let opened_tall = after_open && tall[i - 1];
            let empty = after_open && matches!(t.kind, TokenKind::Close(_)) && g.comments.is_empty();
            // `} else`, and a `{` of statements or fields, stay on the line before.
            let joined = (t.joins_close && prev.is_some_and(|p| p.kind == TokenKind::Close(Bracket::Block)))
                || t.kind == TokenKind::Open(Bracket::Block);
            // An item, statement or check line starts a line, unless it is alone in a `{ … }` written
            // on one line.
            let own_line = t.own_line && parent[i].is_none_or(|o| tall[o]);
            let breaks = w.pending
                || !(t.glue || empty)
                    && (own_line || closes_tall || opened_tall || (g.breaks_after > 0 && !joined));
            if breaks {
                let blank = g.breaks_after >= 2
                    && !matches!(t.kind, TokenKind::Close(_))
                    && !(after_open && g.comments.is_empty());
                w.line(blank, target);
            } else {
                w.push(space(prev, t));
            }
        }
        if t.row_colon {
            rows.push(Row { table: parent[i], line: w.lines, at: w.out.len() + 1, column: w.column + 1 });
        }
        match t.kind {
            TokenKind::Doc => w.push(text[t.span.start..t.span.end].trim_end()),
            _ => w.push(&text[t.span.start..t.span.end]),
        }
        match t.kind {
            // A `{ … }` opened on a continued line lines up with the entry it belongs to.
            TokenKind::Open(bracket) => {
                let indent = if bracket == Bracket::Block && w.continued { w.indent - 1 } else { w.indent };
                stack.push(Frame { bracket, indent });
            }
            TokenKind::Close(_) => {
                stack.pop();
            }
            _ => {}
        }
    }
    comments(&mut w, &gaps[n], false, (0, false));
    let mut out = w.out;
    align(&mut out, &rows);
    let kept = out.trim_end().len();
    out.truncate(kept);
    if !out.is_empty() {
        out.push('\n');
    }
    Ok(out)
}

/// Writes the comments of a gap, each at the end of the current line if it was written at a line's
/// end, else on a line of its own at `indent`. A comment leaves its line to be ended.
fn comments(w: &mut Writer, g: &Gap<'_>, after_open: bool, indent: (usize, bool)) {
    for (k, c) in g.comments.iter().enumerate() {
        if w.out.is_empty() {
            // The file starts with it.
        } else if c.breaks_before == 0 && !w.pending {
            w.push(" ");
        } else {
            let blank = c.breaks_before >= 2 && (k > 0 || !after_open);
            w.line(blank, indent);
        }
        w.push(c.text);
        w.pending = true;
    }
}

/// For each `{ … }` of fields or statements (at both brackets): whether it takes more than one line.
/// It does when it was written over several lines, holds two or more statements or check lines, or
/// holds a `{ … }` itself. Also, for every token, the innermost bracket it is inside.
fn tall_blocks(tokens: &[Token], gaps: &[Gap<'_>]) -> (Vec<bool>, Vec<Option<usize>>) {
    let n = tokens.len();
    let mut tall = vec![false; n];
    let mut parent = vec![None; n];
    let mut lines = vec![0usize; n];
    let mut open: Vec<usize> = Vec::new();
    for (k, t) in tokens.iter().enumerate() {
        if matches!(t.kind, TokenKind::Close(_)) {
            let Some(o) = open.pop() else { continue };
            parent[k] = open.last().copied();
            if tokens[o].kind == TokenKind::Open(Bracket::Block) {
                let broken = (o + 1..=k).any(|m| gaps[m].breaks());
                tall[o] = tall[o] || broken || lines[o] >= 2;
                tall[k] = tall[o];
                // A `{ … }` inside another makes the outer one tall.
                if let Some(p) = parent[k] {
                    tall[p] = true;
                }
            }
            continue;
        }
        parent[k] = open.last().copied();
        if let (true, Some(p)) = (t.own_line, parent[k]) {
            lines[p] += 1;
        }
        if matches!(t.kind, TokenKind::Open(_)) {
            open.push(k);
        }
    }
    (tall, parent)
}

/// The `:` of a table row, as written.
struct Row {
    /// The table's `{`.
    table: Option<usize>,
    /// The output line it is on.
    line: usize,
    /// Offset in the output just after it.
    at: usize,
    /// Column just after it.
    column: usize,
}

/// Lines up the values of table rows written one to a line, one after another in the same table: each
/// value starts one space after the longest row's `:`.
fn align(out: &mut String, rows: &[Row]) {
    // Rows are in output order: those on one line are next to each other.
    let alone = |i: usize| {
        (i == 0 || rows[i - 1].line != rows[i].line) && rows.get(i + 1).is_none_or(|r| r.line != rows[i].line)
    };
    // Whether row `i` is alone on its line, with its value after it on that line.
    let single = |i: usize| {
        let rest = &out[rows[i].at..];
        alone(i) && !rest.starts_with('\n') && !rest.starts_with(" //") && !rest.is_empty()
    };
    let mut inserts: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < rows.len() {
        if !single(i) {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < rows.len()
            && single(j)
            && rows[j].table == rows[i].table
            && rows[j].line == rows[j - 1].line + 1
        {
            j += 1;
        }
        let widest = rows[i..j].iter().map(|r| r.column).max().unwrap_or(0);
        inserts.extend(rows[i..j].iter().map(|r| (r.at, widest - r.column)));
        i = j;
    }
    for (at, pad) in inserts.into_iter().rev() {
        out.insert_str(at, &" ".repeat(pad));
    }
}

/// The indentation of a line that starts with `t`, after `prev`, inside the brackets `stack`: the
/// depth of the brackets opened on earlier lines, one more for a line that continues an entry (and
/// whether it does). Inside `( )`, `[ ]` and data maps every line is at the brackets' depth.
fn indent_for(t: &Token, prev: Option<&Token>, stack: &[Frame]) -> (usize, bool) {
    let (base, list) = match stack.last() {
        None => (0, false),
        Some(f) => (f.indent + 1, f.bracket != Bracket::Block),
    };
    if matches!(t.kind, TokenKind::Close(_)) {
        return (base.saturating_sub(1), false);
    }
    let starts = t.entry
        || t.joins_close
        || t.kind == TokenKind::Doc
        || list
        || match prev {
            None => true,
            Some(p) => matches!(p.kind, TokenKind::Open(_) | TokenKind::Doc),
        };
    if starts { (base, false) } else { (base + 1, true) }
}

/// The space between two tokens on one line.
fn space(prev: Option<&Token>, t: &Token) -> &'static str {
    use TokenKind::*;
    let Some(p) = prev else { return "" };
    if t.glue {
        return "";
    }
    match (p.kind, t.kind) {
        (Open(_), Close(_)) => "",
        (Open(Bracket::Block), _) | (_, Close(Bracket::Block)) => " ",
        (Open(_), _) | (_, Close(_)) => "",
        (_, Comma | Colon) => "",
        (Comma | Colon, _) => " ",
        _ if t.entry => "  ",
        (Dot, _) | (_, Dot) => "",
        (Number, DotDot) | (DotDot, Number) => "",
        (Slash, _) | (_, Slash) => "",
        (Prefix, _) => "",
        (Ident, Open(Bracket::Paren)) => "",
        _ => " ",
    }
}
