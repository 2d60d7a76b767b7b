//! Checking calls: formulas, tables and built-in functions, with their arguments.

use super::expr::{T, const_value};
use super::{Checker, Progress};
use crate::ast::{self, Arg, Cmp, Span};
use crate::diagnostics::{Diagnostic, suggest};
use crate::program::*;

/// Names of the built-in functions; formulas and tables cannot take them.
pub(super) const BUILTINS: &[&str] = &[
    "min",
    "max",
    "abs",
    "triangular",
    "clamp",
    "sum",
    "count",
    "any",
    "all",
    "highest",
    "lowest",
    "die",
    "size",
    "shift",
    "value",
    "rank",
];

/// The longest chain of formulas and tables using each other that the checker follows (the rules stop
/// at the same depth when they run).
pub(super) const MAX_CALL_NESTING: usize = 64;

impl Checker<'_> {
    /// An error when checking `name` would nest formulas and tables deeper than [`MAX_CALL_NESTING`].
    fn too_deep(&mut self, name: &str, span: Span) -> Option<T> {
        if self.nested < MAX_CALL_NESTING {
            return None;
        }
        self.error(
            Diagnostic::error(
                "resolve::too_deep",
                format!("formulas and tables use each other more than {MAX_CALL_NESTING} deep here"),
                span,
                format!("`{name}` is one too many"),
            )
            .with_help("work out part of the chain in one formula: the rules could not follow it this deep when they run"),
        );
        Some(T::new(Expr::Const(Value::Int(0)), Ty::Error))
    }

    pub(super) fn call(&mut self, f: &ast::Ident, args: &[Arg], span: Span, want: Option<&Ty>) -> T {
        let name = f.name.as_str();
        if BUILTINS.contains(&name) {
            return self.builtin(f, args, span);
        }
        if let Some(&d) = self.defines.get(name) {
            self.define_used[d as usize] = true;
            if self.define_progress[d as usize] == Progress::Running {
                // The formulas being checked form the loop, from `d` back round to itself.
                let from = self.define_stack.iter().position(|&x| x == d).unwrap_or(0);
                let mut chain: Vec<&str> = self.define_stack[from..]
                    .iter()
                    .map(|&x| self.define_ast[x as usize].name.name.as_str())
                    .collect();
                chain.push(name);
                let chain = chain.join(" → ");
                let caller = self.define_stack.last().map(|&x| self.define_ast[x as usize].name.name.clone());
                let d = Diagnostic::error(
                    "resolve::cycle",
                    format!("formula `{name}` depends on itself: {chain}"),
                    f.span,
                    match &caller {
                        Some(c) if c != name => format!("`{c}` uses `{name}` here"),
                        _ => format!("`{name}` uses itself here"),
                    },
                )
                .with_label(self.define_ast[d as usize].name.span, format!("`{name}` is defined here"))
                .with_help("a formula cannot use itself, directly or through other formulas and tables: break the loop");
                self.error(d);
                return T::new(Expr::Const(Value::Int(0)), Ty::Error);
            }
            if self.define_progress[d as usize] == Progress::NotStarted {
                if let Some(t) = self.too_deep(name, f.span) {
                    return t;
                }
                self.nested += 1;
                self.check_define(d);
                self.nested -= 1;
            }
            let params = self.prog.defines[d as usize].params.clone();
            let args = self.args(name, &params, args, span);
            return T::new(Expr::Define(d, args), self.define_ty[d as usize].clone());
        }
        if let Some(&t) = self.tables.get(name) {
            self.table_used[t as usize] = true;
            if self.table_progress[t as usize] == Progress::Running {
                self.error(
                    Diagnostic::error(
                        "resolve::cycle",
                        format!("table `{name}` depends on itself"),
                        f.span,
                        "used inside its own rows",
                    )
                    .with_help("a table cannot look itself up, directly or through formulas"),
                );
                return T::new(Expr::Const(Value::Int(0)), Ty::Error);
            }
            if self.table_progress[t as usize] == Progress::NotStarted {
                if let Some(t) = self.too_deep(name, f.span) {
                    return t;
                }
                self.nested += 1;
                self.check_table(t);
                self.nested -= 1;
            }
            let params = self.prog.tables[t as usize].params.clone();
            let args = self.args(name, &params, args, span);
            return T::new(Expr::Table(t, args), self.prog.tables[t as usize].result.clone());
        }
        if let Some(&sf) = self.script_fns.get(name) {
            let args = self.script_args(sf, args, span);
            // A script function gives a number, or yes/no where a condition is wanted (`when
            // flanked(unit)`): Rhai values carry no declared type, so the place decides.
            let flag = want == Some(&Ty::Flag);
            let ty = if flag { Ty::Flag } else { Ty::INT };
            return T::new(Expr::Script(Box::new(ScriptCall { func: sf, args, span, flag })), ty);
        }
        let mut known: Vec<&str> = BUILTINS.to_vec();
        known.extend(self.defines.keys().map(|s| s.as_str()));
        known.extend(self.tables.keys().map(|s| s.as_str()));
        known.extend(self.script_fns.keys().map(|s| s.as_str()));
        let help = suggest(name, "function", &known);
        let extra = if self.checks.contains_key(name) {
            format!("; `{name}` is a check: roll it with `roll {name} …` or read `last {name}`")
        } else {
            String::new()
        };
        self.error(
            Diagnostic::error(
                "resolve::unknown_function",
                format!("there is no formula, table or built-in function called `{name}`"),
                f.span,
                "unknown function",
            )
            .with_help(format!("{help}{extra}")),
        );
        T::new(Expr::Const(Value::Int(0)), Ty::Error)
    }

    /// Checks the arguments of script function `sf`: any values, as many as it has parameters.
    pub(super) fn script_args(&mut self, sf: u32, args: &[Arg], span: Span) -> Vec<Expr> {
        let f = self.scripts.as_ref().map(|s| s.functions[sf as usize].clone());
        let Some(f) = f else { return Vec::new() };
        if args.len() != f.params.len() {
            self.error(
                Diagnostic::error(
                    "resolve::arity",
                    format!(
                        "script function `{}` takes {} value{} but {} {} given",
                        f.name,
                        f.params.len(),
                        if f.params.len() == 1 { "" } else { "s" },
                        args.len(),
                        if args.len() == 1 { "was" } else { "were" }
                    ),
                    span,
                    "wrong number of values",
                )
                .with_help(format!("write `{}({})`", f.name, f.params.join(", "))),
            );
        }
        let mut out = Vec::with_capacity(args.len());
        for a in args {
            match a {
                Arg::Expr(e) => {
                    let t = self.expr(e, None);
                    if t.ty == Ty::Pool {
                        // Scripts see numbers, not dice: pass the dice's value.
                        out.push(Expr::Builtin(Builtin::Sum, vec![t.e]));
                    } else {
                        out.push(t.e);
                    }
                }
                Arg::Cmp(_, _, s) => self.error(
                    Diagnostic::error(
                        "resolve::unexpected_comparison",
                        "a comparison such as `>= 5` can only be given to a dice function",
                        *s,
                        "not a value",
                    )
                    .with_help("pass a value; the script can compare it itself"),
                ),
            }
        }
        out
    }

    /// A call of `what` (`` `name` ``, ``reaction `name` ``) with `given` values where it takes one
    /// for each of `params`: the error, with the call written right (`written` before the brackets).
    pub(super) fn arity(&mut self, what: &str, written: &str, params: &[FieldDef], given: usize, span: Span) {
        let list: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
        self.error(
            Diagnostic::error(
                "resolve::arity",
                format!(
                    "{what} takes {} value{} but {given} {} given",
                    params.len(),
                    if params.len() == 1 { "" } else { "s" },
                    if given == 1 { "was" } else { "were" }
                ),
                span,
                "wrong number of values",
            )
            .with_help(format!("write `{written}({})`", list.join(", "))),
        );
    }

    /// Checks positional arguments against parameters.
    fn args(&mut self, name: &str, params: &[FieldDef], args: &[Arg], span: Span) -> Vec<Expr> {
        if args.len() != params.len() {
            self.arity(&format!("`{name}`"), name, params, args.len(), span);
        }
        let mut out = vec![];
        for (a, p) in args.iter().zip(params) {
            match a {
                Arg::Expr(e) => {
                    let t = self.expr(e, Some(&p.ty));
                    self.expect_ty(&t, &p.ty, e.span, &format!("`{}` of `{name}`", p.name));
                    if let Some(v) = const_value(&t.e) {
                        self.in_bounds(&v, &p.ty, e.span, &p.name);
                    }
                    out.push(t.e);
                }
                Arg::Cmp(_, _, s) => {
                    self.error(
                        Diagnostic::error(
                            "resolve::unexpected_comparison",
                            "a comparison is not a value",
                            *s,
                            "not a value",
                        )
                        .with_help("comparisons such as `>= 5` only go in `count`, `any` and `all`"),
                    );
                }
            }
        }
        out
    }

    fn builtin(&mut self, f: &ast::Ident, args: &[Arg], span: Span) -> T {
        let name = f.name.as_str();
        let arity = |c: &mut Self, n: &str, usage: &str| {
            c.error(
                Diagnostic::error(
                    "resolve::arity",
                    format!(
                        "`{name}` takes {n}, but {} {} given",
                        args.len(),
                        if args.len() == 1 { "was" } else { "were" }
                    ),
                    span,
                    "wrong number of values",
                )
                .with_help(format!("write `{usage}`")),
            );
            T::new(Expr::Const(Value::Int(0)), Ty::Error)
        };
        let plain = |c: &mut Self, a: &Arg| -> Option<T> {
            match a {
                Arg::Expr(e) => Some(c.expr(e, None)),
                Arg::Cmp(_, _, s) => {
                    c.error(
                        Diagnostic::error(
                            "resolve::unexpected_comparison",
                            "a comparison is not a value here",
                            *s,
                            "not a value",
                        )
                        .with_help("comparisons such as `>= 5` only go in `count`, `any` and `all`"),
                    );
                    None
                }
            }
        };
        match name {
            "min" | "max" | "abs" | "triangular" | "clamp" => {
                let want = match name {
                    "abs" | "triangular" => (1, 1),
                    "clamp" => (3, 3),
                    _ => (2, usize::MAX),
                };
                if args.len() < want.0 || args.len() > want.1 {
                    let usage = match name {
                        "abs" => "abs(x)",
                        "triangular" => "triangular(n)",
                        "clamp" => "clamp(x, lowest, highest)",
                        "min" => "min(a, b)",
                        _ => "max(a, b)",
                    };
                    let n = match want {
                        (1, 1) => "one value",
                        (3, 3) => "three values",
                        _ => "two or more values",
                    };
                    return arity(self, n, usage);
                }
                let mut ts = vec![];
                for a in args {
                    let Some(t) = plain(self, a) else { continue };
                    let sp = match a {
                        Arg::Expr(e) => e.span,
                        Arg::Cmp(_, _, s) => *s,
                    };
                    self.expect_ty(&t, &Ty::INT, sp, &format!("each value of `{name}`"));
                    ts.push(self.as_int(t));
                }
                let ranges: Vec<(Option<i64>, Option<i64>)> = ts.iter().map(|t| t.range()).collect();
                let (lo, hi) = match name {
                    "min" => (
                        ranges
                            .iter()
                            .map(|r| r.0)
                            .collect::<Option<Vec<_>>>()
                            .and_then(|v| v.into_iter().min()),
                        ranges.iter().filter_map(|r| r.1).min(),
                    ),
                    "max" => (
                        ranges.iter().filter_map(|r| r.0).max(),
                        ranges
                            .iter()
                            .map(|r| r.1)
                            .collect::<Option<Vec<_>>>()
                            .and_then(|v| v.into_iter().max()),
                    ),
                    "abs" => (
                        Some(0),
                        ranges
                            .first()
                            .and_then(|r| r.0.zip(r.1))
                            .map(|(l, h)| l.saturating_abs().max(h.saturating_abs())),
                    ),
                    "triangular" => (
                        Some(0),
                        ranges.first().and_then(|r| r.1).map(|h| h.saturating_mul(h.saturating_add(1)) / 2),
                    ),
                    _ => (ranges.get(1).and_then(|r| r.0), ranges.get(2).and_then(|r| r.1)),
                };
                let b = match name {
                    "min" => Builtin::Min,
                    "max" => Builtin::Max,
                    "abs" => Builtin::Abs,
                    "triangular" => Builtin::Triangular,
                    _ => Builtin::Clamp,
                };
                T::int(Expr::Builtin(b, ts.into_iter().map(|t| t.e).collect()), lo, hi)
            }
            "sum" | "size" => {
                if args.len() != 1 {
                    return arity(self, "one pool of dice", &format!("{name}(dice)"));
                }
                let Some(p) = self.pool_arg(&args[0], name) else {
                    return T::new(Expr::Const(Value::Int(0)), Ty::Error);
                };
                let info = p.pool;
                let (lo, hi) = match (name, info) {
                    ("size", Some(i)) => (Some(i.count.0), Some(i.count.1)),
                    ("sum", Some(i)) => (
                        Some(i.count.0.saturating_mul(i.faces.0).min(i.count.1.saturating_mul(i.faces.0))),
                        Some(i.count.1.saturating_mul(i.faces.1)),
                    ),
                    _ => (None, None),
                };
                let b = if name == "sum" { Builtin::Sum } else { Builtin::Size };
                T::int(Expr::Builtin(b, vec![p.e]), lo, hi)
            }
            "count" | "any" | "all" => {
                if args.len() != 2 {
                    return arity(self, "a pool of dice and a face", &format!("{name}(dice, >= 5)"));
                }
                let Some(p) = self.pool_arg(&args[0], name) else {
                    return T::new(Expr::Const(Value::Int(0)), Ty::Error);
                };
                let (cmp, n) = match &args[1] {
                    Arg::Cmp(c, e, _) => (*c, e),
                    Arg::Expr(e) => (Cmp::Eq, e),
                };
                let tn = self.int_arg(n, &format!("the face in `{name}`"));
                // Can any face of the pool pass the comparison at all?
                let can_pass = match (p.pool, const_value(&tn.e)) {
                    (Some(i), Some(Value::Int(v))) if i.faces.1 < 1_000_000 => {
                        (i.faces.0..=i.faces.1).any(|x| cmp.test(x, v))
                    }
                    _ => true,
                };
                let maxn = p.pool.map(|i| i.count.1);
                let e = match name {
                    "count" => Builtin::Count(cmp),
                    "any" => Builtin::Any(cmp),
                    _ => Builtin::All(cmp),
                };
                let e = Expr::Builtin(e, vec![p.e, tn.e]);
                match name {
                    "count" => T::int(e, Some(0), if can_pass { maxn } else { Some(0) }),
                    "any" => T::flag(e, if can_pass { None } else { Some(false) }),
                    _ => T::flag(e, None),
                }
            }
            "highest" | "lowest" => {
                if args.len() != 2 {
                    return arity(self, "a pool of dice and how many", &format!("{name}(dice, 2)"));
                }
                let Some(p) = self.pool_arg(&args[0], name) else {
                    return T::new(Expr::Const(Value::Int(0)), Ty::Error);
                };
                let k = match &args[1] {
                    Arg::Expr(e) => self.int_arg(e, &format!("how many dice `{name}` takes")),
                    Arg::Cmp(_, e, s) => {
                        self.misplaced_comparison(*s, name);
                        self.int_arg(e, "how many dice")
                    }
                };
                let hi = p.pool.zip(k.range().1).map(|(i, k)| i.faces.1.saturating_mul(k.min(i.count.1)));
                let b = if name == "highest" { Builtin::Highest } else { Builtin::Lowest };
                T::int(Expr::Builtin(b, vec![p.e, k.e]), None, hi)
            }
            "die" => {
                if args.len() != 2 {
                    return arity(self, "a pool of dice and a position", "die(dice, 1)");
                }
                let Some(p) = self.pool_arg(&args[0], name) else {
                    return T::new(Expr::Const(Value::Int(0)), Ty::Error);
                };
                let i = match &args[1] {
                    Arg::Expr(e) => self.int_arg(e, "the position in `die`"),
                    Arg::Cmp(_, e, s) => {
                        self.misplaced_comparison(*s, name);
                        self.int_arg(e, "the position")
                    }
                };
                let (lo, hi) =
                    p.pool.map(|i| (Some(i.faces.0.min(0)), Some(i.faces.1))).unwrap_or((None, None));
                T::int(Expr::Builtin(Builtin::Die, vec![p.e, i.e]), lo, hi)
            }
            "shift" | "value" | "rank" => {
                let n = if name == "shift" { 2 } else { 1 };
                if args.len() != n {
                    let usage = if name == "shift" {
                        "shift(level, 1)".to_string()
                    } else {
                        format!("{name}(level)")
                    };
                    return arity(
                        self,
                        if n == 2 { "a ladder rung and a number of steps" } else { "one ladder rung" },
                        &usage,
                    );
                }
                let Some(r) = plain(self, &args[0]) else {
                    return T::new(Expr::Const(Value::Int(0)), Ty::Error);
                };
                let Ty::Name(set) = r.ty else {
                    let words = self.ty_words(&r.ty);
                    let sp = match &args[0] {
                        Arg::Expr(e) => e.span,
                        Arg::Cmp(_, _, s) => *s,
                    };
                    self.error(
                        Diagnostic::error(
                            "resolve::type_mismatch",
                            format!("`{name}` needs a name from a ladder, but this is {words}"),
                            sp,
                            format!("this is {words}"),
                        )
                        .with_help("pass a ladder rung, such as `routine`"),
                    );
                    return T::new(Expr::Const(Value::Int(0)), Ty::Error);
                };
                let len = self.prog.sets[set as usize].names.len() as i64;
                match name {
                    "shift" => {
                        let k = match &args[1] {
                            Arg::Expr(e) => self.int_arg(e, "the steps of `shift`"),
                            Arg::Cmp(_, e, s) => {
                                self.misplaced_comparison(*s, name);
                                self.int_arg(e, "the steps")
                            }
                        };
                        T::new(Expr::Builtin(Builtin::Shift, vec![r.e, k.e]), Ty::Name(set))
                    }
                    "rank" => T::int(Expr::Builtin(Builtin::Rank, vec![r.e]), Some(0), Some(len - 1)),
                    _ => {
                        let vals = self.prog.sets[set as usize].values.clone();
                        match vals {
                            Some(v) => T::int(
                                Expr::Builtin(Builtin::RungValue, vec![r.e]),
                                v.iter().copied().min(),
                                v.iter().copied().max(),
                            ),
                            None => {
                                let sname = self.prog.sets[set as usize].name.clone();
                                self.error(
                                    Diagnostic::error(
                                        "resolve::no_values",
                                        format!("the names of `{sname}` have no numbers"),
                                        span,
                                        "nothing to look up",
                                    )
                                    .with_help(
                                        "give the ladder's rungs numbers (`routine = 7`), or use `rank(…)`",
                                    ),
                                );
                                T::new(Expr::Const(Value::Int(0)), Ty::Error)
                            }
                        }
                    }
                }
            }
            _ => T::new(Expr::Const(Value::Int(0)), Ty::Error),
        }
    }

    /// A comparison such as `>= 5` where a plain number belongs.
    fn misplaced_comparison(&mut self, span: Span, fname: &str) {
        self.error(
            Diagnostic::error(
                "resolve::unexpected_comparison",
                format!("`{fname}` takes a number here, not a comparison"),
                span,
                "a comparison",
            )
            .with_help(
                "comparisons such as `>= 5` only go in `count`, `any` and `all`; write a plain number",
            ),
        );
    }

    fn pool_arg(&mut self, a: &Arg, fname: &str) -> Option<T> {
        let Arg::Expr(e) = a else {
            let Arg::Cmp(_, _, s) = a else { return None };
            self.error(
                Diagnostic::error(
                    "resolve::unexpected_comparison",
                    "expected dice here, not a comparison",
                    *s,
                    "a comparison",
                )
                .with_help(format!("write `{fname}(dice, …)`")),
            );
            return None;
        };
        let t = self.expr(e, None);
        if t.ty != Ty::Pool {
            let words = self.ty_words(&t.ty);
            self.error(
                Diagnostic::error(
                    "resolve::type_mismatch",
                    format!("`{fname}` needs dice, but this is {words}"),
                    e.span,
                    format!("this is {words}"),
                )
                .with_help("pass rolled dice, such as `dice` in a check or `3d6`"),
            );
            return None;
        }
        Some(t)
    }
}
