//! Reference cards: a printable quick-reference sheet of a ruleset, as HTML or Markdown.

mod effects;
pub mod html;
pub mod md;
mod odds;
mod sections;
mod tested;
mod words;

use crate::Ruleset;
use words::Source;
pub use words::{Block, doc_blocks, doc_words};

/// Text in a card: plain words, pieces quoted from the ruleset, and names that stand out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Words(pub Vec<Piece>);

/// A piece of [`Words`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// Plain words.
    Text(String),
    /// Something as written in the ruleset (`unit.spi`, `2d6`).
    Code(String),
    /// A name to stand out (an outcome, a state).
    Strong(String),
}

/// A reference card: the ruleset's title and doc, then its sections in order.
#[derive(Debug, Clone)]
pub struct Card {
    /// The ruleset's title, or its file name.
    pub title: String,
    /// The doc comment of the `ruleset` line.
    pub doc: Option<String>,
    /// The file the card was made from.
    pub file: String,
    /// The sections, in the order they are printed.
    pub sections: Vec<Section>,
}

/// A section of a card. Each kind of section has its heading; new kinds slot in as new variants, with
/// an arm in each renderer ([`html`], [`md`]). `build` pushes the sections in the order they print.
#[derive(Debug, Clone)]
pub enum Section {
    /// The house rules the ruleset offers, with the reading this card was made under (first: every
    /// number on the card follows from them).
    Options(Vec<OptionCard>),
    /// The checks, each in words with its odds.
    Checks(Vec<CheckCard>),
    /// The states and ladders units move along, and what moves them.
    States(Vec<StateCard>),
    /// The tables.
    Tables(Vec<TableCard>),
    /// The rules, by the event that sets them off.
    Rules(Vec<EventCard>),
    /// The ruleset's scripts, with what their doc comments say they do (a script's code is not put
    /// into words: its doc comment is, tables and all).
    Scripts(Vec<ScriptCard>),
    /// The ruleset's reactions (`reaction NAME(…) { … }`), each with what it does in words.
    Reactions(Vec<ReactionCard>),
    /// The kinds of piece and their attributes.
    Pieces(Vec<KindCard>),
}

/// A reaction: what `follow NAME(…)` does.
#[derive(Debug, Clone)]
pub struct ReactionCard {
    /// Its name.
    pub name: String,
    /// Its parameters, `name: type`.
    pub params: Vec<String>,
    /// Its doc comment.
    pub doc: Option<String>,
    /// What it does, each step under its conditions.
    pub effects: Vec<Effect>,
}

impl Section {
    /// The heading printed above the section.
    pub fn heading(&self) -> &'static str {
        match self {
            Section::Options(_) => "House rules",
            Section::Checks(_) => "Checks",
            Section::States(_) => "States and ladders",
            Section::Tables(_) => "Tables",
            Section::Rules(_) => "When things happen",
            Section::Scripts(_) => "Scripts",
            Section::Reactions(_) => "Reactions",
            Section::Pieces(_) => "Pieces",
        }
    }
    /// A short id for links and styles.
    pub fn id(&self) -> &'static str {
        match self {
            Section::Options(_) => "options",
            Section::Checks(_) => "checks",
            Section::States(_) => "states",
            Section::Tables(_) => "tables",
            Section::Rules(_) => "rules",
            Section::Scripts(_) => "scripts",
            Section::Reactions(_) => "reactions",
            Section::Pieces(_) => "pieces",
        }
    }
}

/// One line of a list: a name, what it says, what it does, and its doc comment.
#[derive(Debug, Clone)]
pub struct Line {
    /// The name (an input, a modifier's label, an outcome).
    pub name: String,
    /// What it says.
    pub words: Words,
    /// What it does (an outcome's effects), each under its conditions.
    pub effects: Vec<Effect>,
    /// Its doc comment.
    pub doc: Option<String>,
}

/// One thing a rule or an outcome does, or a condition or loop with what is done under it: a card
/// never shows an effect without the condition it is written under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Effect {
    /// What is done ("sets `unit.morale` to **shaken**"), or what the effects under it wait on or
    /// repeat over ("if `recovery`", "otherwise", "for each unit `u` where `u.resolve_next`").
    pub words: Words,
    /// The effects done only under `words`; empty for an effect.
    pub under: Vec<Effect>,
    /// Where the statement is written in the ruleset.
    pub span: crate::Span,
}

