//! Syntax errors, recovery, limits, the REPL, and inputs that must not panic.

use super::*;

// ---------------------------------------------------------------- errors

#[test]
fn error_wording() {
    assert_eq!(message("on damaged foo {"), "expected `{` or `when`, found `foo`");
    assert_eq!(message("kind side { ap 0..6 }"), "expected `:`, found `0`");
    assert_eq!(
        message("kind side { ap: }"),
        "expected a type such as `0..6`, `flag` or a kind's name, found `}`"
    );
    assert_eq!(message("on x { set y 5 }"), "expected `to` or an operator such as `+` or `and`, found `5`");
    assert_eq!(
        message("on x { frob }"),
        "expected `}` or a statement such as `set`, `add`, `roll`, `if`…, found `frob`"
    );
    assert_eq!(
        message("frob"),
        "expected a top-level item such as `kind`, `check`, `on`, `scenario`…, found `frob`"
    );
    assert_eq!(
        message("check c { frob }"),
        "expected `}` or a check line such as `input`, `roll`, `modifier`, `target`, `let`, `outcome` or `otherwise`, found `frob`"
    );
    assert_eq!(message("define f(x: int) = "), "expected an expression, found end of file");
    assert_eq!(message("on x { set a to b until end }"), "expected `of`, found `}`");
    assert_eq!(message("event e(a)"), "expected `:`, found `)`");
    assert_eq!(
        message("on x { let a = (1 + 2 }"),
        "expected `)` or an operator such as `+` or `and`, found `}`"
    );
}

#[test]
fn error_labels_and_help() {
    assert!(
        help("kind to { }")
            .starts_with("choose another name, such as `to_`; these words are reserved: add, and,")
    );
    assert_eq!(error("kind to { }").span(), Span::new(5, 7));
    assert_eq!(help("on x when a = 1 { }"), "to compare two values, write `==`");
    assert_eq!(help("rezult x"), "did you mean `result`?");
    assert_eq!(help("on x { sett a to b }"), "did you mean `set`?");
    assert_eq!(
        help("on x { with chance 30 { } }"),
        "write the chance as a fraction, as in `with chance 1/3 { … }`"
    );
    assert_eq!(
        help("on x { with chanse 1/3 { } }"),
        "write the chance as a fraction, as in `with chance 1/3 { … }`"
    );
    assert_eq!(
        help("on x { set a b }"),
        "write `to` before the value, as in `set unit.morale to shaken` or `add 1 to side.ap`"
    );
    assert_eq!(
        help("kind a { x: int; }"),
        "mettle needs no `;` between fields, lines or statements: remove it"
    );
    assert_eq!(
        help("define f() = 3d6kh\n"),
        "dice modifiers take a number, as in `4d6kh3`, `2d6r1` or `10d6cs>=5`"
    );
    assert_eq!(message("define f() = 3d6kh\n"), "expected a number, found end of line");
    assert_eq!(
        help("define f() = 2d x"),
        "write the sides right after the `d`, as in `2d6`, `d(n)` or `d[0,1,2]`"
    );
    assert_eq!(help("event e(a)"), "write a `:` between a name and its type, as in `spi: 0..6`");
    assert_eq!(help("result w \"abc"), "end it with `\"` on the same line");
    let unclosed = error("kind a {\n  ap: int\n");
    assert_eq!(
        (unclosed.span(), unclosed.labels[0].text.as_str()),
        (Span::new(7, 8), "this `{` is never closed")
    );
    assert_eq!(unclosed.message, "a `}` is missing: the `{` on line 1 is never closed");
    assert_eq!(unclosed.help.as_deref(), Some("add the missing `}` at the end of the block"));
    // A brace that is closed is never blamed, even when a keyword stops the parse inside it.
    let keyword = error("check c {\n  roll d6 as result\n  otherwise x\n}\n");
    assert_eq!(keyword.labels.len(), 1, "{keyword:?}");
    // A `(` left open is still pointed at; one that is closed is not.
    assert_eq!(error("define f() = (1 + 2").labels[1].text, "this `(` is never closed");
}

