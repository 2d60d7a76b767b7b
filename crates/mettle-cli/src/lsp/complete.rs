//! Completion by context: attributes after `unit.`, states after `is`, checks after `roll`, and more.

use super::analysis::Analysis;
use super::index::{Def, Index, SymKind};
use lsp_types::{
    CompletionItem, CompletionItemKind, Documentation, InsertTextFormat, MarkupContent, MarkupKind, Position,
};
use mettle::internals::program::TIME_EVENTS;
use mettle::internals::syntax::words;

/// Snippets for each top-level construct: label, detail, body.
const ITEM_SNIPPETS: &[(&str, &str, &str)] = &[
    ("ruleset", "the ruleset's title", "ruleset \"${1:Title}\""),
    ("kind", "a kind of entity with attributes", "kind ${1:unit} {\n\t${2:spi}: ${3:0..6} = ${4:3}\n}"),
    (
        "ladder",
        "ordered names with numbers",
        "ladder ${1:difficulty} { ${2:easy} = ${3:5}, ${4:hard} = ${5:9} }",
    ),
    ("event", "an event and its facts", "event ${1:name}(${2:unit}: ${3:unit})"),
    ("define", "a formula", "define ${1:name}(${2:n}: ${3:0..}) = ${4:n + 1}"),
    (
        "table",
        "a table",
        "table ${1:name}(${2:roll}: ${3:2..12}) -> ${4:flee | stand} {\n\t${5:2..6}: ${6:flee}\n\totherwise: ${7:stand}\n}",
    ),
    (
        "check",
        "a check with dice and outcomes",
        "check ${1:morale} for ${2:unit} {\n\troll ${3:2d6}\n\ttarget ${4:7}\n\toutcome ${5:pass} when total >= target\n\totherwise ${6:fail}\n}",
    ),
    ("on", "a rule run when an event happens", "on ${1:event} {\n\t$0\n}"),
    ("result", "a result a game can end with", "result ${1:name} \"${2:Label}\""),
    ("scenario", "a scenario with expectations", "scenario ${1:name} \"${2:Title}\" {\n\t$0\n}"),
    ("script", "Rhai functions in a file", "script \"${1:rules.rhai}\""),
    (
        "reaction",
        "steps a rule runs with `follow`, giving orders",
        "reaction ${1:name}(${2:c}: ${3:creature}, ${4:s}: ${5:situation}) {\n\t$0\n}",
    ),
];

/// Snippets for statements inside rules and scenarios.
const STMT_SNIPPETS: &[(&str, &str, &str)] = &[
    ("if", "if … { } else { }", "if ${1:condition} {\n\t$0\n}"),
    ("for each", "a loop over entities", "for each ${1:unit} ${2:u} where ${3:u.on_field} {\n\t$0\n}"),
    ("roll", "roll a check", "roll ${1:check} for ${2:unit} with ${3:input} = ${4:value}"),
    ("trigger", "fire an event", "trigger ${1:event}(${2:fact}: ${3:value})"),
    ("set", "set an attribute", "set ${1:unit.attribute} to ${2:value}"),
    ("choose", "ask the players", "choose ${1:name} \"${2:Question?}\" from ${3:yes | no} default ${4:no}"),
    ("repeat", "repeat until", "repeat {\n\t$0\n} until ${1:condition}"),
    ("with chance", "a chance of P in Q", "with chance ${1:1}/${2:3} {\n\t$0\n}"),
    ("new", "create an entity (scenarios)", "new ${1:unit} ${2:name} with ${3:attribute} = ${4:value}"),
    ("expect", "an expectation (scenarios)", "expect ${1:condition}, \"${2:why}\""),
    ("end game", "end the game", "end game with ${1:result}"),
    (
        "record",
        "a value whose odds `mettle odds` and `mettle sim` give",
        "record \"${1:label}\" = ${2:value}",
    ),
    ("var", "a value the rule can change", "var ${1:name} = ${2:0}"),
    (
        "max … for each",
        "the highest value among entities",
        "max(${1:u.leadership} for each ${2:unit} ${3:u} where ${4:u.able} else ${5:0})",
    ),
    (
        "sum … for each",
        "values of entities added up",
        "sum(${1:u.control} for each ${2:unit} ${3:u} where ${4:condition})",
    ),
    ("count each", "how many entities pass", "count(each ${1:unit} ${2:u} where ${3:u.broken})"),
    ("follow", "run a reaction", "follow ${1:reaction}(${2:values})"),
    ("order", "an order for the table (in a reaction)", "order \"${1:move towards} {${2:friend.name}}\""),
    (
        "nearest … in",
        "the entry of a list with the least distance",
        "nearest ${1:f} in ${2:s.friends} where ${3:not f.in_combat}",
    ),
    (
        "first … in",
        "the first entry of a list that passes",
        "first ${1:c} in ${2:s.cover} where ${3:c.reachable}",
    ),
];

