//! The outline (document symbols), folding ranges and semantic tokens of a ruleset.

use super::analysis::Analysis;
use super::index::SymKind;
use super::position::Cursor;
use lsp_types::{
    DocumentSymbol, FoldingRange, FoldingRangeKind, SemanticToken, SemanticTokenModifier, SemanticTokenType,
    SemanticTokens, SemanticTokensLegend, SymbolKind,
};
use mettle::internals::ast::{CheckLineKind, ItemKind, Span, Stmt, StmtKind};
use mettle::internals::syntax::words;
use std::collections::HashMap;

fn symbol_kind(k: SymKind) -> SymbolKind {
    match k {
        SymKind::Kind | SymKind::Shape => SymbolKind::STRUCT,
        SymKind::Attribute | SymKind::Fact | SymKind::ShapeField => SymbolKind::FIELD,
        SymKind::State | SymKind::Rung | SymKind::Outcome => SymbolKind::ENUM_MEMBER,
        SymKind::Ladder => SymbolKind::ENUM,
        SymKind::Event => SymbolKind::EVENT,
        SymKind::Formula | SymKind::ScriptFn | SymKind::Reaction => SymbolKind::FUNCTION,
        SymKind::Table => SymbolKind::OBJECT,
        SymKind::Check => SymbolKind::METHOD,
        SymKind::Input => SymbolKind::PROPERTY,
        SymKind::Param | SymKind::Let | SymKind::Variable | SymKind::Choice => SymbolKind::VARIABLE,
        SymKind::Result | SymKind::Option => SymbolKind::CONSTANT,
        SymKind::Scenario => SymbolKind::NAMESPACE,
    }
}

#[allow(deprecated, reason = "DocumentSymbol's `deprecated` field must still be written")]
fn symbol(
    name: String,
    detail: Option<String>,
    kind: SymbolKind,
    range: lsp_types::Range,
    selection: lsp_types::Range,
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    DocumentSymbol {
        name,
        detail,
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: selection,
        children: (!children.is_empty()).then_some(children),
    }
}

/// The members of definition `d` as symbols (attributes with their states, inputs, outcomes…).
fn members(a: &Analysis, d: usize) -> Vec<DocumentSymbol> {
    a.index
        .children(d)
        .filter(|(_, c)| c.file.is_none())
        .map(|(i, c)| {
            let full = c.full.to(c.span);
            symbol(
                c.name.clone(),
                Some(c.detail.clone()),
                symbol_kind(c.kind),
                a.range(full),
                a.range(c.span),
                members(a, i),
            )
        })
        .collect()
}

/// The outline: each item with its members.
pub fn document_symbols(a: &Analysis) -> Vec<DocumentSymbol> {
    let mut out = vec![];
    let mut items: HashMap<(usize, usize), usize> = HashMap::new();
    for (i, d) in a.index.defs.iter().enumerate() {
        if d.parent.is_none() && d.kind.is_item() {
            items.entry((d.full.start, d.full.end)).or_insert(i);
        }
    }
    for item in &a.file.items {
        let range = a.range(item.span);
        match &item.kind {
            ItemKind::Trigger(t) => {
                let name = format!("on {}", t.event.name);
                out.push(symbol(name, None, SymbolKind::EVENT, range, a.range(t.event.span), vec![]));
            }
            ItemKind::Script(_) => {
                let fns: Vec<DocumentSymbol> = a
                    .index
                    .defs
                    .iter()
                    .filter(|d| {
                        d.kind == SymKind::ScriptFn
                            && d.file.is_none()
                            && item.span.start <= d.span.start
                            && d.span.end <= item.span.end
                    })
                    .map(|d| {
                        symbol(
                            d.name.clone(),
                            None,
                            SymbolKind::FUNCTION,
                            a.range(d.span),
                            a.range(d.span),
                            vec![],
                        )
                    })
                    .collect();
                let start = Span::new(item.span.start, (item.span.start + 6).min(item.span.end));
                out.push(symbol("script".into(), None, SymbolKind::MODULE, range, a.range(start), fns));
            }
            _ => {
                let found = items.get(&(item.span.start, item.span.end)).copied();
                if let Some(d) = found {
                    let def = &a.index.defs[d];
                    out.push(symbol(
                        def.name.clone(),
                        Some(def.detail.clone()),
                        symbol_kind(def.kind),
                        range,
                        a.range(def.span),
                        members(a, d),
                    ));
                }
            }
        }
    }
    out
}

fn fold(a: &Analysis, span: Span, kind: Option<FoldingRangeKind>, out: &mut Vec<FoldingRange>) {
    let (start, end) =
        (a.lines.line_of(span.start), a.lines.line_of(span.end.saturating_sub(1).max(span.start)));
    if end > start {
        out.push(FoldingRange {
            start_line: start as u32,
            start_character: None,
            end_line: end as u32,
            end_character: None,
            kind,
            collapsed_text: None,
        });
    }
}

