//! The REPL on a terminal: the line editor (completion, hints, highlighting) and history around the
//! library's [`mettle::internals::repl::Repl`], or piped standard input.

mod editor;
mod term;

use mettle::internals::repl::{Repl, Reply};

pub use term::{Options, run};
