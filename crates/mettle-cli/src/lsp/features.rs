//! Hover, go to definition, find references, highlights and rename.

use super::analysis::{Analysis, path_to_uri, read_file};
use super::index::{Def, SymKind};
use super::odds::OddsCache;
use super::position::LineIndex;
use lsp_types::{
    DocumentHighlight, DocumentHighlightKind, Hover, HoverContents, Location, MarkupContent, MarkupKind,
    Position, PrepareRenameResponse, TextEdit, Uri, WorkspaceEdit,
};
use mettle::Ruleset;
use mettle::internals::RulesetInternals as _;
use mettle::internals::ast::{CheckLineKind, ItemKind, Span};
use mettle::internals::syntax::words;
use std::collections::HashMap;

/// Names every ruleset has, and what they are.
const BUILT_IN: &[(&str, &str)] = &[
    ("round_start", "built-in time event: adds 1 to `round`, then runs its rules"),
    ("turn_start", "built-in time event: adds 1 to `turn`, then runs its rules"),
    ("turn_end", "built-in time event: runs its rules, then undoes changes made `until end of turn`"),
    ("round_end", "built-in time event: runs its rules, then undoes changes made until the end of the round"),
    ("round", "built-in counter: the rounds started (`round_start`), 0 when a game starts"),
    ("turn", "built-in counter: the turns started (`turn_start`), 0 when a game starts"),
    ("game", "built-in: the result once the game has ended, else `none`"),
    ("winner", "built-in: the winner named by `end game … for`, else `none`"),
    ("dice", "in a check: the pool of dice rolled, including dice added by modifiers"),
    ("natural", "in a check: the face of the first die rolled"),
    ("total", "in a check: the value of the pool plus all flat modifiers"),
    ("target", "in a check: the target"),
    ("margin", "in a check: `total - target` (`target - total` for a roll-under check): positive for a pass"),
    (
        "reroll",
        "in a check: `reroll when fail once` rolls the whole check again when it lands on these outcomes (`once`: at most once; without it, until another outcome, at most 100 times; `if CONDITION`: only when it holds)",
    ),
    ("once", "in a check's `reroll` line: roll the check again at most once"),
    (
        "max",
        "the largest of numbers, `max(a, b)`; or the highest over a kind, `max(u.leadership for each unit u where … else 0)` (`else`: what no unit gives)",
    ),
    (
        "min",
        "the smallest of numbers, `min(a, b)`; or the lowest over a kind, `min(u.nerve for each unit u where … else 0)` (`else`: what no unit gives)",
    ),
    (
        "sum",
        "the sum of dice, `sum(dice)`; or a total over a kind, `sum(u.control for each unit u where …)` (0 for none)",
    ),
    (
        "count",
        "dice matching, `count(dice, >= 5)`; or entities that pass, `count(each unit u where u.broken)` (0 for none)",
    ),
    (
        "any",
        "yes if a die matches, `any(dice, 1)`; or if an entity passes, `any(each unit u where u.broken)` (no for none)",
    ),
    (
        "all",
        "yes if every die matches, `all(dice, >= 4)`; or if every entity is yes, `all(u.broken for each unit u where …)` (yes for none)",
    ),
    ("var", "a value a rule can change: `var n = 0`, then `set n to …`, `add 1 to n`, `remove 1 from n`"),
    (
        "record",
        "notes a number or yes/no under a label, `record \"turns\" = turn`: `mettle odds` and `mettle sim` give the distribution of the last value recorded under each label",
    ),
    (
        "report",
        "in a scenario, once, at its top level: what each row of its odds (`mettle odds FILE --scenario NAME`) shows, read when it has ended, `report winner, turn <= 6`; numbers, yes/no, names and entities of the game's state, no dice or scripts (`--report` replaces it for one question)",
    ),
];

/// The hover for a built-in name at `offset`, if one is there.
fn built_in_hover(a: &Analysis, offset: usize) -> Option<Hover> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let start =
        a.text[..offset].char_indices().rev().find(|&(_, c)| !word(c)).map_or(0, |(i, c)| i + c.len_utf8());
    let end = a.text[offset..].find(|c: char| !word(c)).map_or(a.text.len(), |i| offset + i);
    let name = &a.text[start..end];
    let (_, what) = BUILT_IN.iter().find(|(n, _)| *n == name)?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: format!("```mettle\n{name}\n```\n\n_{what}_"),
        }),
        range: Some(a.range(Span::new(start, end))),
    })
}

