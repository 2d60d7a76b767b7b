//! Scripts: the sandbox holds against hostile scripts (each stopped with a located error, quickly, with
//! the session untouched), errors in script files point into the file, and host hooks are contained.

use mettle::diagnostics::{RenderOptions, render};
use mettle::{LoadOptions, Ruleset, Session, Value};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A ruleset whose `go` event runs reaction `f` (defined by `script`) for the unit `a`.
/// Scripts held by their operation limits only: on a busy machine a thread can wait longer than the
/// default 50 ms for a core, and a test of steps must not turn into a test of the clock. The tests of
/// time limits set their own.
fn rules_with(script: &str) -> Ruleset {
    let limits = mettle::ScriptLimits { clock: mettle::Clock::Off, ..Default::default() };
    rules_with_opts(script, &LoadOptions { limits, ..Default::default() })
}

fn rules_with_opts(script: &str, opts: &LoadOptions) -> Ruleset {
    let text = format!(
        "kind unit {{ hp: 0..9 = 3, stance: calm | wary = calm }}\nevent go(u: unit)\nevent heal(u: unit)\n\
         script {{\n{script}\n}}\non go {{ follow f(u) }}\non heal {{ add 1 to u.hp }}\n"
    );
    Ruleset::load("hostile.mettle", &text, opts).unwrap_or_else(|e| panic!("{}", e.render(100)))
}

/// Runs `go` on a fresh unit and expects error `code` within five seconds (a guard against a limit that
/// never stops the script, not a measure of speed: a debug build on a busy machine takes ~100 ms),
/// with the session left as it was and still usable. Returns the rendered error.
fn stopped(rules: &Ruleset, code: &str) -> String {
    let mut s = Session::new(rules, 1);
    s.create("unit", "a", &[]).unwrap();
    let before = s.save();
    let start = Instant::now();
    let err = s.apply("go", &[("u", Value::Entity(0))]).expect_err("the script must be stopped");
    let took = start.elapsed();
    assert_eq!(err.code, code, "{err:?}");
    assert!(took < Duration::from_secs(5), "{code} took {took:?}");
    assert!(!err.labels.is_empty(), "{code} has no location");
    assert_eq!(s.save(), before, "a stopped script changed the session");
    s.apply("heal", &[("u", Value::Entity(0))]).expect("the session is still usable");
    assert_eq!(s.get("a", "hp"), Some(&Value::Int(4)));
    render(&[err], rules.name(), rules.text(), &RenderOptions::default().with_width(100))
}

/// Loading fails with `code`, pointing at the text `at`.
fn refused(script: &str, code: &str, at: &str) {
    let text = format!("script {{\n{script}\n}}\n");
    let start = Instant::now();
    let err = Ruleset::from_str("hostile.mettle", &text).expect_err("must not load");
    assert!(start.elapsed() < Duration::from_secs(2), "{code} took {:?}", start.elapsed());
    let d = &err.diagnostics[0];
    assert_eq!(d.code, code, "{}", err.render(100));
    let span = d.span();
    assert!(text[span.start..].starts_with(at), "{code} points at {:?}", &text[span.start..span.end]);
}

#[test]
fn endless_loop_is_stopped() {
    let shown = stopped(&rules_with("fn f(u) { loop { } }"), "mettle::script::too_many_steps");
    assert!(shown.contains("follow f(u)"), "{shown}");
}

#[test]
fn endless_loop_is_stopped_by_the_clock_when_steps_allow_it() {
    let opts = LoadOptions {
        limits: mettle::ScriptLimits {
            operations: u64::MAX,
            time: Duration::from_millis(20),
            ..Default::default()
        },
        ..Default::default()
    };
    stopped(&rules_with_opts("fn f(u) { let n = 0; loop { n += 1; } }", &opts), "mettle::script::too_slow");
}

/// A host's clock that jumps a second every time it is read.
fn jumping_clock() -> Duration {
    use std::sync::atomic::{AtomicU64, Ordering};
    static READS: AtomicU64 = AtomicU64::new(0);
    Duration::from_secs(READS.fetch_add(1, Ordering::Relaxed))
}

#[test]
fn a_hosts_clock_is_the_one_a_script_is_timed_by() {
    // An hour to run, on a clock that moves a second a read: a long loop is out of time after an
    // hour of the host's seconds, however little real time has passed.
    let opts = LoadOptions {
        limits: mettle::ScriptLimits {
            operations: u64::MAX,
            time: Duration::from_secs(3_600),
            clock: mettle::Clock::Host(jumping_clock),
            ..Default::default()
        },
        ..Default::default()
    };
    stopped(&rules_with_opts("fn f(u) { let n = 0; loop { n += 1; } }", &opts), "mettle::script::too_slow");
}

