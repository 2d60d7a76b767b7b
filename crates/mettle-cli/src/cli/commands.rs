//! The commands. Everything printed goes through here; the library only returns data.

use mettle::diagnostics::{Diagnostic, RenderOptions};
use mettle::internals::RulesetInternals as _;
use mettle::internals::diagnostics::suggest;
use mettle::internals::program::{Program, Ty};
use mettle::{LoadError, Ruleset, Session, Value};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

const WIDTH: usize = 100;

pub(super) fn render(diags: &[Diagnostic], name: &str, text: &str) -> String {
    let diags = &*super::capped(diags);
    if super::json::on() {
        let errors = diags.iter().map(|d| super::json::error_info(d, name, text)).collect();
        let doc = super::json::ErrorDoc { mettle: super::json::Meta::default(), errors };
        return super::json::safe(serde_json::to_string(&doc).unwrap_or_default()) + "\n";
    }
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    mettle::diagnostics::render(
        diags,
        name,
        text,
        &RenderOptions::default().with_width(WIDTH).with_color(color),
    )
}

pub(super) fn load(path: &Path) -> Option<Ruleset> {
    match Ruleset::from_path_with(path, &super::load_options(path)) {
        Ok(r) => {
            // In full where they help (`check`); elsewhere one line, so that they do not stand
            // before every roll's output. A `--json` error document keeps each of them.
            let n = r.warnings().len();
            if n > 0 && super::json::on() {
                eprint!("{}", render(r.warnings(), r.name(), r.text()));
            } else if n > 0 {
                eprintln!("{}", warning_count(n, path));
            }
            Some(r)
        }
        Err(e) => {
            report_load(&e);
            None
        }
    }
}

/// `2 warnings; `mettle check FILE` shows them`: what a command other than `check` says of a
/// ruleset's warnings.
pub(super) fn warning_count(n: usize, path: &Path) -> String {
    let file = mettle::text::visible(&path.display().to_string()).into_owned();
    format!(
        "{n} warning{}; `mettle check {file}` shows {}",
        if n == 1 { "" } else { "s" },
        if n == 1 { "it" } else { "them" }
    )
}

fn report_load(e: &LoadError) {
    eprint!("{}", render(&e.diagnostics, &e.name, &e.text));
    if super::json::on() {
        return;
    }
    let errors = e.diagnostics.iter().filter(|d| d.is_error()).count();
    eprintln!("{}: {errors} error{}", e.name, if errors == 1 { "" } else { "s" });
}

pub(super) fn runtime_error(r: &Ruleset, d: &Diagnostic) {
    eprint!("{}", render(std::slice::from_ref(d), r.name(), r.text()));
}

/// The ruleset's warnings, and those `check` adds: outcomes no roll can reach.
fn all_warnings(r: &Ruleset) -> Vec<Diagnostic> {
    let mut w = r.warnings().to_vec();
    w.extend(mettle::odds::unreachable(r));
    w
}

pub fn check(files: &[PathBuf], json: bool) -> u8 {
    if json {
        return check_json(files);
    }
    let mut failed = false;
    for f in files {
        match Ruleset::from_path_with(f, &super::load_options(f)) {
            Ok(r) => {
                let warnings = all_warnings(&r);
                eprint!("{}", render(&warnings, r.name(), r.text()));
                let w = warnings.len();
                let p = r.program();
                outln!(
                    "{}: ok ({} kinds, {} checks, {} rules, {} scenarios{})",
                    r.name(),
                    p.kinds.len(),
                    p.checks.len(),
                    p.triggers.len(),
                    p.scenarios.len(),
                    if w > 0 {
                        format!(", {w} warning{}", if w == 1 { "" } else { "s" })
                    } else {
                        String::new()
                    }
                );
            }
            Err(e) => {
                report_load(&e);
                failed = true;
            }
        }
    }
    u8::from(failed)
}