/// The hover at `pos`: what the name there is, its declaration, doc, and for a check its dice, target
/// and exact odds at default inputs (from `rules`, the last ruleset that loaded).
pub fn hover(a: &Analysis, pos: Position, rules: Option<&Ruleset>, cache: &mut OddsCache) -> Option<Hover> {
    let offset = a.offset(pos);
    let Some((span, d)) = a.index.at(offset) else { return built_in_hover(a, offset) };
    let def = &a.index.defs[d];
    let mut parts = vec![format!("```mettle\n{}\n```", signature(a, def, rules))];
    let mut what = def.kind.word().to_string();
    if let Some(p) = def.parent {
        let parent = &a.index.defs[p];
        what = format!("{what} of {} `{}`", parent.kind.word(), parent.name);
    }
    if let Some(file) = &def.file {
        what = format!("{what}, in `{file}`");
    }
    parts.push(format!("_{what}_"));
    if let Some(doc) = &def.doc {
        parts.push(doc.clone());
    }
    match def.kind {
        SymKind::Kind => {
            let attrs: Vec<String> = a.index.children(d).map(|(_, c)| format!("- `{}`", c.detail)).collect();
            if !attrs.is_empty() {
                parts.push(format!("Attributes:\n{}", attrs.join("\n")));
            }
        }
        SymKind::Check => {
            if let Some(line) = check_summary(a, &def.name) {
                parts.push(line);
            }
            if let Some(odds) = rules.and_then(|r| cache.odds(r, &def.name)) {
                parts.push(odds);
                if a.ruleset.is_none() {
                    parts.push("_(odds of the last version of this file without errors)_".into());
                }
            }
        }
        _ => {}
    }
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: parts.join("\n\n"),
        }),
        range: Some(a.range(span)),
    })
}

/// The declaration of `def` as shown in a hover.
fn signature(a: &Analysis, def: &Def, rules: Option<&Ruleset>) -> String {
    match def.kind {
        SymKind::ScriptFn => {
            let params = rules
                .and_then(|r| r.scripts().cloned())
                .and_then(|s| s.functions.iter().find(|f| f.name == def.name).map(|f| f.params.join(", ")));
            match params {
                Some(p) => format!("fn {}({p})", def.name),
                None => def.detail.clone(),
            }
        }
        SymKind::State | SymKind::Rung if def.detail == def.name => match def.parent {
            Some(p) => format!("{} (of {})", def.name, a.index.defs[p].detail),
            None => def.name.clone(),
        },
        _ if def.detail.len() > 300 => format!("{}…", def.detail.chars().take(300).collect::<String>()),
        _ => def.detail.clone(),
    }
}

