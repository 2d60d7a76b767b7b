//! An index of the program's name sets (all but the results, set 0): which set has exactly these
//! names, and which sets have a given name. Loading stays linear however many sets a ruleset makes.

use crate::program::{NameSet, SetId};
use std::collections::HashMap;

#[derive(Debug, Default)]
pub struct SetIndex {
    /// Sets indexed so far (set 0, the results, is never indexed).
    upto: usize,
    /// Sets by their whole list of names, oldest first.
    by_names: HashMap<Vec<String>, Vec<SetId>>,
    /// The first set with each name, and where in it.
    by_name: HashMap<String, (SetId, u32)>,
}

impl SetIndex {
    /// Indexes the sets made since the last call. A set's names do not change once it is made.
    fn sync(&mut self, sets: &[NameSet]) {
        for (id, set) in sets.iter().enumerate().skip(self.upto.max(1)) {
            self.by_names.entry(set.names.clone()).or_default().push(id as SetId);
            for (i, n) in set.names.iter().enumerate() {
                self.by_name.entry(n.clone()).or_insert((id as SetId, i as u32));
            }
        }
        self.upto = sets.len().max(1);
    }

    /// The first set (after the results) with exactly `names` and no ladder values.
    pub fn same(&mut self, sets: &[NameSet], names: &[String]) -> Option<SetId> {
        self.sync(sets);
        self.by_names.get(names)?.iter().copied().find(|&s| sets[s as usize].values.is_none())
    }

    /// The first set (after the results) that has `name`, and its place there.
    pub fn with_name(&mut self, sets: &[NameSet], name: &str) -> Option<(SetId, u32)> {
        self.sync(sets);
        self.by_name.get(name).copied()
    }
}
