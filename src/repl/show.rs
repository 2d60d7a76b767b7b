//! Text for people: diagnostics pointed into the input or the ruleset, the short form of the log,
//! entities and the session's state.

use super::Repl;
use crate::ast::Span;
use crate::diagnostics::{Code, Diagnostic, RenderOptions, render};
use crate::session::{LogEntry, LogLine, Session, render_log};
use std::fmt::Write;

/// Name under which typed input is shown in diagnostics.
pub(super) const INPUT: &str = "input";
/// Name under which definitions typed earlier are shown in diagnostics.
const TYPED: &str = "typed";

/// Line and column (from 1) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text.as_bytes()[..offset.min(text.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    (line, col)
}

impl Repl {
    pub(super) fn render_with(&self, diags: &[Diagnostic], name: &str, text: &str) -> String {
        render(diags, name, text, &RenderOptions::default().with_width(self.width).with_color(self.color))
    }

    /// Renders diagnostics about `input` (typed after the ruleset, see [`Repl::base`]): one whose
    /// main label is in the input is shown against the input, one whose main label is in the
    /// ruleset (a rule that failed) against the ruleset. Labels on the other side become notes.
    pub(super) fn render(&self, diags: &[Diagnostic], input: &str) -> String {
        let base = self.base();
        let typed = self.typed_start();
        let (name, text) = (self.world.rules.name(), self.world.rules.text());
        let mut out = String::new();
        for d in diags {
            let in_input = |s: Span| s.start >= base;
            let mut d = d.clone();
            prompt_words(&mut d);
            let mut notes = vec![];
            // A label at no place (an error raised outside any rule) points nowhere.
            d.labels.retain(|l| l.span != Span::default());
            if d.labels.is_empty() || in_input(d.span()) {
                d.labels.retain(|l| {
                    if in_input(l.span) {
                        return true;
                    }
                    if l.span.start >= typed {
                        let (line, _) = line_col(&text[typed..], l.span.start - typed);
                        notes.push(format!("{}: typed line {line}", l.text));
                    } else {
                        let (line, col) = line_col(text, l.span.start);
                        notes.push(format!("{}: {name}:{line}:{col}", l.text));
                    }
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
            } else if d.span().start >= typed && typed < base {
                // In a definition typed earlier: shown against the typed definitions, numbered from
                // their first line, not as lines past the end of the file.
                let typed_text = text.get(typed..base - 1).unwrap_or("");
                d.labels.retain(|l| {
                    if l.span.start >= typed && l.span.end < base {
                        return true;
                    }
                    if in_input(l.span) {
                        notes.push(format!("{}: your input", l.text));
                    } else {
                        let (line, col) = line_col(text, l.span.start);
                        notes.push(format!("{}: {name}:{line}:{col}", l.text));
                    }
                    false
                });
                for l in &mut d.labels {
                    l.span = Span::new(l.span.start - typed, l.span.end - typed);
                }
                add_notes(&mut d, &notes);
                out.push_str(&self.render_with(&[d], TYPED, typed_text));
            } else {
                d.labels.retain(|l| {
                    if !in_input(l.span) && l.span.start < typed {
                        return true;
                    }
                    if in_input(l.span) {
                        notes.push(format!("{}: your input", l.text));
                    } else {
                        let (line, _) = line_col(&text[typed..], l.span.start - typed);
                        notes.push(format!("{}: typed line {line}", l.text));
                    }
                    false
                });
                add_notes(&mut d, &notes);
                out.push_str(&self.render_with(&[d], name, text));
            }
        }
        out
    }

    /// Renders an error that points at no text (a command's mistake).
    /// A diagnostic from outside the REPL (a front end's), rendered as the REPL's own are.
    pub fn render_plain(&self, d: &Diagnostic) -> String {
        self.plain_error(d)
    }

    pub(super) fn plain_error(&self, d: &Diagnostic) -> String {
        let mut d = d.clone();
        prompt_words(&mut d);
        self.render_with(std::slice::from_ref(&d), INPUT, "")
    }
}

impl Repl {
    /// Where the definitions typed at the prompt start in the ruleset's text: past the file's text
    /// and the newline that joins them (past the end of the text when none were typed).
    pub(super) fn typed_start(&self) -> usize {
        self.world.file_text.len() + 1
    }

    /// Log text (from [`render_log`] or [`brief`]) with the lines of typed definitions said as
    /// "typed line N" rather than as lines past the end of the file.
    pub(super) fn typed_lines(&self, rendered: &str) -> String {
        let text = self.world.rules.text();
        let typed = self.typed_start();
        if typed > text.len() {
            return rendered.to_string();
        }
        let first = line_col(text, typed).0;
        retag(rendered, first)
    }
}

/// The text between the first two backquotes after `after` in `s`.
fn quoted_after<'s>(s: &'s str, after: &str) -> Option<&'s str> {
    let rest = &s[s.find(after)? + after.len()..];
    let rest = &rest[rest.find('`')? + 1..];
    Some(&rest[..rest.find('`')?])
}