/// "Roll `d6` · target `7` · outcomes …" for the check called `name`.
fn check_summary(a: &Analysis, name: &str) -> Option<String> {
    let c = a.file.items.iter().find_map(|i| match &i.kind {
        ItemKind::Check(c) if c.name.name == name => Some(c),
        _ => None,
    })?;
    let src =
        |s: Span| a.text.get(s.start..s.end).unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ");
    let mut parts = vec![];
    let mut outcomes = vec![];
    for line in &c.lines {
        match &line.kind {
            CheckLineKind::Roll { dice, name } => {
                let named = name.as_ref().map(|n| format!(" (first die: `{}`)", n.name)).unwrap_or_default();
                parts.push(format!("**Roll** `{}`{named}", src(dice.span)));
            }
            CheckLineKind::Target(e) => parts.push(format!("**Target** `{}`", src(e.span))),
            CheckLineKind::Modifier(m) => {
                parts.push(format!("modifier {} `{}`", m.label.0, src(m.amount.span)))
            }
            CheckLineKind::Outcome(o) => outcomes.push(format!("`{}`", o.name.name)),
            CheckLineKind::Reroll(r) => {
                let names: Vec<String> = r.outcomes.iter().map(|o| format!("`{}`", o.name)).collect();
                let once = if r.once { " once" } else { "" };
                let cond = r.when.as_ref().map(|w| format!(" if `{}`", src(w.span))).unwrap_or_default();
                parts.push(format!("**Rolled again** on {}{once}{cond}", names.join(", ")));
            }
            _ => {}
        }
    }
    if !outcomes.is_empty() {
        parts.push(format!("**Outcomes** {}", outcomes.join(", ")));
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// Where `def` is defined: in the document, or in a script file.
pub fn location_of(a: &Analysis, uri: &Uri, def: &Def) -> Option<Location> {
    match &def.file {
        None => Some(Location::new(uri.clone(), a.range(def.span))),
        Some(name) => {
            let path = a.script_path(name)?;
            let text = read_file(&path)?;
            let lines = LineIndex::new(&text);
            Some(Location::new(path_to_uri(&path)?, lines.range(&text, def.span)))
        }
    }
}

/// The definition of the name at `pos`.
pub fn definition(a: &Analysis, uri: &Uri, pos: Position) -> Option<Location> {
    let (_, d) = a.index.at(a.offset(pos))?;
    location_of(a, uri, &a.index.defs[d])
}

/// Every use of the name at `pos` (and its definition, when asked).
pub fn references(a: &Analysis, uri: &Uri, pos: Position, declaration: bool) -> Vec<Location> {
    let Some((_, d)) = a.index.at(a.offset(pos)) else { return vec![] };
    let mut out = vec![];
    if declaration && let Some(l) = location_of(a, uri, &a.index.defs[d]) {
        out.push(l);
    }
    out.extend(a.index.uses(d).into_iter().map(|s| Location::new(uri.clone(), a.range(s))));
    out
}

/// The name at `pos` highlighted where it is defined and used in the document.
pub fn highlights(a: &Analysis, pos: Position) -> Vec<DocumentHighlight> {
    let Some((_, d)) = a.index.at(a.offset(pos)) else { return vec![] };
    let def = &a.index.defs[d];
    let mut out: Vec<DocumentHighlight> = a
        .index
        .uses(d)
        .into_iter()
        .map(|s| DocumentHighlight { range: a.range(s), kind: Some(DocumentHighlightKind::READ) })
        .collect();
    if def.file.is_none() {
        out.push(DocumentHighlight { range: a.range(def.span), kind: Some(DocumentHighlightKind::WRITE) });
    }
    out
}

/// Whether the name at `pos` can be renamed here: a name defined in this document.
pub fn prepare_rename(a: &Analysis, pos: Position) -> Option<PrepareRenameResponse> {
    let (span, d) = a.index.at(a.offset(pos))?;
    a.index.defs[d].file.is_none().then(|| PrepareRenameResponse::Range(a.range(span)))
}

/// Whether `name` can be a name.
pub fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !words::is_reserved(name)
}

/// Kinds of item whose names share one namespace: no two of them may have the same name.
const ITEMS: &[SymKind] = &[
    SymKind::Kind,
    SymKind::Ladder,
    SymKind::Event,
    SymKind::Formula,
    SymKind::Table,
    SymKind::Check,
    SymKind::Option,
    SymKind::Shape,
    SymKind::Reaction,
];

/// A rename refused: a code such as `mettle::lsp::rename_taken` and a sentence for the editor.
pub type RenameRefused = (&'static str, String);

/// The edits renaming the name at `pos` to `new_name` across the document. A name that is not a
/// name, is built in, or is taken by another item (or another member of the same parent) is refused:
/// the ruleset would no longer load.
#[allow(clippy::mutable_key_type, reason = "lsp-types keys a workspace edit's changes by Uri")]
pub fn rename(
    a: &Analysis,
    uri: &Uri,
    pos: Position,
    new_name: &str,
) -> Result<Option<WorkspaceEdit>, RenameRefused> {
    if !valid_name(new_name) {
        return Err((
            "mettle::lsp::rename_invalid",
            format!(
                "`{new_name}` cannot be a name: a name is a letter or `_` then letters, digits and `_`, and not a keyword"
            ),
        ));
    }
    let Some((_, d)) = a.index.at(a.offset(pos)) else { return Ok(None) };
    let def = &a.index.defs[d];
    if def.file.is_some() {
        return Err((
            "mettle::lsp::rename_elsewhere",
            format!("`{}` is defined in a script file; rename it there", def.name),
        ));
    }
    let item = def.parent.is_none() && ITEMS.contains(&def.kind);
    let what = def.kind.word();
    match (item && new_name != def.name).then(|| mettle::internals::check::reserved(new_name, what)).flatten()
    {
        Some(mettle::internals::check::Reserved::Function) => {
            return Err((
                "mettle::lsp::rename_reserved",
                format!(
                    "`{new_name}` is a built-in function, which a {what} cannot be called; choose another name, such as `my_{new_name}`"
                ),
            ));
        }
        Some(mettle::internals::check::Reserved::Name) => {
            return Err((
                "mettle::lsp::rename_reserved",
                format!("`{new_name}` is a built-in name; {}", mettle::internals::check::RESERVED_HELP),
            ));
        }
        None => {}
    }
    let taken = match def.parent {
        Some(p) => a.index.child(p, new_name, &[def.kind]),
        None if item => {
            ITEMS.iter().find_map(|&k| a.index.find(k, new_name).or_else(|| a.index.find_any(k, new_name)))
        }
        None if def.kind.is_item() => a.index.find(def.kind, new_name),
        None => None,
    };
    if let Some(other) = taken.filter(|&o| o != d) {
        let other = &a.index.defs[other];
        let line = a.range(other.span).start.line + 1;
        return Err((
            "mettle::lsp::rename_taken",
            format!(
                "there is already a {} called `{new_name}` (line {line}); choose another name, or rename that one first",
                other.kind.word()
            ),
        ));
    }
    let mut spans = a.index.uses(d);
    spans.push(def.span);
    spans.sort_by_key(|s| s.start);
    spans.dedup();
    let edits = spans.into_iter().map(|s| TextEdit::new(a.range(s), new_name.to_string())).collect();
    let mut changes = HashMap::new();
    changes.insert(uri.clone(), edits);
    Ok(Some(WorkspaceEdit { changes: Some(changes), ..WorkspaceEdit::default() }))
}
