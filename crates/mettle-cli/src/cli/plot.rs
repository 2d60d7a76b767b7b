//! SVG charts of odds (`--plot`): outcomes as stacked bars (one per sweep row), a value's
//! distribution as columns. Built with the `svg` crate; text is left to the viewer's sans-serif font.

use super::odds::dist_rows;
use mettle::odds::{How, Report};
use svg::Document;
use svg::node::element::{Group, Line, Rectangle, Text, Title};

/// Colours of the outcomes, in order (chosen to stay apart for colour-blind readers).
const COLOURS: [&str; 8] =
    ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#999999"];
const WIDTH: f64 = 820.0;
const LEFT: f64 = 170.0;
const RIGHT: f64 = 30.0;
const BAR: f64 = 22.0;
const GAP: f64 = 8.0;

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

/// A legend of the outcome names, one colour each, from `y`.
fn legend(names: &[&str], y: f64) -> Group {
    let mut g = Group::new();
    let mut x = LEFT;
    for (i, n) in names.iter().enumerate() {
        g = g
            .add(
                Rectangle::new()
                    .set("x", x)
                    .set("y", y - 11.0)
                    .set("width", 12)
                    .set("height", 12)
                    .set("fill", COLOURS[i % COLOURS.len()]),
            )
            .add(text(x + 17.0, y, n, 13, "start"));
        x += 30.0 + 8.0 * n.chars().count() as f64;
    }
    g
}

/// One stacked bar of outcome chances at `y`, labelled `label`, with percentages inside wide parts.
fn stacked(label: &str, rep: &Report, y: f64) -> Group {
    let span = WIDTH - LEFT - RIGHT;
    let mut g = Group::new().add(text(LEFT - 8.0, y + BAR * 0.7, label, 12, "end"));
    let mut x = LEFT;
    for (i, o) in rep.outcomes.iter().enumerate() {
        let p = o.chance.value();
        let w = p * span;
        if w <= 0.0 {
            continue;
        }
        let tip = format!("{}: {:.2}%", o.name, p * 100.0);
        g = g.add(
            Rectangle::new()
                .set("x", x)
                .set("y", y)
                .set("width", w)
                .set("height", BAR)
                .set("fill", COLOURS[i % COLOURS.len()])
                .add(Title::new(tip)),
        );
        if w > 48.0 {
            g = g.add(
                text(x + w / 2.0, y + BAR * 0.7, &format!("{:.1}%", p * 100.0), 11, "middle")
                    .set("fill", "white"),
            );
        }
        x += w;
    }
    g
}

fn frame(height: f64, title: &str, sub: &str) -> Document {
    Document::new()
        .set("viewBox", (0, 0, WIDTH, height))
        .set("width", WIDTH)
        .set("height", height)
        .add(Rectangle::new().set("width", "100%").set("height", "100%").set("fill", "white"))
        .add(text(20.0, 28.0, title, 16, "start").set("font-weight", "bold"))
        .add(text(20.0, 48.0, sub, 12, "start").set("fill", "#555"))
}

/// A chart of one report: its outcomes as one stacked bar, and its first value as columns.
pub fn report(rep: &Report) -> String {
    let names: Vec<&str> = rep.outcomes.iter().map(|o| o.name.as_str()).collect();
    let mut y = 80.0;
    let mut body = Group::new();
    if !names.is_empty() {
        body = body.add(legend(&names, y)).add(stacked("outcomes", rep, y + 12.0));
        y += 12.0 + BAR + 40.0;
    }
    if let Some((name, dist)) = rep.values.first() {
        let rows = dist_rows(dist);
        let top = rows.iter().map(|(_, f)| f.to_f64()).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
        let chart_h = 220.0;
        let span = WIDTH - 60.0 - RIGHT;
        let col = span / rows.len().max(1) as f64;
        body = body.add(text(20.0, y, name, 14, "start").set("font-weight", "bold"));
        let base = y + 20.0 + chart_h;
        body = body.add(
            Line::new()
                .set("x1", 60)
                .set("x2", WIDTH - RIGHT)
                .set("y1", base)
                .set("y2", base)
                .set("stroke", "#333"),
        );
        body = body.add(text(55.0, y + 24.0, &format!("{:.1}%", top * 100.0), 11, "end"));
        let every = rows.len().div_ceil(20).max(1);
        for (i, (label, f)) in rows.iter().enumerate() {
            let h = f.to_f64() / top * chart_h;
            let x = 60.0 + i as f64 * col;
            body = body.add(
                Rectangle::new()
                    .set("x", x + col * 0.1)
                    .set("y", base - h)
                    .set("width", col * 0.8)
                    .set("height", h)
                    .set("fill", COLOURS[0])
                    .add(Title::new(format!("{name} {label}: {:.3}%", f.to_f64() * 100.0))),
            );
            if i % every == 0 {
                body = body.add(text(x + col / 2.0, base + 16.0, label, 11, "middle"));
            }
        }
        y = base + 40.0;
    }
    frame(y, &rep.question, &subtitle(&rep.how)).add(body).to_string()
}

/// A chart of a sweep: one stacked bar of outcome chances per row.
pub fn sweep(question: &str, rows: &[(String, &Report)]) -> String {
    let Some((_, first)) = rows.first() else { return frame(60.0, question, "no rows").to_string() };
    let names: Vec<&str> = first.outcomes.iter().map(|o| o.name.as_str()).collect();
    let exact = rows.iter().all(|(_, r)| matches!(r.how, How::Exact));
    let sub = if exact { "exact odds".to_string() } else { "some rows estimated by simulation".to_string() };
    let mut body = Group::new().add(legend(&names, 80.0));
    let mut y = 92.0;
    for (label, rep) in rows {
        body = body.add(stacked(label, rep, y));
        y += BAR + GAP;
    }
    frame(y + 20.0, question, &sub).add(body).to_string()
}
