//! `mettle sim`: play a scenario or roll a check many times and report the frequencies.

use super::commands::{load, parse_assignment, runtime_error};
use mettle::internals::diagnostics::suggest;
use mettle::internals::program::Ty;
use mettle::internals::{RulesetInternals as _, SessionInternals as _};
use mettle::sim::{Distribution, Options, Report, Target};
use mettle::{Ruleset, Value};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

/// The command line of `mettle sim`.
pub struct Args {
    pub file: PathBuf,
    pub scenario: Option<String>,
    pub check: Option<String>,
    pub set: Vec<String>,
    pub with: Vec<String>,
    pub runs: u64,
    pub seed: u64,
    pub threads: Option<usize>,
    pub json: bool,
    /// Outcomes of the check added up under one name: `NAME=OUTCOME,OUTCOME…` (as `mettle odds`).
    pub group: Vec<String>,
}

/// Runs `mettle sim`: exit 0, or 1 if the ruleset does not load or some runs stopped with an error, or 2
/// for a mistake on the command line.
pub fn run(args: &Args) -> u8 {
    if args.runs == 0 {
        super::json::fail("mettle::cli::bad_runs", "`--runs` must be at least 1", None);
        return 2;
    }
    if args.threads == Some(0) {
        super::json::fail(
            "mettle::cli::bad_threads",
            "`--threads` must be at least 1",
            Some("leave it out for one per core"),
        );
        return 2;
    }
    if let Some(n) = args.threads.filter(|n| *n > mettle::sim::MAX_THREADS) {
        super::json::fail(
            "mettle::cli::bad_threads",
            &format!("`--threads` may be at most {}, not {n}", mettle::sim::MAX_THREADS),
            Some("leave it out for one per core"),
        );
        return 2;
    }
    let Some(r) = load(&args.file) else { return 1 };
    let target = match target(&r, args) {
        Ok(t) => t,
        Err(e) => {
            super::json::fail("mettle::cli::bad_target", &e, None);
            return 2;
        }
    };
    // The groups are read before the runs, so that a mistake in one costs none.
    let nothing = Report {
        runs: 0,
        seed: args.seed,
        results: vec![],
        errors: 0,
        first_error: None,
        failed_expectations: 0,
        records: vec![],
    };
    let mut groups = vec![];
    for spec in &args.group {
        match super::odds::group_spec(spec).and_then(|(name, members)| {
            mettle::wire::sim_group(&r, &target, &nothing, name, &members).map(|_| (name, members))
        }) {
            Ok(g) => groups.push(g),
            Err(e) => {
                super::json::fail("mettle::cli::bad_group", &e, None);
                return 2;
            }
        }
    }
    let opts = Options { runs: args.runs, seed: args.seed, threads: args.threads.unwrap_or(0) };
    // Under `--json`, standard error carries JSON documents only.
    let bar = (!args.json && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(args.runs);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} runs, {per_sec}, {eta} left")
        {
            bar.set_style(style);
        }
        bar
    });
    let progress = |done: u64| {
        if let Some(b) = &bar {
            b.set_position(done);
        }
    };
    let start = Instant::now();
    let stop = super::interrupted();
    let simulated = mettle::sim::simulate_with(&r, &target, &opts, &progress, &stop);
    let secs = start.elapsed().as_secs_f64();
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let report = match simulated {
        Ok(rep) => rep,
        // Stopped by Ctrl-C, or over the whole simulation's budget of steps: said, with the runs done.
        Err(d) if stop.load(std::sync::atomic::Ordering::Relaxed) => {
            super::json::stopped(&d);
            return super::INTERRUPTED;
        }
        Err(d) if d.is(mettle::diagnostics::Code::TotalSteps) => {
            super::json::stopped(&d);
            return 1;
        }
        Err(d) => {
            super::json::fail(&d.code, &d.message, d.help.as_deref());
            return 2;
        }
    };
    let mut doc = mettle::wire::SimDoc::new(&r, &target, &report);
    // Groups given on the command line follow the check's own; one of the same name replaces it.
    for (name, members) in &groups {
        if let Ok(g) = mettle::wire::sim_group(&r, &target, &report, name, members) {
            doc.groups.retain(|o| o.group != g.group);
            doc.groups.push(g);
        }
    }
    if args.json {
        super::json::print(&doc);
    } else {
        let what = match &target {
            Target::Scenario(s) => format!("scenario {s}"),
            Target::Check { name, .. } => format!("check {name}"),
        };
        outln!(
            "{what}: {} runs, seed {} ({secs:.2} s, {:.0} runs/s)",
            report.runs,
            report.seed,
            report.runs as f64 / secs.max(1e-9)
        );
        out!("{}", table(&report, &doc.groups));
    }
    if let Target::Scenario(name) = &target
        && leaves_nothing_to_chance(&r, name)
    {
        super::json::warn(
            "mettle::sim::same_every_run",
            &format!(
                "every run of scenario `{name}` is the same: its `dice` lines force every die it rolls, so the {} \
                 runs repeat one game",
                report.runs
            ),
            Some(&format!(
                "take out the `dice` lines (or some of them) to let the dice fall, or see the one game with \
                 `mettle play {} {name}`",
                args.file.display()
            )),
        );
    }
    if let Some(d) = &report.first_error {
        if !super::json::on() {
            eprintln!(
                "{} run{} stopped with an error; the first:",
                report.errors,
                if report.errors == 1 { "" } else { "s" }
            );
        }
        runtime_error(&r, d);
        return 1;
    }
    0
}

