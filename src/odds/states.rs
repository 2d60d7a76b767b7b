//! Exact odds of a whole scenario by merging equal game states: the paths its rolls can take are
//! followed a piece at a time (from one step of the scenario to the next, from one turn of a
//! `repeat` to the next), and the paths that reach the same game state at the same place go on as
//! one, with their chances added up. A scenario whose rolls can go more ways than anyone could list
//! often has only a few thousand states.

use super::{Dist, Fraction, work};
use crate::dice::Paused;
use crate::program::Value;
use crate::session::{QuietGame, State, state_key};
use crate::{Ruleset, Session};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Most game states (counted at every place where paths merge, over the whole scenario) an exact
/// answer by merging follows before it is called out of reach.
pub const MAX_STATES: u64 = 1_000_000;

/// What is left unresolved once a scenario's open paths weigh less than this fraction of all of
/// them (2^-60) is reported as a remainder instead of followed further.
pub const REMAINDER_BITS: u64 = 60;

/// The exact distribution of a scenario's ends, found by merging equal game states.
#[derive(Debug, Clone)]
pub struct Merged {
    /// Each end (the game's result and winner, or what differs between ends, or the error that
    /// stopped it), with its chance; most likely first.
    pub ends: Vec<(String, Fraction)>,
    /// Each value the scenario records, with its exact distribution (the last value recorded under
    /// each label in a run).
    pub values: Vec<(String, Dist)>,
    /// Game states followed, over every place where paths merged.
    pub states: u64,
    /// Runs of a piece of the scenario made.
    pub runs: u64,
    /// The chance of paths still open when they weighed less than 2^-60 of all: the ends' chances
    /// are exact lower bounds, short of the truth by at most this.
    pub remainder: Option<Fraction>,
}

/// An exact chance as a fraction in lowest terms.
#[derive(Debug, Clone)]
struct W {
    num: BigUint,
    den: BigUint,
}

impl W {
    fn one() -> W {
        W { num: BigUint::one(), den: BigUint::one() }
    }
    /// One of `k` equally likely branches of this.
    fn split(&self, k: usize) -> W {
        let k = BigUint::from(k.max(1));
        let g = self.num.gcd(&k);
        W { num: &self.num / &g, den: &self.den * (k / g) }
    }
    fn add(&mut self, o: &W) {
        let words = (self.den.bits() + o.den.bits()) / 64 + 1;
        work::charge(words * 4);
        if self.den == o.den {
            self.num += &o.num;
        } else {
            self.num = &self.num * &o.den + &o.num * &self.den;
            self.den = &self.den * &o.den;
        }
        let g = self.num.gcd(&self.den);
        if !g.is_one() {
            self.num /= &g;
            self.den /= &g;
        }
    }
    fn zero() -> W {
        W { num: BigUint::zero(), den: BigUint::one() }
    }
    fn is_zero(&self) -> bool {
        self.num.is_zero()
    }
    fn mul(&self, o: &W) -> W {
        work::charge(((self.den.bits() + o.den.bits()) / 64 + 1) * 8);
        let (n, d) = (&self.num * &o.num, &self.den * &o.den);
        let g = n.gcd(&d);
        W { num: n / &g, den: d / g }
    }
    fn div(&self, o: &W) -> W {
        self.mul(&W { num: o.den.clone(), den: o.num.clone() })
    }
    fn eq(&self, o: &W) -> bool {
        self.num == o.num && self.den == o.den
    }
    fn fraction(&self) -> Fraction {
        Fraction::new(self.num.clone(), self.den.clone())
    }
}

/// A place in the scenario where paths merged, with the game there.
struct Snap {
    state: State,
    frame: Vec<Value>,
    game: QuietGame,
    at: (usize, usize),
    id: usize,
}

/// Paths to follow on from a snapshot: its dice show `faces`, and they pass `skip` turns of
/// `repeat`s inside rules before they pause.
struct Node {
    snap: Arc<Snap>,
    faces: Vec<i64>,
    skip: u32,
    w: W,
    /// Where it paused inside a `repeat` (the turn left out), and the turn.
    turn: Option<(Vec<u8>, usize)>,
}

/// One end: how the game ended, or its entities' attributes, or the error that stopped it.
#[derive(Clone)]
struct End {
    over: Option<(String, Option<String>)>,
    parts: Vec<(String, String)>,
    error: Option<String>,
    records: Vec<(Arc<str>, i64)>,
    w: W,
}

