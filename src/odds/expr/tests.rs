//! Exact odds of whole expressions against fractions worked by hand.

use super::*;

/// The chance that `text` comes out as `v` (1 for yes).
fn p(text: &str, v: i64) -> String {
    dist(&compile(text).unwrap().expr).unwrap().probability(v).to_string()
}

fn why(text: &str) -> String {
    dist(&compile(text).unwrap().expr).unwrap_err()
}

#[test]
fn sums_and_comparisons() {
    assert_eq!(p("2d6", 7), "1/6");
    assert_eq!(p("2d6 == 7", 1), "1/6");
    assert_eq!(p("3d6 >= 11", 1), "1/2");
    assert_eq!(p("2d6 + 3 >= 8", 1), "5/6");
    assert_eq!(p("d20 + 5 >= 15", 1), "11/20");
    assert_eq!(p("4d6kh3 == 18", 1), "7/432");
    // 3d6 + 1d4 is 22 only with 6, 6, 6 and 4.
    assert_eq!(p("3d6 + 1d4", 22), "1/864");
    assert_eq!(p("d6 - d6", 0), "1/6");
    assert_eq!(p("-d4", -4), "1/4");
}

#[test]
fn products_and_floored_division() {
    // d6 * d6 = 6 from (1,6), (6,1), (2,3), (3,2).
    assert_eq!(p("d6 * d6", 6), "1/9");
    // Division rounds down: -1 / 2 is -1, as in a session.
    assert_eq!(p("(d2 - 2) / 2", -1), "1/2");
    assert_eq!(p("d6 / 2", 0), "1/6");
    assert!(why("6 / (d2 - 1)").contains("divisor can be 0"));
}

#[test]
fn flags_combine_as_yes_and_no() {
    assert_eq!(p("d6 == 6 and d6 == 6", 1), "1/36");
    assert_eq!(p("d6 == 6 or d6 == 6", 1), "11/36");
    assert_eq!(p("not (d4 == 1)", 1), "3/4");
    assert_eq!(p("if d2 == 1 then 10 else d4", 10), "1/2");
    // 2 from the d4 (1/2 · 1/4) or from the else branch (1/2).
    assert_eq!(p("if d2 == 1 then d4 else 2", 2), "5/8");
}

#[test]
fn builtins() {
    // Advantage by hand: the higher of two d20 is 20 in 39 of 400.
    assert_eq!(p("max(d20, d20)", 20), "39/400");
    assert_eq!(p("min(d20, d20)", 20), "1/400");
    assert_eq!(p("abs(d6 - d6)", 5), "1/18");
    assert_eq!(p("clamp(d6, 2, 5)", 2), "1/3");
    assert_eq!(p("triangular(d3)", 6), "1/3");
    assert_eq!(p("count(4d6, >= 5)", 4), "1/81");
    assert_eq!(p("any(2d6, = 6)", 1), "11/36");
    assert_eq!(p("all(3d6, >= 2)", 1), "125/216");
    assert_eq!(p("sum(3d6cs>=5)", 18), "1/216");
    assert_eq!(p("highest(4d6, 3) == 18", 1), "7/432");
    assert_eq!(p("lowest(2d20, 1)", 20), "1/400");
}

#[test]
fn rolled_counts_mix_terms() {
    // (d2)d6: half the time one d6, half the time two: 6 in 1/12 + 5/72.
    assert_eq!(p("(d2)d6", 6), "11/72");
    assert_eq!(p("(d2)d6", 12), "1/72");
}

#[test]
fn out_of_reach_says_why() {
    assert!(why("die(3d6, 1)").contains("order"));
    assert!(why("3d6xkh2").contains("explode"));
    assert!(why("(1000d6) * (1000d6)").contains("too much work"));
    assert!(why("(d2 + 9223372036854775805) + d2").contains("overflow"));
    assert!(why("d2 * 4611686018427387904").contains("overflow"));
    assert!(why("d2 * 4611686018427387903").contains("too far apart"));
    assert!(why("2d[9223372036854775807]").contains("too large"));
}

#[test]
fn compile_refuses_what_has_no_odds() {
    let e = compile("kind unit { spi: 0..6 }").unwrap_err();
    assert_eq!(e[0].code, "mettle::odds::not_an_expression");
    assert_eq!(compile("foo + 2").unwrap_err()[0].code, "mettle::resolve::unknown_name");
    assert_eq!(compile("\"hi\"").unwrap_err()[0].code, "mettle::resolve::text_value");
    assert!(compile("2d6 >= 8").unwrap().is_flag());
    assert!(!compile("2d6 + 1").unwrap().is_flag());
}
