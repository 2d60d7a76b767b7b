//! Odds reports as text: the outcomes with bars, what a check leaves of who makes it, the
//! distributions of its values, and a sweep's rows with stacked bars; what `mettle odds` prints and
//! the REPL's `odds` shows.

use super::{Chance, Dist, Fraction, How, Report};
use crate::{Session, Value};

/// A name as the terminal shows it (escaped), for measuring columns by it.
pub fn shown(name: &str) -> std::borrow::Cow<'_, str> {
    crate::text::visible(name)
}

/// The report as text: the question, how it was worked out, each outcome with a bar, then each value.
pub fn report_text(report: &Report) -> String {
    let mut out = format!("{}\n{}\n", report.question, how_text(&report.how));
    if let Some(m) = &report.merging {
        out.push_str(&format!("found by merging equal game states: {} states followed\n", m.states));
        if let Some(r) = &m.remainder {
            out.push_str(&format!(
                "a `repeat` with no bound: each chance is a lower bound, {} of runs still open were let go\n",
                exact_text(&Chance::Exact(r.clone()))
            ));
        }
    }
    if !report.outcomes.is_empty() {
        out.push('\n');
        let width = report.outcomes.iter().map(|o| shown(&o.name).chars().count()).max().unwrap_or(0).max(7);
        let exact_w = report.outcomes.iter().map(|o| exact_text(&o.chance).len()).max().unwrap_or(0).max(5);
        // Per cent column: 8 wide, wider for a tiny exact chance such as `4.5e-700%`.
        let pw = report.outcomes.iter().map(|o| chance_percent(&o.chance).len()).max().unwrap_or(0).max(8);
        out.push_str(&format!("  {:width$}  {:>pw$}  {:exact_w$}\n", "outcome", "chance", "exact"));
        for o in &report.outcomes {
            out.push_str(&format!(
                "  {:width$}  {:>pw$}  {:exact_w$}  {}\n",
                shown(&o.name),
                chance_percent(&o.chance),
                exact_text(&o.chance),
                bar(o.chance.value(), 40)
            ));
            if let Chance::Estimate { low, high, .. } = &o.chance {
                out.push_str(&format!(
                    "  {:width$}  95% between {} and {}\n",
                    "",
                    percent(*low),
                    percent(*high)
                ));
            }
        }
    }
    for e in &report.effects {
        out.push_str(&effect_text(e));
    }
    for (name, dist) in &report.values {
        out.push_str(&format!("\n{name}\n"));
        out.push_str(&dist_text(dist, matches!(report.how, How::Exact)));
    }
    out
}

/// What the check leaves of one attribute of who makes it: each value with its chance and a bar,
/// then the rolls whose effects could not be followed, and why.
fn effect_text(e: &super::EffectOdds) -> String {
    // A value every roll leaves, exactly: one line.
    if let ([v], None) = (e.values.as_slice(), &e.unfollowed)
        && matches!(&v.chance, Chance::Exact(f) if f.num == f.den)
    {
        return format!("\n{} after the check: always {}\n", shown(&e.target), shown(&v.name));
    }
    let mut out = format!("\n{} after the check\n", shown(&e.target));
    let unfollowed = e.unfollowed.as_ref().map(|u| ("not followed".to_string(), u.chance.clone()));
    let rows: Vec<(String, Chance)> =
        e.values.iter().map(|v| (shown(&v.name).into_owned(), v.chance.clone())).chain(unfollowed).collect();
    let lw = rows.iter().map(|(l, _)| l.chars().count()).max().unwrap_or(0);
    let pw = rows.iter().map(|(_, c)| chance_percent(c).len()).max().unwrap_or(0).max(8);
    let exact = rows.iter().any(|(_, c)| matches!(c, Chance::Exact(_)));
    let ew = if exact { rows.iter().map(|(_, c)| exact_text(c).len()).max().unwrap_or(0) } else { 0 };
    // Numbers line up on the right, names on the left.
    let numbers = e.unfollowed.is_none() && e.values.iter().all(|v| v.name.parse::<i64>().is_ok());
    for (label, c) in &rows {
        let e = if exact { exact_text(c) } else { String::new() };
        let label = if numbers { format!("{label:>lw$}") } else { format!("{label:lw$}") };
        out.push_str(&format!("  {label}  {:>pw$}  {e:ew$}  {}\n", chance_percent(c), bar(c.value(), 30)));
        if let Chance::Estimate { low, high, .. } = c {
            out.push_str(&format!("  {:lw$}  95% between {} and {}\n", "", percent(*low), percent(*high)));
        }
    }
    if let Some(u) = &e.unfollowed {
        out.push_str(&format!("  not followed: {}\n", shown(&u.why)));
    }
    out
}