#[test]
fn with_the_clock_off_the_operation_limit_still_holds() {
    // No clock at all (a target without one): a tiny time limit is not read, the steps stop it.
    let opts = LoadOptions {
        limits: mettle::ScriptLimits {
            operations: 100_000,
            time: Duration::from_millis(1),
            clock: mettle::Clock::Off,
            ..Default::default()
        },
        ..Default::default()
    };
    stopped(
        &rules_with_opts("fn f(u) { let n = 0; loop { n += 1; } }", &opts),
        "mettle::script::too_many_steps",
    );
}

#[test]
fn a_limit_of_zero_is_not_unlimited() {
    let opts = LoadOptions {
        limits: mettle::ScriptLimits { operations: 0, ..Default::default() },
        ..Default::default()
    };
    stopped(&rules_with_opts("fn f(u) { loop { } }", &opts), "mettle::script::too_many_steps");
}

#[test]
fn unbounded_recursion_is_stopped() {
    stopped(&rules_with("fn f(u) { f(u) }"), "mettle::script::too_deep");
}

#[test]
fn string_doubling_is_stopped() {
    stopped(&rules_with("fn f(u) { let s = \"ab\"; loop { s += s; } }"), "mettle::script::too_large");
}

#[test]
fn array_growth_is_stopped() {
    stopped(&rules_with("fn f(u) { let a = []; loop { a.push(a.len()); } }"), "mettle::script::too_large");
}

#[test]
fn map_growth_is_stopped() {
    let script = "fn f(u) { let m = #{}; let i = 0; loop { m.set(`k${i}`, i); i += 1; } }";
    let shown = stopped(&rules_with(script), "mettle::script::too_large");
    assert!(shown.contains("a map too big"), "{shown}");
}

#[test]
fn map_growth_by_indexing_is_stopped_by_time() {
    // Rhai checks a map's size when a function grows it, not when `m[key] = …` adds a key; the clock
    // (or the step limit) stops this one instead, just as cleanly.
    let script = "fn f(u) { let m = #{}; let i = 0; loop { m[`k${i}`] = i; i += 1; } }";
    let rules = rules_with_opts(script, &LoadOptions::default());
    let mut s = Session::new(&rules, 1);
    s.create("unit", "a", &[]).unwrap();
    let start = Instant::now();
    let err = s.apply("go", &[("u", Value::Entity(0))]).unwrap_err();
    // A guard against a script that is never stopped, not a measure of speed (as in `stopped`).
    assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
    assert!(
        ["mettle::script::too_slow", "mettle::script::too_many_steps"].contains(&err.code.as_str()),
        "{err:?}"
    );
}

#[test]
fn ten_thousand_nested_brackets_are_refused() {
    let deep = format!("fn f(u) {{ {}1{} }}", "(".repeat(10_000), ")".repeat(10_000));
    let text = format!("script {{\n{deep}\n}}\n");
    let start = Instant::now();
    let err = Ruleset::from_str("deep.mettle", &text).expect_err("must not load");
    assert!(start.elapsed() < Duration::from_secs(2), "took {:?}", start.elapsed());
    let d = &err.diagnostics[0];
    assert!(d.code == "mettle::parse::too_deep" || d.code == "mettle::script::syntax", "{d:?}");
    assert!(d.span().start > 0);
}

