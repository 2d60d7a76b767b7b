//! Syntax trees written back as short text, so that tests can compare them in one line.

use crate::ast::*;

pub(super) fn show(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Bool(b) => if *b { "yes" } else { "no" }.into(),
        ExprKind::None => "none".into(),
        ExprKind::Str(s) => format!("{s:?}"),
        ExprKind::Data(d) => format!("data {d}"),
        ExprKind::Name(n) => n.name.clone(),
        ExprKind::Field(e, f) => format!("{}.{}", show(e), f.name),
        ExprKind::Call(f, args) => {
            let args: Vec<String> = args.iter().map(show_arg).collect();
            format!("{}({})", f.name, args.join(", "))
        }
        ExprKind::Dice { count, sides, mods } => {
            let count = count.as_ref().map(|c| show(c)).unwrap_or_default();
            let sides = match sides {
                Sides::Count(n) => show(n),
                Sides::Faces(f) => format!("{:?}", f.iter().map(|f| f.0).collect::<Vec<_>>()),
            };
            let mods: String = mods.iter().map(|m| format!(" {:?}", m.0)).collect();
            format!("[{count}d{sides}{mods}]")
        }
        ExprKind::Binary(op, a, b) => format!("({op:?} {} {})", show(a), show(b)),
        ExprKind::Unary(op, a) => format!("({op:?} {})", show(a)),
        ExprKind::If(c, a, b) => format!("(if {} {} {})", show(c), show(a), show(b)),
        ExprKind::Last(n) => format!("(last {})", n.name),
        ExprKind::NumberOf { kind, var, filter } => {
            format!("(number {} {}{})", kind.name, var.name, opt(" where ", filter.as_deref()))
        }
        ExprKind::Total { op, value, kind, var, filter, empty } => format!(
            "({}{} each {} {}{}{})",
            op.word(),
            opt(" ", value.as_deref()),
            kind.name,
            var.name,
            opt(" where ", filter.as_deref()),
            opt(" else ", empty.as_deref())
        ),
        ExprKind::Pick { nearest, var, list, filter, by } => format!(
            "({} {} in {}{}{})",
            if *nearest { "nearest" } else { "first" },
            var.name,
            show(list),
            opt(" where ", filter.as_deref()),
            by.as_ref().map(|b| format!(" by {}", b.name)).unwrap_or_default()
        ),
    }
}

pub(super) fn opt(prefix: &str, e: Option<&Expr>) -> String {
    e.map(|e| format!("{prefix}{}", show(e))).unwrap_or_default()
}

pub(super) fn args(args: &[(Ident, Expr)]) -> String {
    args.iter().map(|(n, e)| format!(" {}={}", n.name, show(e))).collect()
}

fn show_arg(a: &Arg) -> String {
    match a {
        Arg::Expr(e) => show(e),
        Arg::Cmp(c, e, _) => format!("{c:?} {}", show(e)),
    }
}

pub(super) fn show_stmts(stmts: &[Stmt]) -> String {
    stmts.iter().map(show_stmt).collect::<Vec<_>>().join("; ")
}

