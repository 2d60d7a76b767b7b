//! A card as GitHub-flavoured Markdown, every piece of ruleset text escaped.

use super::Style;
use super::{
    Card, Cell, CheckCard, Effect, EventCard, KindCard, OddsTable, Piece, ScriptCard, Section, StateCard,
    TableCard, Words,
};
use std::fmt::Write;

/// The card as Markdown.
pub fn render(card: &Card) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", text(&card.title));
    if let Some(doc) = &card.doc {
        out.push_str(&doc_md(doc));
    }
    let _ = writeln!(out, "*Quick reference made by mettle from {}.*\n", code(&card.file));
    for section in &card.sections {
        let _ = writeln!(out, "## {}\n", section.heading());
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
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

fn check(out: &mut String, c: &CheckCard) {
    let by = c.made_by.as_ref().map(|k| format!(" (made by a {})", text(k))).unwrap_or_default();
    let _ = writeln!(out, "### {}{by}\n", text(&c.name));
    if let Some(doc) = &c.doc {
        out.push_str(&doc_md(doc));
    }
    let _ = writeln!(out, "{}\n", words(&c.summary));
    list(out, "Inputs", &c.inputs, Style::Code);
    list(out, "Modifiers", &c.modifiers, Style::Plain);
    list(out, "Outcomes, tried in order", &c.outcomes, Style::Strong);
    match &c.odds {
        Ok(t) => odds(out, t),
        Err(why) => {
            let _ = writeln!(out, "*No odds table: {}.*\n", text(why));
        }
    }
}

fn list(out: &mut String, title: &str, lines: &[super::Line], style: Style) {
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(out, "**{title}**\n");
    for l in lines {
        let name = match style {
            Style::Code => code(&l.name),
            Style::Plain => text(&l.name),
            Style::Strong => format!("**{}**", text(&l.name)),
        };
        let doc = l.doc.as_ref().map(|d| format!(" — {}", doc_line(d))).unwrap_or_default();
        match flat(&l.effects) {
            Some(does) => {
                let does = if does.is_empty() { String::new() } else { format!(": {does}") };
                let _ = writeln!(out, "- {name}: {}{does}{doc}", words(&l.words));
            }
            None => {
                let _ = writeln!(out, "- {name}: {}{doc}", words(&l.words));
                nested(out, &l.effects, 1);
            }
        }
    }
    out.push('\n');
}

fn odds(out: &mut String, t: &OddsTable) {
    let by_row = !t.rows_by.is_empty();
    let mut caption = String::from("**Odds**");
    if by_row {
        let _ = write!(caption, " by {}", code(&t.rows_by));
    }
    if let Some(c) = &t.columns_by {
        let _ = write!(caption, " and {}", code(c));
    }
    if !t.fixed.is_empty() {
        let fixed: Vec<String> = t.fixed.iter().map(|f| code(f)).collect();
        let _ = write!(caption, "; {}", fixed.join(", "));
    }
    caption.push_str(if by_row {
        "; everything else at its default."
    } else {
        ", everything at its default."
    });
    let _ = writeln!(out, "{caption}\n");
    let mut head = if by_row { vec![cell_text(&t.rows_by)] } else { vec![] };
    for col in &t.columns {
        for o in &t.outcomes {
            head.push(match &t.columns_by {
                Some(by) => cell_text(&format!("{by} {col}: {o}")),
                None => cell_text(o),
            });
        }
    }
    let _ = writeln!(out, "| {} |", head.join(" | "));
    let _ = writeln!(out, "|{}", "---:|".repeat(head.len()));
    for (label, row) in t.rows.iter().zip(&t.cells) {
        let mut line = if by_row { vec![cell_text(label)] } else { vec![] };
        for col in row {
            for c in col {
                line.push(match c {
                    Cell::Exact { percent, fraction: Some(f) } => format!("{percent} ({f})"),
                    Cell::Exact { percent, fraction: None } => percent.clone(),
                    Cell::Estimate { percent } => format!("≈{percent}"),
                    Cell::Missing => "—".into(),
                });
            }
        }
        let _ = writeln!(out, "| {} |", line.join(" | "));
    }
    out.push('\n');
    if let Some(note) = &t.untested {
        let _ = writeln!(out, "*{}*\n", words(&super::doc_words(note)));
    }
    for note in [&t.estimated, &t.missing].into_iter().flatten() {
        let _ = writeln!(out, "*{}*\n", text(note));
    }
}

fn state(out: &mut String, s: &StateCard) {
    let names: Vec<String> = s
        .names
        .iter()
        .map(|(n, v)| match v {
            Some(v) => format!("{} ({v})", text(n)),
            None => text(n),
        })
        .collect();
    let _ = writeln!(out, "### {}\n", text(&s.name));
    if let Some(doc) = &s.doc {
        out.push_str(&doc_md(doc));
    }
    let order = if s.ladder.is_some() { " → " } else { " · " };
    let mut line = names.join(order);
    if let Some(l) = &s.ladder
        && *l != s.name
    {
        let _ = write!(line, " (ladder {}, lowest first)", code(l));
    }
    if let Some(d) = &s.default {
        let _ = write!(line, "; starts at **{}**", text(d));
    }
    let _ = writeln!(out, "{line}\n");
    for (to, by) in &s.moves {
        let _ = writeln!(out, "- to {} by {}", words(to), words(by));
    }
    if !s.moves.is_empty() {
        out.push('\n');
    }
}

fn table(out: &mut String, t: &TableCard) {
    let _ = writeln!(out, "### {} → {}\n", text(&t.name), text(&t.result));
    if let Some(doc) = &t.doc {
        out.push_str(&doc_md(doc));
    }
    let mut head: Vec<String> = t.keys.iter().map(|k| cell_text(k)).collect();
    head.push("value".into());
    let _ = writeln!(out, "| {} |", head.join(" | "));
    let _ = writeln!(out, "|{}", "---|".repeat(head.len()));
    for (keys, value) in &t.rows {
        let mut line: Vec<String> = if keys.is_empty() {
            let mut l = vec!["*otherwise*".to_string()];
            l.extend(std::iter::repeat_n(String::new(), t.keys.len().saturating_sub(1)));
            l
        } else {
            keys.iter().map(|k| cell_text(k)).collect()
        };
        line.push(cell_text(value));
        let _ = writeln!(out, "| {} |", line.join(" | "));
    }
    out.push('\n');
}

fn event(out: &mut String, e: &EventCard) {
    let facts = if e.facts.is_empty() {
        String::new()
    } else {
        format!(" ({})", e.facts.iter().map(|f| code(f)).collect::<Vec<_>>().join(", "))
    };
    let _ = writeln!(out, "### {}{facts}\n", text(&e.name));
    if let Some(doc) = &e.doc {
        out.push_str(&doc_md(doc));
    }
    for r in &e.rules {
        let when = r.when.as_ref().map(|w| format!("when {}", words(w))).unwrap_or_else(|| "always".into());
        let doc = r.doc.as_ref().map(|d| format!(" — {}", doc_line(d))).unwrap_or_default();
        match flat(&r.effects) {
            Some(does) => {
                let does = if does.is_empty() { String::new() } else { format!(": {does}") };
                let _ = writeln!(out, "- {when}{does}{doc}");
            }
            None => {
                let _ = writeln!(out, "- {when}{doc}");
                nested(out, &r.effects, 1);
            }
        }
    }
    out.push('\n');
}

/// Effects on one line ("a; b"), when none of them waits on a condition or repeats.
fn flat(effects: &[Effect]) -> Option<String> {
    effects
        .iter()
        .all(|e| e.under.is_empty())
        .then(|| effects.iter().map(|e| words(&e.words)).collect::<Vec<_>>().join("; "))
}

/// Effects as a list `depth` deep, each condition or loop with what happens under it: on its line
/// when nothing under it has conditions of its own, else in a list under it.
fn nested(out: &mut String, effects: &[Effect], depth: usize) {
    let pad = "  ".repeat(depth);
    for e in effects {
        if e.under.is_empty() {
            let _ = writeln!(out, "{pad}- {}", words(&e.words));
            continue;
        }
        match flat(&e.under) {
            Some(does) => {
                let _ = writeln!(out, "{pad}- {}: {does}", words(&e.words));
            }
            None => {
                let _ = writeln!(out, "{pad}- {}:", words(&e.words));
                nested(out, &e.under, depth + 1);
            }
        }
    }
}

fn option(out: &mut String, o: &super::OptionCard) {
    let _ = writeln!(out, "### {}\n", text(&o.name));
    if let Some(doc) = &o.doc {
        out.push_str(&doc_md(doc));
    }
    let _ = writeln!(out, "Readings: {}; this card uses **{}**.\n", code(&o.readings), text(&o.chosen));
}

fn kind(out: &mut String, k: &KindCard) {
    let _ = writeln!(out, "### {}\n", text(&k.name));
    if let Some(doc) = &k.doc {
        out.push_str(&doc_md(doc));
    }
    if k.attributes.is_empty() {
        return;
    }
    let _ = writeln!(out, "| attribute | type | starts at | notes |\n|---|---|---|---|");
    for (name, ty, default, doc) in &k.attributes {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            cell_text(name),
            cell_code(ty),
            default.as_deref().map(cell_text).unwrap_or_default(),
            doc.as_deref().map(|d| cell_words(&super::doc_words(&one_line(d)))).unwrap_or_default()
        );
    }
    out.push('\n');
}

