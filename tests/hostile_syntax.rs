//! Hostile ruleset text: deep nesting, long chains, huge numbers and lines, invisible and look-alike
//! characters, odd line endings, and rulesets big enough to show anything quadratic. Each case checks
//! the code (and the span where it matters), and that a normal ruleset still loads afterwards.

use mettle::diagnostics::{RenderOptions, render};
use mettle::internals::RulesetInternals as _;
use mettle::{Budget, LoadOptions, Ruleset};

const OK: &str = "kind unit { hp: 0..9 = 1 }\nevent poke(unit: unit)\non poke { add 1 to unit.hp }\n";

/// The codes of the errors `text` gets (it must not load), after checking that a normal ruleset still
/// loads in the same process.
fn codes(text: &str) -> Vec<String> {
    let err = Ruleset::from_str("hostile.mettle", text).expect_err("the text should be refused");
    let _ = err.render(80);
    Ruleset::from_str("ok.mettle", OK).expect("a normal ruleset still loads");
    err.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code.clone()).collect()
}

fn first(text: &str) -> String {
    codes(text).into_iter().next().unwrap()
}

/// The first error of `text` and its primary span.
fn located(text: &str) -> (String, usize, usize) {
    let err = Ruleset::from_str("hostile.mettle", text).unwrap_err();
    let d = &err.diagnostics[0];
    (d.code.clone(), d.span().start, d.span().end)
}

/// The first error of `text`, rendered as the CLI shows it.
fn rendered(text: &str) -> String {
    let err = Ruleset::from_str("hostile.mettle", text).unwrap_err();
    render(&err.diagnostics[..1], "hostile.mettle", text, &RenderOptions::default().with_width(80))
}

fn with_rule(expr: &str) -> String {
    format!(
        "kind unit {{ hp: int = 1  ok: flag = no }}\nevent poke(unit: unit)\non poke {{ set unit.hp to {expr} }}\n"
    )
}

#[test]
fn deep_brackets_are_refused_before_parsing() {
    let text = with_rule(&format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000)));
    assert_eq!(first(&text), "mettle::parse::too_deep");
}

#[test]
fn deep_braces_are_refused_before_parsing() {
    let text = format!(
        "kind unit {{ hp: int = 1 }}\nevent poke(unit: unit)\non poke {{ {} }}",
        "if yes { ".repeat(50_000)
    );
    assert_eq!(first(&text), "mettle::parse::too_deep");
}

#[test]
fn a_long_chain_of_additions_is_refused_not_a_stack_overflow() {
    assert_eq!(first(&with_rule(&vec!["1"; 100_000].join("+"))), "mettle::parse::too_deep");
}

#[test]
fn a_long_chain_of_negations_is_refused() {
    assert_eq!(first(&with_rule(&format!("{}1", "- ".repeat(100_000)))), "mettle::parse::too_deep");
}

#[test]
fn a_long_chain_of_nots_is_refused() {
    let text = format!(
        "kind unit {{ ok: flag = no }}\nevent poke(unit: unit)\non poke {{ set unit.ok to {}yes }}",
        "not ".repeat(100_000)
    );
    assert_eq!(first(&text), "mettle::parse::too_deep");
}

#[test]
fn a_long_chain_of_else_ifs_is_refused() {
    let text = format!(
        "kind unit {{ hp: int = 1 }}\nevent poke(unit: unit)\non poke {{ if yes {{ set unit.hp to 1 }} {} }}",
        "else if yes { set unit.hp to 1 } ".repeat(20_000)
    );
    assert_eq!(first(&text), "mettle::parse::too_deep");
}

#[test]
fn formulas_nested_ten_thousand_deep_are_an_error_not_a_crash() {
    let mut text = with_rule("f0()");
    for i in 0..10_000 {
        text.push_str(&format!("define f{i}() = f{}() + 1\n", i + 1));
    }
    text.push_str("define f10000() = 1\n");
    assert!(codes(&text).iter().all(|c| c == "mettle::resolve::too_deep"));
}

#[test]
fn a_cycle_through_ten_thousand_formulas_is_an_error_not_a_crash() {
    let mut text = with_rule("f0()");
    for i in 0..10_000 {
        text.push_str(&format!("define f{i}() = f{}() + 1\n", (i + 1) % 10_000));
    }
    assert!(!codes(&text).is_empty());
}

#[test]
fn a_number_of_ten_thousand_digits_is_refused() {
    assert_eq!(first(&with_rule(&"9".repeat(10_000))), "mettle::parse::bad_number");
}

#[test]
fn dice_counts_past_the_largest_number_are_refused() {
    let text = "check c { roll 99999999999999999999d6  otherwise done }";
    assert_eq!(first(text), "mettle::parse::bad_number");
}

#[test]
fn a_range_upside_down_at_the_extremes_is_refused() {
    let text = "kind unit { hp: 9223372036854775807..-9223372036854775808 = 1 }";
    assert!(codes(text).contains(&"mettle::resolve::empty_range".to_string()));
}

#[test]
fn a_megabyte_line_renders_only_around_the_error() {
    let text = format!("kind unit {{ hp: 0..9 = 1 {} }}\n", "a".repeat(1_000_000));
    let shown = rendered(&text);
    assert!(shown.len() < 2_000, "{} bytes shown", shown.len());
    assert!(shown.contains("hostile.mettle:1:"), "{shown}");
    assert!(shown.contains('…'));
}

#[test]
fn ten_thousand_errors_all_render() {
    let text = "kind unit { hp: 0..9 = 1 }\n".repeat(10_000);
    let err = Ruleset::from_str("dups.mettle", &text).unwrap_err();
    assert_eq!(err.diagnostics.len(), 9_999);
    let shown = err.render(80);
    assert!(shown.contains("dups.mettle:10000:6"), "the last error is located on its own line");
}