/// Snippets for the top level of a scenario only.
const SCENARIO_SNIPPETS: &[(&str, &str, &str)] =
    &[("report", "what each row of the scenario's odds shows", "report ${1:winner}, ${2:turn <= 6}")];

/// Snippets for the lines of a check.
const CHECK_SNIPPETS: &[(&str, &str, &str)] = &[
    ("input", "a value given when the check is rolled", "input ${1:name}: ${2:0..6} = ${3:0}"),
    ("roll", "the check's dice", "roll ${1:2d6}"),
    ("modifier", "a named modifier", "modifier \"${1:Label}\" ${2:+1} when ${3:condition}"),
    ("target", "the number to reach", "target ${1:7}"),
    ("let", "a value worked out", "let ${1:name} = ${2:total - target}"),
    ("outcome", "an outcome and when it happens", "outcome ${1:pass} when ${2:total >= target}"),
    ("otherwise", "the outcome when no other happens", "otherwise ${1:fail}"),
    ("group", "outcomes added up under one name", "group ${1:pass} = ${2:holds}, ${3:steady}"),
    ("reroll", "roll the whole check again on these outcomes", "reroll when ${1:fail} ${2:once}"),
];

fn item_kind(k: SymKind) -> CompletionItemKind {
    match k {
        SymKind::Kind | SymKind::Shape => CompletionItemKind::STRUCT,
        SymKind::Attribute | SymKind::Fact | SymKind::ShapeField => CompletionItemKind::FIELD,
        SymKind::State | SymKind::Rung | SymKind::Outcome => CompletionItemKind::ENUM_MEMBER,
        SymKind::Ladder => CompletionItemKind::ENUM,
        SymKind::Event => CompletionItemKind::EVENT,
        SymKind::Formula | SymKind::Table | SymKind::ScriptFn | SymKind::Check | SymKind::Reaction => {
            CompletionItemKind::FUNCTION
        }
        SymKind::Input | SymKind::Param => CompletionItemKind::PROPERTY,
        SymKind::Let | SymKind::Variable | SymKind::Choice => CompletionItemKind::VARIABLE,
        SymKind::Result | SymKind::Option => CompletionItemKind::CONSTANT,
        SymKind::Scenario => CompletionItemKind::MODULE,
    }
}

fn from_def(d: &Def) -> CompletionItem {
    CompletionItem {
        label: d.name.clone(),
        kind: Some(item_kind(d.kind)),
        detail: Some(d.detail.clone()),
        documentation: d
            .doc
            .clone()
            .map(|v| Documentation::MarkupContent(MarkupContent { kind: MarkupKind::Markdown, value: v })),
        ..CompletionItem::default()
    }
}

fn plain(label: &str, kind: CompletionItemKind, detail: &str) -> CompletionItem {
    CompletionItem {
        label: label.into(),
        kind: Some(kind),
        detail: Some(detail.into()),
        ..CompletionItem::default()
    }
}

fn snippets(
    list: &'static [(&'static str, &'static str, &'static str)],
) -> impl Iterator<Item = CompletionItem> {
    list.iter().map(|(label, detail, body)| CompletionItem {
        label: (*label).into(),
        kind: Some(CompletionItemKind::SNIPPET),
        detail: Some((*detail).into()),
        insert_text: Some((*body).into()),
        insert_text_format: Some(InsertTextFormat::SNIPPET),
        ..CompletionItem::default()
    })
}