/// The ends of scenario number `scenario` by merging equal game states, or why that is out of reach.
/// Runs inside the caller's budget of work.
pub(crate) fn merged(rules: &Ruleset, scenario: usize) -> Result<Merged, String> {
    let p = rules.program();
    let sc = &p.scenarios[scenario];
    let lasts = Arc::new(lasts_read(rules, scenario));
    let mut s = Session::new(rules, 0);
    s.set_logging(false);
    let root = Arc::new(Snap {
        state: s.take_state(),
        frame: vec![Value::None; sc.slots as usize],
        game: QuietGame::default(),
        at: (0, 0),
        id: 0,
    });
    let mut open = vec![Node { snap: root, faces: vec![], skip: 0, w: W::one(), turn: None }];
    let mut ends: HashMap<Vec<u8>, End> = HashMap::new();
    let (mut states, mut runs, mut ids) = (1u64, 0u64, 1usize);
    let mut remainder = None;
    let limit = BigUint::one() << REMAINDER_BITS;
    // The last round's open paths (by where they paused, the turn left out) and ends, to find a
    // `repeat` that goes round and round the same states (see `geometric`).
    let mut before: Option<Round> = None;
    while !open.is_empty() {
        // What is still open is let go once it weighs less than 2^-60 of all.
        let mut left = W::zero();
        for n in &open {
            left.add(&n.w);
        }
        if &left.num * &limit < left.den {
            remainder = Some(left.fraction());
            break;
        }
        let mut next: Vec<Node> = vec![];
        let mut seen: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut round: HashMap<Vec<u8>, End> = HashMap::new();
        for node in open {
            let mut stack = vec![(node.faces.clone(), node.w.clone())];
            while let Some((faces, w)) = stack.pop() {
                runs += 1;
                // Starting a run costs something of its own, however short the piece.
                if !work::charge(100) {
                    return Err(work::reason());
                }
                let mut frame = node.snap.frame.clone();
                let mut game = node.snap.game.clone();
                let (r, paused) = s.run_from(
                    &node.snap.state,
                    scenario,
                    node.snap.at,
                    &mut frame,
                    &mut game,
                    &faces,
                    node.skip,
                    &lasts,
                );
                if work::dry() {
                    return Err(work::reason());
                }
                if let Some(needs) = s.walk_needs() {
                    let k = needs.len();
                    for f in needs.iter().rev() {
                        let mut more = faces.clone();
                        more.push(*f);
                        stack.push((more, w.split(k)));
                    }
                    continue;
                }
                match paused {
                    Some(Paused::Step { step, turn }) => {
                        last_per_label(&mut game.records);
                        let mut key = vec![];
                        state_key(s.state(), Some(&lasts), &mut key);
                        let _ = serde_json::to_writer(&mut key, &(step, turn, &frame, &game.records));
                        work::charge(key.len() as u64 / 8);
                        if let Some(&i) = seen.get(&key) {
                            next[i].w.add(&w);
                            continue;
                        }
                        seen.insert(key, next.len());
                        let snap = Snap { state: s.take_state(), frame, game, at: (step, turn), id: ids };
                        ids += 1;
                        next.push(Node { snap: Arc::new(snap), faces: vec![], skip: 0, w, turn: None });
                    }
                    Some(Paused::Loop { entered, key: inner, turn }) => {
                        // The faces before the `repeat` began stand for everything outside it.
                        let mut key = vec![];
                        let _ = serde_json::to_writer(&mut key, &(node.snap.id, &faces[..entered.min(faces.len())]));
                        key.extend_from_slice(&inner);
                        work::charge(key.len() as u64 / 8);
                        let mut full = key.clone();
                        full.extend_from_slice(&turn.to_le_bytes());
                        if let Some(&i) = seen.get(&full) {
                            next[i].w.add(&w);
                            continue;
                        }
                        seen.insert(full, next.len());
                        let skip = node.skip + 1;
                        next.push(Node { snap: node.snap.clone(), faces, skip, w, turn: Some((key, turn)) });
                    }
                    None => {
                        let end = end_of(&s, r.err().map(|d| d.message), game.records);
                        add_end(&mut round, end, &w);
                    }
                }
            }
        }
        states += next.len() as u64;
        if states > MAX_STATES {
            return Err(format!(
                "it reaches more than {MAX_STATES} distinct game states (counted where paths merge), more than \
                 an exact answer follows"
            ));
        }
        if std::env::var_os("METTLE_DEBUG_STATES").is_some() { eprintln!("{} open, {states} states, {runs} runs, work left {}", next.len(), work::left()); }
        let now = Round::of(&next, round);
        if let Some(then) = &before
            && let Some(sum) = geometric(then, &now)
        {
            // Every later round repeats this one, smaller by the same ratio: added up at once.
            for (key, e) in now.ends {
                add_end(&mut ends, End { w: W::one(), ..e.clone() }, &e.w);
                let _ = key;
            }
            for e in sum {
                add_end(&mut ends, End { w: W::one(), ..e.clone() }, &e.w);
            }
            open = vec![];
            before = None;
            continue;
        }
        for e in now.ends.values() {
            add_end(&mut ends, End { w: W::one(), ..e.clone() }, &e.w);
        }
        before = Some(now);
        open = next;
    }
    let (ends, values) = describe(ends.into_values().collect());
    Ok(Merged { ends, values, states, runs, remainder })
}

