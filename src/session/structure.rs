//! The structure a saved state points into: kinds and their attributes, name sets, checks, choices,
//! options and results, described by name, and what changed between two such descriptions, in words.

use crate::program::{Program, Ty};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// What a saved state's values point into by position, by name. Comments, docs, rule bodies, events,
/// formulas, tables and scenarios are not in it: a save does not depend on them.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub(super) struct Structure {
    /// Kinds in order (an entity stores its kind by position, its attributes by position).
    pub kinds: Vec<KindShape>,
    /// The names of each name set, by position (a name is stored as set and position).
    pub sets: Vec<Vec<String>>,
    /// Checks in order (last results are stored by check, with the check's slots).
    pub checks: Vec<CheckShape>,
    /// Choices in order (a waiting answer is stored by choice).
    pub choices: Vec<Field>,
    /// House-rule options in order (their values are stored by position).
    pub options: Vec<Field>,
    /// The set of game results.
    pub results: u32,
}

/// A kind and its attributes.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub(super) struct KindShape {
    pub name: String,
    pub attributes: Vec<Field>,
}

/// An attribute, choice or option: its name, its type as written, and for names its set.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub(super) struct Field {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set: Option<u32>,
}

/// A check: its outcomes' set, and what each of its slots holds (`input spi: 0..6`, `total`,
/// `let bonus`; empty for the slots nothing reads after the roll).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub(super) struct CheckShape {
    pub name: String,
    pub outcomes: u32,
    pub slots: Vec<String>,
}

impl Structure {
    /// The structure of program `p`.
    pub fn of(p: &Program) -> Structure {
        let field = |name: &str, ty: &Ty| Field {
            name: name.to_string(),
            ty: crate::export::type_name(p, ty),
            set: ty.set(),
        };
        let kinds = p
            .kinds
            .iter()
            .map(|k| KindShape {
                name: k.name.clone(),
                attributes: k.fields.iter().map(|f| field(&f.name, &f.ty)).collect(),
            })
            .collect();
        let checks = p
            .checks
            .iter()
            .map(|c| {
                let mut slots = vec![String::new(); c.nslots as usize];
                let mut name = |slot: u32, what: String| {
                    if let Some(s) = slots.get_mut(slot as usize) {
                        *s = what;
                    }
                };
                for (i, input) in c.inputs.iter().enumerate() {
                    let f = &input.field;
                    name(i as u32, format!("input {}: {}", f.name, crate::export::type_name(p, &f.ty)));
                }
                let s = &c.slots;
                for (slot, what) in [
                    (s.subject, "subject"),
                    (s.dice, "dice"),
                    (s.natural, "natural"),
                    (s.total, "total"),
                    (s.target, "target"),
                    (s.margin, "margin"),
                ] {
                    name(slot, what.to_string());
                }
                for (n, slot) in &c.lets {
                    name(*slot, format!("let {n}"));
                }
                CheckShape { name: c.name.clone(), outcomes: c.outcome_set, slots }
            })
            .collect();
        Structure {
            kinds,
            sets: p.sets.iter().map(|s| s.names.clone()).collect(),
            checks,
            choices: p.choices.iter().map(|c| field(&c.name, &c.ty)).collect(),
            options: p.options.iter().map(|o| field(&o.name, &o.ty)).collect(),
            results: p.results,
        }
    }

    /// The names of set `set`, if the description has it.
    pub fn set(&self, set: Option<u32>) -> Option<&[String]> {
        self.sets.get(set? as usize).map(|s| s.as_slice())
    }

    /// Whether the two describe unrelated rulesets: they have kinds or checks, and none of the same
    /// name.
    pub fn unrelated(&self, other: &Structure) -> bool {
        let names = |s: &Structure| -> Vec<String> {
            s.kinds
                .iter()
                .map(|k| format!("kind {}", k.name))
                .chain(s.checks.iter().map(|c| format!("check {}", c.name)))
                .collect()
        };
        let (a, b) = (names(self), names(other));
        let ours: HashSet<&String> = a.iter().collect();
        !a.is_empty() && !b.is_empty() && !b.iter().any(|n| ours.contains(n))
    }
}

