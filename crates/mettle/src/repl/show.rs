//! Text for people: diagnostics pointed into the input or the ruleset, the short form of the log,
//! entities and the session's state.

use super::Repl;
use crate::ast::Span;
use crate::diagnostics::{Diagnostic, render_color, render_plain};
use crate::session::{LogEntry, LogLine, Session, render_log};
use std::fmt::Write;

/// Name under which typed input is shown in diagnostics.
pub(super) const INPUT: &str = "input";

/// Line and column (from 1) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text.as_bytes()[..offset.min(text.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    (line, col)
}

impl Repl {
    fn render_with(&self, diags: &[Diagnostic], name: &str, text: &str) -> String {
        if self.color {
            render_color(diags, name, text, self.width)
        } else {
            render_plain(diags, name, text, self.width)
        }
    }

    /// Renders diagnostics about `input` (typed after the ruleset, see [`Repl::base`]): one whose
    /// main label is in the input is shown against the input, one whose main label is in the
    /// ruleset (a rule that failed) against the ruleset. Labels on the other side become notes.
    pub(super) fn render(&self, diags: &[Diagnostic], input: &str) -> String {
        let base = self.base();
        let (name, text) = (self.world.rules.name(), self.world.rules.text());
        let mut out = String::new();
        for d in diags {
            let in_input = |s: Span| s.start >= base;
            let mut d = d.clone();
            let mut notes = vec![];
            // A label at no place (an error raised outside any rule) points nowhere.
            d.labels.retain(|l| l.span != Span::default());
            if d.labels.is_empty() || in_input(d.span()) {
                d.labels.retain(|l| {
                    if in_input(l.span) {
                        return true;
                    }
                    let (line, col) = line_col(text, l.span.start);
                    notes.push(format!("{}: {name}:{line}:{col}", l.text));
                    false
                });
                for l in &mut d.labels {
                    l.span = Span::new(
                        l.span.start - base,
                        l.span.end.saturating_sub(base).max(l.span.start - base),
                    );
                }
                add_notes(&mut d, &notes);
                out.push_str(&self.render_with(&[d], INPUT, input));
            } else {
                d.labels.retain(|l| {
                    if !in_input(l.span) {
                        return true;
                    }
                    notes.push(format!("{}: your input", l.text));
                    false
                });
                add_notes(&mut d, &notes);
                out.push_str(&self.render_with(&[d], name, text));
            }
        }
        out
    }

    /// Renders an error that points at no text (a command's mistake).
    pub(super) fn plain_error(&self, d: &Diagnostic) -> String {
        self.render_with(std::slice::from_ref(d), INPUT, "")
    }
}

fn add_notes(d: &mut Diagnostic, notes: &[String]) {
    if notes.is_empty() {
        return;
    }
    let notes = notes.join("\n");
    d.help = Some(match d.help.take() {
        Some(h) => format!("{h}\n{notes}"),
        None => notes,
    });
}

/// The log with the places of what was typed at the prompt (at or after `base`) taken out: only
/// rules of the ruleset get a line number.
pub(super) fn unplaced(log: &[LogLine], base: usize) -> Vec<LogLine> {
    let fix = |s: &mut Span| {
        if s.start >= base {
            *s = Span::default();
        }
    };
    let mut log = log.to_vec();
    for line in &mut log {
        match &mut line.entry {
            LogEntry::Check(r) => {
                fix(&mut r.span);
                fix(&mut r.outcome_span);
                r.modifiers.iter_mut().for_each(|m| fix(&mut m.span));
            }
            LogEntry::Rule { span, .. }
            | LogEntry::Roll { span, .. }
            | LogEntry::Change { span, .. }
            | LogEntry::Expired { span, .. }
            | LogEntry::New { span, .. }
            | LogEntry::Choice { span, .. }
            | LogEntry::Note { span, .. }
            | LogEntry::GameOver { span, .. }
            | LogEntry::Expect { span, .. }
            | LogEntry::Reaction { span, .. }
            | LogEntry::Order { span, .. }
            | LogEntry::Print { span, .. }
            | LogEntry::Lookup { span, .. }
            | LogEntry::Skipped { span, .. }
            | LogEntry::Record { span, .. } => fix(span),
            LogEntry::Event { .. } => {}
        }
    }
    log
}

/// The log in short: what happened, without the rules and dice behind it (`:explain` has those).
pub(super) fn brief(log: &[LogLine], text: &str) -> String {
    let mut out = String::new();
    for line in log {
        let pad = "  ".repeat(line.depth as usize);
        match &line.entry {
            LogEntry::Rule { .. } | LogEntry::Lookup { .. } => {}
            LogEntry::Check(r) => {
                let verb = if r.pool.is_some() { "rolls" } else { "works out" };
                let who = r.subject.as_ref().map(|s| format!("{s} {verb} ")).unwrap_or_default();
                let against = r.target.map(|t| format!(" against {t}")).unwrap_or_default();
                let _ = writeln!(out, "{pad}{who}{}: {}{against} -> {}", r.check, r.total, r.outcome);
            }
            _ => out.push_str(&render_log(std::slice::from_ref(line), text)),
        }
    }
    out
}

/// One entity and its attributes: `alpha (unit) spi=2 morale=steady`.
pub(super) fn entity(s: &Session, id: usize) -> String {
    let p = s.ruleset().program();
    let e = &s.state().entities[id];
    let kind = &p.kinds[e.kind as usize];
    let attrs: Vec<String> =
        kind.fields.iter().zip(&e.fields).map(|(f, v)| format!("{}={}", f.name, s.show(v))).collect();
    format!("{} ({}) {}", e.name, kind.name, attrs.join(" "))
}

/// Every entity, one a line.
pub(super) fn units(s: &Session) -> String {
    let n = s.state().entities.len();
    if n == 0 {
        return "no units yet; create one with `new KIND NAME`\n".into();
    }
    (0..n).map(|i| entity(s, i) + "\n").collect()
}

/// The round and turn, dice and answers waiting, timed changes and how the game ended.
pub(super) fn state(s: &Session) -> String {
    let st = s.state();
    let p = s.ruleset().program();
    let mut out = format!("round {}, turn {}, seed {}\n", st.round, st.turn, st.seed);
    if let Some(o) = &st.over {
        let _ = writeln!(
            out,
            "game over: {}{}",
            o.result,
            o.winner.as_ref().map(|w| format!(" for {w}")).unwrap_or_default()
        );
    }
    if !st.forced.is_empty() {
        let faces: Vec<String> = st.forced.iter().map(|f| f.to_string()).collect();
        let _ = writeln!(out, "next dice: {}", faces.join(", "));
    }
    for (c, v) in &st.answers {
        let _ = writeln!(out, "waiting answer: {} = {}", p.choices[*c as usize].name, s.show(v));
    }
    for t in &st.timed {
        let e = &st.entities[t.entity as usize];
        let f = &p.kinds[e.kind as usize].fields[t.field as usize];
        let when = match t.expiry {
            crate::session::Expiry::TurnEnd => "at the end of the turn".to_string(),
            crate::session::Expiry::RoundEnd(r) => format!("at the end of round {r}"),
        };
        let _ = writeln!(out, "timed: {}.{} goes back to {} {when}", e.name, f.name, s.show(&t.restore));
    }
    out
}
