//! The names the prompt can complete, gathered from the ruleset and the session: what a line
//! editor's completion offers.

use super::commands::COMMANDS;
use crate::syntax::words::{self, role};
use crate::{Ruleset, Session};

/// Names the prompt can complete, gathered from the ruleset and the session after each input.
#[derive(Debug, Clone, Default)]
pub struct Names {
    /// Checks.
    pub checks: Vec<String>,
    /// Events.
    pub events: Vec<String>,
    /// Kinds.
    pub kinds: Vec<String>,
    /// Units in play and `let` values.
    pub units: Vec<String>,
    /// Attributes of every kind.
    pub attributes: Vec<String>,
    /// States: the names of ladders, attribute states, outcomes, results and choices.
    pub states: Vec<String>,
    /// Choices.
    pub choices: Vec<String>,
    /// Script functions (reactions and functions for expressions).
    pub scripts: Vec<String>,
    /// The attributes of each kind, by the kind's name.
    pub kind_attributes: Vec<(String, Vec<String>)>,
    /// The kind of each unit in play, by the unit's name.
    pub unit_kinds: Vec<(String, String)>,
    /// The inputs of each check, by the check's name.
    pub check_inputs: Vec<(String, Vec<String>)>,
    /// The facts of each event, by the event's name.
    pub event_facts: Vec<(String, Vec<String>)>,
    /// House-rule options.
    pub options: Vec<String>,
    /// Scenarios.
    pub scenarios: Vec<String>,
    /// The kind that makes each check, by the check's name (none for a check made by no one).
    pub check_makers: Vec<(String, String)>,
}

/// Words that start a line at the prompt: the language's items and statements (from the one table of
/// words), and `odds`, which only the prompt knows.
fn line_starts() -> impl Iterator<Item = &'static str> {
    words::with_role(role::ITEM | role::STMT).chain(["odds"])
}

