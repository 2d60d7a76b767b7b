//! The documents mettle's front ends print and send (`mettle … --json`, `mettle serve`, the JavaScript
//! and Python packages): each carries `"mettle": { "schema": N }`, and `schemas/` is generated from them.
//! Diagnostics become [`ErrorInfo`]: code, message, help, and where, in lines and in UTF-8 and UTF-16
//! columns.

use crate::diagnostics::{Diagnostic, Level};
use serde::Serialize;
use std::collections::BTreeMap;

/// The version of every JSON document mettle prints. It goes up when a field changes meaning or goes
/// away; new fields may appear without it.
pub const SCHEMA: u32 = 1;

/// `"mettle": { "schema": N }`: which version of mettle's JSON a document is.
#[derive(Debug, Clone, Copy, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Meta {
    /// The version of the document's schema.
    pub schema: u32,
}

impl Default for Meta {
    fn default() -> Meta {
        Meta { schema: SCHEMA }
    }
}

/// Error or warning.
#[derive(Debug, Clone, Copy, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The command failed.
    Error,
    /// Something looks wrong, but the command went on.
    Warning,
}

/// Where a byte offset is: line, and column counted in UTF-8 bytes and in UTF-16 code units (all
/// from 1), with the byte range it starts.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Place {
    /// The line, from 1.
    pub line: usize,
    /// The column in bytes of UTF-8, from 1.
    pub column_utf8: usize,
    /// The column in UTF-16 code units (what editors and JavaScript count), from 1.
    pub column_utf16: usize,
}

/// A labelled span of an error.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ErrorLabel {
    /// What the label says.
    pub text: String,
    /// Whether it is the main label.
    pub primary: bool,
    /// The byte range.
    pub span: super::Span,
    /// Where the range starts.
    #[serde(flatten)]
    pub at: Place,
}

/// One error or warning.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ErrorInfo {
    /// Error or warning.
    pub severity: Severity,
    /// A stable code, `mettle::PHASE::what`.
    pub code: String,
    /// What is wrong, in one sentence.
    pub message: String,
    /// How to fix it, with a "did you mean" where there is one.
    pub help: Option<String>,
    /// The file the spans point into (the ruleset, a script file, `--dice`), when there is one.
    pub file: Option<String>,
    /// The line of the main label, from 1.
    pub line: Option<usize>,
    /// Its column in UTF-8 bytes, from 1.
    pub column_utf8: Option<usize>,
    /// Its column in UTF-16 code units, from 1.
    pub column_utf16: Option<usize>,
    /// Its byte range.
    pub span: Option<super::Span>,
    /// Every label, the main one first.
    pub labels: Vec<ErrorLabel>,
}

/// What a command prints on standard error under `--json` when it fails (and for warnings).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ErrorDoc {
    /// The schema version.
    pub mettle: Meta,
    /// The errors and warnings, in order.
    pub errors: Vec<ErrorInfo>,
}

/// Line and columns of `offset` in `text`.
pub fn place(text: &str, offset: usize) -> Place {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() + 1;
    let in_line = &before[line_start..];
    Place { line, column_utf8: in_line.len() + 1, column_utf16: in_line.encode_utf16().count() + 1 }
}

/// One diagnostic as JSON; `name` and `text` are the file its spans point into, unless the diagnostic
/// names its own (a script file).
pub fn error_info(d: &Diagnostic, name: &str, text: &str) -> ErrorInfo {
    let (file, within) = match &d.source {
        Some(f) => (f.name.as_str(), f.text.as_str()),
        None => (name, text),
    };
    let labels: Vec<ErrorLabel> = d
        .labels
        .iter()
        .map(|l| ErrorLabel {
            text: l.text.clone(),
            primary: l.primary,
            span: l.span.into(),
            at: place(within, l.span.start),
        })
        .collect();
    let main = labels.iter().find(|l| l.primary).or(labels.first());
    ErrorInfo {
        severity: match d.level {
            Level::Error => Severity::Error,
            Level::Warning => Severity::Warning,
        },
        code: d.code.clone(),
        message: d.message.clone(),
        help: d.help.clone(),
        file: (!file.is_empty()).then(|| file.to_string()),
        line: main.map(|l| l.at.line),
        column_utf8: main.map(|l| l.at.column_utf8),
        column_utf16: main.map(|l| l.at.column_utf16),
        span: main.map(|l| l.span),
        labels,
    }
}

