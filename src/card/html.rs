//! A card as one self-contained HTML page (inline CSS, nothing fetched) that prints on A4 and Letter.

use super::Style;
use super::{
    Block, Card, Cell, CheckCard, Effect, EventCard, KindCard, Line, OddsTable, Piece, ScriptCard, Section,
    StateCard, TableCard, Words, doc_blocks,
};
use std::fmt::Write;

/// The style sheet: black on white, greys only for shading, sized for paper.
const STYLE: &str = r#"
@page { margin: 12mm 11mm; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { font: 10pt/1.35 Georgia, "DejaVu Serif", "Times New Roman", serif; color: #000; background: #fff;
  max-width: 188mm; margin: 0 auto; padding: 10mm 0; }
@media print { body { max-width: none; padding: 0; } }
h1 { font-size: 20pt; margin: 0 0 4pt; border-bottom: 2pt solid #000; }
h2 { font-size: 14pt; margin: 14pt 0 6pt; border-bottom: 1pt solid #000; break-after: avoid; page-break-after: avoid; }
h3 { font-size: 11.5pt; margin: 0 0 3pt; break-after: avoid; page-break-after: avoid; }
h3 .by { font-weight: normal; font-style: italic; font-size: 9.5pt; }
p { margin: 0 0 4pt; }
ul { margin: 0 0 4pt; padding-left: 14pt; }
li { margin: 0 0 1pt; }
code { font-family: "DejaVu Sans Mono", Consolas, "Courier New", monospace; font-size: 0.88em; }
.doc { font-style: italic; }
.doc code { font-style: normal; }
.source { font-size: 8.5pt; margin-bottom: 8pt; }
.card { border: 1pt solid #000; border-radius: 3pt; padding: 5pt 8pt 6pt; margin: 0 0 7pt;
  break-inside: avoid; page-break-inside: avoid; }
.summary { border-left: 3pt solid #000; padding-left: 6pt; margin: 4pt 0 5pt; }
.body { display: flex; flex-wrap: wrap; gap: 2pt 12pt; align-items: flex-start; }
.body > .parts { flex: 1 1 95mm; display: flex; flex-wrap: wrap; gap: 0 12pt; font-size: 9pt; }
.body > .oddsbox { flex: 0 1 auto; max-width: 100%; }
.parts > div { flex: 1 1 14em; }
.parts > div.wide { flex: 2 1 20em; }
li .doc { font-size: 8.5pt; }
ul.does { margin: 0; padding-left: 11pt; list-style: circle; }
li .doc p { margin: 0; }
.parts h4 { font-size: 9pt; margin: 2pt 0 1pt; text-transform: uppercase; letter-spacing: 0.05em; }
.parts .note { font-style: italic; }
table { border-collapse: collapse; font-size: 8.5pt; margin: 3pt 0; font-variant-numeric: tabular-nums;
  break-inside: avoid; page-break-inside: avoid; }
caption { text-align: left; font-size: 8.5pt; padding-bottom: 2pt; max-width: 120mm; }
th, td { border: 0.5pt solid #444; padding: 1pt 4pt; vertical-align: top; }
thead th { background: #e6e6e6; font-weight: bold; }
.odds td { text-align: right; white-space: nowrap; line-height: 1.15; }
.odds th[scope=row] { text-align: right; background: #e6e6e6; }
.odds tbody tr:nth-child(even) td { background: #f3f3f3; }
.frac { display: block; font-size: 6.5pt; line-height: 1; color: #333; }
.est { font-style: italic; }
.small { font-size: 8.5pt; }
.cols { columns: 2 84mm; column-gap: 7mm; }
.cols .card { display: inline-block; width: 100%; }
.doctable { font-style: normal; font-size: 8.5pt; }
.doctable th[scope=row] { background: #e6e6e6; text-align: left; white-space: nowrap; }
"#;

/// The card as one HTML page.
pub fn render(card: &Card) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{} — quick reference</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<header>\n<h1>{}</h1>\n",
        esc(&card.title),
        esc(&card.title)
    );
    if let Some(doc) = &card.doc {
        out.push_str(&doc_html(doc));
    }
    let _ = writeln!(
        out,
        "<p class=\"source\">Quick reference made by mettle from <code>{}</code>.</p>\n</header>",
        esc(&card.file)
    );
    for section in &card.sections {
        let cols = matches!(
            section,
            Section::States(_) | Section::Tables(_) | Section::Rules(_) | Section::Pieces(_)
        );
        let _ = writeln!(
            out,
            "<section id=\"{}\">\n<h2>{}</h2>{}",
            section.id(),
            section.heading(),
            if cols { "\n<div class=\"cols\">" } else { "" }
        );
        match section {
            Section::Options(options) => options.iter().for_each(|o| option(&mut out, o)),
            Section::Checks(checks) => checks.iter().for_each(|c| check(&mut out, c)),
            Section::States(states) => states.iter().for_each(|s| state(&mut out, s)),
            Section::Tables(tables) => tables.iter().for_each(|t| table(&mut out, t)),
            Section::Rules(events) => events.iter().for_each(|e| event(&mut out, e)),
            Section::Scripts(scripts) => scripts.iter().for_each(|s| script(&mut out, s)),
            Section::Reactions(reactions) => reactions.iter().for_each(|r| reaction(&mut out, r)),
            Section::Pieces(kinds) => kinds.iter().for_each(|k| kind(&mut out, k)),
        }
        let _ = writeln!(out, "{}</section>", if cols { "</div>\n" } else { "" });
    }
    out.push_str("</body>\n</html>\n");
    out
}

fn check(out: &mut String, c: &CheckCard) {
    let by = c
        .made_by
        .as_ref()
        .map(|k| format!(" <span class=\"by\">made by a {}</span>", esc(k)))
        .unwrap_or_default();
    let _ = writeln!(out, "<article class=\"card check\">\n<h3>{}{by}</h3>", esc(&c.name));
    if let Some(doc) = &c.doc {
        out.push_str(&doc_html(doc));
    }
    let _ = writeln!(
        out,
        "<p class=\"summary\">{}</p>\n<div class=\"body\">\n<div class=\"parts\">",
        words(&c.summary)
    );
    lines(out, "Inputs", &c.inputs, Style::Code);
    lines(out, "Modifiers", &c.modifiers, Style::Plain);
    lines(out, "Outcomes, tried in order", &c.outcomes, Style::Strong);
    out.push_str("</div>\n<div class=\"oddsbox\">\n");
    match &c.odds {
        Ok(t) => odds(out, t),
        Err(why) => {
            let _ = writeln!(out, "<p class=\"small\"><i>No odds table: {}.</i></p>", esc(why));
        }
    }
    out.push_str("</div>\n</div>\n</article>\n");
}

fn lines(out: &mut String, title: &str, lines: &[Line], style: Style) {
    if lines.is_empty() {
        return;
    }
    // Modifiers, and outcomes whose effects are under conditions, take more room.
    let nested = lines.iter().any(|l| l.effects.iter().any(|e| !e.under.is_empty()));
    let class = if style == Style::Plain || nested { " class=\"wide\"" } else { "" };
    let _ = writeln!(out, "<div{class}><h4>{title}</h4>\n<ul>");
    for l in lines {
        let name = match style {
            Style::Code => format!("<code>{}</code>", esc(&l.name)),
            Style::Plain => esc(&l.name),
            Style::Strong => format!("<b>{}</b>", esc(&l.name)),
        };
        let doc = l
            .doc
            .as_ref()
            .map(|d| format!(" <span class=\"note\">— {}</span>", doc_inline(d)))
            .unwrap_or_default();
        let _ = writeln!(out, "<li>{name}: {}{}{doc}</li>", words(&l.words), effects(&l.effects));
    }
    out.push_str("</ul></div>\n");
}

fn odds(out: &mut String, t: &OddsTable) {
    let by_row = !t.rows_by.is_empty();
    let mut caption = String::from("<b>Odds</b>");
    if by_row {
        let _ = write!(caption, " by <code>{}</code>", esc(&t.rows_by));
    }
    if let Some(c) = &t.columns_by {
        let _ = write!(caption, " (rows) and <code>{}</code> (columns)", esc(c));
    }
    if !t.fixed.is_empty() {
        let fixed: Vec<String> = t.fixed.iter().map(|f| format!("<code>{}</code>", esc(f))).collect();
        let _ = write!(caption, "; {}", fixed.join(", "));
    }
    caption.push_str(if by_row {
        "; everything else at its default."
    } else {
        ", everything at its default."
    });
    let _ = writeln!(out, "<table class=\"odds\">\n<caption>{caption}</caption>\n<thead>");
    let n = t.outcomes.len();
    if let Some(by) = &t.columns_by {
        let _ = write!(out, "<tr><th rowspan=\"2\" scope=\"col\">{}</th>", esc(&t.rows_by));
        for col in &t.columns {
            let _ = write!(out, "<th colspan=\"{n}\" scope=\"colgroup\">{} {}</th>", esc(by), esc(col));
        }
        out.push_str("</tr>\n<tr>");
    } else if by_row {
        let _ = write!(out, "<tr><th scope=\"col\">{}</th>", esc(&t.rows_by));
    } else {
        out.push_str("<tr>");
    }
    for _ in &t.columns {
        for o in &t.outcomes {
            let _ = write!(out, "<th scope=\"col\">{}</th>", esc(o));
        }
    }
    out.push_str("</tr>\n</thead>\n<tbody>\n");
    for (label, row) in t.rows.iter().zip(&t.cells) {
        out.push_str("<tr>");
        if by_row {
            let _ = write!(out, "<th scope=\"row\">{}</th>", esc(label));
        }
        for c in row.iter().flatten() {
            match c {
                Cell::Exact { percent, fraction } => {
                    let frac = fraction
                        .as_ref()
                        .map(|f| format!("<span class=\"frac\">{}</span>", esc(f)))
                        .unwrap_or_default();
                    let _ = write!(out, "<td>{}{frac}</td>", esc(percent));
                }
                Cell::Estimate { percent } => {
                    let _ = write!(out, "<td class=\"est\">≈{}</td>", esc(percent));
                }
                Cell::Missing => out.push_str("<td>—</td>"),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
    if let Some(note) = &t.untested {
        let _ = writeln!(out, "<p class=\"small\"><i>{}</i></p>", doc_inline(note));
    }
    for note in [&t.estimated, &t.missing].into_iter().flatten() {
        let _ = writeln!(out, "<p class=\"small\"><i>{}</i></p>", esc(note));
    }
}

fn state(out: &mut String, s: &StateCard) {
    let _ = writeln!(out, "<article class=\"card state\">\n<h3>{}</h3>", esc(&s.name));
    if let Some(doc) = &s.doc {
        out.push_str(&doc_html(doc));
    }
    let names: Vec<String> = s
        .names
        .iter()
        .map(|(n, v)| {
            let strong = if s.default.as_deref() == Some(n.as_str()) { " (start)" } else { "" };
            match v {
                Some(v) => format!("<b>{}</b>&nbsp;{v}{strong}", esc(n)),
                None => format!("<b>{}</b>{strong}", esc(n)),
            }
        })
        .collect();
    let order = if s.ladder.is_some() { " → " } else { " · " };
    let _ = write!(out, "<p>{}", names.join(order));
    if let Some(l) = &s.ladder
        && *l != s.name
    {
        let _ = write!(out, " <span class=\"small\">(ladder <code>{}</code>, lowest first)</span>", esc(l));
    }
    out.push_str("</p>\n");
    if !s.moves.is_empty() {
        out.push_str("<ul class=\"small\">\n");
        for (to, by) in &s.moves {
            let _ = writeln!(out, "<li>to {} by {}</li>", words(to), words(by));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</article>\n");
}

fn table(out: &mut String, t: &TableCard) {
    let _ = writeln!(out, "<article class=\"card table\">\n<h3>{} → {}</h3>", esc(&t.name), esc(&t.result));
    if let Some(doc) = &t.doc {
        out.push_str(&doc_html(doc));
    }
    out.push_str("<table>\n<thead><tr>");
    for k in &t.keys {
        let _ = write!(out, "<th scope=\"col\"><code>{}</code></th>", esc(k));
    }
    out.push_str("<th scope=\"col\">value</th></tr></thead>\n<tbody>\n");
    for (keys, value) in &t.rows {
        out.push_str("<tr>");
        if keys.is_empty() {
            let _ = write!(out, "<td colspan=\"{}\"><i>otherwise</i></td>", t.keys.len().max(1));
        }
        for k in keys {
            let _ = write!(out, "<td><code>{}</code></td>", esc(k));
        }
        let _ = writeln!(out, "<td><code>{}</code></td></tr>", esc(value));
    }
    out.push_str("</tbody>\n</table>\n</article>\n");
}

fn event(out: &mut String, e: &EventCard) {
    let facts = if e.facts.is_empty() {
        String::new()
    } else {
        let f: Vec<String> = e.facts.iter().map(|f| format!("<code>{}</code>", esc(f))).collect();
        format!(" <span class=\"by\">({})</span>", f.join(", "))
    };
    let _ = writeln!(out, "<article class=\"card event\">\n<h3>On {}{facts}</h3>", esc(&e.name));
    if let Some(doc) = &e.doc {
        out.push_str(&doc_html(doc));
    }
    out.push_str("<ul class=\"small\">\n");
    for r in &e.rules {
        let when = r.when.as_ref().map(|w| format!("when {}", words(w))).unwrap_or_else(|| "always".into());
        let doc = r.doc.as_deref().map(doc_html).unwrap_or_default();
        let _ = writeln!(out, "<li>{when}{}{doc}</li>", effects(&r.effects));
    }
    out.push_str("</ul>\n</article>\n");
}

/// What a rule or an outcome does, after its condition: ": a; b" on the line when none of them waits
/// on a condition or repeats, else ":" and a list, each condition or loop with what happens under
/// it (on its line when nothing under it has conditions of its own).
fn effects(effects: &[Effect]) -> String {
    if effects.is_empty() {
        return String::new();
    }
    if effects.iter().all(|e| e.under.is_empty()) {
        let does: Vec<String> = effects.iter().map(|e| words(&e.words)).collect();
        return format!(": {}", does.join("; "));
    }
    let mut out = String::from(":<ul class=\"does\">");
    for e in effects {
        let _ = write!(out, "<li>{}{}</li>", words(&e.words), self::effects(&e.under));
    }
    out.push_str("</ul>");
    out
}

fn reaction(out: &mut String, r: &super::ReactionCard) {
    let params: Vec<String> = r.params.iter().map(|p| format!("<code>{}</code>", esc(p))).collect();
    let _ = writeln!(
        out,
        "<article class=\"card reaction\">\n<h3>reaction {}({})</h3>",
        esc(&r.name),
        params.join(", ")
    );
    if let Some(doc) = &r.doc {
        out.push_str(&doc_html(doc));
    }
    let does = effects(&r.effects);
    if !does.is_empty() {
        let _ = writeln!(out, "<p class=\"small\">it{does}</p>");
    }
    out.push_str("</article>\n");
}

fn option(out: &mut String, o: &super::OptionCard) {
    let _ = writeln!(out, "<article class=\"card option\">\n<h3>{}</h3>", esc(&o.name));
    if let Some(doc) = &o.doc {
        out.push_str(&doc_html(doc));
    }
    let _ = writeln!(
        out,
        "<p>Readings: <code>{}</code>; this card uses <b>{}</b>.</p>\n</article>",
        esc(&o.readings),
        esc(&o.chosen)
    );
}

fn kind(out: &mut String, k: &KindCard) {
    let _ = writeln!(out, "<article class=\"card kind\">\n<h3>{}</h3>", esc(&k.name));
    if let Some(doc) = &k.doc {
        out.push_str(&doc_html(doc));
    }
    if !k.attributes.is_empty() {
        out.push_str("<ul class=\"small\">\n");
        for (name, ty, default, doc) in &k.attributes {
            let default =
                default.as_ref().map(|d| format!(", starts at <b>{}</b>", esc(d))).unwrap_or_default();
            let doc = doc.as_ref().map(|d| format!(" — <i>{}</i>", doc_inline(d))).unwrap_or_default();
            let _ =
                writeln!(out, "<li><code>{}</code>: <code>{}</code>{default}{doc}</li>", esc(name), esc(ty));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</article>\n");
}

// ---------------------------------------------------------------- escaping

/// Ruleset text as HTML text or an attribute value: `& < > " '` as references, control characters
/// dropped, line breaks kept as spaces.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' | '\r' | '\t' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

fn words(w: &Words) -> String {
    w.0.iter()
        .map(|p| match p {
            Piece::Text(t) => esc(t),
            Piece::Code(c) => format!("<code>{}</code>", esc(c)),
            Piece::Strong(s) => format!("<b>{}</b>", esc(s)),
        })
        .collect()
}

/// A doc comment's text inline, its backticked pieces as code.
fn doc_inline(d: &str) -> String {
    words(&super::doc_words(d))
}

fn doc_html(doc: &str) -> String {
    let mut out = String::from("<div class=\"doc\">");
    for block in doc_blocks(doc) {
        match block {
            Block::Para(p) => {
                let _ = write!(out, "<p>{}</p>", doc_inline(&p));
            }
            Block::List(items) => {
                out.push_str("<ul>");
                for i in items {
                    let _ = write!(out, "<li>{}</li>", doc_inline(&i));
                }
                out.push_str("</ul>");
            }
            Block::Table(rows) => {
                out.push_str("<table class=\"doctable\">");
                for (i, row) in rows.iter().enumerate() {
                    let (tag, scope) = if i == 0 { ("th", " scope=\"col\"") } else { ("td", "") };
                    out.push_str("<tr>");
                    for (c, cell) in row.iter().enumerate() {
                        // The first cell of a row names it.
                        let (tag, scope) =
                            if i > 0 && c == 0 { ("th", " scope=\"row\"") } else { (tag, scope) };
                        let _ = write!(out, "<{tag}{scope}>{}</{tag}>", doc_inline(cell));
                    }
                    out.push_str("</tr>");
                }
                out.push_str("</table>");
            }
        }
    }
    out.push_str("</div>\n");
    out
}

fn script(out: &mut String, s: &ScriptCard) {
    let _ = writeln!(out, "<article class=\"card script\">\n<h3>{}</h3>", esc(&s.name));
    if let Some(doc) = &s.doc {
        out.push_str(&doc_html(doc));
    }
    out.push_str("</article>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_for_elements_and_attributes() {
        assert_eq!(esc(r#"<a href="x">'&'</a>"#), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
        assert_eq!(esc("a\u{0}b\nc"), "ab c");
    }

    #[test]
    fn doc_comments_keep_their_lists() {
        let html = doc_html("Two ways:\n- one `<b>`\n- two\n\nEnd.");
        assert_eq!(
            html,
            "<div class=\"doc\"><p>Two ways:</p><ul><li>one <code>&lt;b&gt;</code></li><li>two</li></ul><p>End.</p></div>\n"
        );
    }
}
