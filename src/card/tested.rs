//! The values of a check's input (or of its maker's attribute) that the rules can roll it with, read
//! from the conditions written above each `roll` of the check: a card gives no odds for a case the
//! rules never test (Shadow Deep's test at 0 markers, which only a creature with a marker takes).

use super::words::Source;
use crate::ast::{self, BinOp, CheckLineKind, ExprKind, ItemKind, StmtKind, UnOp};
use crate::program::Value;

/// What one condition says of the value on an axis.
#[derive(Debug, Clone)]
enum Test {
    /// `value OP number`.
    Cmp(BinOp, i64),
    /// `value is NAME` (yes) or `value is not NAME` (no).
    Name(bool, String),
    /// `value` (yes) or `not value` (no), for a flag.
    Flag(bool),
}

impl Test {
    /// Whether `value`, shown as `shown`, meets the test; a test of another sort than the value
    /// says nothing of it.
    fn admits(&self, value: &Value, shown: &str) -> bool {
        match (self, value) {
            (Test::Cmp(op, n), Value::Int(v)) => op.compare(*v, *n).unwrap_or(true),
            (Test::Name(is, name), Value::Name { .. }) => (shown == name) == *is,
            (Test::Flag(want), Value::Bool(b)) => b == want,
            _ => true,
        }
    }
}

/// One place in the rules that rolls the check: what its conditions say of the axis, with their
/// words as written.
struct Site {
    tests: Vec<(Test, String)>,
}

/// The axis of a card's odds table the rules are asked about.
pub(super) struct Axis<'a> {
    /// The input's or attribute's name.
    pub name: &'a str,
    /// Whether it is an attribute of the maker (else an input).
    pub attribute: bool,
}

/// Keeps in `values` only those some roll of check `check` in the rules can be made with, judged by
/// the conditions written above the roll (`on`'s `when`, enclosing `if`s and `otherwise`s, a loop's
/// `where`) that compare the axis's value with a constant. What the conditions do not say is kept:
/// a condition the card cannot read never takes a value away. A check the rules never roll (only a
/// host or a scenario does) keeps every value. Returns what was left out and why, for the caption.
pub(super) fn restrict(
    src: &Source,
    check: &str,
    axis: &Axis,
    label: &str,
    values: &mut Vec<(String, Value)>,
) -> Option<String> {
    let def = src.check(check)?;
    let sites = sites(src, def, axis);
    if sites.is_empty() {
        return None;
    }
    let kept: Vec<bool> = values
        .iter()
        .map(|(shown, v)| sites.iter().any(|s| s.tests.iter().all(|(t, _)| t.admits(v, shown))))
        .collect();
    // Never an empty table: if no value passes, the conditions were misread, and all are kept.
    if kept.iter().all(|k| *k) || !kept.iter().any(|k| *k) {
        return None;
    }
    let left: Vec<String> =
        values.iter().zip(&kept).filter(|(_, k)| !**k).map(|((shown, _), _)| shown.clone()).collect();
    let mut i = 0;
    values.retain(|_| {
        i += 1;
        kept[i - 1]
    });
    let mut why: Vec<String> = vec![];
    for s in &sites {
        let words: Vec<String> = s.tests.iter().map(|(_, w)| format!("`{w}`")).collect();
        let words = if words.is_empty() { "always".to_string() } else { words.join(" and ") };
        if !why.contains(&words) {
            why.push(words);
        }
    }
    Some(format!(
        "No odds for {label} {}: the rules roll `{check}` only when {}.",
        ranges(&left),
        why.join(", or when ")
    ))
}