// ---------------------------------------------------------------- escaping

/// Ruleset text as Markdown that shows it as written, wherever it stands: every character Markdown
/// reads as a mark is escaped, control characters are dropped, and line breaks become spaces.
pub fn text(s: &str) -> String {
    block_start(inline(s))
}

/// Ruleset text escaped for the middle of a line (a table cell, after other words).
fn inline(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in one_line(s).chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&' | '#' | '!' | '$') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Markdown that may start a line: a start that would make a list, a heading or a rule is escaped.
fn block_start(mut out: String) -> String {
    if out.starts_with(['-', '+', '=']) {
        out.insert(0, '\\');
    }
    // `1.` or `1)` would start a numbered list: the mark after the digits is escaped.
    let digits = out.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && out[digits..].starts_with(['.', ')']) {
        out.insert(digits, '\\');
    }
    out
}

/// Ruleset text as a code span, fenced with more backticks than it holds.
pub fn code(s: &str) -> String {
    let s = one_line(s);
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') || s.is_empty() { " " } else { "" };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// Text for a table cell: escaped, with its pipes escaped (`\|` stays a pipe even in a code span).
fn cell_text(s: &str) -> String {
    inline(s)
}

fn cell_code(s: &str) -> String {
    code(s).replace('|', "\\|")
}

fn words(w: &Words) -> String {
    w.0.iter()
        .map(|p| match p {
            Piece::Text(t) => inline(t),
            Piece::Code(c) => code(c),
            Piece::Strong(s) => format!("**{}**", inline(s)),
        })
        .collect()
}

/// A doc comment on one line, its backticked pieces as code.
fn doc_line(d: &str) -> String {
    block_start(words(&super::doc_words(&one_line(d).split_whitespace().collect::<Vec<_>>().join(" "))))
}

/// Words for a table cell: a pipe inside a code span is escaped too.
fn cell_words(w: &Words) -> String {
    w.0.iter()
        .map(|p| match p {
            Piece::Code(c) => cell_code(c),
            p => words(&Words(vec![p.clone()])),
        })
        .collect()
}

/// One line: control characters dropped, line breaks and tabs made spaces.
pub(super) fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c == '\n' || c == '\t' || c == '\r' { ' ' } else { c })
        .filter(|c| !c.is_control())
        .collect()
}

