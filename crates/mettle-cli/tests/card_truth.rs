//! What a card says is true to the rules: no effect written under a condition (`if`, `otherwise`,
//! `for each … where`, `repeat … until`) appears on any shipped ruleset's card without its condition.
//! Which effects are conditional is read from the compiled program, not from a list kept by hand.

use mettle::card::{Effect, Line, Section};
use mettle::internals::RulesetInternals as _;
use mettle::internals::program::{Expr, Program, Stmt, Value};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

const RULESETS: [&str; 5] =
    ["combat_hq", "dice_pool_morale", "infinite_frontiers", "shadow_deep_stress", "traveller_morale"];

/// An effect of the program: where it is written, and how many conditions it is under.
struct Leaf<'a> {
    stmt: &'a Stmt,
    span: mettle::Span,
    conditions: usize,
}

/// Every effect in `body`, with the conditions it is under (`if` and its `otherwise`, the `where` of a
/// loop, `repeat … until`).
fn leaves<'a>(body: &'a [Stmt], conditions: usize, out: &mut Vec<Leaf<'a>>) {
    for s in body {
        match s {
            Stmt::If(_, a, b) => {
                leaves(a, conditions + 1, out);
                leaves(b, conditions + 1, out);
            }
            Stmt::ForEach { filter, body, .. } => {
                leaves(body, conditions + usize::from(filter.is_some()), out)
            }
            Stmt::Repeat { body, .. } => leaves(body, conditions + 1, out),
            Stmt::Set { span, .. }
            | Stmt::Add { span, .. }
            | Stmt::Roll { span, .. }
            | Stmt::Trigger { span, .. }
            | Stmt::Choose { span, .. }
            | Stmt::EndGame { span, .. }
            | Stmt::Note(_, span)
            | Stmt::Follow { span, .. } => out.push(Leaf { stmt: s, span: *span, conditions }),
            _ => {}
        }
    }
}

/// The words of a card's effect without marks, and the words of the conditions and loops above it.
fn card_effects(
    effects: &[Effect],
    above: &mut Vec<String>,
    out: &mut Vec<(mettle::Span, String, Vec<String>)>,
) {
    for e in effects {
        if e.under.is_empty() {
            out.push((e.span, e.words.plain(), above.clone()));
        } else {
            above.push(e.words.plain());
            card_effects(&e.under, above, out);
            above.pop();
        }
    }
}

/// Whether card words state a condition (not a plain loop): "if …", "unless …", "otherwise",
/// "for each unit `u` where …", "again and again until …".
fn conditional(words: &str) -> bool {
    words.starts_with("if ")
        || words.starts_with("unless ")
        || words.starts_with("otherwise")
        || words.starts_with("again and again until ")
        || (words.starts_with("for each ") && words.contains(" where "))
}