/// An error with no place in any file.
pub fn plain_error(code: &str, message: &str, help: Option<&str>) -> ErrorInfo {
    ErrorInfo { severity: Severity::Error, ..plain_warning(code, message, help) }
}

/// A warning with no place in any file.
pub fn plain_warning(code: &str, message: &str, help: Option<&str>) -> ErrorInfo {
    ErrorInfo {
        severity: Severity::Warning,
        code: code.to_string(),
        message: message.to_string(),
        help: help.map(String::from),
        file: None,
        line: None,
        column_utf8: None,
        column_utf16: None,
        span: None,
        labels: vec![],
    }
}

// ---------------------------------------------------------------- the documents

/// `mettle check --json`: each file and its diagnostics.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CheckDoc {
    /// The schema version.
    pub mettle: Meta,
    /// Each file, in the order given.
    pub files: Vec<FileCheck>,
}

/// One file's check.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FileCheck {
    /// The file.
    pub file: String,
    /// Whether it loads (warnings allowed).
    pub ok: bool,
    /// Its errors and warnings.
    pub diagnostics: Vec<ErrorInfo>,
}

/// `mettle roll FILE CHECK --json`: the check's result, typed.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RollDoc {
    /// The schema version.
    pub mettle: Meta,
    /// The seed of the dice.
    pub seed: u64,
    /// Who rolled, when a stand-in was made for the check (`a stand-in unit, morale shaken`).
    pub rolled_by: Option<String>,
    /// The result.
    #[serde(flatten)]
    pub result: super::Check,
}

/// `mettle roll --dice EXPR --json`: the dice and the value.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DiceRollDoc {
    /// The schema version.
    pub mettle: Meta,
    /// The expression.
    pub expr: String,
    /// The seed.
    pub seed: u64,
    /// Each roll of dice in it.
    pub rolls: Vec<DiceRoll>,
    /// Its value: a number, or `true`/`false` for a comparison.
    pub value: super::Val,
}

impl DiceRollDoc {
    /// The document of `rolled`, one roll of expression `expr` with dice seeded by `seed`.
    ///
    /// ```
    /// let rolled = mettle::odds::roll_dice("2d6", &mettle::Budget::default(), 3).unwrap();
    /// let doc = serde_json::to_value(mettle::wire::DiceRollDoc::new("2d6", 3, &rolled)).unwrap();
    /// assert_eq!(doc["rolls"][0]["faces"].as_array().unwrap().len(), 2);
    /// assert_eq!(doc["value"], doc["rolls"][0]["value"]);
    /// ```
    pub fn new(expr: &str, seed: u64, rolled: &crate::odds::DiceRolls) -> DiceRollDoc {
        DiceRollDoc {
            mettle: Meta::default(),
            expr: expr.to_string(),
            seed,
            rolls: rolled
                .rolls
                .iter()
                .map(|r| DiceRoll { dice: r.dice.clone(), faces: r.faces.clone(), value: r.value })
                .collect(),
            value: match rolled.value {
                crate::Value::Bool(b) => super::Val::Flag(b),
                ref v => super::Val::Number(v.as_int().unwrap_or_default()),
            },
        }
    }
}

/// One roll of dice in an expression.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DiceRoll {
    /// The dice as written.
    pub dice: String,
    /// The faces shown.
    pub faces: Vec<i64>,
    /// Their value.
    pub value: i64,
}