/// Whether a scenario plays the same whatever the seed: one play that finishes without drawing on
/// the dice generator (every die it rolls is forced, and nothing else is left to chance).
fn leaves_nothing_to_chance(r: &Ruleset, scenario: &str) -> bool {
    let mut s = mettle::Session::new(r, 0);
    let before = s.generator_position();
    s.run_scenario(scenario).is_ok() && s.generator_position() == before
}

/// The scenario, or the check with its inputs and stand-in, from the command line.
fn target(r: &Ruleset, args: &Args) -> Result<Target, String> {
    let p = r.program();
    let Some(check) = &args.check else {
        let name = args.scenario.clone().unwrap_or_default();
        if !p.scenarios.iter().any(|s| s.name == name) {
            let names: Vec<&str> = p.scenarios.iter().map(|s| s.name.as_str()).collect();
            return Err(format!(
                "there is no scenario called `{name}`; {}",
                suggest(&name, "scenario", &names)
            ));
        }
        return Ok(Target::Scenario(name));
    };
    let Some(decl) = p.checks.iter().find(|c| c.name == *check) else {
        let names: Vec<&str> = p.checks.iter().map(|c| c.name.as_str()).collect();
        return Err(format!("there is no check called `{check}`; {}", suggest(check, "check", &names)));
    };
    let known: Vec<(&str, &Ty)> = decl.inputs.iter().map(|i| (i.field.name.as_str(), &i.field.ty)).collect();
    let inputs: Vec<(String, Value)> = args
        .set
        .iter()
        .map(|s| parse_assignment(p, "--set", s, &known, &format!("input of check `{check}`")))
        .collect::<Result<_, _>>()?;
    let with = match decl.subject.map(|k| &p.kinds[k as usize]) {
        Some(kind) => {
            let known: Vec<(&str, &Ty)> = kind.fields.iter().map(|f| (f.name.as_str(), &f.ty)).collect();
            args.with
                .iter()
                .map(|s| parse_assignment(p, "--with", s, &known, &format!("attribute of a {}", kind.name)))
                .collect::<Result<_, _>>()?
        }
        None if !args.with.is_empty() => {
            return Err(format!("check `{check}` is not made by anyone, so `--with` has nothing to set"));
        }
        None => vec![],
    };
    Ok(Target::Check { name: check.clone(), inputs, with })
}

fn percent(x: f64) -> String {
    format!("{:.2}%", x * 100.0)
}

fn table(rep: &Report, groups: &[mettle::wire::SimGroup]) -> String {
    let mut rows: Vec<[String; 4]> =
        vec![["result".into(), "runs".into(), "%".into(), "95% interval".into()]];
    for f in &rep.results {
        rows.push([
            f.name(),
            f.count.to_string(),
            percent(f.share),
            format!("{} – {}", percent(f.low), percent(f.high)),
        ]);
    }
    for g in groups {
        rows.push([
            format!("[{}]", g.group),
            g.count.to_string(),
            percent(g.share),
            format!("{} – {}", percent(g.low), percent(g.high)),
        ]);
    }
    if rep.errors > 0 {
        let (low, high) = mettle::sim::wilson(rep.errors, rep.runs);
        rows.push([
            "(stopped by an error)".into(),
            rep.errors.to_string(),
            percent(rep.errors as f64 / rep.runs as f64),
            format!("{} – {}", percent(low), percent(high)),
        ]);
    }

    // Labels are escaped before the columns are measured, so that they line up as shown.
    for r in rows.iter_mut() {
        r[0] = mettle::text::visible(&r[0]).into_owned();
    }
    let w: Vec<usize> =
        (0..4).map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0)).collect();
    let mut out = String::new();
    for r in &rows {
        let line =
            format!("{:<a$}  {:>b$}  {:>c$}  {}", r[0], r[1], r[2], r[3], a = w[0], b = w[1], c = w[2]);
        out.push_str(line.trim_end());
        out.push('\n');
    }
    if rep.failed_expectations > 0 {
        out.push_str(&format!("an expectation failed in {} runs\n", rep.failed_expectations));
    }
    if !rep.records.is_empty() {
        out.push_str("\nrecorded\n");
        let labels: Vec<String> =
            rep.records.iter().map(|d| mettle::text::visible(&d.label).into_owned()).collect();
        let lw = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        for (d, label) in rep.records.iter().zip(&labels) {
            out.push_str(&format!(
                "  {:<lw$}  mean {:.2}  min {}  max {}  {}{}\n",
                label,
                d.mean,
                d.min,
                d.max,
                histogram(d),
                if d.runs < rep.runs { format!("  (in {} runs)", d.runs) } else { String::new() }
            ));
        }
    }
    out
}

/// A one-line histogram from min to max: one bar per value, or per equal bucket of values when the
/// range is wider than 40.
fn histogram(d: &Distribution) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let span = (d.max as i128 - d.min as i128 + 1) as u128;
    let cols = span.min(40) as usize;
    let mut buckets = vec![0u64; cols];
    for &mettle::sim::Count { value: v, runs: n } in &d.counts {
        let i = ((v as i128 - d.min as i128) as u128 * cols as u128 / span) as usize;
        buckets[i.min(cols - 1)] += n;
    }
    let top = buckets.iter().copied().max().unwrap_or(1).max(1);
    buckets.iter().map(|&n| if n == 0 { ' ' } else { BARS[((n * 8).div_ceil(top) - 1) as usize] }).collect()
}
