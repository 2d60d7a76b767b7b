//! Checking dice terms: counts and sides, custom faces, and notation modifiers that can never
//! work (rerolling or exploding every face) or never matter (keeping more dice than rolled, raising
//! no face).

use super::Checker;
use super::expr::{PoolInfo, T};
use crate::ast::{self, Span};
use crate::diagnostics::Diagnostic;
use crate::program::*;
use std::sync::Arc;

impl<'a> Checker<'a> {
    pub(super) fn dice(
        &mut self,
        e: &ast::Expr,
        count: Option<&ast::Expr>,
        sides: &ast::Sides,
        mods: &[(ast::DiceMod, Span)],
    ) -> T {
        let (count_e, count_r) = match count {
            Some(c) => {
                let t = self.int_arg(c, "the number of dice");
                let (lo, hi) = t.range();
                if let Some(h) = hi
                    && h < 0
                {
                    self.error(
                        Diagnostic::error(
                            "resolve::bad_dice",
                            "the number of dice cannot be negative",
                            c.span,
                            "below 0",
                        )
                        .with_help("roll 0 or more dice"),
                    );
                }
                if lo.is_some_and(|l| l > 10_000) {
                    self.error(
                        Diagnostic::error(
                            "resolve::bad_dice",
                            "too many dice: at most 10000 in one roll",
                            c.span,
                            "too many",
                        )
                        .with_help("roll fewer dice"),
                    );
                }
                (t.e, (lo.unwrap_or(0).max(0), hi.unwrap_or(i64::MAX).max(0)))
            }
            None => (Expr::Const(Value::Int(1)), (1, 1)),
        };
        let (sides_e, faces) = match sides {
            ast::Sides::Count(s) => {
                let t = self.int_arg(s, "the number of sides");
                let (lo, hi) = t.range();
                if let Some(h) = hi
                    && h < 1
                {
                    self.error(
                        Diagnostic::error(
                            "resolve::bad_dice",
                            "a die needs at least one side",
                            s.span,
                            "fewer than 1 side",
                        )
                        .with_help("roll a die with 1 or more sides, such as `d6`"),
                    );
                }
                (SidesExpr::Count(t.e), (1, hi.unwrap_or(i64::MAX).max(lo.unwrap_or(1))))
            }
            ast::Sides::Faces(f) => {
                let faces: Vec<i64> = f.iter().map(|x| x.0).collect();
                let lo = faces.iter().copied().min().unwrap_or(0);
                let hi = faces.iter().copied().max().unwrap_or(0);
                (SidesExpr::Faces(Arc::from(faces)), (lo, hi))
            }
        };
        self.may_show(faces.0, faces.1);
        let mut successes = false;
        // The highest raise lifts the highest value a die can show; the last one lifts the lowest,
        // unless a reroll or an explosion after it brings new faces that were never raised.
        let (mut raised, mut floor): (Option<i64>, Option<i64>) = (None, None);
        let mut kept_hi = count_r.1;
        let mut kept_lo = count_r.0;
        for (m, span) in mods {
            if matches!(
                m,
                ast::DiceMod::Reroll(..) | ast::DiceMod::RerollOnce(..) | ast::DiceMod::Explode(..)
            ) {
                floor = None;
            }
            match m {
                ast::DiceMod::CountSuccesses(cmp, n) => {
                    successes = true;
                    let none = match sides {
                        ast::Sides::Count(_) if faces.1 <= 1000 => {
                            !(faces.0.max(1)..=faces.1).any(|x| cmp.test(x, *n))
                        }
                        ast::Sides::Count(_) => false,
                        ast::Sides::Faces(f) => !f.iter().any(|x| cmp.test(x.0, *n)),
                    };
                    if none {
                        self.diags.push(
                            Diagnostic::warning(
                                "resolve::never_succeeds",
                                "no face of this die counts as a success",
                                *span,
                                "never a success",
                            )
                            .with_help("count faces the die can show, e.g. `cs>=5` on a d6"),
                        );
                    }
                }
                ast::DiceMod::KeepHighest(k) | ast::DiceMod::KeepLowest(k) => {
                    if count_r.0 == count_r.1 && (*k as i64) > count_r.1 {
                        self.diags.push(
                            Diagnostic::warning(
                                "resolve::keeps_too_many",
                                format!("this keeps {k} dice but only {} are rolled", count_r.1),
                                *span,
                                "keeps every die",
                            )
                            .with_help("keep fewer dice than are rolled, or remove the modifier"),
                        );
                    }
                    kept_hi = kept_hi.min(*k as i64);
                    kept_lo = kept_lo.min(*k as i64);
                }
                ast::DiceMod::DropHighest(k) | ast::DiceMod::DropLowest(k) => {
                    kept_hi = kept_hi.saturating_sub(*k as i64).max(0);
                    kept_lo = kept_lo.saturating_sub(*k as i64).max(0);
                }
                ast::DiceMod::Explode(cmp, n) => {
                    let n = n.unwrap_or(faces.1);
                    if every_face(sides, faces, |x| cmp.test(x, n)) {
                        self.error(
                            Diagnostic::error(
                                "resolve::bad_dice",
                                "this die explodes on every face",
                                *span,
                                "explodes on everything",
                            )
                            .with_help("explode only on some faces, e.g. `x` (the highest) or `x>=5`"),
                        );
                    }
                    kept_hi = i64::MAX;
                }
                // Rerolling every face would only stop at the reroll limit: surely a mistake.
                ast::DiceMod::Reroll(cmp, n) if every_face(sides, faces, |x| cmp.test(x, *n)) => {
                    self.error(
                        Diagnostic::error(
                            "resolve::bad_dice",
                            "this reroll matches every face",
                            *span,
                            "rerolls everything",
                        )
                        .with_help("reroll only some faces, e.g. `r1`"),
                    );
                }
                ast::DiceMod::Reroll(..) | ast::DiceMod::RerollOnce(..) => {}
                ast::DiceMod::Raise(n) => {
                    if *n <= faces.0 {
                        self.diags.push(
                            Diagnostic::warning(
                                "resolve::raises_nothing",
                                format!("no face of this die is below {n}, so `min{n}` changes nothing"),
                                *span,
                                "raises no face",
                            )
                            .with_help(format!(
                                "raise to a number above the lowest face ({}), e.g. `min2`, or remove it",
                                faces.0
                            )),
                        );
                    } else if *n >= faces.1 {
                        self.diags.push(
                            Diagnostic::warning(
                                "resolve::raises_everything",
                                format!("no face of this die is above {n}, so every die shows {n}"),
                                *span,
                                "raises every face",
                            )
                            .with_help(format!(
                                "raise to a number below the highest face ({}), or write the number \
                                 {n} instead of the die",
                                faces.1
                            )),
                        );
                    }
                    raised = raised.max(Some(*n));
                    floor = floor.max(Some(*n));
                }
            }
        }
        // What the dice can show once raised.
        let faces = (floor.map_or(faces.0, |n| faces.0.max(n)), raised.map_or(faces.1, |n| faces.1.max(n)));
        let text = self.src(e.span).to_string();
        let d = DiceExpr {
            count: count_e,
            sides: sides_e,
            mods: mods.iter().map(|m| m.0).collect(),
            text,
            span: e.span,
        };
        let mut t = T::new(Expr::Dice(Box::new(d)), Ty::Pool);
        t.pool = Some(PoolInfo { count: (kept_lo, kept_hi), faces, successes });
        t
    }
}

/// Whether every face of a die satisfies `test` (for dice of up to 1000 sides).
fn every_face(sides: &ast::Sides, faces: (i64, i64), test: impl Fn(i64) -> bool) -> bool {
    match sides {
        ast::Sides::Count(_) if faces.1 <= 1000 => (faces.0.max(1)..=faces.1).all(test),
        ast::Sides::Count(_) => false,
        ast::Sides::Faces(f) => f.iter().all(|x| test(x.0)),
    }
}
