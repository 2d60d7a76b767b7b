//! Parser tests: one line each, through the helpers at the top.

use super::*;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

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

fn show(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Bool(b) => if *b { "yes" } else { "no" }.into(),
        ExprKind::None => "none".into(),
        ExprKind::Str(s) => format!("{s:?}"),
        ExprKind::Name(n) => n.name.clone(),
        ExprKind::Field(e, f) => format!("{}.{}", show(e), f.name),
        ExprKind::Call(f, args) => {
            let args: Vec<String> = args
                .iter()
                .map(|a| match a {
                    Arg::Expr(e) => show(e),
                    Arg::Cmp(c, e, _) => format!("{c:?} {}", show(e)),
                })
                .collect();
            format!("{}({})", f.name, args.join(", "))
        }
        ExprKind::Dice { count, sides, mods } => {
            let count = count.as_ref().map(|c| show(c)).unwrap_or_default();
            let sides = match sides {
                Sides::Count(n) => show(n),
                Sides::Faces(f) => format!("{:?}", f.iter().map(|f| f.0).collect::<Vec<_>>()),
            };
            let mods: String = mods.iter().map(|m| format!(" {:?}", m.0)).collect();
            format!("[{count}d{sides}{mods}]")
        }
        ExprKind::Binary(op, a, b) => format!("({op:?} {} {})", show(a), show(b)),
        ExprKind::Unary(op, a) => format!("({op:?} {})", show(a)),
        ExprKind::If(c, a, b) => format!("(if {} {} {})", show(c), show(a), show(b)),
        ExprKind::Last(n) => format!("(last {})", n.name),
        ExprKind::NumberOf { kind, var, filter } => {
            format!("(number {} {}{})", kind.name, var.name, opt(" where ", filter.as_deref()))
        }
    }
}

fn opt(prefix: &str, e: Option<&Expr>) -> String {
    e.map(|e| format!("{prefix}{}", show(e))).unwrap_or_default()
}

fn args(args: &[(Ident, Expr)]) -> String {
    args.iter().map(|(n, e)| format!(" {}={}", n.name, show(e))).collect()
}

fn show_stmts(stmts: &[Stmt]) -> String {
    stmts.iter().map(show_stmt).collect::<Vec<_>>().join("; ")
}

fn show_stmt(s: &Stmt) -> String {
    match &s.kind {
        StmtKind::Set { place, value, until } => {
            format!(
                "set {} {}{}",
                show(place),
                show(value),
                until.map(|u| format!(" {:?}", u.0)).unwrap_or_default()
            )
        }
        StmtKind::Add { amount, place } => format!("add {} {}", show(amount), show(place)),
        StmtKind::Remove { amount, place } => format!("remove {} {}", show(amount), show(place)),
        StmtKind::Let(n, e) => format!("let {} {}", n.name, show(e)),
        StmtKind::Roll { check, subject, args: a } => {
            format!("roll {}{}{}", check.name, opt(" for ", subject.as_ref()), args(a))
        }
        StmtKind::If { cond, then, otherwise } => {
            format!("if {} {{{}}} {{{}}}", show(cond), show_stmts(then), show_stmts(otherwise))
        }
        StmtKind::ForEach { kind, var, filter, body } => {
            format!(
                "each {} {}{} {{{}}}",
                kind.name,
                var.name,
                opt(" where ", filter.as_ref()),
                show_stmts(body)
            )
        }
        StmtKind::Trigger { event, args: a } => format!("trigger {}{}", event.name, args(a)),
        StmtKind::Choose(c) => {
            let options = match &c.options {
                ChoiceOptions::Names(n) => n.iter().map(|n| n.name.as_str()).collect::<Vec<_>>().join("|"),
                ChoiceOptions::Entities { kind, var, filter } => {
                    format!("{} {}{}", kind.name, var.name, opt(" where ", filter.as_ref()))
                }
            };
            format!(
                "choose {} {:?} {options}{}",
                c.name.name,
                c.question.0,
                opt(" default ", c.default.as_ref())
            )
        }
        StmtKind::EndGame { result, winner } => {
            format!("end {}{}", result.name, opt(" for ", winner.as_ref()))
        }
        StmtKind::Note(n) => format!("note {n:?}"),
        StmtKind::Repeat { body, until } => format!("repeat {{{}}} {}", show_stmts(body), show(until)),
        StmtKind::New { kind, name, with } => format!("new {} {}{}", kind.name, name.name, args(with)),
        StmtKind::Dice(d) => format!("dice {:?}", d.iter().map(|d| d.0).collect::<Vec<_>>()),
        StmtKind::Answer { choice, value } => format!("answer {} {}", choice.name, show(value)),
        StmtKind::Expect { cond, message } => {
            format!(
                "expect {}{}",
                show(cond),
                message.as_ref().map(|m| format!(" {m:?}")).unwrap_or_default()
            )
        }
    }
}