/// The names the document defines, from its analysis and, for items that do not parse just now, from
/// the last analysis that had them.
struct Names<'a> {
    now: &'a Index,
    before: Option<&'a Index>,
}

impl<'a> Names<'a> {
    fn top(&self, kind: SymKind, name: &str) -> Option<(&'a Index, usize)> {
        self.now
            .find(kind, name)
            .map(|d| (self.now, d))
            .or_else(|| self.before.and_then(|b| b.find(kind, name).map(|d| (b, d))))
    }

    /// Every top-level definition of one of `kinds`, each name once.
    fn all(&self, kinds: &[SymKind]) -> Vec<&'a Def> {
        let mut out: Vec<&Def> = vec![];
        let mut seen = std::collections::HashSet::new();
        for ix in std::iter::once(self.now).chain(self.before) {
            for d in ix
                .defs
                .iter()
                .filter(|d| kinds.contains(&d.kind) && (d.parent.is_none() || !d.kind.is_item()))
            {
                if seen.insert((d.kind, d.name.as_str())) {
                    out.push(d);
                }
            }
        }
        out
    }

    fn children(&self, (ix, d): (&'a Index, usize), kinds: &[SymKind]) -> Vec<&'a Def> {
        ix.children(d).filter(|(_, c)| kinds.contains(&c.kind)).map(|(_, c)| c).collect()
    }

    /// The kind of entity attribute (or fact, input…) `def` of `ix` holds.
    fn entity_of(&self, ix: &'a Index, def: usize) -> Option<(&'a Index, usize)> {
        let d = &ix.defs[def];
        if d.kind == SymKind::Kind {
            return Some((ix, def));
        }
        let kind = &ix.defs[d.entity?].name;
        self.top(SymKind::Kind, kind)
    }
}

/// The identifier chain ending just before `end` (`x.side` in `x.side.`), and what comes before it.
fn chain_before(pre: &str) -> (Vec<&str>, &str) {
    let mut parts = vec![];
    let mut rest = pre;
    loop {
        let trimmed = rest.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
        let word = &rest[trimmed.len()..];
        if word.is_empty() {
            break;
        }
        parts.push(word);
        rest = trimmed;
        match rest.strip_suffix('.') {
            Some(r) => rest = r,
            None => break,
        }
    }
    parts.reverse();
    (parts, rest)
}

/// The text of the top-level item the offset is in, from its first line to the offset.
fn item_text(text: &str, offset: usize) -> &str {
    let before = &text[..offset];
    let mut start = 0;
    let mut at = 0;
    for line in before.split_inclusive('\n') {
        let first = line.split_whitespace().next().unwrap_or("");
        if !line.starts_with([' ', '\t', '}'])
            && ["kind", "event", "define", "table", "check", "on", "scenario", "ladder"].contains(&first)
        {
            start = at;
        }
        at += line.len();
    }
    &before[start..]
}

/// The kind of entity the variable `var` holds at the end of `item` (the text of the item so far).
fn variable_kind<'a>(names: &Names<'a>, item: &str, var: &str) -> Option<(&'a Index, usize)> {
    let words: Vec<&str> =
        item.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
    // `for each unit u`, `number of unit u`, `from unit u`, `new unit u`: the kind comes before the name.
    for w in words.windows(3).rev() {
        if w[2] == var && ["each", "of", "from", "new"].contains(&w[0]) {
            return names.top(SymKind::Kind, w[1]);
        }
    }
    match words.as_slice() {
        // A check made by someone names it like its kind.
        ["check", _, "for", kind, ..] if *kind == var => names.top(SymKind::Kind, kind),
        ["on", event, ..] => {
            let ev = names.top(SymKind::Event, event)?;
            let fact = ev.0.child(ev.1, var, &[SymKind::Fact])?;
            names.entity_of(ev.0, fact)
        }
        // A formula's or table's parameter, an event's fact.
        [item @ ("define" | "table" | "event"), name, ..] => {
            let kind = match *item {
                "define" => SymKind::Formula,
                "table" => SymKind::Table,
                _ => SymKind::Event,
            };
            let owner = names.top(kind, name)?;
            let p = owner.0.child(owner.1, var, &[SymKind::Param, SymKind::Fact])?;
            names.entity_of(owner.0, p)
        }
        _ => names.top(SymKind::Kind, var),
    }
}