/// Markdown without its marks, as `Words::plain` gives words.
fn unmarked(line: &str) -> String {
    line.chars().filter(|c| !matches!(c, '\\' | '`' | '*')).collect()
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Whether the words at `at` in line `i` of `lines` are under a condition: one stated before them
/// on the line, or on a line above that holds this one's list.
fn guarded(lines: &[String], i: usize, at: usize) -> bool {
    let before = &lines[i][..at];
    let stated = |text: &str| {
        let t = text.trim_start().trim_start_matches("- ");
        // An outcome's line ("steady: when 7 or more …") or a rule's ("when …") is not the condition
        // of an effect in it; what follows its first colon or dash may be.
        [" if ", " unless ", "otherwise", " where ", " until "].iter().any(|w| format!(" {t}").contains(w))
            || conditional(t)
    };
    if stated(before) {
        return true;
    }
    let mut depth = indent(&lines[i]);
    for line in lines[..i].iter().rev() {
        if indent(line) < depth {
            if stated(line) && line.trim_end().ends_with(':') {
                return true;
            }
            depth = indent(line);
            if depth == 0 {
                break;
            }
        }
    }
    false
}

fn value_name(p: &Program, e: &Expr) -> Option<String> {
    match e {
        Expr::Const(Value::Name { set, index }) => {
            p.sets.get(*set as usize)?.names.get(*index as usize).cloned()
        }
        _ => None,
    }
}

#[test]
fn no_effect_from_a_conditional_branch_appears_without_its_condition() {
    for name in RULESETS {
        let rules =
            mettle::Ruleset::from_path(root().join(format!("rulesets/{name}.mettle"))).expect("it loads");
        let p = rules.program();
        let card = mettle::card::build(&rules);
        let md = mettle::card::md::render(&card);

        // The program's effects, by where they are written.
        let mut program = vec![];
        for t in &p.triggers {
            leaves(&t.body, 0, &mut program);
        }
        for c in &p.checks {
            for o in &c.outcomes {
                leaves(&o.body, 0, &mut program);
            }
        }
        let conditional_leaves = program.iter().filter(|l| l.conditions > 0).count();

        // The card's effects, by where they are written, with what is above them.
        let mut shown = vec![];
        for s in &card.sections {
            match s {
                Section::Rules(events) => {
                    for r in events.iter().flat_map(|e| &e.rules) {
                        card_effects(&r.effects, &mut vec![], &mut shown);
                    }
                }
                Section::Checks(checks) => {
                    for l in checks.iter().flat_map(|c| &c.outcomes) {
                        let l: &Line = l;
                        card_effects(&l.effects, &mut vec![], &mut shown);
                    }
                }
                Section::Reactions(reactions) => {
                    for r in reactions {
                        card_effects(&r.effects, &mut vec![], &mut shown);
                    }
                }
                _ => {}
            }
        }

        // Each effect of the program is on the card, under a condition exactly when it is written
        // under one.
        for leaf in &program {
            let on_card: Vec<_> = shown.iter().filter(|(span, _, _)| *span == leaf.span).collect();
            assert!(!on_card.is_empty(), "{name}: the effect at {:?} is on the card", leaf.span);
            for (_, words, above) in on_card {
                let conditions = above.iter().filter(|a| conditional(a)).count();
                if leaf.conditions > 0 {
                    assert!(
                        conditions > 0,
                        "{name}: `{words}` is shown without its condition (above it: {above:?})"
                    );
                } else {
                    assert_eq!(
                        conditions, 0,
                        "{name}: `{words}` is shown under a condition it has not: {above:?}"
                    );
                }
            }
        }

        // And in the Markdown: a line holding a conditional effect's words states its condition
        // before them, or is in the list of a line that does, unless the same words also come from
        // an effect under no condition.
        let plain: Vec<&str> = shown
            .iter()
            .filter(|(_, _, above)| !above.iter().any(|a| conditional(a)))
            .map(|(_, w, _)| w.as_str())
            .collect();
        let lines: Vec<String> = md.lines().map(unmarked).collect();
        let mut checked = 0;
        for (_, words, above) in &shown {
            if !above.iter().any(|a| conditional(a)) || plain.contains(&words.as_str()) {
                continue;
            }
            let words = unmarked(words);
            let mut found = false;
            for (i, line) in lines.iter().enumerate() {
                // The states section says where a state is set in its own words, checked below.
                if line.starts_with("- to ") {
                    continue;
                }
                let mut from = 0;
                while let Some(at) = line[from..].find(&words) {
                    found = true;
                    assert!(
                        guarded(&lines, i, from + at),
                        "{name}: `{words}` stands without its condition:\n{line}"
                    );
                    from += at + words.len();
                }
            }
            assert!(found, "{name}: `{words}` is in the Markdown");
            checked += 1;
        }
        assert!(checked > 0 || conditional_leaves == 0, "{name}: conditional effects were checked");

        // Where a state is set under a condition, the states section says so.
        for leaf in program.iter().filter(|l| l.conditions > 0) {
            let Stmt::Set { place, value, .. } = leaf.stmt else { continue };
            let Some(v) = value_name(p, value) else { continue };
            let kind = &p.kinds[place.kind as usize];
            if !matches!(kind.fields[place.field as usize].ty, mettle::internals::program::Ty::Name(_)) {
                continue;
            }
            let moves: Vec<&String> =
                lines.iter().filter(|l| l.starts_with(&format!("- to {v} by "))).collect();
            assert!(
                moves.iter().any(|l| [" if ", " unless ", " where "].iter().any(|w| l.contains(w))),
                "{name}: setting `{}.{}` to {v} under a condition is listed with it: {moves:?}",
                kind.name,
                kind.fields[place.field as usize].name
            );
        }
    }
}

/// A ruleset with each kind of condition, and the card's words for each.
#[test]
fn each_kind_of_condition_is_put_into_words() {
    let rules = mettle::Ruleset::from_str(
        "c.mettle",
        r#"
kind unit { hp: 0..9 = 5  morale: steady | shaken | broken = steady  marked: flag = no }
event hit(unit: unit)
on hit {
  let low = unit.hp < 3
  if low { set unit.morale to shaken } else if unit.hp == 3 { set unit.marked to yes } else { note "fine" }
  for each unit u where u.morale is broken { set u.marked to no }
  with chance 1/3 { note "lucky" }
  if unit.hp > 8 { } else { note "not fresh" }
}
"#,
    )
    .expect("it loads");
    let md = mettle::card::md::render(&mettle::card::build(&rules));
    for line in [
        "  - if `unit.hp < 3`: sets `unit.morale` to **shaken**",
        "  - otherwise, if `unit.hp == 3`: sets `unit.marked` to **yes**",
        "  - otherwise: “fine”",
        "  - for each unit `u` where `u.morale is broken`: sets `u.marked` to **no**",
        "  - if the 1 in 3 chance comes up: “lucky”",
        "  - unless `unit.hp > 8`: “not fresh”",
        "- to **shaken** by rule `on hit`, if `unit.hp < 3`",
    ] {
        assert!(md.lines().any(|l| l == line), "{line}\nis in:\n{md}");
    }
}

/// A wide input's odds table covers where its odds change, not only its first values.
#[test]
fn a_wide_input_s_odds_cover_where_they_change() {
    let rules = mettle::Ruleset::from_str(
        "kow.mettle",
        r#"
kind unit { nerve: 5..25 = 14 }
check nerve for unit {
  input damage: 0..40
  roll 2d6
  modifier "Damage" +damage
  outcome routed when total >= unit.nerve
  outcome wavering when total >= unit.nerve - 3
  otherwise steady
}
"#,
    )
    .expect("it loads");
    let md = mettle::card::md::render(&mettle::card::build(&rules));
    assert!(md.contains("**Odds** by `damage 0–12`; `damage 13–40: as shown at 12`"), "{md}");
    // 12 damage and 2d6 always reach 14: routed.
    assert!(md.lines().any(|l| l == "| 12 | 100% | 0% | 0% |"), "{md}");
    assert!(!md.lines().any(|l| l.starts_with("| 13 |")), "{md}");
}

/// Runs the `mettle` command from the workspace's root.
fn mettle(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("the mettle binary runs")
}

/// `--set NAME=VALUE` for an input, `--with ATTRIBUTE=VALUE` for the maker's (`group.opponent.mp`
/// is given as `opponent.mp`).
fn given(name: &str, value: &str) -> [String; 2] {
    match name.split_once('.') {
        Some((_, attribute)) => ["--with".into(), format!("{attribute}={value}")],
        None => ["--set".into(), format!("{name}={value}")],
    }
}

/// Every odds table of every shipped card names all it reads: asked on the command line with only
/// what its caption and first row give (the rest at its default), the question needs nothing more
/// (the command refuses a read without a value) and gets the first row's numbers.
#[test]
fn every_odds_table_names_what_it_reads() {
    let mut tables = 0;
    for name in RULESETS {
        let file = format!("rulesets/{name}.mettle");
        let rules = mettle::Ruleset::from_path(root().join(&file)).expect("it loads");
        let card = mettle::card::build(&rules);
        for s in &card.sections {
            let Section::Checks(checks) = s else { continue };
            for c in checks {
                let Ok(t) = &c.odds else { continue };
                let mut args: Vec<String> =
                    vec!["odds".into(), file.clone(), c.name.clone(), "--json".into()];
                if let (Some(by), Some(row)) = (t.rows_by.split_whitespace().next(), t.rows.first()) {
                    args.extend(given(by, row));
                }
                if let (Some(by), Some(col)) = (&t.columns_by, t.columns.first()) {
                    args.extend(given(by, col));
                }
                for f in &t.fixed {
                    // `name = value`; the notes on rows left out say no value.
                    if let Some((n, v)) = f.split_once(" = ") {
                        args.extend(given(n, v));
                    }
                }
                let refs: Vec<&str> = args.iter().map(String::as_str).collect();
                let o = mettle(&refs);
                assert!(
                    o.status.success(),
                    "{name}: the odds of `{}` as its card states them ({args:?}) need more:\n{}",
                    c.name,
                    String::from_utf8_lossy(&o.stderr)
                );
                let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
                let first = &t.cells[0][0];
                for (i, cell) in first.iter().enumerate().take(v["outcomes"].as_array().unwrap().len()) {
                    if let mettle::card::Cell::Exact { fraction: Some(f), .. } = cell {
                        assert_eq!(&v["outcomes"][i]["exact"], f, "{name}: `{}`, outcome {i}", c.name);
                    }
                }
                tables += 1;
            }
        }
    }
    assert!(tables >= 6, "every shipped odds table was asked: {tables}");
}

/// The card gives no odds for a case the rules never test, and says why: a Shadow Deep creature
/// tests only with a stress marker.
#[test]
fn no_odds_for_a_case_the_rules_never_test() {
    let rules =
        mettle::Ruleset::from_path(root().join("rulesets/shadow_deep_stress.mettle")).expect("it loads");
    let md = mettle::card::md::render(&mettle::card::build(&rules));
    assert!(md.contains("**Odds** by `stress 1–5`"), "{md}");
    assert!(!md.lines().any(|l| l.starts_with("| 0 |") && l.contains('%')), "{md}");
    assert!(md.contains("`stress 6 or more: as shown at 5`"), "{md}");
    assert!(
        md.contains("*No odds for stress 0: the rules roll `morale_test` only when `creature.stress >= 1`.*"),
        "{md}"
    );
    // An input's range with no upper end is said so: `group.mp` goes on past 63.
    let rules = mettle::Ruleset::from_path(root().join("rulesets/combat_hq.mettle")).expect("it loads");
    let md = mettle::card::md::render(&mettle::card::build(&rules));
    assert!(md.contains("`group.opponent.mp = 0`, `group.mp 4 or more: as shown at 3`"), "{md}");
}

/// Traveller's card says why a Formidable or Impossible check never passes at DM 0.
#[test]
fn traveller_s_card_says_why_the_hardest_levels_fail_at_dm_0() {
    let rules =
        mettle::Ruleset::from_path(root().join("rulesets/traveller_morale.mettle")).expect("it loads");
    let md = mettle::card::md::render(&mettle::card::build(&rules));
    assert!(md.lines().any(|l| l == "| formidable | 0% | 100% |"), "{md}");
    assert!(
        md.contains(
            "Why the odds say 0% for Formidable and Impossible at DM 0: 2D alone never reaches 15 or 19."
        ),
        "{md}"
    );
}

/// Shadow Deep's card shows the reaction table, and each of its cells says what the reactions do: a
/// creature that fails its test (Will -30) with each number of markers left, in and out of combat,
/// in a situation with a friend, cover, a target point and an enemy, makes for the first of them
/// the cell names.
#[test]
fn shadow_deep_s_reaction_table_is_what_the_reactions_do() {
    use mettle::card::{Block, doc_blocks};
    use mettle::{Session, Value};
    use std::sync::Arc;
    let rules =
        mettle::Ruleset::from_path(root().join("rulesets/shadow_deep_stress.mettle")).expect("it loads");
    let card = mettle::card::build(&rules);
    let doc = card
        .sections
        .iter()
        .find_map(|s| match s {
            Section::Reactions(reactions) => {
                reactions.iter().find(|r| r.name == "standard").and_then(|r| r.doc.clone())
            }
            _ => None,
        })
        .expect("the card shows the standard reactions' doc");
    let rows = doc_blocks(&doc)
        .into_iter()
        .find_map(|b| match b {
            Block::Table(rows) => Some(rows),
            _ => None,
        })
        .expect("a table of reactions");
    assert_eq!(rows[0], ["markers left", "not in combat", "in combat"]);
    let left: Vec<&str> = rows[1..].iter().map(|r| r[0].as_str()).collect();
    assert_eq!(left, ["0", "1", "2", "3", "4 or more"]);
    // The first place a cell names, as the order for it reads.
    let first = |cell: &str, combat: bool| -> &'static str {
        let cell = if combat { cell.split(" then ").nth(1).unwrap_or(cell) } else { cell };
        let clause = cell.split([';', '.']).next().unwrap();
        if clause.contains("away from the combat") {
            "move directly away from the combat"
        } else if clause.contains("away from the closest enemy") {
            "away from ranger"
        } else if clause.contains("friend") {
            "towards goblin"
        } else if clause.contains("cover") {
            "towards the wall"
        } else if clause.contains("target point") {
            "towards the gate"
        } else {
            panic!("a cell names where the creature goes: {cell}")
        }
    };
    for (level, row) in rows[1..].iter().enumerate() {
        for (combat, column) in [(false, 1), (true, 2)] {
            let mut cell = row[column].as_str();
            if let Some(n) = cell.strip_prefix("As ") {
                let n: usize = n.trim_end_matches('.').parse().unwrap();
                cell = rows[1 + n][column].as_str();
            }
            let want = first(cell, combat);
            let mut s = Session::new(&rules, 1);
            let c = s
                .create(
                    "creature",
                    "orc",
                    &[("stress", Value::Int(level as i64 + 1)), ("will", Value::Int(-30))],
                )
                .unwrap();
            let situation = serde_json::json!({
                "in_combat": combat,
                "friends": [{ "name": "goblin", "distance": 3, "reachable": true }],
                "enemies": [{ "name": "ranger", "distance": 5 }],
                "cover": [{ "name": "the wall", "reachable": true, "one_move": true }],
                "target_points": [{ "name": "the gate", "distance": 4 }],
            });
            s.apply(
                "activates",
                &[("creature", Value::Entity(c)), ("situation", Value::Data(Arc::new(situation)))],
            )
            .unwrap();
            let orders: Vec<&str> = s.state().orders().iter().map(|o| o.text.as_str()).collect();
            assert!(
                orders.iter().any(|o| o.contains(want)),
                "{} markers left, in combat {combat}: the card says `{cell}`, the script orders {orders:?}",
                row[0]
            );
        }
    }
}

/// An input with no upper end whose odds go on changing shows its first values one by one (the
/// seed's 7/8 and 9/10 among them), not a spread up to where the work stopped.
#[test]
fn an_open_ended_input_shows_its_first_values() {
    let rules =
        mettle::Ruleset::from_path(root().join("rulesets/dice_pool_morale.mettle")).expect("it loads");
    let md = mettle::card::md::render(&mettle::card::build(&rules));
    assert!(md.contains("**Odds** by `base 1–13`; `base 14 or more: not shown`;"), "{md}");
    assert!(md.lines().any(|l| l.starts_with("| 7 | 87.5% (7/8) | 12.5% (1/8) | 0% |")), "{md}");
    assert!(!md.contains("(some values)"), "{md}");
}
