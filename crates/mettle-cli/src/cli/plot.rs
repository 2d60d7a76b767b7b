//! SVG charts of odds (`--plot`). One report: its outcomes as a stacked bar and its first value as
//! columns, the target marked. A sweep over one input: a line per outcome (and group) across the
//! input's values. Over two inputs: a heat map of one outcome or group. Over more: a stacked bar per
//! row. Built with the `svg` crate; text is left to the viewer's sans-serif font, so its width is
//! estimated and long titles and labels are wrapped or shortened to stay inside the picture.

use super::odds::dist_rows;
use mettle::odds::{Dist, How, OutcomeOdds, Report};
use svg::Document;
use svg::node::element::{Circle, Group, Line, Polyline, Rectangle, Text, Title};

/// Colours of the outcomes, in order (chosen to stay apart for colour-blind readers).
const COLOURS: [&str; 8] =
    ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#999999"];
const WIDTH: f64 = 820.0;
const MARGIN: f64 = 20.0;
const RIGHT: f64 = 30.0;
const BAR: f64 = 22.0;
const GAP: f64 = 8.0;

/// One input of a sweep and the values it runs through, as shown.
pub struct Axis {
    /// The input (`spi`, `unit.leadership`, `option bonus_die`).
    pub name: String,
    /// Its values, in order.
    pub values: Vec<String>,
}

/// A chance as a label: `0` when it never happens (not `0.0%`), `<0.1%` when too small to show.
fn pct(p: f64) -> String {
    if p <= 0.0 {
        "0".into()
    } else if p < 0.0005 {
        "<0.1%".into()
    } else {
        format!("{:.1}%", p * 100.0)
    }
}

/// About how wide `s` is in pixels at font size `size` (sans-serif averages a little over half an em).
fn text_width(s: &str, size: f64) -> f64 {
    s.chars().count() as f64 * size * 0.56
}

/// `s` shortened with `…` to fit `width` pixels at `size`.
fn shorten(s: &str, size: f64, width: f64) -> String {
    if text_width(s, size) <= width {
        return s.to_string();
    }
    let keep = ((width / (size * 0.56)) as usize).saturating_sub(1).max(1);
    let mut out: String = s.chars().take(keep).collect();
    out.push('…');
    out
}

/// `s` broken into lines at spaces, each fitting `width` pixels at `size` (a word too long for a line
/// is shortened).
fn wrap(s: &str, size: f64, width: f64) -> Vec<String> {
    let mut lines: Vec<String> = vec![];
    let mut line = String::new();
    for word in s.split(' ') {
        let tried = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
        if text_width(&tried, size) <= width || line.is_empty() {
            line = tried;
        } else {
            lines.push(std::mem::take(&mut line));
            line = word.to_string();
        }
    }
    lines.push(line);
    lines.into_iter().map(|l| shorten(&l, size, width)).collect()
}

fn text(x: f64, y: f64, s: &str, size: u32, anchor: &str) -> Text {
    Text::new(s)
        .set("x", x)
        .set("y", y)
        .set("font-size", size)
        .set("font-family", "sans-serif")
        .set("text-anchor", anchor)
}

fn subtitle(how: &How) -> String {
    match how {
        How::Exact => "exact odds".into(),
        How::Estimated { runs, .. } => format!("estimated from {runs} simulated runs"),
    }
}

/// The picture's background, title (wrapped to fit) and subtitle; the body goes below `top()`.
struct Frame {
    doc: Document,
    top: f64,
}

fn frame(title: &str, sub: &str) -> Frame {
    let mut doc = Document::new();
    let mut y = 28.0;
    for line in wrap(title, 16.0, WIDTH - 2.0 * MARGIN) {
        doc = doc.add(text(MARGIN, y, &line, 16, "start").set("font-weight", "bold"));
        y += 20.0;
    }
    doc =
        doc.add(text(MARGIN, y, &shorten(sub, 12.0, WIDTH - 2.0 * MARGIN), 12, "start").set("fill", "#555"));
    Frame { doc, top: y + 24.0 }
}

