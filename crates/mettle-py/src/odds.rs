//! Odds reports as Python objects: exact chances as `fractions.Fraction`, estimates with their
//! intervals, and the distributions of the values a check produces.

use crate::convert::{dist, fraction};
use mettle::odds::{Chance, How, Report};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// An estimated chance: the share of seeded runs, with its 95% interval.
#[pyclass(frozen, get_all, module = "mettle")]
pub struct Estimate {
    /// The share of runs, from 0 to 1.
    probability: f64,
    /// Runs that gave the outcome.
    hits: u64,
    /// All runs.
    runs: u64,
    /// The 95% interval's lower end.
    low: f64,
    /// Its upper end.
    high: f64,
}

#[pymethods]
impl Estimate {
    fn __float__(&self) -> f64 {
        self.probability
    }

    fn __repr__(&self) -> String {
        format!(
            "Estimate({:.4}, low={:.4}, high={:.4}, runs={})",
            self.probability, self.low, self.high, self.runs
        )
    }
}

/// The answer to an odds question. Chances are converted when first read.
#[pyclass(frozen, module = "mettle")]
pub struct Odds {
    report: Report,
    outcomes: PyOnceLock<Py<PyDict>>,
    values: PyOnceLock<Py<PyDict>>,
    effects: PyOnceLock<Py<PyDict>>,
}

use pyo3::sync::PyOnceLock;

impl Odds {
    pub fn new(report: Report) -> Odds {
        Odds { report, outcomes: PyOnceLock::new(), values: PyOnceLock::new(), effects: PyOnceLock::new() }
    }
}

fn chance<'py>(py: Python<'py>, c: &Chance) -> PyResult<Bound<'py, PyAny>> {
    match c {
        Chance::Exact(f) => fraction(py, f),
        Chance::Estimate { hits, runs, low, high } => Ok(Bound::new(
            py,
            Estimate { probability: c.value(), hits: *hits, runs: *runs, low: *low, high: *high },
        )?
        .into_any()),
    }
}

#[pymethods]
impl Odds {
    /// What was asked, in words.
    #[getter]
    fn question(&self) -> &str {
        &self.report.question
    }

    /// Whether every chance is exact (a `Fraction`); otherwise each is an `Estimate`.
    #[getter]
    fn exact(&self) -> bool {
        matches!(self.report.how, How::Exact)
    }

    /// Why the chances are estimates, or `None` when they are exact.
    #[getter]
    fn reason(&self) -> Option<&str> {
        match &self.report.how {
            How::Exact => None,
            How::Estimated { reason, .. } => Some(reason),
        }
    }

    /// The chance of each outcome, in the order the rules list them: `{name: Fraction | Estimate}`.
    #[getter]
    fn outcomes(&self, py: Python<'_>) -> PyResult<Py<PyDict>> {
        let d = self.outcomes.get_or_try_init(py, || -> PyResult<Py<PyDict>> {
            let d = PyDict::new(py);
            for o in self.report.outcomes.iter().chain(&self.report.groups) {
                d.set_item(&o.name, chance(py, &o.chance)?)?;
            }
            Ok(d.unbind())
        })?;
        Ok(d.clone_ref(py))
    }

    /// The distribution of each value the question produces (`total`, `margin`, a dice
    /// expression's `value`): `{name: {value: Fraction}}`. The weights are exact counts even for an
    /// estimate, whose runs they count.
    #[getter]
    fn values(&self, py: Python<'_>) -> PyResult<Py<PyDict>> {
        let d = self.values.get_or_try_init(py, || -> PyResult<Py<PyDict>> {
            let d = PyDict::new(py);
            for (name, v) in &self.report.values {
                d.set_item(name, dist(py, v)?)?;
            }
            Ok(d.unbind())
        })?;
        Ok(d.clone_ref(py))
    }

    /// What the check does to the one who makes it: for each attribute its outcomes change, the
    /// chance of each value it is left with, `{"unit.resolve_next": {"no": Fraction, "yes":
    /// Fraction}}` (values as the rules write them). Empty for a check made by no one or that
    /// changes nothing, and for dice.
    #[getter]
    fn effects(&self, py: Python<'_>) -> PyResult<Py<PyDict>> {
        let d = self.effects.get_or_try_init(py, || -> PyResult<Py<PyDict>> {
            let d = PyDict::new(py);
            for e in &self.report.effects {
                let values = PyDict::new(py);
                for v in &e.values {
                    values.set_item(&v.name, chance(py, &v.chance)?)?;
                }
                d.set_item(&e.target, values)?;
            }
            Ok(d.unbind())
        })?;
        Ok(d.clone_ref(py))
    }

    /// The attributes whose effects some rolls could not be followed for (their effects roll
    /// dice, …): `{target: (chance of those rolls, why)}`; their values in `effects` then add up
    /// to less than 1.
    #[getter]
    fn unfollowed<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for e in &self.report.effects {
            if let Some(u) = &e.unfollowed {
                d.set_item(&e.target, (chance(py, &u.chance)?, u.why.as_str()))?;
            }
        }
        Ok(d)
    }

    /// The chance of one outcome.
    fn __getitem__<'py>(&self, py: Python<'py>, outcome: &str) -> PyResult<Bound<'py, PyAny>> {
        match self.report.outcomes.iter().chain(&self.report.groups).find(|o| o.name == outcome) {
            Some(o) => chance(py, &o.chance),
            None => Err(pyo3::exceptions::PyKeyError::new_err(outcome.to_string())),
        }
    }

    /// The report as `mettle odds --json` writes it (`fractions` as `"p/q"` text).
    fn to_json(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(crate::convert::py_view(py, &mettle::wire::odds(&self.report))?.unbind())
    }

    fn __repr__(&self) -> String {
        self.describe()
    }
}

impl Odds {
    /// The report in one line.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self
            .report
            .outcomes
            .iter()
            .map(|o| match &o.chance {
                Chance::Exact(f) => format!("{}={}/{}", o.name, f.num, f.den),
                c => format!("{}~{:.4}", o.name, c.value()),
            })
            .collect();
        format!("Odds({:?}: {})", self.report.question, parts.join(", "))
    }
}