/// Completions at `pos` in `a`; `before` is an earlier analysis of the document, for names of items
/// that do not parse just now.
pub fn complete(a: &Analysis, before: Option<&Analysis>, pos: Position) -> Vec<CompletionItem> {
    let offset = a.offset(pos);
    let text = &a.text;
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let pre = &text[line_start..offset];
    let names = Names { now: &a.index, before: before.map(|b| &b.index) };
    // The word being typed, and what is before it.
    let head = pre.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
    let words: Vec<&str> = head.split_whitespace().collect();
    let last = words.last().copied().unwrap_or("");
    let item = item_text(text, offset);

    if let Some(before_dot) = head.strip_suffix('.') {
        let (chain, rest) = chain_before(before_dot);
        return members(&names, item, &chain, rest.trim_end().ends_with("last"));
    }
    if let Some(v) = arguments(&names, &item[..item.len() - (pre.len() - head.len())]) {
        return v;
    }
    let defs = |kinds: &[SymKind]| names.all(kinds).into_iter().map(from_def).collect::<Vec<_>>();
    // `reroll when OUTCOME, …`: the outcomes of the check the line is in.
    if let Some(at) = words.iter().rposition(|w| *w == "reroll") {
        let after = &words[at + 1..];
        let listing = after.first() == Some(&"when") && !after.iter().any(|w| matches!(*w, "once" | "if"));
        if listing && (last == "when" || head.trim_end().ends_with(',')) {
            let check = item.split_whitespace().nth(1).and_then(|c| names.top(SymKind::Check, c));
            return check
                .map(|c| names.children(c, &[SymKind::Outcome]).into_iter().map(from_def).collect())
                .unwrap_or_default();
        }
    }
    match last {
        "is" | "not" if words.contains(&"is") => return states(&names, item, head),
        "roll" => return defs(&[SymKind::Check]),
        "trigger" | "on" => {
            let mut v = defs(&[SymKind::Event]);
            v.extend(TIME_EVENTS.iter().map(|e| plain(e, CompletionItemKind::EVENT, "built-in time event")));
            return v;
        }
        "follow" => return defs(&[SymKind::Reaction, SymKind::ScriptFn]),
        "each" | "new" => return defs(&[SymKind::Kind]),
        "of" if words.iter().rev().nth(1) == Some(&"number") => return defs(&[SymKind::Kind]),
        "for" if words.first() == Some(&"check") => return defs(&[SymKind::Kind]),
        "with" if words.iter().rev().nth(1) == Some(&"game") => return defs(&[SymKind::Result]),
        "answer" => return defs(&[SymKind::Choice]),
        "last" => return defs(&[SymKind::Check]),
        _ => {}
    }
    if head.trim_end().ends_with(':')
        && (item.starts_with("kind") || item.starts_with("event") || words.first() == Some(&"input"))
    {
        let mut v = defs(&[SymKind::Kind, SymKind::Ladder]);
        v.extend(["flag", "int", "data"].iter().map(|w| plain(w, CompletionItemKind::KEYWORD, "type")));
        return v;
    }
    let level = depth(text, offset);
    let mut out: Vec<CompletionItem> = vec![];
    if level == 0 {
        out.extend(snippets(ITEM_SNIPPETS));
        return out;
    }
    if level == 1 && item.starts_with("check") {
        out.extend(snippets(CHECK_SNIPPETS));
    }
    if level == 1 && item.starts_with("scenario") {
        out.extend(snippets(SCENARIO_SNIPPETS));
    }
    out.extend(snippets(STMT_SNIPPETS));
    out.extend(words::reserved().map(|k| plain(k, CompletionItemKind::KEYWORD, "keyword")));
    out.extend(defs(&[
        SymKind::Check,
        SymKind::Event,
        SymKind::Formula,
        SymKind::Table,
        SymKind::ScriptFn,
        SymKind::Kind,
        SymKind::Result,
        SymKind::State,
        SymKind::Rung,
    ]));
    // Names in scope: the enclosing item's facts, inputs, parameters and values, and the variables
    // declared in it so far.
    let item_start = offset - item.len();
    for d in
        a.index.defs.iter().filter(|d| d.file.is_none() && d.span.start >= item_start && d.span.end <= offset)
    {
        if matches!(d.kind, SymKind::Let | SymKind::Variable | SymKind::Choice)
            && !out.iter().any(|o| o.label == d.name)
        {
            out.push(from_def(d));
        }
    }
    let words: Vec<&str> = item.split_whitespace().take(2).collect();
    let owner = match words.as_slice() {
        ["on", ev] => names.top(SymKind::Event, ev.trim_end_matches('{')),
        ["check", c] => names.top(SymKind::Check, c),
        ["define", f] => names.top(SymKind::Formula, f.split('(').next().unwrap_or("")),
        ["table", t] => names.top(SymKind::Table, t.split('(').next().unwrap_or("")),
        _ => None,
    };
    if let Some(o) = owner {
        out.extend(
            names
                .children(o, &[SymKind::Fact, SymKind::Input, SymKind::Param, SymKind::Let])
                .into_iter()
                .map(from_def),
        );
    }
    out
}