impl Frame {
    fn finish(self, body: Group, height: f64) -> String {
        // The background goes first, under everything else.
        let bg = Rectangle::new().set("width", "100%").set("height", "100%").set("fill", "white");
        Document::new()
            .set("viewBox", (0, 0, WIDTH, height))
            .set("width", WIDTH)
            .set("height", height)
            .add(bg)
            .add(self.doc)
            .add(body)
            .to_string()
    }
}

/// A legend of `names`, one colour (and dash, for groups) each, wrapped over lines from `y`; returns
/// the legend and the height it takes.
fn legend(names: &[(String, bool)], x0: f64, y: f64) -> (Group, f64) {
    let mut g = Group::new();
    let (mut x, mut y) = (x0, y);
    for (i, (n, group)) in names.iter().enumerate() {
        // Groups are bracketed as in the tables; an effect (`unit.resolve_next=yes`, drawn dashed
        // as a group is) is named as its column is.
        let label = if *group && !n.contains('=') { format!("[{n}]") } else { n.clone() };
        let w = 30.0 + text_width(&label, 13.0);
        if x > x0 && x + w > WIDTH - RIGHT {
            x = x0;
            y += 20.0;
        }
        let swatch = Line::new()
            .set("x1", x)
            .set("x2", x + 14.0)
            .set("y1", y - 5.0)
            .set("y2", y - 5.0)
            .set("stroke", colour(i))
            .set("stroke-width", if *group { 3 } else { 8 })
            .set("stroke-dasharray", if *group { "4 2" } else { "none" });
        g = g.add(swatch).add(text(x + 19.0, y, &label, 13, "start"));
        x += w + 8.0;
    }
    (g, y + 12.0)
}

fn colour(i: usize) -> &'static str {
    COLOURS[i % COLOURS.len()]
}

/// One stacked bar of outcome chances from `x` to the right edge at `y`, labelled `label` on its left,
/// with percentages inside wide parts.
fn stacked(label: &str, rep: &Report, x0: f64, y: f64) -> Group {
    let span = WIDTH - x0 - RIGHT;
    let mut g =
        Group::new().add(text(x0 - 8.0, y + BAR * 0.7, &shorten(label, 12.0, x0 - MARGIN - 8.0), 12, "end"));
    let mut x = x0;
    for (i, o) in rep.outcomes.iter().enumerate() {
        let p = o.chance.value();
        let w = p * span;
        if w <= 0.0 {
            continue;
        }
        let tip = format!("{}: {}", o.name, pct(p));
        g = g.add(
            Rectangle::new()
                .set("x", x)
                .set("y", y)
                .set("width", w)
                .set("height", BAR)
                .set("fill", colour(i))
                .add(Title::new(tip)),
        );
        if w > 48.0 {
            g = g.add(text(x + w / 2.0, y + BAR * 0.7, &pct(p), 11, "middle").set("fill", "white"));
        }
        x += w;
    }
    g
}

/// The target of a report's check, when it is the same for every roll: the total and the margin
/// are then the same distribution, shifted by it.
fn target(rep: &Report) -> Option<i64> {
    let total = rep.values.iter().find(|(n, _)| n == "total").map(|(_, d)| d)?;
    let margin = rep.values.iter().find(|(n, _)| n == "margin").map(|(_, d)| d)?;
    let t = total.lo() - margin.lo();
    let same = total.hi() - margin.hi() == t
        && total.iter().zip(margin.iter()).all(|((_, a), (_, b))| a * margin.total() == b * total.total());
    same.then_some(t)
}

