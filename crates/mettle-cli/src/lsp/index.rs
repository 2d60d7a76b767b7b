//! Every name a ruleset defines and every place it is used, with spans.

use mettle::internals::ast::Span;
use std::collections::HashMap;

/// What a name names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SymKind {
    /// `kind unit { … }`
    Kind,
    /// An attribute of a kind.
    Attribute,
    /// A state: one of the names of a names type (`steady | shaken`).
    State,
    /// `ladder difficulty { … }`
    Ladder,
    /// A rung of a ladder.
    Rung,
    /// `event damaged(…)`
    Event,
    /// A fact of an event.
    Fact,
    /// `define tn(…) = …`
    Formula,
    /// A parameter of a formula or a key of a table.
    Param,
    /// `table reaction(…) { … }`
    Table,
    /// `check morale for unit { … }`
    Check,
    /// An input of a check.
    Input,
    /// A `let` value, in a check or a rule, or the name of a check's natural die (`roll d6 as base`).
    Let,
    /// An outcome of a check.
    Outcome,
    /// `result firefight_won "…"`
    Result,
    /// `scenario name "…" { … }`
    Scenario,
    /// A function defined in a script (inline or in a `.rhai` file).
    ScriptFn,
    /// A variable: a loop variable, an entity created in a scenario, a counted candidate.
    Variable,
    /// A choice point: `choose holder "…" from …`.
    Choice,
    /// A house-rule option: `option bonus_die: extra_d6 | flat_plus_one = flat_plus_one`.
    Option,
    /// `shape situation { … }`: the form of host data.
    Shape,
    /// A field of a shape (or of a record inside one).
    ShapeField,
    /// `reaction join(…) { … }`: steps a rule runs with `follow`.
    Reaction,
}

impl SymKind {
    /// The word for it in messages and hovers.
    pub fn word(self) -> &'static str {
        match self {
            SymKind::Kind => "kind",
            SymKind::Attribute => "attribute",
            SymKind::State => "state",
            SymKind::Ladder => "ladder",
            SymKind::Rung => "rung",
            SymKind::Event => "event",
            SymKind::Fact => "fact",
            SymKind::Formula => "formula",
            SymKind::Param => "parameter",
            SymKind::Table => "table",
            SymKind::Check => "check",
            SymKind::Input => "input",
            SymKind::Let => "value",
            SymKind::Outcome => "outcome",
            SymKind::Result => "result",
            SymKind::Scenario => "scenario",
            SymKind::ScriptFn => "script function",
            SymKind::Variable => "variable",
            SymKind::Choice => "choice",
            SymKind::Option => "option",
            SymKind::Shape => "shape",
            SymKind::ShapeField => "field",
            SymKind::Reaction => "reaction",
        }
    }

    /// Whether a definition of this kind is a top-level item.
    pub fn is_item(self) -> bool {
        matches!(
            self,
            SymKind::Kind
                | SymKind::Ladder
                | SymKind::Event
                | SymKind::Formula
                | SymKind::Table
                | SymKind::Check
                | SymKind::Result
                | SymKind::Scenario
                | SymKind::Shape
                | SymKind::Reaction
        )
    }
}

/// One definition.
#[derive(Debug, Clone)]
pub struct Def {
    /// The name.
    pub name: String,
    /// What it names.
    pub kind: SymKind,
    /// The name where it is defined (in `file`, when that is set).
    pub span: Span,
    /// The whole definition (the item, field or line).
    pub full: Span,
    /// Its doc comment.
    pub doc: Option<String>,
    /// Its declaration as written, on one line (`spi: 0..6 = 3`).
    pub detail: String,
    /// The definition it belongs to (a kind for an attribute, an attribute for a state…).
    pub parent: Option<usize>,
    /// For a name holding an entity: the definition of its kind.
    pub entity: Option<usize>,
    /// For a field of a named type (a kind or a ladder): that name.
    pub ty: Option<String>,
    /// The script file it is defined in, when not the ruleset.
    pub file: Option<String>,
}

/// Every definition and use in one text.
#[derive(Debug, Clone, Default)]
pub struct Index {
    /// The definitions, in the order found (added with [`Index::add`]).
    pub defs: Vec<Def>,
    /// Each use of a name: where, and which definition.
    pub refs: Vec<(Span, usize)>,
    /// The children of each definition.
    kids: Vec<Vec<usize>>,
    /// The first top-level definition of each kind and name.
    top: HashMap<(SymKind, String), usize>,
    /// The first definition of each kind and name, at any level.
    any: HashMap<(SymKind, String), usize>,
    /// The children of each definition by name.
    named: HashMap<(usize, String), Vec<usize>>,
}

