//! mettle in WebAssembly: the layer under the `mettle` npm package (`npm/`). It converts, and holds
//! no rules of its own: JavaScript sends parameters as JSON text, and gets back the JSON documents
//! the `mettle` command prints with `--json` (`mettle::wire`), which the package's wrapper parses.
//! A failure is thrown as the JSON text of `{kind, errors}`, the errors as `--json` gives them.

mod rules;
mod session;

pub use rules::Rules;
pub use session::Game;

use mettle::wire::{ErrorInfo, error_info, plain_error};
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    // `performance` is there in browsers, workers and Node alike.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// The host's clock for scripts' time limits: wasm32-unknown-unknown has no system clock.
fn host_clock() -> std::time::Duration {
    std::time::Duration::from_secs_f64(performance_now().max(0.0) / 1000.0)
}

/// Hands each panic's message to the wrapper before the module traps (a panic aborts it), since
/// the instance's memory is no use after.
#[wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| panicked(&info.to_string())));
}

#[wasm_bindgen(module = "/npm/src/panic.js")]
extern "C" {
    /// Hands a panic's message to the wrapper before the module traps.
    fn panicked(message: &str);
}

/// The engine's version.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Why a call failed, as `mettle serve`'s error codes say it.
#[derive(Serialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Load,
    Rules,
    Params,
    Nothing,
    Waiting,
}

/// A failure: thrown to JavaScript as the JSON text of `{kind, errors}`.
#[derive(Serialize)]
struct Failure {
    kind: Kind,
    errors: Vec<ErrorInfo>,
}

impl Failure {
    fn plain(kind: Kind, code: &str, message: &str, help: Option<&str>) -> Failure {
        Failure { kind, errors: vec![plain_error(code, message, help)] }
    }

    fn rules(rules: &mettle::Ruleset, d: &mettle::Diagnostic) -> Failure {
        Failure { kind: Kind::Rules, errors: vec![error_info(d, rules.name(), rules.text())] }
    }

    fn load(e: &mettle::LoadError) -> Failure {
        Failure {
            kind: Kind::Load,
            errors: e.diagnostics.iter().map(|d| error_info(d, &e.name, &e.text)).collect(),
        }
    }
}

impl From<Failure> for JsValue {
    fn from(f: Failure) -> JsValue {
        JsValue::from_str(&serde_json::to_string(&f).unwrap_or_default())
    }
}

type Done = Result<String, Failure>;

/// `doc` as JSON text.
fn json<T: Serialize>(doc: &T) -> String {
    serde_json::to_string(doc).unwrap_or_default()
}

/// The parameters `text` (JSON from the wrapper) as a `T`.
fn params<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, Failure> {
    serde_json::from_str(if text.is_empty() { "{}" } else { text }).map_err(|e| {
        Failure::plain(
            Kind::Params,
            "mettle::wasm::bad_params",
            &format!("the parameters do not fit: {e}"),
            None,
        )
    })
}

/// `{seed, budget}` for a dice expression.
#[derive(serde::Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
struct DiceArgs {
    seed: u64,
    budget: std::collections::BTreeMap<String, u64>,
}

/// The budgets given by name, the others at their defaults.
fn budget(given: &std::collections::BTreeMap<String, u64>) -> Result<mettle::Budget, Failure> {
    let mut budget = mettle::Budget::default();
    for (name, v) in given {
        budget
            .set(name, *v)
            .map_err(|d| Failure { kind: Kind::Params, errors: vec![error_info(&d, "", "")] })?;
    }
    Ok(budget)
}

/// The seed and the budget of a dice expression's parameters.
fn dice_args(args: &str) -> Result<(u64, mettle::Budget), Failure> {
    let a: DiceArgs = params(args)?;
    Ok((a.seed, budget(&a.budget)?))
}

/// A dice expression's errors, located in it.
fn dice_failure(expr: &str, ds: &[mettle::Diagnostic]) -> Failure {
    Failure { kind: Kind::Rules, errors: ds.iter().map(|d| error_info(d, "--dice", expr)).collect() }
}

/// `mettle odds --dice EXPR --json`: a dice expression's odds (`args`: `{seed, budget}`).
#[wasm_bindgen(js_name = diceOdds)]
pub fn dice_odds(expr: &str, args: &str) -> Result<String, JsValue> {
    let (seed, budget) = dice_args(args)?;
    let report = mettle::odds::dice(expr, &budget, seed).map_err(|ds| dice_failure(expr, &ds))?;
    Ok(json(&mettle::wire::OddsDoc {
        mettle: mettle::wire::Meta::default(),
        report: mettle::wire::odds(&report),
        groups: vec![],
    }))
}

/// `mettle roll --dice EXPR --json`: one roll of a dice expression (`args`: `{seed, budget}`).
#[wasm_bindgen(js_name = rollDice)]
pub fn roll_dice(expr: &str, args: &str) -> Result<String, JsValue> {
    let (seed, budget) = dice_args(args)?;
    let rolled = mettle::odds::roll_dice(expr, &budget, seed).map_err(|ds| dice_failure(expr, &ds))?;
    Ok(json(&mettle::wire::DiceRollDoc::new(expr, seed, &rolled)))
}

/// For the package's tests only: panics with `message`, which aborts the module, so that the tests
/// can see the wrapper recover (`__mettleTestPanic` in mettle.d.ts).
#[wasm_bindgen(js_name = __mettleTestPanic)]
pub fn test_panic(message: &str) {
    panic!("{message}");
}

/// Formats a ruleset's text (`mettle fmt`).
#[wasm_bindgen]
pub fn format(text: &str) -> Result<String, JsValue> {
    mettle::fmt::format(text).map_err(|ds| {
        let errors = ds.iter().map(|d| error_info(d, "ruleset.mettle", text)).collect();
        Failure { kind: Kind::Load, errors }.into()
    })
}
