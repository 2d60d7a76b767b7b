//! A check's odds table for its card: each outcome's chance over the check's main inputs.

use super::words::{self, Source};
use crate::Ruleset;
use crate::ast::{self, Arg, CheckLineKind, ExprKind, Sides};
use crate::odds::Chance;
use crate::program::{Check, Program, Ty, Value};
use crate::session::Session;

/// Most values on the rows of a table.
const MAX_ROWS: usize = 13;
/// Values shown from a range too long for the rows (`0..` shows 0 to 9).
const FIRST_VALUES: i64 = 10;
/// Most cells (columns × outcomes) on a row.
const MAX_CELLS: usize = 12;

/// Each outcome's chance over one or two of a check's inputs (or its maker's attributes).
#[derive(Debug, Clone)]
pub struct OddsTable {
    /// What the rows run through (`spi`, `unit.morale`).
    pub rows_by: String,
    /// The value of each row.
    pub rows: Vec<String>,
    /// What the columns run through, if anything.
    pub columns_by: Option<String>,
    /// The value of each group of columns (one empty group without `columns_by`).
    pub columns: Vec<String>,
    /// The outcomes, in the order they are tried, then the check's groups of outcomes as `[pass]`.
    pub outcomes: Vec<String>,
    /// The chances: by row, by column, by outcome.
    pub cells: Vec<Vec<Vec<Cell>>>,
    /// The values everything else was given, as `name = value`.
    pub fixed: Vec<String>,
    /// Why some chances are estimates, if any are.
    pub estimated: Option<String>,
    /// Why some chances are missing, if any are.
    pub missing: Option<String>,
}

/// One chance in an [`OddsTable`].
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Worked out exactly: the percentage, and the fraction when it is short.
    Exact {
        /// Such as `41.7%`.
        percent: String,
        /// Such as `5/12`.
        fraction: Option<String>,
    },
    /// Estimated by simulation.
    Estimate {
        /// Such as `41.7%`.
        percent: String,
    },
    /// Could not be worked out (the rules stopped with an error).
    Missing,
}

/// Something the table can run through: an input, or an attribute of the check's maker.
struct Axis {
    /// The input's or attribute's name.
    name: String,
    /// Whether it is an attribute of the maker.
    attribute: bool,
    /// How it is shown (`spi`, `unit.morale`, `dice_pool 1–10`).
    label: String,
    /// Its values, as shown and as given.
    values: Vec<(String, Value)>,
    /// Which first: a whole number with no default, other whole numbers, names, flags.
    rank: u8,
}