/// Columns of a distribution from `y`, `target` marked with a dashed line and a label; returns the
/// group and where it ends.
fn histogram(name: &str, dist: &Dist, target: Option<i64>, y: f64) -> (Group, f64) {
    let rows = dist_rows(dist);
    let top = rows.iter().map(|(_, f)| f.to_f64()).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
    let chart_h = 220.0;
    let left = 70.0;
    let span = WIDTH - left - RIGHT;
    let col = span / rows.len().max(1) as f64;
    let mut g = Group::new().add(text(MARGIN, y, name, 14, "start").set("font-weight", "bold"));
    let base = y + 30.0 + chart_h;
    g = g.add(
        Line::new()
            .set("x1", left)
            .set("x2", WIDTH - RIGHT)
            .set("y1", base)
            .set("y2", base)
            .set("stroke", "#333"),
    );
    g = g.add(text(left - 6.0, base - chart_h + 4.0, &pct(top), 11, "end"));
    g = g.add(text(left - 6.0, base + 4.0, "0", 11, "end"));
    let every = rows.len().div_ceil(20).max(1);
    for (i, (label, f)) in rows.iter().enumerate() {
        let h = f.to_f64() / top * chart_h;
        let x = left + i as f64 * col;
        g = g.add(
            Rectangle::new()
                .set("x", x + col * 0.1)
                .set("y", base - h)
                .set("width", col * 0.8)
                .set("height", h)
                .set("fill", COLOURS[0])
                .add(Title::new(format!("{name} {label}: {}", pct(f.to_f64())))),
        );
        if i % every == 0 {
            g = g.add(text(x + col / 2.0, base + 16.0, label, 11, "middle"));
        }
    }
    // The target: a dashed line through its column (or at the edge when it lies outside the values).
    if let Some(t) = target {
        let at = rows.iter().position(|(l, _)| {
            l.parse::<i64>().ok() == Some(t)
                || l.split_once("..").is_some_and(|(a, b)| {
                    a.parse().is_ok_and(|a: i64| a <= t) && b.parse().is_ok_and(|b: i64| t <= b)
                })
        });
        let x = match at {
            Some(i) => left + (i as f64 + 0.5) * col,
            None if t < dist.lo() => left,
            None => WIDTH - RIGHT,
        };
        let label = format!("target {t}");
        let anchor = if x > WIDTH - RIGHT - text_width(&label, 12.0) { "end" } else { "start" };
        let lx = if anchor == "end" { x - 4.0 } else { x + 4.0 };
        g = g
            .add(
                Line::new()
                    .set("x1", x)
                    .set("x2", x)
                    .set("y1", base - chart_h - 24.0)
                    .set("y2", base)
                    .set("stroke", "#d55e00")
                    .set("stroke-width", 2)
                    .set("stroke-dasharray", "6 4"),
            )
            .add(text(lx, base - chart_h - 12.0, &label, 12, anchor).set("fill", "#d55e00"));
    }
    (g, base + 40.0)
}

/// A chart of one report: its outcomes as one stacked bar (groups named under it), and its first
/// value as columns with the target marked.
pub fn report(rep: &Report, groups: &[OutcomeOdds]) -> String {
    let f = frame(&rep.question, &subtitle(&rep.how));
    let mut y = f.top;
    let mut body = Group::new();
    if !rep.outcomes.is_empty() {
        let names: Vec<(String, bool)> = rep.outcomes.iter().map(|o| (o.name.clone(), false)).collect();
        let (l, end) = legend(&names, MARGIN + 90.0, y);
        body = body.add(l).add(stacked("outcomes", rep, MARGIN + 90.0, end));
        y = end + BAR + 24.0;
        for g in groups {
            let line = format!("[{}] {}", g.name, pct(g.chance.value()));
            body =
                body.add(text(MARGIN + 90.0, y, &shorten(&line, 13.0, WIDTH - MARGIN - 110.0), 13, "start"));
            y += 18.0;
        }
        // What the check leaves of who makes it, one attribute a line.
        for e in &rep.effects {
            let values: Vec<String> =
                e.values.iter().map(|v| format!("{} {}", v.name, pct(v.chance.value()))).collect();
            let mut line = format!("{}: {}", e.target, values.join(", "));
            if let Some(u) = &e.unfollowed {
                line.push_str(&format!(", not followed {}", pct(u.chance.value())));
            }
            body =
                body.add(text(MARGIN + 90.0, y, &shorten(&line, 13.0, WIDTH - MARGIN - 110.0), 13, "start"));
            y += 18.0;
        }
        y += 16.0;
    }
    if let Some((name, dist)) = rep.values.first() {
        let mark = if name == "total" { target(rep) } else { None };
        let (h, end) = histogram(name, dist, mark, y);
        body = body.add(h);
        y = end;
    }
    f.finish(body, y)
}

