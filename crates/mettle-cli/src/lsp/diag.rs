//! mettle diagnostics as LSP diagnostics (UTF-16 positions), and quick fixes from their help.

use super::analysis::{Analysis, path_to_uri, read_file};
use super::position::LineIndex;
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, DiagnosticRelatedInformation,
    DiagnosticSeverity, Location, NumberOrString, Range, TextEdit, Uri, WorkspaceEdit,
};
use mettle::diagnostics::{Diagnostic, Level};
use std::collections::HashMap;
use std::path::Path;

/// The replacement a diagnostic's help suggests for its main label's text (in `text`): the name in
/// "did you mean `spi`?", or `==` for an `=` where a comparison was meant.
pub fn suggested_fix(d: &Diagnostic, text: &str) -> Option<String> {
    let help = d.help.as_deref()?;
    let span = d.labels.first()?.span;
    let written = text.get(span.start..span.end)?;
    if help.ends_with("write `==`") && written == "=" {
        return Some("==".into());
    }
    let rest = &help[help.find("did you mean `")? + "did you mean `".len()..];
    let fix = &rest[..rest.find('`')?];
    (!fix.is_empty() && fix != written && !written.is_empty()).then(|| fix.to_string())
}

/// Positions in one file: the document itself, or a script file a diagnostic points into.
struct Place<'a> {
    uri: &'a Uri,
    text: &'a str,
    lines: &'a LineIndex,
}

impl Place<'_> {
    fn range(&self, span: mettle::internals::ast::Span) -> Range {
        self.lines.range(self.text, span)
    }
}

/// A script file diagnostics point into.
struct Script {
    uri: Uri,
    text: String,
    lines: LineIndex,
}

/// The diagnostics of `a` (the document at `uri`), grouped by the file they point into: the document
/// first (always present, maybe empty), then script files.
pub fn to_lsp(a: &Analysis, uri: &Uri) -> Vec<(Uri, Vec<lsp_types::Diagnostic>)> {
    let mut scripts: HashMap<String, Option<Script>> = HashMap::new();
    for f in a.diagnostics.iter().filter_map(|d| d.source.as_ref()) {
        scripts.entry(f.name.clone()).or_insert_with(|| {
            let path = Path::new(&f.name);
            let text = if f.text.is_empty() { read_file(path).unwrap_or_default() } else { f.text.clone() };
            let lines = LineIndex::new(&text);
            path_to_uri(path).map(|uri| Script { uri, text, lines })
        });
    }
    let mut out: Vec<(Uri, Vec<lsp_types::Diagnostic>)> = vec![(uri.clone(), vec![])];
    for d in &a.diagnostics {
        let place = match &d.source {
            None => Place { uri, text: &a.text, lines: &a.lines },
            Some(f) => match scripts.get(&f.name) {
                Some(Some(s)) => Place { uri: &s.uri, text: &s.text, lines: &s.lines },
                _ => continue,
            },
        };
        let lsp = convert(d, &place);
        match out.iter_mut().find(|(u, _)| u == place.uri) {
            Some((_, v)) => v.push(lsp),
            None => out.push((place.uri.clone(), vec![lsp])),
        }
    }
    out
}

