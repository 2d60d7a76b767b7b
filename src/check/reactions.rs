//! Reactions written in the ruleset (`reaction join(friend: friend) { … }`, run by `follow`), their
//! `order "…"` lines, and what rules read of the host's data: the fields of shaped data and the
//! entries `nearest` and `first` choose from its lists.

use super::expr::T;
use super::scope::Scope;
use super::{Checker, Ctx};
use crate::ast::{self, Arg, Span};
use crate::diagnostics::{Diagnostic, suggest};
use crate::program::*;
use crate::shape::ShapeTy;
use std::sync::Arc;

impl<'a> Checker<'a> {
    /// Pass 1: makes a reaction's name known.
    pub(super) fn declare_reaction(&mut self, r: &'a ast::ReactionDef, item: &ast::Item) {
        if !self.claim(&r.name, "reaction") {
            return;
        }
        self.reactions.insert(r.name.name.clone(), self.prog.reactions.len() as u32);
        self.reaction_ast.push(r);
        self.prog.reactions.push(Reaction {
            name: r.name.name.clone(),
            doc: item.doc.clone(),
            params: vec![],
            body: vec![],
            slots: 0,
            span: item.span,
        });
    }

    /// Pass 2: the reactions' parameters, so that any rule may follow any reaction.
    pub(super) fn reaction_params(&mut self) {
        for i in 0..self.reaction_ast.len() {
            let r = self.reaction_ast[i];
            // A reaction may be given text (`lose(why: text)`), which only orders show: no rule
            // computes with it.
            let plain: Vec<ast::Field> = r
                .params
                .iter()
                .map(|f| match f.ty.kind {
                    ast::TypeKind::Text => ast::Field {
                        ty: ast::TypeExpr { kind: ast::TypeKind::Flag, span: f.ty.span },
                        ..f.clone()
                    },
                    _ => f.clone(),
                })
                .collect();
            let mut params = self.fields(&plain, "parameter");
            for (p, f) in params.iter_mut().zip(&r.params) {
                if matches!(f.ty.kind, ast::TypeKind::Text) {
                    p.ty = Ty::Text;
                }
            }
            for (p, f) in params.iter().zip(&r.params) {
                if f.default.is_some() {
                    self.error(
                        Diagnostic::error(
                            "resolve::reaction_default",
                            format!(
                                "parameter `{}` of reaction `{}` cannot have a default",
                                p.name, r.name.name
                            ),
                            f.span,
                            "no default here",
                        )
                        .with_help("`follow` gives every value of a reaction: remove `= …`"),
                    );
                }
            }
            self.prog.reactions[i].params = params;
        }
    }

    /// Pass 3: the reactions' steps, then that none follows itself, even through others.
    pub(super) fn check_reactions(&mut self) {
        for i in 0..self.reaction_ast.len() {
            let r = self.reaction_ast[i];
            self.scope = Scope::default();
            self.ctx = Ctx::Trigger;
            self.asker = None;
            let params = self.prog.reactions[i].params.clone();
            for p in &params {
                let slot = self.scope.bind(&p.name, p.ty.clone(), p.span, false);
                if matches!(p.ty, Ty::Entity(_)) && self.asker.is_none() {
                    self.asker = Some(slot);
                }
            }
            self.reacting = Some(i as u32);
            let body = self.block(&r.body);
            self.reacting = None;
            self.close_scope();
            self.prog.reactions[i].body = body;
            self.prog.reactions[i].slots = self.scope.next;
            self.ctx = Ctx::Pure;
        }
        self.reaction_cycles();
    }

    /// A reaction that follows itself, directly or through others, would never end.
    fn reaction_cycles(&mut self) {
        let n = self.prog.reactions.len();
        let mut calls: Vec<Vec<(u32, Span)>> = vec![vec![]; n];
        for &(from, to, at) in &self.reaction_calls {
            calls[from as usize].push((to, at));
        }
        // 0: not seen, 1: on the path, 2: done.
        let mut state = vec![0u8; n];
        let mut reported = false;
        for start in 0..n {
            if state[start] != 0 || reported {
                continue;
            }
            let mut path: Vec<(usize, usize)> = vec![(start, 0)];
            state[start] = 1;
            while let Some(&mut (at, ref mut next)) = path.last_mut() {
                if let Some(&(to, span)) = calls[at].get(*next) {
                    *next += 1;
                    match state[to as usize] {
                        0 => {
                            state[to as usize] = 1;
                            path.push((to as usize, 0));
                        }
                        1 => {
                            let from = path.iter().position(|(r, _)| *r == to as usize).unwrap_or(0);
                            let names: Vec<&str> = path[from..]
                                .iter()
                                .map(|(r, _)| self.prog.reactions[*r].name.as_str())
                                .collect();
                            let d = Diagnostic::error(
                                "resolve::reaction_cycle",
                                format!(
                                    "reaction `{}` follows itself: {} → {}",
                                    self.prog.reactions[to as usize].name,
                                    names.join(" → "),
                                    self.prog.reactions[to as usize].name
                                ),
                                span,
                                "followed again here",
                            )
                            .with_help("a reaction may follow other reactions, but never come back to itself: it would never end");
                            self.error(d);
                            reported = true;
                            break;
                        }
                        _ => {}
                    }
                } else {
                    state[at] = 2;
                    path.pop();
                }
            }
        }
    }