/// Values left out, as written: runs of whole numbers as `a–b`.
fn ranges(left: &[String]) -> String {
    let mut out: Vec<String> = vec![];
    let mut run: Option<(i64, i64)> = None;
    let flush = |run: &mut Option<(i64, i64)>, out: &mut Vec<String>| {
        if let Some((a, b)) = run.take() {
            out.push(if a == b { a.to_string() } else { format!("{a}–{b}") });
        }
    };
    for s in left {
        match (s.parse::<i64>(), run) {
            (Ok(n), Some((a, b))) if n == b + 1 => run = Some((a, n)),
            (Ok(n), _) => {
                flush(&mut run, &mut out);
                run = Some((n, n));
            }
            (Err(_), _) => {
                flush(&mut run, &mut out);
                out.push(s.clone());
            }
        }
    }
    flush(&mut run, &mut out);
    out.join(", ")
}

/// Every roll of `def` in the rules (the `on` rules and the effects of checks' outcomes; not the
/// scenarios, which play the host), with what its conditions say of the axis.
fn sites(src: &Source, def: &ast::CheckDef, axis: &Axis) -> Vec<Site> {
    let mut walk = Walk { src, def, axis, out: vec![] };
    for item in &src.file.items {
        match &item.kind {
            ItemKind::Trigger(t) => {
                let conds: Vec<(&ast::Expr, bool)> = t.when.iter().map(|w| (w, true)).collect();
                walk.body(&t.body, &conds, &mut Some(vec![]));
            }
            ItemKind::Check(c) => {
                for line in &c.lines {
                    if let CheckLineKind::Outcome(o) = &line.kind {
                        walk.body(&o.body, &[], &mut Some(vec![]));
                    }
                }
            }
            _ => {}
        }
    }
    walk.out
}

struct Walk<'s, 'a> {
    src: &'s Source<'s>,
    def: &'s ast::CheckDef,
    axis: &'s Axis<'a>,
    out: Vec<Site>,
}

impl Walk<'_, '_> {
    /// The statements of `body`, under conditions `conds` (each true, or false for an `otherwise`).
    /// `changed` holds what the statements before have changed since the conditions were read: the
    /// places set, added to or taken from, or `None` once anything may have changed (a trigger, a
    /// script, another roll, a loop come round again). A condition on a changed value says nothing.
    fn body(&mut self, body: &[ast::Stmt], conds: &[(&ast::Expr, bool)], changed: &mut Option<Vec<String>>) {
        for s in body {
            match &s.kind {
                StmtKind::If { cond, then, otherwise } => {
                    let mut c = conds.to_vec();
                    c.push((cond, true));
                    let mut after_then = changed.clone();
                    self.body(then, &c, &mut after_then);
                    c.pop();
                    c.push((cond, false));
                    let mut after_otherwise = changed.clone();
                    self.body(otherwise, &c, &mut after_otherwise);
                    *changed = merge(after_then, after_otherwise);
                }
                StmtKind::Chance { then, otherwise, .. } => {
                    let mut after_then = changed.clone();
                    self.body(then, conds, &mut after_then);
                    let mut after_otherwise = changed.clone();
                    self.body(otherwise, conds, &mut after_otherwise);
                    *changed = merge(after_then, after_otherwise);
                }
                StmtKind::ForEach { filter, body, .. } => {
                    let mut c = conds.to_vec();
                    c.extend(filter.iter().map(|f| (f, true)));
                    // An earlier round of the loop may have changed what a later one reads.
                    *changed = None;
                    self.body(body, &c, changed);
                }
                StmtKind::Repeat { body, .. } => {
                    *changed = None;
                    self.body(body, conds, changed);
                }
                StmtKind::Roll { check, subject, args } => {
                    if check.name == self.def.name.name {
                        self.site(subject.as_ref(), args, conds, changed.as_deref());
                    }
                    // Its outcome's effects may change anything.
                    *changed = None;
                }
                StmtKind::Set { place, .. }
                | StmtKind::Add { place, .. }
                | StmtKind::Remove { place, .. } => {
                    if let Some(c) = changed.as_mut() {
                        c.push(self.src.quote(place.span));
                    }
                }
                StmtKind::Trigger { .. } | StmtKind::Follow(..) | StmtKind::Choose(_) => *changed = None,
                _ => {}
            }
        }
    }

