//! mettle for Python: a thin layer that converts values and errors between Python and the library
//! (the root package), and holds no rules of its own. The Python package `mettle` re-exports it.

mod convert;
mod errors;
mod odds;
mod ruleset;
mod session;

use pyo3::prelude::*;

#[pymodule]
fn _mettle(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("MettleError", py.get_type::<errors::MettleError>())?;
    m.add("RulesetError", py.get_type::<errors::RulesetError>())?;
    m.add_class::<errors::Diag>()?;
    m.add_class::<errors::Label>()?;
    m.add_class::<convert::Entity>()?;
    m.add_class::<odds::Odds>()?;
    m.add_class::<odds::Estimate>()?;
    m.add_class::<ruleset::Ruleset>()?;
    m.add_class::<ruleset::Row>()?;
    m.add_class::<ruleset::ScenarioResult>()?;
    m.add_class::<session::Session>()?;
    m.add_class::<session::Reply>()?;
    m.add_function(wrap_pyfunction!(ruleset::format, m)?)?;
    m.add_function(wrap_pyfunction!(ruleset::odds_dice, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
