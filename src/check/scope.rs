//! Local names while checking one rule: slots, blocks, and what each name holds.

use crate::ast::Span;
use crate::program::Ty;
use std::collections::HashMap;

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
///
/// Names and slots are indexed, so a lookup costs the same in a scenario of twenty thousand `new`
/// lines as in one of two.
#[derive(Debug, Default)]
pub struct Scope {
    vars: Vec<Var>,
    /// Positions in `vars` of each name's bindings, innermost last.
    by_name: HashMap<String, Vec<usize>>,
    /// Positions in `vars` of each slot's bindings, innermost last.
    by_slot: HashMap<u32, Vec<usize>>,
    marks: Vec<usize>,
    pub next: u32,
    /// Lets that were never read, collected as blocks close.
    pub unused: Vec<(String, Span)>,
    /// The slots a rule's `let` (no) and `var` (yes) statements hold.
    pub declared: HashMap<u32, bool>,
}

impl Scope {
    pub fn bind(&mut self, name: &str, ty: Ty, span: Span, warn_unused: bool) -> u32 {
        let slot = self.next;
        self.next += 1;
        self.push_var(Var { name: name.to_string(), slot, ty, span, used: false, warn_unused });
        slot
    }

    /// Brings `v` into scope in a slot it chose itself (inputs, a roll's name).
    pub fn push_var(&mut self, v: Var) {
        let at = self.vars.len();
        self.by_name.entry(v.name.clone()).or_default().push(at);
        self.by_slot.entry(v.slot).or_default().push(at);
        self.vars.push(v);
    }

    /// Every local in scope, outermost first.
    pub fn vars(&self) -> &[Var] {
        &self.vars
    }

    pub fn lookup(&mut self, name: &str) -> Option<&Var> {
        let at = *self.by_name.get(name)?.last()?;
        let v = &mut self.vars[at];
        v.used = true;
        Some(v)
    }

    pub fn find(&self, name: &str) -> Option<&Var> {
        Some(&self.vars[*self.by_name.get(name)?.last()?])
    }

    /// The innermost local held in `slot`.
    pub fn in_slot(&self, slot: u32) -> Option<&Var> {
        Some(&self.vars[*self.by_slot.get(&slot)?.last()?])
    }

    /// Takes the locals from position `mark` on out of scope, noting lets never read. Those are the
    /// innermost bindings of their names and slots, so each index loses its last entries.
    fn drop_from(&mut self, mark: usize) {
        for v in self.vars.drain(mark..) {
            if let Some(at) = self.by_name.get_mut(&v.name) {
                at.pop();
                if at.is_empty() {
                    self.by_name.remove(&v.name);
                }
            }
            if let Some(at) = self.by_slot.get_mut(&v.slot) {
                at.pop();
                if at.is_empty() {
                    self.by_slot.remove(&v.slot);
                }
            }
            if v.warn_unused && !v.used {
                self.unused.push((v.name, v.span));
            }
        }
    }

    pub fn names(&self) -> Vec<&str> {
        self.vars.iter().map(|v| v.name.as_str()).collect()
    }

    pub fn push(&mut self) {
        self.marks.push(self.vars.len());
    }

    pub fn pop(&mut self) {
        let mark = self.marks.pop().unwrap_or(0);
        self.drop_from(mark);
    }

    /// Closes every block, returning lets never read.
    pub fn finish(&mut self) -> Vec<(String, Span)> {
        while !self.marks.is_empty() {
            self.pop();
        }
        self.drop_from(0);
        std::mem::take(&mut self.unused)
    }
}
