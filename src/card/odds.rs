//! A check's odds table for its card: each outcome's chance over the check's main inputs.

use super::tested;
use super::words::{self, Source};
use crate::Ruleset;
use crate::ast::{self, Arg, CheckLineKind, ExprKind, Sides};
use crate::odds::Chance;
use crate::program::{Check, Program, Ty, Value};
use crate::session::Session;

/// Most values on the rows of a table.
const MAX_ROWS: usize = 13;
/// Values worked out from a range too long for the rows, before the rows where nothing changes are
/// left out (`0..` is worked out from 0 to 63; `0..400` at 64 values spread over it).
const WIDE: i64 = 64;
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
    /// The outcomes, in the order they are tried, then the check's groups of outcomes as `[pass]`,
    /// then the values the rolls leave of who makes the check, as `unit.resolve_next = yes`.
    pub outcomes: Vec<String>,
    /// The chances: by row, by column, by outcome.
    pub cells: Vec<Vec<Vec<Cell>>>,
    /// The values everything else was given, as `name = value`.
    pub fixed: Vec<String>,
    /// Why some chances are estimates, if any are.
    pub estimated: Option<String>,
    /// Why some chances are missing, if any are.
    pub missing: Option<String>,
    /// The values of the rows or columns left out because the rules never roll the check with them,
    /// and why, with what is quoted from the ruleset in backticks (`creature.stress >= 1`).
    pub untested: Option<String>,
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
    /// Whether its values are more than the rows can show: the rows where the odds change are kept.
    wide: bool,
    /// Whether its range has no upper end (`0..`).
    open: bool,
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
    let mut never = vec![];
    for i in &c.inputs {
        let Some((mut values, cut)) = values_of(p, &i.field.ty) else { continue };
        let axis = tested::Axis { name: &i.field.name, attribute: false };
        never.extend(tested::restrict(src, &c.name, &axis, &i.field.name, &mut values));
        let whole = matches!(i.field.ty, Ty::Int { .. });
        let rank = match (&i.field.ty, i.field.default.is_none() && i.default.is_none()) {
            (Ty::Int { .. }, true) => 0,
            (Ty::Int { .. }, false) => 1,
            (Ty::Name(_), _) => 2,
            _ => 3,
        };
        let label = i.field.name.clone();
        axes.push(Axis {
            name: i.field.name.clone(),
            attribute: false,
            label,
            values,
            rank,
            wide: whole && cut,
            open: open_ended(&i.field.ty),
        });
    }
    if let (Some(kind), Some(def)) = (kind, src.check(&c.name)) {
        for name in attributes_read(def, &kind.name) {
            let Some(f) = kind.fields.iter().find(|f| f.name == name) else { continue };
            let Some((mut values, cut)) = values_of(p, &f.ty) else { continue };
            let whole = matches!(f.ty, Ty::Int { .. });
            let rank = match f.ty {
                Ty::Int { .. } => 1,
                Ty::Name(_) => 2,
                _ => 3,
            };
            let label = format!("{}.{}", kind.name, f.name);
            let axis = tested::Axis { name: &name, attribute: true };
            never.extend(tested::restrict(src, &c.name, &axis, &label, &mut values));
            let open = open_ended(&f.ty);
            axes.push(Axis { name, attribute: true, label, values, rank, wide: whole && cut, open });
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
            wide: false,
            open: false,
        });
    }
    let primary = axes.remove(0);
    // Each yes/no attribute the outcomes write takes a column of its own (`unit.resolve_next = yes`).
    let flags = kind.map_or(0, |k| {
        let written = crate::odds::effects::written(c);
        written.iter().filter(|f| k.fields.get(**f as usize).is_some_and(|f| f.ty == Ty::Flag)).count()
    });
    let secondary = axes
        .iter()
        .position(|a| a.values.len() <= 4 && a.values.len() * (outcomes.len() + flags) <= MAX_CELLS)
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
    for (n, i) in c.inputs.iter().enumerate() {
        // An input the stand-in has as an attribute is its attribute's default, not the lowest value.
        let own = p.subject_attribute_of(c, n as u32).is_some();
        if on_axes(&i.field.name, false) || own || i.field.default.is_some() || i.default.is_some() {
            continue;
        }
        let v = lowest(&i.field.ty)
            .ok_or_else(|| format!("input `{}` has no value a card can give", i.field.name))?;
        fixed.push(format!("{} = {}", i.field.name, words::value(p, &v)));
        inputs.push((i.field.name.clone(), v));
    }
    // Every attribute the check reads of its maker, or through it (`group.opponent.mp`), that has
    // no default is given, and said: the table reads nothing it does not name.
    let mut attrs: Vec<(String, Value)> = vec![];
    if let (Some(kind), Some(def)) = (kind, src.check(&c.name)) {
        for (path, _) in crate::odds::reads::maker_reads(def, &kind.name) {
            if path.len() == 1 && on_axes(&path[0], true) {
                continue;
            }
            let Some(f) = field_at(p, kind, &path) else { continue };
            if f.default.is_some() || matches!(f.ty, Ty::Entity(_) | Ty::Data | Ty::Text) {
                continue;
            }
            let name = path.join(".");
            let v = lowest(&f.ty)
                .ok_or_else(|| format!("attribute `{}.{name}` has no value a card can give", kind.name))?;
            fixed.push(format!("{}.{name} = {}", kind.name, words::value(p, &v)));
            attrs.push((name, v));
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
    // What each cell's roll leaves of who makes it, row by row.
    let mut effects: Vec<Vec<crate::odds::EffectOdds>> = vec![];
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
                                effects.push(vec![]);
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
                        effects.push(r.effects);
                        continue;
                    }
                    Err(d) => {
                        missing.get_or_insert(d.message);
                        line.push(vec![Cell::Missing; outcomes.len()]);
                    }
                }
                effects.push(vec![]);
            }
            cells.push(line);
        }
        cells
    });
    let mut cells = cells;
    // What each row's rolls leave of who makes the check, cell by cell.
    let mut effects: Vec<Vec<Vec<crate::odds::EffectOdds>>> =
        effects.chunks(cols.len().max(1)).map(<[_]>::to_vec).collect();
    let mut rows: Vec<String> = rows.iter().map(|r| r.map_or(String::new(), |(l, _)| l.clone())).collect();
    let mut rows_by = primary.label.clone();
    if primary.wide && cells.len() == rows.len() {
        let mut keep = interesting(&cells);
        let (first, mut last) = (keep.first().copied().unwrap_or(0), keep.last().copied().unwrap_or(0));
        // A range with no upper end whose odds go on changing has no last value to spread the rows
        // over (the 64th is only where the work stopped): its first values are shown one by one.
        let go_on = primary.open && keep.len() != last - first + 1;
        if go_on {
            keep = (first..(first + MAX_ROWS).min(rows.len())).collect();
            last = keep.last().copied().unwrap_or(first);
        }
        let name = &primary.label;
        let all = keep.len() == last - first + 1;
        rows_by = if all {
            format!("{name} {}–{}", rows[first], rows[last])
        } else {
            format!("{name} {}–{} (some values)", rows[first], rows[last])
        };
        // What the rows left out at either end show: the same as the row at that end.
        if first > 0 {
            fixed.push(format!("{name} {}–{}: as shown at {}", rows[0], rows[first - 1], rows[first]));
        }
        if go_on {
            fixed.push(format!("{name} {} or more: not shown", rows[last + 1]));
        } else if last + 1 < rows.len() {
            // A range with no upper end goes on past the last value worked out.
            let upto =
                if primary.open { " or more".to_string() } else { format!("–{}", rows[rows.len() - 1]) };
            fixed.push(format!("{name} {}{upto}: as shown at {}", rows[last + 1], rows[last]));
        }
        rows = keep.iter().map(|&i| rows[i].clone()).collect();
        cells = keep.iter().map(|&i| cells[i].clone()).collect();
        effects = keep.iter().filter_map(|&i| effects.get(i).cloned()).collect();
    }
    // After the rows are chosen, by the outcomes alone.
    let effects: Vec<Vec<crate::odds::EffectOdds>> = effects.into_iter().flatten().collect();
    let unshown = with_effects(&mut outcomes, &mut cells, &effects);
    Ok(OddsTable {
        rows_by,
        rows,
        columns_by: secondary.as_ref().map(|s| s.label.clone()),
        columns: cols.iter().map(|c| c.map_or(String::new(), |(l, _)| l.clone())).collect(),
        outcomes,
        cells,
        fixed,
        estimated: (fewest < u64::MAX).then(|| {
            format!("≈ estimated from at least {fewest} simulated rolls each: exact odds take more work than a card allows")
        }),
        missing: missing.map(|m| format!("— could not be worked out: {m}")).or(unshown),
        untested: (!never.is_empty()).then(|| never.join(" ")),
    })
}

