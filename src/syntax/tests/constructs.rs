//! Every construct of the language parses into the tree it should.

use super::*;

// ---------------------------------------------------------------- the example

#[test]
fn example_parses_cleanly() {
    let file = ok(EXAMPLE);
    assert_eq!(file.title.as_ref().map(|t| t.0.as_str()), Some("Infinite Frontiers"));
    assert_eq!(file.items.len(), 14);
    assert_eq!(file.items[0].doc.as_deref(), Some("A side."));
    assert_eq!(&EXAMPLE[file.items[0].span.start..file.items[0].span.end][..9], "kind side");
    assert!(matches!(file.items.last().map(|i| &i.kind), Some(ItemKind::Script(s)) if s.is_file));
}

#[test]
fn example_trigger_and_scenario() {
    let file = ok(EXAMPLE);
    let body = |i: usize| match &file.items[i].kind {
        ItemKind::Trigger(t) => show_stmts(&t.body),
        ItemKind::Scenario(s) => show_stmts(&s.body),
        other => panic!("{other:?}"),
    };
    assert!(body(8).starts_with("roll morale for unit spi=unit.spi leadership=leadership; let loss "));
    assert!(body(11).ends_with("expect (if y.comms 1 (Eq 0 0))"));
}

// ---------------------------------------------------------------- items

#[test]
fn header_and_docs() {
    assert_eq!(ok("/// a\n///b\n///  c\nresult w").items[0].doc.as_deref(), Some("a\nb\n c"));
    assert_eq!(ok("/// t\r\nruleset \"T\"\r\nresult w\r\n").title.map(|t| t.0), Some("T".into()));
    assert!(ok("result w\n/// trailing").items[0].doc.is_none());
}

#[test]
fn kind_fields() {
    assert_eq!(
        fields("ap: 0..6 = 0\n units: 0.. = 0"),
        ["ap: Some(0)..Some(6) = 0", "units: Some(0)..None = 0"]
    );
    assert_eq!(fields("/// Spirit\nspi: 0..6 = 3, strict"), ["/Spirit/ spi: Some(0)..Some(6) = 3 strict"]);
    assert_eq!(fields("comms: flag = no, label: int"), ["comms: flag = no", "label: None..None"]);
    assert_eq!(
        fields("m: steady | shaken = steady side: side"),
        ["m: steady|shaken = steady", "side: <side>"]
    );
    assert_eq!(fields("t: -3..-1"), ["t: Some(-3)..Some(-1)"]);
}

#[test]
fn ladder_rungs() {
    let ItemKind::Ladder(l) = item("ladder d { simple = 3  routine = 7, hard }") else { panic!() };
    let rungs: Vec<String> =
        l.rungs.iter().map(|(n, e)| format!("{}{}", n.name, opt("=", e.as_ref()))).collect();
    assert_eq!(rungs, ["simple=3", "routine=7", "hard"]);
}

#[test]
fn events() {
    let ItemKind::Event(e) = item("event damaged(unit: unit, hp: 0..99, l: 0..3 = 0)") else { panic!() };
    assert_eq!(
        e.facts.iter().map(show_field).collect::<Vec<_>>(),
        ["unit: <unit>", "hp: Some(0)..Some(99)", "l: Some(0)..Some(3) = 0"]
    );
    assert!(matches!(item("event turn_over"), ItemKind::Event(e) if e.facts.is_empty()));
}

#[test]
fn defines() {
    let ItemKind::Define(d) = item("define tn(markers: 0..) = 6 + triangular(markers)") else { panic!() };
    assert_eq!((d.params.len(), show(&d.body)), (1, "(Add 6 triangular(markers))".into()));
}

#[test]
fn tables() {
    let table = &EXAMPLE[EXAMPLE.find("table").unwrap_or(0)..EXAMPLE.find("check morale").unwrap_or(0)];
    let ItemKind::Table(t) = item(table) else { panic!() };
    assert_eq!(t.params.iter().map(|p| p.name.name.as_str()).collect::<Vec<_>>(), ["roll", "calm"]);
    assert_eq!(t.result.as_ref().map(show_type).as_deref(), Some("flee|surrender"));
    let rows: Vec<String> = t
        .rows
        .iter()
        .map(|r| format!("{:?}: {}", r.keys.iter().map(|k| &k.kind).collect::<Vec<_>>(), show(&r.value)))
        .collect();
    assert_eq!(
        rows,
        ["[Range(Some(2), Some(6)), Any]: flee", "[Range(Some(7), None), Bool(true)]: surrender", "[]: flee"]
    );
    let ItemKind::Table(t) = item("table t(a: int, b: x|y) { -1, y: 2, ..0, _: 3 }") else { panic!() };
    assert_eq!(
        format!("{:?}", t.rows[0].keys.iter().map(|k| &k.kind).collect::<Vec<_>>()),
        r#"[Int(-1), Name(Ident { name: "y", span: Span { start: 30, end: 31 } })]"#
    );
}

