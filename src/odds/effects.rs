//! What a check does to the one who makes it, exactly: each distinct roll's outcome applies its
//! effects to a copy of the game (the session's own rules, as a real roll would), and the values
//! each attribute is left with are added up with the roll's weight.

use super::report::{EffectOdds, OutcomeOdds, Unfollowed};
use super::{Chance, Fraction};
use crate::program::*;
use crate::session::Session;
use num_bigint::BigUint;

/// What following a check's effects needs: who makes it, their attributes before the roll, and the
/// attributes the check's outcomes write.
pub(crate) struct Follow {
    /// The kind of who makes the check, as the rules name it (`unit`).
    kind: String,
    /// Its attributes' names.
    fields: Vec<String>,
    /// Their values before the roll.
    before: Vec<Value>,
    /// Whether each attribute is written by an outcome's effects, as the rules are written.
    written: Vec<bool>,
    /// For each outcome: why its effects cannot be followed from the roll, whatever the roll, if
    /// they cannot (they read the dice themselves, or ask a player).
    blocked: Vec<Option<String>>,
    /// Each attribute: each value it is left with, and its ways.
    ways: Vec<Vec<(Value, BigUint)>>,
    /// Ways of the rolls whose outcome changes nothing.
    untouched: BigUint,
    /// Why some rolls' effects could not be followed, with their ways.
    unfollowed: Vec<(String, BigUint)>,
}

impl Follow {
    /// For check `check` made by `subject`, with effects in at least one outcome; `None` otherwise.
    /// `dice` is how much of the dice the rolls it will be given hold as they fell: all of them
    /// (a simulated roll), or only what the rules after the roll read (exact odds reduce the dice to
    /// that), so that effects that read more are not followed.
    pub(crate) fn new(session: &Session, check: CheckId, subject: Option<u32>, dice: Dice) -> Option<Follow> {
        let p = session.ruleset().program();
        let c = &p.checks[check as usize];
        let who = subject?;
        if c.outcomes.iter().all(|o| o.body.is_empty()) {
            return None;
        }
        let e = session.state().entities.get(who)?;
        let kind = &p.kinds[e.kind as usize];
        let mut written = vec![false; kind.fields.len()];
        let mut blocked = vec![];
        for o in &c.outcomes {
            let mut reads = Reads { subject: c.slots.subject, ..Reads::default() };
            reads.stmts(&o.body);
            for f in &reads.written {
                if let Some(w) = written.get_mut(*f as usize) {
                    *w = true;
                }
            }
            let unknown = |l: &u32| match dice {
                Dice::All => false,
                Dice::Read { natural } => *l == c.slots.dice || (*l == c.slots.natural && !natural),
            };
            blocked.push(if reads.asks {
                Some("its effects ask a player to choose".to_string())
            } else if reads.reacts {
                Some("its effects follow a reaction, whose steps odds do not follow".to_string())
            } else if reads.locals.iter().any(unknown) {
                Some(
                    "its effects read the dice themselves (write what they read as a `let` after the roll line to follow it)"
                        .to_string(),
                )
            } else {
                None
            });
        }
        Some(Follow {
            kind: p.kinds[c.subject? as usize].name.clone(),
            fields: kind.fields.iter().map(|f| f.name.clone()).collect(),
            before: e.fields.clone(),
            ways: vec![vec![]; kind.fields.len()],
            written,
            blocked,
            untouched: BigUint::default(),
            unfollowed: vec![],
        })
    }

    /// Counts one settled roll of weight `w` that came to outcome `oi`, its effects leaving `after`.
    pub(crate) fn add(&mut self, w: &BigUint, oi: usize, after: Option<&Result<Vec<Value>, String>>) {
        // Why this roll's effects could not be followed, if they could not (borrowed: a reason is
        // copied only the first time it is met, not once a roll).
        let why: &str = match (self.blocked.get(oi).and_then(Option::as_deref), after) {
            (Some(why), _) => why,
            (None, Some(Err(why))) => why,
            (None, Some(Ok(after))) => {
                for (i, v) in after.iter().enumerate() {
                    let Some(ways) = self.ways.get_mut(i) else { continue };
                    match ways.iter_mut().find(|(x, _)| x == v) {
                        Some((_, n)) => *n += w,
                        None => ways.push((v.clone(), w.clone())),
                    }
                }
                return;
            }
            (None, None) => {
                self.untouched += w;
                return;
            }
        };
        match self.unfollowed.iter_mut().find(|(x, _)| x == why) {
            Some((_, n)) => *n += w,
            None => self.unfollowed.push((why.to_string(), w.clone())),
        }
    }