fn show_type(t: &TypeExpr) -> String {
    match &t.kind {
        TypeKind::Range { lo, hi } => format!("{lo:?}..{hi:?}"),
        TypeKind::Flag => "flag".into(),
        TypeKind::Names(n) => n.iter().map(|n| n.name.as_str()).collect::<Vec<_>>().join("|"),
        TypeKind::Named(n) => format!("<{}>", n.name),
    }
}

fn show_field(f: &Field) -> String {
    let strict = if f.strict { " strict" } else { "" };
    let doc = f.doc.as_ref().map(|d| format!("/{d}/ ")).unwrap_or_default();
    format!("{doc}{}: {}{}{strict}", f.name.name, show_type(&f.ty), opt(" = ", f.default.as_ref()))
}

fn show_line(l: &CheckLine) -> String {
    match &l.kind {
        CheckLineKind::Input(f) => format!("input {}", show_field(f)),
        CheckLineKind::Roll { dice, name } => {
            format!(
                "roll {}{}",
                show(dice),
                name.as_ref().map(|n| format!(" as {}", n.name)).unwrap_or_default()
            )
        }
        CheckLineKind::Modifier(m) => format!(
            "modifier {:?} {}{}{}{}",
            m.label.0,
            show(&m.amount),
            if m.dice { " dice" } else { "" },
            opt(" when ", m.when.as_ref()),
            opt(" max ", m.cap.as_ref())
        ),
        CheckLineKind::Target(e) => format!("target {}", show(e)),
        CheckLineKind::Let(n, e) => format!("let {} {}", n.name, show(e)),
        CheckLineKind::Outcome(o) => format!(
            "{} {}{} {{{}}}",
            if o.otherwise { "otherwise" } else { "outcome" },
            o.name.name,
            opt(" when ", o.when.as_ref()),
            show_stmts(&o.body)
        ),
    }
}

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

// ---------------------------------------------------------------- errors

#[test]
fn error_wording() {
    assert_eq!(message("on damaged foo {"), "expected `{` or `when`, found `foo`");
    assert_eq!(message("kind side { ap 0..6 }"), "expected `:`, found `0`");
    assert_eq!(
        message("kind side { ap: }"),
        "expected a type such as `0..6`, `flag` or a kind's name, found `}`"
    );
    assert_eq!(message("on x { set y 5 }"), "expected `to` or an operator, found `5`");
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
    assert_eq!(message("on x { let a = (1 + 2 }"), "expected `)` or an operator, found `}`");
}

#[test]
fn error_labels_and_help() {
    assert_eq!(help("kind to { }"), "`to` is a keyword and cannot be used as a name; choose another name");
    assert_eq!(error("kind to { }").span(), Span::new(5, 7));
    assert_eq!(help("on x when a = 1 { }"), "to compare two values, write `==`");
    assert_eq!(help("rezult x"), "did you mean `result`?");
    assert_eq!(help("on x { sett a to b }"), "did you mean `set`?");
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
    assert_eq!(help("result w \"abc"), "this string is not closed: end it with `\"` on the same line");
    let unclosed = error("kind a {\n  ap: int\n");
    assert_eq!(
        (unclosed.span(), unclosed.labels[1].span, unclosed.labels[1].text.as_str()),
        (Span::new(19, 19), Span::new(7, 8), "this `{` is never closed")
    );
    assert_eq!(error("kind a {\n  ap: int\n").help.as_deref(), Some("add the missing `}`"));
}

#[test]
fn recovery_reports_every_broken_item() {
    let text =
        "kind side { ap: 0..6 }\nrezult x\nkind b { c: int }\nkind to {}\nkind c {\n  d: int\nresult r\n";
    let (file, diags) = parse(text);
    let found: Vec<&str> = diags.iter().map(|d| &text[d.span().start..d.span().end]).collect();
    assert_eq!(found, ["rezult", "to", "result"]);
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
    assert_eq!(
        help("kind none { }"),
        "`none` is a keyword and cannot be used as a name; choose another name"
    );
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
    assert_eq!(first("set y.spi 2"), "expected `to` or an operator, found `2`");
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
    let alphabet: Vec<char> = "(){}[]\"/.:,=<>!+-*|_ \nxdkhlrocs0123456789é\r\t".chars().collect();
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