/// Adds to the table what the rolls leave of who makes the check (`effects`, one list per cell, row
/// by row) as columns after the outcomes, named `unit.resolve_next = yes`: those
/// [`crate::odds::effect_columns`] shows, but a value named as an outcome whose chances are that
/// outcome's in every cell (`unit.morale = broken` and `broken`; the card says what each does).
/// Returns a note naming the attributes left out, and why, if any are.
fn with_effects(
    outcomes: &mut Vec<String>,
    cells: &mut [Vec<Vec<Cell>>],
    effects: &[Vec<crate::odds::EffectOdds>],
) -> Option<String> {
    let shown_effects = crate::odds::effect_columns(effects.iter().map(Vec::as_slice));
    let columns = shown_effects.columns;
    let shown = outcomes.len();
    for column in &columns {
        let new: Vec<Cell> = cells
            .iter()
            .flatten()
            .zip(effects)
            .map(|(line, e)| match line.first() {
                Some(Cell::Missing) => Cell::Missing,
                _ => cell(&crate::odds::effect_chance(e, column)),
            })
            .collect();
        let twin = outcomes[..shown].iter().position(|o| *o == column.1);
        let same =
            twin.is_some_and(|o| cells.iter().flatten().zip(&new).all(|(line, c)| line.get(o) == Some(c)));
        if same {
            continue;
        }
        outcomes.push(format!("{} = {}", column.0, column.1));
        for (line, c) in cells.iter_mut().flatten().zip(new) {
            line.push(c);
        }
    }
    let notes: Vec<String> = shown_effects.left_out.iter().map(|(t, why)| format!("{t} ({why})")).collect();
    (!notes.is_empty()).then(|| format!("— what the rolls leave of {} is not shown", notes.join("; ")))
}

