//! How one way a scenario can end is told apart from another, and named for people: the values its
//! `report` line (or `--report`) reads; else how the game ended; else only the attributes that
//! differ between its ends. A path that an error stopped is named as stopped, with what stopped it
//! and where. Shared by the exact walk, the merging of equal game states and the estimate.

use crate::diagnostics::Diagnostic;
use crate::{Ruleset, Session};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Values recorded, each with its label.
pub(crate) type Records = Vec<(Arc<str>, i64)>;

/// What a `report` line read: each value's label and the value as people read it.
pub(crate) type Reported = Option<Vec<(Arc<str>, String)>>;

/// Everything one end of a scenario is told apart by (never the log).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub(crate) struct EndFacts {
    /// How the game ended, and who won.
    pub over: Option<(String, Option<String>)>,
    /// Each entity's attributes, as people read them (left empty for a stopped path).
    pub parts: Vec<(String, String)>,
    /// What stopped the path, if something did.
    pub stop: Option<Stop>,
    /// The last value recorded under each label.
    pub records: Vec<(Arc<str>, i64)>,
    /// What the scenario's `report` line read at its end.
    pub reported: Option<Vec<(Arc<str>, String)>>,
}

/// What stopped a path before the scenario's end: an error, and the line of the rule it arose in.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub(crate) struct Stop {
    /// The error's message.
    pub message: String,
    /// The line (from 1) of the ruleset the error points at, if it points at one.
    pub line: Option<usize>,
}

impl Stop {
    /// The stop of error `d`, in ruleset `rules`.
    pub fn of(rules: &Ruleset, d: &Diagnostic) -> Stop {
        let line = d
            .labels
            .first()
            .filter(|_| d.source.is_none())
            .map(|l| rules.text()[..l.span.start.min(rules.text().len())].matches('\n').count() + 1);
        Stop { message: d.message.clone(), line }
    }
}

/// How the run that left session `s` ended: the error that stopped it (if any), what it recorded
/// and what its `report` line read.
pub(crate) fn facts(
    s: &Session,
    error: Option<&Diagnostic>,
    mut records: Vec<(Arc<str>, i64)>,
    reported: Option<Vec<(Arc<str>, String)>>,
) -> EndFacts {
    last_per_label(&mut records);
    let st = s.state();
    let p = s.ruleset().program();
    let over = st.over().map(|o| (o.result.clone(), o.winner.clone()));
    let mut parts = vec![];
    if error.is_none() {
        for (_, e) in st.entities() {
            for (f, v) in p.kinds[e.kind as usize].fields.iter().zip(&e.fields) {
                parts.push((format!("{}.{}", e.name, f.name), s.show(v)));
            }
        }
    }
    let stop = error.map(|d| Stop::of(s.ruleset(), d));
    let reported = if stop.is_some() { None } else { reported };
    EndFacts { over, parts, stop, records, reported }
}

/// What a session's log says a walked run recorded and reported (the log is off, but these two
/// are kept).
pub(crate) fn logged(s: &Session) -> (Records, Reported) {
    let (mut records, mut reported) = (vec![], None);
    for line in s.log() {
        match &line.entry {
            crate::session::LogEntry::Record { label, value, .. } => {
                records.push((label.as_str().into(), *value))
            }
            crate::session::LogEntry::Report { values, .. } => {
                reported = Some(values.iter().map(|(l, v)| (l.as_str().into(), v.clone())).collect());
            }
            _ => {}
        }
    }
    (records, reported)
}

/// Keeps the last value recorded under each label, in the order they were last recorded: all a
/// report reads of them.
pub(crate) fn last_per_label(records: &mut Vec<(Arc<str>, i64)>) {
    if records.len() < 2 {
        return;
    }
    let mut keep: Vec<(Arc<str>, i64)> = vec![];
    for (l, v) in records.drain(..).rev() {
        if !keep.iter().any(|(k, _)| *k == l) {
            keep.push((l, v));
        }
    }
    keep.reverse();
    *records = keep;
}

