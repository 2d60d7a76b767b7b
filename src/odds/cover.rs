//! Whether the outcomes of a check written without `otherwise` cover every roll: decided exactly,
//! for a check whose inputs have a few values each and whose rules read nothing of the game, by
//! settling every distinct roll of every combination of inputs.

use super::check::check_odds;
use super::lint::{readings, reads_state};
use super::scan;
use crate::Ruleset;
use crate::diagnostics::Diagnostic;
use crate::program::*;

/// What the exact analysis says of a check's outcomes.
pub(crate) enum Cover {
    /// Every roll, with any values of the inputs, matches an outcome.
    Every,
    /// Some roll matches none: with these inputs (`spi = 0`), when it has any.
    Misses(String),
    /// It cannot be told exactly (the check reads the game's state, an input is open-ended, the
    /// dice are too many to follow, or the work ran out).
    Unknown,
}

/// Settles each `missing_otherwise` error of a ruleset that compiled apart from them: one whose
/// outcomes cover every roll is dropped; one whose outcomes surely miss some rolls says so.
pub(crate) fn settle_missing_otherwise(rules: &Ruleset, diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let p = rules.program();
    let mut out = vec![];
    for mut d in diags {
        if !d.is(crate::diagnostics::Code::MissingOtherwise) {
            out.push(d);
            continue;
        }
        let Some(id) =
            p.checks.iter().position(|c| c.span.start <= d.span().start && d.span().end <= c.span.end)
        else {
            out.push(d);
            continue;
        };
        let (cover, _) = super::work::within(rules.budget().odds_work, || cover(rules, id as CheckId));
        match cover {
            Cover::Every => {}
            Cover::Misses(with) => {
                d.labels[0].text = format!("some rolls{with} match no outcome");
                out.push(d);
            }
            Cover::Unknown => {
                let help = d.help.take().unwrap_or_default();
                d.help = Some(format!(
                    "mettle cannot work out whether these outcomes cover every roll (they read the game's state, \
                     or the inputs or dice are too many to follow); {help}"
                ));
                out.push(d);
            }
        }
    }
    out
}

/// Whether the outcomes of check `id` cover every roll.
fn cover(rules: &Ruleset, id: CheckId) -> Cover {
    let p = rules.program();
    let c = &p.checks[id as usize];
    let (before, after) = scan::parts(c);
    if before.iter().chain(&after).any(|e| reads_state(p, e, c.slots.subject)) {
        return Cover::Unknown;
    }
    let Some((domains, options)) = readings(p, c, &before, &after) else { return Cover::Unknown };
    let mut session = crate::Session::new(rules, 0);
    let subject = match c.subject {
        Some(k) => match session.create_stand_in(&p.kinds[k as usize].name, "stand-in", &[]) {
            Ok(s) => Some(s),
            Err(_) => return Cover::Unknown,
        },
        None => None,
    };
    let n = c.inputs.len();
    let mut pick = vec![0usize; domains.len()];
    loop {
        let args: Vec<(u32, Value)> =
            pick[..n].iter().enumerate().map(|(i, &k)| (i as u32, domains[i][k].clone())).collect();
        for (j, &o) in options.iter().enumerate() {
            session.set_option_at(o, domains[n + j][pick[n + j]].clone());
        }
        let Ok(prepared) = session.prepare(id, subject, args.clone()) else { return Cover::Unknown };
        match check_odds(&mut session, &prepared) {
            _ if super::work::dry() => return Cover::Unknown,
            Ok(Ok(_)) => {}
            Err(d) if d.is(crate::diagnostics::Code::NoOutcome) => {
                let shown: Vec<String> = args
                    .iter()
                    .map(|(i, v)| format!("{} = {}", c.inputs[*i as usize].field.name, show(p, v)))
                    .collect();
                let with =
                    if shown.is_empty() { String::new() } else { format!(" with {}", shown.join(", ")) };
                return Cover::Misses(with);
            }
            _ => return Cover::Unknown,
        }
        // The next combination, the last input changing fastest.
        let mut i = pick.len();
        loop {
            if i == 0 {
                return Cover::Every;
            }
            i -= 1;
            pick[i] += 1;
            if pick[i] < domains[i].len() {
                break;
            }
            pick[i] = 0;
        }
    }
}

/// An input's value as written in a ruleset.
fn show(p: &Program, v: &Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.into(),
        Value::Name { set, index } => {
            p.sets.get(*set as usize).and_then(|s| s.names.get(*index as usize)).cloned().unwrap_or_default()
        }
        _ => "…".into(),
    }
}
