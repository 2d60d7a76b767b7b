//! The compiler's insides and the REPL's engine, for the `mettle` command, its language server and
//! mettle's own tests: the syntax tree, the parser, the checker, the compiled program and the REPL.
//! Public only with the feature `internals`, and with no promise of stability from one version to
//! the next; a host uses the items at the crate root and its public modules.

/// The syntax tree a ruleset parses to, with byte spans.
pub mod ast {
    pub use crate::ast::*;
}

/// The checker's helpers that the command's messages share.
pub mod check {
    pub use crate::check::*;
}

/// The compiled program: kinds, checks, events, types and values as indices.
pub mod program {
    pub use crate::program::*;
}

/// The REPL's engine: typed lines in, replies out (the command adds the line editor).
pub mod repl {
    pub use crate::repl::*;
}

/// The parser: text to syntax tree, and what the REPL asks of a line typed so far.
pub mod syntax {
    pub use crate::syntax::*;
}
