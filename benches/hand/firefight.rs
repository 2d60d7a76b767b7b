//! Infinite Frontiers' `firefight` scenario written by hand in Rust, with the ruleset's default
//! options (`bonus_die = flat_plus_one`, `resolve_needs = a_six`): the baseline a whole simulated
//! game is measured against. It draws the same dice, in the same order, from the same generator as
//! `rulesets/infinite_frontiers.mettle` does, so a run seeded alike ends alike with the same recorded
//! values; `tests/hand_written.rs` holds it to the ruleset's game.
//!
//! What the rules leave to the players is answered as a simulation answers it, by each choice's
//! default or first option: the side's Action Point goes to its first unit on the field that has not
//! had one this turn, a morale check keeps the unit's AP, and a hit lands on the first enemy unit on
//! the field. No leader or inspirer is ever named, so those bonuses never apply.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum End {
    /// `firefight_drawn`.
    Drawn,
    /// `firefight_won for` the troopers (side `a`, 0) or the veterans (side `b`, 1).
    Won(usize),
}

/// What one game gives: its end and its recorded values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Game {
    /// The end.
    pub end: End,
    /// `turns taken`.
    pub turns: i64,
    /// `troopers still fighting`.
    pub troopers: i64,
    /// `veterans still fighting`.
    pub veterans: i64,
    /// `units destroyed`.
    pub destroyed: i64,
}

/// How the game is played: the ruleset's numbers, which a test may change to see that a game with
/// other odds is told apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// The morale check's `target`.
    pub morale_target: i64,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { morale_target: 7 }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Morale {
    Steady,
    Shaken,
    Broken,
}

#[derive(Debug, Clone, Copy)]
struct Unit {
    /// 0: side `a`, 1: side `b`.
    side: usize,
    /// Spirit plus Comms Gear's flat +1: all the morale check adds to its die.
    bonus: i64,
    max_hp: i64,
    hp: i64,
    hp_lost: i64,
    ap: i64,
    ap_this_turn: bool,
    morale: Morale,
    resolve: bool,
    resolve_next: bool,
    recovering: bool,
    tested: bool,
    on_field: bool,
}

impl Unit {
    const fn new(side: usize, spi: i64, hp: i64, comms: bool) -> Self {
        Unit {
            side,
            bonus: spi + comms as i64,
            max_hp: hp,
            hp,
            hp_lost: 0,
            ap: 0,
            ap_this_turn: false,
            morale: Morale::Steady,
            resolve: false,
            resolve_next: false,
            recovering: false,
            tested: false,
            on_field: true,
        }
    }
}

/// The five units in the order the scenario creates them: three troopers, then two veterans.
const START: [Unit; 5] = [
    Unit::new(0, 2, 4, false),
    Unit::new(0, 2, 4, false),
    Unit::new(0, 2, 4, true),
    Unit::new(1, 4, 6, false),
    Unit::new(1, 3, 6, false),
];

/// Dice each side's units attack with.
const POOL: [i64; 2] = [2, 3];

struct Fight {
    rng: ChaCha8Rng,
    rules: Rules,
    units: [Unit; 5],
    /// Action Points each side holds, and has received this round.
    ap: [i64; 2],
    received: [i64; 2],
}

impl Fight {
    fn die(&mut self, sides: i64) -> i64 {
        self.rng.random_range(1..=sides)
    }

    /// Units of side `s` on the field, and of those the ones not Broken.
    fn on_field(&self, s: usize) -> (i64, i64) {
        self.units
            .iter()
            .filter(|u| u.side == s && u.on_field)
            .fold((0, 0), |(n, fighting), u| (n + 1, fighting + (u.morale != Morale::Broken) as i64))
    }

    /// `check morale` rolled for unit `i` (a recovery attempt or not), with its outcome's effects.
    fn morale(&mut self, i: usize, recovery: bool) {
        let base = self.die(6);
        let target = self.rules.morale_target;
        let u = &mut self.units[i];
        if base == 1 {
            u.morale = Morale::Broken;
        } else if base + u.bonus >= target {
            if recovery {
                u.morale = if u.morale == Morale::Broken { Morale::Shaken } else { Morale::Steady };
            }
            // One die: a six among the dice is a six on it.
            if base == 6 {
                u.resolve_next = true;
            }
        } else if u.morale != Morale::Broken {
            // No Steadying: the default answer keeps the AP.
            u.morale = Morale::Shaken;
        }
    }

    /// `morale_test`: once a turn, for a unit on the field.
    fn morale_test(&mut self, i: usize) {
        if !self.units[i].tested && self.units[i].on_field {
            self.units[i].tested = true;
            self.morale(i, false);
        }
    }

