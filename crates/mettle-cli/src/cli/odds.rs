//! `mettle odds FILE CHECK`: the exact chance of every outcome of a check, with sweeps over inputs;
//! and the rendering every odds answer shares (text with bars, JSON, an SVG chart).

use super::commands::{Rolling, refs, rolling, runtime_error};
use super::plot;
use mettle::internals::odds_text::{bar, chance_percent, exact_text, shown, sweep_text};
pub use mettle::internals::odds_text::{dist_rows, effect_cells, effect_columns, report_text};
use mettle::odds::{Report, Sweep, Swept};
use std::path::{Path, PathBuf};

/// The command line of `mettle odds` for a check.
pub struct Args {
    pub file: PathBuf,
    pub check: String,
    pub set: Vec<String>,
    pub with: Vec<String>,
    pub sweep: Vec<String>,
    /// House-rule options to run through every reading of (`--option-sweep NAME`).
    pub option_sweep: Vec<String>,
    /// Outcomes added up under one name: `NAME=OUTCOME,OUTCOME…`.
    pub group: Vec<String>,
    pub json: bool,
    pub plot: Option<PathBuf>,
    /// The outcome or group a heat map of a sweep over two inputs shows.
    pub plot_of: Option<String>,
    pub seed: u64,
}

/// Runs `mettle odds` for a check.
pub fn run(args: &Args) -> u8 {
    let mut r = match rolling(&args.file, &args.check, &args.set, &args.with, args.seed) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let specs: Vec<&str> = args.sweep.iter().map(String::as_str).collect();
    let options: Vec<&str> = args.option_sweep.iter().map(String::as_str).collect();
    let sweeps = match mettle::odds::sweeps(&r.rules, &args.check, &specs, &options) {
        Ok(s) => s,
        Err(d) => {
            super::json::fail(&d.code, &d.message, d.help.as_deref());
            return 2;
        }
    };
    if sweeps.is_empty() {
        let inputs = refs(&r.inputs);
        return match mettle::odds::ask(&mut r.session, &args.check, r.subject, &inputs, args.seed) {
            Ok(mut report) => {
                if let Some(who) = &r.stand_in {
                    report.question.push_str(&format!(" (made by {who})"));
                }
                let groups = match groups_of(&report, &args.group) {
                    Ok(g) => g,
                    Err(e) => {
                        super::json::fail("mettle::cli::bad_group", &e, None);
                        return 2;
                    }
                };
                print_grouped(&report, &groups, args.json, args.plot.as_deref())
            }
            Err(d) => {
                runtime_error(&r.rules, &d);
                1
            }
        };
    }
    let rows = mettle::odds::sweep(&mut r.session, &args.check, &r.with, &r.inputs, &sweeps, args.seed)
        .map(|rows| rows.into_iter().map(|row| (row.set, row.report)).collect::<Vec<Row>>())
        .map_err(|d| {
            runtime_error(&r.rules, &d);
            1
        });
    match rows {
        Ok(rows) => {
            let mut grouped = vec![];
            for (_, rep) in &rows {
                match groups_of(rep, &args.group) {
                    Ok(g) => grouped.push(g),
                    Err(e) => {
                        super::json::fail("mettle::cli::bad_group", &e, None);
                        return 2;
                    }
                }
            }
            print_sweep(
                &r,
                &args.check,
                &sweeps,
                &rows,
                &grouped,
                args.json,
                args.plot.as_deref(),
                args.plot_of.as_deref(),
            )
        }
        Err(code) => code,
    }
}

/// `mettle odds FILE --scenario NAME [--report EXPR,…]`: the exact end states of a scenario, or an
/// estimate saying why (`mettle::odds::scenario`); with `--report`, each row is one set of those
/// values at its end (`mettle::odds::with_report`), whose errors point into the typed text.
pub fn scenario(
    file: &Path,
    name: &str,
    report: Option<&str>,
    json: bool,
    plot: Option<&Path>,
    seed: u64,
) -> u8 {
    let Some(r) = super::commands::load(file) else { return 1 };
    let r = match report {
        None => r,
        Some(items) => match mettle::odds::with_report(&r, name, items) {
            Ok(r) => r,
            Err(diags) => {
                eprint!("{}", super::commands::render(&diags, "--report", items));
                return 2;
            }
        },
    };
    match mettle::odds::scenario(&r, name, seed) {
        Ok(report) => print_report(&report, json, plot),
        Err(d) => {
            runtime_error(&r, &d);
            2
        }
    }
}

