//! Values between Python and mettle: numbers, yes/no, names, entity handles and host data.

use crate::errors;
use mettle::{Ruleset, Session, Value};
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde::Serialize;
use std::sync::Arc;

/// An entity of a session: its id (stable for the session's life) and its name when the handle was
/// made.
#[pyclass(frozen, get_all, eq, hash, from_py_object, module = "mettle")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Entity {
    /// The id the session gave it.
    pub id: u32,
    /// Its name.
    pub name: String,
}

#[pymethods]
impl Entity {
    fn __repr__(&self) -> String {
        format!("Entity({}, {:?})", self.id, self.name)
    }

    fn __str__(&self) -> String {
        self.name.clone()
    }
}

/// A value given from Python, read against `of` (the input, fact, attribute, option or choice it
/// is for): `bool`, `int`, `str` (a name, read through the ruleset's types), an [`Entity`], `None`,
/// or dicts and lists for host data.
pub fn value(py: Python<'_>, rules: &Ruleset, of: &str, v: &Bound<'_, PyAny>) -> PyResult<Value> {
    if v.is_none() {
        return Ok(Value::None);
    }
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if v.is_instance_of::<PyInt>() {
        return v
            .extract::<i64>()
            .map(Value::Int)
            .map_err(|_| PyOverflowError::new_err(format!("`{of}`: {v} is outside mettle's whole numbers")));
    }
    if let Ok(s) = v.cast::<PyString>() {
        let text = s.to_cow()?;
        return rules.value(of, &text).map_err(|d| errors::run_error(py, &d, rules.name(), rules.text()));
    }
    if let Ok(e) = v.cast::<Entity>() {
        return Ok(Value::Entity(e.get().id));
    }
    if v.is_instance_of::<PyDict>() || v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        return Ok(Value::Data(Arc::new(json(v)?)));
    }
    Err(PyTypeError::new_err(format!(
        "`{of}`: mettle takes int, bool, str, Entity, None, dict or list, not {}",
        v.get_type().name()?
    )))
}

/// Named values given from Python (`spi=3`), read by the types `fields` declares (the library's one
/// reader of host values, `mettle::wire::read_one`): an [`Entity`] handle is taken as it is, anything
/// else goes through JSON, so a `str` is a name (a state, an entity's) and dicts and lists are data.
pub fn typed(
    py: Python<'_>,
    s: &Session,
    fields: mettle::wire::Fields<'_>,
    given: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<(String, Value)>> {
    let mut out = vec![];
    if let Some(d) = given {
        for (k, v) in d.iter() {
            let k: String = k.extract()?;
            let v = typed_one(py, s, fields, &k, &v)?;
            out.push((k, v));
        }
    }
    Ok(out)
}

/// One value given from Python for `name` of `fields`.
pub fn typed_one(
    py: Python<'_>,
    s: &Session,
    fields: mettle::wire::Fields<'_>,
    name: &str,
    v: &Bound<'_, PyAny>,
) -> PyResult<Value> {
    if let Ok(e) = v.cast::<Entity>() {
        return Ok(Value::Entity(e.get().id));
    }
    let j = json_value(name, v)?;
    let rules = s.ruleset();
    mettle::wire::read_one(s, fields, name, &j)
        .map_err(|d| errors::run_error(py, &d, rules.name(), rules.text()))
}

/// A value as JSON for the reader; numbers past 64 bits are refused here.
fn json_value(name: &str, v: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    if v.is_instance_of::<PyInt>() && !v.is_instance_of::<PyBool>() {
        return v.extract::<i64>().map(serde_json::Value::from).map_err(|_| {
            PyOverflowError::new_err(format!("`{name}`: {v} is outside mettle's whole numbers"))
        });
    }
    json(v)
}

/// Pairs borrowed as the library takes them.
pub fn refs(v: &[(String, Value)]) -> Vec<(&str, Value)> {
    v.iter().map(|(k, v)| (k.as_str(), v.clone())).collect()
}

/// Host data as JSON: dicts with text keys, lists and tuples, text, numbers, booleans and `None`.
pub fn json(v: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    use serde_json::Value as J;
    if v.is_none() {
        return Ok(J::Null);
    }
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(J::Bool(b.is_true()));
    }
    if v.is_instance_of::<PyInt>() {
        return Ok(J::from(
            v.extract::<i64>().map_err(|_| PyOverflowError::new_err("a number in data is too large"))?,
        ));
    }
    if let Ok(f) = v.cast::<PyFloat>() {
        return Ok(serde_json::Number::from_f64(f.value()).map_or(J::Null, J::Number));
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(J::String(s.to_cow()?.into_owned()));
    }
    if let Ok(e) = v.cast::<Entity>() {
        return Ok(J::String(e.get().name.clone()));
    }
    if let Ok(d) = v.cast::<PyDict>() {
        let mut m = serde_json::Map::new();
        for (k, v) in d.iter() {
            let k: String = k.extract().map_err(|_| PyTypeError::new_err("data keys must be str"))?;
            m.insert(k, json(&v)?);
        }
        return Ok(J::Object(m));
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        return v.try_iter()?.map(|x| json(&x?)).collect::<PyResult<Vec<_>>>().map(J::Array);
    }
    Err(PyTypeError::new_err(format!(
        "data takes dict, list, str, int, float, bool or None, not {}",
        v.get_type().name()?
    )))
}

