//! Golden tests for error messages: every file in `tests/inputs/bad/` shows one mistake a homebrewer
//! would make, and its rendered diagnostics are kept as an insta snapshot in `tests/snapshots/`.
//!
//! Each input's second line says what it must produce:
//! `// expect: error CODE`, `// expect: warning CODE` (loads, with that warning) or
//! `// expect: runtime CODE` (loads cleanly; running its scenarios stops with that error).
//!
//! To regenerate the snapshots after a deliberate change of wording:
//! `INSTA_UPDATE=always cargo test --test diagnostics`, then read every changed `.snap` file.

use mettle::diagnostics::{Diagnostic, RenderOptions, render};
use mettle::internals::RulesetInternals as _;
use mettle::{Ruleset, Session};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const WIDTH: usize = 80;

// ---------------------------------------------------------------- helpers

/// What an input file says it must produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    Error,
    Warning,
    Runtime,
}

/// One bad input: its file name (used in messages, so snapshots do not depend on the checkout's
/// path), its text and its `// expect:` line.
struct Case {
    name: String,
    text: String,
    expect: Expect,
    code: String,
}

fn inputs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs")
}

fn mettle_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "mettle"))
        .collect();
    files.sort();
    files
}

fn case(path: &Path) -> Case {
    let name = path.file_name().expect("file name").to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path).expect("readable input");
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("// expect: "))
        .unwrap_or_else(|| panic!("{name}: no `// expect: LEVEL CODE` line"));
    let (level, code) = line.split_once(' ').unwrap_or_else(|| panic!("{name}: bad expect line `{line}`"));
    let expect = match level {
        "error" => Expect::Error,
        "warning" => Expect::Warning,
        "runtime" => Expect::Runtime,
        other => panic!("{name}: unknown expectation `{other}`"),
    };
    let code = code.trim().to_string();
    Case { name, text, expect, code }
}

fn bad_cases() -> Vec<Case> {
    mettle_files(&inputs_dir().join("bad")).iter().map(|p| case(p)).collect()
}

/// Runs every scenario of a ruleset that loaded; returns the first runtime error.
fn first_runtime_error(rules: &Ruleset) -> Option<Diagnostic> {
    rules.program().scenarios.iter().find_map(|sc| Session::new(rules, 0).run_scenario(&sc.name).err())
}

/// The diagnostics a case produces, checked against its `// expect:` line.
fn diagnostics(c: &Case) -> Vec<Diagnostic> {
    let diags = match (Ruleset::from_str(&c.name, &c.text), c.expect) {
        (Err(e), Expect::Error) => e.diagnostics,
        (Err(e), _) => panic!("{}: expected it to load, but it failed:\n{}", c.name, e.render(WIDTH)),
        (Ok(_), Expect::Error) => panic!("{}: expected an error, but it loaded", c.name),
        (Ok(r), Expect::Warning) => r.warnings().to_vec(),
        (Ok(r), Expect::Runtime) => {
            let warnings =
                render(r.warnings(), &c.name, &c.text, &RenderOptions::default().with_width(WIDTH));
            assert!(r.warnings().is_empty(), "{}: unexpected warnings:\n{warnings}", c.name);
            let d = first_runtime_error(&r)
                .unwrap_or_else(|| panic!("{}: no scenario stopped with an error", c.name));
            vec![d]
        }
    };
    let codes: Vec<&str> = diags.iter().map(|d| d.code.as_str()).collect();
    assert!(codes.contains(&c.code.as_str()), "{}: expected {}, got {codes:?}", c.name, c.code);
    if c.expect == Expect::Warning {
        assert!(diags.iter().all(|d| !d.is_error()), "{}: warnings only expected", c.name);
    }
    diags
}

/// The first error of a one-line ruleset, or `None` when it loads.
fn first_code(text: &str) -> Option<String> {
    match Ruleset::from_str("t.mettle", text) {
        Ok(_) => None,
        Err(e) => e.diagnostics.into_iter().find(|d| d.is_error()).map(|d| d.code),
    }
}

