//! What a check reads of the one who makes it: the attributes its roll, modifiers, target, values,
//! outcome conditions and outcome effects read, through attributes naming other entities too
//! (`group.opponent.mp`), each with where it is first read. A stand-in is asked for these only.

use crate::ast::{self, Arg, CheckLineKind, ExprKind, Sides, Span, StmtKind};

/// Each path of attributes check `def` reads from its maker, called `kind` in its text (`["mp"]`,
/// `["opponent", "mp"]`), with the span of its first read, in the order first read.
pub(crate) fn maker_reads(def: &ast::CheckDef, kind: &str) -> Vec<(Vec<String>, Span)> {
    let mut out = vec![];
    for line in &def.lines {
        match &line.kind {
            CheckLineKind::Roll { dice, .. } => expr(dice, kind, &mut out),
            CheckLineKind::Modifier(m) => {
                for e in [Some(&m.amount), m.when.as_ref(), m.cap.as_ref()].into_iter().flatten() {
                    expr(e, kind, &mut out);
                }
            }
            CheckLineKind::Target(t) => expr(t, kind, &mut out),
            CheckLineKind::Let(_, e) => expr(e, kind, &mut out),
            CheckLineKind::Input(f) => {
                if let Some(d) = &f.default {
                    expr(d, kind, &mut out);
                }
            }
            CheckLineKind::Outcome(o) => {
                if let Some(w) = &o.when {
                    expr(w, kind, &mut out);
                }
                stmts(&o.body, kind, &mut out);
            }
            CheckLineKind::Reroll(r) => {
                if let Some(w) = &r.when {
                    expr(w, kind, &mut out);
                }
            }
            CheckLineKind::Group { .. } => {}
        }
    }
    out
}

fn stmts(body: &[ast::Stmt], kind: &str, out: &mut Vec<(Vec<String>, Span)>) {
    for s in body {
        match &s.kind {
            // `set` reads only what it sets to (and the entity it sets on); `add` and `remove` read
            // the counter too.
            StmtKind::Set { place, value, .. } => {
                base(place, kind, out);
                expr(value, kind, out);
            }
            StmtKind::Add { amount, place } | StmtKind::Remove { amount, place } => {
                expr(amount, kind, out);
                expr(place, kind, out);
            }
            StmtKind::Let(_, e) | StmtKind::Var(_, e) | StmtKind::Record { value: e, .. } => {
                expr(e, kind, out)
            }
            StmtKind::Report(items) => items.iter().for_each(|e| expr(e, kind, out)),
            StmtKind::Roll { subject, args, .. } => {
                for e in subject.iter().chain(args.iter().map(|(_, e)| e)) {
                    expr(e, kind, out);
                }
            }
            StmtKind::If { cond, then, otherwise } => {
                expr(cond, kind, out);
                stmts(then, kind, out);
                stmts(otherwise, kind, out);
            }
            StmtKind::ForEach { filter, body, .. } => {
                if let Some(f) = filter {
                    expr(f, kind, out);
                }
                stmts(body, kind, out);
            }
            StmtKind::Trigger { args, .. } => {
                for (_, e) in args {
                    expr(e, kind, out);
                }
            }
            StmtKind::Choose(c) => {
                if let Some(d) = &c.default {
                    expr(d, kind, out);
                }
            }
            StmtKind::EndGame { winner, .. } => {
                if let Some(w) = winner {
                    expr(w, kind, out);
                }
            }
            StmtKind::Repeat { body, until } => {
                stmts(body, kind, out);
                expr(until, kind, out);
            }
            StmtKind::Follow(_, args) => {
                for a in args {
                    match a {
                        Arg::Expr(e) | Arg::Cmp(_, e, _) => expr(e, kind, out),
                    }
                }
            }
            StmtKind::Chance { then, otherwise, .. } => {
                stmts(then, kind, out);
                stmts(otherwise, kind, out);
            }
            // The values an order shows are names of the table, not the game's state odds follow.
            StmtKind::Note(_)
            | StmtKind::Order(..)
            | StmtKind::New { .. }
            | StmtKind::Dice(_)
            | StmtKind::SetOption { .. }
            | StmtKind::Answer { .. }
            | StmtKind::Expect { .. }
            | StmtKind::ExpectOrder { .. }
            | StmtKind::ExpectNoDice { .. } => {}
        }
    }
}

/// The reads in the entity part of an attribute that is set (`group.opponent` of
/// `group.opponent.standing`).
fn base(place: &ast::Expr, kind: &str, out: &mut Vec<(Vec<String>, Span)>) {
    if let ExprKind::Field(b, _) = &place.kind {
        expr(b, kind, out);
    }
}

/// The path of attributes `e` reads from the maker, if it is one (`group.opponent.mp`).
fn path(e: &ast::Expr, kind: &str) -> Option<Vec<String>> {
    match &e.kind {
        ExprKind::Field(b, name) => match &b.kind {
            ExprKind::Name(n) if n.name == kind => Some(vec![name.name.clone()]),
            _ => {
                let mut p = path(b, kind)?;
                p.push(name.name.clone());
                Some(p)
            }
        },
        _ => None,
    }
}

fn expr(e: &ast::Expr, kind: &str, out: &mut Vec<(Vec<String>, Span)>) {
    if let Some(p) = path(e, kind) {
        // Each step of the path is read: `group.opponent.mp` reads `opponent`, then its `mp`.
        for n in 1..=p.len() {
            let step = p[..n].to_vec();
            if !out.iter().any(|(q, _)| *q == step) {
                out.push((step, e.span));
            }
        }
        return;
    }
    match &e.kind {
        ExprKind::Field(b, _) => expr(b, kind, out),
        ExprKind::Call(_, args) => {
            for a in args {
                match a {
                    Arg::Expr(x) | Arg::Cmp(_, x, _) => expr(x, kind, out),
                }
            }
        }
        ExprKind::Dice { count, sides, .. } => {
            if let Some(c) = count {
                expr(c, kind, out);
            }
            if let Sides::Count(s) = sides {
                expr(s, kind, out);
            }
        }
        ExprKind::Binary(_, a, b) => {
            expr(a, kind, out);
            expr(b, kind, out);
        }
        ExprKind::Unary(_, a) => expr(a, kind, out),
        ExprKind::If(a, b, c) => {
            expr(a, kind, out);
            expr(b, kind, out);
            expr(c, kind, out);
        }
        ExprKind::NumberOf { filter, .. } => {
            if let Some(f) = filter {
                expr(f, kind, out);
            }
        }
        ExprKind::Total { value, filter, empty, .. } => {
            for x in [value, filter, empty].into_iter().flatten() {
                expr(x, kind, out);
            }
        }
        ExprKind::Pick { list, filter, .. } => {
            expr(list, kind, out);
            if let Some(f) = filter {
                expr(f, kind, out);
            }
        }
        ExprKind::Int(_)
        | ExprKind::Bool(_)
        | ExprKind::None
        | ExprKind::Str(_)
        | ExprKind::Name(_)
        | ExprKind::Last(_)
        | ExprKind::Data(_) => {}
    }
}
