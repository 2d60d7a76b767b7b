//! The parser of mettle's rules language: [`MettleParser`] and its [`Rule`]s, derived by pest from
//! the grammar at the top of the repository (`grammar/mettle.pest`).
//!
//! It is a crate of its own for one reason: build speed of the tests. The parser pest derives is a
//! large amount of generic code that is compiled where the grammar is derived; unoptimised, parsing
//! took about nine tenths of loading a shipped ruleset in a debug build. Here it is optimised in every
//! profile (the workspace's `[profile.dev.package.mettle-grammar]`), while the library that builds
//! syntax trees from its output stays quick to compile. The library, `mettle`, is the only user.

#![forbid(unsafe_code)]

/// The parser derived from `grammar/mettle.pest`; its rules are [`Rule`]'s variants.
#[derive(pest_derive::Parser)]
#[grammar = "../../../grammar/mettle.pest"]
pub struct MettleParser;