fn how_text(how: &How) -> String {
    match how {
        How::Exact => "exact odds".into(),
        How::Estimated { reason, runs, seed } => format!(
            "estimated from {runs} simulated runs (seed {seed}): exact odds are out of reach because {reason}"
        ),
    }
}

/// `p/q` for exact chances that fit on a line, scientific notation (`4.594e-10`, cut, never
/// rounded up) for longer ones, `-` for estimates.
pub fn exact_text(c: &Chance) -> String {
    match c {
        Chance::Exact(f) => {
            let s = f.to_string();
            if s.len() <= 24 { s } else { f.scientific(4) }
        }
        Chance::Estimate { .. } => "-".into(),
    }
}

/// A chance in per cent as [`percent`] shows it, except that an exact chance too small for two
/// decimals shows its size (`4.5e-8%`) instead of `<0.01%`, and one too small for an `f64` is not `0`.
pub fn chance_percent(c: &Chance) -> String {
    match c {
        Chance::Exact(f) => fraction_percent(f),
        Chance::Estimate { .. } => percent(c.value()),
    }
}

/// An exact fraction in per cent: see [`chance_percent`].
fn fraction_percent(f: &Fraction) -> String {
    if f.num.bits() == 0 {
        "0".into()
    } else if f.to_f64() < 0.00005 {
        let hundred = Fraction::new(&f.num * 100u32, f.den.clone());
        format!("{}%", hundred.scientific(2))
    } else {
        percent(f.to_f64())
    }
}

/// A chance in per cent: `0` when it never happens, `<0.01%` when it is too small to show, so that
/// neither reads as the other.
pub fn percent(p: f64) -> String {
    if p == 0.0 {
        "0".into()
    } else if p < 0.00005 {
        "<0.01%".into()
    } else {
        format!("{:.2}%", p * 100.0)
    }
}

/// A bar of `width` cells for a chance, in eighths of a cell.
pub fn bar(p: f64, width: usize) -> String {
    const PARTS: [&str; 8] = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
    let eighths = (p.clamp(0.0, 1.0) * (width * 8) as f64).round() as usize;
    let mut s = "█".repeat(eighths / 8);
    s.push_str(PARTS[eighths % 8]);
    s
}

/// Largest number of rows a distribution is shown with; wider ones are grouped into ranges.
const MAX_DIST_ROWS: usize = 40;

/// The rows of a distribution: each value, or ranges of values when there are many.
pub fn dist_rows(d: &Dist) -> Vec<(String, Fraction)> {
    let total = d.total();
    let span = (d.hi() - d.lo() + 1) as usize;
    if span <= MAX_DIST_ROWS {
        return d.iter().map(|(v, w)| (v.to_string(), Fraction::new(w.clone(), total.clone()))).collect();
    }
    let step = span.div_ceil(MAX_DIST_ROWS) as i64;
    let mut rows = vec![];
    let mut lo = d.lo();
    while lo <= d.hi() {
        let hi = (lo + step - 1).min(d.hi());
        let w: num_bigint::BigUint = (lo..=hi).map(|v| d.weight(v)).sum();
        rows.push((format!("{lo}..{hi}"), Fraction::new(w, total.clone())));
        lo = hi + 1;
    }
    rows
}