/// Help written for the command line or for Rust hosts, reworded for the prompt: the REPL's own
/// commands instead of `--set`, `--with` or `Session::roll_for`.
pub(super) fn prompt_words(d: &mut Diagnostic) {
    let Some(help) = d.help.clone() else { return };
    let reworded = if d.is(Code::MissingInput) {
        let check = quoted_after(&d.message, "check").unwrap_or("CHECK");
        let input = quoted_after(&d.message, "input").unwrap_or("NAME");
        Some(format!("give it a value: `:roll {check} {input}=…` or `roll {check} with {input} = …`"))
    } else if d.is(Code::NoSubject) {
        let check = quoted_after(&d.message, "check").unwrap_or("CHECK");
        let kind = d.message.split("made by a ").nth(1).and_then(|r| r.split(',').next()).unwrap_or("unit");
        Some(format!(
            "roll it for a {kind}: `:roll {check} for NAME` or `roll {check} for NAME` (`:units` lists who is \
             in play)"
        ))
    } else {
        None
    };
    let mut help = reworded.unwrap_or(help);
    // Budgets are set when the REPL starts.
    if let Some(at) = help.find("`--budget ") {
        let name = help[at + "`--budget ".len()..].split('=').next().unwrap_or("NAME").to_string();
        let end = help[at..].find(')').map_or(help.len(), |e| at + e);
        let open = help[..at].rfind('(').filter(|&o| o + 1 == at);
        let from = open.map_or(at, |o| o + 1);
        help.replace_range(from..end, &format!("start the REPL again with `mettle repl --budget {name}=N`"));
    }
    d.help = Some(help);
}

/// Rewrites each `(line N)` with N at or past `first` as `(typed line N - first + 1)`.
fn retag(rendered: &str, first: usize) -> String {
    const MARK: &str = "(line ";
    let mut out = String::with_capacity(rendered.len());
    let mut rest = rendered;
    while let Some(at) = rest.find(MARK) {
        let after = &rest[at + MARK.len()..];
        let digits = after.find(|c: char| !c.is_ascii_digit()).unwrap_or(after.len());
        let n: Option<usize> = after[..digits].parse().ok();
        out.push_str(&rest[..at]);
        match n {
            Some(n) if n >= first && after[digits..].starts_with(')') => {
                out.push_str(&format!("(typed line {}", n - first + 1));
            }
            _ => out.push_str(&rest[at..at + MARK.len() + digits]),
        }
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
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
            | LogEntry::Record { span, .. }
            | LogEntry::Report { span, .. } => fix(span),
            LogEntry::Event { .. } | LogEntry::Removed { .. } => {}
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
pub(super) fn entity(s: &Session, id: u32) -> String {
    let p = s.ruleset().program();
    let Some(e) = s.state().entities.get(id) else {
        return match s.state().entities.removed(id) {
            Some(name) => format!("{name} (removed from play)"),
            None => "none".into(),
        };
    };
    let kind = &p.kinds[e.kind as usize];
    let attrs: Vec<String> =
        kind.fields.iter().zip(&e.fields).map(|(f, v)| format!("{}={}", f.name, s.show(v))).collect();
    format!("{} ({}) {}", e.name, kind.name, attrs.join(" "))
}

/// Every entity, one a line.
pub(super) fn units(s: &Session) -> String {
    if s.state().entities.is_empty() {
        return "no units yet; create one with `new KIND NAME`\n".into();
    }
    s.state().entities.iter().map(|(id, _)| entity(s, id) + "\n").collect()
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
        let Some(e) = st.entities.get(t.entity) else { continue };
        let f = &p.kinds[e.kind as usize].fields[t.field as usize];
        let when = until(p, t);
        let _ = writeln!(out, "timed: {}.{} goes back to {} {when}", e.name, f.name, s.show(&t.restore));
    }
    out
}

/// When timed change `t` runs out, in words: "at the end of round 2", "the next time `rally` fires".
pub(super) fn until(p: &crate::program::Program, t: &crate::session::Timed) -> String {
    match t.expiry {
        crate::session::Expiry::TurnEnd => "at the end of the turn".to_string(),
        crate::session::Expiry::RoundEnd(r) => format!("at the end of round {r}"),
        crate::session::Expiry::Event(e) => {
            let name = p.events.get(e as usize).map_or("?", |e| e.name.as_str());
            match &t.fact {
                Some(_) => format!("the next time `{name}` fires with its fact"),
                None => format!("the next time `{name}` fires"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostics::Diagnostic;

    #[test]
    fn help_speaks_of_prompt_commands() {
        let mut d = Diagnostic::plain("run::missing_input", "check `morale` needs input `spi`")
            .with_help("give `spi` a value (`--set spi=…` on the command line)");
        super::prompt_words(&mut d);
        assert_eq!(
            d.help.as_deref(),
            Some("give it a value: `:roll morale spi=…` or `roll morale with spi = …`")
        );
        let mut d = Diagnostic::plain("run::too_deep", "too deep").with_help(
            "loops; raise the budget (`--budget steps=N` on the command line, `Budget::steps` in `LoadOptions`)",
        );
        super::prompt_words(&mut d);
        assert_eq!(
            d.help.as_deref(),
            Some("loops; raise the budget (start the REPL again with `mettle repl --budget steps=N`)")
        );
    }
    #[test]
    fn typed_lines_are_numbered_from_the_first_typed_line() {
        let log = "check ghost()  (line 415)\n  rule on x  (line 12)\n  (line 7 of";
        assert_eq!(
            super::retag(log, 400),
            "check ghost()  (typed line 16)\n  rule on x  (line 12)\n  (line 7 of"
        );
    }
}