    /// A roll of the check: which expression gives the axis its value there, and what `conds` say of
    /// it.
    fn site(
        &mut self,
        subject: Option<&ast::Expr>,
        args: &[(ast::Ident, ast::Expr)],
        conds: &[(&ast::Expr, bool)],
        changed: Option<&[String]>,
    ) {
        let name = self.axis.name;
        let at_subject = || subject.map(|s| format!("{}.{name}", self.src.quote(s.span)));
        let mut tests = vec![];
        let value = if self.axis.attribute {
            at_subject()
        } else if let Some((_, given)) = args.iter().find(|(n, _)| n.name == name) {
            match given.kind {
                ExprKind::Int(n) => {
                    tests.push((Test::Cmp(BinOp::Eq, n), format!("{name} = {n}")));
                    None
                }
                _ => Some(self.src.quote(given.span)),
            }
        } else {
            let input = self.def.lines.iter().find_map(|l| match &l.kind {
                CheckLineKind::Input(f) if f.name.name == name => Some(f),
                _ => None,
            });
            match input.and_then(|f| f.default.as_ref()) {
                // Not given: the default, which the card shows anyway.
                Some(_) => None,
                // Taken from the maker's attribute of the same name.
                None => at_subject(),
            }
        };
        // A value changed since the conditions were read is not what they read.
        let value = value.filter(|v| changed.is_some_and(|c| !c.iter().any(|p| p == v)));
        if let Some(value) = value {
            for (cond, holds) in conds {
                self.tests(cond, *holds, &value, &mut tests);
            }
        }
        self.out.push(Site { tests });
    }

    /// What `e` (true if `holds`, else false) says of the expression written `value`.
    fn tests(&self, e: &ast::Expr, holds: bool, value: &str, out: &mut Vec<(Test, String)>) {
        let quote = |e: &ast::Expr| self.src.quote(e.span);
        match &e.kind {
            ExprKind::Binary(BinOp::And, a, b) if holds => {
                self.tests(a, true, value, out);
                self.tests(b, true, value, out);
            }
            ExprKind::Binary(BinOp::Or, a, b) if !holds => {
                self.tests(a, false, value, out);
                self.tests(b, false, value, out);
            }
            ExprKind::Unary(UnOp::Not, a) => self.tests(a, !holds, value, out),
            ExprKind::Binary(op @ (BinOp::Is | BinOp::IsNot), a, b) if quote(a) == value => {
                if let ExprKind::Name(n) = &b.kind {
                    let is = (*op == BinOp::Is) == holds;
                    out.push((Test::Name(is, n.name.clone()), said(&quote(e), holds)));
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (op, n) = match (&a.kind, &b.kind) {
                    (_, ExprKind::Int(n)) if quote(a) == value => (*op, *n),
                    (ExprKind::Int(n), _) if quote(b) == value => (flip(*op), *n),
                    _ => return,
                };
                let op = if holds { Some(op) } else { negate(op) };
                if let Some(op) = op.filter(|op| {
                    matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
                }) {
                    out.push((Test::Cmp(op, n), said(&quote(e), holds)));
                }
            }
            _ if quote(e) == value => out.push((Test::Flag(holds), said(value, holds))),
            _ => {}
        }
    }
}

/// What either of two branches may have changed.
fn merge(a: Option<Vec<String>>, b: Option<Vec<String>>) -> Option<Vec<String>> {
    let (mut a, b) = (a?, b?);
    a.extend(b);
    Some(a)
}

/// A condition as written, or its denial.
fn said(cond: &str, holds: bool) -> String {
    if holds { cond.to_string() } else { format!("not ({cond})") }
}

/// `a OP b` as `b OP' a`.
fn flip(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        other => other,
    }
}