/// JSON as Python: dicts, lists, str, int, float, bool and `None`.
pub fn py_json<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value as J;
    Ok(match v {
        J::Null => py.None().into_bound(py),
        J::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        J::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (_, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or_default().into_pyobject(py)?.into_any(),
        },
        J::String(s) => PyString::new(py, s).into_any(),
        J::Array(a) => {
            PyList::new(py, a.iter().map(|x| py_json(py, x)).collect::<PyResult<Vec<_>>>()?)?.into_any()
        }
        J::Object(m) => {
            let d = PyDict::new(py);
            for (k, v) in m {
                d.set_item(k, py_json(py, v)?)?;
            }
            d.into_any()
        }
    })
}

/// A typed view (`mettle::wire`) as Python dicts and lists.
pub fn py_view<'py>(py: Python<'py>, v: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    let j = serde_json::to_value(v).map_err(|e| PyTypeError::new_err(e.to_string()))?;
    py_json(py, &j)
}

/// A value as Python: `int`, `bool`, `str` for a name, an [`Entity`], `None`, dicts and lists for
/// data, dicts for dice and a check's result.
pub fn py_value<'py>(py: Python<'py>, s: &Session, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Int(i) => i.into_pyobject(py)?.into_any(),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::None => py.None().into_bound(py),
        Value::Entity(id) => {
            let name = s.state().entities().get(*id).map(|e| e.name.clone()).unwrap_or_default();
            Bound::new(py, Entity { id: *id, name })?.into_any()
        }
        Value::Name { .. } => PyString::new(py, &s.show(v)).into_any(),
        Value::Data(d) => py_json(py, d)?,
        Value::Pool(_) | Value::Result(_) => py_view(py, &mettle::wire::value(s, v))?,
    })
}

static FRACTION: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static INT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// A whole number of any size as a Python `int`.
fn big<'py>(py: Python<'py>, n: &num_bigint::BigUint) -> PyResult<Bound<'py, PyAny>> {
    if let Some(small) = num_traits::ToPrimitive::to_u64(n) {
        return Ok(small.into_pyobject(py)?.into_any());
    }
    INT.import(py, "builtins", "int")?.call1((n.to_string(),))
}

/// An exact chance as a `fractions.Fraction`.
pub fn fraction<'py>(py: Python<'py>, f: &mettle::odds::Fraction) -> PyResult<Bound<'py, PyAny>> {
    FRACTION.import(py, "fractions", "Fraction")?.call1((big(py, &f.num)?, big(py, &f.den)?))
}

/// A distribution as `{value: Fraction}`, lowest value first; values that cannot come up are left out.
pub fn dist<'py>(py: Python<'py>, d: &mettle::odds::Dist) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    let total = d.total();
    for (v, w) in d.iter().filter(|(_, w)| !num_traits::Zero::is_zero(*w)) {
        let f = mettle::odds::Fraction::new(w.clone(), total.clone());
        out.set_item(v, fraction(py, &f)?)?;
    }
    Ok(out)
}
