//! Combat HQ's `morale_race` scenario written by hand in Rust: the baseline a whole simulated game is
//! measured against. It draws the same dice, in the same order, from the same generator as
//! `rulesets/combat_hq.mettle` does (a `with chance P/Q` is a dQ showing P or less), so a run seeded
//! alike ends alike; `tests/hand_written.rs` holds it to the ruleset's outcome distribution.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum End {
    /// Both groups at zero at a turn's end.
    Draw,
    /// `major_victory for` Max (0) or Tom (1).
    Major(usize),
    /// `minor_victory for` Max (0) or Tom (1).
    Minor(usize),
}

/// What one game gives: its end and its recorded values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Game {
    /// The end.
    pub end: End,
    /// `turns taken`.
    pub turns: i64,
    /// Morale Points left to Max and to Tom.
    pub mp: [i64; 2],
    /// `ended by time`.
    pub by_time: bool,
}

struct Group {
    mp: i64,
    reached_zero: bool,
}

fn die(rng: &mut ChaCha8Rng, sides: i64) -> i64 {
    rng.random_range(1..=sides)
}

/// `check dispersal for group`: a D3 off group `g`'s points, the excess to the other group.
fn dispersed(rng: &mut ChaCha8Rng, gs: &mut [Group; 2], g: usize) {
    let loss = die(rng, 3);
    let o = 1 - g;
    if gs[g].mp == 0 {
        gs[o].mp += loss;
    } else if loss > gs[g].mp {
        let excess = loss - gs[g].mp;
        gs[g].mp = 0;
        gs[g].reached_zero = true;
        gs[o].mp += excess;
    } else {
        gs[g].mp -= loss;
        if gs[g].mp == 0 {
            gs[g].reached_zero = true;
        }
    }
}

/// `on turn_end`: a Morale Collapse ends the game.
fn turn_end(gs: &[Group; 2]) -> Option<End> {
    match (gs[0].mp == 0, gs[1].mp == 0) {
        (true, true) => Some(End::Draw),
        (false, false) => None,
        (max_out, _) => {
            let winner = if max_out { 1 } else { 0 };
            Some(if gs[winner].reached_zero { End::Minor(winner) } else { End::Major(winner) })
        }
    }
}

/// `on time_up`: most points win a Minor Victory; equal points, most sixes on the Command Dice.
fn time_up(rng: &mut ChaCha8Rng, gs: &[Group; 2]) -> End {
    if gs[0].mp != gs[1].mp {
        return End::Minor(if gs[0].mp > gs[1].mp { 0 } else { 1 });
    }
    loop {
        let mut sixes = [0; 2];
        for s in &mut sixes {
            // Two Command Dice each.
            *s = (die(rng, 6) == 6) as i64 + (die(rng, 6) == 6) as i64;
        }
        if sixes[0] != sixes[1] {
            return End::Minor(if sixes[0] > sixes[1] { 0 } else { 1 });
        }
    }
}

/// Plays one game from `seed`, as a session seeded with `seed` plays the scenario.
pub fn play(seed: u64) -> Game {
    play_with(seed, 4)
}

/// Plays one game in which a lost unit is Tom's `tom_in_7` times in seven (the ruleset says four).
pub fn play_with(seed: u64, tom_in_7: i64) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (max, tom) = (0, 1);
    let mut gs = [Group { mp: 6, reached_zero: false }, Group { mp: 5, reached_zero: false }];
    let mut turn = 0;
    let mut end = None;
    while end.is_none() {
        turn += 1;
        if die(&mut rng, 3) <= 2 {
            let (first, second) = if die(&mut rng, 7) <= tom_in_7 { (tom, max) } else { (max, tom) };
            dispersed(&mut rng, &mut gs, first);
            if die(&mut rng, 4) <= 1 {
                dispersed(&mut rng, &mut gs, second);
            }
        }
        end = turn_end(&gs);
        if turn >= 12 {
            break;
        }
    }
    let end = end.unwrap_or_else(|| time_up(&mut rng, &gs));
    Game { end, turns: turn, mp: [gs[0].mp, gs[1].mp], by_time: turn == 12 && gs[0].mp > 0 && gs[1].mp > 0 }
}