/// Brace depth at `offset`, outside strings and comments.
fn depth(text: &str, offset: usize) -> i32 {
    let mut d = 0;
    for line in text[..offset].split('\n') {
        // Strings end with their line.
        let mut in_str = false;
        let code = line.split("//").next().unwrap_or("");
        for c in code.chars() {
            match c {
                '"' => in_str = !in_str,
                '{' if !in_str => d += 1,
                '}' if !in_str => d -= 1,
                _ => {}
            }
        }
    }
    d.max(0)
}

/// Members after a dot: a kind's attributes, or a check's values after `last check.`.
fn members(names: &Names<'_>, item: &str, chain: &[&str], last: bool) -> Vec<CompletionItem> {
    let Some((&first, rest)) = chain.split_first() else { return vec![] };
    if last {
        let Some(c) = names.top(SymKind::Check, first) else { return vec![] };
        let mut v: Vec<CompletionItem> = names
            .children(c, &[SymKind::Input, SymKind::Let, SymKind::Outcome])
            .into_iter()
            .map(from_def)
            .collect();
        v.extend(
            ["total", "dice", "margin", "target"]
                .iter()
                .map(|w| plain(w, CompletionItemKind::FIELD, "built-in value of a check's result")),
        );
        return v;
    }
    let Some(mut at) = variable_kind(names, item, first) else { return vec![] };
    for step in rest {
        let Some(attr) = at.0.child(at.1, step, &[SymKind::Attribute]) else { return vec![] };
        let Some(next) = names.entity_of(at.0, attr) else { return vec![] };
        at = next;
    }
    names.children(at, &[SymKind::Attribute]).into_iter().map(from_def).collect()
}

/// States after `is` or `is not`: of the attribute, choice or check before it when known, else every
/// state, rung, outcome and result.
fn states(names: &Names<'_>, item: &str, head: &str) -> Vec<CompletionItem> {
    let lhs = head.trim_end().trim_end_matches("not").trim_end().trim_end_matches("is").trim_end();
    let (chain, rest) = chain_before(lhs);
    let kinds = [SymKind::State, SymKind::Rung, SymKind::Outcome];
    let owner = match chain.as_slice() {
        [c] if rest.trim_end().ends_with("last") => names.top(SymKind::Check, c),
        [var] => names
            .all(&[SymKind::Choice])
            .into_iter()
            .find(|d| d.name == *var)
            .and_then(|d| names.now.defs.iter().position(|x| std::ptr::eq(x, d)).map(|i| (names.now, i))),
        [var, path @ .., attr] => variable_kind(names, item, var).and_then(|mut at| {
            for step in path {
                let a = at.0.child(at.1, step, &[SymKind::Attribute])?;
                at = names.entity_of(at.0, a)?;
            }
            at.0.child(at.1, attr, &[SymKind::Attribute]).map(|a| (at.0, a))
        }),
        _ => None,
    };
    let mut v: Vec<CompletionItem> = match owner {
        Some(o) => names.children(o, &kinds).into_iter().map(from_def).collect(),
        None => names
            .all(&[SymKind::State, SymKind::Rung, SymKind::Outcome, SymKind::Result])
            .into_iter()
            .map(from_def)
            .collect(),
    };
    v.push(plain("none", CompletionItemKind::KEYWORD, "no entity"));
    v.push(plain("yes", CompletionItemKind::KEYWORD, "flag"));
    v.push(plain("no", CompletionItemKind::KEYWORD, "flag"));
    v
}