/// The comparison that holds when `op` does not.
fn negate(op: BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::Eq => BinOp::Ne,
        BinOp::Ne => BinOp::Eq,
        BinOp::Lt => BinOp::Ge,
        BinOp::Le => BinOp::Gt,
        BinOp::Gt => BinOp::Le,
        BinOp::Ge => BinOp::Lt,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(text: &str, axis: &str, attribute: bool, values: &[i64]) -> (Vec<i64>, Option<String>) {
        let src = Source::new(text);
        let mut v: Vec<(String, Value)> = values.iter().map(|n| (n.to_string(), Value::Int(*n))).collect();
        let why = restrict(&src, "t", &Axis { name: axis, attribute }, axis, &mut v);
        (v.iter().map(|(_, v)| if let Value::Int(n) = v { *n } else { -1 }).collect(), why)
    }

    const RULES: &str = r#"
        kind c { stress: 0..9 = 0  calm: flag = no }
        check t for c { input stress: 0..  roll d20  outcome pass when total >= 7 + stress  otherwise fail }
        event go(c: c)
        on go when not c.calm {
          if c.stress >= 1 and c.stress != 4 { roll t for c }
        }
    "#;

    #[test]
    fn a_condition_above_the_roll_takes_values_away() {
        let (v, why) = kept(RULES, "stress", false, &[0, 1, 2, 3, 4, 5]);
        assert_eq!(v, [1, 2, 3, 5]);
        let why = why.unwrap();
        assert!(why.starts_with("No odds for stress 0, 4: the rules roll `t` only when"), "{why}");
        assert!(why.contains("`c.stress >= 1` and `c.stress != 4`"), "{why}");
        // The same read as the maker's attribute.
        assert_eq!(kept(RULES, "stress", true, &[0, 1]).0, [1]);
    }

    #[test]
    fn an_otherwise_a_given_value_and_an_unread_condition() {
        let text = RULES.replace(
            "if c.stress >= 1 and c.stress != 4 { roll t for c }",
            "if c.stress > 2 { } else { roll t for c with stress = c.stress }",
        );
        assert_eq!(kept(&text, "stress", false, &[0, 2, 3, 5]).0, [0, 2]);
        let text = RULES.replace("roll t for c }", "roll t for c with stress = 3 }");
        assert_eq!(kept(&text, "stress", false, &[0, 2, 3, 5]).0, [3]);
        // An `or` the card cannot split keeps every value; so does a check no rule rolls.
        let text = RULES.replace("c.stress >= 1 and c.stress != 4", "c.stress >= 1 or c.calm");
        assert_eq!(kept(&text, "stress", false, &[0, 2]).0, [0, 2]);
        let text = RULES.replace("roll t for c", "note \"no\"");
        assert_eq!(kept(&text, "stress", false, &[0, 2]), (vec![0, 2], None));
    }

    #[test]
    fn a_value_changed_before_the_roll_is_not_what_the_condition_read() {
        let text = RULES.replace("{ roll t for c }", "{ remove 1 from c.stress  roll t for c }");
        assert_eq!(kept(&text, "stress", false, &[0, 1, 4]).0, [0, 1, 4]);
        let text = RULES.replace("{ roll t for c }", "{ trigger go(c: c)  roll t for c }");
        assert_eq!(kept(&text, "stress", false, &[0, 1, 4]).0, [0, 1, 4]);
        // A roll under a chance counts as a roll.
        let text = RULES
            .replace("on go when", "on go { with chance 1/2 { roll t for c with stress = 0 } }\non go when");
        assert_eq!(kept(&text, "stress", false, &[0, 1, 4]).0, [0, 1]);
        // Changing something else keeps the condition.
        let text = RULES.replace("{ roll t for c }", "{ set c.calm to yes  roll t for c }");
        assert_eq!(kept(&text, "stress", false, &[0, 1, 4]).0, [1]);
    }

    #[test]
    fn two_rolls_keep_what_either_allows() {
        let text = RULES.replace("on go when", "on go { roll t for c with stress = 0 }\non go when");
        assert_eq!(kept(&text, "stress", false, &[0, 1, 4]).0, [0, 1]);
    }
}