/// A doc comment as paragraphs, lists and tables (see [`super::doc_blocks`]).
fn doc_md(doc: &str) -> String {
    let mut out = String::new();
    for block in super::doc_blocks(doc) {
        match block {
            super::Block::Para(p) => {
                let _ = writeln!(out, "{}\n", block_start(words(&super::doc_words(&p))));
            }
            super::Block::List(items) => {
                for i in items {
                    let _ = writeln!(out, "- {}", block_start(words(&super::doc_words(&i))));
                }
                out.push('\n');
            }
            super::Block::Table(rows) => {
                let width = rows.iter().map(Vec::len).max().unwrap_or(0);
                for (i, row) in rows.iter().enumerate() {
                    let cells: Vec<String> = (0..width)
                        .map(|c| row.get(c).map(|t| cell_words(&super::doc_words(t))).unwrap_or_default())
                        .collect();
                    let _ = writeln!(out, "| {} |", cells.join(" | "));
                    if i == 0 {
                        let _ = writeln!(out, "|{}", "---|".repeat(width));
                    }
                }
                out.push('\n');
            }
        }
    }
    out
}

fn reaction(out: &mut String, r: &super::ReactionCard) {
    let params: Vec<String> = r.params.iter().map(|p| code(p)).collect();
    let _ = writeln!(out, "### reaction {}({})\n", text(&r.name), params.join(", "));
    if let Some(doc) = &r.doc {
        out.push_str(&doc_md(doc));
    }
    match flat(&r.effects) {
        Some(does) if does.is_empty() => {}
        Some(does) => {
            let _ = writeln!(out, "- {does}");
        }
        None => nested(out, &r.effects, 0),
    }
    out.push('\n');
}

fn script(out: &mut String, s: &ScriptCard) {
    let _ = writeln!(
        out,
        "### {}
",
        text(&s.name)
    );
    if let Some(doc) = &s.doc {
        out.push_str(&doc_md(doc));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_are_fenced_past_the_backticks_they_hold() {
        assert_eq!(code("2d6"), "`2d6`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x"), "`` `x ``");
        assert_eq!(code("a\nb"), "`a b`");
    }

    #[test]
    fn text_cannot_start_a_block_or_hold_a_mark() {
        assert_eq!(text("1. first"), "1\\. first");
        assert_eq!(text("- item"), "\\- item");
        assert_eq!(text("# title"), "\\# title");
        assert_eq!(inline("a | b <i>"), "a \\| b \\<i\\>");
        assert_eq!(inline("x\u{7}y\nz"), "xy z");
    }
}
