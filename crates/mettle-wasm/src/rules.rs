//! A loaded ruleset, and what is asked of it as a whole: check, roll, odds, play, test, simulate,
//! card, export. Each answer is the document the `mettle` command prints with `--json`.

use crate::{Done, Failure, Kind, json, params};
use mettle::wire::{self, Meta, error_info};
use mettle::{LoadOptions, Ruleset, Session, Value};
use serde::Deserialize;
use serde_json::{Map, Value as Json};
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

/// How to load, as the wrapper sends it (`LoadOptions` in mettle.d.ts).
#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
struct Load {
    name: Option<String>,
    scripts: Option<BTreeMap<String, String>>,
    budget: BTreeMap<String, u64>,
    limits: Limits,
    options: BTreeMap<String, String>,
}

/// Limits on script calls; each left out keeps the library's default.
#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
struct Limits {
    operations: Option<u64>,
    call_depth: Option<usize>,
    expr_depth: Option<usize>,
    string_len: Option<usize>,
    array_len: Option<usize>,
    map_len: Option<usize>,
    time_ms: Option<f64>,
    clock: Option<String>,
}

fn load_options(l: Load) -> Result<(String, LoadOptions), Failure> {
    let budget = crate::budget(&l.budget)?;
    let mut limits =
        mettle::ScriptLimits { clock: mettle::Clock::Host(crate::host_clock), ..Default::default() };
    let Limits { operations, call_depth, expr_depth, string_len, array_len, map_len, time_ms, clock } =
        l.limits;
    limits.operations = operations.unwrap_or(limits.operations);
    limits.call_depth = call_depth.unwrap_or(limits.call_depth);
    limits.expr_depth = expr_depth.unwrap_or(limits.expr_depth);
    limits.string_len = string_len.unwrap_or(limits.string_len);
    limits.array_len = array_len.unwrap_or(limits.array_len);
    limits.map_len = map_len.unwrap_or(limits.map_len);
    if let Some(ms) = time_ms {
        limits.time = std::time::Duration::from_secs_f64(ms.max(0.0) / 1000.0);
    }
    match clock.as_deref() {
        None | Some("host") => {}
        Some("off") => limits.clock = mettle::Clock::Off,
        Some(other) => {
            return Err(Failure::plain(
                Kind::Params,
                "mettle::wasm::bad_params",
                &format!("`clock` is `{other}`"),
                Some("`host` (performance.now()) or `off`"),
            ));
        }
    }
    let opts = LoadOptions {
        // No file system: a script file not given by name is refused by the library.
        scripts: Some(l.scripts.unwrap_or_default()),
        limits,
        budget,
        options: l.options.into_iter().collect(),
        ..Default::default()
    };
    Ok((l.name.unwrap_or_else(|| "ruleset.mettle".into()), opts))
}

/// A ruleset, loaded and compiled.
#[wasm_bindgen]
pub struct Rules {
    pub(crate) rules: Ruleset,
}

/// A check's arguments (`CheckArgs`): who makes it, its inputs, a stand-in's attributes.
#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
struct CheckArgs {
    #[serde(rename = "for")]
    by: Option<String>,
    inputs: Map<String, Json>,
    with: Map<String, Json>,
    seed: u64,
    dice: Vec<i64>,
}

/// A session ready to make a check: the stand-in who makes it, when someone does (made by the
/// library as the command makes it: `mettle::odds::stand_in`), who that is in words, the inputs and
/// the stand-in's attributes, read by their declared types.
struct Ready {
    session: Session,
    by: Option<u32>,
    who: Option<String>,
    inputs: Vec<(String, Value)>,
    with: Vec<(String, Value)>,
}

impl Rules {
    fn ready(&self, check: &str, a: &CheckArgs) -> Result<Ready, Failure> {
        let refused = |d: mettle::Diagnostic| Failure::rules(&self.rules, &d);
        if a.by.is_some() {
            return Err(Failure::plain(
                Kind::Params,
                "mettle::wasm::no_entities",
                "a ruleset's own roll has no entities in play to name with `for`",
                Some("give the stand-in's attributes with `with`, or roll in a session"),
            ));
        }
        let mut session = Session::new(&self.rules, a.seed);
        // The kind of who makes the check, to read `with` as its attributes; a check made by no one
        // given `with` is refused by the library (`mettle::odds::no_subject`).
        let with = match self.rules.maker(check) {
            Some(kind) => wire::read(&session, wire::Fields::Attributes(kind), &a.with).map_err(refused)?,
            None => a.with.iter().map(|(n, _)| (n.clone(), Value::None)).collect(),
        };
        let inputs = wire::read(&session, wire::Fields::Inputs(check), &a.inputs).map_err(refused)?;
        let (by, who) = match mettle::odds::stand_in(&mut session, check, &with).map_err(refused)? {
            Some((id, words)) => (Some(id), Some(words)),
            None => (None, None),
        };
        Ok(Ready { session, by, who, inputs, with })
    }
}

