//! Exact odds of a whole scenario by merging equal game states: the paths its rolls can take are
//! followed a piece at a time (from one step of the scenario to the next, from one turn of a
//! `repeat` to the next), and the paths that reach the same game state at the same place go on as
//! one, with their chances added up. A scenario whose rolls can go more ways than anyone could list
//! often has only a few thousand states.

use super::live::Live;
use super::{Dist, Fraction, work};
use crate::dice::Paused;
use crate::program::Value;
use crate::session::{QuietGame, State, state_key, write_key};
use crate::{Ruleset, Session};
use chance::W;
use num_bigint::BigUint;
use num_traits::One;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// The default of the budget's `odds_states`: most game states (counted at every place where paths
/// merge, over the whole scenario) an exact answer by merging follows before it is called out of
/// reach.
pub const MAX_STATES: u64 = 1_000_000;

/// The share of the budget's `odds_work` that merging equal game states may spend (one half), so
/// that the estimate it falls back on still has its own budget.
pub const WORK_SHARE: u64 = 2;

/// Runs of pieces of a scenario after which merging gives up early when its paths hardly merge
/// (see [`EARLY_SHARE`]): the states then grow with the paths, and following them would spend its
/// whole share of the work before the estimate it falls back on.
pub const EARLY_RUNS: u64 = 20_000;

/// Merging gives up after [`EARLY_RUNS`] runs when fewer than one path in this many that reached a
/// place where paths merge joined a state already reached there.
pub const EARLY_SHARE: u64 = 10;

/// Game states kept whole where paths merge before the later ones are kept as the way to them
/// (see `Src`): making a snapshot again costs a run, which a small budget of work feels, while
/// the room snapshots take matters only when there are many.
const MADE_STATES: u64 = 100_000;

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

/// A place in the scenario where paths merged, with the game there.
struct Snap {
    state: State,
    frame: Vec<Value>,
    game: QuietGame,
    at: Vec<usize>,
    id: usize,
}

/// Where paths go on from: a snapshot, or the way to one from an earlier snapshot. A way takes a
/// small part of the room of the game it leads to, and its snapshot is made again (the piece of the
/// scenario run again with the same dice) only when its paths go on; the earlier snapshot is kept
/// meanwhile, but one stands for many ways, and the paths merged into a way keep none.
enum Src {
    Made(Arc<Snap>),
    Way { from: Arc<Snap>, faces: Box<[i64]>, skip: u32, id: usize },
}

/// Paths to follow on from a snapshot: its dice show `faces`, and they pass `skip` turns of
/// `repeat`s inside rules before they pause.
struct Node {
    src: Src,
    faces: Vec<i64>,
    skip: u32,
    w: W,
    /// Where it paused inside a `repeat` (the turn left out), and the turn.
    turn: Option<Turn>,
    /// The `repeat` whose turn its paths come from, also after pausing at rolls inside it: what
    /// they reach is that turn's (see `Loop`).
    from: Option<Vec<u8>>,
}

/// One end: what tells it apart (`odds::ends`), with its chance.
#[derive(Clone)]
struct End {
    facts: super::ends::EndFacts,
    w: W,
}

/// The ends of scenario `name` worked out exactly by merging equal game states, whatever the
/// number of paths its rolls can take, within half the budget's `odds_work` ([`WORK_SHARE`]) and
/// its `odds_states`; or why that is out of reach (the states it reached by then, and which budget
/// ran out). An unknown scenario is an error.
///
/// ```
/// let rules = mettle::Ruleset::from_str("w.mettle", r#"
///     kind unit { hits: 0.. = 0 }
///     check shot for unit { roll d6  outcome hit when total >= 5 { add 1 to unit.hits }  otherwise miss }
///     scenario volley { new unit u  repeat { roll shot for u } until u.hits >= 2  record "hits" = u.hits }
/// "#).unwrap();
/// let m = mettle::odds::scenario_states(&rules, "volley").unwrap().unwrap();
/// // However long it takes, two hits end it: one end, and the walk sums the turns without end.
/// assert_eq!(m.ends.len(), 1);
/// assert_eq!(m.values[0].1.probability(2).to_string(), "1/1");
/// ```
pub fn scenario_states(
    rules: &Ruleset,
    name: &str,
) -> Result<Result<Merged, String>, crate::diagnostics::Diagnostic> {
    let Some(i) = rules.program().scenarios.iter().position(|s| s.name == name) else {
        let known: Vec<&str> = rules.program().scenarios.iter().map(|s| s.name.as_str()).collect();
        return Err(crate::diagnostics::Diagnostic::plain(
            "run::unknown_scenario",
            format!("there is no scenario called `{name}`"),
        )
        .with_help(crate::diagnostics::suggest(name, "scenario", &known)));
    };
    let (m, _) = work::within(rules.budget().odds_work / WORK_SHARE, || merged(rules, i));
    Ok(m)
}