/// The odds table of check `c` within `work` units of work, or why it has none.
pub(super) fn table(rules: &Ruleset, src: &Source, c: &Check, work: u64) -> Result<OddsTable, String> {
    let p = rules.program();
    if c.roll.is_none() {
        return Err("no dice: the outcome follows from the modifiers alone".into());
    }
    let mut outcomes = words::outcome_names(p, c);
    let plain = outcomes.len();
    outcomes.extend(c.groups.iter().map(|(g, _)| format!("[{g}]")));
    if plain < 2 {
        return Err("one outcome only".into());
    }
    let kind = c.subject.and_then(|k| p.kinds.get(k as usize));
    let mut axes: Vec<Axis> = vec![];
    for i in &c.inputs {
        let Some((values, cut)) = values_of(p, &i.field.ty) else { continue };
        let whole = matches!(i.field.ty, Ty::Int { .. });
        let rank = match (&i.field.ty, i.field.default.is_none() && i.default.is_none()) {
            (Ty::Int { .. }, true) => 0,
            (Ty::Int { .. }, false) => 1,
            (Ty::Name(_), _) => 2,
            _ => 3,
        };
        let label = span_label(&i.field.name, whole, &values, cut);
        axes.push(Axis { name: i.field.name.clone(), attribute: false, label, values, rank });
    }
    if let (Some(kind), Some(def)) = (kind, src.check(&c.name)) {
        for name in attributes_read(def, &kind.name) {
            let Some(f) = kind.fields.iter().find(|f| f.name == name) else { continue };
            let Some((values, cut)) = values_of(p, &f.ty) else { continue };
            let whole = matches!(f.ty, Ty::Int { .. });
            let rank = match f.ty {
                Ty::Int { .. } => 1,
                Ty::Name(_) => 2,
                _ => 3,
            };
            let label = span_label(&format!("{}.{}", kind.name, f.name), whole, &values, cut);
            axes.push(Axis { name, attribute: true, label, values, rank });
        }
    }
    axes.sort_by_key(|a| a.rank);
    if axes.is_empty() {
        axes.push(Axis {
            name: String::new(),
            attribute: false,
            label: String::new(),
            values: vec![],
            rank: 9,
        });
    }
    let primary = axes.remove(0);
    let secondary = axes
        .iter()
        .position(|a| a.values.len() <= 4 && a.values.len() * outcomes.len() <= MAX_CELLS)
        .map(|i| axes.remove(i));
    let on_axes = |name: &str, attribute: bool| {
        [Some(&primary), secondary.as_ref()]
            .into_iter()
            .flatten()
            .any(|a| a.name == name && a.attribute == attribute)
    };

    // Everything else keeps its default; what has none gets its lowest value.
    let mut fixed = vec![];
    let mut inputs: Vec<(String, Value)> = vec![];
    for i in &c.inputs {
        if on_axes(&i.field.name, false) || i.field.default.is_some() || i.default.is_some() {
            continue;
        }
        let v = lowest(&i.field.ty)
            .ok_or_else(|| format!("input `{}` has no value a card can give", i.field.name))?;
        fixed.push(format!("{} = {}", i.field.name, words::value(p, &v)));
        inputs.push((i.field.name.clone(), v));
    }
    let mut attrs: Vec<(String, Value)> = vec![];
    if let Some(kind) = kind {
        for f in &kind.fields {
            if on_axes(&f.name, true) || f.default.is_some() || matches!(f.ty, Ty::Entity(_)) {
                continue;
            }
            let v = lowest(&f.ty).ok_or_else(|| {
                format!("attribute `{}.{}` has no value a card can give", kind.name, f.name)
            })?;
            fixed.push(format!("{}.{} = {}", kind.name, f.name, words::value(p, &v)));
            attrs.push((f.name.clone(), v));
        }
    }

    let rows: Vec<Option<&(String, Value)>> =
        if primary.values.is_empty() { vec![None] } else { primary.values.iter().map(Some).collect() };
    let cols: Vec<Option<&(String, Value)>> = match &secondary {
        Some(s) => s.values.iter().map(Some).collect(),
        None => vec![None],
    };
    let mut session = Session::new(rules, 0);
    session.set_logging(false);
    let (mut fewest, mut missing) = (u64::MAX, None);
    let (cells, _) = crate::odds::work::within(work, || {
        let count = (rows.len() * cols.len()) as u64;
        let mut done = 0u64;
        let mut cells = vec![];
        for row in &rows {
            let mut line = vec![];
            for col in &cols {
                let share = crate::odds::work::left() / (count - done).max(1);
                done += 1;
                let (mut ins, mut ats) = (inputs.clone(), attrs.clone());
                for (axis, v) in [(Some(&primary), row), (secondary.as_ref(), col)] {
                    if let (Some(axis), Some((_, v))) = (axis, v) {
                        let to = if axis.attribute { &mut ats } else { &mut ins };
                        to.push((axis.name.clone(), v.clone()));
                    }
                }
                let subject = match kind {
                    Some(k) => {
                        let refs: Vec<(&str, Value)> =
                            ats.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
                        match session.stand_in(&k.name, &format!("{} {done}", k.name), &refs) {
                            Ok(id) => Some(id),
                            Err(d) => {
                                missing.get_or_insert(d.message);
                                line.push(vec![Cell::Missing; outcomes.len()]);
                                continue;
                            }
                        }
                    }
                    None => None,
                };
                let refs: Vec<(&str, Value)> = ins.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
                let (report, _) = crate::odds::work::within(share, || {
                    crate::odds::ask(&mut session, &c.name, subject, &refs, 0)
                });
                match report {
                    Ok(r) => {
                        if let crate::odds::How::Estimated { runs, .. } = &r.how {
                            fewest = fewest.min(*runs);
                        }
                        line.push(r.outcomes.iter().chain(&r.groups).map(|o| cell(&o.chance)).collect());
                    }
                    Err(d) => {
                        missing.get_or_insert(d.message);
                        line.push(vec![Cell::Missing; outcomes.len()]);
                    }
                }
            }
            cells.push(line);
        }
        cells
    });
    Ok(OddsTable {
        rows_by: primary.label,
        rows: rows.iter().map(|r| r.map_or(String::new(), |(l, _)| l.clone())).collect(),
        columns_by: secondary.as_ref().map(|s| s.label.clone()),
        columns: cols.iter().map(|c| c.map_or(String::new(), |(l, _)| l.clone())).collect(),
        outcomes,
        cells,
        fixed,
        estimated: (fewest < u64::MAX).then(|| {
            format!("≈ estimated from at least {fewest} simulated rolls each: exact odds take more work than a card allows")
        }),
        missing: missing.map(|m| format!("— could not be worked out: {m}")),
    })
}

