//! How one way a scenario can end is told apart from another, and named for people: the values its
//! `report` line (or `--report`) reads; else how the game ended; else only the attributes that
//! differ between its ends. A path that an error stopped is named as stopped, with what stopped it
//! and where. Shared by the exact walk, the merging of equal game states, the estimate and the
//! REPL's what-if, so that all of them name the same end alike.

use crate::diagnostics::Diagnostic;
use crate::{Ruleset, Session};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashSet};
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

/// What stopped a path before the scenario's end: an error, and where it arose.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub(crate) struct Stop {
    /// The error's message.
    pub message: String,
    /// The line (from 1) the error points at, if it points at one: of the ruleset, or of `file`.
    /// (Kept small: a merged path's end holds it.)
    pub line: Option<u32>,
    /// The script file the line is in, when it is not the ruleset's.
    pub file: Option<Arc<str>>,
}

impl Stop {
    /// The stop of error `d`, in ruleset `rules`. An error that points nowhere, or past the
    /// ruleset's text (into a step typed at the REPL's prompt), has no line.
    pub fn of(rules: &Ruleset, d: &Diagnostic) -> Stop {
        let at = d.labels.first().map(|l| l.span.start);
        let (line, file) = match (&d.source, at) {
            (Some(f), Some(at)) => (Some(line_of(&f.text, at)), Some(f.name.as_str().into())),
            (None, Some(at)) if at <= rules.text().len() => (Some(line_of(rules.text(), at)), None),
            _ => (None, None),
        };
        Stop { message: d.message.clone(), line, file }
    }

    /// A stop with `message` at byte `at` of ruleset `rules`.
    pub fn at(rules: &Ruleset, message: String, at: usize) -> Stop {
        Stop { message, line: Some(line_of(rules.text(), at)), file: None }
    }

    /// The stop as a row of a report: `(stopped at line 40: the game is over (draw))`.
    pub fn name(&self) -> String {
        match (self.line, &self.file) {
            (Some(l), Some(f)) => format!("(stopped at line {l} of {f}: {})", self.message),
            (Some(l), None) => format!("(stopped at line {l}: {})", self.message),
            (None, _) => format!("(stopped: {})", self.message),
        }
    }
}

/// Where place `at` of scenario `scenario` is, in words, when it is inside a `repeat` of the
/// scenario's own: the turn of the innermost one and its line (`in turn 2 of the \`repeat\` at line
/// 837`), so that a homebrewer sees how far through the scenario something got. Places are indices
/// through the scenario's blocks, as `Runner::scenario_from` takes them.
pub(crate) fn place_words(rules: &Ruleset, scenario: usize, at: &[usize]) -> Option<String> {
    let mut stmts = &rules.program().scenarios.get(scenario)?.body[..];
    let mut found = None;
    let mut i = 0;
    while let (Some(st), Some(&inner)) = (at.get(i).and_then(|j| stmts.get(*j)), at.get(i + 1)) {
        stmts = match st {
            crate::program::Stmt::If(_, a, b) => {
                if inner == 0 {
                    a
                } else {
                    b
                }
            }
            crate::program::Stmt::Repeat { body, span, .. } => {
                found = Some((inner + 1, line_of(rules.text(), span.start)));
                body
            }
            _ => break,
        };
        i += 2;
    }
    found.map(|(turn, line)| format!("in turn {turn} of the `repeat` at line {line}"))
}

/// The line (from 1) of byte `at` of `text`.
fn line_of(text: &str, at: usize) -> u32 {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    u32::try_from(text[..at].matches('\n').count() + 1).unwrap_or(u32::MAX)
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
/// that differ between the ends (with the game's end, when only some ended it), and the entities
/// some ends have and this one has not (`no reinforcement`). A stopped path is named by what
/// stopped it.
pub(crate) fn names(ends: &[&EndFacts]) -> Vec<String> {
    let reports = ends.iter().any(|e| e.reported.is_some());
    let finished: Vec<&&EndFacts> = ends.iter().filter(|e| e.stop.is_none()).collect();
    let games = finished.iter().all(|e| e.over.is_some());
    let mut varies: BTreeSet<&str> = BTreeSet::new();
    if !reports && !games {
        // Each part's first value, and how many ends have it.
        let mut first: BTreeMap<&str, (&str, usize)> = BTreeMap::new();
        for e in &finished {
            for (k, v) in &e.parts {
                let seen = first.entry(k).or_insert((v, 0));
                seen.1 += 1;
                if seen.0 != v {
                    varies.insert(k);
                }
            }
        }
        // A part that some ends lack (its entity was made on some paths only) tells them apart too.
        varies.extend(first.iter().filter(|(_, (_, n))| *n < finished.len()).map(|(k, _)| *k));
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
                            .filter(|(k, _)| varies.contains(k.as_str()))
                            .map(|(k, v)| format!("{k} = {v}")),
                    );
                    let has: HashSet<&str> = e.parts.iter().map(|(k, _)| entity_of(k)).collect();
                    let mut missing: Vec<&str> =
                        varies.iter().map(|k| entity_of(k)).filter(|n| !has.contains(n)).collect();
                    missing.dedup();
                    parts.extend(missing.into_iter().map(|n| format!("no {n}")));
                    if parts.is_empty() { "always the same end".to_string() } else { parts.join(", ") }
                }
            },
        })
        .collect()
}

/// The entity a part names: `alpha` of `alpha.morale`.
fn entity_of(part: &str) -> &str {
    part.split_once('.').map_or(part, |(e, _)| e)
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

/// Ends counted in `runs` simulated runs, named and added up by name (most often first), each with
/// its 95% interval, and each recorded value's distribution over the runs.
#[allow(clippy::type_complexity, reason = "the named ends, and the recorded values")]
pub(crate) fn counted_rows(
    counts: &[(EndFacts, u64)],
    runs: u64,
) -> (Vec<super::OutcomeOdds>, Vec<(String, super::Dist)>) {
    let facts: Vec<&EndFacts> = counts.iter().map(|(f, _)| f).collect();
    let mut hits: Vec<(String, u64)> = vec![];
    let mut records: BTreeMap<Arc<str>, BTreeMap<i64, u64>> = BTreeMap::new();
    let mut order: Vec<Arc<str>> = vec![];
    for ((f, n), name) in counts.iter().zip(names(&facts)) {
        match hits.iter_mut().find(|(k, _)| *k == name) {
            Some((_, h)) => *h += n,
            None => hits.push((name, *n)),
        }
        for (l, v) in &f.records {
            if !order.contains(l) {
                order.push(l.clone());
            }
            *records.entry(l.clone()).or_default().entry(*v).or_default() += n;
        }
    }
    hits.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let outcomes = hits
        .into_iter()
        .map(|(name, hits)| {
            let (low, high) = crate::sim::wilson(hits, runs);
            super::OutcomeOdds { name, chance: super::Chance::Estimate { hits, runs, low, high } }
        })
        .collect();
    let values = order
        .iter()
        .filter_map(|l| super::Dist::from_counts(records.remove(l)?).map(|d| (l.to_string(), d)))
        .collect();
    (outcomes, values)
}

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};