impl Names {
    /// The names of a ruleset and a session, and `lets`.
    pub fn of<'a>(rules: &Ruleset, s: &Session, lets: impl Iterator<Item = &'a str>) -> Names {
        let p = rules.program();
        let sorted = |mut v: Vec<String>| {
            v.sort();
            v.dedup();
            v
        };
        Names {
            checks: sorted(p.checks.iter().map(|c| c.name.clone()).collect()),
            events: sorted(p.events.iter().map(|e| e.name.clone()).collect()),
            kinds: sorted(p.kinds.iter().map(|k| k.name.clone()).collect()),
            units: sorted(
                s.state()
                    .entities
                    .iter()
                    .map(|(_, e)| e.name.clone())
                    .chain(lets.map(String::from))
                    .collect(),
            ),
            attributes: sorted(
                p.kinds.iter().flat_map(|k| k.fields.iter().map(|f| f.name.clone())).collect(),
            ),
            states: sorted(p.sets.iter().flat_map(|s| s.names.iter().cloned()).collect()),
            choices: sorted(p.choices.iter().map(|c| c.name.clone()).collect()),
            scripts: sorted(
                rules.scripts().iter().flat_map(|s| s.functions.iter().map(|f| f.name.clone())).collect(),
            ),
            kind_attributes: p
                .kinds
                .iter()
                .map(|k| (k.name.clone(), k.fields.iter().map(|f| f.name.clone()).collect()))
                .collect(),
            unit_kinds: s
                .state()
                .entities
                .iter()
                .filter_map(|(_, e)| Some((e.name.clone(), p.kinds.get(e.kind as usize)?.name.clone())))
                .collect(),
            check_inputs: p
                .checks
                .iter()
                .map(|c| (c.name.clone(), c.inputs.iter().map(|i| i.field.name.clone()).collect()))
                .collect(),
            event_facts: p
                .events
                .iter()
                .map(|e| (e.name.clone(), e.facts.iter().map(|f| f.name.clone()).collect()))
                .collect(),
            options: sorted(p.options.iter().map(|o| o.name.clone()).collect()),
            scenarios: sorted(p.scenarios.iter().map(|s| s.name.clone()).collect()),
            check_makers: p
                .checks
                .iter()
                .filter_map(|c| Some((c.name.clone(), p.kinds.get(c.subject? as usize)?.name.clone())))
                .collect(),
        }
    }

    /// The attributes of kind `kind` (every attribute when it is not known).
    fn attributes_of(&self, kind: &str) -> Vec<String> {
        match self.kind_attributes.iter().find(|(k, _)| k == kind) {
            Some((_, fields)) => fields.clone(),
            None => self.attributes.clone(),
        }
    }

    /// The attributes of the unit (or `let` value) `unit`, when its kind is known.
    fn attributes_of_unit(&self, unit: &str) -> Vec<String> {
        match self.unit_kinds.iter().find(|(u, _)| u == unit) {
            Some((_, kind)) => self.attributes_of(kind),
            None => self.attributes.clone(),
        }
    }

    /// What an odds question about check `check` can give or sweep: its inputs, the attributes of
    /// who makes it, and the options.
    fn odds_names(&self, check: &str) -> Vec<String> {
        let mut out: Vec<String> =
            self.check_inputs.iter().find(|(n, _)| n == check).map(|(_, v)| v.clone()).unwrap_or_default();
        if let Some((_, kind)) = self.check_makers.iter().find(|(c, _)| c == check) {
            out.extend(self.attributes_of(kind));
        }
        out.extend(self.options.iter().cloned());
        out.sort();
        out.dedup();
        out
    }

    /// What fits at a place where a name is given a value (`with NAME = …`, `:roll CHECK NAME=…`),
    /// reading the statement's words before it; `None` when the place is not one.
    fn assigned_names(&self, words: &[&str]) -> Option<Vec<String>> {
        let lookup = |list: &[(String, Vec<String>)], name: &str| {
            list.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone()).unwrap_or_default()
        };
        match words {
            ["odds" | ":odds", check, ..] if self.checks.iter().any(|c| c == check) => {
                Some(self.odds_names(check))
            }
            ["new", kind, _, "with", ..] => Some(self.attributes_of(kind)),
            ["roll" | ":roll", check, ..] if words.contains(&"with") || words[0] == ":roll" => {
                Some(lookup(&self.check_inputs, check))
            }
            ["trigger", event, ..] => Some(lookup(&self.event_facts, event)),
            [":event", event, ..] => Some(lookup(&self.event_facts, event)),
            _ => None,
        }
    }

    /// Candidates for the word before the cursor in `line`: only what fits there.
    pub fn candidates(&self, line: &str, start: usize) -> Vec<String> {
        // A what-if (`odds trigger …`) and a simulation (`:sim 100 trigger …`) complete as the
        // statement after them does.
        let lead = line.len() - line.trim_start().len();
        let mut words = line[lead..].split_whitespace();
        let skip = match (words.next(), words.next(), words.next()) {
            (Some(w @ ("odds" | ":odds")), Some(next), _) if !self.checks.iter().any(|c| c == next) => {
                Some(lead + w.len())
            }
            (Some(":sim"), Some(n), Some(_)) if n.parse::<u64>().is_ok() => {
                line[lead + 4..].find(n).map(|i| lead + 4 + i + n.len())
            }
            _ => None,
        };
        if let Some(cut) = skip {
            let rest = &line[cut..];
            let trimmed = rest.len() - rest.trim_start().len();
            if start >= cut + trimmed {
                return self.candidates(&line[cut + trimmed..], start - cut - trimmed);
            }
        }
        let before = &line[..start];
        let first = line.split_whitespace().next().unwrap_or("");
        if start == line.len() - line.trim_start().len() && line.trim_start().starts_with(':') {
            return COMMANDS.iter().map(|c| c.to_string()).collect();
        }
        // `alpha.`: the attributes of alpha's kind.
        if let Some(unit) = before.strip_suffix('.') {
            let unit = unit.rsplit(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("");
            return self.attributes_of_unit(unit);
        }
        // The words of the statement so far, brackets and commas apart.
        let spaced: String =
            before.chars().map(|c| if matches!(c, '(' | ')' | ',' | '=') { ' ' } else { c }).collect();
        let words: Vec<&str> = spaced.split_whitespace().collect();
        let prev_char = before.trim_end().chars().last();
        let prev = before
            .trim_end()
            .rsplit(|c: char| c.is_whitespace() || c == '(' || c == ',')
            .next()
            .unwrap_or("");
        // A place for a name that is given a value: right after `with`, `(`, or a comma.
        let name_place = prev != "for"
            && (prev == "with"
                || matches!(prev_char, Some('(' | ','))
                || (matches!(first, ":roll" | ":event")
                    && words.len() >= 2
                    && prev_char.is_some_and(|c| c != '=')));
        if name_place
            && !before.trim().is_empty()
            && let Some(names) = self.assigned_names(&words)
        {
            let mut names = names;
            if first == ":roll" && words.len() == 2 {
                names.push("for".into());
            }
            return names;
        }
        let odds_check = matches!(first, "odds" | ":odds")
            .then(|| words.get(1).filter(|c| self.checks.iter().any(|k| k == *c)))
            .flatten();
        let mut out: Vec<String> = match (first, prev) {
            // After `odds`: a check, or a statement to ask about.
            ("odds" | ":odds", "odds" | ":odds") => self
                .checks
                .iter()
                .cloned()
                .chain(["trigger", "roll", "set", "add", "remove", "new"].map(String::from))
                .collect(),
            (_, "sweep" | "--sweep") if odds_check.is_some() => self.odds_names(odds_check.unwrap_or(&"")),
            ("odds" | ":odds", _) if odds_check.is_some() && words.len() >= 2 && prev_char != Some('=') => {
                let mut w: Vec<String> = ["for", "with", "sweep"].map(String::from).to_vec();
                if prev == "for" {
                    w = self.units.clone();
                }
                w
            }
            (":test", ":test") => self.scenarios.clone(),
            (":sim", _) if words.len() == 2 => self
                .scenarios
                .iter()
                .cloned()
                .chain(["trigger", "roll", "set", "add", "remove"].map(String::from))
                .collect(),
            (":roll", ":roll") | (_, "roll") | (_, "last") => self.checks.clone(),
            (":event", ":event") | (_, "trigger") | (_, "on") => self.events.clone(),
            (_, "new") => self.kinds.clone(),
            (_, "answer") => self.choices.clone(),
            (_, "follow") => self.scripts.clone(),
            (_, "for") | (_, "unit") => self.units.clone(),
            (":help", _) => COMMANDS
                .iter()
                .map(|c| c.trim_start_matches(':').to_string())
                .chain(["statements".into(), "scripts".into(), "odds".into()])
                .collect(),
            (":roll" | ":event", _) => self.units.iter().chain(&self.states).cloned().collect(),
            // After `new KIND`, a new name is typed: nothing to offer.
            _ if words.len() == 2 && words[0] == "new" => vec![],
            // The first word of a line or of a block: a statement or a definition, or a value to show.
            _ if words.is_empty() || matches!(prev_char, Some('{' | '}')) => line_starts()
                .map(String::from)
                .chain(self.units.iter().cloned())
                .chain(self.checks.iter().cloned())
                .collect(),
            _ => self
                .units
                .iter()
                .chain(&self.states)
                .cloned()
                .chain(words::with_role(role::EXPR).map(String::from))
                .collect(),
        };
        if first.starts_with(':')
            && !matches!(first, ":roll" | ":event" | ":help" | ":odds" | ":sim" | ":test")
        {
            out.clear();
        }
        out.sort();
        out.dedup();
        out
    }
}