// ---------------------------------------------------------------- one report

/// Prints one report: text with bars, or JSON with `--json`; `--plot` also writes an SVG chart.
pub fn print_report(report: &Report, json: bool, plot: Option<&Path>) -> u8 {
    print_grouped(report, &[], json, plot)
}

/// Reads one `--group NAME=OUTCOME,OUTCOME…` value: the group's name and its members (`mettle odds`
/// and `mettle sim --check` alike).
pub fn group_spec(spec: &str) -> Result<(&str, Vec<&str>), String> {
    let Some((name, members)) = spec.split_once('=') else {
        return Err(format!(
            "`--group {spec}` needs NAME=OUTCOME,OUTCOME…, e.g. `--group pass=holds,inspired`"
        ));
    };
    let members: Vec<&str> = members.split(',').map(str::trim).filter(|m| !m.is_empty()).collect();
    if name.trim().is_empty() || members.is_empty() {
        return Err(format!("`--group {spec}` needs a name and at least one outcome"));
    }
    Ok((name.trim(), members))
}

/// Reads `--group NAME=OUTCOME,OUTCOME…` values and adds up each group in `report`.
fn groups_of(report: &Report, specs: &[String]) -> Result<Vec<mettle::odds::OutcomeOdds>, String> {
    let given: Vec<mettle::odds::OutcomeOdds> = specs
        .iter()
        .map(|spec| {
            let (name, members) = group_spec(spec)?;
            report.group(name, &members)
        })
        .collect::<Result<_, _>>()?;
    // The check's own groups first; one given on the command line under the same name replaces it.
    let mut all: Vec<mettle::odds::OutcomeOdds> =
        report.groups.iter().filter(|g| !given.iter().any(|o| o.name == g.name)).cloned().collect();
    all.extend(given);
    Ok(all)
}

/// Prints one report with its groups: text with bars, or JSON with `--json`; `--plot` also writes
/// an SVG chart.
fn print_grouped(
    report: &Report,
    groups: &[mettle::odds::OutcomeOdds],
    json: bool,
    plot: Option<&Path>,
) -> u8 {
    if json {
        super::json::print(&super::json::OddsDoc {
            mettle: super::json::Meta::default(),
            report: mettle::wire::odds(report),
            groups: groups.iter().map(super::json::Group::of).collect(),
        });
    } else {
        let text = report_text(report);
        if groups.is_empty() {
            out!("{text}");
        } else {
            // The groups go right under the outcomes, before the distributions.
            let cut = text.find("\n\n").and_then(|i| text[i + 2..].find("\n\n").map(|j| i + 2 + j + 1));
            let (head, tail) = text.split_at(cut.unwrap_or(text.len()));
            out!("{head}");
            let width = groups.iter().map(|g| shown(&g.name).chars().count()).max().unwrap_or(0).max(7);
            outln!("\n  {:width$}  {:>8}  exact", "group", "chance");
            for g in groups {
                outln!(
                    "  {:width$}  {:>8}  {}  {}",
                    shown(&g.name),
                    chance_percent(&g.chance),
                    exact_text(&g.chance),
                    bar(g.chance.value(), 40)
                );
            }
            out!("{tail}");
        }
    }
    match plot {
        Some(path) => write_plot(path, &plot::report(report, groups)),
        None => 0,
    }
}

fn write_plot(path: &Path, svg: &str) -> u8 {
    match super::write_file(path, mettle::internals::files::Kind::Plot, svg.as_bytes()) {
        Ok(()) => {
            // Under `--json`, standard error carries errors and warnings only; the status says it worked.
            if !super::json::on() {
                eprintln!("chart written to {}", mettle::text::visible(&path.display().to_string()));
            }
            0
        }
        Err(d) => {
            eprint!("{}", super::commands::render(&[d], "", ""));
            1
        }
    }
}

// ---------------------------------------------------------------- sweeps

use mettle::internals::odds_text::Row;