/// The chances a sweep's row shows: each outcome, then each group, with whether it is a group.
fn series(rep: &Report, groups: &[OutcomeOdds]) -> Vec<(String, f64, bool)> {
    rep.outcomes
        .iter()
        .map(|o| (o.name.clone(), o.chance.value(), false))
        .chain(groups.iter().map(|g| (g.name.clone(), g.chance.value(), true)))
        .collect()
}

/// A chart of a sweep. `rows` are in the order of every combination of `axes`' values, the last axis
/// changing fastest, each with its groups and then its effects (named `unit.resolve_next=yes`, drawn
/// as groups are). Over one axis: lines; over two: a heat map of `of` (an outcome, group or effect;
/// the first group, else the first outcome, when `None`); otherwise stacked bars. `Err` names an
/// `of` that is none of them.
pub fn sweep(
    question: &str,
    axes: &[Axis],
    rows: &[(&Report, &[OutcomeOdds])],
    of: Option<&str>,
) -> Result<String, String> {
    let Some((first, first_groups)) = rows.first() else {
        let f = frame(question, "no rows");
        let top = f.top;
        return Ok(f.finish(Group::new(), top));
    };
    let exact = rows.iter().all(|(r, _)| matches!(r.how, How::Exact));
    let sub = if exact { "exact odds".to_string() } else { "some rows estimated by simulation".to_string() };
    let names = series(first, first_groups);
    match axes {
        [axis] => Ok(lines(question, &sub, axis, rows, &names)),
        [ys, xs] => {
            let known: Vec<&str> = names.iter().map(|(n, _, _)| n.as_str()).collect();
            let pick = match of {
                Some(o) => known.iter().position(|n| *n == o).ok_or_else(|| {
                    format!(
                        "`--plot-of {o}`: there is no outcome, group or effect called `{o}` (an effect is named as `unit.resolve_next=yes`); {}",
                        mettle::internals::diagnostics::suggest(o, "outcome", &known)
                    )
                })?,
                // An effect (`unit.resolve_next=yes`) is drawn only when asked for.
                None => names.iter().position(|(n, _, g)| *g && !n.contains('=')).unwrap_or(0),
            };
            Ok(heat(question, &sub, ys, xs, rows, &names[pick]))
        }
        _ => Ok(bars(question, &sub, axes, rows)),
    }
}

/// One line per outcome (dashed for groups) of its chance across the values of one input.
fn lines(
    question: &str,
    sub: &str,
    axis: &Axis,
    rows: &[(&Report, &[OutcomeOdds])],
    names: &[(String, f64, bool)],
) -> String {
    let f = frame(question, sub);
    let legend_names: Vec<(String, bool)> = names.iter().map(|(n, _, g)| (n.clone(), *g)).collect();
    let (mut body, end) = legend(&legend_names, MARGIN, f.top);
    let (left, top, h) = (70.0, end + 16.0, 300.0);
    let w = WIDTH - left - RIGHT;
    let base = top + h;
    // Grid and the chance axis.
    for k in 0..=4 {
        let y = base - h * k as f64 / 4.0;
        body = body
            .add(
                Line::new()
                    .set("x1", left)
                    .set("x2", left + w)
                    .set("y1", y)
                    .set("y2", y)
                    .set("stroke", if k == 0 { "#333" } else { "#ddd" }),
            )
            .add(text(
                left - 6.0,
                y + 4.0,
                &if k == 0 { "0".to_string() } else { format!("{}%", k * 25) },
                11,
                "end",
            ));
    }
    body = body.add(
        text(16.0, top + h / 2.0, "chance", 12, "middle")
            .set("transform", format!("rotate(-90 16 {})", top + h / 2.0)),
    );
    let n = rows.len();
    // Inset from both ends, so that the first and last values' labels stay inside the picture.
    let pad = 36.0;
    let x_at = |i: usize| {
        if n <= 1 { left + w / 2.0 } else { left + pad + (w - 2.0 * pad) * i as f64 / (n - 1) as f64 }
    };
    let every = n.div_ceil(16).max(1);
    for (i, v) in axis.values.iter().enumerate().take(n) {
        if i % every == 0 || i + 1 == n {
            let room = (w / n.min(16) as f64).max(30.0);
            body = body.add(text(x_at(i), base + 16.0, &shorten(v, 11.0, room), 11, "middle"));
        }
    }
    body = body.add(
        text(left + w / 2.0, base + 38.0, &shorten(&axis.name, 13.0, w), 13, "middle")
            .set("font-weight", "bold"),
    );
    for (k, (name, _, group)) in names.iter().enumerate() {
        let points: Vec<(f64, f64)> = rows
            .iter()
            .enumerate()
            .map(|(i, (r, g))| {
                let p = series(r, g).get(k).map_or(0.0, |s| s.1);
                (x_at(i), base - h * p)
            })
            .collect();
        let path: Vec<String> = points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        body = body.add(
            Polyline::new()
                .set("points", path.join(" "))
                .set("fill", "none")
                .set("stroke", colour(k))
                .set("stroke-width", if *group { 2.5 } else { 2.0 })
                .set("stroke-dasharray", if *group { "7 4" } else { "none" }),
        );
        if n <= 40 {
            for (i, (x, y)) in points.iter().enumerate() {
                let p = series(rows[i].0, rows[i].1).get(k).map_or(0.0, |s| s.1);
                body = body.add(
                    Circle::new().set("cx", *x).set("cy", *y).set("r", 3.5).set("fill", colour(k)).add(
                        Title::new(format!(
                            "{name}, {} {}: {}",
                            axis.name,
                            axis.values.get(i).map_or("", |v| v.as_str()),
                            pct(p)
                        )),
                    ),
                );
            }
        }
    }
    f.finish(body, base + 56.0)
}