fn refs(inputs: &[(String, Value)]) -> Vec<(&str, Value)> {
    inputs.iter().map(|(n, v)| (n.as_str(), v.clone())).collect()
}

#[wasm_bindgen]
impl Rules {
    /// Loads `text` with the options `options` (JSON); throws every error of the file.
    pub fn load(text: &str, options: &str) -> Result<Rules, JsValue> {
        let (name, opts) = load_options(params(options)?)?;
        Ruleset::load(&name, text, &opts).map(|rules| Rules { rules }).map_err(|e| Failure::load(&e).into())
    }

    /// `mettle check --json` for one text: never throws for the ruleset's own errors.
    pub fn check(text: &str, options: &str) -> Result<String, JsValue> {
        let (name, opts) = load_options(params(options)?)?;
        let file = match Ruleset::load(&name, text, &opts) {
            Ok(r) => {
                let mut w = r.warnings().to_vec();
                w.extend(mettle::odds::unreachable(&r));
                let diagnostics = w.iter().map(|d| error_info(d, r.name(), r.text())).collect();
                wire::FileCheck { file: name, ok: true, diagnostics }
            }
            Err(e) => wire::FileCheck { file: name, ok: false, diagnostics: Failure::load(&e).errors },
        };
        Ok(json(&wire::CheckDoc { mettle: Meta::default(), files: vec![file] }))
    }

    /// The ruleset's name.
    pub fn name(&self) -> String {
        self.rules.name().to_string()
    }

    /// The ruleset's text.
    pub fn text(&self) -> String {
        self.rules.text().to_string()
    }

    /// What it holds, as `mettle serve`'s `load` says it.
    pub fn info(&self) -> String {
        json(&wire::Loaded::new(&self.rules))
    }

    /// `mettle roll FILE CHECK --json`.
    pub fn roll(&self, check: &str, args: &str) -> Result<String, JsValue> {
        let run = || -> Done {
            let a: CheckArgs = params(args)?;
            let mut r = self.ready(check, &a)?;
            r.session.force_dice(&a.dice);
            let done = r
                .session
                .roll_for(check, r.by, &refs(&r.inputs))
                .map_err(|d| Failure::rules(&self.rules, &d))?;
            let Some(result) = done.rolled else {
                return Err(Failure::plain(
                    Kind::Waiting,
                    "mettle::wasm::waiting",
                    "the roll waits on a question",
                    None,
                ));
            };
            Ok(json(&wire::RollDoc {
                mettle: Meta::default(),
                seed: a.seed,
                rolled_by: r.who,
                result: wire::check(&r.session, &result),
            }))
        };
        Ok(run()?)
    }

    /// `mettle odds FILE CHECK --json`.
    pub fn odds(&self, check: &str, args: &str) -> Result<String, JsValue> {
        let run = || -> Done {
            let a: CheckArgs = params(args)?;
            let mut r = self.ready(check, &a)?;
            let mut report = mettle::odds::ask(&mut r.session, check, r.by, &refs(&r.inputs), a.seed)
                .map_err(|d| Failure::rules(&self.rules, &d))?;
            if let Some(who) = &r.who {
                report.question.push_str(&format!(" (made by {who})"));
            }
            Ok(odds_doc(&report))
        };
        Ok(run()?)
    }

    /// `mettle odds FILE CHECK --sweep … --option-sweep … --json`: `{sweep, options, inputs, with,
    /// seed}`.
    pub fn sweep(&self, check: &str, args: &str) -> Result<String, JsValue> {
        #[derive(Deserialize, Default)]
        #[serde(default, deny_unknown_fields)]
        struct SweepArgs {
            sweep: Vec<String>,
            options: Vec<String>,
            inputs: Map<String, Json>,
            with: Map<String, Json>,
            seed: u64,
        }
        let run = || -> Done {
            let a: SweepArgs = params(args)?;
            let refused = |d: mettle::Diagnostic| Failure::rules(&self.rules, &d);
            let specs: Vec<&str> = a.sweep.iter().map(String::as_str).collect();
            let options: Vec<&str> = a.options.iter().map(String::as_str).collect();
            let sweeps = mettle::odds::sweeps(&self.rules, check, &specs, &options).map_err(refused)?;
            let c = CheckArgs { inputs: a.inputs, with: a.with, seed: a.seed, ..Default::default() };
            let mut r = self.ready(check, &c)?;
            let rows = mettle::odds::sweep(&mut r.session, check, &r.with, &r.inputs, &sweeps, a.seed)
                .map_err(refused)?;
            let mut question = mettle::odds::sweep_question(&r.session, check, &r.inputs, &sweeps);
            question.push_str(&mettle::odds::sweep_defaults(rows.iter().map(|r| &r.report)));
            Ok(json(&wire::SweepDoc::new(&r.session, check, question, &rows)))
        };
        Ok(run()?)
    }

