//! Odds at the prompt, from the game as it stands: `odds CHECK for UNIT [with …] [sweep …]` (the
//! exact report of a unit's check, its state and timed changes included), `odds STATEMENTS` (what a
//! step would lead to, without taking it), and `:sim N STEP` (the step played N times).

use super::{Repl, Reply};
use crate::Session;
use crate::ast::Span;
use crate::check::{PromptCode, PromptInput};
use crate::diagnostics::{Diagnostic, suggest};
use crate::odds::text::{Row, report_text, sweep_text};
use crate::odds::{Report, Sweep, Swept};
use crate::program::{Ty, Value};
use crate::syntax::{ReplInput, parse_repl_at};

/// The odds last shown, for `:plot`.
#[derive(Debug, Clone)]
pub enum LastOdds {
    /// One report: a check's, or a what-if's.
    Report(Report),
    /// A sweep: its question, each axis's name and values as shown, and the rows.
    Sweep {
        /// What was asked.
        question: String,
        /// Each sweep's name and its values, as shown.
        axes: Vec<(String, Vec<String>)>,
        /// Each combination of values with its report.
        rows: Vec<Row>,
    },
}

/// Words that start a statement: after `odds`, they ask what the statement would lead to.
const STEPS: [&str; 13] = [
    "add", "answer", "dice", "expect", "follow", "new", "option", "record", "remove", "roll", "set",
    "trigger", "with",
];

/// A word of an `odds` line and where it starts in the line.
#[derive(Debug, Clone, Copy)]
struct Tok<'a> {
    text: &'a str,
    at: usize,
}