/// A heat map of one outcome's (or group's) chance: a row per value of the first input, a column per
/// value of the second, each cell shaded by the chance and labelled with it.
fn heat(
    question: &str,
    sub: &str,
    ys: &Axis,
    xs: &Axis,
    rows: &[(&Report, &[OutcomeOdds])],
    pick: &(String, f64, bool),
) -> String {
    let what = match (pick.2, pick.0.contains('=')) {
        (true, false) => "group ",
        (true, true) => "effect ",
        _ => "",
    };
    let title = format!("{question}: chance of {what}{}", pick.0);
    let f = frame(&title, sub);
    let label_w =
        ys.values.iter().map(|v| text_width(v, 12.0)).fold(text_width(&ys.name, 12.0), f64::max).min(200.0)
            + 16.0;
    let left = MARGIN + label_w;
    let cols = xs.values.len().max(1);
    let cell_w = ((WIDTH - left - RIGHT) / cols as f64).min(90.0);
    let cell_h = if ys.values.len() > 40 { 12.0 } else { 28.0 };
    let mut body = Group::new();
    let mut y = f.top + 4.0;
    body = body.add(
        text(left, y, &shorten(&xs.name, 13.0, WIDTH - left - RIGHT), 13, "start").set("font-weight", "bold"),
    );
    y += 20.0;
    let every = ((text_width("00000", 11.0) + 6.0) / cell_w).ceil().max(1.0) as usize;
    for (j, v) in xs.values.iter().enumerate() {
        if j % every == 0 {
            body = body.add(text(
                left + (j as f64 + 0.5) * cell_w,
                y,
                &shorten(v, 11.0, cell_w * every as f64 - 4.0),
                11,
                "middle",
            ));
        }
    }
    body = body.add(
        text(left - 8.0, y, &shorten(&ys.name, 12.0, label_w - 8.0), 12, "end").set("font-weight", "bold"),
    );
    y += 8.0;
    let index = |(n, _, g): &(String, f64, bool), r: &Report, gs: &[OutcomeOdds]| {
        series(r, gs).into_iter().find(|(m, _, h)| m == n && h == g).map_or(0.0, |s| s.1)
    };
    for (i, yv) in ys.values.iter().enumerate() {
        let ry = y + i as f64 * cell_h;
        if cell_h >= 12.0 {
            body = body.add(text(
                left - 8.0,
                ry + cell_h * 0.68,
                &shorten(yv, 12.0, label_w - 8.0),
                if cell_h > 20.0 { 12 } else { 9 },
                "end",
            ));
        }
        for j in 0..cols {
            let Some((r, gs)) = rows.get(i * cols + j) else { continue };
            let p = index(pick, r, gs);
            let shade = |c: f64| (255.0 - (255.0 - c) * p.clamp(0.0, 1.0)).round() as u8;
            let fill = format!("#{:02x}{:02x}{:02x}", shade(0.0), shade(114.0), shade(178.0));
            let x = left + j as f64 * cell_w;
            body = body.add(
                Rectangle::new()
                    .set("x", x)
                    .set("y", ry)
                    .set("width", cell_w - 1.0)
                    .set("height", cell_h - 1.0)
                    .set("fill", fill)
                    .add(Title::new(format!("{} {yv}, {} {}: {}", ys.name, xs.name, xs.values[j], pct(p)))),
            );
            let label = pct(p);
            if cell_h > 20.0 && text_width(&label, 11.0) < cell_w - 4.0 {
                body = body.add(
                    text(x + cell_w / 2.0, ry + cell_h * 0.65, &label, 11, "middle")
                        .set("fill", if p > 0.55 { "white" } else { "#222" }),
                );
            }
        }
    }
    y += ys.values.len() as f64 * cell_h + 24.0;
    // The scale: from 0 to 100%, as the cells are shaded.
    let sw = 200.0;
    for k in 0..20 {
        let p = (k as f64 + 0.5) / 20.0;
        let shade = |c: f64| (255.0 - (255.0 - c) * p).round() as u8;
        body = body.add(
            Rectangle::new()
                .set("x", left + sw * k as f64 / 20.0)
                .set("y", y)
                .set("width", sw / 20.0 + 0.5)
                .set("height", 12)
                .set("fill", format!("#{:02x}{:02x}{:02x}", shade(0.0), shade(114.0), shade(178.0))),
        );
    }
    body = body
        .add(
            Rectangle::new()
                .set("x", left)
                .set("y", y)
                .set("width", sw)
                .set("height", 12)
                .set("fill", "none")
                .set("stroke", "#999"),
        )
        .add(text(left - 6.0, y + 10.0, "0", 11, "end"))
        .add(text(left + sw + 6.0, y + 10.0, "100%", 11, "start"));
    f.finish(body, y + 36.0)
}

