//! Exact distributions of expressions that read no game state (`2d6 + 3 >= 8`, `max(d20, d20) + 5`),
//! and compiling such an expression from text on its own.

use super::Dist;
use super::poly::Poly;
use super::pool::term;
use crate::ast::{BinOp, Cmp, DiceMod, Span};
use crate::check::{PromptCode, PromptInput, check_prompt};
use crate::diagnostics::Diagnostic;
use crate::dice::Faces;
use crate::program::{Builtin, DiceExpr, Expr, SidesExpr, Ty, Value};
use crate::syntax::{ReplInput, parse_repl};
use num_bigint::BigUint;
use std::collections::BTreeMap;

/// Most pairs of values two distributions may be combined over.
const MAX_PAIRS: usize = 4_000_000;
/// Most values between the lowest and the highest of one distribution.
const MAX_SPAN: i64 = 4_000_000;

/// An expression compiled on its own, with no ruleset around it.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The expression.
    pub expr: Expr,
    /// Its type: a number, a pool of dice, or yes/no.
    pub ty: Ty,
    /// Local slots a frame needs to evaluate it in a session.
    pub slots: u32,
}

impl Compiled {
    /// Whether the expression answers yes or no (its distribution is over 0 and 1).
    pub fn is_flag(&self) -> bool {
        self.ty == Ty::Flag
    }
}

/// Compiles a standalone expression in the language's notation (`4d6kh3`, `d20 + 5 >= 15`), the way a
/// REPL line is compiled, against an empty ruleset. Errors are located in `text`.
///
/// ```
/// let c = mettle::internals::odds::expr::compile("2d6 + 3 >= 8").unwrap();
/// assert!(c.is_flag());
/// let d = mettle::internals::odds::expr::dist(&c.expr).unwrap();
/// assert_eq!(d.probability(1).to_string(), "5/6");
/// assert_eq!(mettle::internals::odds::expr::compile("2d6 +").unwrap_err()[0].code, "mettle::parse::syntax");
/// ```
pub fn compile(text: &str) -> Result<Compiled, Vec<Diagnostic>> {
    let e = match parse_repl(text)? {
        ReplInput::Expr(e) => e,
        _ => {
            let span = Span::new(0, text.trim_end().len());
            return Err(vec![
                Diagnostic::error(
                    "odds::not_an_expression",
                    "expected a dice expression",
                    span,
                    "not an expression",
                )
                .with_help("write a roll or a comparison, such as `4d6kh3` or `2d6 + 3 >= 8`"),
            ]);
        }
    };
    let file = crate::ast::File::default();
    let (code, diags) = check_prompt(&file, "", &[], PromptInput::Expr(&e), text, None);
    match code {
        Some(PromptCode::Expr { expr, ty, slots }) if matches!(ty, Ty::Int { .. } | Ty::Flag | Ty::Pool) => {
            Ok(Compiled { expr, ty, slots })
        }
        Some(_) => Err(vec![
            Diagnostic::error(
                "odds::not_a_number",
                "this has no odds",
                e.span,
                "neither a number nor yes/no",
            )
            .with_help("ask for the odds of a roll or a comparison, such as `2d6 + 3 >= 8`"),
        ]),
        None => Err(diags),
    }
}

/// The exact distribution of an expression's value, with every dice term an independent roll; yes/no
/// is 1/0. `Err` says why it is out of reach: the expression reads game state or a script, or a part
/// of it has too many outcomes to combine exactly.
///
/// ```
/// let c = mettle::internals::odds::expr::compile("3d6 + 1d4").unwrap();
/// let d = mettle::internals::odds::expr::dist(&c.expr).unwrap();
/// assert_eq!((d.lo(), d.hi()), (4, 22));
/// assert_eq!(d.probability(4).to_string(), "1/864");
/// ```
pub fn dist(e: &Expr) -> Result<Dist, String> {
    let (d, dry) = super::work::within(crate::Budget::default().odds_work, || dist_within(e));
    if dry { Err(super::work::reason()) } else { d }
}