/// How the names of a list are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    /// As written in the ruleset (an input's name).
    Code,
    /// As plain words (a modifier's label).
    Plain,
    /// Standing out (an outcome).
    Strong,
}

/// A check on the card.
#[derive(Debug, Clone)]
pub struct CheckCard {
    /// Its name.
    pub name: String,
    /// Who makes it.
    pub made_by: Option<String>,
    /// Its doc comment.
    pub doc: Option<String>,
    /// The roll, modifiers, target and outcomes in one sentence.
    pub summary: Words,
    /// Inputs: their types and defaults.
    pub inputs: Vec<Line>,
    /// Modifiers as written.
    pub modifiers: Vec<Line>,
    /// Outcomes: their conditions and effects.
    pub outcomes: Vec<Line>,
    /// The odds over its main inputs, or why there are none.
    pub odds: Result<odds::OddsTable, String>,
}

pub use odds::{Cell, OddsTable};

/// An attribute whose values are names (a state or a ladder), and what moves a piece along it.
#[derive(Debug, Clone)]
pub struct StateCard {
    /// `kind.attribute`, or the ladder's name for a ladder no attribute uses.
    pub name: String,
    /// Its doc comment.
    pub doc: Option<String>,
    /// The names in order, with their numbers for a ladder that has them.
    pub names: Vec<(String, Option<i64>)>,
    /// The starting value.
    pub default: Option<String>,
    /// The ladder it is a rung of, if any.
    pub ladder: Option<String>,
    /// Each place that sets it: the value, and where, with the conditions it is set under ("rule
    /// `on activation`, if `unit.morale is broken`").
    pub moves: Vec<(Words, Words)>,
}

/// A table on the card: keys, rows and values as written.
#[derive(Debug, Clone)]
pub struct TableCard {
    /// Its name.
    pub name: String,
    /// Its doc comment.
    pub doc: Option<String>,
    /// Key names with their types.
    pub keys: Vec<String>,
    /// The type of its values.
    pub result: String,
    /// Each row: one pattern per key (empty for `otherwise`), and the value.
    pub rows: Vec<(Vec<String>, String)>,
}

/// An event and the rules it sets off.
#[derive(Debug, Clone)]
pub struct EventCard {
    /// The event's name.
    pub name: String,
    /// Its doc comment.
    pub doc: Option<String>,
    /// Its facts, as `name: type`.
    pub facts: Vec<String>,
    /// Its rules in the order they run: the condition, doc, and effects.
    pub rules: Vec<RuleCard>,
}

/// One `on EVENT` rule.
#[derive(Debug, Clone)]
pub struct RuleCard {
    /// The condition (`when …`), if any.
    pub when: Option<Words>,
    /// Its doc comment.
    pub doc: Option<String>,
    /// What it does, each effect under its conditions.
    pub effects: Vec<Effect>,
}

/// A script of the ruleset (`script "reactions.rhai"`) and its doc comment.
#[derive(Debug, Clone)]
pub struct ScriptCard {
    /// Its file as written, or `inline script` for code written in the ruleset.
    pub name: String,
    /// The doc comment written before its `script` line.
    pub doc: Option<String>,
}

/// A house-rule option: its readings and the one the card was made under.
#[derive(Debug, Clone)]
pub struct OptionCard {
    /// Its name.
    pub name: String,
    /// Its doc comment: why the rule can be read more than one way.
    pub doc: Option<String>,
    /// Its readings, as written (`extra_d6 | flat_plus_one`).
    pub readings: String,
    /// The reading this card was made under.
    pub chosen: String,
}

/// A kind of piece and its attributes.
#[derive(Debug, Clone)]
pub struct KindCard {
    /// Its name.
    pub name: String,
    /// Its doc comment.
    pub doc: Option<String>,
    /// Each attribute: name, type, default, doc.
    pub attributes: Vec<(String, String, Option<String>, Option<String>)>,
}

/// The work the odds of one check may take: a small share of what one `mettle odds` question may,
/// so that a card of many checks is made in seconds.
pub const CARD_WORK: u64 = 40_000_000;

