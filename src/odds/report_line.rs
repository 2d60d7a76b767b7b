//! `mettle odds FILE --scenario S --report EXPR,…`: a scenario's own `report` line replaced by
//! values typed apart from the ruleset, checked as if written at the scenario's end.

use crate::Ruleset;
use crate::ast::{Stmt, StmtKind};
use crate::diagnostics::Diagnostic;

/// Ruleset `rules` with scenario `scenario` reporting `items` (values separated by commas, as after
/// `report`) instead of its own `report` line, if it has one: each end of its odds is then a row of
/// those values. The values are checked at the scenario's end, with every name it made by then.
///
/// Errors (every one found) point into `items`: a syntax error, an unknown name, a value that is
/// no number, yes/no, name or entity, or one that rolls dice or calls a script
/// (`mettle::resolve::report_not_exact`); an unknown scenario is `mettle::odds::unknown_scenario`.
///
/// ```
/// let rules = mettle::Ruleset::from_str("w.mettle", r#"
///     kind unit { morale: steady | shaken | broken = steady }
///     check morale for unit { roll d6  outcome hold when total >= 3 {} otherwise slip { set unit.morale to shift(unit.morale, 1) } }
///     scenario twice { new unit u  roll morale for u  roll morale for u }
/// "#).unwrap();
/// let asked = mettle::odds::with_report(&rules, "twice", "u.morale is broken").unwrap();
/// let report = mettle::odds::scenario(&asked, "twice", 1).unwrap();
/// assert_eq!(report.outcomes[1].name, "u.morale is broken = yes");
/// let bad = mettle::odds::with_report(&rules, "twice", "u.moral").unwrap_err();
/// assert_eq!(bad[0].span().start, 2);
/// ```
pub fn with_report(rules: &Ruleset, scenario: &str, items: &str) -> Result<Ruleset, Vec<Diagnostic>> {
    if !rules.program().scenarios.iter().any(|s| s.name == scenario) {
        let known: Vec<&str> = rules.program().scenarios.iter().map(|s| s.name.as_str()).collect();
        return Err(vec![
            Diagnostic::plain(
                crate::diagnostics::Code::UnknownScenario.path(),
                format!("there is no scenario called `{scenario}`"),
            )
            .with_help(crate::diagnostics::suggest(scenario, "scenario", &known)),
        ]);
    }
    // The values sit after the ruleset's text, on a line of their own: the ruleset's spans stay
    // as they are, and theirs are told apart by where they start.
    let base = rules.text().len() + 1;
    let exprs = crate::syntax::parse_report_at(items, base)?;
    let (mut file, diags) = crate::syntax::parse(rules.text());
    if diags.iter().any(Diagnostic::is_error) {
        return Err(diags);
    }
    for item in &mut file.items {
        if let crate::ast::ItemKind::Scenario(s) = &mut item.kind
            && s.name.name == scenario
        {
            s.body.retain(|st| !matches!(st.kind, StmtKind::Report(_)));
            let span = crate::ast::Span::new(base, base + items.len());
            s.body.push(Stmt { span, kind: StmtKind::Report(exprs.clone()) });
        }
    }
    let text = format!("{}\n{items}", rules.text());
    let (program, diags) = crate::check::check(&file, &text, rules.scripts().cloned());
    let errors: Vec<Diagnostic> =
        diags.into_iter().filter(Diagnostic::is_error).map(|d| d.shifted_back(base)).collect();
    match program {
        Some(program) if errors.is_empty() => Ok(rules.with_program(program, text)),
        _ => Err(errors),
    }
}
