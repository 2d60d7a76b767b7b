//! Text bound for a terminal: control characters from a ruleset, script, save or typed line are shown
//! escaped (`\u{1b}`), so that no input can move the cursor, retitle the window or hide what it did.

use std::borrow::Cow;

/// `text` with every control character escaped as `\u{…}`, except line breaks, tabs and the colour
/// codes (`ESC [ … m`) that only set colours and styles.
///
/// ```
/// use mettle::text::escape_controls;
/// assert_eq!(escape_controls("a\u{1b}]0;owned\u{7}b"), "a\\u{1b}]0;owned\\u{7}b");
/// assert_eq!(escape_controls("\u{1b}[31mred\u{1b}[0m\n"), "\u{1b}[31mred\u{1b}[0m\n");
/// assert_eq!(escape_controls("plain"), "plain");
/// ```
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    let needs = text.chars().any(|c| c.is_control() && c != '\n' && c != '\t');
    if !needs {
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
        if c.is_control() && c != '\n' && c != '\t' {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
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