/// The chance of a group of outcomes (`--group NAME=A,B`).
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Group {
    /// The group's name.
    pub group: String,
    /// The chance as a number.
    pub probability: f64,
    /// The exact chance `p/q`, or `null` for an estimate.
    pub exact: Option<String>,
    /// For an estimate: runs in the group.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hits: Option<u64>,
    /// For an estimate: all runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runs: Option<u64>,
    /// For an estimate: the 95% interval's lower end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low: Option<f64>,
    /// For an estimate: its upper end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high: Option<f64>,
}

impl Group {
    /// The group's chance as JSON.
    pub fn of(g: &crate::odds::OutcomeOdds) -> Group {
        let c = super::Chance::of(g);
        Group {
            group: c.outcome,
            probability: c.probability,
            exact: c.exact,
            hits: c.hits,
            runs: c.runs,
            low: c.low,
            high: c.high,
        }
    }
}

/// `mettle odds … --json` (a check, a scenario or dice): the report.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OddsDoc {
    /// The schema version.
    pub mettle: Meta,
    /// The report.
    #[serde(flatten)]
    pub report: super::Odds,
    /// Groups of outcomes asked for with `--group`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<Group>,
}

/// `mettle odds FILE CHECK --sweep … --json`: one report for each combination of values.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SweepDoc {
    /// The schema version.
    pub mettle: Meta,
    /// What was asked, in words.
    pub question: String,
    /// The check.
    pub check: String,
    /// One row per combination.
    pub rows: Vec<SweepRow>,
}

impl SweepDoc {
    /// The document of sweep `rows` of check `check` in `session`, asked as `question`
    /// ([`crate::odds::sweep_question`]); no groups of outcomes.
    ///
    /// ```
    /// use mettle::Ruleset;
    /// let rules = Ruleset::from_str("s.mettle", "check c { input spi: 0..6  roll d6  modifier \"Spirit\" +spi  outcome pass when total >= 7  otherwise fail }").unwrap();
    /// let sweeps = mettle::odds::sweeps(&rules, "c", &["spi=1..2"], &[]).unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// let rows = mettle::odds::sweep(&mut s, "c", &[], &[], &sweeps, 1).unwrap();
    /// let q = mettle::odds::sweep_question(&s, "c", &[], &sweeps);
    /// let doc = serde_json::to_value(mettle::wire::SweepDoc::new(&s, "c", q, &rows)).unwrap();
    /// assert_eq!(doc["question"], "check c, sweeping spi 1..2");
    /// assert_eq!(doc["rows"][1]["set"]["spi"], 2);
    /// assert_eq!(doc["rows"][1]["outcomes"][0]["exact"], "1/3");
    /// ```
    pub fn new(
        session: &crate::Session,
        check: &str,
        question: String,
        rows: &[crate::odds::Row],
    ) -> SweepDoc {
        SweepDoc {
            mettle: Meta::default(),
            question,
            check: check.to_string(),
            rows: rows
                .iter()
                .map(|r| SweepRow {
                    set: r.set.iter().map(|(n, v)| (n.clone(), super::value(session, v))).collect(),
                    report: super::odds(&r.report),
                    groups: vec![],
                })
                .collect(),
        }
    }
}

/// One combination of a sweep and its report.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SweepRow {
    /// The values swept, by name.
    pub set: BTreeMap<String, super::Val>,
    /// The report.
    #[serde(flatten)]
    pub report: super::Odds,
    /// Groups of outcomes asked for with `--group`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<Group>,
}

/// What `mettle sim` played.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum SimTarget {
    /// A scenario.
    Scenario {
        /// Its name.
        scenario: String,
    },
    /// A check.
    Check {
        /// Its name.
        check: String,
    },
}