/// `mettle check --json`: every file's diagnostics as data, with line and columns of each label.
fn check_json(files: &[PathBuf]) -> u8 {
    use super::json::{CheckDoc, FileCheck, Meta, error_info};
    let mut failed = false;
    let mut out = vec![];
    for f in files {
        let (name, text, diags, ok) = match Ruleset::from_path_with(f, &super::load_options(f)) {
            Ok(r) => (r.name().to_string(), r.text().to_string(), all_warnings(&r), true),
            Err(e) => (e.name, e.text, e.diagnostics, false),
        };
        failed |= !ok;
        let diagnostics = super::capped(&diags).iter().map(|d| error_info(d, &name, &text)).collect();
        out.push(FileCheck { file: name, ok, diagnostics });
    }
    super::json::print(&CheckDoc { mettle: Meta::default(), files: out });
    u8::from(failed)
}

pub fn export(file: &Path) -> u8 {
    let Some(r) = load(file) else { return 1 };
    let outline = match mettle::export::outline(&r) {
        serde_json::Value::Object(m) => m,
        _ => serde_json::Map::new(),
    };
    super::json::print(&super::json::ExportDoc { mettle: super::json::Meta::default(), outline });
    0
}

/// Reads `NAME=VALUE` given with `flag` for a value of `ty` (numbers, yes/no, or a name of the type).
/// `known` lists the names that may be given, `what` says what they are ("input of check `morale`").
pub(super) fn parse_assignment(
    p: &Program,
    flag: &str,
    s: &str,
    known: &[(&str, &Ty)],
    what: &str,
) -> Result<(String, Value), String> {
    let Some((name, value)) = s.split_once('=') else {
        return Err(format!("`{flag} {s}` needs the form NAME=VALUE, e.g. `{flag} spi=3`"));
    };
    let (name, value) = (name.trim(), value.trim());
    let Some(ty) = known.iter().find(|(n, _)| *n == name).map(|(_, t)| (*t).clone()) else {
        let names: Vec<&str> = known.iter().map(|(n, _)| *n).collect();
        return Err(format!("there is no {what} called `{name}`; {}", suggest(name, what, &names)));
    };
    let v = match (Some(ty), value) {
        (Some(Ty::Flag), "yes" | "true" | "on") => Value::Bool(true),
        (Some(Ty::Flag), "no" | "false" | "off") => Value::Bool(false),
        (Some(Ty::Flag), _) => return Err(format!("`{name}` is yes/no, not `{value}`")),
        (Some(Ty::Name(set)), v) => {
            let names = &p.sets[set as usize].names;
            match names.iter().position(|n| n == v) {
                Some(i) => Value::Name { set, index: i as u32 },
                None => return Err(format!("`{name}` must be one of {}, not `{v}`", names.join(", "))),
            }
        }
        // Data is written as in a ruleset (`{enemies: [{name: "ranger", distance: 8}]}`), or as JSON.
        (Some(Ty::Data | Ty::Shape(_)), v) => {
            let parsed = mettle::internals::syntax::parse_repl(v);
            match parsed {
                Ok(mettle::internals::syntax::ReplInput::Expr(mettle::internals::ast::Expr {
                    kind: mettle::internals::ast::ExprKind::Data(d),
                    ..
                })) => Value::Data(std::sync::Arc::new(d)),
                other => match serde_json::from_str(v) {
                    Ok(d) => Value::Data(std::sync::Arc::new(d)),
                    Err(_) => {
                        // Data that is too deep is refused for what it is, not for its form.
                        let deep = other
                            .err()
                            .into_iter()
                            .flatten()
                            .find(|d| d.is(mettle::diagnostics::Code::TooDeep))
                            .map(|d| format!("`{name}` is nested too deep: {}", d.message));
                        return Err(deep.unwrap_or_else(|| format!(
                            "`{name}` is data: write it as in a ruleset, e.g. `{name}={{enemies: [{{name: \"ranger\", distance: 8}}]}}`"
                        )));
                    }
                },
            }
        }
        (Some(Ty::Entity(_)), _) => {
            return Err(format!("`{name}` names another entity, which `{flag}` cannot give"));
        }
        (_, v) => match v.parse::<i64>() {
            Ok(i) => Value::Int(i),
            Err(_) => return Err(format!("`{name}` must be a whole number, not `{v}`")),
        },
    };
    Ok((name.to_string(), v))
}