/// One stacked bar of outcome chances per row, labelled with its values.
fn bars(question: &str, sub: &str, axes: &[Axis], rows: &[(&Report, &[OutcomeOdds])]) -> String {
    let f = frame(question, sub);
    let labels: Vec<String> = (0..rows.len())
        .map(|mut i| {
            let mut parts = vec![];
            for a in axes.iter().rev() {
                let n = a.values.len().max(1);
                parts.push(format!("{} {}", a.name, a.values.get(i % n).map_or("", |v| v.as_str())));
                i /= n;
            }
            parts.reverse();
            parts.join(", ")
        })
        .collect();
    let left =
        (labels.iter().map(|l| text_width(l, 12.0)).fold(60.0, f64::max) + MARGIN + 12.0).min(WIDTH / 2.0);
    let names: Vec<(String, bool)> = rows[0].0.outcomes.iter().map(|o| (o.name.clone(), false)).collect();
    let (mut body, end) = legend(&names, left, f.top);
    let mut y = end;
    for ((rep, _), label) in rows.iter().zip(&labels) {
        body = body.add(stacked(label, rep, left, y));
        y += BAR + GAP;
    }
    f.finish(body, y + 20.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_titles_wrap_inside_the_picture_and_zero_reads_0() {
        let long = "check morale with spi = 2, leadership = 1, under option bonus_die = extra_d6, resolve_needs = a_six, sweeping spi 0..6";
        let lines = wrap(long, 16.0, WIDTH - 2.0 * MARGIN);
        assert!(lines.len() >= 2, "{lines:?}");
        assert!(lines.iter().all(|l| text_width(l, 16.0) <= WIDTH - 2.0 * MARGIN), "{lines:?}");
        assert_eq!(lines.join(" "), long);
        assert_eq!(
            (pct(0.0), pct(0.0001), pct(0.5)),
            ("0".to_string(), "<0.1%".to_string(), "50.0%".to_string())
        );
        assert_eq!(shorten("a_very_long_label_indeed", 12.0, 60.0).chars().count(), 8);
    }
}