/// The ends of scenario number `scenario` by merging equal game states, or why that is out of reach.
/// Runs inside the caller's budget of work.
pub(crate) fn merged(rules: &Ruleset, scenario: usize) -> Result<Merged, String> {
    merged_from(rules, scenario, MADE_STATES)
}

/// [`merged`], keeping the first `made` states whole where paths merge and the later ones as
/// the way to them.
fn merged_from(rules: &Ruleset, scenario: usize, made: u64) -> Result<Merged, String> {
    let p = rules.program();
    let sc = &p.scenarios[scenario];
    let mut live = Live::new(p, rules.scripts().is_some(), scenario);
    let max_states = rules.budget().odds_states;
    let mut s = Session::new(rules, 0);
    s.set_logging(false);
    let root = Arc::new(Snap {
        state: s.take_state(),
        frame: vec![Value::None; sc.slots as usize],
        game: QuietGame::default(),
        at: vec![0],
        id: 0,
    });
    // Paths paused before a statement of the scenario, by its place: the scenario only goes forward
    // through its places (in the order of these indices), so once every place before one is done,
    // every path that reaches it has, whatever the number of pauses on its way, and they all merge.
    let mut pending = Places::new();
    pending.insert(vec![0], (vec![start(root, W::one())], HashMap::new()));
    let mut ends: HashMap<Vec<u8>, End> = HashMap::new();
    let (mut states, mut runs, mut ids) = (1u64, 0u64, 1usize);
    // The chance of the paths let go (see below).
    let mut remainder = W::zero();
    // Paths that joined a state already reached: without them, the states grow with the paths.
    let mut merges = 0u64;
    let limit = BigUint::one() << REMAINDER_BITS;
    while let Some((place, (batch, _))) = pending.pop_first() {
        let here = || super::ends::place_words(rules, scenario, &place);
        // Each `repeat` inside a rule under way, the last round: to find one that goes round and
        // round the same states (see `geometric`).
        let mut before: HashMap<Vec<u8>, Loop> = HashMap::new();
        let mut open = batch;
        while !open.is_empty() {
            // Paths about to go on are let go when they, with all let go before, weigh less than
            // 2^-60 of all: the sum let go is said, never cut silently.
            let mut left = remainder.clone();
            for n in &open {
                left.add(&n.w);
            }
            if &left.num * &limit < left.den {
                remainder = left;
                break;
            }
            let mut next: Vec<Node> = vec![];
            let mut seen: HashMap<Vec<u8>, usize> = HashMap::new();
            let mut loops: HashMap<Vec<u8>, Loop> = HashMap::new();
            // Paths paused just after a roll inside a rule go on in the same round: merged among
            // themselves, they reach the next step or turn as the paths that never paused would.
            let mut queue = open;
            while !queue.is_empty() {
                let mut inner: Vec<Node> = vec![];
                let mut inner_seen: HashMap<Vec<u8>, usize> = HashMap::new();
                for node in queue {
                    // Counted as they are found, so that states that explode stop within the budget.
                    let found = states + (next.len() + inner.len()) as u64;
                    if found > max_states {
                        return Err(too_many(max_states, here()));
                    }
                    // Paths that hardly ever merge: the states grow with the paths.
                    if runs >= EARLY_RUNS && merges * EARLY_SHARE < found + merges {
                        return Err(hardly_merge(runs, found, merges, here()));
                    }
                    let snap = match node.src {
                        Src::Made(snap) => snap,
                        Src::Way { from, faces, skip, id } => {
                            match remade(&mut s, &mut live, scenario, &from, (&faces, skip), (&place, id)) {
                                Some(snap) => Arc::new(snap),
                                None if work::dry() => return Err(out_of_work(found, here())),
                                None => return Err(not_again(here())),
                            }
                        }
                    };
                    let group = node.from.clone();
                    let mut stack = vec![(node.faces.clone(), node.w.clone())];
                    while let Some((faces, w)) = stack.pop() {
                        runs += 1;
                        // Starting a run costs something of its own, however short the piece.
                        if !work::charge(100) {
                            return Err(out_of_work(found, here()));
                        }
                        let mut frame = snap.frame.clone();
                        let mut game = snap.game.clone();
                        let keep = live.keep(snap.at.first().copied().unwrap_or(0));
                        let (r, paused) = s.run_from(
                            &snap.state,
                            scenario,
                            &snap.at,
                            &mut frame,
                            &mut game,
                            &faces,
                            node.skip,
                            &keep,
                        );
                        if work::dry() {
                            return Err(out_of_work(found, here()));
                        }
                        if let Some(needs) = s.walk_needs() {
                            // Each face, or one face of each class of faces that nothing tells
                            // apart, with the share of the die's faces it stands for.
                            let shares = s.walk_shares();
                            let all =
                                if shares.is_empty() { needs.len() as u64 } else { shares.iter().sum() };
                            for (i, f) in needs.iter().enumerate().rev() {
                                let mut more = faces.clone();
                                more.push(*f);
                                stack.push((more, w.part(shares.get(i).copied().unwrap_or(1), all)));
                            }
                            continue;
                        }
                        let from = group.as_ref().map(|g| loops.entry(g.clone()).or_default());
                        match paused {
                            Some(Paused::Step { at }) => {
                                super::ends::last_per_label(&mut game.records);
                                let mut key = vec![b'S'];
                                let keep = live.keep(at.first().copied().unwrap_or(0));
                                state_key(s.state(), Some((&keep.at_step, &keep.reads)), &mut key);
                                // Only the scenario's values that a later statement reads.
                                let slots = live.scenario_slots(&at);
                                let values: Vec<&Value> = slots
                                    .iter()
                                    .map(|i| frame.get(*i as usize).unwrap_or(&Value::None))
                                    .collect();
                                write_key(&mut key, &(&at, values, &game.records));
                                work::charge(key.len() as u64 / 8);
                                if let Some(l) = from {
                                    l.add_out(key.clone(), &w, Out::Step(at.clone()));
                                }
                                let (nodes, keys) = pending.entry(at.clone()).or_default();
                                if let Some(&i) = keys.get(&key) {
                                    nodes[i].w.add(&w);
                                    merges += 1;
                                    continue;
                                }
                                keys.insert(key, nodes.len());
                                states += 1;
                                let src = if states <= made {
                                    let kept = kept(&s, &keep.at_step);
                                    Src::Made(Arc::new(Snap { state: kept, frame, game, at, id: ids }))
                                } else {
                                    let faces = faces.into_boxed_slice();
                                    Src::Way { from: snap.clone(), faces, skip: node.skip, id: ids }
                                };
                                ids += 1;
                                nodes.push(Node { src, faces: vec![], skip: 0, w, turn: None, from: None });
                            }
                            Some(Paused::Roll { entered, context, key: inner_key, span }) => {
                                // Paths at the same roll, within the same calls and turns, whose
                                // dice left the same state (or, where not all that encloses the
                                // roll is described, that took the same way to it).
                                let mut key = outer_key(b'R', &snap, &faces, entered, context, span);
                                // Paths a `repeat`'s turn led here merge only with paths of the same
                                // turn: what they reach is counted as that `repeat`'s (see `Loop`).
                                let from = group.as_deref().unwrap_or_default();
                                key.extend_from_slice(&(from.len() as u64).to_le_bytes());
                                key.extend_from_slice(from);
                                key.extend_from_slice(&inner_key);
                                work::charge(key.len() as u64 / 8);
                                if let Some(&i) = inner_seen.get(&key) {
                                    inner[i].w.add(&w);
                                    merges += 1;
                                    continue;
                                }
                                inner_seen.insert(key, inner.len());
                                let skip = node.skip + 1;
                                let (src, from) = (Src::Made(snap.clone()), group.clone());
                                inner.push(Node { src, faces, skip, w, turn: None, from });
                            }
                            Some(Paused::Loop { entered, context, key: inner, turn, span }) => {
                                // The `repeat`: where it is, and what encloses it.
                                let g = outer_key(b'L', &snap, &faces, entered, context, span);
                                let mut key = g.clone();
                                key.extend_from_slice(&inner);
                                work::charge(key.len() as u64 / 8);
                                if group.as_ref() != Some(&g) {
                                    // Paths from elsewhere join this `repeat` this round, or leave
                                    // theirs for another.
                                    if let Some(l) = from {
                                        l.mixed = true;
                                    }
                                    loops.entry(g.clone()).or_default().joined = true;
                                }
                                let mut full = key.clone();
                                full.extend_from_slice(&turn.to_le_bytes());
                                if let Some(&i) = seen.get(&full) {
                                    next[i].w.add(&w);
                                    merges += 1;
                                    continue;
                                }
                                seen.insert(full, next.len());
                                loops.entry(g.clone()).or_default().span = Some(span.0);
                                let skip = node.skip + 1;
                                let from = Some(g.clone());
                                let at = Some(Turn { group: g, key, turn });
                                let src = Src::Made(snap.clone());
                                next.push(Node { src, faces, skip, w, turn: at, from });
                            }
                            None => {
                                let facts =
                                    super::ends::facts(&s, r.as_ref().err(), game.records, game.reported);
                                let end = End { facts, w: W::one() };
                                if let Some(l) = from {
                                    let mut key = vec![b'E'];
                                    write_key(&mut key, &end.facts);
                                    l.add_out(key, &w, Out::End(end.clone()));
                                }
                                add_end(&mut ends, end, &w);
                            }
                        }
                    }
                }
                states += inner.len() as u64;
                queue = inner;
            }
            states += next.len() as u64;
            if states > max_states {
                return Err(too_many(max_states, here()));
            }
            for n in &next {
                if let Some(t) = &n.turn {
                    loops.entry(t.group.clone()).or_default().add_open(t.key.clone(), t.turn, &n.w);
                }
            }
            // A `repeat` whose round repeats its last one, smaller by the same ratio, is added up at
            // once.
            let mut done: Vec<Vec<u8>> = vec![];
            for (g, now) in &loops {
                let Some(then) = before.get(g) else { continue };
                let Some((sum, stuck)) = geometric(rules, then, now) else { continue };
                for (k, (w, out)) in &now.outs {
                    let more = w.mul(&sum);
                    match out {
                        Out::End(e) => add_end(&mut ends, e.clone(), &more),
                        Out::Step(at) => {
                            if let Some((nodes, keys)) = pending.get_mut(at)
                                && let Some(&i) = keys.get(k)
                            {
                                nodes[i].w.add(&more);
                            }
                        }
                    }
                }
                if let Some(e) = stuck {
                    let w = e.w.clone();
                    add_end(&mut ends, e, &w);
                }
                done.push(g.clone());
            }
            next.retain(|n| n.turn.as_ref().is_none_or(|t| !done.contains(&t.group)));
            before = loops;
            open = next;
        }
    }
    let remainder = (!remainder.is_zero()).then(|| remainder.fraction());
    finish(ends, states, runs, remainder)
}