    /// The chances of each attribute's values after the check, over `total` ways in all (`exact`),
    /// or `total` simulated runs: every attribute an outcome writes, and any other one a roll
    /// changed (through an event its effects trigger), in the kind's order.
    pub(crate) fn finish(mut self, session: &Session, total: &BigUint, exact: bool) -> Vec<EffectOdds> {
        let chance = |w: BigUint| {
            if exact {
                Chance::Exact(Fraction::new(w, total.clone()))
            } else {
                let (hits, runs) = (u64::try_from(&w).unwrap_or(0), u64::try_from(total).unwrap_or(0));
                let (low, high) = crate::sim::wilson(hits, runs);
                Chance::Estimate { hits, runs, low, high }
            }
        };
        let lost: BigUint = self.unfollowed.iter().map(|(_, w)| w).sum();
        let unfollowed = (lost.bits() > 0).then(|| {
            let why: Vec<&str> = self.unfollowed.iter().map(|(w, _)| w.as_str()).collect();
            Unfollowed { chance: chance(lost), why: why.join("; ") }
        });
        let mut out = vec![];
        for (i, mut ways) in std::mem::take(&mut self.ways).into_iter().enumerate() {
            let before = &self.before[i];
            let changed = ways.iter().any(|(v, w)| v != before && w.bits() > 0);
            if !self.written[i] && !changed {
                continue;
            }
            // The rolls that left the attribute alone keep the value it had.
            if self.untouched.bits() > 0 {
                match ways.iter_mut().find(|(v, _)| v == before) {
                    Some((_, n)) => *n += &self.untouched,
                    None => ways.push((before.clone(), self.untouched.clone())),
                }
            }
            ways.sort_by_key(|(v, _)| order(v));
            out.push(EffectOdds {
                target: format!("{}.{}", self.kind, self.fields[i]),
                values: ways
                    .into_iter()
                    .filter(|(_, w)| w.bits() > 0)
                    .map(|(v, w)| OutcomeOdds { name: session.show(&v), chance: chance(w) })
                    .collect(),
                unfollowed: unfollowed.clone(),
            });
        }
        out
    }
}

