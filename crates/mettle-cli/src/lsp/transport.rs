//! The language server's message reader: `Content-Length` framing read within a budget, so that no
//! header, claimed length or body can make the server run out of memory, panic or lose its place.

use lsp_server::Message;
use std::collections::VecDeque;
use std::io::{BufRead, ErrorKind, Read};

/// Largest message body the server takes, in bytes (64 MiB: a ruleset at the 8 MiB `ruleset_bytes`
/// budget, escaped as JSON, fits several times over). A larger one is skipped, never held.
pub const MESSAGE_BYTES: u64 = 64 * 1024 * 1024;

/// Longest header line kept, in bytes; the rest of a longer line is read and dropped.
const HEADER_LINE_BYTES: usize = 8 * 1024;

/// Bytes read at a time when a refused body is skipped.
const SKIP_CHUNK: usize = 64 * 1024;

/// A message the reader could not take, and why. The reader has already found its place again (or
/// the input has ended): the next call reads the next message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// What went wrong, such as `mettle::lsp::too_large`.
    pub code: &'static str,
    /// A sentence for the editor's log: what, and how to fix it.
    pub message: String,
}

impl Refusal {
    fn new(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal { code, message: message.into() }
    }
}

/// Reads messages one by one from `input`, refusing what it cannot take.
pub struct Reader<R> {
    input: R,
    /// The largest body taken.
    limit: u64,
    /// Bytes of a refused body still to skip.
    skip: u64,
    /// What to hand out before reading more.
    pending: VecDeque<Result<Message, Refusal>>,
    /// The input has ended (or failed).
    done: bool,
}

/// One header line, as far as it was kept.
enum Line {
    /// The input ended before any byte of a line.
    End,
    /// A line without its end of line (`\r\n` or `\n`); `long` when more than was kept was dropped.
    Text { text: Vec<u8>, long: bool, ended: bool },
}

impl<R: BufRead> Reader<R> {
    /// A reader of `input` taking bodies of at most `limit` bytes.
    pub fn new(input: R, limit: u64) -> Reader<R> {
        Reader { input, limit: limit.max(1), skip: 0, pending: VecDeque::new(), done: false }
    }

    /// The next message, a refusal (after which reading goes on), or `None` when the input has ended.
    #[allow(clippy::should_implement_trait, reason = "an iterator's `next`, with a simpler name to call")]
    pub fn next(&mut self) -> Option<Result<Message, Refusal>> {
        loop {
            if let Some(p) = self.pending.pop_front() {
                return Some(p);
            }
            if self.done {
                return None;
            }
            if self.skip > 0 {
                self.skip_body();
                continue;
            }
            self.read_one();
        }
    }

