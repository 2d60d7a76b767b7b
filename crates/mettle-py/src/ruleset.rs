//! `mettle.Ruleset`: a loaded, checked ruleset, and the questions asked of it (odds, sweeps,
//! simulations, scenarios, cards).

use crate::convert::{self, py_value, py_view, refs, typed};
use crate::errors::{self, Diag};
use crate::odds::Odds;
use mettle::wire::Fields;
use mettle::{Budget, LoadOptions, Session, Value};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::BTreeMap;

/// A budget: the defaults, with the limits given (`{"steps": 50_000}`) changed.
pub fn budget(py: Python<'_>, base: &Budget, given: Option<&Bound<'_, PyDict>>) -> PyResult<Budget> {
    let mut b = base.clone();
    if let Some(d) = given {
        for (k, v) in d.iter() {
            let k: String = k.extract()?;
            let v: u64 = v.extract()?;
            b.set(&k, v).map_err(|d| errors::run_errors(py, &[d], "", ""))?;
        }
    }
    Ok(b)
}

/// A set of rules, loaded and checked once; cheap to share, safe to use from many threads.
#[pyclass(frozen, module = "mettle")]
pub struct Ruleset {
    pub rules: mettle::Ruleset,
    outline: serde_json::Value,
}

impl Ruleset {
    pub fn new(rules: mettle::Ruleset) -> Ruleset {
        let outline = mettle::export::outline(&rules);
        Ruleset { rules, outline }
    }

    fn err(&self, py: Python<'_>, d: &mettle::Diagnostic) -> PyErr {
        errors::run_error(py, d, self.rules.name(), self.rules.text())
    }

    fn names(&self, what: &str) -> Vec<String> {
        let all = self.outline[what].as_array().map(Vec::as_slice).unwrap_or_default();
        all.iter().filter_map(|x| x["name"].as_str().map(String::from)).collect()
    }

    /// A new session for one question, `options` set, and the inputs and the stand-in's attributes
    /// read by their declared types.
    #[allow(clippy::type_complexity, reason = "the session and the values read in it")]
    fn reading(
        &self,
        py: Python<'_>,
        rules: &mettle::Ruleset,
        check: &str,
        given: [Option<&Bound<'_, PyDict>>; 3],
        seed: u64,
    ) -> PyResult<(Session, Vec<(String, Value)>, Vec<(String, Value)>)> {
        let [inputs, options, made_by] = given;
        let mut s = Session::new(rules, seed);
        s.set_logging(false);
        for (k, v) in typed(py, &s, Fields::Options, options)? {
            s.set_option(&k, v).map_err(|d| self.err(py, &d))?;
        }
        let inputs = typed(py, &s, Fields::Inputs(check), inputs)?;
        let kind = self.rules.maker(check).unwrap_or_default();
        let with = typed(py, &s, Fields::Attributes(kind), made_by)?;
        Ok((s, inputs, with))
    }
}

/// Load options from Python's arguments.
fn load_options(
    py: Python<'_>,
    base: Option<std::path::PathBuf>,
    scripts: Option<BTreeMap<String, String>>,
    budget_given: Option<&Bound<'_, PyDict>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<LoadOptions> {
    let mut opts = LoadOptions { base, scripts, ..Default::default() };
    opts.budget = budget(py, &opts.budget, budget_given)?;
    if let Some(d) = options {
        for (k, v) in d.iter() {
            let text = match v.cast::<pyo3::types::PyBool>() {
                Ok(b) => {
                    if b.is_true() {
                        "yes".to_string()
                    } else {
                        "no".to_string()
                    }
                }
                Err(_) => v.str()?.to_cow()?.into_owned(),
            };
            opts.options.push((k.extract()?, text));
        }
    }
    Ok(opts)
}

#[pymethods]
impl Ruleset {
    /// Loads and checks the ruleset in file `path`; its script files are read from its folder.
    #[staticmethod]
    #[pyo3(signature = (path, *, budget=None, options=None))]
    fn load(
        py: Python<'_>,
        path: std::path::PathBuf,
        budget: Option<&Bound<'_, PyDict>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Ruleset> {
        let base = path.parent().map(std::path::Path::to_path_buf);
        let opts = load_options(py, base, None, budget, options)?;
        let r = py.detach(|| mettle::Ruleset::from_path_with(&path, &opts));
        r.map(Ruleset::new).map_err(|e| errors::load_error(py, &e))
    }