/// The snapshot a way leads to (see `Src`), number `id` at step `place`: the piece of scenario
/// `scenario` run again from snapshot `from` with dice showing `faces`, past `skip` turns of
/// `repeat`s inside rules, as the path that found it ran, to the same step. `None` when the work
/// ran out, or (never expected: a run depends on nothing else) the run did not pause at that step.
fn remade(
    s: &mut Session,
    live: &mut Live,
    scenario: usize,
    from: &Snap,
    (faces, skip): (&[i64], u32),
    (place, id): (&[usize], usize),
) -> Option<Snap> {
    let (mut frame, mut game) = (from.frame.clone(), from.game.clone());
    let keep = live.keep(from.at.first().copied().unwrap_or(0));
    let (_, paused) = s.run_from(&from.state, scenario, &from.at, &mut frame, &mut game, faces, skip, &keep);
    let Some(Paused::Step { at }) = paused else { return None };
    if at != place || work::dry() || s.walk_needs().is_some() {
        return None;
    }
    super::ends::last_per_label(&mut game.records);
    let keep = live.keep(at.first().copied().unwrap_or(0));
    Some(Snap { state: kept(s, &keep.at_step), frame, game, at, id })
}

/// Why merging stopped when a path run again did not reach the step it reached before.
fn not_again(at: Option<String>) -> String {
    format!(
        "a path run again from where it merged did not reach the same step{}",
        at.map(|a| format!(" ({a})")).unwrap_or_default()
    )
}

