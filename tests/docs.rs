//! Every example in the language reference loads (or fails exactly as the text says), and its
//! scenarios pass: the reference cannot drift from the language.

use mettle::internals::RulesetInternals as _;
use mettle::{Ruleset, Session};

fn examples() -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/language.md")).unwrap();
    let mut out = vec![];
    let mut rest = text.as_str();
    let mut line = 1;
    while let Some(start) = rest.find("```mettle\n") {
        line += rest[..start].matches('\n').count() + 1;
        let body = &rest[start + "```mettle\n".len()..];
        let end = body.find("```").expect("every example block is closed");
        out.push((line, body[..end].to_string()));
        line += body[..end].matches('\n').count();
        rest = &body[end..];
    }
    out
}

#[test]
fn every_language_example_works() {
    let examples = examples();
    assert!(examples.len() >= 20, "the reference has an example for every construct");
    for (line, text) in examples {
        let name = format!("docs/language.md:{line}");
        match Ruleset::from_str(&name, &text) {
            Ok(rules) => {
                for sc in &rules.program().scenarios {
                    let mut s = Session::new(&rules, 0);
                    let report =
                        s.run_scenario(&sc.name).unwrap_or_else(|d| panic!("{name} :: {}: {d}", sc.name));
                    assert!(
                        report.failures.is_empty(),
                        "{name} :: {} failed:\n{:#?}",
                        sc.name,
                        report.failures
                    );
                }
            }
            Err(e) => panic!("{name} does not load:\n{}", e.render(100)),
        }
    }
}