/// `mettle sim … --json`: how often each end came up.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SimDoc {
    /// The schema version.
    pub mettle: Meta,
    /// What was played.
    pub target: SimTarget,
    /// Runs made, errors included.
    pub runs: u64,
    /// The simulation's seed.
    pub seed: u64,
    /// Each end, most frequent first.
    pub results: Vec<crate::sim::Frequency>,
    /// Runs stopped by an error.
    pub errors: u64,
    /// The error of the first run that had one.
    pub first_error: Option<ErrorInfo>,
    /// Runs in which an `expect` failed.
    pub failed_expectations: u64,
    /// Recorded values, by label.
    pub records: Vec<crate::sim::Distribution>,
    /// The check's groups of outcomes (`group pass = holds, inspired`), their members' runs together;
    /// empty for a scenario or a check without groups.
    pub groups: Vec<SimGroup>,
}

/// A group of a check's outcomes over a simulation's runs.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SimGroup {
    /// The group's name.
    pub group: String,
    /// Runs that ended in one of its outcomes.
    pub count: u64,
    /// `count` over the runs.
    pub share: f64,
    /// The low end of the 95% interval of the share.
    pub low: f64,
    /// The high end.
    pub high: f64,
}

/// `mettle play FILE SCENARIO --json`: the scenario's log, typed.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlayDoc {
    /// The schema version.
    pub mettle: Meta,
    /// The scenario.
    pub scenario: String,
    /// The seed.
    pub seed: u64,
    /// Whether it ran to its end with every expectation met.
    pub ok: bool,
    /// The log (as far as it got, when it failed).
    pub log: Vec<super::Line>,
    /// How the game ended, when it did.
    pub over: Option<super::Ended>,
}

/// `mettle export FILE`: the ruleset's outline (kinds, events, checks, choices, scenarios, options).
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ExportDoc {
    /// The schema version.
    pub mettle: Meta,
    /// The outline.
    #[serde(flatten)]
    pub outline: serde_json::Map<String, serde_json::Value>,
}

#[cfg(feature = "schema")]
/// The schema of a document mettle writes (a field it may leave out is not required).
pub fn written<T: schemars::JsonSchema>() -> schemars::Schema {
    schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>()
}

#[cfg(feature = "schema")]
/// The schema of every document the library defines, by file name (the command adds its own).
pub fn schemas() -> Vec<(&'static str, schemars::Schema)> {
    vec![
        ("check.json", written::<CheckDoc>()),
        ("error.json", written::<ErrorDoc>()),
        ("roll.json", written::<RollDoc>()),
        ("dice-roll.json", written::<DiceRollDoc>()),
        ("odds.json", written::<OddsDoc>()),
        ("odds-sweep.json", written::<SweepDoc>()),
        ("sim.json", written::<SimDoc>()),
        ("play.json", written::<PlayDoc>()),
        ("export.json", written::<ExportDoc>()),
    ]
}

impl SimDoc {
    /// The document of simulation `report` of `target` over `rules`.
    ///
    /// ```
    /// use mettle::{Ruleset, sim};
    /// let rules = Ruleset::from_str("s.mettle", "check c { roll d6  outcome high when total >= 4  otherwise low }").unwrap();
    /// let target = sim::Target::Check { name: "c".into(), inputs: vec![], with: vec![] };
    /// let report = sim::simulate(&rules, &target, &sim::Options { runs: 100, seed: 1, threads: 1 }, &|_| {}).unwrap();
    /// let doc = mettle::wire::SimDoc::new(&rules, &target, &report);
    /// assert_eq!(doc.runs, 100);
    /// assert_eq!(doc.results.iter().map(|f| f.count).sum::<u64>(), 100);
    /// ```
    pub fn new(rules: &crate::Ruleset, target: &crate::sim::Target, report: &crate::sim::Report) -> SimDoc {
        let shown = match target {
            crate::sim::Target::Scenario(s) => SimTarget::Scenario { scenario: s.clone() },
            crate::sim::Target::Check { name, .. } => SimTarget::Check { check: name.clone() },
        };
        SimDoc {
            mettle: Meta::default(),
            target: shown,
            runs: report.runs,
            seed: report.seed,
            results: report.results.clone(),
            errors: report.errors,
            first_error: report.first_error.as_ref().map(|d| error_info(d, rules.name(), rules.text())),
            failed_expectations: report.failed_expectations,
            records: report.records.clone(),
            groups: sim_groups(rules, target, report),
        }
    }
}

