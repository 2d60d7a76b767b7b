//! Counters of a batch of runs: how each run ended and what it recorded, merged in any order.

use crate::diagnostics::Diagnostic;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// How one run ended: the game's result and winner (`None`: the game did not end), or a check's
/// outcome (as the result, with no winner).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct End {
    /// The result's name, or the check's outcome; `None` when the scenario ended without a result.
    pub result: Option<String>,
    /// The winner's name, if the game named one.
    pub winner: Option<String>,
}

/// The values recorded under one label across runs: exact sums, so merging in any order gives the same
/// numbers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Recorded {
    /// Runs that recorded the label.
    pub runs: u64,
    /// Sum of the values.
    pub sum: i128,
    /// Smallest value.
    pub min: i64,
    /// Largest value.
    pub max: i64,
    /// How many runs recorded each value.
    pub counts: BTreeMap<i64, u64>,
}

impl Recorded {
    fn add(&mut self, v: i64) {
        if self.runs == 0 {
            (self.min, self.max) = (v, v);
        }
        self.runs += 1;
        self.sum += i128::from(v);
        self.min = self.min.min(v);
        self.max = self.max.max(v);
        *self.counts.entry(v).or_default() += 1;
    }

    fn merge(&mut self, o: Recorded) {
        if o.runs == 0 {
            return;
        }
        if self.runs == 0 {
            *self = o;
            return;
        }
        self.runs += o.runs;
        self.sum += o.sum;
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
        for (v, n) in o.counts {
            *self.counts.entry(v).or_default() += n;
        }
    }
}

/// Counts the records of a batch of runs that each record the same labels, in the same order and
/// each once (a simulated scenario's, nearly always), by their place: a run is matched to the
/// labels by the labels' addresses, not looked up by name. Only a run of at most `FEW_RECORDS`
/// records gives the labels (whether they repeat is found by a look ahead, as `add_run` does). Any
/// other run goes to the tally as [`Tally::add_run`] counts it; [`Recorder::finish`] adds what was
/// counted here.
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    labels: Vec<Arc<str>>,
    recorded: Vec<Recorded>,
    /// Whether the labels were taken from a run (or found to repeat).
    set: bool,
}

impl Recorder {
    /// Counts a run that recorded `records` into `tally` (its end is counted apart).
    pub(crate) fn add_run(
        &mut self,
        tally: &mut Tally,
        records: &[(Arc<str>, i64)],
        failed_expectation: bool,
    ) {
        if !self.set && !records.is_empty() {
            self.set = true;
            let distinct = records.len() <= FEW_RECORDS
                && records
                    .iter()
                    .enumerate()
                    .all(|(i, (l, _))| !records[i + 1..].iter().any(|(m, _)| m == l));
            if distinct {
                self.labels = records.iter().map(|(l, _)| l.clone()).collect();
                self.recorded = vec![Recorded::default(); records.len()];
            }
        }
        let same = records.len() == self.labels.len()
            && records.iter().zip(&self.labels).all(|((l, _), k)| Arc::ptr_eq(l, k));
        if !same {
            return tally.add_run(records, failed_expectation);
        }
        tally.runs += 1;
        tally.failed_expectations += u64::from(failed_expectation);
        for ((_, v), r) in records.iter().zip(&mut self.recorded) {
            r.add(*v);
        }
    }

    /// Adds the records counted here to `tally`.
    pub(crate) fn finish(self, tally: &mut Tally) {
        for (label, r) in self.labels.iter().zip(self.recorded) {
            if r.runs > 0 {
                tally.records.entry(label.to_string()).or_default().merge(r);
            }
        }
    }
}

/// Records a run may make before [`Tally::add_run`] stops looking ahead for a label's later value.
const FEW_RECORDS: usize = 16;

/// Everything counted over some runs. Only counters are kept, never logs, so memory stays flat
/// however many runs there are.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// Runs counted, errors included.
    pub runs: u64,
    /// Runs per end.
    pub ends: BTreeMap<End, u64>,
    /// Runs that stopped with an error.
    pub errors: u64,
    /// The error of the lowest-numbered run that had one, with that run's number.
    pub first_error: Option<(u64, Diagnostic)>,
    /// Runs in which an expectation failed.
    pub failed_expectations: u64,
    /// Recorded values by label.
    pub records: BTreeMap<String, Recorded>,
}

impl Tally {
    /// Counts a run that ended with `end` and recorded `records` (the last value of each label counts;
    /// earlier ones in the same run are overwritten).
    pub fn add<L: AsRef<str>>(&mut self, end: End, records: &[(L, i64)], failed_expectation: bool) {
        *self.ends.entry(end).or_default() += 1;
        self.add_run(records, failed_expectation);
    }