impl Index {
    /// The definition named at byte `offset` (a use or the definition itself), with the span of the
    /// name there. A name touching the offset on either side counts.
    pub fn at(&self, offset: usize) -> Option<(Span, usize)> {
        let hit = |s: &Span| s.start <= offset && offset <= s.end;
        self.refs.iter().find(|(s, _)| hit(s)).copied().or_else(|| {
            self.defs
                .iter()
                .enumerate()
                .find(|(_, d)| d.file.is_none() && hit(&d.span))
                .map(|(i, d)| (d.span, i))
        })
    }

    /// The uses of definition `def`, in text order.
    pub fn uses(&self, def: usize) -> Vec<Span> {
        let mut v: Vec<Span> = self.refs.iter().filter(|(_, d)| *d == def).map(|(s, _)| *s).collect();
        v.sort_by_key(|s| s.start);
        v.dedup();
        v
    }

    /// Adds a definition; its kind, name and parent are fixed from now on.
    pub fn add(&mut self, def: Def) -> usize {
        let i = self.defs.len();
        let key = (def.kind, def.name.clone());
        match def.parent {
            Some(p) => {
                self.kids[p].push(i);
                self.named.entry((p, def.name.clone())).or_default().push(i);
            }
            None => {
                self.top.entry(key.clone()).or_insert(i);
            }
        }
        self.any.entry(key).or_insert(i);
        self.defs.push(def);
        self.kids.push(vec![]);
        i
    }

    /// The first definition of a top-level `kind` called `name`.
    pub fn find(&self, kind: SymKind, name: &str) -> Option<usize> {
        self.top.get(&(kind, name.to_string())).copied()
    }

    /// The first definition of a `kind` called `name`, at any level.
    pub fn find_any(&self, kind: SymKind, name: &str) -> Option<usize> {
        self.any.get(&(kind, name.to_string())).copied()
    }

    /// The definitions that belong to `def`.
    pub fn children(&self, def: usize) -> impl Iterator<Item = (usize, &Def)> + '_ {
        self.kids.get(def).into_iter().flatten().map(|&i| (i, &self.defs[i]))
    }

    /// The child of `def` called `name`, if any (of one of `kinds`, when not empty).
    pub fn child(&self, def: usize, name: &str, kinds: &[SymKind]) -> Option<usize> {
        let found = self.named.get(&(def, name.to_string()))?;
        found.iter().copied().find(|&i| kinds.is_empty() || kinds.contains(&self.defs[i].kind))
    }
}

/// The functions a Rhai script defines: each `fn NAME(` outside comments and strings, with the span of
/// the name (offset by `base`).
pub fn script_functions(code: &str, base: usize) -> Vec<(String, Span)> {
    let bytes = code.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = vec![];
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
            }
            b'"' | b'`' => {
                let q = bytes[i];
                i += 1;
                while i < bytes.len() && bytes[i] != q {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'f' if bytes.get(i + 1) == Some(&b'n')
                && (i == 0 || !ident(bytes[i - 1]))
                && bytes.get(i + 2).is_some_and(|b| b.is_ascii_whitespace()) =>
            {
                let mut j = i + 2;
                while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                    j += 1;
                }
                let start = j;
                while j < bytes.len() && ident(bytes[j]) {
                    j += 1;
                }
                let mut k = j;
                while k < bytes.len() && bytes[k].is_ascii_whitespace() {
                    k += 1;
                }
                if j > start && bytes.get(k) == Some(&b'(') && !bytes[start].is_ascii_digit() {
                    out.push((code[start..j].to_string(), Span::new(base + start, base + j)));
                }
                i = j.max(i + 2);
            }
            _ => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_script_functions_outside_comments_and_strings() {
        let code = "// fn no(x)\nfn tn(n) { \"fn nope(\" }\n/* fn gone() */ fn  keep_away (c, seen) {}\nlet fnx = 1;";
        let found = script_functions(code, 10);
        let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["tn", "keep_away"]);
        let (_, s) = &found[0];
        assert_eq!(&code[s.start - 10..s.end - 10], "tn");
    }
}