#[test]
fn check_lines() {
    assert_eq!(
        check("input spi: 0..6\ninput l: 0..3 = 0"),
        ["input spi: Some(0)..Some(6)", "input l: Some(0)..Some(3) = 0"]
    );
    assert_eq!(check("roll d6 as natural\nroll 2d6"), ["roll [d6] as natural", "roll [2d6]"]);
    assert_eq!(check("modifier \"Spirit\" +spi"), ["modifier \"Spirit\" spi"]);
    assert_eq!(
        check("modifier \"L\" +l dice when l > 0 max 2"),
        ["modifier \"L\" l dice when (Gt l 0) max 2"]
    );
    assert_eq!(
        check("modifier \"S\" -1 die when u.m is shaken"),
        ["modifier \"S\" (Neg 1) dice when (Is u.m shaken)"]
    );
    assert_eq!(check("target 7\nlet s = count(dice, 6)"), ["target 7", "let s count(dice, 6)"]);
    assert_eq!(check("outcome b when n == 1 { set u.m to b }"), ["outcome b when (Eq n 1) {set u.m b}"]);
    assert_eq!(
        check("otherwise shaken\notherwise x { note \"n\" }"),
        ["otherwise shaken {}", "otherwise x {note \"n\"}"]
    );
    assert_eq!(
        check("group pass = holds, steady\ngroup fail = x"),
        ["group pass = holds, steady", "group fail = x"]
    );
    let ItemKind::Check(c) = item("check morale for unit { /// the die\nroll d6 }") else { panic!() };
    assert_eq!(
        (c.subject.map(|s| s.name), c.lines[0].doc.as_deref()),
        (Some("unit".into()), Some("the die"))
    );
}

#[test]
fn triggers_results_scenarios() {
    let ItemKind::Trigger(t) = item("on damaged when hp * 2 >= 3 { }") else { panic!() };
    assert_eq!(
        (t.event.name.as_str(), t.when.as_ref().map(show)),
        ("damaged", Some("(Ge (Mul hp 2) 3)".into()))
    );
    assert!(
        matches!(item("result win \"Victory\""), ItemKind::Result(r) if r.label.as_ref().is_some_and(|l| l.0 == "Victory"))
    );
    assert!(matches!(item("result draw"), ItemKind::Result(r) if r.label.is_none()));
    assert!(
        matches!(item("scenario s \"T\" { dice 1 }"), ItemKind::Scenario(s) if s.title.is_some() && s.body.len() == 1)
    );
}

#[test]
fn scripts_keep_raw_text() {
    let text = "script { fn f(x) { if x { 1 } else { 2 } } }";
    let ItemKind::Script(s) = item(text) else { panic!() };
    assert_eq!((s.source.0.as_str(), s.is_file), (" fn f(x) { if x { 1 } else { 2 } } ", false));
    assert_eq!(&text[s.source.1.start..s.source.1.end], s.source.0);
    let ItemKind::Script(s) = item("script \"extra.rhai\"") else { panic!() };
    assert_eq!((s.source.0.as_str(), s.source.1, s.is_file), ("extra.rhai", Span::new(8, 18), true));
}

// ---------------------------------------------------------------- statements