/// The game state of session `s`, to go on from at a step of the scenario, without the last
/// results of the checks that `at_step` leaves unmarked: nothing reads those again before rolling
/// the check anew (which is why they are left out of the key), so the paths merged into this one
/// differ there and none of them needs what it holds.
fn kept(s: &Session, at_step: &[bool]) -> State {
    let mut st = s.take_state();
    for (l, k) in st.last.iter_mut().zip(at_step) {
        if !k {
            *l = None;
        }
    }
    st
}

/// What tells apart the places inside a statement of the scenario where paths pause (tagged
/// `tag`): the `roll` or `repeat` at `span`, and what encloses it. When the runner describes all of
/// that (`context`: each call on the way, with the caller's live values, each turn of a loop), the
/// key holds the scenario's place and the description, and paths from any snapshot at that place,
/// whatever their faces, merge there. Otherwise the snapshot and the faces that led there
/// (`faces[..entered]`) stand for it: only paths that took the same way merge.
fn outer_key(
    tag: u8,
    snap: &Snap,
    faces: &[i64],
    entered: usize,
    context: Option<Vec<u8>>,
    span: (usize, usize),
) -> Vec<u8> {
    let mut key = vec![tag];
    match context {
        Some(c) => {
            key.push(b'c');
            write_key(&mut key, &(&snap.at, span));
            key.extend_from_slice(&c);
        }
        None => {
            key.push(b'f');
            write_key(&mut key, &(snap.id, &faces[..entered.min(faces.len())], span));
        }
    }
    key
}