fn dist_within(e: &Expr) -> Result<Dist, String> {
    match e {
        Expr::Const(Value::Int(i)) => Ok(Dist::constant(*i)),
        Expr::Const(Value::Bool(b)) => Ok(Dist::constant(i64::from(*b))),
        Expr::Const(_) => Err("only numbers and yes/no have odds".into()),
        Expr::Neg(x) => map(&dist(x)?, |v| v.checked_neg()),
        Expr::Not(x) => map(&dist(x)?, |v| Some(i64::from(v == 0))),
        Expr::Bin(op, a, b) => binary(*op, a, b),
        Expr::If(c, a, b) => {
            let c = dist(c)?;
            let yes = c.weight(1);
            if c.hi() == 1 && c.lo() == 1 {
                return dist(a);
            }
            if num_traits::Zero::is_zero(&yes) {
                return dist(b);
            }
            let (a, b) = (dist(a)?, dist(b)?);
            let mut out = Poly::empty();
            out.add_scaled(&poly(&a), &(yes * b.total()), 0).ok_or_else(overflow)?;
            out.add_scaled(&poly(&b), &(c.weight(0) * a.total()), 0).ok_or_else(overflow)?;
            Ok(out.reduce().to_dist())
        }
        Expr::Dice(d) => dice(d, |m| m.to_vec()),
        Expr::Builtin(b, args) => builtin(*b, args),
        Expr::Local(_) | Expr::Define(..) => Err("it uses a named value or formula".into()),
        Expr::Global(_) | Expr::Field(..) | Expr::NumberOf { .. } | Expr::Total(_) => {
            Err("it reads the state of the game".into())
        }
        Expr::Table(..) => Err("it looks up a table".into()),
        Expr::Last(_) | Expr::Outcome(_) | Expr::ResultSlot(..) => {
            Err("it reads the result of a check".into())
        }
        Expr::Script(..) => Err("it calls a script".into()),
        Expr::DataField(..) | Expr::Pick(_) => Err("it reads the host's data".into()),
    }
}

/// Most pair-of-weights work (pairs times the weights' length in 64-bit words) combining two rolls
/// may take: a roll of thousands of dice carries weights of thousands of bits, and `2141d7 - d75`
/// took seconds though its pairs were well under [`MAX_PAIRS`].
const MAX_PAIR_WORK: f64 = 2e7;

/// Whether combining `pairs` pairs of values of `a` and `b` is too much work for their weights.
fn too_heavy(pairs: usize, a: &Dist, b: &Dist) -> bool {
    let words = |d: &Dist| d.total().bits() as f64 / 64.0;
    pairs as f64 * (1.0 + words(a) + words(b)) > MAX_PAIR_WORK
}

/// The work of adding a weight into an ordered map of values, besides the weight's own length.
const MAP_WORK: u64 = 150;

fn overflow() -> String {
    "the exact weights grow too large".into()
}

fn poly(d: &Dist) -> Poly<BigUint> {
    Poly { lo: d.lo(), w: d.iter().map(|(_, w)| w.clone()).collect() }
}

/// A dice term; `mods` may change its modifiers (for `sum`, `count`, `highest` …). Counts and sides
/// that are rolled themselves make a mixture of terms.
fn dice(d: &DiceExpr, mods: impl Fn(&[DiceMod]) -> Vec<DiceMod>) -> Result<Dist, String> {
    let mods = mods(&d.mods);
    let counts = dist(&d.count)?;
    let sides = match &d.sides {
        SidesExpr::Count(e) => Some(dist(e)?),
        SidesExpr::Faces(_) => None,
    };
    let pairs = counts.iter().count() * sides.as_ref().map_or(1, |s| s.iter().count());
    if pairs > 100 {
        return Err("the number of dice or their sides vary too much to work out exactly".into());
    }
    let mut parts: Vec<(BigUint, Dist)> = vec![];
    for (n, nw) in counts.iter().filter(|(_, w)| !num_traits::Zero::is_zero(*w)) {
        let n = n.max(0);
        if n > 10_000 {
            return Err(format!("{n} dice is too many for one roll"));
        }
        match (&d.sides, &sides) {
            (SidesExpr::Faces(l), _) => parts.push((nw.clone(), term(n as usize, Faces::List(l), &mods)?)),
            (_, Some(s)) => {
                for (k, kw) in s.iter().filter(|(_, w)| !num_traits::Zero::is_zero(*w)) {
                    parts.push((nw * kw, term(n as usize, Faces::Count(k), &mods)?));
                }
            }
            _ => unreachable!("sides are counted or listed"),
        }
    }
    if parts.len() == 1 {
        return Ok(parts.remove(0).1);
    }
    // Each term has its own total: bring them to a common one, then weigh each by its chance.
    let totals: Vec<BigUint> = parts.iter().map(|p| p.1.total()).collect();
    let common = totals.iter().fold(BigUint::from(1u32), |l, t| num_integer::Integer::lcm(&l, t));
    let mut out = Poly::empty();
    for ((w, t), total) in parts.iter().zip(&totals) {
        out.add_scaled(&poly(t), &(w * (&common / total)), 0).ok_or_else(overflow)?;
    }
    Ok(out.reduce().to_dist())
}