    /// `mettle odds FILE --scenario NAME [--report EXPR,…] --json`: with `report`, each row is one
    /// set of those values at the scenario's end; its errors point into `report`.
    pub fn scenario_odds(
        &self,
        scenario: &str,
        seed: u64,
        report: Option<String>,
    ) -> Result<String, JsValue> {
        let rules = match &report {
            None => self.rules.clone(),
            Some(items) => {
                mettle::odds::with_report(&self.rules, scenario, items).map_err(|diags| Failure {
                    kind: Kind::Rules,
                    errors: diags.iter().map(|d| error_info(d, "--report", items)).collect(),
                })?
            }
        };
        let report =
            mettle::odds::scenario(&rules, scenario, seed).map_err(|d| Failure::rules(&rules, &d))?;
        Ok(odds_doc(&report))
    }

    /// `mettle play FILE SCENARIO --json`.
    pub fn play(&self, scenario: &str, seed: u64) -> String {
        json(&play(&self.rules, scenario, seed))
    }

    /// Every scenario played (`mettle test`): `{passed, failed, scenarios: [PlayDoc]}`.
    pub fn test(&self, seed: u64) -> String {
        let docs: Vec<wire::PlayDoc> = self.rules.scenarios().map(|n| play(&self.rules, n, seed)).collect();
        let passed = docs.iter().filter(|d| d.ok).count();
        json(&serde_json::json!({ "passed": passed, "failed": docs.len() - passed, "scenarios": docs }))
    }

    /// `mettle sim --json`, on one thread: `target` is `{scenario}` or `{check, inputs, with}`.
    pub fn simulate(&self, target: &str, runs: u64, seed: u64) -> Result<String, JsValue> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Target {
            scenario: Option<String>,
            check: Option<String>,
            #[serde(default)]
            inputs: Map<String, Json>,
            #[serde(default)]
            with: Map<String, Json>,
        }
        let run = || -> Done {
            let t: Target = params(target)?;
            let target = match (t.scenario, t.check) {
                (Some(s), None) => mettle::sim::Target::Scenario(s),
                (None, Some(c)) => {
                    let r =
                        self.ready(&c, &CheckArgs { inputs: t.inputs, with: t.with, ..Default::default() })?;
                    mettle::sim::Target::Check { name: c, inputs: r.inputs, with: r.with }
                }
                _ => {
                    return Err(Failure::plain(
                        Kind::Params,
                        "mettle::wasm::bad_params",
                        "`simulate` takes a `scenario` or a `check`, one of the two",
                        None,
                    ));
                }
            };
            if runs == 0 || runs > self.rules.budget().steps {
                return Err(Failure::plain(
                    Kind::Params,
                    "mettle::wasm::runs",
                    &format!(
                        "`runs` is {runs}; it must be from 1 to the budget of {} steps",
                        self.rules.budget().steps
                    ),
                    Some("ask for fewer runs, or raise the `steps` budget"),
                ));
            }
            let opts = mettle::sim::Options { runs, seed, threads: 1 };
            let report = mettle::sim::simulate(&self.rules, &target, &opts, &|_| {})
                .map_err(|d| Failure::rules(&self.rules, &d))?;
            Ok(json(&wire::SimDoc::new(&self.rules, &target, &report)))
        };
        Ok(run()?)
    }

    /// The rules card: `html` (a whole page) or `markdown`.
    pub fn card(&self, format: &str) -> Result<String, JsValue> {
        let card = mettle::card::build(&self.rules);
        match format {
            "html" => Ok(mettle::card::html::render(&card)),
            "markdown" | "md" => Ok(mettle::card::md::render(&card)),
            other => Err(Failure::plain(
                Kind::Params,
                "mettle::wasm::bad_params",
                &format!("there is no card format `{other}`"),
                Some("`html` or `markdown`"),
            )
            .into()),
        }
    }

    /// `mettle export`.
    pub fn export(&self) -> String {
        let outline = match mettle::export::outline(&self.rules) {
            Json::Object(m) => m,
            _ => Map::new(),
        };
        json(&wire::ExportDoc { mettle: Meta::default(), outline })
    }
}

/// An odds report as `mettle odds --json` prints it, without groups.
fn odds_doc(report: &mettle::odds::Report) -> String {
    json(&wire::OddsDoc { mettle: Meta::default(), report: wire::odds(report), groups: vec![] })
}

/// One scenario played, as `mettle play --json` prints it.
fn play(rules: &Ruleset, scenario: &str, seed: u64) -> wire::PlayDoc {
    let mut session = Session::new(rules, seed);
    let result = session.run_scenario(scenario);
    // A scenario that fails is undone; its log still shows how far it got.
    let log = if result.is_err() { session.undone_log() } else { session.log() };
    wire::PlayDoc {
        mettle: Meta::default(),
        scenario: scenario.to_string(),
        seed,
        ok: result.as_ref().is_ok_and(|r| r.failures.is_empty()),
        log: wire::log(&session, log),
        over: wire::state(&session).over,
    }
}
