//! The log as text for people: one line per step, indented under the event that caused it, each
//! ending with the line of the rule behind it.

use super::{LogEntry, LogLine};
use crate::ast::Span;
use std::fmt::Write;

/// Line number (from 1) of a span's start, given the offsets of the text's line breaks.
fn line_of(breaks: &[usize], span: Span) -> Option<usize> {
    if span.is_empty() && span.start == 0 {
        return None;
    }
    Some(breaks.partition_point(|&b| b < span.start) + 1)
}

/// `, as `recovery` holds and `unit.morale is broken` holds`: the `if` conditions around a change
/// or a note, as written, and whether each held; empty when there are none.
fn conditions(because: &[(Span, bool)], text: &str) -> String {
    if because.is_empty() {
        return String::new();
    }
    let each: Vec<String> = because
        .iter()
        .map(|(s, held)| {
            let cond =
                text.get(s.start..s.end).unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ");
            if *held { format!("`{cond}` holds") } else { format!("`{cond}` does not hold") }
        })
        .collect();
    format!(", as {}", each.join(" and "))
}

/// The faces of a pool, each with what became of it: `4 (rerolled 1), 6 (exploded), 2 dropped`.
fn faces(p: &crate::program::Pool) -> String {
    let faces: Vec<String> = p
        .dice
        .iter()
        .map(|d| {
            let mut s = d.face.to_string();
            if !d.rerolled.is_empty() {
                let old: Vec<String> = d.rerolled.iter().map(|x| x.to_string()).collect();
                s = format!("{s} (rerolled {})", old.join(", "));
            }
            if let Some(f) = d.raised {
                s = format!("{s} (raised from {f})");
            }
            if d.exploded {
                s = format!("{s} (exploded)");
            }
            if let Some(f) = &d.from {
                s = format!("{s} ({f})");
            }
            if !d.kept {
                s = format!("{s} dropped");
            }
            s
        })
        .collect();
    faces.join(", ")
}

/// The dice of a pool as rolled: `2d6cs>=4 (written (dice_pool)d6cs>=4)` when the count or the
/// sides were worked out, so that a pool of `(pool)d(sides)` shows the dice it really threw (with the
/// dice modifiers added or took away); the notation as written when it says it all.
fn shown_dice(p: &crate::program::Pool) -> String {
    let t = p.notation.as_str();
    // Skips one part of the notation: a bracketed expression or a run of digits.
    fn part(t: &str) -> Option<&str> {
        if let Some(rest) = t.strip_prefix('(') {
            let mut depth = 1usize;
            for (i, c) in rest.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' if depth == 1 => return Some(&rest[i + 1..]),
                    ')' => depth -= 1,
                    _ => {}
                }
            }
            None
        } else {
            Some(t.trim_start_matches(|c: char| c.is_ascii_digit()))
        }
    }
    if !t.contains('(') || p.sides <= 0 {
        return t.to_string();
    }
    let Some(rest) = part(t).and_then(|r| r.strip_prefix('d')) else { return t.to_string() };
    // Custom faces (`d{1, 2, 3}`) have no number of sides to write.
    if rest.starts_with(['{', '[']) {
        return t.to_string();
    }
    let Some(mods) = part(rest) else { return t.to_string() };
    let count = p.dice.iter().filter(|d| !d.exploded).count();
    format!("{count}d{}{mods} (written {t})", p.sides)
}

/// Renders a log; `text` is the ruleset's source, used to give line numbers.
///
/// ```
/// let rules = mettle::Ruleset::from_str("r.mettle", "check c {\n  roll d6\n  otherwise done\n}").unwrap();
/// let mut s = mettle::Session::new(&rules, 1);
/// s.force_dice(&[4]);
/// s.roll("c", &[]).unwrap().rolled.unwrap();
/// let text = mettle::session::render_log(s.log(), rules.text());
/// assert!(text.contains("dice d6: 4 = 4"));
/// assert!(text.contains("outcome: done  (line 3)"));
/// ```
pub fn render_log(log: &[LogLine], text: &str) -> String {
    render(log, text, false)
}

/// The log as [`render_log`] shows it, and also each rule that did not run because its condition
/// was no, with the values the condition read (`mettle play --verbose`, the REPL's `:explain`).
pub fn render_log_verbose(log: &[LogLine], text: &str) -> String {
    render(log, text, true)
}

