//! Characters that do not show, or show as something they are not: a zero-width space inside a name,
//! a no-break space pasted from a web page, a Cyrillic `і` among Latin letters. Found before parsing,
//! each named with its code point, so that the message says what the eye cannot see.

use crate::ast::Span;
use crate::diagnostics::Diagnostic;
use std::borrow::Cow;

/// The text as the parser reads it: a byte order mark at the start becomes spaces and a lone carriage
/// return (old Mac line endings) a line feed, byte for byte, so that every span still points into the
/// text as written.
///
/// ```
/// assert_eq!(mettle::internals::syntax::normalize("\u{feff}kind"), "   kind");
/// assert_eq!(mettle::internals::syntax::normalize("a\rb\r\nc"), "a\nb\r\nc");
/// ```
pub fn normalize(text: &str) -> Cow<'_, str> {
    let bom = text.starts_with('\u{feff}');
    let lone_cr = text.as_bytes().windows(2).any(|w| w[0] == b'\r' && w[1] != b'\n') || text.ends_with('\r');
    if !bom && !lone_cr {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let body = if bom {
        out.push_str("   ");
        &text[3..]
    } else {
        text
    };
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() != Some(&'\n') {
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// What an unexpected character is, for messages.
enum Odd {
    /// Shows as nothing at all.
    Invisible(&'static str),
    /// Shows as a space but is not one the language reads as a space.
    Space(&'static str),
    /// Looks like a Latin letter or a plain quote but is not.
    LooksLike(&'static str, &'static str),
}

fn odd(c: char) -> Option<Odd> {
    use Odd::*;
    Some(match c {
        '\u{0}' => Invisible("a NUL character"),
        '\u{200b}' => Invisible("a zero-width space"),
        '\u{200c}' => Invisible("a zero-width non-joiner"),
        '\u{200d}' => Invisible("a zero-width joiner"),
        '\u{2060}' => Invisible("a word joiner"),
        '\u{feff}' => Invisible("a zero-width no-break space (byte order mark)"),
        '\u{ad}' => Invisible("a soft hyphen"),
        '\u{200e}' | '\u{200f}' => Invisible("a text-direction mark"),
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => Invisible("a text-direction control"),
        '\u{a0}' => Space("a no-break space"),
        '\u{202f}' => Space("a narrow no-break space"),
        '\u{2000}'..='\u{200a}' | '\u{205f}' | '\u{3000}' | '\u{1680}' => Space("a typographic space"),
        '\u{2018}' | '\u{2019}' => LooksLike("a curly quote", "'"),
        '\u{201c}' | '\u{201d}' => LooksLike("a curly double quote", "\""),
        '\u{2013}' => LooksLike("an en dash", "-"),
        '\u{2014}' => LooksLike("an em dash", "-"),
        '\u{2212}' => LooksLike("a minus sign", "-"),
        c if c.is_control() && !matches!(c, '\n' | '\r' | '\t') => Invisible("a control character"),
        _ => return None,
    })
}

/// The Latin letter a Cyrillic or Greek letter is mistaken for, when it is one.
fn latin_twin(c: char) -> Option<char> {
    Some(match c {
        'а' | 'α' => 'a',
        'с' | 'ϲ' => 'c',
        'е' | 'ε' => 'e',
        'һ' => 'h',
        'і' | 'ι' => 'i',
        'ј' => 'j',
        'к' | 'κ' => 'k',
        'м' => 'm',
        'о' | 'ο' | 'σ' => 'o',
        'р' | 'ρ' => 'p',
        'ԛ' => 'q',
        'ѕ' => 's',
        'т' | 'τ' => 't',
        'υ' => 'u',
        'ν' => 'v',
        'ԝ' => 'w',
        'х' | 'χ' => 'x',
        'у' | 'γ' => 'y',
        'А' | 'Α' => 'A',
        'В' | 'Β' => 'B',
        'С' => 'C',
        'Е' | 'Ε' => 'E',
        'Н' | 'Η' => 'H',
        'І' | 'Ι' => 'I',
        'К' | 'Κ' => 'K',
        'М' | 'Μ' => 'M',
        'О' | 'Ο' => 'O',
        'Р' | 'Ρ' => 'P',
        'Т' | 'Τ' => 'T',
        'Х' | 'Χ' => 'X',
        'Ү' | 'Υ' => 'Y',
        'Ζ' => 'Z',
        _ => return None,
    })
}

/// The most odd characters reported from one text: past these, the rest are surely the same mistake.
const MAX_REPORTED: usize = 20;

/// Every invisible, space-like or look-alike character outside strings and comments, as errors that
/// name it by its code point. `offset` is added to the spans.
pub(crate) fn odd_characters(text: &str, offset: usize) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut quote: Option<char> = None;
    let mut comment = false;
    let mut prev: Option<char> = None;
    let mut iter = text.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        let next = iter.peek().map(|&(_, n)| n);
        if comment {
            comment = c != '\n';
        } else if let Some(q) = quote {
            if c == q || (c == '\n' && q == '"') {
                quote = None;
            }
        } else if c == '/' && next == Some('/') {
            comment = true;
        } else if c == '"' || c == '`' {
            quote = Some(c);
        } else if out.len() < MAX_REPORTED
            && let Some(d) = diagnose(c, prev, next, Span::new(offset + i, offset + i + c.len_utf8()))
        {
            out.push(d);
        }
        prev = Some(c);
    }
    out
}

fn diagnose(c: char, prev: Option<char>, next: Option<char>, span: Span) -> Option<Diagnostic> {
    // Plain text is nearly all of it: answer it without any work.
    if c.is_ascii() && !c.is_ascii_control() {
        return None;
    }
    let point = format!("U+{:04X}", c as u32);
    if let Some(odd) = odd(c) {
        let (code, what, label, help) = match odd {
            Odd::Invisible(what) => (
                "parse::invisible_character",
                what.to_string(),
                "an invisible character is here",
                "delete it: most editors do not show it (it often comes with text copied from a web page or a document)".to_string(),
            ),
            Odd::Space(what) => (
                "parse::odd_space",
                what.to_string(),
                "this is not a plain space",
                "replace it with a plain space".to_string(),
            ),
            Odd::LooksLike(what, plain) => (
                "parse::lookalike_character",
                what.to_string(),
                "this is not the plain character",
                format!("replace it with a plain `{plain}` (word processors change quotes and dashes as you type)"),
            ),
        };
        return Some(
            Diagnostic::error(code, format!("{what} ({point}) is in the ruleset here"), span, label)
                .with_help(help),
        );
    }
    // A Cyrillic or Greek letter next to a Latin one: one word written in two alphabets.
    let latin = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    let twin = latin_twin(c)?;
    if !(latin(prev) || latin(next)) {
        return None;
    }
    let script = if ('\u{370}'..='\u{3ff}').contains(&c) { "Greek" } else { "Cyrillic" };
    Some(
        Diagnostic::error(
            "parse::lookalike_character",
            format!("the {script} letter `{c}` ({point}) is among Latin letters here"),
            span,
            format!("looks like `{twin}` but is not"),
        )
        .with_help(format!(
            "replace it with the Latin letter `{twin}`: names must be spelt the same everywhere"
        )),
    )
}