    /// `follow NAME(…)` of a reaction of the ruleset: one value per parameter, of its type.
    pub(super) fn follow_reaction(
        &mut self,
        r: u32,
        name: &ast::Ident,
        args: &[Arg],
        span: Span,
    ) -> Option<Stmt> {
        let params = self.prog.reactions[r as usize].params.clone();
        if args.len() != params.len() {
            let (what, written) = (format!("reaction `{}`", name.name), format!("follow {}", name.name));
            self.arity(&what, &written, &params, args.len(), span);
            return None;
        }
        let mut out = Vec::with_capacity(args.len());
        for (a, p) in args.iter().zip(&params) {
            let e = match a {
                Arg::Expr(e) => e,
                Arg::Cmp(_, _, at) => {
                    self.error(
                        Diagnostic::error(
                            "resolve::bad_argument",
                            "a comparison is not a value a reaction can be given",
                            *at,
                            "not a value",
                        )
                        .with_help(format!("give `{}` a value", p.name)),
                    );
                    continue;
                }
            };
            let t = self.expr(e, Some(&p.ty));
            let t = self.as_int(t);
            self.expect_ty(&t, &p.ty, e.span, &format!("`{}` of reaction `{}`", p.name, name.name));
            out.push(self.calc(t.e));
        }
        if let Some(from) = self.reacting {
            self.reaction_calls.push((from, r, name.span));
        }
        Some(Stmt::React { reaction: r, args: out, fresh: self.reacting.is_none(), span })
    }

    /// `order "move towards {friend.name}"`: text with values in braces, in a reaction only.
    pub(super) fn order(&mut self, text: &str, at: Span, span: Span) -> Option<Stmt> {
        if self.reacting.is_none() {
            self.error(
                Diagnostic::error(
                    "resolve::order_outside_reaction",
                    "an order can only be given in a reaction",
                    span,
                    "not in a reaction",
                )
                .with_help(
                    "put the order in `reaction NAME() { order \"…\" }` and run it with `follow NAME()`: a \
                     scenario's `expect order` reads the orders of the last reaction",
                ),
            );
            return None;
        }
        let pieces = match ast::order_pieces(text, at.start + 1) {
            Ok(p) => p,
            Err((at, message)) => {
                self.error(Diagnostic::error("resolve::bad_order_text", message, at, "here").with_help(
                    "write a name or a field in braces, such as `{friend.name}`; braces hold nothing else",
                ));
                return None;
            }
        };
        let mut parts = Vec::with_capacity(pieces.len());
        for p in pieces {
            match p {
                ast::OrderPiece::Text(t) => parts.push(OrderPart::Text(t)),
                ast::OrderPiece::Value(e) => {
                    let t = self.expr(&e, None);
                    let t = self.as_int(t);
                    if !matches!(
                        t.ty,
                        Ty::Int { .. } | Ty::Flag | Ty::Name(_) | Ty::Entity(_) | Ty::Text | Ty::Error
                    ) {
                        let words = self.ty_words(&t.ty);
                        self.error(
                            Diagnostic::error(
                                "resolve::bad_order_text",
                                format!("`{}` is {words}, which an order cannot show in words", self.src(e.span)),
                                e.span,
                                format!("this is {words}"),
                            )
                            .with_help(
                                "show a number, a yes/no, a name, an entity or a text field, such as `{friend.name}`",
                            ),
                        );
                    }
                    parts.push(OrderPart::Value(t.e));
                }
            }
        }
        Some(Stmt::Order { parts, span })
    }