#[test]
fn recovery_reports_every_broken_item() {
    let text =
        "kind side { ap: 0..6 }\nrezult x\nkind b { c: int }\nkind to {}\nkind c {\n  d: int\nresult r\n";
    let (file, diags) = parse(text);
    let found: Vec<&str> = diags.iter().map(|d| &text[d.span().start..d.span().end]).collect();
    // The third is the `{` of `kind c`, which is never closed.
    assert_eq!(found, ["rezult", "to", "{"]);
    assert_eq!(
        file.items
            .iter()
            .filter_map(|i| match &i.kind {
                ItemKind::Kind(k) => Some(k.name.name.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>(),
        ["side", "b"]
    );
    assert_eq!(file.items.len(), 3);
    assert_eq!(
        errors("ruleset \"x\"\nkind a {}\nruleset \"y\"\n"),
        [
            "expected a top-level item such as `kind`, `check`, `on`, `scenario`… or end of file, found `ruleset`"
        ]
    );
    assert_eq!(ok("ruleset \"x\"\nkind a {}").title.map(|t| t.0), Some("x".into()));
}

#[test]
fn numbers_out_of_range() {
    let d = error("define f(x: int) = 99999999999999999999 + 1");
    assert_eq!((d.code.as_str(), d.span()), ("mettle::parse::bad_number", Span::new(19, 39)));
    assert_eq!(error("kind a { x: 0..99999999999999999999 }").code, "mettle::parse::bad_number");
    assert_eq!(error("define f() = 4d6kh99999999999").code, "mettle::parse::bad_number");
    assert_eq!(errors("define f() = 9223372036854775807 + d[-9223372036854775808]").len(), 0);
}

// ---------------------------------------------------------------- limits

#[test]
fn deep_brackets_are_refused_quickly() {
    let start = std::time::Instant::now();
    let (file, diags) = parse(&"(".repeat(100_000));
    assert!(file.items.is_empty());
    assert_eq!(
        (diags.len(), diags[0].code.as_str(), diags[0].span()),
        (1, "mettle::parse::too_deep", Span::new(64, 65))
    );
    assert_eq!(diags[0].help.as_deref(), Some("split this into smaller expressions or let-bindings"));
    assert!(parse_repl(&"[{(".repeat(30_000)).is_err());
    assert!(start.elapsed().as_secs() < 2);
}

#[test]
fn deep_but_allowed_brackets_parse() {
    let e = format!("define f() = {}1{}", "(".repeat(64), ")".repeat(64));
    assert!(parse(&e).1.is_empty());
    assert_eq!(
        error(&format!("define f() = {}1{}", "(".repeat(65), ")".repeat(65))).code,
        "mettle::parse::too_deep"
    );
}

#[test]
fn deep_without_brackets_is_refused() {
    let too_deep = |text: String| parse(&text).1.iter().any(|d| d.code == "mettle::parse::too_deep");
    assert!(too_deep(format!("define f() = {}1", "-".repeat(20_000))));
    assert!(too_deep(format!("define f() = {}1", "not ".repeat(5_000))));
    assert!(too_deep(format!("define f() = 1{}", " + 1".repeat(5_000))));
    assert!(too_deep(format!("define f() = a{}", ".b".repeat(5_000))));
    assert!(too_deep(format!("define f() = {}1{}", "if a then ".repeat(20_000), " else 2".repeat(20_000))));
    assert!(too_deep(format!("on e {{ {} }}", "if a { } else ".repeat(1_000) + "{ }")));
    assert!(too_deep(format!(
        "define f() = 1 + number of u v where {}",
        "number of u v where ".repeat(1_000)
    )));
    assert!(too_deep(format!("define f() = {}1{}", "sum(".repeat(1_000), " for each u v)".repeat(1_000))));
    assert!(!too_deep(format!("define f() = 1{}", " + 1".repeat(200))));
}

#[test]
fn nesting_limits_fit_in_one_mib_of_stack() {
    let cases = |n: usize| {
        [
            format!("define f() = {}1{}", "if a then ".repeat(n), " else 2".repeat(n)),
            format!("define f() = {}1", "number of u v where ".repeat(n)),
            format!("on e {{ {} }}", "if a { } else ".repeat(n) + "{ }"),
            // Three levels per bracket: the argument, the `then` branch and the `-`.
            format!("define f() = {}1{}", "f(if a then -".repeat(n / 3), " else 2)".repeat(n / 3)),
            format!("on e {{ {}{} }}", "if a { ".repeat(n.min(63)), "}".repeat(n.min(63))),
            format!("define f() = {}1", "not - ".repeat(n)),
        ]
    };
    let run = |n: usize| {
        let texts = cases(n);
        let small = std::thread::Builder::new().stack_size(1 << 20);
        let handle = small.spawn(move || texts.iter().map(|t| parse(t).1.len()).collect::<Vec<_>>());
        handle.map(|h| h.join().unwrap_or_default()).unwrap_or_default()
    };
    assert_eq!(run(120), [0, 0, 0, 0, 0, 1]);
    assert_eq!(run(300), [1, 1, 1, 1, 0, 1]);
}

#[test]
fn keywords() {
    assert!(errors::is_keyword("to") && errors::is_keyword("none") && errors::is_keyword("no"));
    assert!(!errors::is_keyword("roll") && !errors::is_keyword("nothing") && !errors::is_keyword("to_do"));
    assert!(
        help("kind none { }").starts_with("choose another name, such as `none_`; these words are reserved:")
    );
    // The list in the help is the grammar's: every word in it is reserved, and `result` is listed.
    let listed = help("kind result { }");
    let words = listed.split("reserved: ").nth(1).expect("a list of words");
    assert!(words.split(", ").all(errors::is_keyword), "{words}");
    assert_eq!(words.split(", ").count(), 44);
    assert!(words.contains("result"));
}

// ---------------------------------------------------------------- the REPL

#[test]
fn repl_readings() {
    assert!(matches!(parse_repl("kind unit { spi: 0..6 }"), Ok(ReplInput::Items(i)) if i.len() == 1));
    assert!(matches!(parse_repl(""), Ok(ReplInput::Items(i)) if i.is_empty()));
    assert!(matches!(parse_repl("set y.spi to 2 add 1 to y.spi"), Ok(ReplInput::Stmts(s)) if s.len() == 2));
    assert!(matches!(parse_repl("2d6 + 1"), Ok(ReplInput::Expr(_))));
    let first = |t: &str| parse_repl(t).unwrap_err()[0].message.clone();
    assert_eq!(first("2d6 +"), "expected an expression, found end of file");
    assert_eq!(first("set y.spi 2"), "expected `to` or an operator such as `+` or `and`, found `2`");
    assert_eq!(
        first(")"),
        "expected an expression, a statement such as `set`, `add`, `roll`, `if`… or a top-level item such as `kind`, `check`, `on`, `scenario`…, found `)`"
    );
    assert_eq!(parse_repl("99999999999999999999").unwrap_err()[0].code, "mettle::parse::bad_number");
}

#[test]
fn incomplete_input() {
    assert!(is_incomplete("on damaged {\n  set a to"));
    assert!(is_incomplete("count(dice"));
    assert!(is_incomplete("note \"abc"));
    assert!(!is_incomplete("on damaged { }"));
    assert!(!is_incomplete("note \"{\" // {"));
}

// ---------------------------------------------------------------- no input panics

/// A small deterministic generator, so that failures repeat.
fn lcg(seed: &mut u64) -> usize {
    *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (*seed >> 33) as usize
}

#[test]
fn truncations_never_panic() {
    for (i, _) in EXAMPLE.char_indices().step_by(41) {
        let _ = parse(&EXAMPLE[..i]);
        let _ = parse_repl(&EXAMPLE[i..]);
        let _ = is_incomplete(&EXAMPLE[..i]);
    }
}

#[test]
fn random_edits_never_panic() {
    let alphabet: Vec<char> = "(){}[]\"/.:,=<>!+-*|_ \nxdkhlrocs0123456789é\r\t\u{a0}".chars().collect();
    let mut seed = 7;
    for _ in 0..60 {
        let mut text: Vec<char> = EXAMPLE.chars().collect();
        for _ in 0..1 + lcg(&mut seed) % 4 {
            let at = lcg(&mut seed) % text.len();
            text[at] = alphabet[lcg(&mut seed) % alphabet.len()];
        }
        let text: String = text.into_iter().collect();
        let (_, diags) = parse(&text);
        for d in diags {
            assert!(d.span().end <= text.len() && text.is_char_boundary(d.span().start), "{d:?}");
        }
    }
    for _ in 0..300 {
        let len = lcg(&mut seed) % 40;
        let bytes: Vec<u8> = (0..len).map(|_| lcg(&mut seed) as u8).collect();
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse(&text);
        let _ = parse_repl(&text);
    }
}
