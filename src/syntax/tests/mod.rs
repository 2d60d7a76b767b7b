//! Parser tests: one line each, through the helpers here and the printers in `show.rs`.

mod constructs;
mod failures;
mod show;

use super::*;
use crate::ast::*;
use crate::diagnostics::Diagnostic;
use show::*;

const EXAMPLE: &str = r#"/// Infinite Frontiers
ruleset "Infinite Frontiers"

/// A side.
kind side {
  ap: 0..6 = 0
  units: 0.. = 0
}
kind unit {
  side: side
  /// Spirit
  spi: 0..6 = 3, strict
  comms: flag = no
  morale: steady | shaken | broken = steady
  label: int
}
ladder difficulty { simple = 3  routine = 7  difficult = 11 }
event damaged(unit: unit, hp_lost: 0..99, leadership: 0..3 = 0)
event turn_over
define tn(markers: 0..) = 6 + triangular(markers)
table reaction(roll: 2..12, calm: flag) -> flee | surrender {
  2..6, _: flee
  7.., yes: surrender
  otherwise: flee
}
check morale for unit {
  input spi: 0..6
  input leadership: 0..3 = 0
  roll d6 as natural
  modifier "Spirit" +spi
  modifier "Leadership" +leadership dice when leadership > 0 max 2
  modifier "Shaken" -1 die when unit.morale is shaken
  target 7
  let sixes = count(dice, 6) + count(dice, >= 6)
  outcome broken when natural == 1 { set unit.morale to broken }
  outcome steady when total >= target and not (sixes < 7) {
    set unit.morale to steady
    if sixes >= 7 { set unit.comms to yes for next round } else if round > 2 { note "late" } else { add 1 to unit.side.ap }
  }
  otherwise shaken
}
on damaged when hp_lost * 2 >= 3 and unit.morale is not broken {
  roll morale for unit with spi = unit.spi, leadership = leadership
  let loss = (leadership + 1)d6kh1 + d[0,0,1] + 4d6dl1 + 3d6x + 2d6r1 + 10d6cs>=5 + d(2 + 1)
  remove loss from unit.side.ap
  for each unit u where u.side == unit.side { set u.comms to no until end of turn }
  trigger turn_over
  choose spend "Spend an AP?" from yes | no default no
  choose who "Which unit?" from unit u where u.spi > number of unit v where v.spi > 2
  repeat { add 1 to unit.spi } until unit.spi >= 3 or last morale is steady
  end game with draw
  end game with win for unit.side
}
result win "Victory"
result draw
scenario basic "A basic test" {
  new side a
  new unit y with side = a, spi = 3
  dice 4, 1
  answer spend = yes
  trigger damaged(unit: y, hp_lost: 3)
  expect y.morale is steady, "should hold"
  expect last morale.total == 8
  expect if y.comms then 1 else 0 == 0
}
script { fn f(x) { if x { 1 } else { 2 } } }
script "extra.rhai"
"#;

// ---------------------------------------------------------------- helpers

/// Parses a file that must be clean.
fn ok(text: &str) -> File {
    let (file, errors) = parse(text);
    assert!(errors.is_empty(), "{text:?}: {errors:#?}");
    file
}

/// The only item of a clean file.
fn item(text: &str) -> ItemKind {
    let mut file = ok(text);
    assert_eq!(file.items.len(), 1, "{text:?}");
    file.items.remove(0).kind
}

/// The messages of the errors in a file.
fn errors(text: &str) -> Vec<String> {
    parse(text).1.into_iter().map(|d| d.message).collect()
}

/// The first error in a file.
fn error(text: &str) -> Diagnostic {
    parse(text).1.into_iter().next().unwrap_or_else(|| panic!("no error in {text:?}"))
}

/// The first error's message.
fn message(text: &str) -> String {
    error(text).message
}

/// The first error's help.
fn help(text: &str) -> String {
    error(text).help.unwrap_or_default()
}

/// An expression, written back fully bracketed.
fn ex(text: &str) -> String {
    match parse_repl(text) {
        Ok(ReplInput::Expr(e)) => show(&e),
        other => panic!("{text:?} is not an expression: {other:?}"),
    }
}

/// Statements, written back.
fn st(text: &str) -> String {
    match parse_repl(text) {
        Ok(ReplInput::Stmts(s)) => show_stmts(&s),
        other => panic!("{text:?} is not statements: {other:?}"),
    }
}

/// The lines of a check, written back.
fn check(lines: &str) -> Vec<String> {
    match item(&format!("check c {{\n{lines}\n}}")) {
        ItemKind::Check(c) => c.lines.iter().map(show_line).collect(),
        other => panic!("{other:?}"),
    }
}

/// The fields of a kind, written back.
fn fields(text: &str) -> Vec<String> {
    match item(&format!("kind k {{ {text} }}")) {
        ItemKind::Kind(k) => k.fields.iter().map(show_field).collect(),
        other => panic!("{other:?}"),
    }
}