#[test]
fn a_ruleset_over_the_budget_is_refused_before_parsing() {
    let mut budget = Budget::default();
    budget.set("ruleset_bytes", 100).unwrap();
    let err = Ruleset::load("big.mettle", &OK.repeat(10), &LoadOptions { budget, ..Default::default() })
        .unwrap_err();
    assert_eq!(err.diagnostics[0].code, "mettle::io::too_large");
}

#[test]
fn fifty_thousand_rules_load() {
    let mut text = String::new();
    for i in 0..12_500 {
        text.push_str(&format!(
            "kind k{i} {{ a: 0..9 = 1 }}\nevent e{i}(u: k{i})\non e{i} {{ add 1 to u.a }}\ncheck c{i} {{ roll d6  otherwise done }}\n"
        ));
    }
    let r = Ruleset::from_str("big.mettle", &text).unwrap();
    assert_eq!(r.program().checks.len(), 12_500);
}

#[test]
fn twenty_thousand_outcomes_check() {
    let mut text = "check c { roll d6\n".to_string();
    for i in 0..20_000 {
        text.push_str(&format!("  outcome o{i} when total == {i}\n"));
    }
    text.push_str("  otherwise done }\n");
    assert!(Ruleset::from_str("outcomes.mettle", &text).is_ok());
}

#[test]
fn a_byte_order_mark_at_the_start_is_accepted() {
    let r = Ruleset::from_str("bom.mettle", &format!("\u{feff}{OK}")).unwrap();
    assert_eq!(r.program().kinds[0].name, "unit");
}

#[test]
fn a_byte_order_mark_inside_is_named() {
    let text = format!("{OK}kind side \u{feff}{{ vp: int = 0 }}");
    let (code, start, end) = located(&text);
    assert_eq!(code, "mettle::parse::invisible_character");
    assert_eq!(&text[start..end], "\u{feff}");
}

#[test]
fn crlf_and_cr_line_endings_read_like_lf() {
    let bad = "kind unit { hp: 0..9 = 1 }\nkind x { y: 0..3 = 9 }\n";
    let lf = rendered(bad);
    assert!(lf.contains("hostile.mettle:2:"), "{lf}");
    let crlf = bad.replace('\n', "\r\n");
    assert!(rendered(&crlf).contains("hostile.mettle:2:"));
    let cr = bad.replace('\n', "\r");
    let err = Ruleset::from_str("hostile.mettle", &cr).unwrap_err();
    assert!(err.render(80).contains("hostile.mettle:2:"), "{}", err.render(80));
    assert!(Ruleset::from_str("ok.mettle", &OK.replace('\n', "\r")).is_ok());
    assert!(Ruleset::from_str("ok.mettle", &OK.replace('\n', "\r\n")).is_ok());
}

#[test]
fn a_zero_width_space_in_a_name_is_named() {
    let text = "kind un\u{200b}it { hp: 0..9 = 1 }";
    let (code, start, end) = located(text);
    assert_eq!(code, "mettle::parse::invisible_character");
    assert_eq!((start, end), (7, 10));
    insta::assert_snapshot!(rendered(text));
}

#[test]
fn a_no_break_space_is_named() {
    let text = "kind unit {\u{a0}hp: 0..9 = 1 }";
    assert_eq!(located(text).0, "mettle::parse::odd_space");
    insta::assert_snapshot!(rendered(text));
}

#[test]
fn a_cyrillic_letter_in_a_latin_name_is_named() {
    let text = "kind un\u{456}t { hp: 0..9 = 1 }";
    assert_eq!(located(text).0, "mettle::parse::lookalike_character");
    insta::assert_snapshot!(rendered(text));
}

#[test]
fn curly_quotes_are_named() {
    let text = "kind unit { hp: 0..9 = 1 }\nscenario s { note \u{201c}hello\u{201d} }";
    assert_eq!(located(text).0, "mettle::parse::lookalike_character");
}

#[test]
fn a_nul_is_named() {
    let text = "kind unit { hp: 0..9 = 1 }\u{0}";
    let (code, start, _) = located(text);
    assert_eq!(code, "mettle::parse::invisible_character");
    assert_eq!(start, 26);
}

#[test]
fn bidi_controls_are_named() {
    let text = "kind unit { hp: 0..9 = 1 }\n\u{202e}kind side { vp: int = 0 }";
    assert_eq!(located(text).0, "mettle::parse::invisible_character");
}

#[test]
fn odd_characters_inside_strings_and_comments_are_left_alone() {
    let text = format!(
        "// a note with a no-break\u{a0}space and Cyrillic: привет\n{OK}scenario s {{ note \"‘quoted’ — fine\u{a0}here\" }}"
    );
    assert!(Ruleset::from_str("ok.mettle", &text).is_ok());
}

#[test]
fn a_whole_word_in_another_alphabet_is_not_a_lookalike() {
    // Not a look-alike mistake, so the parser's own message says what is wrong.
    let text = "kind юнит { hp: 0..9 = 1 }";
    let err = Ruleset::from_str("x.mettle", text);
    if let Err(e) = err {
        assert_ne!(e.diagnostics[0].code, "mettle::parse::lookalike_character");
    }
}

#[test]
fn many_odd_characters_are_reported_only_so_many_times() {
    let text = format!("kind unit {{ hp: 0..9 = 1 }}{}", "\u{200b}".repeat(1_000));
    assert_eq!(codes(&text).len(), 20);
}
