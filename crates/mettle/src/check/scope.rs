//! Local names while checking one rule: slots, blocks, and what each name holds.

use crate::ast::Span;
use crate::program::Ty;

/// A local name.
#[derive(Debug, Clone)]
pub struct Var {
    pub name: String,
    pub slot: u32,
    pub ty: Ty,
    pub span: Span,
    pub used: bool,
    /// Warn when never used (lets).
    pub warn_unused: bool,
}

/// The locals of one rule. Slots are never reused, so a rule's frame size is `next`.
#[derive(Debug, Default)]
pub struct Scope {
    pub vars: Vec<Var>,
    marks: Vec<usize>,
    pub next: u32,
    /// Lets that were never read, collected as blocks close.
    pub unused: Vec<(String, Span)>,
}

impl Scope {
    pub fn bind(&mut self, name: &str, ty: Ty, span: Span, warn_unused: bool) -> u32 {
        let slot = self.next;
        self.next += 1;
        self.vars.push(Var { name: name.to_string(), slot, ty, span, used: false, warn_unused });
        slot
    }

    pub fn lookup(&mut self, name: &str) -> Option<&Var> {
        let v = self.vars.iter_mut().rev().find(|v| v.name == name)?;
        v.used = true;
        Some(v)
    }

    pub fn find(&self, name: &str) -> Option<&Var> {
        self.vars.iter().rev().find(|v| v.name == name)
    }

    pub fn names(&self) -> Vec<&str> {
        self.vars.iter().map(|v| v.name.as_str()).collect()
    }

    pub fn push(&mut self) {
        self.marks.push(self.vars.len());
    }

    pub fn pop(&mut self) {
        let mark = self.marks.pop().unwrap_or(0);
        for v in self.vars.drain(mark..) {
            if v.warn_unused && !v.used {
                self.unused.push((v.name, v.span));
            }
        }
    }

    /// Closes every block, returning lets never read.
    pub fn finish(&mut self) -> Vec<(String, Span)> {
        while !self.marks.is_empty() {
            self.pop();
        }
        for v in self.vars.drain(..) {
            if v.warn_unused && !v.used {
                self.unused.push((v.name, v.span));
            }
        }
        std::mem::take(&mut self.unused)
    }
}