/// Names of arguments where one goes: the inputs of the check in `roll CHECK … with`, the facts of
/// the event in `trigger EVENT(`, the attributes of the kind in `new KIND name with`, after `with`,
/// `(` or `,` (the statement may have begun on an earlier line ending in `,`). `item` is the text of
/// the item up to the word being typed.
fn arguments(names: &Names<'_>, item: &str) -> Option<Vec<CompletionItem>> {
    let before = item.trim_end();
    let last_word = before.rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next();
    if !(last_word == Some("with") || before.ends_with(',') || before.ends_with('(')) {
        return None;
    }
    // The statement: this line and the lines before it that end in `,` or `(`.
    let lines: Vec<&str> = item.split('\n').collect();
    let mut start = lines.len().saturating_sub(1);
    while start > 0 && lines[start - 1].trim_end().ends_with([',', '(']) {
        start -= 1;
    }
    let stmt = lines[start..].join(" ");
    let words: Vec<&str> =
        stmt.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
    let after = |kw: &str| words.iter().rposition(|w| *w == kw).and_then(|i| words.get(i + 1..));
    let found = if let Some([check, ..]) = after("roll") {
        names.top(SymKind::Check, check).map(|c| names.children(c, &[SymKind::Input]))
    } else if let Some([event, ..]) = after("trigger") {
        names.top(SymKind::Event, event).map(|e| names.children(e, &[SymKind::Fact]))
    } else if let Some([kind, _, ..]) = after("new") {
        names.top(SymKind::Kind, kind).map(|k| names.children(k, &[SymKind::Attribute]))
    } else {
        None
    };
    found.map(|v| v.into_iter().map(from_def).collect())
}

/// A snippet's text with its placeholders filled with their defaults (`${1:unit}` is `unit`, `$0`
/// nothing), for clients that cannot take snippets.
fn plain_snippet(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        rest = &rest[i + 1..];
        if let Some(inner) = rest.strip_prefix('{') {
            let end = inner.find('}').unwrap_or(inner.len());
            let default = inner[..end].split_once(':').map_or("", |(_, d)| d);
            out.push_str(default);
            rest = inner.get(end + 1..).unwrap_or("");
        } else {
            rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
        }
    }
    out.push_str(rest);
    out.replace('\t', "  ")
}

/// Turns the snippets among `items` into plain text, for clients that cannot take snippets.
pub fn without_snippets(items: &mut [CompletionItem]) {
    for item in items.iter_mut().filter(|i| i.insert_text_format == Some(InsertTextFormat::SNIPPET)) {
        item.insert_text = item.insert_text.as_deref().map(plain_snippet);
        item.insert_text_format = Some(InsertTextFormat::PLAIN_TEXT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_read_as_plain_text() {
        assert_eq!(plain_snippet("on ${1:event} {\n\t$0\n}"), "on event {\n  \n}");
        assert_eq!(plain_snippet("roll ${1:2d6}"), "roll 2d6");
        assert_eq!(plain_snippet("a $ b ${x"), "a  b ");
        for (_, _, body) in
            ITEM_SNIPPETS.iter().chain(STMT_SNIPPETS).chain(CHECK_SNIPPETS).chain(SCENARIO_SNIPPETS)
        {
            assert!(!plain_snippet(body).contains('$'), "{body}");
        }
    }
}