/// Asserts that `text` fails with `code` as its first error.
#[track_caller]
fn fails(text: &str, code: &str) {
    assert_eq!(first_code(text).as_deref(), Some(code), "for {text:?}");
}

/// Asserts that `text` loads.
#[track_caller]
fn loads(text: &str) {
    if let Err(e) = Ruleset::from_str("t.mettle", text) {
        panic!("{text:?} did not load:\n{}", e.render(WIDTH));
    }
}

// ---------------------------------------------------------------- golden files

/// Each bad input's rendered diagnostics, as in the CLI without colour. Does what `insta::glob!`
/// does (one snapshot per file, named `diagnostics__bad@FILE.snap`, every mismatch listed at the
/// end) without insta's `glob` feature, which Cargo.toml does not enable.
#[test]
fn bad_inputs() {
    let cases = bad_cases();
    assert!(cases.len() >= 30, "only {} bad inputs", cases.len());
    let mut failed = vec![];
    for c in &cases {
        let outcome = std::panic::catch_unwind(|| {
            let rendered =
                render(&diagnostics(c), &c.name, &c.text, &RenderOptions::default().with_width(WIDTH));
            let mut settings = insta::Settings::clone_current();
            settings.set_snapshot_suffix(c.name.clone());
            settings.set_input_file(inputs_dir().join("bad").join(&c.name));
            settings.set_prepend_module_to_snapshot(true);
            settings.bind(|| insta::assert_snapshot!("bad", rendered));
        });
        if outcome.is_err() {
            failed.push(c.name.clone());
        }
    }
    assert!(failed.is_empty(), "{} input(s) failed: {}", failed.len(), failed.join(", "));
}

/// What a reader would miss in a diagnostic: a `mettle::` code, a message, help, a primary label
/// inside the text.
fn gaps(d: &Diagnostic, text: &str) -> Vec<String> {
    let mut out = vec![];
    if !d.code.starts_with("mettle::") {
        out.push(format!("code `{}` does not start with `mettle::`", d.code));
    }
    if d.message.trim().is_empty() {
        out.push(format!("{}: empty message", d.code));
    }
    if d.help.as_deref().is_none_or(|h| h.trim().is_empty()) {
        out.push(format!("{}: no help", d.code));
    }
    match d.labels.iter().find(|l| l.primary) {
        None => out.push(format!("{}: no primary label", d.code)),
        Some(l) => {
            let s = l.span;
            if s.start > s.end
                || s.end > text.len()
                || !text.is_char_boundary(s.start)
                || !text.is_char_boundary(s.end)
            {
                out.push(format!("{}: label {s:?} outside the text", d.code));
            }
        }
    }
    out
}

/// Fails on gaps not listed in `known`; says which listed ones are gone, so the list can shrink.
#[track_caller]
fn no_new_gaps(found: &[String], known: &[&str], what: &str) {
    let new: Vec<&String> = found.iter().filter(|f| !known.contains(&f.as_str())).collect();
    for fixed in known.iter().filter(|k| !found.iter().any(|f| f == *k)) {
        eprintln!("fixed, remove it from {what}: {fixed}");
    }
    assert!(new.is_empty(), "new gaps (fix the message, or list them in {what}): {new:#?}");
}

/// Gaps found in the library's messages and reported; remove a line when it is fixed.
const KNOWN_GAPS: &[&str] = &[];

/// Each bad input's first error (or first warning) is well formed: a `mettle::` code, help, and a
/// primary label inside the text.
#[test]
fn first_diagnostic_is_complete() {
    let mut found = vec![];
    for c in bad_cases() {
        let diags = diagnostics(&c);
        let d = diags.iter().find(|d| d.is_error()).or(diags.first()).expect("a diagnostic");
        found.extend(gaps(d, &c.text).into_iter().map(|g| format!("{}: {g}", c.name)));
    }
    no_new_gaps(&found, KNOWN_GAPS, "KNOWN_GAPS");
}