fn dist_text(d: &Dist, exact: bool) -> String {
    let rows = dist_rows(d);
    let top = rows.iter().map(|(_, f)| f.to_f64()).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
    let lw = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
    let ew = if exact {
        rows.iter().map(|(_, f)| exact_text(&Chance::Exact(f.clone())).len()).max().unwrap_or(0)
    } else {
        0
    };
    let shown = |f: &Fraction| if exact { fraction_percent(f) } else { percent(f.to_f64()) };
    let pw = rows.iter().map(|(_, f)| shown(f).len()).max().unwrap_or(0).max(8);
    let mut out = String::new();
    for (label, f) in rows {
        let e = if exact { exact_text(&Chance::Exact(f.clone())) } else { String::new() };
        out.push_str(&format!(
            "  {label:>lw$}  {:>pw$}  {e:ew$}  {}\n",
            shown(&f),
            bar(f.to_f64() / top, 30)
        ));
    }
    out
}

/// A sweep's row: the values swept, by name, and the report.
pub type Row = (Vec<(String, Value)>, Report);

/// The effects a sweep shows (see [`super::effect_columns`]), but a value named as an outcome
/// whose chance is that outcome's in every row (`unit.morale=broken` and `broken`), which is only
/// named.
pub fn effect_columns<'a>(reports: impl IntoIterator<Item = &'a Report>) -> Vec<(String, String)> {
    effect_columns_and_same(reports).0.columns
}

/// [`effect_columns`] with the attributes left out and why, and the columns only named.
fn effect_columns_and_same<'a>(
    reports: impl IntoIterator<Item = &'a Report>,
) -> (super::EffectColumns, Vec<(String, String)>) {
    let reports: Vec<&Report> = reports.into_iter().collect();
    let mut all = super::effect_columns(reports.iter().map(|r| r.effects.as_slice()));
    let (shown, same) = std::mem::take(&mut all.columns).into_iter().partition(|c| {
        !reports.iter().all(|r| {
            r.outcomes.iter().any(|o| o.name == c.1 && o.chance == super::effect_chance(&r.effects, c))
        })
    });
    all.columns = shown;
    (all, same)
}

/// A column of [`effect_columns`] by name: `unit.resolve_next=yes`, as `--plot-of` takes it.
pub fn column_name((target, value): &(String, String)) -> String {
    format!("{target}={value}")
}

/// The chance of each of `columns` in `report`, named as [`column_name`] names them (0 when the
/// report does not list the attribute).
pub fn effect_cells(report: &Report, columns: &[(String, String)]) -> Vec<super::OutcomeOdds> {
    columns
        .iter()
        .map(|c| super::OutcomeOdds {
            name: column_name(c),
            chance: super::effect_chance(&report.effects, c),
        })
        .collect()
}

/// Marks of each outcome in a sweep's stacked bars, in order.
const MARKS: [char; 8] = ['█', '▓', '▒', '░', '#', '=', '+', '.'];