/// The attributes of who makes check `c` that its outcomes' effects set, add to or take from, as
/// written (each once, in the order first written).
pub(crate) fn written(c: &Check) -> Vec<u32> {
    let mut reads = Reads { subject: c.slots.subject, ..Reads::default() };
    for o in &c.outcomes {
        reads.stmts(&o.body);
    }
    let mut out = vec![];
    for f in reads.written {
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// Most values of a number or name an attribute may be left with across a table's rows for
/// [`effect_columns`] to give it a column each.
pub const MAX_EFFECT_VALUES: usize = 4;

/// The effects a table of several reports shows (a sweep's, a card's), by [`effect_columns`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EffectColumns {
    /// (attribute, value) pairs, in the order the reports list them.
    pub columns: Vec<(String, String)>,
    /// The attributes given no column, each with why: some row could not follow its effects, or
    /// it is left with more than [`MAX_EFFECT_VALUES`] values across the rows.
    pub left_out: Vec<(String, String)>,
}

/// The effects a table of several reports shows (a sweep's, a card's), given each report's
/// [`Report::effects`](super::Report::effects): (attribute, value) pairs in the order the reports list them, each value an
/// attribute is left with in some row, but `no` of a yes/no attribute (the rest of `yes`), and a
/// value every row leaves for certain (it tells nothing). An attribute whose effects some row could
/// not follow, or with more values than [`MAX_EFFECT_VALUES`], has none, and is said to be left out.
///
/// ```
/// let rules = mettle::Ruleset::from_str("e.mettle", "kind unit { lucky: flag = no  hp: 0..9 = 5 }
///     check c for unit { roll d6  outcome hi when total == 6 { set unit.lucky to yes }  otherwise lo { remove 1 from unit.hp } }").unwrap();
/// let mut s = mettle::Session::new(&rules, 0);
/// let (who, _) = mettle::odds::stand_in(&mut s, "c", &[]).unwrap().unwrap();
/// let r = mettle::odds::ask(&mut s, "c", Some(who), &[], 0).unwrap();
/// let shown = mettle::odds::effect_columns([r.effects.as_slice()]);
/// let names: Vec<String> = shown.columns.iter().map(|(t, v)| format!("{t}={v}")).collect();
/// assert_eq!(names, ["unit.lucky=yes", "unit.hp=4", "unit.hp=5"]);
/// assert!(shown.left_out.is_empty());
/// let yes = mettle::odds::effect_chance(&r.effects, &shown.columns[0]);
/// assert_eq!(mettle::wire::Chance::of(&mettle::odds::OutcomeOdds { name: "".into(), chance: yes }).exact.as_deref(), Some("1/6"));
/// ```
pub fn effect_columns<'a>(rows: impl IntoIterator<Item = &'a [EffectOdds]>) -> EffectColumns {
    let rows: Vec<&[EffectOdds]> = rows.into_iter().collect();
    // Each attribute's values in one order, merged from every row's (each in the attribute's order).
    let mut order: Vec<(String, Vec<String>)> = vec![];
    let mut out = EffectColumns::default();
    for e in rows.iter().flat_map(|r| r.iter()) {
        if let Some(u) = &e.unfollowed
            && !out.left_out.iter().any(|(t, _)| *t == e.target)
        {
            out.left_out.push((e.target.clone(), format!("in some rows {}", u.why)));
        }
        let at = match order.iter().position(|(t, _)| *t == e.target) {
            Some(i) => i,
            None => {
                order.push((e.target.clone(), vec![]));
                order.len() - 1
            }
        };
        let known = &mut order[at].1;
        let mut after: Option<usize> = None;
        for v in &e.values {
            match known.iter().position(|k| *k == v.name) {
                Some(i) => after = Some(i),
                None => {
                    let i = after.map_or(0, |a| a + 1);
                    known.insert(i, v.name.clone());
                    after = Some(i);
                }
            }
        }
    }
    for (target, values) in order {
        if out.left_out.iter().any(|(t, _)| *t == target) {
            continue;
        }
        let listed = || rows.iter().flat_map(|r| r.iter().filter(|x| x.target == target));
        let flag = values.iter().all(|v| v == "yes" || v == "no");
        if !flag && values.len() > MAX_EFFECT_VALUES {
            let why = format!("it is left with {} different values across the rows", values.len());
            out.left_out.push((target, why));
            continue;
        }
        let values = if flag { vec!["yes".to_string()] } else { values };
        for value in values {
            let certain = || {
                listed().count() == rows.len()
                    && listed().all(|x| matches!(x.chance_of(&value), Chance::Exact(f) if f.num == f.den))
            };
            if flag || !certain() {
                out.columns.push((target.clone(), value));
            }
        }
    }
    out
}

/// The chance of `column` (an attribute and a value, as [`effect_columns`] gives them) among
/// `effects`: 0 when they do not list the attribute.
pub fn effect_chance(effects: &[EffectOdds], (target, value): &(String, String)) -> Chance {
    match effects.iter().find(|e| e.target == *target) {
        Some(e) => e.chance_of(value),
        None => Chance::Exact(Fraction::new(0u32.into(), 1u32.into())),
    }
}

/// For check `check` made by `subject`, whose outcomes were worked out exactly (over `total` ways)
/// without following its effects, because following them took more work than the budget allows:
/// each attribute its outcomes write, every roll counted as not followed, and why.
pub(crate) fn out_of_reach(
    session: &Session,
    check: CheckId,
    subject: Option<u32>,
    total: &BigUint,
) -> Vec<EffectOdds> {
    let Some(mut follow) = Follow::new(session, check, subject, Dice::All) else { return vec![] };
    follow.unfollowed.push((
        "following them for every roll would take more work than the budget of the odds allows (`--budget odds_work=N` \
         raises it)"
            .to_string(),
        total.clone(),
    ));
    follow.finish(session, total, true)
}