fn builtin(b: Builtin, args: &[Expr]) -> Result<Dist, String> {
    let fold = |f: fn(i64, i64) -> i64| -> Result<Dist, String> {
        let mut acc = dist(&args[0])?;
        for a in &args[1..] {
            acc = combine(&acc, &dist(a)?, |x, y| Some(f(x, y)))?;
        }
        Ok(acc)
    };
    match b {
        Builtin::Min => fold(i64::min),
        Builtin::Max => fold(i64::max),
        Builtin::Abs => map(&dist(&args[0])?, i64::checked_abs),
        Builtin::Triangular => map(&dist(&args[0])?, |n| n.max(0).checked_mul(n.max(0) + 1).map(|t| t / 2)),
        Builtin::Clamp => {
            let (x, lo, hi) = (dist(&args[0])?, dist(&args[1])?, dist(&args[2])?);
            let mut out = Poly::empty();
            for (l, lw) in lo.iter() {
                let part = combine(&x, &hi, |v, h| Some(v.max(l).min(h.max(l))))?;
                out.add_scaled(&poly(&part), lw, 0).ok_or_else(overflow)?;
            }
            Ok(out.reduce().to_dist())
        }
        Builtin::Sum => pool_arg(args, without_count),
        Builtin::Size => pool_arg(args, size_mods),
        Builtin::Count(cmp) | Builtin::Any(cmp) | Builtin::All(cmp) => {
            let n = constant(&args[1], "the number to compare dice with")?;
            let hits =
                pool_arg(args, |m| [without_count(m), vec![DiceMod::CountSuccesses(cmp, n)]].concat())?;
            match b {
                Builtin::Count(_) => Ok(hits),
                Builtin::Any(_) => map(&hits, |h| Some(i64::from(h > 0))),
                _ => {
                    let size = pool_arg(args, size_mods)?;
                    if size.lo() != size.hi() {
                        return Err("`all` over dice that explode is not worked out exactly".into());
                    }
                    map(&hits, |h| Some(i64::from(h == size.lo())))
                }
            }
        }
        Builtin::Highest | Builtin::Lowest => {
            let k = u32::try_from(constant(&args[1], "how many dice to take")?.max(0)).unwrap_or(u32::MAX);
            let keep = if b == Builtin::Highest { DiceMod::KeepHighest(k) } else { DiceMod::KeepLowest(k) };
            pool_arg(args, |m| [without_count(m), vec![keep]].concat())
        }
        Builtin::Die => Err("`die(pool, i)` depends on the order the dice fall in".into()),
        Builtin::Shift | Builtin::RungValue | Builtin::Rank => Err("it works on names, not numbers".into()),
    }
}

/// The modifiers without `cs`: the sum of the kept dice.
fn without_count(mods: &[DiceMod]) -> Vec<DiceMod> {
    mods.iter().filter(|m| !matches!(m, DiceMod::CountSuccesses(..))).copied().collect()
}

/// The modifiers counting every kept die.
fn size_mods(mods: &[DiceMod]) -> Vec<DiceMod> {
    [without_count(mods), vec![DiceMod::CountSuccesses(Cmp::Ge, i64::MIN)]].concat()
}

/// A pool function's first argument, which must be a dice term written in place.
fn pool_arg(args: &[Expr], mods: impl Fn(&[DiceMod]) -> Vec<DiceMod>) -> Result<Dist, String> {
    match &args[0] {
        Expr::Dice(d) => dice(d, mods),
        _ => Err("a pool function is worked out exactly only on dice written in place".into()),
    }
}

/// An argument that must not vary.
fn constant(e: &Expr, what: &str) -> Result<i64, String> {
    let d = dist(e)?;
    if d.lo() != d.hi() {
        return Err(format!("{what} must not be rolled"));
    }
    Ok(d.lo())
}