/// A check ready to roll from the command line: the ruleset, a session, the stand-in who makes the
/// check (if it is made by someone) and the inputs given with `--set`.
pub(super) struct Rolling {
    pub rules: Ruleset,
    pub session: Session,
    pub subject: Option<u32>,
    /// Who the stand-in is, in words: its kind and every attribute given with `--with`.
    pub stand_in: Option<String>,
    pub inputs: Vec<(String, Value)>,
    /// The stand-in's attributes given with `--with`.
    pub with: Vec<(String, Value)>,
}

/// Named values as the library takes them.
pub(super) fn refs(values: &[(String, Value)]) -> Vec<(&str, Value)> {
    values.iter().map(|(n, v)| (n.as_str(), v.clone())).collect()
}

/// Loads `file` and sets up check `check` for rolling: the `--set` inputs and, for a check made by
/// someone, a stand-in of that kind with the `--with` attributes. Errors are printed; the exit code
/// is returned.
pub(super) fn rolling(
    file: &Path,
    check: &str,
    set: &[String],
    with: &[String],
    seed: u64,
) -> Result<Rolling, u8> {
    let Some(r) = load(file) else { return Err(1) };
    let p = r.program();
    let Some(decl) = p.checks.iter().find(|c| c.name == check) else {
        let names: Vec<&str> = p.checks.iter().map(|c| c.name.as_str()).collect();
        let help = suggest(check, "check", &names);
        super::json::fail(
            "mettle::cli::unknown_check",
            &format!("there is no check called `{check}`"),
            Some(&help),
        );
        return Err(2);
    };
    let mut inputs = vec![];
    let known: Vec<(&str, &Ty)> = decl.inputs.iter().map(|i| (i.field.name.as_str(), &i.field.ty)).collect();
    for s in set {
        match parse_assignment(p, "--set", s, &known, &format!("input of check `{check}`")) {
            Ok(v) => inputs.push(v),
            Err(e) => {
                super::json::fail("mettle::cli::bad_value", &e, None);
                return Err(2);
            }
        }
    }
    let mut session = Session::new(&r, seed);
    // A check made by someone is rolled for a stand-in of that kind: its attributes are the defaults,
    // or what `--with` gives, and the outcome's effects show what would happen to it.
    let mut attrs = vec![];
    match decl.subject.map(|k| &p.kinds[k as usize]) {
        Some(kind) => {
            // Its attributes, and those of the stand-ins its attributes naming other entities get
            // (`opponent.mp`).
            let mut names: Vec<(String, &Ty)> = kind.fields.iter().map(|f| (f.name.clone(), &f.ty)).collect();
            for f in &kind.fields {
                if let Ty::Entity(other) = f.ty {
                    for g in &p.kinds[other as usize].fields {
                        if !matches!(g.ty, Ty::Entity(_)) {
                            names.push((format!("{}.{}", f.name, g.name), &g.ty));
                        }
                    }
                }
            }
            let known: Vec<(&str, &Ty)> = names.iter().map(|(n, t)| (n.as_str(), *t)).collect();
            for s in with {
                match parse_assignment(p, "--with", s, &known, &format!("attribute of a {}", kind.name)) {
                    Ok(v) => attrs.push(v),
                    Err(e) => {
                        super::json::fail("mettle::cli::bad_value", &e, None);
                        return Err(2);
                    }
                }
            }
        }
        None if !with.is_empty() => {
            super::json::fail(
                "mettle::cli::no_subject",
                &format!("check `{check}` is not made by anyone, so `--with` has nothing to set"),
                None,
            );
            return Err(2);
        }
        None => {}
    }
    let (who, described) = match mettle::odds::stand_in(&mut session, check, &attrs) {
        Ok(Some((id, words))) => (Some(id), Some(words)),
        Ok(None) => (None, None),
        Err(d) => {
            super::json::fail(&d.code, &d.message, d.help.as_deref());
            return Err(2);
        }
    };
    Ok(Rolling { rules: r.clone(), session, subject: who, stand_in: described, inputs, with: attrs })
}

