//! Text bound for a terminal: control characters from a ruleset, script, save or typed line are shown
//! escaped (`\u{1b}`), so that no input can move the cursor, retitle the window, write the clipboard or
//! hide what it did; bidirectional overrides and isolates (which reorder what is shown) are escaped too.

use std::borrow::Cow;

/// Whether `c` is shown escaped on a terminal: a control character (C0 but line breaks and tabs,
/// DEL, C1) or a bidirectional mark, embedding, override or isolate.
///
/// ```
/// use mettle::text::escaped;
/// assert!(escaped('\u{1b}') && escaped('\u{9b}') && escaped('\u{7f}') && escaped('\u{202e}'));
/// assert!(!escaped('\n') && !escaped('\t') && !escaped('é'));
/// ```
pub fn escaped(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{61c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// How an escaped character is shown: `\u{1b}`, its code point in hex.
pub fn escape_char(c: char) -> String {
    format!("\\u{{{:x}}}", c as u32)
}

/// `text` with every character that [`escaped`] names shown as `\u{…}`: for text from outside
/// (a ruleset, a save, a typed line, a command-line value) put into a message. Line breaks and tabs
/// stay.
///
/// ```
/// use mettle::text::visible;
/// assert_eq!(visible("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
/// assert_eq!(visible("\u{1b}[31mred"), "\\u{1b}[31mred", "no colour from outside either");
/// assert_eq!(visible("abc\u{202e}def"), "abc\\u{202e}def");
/// assert_eq!(visible("plain"), "plain");
/// ```
pub fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if escaped(c) {
            out.push_str(&escape_char(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` with every character that [`escaped`] names shown as `\u{…}`, except the colour codes
/// (`ESC [ … m`) that only set colours and styles: for what mettle itself prints, its own colours
/// included, on its way to the terminal.
///
/// ```
/// use mettle::text::escape_controls;
/// assert_eq!(escape_controls("a\u{1b}]0;owned\u{7}b"), "a\\u{1b}]0;owned\\u{7}b");
/// assert_eq!(escape_controls("\u{1b}[31mred\u{1b}[0m\n"), "\u{1b}[31mred\u{1b}[0m\n");
/// assert_eq!(escape_controls("plain"), "plain");
/// ```
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\u{1b}'
            && let Some(len) = colour_code(rest)
        {
            out.push_str(&rest[..len]);
            rest = &rest[len..];
            continue;
        }
        if escaped(c) {
            out.push_str(&escape_char(c));
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
}

/// The length of the colour code (`ESC [ digits and ; m`) at the start of `text`, if there is one.
fn colour_code(text: &str) -> Option<usize> {
    let body = text.strip_prefix("\u{1b}[")?;
    let n = body.bytes().take_while(|b| b.is_ascii_digit() || *b == b';').count();
    (n <= 32 && body.as_bytes().get(n) == Some(&b'm')).then_some(2 + n + 1)
}