/// The distribution of `f(x)`; `None` from `f` means overflow.
fn map(d: &Dist, f: impl Fn(i64) -> Option<i64>) -> Result<Dist, String> {
    let mut out: BTreeMap<i64, BigUint> = BTreeMap::new();
    let mut values = 0usize;
    for (v, w) in d.iter().filter(|(_, w)| !num_traits::Zero::is_zero(*w)) {
        let y = f(v).ok_or_else(|| "a value can overflow".to_string())?;
        if !super::work::charge(MAP_WORK + w.bits() / 64) {
            return Err(super::work::reason());
        }
        *out.entry(y).or_default() += w;
        values += 1;
    }
    // When no two values fell together (a shift, a negation), the weights are as reduced as they
    // were: reducing thousands of long weights again costs seconds (`2114d7 - 5`).
    let merged = out.len() < values;
    from_map(out, merged)
}

fn from_map(m: BTreeMap<i64, BigUint>, reduce: bool) -> Result<Dist, String> {
    let (Some((&lo, _)), Some((&hi, _))) = (m.first_key_value(), m.last_key_value()) else {
        return Ok(Dist::from_weights::<BigUint>(0, vec![]));
    };
    if hi.checked_sub(lo).is_none_or(|s| s > MAX_SPAN) {
        return Err("the values spread too far apart to list".into());
    }
    let mut w = vec![BigUint::default(); (hi - lo + 1) as usize];
    for (v, x) in m {
        w[(v - lo) as usize] = x;
    }
    let p = Poly { lo, w };
    Ok(if reduce { p.reduce() } else { p }.to_dist())
}

/// The distribution of `f(x, y)` for independent `x` and `y`.
fn combine(a: &Dist, b: &Dist, f: impl Fn(i64, i64) -> Option<i64>) -> Result<Dist, String> {
    if a.lo() == a.hi() {
        return map(b, |y| f(a.lo(), y));
    }
    if b.lo() == b.hi() {
        return map(a, |x| f(x, b.lo()));
    }
    let nz = |d: &Dist| d.iter().filter(|(_, w)| !num_traits::Zero::is_zero(*w)).count();
    if nz(a).saturating_mul(nz(b)) > MAX_PAIRS || too_heavy(nz(a).saturating_mul(nz(b)), a, b) {
        return Err(format!(
            "combining two rolls of {} and {} values is too much work to do exactly",
            nz(a),
            nz(b)
        ));
    }
    let mut out: BTreeMap<i64, BigUint> = BTreeMap::new();
    for (x, xw) in a.iter().filter(|(_, w)| !num_traits::Zero::is_zero(*w)) {
        for (y, yw) in b.iter().filter(|(_, w)| !num_traits::Zero::is_zero(*w)) {
            let v = f(x, y).ok_or_else(|| "a value can overflow".to_string())?;
            if !super::work::charge(MAP_WORK + (1 + xw.bits() / 64) * (1 + yw.bits() / 64)) {
                return Err(super::work::reason());
            }
            *out.entry(v).or_default() += xw * yw;
        }
    }
    from_map(out, true)
}

fn binary(op: BinOp, a: &Expr, b: &Expr) -> Result<Dist, String> {
    let (x, y) = (dist(a)?, dist(b)?);
    let flag = |t: bool| Some(i64::from(t));
    match op {
        BinOp::Add if x.lo() != x.hi() && y.lo() != y.hi() => {
            if x.lo().checked_add(y.lo()).is_none() || x.hi().checked_add(y.hi()).is_none() {
                return Err("a value can overflow".into());
            }
            let pairs = (x.hi() - x.lo() + 1).saturating_mul(y.hi() - y.lo() + 1);
            if pairs > MAX_PAIRS as i64 || too_heavy(pairs as usize, &x, &y) {
                return Err("adding two rolls with this many values is too much work to do exactly".into());
            }
            Ok(poly(&x).conv(&poly(&y)).ok_or_else(overflow)?.reduce().to_dist())
        }
        BinOp::Add | BinOp::Sub | BinOp::Mul => combine(&x, &y, |p, q| op.arith(p, q).ok()),
        BinOp::Div => {
            if !num_traits::Zero::is_zero(&y.weight(0)) {
                return Err("the divisor can be 0".into());
            }
            combine(&x, &y, |p, q| op.arith(p, q).ok())
        }
        BinOp::Is => combine(&x, &y, |p, q| flag(BinOp::Eq.holds(p, q))),
        BinOp::IsNot => combine(&x, &y, |p, q| flag(BinOp::Ne.holds(p, q))),
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            combine(&x, &y, |p, q| flag(op.holds(p, q)))
        }
        BinOp::And | BinOp::Or => combine(&x, &y, |p, q| flag(op.decides(p != 0).unwrap_or(q != 0))),
    }
}

#[cfg(test)]
mod tests;
