//! Choices: the options a `choose` offers, the type of its answer, and one declaration per name.

use super::Checker;
use crate::ast::{self, Span};
use crate::diagnostics::Diagnostic;
use crate::program::*;

impl Checker<'_> {
    pub(super) fn choose(&mut self, c: &ast::ChooseDef, span: Span) -> Option<Stmt> {
        let (options, ty) = match &c.options {
            ast::ChoiceOptions::Names(names) => {
                let all_flags = names.iter().all(|n| n.name == "yes" || n.name == "no");
                if all_flags {
                    (ChoiceOpts::Flags(names.iter().map(|n| n.name == "yes").collect()), Ty::Flag)
                } else {
                    let set = match self.choices.get(&c.name.name) {
                        Some(&id) => match self.prog.choices[id as usize].ty {
                            Ty::Name(s) => s,
                            _ => self.new_set(&c.name.name, names),
                        },
                        None => self.new_set(&c.name.name, names),
                    };
                    let mut idx = vec![];
                    for n in names {
                        match self.prog.sets[set as usize].names.iter().position(|x| *x == n.name) {
                            Some(i) => idx.push(i as u32),
                            None => {
                                self.error(
                                    Diagnostic::error(
                                        "resolve::choice_mismatch",
                                        format!("choice `{}` is asked elsewhere without `{}`", c.name.name, n.name),
                                        n.span,
                                        "not an option there",
                                    )
                                    .with_help("a choice asked in several places must offer the same options; or rename one"),
                                );
                            }
                        }
                    }
                    (ChoiceOpts::Names(set, idx), Ty::Name(set))
                }
            }
            ast::ChoiceOptions::Range(range) => {
                let ty = self.ty(range, &c.name.name);
                let Ty::Int { lo, hi } = ty else { unreachable!("a choice range is a range type") };
                // Later uses of the answer are not reported again when the range is wrong.
                let give_up = |this: &mut Self| {
                    this.scope.bind(&c.name.name, Ty::Error, c.name.span, false);
                    None
                };
                if lo.zip(hi).is_some_and(|(l, h)| l > h) {
                    return give_up(self); // reported by `ty`
                }
                let Some(lo) = lo else {
                    self.error(
                        Diagnostic::error(
                            "resolve::open_choice",
                            format!("the answers to `{}` have no lowest value", c.name.name),
                            range.span,
                            "needs a lowest value",
                        )
                        .with_help(format!(
                            "write where the answers start, such as `0..{}`",
                            hi.map_or(String::new(), |h| h.to_string())
                        )),
                    );
                    return give_up(self);
                };
                (ChoiceOpts::Range { lo, hi }, ty)
            }
            ast::ChoiceOptions::Entities { kind, var, filter } => {
                let k = self.kind(kind)?;
                self.scope.push();
                let slot = self.scope.bind(&var.name, Ty::Entity(k), var.span, false);
                let filter = filter.as_ref().map(|f| {
                    let c = self.cond(f, "the condition after `where`").e;
                    Box::new(self.test(c))
                });
                self.scope.pop();
                let sure = match &filter {
                    Some(t) => crate::program::sure_filter(&t.expr, slot).map(Vec::into_boxed_slice),
                    None => Some(Box::default()),
                };
                (ChoiceOpts::Entities { kind: k, slot, filter, sure }, Ty::Entity(k))
            }
        };
        let id = match self.choices.get(&c.name.name) {
            Some(&id) => {
                if self.prog.choices[id as usize].ty != ty {
                    let first = self.prog.choices[id as usize].span;
                    self.error(
                        Diagnostic::error(
                            "resolve::choice_mismatch",
                            format!("choice `{}` is asked elsewhere with other options", c.name.name),
                            c.name.span,
                            "different options",
                        )
                        .with_label(first, "first asked here")
                        .with_help("give this choice another name"),
                    );
                }
                id
            }
            None => {
                let id = self.prog.choices.len() as u32;
                self.choices.insert(c.name.name.clone(), id);
                self.prog.choices.push(ChoiceDecl {
                    name: c.name.name.clone(),
                    question: c.question.0.clone(),
                    ty: ty.clone(),
                    span: c.name.span,
                });
                id
            }
        };
        let default = c.default.as_ref().map(|d| {
            self.value_for(d, &ty, &format!("the default of choice `{}`", c.name.name), &c.name.name)
        });
        let slot = self.scope.bind(&c.name.name, ty, c.name.span, false);
        let asker = match self.ctx {
            super::Ctx::Trigger | super::Ctx::Outcome => self.asker,
            _ => None,
        };
        Some(Stmt::Choose { choice: id, slot, options, default, asker, span })
    }
}
