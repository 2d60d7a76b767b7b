//! Evaluating expressions: operators, formulas, tables, built-in functions and dice rolls.

use super::ANY_RUN;
use super::{R, Runner, fail};
use crate::ast::{ArithError, BinOp, DiceMod};
use crate::dice::{self, Faces, Source};
use crate::program::*;
use crate::session::LogEntry;
use std::sync::Arc;

impl Runner<'_> {
    // ---------------------------------------------------------------- expressions

    pub fn eval(&mut self, e: &Expr, f: &mut Vec<Value>) -> R<Value> {
        Ok(match e {
            Expr::Const(v) => v.clone(),
            Expr::Local(s) => f.get(*s as usize).cloned().unwrap_or(Value::None),
            Expr::Global(Global::Round) => Value::Int(self.st.round),
            Expr::Global(Global::Option(o)) => {
                self.st.options.get(*o as usize).cloned().unwrap_or(Value::None)
            }
            Expr::Global(Global::Turn) => Value::Int(self.st.turn),
            Expr::Global(Global::Game) => match &self.st.over {
                Some(o) => Value::Name { set: self.p.results, index: o.index },
                None => Value::None,
            },
            Expr::Global(Global::Winner) => match self.st.over.as_ref().and_then(|o| o.winner_id) {
                Some(id) => Value::Entity(id),
                None => Value::None,
            },
            Expr::Field(base, i) => {
                let id = self.entity(base, f)?;
                self.st.entities[id as usize].fields[*i as usize].clone()
            }
            Expr::Script(c) => self.script_value(c.func, &c.args, c.span, c.flag, f)?,
            Expr::Neg(x) => Value::Int(self.int(x, f)?.checked_neg().ok_or_else(|| self.overflow())?),
            Expr::Not(x) => Value::Bool(!self.truth(x, f)?),
            Expr::Bin(op, a, b) => self.binary(*op, a, b, f)?,
            Expr::If(c, a, b) => {
                let e = self.branch(c, a, b, f)?;
                self.eval(e, f)?
            }
            Expr::Dice(d) => {
                let pool = self.roll_dice(d, 0, &[], f)?;
                if self.mode.log {
                    self.push::<ANY_RUN>(LogEntry::Roll {
                        text: d.text.clone(),
                        faces: pool.dice.iter().map(|d| d.face).collect(),
                        value: pool.value,
                        span: d.span,
                    });
                }
                Value::Pool(Arc::new(pool))
            }
            Expr::Builtin(b, args) => self.builtin(*b, args, f)?,
            Expr::Define(d, args) => {
                let def = &self.p.defines[*d as usize];
                let mut frame = self.frame(def.slots.max(args.len() as u32) as usize);
                for (i, a) in args.iter().enumerate() {
                    frame[i] = self.eval(a, f)?;
                }
                self.tick(1)?;
                self.deeper()?;
                let v = self.eval(&def.body, &mut frame);
                self.depth -= 1;
                self.recycle(frame);
                v?
            }
            Expr::Table(t, args) => {
                let mut keys = Vec::with_capacity(args.len());
                for a in args {
                    keys.push(self.eval(a, f)?);
                }
                let table = &self.p.tables[*t as usize];
                let row = table.rows.iter().find(|(pats, _, _)| {
                    pats.is_empty()
                        || pats.iter().zip(&keys).all(|(p, k)| match (p, k) {
                            (Pat::Any, _) => true,
                            (Pat::Range(lo, hi), v) => (*lo..=*hi).contains(&v.int()),
                            (Pat::Bool(b), Value::Bool(v)) => b == v,
                            (Pat::Name(n), Value::Name { index, .. }) => n == index,
                            _ => false,
                        })
                });
                match row {
                    Some((_, v, row)) => {
                        let mut frame = vec![Value::None; table.slots as usize];
                        let value = self.eval(v, &mut frame)?;
                        if self.mode.log {
                            self.log_lookup(*t, &keys, &value, *row);
                        }
                        value
                    }
                    None => {
                        let shown: Vec<String> = keys.iter().map(|k| self.show(k)).collect();
                        return Err(Box::new(
                            fail(
                                "no_row",
                                format!("table `{}` has no row for {}", table.name, shown.join(", ")),
                                self.span,
                                "add a row for these keys, or an `otherwise:` row",
                            )
                            .with_label(table.span, "the table"),
                        ));
                    }
                }
            }
            Expr::Last(c) => match self.last_result(*c) {
                Some(r) => Value::Result(r.clone()),
                None => {
                    return Err(Box::new(fail(
                        "not_rolled",
                        format!("check `{}` has not been rolled yet", self.p.checks[*c as usize].name),
                        self.span,
                        "roll the check before reading `last`",
                    )));
                }
            },
            Expr::Outcome(r) => match self.eval(r, f)? {
                Value::Result(r) => Value::Name {
                    set: self.p.checks[r.check_id as usize].outcome_set,
                    index: r.outcome_index,
                },
                v => v,
            },
            Expr::ResultSlot(r, s) => match self.eval(r, f)? {
                Value::Result(r) => r.slots.get(*s as usize).cloned().unwrap_or(Value::None),
                _ => Value::None,
            },
            Expr::NumberOf { kind, slot, filter } => {
                Value::Int(self.number_of(*kind, *slot, filter.as_deref(), f)?)
            }
            Expr::Total(t) => self.total(t, f)?,
            Expr::DataField(base, name) => self.data_field(base, name, f)?,
            Expr::Pick(p) => self.pick(p, f)?,
        })
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, f: &mut Vec<Value>) -> R<Value> {
        Ok(match op {
            BinOp::And | BinOp::Or => {
                let left = self.truth(a, f)?;
                Value::Bool(match op.decides(left) {
                    Some(answer) => answer,
                    None => self.truth(b, f)?,
                })
            }
            BinOp::Eq | BinOp::Ne | BinOp::Is | BinOp::IsNot => {
                let x = self.eval(a, f)?;
                let y = self.eval(b, f)?;
                Value::Bool(super::read::same(&x, &y) == matches!(op, BinOp::Eq | BinOp::Is))
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let x = self.int(a, f)?;
                let y = self.int(b, f)?;
                Value::Bool(op.holds(x, y))
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => Value::Int(self.arith(op, a, b, f)?),
        })
    }

    /// `a OP b` for arithmetic operator `op`: both sides read as numbers, left then right, and
    /// worked out as [`BinOp::arith`] says.
    #[inline]
    pub(super) fn arith(&mut self, op: BinOp, a: &Expr, b: &Expr, f: &mut Vec<Value>) -> R<i64> {
        let x = self.int(a, f)?;
        let y = self.int(b, f)?;
        op.arith(x, y).map_err(|e| Box::new(self.arith_error(e)))
    }

    /// The error of an arithmetic operator that gave no number.
    #[cold]
    pub(super) fn arith_error(&self, e: ArithError) -> crate::diagnostics::Diagnostic {
        match e {
            ArithError::Overflow => self.overflow(),
            ArithError::DivideByZero => {
                fail("divide_by_zero", "division by zero", self.span, "divide by a number other than 0")
            }
            // The checker types only arithmetic operators as numbers worked out this way.
            ArithError::NotArithmetic => self.lost_error(),
        }
    }

    fn pool(&mut self, e: &Expr, f: &mut Vec<Value>) -> R<Arc<Pool>> {
        match self.eval(e, f)? {
            Value::Pool(p) => Ok(p),
            v => Ok(Arc::new(lone(v.int()))),
        }
    }

    fn builtin(&mut self, b: Builtin, args: &[Expr], f: &mut Vec<Value>) -> R<Value> {
        let ints =
            |r: &mut Self, f: &mut Vec<Value>| -> R<Vec<i64>> { args.iter().map(|a| r.int(a, f)).collect() };
        Ok(match b {
            Builtin::Min | Builtin::Max => Value::Int(extreme(b, args.len(), |i| self.int(&args[i], f))?),
            Builtin::Abs => Value::Int(self.int(&args[0], f)?.checked_abs().ok_or_else(|| self.overflow())?),
            Builtin::Triangular => {
                let n = self.int(&args[0], f)?.max(0);
                let product = n.checked_add(1).and_then(|m| n.checked_mul(m));
                Value::Int(product.ok_or_else(|| self.overflow())? / 2)
            }
            Builtin::Clamp => {
                let v = ints(self, f)?;
                Value::Int(v[0].max(v[1]).min(v[2].max(v[1])))
            }
            Builtin::Sum => {
                let p = self.pool(&args[0], f)?;
                Value::Int(dice::checked_sum(p.kept()).ok_or_else(|| self.overflow())?)
            }
            Builtin::Size => Value::Int(self.pool(&args[0], f)?.kept().count() as i64),
            Builtin::Count(c) => Value::Int(self.tally(c, args, f, |hits, _| hits as i64)?),
            Builtin::Any(c) => Value::Bool(self.tally(c, args, f, |hits, _| hits > 0)?),
            Builtin::All(c) => Value::Bool(self.tally(c, args, f, |hits, p| hits == p.kept().count())?),
            Builtin::Highest | Builtin::Lowest => {
                let p = self.pool(&args[0], f)?;
                let k = self.int(&args[1], f)?.max(0) as usize;
                let mut faces: Vec<i64> = p.kept().collect();
                faces.sort_unstable();
                if b == Builtin::Highest {
                    faces.reverse();
                }
                Value::Int(dice::checked_sum(faces.into_iter().take(k)).ok_or_else(|| self.overflow())?)
            }
            Builtin::Die => {
                let p = self.pool(&args[0], f)?;
                let i = self.int(&args[1], f)?;
                Value::Int(if i >= 1 { p.dice.get(i as usize - 1).map(|d| d.face).unwrap_or(0) } else { 0 })
            }
            Builtin::Shift => {
                let (set, index) = match self.eval(&args[0], f)? {
                    Value::Name { set, index } => (set, index),
                    _ => return Ok(Value::None),
                };
                let n = self.int(&args[1], f)?;
                let len = self.p.sets[set as usize].names.len() as i64;
                Value::Name { set, index: (index as i64).saturating_add(n).clamp(0, len - 1) as u32 }
            }
            Builtin::RungValue | Builtin::Rank => match self.eval(&args[0], f)? {
                Value::Name { set, index } => Value::Int(if b == Builtin::Rank {
                    index as i64
                } else {
                    self.p.sets[set as usize]
                        .values
                        .as_ref()
                        .and_then(|v| v.get(index as usize))
                        .copied()
                        .unwrap_or(0)
                }),
                _ => Value::Int(0),
            },
        })
    }

    /// `count(DICE, N)`, `any(…)` and `all(…)`: how many kept dice of `args[0]` pass `c` against
    /// `args[1]`, given to `answer` with the dice. A number read as dice is a pool of none.
    #[inline(always)]
    pub(super) fn tally<T>(
        &mut self,
        c: crate::ast::Cmp,
        args: &[Expr],
        f: &mut Vec<Value>,
        answer: impl FnOnce(usize, &Pool) -> T,
    ) -> R<T> {
        let hits = |p: &Pool, n: i64| p.kept().filter(|x| c.test(*x, n)).count();
        // The check's own dice (`count(dice, 6)`) are read where they are, not shared again;
        // reading a local draws nothing, so working out the face first changes no roll.
        if let Expr::Local(s) = &args[0] {
            let n = self.int(&args[1], f)?;
            return Ok(match f.get(*s as usize) {
                Some(Value::Pool(p)) => answer(hits(p, n), p),
                v => {
                    let p = lone(v.map_or(0, Value::int));
                    answer(hits(&p, n), &p)
                }
            });
        }
        let p = self.pool(&args[0], f)?;
        let n = self.int(&args[1], f)?;
        Ok(answer(hits(&p, n), &p))
    }

    /// Rolls a dice term with `extra` more dice, labelled by the modifiers that added them.
    pub(crate) fn roll_dice(
        &mut self,
        d: &DiceExpr,
        extra: i64,
        labels: &[(String, i64)],
        f: &mut Vec<Value>,
    ) -> R<Pool> {
        let mut pool = Pool { notation: String::new(), sides: 0, dice: vec![], value: 0 };
        self.roll_dice_into(&mut pool, d, extra, labels, f)?;
        Ok(pool)
    }

    /// Rolls as [`Runner::roll_dice`] does, into a shared pool: the spare one of an earlier roll
    /// when nothing else holds it (its allocations used again), else a new one.
    pub(crate) fn roll_pool(
        &mut self,
        d: &DiceExpr,
        extra: i64,
        labels: &[(String, i64)],
        f: &mut Vec<Value>,
    ) -> R<Arc<Pool>> {
        let mut shared = match self.kit.pool.take() {
            Some(p) if Arc::strong_count(&p) == 1 && Arc::weak_count(&p) == 0 => p,
            _ => Arc::new(Pool { notation: String::new(), sides: 0, dice: vec![], value: 0 }),
        };
        // Unique by now, so this copies nothing.
        self.roll_dice_into(Arc::make_mut(&mut shared), d, extra, labels, f)?;
        Ok(shared)
    }

    #[inline(always)]
    fn roll_dice_into(
        &mut self,
        pool: &mut Pool,
        d: &DiceExpr,
        extra: i64,
        labels: &[(String, i64)],
        f: &mut Vec<Value>,
    ) -> R<()> {
        let (count, sides) = self.dice_spec(d, extra, f)?;
        let faces = match (&d.sides, sides) {
            (SidesExpr::Faces(l), _) => Faces::List(l),
            (_, n) => Faces::Count(n),
        };
        let count = count as i64;
        self.span = d.span;
        // Each die is a step: charge the dice before they are rolled, and the rerolls and explosions
        // after.
        self.tick(count as u64)?;
        if let Faces::Count(n) = faces
            && self.plain_dice()
            && DiceMod::as_rolled(&d.mods)
            && labels.is_empty()
        {
            return self.roll_plainly(pool, count as usize, n, d);
        }
        let source = self.hooks.and_then(|h| h.dice.as_ref());
        let mut guard = source.map(|s| s.lock().unwrap_or_else(|e| e.into_inner()));
        let host = guard.as_deref_mut().map(|source| dice::Host {
            source,
            replay: &mut self.host.replay,
            drawn: &mut self.host.drawn,
            error: &mut self.host.dice_error,
        });
        let mut src = Source {
            rng: &mut self.st.rng,
            forced: &mut self.st.forced,
            walk: self.st.walk.as_mut().filter(|w| !w.done),
            host,
            notation: &d.text,
        };
        let rolled = dice::roll_into(pool, count as usize, faces, &d.mods, &mut src);
        drop(guard);
        rolled.map_err(|m| self.draw_error(m, d))?;
        let drawn = pool.dice.iter().map(|d| 1 + d.rerolled.len() as u64).sum::<u64>();
        self.tick(drawn.saturating_sub(count as u64))?;
        if pool.notation != d.text {
            pool.notation.clone_from(&d.text);
        }
        // Label dice added by modifiers, after the roll's own dice.
        let own =
            count.saturating_sub(labels.iter().fold(0i64, |a, l| a.saturating_add(l.1))).max(0) as usize;
        let mut i = own;
        for (label, n) in labels {
            for _ in 0..*n {
                if let Some(die) = pool.dice.iter_mut().filter(|d| !d.exploded).nth(i) {
                    die.from = Some(label.clone());
                }
                i += 1;
            }
        }
        Ok(())
    }

    /// Whether the dice roll with the generator alone: no face forced, no walk under way and no
    /// host's dice source.
    #[inline]
    fn plain_dice(&self) -> bool {
        self.st.forced.is_empty()
            && self.st.walk.as_ref().is_none_or(|w| w.done)
            && self.hooks.is_none_or(|h| h.dice.is_none())
    }

    /// [`Runner::roll_dice_into`] for `count` dice of `n` sides drawn from the generator, counted as
    /// successes or summed: the dice `dice::roll_into` would draw, the same pool and errors, without
    /// its steps for rerolls, explosions and keeps, nor a source to ask for each face.
    fn roll_plainly(&mut self, pool: &mut Pool, count: usize, n: i64, d: &DiceExpr) -> R<()> {
        let rng = &mut self.st.rng;
        pool.dice.clear();
        pool.dice.reserve(count);
        for _ in 0..count {
            let face = dice::draw(rng, Faces::Count(n));
            pool.dice.push(Die::new(face));
        }
        pool.value =
            dice::kept_value(&pool.dice, DiceMod::counting(&d.mods)).map_err(|m| self.draw_error(m, d))?;
        pool.sides = n;
        if pool.notation != d.text {
            pool.notation.clone_from(&d.text);
        }
        Ok(())
    }

    /// How many dice a roll throws (with `extra` from modifiers) and, for `dN`, how many sides (0
    /// for custom faces).
    #[inline(always)]
    pub(crate) fn dice_spec(&mut self, d: &DiceExpr, extra: i64, f: &mut Vec<Value>) -> R<(usize, i64)> {
        let count = self.int(&d.count, f)?.saturating_add(extra).max(0);
        if count > 10_000 {
            return Err(too_many_dice(count, d));
        }
        let sides = match &d.sides {
            SidesExpr::Count(e) => {
                let n = self.int(e, f)?;
                if n < 1 {
                    return Err(bad_sides(n, d));
                }
                n
            }
            SidesExpr::Faces(_) => 0,
        };
        Ok((count as usize, sides))
    }
}