fn render(log: &[LogLine], text: &str, verbose: bool) -> String {
    let mut out = String::new();
    // Found once, so that each line's number is a binary search: a long log renders in linear time.
    let breaks: Vec<usize> = text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i).collect();
    let at = |span: Span| line_of(&breaks, span).map(|l| format!("  (line {l})")).unwrap_or_default();
    for line in log {
        let e = &line.entry;
        let pad = "  ".repeat(line.depth as usize);
        let _ = match e {
            LogEntry::Event { name, facts } => {
                let facts: Vec<String> = facts.iter().map(|(k, v)| format!("{k}: {v}")).collect();
                if facts.is_empty() {
                    writeln!(out, "{pad}event {name}")
                } else {
                    writeln!(out, "{pad}event {name}({})", facts.join(", "))
                }
            }
            LogEntry::Rule { text: t, span } => writeln!(out, "{pad}rule {t}{}", at(*span)),
            LogEntry::Check(r) => {
                // A check with no dice is worked out, not rolled.
                let verb = if r.pool.is_some() { "rolls" } else { "works out" };
                let who = r.subject.as_ref().map(|s| format!("{s} {verb} ")).unwrap_or_default();
                let inputs: Vec<String> = r.inputs.iter().map(|(k, v)| format!("{k}={v}")).collect();
                let _ = writeln!(out, "{pad}{who}check {}({}){}", r.check, inputs.join(", "), at(r.span));
                // A roll that `reroll when …` set aside shows first, with what it landed on.
                for old in &r.rerolled {
                    let dice = match &old.pool {
                        Some(p) => format!("dice {}: {} = {}, ", shown_dice(p), faces(p), p.value),
                        None => String::new(),
                    };
                    let _ =
                        writeln!(out, "{pad}  {dice}total {}: {}, so rolled again", old.total, old.outcome);
                }
                if let Some(p) = &r.pool {
                    let _ = writeln!(out, "{pad}  dice {}: {} = {}", shown_dice(p), faces(p), p.value);
                }
                for m in &r.modifiers {
                    let unit = if m.dice { if m.amount.abs() == 1 { " die" } else { " dice" } } else { "" };
                    let _ = writeln!(out, "{pad}  {} {:+}{unit}{}", m.label, m.amount, at(m.span));
                }
                let parts = r.target_parts.as_ref().map(|p| format!(" = {p}")).unwrap_or_default();
                match r.target {
                    Some(t) if r.under => {
                        let _ = writeln!(
                            out,
                            "{pad}  total {} against target {t}{parts} (needs {t} or less, margin {:+})",
                            r.total,
                            r.margin.unwrap_or(t - r.total)
                        );
                    }
                    Some(t) => {
                        let _ = writeln!(
                            out,
                            "{pad}  total {} against target {t}{parts} (margin {:+})",
                            r.total,
                            r.total - t
                        );
                    }
                    None => {
                        let _ = writeln!(out, "{pad}  total {}", r.total);
                    }
                }
                for (k, v) in &r.values {
                    let _ = writeln!(out, "{pad}  {k} = {v}");
                }
                writeln!(out, "{pad}  outcome: {}{}", r.outcome, at(r.outcome_span))
            }
            LogEntry::Roll { text: t, faces, value, span } => {
                let f: Vec<String> = faces.iter().map(|x| x.to_string()).collect();
                writeln!(out, "{pad}roll {t}: {} = {value}{}", f.join(", "), at(*span))
            }
            LogEntry::Change { entity, field, from, to, note, because, span } => {
                let note = note.as_ref().map(|n| format!(" ({n})")).unwrap_or_default();
                let why = conditions(because, text);
                writeln!(out, "{pad}{entity}.{field}: {from} -> {to}{note}{why}{}", at(*span))
            }
            LogEntry::Expired { entity, field, to, span } => {
                writeln!(out, "{pad}{entity}.{field} back to {to} (its time is up){}", at(*span))
            }
            LogEntry::New { entity, kind, span } => writeln!(out, "{pad}new {kind} {entity}{}", at(*span)),
            LogEntry::Removed { entity, kind } => writeln!(out, "{pad}removed {kind} {entity}"),
            LogEntry::Choice { name, question, answer, by, span } => {
                writeln!(out, "{pad}choice {name}: \"{question}\" -> {answer} (by {by}){}", at(*span))
            }
            LogEntry::Note { text: t, because, span } => {
                writeln!(out, "{pad}note: {t}{}{}", conditions(because, text), at(*span))
            }
            LogEntry::Reaction { name, span } => writeln!(out, "{pad}reaction {name}{}", at(*span)),
            LogEntry::Order { text: t, span, from } => match from {
                Some(f) => writeln!(out, "{pad}order: {t}  ({f})"),
                None => writeln!(out, "{pad}order: {t}{}", at(*span)),
            },
            LogEntry::Print { text: t, span } => writeln!(out, "{pad}script says: {t}{}", at(*span)),
            LogEntry::Skipped { .. } if !verbose => Ok(()),
            LogEntry::Skipped { text: t, why, span } => {
                writeln!(out, "{pad}rule {t} skipped: its condition is no ({why}){}", at(*span))
            }
            LogEntry::Lookup { table, keys, value, span } => {
                let row = text.get(span.start..span.end).unwrap_or("").split_whitespace().collect::<Vec<_>>();
                let row = row.join(" ");
                let row = row.trim_end_matches(',');
                writeln!(
                    out,
                    "{pad}table {table}({}): row `{row}` gives {value}{}",
                    keys.iter().map(|k| k.to_string()).collect::<Vec<_>>().join(", "),
                    at(*span)
                )
            }
            LogEntry::GameOver { label, winner, span, .. } => match winner {
                Some(w) => writeln!(out, "{pad}game over: {label} for {w}{}", at(*span)),
                None => writeln!(out, "{pad}game over: {label}{}", at(*span)),
            },
            LogEntry::Report { values, span } => {
                let shown: Vec<String> = values.iter().map(|(l, v)| format!("{l} = {v}")).collect();
                writeln!(out, "{pad}report {}{}", shown.join(", "), at(*span))
            }
            LogEntry::Record { label, shown, span, .. } => {
                writeln!(out, "{pad}record \"{label}\" = {shown}{}", at(*span))
            }
            LogEntry::Expect { passed, text: t, found, message, span } => {
                let mark = if *passed { "ok" } else { "FAILED" };
                let mut line = format!("expect {t}: {mark}{}", at(*span));
                if let Some(f) = found {
                    line.push_str(&format!(" ({f})"));
                }
                if let (false, Some(m)) = (passed, message) {
                    line.push_str(&format!(": {m}"));
                }
                writeln!(out, "{line}")
            }
        };
    }
    out
}
