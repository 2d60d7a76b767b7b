//! The lowered forms held to the reference evaluator while a game is played: in a debug build with
//! [`watch`] on, every condition the runner tests through its compiled closure and every expression a
//! statement reads through its lowered reading (without dice, scripts, formulas or tables, which
//! cannot be read twice) is evaluated again by `eval` on a copy of its frame, and any difference in
//! the answer, the error or the steps charged is kept for [`Watch::differences`]. Release builds
//! compile none of it in.

use std::cell::RefCell;

thread_local! {
    static WATCH: RefCell<Option<Found>> = const { RefCell::new(None) };
}

#[derive(Default)]
struct Found {
    compared: u64,
    differences: Vec<String>,
}

/// Comparison turned on for this thread until dropped; see the module's notes (only the tests and
/// the compiler's insides, `mettle::internals`, turn it on).
#[cfg(any(test, feature = "internals"))]
#[must_use = "comparison stops when the watch is dropped"]
pub struct Watch(());

/// Starts comparing every condition tested on this thread with the reference evaluator (in debug
/// builds only: in a release build nothing is compared).
#[cfg(any(test, feature = "internals"))]
pub fn watch() -> Watch {
    WATCH.with(|w| *w.borrow_mut() = Some(Found::default()));
    Watch(())
}

#[cfg(any(test, feature = "internals"))]
impl Watch {
    /// Conditions compared so far (0 in a release build).
    pub fn compared(&self) -> u64 {
        WATCH.with(|w| w.borrow().as_ref().map_or(0, |f| f.compared))
    }

    /// Each difference found so far: the condition, what each tier gave and the steps each charged.
    pub fn differences(&self) -> Vec<String> {
        WATCH.with(|w| w.borrow().as_ref().map_or_else(Vec::new, |f| f.differences.clone()))
    }
}

#[cfg(any(test, feature = "internals"))]
impl Drop for Watch {
    fn drop(&mut self) {
        WATCH.with(|w| *w.borrow_mut() = None);
    }
}

/// Whether conditions are being compared on this thread.
#[cfg(debug_assertions)]
pub(super) fn on() -> bool {
    WATCH.with(|w| w.borrow().is_some())
}

/// Counts one comparison, and keeps `difference` if there was one.
#[cfg(debug_assertions)]
pub(super) fn compared(difference: Option<String>) {
    WATCH.with(|w| {
        if let Some(f) = w.borrow_mut().as_mut() {
            f.compared += 1;
            if let Some(d) = difference
                && f.differences.len() < 100
            {
                f.differences.push(d);
            }
        }
    });
}

#[cfg(debug_assertions)]
impl super::Runner<'_> {
    /// `e` read by `lowered`, and again by `reference` on a copy of the frame, whose steps are then
    /// given back: the game goes on as if only the lowered form had run. A difference in the
    /// answer, the error or the steps is kept for the watch.
    #[cold]
    pub(super) fn both_ways<T: PartialEq + std::fmt::Debug>(
        &mut self,
        e: &crate::program::Expr,
        f: &mut Vec<crate::program::Value>,
        lowered: impl FnOnce(&mut Self, &mut Vec<crate::program::Value>) -> super::R<T>,
        reference: impl FnOnce(&mut Self, &mut Vec<crate::program::Value>) -> super::R<T>,
    ) -> super::R<T> {
        let mut copy = f.clone();
        let start = self.steps;
        let answer = lowered(self, f);
        let after = self.steps;
        let again = reference(self, &mut copy);
        let (by_lowered, by_eval) = (after.wrapping_sub(start), self.steps.wrapping_sub(after));
        self.steps = after;
        let say = |r: &super::R<T>| match r {
            Ok(v) => format!("{v:?}"),
            Err(d) => d.code.clone(),
        };
        let (a, b) = (say(&answer), say(&again));
        compared(
            (a != b || by_lowered != by_eval).then(|| {
                format!("{e:?}: compiled {a} in {by_lowered} steps, evaluated {b} in {by_eval} steps")
            }),
        );
        answer
    }
}