/// Paths paused before a statement of the scenario, by its place, each with the keys of their
/// game states.
type Places = BTreeMap<Vec<usize>, (Vec<Node>, HashMap<Vec<u8>, usize>)>;

/// A path that starts at snapshot `snap`, with chance `w`.
fn start(snap: Arc<Snap>, w: W) -> Node {
    Node { src: Src::Made(snap), faces: vec![], skip: 0, w, turn: None, from: None }
}

/// The answer, once every path has ended (or what is left was let go).
fn finish(
    ends: HashMap<Vec<u8>, End>,
    states: u64,
    runs: u64,
    remainder: Option<Fraction>,
) -> Result<Merged, String> {
    let (ends, values) =
        super::ends::exact_rows(ends.into_values().map(|e| (e.facts, e.w.num, e.w.den)).collect());
    Ok(Merged { ends, values, states, runs, remainder })
}

/// What a path that left a `repeat`'s turn reached: an end, or a place of the scenario.
#[derive(Clone)]
enum Out {
    End(End),
    Step(Vec<usize>),
}

/// Why merging stopped when its share of the work ran out, having followed `states` states, at
/// the place in the scenario `at` says (when it is inside a `repeat`).
fn out_of_work(states: u64, at: Option<String>) -> String {
    format!(
        "it had followed {states} distinct game states{} when its share of the budget's `odds_work` (half) \
         ran out, and exact odds need more (`--budget odds_work=N` raises it)",
        at.map(|a| format!(", {a},")).unwrap_or_default()
    )
}

/// Why merging stopped early: after `runs` runs, its paths had reached `states` states and joined
/// one already reached only `merges` times.
fn hardly_merge(runs: u64, states: u64, merges: u64, at: Option<String>) -> String {
    format!(
        "after {runs} runs of pieces of the scenario{} its paths had reached {states} distinct game states \
         and only {merges} times one already reached: the states grow with the paths, so it stopped early \
         rather than spend its share of the budget's `odds_work` on them",
        at.map(|a| format!(" ({a})")).unwrap_or_default()
    )
}

/// Why merging stopped when the states it followed passed the budget's `odds_states`.
fn too_many(max_states: u64, at: Option<String>) -> String {
    format!(
        "it reaches more than {max_states} distinct game states (counted where paths merge){}, more than \
         the budget's `odds_states` allows (`--budget odds_states=N` raises it)",
        at.map(|a| format!(" by the time it is {a}")).unwrap_or_default()
    )
}