/// The words of `line` from byte `from`: runs of other characters, and `,` and `=` on their own.
fn tokens(line: &str, from: usize) -> Vec<Tok<'_>> {
    let mut out = vec![];
    let mut start = None;
    for (i, c) in line[from..].char_indices().map(|(i, c)| (i + from, c)) {
        let alone = c == ',' || c == '=';
        if c.is_whitespace() || alone {
            if let Some(s) = start.take() {
                out.push(Tok { text: &line[s..i], at: s });
            }
            if alone {
                out.push(Tok { text: &line[i..i + 1], at: i });
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push(Tok { text: &line[s..], at: s });
    }
    out
}

/// A value or an option changed for the question, and what it changes.
enum Given {
    Input(String, Value),
    Attribute(String, Value),
    Option(String, Value),
}

impl Repl {
    /// An error about the words of `line` from byte `at`, `len` long.
    fn at(
        &self,
        code: &str,
        message: String,
        (at, len): (usize, usize),
        label: &str,
        help: String,
    ) -> Diagnostic {
        let b = self.base();
        Diagnostic::error(
            &format!("repl::{code}"),
            message,
            Span { start: b + at, end: b + at + len.max(1) },
            label,
        )
        .with_help(help)
    }

    /// A diagnostic from the library, pointed at the words it is about.
    pub(super) fn placed(&self, mut d: Diagnostic, (at, len): (usize, usize), label: &str) -> Diagnostic {
        if d.labels.is_empty() {
            let b = self.base();
            d = d.with_label(Span { start: b + at, end: b + at + len.max(1) }, label);
            if let Some(l) = d.labels.last_mut() {
                l.primary = true;
            }
        }
        d
    }

    /// `odds …` or `:odds …`, typed as `input`: the report, or a coded diagnostic pointing into the
    /// line; the game is never changed.
    pub(super) fn odds_line(&mut self, input: &str, reply: &mut Reply) {
        let lead = input.len() - input.trim_start().len();
        let word = input[lead..].split_whitespace().next().unwrap_or("");
        let from = lead + word.len();
        let toks = tokens(input, from);
        let r = match toks.first() {
            None => Err(self.at(
                "missing_argument",
                format!("`{word}` needs a check, or a step to ask about"),
                (lead, word.len()),
                "ask what here",
                "for example `odds morale for alpha`, or `odds trigger damaged(unit: alpha, hp_lost: 3)`"
                    .into(),
            )),
            Some(t) if self.world.rules.program().checks.iter().any(|c| c.name == t.text) => {
                self.check_odds(&toks, reply)
            }
            Some(t) if STEPS.contains(&t.text) => self.what_if_line(input, t.at, reply),
            Some(t) => {
                let p = self.world.rules.program();
                let names: Vec<&str> = p.checks.iter().map(|c| c.name.as_str()).collect();
                Err(self.at(
                    "unknown_check",
                    format!("there is no check called `{}`", t.text),
                    (t.at, t.text.len()),
                    "not a check",
                    format!(
                        "{}; to ask what a step would do, start with it: `odds trigger EVENT(…)`",
                        suggest(t.text, "check", &names)
                    ),
                ))
            }
        };
        if let Err(d) = r {
            reply.fail(self.render(std::slice::from_ref(&d), input));
        }
    }

    /// `odds CHECK [for UNIT] [with NAME = VALUE, …] [sweep NAME [LO..HI], …]`.
    fn check_odds(&mut self, toks: &[Tok<'_>], reply: &mut Reply) -> Result<(), Diagnostic> {
        let s = &self.world.session;
        let rules = self.world.rules.clone();
        let p = rules.program();
        let check = toks[0].text;
        let c = p.checks.iter().position(|c| c.name == check).unwrap_or(0);
        let decl = &p.checks[c];
        let kind = decl.subject.map(|k| &p.kinds[k as usize]);
        let mut i = 1;
        let mut who: Option<(u32, String)> = None;
        let mut given: Vec<Given> = vec![];
        let mut sweep_specs: Vec<(String, Tok<'_>, usize)> = vec![];
        while let Some(t) = toks.get(i) {
            match t.text {
                "for" => {
                    let Some(k) = kind else {
                        return Err(self.at(
                            "no_subject",
                            format!("check `{check}` is not made by anyone"),
                            (t.at, 3),
                            "no one makes it",
                            "leave out `for …`".into(),
                        ));
                    };
                    let Some(u) = toks.get(i + 1) else {
                        return Err(self.at(
                            "missing_argument",
                            "`for` needs a unit's name".into(),
                            (t.at, 3),
                            "whose check?",
                            format!("for example `odds {check} for alpha`"),
                        ));
                    };
                    let ents = &s.state().entities;
                    let Some((id, _)) =
                        ents.iter().find(|(_, e)| e.name == u.text && e.kind == decl.subject.unwrap_or(0))
                    else {
                        let known: Vec<&str> = ents
                            .iter()
                            .filter(|(_, e)| Some(e.kind) == decl.subject)
                            .map(|(_, e)| e.name.as_str())
                            .collect();
                        return Err(self.at(
                            "unknown_unit",
                            format!("there is no {} called `{}` in play", k.name, u.text),
                            (u.at, u.text.len()),
                            "not in play",
                            suggest(u.text, &k.name, &known),
                        ));
                    };
                    who = Some((id, u.text.to_string()));
                    i += 2;
                }
                "with" | "--set" | "--with" => {
                    i += 1;
                    // NAME = VALUE, …
                    while let (Some(n), Some(eq), Some(v)) = (toks.get(i), toks.get(i + 1), toks.get(i + 2)) {
                        if eq.text != "=" {
                            break;
                        }
                        given.push(self.given(check, n, v)?);
                        i += 3;
                        if toks.get(i).is_some_and(|t| t.text == ",") {
                            i += 1;
                        }
                    }
                    if given.is_empty()
                        || toks.get(i).is_some_and(|t| !matches!(t.text, "sweep" | "--sweep" | "for"))
                    {
                        let bad = toks.get(i).copied().unwrap_or(*t);
                        return Err(self.at(
                            "bad_argument",
                            format!("`{}` is not NAME = VALUE", bad.text),
                            (bad.at, bad.text.len()),
                            "expected NAME = VALUE",
                            format!("for example `odds {check} with spi = 3, leadership = 1`"),
                        ));
                    }
                }
                "sweep" | "--sweep" => {
                    i += 1;
                    while let Some(n) = toks.get(i) {
                        if matches!(n.text, "for" | "with" | "--set" | "--with") {
                            break;
                        }
                        let mut j = i + 1;
                        if toks.get(j).is_some_and(|t| t.text == "=") {
                            j += 1;
                        }
                        let range = toks.get(j).filter(|t| t.text.contains(".."));
                        let end = range.map_or(n.at + n.text.len(), |r| r.at + r.text.len());
                        let mut spec = n.text.to_string();
                        if let Some(r) = range {
                            spec = format!("{spec}={}", r.text);
                            j += 1;
                        }
                        sweep_specs.push((spec, *n, end - n.at));
                        i = j;
                        if toks.get(i).is_some_and(|t| t.text == ",") {
                            i += 1;
                        }
                    }
                    if sweep_specs.is_empty() {
                        return Err(self.at(
                            "missing_argument",
                            "`sweep` needs what to sweep".into(),
                            (t.at, t.text.len()),
                            "sweep what?",
                            format!("for example `odds {check} for alpha sweep spi 0..6`"),
                        ));
                    }
                }
                _ => {
                    return Err(self.at(
                        "bad_argument",
                        format!("`{}` is not understood here", t.text),
                        (t.at, t.text.len()),
                        "expected `for`, `with` or `sweep`",
                        format!(
                            "the form is `odds {check} [for UNIT] [with NAME = VALUE, …] [sweep NAME LO..HI]`"
                        ),
                    ));
                }
            }
        }
        // A name swept that is an attribute of who makes the check (and not an input) is swept as
        // `KIND.NAME`, as `mettle odds` reads it.
        let mut specs = vec![];
        for (spec, n, len) in &sweep_specs {
            let name = spec.split('=').next().unwrap_or("");
            let attribute = !decl.inputs.iter().any(|i| i.field.name == name)
                && kind.is_some_and(|k| k.fields.iter().any(|f| f.name == name));
            let spec = match kind {
                Some(k) if attribute => format!("{}.{spec}", k.name),
                _ => spec.clone(),
            };
            // Each is read on its own first, so that a mistake points at its words.
            crate::odds::sweeps(&rules, check, &[spec.as_str()], &[])
                .map_err(|d| self.placed(d, (n.at, *len), "this sweep"))?;
            specs.push(spec);
        }
        let refs: Vec<&str> = specs.iter().map(String::as_str).collect();
        let whole = toks.last().map_or((0, 0), |t| (toks[0].at, t.at + t.text.len() - toks[0].at));
        let sweeps = crate::odds::sweeps(&rules, check, &refs, &[])
            .map_err(|d| self.placed(d, whole, "these sweeps"))?;
        // The question is asked of a copy of the game, the values given changed in it.
        let mut game = s.without_log();
        game.set_logging(false);
        let mut inputs: Vec<(String, Value)> = vec![];
        let mut attrs: Vec<(String, Value)> = vec![];
        for g in given {
            match g {
                Given::Input(n, v) => inputs.push((n, v)),
                Given::Attribute(n, v) => attrs.push((n, v)),
                Given::Option(n, v) => game.set_option(&n, v).map_err(|d| self.placed(d, whole, "here"))?,
            }
        }
        let seed = self.seed;
        if sweeps.is_empty() {
            let (subject, made_by) = self
                .maker(&mut game, check, who.as_ref(), &attrs)
                .map_err(|d| self.placed(d, whole, "here"))?;
            let in_refs: Vec<(&str, Value)> = inputs.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
            let mut report = crate::odds::ask(&mut game, check, subject, &in_refs, seed)
                .map_err(|d| self.placed(d, whole, "asked here"))?;
            report.question.push_str(&format!(" (made by {made_by})"));
            reply.say(report_text(&report));
            if let Some((id, name)) = &who {
                reply.say(known(&self.world.session, &game, *id, name));
            }
            self.last_odds = Some(LastOdds::Report(report));
            return Ok(());
        }
        let rows = self
            .sweep_rows(&game, check, who.as_ref(), &attrs, &inputs, &sweeps)
            .map_err(|d| self.placed(d, whole, "asked here"))?;
        let mut question = crate::odds::sweep_question(&game, check, &inputs, &sweeps);
        question.push_str(&crate::odds::sweep_defaults(rows.iter().map(|(_, r)| r)));
        if let Some((_, name)) = &who {
            question.push_str(&format!(" (made by {name} as it is now)"));
        }
        let groups: Vec<_> = rows.iter().map(|(_, r)| r.groups.clone()).collect();
        reply.say(sweep_text(&question, &rows, &groups, &game));
        if let Some((id, name)) = &who {
            reply.say(known(&self.world.session, &game, *id, name));
        }
        let axes = sweeps
            .iter()
            .map(|s| {
                let name = if s.target == Swept::Option { s.label.clone() } else { s.name.clone() };
                (name, s.values.iter().map(|v| game.show(v)).collect())
            })
            .collect();
        self.last_odds = Some(LastOdds::Sweep { question, axes, rows });
        Ok(())
    }

    /// `NAME = VALUE` of an odds question: an input of the check, an attribute of who makes it, or a
    /// house-rule option.
    fn given(&self, check: &str, n: &Tok<'_>, v: &Tok<'_>) -> Result<Given, Diagnostic> {
        let s = &self.world.session;
        let p = s.ruleset().program();
        let decl = p
            .checks
            .iter()
            .find(|c| c.name == check)
            .ok_or_else(|| Diagnostic::plain("repl::unknown_check", check.to_string()))?;
        let kind = decl.subject.map(|k| &p.kinds[k as usize]);
        let value = |ty: &Ty, what: String| {
            super::values::value(s, ty, v.text, &what)
                .map_err(|d| self.placed(d, (v.at, v.text.len()), "this value"))
        };
        if let Some(i) = decl.inputs.iter().find(|i| i.field.name == n.text) {
            return Ok(Given::Input(n.text.into(), value(&i.field.ty, format!("input `{}`", n.text))?));
        }
        if let Some(f) = kind.and_then(|k| k.fields.iter().find(|f| f.name == n.text)) {
            return Ok(Given::Attribute(n.text.into(), value(&f.ty, format!("attribute `{}`", n.text))?));
        }
        if let Some(o) = p.options.iter().find(|o| o.name == n.text) {
            return Ok(Given::Option(n.text.into(), value(&o.ty, format!("option `{}`", n.text))?));
        }
        let mut names: Vec<&str> = decl.inputs.iter().map(|i| i.field.name.as_str()).collect();
        names.extend(kind.iter().flat_map(|k| k.fields.iter().map(|f| f.name.as_str())));
        names.extend(p.options.iter().map(|o| o.name.as_str()));
        Err(self.at(
            "unknown_input",
            format!("check `{check}` has no input, attribute of who makes it, or option `{}`", n.text),
            (n.at, n.text.len()),
            "not known",
            suggest(n.text, "input", &names),
        ))
    }

    /// Who makes the check in `game`: the unit named (its attributes `attrs` changed), or a stand-in
    /// with `attrs` when none is named; and who that is, in words.
    fn maker(
        &self,
        game: &mut Session,
        check: &str,
        who: Option<&(u32, String)>,
        attrs: &[(String, Value)],
    ) -> Result<(Option<u32>, String), Diagnostic> {
        match who {
            Some((id, name)) => {
                for (a, v) in attrs {
                    game.set_attribute(name, a, v.clone())?;
                }
                let changed: Vec<String> =
                    attrs.iter().map(|(a, v)| format!("{a} = {}", game.show(v))).collect();
                let said = if changed.is_empty() {
                    format!("{name} as it is now")
                } else {
                    format!("{name} as it is now, but {}", changed.join(", "))
                };
                Ok((Some(*id), said))
            }
            None => match crate::odds::stand_in(game, check, attrs)? {
                Some((id, said)) => Ok((Some(id), said)),
                None => Ok((None, "no one".into())),
            },
        }
    }

    /// The rows of a sweep, each asked of its own copy of `game`; together they have the budget of
    /// one sweep of `mettle odds`.
    fn sweep_rows(
        &self,
        game: &Session,
        check: &str,
        who: Option<&(u32, String)>,
        attrs: &[(String, Value)],
        inputs: &[(String, Value)],
        sweeps: &[Sweep],
    ) -> Result<Vec<Row>, Diagnostic> {
        let mut all: Vec<Vec<Value>> = vec![vec![]];
        for s in sweeps {
            all = all
                .into_iter()
                .flat_map(|prefix| {
                    s.values.iter().map(move |v| {
                        let mut row = prefix.clone();
                        row.push(v.clone());
                        row
                    })
                })
                .collect();
        }
        let work = game.ruleset().budget().odds_work.saturating_mul(2);
        let count = all.len() as u64;
        let (rows, _) = crate::odds::work::within(work, || {
            let mut out = vec![];
            for (i, values) in all.into_iter().enumerate() {
                let share = crate::odds::work::left() / (count - i as u64).max(1);
                let mut g = game.without_log();
                let mut row_inputs: Vec<(String, Value)> = inputs.to_vec();
                let mut row_attrs: Vec<(String, Value)> = attrs.to_vec();
                for (s, v) in sweeps.iter().zip(&values) {
                    match &s.target {
                        Swept::Option => g.set_option(&s.name, v.clone())?,
                        Swept::Input => {
                            row_inputs.retain(|(n, _)| *n != s.name);
                            row_inputs.push((s.name.clone(), v.clone()));
                        }
                        Swept::Attribute(a) => {
                            row_attrs.retain(|(n, _)| n != a);
                            row_attrs.push((a.clone(), v.clone()));
                        }
                    }
                }
                let (subject, _) = self.maker(&mut g, check, who, &row_attrs)?;
                let refs: Vec<(&str, Value)> =
                    row_inputs.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
                let (report, _) = crate::odds::work::within(share, || {
                    crate::odds::ask(&mut g, check, subject, &refs, self.seed)
                });
                let set = sweeps.iter().zip(values).map(|(s, v)| (s.name.clone(), v)).collect();
                out.push((set, report?));
            }
            Ok::<_, Diagnostic>(out)
        });
        rows
    }

    /// `odds STATEMENTS`: the ends the statements would lead to from the game as it stands.
    fn what_if_line(&mut self, input: &str, at: usize, reply: &mut Reply) -> Result<(), Diagnostic> {
        let step_text = input[at..].trim_end();
        let (stmts, frame) = match self.compile_step(input, at) {
            Ok(c) => c,
            Err(text) => {
                reply.fail(text);
                return Ok(());
            }
        };
        let question = format!("what if: {step_text}");
        let mut step = |s: &mut Session| {
            let mut f = frame.clone();
            s.run_prompt(&stmts, &mut f)
        };
        let seed = self.seed;
        let w = crate::odds::whatif::what_if(&self.world.session, &question, &mut step, seed, &self.cancel)?;
        self.show_what_if(&w, reply);
        self.last_odds = Some(LastOdds::Report(w.report));
        Ok(())
    }

    /// Parses and checks the statements of `input` from byte `at`, with the prompt's names: the
    /// compiled statements and their frame, or the rendered diagnostics.
    pub(super) fn compile_step(
        &self,
        input: &str,
        at: usize,
    ) -> Result<(Vec<crate::program::Stmt>, Vec<Value>), String> {
        let base = self.base();
        let text = &input[at..];
        let placed = format!("{}{text}", " ".repeat(base + at));
        match parse_repl_at(text, base + at) {
            Err(diags) => Err(self.render(&diags, input)),
            Ok(ReplInput::Stmts(stmts)) => {
                let (mut frame, code, diags) =
                    self.check_with_names(input, PromptInput::Stmts(&stmts), &placed);
                let Some(PromptCode::Stmts { stmts, slots, .. }) = code else {
                    return Err(self.render(&diags, input));
                };
                frame.resize(slots as usize, Value::None);
                Ok((stmts, frame))
            }
            Ok(_) => {
                let b = self.base();
                let d = Diagnostic::error(
                    "repl::not_a_step",
                    "only statements can be asked about or simulated here",
                    Span { start: b + at, end: b + input.trim_end().len() },
                    "not a statement",
                )
                .with_help("give a step such as `trigger damaged(unit: alpha, hp_lost: 3)` or `roll morale for alpha`");
                Err(self.render(&[d], input))
            }
        }
    }

    fn show_what_if(&self, w: &crate::odds::whatif::WhatIf, reply: &mut Reply) {
        reply.say(report_text(&w.report));
        if !w.always.is_empty() {
            reply.say(format!("\nin every end: {}", w.always.join(", ")));
        }
        reply.say("(the game is unchanged)");
    }

    /// `:sim N STATEMENTS` or `:sim N SCENARIO`: the step played `N` times from the game as it
    /// stands, each with dice of its own; the game is unchanged.
    pub(super) fn sim_command(&mut self, line: &str, reply: &mut Reply) -> Result<(), Diagnostic> {
        let lead = line.len() - line.trim_start().len();
        let word_end = lead + ":sim".len();
        let toks = tokens(line, word_end);
        let example =
            "for example `:sim 1000 trigger damaged(unit: alpha, hp_lost: 3)` or `:sim 1000 SCENARIO`";
        let Some(n) = toks.first() else {
            return Err(self.at(
                "missing_argument",
                "`:sim` needs a number of runs and a step".into(),
                (lead, 4),
                "how many runs of what?",
                example.into(),
            ));
        };
        let runs = match n.text.parse::<u64>() {
            Ok(r) if r >= 1 && r <= self.budget.steps => r,
            Ok(r) => {
                let help = if r == 0 {
                    "give at least one run"
                } else {
                    "give fewer runs (the budget `steps` sets the most: `--budget steps=N`)"
                };
                return Err(self.at(
                    "bad_runs",
                    format!("`:sim` plays from 1 to {} runs, not {r}", self.budget.steps),
                    (n.at, n.text.len()),
                    "runs",
                    help.into(),
                ));
            }
            Err(_) => {
                return Err(self.at(
                    "bad_runs",
                    format!("`{}` is not a number of runs", n.text),
                    (n.at, n.text.len()),
                    "runs",
                    example.into(),
                ));
            }
        };
        let Some(first) = toks.get(1) else {
            return Err(self.at(
                "missing_argument",
                "`:sim` needs a step to play".into(),
                (n.at, n.text.len()),
                "runs of what?",
                example.into(),
            ));
        };
        let rules = self.world.rules.clone();
        let scenario = rules.program().scenarios.iter().any(|s| s.name == first.text) && toks.len() == 2;
        let seed = self.seed;
        let stop = self.cancel.clone();
        let progress = self.progress.clone();
        let tell = |done: u64| {
            if let Some(p) = &progress {
                (p.0)(done, runs);
            }
        };
        let w = if scenario {
            let name = first.text.to_string();
            let question = format!("scenario {name} from the game as it stands");
            let mut step = |s: &mut Session| s.run_scenario(&name).map(drop);
            crate::odds::whatif::simulate(&self.world.session, &question, &mut step, runs, seed, &tell, &stop)
        } else {
            let (stmts, frame) = match self.compile_step(line, first.at) {
                Ok(c) => c,
                Err(text) => {
                    reply.fail(text);
                    return Ok(());
                }
            };
            let question = format!("{} from the game as it stands", line[first.at..].trim_end());
            let mut step = |s: &mut Session| {
                let mut f = frame.clone();
                s.run_prompt(&stmts, &mut f)
            };
            crate::odds::whatif::simulate(&self.world.session, &question, &mut step, runs, seed, &tell, &stop)
        };
        // The front end's progress line is cleared, however the runs ended.
        tell(runs);
        let done = match &w.report.how {
            crate::odds::How::Estimated { runs, .. } => *runs,
            crate::odds::How::Exact => runs,
        };
        reply.say(format!("{done} runs, seed {seed}"));
        let mut shown = Reply::default();
        self.show_what_if(&w, &mut shown);
        // A simulation asked for is no fallback: its second line says what it is instead.
        let text: Vec<String> = shown
            .out
            .lines()
            .map(|l| {
                if l.starts_with("estimated from ") {
                    "simulated: each end with how often it came and its 95% interval".to_string()
                } else {
                    l.to_string()
                }
            })
            .collect();
        reply.say(text.join("\n"));
        if done < runs {
            reply.fail(
                self.plain_error(
                    &Diagnostic::plain(
                        "repl::interrupted",
                        format!("the simulation was stopped after {done} of {runs} runs"),
                    )
                    .with_help("the report covers the runs done; `:sim` again to play them all"),
                ),
            );
        }
        self.last_odds = Some(LastOdds::Report(w.report));
        Ok(())
    }
}

/// What the game knows of unit `name` that a stand-in would not: attributes away from their
/// defaults, timed changes on it, and the options in force.
fn known(now: &Session, asked: &Session, id: u32, name: &str) -> String {
    let st = now.state();
    let p = now.ruleset().program();
    let Some(e) = st.entities.get(id) else { return String::new() };
    let kind = &p.kinds[e.kind as usize];
    let mut scratch = now.without_log();
    scratch.set_logging(false);
    let fresh = scratch
        .stand_in(&kind.name, "__fresh", &[])
        .ok()
        .and_then(|i| scratch.state().entities.get(i).cloned());
    let mut differs = vec![];
    for (i, (f, v)) in kind.fields.iter().zip(&e.fields).enumerate() {
        let default = fresh.as_ref().and_then(|x| x.fields.get(i));
        // A stand-in's attribute naming another entity names a stand-in of its own: not compared.
        if matches!(f.ty, crate::program::Ty::Entity(_)) {
            continue;
        }
        if default != Some(v) {
            let was = default.map(|d| format!(" (a stand-in: {})", now.show(d))).unwrap_or_default();
            differs.push(format!("{} = {}{was}", f.name, now.show(v)));
        }
    }
    let mut out = format!("\n{name} as it is now");
    if differs.is_empty() {
        out.push_str(": every attribute at its default");
    } else {
        out.push_str(&format!(", which a stand-in would not know: {}", differs.join(", ")));
    }
    for t in &st.timed {
        if t.entity != id {
            continue;
        }
        let f = &kind.fields[t.field as usize];
        let when = super::show::until(p, t);
        out.push_str(&format!("\n  timed: {name}.{} goes back to {} {when}", f.name, now.show(&t.restore)));
    }
    let options: Vec<String> = p
        .options
        .iter()
        .filter_map(|o| asked.option(&o.name).map(|v| format!("{} = {}", o.name, asked.show(v))))
        .collect();
    if !options.is_empty() {
        out.push_str(&format!("\n  options in force: {}", options.join(", ")));
    }
    out
}
