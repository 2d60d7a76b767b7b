//! `mettle roll --dice` and `mettle odds --dice`: mettle as a dice calculator.

use mettle::Value;
use mettle::diagnostics::Diagnostic;
use mettle::internals::odds::expr::{Compiled, compile};
use std::path::Path;

/// The name errors give the expression.
const NAME: &str = "--dice";

fn render(diags: &[Diagnostic], text: &str) -> String {
    super::commands::render(diags, NAME, text)
}

/// The expression compiled, or its errors printed.
fn compiled(expr: &str) -> Result<Compiled, u8> {
    compile(expr).map_err(|diags| {
        eprint!("{}", render(&diags, expr));
        2
    })
}

/// Rolls a bare dice expression once and shows the dice (`mettle::odds::roll_dice`).
pub fn roll(expr: &str, seed: u64, json: bool) -> u8 {
    // An expression that does not compile is a usage error (2); a roll that fails, a run's (1).
    if let Err(code) = compiled(expr) {
        return code;
    }
    let rolled = match mettle::odds::roll_dice(expr, &super::budget(), seed) {
        Ok(r) => r,
        Err(diags) => {
            eprint!("{}", render(&diags, expr));
            return 1;
        }
    };
    if json {
        super::json::print(&super::json::DiceRollDoc::new(expr, seed, &rolled));
        return 0;
    }
    for r in &rolled.rolls {
        let faces: Vec<String> = r.faces.iter().map(i64::to_string).collect();
        outln!("{}: [{}] = {}", r.dice, faces.join(", "), r.value);
    }
    let shown = match &rolled.value {
        Value::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
        v => v.as_int().unwrap_or_default().to_string(),
    };
    outln!("{}: {shown}", expr.trim());
    0
}

/// The exact distribution of a bare dice expression; an estimate from seeded rolls, saying why, when
/// exact is out of reach (`mettle::odds::dice`).
pub fn odds(expr: &str, json: bool, plot: Option<&Path>, seed: u64) -> u8 {
    // An expression that does not compile is a usage error (2); a roll that fails, a run's (1).
    if let Err(code) = compiled(expr) {
        return code;
    }
    match mettle::odds::dice(expr, &super::budget(), seed) {
        Ok(report) => super::odds::print_report(&report, json, plot),
        Err(diags) => match diags.as_slice() {
            [d] if d.is(mettle::diagnostics::Code::OutOfWork) => {
                let help = "raise it with `--budget odds_work=N`";
                if super::json::on() {
                    super::json::fail(&d.code, &d.message, Some(help));
                } else {
                    eprintln!("error[{}]: {}\n  help: {help}", d.code, mettle::text::visible(&d.message));
                }
                1
            }
            _ => {
                eprint!("{}", render(&diags, expr));
                1
            }
        },
    }
}