pub fn roll(file: &Path, check: &str, set: &[String], with: &[String], seed: u64, json: bool) -> u8 {
    let mut rolling = match rolling(file, check, set, with, seed) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let refs = refs(&rolling.inputs);
    // The command line's session has no chooser: a roll always gives its result.
    match rolling.session.roll_for(check, rolling.subject, &refs).map(|done| done.rolled) {
        Ok(Some(result)) => {
            if json {
                super::json::print(&super::json::RollDoc {
                    mettle: super::json::Meta::default(),
                    seed,
                    rolled_by: rolling.stand_in.clone(),
                    result: mettle::wire::check(&rolling.session, &result),
                });
            } else {
                outln!("seed {seed}");
                if let Some(who) = &rolling.stand_in {
                    outln!("rolled by {who}");
                }
                out!("{}", mettle::session::render_log(rolling.session.log(), rolling.rules.text()));
            }
            0
        }
        Ok(None) => 1,
        Err(d) => {
            runtime_error(&rolling.rules, &d);
            1
        }
    }
}

pub fn play(file: &Path, scenario: &str, seed: u64, json: bool, verbose: bool) -> u8 {
    let Some(r) = load(file) else { return 1 };
    let mut session = Session::new(&r, seed);
    let result = session.run_scenario(scenario);
    // A scenario that fails is undone; its log still shows how far it got.
    let log = if result.is_err() { session.undone_log() } else { session.log() };
    if json {
        super::json::print(&super::json::PlayDoc {
            mettle: super::json::Meta::default(),
            scenario: scenario.to_string(),
            seed,
            ok: result.as_ref().is_ok_and(|r| r.failures.is_empty()),
            log: mettle::wire::log(&session, log),
            over: mettle::wire::state(&session).over,
        });
    } else {
        outln!("scenario {scenario}, seed {seed}");
        if verbose {
            out!("{}", mettle::session::render_log_verbose(log, r.text()));
        } else {
            out!("{}", mettle::session::render_log(log, r.text()));
        }
        if let Some(over) = session.state().over() {
            outln!(
                "result: {}{}",
                over.result,
                over.winner.as_ref().map(|w| format!(" for {w}")).unwrap_or_default()
            );
        }
    }
    match result {
        Ok(rep) if rep.failures.is_empty() => 0,
        Ok(_) => 1,
        Err(d) => {
            runtime_error(&r, &d);
            1
        }
    }
}

fn collect(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = vec![];
    for p in paths {
        if p.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(p)
                .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            files.sort();
            out.extend(files.into_iter().filter(|f| f.extension().is_some_and(|e| e == "mettle")));
        } else {
            out.push(p.clone());
        }
    }
    out
}