    /// Loads and checks a ruleset from text; `scripts` gives the script files it names, by name.
    #[staticmethod]
    #[pyo3(signature = (text, *, name="ruleset.mettle", scripts=None, budget=None, options=None))]
    fn from_text(
        py: Python<'_>,
        text: &str,
        name: &str,
        scripts: Option<BTreeMap<String, String>>,
        budget: Option<&Bound<'_, PyDict>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Ruleset> {
        let opts = load_options(py, None, Some(scripts.unwrap_or_default()), budget, options)?;
        let r = py.detach(|| mettle::Ruleset::load(name, text, &opts));
        r.map(Ruleset::new).map_err(|e| errors::load_error(py, &e))
    }

    /// The name it was loaded under (the file's path).
    #[getter]
    fn name(&self) -> &str {
        self.rules.name()
    }

    /// Its text.
    #[getter]
    fn text(&self) -> &str {
        self.rules.text()
    }

    /// The names of its scenarios, in order.
    #[getter]
    fn scenarios(&self) -> Vec<String> {
        self.rules.scenarios().map(String::from).collect()
    }

    /// The names of its checks, in order.
    #[getter]
    fn checks(&self) -> Vec<String> {
        self.names("checks")
    }

    /// What `mettle check` reports of a ruleset that loads: its warnings, and outcomes no roll can
    /// reach.
    fn check(&self, py: Python<'_>) -> PyResult<Vec<Py<Diag>>> {
        let mut w = self.rules.warnings().to_vec();
        w.extend(py.detach(|| mettle::odds::unreachable(&self.rules)));
        errors::diags(py, &w, self.rules.name(), self.rules.text())
    }

    /// The outline `mettle export` writes: kinds, events, checks, choices, scenarios, options.
    fn outline(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(convert::py_json(py, &self.outline)?.unbind())
    }

    /// A new game over these rules, its dice seeded with `seed`.
    #[pyo3(signature = (seed=0))]
    fn session(slf: &Bound<'_, Self>, seed: u64) -> crate::session::Session {
        crate::session::Session::new(slf.get().rules.clone(), seed)
    }