/// The name of each end, in order: by its reported values when the scenario reports some; else by
/// how the game ended, when every end that was not stopped ended the game; else by the attributes
/// that differ between the ends (with the game's end, when only some ended it). A stopped path is
/// named by what stopped it.
pub(crate) fn names(ends: &[&EndFacts]) -> Vec<String> {
    let reports = ends.iter().any(|e| e.reported.is_some());
    let games = ends.iter().filter(|e| e.stop.is_none()).all(|e| e.over.is_some());
    let mut varies: BTreeMap<&str, bool> = BTreeMap::new();
    if !reports && !games {
        let mut first: BTreeMap<&str, &str> = BTreeMap::new();
        for e in ends.iter().filter(|e| e.stop.is_none()) {
            for (k, v) in &e.parts {
                match first.get(k.as_str()) {
                    None => {
                        first.insert(k, v);
                    }
                    Some(old) if *old != v => {
                        varies.insert(k, true);
                    }
                    _ => {}
                }
            }
        }
    }
    let game = |over: &(String, Option<String>)| match &over.1 {
        Some(w) => format!("{} for {w}", over.0),
        None => over.0.clone(),
    };
    ends.iter()
        .map(|e| match (&e.stop, &e.reported) {
            (Some(stop), _) => stop.name(),
            (None, Some(values)) => {
                values.iter().map(|(l, v)| format!("{l} = {v}")).collect::<Vec<_>>().join(", ")
            }
            (None, None) if reports => "(ended without reaching its `report` line)".into(),
            (None, None) => match &e.over {
                Some(o) if games => game(o),
                _ => {
                    let mut parts: Vec<String> = e.over.iter().map(game).collect();
                    if e.over.is_none() && ends.iter().any(|o| o.over.is_some()) {
                        parts.push("the game goes on".into());
                    }
                    parts.extend(
                        e.parts
                            .iter()
                            .filter(|(k, _)| varies.get(k.as_str()).copied().unwrap_or(false))
                            .map(|(k, v)| format!("{k} = {v}")),
                    );
                    if parts.is_empty() { "always the same end".to_string() } else { parts.join(", ") }
                }
            },
        })
        .collect()
}

impl Stop {
    /// The stop as a row of a report: `stopped at line 40: the game is over (draw)`.
    pub fn name(&self) -> String {
        match self.line {
            Some(l) => format!("(stopped at line {l}: {})", self.message),
            None => format!("(stopped: {})", self.message),
        }
    }
}

/// Ends with exact chances `num / den`, named and added up by name (most likely first), and each
/// recorded value's exact distribution.
#[allow(clippy::type_complexity, reason = "the named ends, and the recorded values")]
pub(crate) fn exact_rows(
    ends: Vec<(EndFacts, BigUint, BigUint)>,
) -> (Vec<(String, super::Fraction)>, Vec<(String, super::Dist)>) {
    let refs: Vec<&EndFacts> = ends.iter().map(|e| &e.0).collect();
    let named = names(&refs);
    let common = ends.iter().fold(BigUint::one(), |acc, (_, _, d)| acc.lcm(d));
    let mut sums: BTreeMap<String, BigUint> = BTreeMap::new();
    let mut labels: Vec<Arc<str>> = vec![];
    let mut by: BTreeMap<(usize, i64), BigUint> = BTreeMap::new();
    for ((e, num, den), name) in ends.iter().zip(named) {
        let w = num * (&common / den);
        *sums.entry(name).or_default() += &w;
        for (l, v) in &e.records {
            let i = labels.iter().position(|k| k == l).unwrap_or_else(|| {
                labels.push(l.clone());
                labels.len() - 1
            });
            *by.entry((i, *v)).or_default() += &w;
        }
    }
    let mut out: Vec<(String, super::Fraction)> =
        sums.into_iter().map(|(k, n)| (k, super::Fraction::new(n, common.clone()))).collect();
    out.sort_by(|a, b| (&b.1.num * &a.1.den).cmp(&(&a.1.num * &b.1.den)).then(a.0.cmp(&b.0)));
    let mut values = vec![];
    for (i, l) in labels.iter().enumerate() {
        let points: Vec<(i64, &BigUint)> =
            by.range((i, i64::MIN)..=(i, i64::MAX)).map(|((_, v), w)| (*v, w)).collect();
        let (Some(lo), Some(hi)) = (points.first().map(|p| p.0), points.last().map(|p| p.0)) else {
            continue;
        };
        if hi.saturating_sub(lo) > super::Dist::MAX_SPREAD {
            continue;
        }
        let mut weights = vec![BigUint::zero(); (hi - lo + 1) as usize];
        for (v, w) in points {
            weights[(v - lo) as usize] = w.clone();
        }
        values.push((l.to_string(), super::Dist::from_weights(lo, weights)));
    }
    (out, values)
}

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};
