//! What a `load {"file": …}` request may read: nothing, unless the server was started with
//! `--root DIR`; then only regular files under DIR, found without following a link out of it, and no
//! larger than the `ruleset_bytes` budget. A refusal never shows what a file holds.

use super::{Failure, code};
use std::path::{Component, Path, PathBuf};

/// The real path of the root folder given on the command line, or why it cannot be one.
pub fn root(dir: &Path) -> Result<PathBuf, String> {
    let real = std::fs::canonicalize(dir)
        .map_err(|e| format!("cannot use `{}` as the root folder: {e}", dir.display()))?;
    if !real.is_dir() {
        return Err(format!("the root folder `{}` is not a folder", dir.display()));
    }
    Ok(real)
}

/// The real path of `asked` (a path relative to `root`) when a client may read it.
pub fn permit(root: Option<&Path>, asked: &str) -> Result<PathBuf, Failure> {
    let Some(root) = root else {
        return Err(Failure::plain(
            code::FORBIDDEN,
            "mettle::serve::files_off",
            "this server reads no files: `load` takes the ruleset's `text`",
            Some(
                "send {\"text\": \"…the ruleset…\", \"name\": \"mine.mettle\"}, or start the server with \
                 `mettle serve --root DIR` to let clients load files under DIR",
            ),
        ));
    };
    let outside = |why: &str| {
        Failure::plain(
            code::FORBIDDEN,
            "mettle::serve::outside_root",
            &format!("`{asked}` is not a file under the server's root folder: {why}"),
            Some(
                "give a path relative to the root folder (`mettle serve --root DIR`), such as `rules/mine.mettle`",
            ),
        )
    };
    let path = Path::new(asked);
    if asked.is_empty() {
        return Err(outside("the path is empty"));
    }
    if path.is_absolute() || path.components().any(|c| matches!(c, Component::Prefix(_) | Component::RootDir))
    {
        return Err(outside("an absolute path is not taken"));
    }
    if path.components().any(|c| c == Component::ParentDir) {
        return Err(outside("`..` is not taken"));
    }
    let real = std::fs::canonicalize(root.join(path)).map_err(|e| {
        Failure::plain(
            code::LOAD,
            "mettle::serve::no_such_file",
            &format!("cannot find `{asked}` under the server's root folder: {e}"),
            Some("check the path, relative to the root folder the server was started with"),
        )
    })?;
    // Links are followed only as far as they stay in the root.
    if !real.starts_with(root) {
        return Err(outside("it leads out of the root folder through a link"));
    }
    Ok(real)
}
