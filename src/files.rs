//! The one way mettle writes a file (a card, a chart, a formatted ruleset, a save, a schema): into a
//! new, unpredictably named file beside the target, then renamed over it; never through a link, never
//! onto a pipe, device or folder, never onto the ruleset being read, and never over a file of another
//! kind unless forced.

use crate::diagnostics::Diagnostic;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// What is being written: each kind knows the files it may replace without being forced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kind {
    /// A card as one HTML page (`mettle card -o`): replaces `.html`/`.htm` files that start
    /// `<!DOCTYPE html>`.
    CardHtml,
    /// A card in Markdown: replaces `.md`/`.markdown` files that start with a `# ` title.
    CardMd,
    /// A chart (`--plot`): replaces `.svg` files that start `<svg` or `<?xml`.
    Plot,
    /// A formatted ruleset (`mettle fmt`): rewrites `.mettle` files only.
    Ruleset,
    /// A saved session (`:save`): replaces JSON files that hold a mettle save.
    Save,
    /// A JSON Schema (`mettle schemas`): replaces `.json` files.
    Schema,
    /// The REPL's history of typed lines: replaces the ordinary file at its place.
    History,
}

impl Kind {
    /// The words for the files of this kind, in messages.
    fn what(self) -> &'static str {
        match self {
            Kind::CardHtml => "an HTML card",
            Kind::CardMd => "a Markdown card",
            Kind::Plot => "an SVG chart",
            Kind::Ruleset => "a ruleset (.mettle)",
            Kind::Save => "a mettle save",
            Kind::Schema => "a JSON schema",
            Kind::History => "a history of typed lines",
        }
    }

    /// The extensions a file of this kind may have; none: any.
    fn extensions(self) -> &'static [&'static str] {
        match self {
            Kind::CardHtml => &["html", "htm"],
            Kind::CardMd => &["md", "markdown"],
            Kind::Plot => &["svg"],
            Kind::Ruleset => &["mettle"],
            Kind::Save | Kind::History => &[],
            Kind::Schema => &["json"],
        }
    }

    /// Whether `path` has a name this kind is written under.
    pub fn named(self, path: &Path) -> bool {
        let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        self.extensions().is_empty() || ext.is_some_and(|e| self.extensions().contains(&e.as_str()))
    }

    /// Whether the file at `path`, which exists, is one this kind could have written.
    fn recognises(self, path: &Path, save_cap: u64) -> bool {
        if !self.named(path) {
            return false;
        }
        if self == Kind::Save {
            return crate::budget::read_capped(path, save_cap, "file")
                .ok()
                .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                .is_some_and(|v| v.get("mettle_repl").is_some() || v.get("state").is_some());
        }
        let mut head = Vec::with_capacity(512);
        let read = std::fs::File::open(path).and_then(|f| f.take(512).read_to_end(&mut head));
        if read.is_err() {
            return false;
        }
        let head = String::from_utf8_lossy(&head);
        let head = head.trim_start_matches('\u{feff}').trim_start();
        let starts = |p: &str| head.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p));
        match self {
            Kind::CardHtml => starts("<!DOCTYPE html"),
            Kind::CardMd => starts("# "),
            Kind::Plot => starts("<svg") || starts("<?xml"),
            Kind::Ruleset | Kind::Schema | Kind::Save | Kind::History => true,
        }
    }
}

/// How to write one file.
#[derive(Debug, Clone)]
pub struct Target<'a> {
    /// Where the file goes.
    pub path: &'a Path,
    /// What it is.
    pub kind: Kind,
    /// Write over a file that is not of `kind` (the command's `--force`, `:save!`).
    pub force: bool,
    /// Files being read, which are never written over (the ruleset a card is made from).
    pub inputs: &'a [&'a Path],
    /// The most bytes read of an existing file to recognise it as a save.
    pub save_cap: u64,
}

impl<'a> Target<'a> {
    /// A target of `kind` at `path`, not forced, with no inputs to keep.
    pub fn new(path: &'a Path, kind: Kind) -> Target<'a> {
        Target { path, kind, force: false, inputs: &[], save_cap: crate::Budget::default().save_bytes }
    }
}

fn refusal(code: &str, message: String, help: String) -> Diagnostic {
    Diagnostic::plain(code, crate::text::visible(&message).into_owned())
        .with_help(crate::text::visible(&help))
}

/// Whether `a` and `b` are one file (the same file reached by two names, a hard link included).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
        false
    }
    #[cfg(not(unix))]
    {
        matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
    }
}

