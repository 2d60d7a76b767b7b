//! One open ruleset analysed: text, syntax tree, names, diagnostics and, when it loads, the ruleset.

use super::index::Index;
use super::position::LineIndex;
use lsp_types::Uri;
use mettle::diagnostics::Diagnostic;
use mettle::internals::ast::{File, Span};
use mettle::{Budget, LoadOptions, Ruleset};
use std::path::{Component, Path, PathBuf};
use std::str::FromStr;

/// Everything known about one version of a document.
pub struct Analysis {
    /// The text, with a byte order mark and lone carriage returns read as the library reads them
    /// (every byte offset unchanged).
    pub text: String,
    /// Line starts of `text`.
    pub lines: LineIndex,
    /// The syntax tree: every item that parses, even when others do not.
    pub file: File,
    /// Definitions and uses of names.
    pub index: Index,
    /// Errors and warnings, as `mettle check` reports them.
    pub diagnostics: Vec<Diagnostic>,
    /// The compiled ruleset, when the text has no errors.
    pub ruleset: Option<Ruleset>,
    /// The folder the document is in, where its script files are.
    pub base: Option<PathBuf>,
}

/// Largest script file read to find the functions it defines.
const SCRIPT_BYTES: u64 = 4 * 1024 * 1024;

impl Analysis {
    /// Analyses `text`, the document at `path` (if it is a file), within `budget`.
    pub fn new(text: &str, path: Option<&Path>, budget: &Budget) -> Analysis {
        let text = mettle::internals::syntax::normalize(text).into_owned();
        let base = path.and_then(Path::parent).map(Path::to_path_buf);
        let name = path.map_or_else(|| "untitled.mettle".to_string(), |p| p.display().to_string());
        let opts = LoadOptions { base: base.clone(), budget: budget.clone(), ..LoadOptions::default() };
        // A text over the size limit is not parsed: the library says why.
        let (file, syntax) = if text.len() as u64 > opts.budget.ruleset_bytes {
            (File::default(), vec![])
        } else {
            mettle::internals::syntax::parse(&text)
        };
        let (ruleset, diagnostics) = match mettle::internals::load_parsed(&name, &text, &file, syntax, &opts)
        {
            Ok(r) => {
                let mut d = r.warnings().to_vec();
                d.extend(mettle::odds::unreachable(&r));
                (Some(r), d)
            }
            Err(e) => (None, e.diagnostics),
        };
        // Only the first few hundred are kept: an editor is not stalled by hundreds of thousands.
        let diagnostics = crate::cli::capped(&diagnostics).into_owned();
        let read = |name: &str| read_script(base.as_deref(), name);
        let index = super::resolve::index(&file, &text, &read);
        let lines = LineIndex::new(&text);
        Analysis { text, lines, file, index, diagnostics, ruleset, base }
    }

    /// The LSP range of `span`.
    pub fn range(&self, span: Span) -> lsp_types::Range {
        self.lines.range(&self.text, span)
    }

    /// The byte offset of `pos`.
    pub fn offset(&self, pos: lsp_types::Position) -> usize {
        self.lines.offset(&self.text, pos)
    }

    /// The path of script file `name` named by the ruleset.
    pub fn script_path(&self, name: &str) -> Option<PathBuf> {
        script_path(self.base.as_deref(), name)
    }
}

/// Where script file `name` is: inside the ruleset's folder, never above it.
fn script_path(base: Option<&Path>, name: &str) -> Option<PathBuf> {
    let rel = Path::new(name);
    if rel.components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir)) {
        return None;
    }
    Some(base?.join(rel))
}

/// The text of script file `name`, when it is a readable file of a reasonable size.
fn read_script(base: Option<&Path>, name: &str) -> Option<String> {
    let path = script_path(base, name)?;
    let meta = std::fs::metadata(&path).ok()?;
    if !meta.is_file() || meta.len() > SCRIPT_BYTES {
        return None;
    }
    std::fs::read_to_string(path).ok()
}

/// The text of the file at `path` when it is a script a ruleset may name (for positions in it).
pub fn read_file(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > SCRIPT_BYTES {
        return None;
    }
    std::fs::read_to_string(path).ok()
}

/// The local path a `file:` URI names.
pub fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let s = uri.as_str();
    let rest = s.strip_prefix("file://")?;
    // `file:///home/x` (no host) or `file://localhost/home/x`.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(v) = path.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    let decoded = String::from_utf8(out).ok()?;
    // `file:///c:/x` on Windows.
    let decoded = match decoded.as_bytes() {
        [b'/', d, b':', ..] if d.is_ascii_alphabetic() && cfg!(windows) => decoded[1..].to_string(),
        _ => decoded,
    };
    Some(PathBuf::from(decoded))
}

/// The `file:` URI of `path`.
pub fn path_to_uri(path: &Path) -> Option<Uri> {
    let s = path.to_str()?.replace('\\', "/");
    let mut out = String::from("file://");
    if !s.starts_with('/') {
        out.push('/');
    }
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~:".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_and_paths_round_trip() {
        let p = Path::new("/tmp/my rules/é.mettle");
        let u = path_to_uri(p).unwrap();
        assert_eq!(u.as_str(), "file:///tmp/my%20rules/%C3%A9.mettle");
        assert_eq!(uri_to_path(&u).unwrap(), p);
        assert!(uri_to_path(&Uri::from_str("untitled:Untitled-1").unwrap()).is_none());
    }

    #[test]
    fn script_files_stay_in_the_folder() {
        let base = Path::new("/r");
        assert_eq!(script_path(Some(base), "x.rhai").unwrap(), Path::new("/r/x.rhai"));
        assert!(script_path(Some(base), "../x.rhai").is_none());
        assert!(script_path(Some(base), "/etc/passwd").is_none());
        assert!(script_path(None, "x.rhai").is_none());
    }
}
