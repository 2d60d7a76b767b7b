//! A host program for the Shadow Deep stress rules: it owns the table (who is where, who can see whom)
//! and describes the situation to mettle when a creature activates; the ruleset's reactions choose
//! from it (the closest friend not in combat, the best cover in reach…) and turn it into orders for
//! the table, and mettle checks the data before any rule reads it.
//!
//! Run with `cargo run --example reactions`.

use mettle::{Ruleset, Session, Value};
use serde_json::json;
use std::sync::Arc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rules =
        Ruleset::from_path(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/shadow_deep_stress.mettle"))
            .map_err(|e| e.render(100))?;
    let mut session = Session::new(&rules, 2026);
    let gnoll = Value::Entity(session.create(
        "creature",
        "gnoll",
        &[("health", Value::Int(12)), ("will", Value::Int(1)), ("missile", Value::Bool(true))],
    )?);

    // The rangers shoot at the gnoll and wound it badly: markers for each cause.
    session.apply("shot_at", &[("creature", gnoll.clone())])?;
    session.apply("wounded", &[("creature", gnoll.clone()), ("damage", Value::Int(8))])?;

    // The gnoll activates. What the table looks like from where it stands:
    let situation = json!({
        "friends": [
            { "name": "gnoll chieftain", "distance": 9, "in_combat": true, "reachable": true },
            { "name": "gnoll archer", "distance": 14, "reachable": false }
        ],
        "enemies": [{ "name": "ranger", "distance": 7 }, { "name": "hound", "distance": 4 }],
        "cover": [{ "name": "the ruined wall", "reachable": true, "one_move": true }],
        "target_points": [{ "name": "the shrine", "distance": 12 }],
        "shoot_target": "hound"
    });
    // The table rolls real dice: the d20 for the gnoll's morale test shows 4.
    session.force_dice(&[4]);
    session.apply("activates", &[("creature", gnoll), ("situation", Value::Data(Arc::new(situation)))])?;

    print!("{}", mettle::session::render_log(session.log(), rules.text()));
    println!("\norders for the table:");
    for order in session.state().orders() {
        println!("  - {}", order.text);
    }
    Ok(())
}