    /// The exact odds of each outcome of `check` with the inputs given as keywords (`spi=3`);
    /// `options` sets house-rule options, `made_by` the attributes of the stand-in who makes it.
    /// When exact is out of reach, an estimate from runs seeded with `seed`, which says so.
    #[pyo3(signature = (check, /, *, options=None, made_by=None, seed=0, budget=None, **inputs))]
    #[allow(clippy::too_many_arguments, reason = "Python's keyword arguments")]
    fn odds(
        &self,
        py: Python<'_>,
        check: &str,
        options: Option<&Bound<'_, PyDict>>,
        made_by: Option<&Bound<'_, PyDict>>,
        seed: u64,
        budget: Option<&Bound<'_, PyDict>>,
        inputs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Odds> {
        let rules = self.with(py, budget)?;
        let (mut s, inputs, with) = self.reading(py, &rules, check, [inputs, options, made_by], seed)?;
        let run = || -> Result<mettle::odds::Report, mettle::Diagnostic> {
            let subject = mettle::odds::stand_in(&mut s, check, &with)?.map(|(id, _)| id);
            mettle::odds::ask(&mut s, check, subject, &refs(&inputs), seed)
        };
        py.detach(run).map(Odds::new).map_err(|d| self.err(py, &d))
    }

    /// The odds of `check` for every combination of the values in `over` (`{"spi": range(7)}`),
    /// inputs unless named in `over_options`: one row per combination, the last name varying fastest.
    #[pyo3(signature = (check, /, over, *, over_options=None, options=None, made_by=None, seed=0, budget=None, **inputs))]
    #[allow(clippy::too_many_arguments, reason = "Python's keyword arguments")]
    fn sweep(
        &self,
        py: Python<'_>,
        check: &str,
        over: &Bound<'_, PyDict>,
        over_options: Option<&Bound<'_, PyDict>>,
        options: Option<&Bound<'_, PyDict>>,
        made_by: Option<&Bound<'_, PyDict>>,
        seed: u64,
        budget: Option<&Bound<'_, PyDict>>,
        inputs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Vec<Row>> {
        let rules = self.with(py, budget)?;
        let (mut s, inputs, with) = self.reading(py, &rules, check, [inputs, options, made_by], seed)?;
        // Each swept name with its values, read by its declared type, as the library's sweeps.
        let mut sweeps = vec![];
        for (d, fields, target) in [
            (Some(over), Fields::Inputs(check), mettle::odds::Swept::Input),
            (over_options, Fields::Options, mettle::odds::Swept::Option),
        ] {
            let Some(d) = d else { continue };
            for (k, vs) in d.iter() {
                let name: String = k.extract()?;
                let values = vs
                    .try_iter()?
                    .map(|v| convert::typed_one(py, &s, fields, &name, &v?))
                    .collect::<PyResult<Vec<_>>>()?;
                let label = name.clone();
                sweeps.push(mettle::odds::Sweep { name, values, label, target: target.clone() });
            }
        }
        let rows = py.detach(|| mettle::odds::sweep(&mut s, check, &with, &inputs, &sweeps, seed));
        let rows = rows.map_err(|d| self.err(py, &d))?;
        rows.into_iter()
            .map(|r| {
                let set = PyDict::new(py);
                for (name, v) in &r.set {
                    set.set_item(name, py_value(py, &s, v)?)?;
                }
                Ok(Row { set: set.unbind(), odds: Py::new(py, Odds::new(r.report))? })
            })
            .collect()
    }

    /// Plays `scenario` (or rolls `check`, with `inputs` and `made_by`) `runs` times over `threads`
    /// threads (0: one per core), seeded with `seed`, and reports how often each end came up, as
    /// `mettle sim --json` does. Python's other threads run meanwhile.
    #[pyo3(signature = (scenario=None, /, *, check=None, runs=10_000, seed=0, threads=0, inputs=None, made_by=None, budget=None))]
    #[allow(clippy::too_many_arguments, reason = "Python's keyword arguments")]
    fn simulate(
        &self,
        py: Python<'_>,
        scenario: Option<String>,
        check: Option<String>,
        runs: u64,
        seed: u64,
        threads: usize,
        inputs: Option<&Bound<'_, PyDict>>,
        made_by: Option<&Bound<'_, PyDict>>,
        budget: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        let rules = self.with(py, budget)?;
        let target = match (scenario, check) {
            (Some(s), None) => mettle::sim::Target::Scenario(s),
            (None, Some(name)) => {
                let (_, inputs, with) = self.reading(py, &rules, &name, [inputs, None, made_by], seed)?;
                mettle::sim::Target::Check { name, inputs, with }
            }
            _ => {
                return Err(pyo3::exceptions::PyTypeError::new_err(
                    "simulate takes a scenario or check=, not both",
                ));
            }
        };
        let opts = mettle::sim::Options { runs, seed, threads };
        let report = py.detach(|| mettle::sim::simulate(&rules, &target, &opts, &|_| {}));
        let report = report.map_err(|d| self.err(py, &d))?;
        Ok(py_view(py, &mettle::wire::SimDoc::new(&rules, &target, &report))?.unbind())
    }

    /// Runs every scenario (as `mettle test` does), each in a new session seeded with `seed`: one
    /// `ScenarioResult` each.
    #[pyo3(signature = (seed=0))]
    fn test(&self, py: Python<'_>, seed: u64) -> PyResult<Vec<ScenarioResult>> {
        let mut out = vec![];
        for name in self.scenarios() {
            let mut s = Session::new(&self.rules, seed);
            let ran = py.detach(|| s.run_scenario(&name));
            let (passed, failures, error) = match ran {
                Ok(rep) => {
                    let failures = rep
                        .failures
                        .iter()
                        .filter_map(|f| match f {
                            mettle::LogEntry::Expect { text, found, message, .. } => Some(format!(
                                "expect {text}{}{}",
                                found.as_ref().map(|f| format!(" ({f})")).unwrap_or_default(),
                                message.as_ref().map(|m| format!(": {m}")).unwrap_or_default()
                            )),
                            _ => None,
                        })
                        .collect::<Vec<_>>();
                    (rep.passed, failures, None)
                }
                Err(d) => (
                    0,
                    vec![],
                    Some(errors::diags(py, &[d], self.rules.name(), self.rules.text())?.remove(0)),
                ),
            };
            let log = mettle::session::render_log(s.log(), self.rules.text());
            out.push(ScenarioResult {
                ok: failures.is_empty() && error.is_none(),
                scenario: name,
                passed,
                failures,
                error,
                log,
            });
        }
        Ok(out)
    }

    /// The ruleset's reference card, as `mettle card` writes it: `format` is `"html"` or
    /// `"markdown"`.
    #[pyo3(signature = (format="html"))]
    fn card(&self, py: Python<'_>, format: &str) -> PyResult<String> {
        let card = py.detach(|| mettle::card::build(&self.rules));
        match format {
            "html" => Ok(mettle::card::html::render(&card)),
            "markdown" | "md" => Ok(mettle::card::md::render(&card)),
            other => Err(pyo3::exceptions::PyValueError::new_err(format!(
                "card format `{other}`: choose \"html\" or \"markdown\""
            ))),
        }
    }

    fn __repr__(&self) -> String {
        format!("Ruleset({:?})", self.rules.name())
    }
}

impl Ruleset {
    /// The rules with the budget changed as asked for one call.
    fn with(&self, py: Python<'_>, given: Option<&Bound<'_, PyDict>>) -> PyResult<mettle::Ruleset> {
        match given {
            None => Ok(self.rules.clone()),
            Some(_) => Ok(self.rules.with_budget(budget(py, self.rules.budget(), given)?)),
        }
    }
}

/// One row of a sweep: the values set, and the odds with them.
#[pyclass(frozen, get_all, module = "mettle")]
pub struct Row {
    /// The swept values, by name.
    set: Py<PyDict>,
    /// The odds.
    odds: Py<Odds>,
}

#[pymethods]
impl Row {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Row({}, {})",
            self.set.bind(py).repr().map(|r| r.to_string()).unwrap_or_default(),
            self.odds.get().describe()
        )
    }
}

/// One scenario run by `Ruleset.test`.
#[pyclass(frozen, get_all, module = "mettle")]
pub struct ScenarioResult {
    /// The scenario's name.
    scenario: String,
    /// Whether it ran to its end with every expectation met.
    ok: bool,
    /// Expectations that held.
    passed: usize,
    /// Expectations that failed, in words.
    failures: Vec<String>,
    /// The error that stopped it, if one did.
    error: Option<Py<Diag>>,
    /// Its log, as `mettle play` prints it.
    log: String,
}

#[pymethods]
impl ScenarioResult {
    fn __repr__(&self) -> String {
        format!("ScenarioResult({:?}, ok={})", self.scenario, if self.ok { "True" } else { "False" })
    }
}

/// Reformats a ruleset's text in `mettle fmt`'s layout.
#[pyfunction]
pub fn format(py: Python<'_>, text: &str) -> PyResult<String> {
    mettle::fmt::format(text).map_err(|ds| errors::run_errors(py, &ds, "ruleset.mettle", text))
}

/// The odds of a dice expression (`"4d6kh3"`, `"2d6 + 1 >= 8"`): `values["value"]` for a number,
/// outcomes `yes` and `no` for a comparison.
#[pyfunction]
#[pyo3(signature = (expr, *, seed=0, budget=None))]
pub fn odds_dice(
    py: Python<'_>,
    expr: &str,
    seed: u64,
    budget: Option<&Bound<'_, PyDict>>,
) -> PyResult<Odds> {
    let b = self::budget(py, &Budget::default(), budget)?;
    let r = py.detach(|| mettle::odds::dice(expr, &b, seed));
    r.map(Odds::new).map_err(|ds| errors::run_errors(py, &ds, "dice", expr))
}