/// Group `name` of the simulated check's outcomes `members` (as `--group pass=holds,inspired` gives
/// them): the runs of its members together. `Err` names a member that is not an outcome of the
/// check (or a target that is no check), with the nearest outcome, as [`crate::odds::Report::group`]
/// does.
///
/// ```
/// use mettle::{Ruleset, sim};
/// let rules = Ruleset::from_str("s.mettle", "check c { roll d6  outcome hi when total >= 5  outcome mid when total >= 3  otherwise lo }").unwrap();
/// let target = sim::Target::Check { name: "c".into(), inputs: vec![], with: vec![] };
/// let report = sim::simulate(&rules, &target, &sim::Options { runs: 600, seed: 1, threads: 1 }, &|_| {}).unwrap();
/// let g = mettle::wire::sim_group(&rules, &target, &report, "pass", &["hi", "mid"]).unwrap();
/// let lo = report.results.iter().find(|f| f.result.as_deref() == Some("lo")).unwrap().count;
/// assert_eq!(g.count, 600 - lo);
/// assert!(mettle::wire::sim_group(&rules, &target, &report, "pass", &["hi", "md"]).unwrap_err().contains("did you mean `mid`?"));
/// ```
pub fn sim_group(
    rules: &crate::Ruleset,
    target: &crate::sim::Target,
    rep: &crate::sim::Report,
    name: &str,
    members: &[&str],
) -> Result<SimGroup, String> {
    let p = rules.program();
    let check = match target {
        crate::sim::Target::Check { name: check, .. } => p.checks.iter().find(|c| &c.name == check),
        crate::sim::Target::Scenario(_) => None,
    };
    let Some(check) = check else {
        return Err(format!("group `{name}`: only a check's outcomes can be grouped (`--check NAME`)"));
    };
    let names = &p.sets[check.outcome_set as usize].names;
    let known: Vec<&str> = check.outcomes.iter().map(|o| names[o.index as usize].as_str()).collect();
    if let Some(m) = members.iter().find(|m| !known.contains(m)) {
        return Err(format!(
            "group `{name}`: there is no outcome `{m}`; {}",
            crate::diagnostics::suggest(m, "outcome", &known)
        ));
    }
    let count = rep
        .results
        .iter()
        .filter(|f| f.winner.is_none() && f.result.as_deref().is_some_and(|r| members.contains(&r)))
        .map(|f| f.count)
        .sum();
    let (low, high) = crate::sim::wilson(count, rep.runs);
    Ok(SimGroup { group: name.to_string(), count, share: count as f64 / rep.runs.max(1) as f64, low, high })
}

/// The groups of the simulated check's outcomes (`group pass = holds, inspired`): the runs of their
/// members together. None for a scenario.
pub fn sim_groups(
    rules: &crate::Ruleset,
    target: &crate::sim::Target,
    rep: &crate::sim::Report,
) -> Vec<SimGroup> {
    let crate::sim::Target::Check { name, .. } = target else { return vec![] };
    let Some(check) = rules.program().checks.iter().find(|c| &c.name == name) else { return vec![] };
    check
        .groups
        .iter()
        .map(|(g, members)| {
            let count = rep
                .results
                .iter()
                .filter(|f| f.winner.is_none() && f.result.as_ref().is_some_and(|r| members.contains(r)))
                .map(|f| f.count)
                .sum();
            let (low, high) = crate::sim::wilson(count, rep.runs);
            SimGroup { group: g.clone(), count, share: count as f64 / rep.runs.max(1) as f64, low, high }
        })
        .collect()
}