fn convert(d: &Diagnostic, place: &Place<'_>) -> lsp_types::Diagnostic {
    let range = place.range(d.span());
    let mut message = d.message.clone();
    if let Some(primary) = d.labels.first().filter(|l| !l.text.is_empty() && !d.message.contains(&l.text)) {
        message.push_str(&format!(" ({})", primary.text));
    }
    if let Some(help) = &d.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .skip(1)
        .map(|l| DiagnosticRelatedInformation {
            location: Location::new(place.uri.clone(), place.range(l.span)),
            message: if l.text.is_empty() { d.message.clone() } else { l.text.clone() },
        })
        .collect();
    lsp_types::Diagnostic {
        range,
        severity: Some(match d.level {
            Level::Error => DiagnosticSeverity::ERROR,
            Level::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.clone())),
        code_description: None,
        source: Some("mettle".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: suggested_fix(d, place.text).map(|f| serde_json::json!({ "fix": f })),
    }
}

/// Quick fixes for the diagnostics of `a` that touch the requested range and have a fix.
#[allow(clippy::mutable_key_type, reason = "lsp-types keys a workspace edit's changes by Uri")]
pub fn code_actions(a: &Analysis, params: &CodeActionParams) -> Vec<CodeActionOrCommand> {
    let uri = &params.text_document.uri;
    let want = a.lines.span(&a.text, params.range);
    let mut out = vec![];
    for d in a.diagnostics.iter().filter(|d| d.source.is_none()) {
        let span = d.span();
        if span.end < want.start || span.start > want.end {
            continue;
        }
        let Some(fix) = suggested_fix(d, &a.text) else { continue };
        let place = Place { uri, text: &a.text, lines: &a.lines };
        let edit = TextEdit::new(place.range(span), fix.clone());
        let mut changes = HashMap::new();
        changes.insert(uri.clone(), vec![edit]);
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: format!("Replace with `{fix}`"),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![convert(d, &place)]),
            edit: Some(WorkspaceEdit { changes: Some(changes), ..WorkspaceEdit::default() }),
            command: None,
            is_preferred: Some(true),
            disabled: None,
            data: None,
        }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misspelt_name_has_a_fix_and_utf16_ranges() {
        let text = "/// é é é\ncheck c {\n  input spi: 0..6\n  let x = spy\n  otherwise done\n}\n";
        let a = Analysis::new(text, None, &mettle::Budget::default());
        let uri: Uri = "file:///tmp/r.mettle".parse().unwrap();
        let files = to_lsp(&a, &uri);
        assert_eq!(files.len(), 1);
        let d = &files[0].1[0];
        assert_eq!(d.code, Some(NumberOrString::String("mettle::resolve::unknown_name".into())));
        assert!(d.message.contains("help: did you mean `spi`?"), "{}", d.message);
        assert_eq!(d.range.start, lsp_types::Position::new(3, 10));
        assert_eq!(d.data, Some(serde_json::json!({ "fix": "spi" })));
    }

    #[test]
    fn other_labels_are_related_information() {
        let text = "kind unit { spi: 0..6 }\nkind unit { hp: 0..6 }\n";
        let a = Analysis::new(text, None, &mettle::Budget::default());
        let uri: Uri = "file:///tmp/r.mettle".parse().unwrap();
        let d = &to_lsp(&a, &uri)[0].1[0];
        assert_eq!(d.range.start, lsp_types::Position::new(1, 5));
        let related = d.related_information.as_ref().unwrap();
        assert_eq!(related[0].location.uri, uri);
        assert_eq!(related[0].location.range.start, lsp_types::Position::new(0, 5));
        assert_eq!(related[0].message, "first defined here as a kind");
        assert!(
            d.message.contains("(this kind reuses the name)\nhelp: give one of them another name"),
            "{}",
            d.message
        );
    }

    #[test]
    fn an_equals_sign_in_a_condition_is_fixed_to_a_comparison() {
        let text = "kind unit { spi: 0..6 = 3 }\nevent x(unit: unit)\non x when unit.spi = 1 { }\n";
        let a = Analysis::new(text, None, &mettle::Budget::default());
        let uri: Uri = "file:///tmp/r.mettle".parse().unwrap();
        let range = Range::new(lsp_types::Position::new(2, 0), lsp_types::Position::new(2, 30));
        let params = CodeActionParams {
            text_document: lsp_types::TextDocumentIdentifier { uri: uri.clone() },
            range,
            context: lsp_types::CodeActionContext::default(),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        };
        let actions = code_actions(&a, &params);
        let [CodeActionOrCommand::CodeAction(action)] = actions.as_slice() else { panic!("{actions:?}") };
        let edit = &action.edit.as_ref().unwrap().changes.as_ref().unwrap()[&uri][0];
        assert_eq!(edit.new_text, "==");
        assert_eq!(edit.range.start, lsp_types::Position::new(2, 19));
    }
}