#[test]
fn nested_brackets_in_a_script_file_are_refused() {
    let dir = std::env::temp_dir().join(format!("mettle-deep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let deep = format!("fn f(u) {{ {}1{} }}", "[".repeat(10_000), "]".repeat(10_000));
    std::fs::write(dir.join("deep.rhai"), deep).unwrap();
    std::fs::write(dir.join("deep.mettle"), "script \"deep.rhai\"\n").unwrap();
    let start = Instant::now();
    let err = Ruleset::from_path(dir.join("deep.mettle")).expect_err("must not load");
    assert!(start.elapsed() < Duration::from_secs(2), "took {:?}", start.elapsed());
    let d = &err.diagnostics[0];
    assert_eq!(d.code, "mettle::script::syntax");
    assert!(d.source.as_ref().is_some_and(|f| f.name.ends_with("deep.rhai")), "{d:?}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn import_is_refused() {
    refused("fn f(u) { import \"secrets\" as s; 1 }", "mettle::script::syntax", "import");
}

#[test]
fn eval_is_refused() {
    refused("fn f(u) { eval(\"1 + 1\") }", "mettle::script::syntax", "eval");
}

#[test]
fn undeclared_variables_are_refused() {
    refused("fn f(u) { hp + 1 }", "mettle::script::syntax", "hp");
}

#[test]
fn code_outside_functions_is_refused() {
    refused("fn f(u) { 1 }\nwhile true { }", "mettle::script::outside_function", "while");
}

#[test]
fn a_panic_in_a_registered_function_is_contained() {
    let hook: mettle::script::EngineHook = Arc::new(|e: &mut mettle::script::host::Engine| {
        e.register_fn("line_of_sight", |_: i64| -> bool { panic!("the host's geometry broke") });
    });
    let opts = LoadOptions { hook: Some(hook), ..Default::default() };
    let rules = rules_with_opts("fn f(u) { if line_of_sight(u.hp) { flee() } }", &opts);
    let shown = stopped(&rules, "mettle::script::panicked");
    assert!(shown.contains("the host's geometry broke"), "{shown}");
}

#[test]
fn reactions_apply_checked_actions() {
    let rules = rules_with(
        "fn f(u) { [set_to(u, \"stance\", \"wary\"), move_towards(#{name: \"hill\"}), order(\"hold\")] }",
    );
    let mut s = Session::new(&rules, 1);
    s.create("unit", "a", &[]).unwrap();
    s.apply("go", &[("u", Value::Entity(0))]).unwrap();
    assert_eq!(s.show(s.get("a", "stance").unwrap()), "wary");
    let orders: Vec<&str> = s.state().orders().iter().map(|o| o.text.as_str()).collect();
    assert_eq!(orders, ["move towards hill", "hold"]);
}

#[test]
fn a_bad_action_changes_nothing() {
    let rules = rules_with("fn f(u) { [set_to(u, \"stance\", \"wary\"), add_to(u, \"stnce\", 1)] }");
    let shown = stopped(&rules, "mettle::script::bad_action");
    assert!(shown.contains("did you mean `stance`?"), "{shown}");
}

#[test]
fn prints_go_to_the_log() {
    let rules = rules_with("fn f(u) { print(`hp is ${u.hp}`); debug(\"checked\"); }");
    let mut s = Session::new(&rules, 1);
    s.create("unit", "a", &[]).unwrap();
    s.apply("go", &[("u", Value::Entity(0))]).unwrap();
    let log = mettle::session::render_log(s.log(), rules.text());
    assert!(log.contains("script says: hp is 3"), "{log}");
    assert!(log.contains("script says: \"checked\""), "{log}");
}

fn scripts_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/scripts")
}

#[test]
fn script_files_are_read_next_to_the_ruleset() {
    let rules = Ruleset::from_path(scripts_dir().join("uses_file.mettle")).unwrap();
    let report = Session::new(&rules, 1).run_scenario("works").unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert_eq!(report.passed, 2);
}

#[test]
fn errors_in_script_files_point_into_the_file() {
    let rules = Ruleset::from_path(scripts_dir().join("uses_file.mettle")).unwrap();
    let err = Session::new(&rules, 1).run_scenario("breaks").unwrap_err();
    let file = err.source.as_ref().expect("the error is in the script file");
    assert!(file.name.ends_with("reactions.rhai"));
    let span = err.span();
    let line = file.text[..span.start].lines().count();
    assert_eq!(line, 13, "{err:?}");
    let shown = render(&[err], rules.name(), rules.text(), &RenderOptions::default().with_width(80))
        .replace(&*scripts_dir().to_string_lossy(), "…");
    insta::assert_snapshot!(shown);
}

#[test]
fn script_calls_are_exact_and_repeatable() {
    let text = "kind unit { stress: 0..9 = 0 }\nscript { fn tn(n) { 6 + n * (n + 1) / 2 } }\n\
                check morale for unit { input stress: 0..9  roll d20  target tn(stress)  outcome pass when total >= target  otherwise fail }";
    let rules = Ruleset::from_str("tn.mettle", text).unwrap();
    let mut s = Session::new(&rules, 1);
    for (stress, tn) in [(0, 6), (1, 7), (2, 9), (3, 12), (4, 16)] {
        let r = s.roll("morale", &[("stress", Value::Int(stress))]).unwrap().rolled.unwrap();
        assert_eq!(r.target, Some(tn));
    }
}

#[test]
fn hosts_pass_data_through_the_library() {
    let text = "kind unit { stance: calm | wary = calm }\nevent spotted(u: unit, seen: data)\n\
                script { fn react(u, seen) { move_towards(seen.cover[0]) } }\non spotted { follow react(u, seen) }";
    let rules = Ruleset::from_str("data.mettle", text).unwrap();
    let mut s = Session::new(&rules, 1);
    s.create("unit", "a", &[]).unwrap();
    let seen = serde_json::json!({ "cover": [{ "name": "low wall", "distance": 3 }] });
    s.apply("spotted", &[("u", Value::Entity(0)), ("seen", Value::Data(Arc::new(seen)))]).unwrap();
    assert_eq!(s.state().orders()[0].text, "move towards low wall");
    let wrong = s.apply("spotted", &[("u", Value::Entity(0)), ("seen", Value::Int(3))]).unwrap_err();
    assert_eq!(wrong.code, "mettle::run::type_mismatch");
}

#[test]
fn expect_order_and_expect_not_order_can_fail() {
    let text = "kind unit { hp: 0..9 = 3 }\nevent go(u: unit)\nscript { fn f(u) { flee() } }\non go { follow f(u) }\n\
                scenario s { new unit a\n trigger go(u: a)\n expect order \"flee\"\n expect not order \"flee\", \"it stays\"\n\
                expect order \"surrender\"\n expect not order \"surrender\" }";
    let rules = Ruleset::from_str("orders.mettle", text).unwrap();
    let report = Session::new(&rules, 1).run_scenario("s").unwrap();
    assert_eq!(report.passed, 2);
    let failed: Vec<String> = report.failures.iter().map(|f| format!("{f:?}")).collect();
    assert_eq!(failed.len(), 2, "{failed:?}");
    assert!(failed[0].contains("not order") && failed[0].contains("it stays"), "{}", failed[0]);
    assert!(failed[1].contains("the last reaction ordered \\\"flee\\\""), "{}", failed[1]);
}

#[test]
fn outcomes_follow_reactions_and_blocks_share_functions() {
    let text = "kind unit { will: int = 0, stance: calm | routed = calm }\n\
                script { fn routed(u) { [set_to(u, \"stance\", \"routed\"), away(u)] } }\n\
                script { fn away(u) { flee() } }\n\
                check nerve for unit { roll d6  outcome hold when total >= 4  otherwise breaks { follow routed(unit) } }";
    let rules = Ruleset::from_str("outcome.mettle", text).unwrap();
    let mut s = Session::new(&rules, 1);
    s.create("unit", "u", &[]).unwrap();
    s.force_dice(&[2]);
    let r = s.roll_for("nerve", Some(0), &[]).unwrap().rolled.unwrap();
    assert_eq!(r.outcome, "breaks");
    assert_eq!(s.show(s.get("u", "stance").unwrap()), "routed");
    assert_eq!(s.state().orders()[0].verb, "flee");
}

#[test]
fn one_ruleset_runs_scripts_on_many_threads() {
    let rules = rules_with("fn f(u) { let n = 0; for i in 0..200 { n += i; } if n == 19900 { flee() } }");
    std::thread::scope(|scope| {
        for seed in 0..4 {
            let rules = rules.clone();
            scope.spawn(move || {
                let mut s = Session::new(&rules, seed);
                s.create("unit", "a", &[]).unwrap();
                for _ in 0..50 {
                    s.apply("go", &[("u", Value::Entity(0))]).unwrap();
                    assert_eq!(s.state().orders()[0].text, "flee");
                }
            });
        }
    });
}

#[test]
fn a_saved_session_with_data_and_orders_continues_exactly() {
    let rules =
        Ruleset::from_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/shadow_deep_stress.mettle"))
            .unwrap();
    let seen = |n: i64| {
        Value::Data(Arc::new(serde_json::json!({
            "friends": [{"name": "goblin", "distance": n, "reachable": true}],
            "enemies": [{"name": "ranger", "distance": 9 - n}],
            "shoot_target": "ranger"
        })))
    };
    let mut a = Session::new(&rules, 7);
    a.create("creature", "orc", &[("stress", Value::Int(6)), ("missile", Value::Bool(true))]).unwrap();
    a.apply("activates", &[("creature", Value::Entity(0)), ("situation", seen(2))]).unwrap();
    let saved = a.save();
    let mut b = Session::load(&rules, &saved).unwrap();
    assert_eq!(a.state().orders(), b.state().orders());
    for n in 3..7 {
        for s in [&mut a, &mut b] {
            s.apply("activates", &[("creature", Value::Entity(0)), ("situation", seen(n))]).unwrap();
        }
    }
    assert_eq!(a.save(), b.save());
    assert!(!a.state().orders().is_empty());
}

#[test]
fn script_functions_serve_as_conditions() {
    let text = "kind unit { wounds: 0..9 = 0, routed: flag = no }\nevent hit(u: unit)\n\
                script { fn badly_hurt(u) { u.wounds >= 3 } fn half(n) { n / 2 } }\n\
                on hit when badly_hurt(u) and not u.routed { set u.routed to yes }\n\
                on hit { add 1 to u.wounds }\n\
                define penalty(w: 0..9) = half(w)";
    let rules = Ruleset::from_str("cond.mettle", text).unwrap();
    let mut s = Session::new(&rules, 1);
    s.create("unit", "u", &[("wounds", Value::Int(2))]).unwrap();
    s.apply("hit", &[("u", Value::Entity(0))]).unwrap();
    assert_eq!(s.get("u", "routed"), Some(&Value::Bool(false)), "2 wounds is not badly hurt");
    s.apply("hit", &[("u", Value::Entity(0))]).unwrap();
    assert_eq!(s.get("u", "routed"), Some(&Value::Bool(true)));
    let wrong = Ruleset::from_str(
        "wrong.mettle",
        "kind unit { routed: flag = no }\nevent hit(u: unit)\nscript { fn hurt(u) { 3 } }\non hit when hurt(u) { set u.routed to yes }",
    )
    .unwrap();
    let mut s = Session::new(&wrong, 1);
    s.create("unit", "u", &[]).unwrap();
    let err = s.apply("hit", &[("u", Value::Entity(0))]).unwrap_err();
    assert_eq!(err.code, "mettle::script::not_yes_or_no");
}

#[test]
fn deep_scripts_do_not_overflow_a_small_thread_stack() {
    // 64 KiB is too small for 32 nested script calls: a call grows the stack when it needs more.
    let rules = rules_with("fn f(u) { f(u) }");
    let code = std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(move || {
            let mut s = Session::new(&rules, 1);
            s.create("unit", "a", &[]).unwrap();
            s.apply("go", &[("u", Value::Entity(0))]).unwrap_err().code
        })
        .unwrap()
        .join()
        .expect("no stack overflow");
    assert_eq!(code, "mettle::script::too_deep");
}

/// Script files given in memory: a ruleset with a script file loads from its texts with no file
/// read, plays its scenarios' rules the same, and a name the host did not give, or a text over the
/// budget, is a coded error on the `script` line.
#[test]
fn script_files_given_in_memory() {
    let dir = scripts_dir();
    let text = std::fs::read_to_string(dir.join("uses_file.mettle")).unwrap();
    let script = std::fs::read_to_string(dir.join("reactions.rhai")).unwrap();
    let given = std::collections::BTreeMap::from([("reactions.rhai".to_string(), script.clone())]);
    // The folder is somewhere with no script file: only the given texts are read.
    let opts =
        LoadOptions { base: Some(std::env::temp_dir()), scripts: Some(given), ..LoadOptions::default() };
    let from_memory = Ruleset::load("uses_file.mettle", &text, &opts).unwrap();
    let from_disk = Ruleset::from_path(dir.join("uses_file.mettle")).unwrap();
    assert_eq!(from_memory.warnings().len(), from_disk.warnings().len());

    let missing = LoadOptions {
        scripts: Some(std::collections::BTreeMap::from([("other.rhai".to_string(), script.clone())])),
        ..LoadOptions::default()
    };
    let err = Ruleset::load("uses_file.mettle", &text, &missing).unwrap_err();
    let d = &err.diagnostics[0];
    assert_eq!(d.code, "mettle::script::unreadable");
    assert!(d.help.as_deref().unwrap().contains("other.rhai"), "{:?}", d.help);
    assert_eq!(&text[d.span().start..d.span().end], "reactions.rhai");

    let mut budget = mettle::Budget::default();
    budget.script_bytes = 100;
    let small = LoadOptions { budget, ..opts };
    let err = Ruleset::load("uses_file.mettle", &text, &small).unwrap_err();
    assert_eq!(err.diagnostics[0].code, "mettle::script::too_large");
}