/// A number read where dice were expected: a pool of no dice with that value.
fn lone(value: i64) -> Pool {
    Pool { notation: String::new(), sides: 0, dice: vec![], value }
}

/// More dice than one roll may throw.
#[cold]
fn too_many_dice(count: i64, d: &DiceExpr) -> Box<crate::diagnostics::Diagnostic> {
    Box::new(fail(
        "too_many_dice",
        format!("{count} dice is too many for one roll"),
        d.span,
        "roll at most 10000 dice",
    ))
}

/// Dice of fewer than one side.
#[cold]
fn bad_sides(n: i64, d: &DiceExpr) -> Box<crate::diagnostics::Diagnostic> {
    Box::new(fail("bad_dice", format!("a die cannot have {n} sides"), d.span, "give dice 1 or more sides"))
}

/// The least (`min`) or greatest (`max`) of the numbers `each` gives for arguments `0..n`, read left
/// to right; 0 for none.
#[inline]
pub(super) fn extreme(b: Builtin, n: usize, mut each: impl FnMut(usize) -> R<i64>) -> R<i64> {
    let mut best: Option<i64> = None;
    for i in 0..n {
        let v = each(i)?;
        best = Some(match best {
            Some(x) if b == Builtin::Min => x.min(v),
            Some(x) => x.max(v),
            None => v,
        });
    }
    Ok(best.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Ruleset;
    use crate::ast::Cmp;
    use crate::session::Session;
    use rand::SeedableRng;

    /// Dice rolled plainly come out as `dice::roll_into` rolls them with the same generator: the
    /// same faces, value, sides and notation, and the generator left in the same place.
    #[test]
    fn plain_dice_are_the_dice_the_general_roll_draws() {
        let rules = Ruleset::from_str("t.mettle", "kind unit { n: 0..9 = 0 }").unwrap();
        let mods = [
            vec![],
            vec![DiceMod::CountSuccesses(Cmp::Ge, 4)],
            vec![DiceMod::CountSuccesses(Cmp::Ge, 5), DiceMod::CountSuccesses(Cmp::Eq, 1)],
        ];
        for (mods, count, sides) in mods.iter().flat_map(|m| [(m, 0, 6), (m, 1, 6), (m, 5, 6), (m, 9, 3)]) {
            let d = DiceExpr {
                count: Expr::Const(Value::Int(count)),
                sides: SidesExpr::Count(Expr::Const(Value::Int(sides))),
                mods: mods.clone(),
                text: format!("{count}d{sides}"),
                span: crate::ast::Span::default(),
            };
            let mut s = Session::new(&rules, 11);
            let mut r = s.runner();
            let mut pool = Pool { notation: "d20".into(), sides: 0, dice: vec![], value: 0 };
            r.roll_dice_into(&mut pool, &d, 0, &[], &mut vec![]).unwrap();
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
            let general = dice::roll(
                count as usize,
                Faces::Count(sides),
                mods,
                &mut Source {
                    rng: &mut rng,
                    forced: &mut Default::default(),
                    walk: None,
                    host: None,
                    notation: "",
                },
            )
            .unwrap();
            let faces = |p: &Pool| p.dice.iter().map(|d| (d.face, d.kept)).collect::<Vec<_>>();
            assert_eq!(faces(&pool), faces(&general), "{count}d{sides} {mods:?}");
            assert_eq!((pool.value, pool.sides), (general.value, general.sides), "{count}d{sides} {mods:?}");
            assert_eq!(pool.notation, d.text);
            assert_eq!(r.st.rng, rng, "the generator moved as far");
        }
    }
}