    /// Skips what is left of a refused body, a chunk at a time.
    fn skip_body(&mut self) {
        while self.skip > 0 {
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => return self.end(),
            };
            if buf.is_empty() {
                return self.end();
            }
            let n = buf.len().min(SKIP_CHUNK).min(usize::try_from(self.skip).unwrap_or(usize::MAX));
            self.input.consume(n);
            self.skip -= n as u64;
        }
    }

    fn end(&mut self) {
        self.done = true;
        self.skip = 0;
    }

    /// Reads one line of at most `HEADER_LINE_BYTES`, dropping the rest of a longer one.
    fn line(&mut self) -> Line {
        let mut text = vec![];
        let mut long = false;
        let mut any = false;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => &[][..],
            };
            if buf.is_empty() {
                return if any { Line::Text { text, long, ended: false } } else { Line::End };
            }
            any = true;
            let (part, found) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], Some(i + 1)),
                None => (buf, None),
            };
            let room = HEADER_LINE_BYTES - text.len();
            if part.len() > room {
                long = true;
            }
            text.extend_from_slice(&part[..part.len().min(room)]);
            let used = found.unwrap_or(buf.len());
            self.input.consume(used);
            if found.is_some() {
                if text.last() == Some(&b'\r') {
                    text.pop();
                }
                return Line::Text { text, long, ended: true };
            }
        }
    }

    /// Reads one header block and its body, queueing a message or a refusal (or ending).
    fn read_one(&mut self) {
        let mut length: Option<Result<u64, String>> = None;
        let mut headers = 0usize;
        let mut garbage = 0usize;
        let mut long = false;
        loop {
            let (text, too_long, ended) = match self.line() {
                Line::End => {
                    if headers > 0 || garbage > 0 {
                        self.refuse_garbage(garbage, long);
                        self.pending.push_back(Err(Refusal::new(
                            "mettle::lsp::truncated",
                            "the input ended inside a message's headers; that message is lost",
                        )));
                    }
                    return self.end();
                }
                Line::Text { text, long, ended } => (text, long, ended),
            };
            long |= too_long;
            if text.is_empty() && ended {
                if headers == 0 {
                    // Blank lines between messages are read past.
                    continue;
                }
                break;
            }
            let line = String::from_utf8_lossy(&text);
            // After a body with no usable length, the next header may follow the body on its line.
            let at = find_ignore_case(&line, "content-length:");
            let header = match at {
                Some(i) if i > 0 => {
                    garbage += 1;
                    &line[i..]
                }
                _ => &line[..],
            };
            match header.split_once(':') {
                Some((name, value)) if !too_long && is_token(name) => {
                    headers += 1;
                    if name.eq_ignore_ascii_case("content-length") {
                        let v = value.trim();
                        length = Some(v.parse::<u64>().map_err(|_| v.chars().take(40).collect()));
                    }
                    // `Content-Type` and any other header are read past.
                }
                _ => garbage += 1,
            }
            if !ended {
                // The input ended in the middle of a header line.
                self.refuse_garbage(garbage, long);
                self.pending.push_back(Err(Refusal::new(
                    "mettle::lsp::truncated",
                    "the input ended inside a message's headers; that message is lost",
                )));
                return self.end();
            }
        }
        self.refuse_garbage(garbage, long);
        match length {
            None => self.pending.push_back(Err(Refusal::new(
                "mettle::lsp::no_length",
                "a message came without a `Content-Length` header, so where it ends is unknown; it is \
                 skipped up to the next header. Each message must start `Content-Length: N` and an \
                 empty line",
            ))),
            Some(Err(v)) => self.pending.push_back(Err(Refusal::new(
                "mettle::lsp::bad_length",
                format!(
                    "`Content-Length: {v}` is not a size in bytes, so where the message ends is \
                     unknown; it is skipped up to the next header. Write the body's length in bytes \
                     as a whole number"
                ),
            ))),
            Some(Ok(n)) if n > self.limit => {
                self.pending.push_back(Err(Refusal::new(
                    "mettle::lsp::too_large",
                    format!(
                        "a message of {n} bytes is over the limit of {} bytes; it is skipped and the \
                         server goes on. Send smaller messages (a ruleset is at most 8 MiB)",
                        self.limit
                    ),
                )));
                self.skip = n;
            }
            Some(Ok(n)) => self.body(n),
        }
    }

    /// Reports header lines that were not headers.
    fn refuse_garbage(&mut self, garbage: usize, long: bool) {
        if garbage == 0 && !long {
            return;
        }
        let what = if long {
            format!("a header line longer than {HEADER_LINE_BYTES} bytes")
        } else {
            format!("{garbage} line(s) that are not `Name: value` headers")
        };
        self.pending.push_back(Err(Refusal::new(
            "mettle::lsp::bad_header",
            format!("read past {what}; each message must start `Content-Length: N` and an empty line"),
        )));
    }

    /// Reads a body of `n` bytes (no more than the limit) and hands on the message in it.
    fn body(&mut self, n: u64) {
        // Grown as bytes come, so a claim larger than what is sent costs only what is sent.
        let mut body = Vec::new();
        let got = std::io::Read::by_ref(&mut self.input).take(n).read_to_end(&mut body);
        if got.is_err() || (body.len() as u64) < n {
            self.pending.push_back(Err(Refusal::new(
                "mettle::lsp::truncated",
                format!("the input ended {} bytes into a message said to have {n}; it is lost", body.len()),
            )));
            return self.end();
        }
        let text = match String::from_utf8(body) {
            Ok(t) => t,
            Err(e) => {
                return self.pending.push_back(Err(Refusal::new(
                    "mettle::lsp::not_utf8",
                    format!(
                        "a message is not UTF-8 text (a bad byte at offset {}); it is skipped. Send \
                         messages as UTF-8 JSON",
                        e.utf8_error().valid_up_to()
                    ),
                )));
            }
        };
        match serde_json::from_str::<Message>(&text) {
            Ok(m) => self.pending.push_back(Ok(m)),
            Err(e) => self.pending.push_back(Err(Refusal::new(
                "mettle::lsp::bad_message",
                format!("a message is not a JSON-RPC request, response or notification ({e}); it is skipped"),
            ))),
        }
    }
}

/// Whether `name` can be a header's name (letters, digits, `-`).
fn is_token(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// Where `needle` (lower case ASCII) is in `hay`, ignoring case.
fn find_ignore_case(hay: &str, needle: &str) -> Option<usize> {
    let h = hay.as_bytes();
    let n = needle.as_bytes();
    (0..=h.len().checked_sub(n.len())?).find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

/// Every message and refusal in `bytes`, in order, with a limit of `limit` bytes (for tests and fuzzing).
pub fn read_all(bytes: &[u8], limit: u64) -> Vec<Result<Message, Refusal>> {
    let mut r = Reader::new(bytes, limit);
    std::iter::from_fn(|| r.next()).collect()
}