/// Checks that `target` may be written, without writing anything: what [`write`] refuses, it refuses
/// here first, with the same codes.
///
/// ```
/// use mettle::internals::files::{check, Kind, Target};
/// let dir = std::env::temp_dir().join(format!("mettle-doc-check-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let notes = dir.join("notes.txt");
/// std::fs::write(&notes, "mine").unwrap();
/// let refused = check(&Target::new(&notes, Kind::Ruleset)).unwrap_err();
/// assert_eq!(refused.code, "mettle::io::other_kind");
/// assert!(check(&Target::new(&dir, Kind::Ruleset)).is_err(), "a folder");
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn check(target: &Target<'_>) -> Result<Option<std::fs::Metadata>, Diagnostic> {
    let path = target.path;
    let shown = path.display();
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(None);
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        return Err(refusal(
            "io::link",
            format!("`{shown}` is a symbolic link, and mettle never writes through one"),
            format!("write to the file the link points to by its own name, or remove the link `{shown}`"),
        ));
    }
    if !kind.is_file() {
        let what = if kind.is_dir() { "a folder" } else { "not an ordinary file (a pipe, device or socket)" };
        return Err(refusal(
            "io::not_a_file",
            format!("`{shown}` is {what}, so nothing is written there"),
            "give the name of a new file, or of an ordinary file to replace".into(),
        ));
    }
    if let Some(input) = target.inputs.iter().find(|i| same_file(path, i)) {
        return Err(refusal(
            "io::same_as_input",
            format!("`{shown}` is the file being read (`{}`), so it is not written over", input.display()),
            "give another file name for the output".into(),
        ));
    }
    if !target.force && !target.kind.recognises(path, target.save_cap) {
        return Err(refusal(
            "io::other_kind",
            format!("`{shown}` already exists and is not {}, so it is left alone", target.kind.what()),
            "write to another file, or replace it anyway with `--force` (`:save!` in the REPL)".into(),
        ));
    }
    Ok(Some(meta))
}

/// Writes `bytes` to `target.path`: into a new file created exclusively, under an unpredictable
/// name, in the same folder, flushed to the disk, then renamed over the target. A failure leaves
/// whatever was there before; a file replaced keeps its permissions. Refused (nothing written):
/// a symbolic link (`mettle::io::link`), a folder, pipe or device (`mettle::io::not_a_file`), one of
/// `target.inputs` (`mettle::io::same_as_input`), or, unless `target.force`, a file that is not of
/// `target.kind` (`mettle::io::other_kind`). A failed write is `mettle::io::write`.
///
/// ```
/// use mettle::internals::files::{write, Kind, Target};
/// let dir = std::env::temp_dir().join(format!("mettle-doc-write-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let card = dir.join("card.md");
/// write(&Target::new(&card, Kind::CardMd), b"# Card\n").unwrap();
/// write(&Target::new(&card, Kind::CardMd), b"# Card, again\n").unwrap();
/// assert_eq!(std::fs::read_to_string(&card).unwrap(), "# Card, again\n");
/// assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no temporary file is left");
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn write(target: &Target<'_>, bytes: &[u8]) -> Result<(), Diagnostic> {
    write_with(target, |file, _| file.write_all(bytes))
}

/// Writes `target.path` as [`write`] does, with what `fill` writes into the new file (given open, and
/// by its temporary name, for a writer that opens the file itself, such as the line editor's history).
pub fn write_with(
    target: &Target<'_>,
    fill: impl FnOnce(&mut std::fs::File, &Path) -> std::io::Result<()>,
) -> Result<(), Diagnostic> {
    let old = check(target)?;
    let path = target.path;
    let cannot = |e: std::io::Error| {
        refusal(
            "io::write",
            format!("cannot write `{}`: {e}", path.display()),
            "check that the folder exists, that you may write in it and that it has room; a file that was \
             there is unchanged"
                .into(),
        )
    };
    let folder: PathBuf = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".mettle-tmp");
    // A new file gets the usual permissions (as the umask allows), not the temporary file's own.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    // `tempfile` creates the file with O_EXCL under a random name, so nothing planted is followed.
    let mut temp = builder.tempfile_in(&folder).map_err(cannot)?;
    let temp_path = temp.path().to_path_buf();
    fill(temp.as_file_mut(), &temp_path).map_err(cannot)?;
    if let Some(meta) = &old {
        temp.as_file().set_permissions(meta.permissions()).map_err(cannot)?;
    }
    temp.as_file().sync_all().map_err(cannot)?;
    // Renaming replaces the name itself: a link or pipe planted there since the check is replaced,
    // never written through. On failure the temporary file is removed.
    temp.persist(path).map_err(|e| cannot(e.error))?;
    Ok(())
}
