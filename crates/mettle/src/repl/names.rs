//! The names the prompt can complete, gathered from the ruleset and the session: what a line
//! editor's completion offers.

use super::commands::COMMANDS;
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
                s.state().entities.iter().map(|e| e.name.clone()).chain(lets.map(String::from)).collect(),
            ),
            attributes: sorted(
                p.kinds.iter().flat_map(|k| k.fields.iter().map(|f| f.name.clone())).collect(),
            ),
            states: sorted(p.sets.iter().flat_map(|s| s.names.iter().cloned()).collect()),
            choices: sorted(p.choices.iter().map(|c| c.name.clone()).collect()),
            scripts: sorted(
                p.scripts.iter().flat_map(|s| s.functions.iter().map(|f| f.name.clone())).collect(),
            ),
        }
    }

    /// Candidates for the word before the cursor in `line`.
    pub fn candidates(&self, line: &str, start: usize) -> Vec<String> {
        let before = line[..start].trim_end();
        let first = line.split_whitespace().next().unwrap_or("");
        let prev = before.split_whitespace().last().unwrap_or("");
        if start == line.len() - line.trim_start().len() && line.trim_start().starts_with(':') {
            return COMMANDS.iter().map(|c| c.to_string()).collect();
        }
        if line[..start].ends_with('.') {
            return self.attributes.clone();
        }
        let mut out: Vec<String> = match (first, prev) {
            (":roll", ":roll") | (_, "roll") | (_, "last") => self.checks.clone(),
            (":event", ":event") | (_, "trigger") | (_, "on") => self.events.clone(),
            (_, "new") => self.kinds.clone(),
            (_, "answer") => self.choices.clone(),
            (_, "follow") => self.scripts.clone(),
            (_, "for") | (_, "unit") => self.units.clone(),
            (":help", _) => COMMANDS
                .iter()
                .map(|c| c.trim_start_matches(':').to_string())
                .chain(["statements".into(), "scripts".into()])
                .collect(),
            (":roll" | ":event", _) => {
                self.attributes.iter().chain(&self.units).chain(&self.states).cloned().collect()
            }
            _ => self
                .units
                .iter()
                .chain(&self.states)
                .chain(&self.checks)
                .chain(&self.events)
                .chain(&self.kinds)
                .cloned()
                .collect(),
        };
        if first.starts_with(':') && !matches!(first, ":roll" | ":event" | ":help") {
            out.clear();
        }
        out
    }
}
