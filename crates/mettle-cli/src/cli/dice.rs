//! `mettle roll --dice` and `mettle odds --dice`: mettle as a dice calculator.

use mettle::diagnostics::Diagnostic;
use mettle::internals::SessionInternals as _;
use mettle::internals::odds::expr::{Compiled, compile};
use mettle::{LogEntry, Ruleset, Session, Value};
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

/// Rolls a bare dice expression once and shows the dice.
pub fn roll(expr: &str, seed: u64, json: bool) -> u8 {
    let c = match compiled(expr) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let rules =
        match Ruleset::load(NAME, "", &mettle::LoadOptions { budget: super::budget(), ..Default::default() })
        {
            Ok(r) => r,
            Err(e) => {
                eprint!("{}", render(&e.diagnostics, expr));
                return 2;
            }
        };
    let mut session = Session::new(&rules, seed);
    let mut frame = vec![Value::None; c.slots as usize];
    let value = match session.eval_prompt(&c.expr, &mut frame) {
        Ok(v) => v,
        Err(d) => {
            eprint!("{}", render(std::slice::from_ref(&d), expr));
            return 1;
        }
    };
    let rolls: Vec<(&str, &[i64], i64)> = session
        .log()
        .iter()
        .filter_map(|l| match &l.entry {
            LogEntry::Roll { text, faces, value, .. } => Some((text.as_str(), faces.as_slice(), *value)),
            _ => None,
        })
        .collect();
    let shown = match &value {
        Value::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
        v => v.as_int().unwrap_or_default().to_string(),
    };
    if json {
        use super::json::{DiceRoll, DiceRollDoc, Meta};
        let value = match value {
            Value::Bool(b) => mettle::wire::Val::Flag(b),
            v => mettle::wire::Val::Number(v.as_int().unwrap_or_default()),
        };
        let rolls = rolls
            .iter()
            .map(|(text, faces, v)| DiceRoll { dice: text.to_string(), faces: faces.to_vec(), value: *v })
            .collect();
        super::json::print(&DiceRollDoc {
            mettle: Meta::default(),
            expr: expr.to_string(),
            seed,
            rolls,
            value,
        });
        return 0;
    }
    for (text, faces, v) in &rolls {
        let faces: Vec<String> = faces.iter().map(i64::to_string).collect();
        outln!("{text}: [{}] = {v}", faces.join(", "));
    }
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
            [d] if d.code == "mettle::odds::out_of_work" => {
                let help = "raise it with `--budget odds_work=N`";
                if super::json::on() {
                    super::json::fail(&d.code, &d.message, Some(help));
                } else {
                    eprintln!("error[{}]: {}\n  help: {help}", d.code, d.message);
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
