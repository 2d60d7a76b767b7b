//! The library stays an engine that a host can embed: `cargo tree -p mettle -e normal` names none of
//! the command's crates (terminal, command line, line editor, progress bars, plots, allocator,
//! language server), and no `getrandom` is linked into it.
//!
//! `getrandom` may appear under a procedural macro only: rhai's hasher (ahash) takes its fixed seeds
//! from `const-random`, a macro that runs on the build machine, so that randomness is read while
//! compiling and never by the library at run time. The check without procedural macros
//! (`-e normal,no-proc-macro`) therefore allows no `getrandom` at all. Dice are seeded with
//! `seed_from_u64`; rand's `sys_rng`/`thread_rng` and rhai's `ahash/runtime-rng` stay off.

use std::process::Command;

/// Crates the library must never depend on.
const FORBIDDEN: &[&str] = &[
    "mimalloc",
    "ctrlc",
    "dirs",
    "rustyline",
    "clap",
    "indicatif",
    "svg",
    "lsp-server",
    "lsp-types",
    "crossbeam-channel",
    "sigpipe",
];

/// The names of the crates in `cargo tree -p mettle` over `edges`, from the lockfile, offline.
fn tree(edges: &str) -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "-p", "mettle", "-e", edges, "--offline", "--locked", "--prefix", "none"])
        .args(["--format", "{p}"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "cargo tree failed:\n{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(String::from)
        .collect()
}

#[test]
fn the_library_depends_on_no_command_line_crate() {
    let crates = tree("normal");
    assert!(crates.iter().any(|c| c == "rhai"), "the tree was read: {crates:?}");
    let found: Vec<&String> = crates.iter().filter(|c| FORBIDDEN.contains(&c.as_str())).collect();
    assert!(found.is_empty(), "the library depends on {found:?}");
}

#[test]
fn the_library_links_no_os_randomness() {
    let crates = tree("normal,no-proc-macro");
    assert!(crates.iter().any(|c| c == "rand"), "the tree was read: {crates:?}");
    assert!(!crates.iter().any(|c| c == "getrandom"), "the library links getrandom: {crates:?}");
}

#[test]
fn threads_are_a_feature() {
    // Without `parallel` (the library's default), rayon is not built; the command turns it on.
    assert!(!tree("normal").iter().any(|c| c == "rayon"));
}