/// Where a value is listed: numbers in order, names in their set's order, no before yes.
pub(crate) fn order(v: &Value) -> (u8, i64) {
    match v {
        Value::Int(x) => (0, *x),
        Value::Name { index, .. } => (1, i64::from(*index)),
        Value::Bool(b) => (2, i64::from(*b)),
        _ => (3, 0),
    }
}

/// How much of the dice the settled rolls of a check hold as they fell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dice {
    /// Every die: a roll made with the generator.
    All,
    /// What the rules after the roll read: the natural die when `natural`, and the counts, places
    /// and totals they read, which effects read through `let`s.
    Read {
        /// Whether the natural die is among them.
        natural: bool,
    },
}

/// What a block of effects reads and writes, as written.
#[derive(Default)]
struct Reads {
    /// The slot holding who makes the check.
    subject: u32,
    /// Its attributes set, added to or taken from.
    written: Vec<u32>,
    /// Every slot read.
    locals: Vec<u32>,
    /// Whether a player is asked to choose.
    asks: bool,
    /// Whether a reaction of the ruleset is followed: its steps may change anything.
    reacts: bool,
}

impl Reads {
    fn stmts(&mut self, body: &[Stmt]) {
        for s in body {
            self.stmt(s);
        }
    }

    fn place(&mut self, place: &Place) {
        if matches!(place.entity, Expr::Local(l) if l == self.subject) {
            self.written.push(place.field);
        }
        self.expr(&place.entity);
    }

    fn expr(&mut self, e: &Expr) {
        if let Expr::Local(l) = e {
            self.locals.push(*l);
        }
        super::scan::each_child(e, &mut |x| self.expr(x));
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Set { place, value, .. } => {
                self.place(place);
                self.expr(value);
            }
            Stmt::Add { place, amount, .. } => {
                self.place(place);
                self.expr(amount);
            }
            Stmt::Let(_, c) => self.expr(c),
            Stmt::SetOption { value: e, .. } | Stmt::Answer { value: e, .. } => self.expr(e),
            Stmt::Record { value, .. } => self.expr(value),
            Stmt::Report { items, .. } => items.iter().for_each(|(_, e)| self.expr(e)),
            Stmt::LetFlag(_, t) => self.expr(&t.expr),
            Stmt::Expect { cond, .. } => self.expr(&cond.expr),
            Stmt::Roll { subject, args, .. } => {
                subject.iter().for_each(|e| self.expr(e));
                args.iter().for_each(|(_, e)| self.expr(e));
            }
            Stmt::If(t, yes, no) => {
                self.expr(&t.expr);
                self.stmts(yes);
                self.stmts(no);
            }
            Stmt::ForEach { filter, body, .. } => {
                filter.iter().for_each(|t| self.expr(&t.expr));
                self.stmts(body);
            }
            Stmt::Repeat { body, until, .. } => {
                self.stmts(body);
                self.expr(&until.expr);
            }
            Stmt::Trigger { args, .. } | Stmt::Follow { args, .. } => args.iter().for_each(|e| self.expr(e)),
            Stmt::React { args, .. } => {
                self.reacts = true;
                args.iter().for_each(|e| self.expr(e))
            }
            Stmt::Order { parts, .. } => parts.iter().for_each(|p| {
                if let OrderPart::Value(e) = p {
                    self.expr(e)
                }
            }),
            Stmt::Choose { default, .. } => {
                self.asks = true;
                default.iter().for_each(|e| self.expr(e));
            }
            Stmt::EndGame { winner, .. } => winner.iter().for_each(|e| self.expr(e)),
            Stmt::New { with, .. } => with.iter().for_each(|(_, e, _)| self.expr(e)),
            Stmt::Note(..) | Stmt::Dice(..) | Stmt::ExpectNoDice { .. } | Stmt::ExpectOrder { .. } => {}
        }
    }
}