/// The work the odds of all of a card's checks may take together, shared out evenly: a ruleset of
/// many checks gets smaller tables' worth of exact answers (and more estimates), not a long wait.
pub const CARD_TOTAL_WORK: u64 = 5 * CARD_WORK;

/// Builds the card of a loaded ruleset: what a player needs at the table (checks in words with their
/// odds, states and what moves units between them, tables, rules, doc comments). Text from the
/// ruleset stays plain text in the card; [`html`] and [`md`] escape it as they render it.
///
/// ```
/// let rules = mettle::Ruleset::from_str("m.mettle", r#"
///     ruleset "Mini"
///     kind unit { spi: 0..6 = 3  morale: steady | shaken = steady }
///     check morale for unit {
///       roll 2d6
///       modifier "Spirit" +unit.spi
///       target 9
///       outcome holds when total >= target
///       otherwise shaken { set unit.morale to shaken }
///     }
/// "#).unwrap();
/// let card = mettle::card::build(&rules);
/// let md = mettle::card::md::render(&card);
/// assert!(md.contains("# Mini"));
/// assert!(md.contains("9 or more"));
/// assert!(mettle::card::html::render(&card).contains("@page"));
/// ```
pub fn build(rules: &Ruleset) -> Card {
    let p = rules.program();
    let src = Source::new(rules.text());
    let mut sections = vec![];
    let options: Vec<OptionCard> = p
        .options
        .iter()
        .map(|o| OptionCard {
            name: o.name.clone(),
            doc: o.doc.clone(),
            readings: words::type_name(p, &src, &o.ty),
            chosen: o.default.as_ref().map(|v| words::value(p, v)).unwrap_or_default(),
        })
        .collect();
    if !options.is_empty() {
        sections.push(Section::Options(options));
    }
    let total = CARD_TOTAL_WORK.min(rules.budget().odds_work.saturating_mul(5));
    let (checks, _) = crate::odds::work::within(total, || {
        let count = p.checks.len() as u64;
        let mut cards: Vec<CheckCard> = vec![];
        for (i, c) in p.checks.iter().enumerate() {
            let share =
                CARD_WORK.min(rules.budget().odds_work).min(crate::odds::work::left() / (count - i as u64));
            cards.push(check_card(rules, &src, c, share));
        }
        cards
    });
    if !checks.is_empty() {
        sections.push(Section::Checks(checks));
    }
    let states = sections::states(p, &src);
    if !states.is_empty() {
        sections.push(Section::States(states));
    }
    let tables: Vec<TableCard> = p.tables.iter().map(|t| sections::table_card(p, &src, t)).collect();
    if !tables.is_empty() {
        sections.push(Section::Tables(tables));
    }
    let events = sections::events(p, &src);
    if !events.is_empty() {
        sections.push(Section::Rules(events));
    }
    let scripts: Vec<ScriptCard> = src
        .file
        .items
        .iter()
        .filter_map(|i| match &i.kind {
            crate::ast::ItemKind::Script(s) => Some(ScriptCard {
                name: if s.is_file { s.source.0.clone() } else { "inline script".into() },
                doc: i.doc.clone(),
            }),
            _ => None,
        })
        .collect();
    let reactions = sections::reactions(p, &src);
    if !reactions.is_empty() {
        sections.push(Section::Reactions(reactions));
    }
    if !scripts.is_empty() {
        sections.push(Section::Scripts(scripts));
    }
    let kinds: Vec<KindCard> = p
        .kinds
        .iter()
        .map(|k| KindCard {
            name: k.name.clone(),
            doc: k.doc.clone(),
            attributes: k
                .fields
                .iter()
                .map(|f| {
                    let default = f.default.as_ref().map(|v| words::value(p, v));
                    (f.name.clone(), words::type_name(p, &src, &f.ty), default, f.doc.clone())
                })
                .collect(),
        })
        .collect();
    if !kinds.is_empty() {
        sections.push(Section::Pieces(kinds));
    }
    Card {
        title: p.title.clone().unwrap_or_else(|| rules.name().to_string()),
        doc: src.title_doc(),
        file: rules.name().to_string(),
        sections,
    }
}