/// The rows of a wide range worth showing: from the last row before the odds (as shown) first
/// change to the first row after they last change; when that is still more than the rows can show,
/// rows are kept where the odds have moved on enough since the last one kept, so that they are close
/// together where the odds change fast and far apart where they hardly change.
fn interesting(cells: &[Vec<Vec<Cell>>]) -> Vec<usize> {
    let n = cells.len();
    if n == 0 {
        return vec![];
    }
    let shown = |i: usize| -> Vec<&str> { cells[i].iter().flatten().map(Cell::percent).collect() };
    let first = (0..n - 1).find(|&i| shown(i) != shown(i + 1)).unwrap_or(0);
    let last = (1..n).rev().find(|&i| shown(i) != shown(i - 1)).unwrap_or(n - 1).max(first);
    if last - first < MAX_ROWS {
        return (first..=last).collect();
    }
    let value = |i: usize| -> Vec<f64> { cells[i].iter().flatten().map(Cell::value).collect() };
    let apart = |a: usize, b: usize| -> f64 {
        value(a).iter().zip(value(b)).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
    };
    let total: f64 = (first..last).map(|i| apart(i, i + 1)).sum();
    let enough = total / (MAX_ROWS - 1) as f64;
    let mut keep = vec![first];
    let mut moved = 0.0;
    for i in first + 1..last {
        moved += apart(i - 1, i);
        if moved >= enough && keep.len() < MAX_ROWS - 1 {
            keep.push(i);
            moved = 0.0;
        }
    }
    keep.push(last);
    keep
}

impl Cell {
    /// The percentage as shown.
    fn percent(&self) -> &str {
        match self {
            Cell::Exact { percent, .. } | Cell::Estimate { percent } => percent,
            Cell::Missing => "—",
        }
    }

    /// The chance as a number, near enough to compare rows (`<0.1%` as 0.05%).
    fn value(&self) -> f64 {
        let p = self.percent();
        let number: f64 = p.trim_start_matches(['<', '>']).trim_end_matches('%').parse().unwrap_or(0.0);
        let number = match p.chars().next() {
            Some('<') => number / 2.0,
            Some('>') => (number + 100.0) / 2.0,
            _ => number,
        };
        number / 100.0
    }
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

/// The values a table runs through for type `ty`, and whether they are only the first of a range.
fn values_of(p: &Program, ty: &Ty) -> Option<(Vec<(String, Value)>, bool)> {
    let (values, cut): (Vec<Value>, bool) = match ty {
        Ty::Int { lo: Some(lo), hi } => {
            let count = hi.map(|hi| i128::from(hi) - i128::from(*lo) + 1);
            if count.is_some_and(|c| c < 2) {
                return None;
            }
            match (count, hi) {
                (Some(c), _) if c <= MAX_ROWS as i128 => {
                    ((*lo..=hi.unwrap_or(*lo)).map(Value::Int).collect(), false)
                }
                (Some(c), Some(hi)) if c <= i128::from(WIDE) => ((*lo..=*hi).map(Value::Int).collect(), true),
                (_, Some(hi)) => {
                    // Spread over the whole range, its ends included.
                    let span = i128::from(*hi) - i128::from(*lo);
                    let mut values: Vec<Value> = (0..WIDE)
                        .map(|i| {
                            lo.saturating_add(
                                i64::try_from(span * i128::from(i) / i128::from(WIDE - 1))
                                    .unwrap_or(i64::MAX),
                            )
                        })
                        .map(Value::Int)
                        .collect();
                    values.dedup();
                    (values, true)
                }
                (_, None) => ((*lo..=lo.saturating_add(WIDE - 1)).map(Value::Int).collect(), true),
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

/// The attribute at the end of `path` from a piece of `kind`, through attributes naming other
/// pieces (`["opponent", "mp"]`).
fn field_at<'p>(
    p: &'p Program,
    kind: &'p crate::program::Kind,
    path: &[String],
) -> Option<&'p crate::program::FieldDef> {
    let (last, through) = path.split_last()?;
    let mut k = kind;
    for name in through {
        let Ty::Entity(next) = k.fields.iter().find(|f| f.name == *name)?.ty else { return None };
        k = p.kinds.get(next as usize)?;
    }
    k.fields.iter().find(|f| f.name == *last)
}

/// Whether `ty` is a range of whole numbers with no upper end.
fn open_ended(ty: &Ty) -> bool {
    matches!(ty, Ty::Int { hi: None, .. })
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
            CheckLineKind::Reroll(r) => r.when.iter().collect(),
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
        ExprKind::Total { value, filter, empty, .. } => {
            for x in [value, filter, empty].into_iter().flatten() {
                reads(x, kind, out);
            }
        }
        _ => {}
    }
}