/// Adds end `e` with chance `w` to `ends`.
fn add_end(ends: &mut HashMap<Vec<u8>, End>, e: End, w: &W) {
    let mut key = vec![];
    let _ = serde_json::to_writer(&mut key, &(&e.over, &e.parts, &e.error, &e.records));
    match ends.get_mut(&key) {
        Some(old) => old.w.add(w),
        None => {
            ends.insert(key, End { w: w.clone(), ..e });
        }
    }
}

/// One round of the walk: where its open paths paused inside a `repeat` (without the turn) with
/// their chances and the turn they all reached, if they all paused inside one at the same turn; and
/// the ends it reached.
struct Round {
    open: Option<(BTreeMap<Vec<u8>, W>, usize)>,
    total: W,
    ends: HashMap<Vec<u8>, End>,
}

impl Round {
    fn of(next: &[Node], ends: HashMap<Vec<u8>, End>) -> Round {
        let mut total = W::zero();
        let mut open = BTreeMap::new();
        let mut turns = None;
        let mut all = true;
        for n in next {
            total.add(&n.w);
            match &n.turn {
                Some((k, t)) if turns.is_none_or(|u| u == *t) => {
                    turns = Some(*t);
                    open.insert(k.clone(), n.w.clone());
                }
                _ => all = false,
            }
        }
        let open = match turns {
            Some(t) if all && open.len() == next.len() => Some((open, t)),
            _ => None,
        };
        Round { open, total, ends }
    }
}

/// When round `now` repeats round `then` scaled down by a ratio r (the same open places with their
/// chances times r, the same ends with their chances times r), all inside a `repeat` at the same
/// turn t: the ends of every round still to come, up to the `repeat`'s last turn, each end's
/// chance times r + r² + … + r^m (m the turns left), and what the last turn leaves open, stopped
/// by the `repeat`'s error. Each path runs the same rules from the same state whatever its turn,
/// so each later round is this one times r again.
fn geometric(then: &Round, now: &Round) -> Option<Vec<End>> {
    let (Some((a, _)), Some((b, t))) = (&then.open, &now.open) else { return None };
    if a.len() != b.len() || then.ends.len() != now.ends.len() || now.ends.is_empty() || then.total.is_zero() {
        return None;
    }
    let r = now.total.div(&then.total);
    if r.num >= r.den {
        return None;
    }
    for (k, w) in b {
        if !a.get(k).is_some_and(|v| v.mul(&r).eq(w)) {
            return None;
        }
    }
    for (k, e) in &now.ends {
        if !then.ends.get(k).is_some_and(|v| v.w.mul(&r).eq(&e.w)) {
            return None;
        }
    }
    let m = crate::session::run::MAX_REPEAT.checked_sub(*t)? as u32;
    // r + r² + … + r^m = r (1 - r^m) / (1 - r)
    let rm = W { num: r.num.pow(m), den: r.den.pow(m) };
    work::charge((rm.den.bits() / 64 + 1) * 8);
    let one_minus = |x: &W| W { num: &x.den - &x.num, den: x.den.clone() };
    let sum = r.mul(&one_minus(&rm)).div(&one_minus(&r));
    let mut out: Vec<End> = now.ends.values().map(|e| End { w: e.w.mul(&sum), ..e.clone() }).collect();
    let stuck = now.total.mul(&rm);
    if !stuck.is_zero() {
        out.push(End {
            over: None,
            parts: vec![],
            error: Some(format!(
                "`repeat` ran {} times without its condition coming true",
                crate::session::run::MAX_REPEAT
            )),
            records: vec![],
            w: stuck,
        });
    }
    Some(out)
}

