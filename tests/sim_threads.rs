//! A simulation's report depends on the seed only: on one thread or two, the same seed gives the same
//! counts, pinned here. Without the `parallel` feature (`cargo test -p mettle`) the same pins hold;
//! CI checks that through the npm package, whose module is built without it.

use mettle::Ruleset;
use mettle::sim::{self, Options, Target};
use std::path::Path;

fn counts(threads: usize) -> Vec<(Option<String>, Option<String>, u64)> {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/combat_hq.mettle"));
    let rules = Ruleset::from_path(path).expect("shipped ruleset");
    let opts = Options { runs: 1500, seed: 42, threads };
    let rep = sim::simulate(&rules, &Target::Scenario("morale_race".into()), &opts, &|_| {}).expect("runs");
    assert_eq!(rep.runs, 1500);
    rep.results.into_iter().map(|f| (f.result, f.winner, f.count)).collect()
}

#[test]
fn the_same_seed_gives_the_same_counts_with_or_without_threads() {
    let one = counts(1);
    assert_eq!(one, counts(2));
    let pinned = [
        ("major_victory", Some("max"), 953),
        ("major_victory", Some("tom"), 451),
        ("draw", None, 52),
        ("minor_victory", Some("max"), 25),
        ("minor_victory", Some("tom"), 19),
    ];
    let pinned: Vec<_> =
        pinned.iter().map(|(r, w, n)| (Some(r.to_string()), w.map(String::from), *n)).collect();
    assert_eq!(one, pinned);
}
