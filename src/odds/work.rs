//! One budget of work for an exact answer: every engine counts what it really does against it.
//!
//! A unit is about one operation on a 64-bit word of a weight (a big weight of `k` words costs `k`
//! to add, `k · m` to multiply by one of `m` words), one step of a rule settled, or one script
//! operation. The meter lives with the thread: the outermost [`within`] starts it, and everything
//! inside (every input combination of the unreachable-outcome lint, every row of a sweep, every path
//! of a scenario walk) shares it. Once it runs dry it stays dry until that scope ends, so the engines
//! give up at once and the caller estimates instead, or says the work was cut short.

use std::cell::Cell;

thread_local! {
    static LEFT: Cell<u64> = const { Cell::new(u64::MAX) };
    static DRY: Cell<bool> = const { Cell::new(false) };
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with at most `units` units of work: all of them when no budget is running on this thread,
/// else no more than the running budget has left (what `f` spends comes off it). Returns what `f`
/// returned and whether its allowance ran dry.
///
/// ```
/// use mettle::internals::odds::{expr, work};
/// let c = expr::compile("100d6 + 100d6").unwrap();
/// // Too little work for an exact answer: the engine gives up, and says why.
/// let (d, dry) = work::within(10_000, || expr::dist(&c.expr));
/// assert!(dry && d.unwrap_err().contains("budget"));
/// let (d, dry) = work::within(100_000_000, || expr::dist(&c.expr));
/// assert!(!dry && d.is_ok());
/// ```
pub fn within<T>(units: u64, f: impl FnOnce() -> T) -> (T, bool) {
    struct Restore {
        active: bool,
        outer_left: u64,
        outer_dry: bool,
        given: u64,
    }
    impl Drop for Restore {
        fn drop(&mut self) {
            let spent = self.given - LEFT.with(Cell::get).min(self.given);
            if self.active {
                let left = self.outer_left - spent.min(self.outer_left);
                LEFT.with(|l| l.set(left));
                DRY.with(|d| d.set(self.outer_dry || left == 0));
            } else {
                LEFT.with(|l| l.set(u64::MAX));
                DRY.with(|d| d.set(false));
            }
            ACTIVE.with(|a| a.set(self.active));
        }
    }
    let active = ACTIVE.with(Cell::get);
    let outer_left = LEFT.with(Cell::get);
    let given = if active { units.max(1).min(outer_left) } else { units.max(1) };
    let restore = Restore { active, outer_left, outer_dry: DRY.with(Cell::get), given };
    ACTIVE.with(|a| a.set(true));
    LEFT.with(|l| l.set(given));
    DRY.with(|d| d.set(false));
    let out = f();
    let dry = DRY.with(Cell::get);
    drop(restore);
    (out, dry)
}

/// Counts `units` of work; `false` once the budget is spent (and from then on).
#[inline]
pub fn charge(units: u64) -> bool {
    LEFT.with(|l| {
        let left = l.get();
        if left >= units {
            l.set(left - units);
            true
        } else {
            l.set(0);
            DRY.with(|d| d.set(true));
            false
        }
    })
}

/// Whether the running budget has been spent.
pub fn dry() -> bool {
    DRY.with(Cell::get)
}

/// Units left in the running budget (`u64::MAX` outside any).
pub fn left() -> u64 {
    LEFT.with(Cell::get)
}

/// The error of a rule stopped because the exact answer it was settling for ran out of work; the
/// engines turn it into an estimate, or a lint cut short.
pub(crate) fn out_of_work(at: crate::ast::Span) -> crate::diagnostics::Diagnostic {
    DRY.with(|d| d.set(true));
    crate::diagnostics::Diagnostic::error(
        crate::diagnostics::Code::OutOfWork.path(),
        "the exact answer's budget of work ran out while settling this rule",
        at,
        "running this when the budget ran out",
    )
    .with_help("raise it with `--budget odds_work=N`, or ask for fewer combinations at once")
}

/// Why an answer was not worked out exactly, when the budget ran dry.
pub fn reason() -> String {
    "working it out exactly would take more work than its budget allows (`--budget odds_work=N` raises it)"
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_runs_dry_and_stays_dry_until_its_scope_ends() {
        let ((), dry) = within(10, || {
            assert!(charge(6));
            assert!(!charge(6));
            assert!(dry());
        });
        assert!(dry);
        assert!(!super::dry());
        assert!(charge(1_000_000));
    }

    #[test]
    fn an_inner_scope_spends_from_the_outer_budget() {
        let ((), outer) = within(10, || {
            let ((), inner) = within(1_000, || assert!(!charge(11)));
            assert!(inner);
        });
        assert!(outer);
        let ((), outer) = within(10, || {
            let ((), inner) = within(4, || assert!(charge(3)));
            assert!(!inner);
            assert_eq!(left(), 7);
            let ((), inner) = within(4, || assert!(!charge(5)));
            assert!(inner);
            assert_eq!(left(), 3);
            assert!(!dry());
        });
        assert!(!outer);
    }
}
