//! Plays the hand-written Rust games the simulation bench compares mettle with
//! (`benches/hand/`), a given number of times, and prints how their ends fell. It is there to count
//! their instructions a game the way the README counts mettle's: run it under
//! `valgrind --tool=cachegrind --cache-sim=no` with two numbers of games and divide the difference.
//!
//! Run with `cargo run --release --example hand_games -- morale_race|firefight [GAMES]`.

#[path = "../benches/hand/firefight.rs"]
#[allow(dead_code, reason = "the bench's test of the baseline uses more of it")]
mod firefight;
#[path = "../benches/hand/morale_race.rs"]
#[allow(dead_code, reason = "the bench's test of the baseline uses more of it")]
mod morale_race;

fn main() {
    let mut args = std::env::args().skip(1);
    let game = args.next().unwrap_or_else(|| "morale_race".into());
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    // Each game's seed from its number, spread over the seeds as a simulation spreads them.
    let seed = |i: u64| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 7;
    let mut turns = 0i64;
    for i in 0..games {
        turns += match game.as_str() {
            "firefight" => std::hint::black_box(firefight::play(seed(i))).turns,
            "morale_race" => std::hint::black_box(morale_race::play(seed(i))).turns,
            other => {
                eprintln!("no hand-written game `{other}`: morale_race or firefight");
                std::process::exit(2);
            }
        };
    }
    println!("{game}: {games} games, {turns} turns in all");
}