/// Good inputs load without warnings and all their scenarios pass.
#[test]
fn good_inputs() {
    for path in mettle_files(&inputs_dir().join("good")) {
        let name = path.file_name().expect("file name").to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).expect("readable input");
        let r = Ruleset::from_str(&name, &text).unwrap_or_else(|e| panic!("{}", e.render(WIDTH)));
        assert!(
            r.warnings().is_empty(),
            "{}",
            render(r.warnings(), &name, &text, &RenderOptions::default().with_width(WIDTH))
        );
        for sc in &r.program().scenarios {
            let rep = Session::new(&r, 0).run_scenario(&sc.name).unwrap_or_else(|d| {
                panic!(
                    "{name} :: {}\n{}",
                    sc.name,
                    render(&[d], &name, &text, &RenderOptions::default().with_width(WIDTH))
                )
            });
            assert!(rep.failures.is_empty(), "{name} :: {}: {:?}", sc.name, rep.failures);
        }
    }
}

// ---------------------------------------------------------------- one line per case

#[test]
fn syntax_variants() {
    fails("kind unit { spi: 0..6 = 3", "mettle::parse::syntax");
    fails("kind unit { spi 0..6 }", "mettle::parse::syntax");
    fails("kind { spi: 0..6 }", "mettle::parse::syntax");
    fails("check c { roll 2d6 outcome a when total >= 7 otherwise b", "mettle::parse::syntax");
    fails("check c { roll 2d outcome a otherwise b }", "mettle::parse::syntax");
    fails("check c { roll 2d6kh outcome a otherwise b }", "mettle::parse::syntax");
    fails("check c { roll 2d6 + outcome a otherwise b }", "mettle::parse::syntax");
    fails("check c { roll d[] outcome a otherwise b }", "mettle::parse::syntax");
    fails("on turn_start { note \"unclosed }", "mettle::parse::syntax");
    fails("on turn_start { let x = (1 + 2 }", "mettle::parse::syntax");
    fails("kind unit { hp: 0..6 = 3 } $", "mettle::parse::syntax");
    fails("kind when { hp: 0..6 = 3 }", "mettle::parse::syntax");
    fails("define f(x: int) = x +", "mettle::parse::syntax");
    fails("on turn_start { set x 1 }", "mettle::parse::syntax");
}

#[test]
fn resolve_variants() {
    fails("check c { roll 2d0 outcome a when total > 3 otherwise b }", "mettle::resolve::bad_dice");
    fails("check c { roll d(0) outcome a when total > 3 otherwise b }", "mettle::resolve::bad_dice");
    fails("check c { roll (0 - 1)d6 outcome a when total > 3 otherwise b }", "mettle::resolve::bad_dice");
    fails("check c { roll d6r<7 outcome a when total > 3 otherwise b }", "mettle::resolve::bad_dice");
    fails("kind unit { spi: 0..6 = 7 }", "mettle::resolve::out_of_range");
    fails("kind unit { spi: 6..0 = 3 }", "mettle::resolve::empty_range");
    fails("kind unit { spi: 0..6 = 3 } kind unit { hp: 0..6 = 3 }", "mettle::resolve::duplicate");
    fails("kind unit { hp: 0..6 = 3, hp: 0..6 = 3 }", "mettle::resolve::duplicate");
    fails("kind turn { hp: 0..6 = 3 }", "mettle::resolve::reserved_name");
    fails("check c { roll d6 outcome a when total > 3 }", "mettle::resolve::missing_otherwise");
    fails("check c { roll d6 }", "mettle::resolve::no_outcomes");
    fails("define f(x: int) = f(x)", "mettle::resolve::cycle");
    fails("define f(x: int) = x  define g(x: int) = f(x, 1)", "mettle::resolve::arity");
    fails("define f(x: int) = max(x)", "mettle::resolve::arity");
    fails("define f(x: int) = mx(x, 1)", "mettle::resolve::unknown_function");
    fails("define f(x: int) = y", "mettle::resolve::unknown_name");
    fails("define f(x: flag) = x + 1", "mettle::resolve::type_mismatch");
    fails("on turn_start { expect round == 1 }", "mettle::resolve::scenario_only");
    fails("on turn_start { dice 1, 2 }", "mettle::resolve::scenario_only");
    fails("on turn_start { new unit u }", "mettle::resolve::scenario_only");
    fails("on turn_strat { note \"x\" }", "mettle::resolve::unknown_event");
    fails("on turn_start { end game with win }", "mettle::resolve::unknown_result");
    fails("define f(n: int) = if true then n else 0", "mettle::resolve::unknown_name");
    fails("script \"heal.rhai\"", "mettle::script::unreadable");
    fails("script { fn f() { 1 } } on turn_start { follow g() }", "mettle::resolve::unknown_reaction");
    fails("script { fn f() { 1 } } define x(n: int) = f(n)", "mettle::resolve::arity");
    fails("on turn_start { choose c \"?\" from yes | no default maybe }", "mettle::resolve::unknown_name");
}