/// Which checks' last results the rules or scenario `scenario` read (`last CHECK`): the others
/// need not tell game states apart. All of them when the rules have scripts, which may read any.
fn lasts_read(rules: &Ruleset, scenario: usize) -> Vec<bool> {
    let p = rules.program();
    let n = p.checks.len();
    if p.scripts.is_some() {
        return vec![true; n];
    }
    // Rules are plain data, and every `last CHECK` in them reads `Last(id)` in their debug form.
    // Other scenarios' reads do not count.
    let text = format!(
        "{:?}{:?}{:?}{:?}{:?}{:?}{:?}",
        p.kinds, p.events, p.triggers, p.defines, p.tables, p.checks, p.scenarios[scenario].body
    );
    let mut read = vec![false; n];
    for (i, _) in text.match_indices("Last(") {
        let digits: String = text[i + 5..].chars().take_while(char::is_ascii_digit).collect();
        if let Ok(c) = digits.parse::<usize>()
            && let Some(r) = read.get_mut(c)
        {
            *r = true;
        }
    }
    read
}

/// Keeps the last value recorded under each label, in the order they were last recorded: all a
/// report reads of them.
fn last_per_label(records: &mut Vec<(Arc<str>, i64)>) {
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

/// How a finished run ended.
fn end_of(s: &Session, error: Option<String>, mut records: Vec<(Arc<str>, i64)>) -> End {
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
    End { over, parts, error, records, w: W::one() }
}

/// Names the ends, most likely first: by how the game ended when every run that was not stopped
/// by an error ended the game, else by the attributes that differ between ends; errors by their
/// message. And each recorded value's distribution.
fn describe(ends: Vec<End>) -> (Vec<(String, Fraction)>, Vec<(String, Dist)>) {
    let games = ends.iter().filter(|e| e.error.is_none()).all(|e| e.over.is_some());
    let mut varies: BTreeMap<&str, bool> = BTreeMap::new();
    if !games {
        let mut first: BTreeMap<&str, &str> = BTreeMap::new();
        for e in ends.iter().filter(|e| e.error.is_none()) {
            for (k, v) in &e.parts {
                match first.get(k.as_str()) {
                    None => {
                        first.insert(k, v);
                    }
                    Some(old) if *old != v => {
                        varies.insert(k, true);
                    }
                    _ => {}
                }
            }
        }
    }
    let mut named: BTreeMap<String, W> = BTreeMap::new();
    for e in &ends {
        let name = match (&e.error, &e.over) {
            (Some(m), _) => format!("(stopped by an error: {m})"),
            (None, Some((r, w))) if games => match w {
                Some(w) => format!("{r} for {w}"),
                None => r.clone(),
            },
            _ => {
                let mut parts: Vec<String> = vec![];
                if let Some((r, w)) = &e.over {
                    parts.push(match w {
                        Some(w) => format!("{r} for {w}"),
                        None => r.clone(),
                    });
                }
                parts.extend(
                    e.parts
                        .iter()
                        .filter(|(k, _)| varies.get(k.as_str()).copied().unwrap_or(false))
                        .map(|(k, v)| format!("{k} = {v}")),
                );
                if parts.is_empty() { "always the same end".to_string() } else { parts.join(", ") }
            }
        };
        match named.get_mut(&name) {
            Some(w) => w.add(&e.w),
            None => {
                named.insert(name, e.w.clone());
            }
        }
    }
    let mut out: Vec<(String, Fraction)> = named.into_iter().map(|(k, w)| (k, w.fraction())).collect();
    out.sort_by(|a, b| (&b.1.num * &a.1.den).cmp(&(&a.1.num * &b.1.den)).then(a.0.cmp(&b.0)));
    // Recorded values: each label's last value in each run, over a common denominator.
    let mut labels: Vec<Arc<str>> = vec![];
    let mut by: BTreeMap<(usize, i64), W> = BTreeMap::new();
    for e in &ends {
        for (l, v) in &e.records {
            let i = match labels.iter().position(|k| k == l) {
                Some(i) => i,
                None => {
                    labels.push(l.clone());
                    labels.len() - 1
                }
            };
            match by.get_mut(&(i, *v)) {
                Some(w) => w.add(&e.w),
                None => {
                    by.insert((i, *v), e.w.clone());
                }
            }
        }
    }
    let mut values = vec![];
    for (i, l) in labels.iter().enumerate() {
        let points: Vec<(i64, &W)> = by.range((i, i64::MIN)..=(i, i64::MAX)).map(|((_, v), w)| (*v, w)).collect();
        let (Some(lo), Some(hi)) = (points.first().map(|p| p.0), points.last().map(|p| p.0)) else { continue };
        if hi.saturating_sub(lo) > Dist::MAX_SPREAD {
            continue;
        }
        let common = points.iter().fold(BigUint::one(), |acc, (_, w)| acc.lcm(&w.den));
        let mut weights = vec![BigUint::zero(); (hi - lo + 1) as usize];
        for (v, w) in points {
            weights[(v - lo) as usize] = &w.num * (&common / &w.den);
        }
        values.push((l.to_string(), Dist::from_weights(lo, weights)));
    }
    (out, values)
}