#[allow(clippy::too_many_arguments, reason = "one call site, each argument a different part of the answer")]
fn print_sweep(
    r: &Rolling,
    check: &str,
    sweeps: &[Sweep],
    rows: &[Row],
    groups: &[Vec<mettle::odds::OutcomeOdds>],
    json: bool,
    plot: Option<&Path>,
    plot_of: Option<&str>,
) -> u8 {
    let mut question = mettle::odds::sweep_question(&r.session, check, &r.inputs, sweeps);
    question.push_str(&mettle::odds::sweep_defaults(rows.iter().map(|(_, r)| r)));
    if json {
        super::json::print(&super::json::SweepDoc {
            mettle: super::json::Meta::default(),
            question: question.clone(),
            check: check.to_string(),
            rows: rows
                .iter()
                .zip(groups)
                .map(|((set, rep), g)| super::json::SweepRow {
                    set: set.iter().map(|(n, v)| (n.clone(), mettle::wire::value(&r.session, v))).collect(),
                    report: mettle::wire::odds(rep),
                    groups: g.iter().map(super::json::Group::of).collect(),
                })
                .collect(),
        });
    } else {
        out!("{}", sweep_text(&question, rows, groups, &r.session));
    }
    match plot {
        Some(path) => {
            let axes: Vec<plot::Axis> = sweeps
                .iter()
                .map(|s| plot::Axis {
                    name: if s.target == Swept::Option { s.label.clone() } else { s.name.clone() },
                    values: s.values.iter().map(|v| r.session.show(v)).collect(),
                })
                .collect();
            // The effects' chances are drawn as the groups are, after them.
            let columns = effect_columns(rows.iter().map(|(_, rep)| rep));
            let series: Vec<Vec<mettle::odds::OutcomeOdds>> = rows
                .iter()
                .zip(groups)
                .map(|((_, rep), g)| g.iter().cloned().chain(effect_cells(rep, &columns)).collect())
                .collect();
            let drawn: Vec<(&Report, &[mettle::odds::OutcomeOdds])> =
                rows.iter().zip(&series).map(|((_, rep), g)| (rep, g.as_slice())).collect();
            match plot::sweep(&question, &axes, &drawn, plot_of) {
                Ok(svg) => write_plot(path, &svg),
                Err(e) => {
                    super::json::fail("mettle::cli::bad_plot", &e, None);
                    2
                }
            }
        }
        None => 0,
    }
}

// ---------------------------------------------------------------- the REPL's `:plot`

/// The REPL's last odds as an SVG chart, as `--plot` draws a report or a sweep.
fn repl_svg(odds: &mettle::internals::repl::LastOdds) -> Result<String, String> {
    use mettle::internals::repl::LastOdds;
    match odds {
        LastOdds::Report(rep) => Ok(plot::report(rep, &rep.groups)),
        LastOdds::Sweep { question, axes, rows } => {
            let axes: Vec<plot::Axis> = axes
                .iter()
                .map(|(name, values)| plot::Axis { name: name.clone(), values: values.clone() })
                .collect();
            let columns = effect_columns(rows.iter().map(|(_, rep)| rep));
            let series: Vec<Vec<mettle::odds::OutcomeOdds>> = rows
                .iter()
                .map(|(_, rep)| rep.groups.iter().cloned().chain(effect_cells(rep, &columns)).collect())
                .collect();
            let drawn: Vec<(&Report, &[mettle::odds::OutcomeOdds])> =
                rows.iter().zip(&series).map(|((_, rep), g)| (rep, g.as_slice())).collect();
            plot::sweep(question, &axes, &drawn, None)
        }
    }
}

/// Draws the REPL's last odds into `path` (`:plot FILE.svg`): what was written, or the coded error.
pub(crate) fn repl_plot(
    odds: &mettle::internals::repl::LastOdds,
    path: &Path,
) -> Result<String, mettle::Diagnostic> {
    let svg = repl_svg(odds).map_err(|e| {
        mettle::Diagnostic::plain("cli::bad_plot", e)
            .with_help("plot a report, or a sweep over one or two inputs")
    })?;
    super::write_file(path, mettle::internals::files::Kind::Plot, svg.as_bytes())?;
    Ok(format!("chart written to {}", mettle::text::visible(&path.display().to_string())))
}