fn fold_stmts(a: &Analysis, stmts: &[Stmt], out: &mut Vec<FoldingRange>) {
    for s in stmts {
        fold(a, s.span, None, out);
        match &s.kind {
            StmtKind::If { then, otherwise, .. } | StmtKind::Chance { then, otherwise, .. } => {
                fold_stmts(a, then, out);
                fold_stmts(a, otherwise, out);
            }
            StmtKind::ForEach { body, .. } | StmtKind::Repeat { body, .. } => fold_stmts(a, body, out),
            _ => {}
        }
    }
}

/// Folding ranges: items, blocks, and runs of comment lines.
pub fn folding_ranges(a: &Analysis) -> Vec<FoldingRange> {
    let mut out = vec![];
    for item in &a.file.items {
        fold(a, item.span, None, &mut out);
        match &item.kind {
            ItemKind::Check(c) => {
                for l in &c.lines {
                    fold(a, l.span, None, &mut out);
                    if let CheckLineKind::Outcome(o) = &l.kind {
                        fold_stmts(a, &o.body, &mut out);
                    }
                }
            }
            ItemKind::Trigger(t) => fold_stmts(a, &t.body, &mut out),
            ItemKind::Scenario(s) => fold_stmts(a, &s.body, &mut out),
            _ => {}
        }
    }
    let mut run: Option<(usize, usize)> = None;
    for (n, line) in a.text.split('\n').enumerate() {
        if line.trim_start().starts_with("//") {
            run = Some(run.map_or((n, n), |(s, _)| (s, n)));
        } else if let Some((s, e)) = run.take()
            && e > s
        {
            out.push(FoldingRange {
                start_line: s as u32,
                end_line: e as u32,
                kind: Some(FoldingRangeKind::Comment),
                ..FoldingRange::default()
            });
        }
    }
    out.sort_by_key(|f| (f.start_line, f.end_line));
    out.dedup_by_key(|f| (f.start_line, f.end_line));
    out
}

/// The token types of the legend, in order.
const TYPES: &[SemanticTokenType] = &[
    SemanticTokenType::KEYWORD,
    SemanticTokenType::TYPE,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::EVENT,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::STRING,
    SemanticTokenType::NUMBER,
    SemanticTokenType::COMMENT,
    SemanticTokenType::NAMESPACE,
];

/// The legend of the semantic tokens.
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: vec![SemanticTokenModifier::DECLARATION, SemanticTokenModifier::DOCUMENTATION],
    }
}

fn token_type(k: SymKind) -> u32 {
    match k {
        SymKind::Kind | SymKind::Ladder | SymKind::Shape => 1,
        SymKind::State | SymKind::Rung | SymKind::Outcome | SymKind::Result => 2,
        SymKind::Event => 3,
        SymKind::Formula | SymKind::Table | SymKind::Check | SymKind::ScriptFn | SymKind::Reaction => 4,
        SymKind::Attribute | SymKind::ShapeField => 5,
        SymKind::Fact | SymKind::Input | SymKind::Param => 6,
        SymKind::Let | SymKind::Variable | SymKind::Choice | SymKind::Option => 7,
        SymKind::Scenario => 11,
    }
}