pub fn test(paths: &[PathBuf], seed: u64) -> u8 {
    let files = collect(paths);
    let (mut passed, mut failed, mut unloaded) = (0usize, 0usize, 0usize);
    if files.is_empty() {
        eprintln!(
            "error: no .mettle files found in {}",
            paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        );
        return 2;
    }
    // The whole run's work is held to one budget of steps, and Ctrl-C stops it between scenarios (or
    // in one, undone): what was played is summed up, then what stopped it is said.
    let limit = super::budget().total_steps;
    let stop = super::interrupted();
    let start = mettle::budget::steps_spent();
    let mut stopped: Option<(mettle::Diagnostic, u8)> = None;
    let total_files = files.len();
    'files: for (nth, f) in files.into_iter().enumerate() {
        // A file that does not load is its own kind of failure, not a failed scenario.
        let Some(r) = load(&f) else {
            outln!("LOAD ERROR  {} (see the errors above)", f.display());
            unloaded += 1;
            continue;
        };
        for sc in &r.program().scenarios {
            let done =
                || format!("{passed} passed, {failed} failed, stopped in file {} of {total_files}", nth + 1);
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                let d = mettle::Diagnostic::plain(
                    "cli::interrupted",
                    format!("the tests were stopped ({})", done()),
                )
                .with_help("run them again to finish; the scenarios not played were not counted");
                stopped = Some((d, super::INTERRUPTED));
                break 'files;
            }
            let spent = mettle::budget::steps_spent().wrapping_sub(start);
            if spent > limit {
                stopped = Some((mettle::budget::over_total_steps("the tests", spent, limit, &done()), 1));
                break 'files;
            }
            let mut session = Session::new(&r, seed);
            session.set_cancel_flag(stop.clone());
            match session.run_scenario(&sc.name) {
                Ok(rep) if rep.failures.is_empty() => {
                    let n = rep.passed;
                    outln!(
                        "ok      {} :: {} ({n} expectation{})",
                        r.name(),
                        sc.name,
                        if n == 1 { "" } else { "s" }
                    );
                    leftovers(&session);
                    passed += 1;
                }
                Ok(rep) => {
                    outln!("FAILED  {} :: {}", r.name(), sc.name);
                    out!("{}", indent(&mettle::session::render_log(session.log(), r.text())));
                    for fl in &rep.failures {
                        if let mettle::LogEntry::Expect { text, found, message, .. } = fl {
                            outln!(
                                "  failed: expect {text}{}{}",
                                found.as_ref().map(|f| format!(" ({f})")).unwrap_or_default(),
                                message.as_ref().map(|m| format!(": {m}")).unwrap_or_default()
                            );
                        }
                    }
                    failed += 1;
                }
                // Stopped by Ctrl-C: not a failure; said once the loop stops.
                Err(_) if stop.load(std::sync::atomic::Ordering::Relaxed) => continue,
                Err(d) => {
                    outln!("FAILED  {} :: {} (stopped by an error)", r.name(), sc.name);
                    out!("{}", indent(&mettle::session::render_log(session.log(), r.text())));
                    runtime_error(&r, &d);
                    failed += 1;
                }
            }
        }
    }
    if let Some((d, code)) = stopped {
        super::json::stopped(&d);
        return code;
    }
    if unloaded > 0 {
        outln!(
            "{passed} passed, {failed} failed, {unloaded} file{} did not load",
            if unloaded == 1 { "" } else { "s" }
        );
    } else {
        outln!("{passed} passed, {failed} failed");
    }
    u8::from(failed > 0 || unloaded > 0)
}

/// Warns of dice a scenario forced but never rolled, and answers it gave that no choice took: the
/// scenario probably does not do what its author thinks.
fn leftovers(s: &Session) {
    let st = s.state();
    let faces: Vec<String> = st.forced().map(|f| f.to_string()).collect();
    if !faces.is_empty() {
        let n = faces.len();
        outln!(
            "        warning: {n} forced {} never rolled ({}); `expect no dice waiting` checks for this",
            if n == 1 { "die was" } else { "dice were" },
            faces.join(", ")
        );
    }
    let p = s.ruleset().program();
    for (c, v) in mettle::internals::waiting_answers(st) {
        outln!(
            "        warning: the answer `{} = {}` was never asked for",
            p.choices.get(*c as usize).map_or("?", |c| c.name.as_str()),
            s.show(v)
        );
    }
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}
