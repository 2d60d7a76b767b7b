//! Generated rulesets for the benchmarks of size: as many rules as asked for, each block a kind, an
//! event, a check, a rule and a scenario, like a shipped ruleset's.

use std::fmt::Write;

/// One block of rules, numbered `i`: about 900 bytes.
fn block(out: &mut String, i: usize) {
    let _ = write!(
        out,
        r#"
/// A unit of army {i}.
kind unit{i} {{
  spi: 0..6 = 3
  hp: 0..20 = 10
  morale: steady | shaken | broken = steady
}}

/// A unit of army {i} lost hit points.
event damaged{i}(unit: unit{i}, hp_lost: 0..99)

/// The morale check of army {i}.
check morale{i} for unit{i} {{
  input spi: 0..6
  roll d6 as base
  modifier "Spirit" +spi
  modifier "Wounded" -1 when unit{i}.hp < 5
  target 7
  outcome broken when base == 1 {{ set unit{i}.morale to broken }}
  outcome steady when total >= target
  otherwise shaken {{ set unit{i}.morale to shaken }}
}}

on damaged{i} when hp_lost >= 3 {{
  remove hp_lost from unit.hp
  let left = unit.hp
  if left < 3 {{
    roll morale{i} for unit with spi = unit.spi
  }}
}}

scenario losses{i} "A unit of army {i} loses 8 hit points" {{
  new unit{i} a with spi = 2
  new unit{i} b
  dice 3
  trigger damaged{i}(unit: a, hp_lost: 8)
  expect a.morale is shaken
  expect b.hp == 10
}}
"#
    );
}

/// Rules of at least `bytes` bytes.
pub fn rules(bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 1024);
    let mut i = 0;
    while out.len() < bytes {
        block(&mut out, i);
        i += 1;
    }
    out
}

/// A ruleset with one scenario of `n` `new` lines.
pub fn news(n: usize) -> String {
    let mut out = String::from("kind unit { spi: 0..6 = 3 }\nscenario many {\n");
    for i in 0..n {
        let _ = writeln!(out, "  new unit u{i} with spi = {}", i % 7);
    }
    out.push_str("}\n");
    out
}

/// A ruleset with one scenario that fires `n` events, each changing an attribute and followed by a
/// note: `n` events, `n` changes and `n` notes (each with its line, further and further down) in its
/// log.
pub fn events(n: usize) -> String {
    let mut out = String::from(
        "kind unit { hits: 0.. = 0 }\nevent hit(unit: unit)\non hit { add 1 to unit.hits }\nscenario long {\n  new unit z\n",
    );
    for i in 0..n {
        let _ = writeln!(out, "  trigger hit(unit: z)\n  note \"hit {i}\"");
    }
    let _ = writeln!(out, "  expect z.hits == {n}\n}}");
    out
}