    /// Counts a run as [`Tally::add`] does, but for its end, which the caller counts itself
    /// ([`Tally::add_ends`]).
    pub(crate) fn add_run<L: AsRef<str>>(&mut self, records: &[(L, i64)], failed_expectation: bool) {
        self.runs += 1;
        self.failed_expectations += u64::from(failed_expectation);
        // A game records a few values, found again by a look ahead; one that records many (up to the
        // log's budget, under as many labels as its rules write) is read once from the end, so
        // counting it stays linear.
        if records.len() <= FEW_RECORDS {
            for (i, (label, v)) in records.iter().enumerate() {
                let label = label.as_ref();
                if !records[i + 1..].iter().any(|(l, _)| l.as_ref() == label) {
                    self.record(label, *v);
                }
            }
        } else {
            let mut seen = std::collections::HashSet::new();
            for (label, v) in records.iter().rev() {
                if seen.insert(label.as_ref()) {
                    self.record(label.as_ref(), *v);
                }
            }
        }
    }

    /// Counts `v` as the value a run recorded under `label`.
    fn record(&mut self, label: &str, v: i64) {
        match self.records.get_mut(label) {
            Some(r) => r.add(v),
            None => {
                let mut r = Recorded::default();
                r.add(v);
                self.records.insert(label.to_string(), r);
            }
        }
    }

    /// Counts `n` more runs as having ended with `end` (their other counts: [`Tally::add_run`]).
    pub(crate) fn add_ends(&mut self, end: End, n: u64) {
        *self.ends.entry(end).or_default() += n;
    }

    /// Counts run number `run`, which stopped with error `d`.
    pub fn add_error(&mut self, run: u64, d: Diagnostic) {
        self.runs += 1;
        self.errors += 1;
        if self.first_error.as_ref().is_none_or(|(r, _)| run < *r) {
            self.first_error = Some((run, d));
        }
    }

    /// Adds another tally's counts to this one. The order of merging does not change the result.
    pub fn merge(mut self, o: Tally) -> Tally {
        self.runs += o.runs;
        self.errors += o.errors;
        self.failed_expectations += o.failed_expectations;
        for (e, n) in o.ends {
            *self.ends.entry(e).or_default() += n;
        }
        if let Some((run, d)) = o.first_error
            && self.first_error.as_ref().is_none_or(|(r, _)| run < *r)
        {
            self.first_error = Some((run, d));
        }
        for (label, r) in o.records {
            self.records.entry(label).or_default().merge(r);
        }
        self
    }
}

/// The 95% Wilson score interval of a proportion: `hits` out of `n`, as `(low, high)`.
///
/// ```
/// let (lo, hi) = mettle::sim::wilson(50, 100);
/// assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4);
/// assert_eq!(mettle::sim::wilson(0, 0), (0.0, 1.0));
/// ```
pub fn wilson(hits: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    const Z: f64 = 1.959_963_984_540_054;
    let (k, n) = (hits as f64, n as f64);
    let p = k / n;
    let z2 = Z * Z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_of_the_same_few_labels_are_counted_by_place_and_others_as_add_run_counts_them() {
        let label = |l: usize| -> Arc<str> { format!("l{l}").into() };
        let few: Vec<(Arc<str>, i64)> = (0..3).map(|l| (label(l), l as i64)).collect();
        let many: Vec<(Arc<str>, i64)> = (0..=FEW_RECORDS).map(|l| (label(l), l as i64)).collect();
        for (records, by_place) in [(few, true), (many, false)] {
            let (mut counted, mut plain) = (Tally::default(), Tally::default());
            let mut recorder = Recorder::default();
            for _ in 0..2 {
                recorder.add_run(&mut counted, &records, false);
                plain.add_run(&records, false);
            }
            // Past the look ahead, the labels are not taken (their check would be quadratic).
            assert_eq!(recorder.labels.is_empty(), !by_place, "{} records", records.len());
            recorder.finish(&mut counted);
            assert_eq!(counted.runs, plain.runs);
            assert_eq!(format!("{:?}", counted.records), format!("{:?}", plain.records));
        }
    }

    #[test]
    fn a_run_counts_the_last_value_of_each_label_however_many_it_records() {
        // Thirty records, three rounds of ten labels: more than a look ahead is used for.
        let many: Vec<(String, i64)> =
            (0..3).flat_map(|round| (0..10).map(move |l| (format!("l{l}"), round * 100 + l))).collect();
        assert!(many.len() > FEW_RECORDS);
        let mut t = Tally::default();
        t.add_run(&many, false);
        assert_eq!(t.records.len(), 10);
        for l in 0..10 {
            let r = &t.records[&format!("l{l}")];
            assert_eq!((r.runs, r.sum), (1, i128::from(200 + l)));
        }
        // The same as counting only the last round, which the look ahead does.
        let mut last = Tally::default();
        last.add_run(&many[20..], false);
        assert_eq!(format!("{:?}", t.records), format!("{:?}", last.records));
    }
}