#[test]
fn statements() {
    assert_eq!(st("set u.m to b\nset u.c to yes for next round"), "set u.m b; set u.c yes NextRound");
    assert_eq!(
        st("set a to b until end of turn set a to b until end of round"),
        "set a b EndOfTurn; set a b EndOfRound"
    );
    assert_eq!(st("add 1 to u.side.ap remove loss from u.ap"), "add 1 u.side.ap; remove loss u.ap");
    assert_eq!(
        st("roll morale for unit with spi = unit.spi, l = l"),
        "roll morale for unit spi=unit.spi l=l"
    );
    assert_eq!(st("roll morale"), "roll morale");
    assert_eq!(
        st("if a { note \"x\" } else if b { } else { let c = 1 }"),
        "if a {note \"x\"} {if b {} {let c 1}}"
    );
    assert_eq!(st("for each unit u where u.s == s { }"), "each unit u where (Eq u.s s) {}");
    assert_eq!(st("trigger t trigger d(unit: y, hp: 3)"), "trigger t; trigger d unit=y hp=3");
    assert_eq!(st("choose s \"Q?\" from yes | no default no"), "choose s \"Q?\" yes|no default no");
    assert_eq!(st("choose w \"Q\" from unit u where u.s > 1"), "choose w \"Q\" unit u where (Gt u.s 1)");
    assert_eq!(st("choose w \"Q\" from flee | surrender"), "choose w \"Q\" flee|surrender");
    assert_eq!(
        st("choose n \"Q\" from 0..20 default 0"),
        "choose n \"Q\" Range { lo: Some(0), hi: Some(20) } default 0"
    );
    assert_eq!(st("choose n \"Q\" from -2.."), "choose n \"Q\" Range { lo: Some(-2), hi: None }");
    assert_eq!(st("end game with draw end game with win for u.side"), "end draw; end win for u.side");
    assert_eq!(
        st("repeat { add 1 to x } until x >= 3 or last m is s"),
        "repeat {add 1 x} (Or (Ge x 3) (Is (last m) s))"
    );
    assert_eq!(st("new side a new unit y with side = a, spi = 3"), "new side a; new unit y side=a spi=3");
    assert_eq!(st("dice 4, 1, -2 answer spend = yes"), "dice [4, 1, -2]; answer spend yes");
    assert_eq!(
        st("expect y.m is s, \"hold\" expect last m.total == 8"),
        "expect (Is y.m s) \"hold\"; expect (Eq (last m).total 8)"
    );
}

#[test]
fn chances_and_records() {
    assert_eq!(st("with chance 1/3 { note \"a\" }"), "chance 1/3 {note \"a\"} {}");
    assert_eq!(st("with chance 4 / 7 { } otherwise { add 1 to x }"), "chance 4/7 {} {add 1 x}");
    assert_eq!(st("with chance -1/3 { }"), "chance -1/3 {} {}");
    assert_eq!(st("record \"turns taken\" = turn + 1"), "record \"turns taken\" (Add turn 1)");
    // `chance` and `record` are not reserved: they still name things.
    assert_eq!(st("let chance = 1 let record = chance"), "let chance 1; let record chance");
    // `var` is not reserved either: it starts a statement, and still names things.
    assert_eq!(st("var n = 0 add 1 to n set n to var"), "var n 0; add 1 n; set n var");
}

// ---------------------------------------------------------------- expressions

#[test]
fn precedence() {
    assert_eq!(ex("1 + 2 * 3 - 4 / 5"), "(Sub (Add 1 (Mul 2 3)) (Div 4 5))");
    assert_eq!(ex("a or b and c"), "(Or a (And b c))");
    assert_eq!(ex("not a == b and c"), "(And (Not (Eq a b)) c)");
    assert_eq!(ex("a + 1 >= b * 2"), "(Ge (Add a 1) (Mul b 2))");
    assert_eq!(ex("a < b == c"), "(Eq (Lt a b) c)");
    assert_eq!(ex("-a * +b"), "(Mul (Neg a) b)");
    assert_eq!(ex("-a.b.c"), "(Neg a.b.c)");
    assert_eq!(ex("a - b - c"), "(Sub (Sub a b) c)");
    assert_eq!(ex("x is not broken and y is s"), "(And (IsNot x broken) (Is y s))");
    assert_eq!(ex("a != b or a <= b or a > b"), "(Or (Or (Ne a b) (Le a b)) (Gt a b))");
    assert_eq!(ex("(1 + 2) * 3"), "(Mul (Add 1 2) 3)");
    assert_eq!(ex("not not a"), "(Not (Not a))");
}

#[test]
fn primaries() {
    assert_eq!(ex("yes"), "yes");
    assert_eq!(ex("none"), "none");
    assert_eq!(ex("\"hi\""), "\"hi\"");
    assert_eq!(ex("if y.c then 1 else 0 == 0"), "(if y.c 1 (Eq 0 0))");
    assert_eq!(ex("last morale.total"), "(last morale).total");
    assert_eq!(ex("number of unit v where v.spi > 2"), "(number unit v where (Gt v.spi 2))");
    assert_eq!(
        ex("count(dice, 6) + count(dice, >= 6, < 2, = 1)"),
        "(Add count(dice, 6) count(dice, Ge 6, Lt 2, Eq 1))"
    );
    assert_eq!(ex("f()"), "f()");
    assert_eq!(
        ex("max(u.ld for each unit u where u.able else 0) + 1"),
        "(Add (max u.ld each unit u where u.able else 0) 1)"
    );
    assert_eq!(ex("count(each unit u)"), "(count each unit u)");
    assert_eq!(ex("any(each unit u where u.broken)"), "(any each unit u where u.broken)");
    assert_eq!(ex("sum(d6 for each unit u)"), "(sum [d6] each unit u)");
    // Without `for each` it is still a call.
    assert_eq!(ex("max(a, b)"), "max(a, b)");
    assert_eq!(ex("count(dice, 6)"), "count(dice, 6)");
    assert_eq!(ex("number + roll"), "(Add number roll)");
}