/// A sweep as text: the question, a legend, then one line per row with each outcome's chance, the
/// groups, the effects' columns and a stacked bar.
pub fn sweep_text(question: &str, rows: &[Row], groups: &[Vec<super::OutcomeOdds>], s: &Session) -> String {
    let Some((first_set, first)) = rows.first() else { return String::new() };
    let mut out = format!("{question}\n");
    let estimated = rows.iter().filter(|(_, r)| !matches!(r.how, How::Exact)).count();
    if estimated == 0 {
        out.push_str("exact odds\n");
    } else {
        out.push_str(&format!(
            "{estimated} of {} rows estimated by simulation (see --json for why)\n",
            rows.len()
        ));
    }
    let names: Vec<&str> = first.outcomes.iter().map(|o| o.name.as_str()).collect();
    let legend: Vec<String> =
        names.iter().enumerate().map(|(i, n)| format!("{} {n}", MARKS[i % MARKS.len()])).collect();
    out.push_str(&format!("{}\n\n", legend.join("  ")));
    let widths: Vec<usize> = first_set
        .iter()
        .enumerate()
        .map(|(i, (n, _))| {
            rows.iter().map(|(set, _)| s.show(&set[i].1).len()).max().unwrap_or(0).max(n.len()).max(3)
        })
        .collect();
    let ow: Vec<usize> = names
        .iter()
        .enumerate()
        .map(|(j, n)| {
            let cells =
                rows.iter().filter_map(|(_, r)| r.outcomes.get(j)).map(|o| chance_percent(&o.chance).len());
            cells.max().unwrap_or(0).max(n.len()).max(7)
        })
        .collect();
    let mut head = String::from(" ");
    for ((n, _), w) in first_set.iter().zip(&widths) {
        head.push_str(&format!(" {n:>w$}"));
    }
    for (n, w) in names.iter().zip(&ow) {
        head.push_str(&format!("  {n:>w$}"));
    }
    // Groups come after the outcomes, marked so that nobody adds them to the outcomes.
    let gw: Vec<usize> =
        groups.first().map_or(vec![], |g| g.iter().map(|g| g.name.len().max(6) + 2).collect());
    if let Some(g) = groups.first() {
        for (g, w) in g.iter().zip(&gw) {
            head.push_str(&format!("  {:>w$}", format!("[{}]", g.name)));
        }
    }
    // Then what the check does to who makes it: the chance of each value an attribute is left with.
    let (shown_effects, same) = effect_columns_and_same(rows.iter().map(|(_, r)| r));
    for (target, why) in &shown_effects.left_out {
        out.push_str(&format!(
            "{} is not shown: {} (each row's `--json` has it)\n",
            shown(target),
            shown(why)
        ));
    }
    if !shown_effects.left_out.is_empty() && same.is_empty() {
        out.push('\n');
    }
    let columns = shown_effects.columns;
    if !same.is_empty() {
        let said: Vec<String> = same.iter().map(|c| shown(&column_name(c)).into_owned()).collect();
        out.push_str(&format!(
            "with the chance of the outcome of the same name in every row: {}\n\n",
            said.join(", ")
        ));
    }
    let ew: Vec<usize> = columns
        .iter()
        .map(|c| {
            let cells = rows.iter().flat_map(|(_, r)| effect_cells(r, std::slice::from_ref(c)));
            cells
                .map(|o| chance_percent(&o.chance).len())
                .max()
                .unwrap_or(0)
                .max(shown(&column_name(c)).len())
        })
        .collect();
    for (c, w) in columns.iter().zip(&ew) {
        head.push_str(&format!("  {:>w$}", shown(&column_name(c))));
    }
    out.push_str(head.trim_end());
    out.push('\n');
    for (i, (set, rep)) in rows.iter().enumerate() {
        let mut line = String::from(" ");
        for ((_, v), w) in set.iter().zip(&widths) {
            line.push_str(&format!(" {:>w$}", s.show(v)));
        }
        for (o, w) in rep.outcomes.iter().zip(&ow) {
            line.push_str(&format!("  {:>w$}", chance_percent(&o.chance)));
        }
        if let Some(g) = groups.get(i) {
            for (g, w) in g.iter().zip(&gw) {
                line.push_str(&format!("  {:>w$}", chance_percent(&g.chance)));
            }
        }
        for (o, w) in effect_cells(rep, &columns).iter().zip(&ew) {
            line.push_str(&format!("  {:>w$}", chance_percent(&o.chance)));
        }
        line.push_str("  ");
        line.push_str(&stacked(rep, 40));
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// One stacked bar of `width` cells: each outcome's share drawn with its mark.
fn stacked(rep: &Report, width: usize) -> String {
    let mut s = String::new();
    let mut used = 0.0;
    let mut drawn = 0usize;
    for (i, o) in rep.outcomes.iter().enumerate() {
        used += o.chance.value();
        let upto = ((used * width as f64).round() as usize).min(width);
        for _ in drawn..upto {
            s.push(MARKS[i % MARKS.len()]);
        }
        drawn = drawn.max(upto);
    }
    s
}