fn check_card(rules: &Ruleset, src: &Source, c: &crate::program::Check, work: u64) -> CheckCard {
    let p = rules.program();
    let names = words::outcome_names(p, c);
    let def = src.check(&c.name);
    let summary = def.map(|d| words::check_summary(src, d, &names)).unwrap_or_default();
    let parts = def.map(|d| words::Parts::of(src, d));
    let inputs = c
        .inputs
        .iter()
        .enumerate()
        .map(|(n, i)| {
            let mut w = Words::default();
            w.code(&words::type_name(p, src, &i.field.ty));
            // Taken from the subject's attribute of the same name.
            let own = match (p.subject_attribute_of(c, n as u32), def.and_then(|d| d.subject.as_ref())) {
                (Some(a), Some(who)) => {
                    Some(format!("{}.{}", who.name, i.field.name)).filter(|_| a < u32::MAX)
                }
                _ => None,
            };
            if let Some(own) = own {
                w.text(", taken from ");
                w.code(&own);
                w.text(" unless the roll gives it");
            } else if let Some(v) = &i.field.default {
                w.text(", usually ");
                w.code(&words::value(p, v));
            } else if let Some(d) = def.and_then(|d| input_default(src, d, &i.field.name)) {
                w.text(", usually ");
                w.code(&d);
            }
            Line { name: i.field.name.clone(), words: w, effects: vec![], doc: i.field.doc.clone() }
        })
        .collect();
    let modifiers = c
        .modifiers
        .iter()
        .zip(parts.iter().flat_map(|p| p.modifiers.iter()))
        .map(|(m, (_, amount))| {
            let mut w = Words::default();
            w.code(amount);
            Line { name: m.label.clone(), words: w, effects: vec![], doc: m.doc.clone() }
        })
        .collect();
    let written: Vec<&crate::ast::OutcomeDef> = def
        .map(|d| {
            d.lines
                .iter()
                .filter_map(|l| match &l.kind {
                    crate::ast::CheckLineKind::Outcome(o) => Some(o),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    let lets = def.map(|d| sections::check_lets(src, d)).unwrap_or_default();
    let outcomes = c
        .outcomes
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let mut w = Words::default();
            match (written.get(i).and_then(|o| o.when.as_ref()), &parts) {
                (Some(cond), Some(parts)) => {
                    w.text("when ");
                    w.extend(words::condition(src, parts, cond));
                }
                _ => w.text("otherwise"),
            }
            let effects = match written.get(i) {
                Some(def) => {
                    effects::Walk::new(p, src, &o.body, lets.clone()).effects(&def.body, &mut |_, _| {})
                }
                None => vec![],
            };
            Line { name: names.get(i).cloned().unwrap_or_default(), words: w, effects, doc: o.doc.clone() }
        })
        .collect::<Vec<Line>>();
    // The check's groups follow its outcomes, bracketed as in the odds table.
    let mut outcomes = outcomes;
    for (g, members) in &c.groups {
        let mut w = Words::default();
        w.text(&format!("a group: {}", members.join(" or ")));
        outcomes.push(Line { name: format!("[{g}]"), words: w, effects: vec![], doc: None });
    }
    CheckCard {
        name: c.name.clone(),
        made_by: c.subject.and_then(|k| p.kinds.get(k as usize)).map(|k| k.name.clone()),
        doc: c.doc.clone(),
        summary,
        inputs,
        modifiers,
        outcomes,
        odds: odds::table(rules, src, c, work),
    }
}

/// The default of input `name` as written, when it is worked out (`= unit.spi`).
fn input_default(src: &Source, def: &crate::ast::CheckDef, name: &str) -> Option<String> {
    def.lines.iter().find_map(|l| match &l.kind {
        crate::ast::CheckLineKind::Input(f) if f.name.name == name => {
            f.default.as_ref().map(|d| src.quote(d.span))
        }
        _ => None,
    })
}

/// A chance as a short percentage: `<0.1%` and `>99.9%` near the ends, so no chance that can
/// happen reads as 0% or 100%.
pub fn percent(p: f64) -> String {
    if p <= 0.0 {
        "0%".into()
    } else if p >= 1.0 {
        "100%".into()
    } else if p < 0.001 {
        "<0.1%".into()
    } else if p > 0.999 {
        ">99.9%".into()
    } else {
        format!("{:.1}%", p * 100.0)
    }
}