#[test]
fn small_good_variants() {
    loads("kind unit { spi: 0..6 = 3 }");
    loads(
        "define f(x: 0..) = x / 2  check c { roll d6 modifier \"f\" +f(2) outcome a when total > 3 otherwise b }",
    );
    loads("check c { roll (2 + 1)d6kh2 outcome a when total > 3 otherwise b }");
    loads("check c { roll d[0,0,1,2] outcome a when total > 1 otherwise b }");
}

/// A check without `otherwise` loads when its outcomes cover every roll, decided exactly; it fails
/// when they do not, or when that cannot be worked out.
#[test]
fn otherwise_is_needed_only_when_some_roll_could_match_no_outcome() {
    loads("check c { roll d6  target 4  outcome a when total >= target  outcome b when total < target }");
    loads(
        "check c { input n: 0..3  roll 2d6  outcome a when total + n >= 7  outcome b when total + n <= 6 }",
    );
    loads("check c { input n: flag  roll d6  outcome a when n  outcome b when not n and total > 0 }");
    fails(
        "check c { roll d6  outcome a when total >= 4  outcome b when total < 3 }",
        "mettle::resolve::missing_otherwise",
    );
    fails(
        "kind u { s: 0..3 = 1 }\ncheck c for u { roll d6  outcome a when total + u.s >= 4  outcome b when total + u.s < 4 }",
        "mettle::resolve::missing_otherwise",
    );
    // The roll that matches no outcome is settled by the rules as a real roll would be.
    let r = Ruleset::from_str(
        "t.mettle",
        "check c { roll d6  outcome a when total >= 4  outcome b when total < 4 }",
    )
    .expect("loads");
    let mut s = Session::new(&r, 3);
    assert!(s.roll("c", &[]).is_ok());
}

/// Inputs whose misspelt name gets no "did you mean"; reported, remove a line when fixed.
const KNOWN_NO_SUGGESTION: &[&str] = &[];

/// Every misspelt name (all inputs whose expected code is `unknown_…`) gets a "did you mean".
#[test]
fn did_you_mean() {
    let mut missing = vec![];
    let cases = bad_cases();
    for c in cases.iter().filter(|c| c.code.contains("::unknown_")) {
        let diags = diagnostics(c);
        let d = diags.iter().find(|d| d.code == c.code).expect("the expected diagnostic");
        if !d.help.as_deref().unwrap_or("").contains("did you mean") {
            missing.push(c.name.clone());
        }
    }
    no_new_gaps(&missing, KNOWN_NO_SUGGESTION, "KNOWN_NO_SUGGESTION");
}

// ---------------------------------------------------------------- robustness