fn cell(c: &Chance) -> Cell {
    match c {
        Chance::Exact(f) => {
            let text = f.to_string();
            let fraction = (text.len() <= 11 && f.to_f64() > 0.0 && f.to_f64() < 1.0).then_some(text);
            Cell::Exact { percent: super::percent(f.to_f64()), fraction }
        }
        Chance::Estimate { .. } => Cell::Estimate { percent: super::percent(c.value()) },
    }
}

/// `spi`, or `dice_pool 1–10` when only the first values of a long range are shown.
fn span_label(name: &str, whole: bool, values: &[(String, Value)], cut: bool) -> String {
    match (whole && cut, values.first(), values.last()) {
        (true, Some((a, _)), Some((b, _))) => format!("{name} {a}–{b}"),
        _ => name.to_string(),
    }
}

/// The values a table runs through for type `ty`, and whether they are only the first of a range.
fn values_of(p: &Program, ty: &Ty) -> Option<(Vec<(String, Value)>, bool)> {
    let (values, cut): (Vec<Value>, bool) = match ty {
        Ty::Int { lo: Some(lo), hi } => {
            let count = hi.map(|hi| i128::from(hi) - i128::from(*lo) + 1);
            if count.is_some_and(|c| c < 2) {
                return None;
            }
            if count.is_some_and(|c| c <= MAX_ROWS as i128) {
                ((*lo..=hi.unwrap_or(*lo)).map(Value::Int).collect(), false)
            } else {
                let end = lo.saturating_add(FIRST_VALUES - 1);
                ((*lo..=end).map(Value::Int).collect(), true)
            }
        }
        Ty::Flag => (vec![Value::Bool(false), Value::Bool(true)], false),
        Ty::Name(set) => {
            let n = p.sets.get(*set as usize)?.names.len();
            if !(2..=MAX_ROWS).contains(&n) {
                return None;
            }
            ((0..n as u32).map(|index| Value::Name { set: *set, index }).collect(), false)
        }
        _ => return None,
    };
    Some((values.iter().map(|v| (words::value(p, v), v.clone())).collect(), cut))
}

/// The lowest value of a type, for an input or attribute that has no default: 0 when the range
/// allows it.
fn lowest(ty: &Ty) -> Option<Value> {
    match ty {
        Ty::Int { lo, hi } => {
            let v = 0i64.max(lo.unwrap_or(i64::MIN)).min(hi.unwrap_or(i64::MAX));
            Some(Value::Int(v))
        }
        Ty::Flag => Some(Value::Bool(false)),
        Ty::Name(set) => Some(Value::Name { set: *set, index: 0 }),
        _ => None,
    }
}

/// The attributes of the check's maker (`KIND.name`) its roll, modifiers, target, values and
/// outcome conditions read, in the order first read.
fn attributes_read(def: &ast::CheckDef, kind: &str) -> Vec<String> {
    let mut out = vec![];
    for line in &def.lines {
        let exprs: Vec<&ast::Expr> = match &line.kind {
            CheckLineKind::Roll { dice, .. } => vec![dice],
            CheckLineKind::Modifier(m) => {
                [Some(&m.amount), m.when.as_ref(), m.cap.as_ref()].into_iter().flatten().collect()
            }
            CheckLineKind::Target(t) => vec![t],
            CheckLineKind::Let(_, e) => vec![e],
            CheckLineKind::Outcome(o) => o.when.iter().collect(),
            CheckLineKind::Input(_) | CheckLineKind::Group { .. } => vec![],
        };
        for e in exprs {
            reads(e, kind, &mut out);
        }
    }
    out
}

fn reads(e: &ast::Expr, kind: &str, out: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Field(base, name) => match &base.kind {
            ExprKind::Name(n) if n.name == kind => {
                if !out.contains(&name.name) {
                    out.push(name.name.clone());
                }
            }
            _ => reads(base, kind, out),
        },
        ExprKind::Call(_, args) => {
            for a in args {
                match a {
                    Arg::Expr(e) | Arg::Cmp(_, e, _) => reads(e, kind, out),
                }
            }
        }
        ExprKind::Dice { count, sides, .. } => {
            if let Some(c) = count {
                reads(c, kind, out);
            }
            if let Sides::Count(s) = sides {
                reads(s, kind, out);
            }
        }
        ExprKind::Binary(_, a, b) => {
            reads(a, kind, out);
            reads(b, kind, out);
        }
        ExprKind::Unary(_, a) => reads(a, kind, out),
        ExprKind::If(a, b, c) => {
            reads(a, kind, out);
            reads(b, kind, out);
            reads(c, kind, out);
        }
        ExprKind::NumberOf { filter: Some(f), .. } => reads(f, kind, out),
        _ => {}
    }
}