    /// `wounded`: the loss, then a check for significant damage if the unit is still on the field,
    /// or, when the hit takes its last point, its friends' checks (the scenario's part: every friend
    /// is within 6 inches and in sight).
    fn wounded(&mut self, i: usize, loss: i64) {
        let u = &mut self.units[i];
        u.hp = (u.hp - loss).max(0);
        u.hp_lost = (u.hp_lost + loss).min(99);
        if u.hp > 0 {
            if u.hp_lost * 2 >= u.max_hp {
                self.morale_test(i);
            }
        } else {
            self.units[i].on_field = false;
            let side = self.units[i].side;
            for f in 0..self.units.len() {
                if self.units[f].side == side && self.units[f].on_field {
                    self.morale_test(f);
                }
            }
        }
    }

    /// One turn, which is also one round: from `round_start` to `round_end`. `last_hit` is the
    /// outcome of the latest skill check (`last skill is hit`), which a unit that makes no roll reads
    /// as the rules do.
    fn turn(&mut self, last_hit: &mut bool) {
        // round_start
        for u in &mut self.units {
            if u.resolve_next {
                u.resolve = true;
                u.resolve_next = false;
            }
        }
        // turn_start: the side with fewer units on the field receives an AP, at most six a round.
        let counts = [self.on_field(0).0, self.on_field(1).0];
        for s in 0..2 {
            if counts[1 - s] > counts[s] && self.received[s] < 6 {
                self.ap[s] += 1;
                self.received[s] += 1;
            }
        }
        // assign_ap for a, then b: the first unit on the field that has had none this turn.
        for s in 0..2 {
            if self.ap[s] > 0
                && let Some(h) = self.units.iter_mut().find(|u| u.side == s && u.on_field && !u.ap_this_turn)
            {
                self.ap[s] -= 1;
                h.ap += 1;
                h.ap_this_turn = true;
            }
        }
        // Activations: Shaken and Broken units attempt to recover.
        for i in 0..self.units.len() {
            let u = &mut self.units[i];
            if u.on_field && u.morale != Morale::Steady {
                if u.morale == Morale::Broken {
                    u.recovering = true;
                }
                self.morale(i, true);
            }
        }
        // Attacks, each unit as its turn comes (an earlier hit may have broken or removed it).
        for i in 0..self.units.len() {
            let u = &mut self.units[i];
            if !u.on_field || u.morale == Morale::Broken {
                continue;
            }
            if !u.recovering {
                let extra = u.ap > 0;
                if extra {
                    u.ap -= 1;
                }
                let n = POOL[u.side] - (u.morale == Morale::Shaken) as i64 + u.resolve as i64 + extra as i64;
                let mut hits = 0;
                for _ in 0..n {
                    hits += (self.die(6) >= 4) as i64;
                }
                *last_hit = hits >= 1;
            }
            if *last_hit {
                let side = self.units[i].side;
                if let Some(t) = self.units.iter().position(|t| t.side != side && t.on_field) {
                    let loss = self.die(3);
                    self.wounded(t, loss);
                }
            }
        }
        // turn_end, then what lasted until the end of the turn.
        for u in &mut self.units {
            u.hp_lost = 0;
            u.ap_this_turn = false;
            u.recovering = false;
            u.tested = false;
        }
        // round_end, then what lasted until the end of the round.
        self.ap = [0; 2];
        self.received = [0; 2];
        for u in &mut self.units {
            u.ap = 0;
            u.resolve = false;
        }
    }
}

/// Plays one game from `seed`, as a session seeded with `seed` plays the scenario.
pub fn play(seed: u64) -> Game {
    play_with(seed, Rules::default())
}

/// Plays one game from `seed` by `rules`.
pub fn play_with(seed: u64, rules: Rules) -> Game {
    let mut fight =
        Fight { rng: ChaCha8Rng::seed_from_u64(seed), rules, units: START, ap: [0; 2], received: [0; 2] };
    // The first attack of the game is always rolled (nobody is Broken before it), so this starting
    // value is never read.
    let mut last_hit = false;
    let mut turn = 0;
    let (a_left, b_left) = loop {
        turn += 1;
        fight.turn(&mut last_hit);
        let (a, b) = (fight.on_field(0).1, fight.on_field(1).1);
        if a == 0 || b == 0 || turn >= 20 {
            break (a, b);
        }
    };
    let end = match (a_left > 0, b_left > 0) {
        (true, false) => End::Won(0),
        (false, true) => End::Won(1),
        _ => End::Drawn,
    };
    Game {
        end,
        turns: turn,
        troopers: a_left,
        veterans: b_left,
        destroyed: fight.units.iter().filter(|u| !u.on_field).count() as i64,
    }
}
