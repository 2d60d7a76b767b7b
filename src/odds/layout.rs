//! The numbers a check's rules read of a roll (single dice by place, value, sum, counts of faces),
//! packed into one index: each die adds a fixed step for its face (a die read by its place a step of
//! its own), so the exact analysis can build its distribution in a dense table and a sampler can find
//! a roll's outcome with one lookup.

use crate::ast::Cmp;

/// Which numbers describe a roll, in key order: single dice, value, sum, then each count.
#[derive(Debug, Clone)]
pub struct KeyShape {
    /// Places (from 0) of the dice whose faces are read one by one (`as base` reads the first,
    /// `die(dice, i)` the `i`th): sorted, each once.
    pub places: Vec<usize>,
    /// `cs`: the value counts dice matching this.
    pub successes: Option<(Cmp, i64)>,
    /// The sum of the faces (read besides a count of successes).
    pub sum: bool,
    /// Counts of dice matching each comparison.
    pub counts: Vec<(Cmp, i64)>,
}

impl KeyShape {
    /// What one die showing `f` adds to the roll's value.
    pub fn value(&self, f: i64) -> i64 {
        match self.successes {
            Some((c, n)) => c.test(f, n) as i64,
            None => f,
        }
    }
}

/// Where each number of the key sits in the packed index, for `count` dice with faces `faces`.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The dice's distinct faces, lowest first.
    pub faces: Vec<i64>,
    /// The packed index's size.
    pub size: usize,
    /// What a die adds to the index, by position in `faces`; the first dice add `lead` instead.
    pub step: Vec<usize>,
    /// What each of the first dice adds (up to the last die read by its place).
    pub lead: Vec<Vec<usize>>,
    shape: KeyShape,
    /// (lowest per die, stride) of value, sum and each count.
    value: (i64, usize),
    sum: (i64, usize),
    counts: Vec<usize>,
}

impl Layout {
    /// The layout, or `None` when the index would pass `limit` entries.
    pub fn new(shape: &KeyShape, faces: Vec<i64>, count: usize, limit: usize) -> Option<Layout> {
        let (fmin, fmax) = (*faces.first()?, *faces.last()?);
        let vmin = faces.iter().map(|&f| shape.value(f)).min()?;
        let vmax = faces.iter().map(|&f| shape.value(f)).max()?;
        let n = count as u128;
        // Digits, least significant first: counts (reversed), sum, value, single dice (reversed).
        let mut size: u128 = 1;
        let mut grow = |radix: u128| -> Option<usize> {
            let stride = size;
            size = size.checked_mul(radix)?;
            (size <= limit as u128).then_some(stride as usize)
        };
        let mut counts = vec![0; shape.counts.len()];
        for c in counts.iter_mut().rev() {
            *c = grow(n + 1)?;
        }
        let sum = if shape.sum { grow((fmax - fmin) as u128 * n + 1)? } else { 0 };
        let value = grow((vmax - vmin) as u128 * n + 1)?;
        let mut places = vec![0; shape.places.len()];
        for p in places.iter_mut().rev() {
            *p = grow((fmax - fmin) as u128 + 1)?;
        }
        let mut l = Layout {
            faces,
            size: size as usize,
            step: vec![],
            lead: vec![],
            shape: shape.clone(),
            value: (vmin, value),
            sum: (fmin, sum),
            counts,
        };
        l.step = l.faces.iter().map(|&f| l.die_step(f)).collect();
        let last = shape.places.last().map_or(0, |p| p + 1);
        l.lead = (0..last)
            .map(|i| {
                let stride = shape.places.iter().position(|&p| p == i).map_or(0, |k| places[k]);
                l.faces.iter().map(|&f| l.die_step(f) + (f - fmin) as usize * stride).collect()
            })
            .collect();
        Some(l)
    }

    fn die_step(&self, f: i64) -> usize {
        let mut s = (self.shape.value(f) - self.value.0) as usize * self.value.1;
        if self.shape.sum {
            s += (f - self.sum.0) as usize * self.sum.1;
        }
        for ((c, n), stride) in self.shape.counts.iter().zip(&self.counts) {
            s += c.test(f, *n) as usize * stride;
        }
        s
    }

    /// Position of face `f` in `faces`.
    pub fn face_index(&self, f: i64) -> usize {
        self.faces.binary_search(&f).unwrap_or(0)
    }
}