/// 100,000 nested brackets are refused with `too_deep`, quickly and without overflowing the stack.
#[test]
fn deep_nesting_is_refused_fast() {
    const DEPTH: usize = 100_000;
    let mut text = String::with_capacity(DEPTH * 2 + 32);
    text.push_str("define f(x: int) = ");
    text.extend(std::iter::repeat_n('(', DEPTH));
    text.push('x');
    text.extend(std::iter::repeat_n(')', DEPTH));
    let start = Instant::now();
    let err = Ruleset::from_str("deep.mettle", &text).expect_err("too deep to load");
    let took = start.elapsed();
    let codes: Vec<&str> = err.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert!(codes.contains(&"mettle::parse::too_deep"), "got {codes:?}");
    assert!(took < Duration::from_secs(5), "took {took:?}");
    // Unclosed, too.
    let open: String = "define f(x: int) = ".chars().chain(std::iter::repeat_n('(', DEPTH)).collect();
    assert!(Ruleset::from_str("deep.mettle", &open).is_err());
}

/// The shipped rulesets, read once.
fn shipped_rulesets() -> &'static [String] {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
        mettle_files(&dir).iter().map(|p| std::fs::read_to_string(p).expect("readable ruleset")).collect()
    })
}

/// The byte offset at fraction `f` of `text`, moved down to a char boundary.
fn at(text: &str, f: f64) -> usize {
    let mut i = ((f * text.len() as f64) as usize).min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// How a shipped ruleset is damaged.
#[derive(Debug, Clone, Copy)]
enum Damage {
    /// Everything after `a` is lost.
    Truncate,
    /// The text between `a` and `b` is lost.
    Remove,
    /// The text between `a` and `b` of another ruleset is pasted at `a`.
    Paste,
}

/// Ruleset `pick` damaged between fractions `a <= b` of its length.
fn damaged(pick: usize, other: usize, a: f64, b: f64, how: Damage) -> String {
    let all = shipped_rulesets();
    let text = &all[pick % all.len()];
    let (i, j) = (at(text, a), at(text, b));
    match how {
        Damage::Truncate => text[..i].to_string(),
        Damage::Remove => format!("{}{}", &text[..i], &text[j..]),
        Damage::Paste => {
            let src = &all[other % all.len()];
            let (k, l) = (at(src, a), at(src, b));
            format!("{}{}{}", &text[..i], &src[k..l], &text[i..])
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_text_never_panics(text in "\\PC{0,200}") {
        let _ = Ruleset::from_str("random.mettle", &text);
    }
}

// Random token soup: longer inputs than the random text, fewer cases.
proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn random_tokens_never_panic(words in proptest::collection::vec(prop_oneof![
        Just("kind"), Just("check"), Just("on"), Just("define"), Just("table"), Just("scenario"),
        Just("{"), Just("}"), Just("("), Just(")"), Just(":"), Just("="), Just(","), Just("|"),
        Just("x"), Just("unit"), Just("0..6"), Just("2d6"), Just("d6kh1"), Just("roll"), Just("outcome"),
        Just("otherwise"), Just("when"), Just("total"), Just(">="), Just("7"), Just("set"), Just("to"),
        Just("flag"), Just("int"), Just("\""), Just("."), Just("new"), Just("expect"), Just("+"), Just("-"),
    ], 0..60)) {
        let _ = Ruleset::from_str("tokens.mettle", &words.join(" "));
    }
}

// A damaged ruleset takes ~30 ms to load in a debug build: 64 cases keep this under 2 s.
proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn damaged_rulesets_never_panic(
        pick in 0usize..16,
        other in 0usize..16,
        a in 0.0f64..1.0,
        b in 0.0f64..1.0,
        how in prop_oneof![Just(Damage::Truncate), Just(Damage::Remove), Just(Damage::Paste)],
    ) {
        prop_assume!(!shipped_rulesets().is_empty());
        let text = damaged(pick, other, a.min(b), a.max(b), how);
        if let Err(e) = Ruleset::from_str("damaged.mettle", &text) {
            for d in &e.diagnostics {
                for l in &d.labels {
                    prop_assert!(l.span.start <= l.span.end && l.span.end <= text.len(), "{}: {:?}", d.code, l.span);
                }
            }
            // Rendering must not panic either (a splice can give hundreds of errors: render a few).
            let _ = render(&e.diagnostics[..e.diagnostics.len().min(4)], "damaged.mettle", &text, &RenderOptions::default().with_width(WIDTH));
        }
    }
}
