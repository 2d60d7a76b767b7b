//! `:undo` over many steps among many units: each step is kept as what it changed, sharing the rest
//! with the game that goes on, and taking steps back gives exactly the earlier game (state, generator,
//! log, `let` values, options, definitions), never an entity changed since.

use mettle::internals::repl::Repl;
use std::path::Path;

fn loaded() -> Repl {
    let mut r = Repl::new(7, false, 80);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/infinite_frontiers.mettle");
    ok(&mut r, &format!(":load {}", path.display()));
    ok(&mut r, "new side blue");
    r
}

fn ok(r: &mut Repl, line: &str) -> String {
    let reply = r.handle(line);
    assert!(!reply.failed, "{line}: {}", reply.err);
    reply.out
}

/// Everything `:undo` must put back, as the REPL shows it and as the session holds it.
#[derive(Debug, PartialEq)]
struct Seen {
    state: mettle::session::State,
    log: Vec<mettle::session::LogLine>,
    shown: String,
    options: String,
}

fn seen(r: &mut Repl) -> Seen {
    let shown = ok(r, ":state");
    let options = ok(r, ":option");
    Seen { state: r.session().state().clone(), log: r.session().log().to_vec(), shown, options }
}

#[test]
fn undo_after_many_steps_among_many_units_gives_each_earlier_game_exactly() {
    let mut r = loaded();
    // Enough units to fill several chunks of shared entities.
    for i in 0..150 {
        ok(&mut r, &format!("new unit u{i} with side = blue"));
    }
    let mut history = vec![seen(&mut r)];
    let steps = [
        "set u3.spi to 1",
        ":event attack unit=u100",
        "trigger wounded(unit: u140, loss: 2)",
        "let spent = u140.hp",
        "define bonus(x: 0..) = x + 2",
        ":roll morale for u64 spi=2",
        ":option bonus_die extra_d6",
        "set u63.spi to 6",
        "new unit late with side = blue, spi = 1",
        "set late.spi to 5",
        "trigger wounded(unit: u0, loss: 6)",
        ":seed 99",
        "let spent = bonus(u3.spi)",
        "roll morale for u149 with spi = 3",
    ];
    for line in steps {
        ok(&mut r, line);
        history.push(seen(&mut r));
    }
    assert_ne!(history[0].state, history[steps.len()].state, "the steps changed the game");
    for (i, expected) in history.iter().enumerate().rev().skip(1) {
        let out = ok(&mut r, ":undo");
        assert!(out.starts_with(&format!("took back `{}`", steps[i])), "{out}");
        let now = seen(&mut r);
        assert_eq!(now, *expected, "after taking back `{}`", steps[i]);
    }
    // What was undone is gone: the definition, and the unit made after it.
    assert!(r.handle("bonus(1)").failed);
    assert!(r.session().entity("late").is_none());
}

#[test]
fn undo_never_keeps_an_entity_changed_after_the_step() {
    let mut r = loaded();
    for i in 0..100 {
        ok(&mut r, &format!("new unit u{i} with side = blue"));
    }
    // Two steps on units in the same chunk, then one on another chunk: taking back the last two must
    // leave the first change and put back the others' values, whichever chunk they sit in.
    ok(&mut r, "set u40.spi to 1");
    ok(&mut r, "set u41.spi to 6");
    ok(&mut r, "set u90.spi to 0");
    assert_eq!(ok(&mut r, "u40.spi + u41.spi + u90.spi"), "7\n");
    ok(&mut r, ":undo");
    assert_eq!(ok(&mut r, "u90.spi"), "3\n");
    ok(&mut r, ":undo");
    assert_eq!(ok(&mut r, "u41.spi"), "3\n");
    assert_eq!(ok(&mut r, "u40.spi"), "1\n", "the first step stays");
    // The game goes on from there: a new change is not undone by the steps taken back.
    ok(&mut r, "set u41.spi to 2");
    assert_eq!(ok(&mut r, "u40.spi + u41.spi + u90.spi"), "6\n");
}

#[test]
fn undo_puts_the_generator_back_so_a_roll_comes_out_the_same() {
    let mut r = loaded();
    ok(&mut r, "new unit a with side = blue");
    let first = ok(&mut r, ":roll morale for a spi=2");
    ok(&mut r, ":undo");
    assert_eq!(ok(&mut r, ":roll morale for a spi=2"), first);
}

