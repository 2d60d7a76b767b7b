//! The REPL on a terminal: the line editor (completion, hints, highlighting) and history around the
//! library's [`mettle::repl::Repl`], or piped standard input.

mod editor;
mod term;

use mettle::repl::{Repl, Reply};

pub use term::{Options, run};