/// What changed from `old` to `new`, in the words of the ruleset: `kind squad was removed`,
/// `attribute hp of unit: was 0..10, now 0..6`, `state routed of morale of unit was added`. Moving a
/// declaration is not a change: everything is matched by name.
pub(super) fn changes(old: &Structure, new: &Structure) -> Vec<String> {
    let mut out = vec![];
    let kinds = by_name(&old.kinds, &new.kinds, |k| &k.name);
    for (o, n) in kinds {
        match (o, n) {
            (Some(o), None) => out.push(format!("kind {} was removed", o.name)),
            (None, Some(n)) => out.push(format!("kind {} was added", n.name)),
            (Some(o), Some(n)) => {
                let of = format!("of {}", n.name);
                fields(&mut out, "attribute", &of, old, new, &o.attributes, &n.attributes);
            }
            (None, None) => {}
        }
    }
    for (o, n) in by_name(&old.checks, &new.checks, |c| &c.name) {
        match (o, n) {
            (Some(o), None) => out.push(format!("check {} was removed", o.name)),
            (None, Some(n)) => out.push(format!("check {} was added", n.name)),
            (Some(o), Some(n)) => {
                let of = format!("of check {}", n.name);
                names(&mut out, "outcome", &of, old.set(Some(o.outcomes)), new.set(Some(n.outcomes)));
                if o.slots != n.slots {
                    out.push(format!("the inputs or values of check {} changed", n.name));
                }
            }
            (None, None) => {}
        }
    }
    fields(&mut out, "choice", "", old, new, &old.choices, &new.choices);
    fields(&mut out, "option", "", old, new, &old.options, &new.options);
    names(&mut out, "result", "", old.set(Some(old.results)), new.set(Some(new.results)));
    out
}

/// Pairs of items of the same name, in the new order, then those only the old one has.
fn by_name<'a, T>(
    old: &'a [T],
    new: &'a [T],
    name: impl Fn(&T) -> &String,
) -> Vec<(Option<&'a T>, Option<&'a T>)> {
    let olds: HashMap<&String, &T> = old.iter().map(|t| (name(t), t)).collect();
    let news: HashMap<&String, &T> = new.iter().map(|t| (name(t), t)).collect();
    let mut pairs: Vec<_> =
        old.iter().filter(|t| !news.contains_key(name(t))).map(|t| (Some(t), None)).collect();
    pairs.extend(new.iter().map(|t| (olds.get(name(t)).copied(), Some(t))));
    pairs
}

/// The changes of attributes (`what` is `attribute`, `of` is `of unit`), choices or options.
fn fields(
    out: &mut Vec<String>,
    what: &str,
    of: &str,
    old: &Structure,
    new: &Structure,
    o: &[Field],
    n: &[Field],
) {
    let of_sp = if of.is_empty() { String::new() } else { format!(" {of}") };
    for pair in by_name(o, n, |f| &f.name) {
        match pair {
            (Some(o), None) => out.push(format!("{what} {}{of_sp} was removed", o.name)),
            (None, Some(n)) => out.push(format!("{what} {}{of_sp} was added", n.name)),
            (Some(o), Some(n)) => {
                let (os, ns) = (old.set(o.set), new.set(n.set));
                if os.is_some() && ns.is_some() && os != ns {
                    // `state routed of morale of unit`, `answer wait of choice go`.
                    let (word, whose) = match what {
                        "attribute" => ("state", format!("of {}{of_sp}", n.name)),
                        "choice" => ("answer", format!("of choice {}", n.name)),
                        _ => ("value", format!("of {what} {}", n.name)),
                    };
                    names(out, word, &whose, os, ns);
                } else if o.ty != n.ty || os != ns {
                    out.push(format!("{what} {}{of_sp}: was {}, now {}", n.name, o.ty, n.ty));
                }
            }
            (None, None) => {}
        }
    }
}

/// The names of a set that were removed and added (`state routed of morale of unit was added`), or
/// that its names were put in another order.
fn names(out: &mut Vec<String>, what: &str, of: &str, old: Option<&[String]>, new: Option<&[String]>) {
    let (Some(old), Some(new)) = (old, new) else {
        if old != new {
            out.push(format!("the {what}s {of} changed"));
        }
        return;
    };
    if old == new {
        return;
    }
    let of_sp = if of.is_empty() { String::new() } else { format!(" {of}") };
    // Sets, so that a long list (a hostile save's) is compared in linear time.
    let (olds, news): (HashSet<&String>, HashSet<&String>) = (old.iter().collect(), new.iter().collect());
    let before = out.len();
    for o in old.iter().filter(|o| !news.contains(o)) {
        out.push(format!("{what} {o}{of_sp} was removed"));
    }
    for n in new.iter().filter(|n| !olds.contains(n)) {
        out.push(format!("{what} {n}{of_sp} was added"));
    }
    if out.len() == before {
        out.push(format!("the {what}s{of_sp} are in another order"));
    }
}