pub(super) fn show_stmt(s: &Stmt) -> String {
    match &s.kind {
        StmtKind::Set { place, value, until } => {
            format!(
                "set {} {}{}",
                show(place),
                show(value),
                until.as_ref().map(|u| format!(" {:?}", u.0)).unwrap_or_default()
            )
        }
        StmtKind::Add { amount, place } => format!("add {} {}", show(amount), show(place)),
        StmtKind::Remove { amount, place } => format!("remove {} {}", show(amount), show(place)),
        StmtKind::Let(n, e) => format!("let {} {}", n.name, show(e)),
        StmtKind::Var(n, e) => format!("var {} {}", n.name, show(e)),
        StmtKind::Roll { check, subject, args: a } => {
            format!("roll {}{}{}", check.name, opt(" for ", subject.as_ref()), args(a))
        }
        StmtKind::If { cond, then, otherwise } => {
            format!("if {} {{{}}} {{{}}}", show(cond), show_stmts(then), show_stmts(otherwise))
        }
        StmtKind::ForEach { kind, var, filter, body } => {
            format!(
                "each {} {}{} {{{}}}",
                kind.name,
                var.name,
                opt(" where ", filter.as_ref()),
                show_stmts(body)
            )
        }
        StmtKind::Trigger { event, args: a } => format!("trigger {}{}", event.name, args(a)),
        StmtKind::Choose(c) => {
            let options = match &c.options {
                ChoiceOptions::Names(n) => n.iter().map(|n| n.name.as_str()).collect::<Vec<_>>().join("|"),
                ChoiceOptions::Range(t) => format!("{:?}", t.kind),
                ChoiceOptions::Entities { kind, var, filter } => {
                    format!("{} {}{}", kind.name, var.name, opt(" where ", filter.as_ref()))
                }
            };
            format!(
                "choose {} {:?} {options}{}",
                c.name.name,
                c.question.0,
                opt(" default ", c.default.as_ref())
            )
        }
        StmtKind::EndGame { result, winner } => {
            format!("end {}{}", result.name, opt(" for ", winner.as_ref()))
        }
        StmtKind::Note(n) => format!("note {n:?}"),
        StmtKind::Order(text, _) => format!("order {text:?}"),
        StmtKind::Repeat { body, until } => format!("repeat {{{}}} {}", show_stmts(body), show(until)),
        StmtKind::New { kind, name, with } => format!("new {} {}{}", kind.name, name.name, args(with)),
        StmtKind::Dice(d) => format!("dice {:?}", d.iter().map(|d| d.0).collect::<Vec<_>>()),
        StmtKind::Answer { choice, value } => format!("answer {} {}", choice.name, show(value)),
        StmtKind::SetOption { option, value } => format!("option {} {}", option.name, show(value)),
        StmtKind::ExpectNoDice { .. } => "expect no dice waiting".to_string(),
        StmtKind::ExpectOrder { text, absent, message } => {
            let not = if *absent { "not " } else { "" };
            format!(
                "expect {not}order {text:?}{}",
                message.as_ref().map(|m| format!(" {m:?}")).unwrap_or_default()
            )
        }
        StmtKind::Follow(f, a) => {
            let a: Vec<String> = a.iter().map(show_arg).collect();
            format!("follow {}({})", f.name, a.join(", "))
        }
        StmtKind::Chance { chance, sides, then, otherwise, .. } => {
            format!("chance {}/{} {{{}}} {{{}}}", chance.0, sides.0, show_stmts(then), show_stmts(otherwise))
        }
        StmtKind::Record { label, value } => format!("record {:?} {}", label.0, show(value)),
        StmtKind::Report(items) => {
            format!("report {}", items.iter().map(show).collect::<Vec<_>>().join(", "))
        }
        StmtKind::Expect { cond, message } => {
            format!(
                "expect {}{}",
                show(cond),
                message.as_ref().map(|m| format!(" {m:?}")).unwrap_or_default()
            )
        }
    }
}

pub(super) fn show_type(t: &TypeExpr) -> String {
    match &t.kind {
        TypeKind::Range { lo, hi } => format!("{lo:?}..{hi:?}"),
        TypeKind::Flag => "flag".into(),
        TypeKind::Data => "data".into(),
        TypeKind::Names(n) => n.iter().map(|n| n.name.as_str()).collect::<Vec<_>>().join("|"),
        TypeKind::Named(n) => format!("<{}>", n.name),
        TypeKind::List(t) => format!("list of {}", show_type(t)),
        TypeKind::Record(f) => format!("{{{}}}", f.iter().map(show_field).collect::<Vec<_>>().join(", ")),
        TypeKind::Text => "text".into(),
    }
}

pub(super) fn show_field(f: &Field) -> String {
    let strict = if f.strict { " strict" } else { "" };
    let doc = f.doc.as_ref().map(|d| format!("/{d}/ ")).unwrap_or_default();
    format!("{doc}{}: {}{}{strict}", f.name.name, show_type(&f.ty), opt(" = ", f.default.as_ref()))
}

pub(super) fn show_line(l: &CheckLine) -> String {
    match &l.kind {
        CheckLineKind::Input(f) => format!("input {}", show_field(f)),
        CheckLineKind::Roll { dice, name } => {
            format!(
                "roll {}{}",
                show(dice),
                name.as_ref().map(|n| format!(" as {}", n.name)).unwrap_or_default()
            )
        }
        CheckLineKind::Modifier(m) => format!(
            "modifier {:?} {}{}{}{}",
            m.label.0,
            show(&m.amount),
            if m.dice { " dice" } else { "" },
            opt(" when ", m.when.as_ref()),
            opt(" max ", m.cap.as_ref())
        ),
        CheckLineKind::Target(e) => format!("target {}", show(e)),
        CheckLineKind::Let(n, e) => format!("let {} {}", n.name, show(e)),
        CheckLineKind::Outcome(o) => format!(
            "{} {}{} {{{}}}",
            if o.otherwise { "otherwise" } else { "outcome" },
            o.name.name,
            opt(" when ", o.when.as_ref()),
            show_stmts(&o.body)
        ),
        CheckLineKind::Group { name, members } => format!(
            "group {} = {}",
            name.name,
            members.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(", ")
        ),
        CheckLineKind::Reroll(r) => format!(
            "reroll when {}{}{}",
            r.outcomes.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(", "),
            if r.once { " once" } else { "" },
            opt(" if ", r.when.as_ref())
        ),
    }
}