/// Adds end `e` with chance `w` to `ends`.
fn add_end(ends: &mut HashMap<Vec<u8>, End>, e: End, w: &W) {
    let mut key = vec![];
    write_key(&mut key, &e.facts);
    match ends.get_mut(&key) {
        Some(old) => old.w.add(w),
        None => {
            ends.insert(key, End { w: w.clone(), ..e });
        }
    }
}

/// Where a path paused inside a `repeat` of a rule: the `repeat` (with the faces that led into it
/// and its snapshot), and the turn about to begin.
struct Turn {
    group: Vec<u8>,
    key: Vec<u8>,
    turn: usize,
}

/// One round of a `repeat` inside a rule: where the paths that went round it paused (the game
/// state and values, the turn left out) with their chances, the turn they reached, and what the
/// paths that left it reached (ends, and places after it), each with its chance.
#[derive(Default)]
struct Loop {
    open: BTreeMap<Vec<u8>, W>,
    turns: Option<usize>,
    total: W,
    outs: BTreeMap<Vec<u8>, (W, Out)>,
    /// Some paths went into another `repeat`, or reached different turns.
    mixed: bool,
    /// Paths from elsewhere joined it.
    joined: bool,
    /// Where the `repeat` starts in the ruleset's text.
    span: Option<usize>,
}

impl Loop {
    fn add_open(&mut self, key: Vec<u8>, turn: usize, w: &W) {
        if self.turns.is_some_and(|t| t != turn) {
            self.mixed = true;
        }
        self.turns = Some(turn);
        self.total.add(w);
        match self.open.get_mut(&key) {
            Some(v) => v.add(w),
            None => {
                self.open.insert(key, w.clone());
            }
        }
    }
    fn add_out(&mut self, key: Vec<u8>, w: &W, out: Out) {
        match self.outs.get_mut(&key) {
            Some((v, _)) => v.add(w),
            None => {
                self.outs.insert(key, (w.clone(), out));
            }
        }
    }
}
/// When round `now` of a `repeat` repeats round `then` smaller by a ratio r (the paths going
/// round it pause at the same states with their chances times r; none join it or leave it for
/// another `repeat`; all at one turn t), every later round is this one times r again: each path
/// runs the same rules from the same state whatever its turn. Gives r + r² + … + r^m (m the turns
/// the `repeat` has left), what every output of this round is to be multiplied by to add all the
/// rounds to come, and the paths the last turn leaves open, stopped by the `repeat`'s error (at its
/// line of `rules`, as a run that went round it to the end would be).
fn geometric(rules: &Ruleset, then: &Loop, now: &Loop) -> Option<(W, Option<End>)> {
    if now.mixed || now.joined || then.mixed || now.open.is_empty() || now.open.len() != then.open.len() {
        return None;
    }
    let (Some(t), Some(_)) = (now.turns, then.turns) else { return None };
    if then.total.is_zero() {
        return None;
    }
    let r = now.total.div(&then.total);
    if r.num >= r.den {
        return None;
    }
    for (k, w) in &now.open {
        if !then.open.get(k).is_some_and(|v| v.mul(&r).eq(w)) {
            return None;
        }
    }
    let m = crate::session::run::MAX_REPEAT.checked_sub(t)? as u32;
    // r + r² + … + r^m = r (1 - r^m) / (1 - r)
    let rm = W { num: r.num.pow(m), den: r.den.pow(m) };
    work::charge((rm.den.bits() / 64 + 1) * 8);
    let one_minus = |x: &W| W { num: &x.den - &x.num, den: x.den.clone() };
    let sum = r.mul(&one_minus(&rm)).div(&one_minus(&r));
    let stuck = now.total.mul(&rm);
    let stuck = (!stuck.is_zero()).then(|| End {
        facts: super::ends::EndFacts {
            over: None,
            parts: vec![],
            stop: Some({
                let message = format!(
                    "`repeat` ran {} times without its condition coming true",
                    crate::session::run::MAX_REPEAT
                );
                match now.span {
                    Some(at) => super::ends::Stop::at(rules, message, at),
                    None => super::ends::Stop { message, line: None, file: None },
                }
            }),
            records: vec![],
            reported: None,
        },
        w: stuck,
    });
    Some((sum, stuck))
}

mod chance;
#[cfg(test)]
mod tests;