/// Semantic tokens of the whole document: comments, strings, numbers, keywords, and each name by what
/// it names (with `declaration` where it is defined).
pub fn semantic_tokens(a: &Analysis) -> SemanticTokens {
    let mut named: HashMap<usize, (usize, u32, u32)> = HashMap::new();
    for (s, d) in &a.index.refs {
        named.insert(s.start, (s.end, token_type(a.index.defs[*d].kind), 0));
    }
    for d in a.index.defs.iter().filter(|d| d.file.is_none()) {
        named.insert(d.span.start, (d.span.end, token_type(d.kind), 1));
    }
    // Inline script code is Rhai: only the functions it defines are marked.
    let scripts: Vec<Span> = a
        .file
        .items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::Script(s) if !s.is_file => Some(s.source.1),
            _ => None,
        })
        .collect();
    let text = a.text.as_bytes();
    let mut raw: Vec<(usize, usize, u32, u32)> = vec![];
    let mut i = 0;
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    while i < text.len() {
        if let Some(s) = scripts.iter().find(|s| s.start <= i && i < s.end) {
            for (&start, &(end, ty, m)) in &named {
                if s.start <= start && end <= s.end {
                    raw.push((start, end, ty, m));
                }
            }
            i = s.end;
            continue;
        }
        let b = text[i];
        let start = i;
        if b == b'/' && text.get(i + 1) == Some(&b'/') {
            let doc = text.get(i + 2) == Some(&b'/');
            while i < text.len() && text[i] != b'\n' {
                i += 1;
            }
            raw.push((start, i, 10, if doc { 2 } else { 0 }));
        } else if b == b'"' {
            i += 1;
            while i < text.len() && text[i] != b'"' && text[i] != b'\n' {
                i += 1;
            }
            i = (i + usize::from(text.get(i) == Some(&b'"'))).min(text.len());
            raw.push((start, i, 8, 0));
        } else if b.is_ascii_digit() {
            while i < text.len() && word(text[i]) {
                i += 1;
            }
            raw.push((start, i, 9, 0));
        } else if word(b) {
            while i < text.len() && word(text[i]) {
                i += 1;
            }
            let w = &a.text[start..i];
            if let Some(&(end, ty, m)) = named.get(&start).filter(|(e, ..)| *e == i) {
                raw.push((start, end, ty, m));
            } else if words::WORDS.iter().any(|k| k.text == w) {
                // A word of the language that names nothing here (`roll`, `input` are words only
                // where the grammar expects them, and names elsewhere).
                raw.push((start, i, 0, 0));
            } else if w.starts_with('d') && w.len() > 1 && w[1..].bytes().all(|c| c.is_ascii_digit()) {
                raw.push((start, i, 9, 0));
            }
        } else {
            i += a.text[i..].chars().next().map_or(1, char::len_utf8);
        }
    }
    raw.sort_by_key(|t| t.0);
    let mut data = vec![];
    let (mut line, mut col) = (0u32, 0u32);
    let mut cursor = Cursor::new(&a.text);
    for (start, end, ty, m) in raw {
        let p = cursor.to(start);
        let e = cursor.to(end);
        if e.line != p.line
            || e.character <= p.character
            || (p.line == line && p.character < col && !data.is_empty())
        {
            continue;
        }
        let delta_line = p.line - line;
        let delta_start = if delta_line == 0 { p.character - col } else { p.character };
        data.push(SemanticToken {
            delta_line,
            delta_start,
            length: e.character - p.character,
            token_type: ty,
            token_modifiers_bitset: m,
        });
        (line, col) = (p.line, p.character);
    }
    SemanticTokens { result_id: None, data }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "/// A unit — ü.\nkind unit {\n  morale: steady | shaken = steady\n}\nevent hit(unit: unit)\n\
                        on hit when unit.morale is shaken {\n  note \"ouch\"\n  set unit.morale to steady\n}\n";

    /// Each token as (text, type name, modifiers).
    fn decoded(a: &Analysis) -> Vec<(String, String, u32)> {
        let lines: Vec<Vec<u16>> = a.text.split('\n').map(|l| l.encode_utf16().collect()).collect();
        let (mut line, mut col) = (0usize, 0usize);
        let mut out = vec![];
        for t in semantic_tokens(a).data {
            if t.delta_line > 0 {
                line += t.delta_line as usize;
                col = t.delta_start as usize;
            } else {
                col += t.delta_start as usize;
            }
            let text = String::from_utf16(&lines[line][col..col + t.length as usize]).unwrap();
            out.push((text, TYPES[t.token_type as usize].as_str().to_string(), t.token_modifiers_bitset));
        }
        out
    }

    #[test]
    fn tokens_say_what_each_name_is() {
        let a = Analysis::new(TEXT, None, &Default::default());
        let t = decoded(&a);
        let has = |text: &str, ty: &str, m: u32| t.iter().any(|x| x.0 == text && x.1 == ty && x.2 == m);
        assert!(has("/// A unit — ü.", "comment", 2), "{t:?}");
        assert!(has("kind", "keyword", 0));
        assert!(has("unit", "type", 1), "the kind's declaration: {t:?}");
        assert!(has("morale", "property", 1) && has("morale", "property", 0));
        assert!(has("shaken", "enumMember", 1) && has("shaken", "enumMember", 0));
        assert!(has("hit", "event", 1) && has("hit", "event", 0));
        assert!(has("unit", "parameter", 1), "the fact: {t:?}");
        assert!(has("\"ouch\"", "string", 0));
    }

    #[test]
    fn outline_and_folds() {
        let a = Analysis::new(TEXT, None, &Default::default());
        let symbols = document_symbols(&a);
        let names: Vec<&str> = symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["unit", "hit", "on hit"]);
        let morale = &symbols[0].children.as_ref().unwrap()[0];
        assert_eq!(morale.name, "morale");
        let states: Vec<&str> = morale.children.as_ref().unwrap().iter().map(|s| s.name.as_str()).collect();
        assert_eq!(states, ["steady", "shaken"]);
        let folds: Vec<(u32, u32)> = folding_ranges(&a).iter().map(|f| (f.start_line, f.end_line)).collect();
        assert!(folds.contains(&(1, 3)) && folds.contains(&(5, 8)), "{folds:?}");
    }
}
