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
}

impl Writer {
    /// Ends the current line (with a blank line after it when `blank`) and indents the next one.
    fn line(&mut self, blank: bool, (indent, continued): (usize, bool)) {
        if !self.out.is_empty() {
            let kept = self.out.trim_end_matches([' ', '\t']).len();
            self.out.truncate(kept);
            self.out.push('\n');
            if blank {
                self.out.push('\n');
            }
        }
        for _ in 0..indent {
            self.out.push_str(INDENT);
        }
        self.pending = false;
        self.indent = indent;
        self.continued = continued;
    }

    fn push(&mut self, s: &str) {
        self.out.push_str(s);
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
    let partner = partners(tokens);
    // A `{ … }` of fields or statements that takes more than one line puts its contents on their own
    // lines, between a line that ends with `{` and one that starts with `}`.
    let mut tall = vec![false; n];
    for (i, t) in tokens.iter().enumerate() {
        if let (TokenKind::Open(Bracket::Block), Some(j)) = (t.kind, partner[i]) {
            tall[i] = (i + 1..=j).any(|k| tokens[k].own_line || gaps[k].breaks());
            tall[j] = tall[i];
        }
    }

    let mut w = Writer { out: String::new(), pending: false, indent: 0, continued: false };
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
            let joined = t.joins_close && prev.is_some_and(|p| p.kind == TokenKind::Close(Bracket::Block));
            let breaks = w.pending
                || !(t.glue || empty)
                    && (t.own_line || closes_tall || opened_tall || (g.breaks_after > 0 && !joined));
            if breaks {
                let blank = g.breaks_after >= 2
                    && !matches!(t.kind, TokenKind::Close(_))
                    && !(after_open && g.comments.is_empty());
                w.line(blank, target);
            } else {
                w.push(space(prev, t));
            }
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

/// The matching bracket of every bracket token.
fn partners(tokens: &[Token]) -> Vec<Option<usize>> {
    let mut partner = vec![None; tokens.len()];
    let mut open = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        match t.kind {
            TokenKind::Open(_) => open.push(i),
            TokenKind::Close(_) => {
                if let Some(o) = open.pop() {
                    partner[o] = Some(i);
                    partner[i] = Some(o);
                }
            }
            _ => {}
        }
    }
    partner
}

/// The indentation of a line that starts with `t`, after `prev`, inside the brackets `stack`: the
/// depth of the brackets opened on earlier lines, one more for a line that continues an entry (and
/// whether it does).
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
        || match prev {
            None => true,
            Some(p) => {
                matches!(p.kind, TokenKind::Open(_) | TokenKind::Doc) || (list && p.kind == TokenKind::Comma)
            }
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
        (Dot, _) | (_, Dot) => "",
        (Number, DotDot) | (DotDot, Number) => "",
        (Slash, _) | (_, Slash) => "",
        (Prefix, _) => "",
        (Ident, Open(Bracket::Paren)) => "",
        _ if t.entry => "  ",
        _ => " ",
    }
}