#[test]
fn undo_keeps_as_many_steps_as_its_budget_and_says_so_past_them() {
    let mut r = loaded();
    let mut budget = r.budget().clone();
    budget.set("undo_steps", 3).unwrap();
    r.set_budget(budget);
    for i in 0..5 {
        ok(&mut r, &format!("new unit u{i} with side = blue"));
    }
    for _ in 0..3 {
        ok(&mut r, ":undo");
    }
    assert_eq!(r.session().state().entities().len(), 3, "the side and two units");
    let reply = r.handle(":undo");
    assert!(reply.failed);
    assert!(reply.err.contains("repl::undo_budget"), "{}", reply.err);
    assert!(reply.err.contains("undo_steps=N"), "{}", reply.err);
}

#[test]
fn a_definition_typed_into_a_session_is_taken_back_with_its_text() {
    let mut r = loaded();
    for k in 0..30 {
        ok(&mut r, &format!("define bonus{k}(x: 0..) = x + {k}"));
    }
    assert_eq!(ok(&mut r, "bonus29(1)"), "30\n");
    ok(&mut r, ":undo");
    assert!(r.handle("bonus29(1)").failed, "the last definition is gone");
    assert_eq!(ok(&mut r, "bonus28(1)"), "29\n");
    // A definition typed after the undo reads as line 30 again: the texts kept are those before it.
    ok(&mut r, "define bonus29(x: 0..) = x * 2");
    assert_eq!(ok(&mut r, "bonus29(4)"), "8\n");
}

/// A line is parsed where it sits without reading the ruleset's length in padding: the same tree, the
/// same spans and the same messages as parsing it padded.
#[test]
fn a_line_parsed_at_its_place_reads_as_when_padded() {
    use mettle::internals::syntax::{parse_repl, parse_repl_at};
    let lines = [
        "kind squad { nerve: 0..6 = 3 }",
        "define bonus(x: 0..) = x + 2",
        "on hit { add 1 to unit.hits }",
        "new unit u with side = blue, spi = 2",
        "set u.spi to 2\ntrigger wounded(unit: u, loss: 1)",
        "roll morale for u with spi = 3",
        "u.hp + 1",
        "2d6 + (1",
        "set u.spi to",
        "kind { }",
        "let x = \"text\"",
        "\u{feff}2 + 2",
        "1 +\r2",
    ];
    for base in [0, 1, 500] {
        for line in lines {
            let padded = format!("{}{line}", " ".repeat(base));
            assert_eq!(
                format!("{:?}", parse_repl_at(line, base)),
                format!("{:?}", parse_repl(&padded)),
                "{line:?} at {base}"
            );
        }
    }
}

/// A line binds only the units it names, yet a misspelt unit is still told which one was meant.
#[test]
fn a_line_among_many_units_reads_the_ones_it_names_and_suggests_among_all() {
    let mut r = loaded();
    for i in 0..200 {
        ok(&mut r, &format!("new unit u{i} with side = blue"));
    }
    ok(&mut r, "new unit alpha with side = blue, spi = 5");
    assert_eq!(ok(&mut r, "alpha.spi + u7.spi"), "8\n");
    let reply = r.handle("alpah.spi");
    assert!(reply.failed);
    assert!(reply.err.contains("did you mean `alpha`?"), "{}", reply.err);
    ok(&mut r, "let best = alpha");
    assert_eq!(ok(&mut r, "best.spi"), "5\n", "a let names a unit the line does not");
}

/// A value given on an earlier prompt line cannot be changed with `set` or `add` (the line is
/// refused with a located error that says to use `let` again, and the value stays); `let` again
/// gives it a new value, and an entity's name stays refused as before.
#[test]
fn a_name_from_an_earlier_line_is_changed_with_let_again() {
    let mut repl = Repl::new(1, false, 80);
    assert!(!repl.handle("var n = 1").failed);
    for (line, at) in
        [("set n to 2", "input:1:5"), ("add 1 to n", "input:1:10"), ("remove 1 from n", "input:1:15")]
    {
        let reply = repl.handle(line);
        assert!(reply.failed, "{line}: {}", reply.out);
        assert!(reply.err.contains("mettle::repl::earlier_name"), "{line}: {}", reply.err);
        assert!(reply.err.contains(at), "{line}: {}", reply.err);
        assert!(reply.err.contains("let n = "), "{line}: {}", reply.err);
        assert_eq!(repl.handle("n").out.trim(), "1", "{line} changed nothing");
    }
    assert!(!repl.handle("let n = n + 1").failed);
    assert_eq!(repl.handle("n").out.trim(), "2");
    // Within one line a `var` still changes as in a rule.
    let reply = repl.handle("var k = 1  add 2 to k  let shown = k");
    assert!(!reply.failed, "{}", reply.err);
    assert_eq!(repl.handle("shown").out.trim(), "3");
}
