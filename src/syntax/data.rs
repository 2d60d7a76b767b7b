//! Where a value inside a data literal was written, found again from its path when data is reported.

use super::parse::{MettleParser, Rule};
use crate::ast::Span;
use crate::shape::Step;
use pest::Parser;
use pest::iterators::Pair;

/// The span of the value at `at` inside the data literal written at `lit` of `text` (of its key,
/// when `key` is set and the last step is a field). Falls back on the nearest enclosing value.
pub(crate) fn data_span(text: &str, lit: Span, at: &[Step], key: bool) -> Span {
    let Some(src) = text.get(lit.start..lit.end) else { return lit };
    let Ok(mut pairs) = MettleParser::parse(Rule::data_value, src) else { return lit };
    let Some(mut pair) = pairs.next() else { return lit };
    let span = |p: &Pair<'_, Rule>| {
        let s = p.as_span();
        Span::new(lit.start + s.start(), lit.start + s.start() + s.as_str().trim_end().len())
    };
    for (i, step) in at.iter().enumerate() {
        // A data_value holds one map, list or scalar.
        let inner = if pair.as_rule() == Rule::data_value { pair.clone().into_inner().next() } else { None };
        let Some(inner) = inner.or(Some(pair.clone())) else { break };
        let next = match (step, inner.as_rule()) {
            (Step::Key(k), Rule::data_map) => {
                inner.into_inner().filter(|e| e.as_rule() == Rule::data_entry).find_map(|e| {
                    let mut kids = e.into_inner();
                    let name = kids.next()?;
                    let written = match name.as_rule() {
                        Rule::string => name.as_str().trim_matches('"').to_string(),
                        _ => name.as_str().to_string(),
                    };
                    if written != *k {
                        return None;
                    }
                    if key && i + 1 == at.len() {
                        return Some(name);
                    }
                    kids.find(|p| p.as_rule() == Rule::data_value)
                })
            }
            (Step::Index(n), Rule::data_list) => {
                inner.into_inner().filter(|p| p.as_rule() == Rule::data_value).nth(*n)
            }
            _ => None,
        };
        match next {
            Some(p) => pair = p,
            None => break,
        }
    }
    span(&pair)
}
