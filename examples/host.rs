//! A host program driving a session: it owns the table (positions, line of sight) and tells mettle
//! what happened; mettle applies the rules and explains every step.
//!
//! Run with `cargo run --example host`.

use mettle::{Ruleset, Session, Value};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rules =
        Ruleset::from_path(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/infinite_frontiers.mettle"))
            .map_err(|e| e.render(100))?;
    let mut session = Session::new(&rules, 2026);

    let red = Value::Entity(session.create("side", "red", &[])?);
    let blue = Value::Entity(session.create("side", "blue", &[])?);
    let troopers = Value::Entity(session.create(
        "unit",
        "troopers",
        &[("side", red.clone()), ("spi", Value::Int(2))],
    )?);
    session.create("unit", "scouts", &[("side", red), ("spi", Value::Int(3))])?;
    let rangers = Value::Entity(session.create(
        "unit",
        "rangers",
        &[("side", blue.clone()), ("spi", Value::Int(4))],
    )?);

    session.apply("round_start", &[])?;
    session.apply("turn_start", &[])?; // blue has fewer units: it receives an Action Point
    session.answer("holder", rangers.clone())?; // the blue player gives it to the rangers
    session.apply("assign_ap", &[("side", blue)])?;

    // The table says: the troopers lost 3 of 6 HP this turn, and are engaged with two enemies.
    session.apply("damaged", &[("unit", troopers.clone()), ("hp_lost", Value::Int(3))])?;
    session.apply("engaged", &[("unit", troopers), ("enemies", Value::Int(2))])?;
    session.apply(
        "attack",
        &[("unit", rangers), ("dice_pool", Value::Int(3)), ("spend_ap", Value::Bool(true))],
    )?;
    session.apply("turn_end", &[])?;

    print!("{}", mettle::session::render_log(session.log(), rules.text()));
    println!("troopers are {}", session.show(session.get("troopers", "morale").unwrap()));

    // Save, reload, and carry on exactly where the original would have.
    let saved = session.save();
    let mut resumed = Session::load(&rules, &saved)?;
    let a = session.roll("morale", &[("spi", Value::Int(3))])?.rolled.ok_or("no result")?;
    let b = resumed.roll("morale", &[("spi", Value::Int(3))])?.rolled.ok_or("no result")?;
    assert_eq!(a.total, b.total);
    println!("saved {} bytes; the reloaded session rolled the same {}", saved.len(), b.total);
    Ok(())
}
