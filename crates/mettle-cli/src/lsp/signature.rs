//! Signature help: the facts, inputs, attributes or parameters a call or a `roll … with` takes.

use super::analysis::Analysis;
use super::index::{Index, SymKind};
use lsp_types::{
    Documentation, MarkupContent, MarkupKind, ParameterInformation, ParameterLabel, Position, SignatureHelp,
    SignatureInformation,
};

/// What is being called at the end of `before` (the statement so far), and how many arguments are
/// already written: the owner's kind and name, and the argument index.
fn context(before: &str) -> Option<(SymKind, String, u32)> {
    let bytes = before.as_bytes();
    let mut depth = 0i32;
    let mut commas = 0u32;
    let mut in_str = false;
    // Walk back to the innermost open bracket, counting the commas at its level.
    for i in (0..bytes.len()).rev() {
        match bytes[i] {
            b'"' => in_str = !in_str,
            _ if in_str => {}
            b')' | b']' | b'}' => depth += 1,
            b'[' | b'{' if depth == 0 => break,
            b'(' | b'[' | b'{' => depth -= 1,
            b',' if depth == 0 => commas += 1,
            _ => {}
        }
        if depth < 0 {
            let head = before[..i].trim_end();
            let name_start = head.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_').len();
            let name = &head[name_start..];
            if name.is_empty() {
                return None;
            }
            let kind = if head[..name_start].trim_end().ends_with("trigger") {
                SymKind::Event
            } else {
                SymKind::Formula
            };
            return Some((kind, name.to_string(), commas));
        }
    }
    // `roll CHECK … with a = 1, …` and `new KIND name with a = 1, …`.
    let words: Vec<&str> =
        before.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
    let with = words.iter().rposition(|w| *w == "with")?;
    let after_with = &before[before.rfind("with")? + 4..];
    let commas = after_with.matches(',').count() as u32;
    let roll = words[..with].iter().rposition(|w| *w == "roll");
    let new = words[..with].iter().rposition(|w| *w == "new");
    match (roll, new) {
        (Some(r), n) if n.is_none_or(|n| r > n) => {
            Some((SymKind::Check, words.get(r + 1)?.to_string(), commas))
        }
        (_, Some(n)) => Some((SymKind::Kind, words.get(n + 1)?.to_string(), commas)),
        _ => None,
    }
}

/// The signature of `owner` in `ix`: its label and its parameters' declarations.
fn signature(ix: &Index, kind: SymKind, name: &str) -> Option<(String, Vec<String>, Option<String>)> {
    let (owner, members): (usize, &[SymKind]) = match kind {
        SymKind::Event => (ix.find(SymKind::Event, name)?, &[SymKind::Fact]),
        SymKind::Check => (ix.find(SymKind::Check, name)?, &[SymKind::Input]),
        SymKind::Kind => (ix.find(SymKind::Kind, name)?, &[SymKind::Attribute]),
        _ => {
            let d = ix.find(SymKind::Formula, name).or_else(|| ix.find(SymKind::Table, name))?;
            (d, &[SymKind::Param])
        }
    };
    let params: Vec<String> = ix
        .children(owner)
        .filter(|(_, c)| members.contains(&c.kind))
        .map(|(_, c)| c.detail.clone())
        .collect();
    let label = match kind {
        SymKind::Check => format!("roll {name} with {}", params.join(", ")),
        SymKind::Kind => format!("new {name} NAME with {}", params.join(", ")),
        SymKind::Event => format!("trigger {name}({})", params.join(", ")),
        _ => format!("{name}({})", params.join(", ")),
    };
    Some((label, params, ix.defs[owner].doc.clone()))
}

/// Signature help at `pos`: the statement back to its start (lines ending in `,` or `(` continue it).
pub fn signature_help(a: &Analysis, before_a: Option<&Analysis>, pos: Position) -> Option<SignatureHelp> {
    let offset = a.offset(pos);
    let text = &a.text[..offset];
    let mut start = text.rfind('\n').map_or(0, |i| i + 1);
    while start > 0 {
        let prev_start = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
        let prev = text[prev_start..start - 1].trim_end();
        if !(prev.ends_with(',') || prev.ends_with('(')) {
            break;
        }
        start = prev_start;
    }
    let (kind, name, active) = context(&text[start..])?;
    let (label, params, doc) = signature(&a.index, kind, &name)
        .or_else(|| before_a.and_then(|b| signature(&b.index, kind, &name)))?;
    let parameters = params
        .into_iter()
        .map(|p| ParameterInformation { label: ParameterLabel::Simple(p), documentation: None })
        .collect();
    Some(SignatureHelp {
        signatures: vec![SignatureInformation {
            label,
            documentation: doc.map(|d| {
                Documentation::MarkupContent(MarkupContent { kind: MarkupKind::Markdown, value: d })
            }),
            parameters: Some(parameters),
            active_parameter: Some(active),
        }],
        active_signature: Some(0),
        active_parameter: Some(active),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "kind unit { spi: 0..6 = 3  hp: 0..9 }\n/// Hit.\nevent hit(unit: unit, loss: 0..9)\n\
                        check c for unit { input bonus: 0..2  input edge: flag = no  roll d6  otherwise x }\n\
                        define grit(n: 0..6, m: 0..6) = n + m\n";

    fn help(typed: &str) -> Option<(String, u32)> {
        let text = format!("{TEXT}scenario s {{\n  {typed}");
        let a = Analysis::new(&text, None, &Default::default());
        let h = signature_help(&a, None, a.lines.position(&a.text, text.len()))?;
        Some((h.signatures[0].label.clone(), h.active_parameter.unwrap()))
    }

    #[test]
    fn signatures_of_calls_rolls_and_new_entities() {
        assert_eq!(help("trigger hit(").unwrap(), ("trigger hit(unit: unit, loss: 0..9)".into(), 0));
        assert_eq!(help("trigger hit(unit: u, ").unwrap().1, 1);
        assert_eq!(
            help("roll c for u with bonus = 1, ").unwrap(),
            ("roll c with bonus: 0..2, edge: flag = no".into(), 1)
        );
        assert_eq!(
            help("new unit u with ").unwrap(),
            ("new unit NAME with spi: 0..6 = 3, hp: 0..9".into(), 0)
        );
        assert_eq!(help("let g = grit(1, (2 + 3)").unwrap(), ("grit(n: 0..6, m: 0..6)".into(), 1));
        assert_eq!(help("roll c for u with bonus = 1,\n    edge = yes, ").unwrap().1, 2);
        assert!(help("let g = 1 + ").is_none());
        assert!(help("trigger nothing(").is_none());
        assert!(help("let é(").is_none());
        assert_eq!(help("let x = é+grit(").unwrap().1, 0);
    }
}