#[test]
fn dice_notation() {
    assert_eq!(ex("2d6 + d6"), "(Add [2d6] [d6])");
    assert_eq!(ex("(leadership + 1)d6kh1"), "[(Add leadership 1)d6 KeepHighest(1)]");
    assert_eq!(ex("d[0,0,1]"), "[d[0, 0, 1]]");
    assert_eq!(ex("d(2 + 1)"), "[d(Add 2 1)]");
    assert_eq!(ex("4d6dl1 + 4d6dh2"), "(Add [4d6 DropLowest(1)] [4d6 DropHighest(2)])");
    assert_eq!(ex("4d6k3 + 4d6kl1"), "(Add [4d6 KeepHighest(3)] [4d6 KeepLowest(1)])");
    assert_eq!(ex("3d6x + 3d6x>=5"), "(Add [3d6 Explode(Ge, None)] [3d6 Explode(Ge, Some(5))])");
    assert_eq!(ex("2d6r1 + 2d6r<3"), "(Add [2d6 Reroll(Eq, 1)] [2d6 Reroll(Lt, 3)])");
    assert_eq!(ex("2d6ro1 + 2d6ro<=2"), "(Add [2d6 RerollOnce(Eq, 1)] [2d6 RerollOnce(Le, 2)])");
    assert_eq!(
        ex("10d6cs>=5 + 2d6cs6 + d6cs=6"),
        "(Add (Add [10d6 CountSuccesses(Ge, 5)] [2d6 CountSuccesses(Eq, 6)]) [d6 CountSuccesses(Eq, 6)])"
    );
    assert_eq!(ex("4d6kh3x"), "[4d6 KeepHighest(3) Explode(Ge, None)]");
    assert!(parse_repl("(x) d6").is_err());
}

#[test]
fn spans() {
    let Ok(ReplInput::Expr(e)) = parse_repl("-(a + b) * 2d6") else { panic!() };
    assert_eq!(e.span, Span::new(0, 14));
    let ExprKind::Binary(_, lhs, rhs) = e.kind else { panic!() };
    assert_eq!((lhs.span, rhs.span), (Span::new(0, 8), Span::new(11, 14)));
    let file = ok("/// doc\nkind a { x: int = 1 }");
    let ItemKind::Kind(k) = &file.items[0].kind else { panic!() };
    assert_eq!(
        (file.items[0].span, k.name.span, k.fields[0].span),
        (Span::new(8, 29), Span::new(13, 14), Span::new(17, 27))
    );
}

#[test]
fn data_literals_follow_and_expect_order() {
    let ItemKind::Scenario(s) = item(
        "scenario s { trigger go(seen: {friends: [{name: \"orc\", distance: 4, hurt: no}], cover: [], n: -2})\n\
         follow react(u, 1)\n expect order \"flee\"\n expect not order \"surrender\", \"too proud\" }",
    ) else {
        panic!()
    };
    assert_eq!(
        show_stmts(&s.body),
        "trigger go seen=data {\"cover\":[],\"friends\":[{\"distance\":4,\"hurt\":false,\"name\":\"orc\"}],\"n\":-2}; \
         follow react(u, 1); expect order \"flee\"; expect not order \"surrender\" \"too proud\""
    );
}

#[test]
fn reactions_orders_and_choices_from_lists() {
    assert_eq!(
        ex("nearest f in s.friends where not f.in_combat"),
        "(nearest f in s.friends where (Not f.in_combat))"
    );
    assert_eq!(ex("nearest f in s.friends by turns"), "(nearest f in s.friends by turns)");
    assert_eq!(
        ex("first c in s.cover where c.reachable and c.near"),
        "(first c in s.cover where (And c.reachable c.near))"
    );
    assert_eq!(st("order \"move towards {f.name}\""), "order \"move towards {f.name}\"");
    let ItemKind::Reaction(r) = item("reaction join(f: friend, shoots: flag) { follow go(f.name) }") else {
        panic!("a reaction")
    };
    assert_eq!((r.name.name.as_str(), r.params.len(), r.body.len()), ("join", 2, 1));
    // `nearest`, `first`, `in`, `by` and `reaction` are not reserved.
    assert_eq!(
        ex("first + nearest + by + in + reaction"),
        "(Add (Add (Add (Add first nearest) by) in) reaction)"
    );
}