    /// `base.field` where `base` is data: the field's type comes from the shape.
    pub(super) fn data_field(&mut self, b: T, base: Span, field: &ast::Ident) -> T {
        let fields = match &b.ty {
            Ty::Shape(s) => self.prog.shapes[*s as usize].fields.clone(),
            other => {
                let (message, help) = match other {
                    Ty::List(s) => (
                        format!("`.{}` cannot be read from a list", field.name),
                        format!(
                            "choose one of its `{}`s first: `nearest x in … where …` or `first x in … where …`",
                            self.prog.shapes[*s as usize].name
                        ),
                    ),
                    _ => (
                        format!("`.{}` cannot be read from data of no declared shape", field.name),
                        "give the data a shape (`shape NAME { … }`) where it comes in, and name lists' entries by a \
                         shape too (`list of friend`): rules read only what a shape declares"
                            .to_string(),
                    ),
                };
                self.error(
                    Diagnostic::error("resolve::unreadable_data", message, base, "no fields known here")
                        .with_help(help),
                );
                return T::new(Expr::Const(Value::None), Ty::Error);
            }
        };
        let Some(f) = fields.iter().find(|f| f.name == field.name) else {
            let known: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
            let words = self.ty_words(&b.ty);
            self.error(
                Diagnostic::error(
                    "resolve::unknown_field",
                    format!("{words} has no field `{}`", field.name),
                    field.span,
                    "unknown field",
                )
                .with_help(suggest(&field.name, "field", &known)),
            );
            return T::new(Expr::Const(Value::None), Ty::Error);
        };
        let ty = match &f.ty {
            ShapeTy::Int { lo, hi } => Ty::Int { lo: *lo, hi: *hi },
            ShapeTy::Flag => Ty::Flag,
            ShapeTy::Text | ShapeTy::Names(_) => Ty::Text,
            ShapeTy::Shape(s) => Ty::Shape(*s),
            ShapeTy::List(item) => match **item {
                ShapeTy::Shape(s) => Ty::List(s),
                _ => Ty::Data,
            },
            ShapeTy::Record(_) | ShapeTy::Any => Ty::Data,
        };
        T::new(Expr::DataField(Box::new(b.e), Arc::from(field.name.as_str())), ty)
    }

    /// `nearest x in LIST [where COND] [by FIELD]`, `first x in LIST [where COND]`: an entry of a
    /// list of shaped records, or `none`.
    pub(super) fn pick(
        &mut self,
        nearest: bool,
        var: &ast::Ident,
        list: &ast::Expr,
        filter: Option<&ast::Expr>,
        by: Option<&ast::Ident>,
        span: Span,
    ) -> T {
        let word = if nearest { "nearest" } else { "first" };
        let l = self.expr(list, None);
        let shape = match l.ty {
            Ty::List(s) => s,
            Ty::Error => return T::new(Expr::Const(Value::None), Ty::Error),
            _ => {
                let words = self.ty_words(&l.ty);
                self.error(
                    Diagnostic::error(
                        "resolve::not_a_list",
                        format!("`{word}` chooses from a list of the host's data, but this is {words}"),
                        list.span,
                        format!("this is {words}"),
                    )
                    .with_help(
                        "give a list field of a shape whose entries have a shape of their own, such as \
                         `seen.friends` with `friends: list of friend`; to choose among entities, use \
                         `choose` or `for each`",
                    ),
                );
                return T::new(Expr::Const(Value::None), Ty::Error);
            }
        };
        let fields = self.prog.shapes[shape as usize].fields.clone();
        let order = if nearest {
            let (name, at) = by.map_or(("distance", span), |b| (b.name.as_str(), b.span));
            match fields.iter().find(|f| f.name == name) {
                Some(f) if matches!(f.ty, ShapeTy::Int { .. }) => Some(Arc::from(name)),
                found => {
                    let sname = self.prog.shapes[shape as usize].name.clone();
                    let numbers: Vec<&str> = fields
                        .iter()
                        .filter(|f| matches!(f.ty, ShapeTy::Int { .. }))
                        .map(|f| f.name.as_str())
                        .collect();
                    let (message, help) = match found {
                        Some(_) => (
                            format!("`nearest` orders by a number, but `{name}` of a `{sname}` is not one"),
                            "order by a number field with `by FIELD`, or use `first` for the first listed"
                                .to_string(),
                        ),
                        None if by.is_none() => (
                            format!("`nearest` needs a number field `distance`, and a `{sname}` has none"),
                            if numbers.is_empty() {
                                "a shape's entries need a number to be nearest by: add `distance: 0..`, or use \
                                 `first` for the first listed"
                                    .to_string()
                            } else {
                                format!("say which number measures it: `by {}`", numbers.join("` or `by "))
                            },
                        ),
                        None => (
                            format!("a `{sname}` has no field `{name}`"),
                            suggest(name, "number field", &numbers),
                        ),
                    };
                    self.error(
                        Diagnostic::error("resolve::nearest_by", message, at, "no number to order by")
                            .with_help(help),
                    );
                    None
                }
            }
        } else {
            if let Some(b) = by {
                self.error(
                    Diagnostic::error(
                        "resolve::nearest_by",
                        "`first` takes the entries in the order they are listed: `by` is for `nearest`",
                        b.span,
                        "not with `first`",
                    )
                    .with_help(format!(
                        "write `nearest {} in … by {}`, or remove `by {}`",
                        var.name, b.name, b.name
                    )),
                );
            }
            None
        };
        self.scope.push();
        let slot = self.scope.bind(&var.name, Ty::Shape(shape), var.span, false);
        let test = filter.map(|f| {
            let t = self.expr(f, Some(&Ty::Flag));
            self.expect_ty(&t, &Ty::Flag, f.span, "the condition after `where`");
            Arc::new(self.test(t.e))
        });
        self.scope.pop();
        let e = Expr::Pick(Box::new(Pick { list: l.e, slot, filter: test, by: order, span }));
        T::new(e, Ty::Shape(shape))
    }
}
