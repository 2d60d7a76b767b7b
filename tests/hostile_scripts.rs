//! Hostile scripts: files that lead out of the ruleset's folder, functions that block or loop, forged
//! entities. Each case checks the coded error, that the session is unchanged and that it still works.

use mettle::{Budget, LoadOptions, Ruleset, ScriptLimits, Session, Value};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// A creature with a stance and a leader, an event that hands it to a reaction, and a plain check.
const BASE: &str = r#"
kind creature { stance: calm | wary = calm  grit: int = 0  leader: creature = none }
event spotted(creature: creature)
check plain { roll d6  otherwise done }
"#;

/// Limits of steps only, without the clock: on a busy machine a thread can wait longer than the
/// default 50 ms for a core, and a test of steps must not turn into a test of the clock.
fn steps_only() -> ScriptLimits {
    ScriptLimits { clock: mettle::Clock::Off, ..Default::default() }
}

fn load_with(text: &str, opts: &LoadOptions) -> Result<Ruleset, String> {
    Ruleset::load("hostile.mettle", &format!("{BASE}\n{text}"), opts).map_err(|e| {
        let codes: Vec<String> = e.diagnostics.iter().map(|d| d.code.clone()).collect();
        format!("{}\n{}", codes.join(" "), e.render(100))
    })
}

/// A ruleset whose reaction `react(c)` is `body`, run on every `spotted`.
fn reaction(body: &str) -> Ruleset {
    load_with(
        &format!("script {{ fn react(c) {{ {body} }} }}\non spotted {{ follow react(creature) }}"),
        &LoadOptions { limits: steps_only(), ..Default::default() },
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// A session with creatures `orc` (led by `boss`) and `boss`.
fn session(r: &Ruleset) -> Session {
    let mut s = Session::new(r, 1);
    let boss = s.create("creature", "boss", &[]).unwrap();
    s.create("creature", "orc", &[("leader", Value::Entity(boss))]).unwrap();
    s
}

/// Fires `spotted` at the orc; returns the error, after checking that nothing changed and that the
/// session still works.
fn fails(r: &Ruleset) -> mettle::Diagnostic {
    let mut s = session(r);
    let (state, log) = (s.state().clone(), s.log().len());
    let orc = s.entity("orc").unwrap();
    let err = s.apply("spotted", &[("creature", Value::Entity(orc))]).expect_err("the reaction should fail");
    assert_eq!(s.state(), &state, "a failed reaction changed the state");
    assert_eq!(s.log().len(), log, "a failed reaction left lines in the log");
    s.roll("plain", &[]).expect("the session still rolls");
    err
}

fn code_of(body: &str) -> String {
    fails(&reaction(body)).code
}

/// A fresh folder for a ruleset and its script files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mettle-hostile-scripts-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Loads a ruleset in `dir` that uses `script "FILE"`, and returns the load error's first code and
/// its rendering.
fn file_refused(dir: &Path, file: &str, budget: Budget) -> (String, String) {
    let opts = LoadOptions { base: Some(dir.to_path_buf()), budget, ..Default::default() };
    let err = load_with(&format!("script \"{file}\""), &opts).expect_err("the script file should be refused");
    let code = err.split_whitespace().next().unwrap().to_string();
    (code, err)
}

fn plain_file_refused(dir: &Path, file: &str) -> (String, String) {
    file_refused(dir, file, Budget::default())
}

#[test]
fn a_path_with_dot_dot_is_refused() {
    let dir = folder("dotdot");
    assert_eq!(plain_file_refused(&dir, "../x.rhai").0, "mettle::script::bad_path");
}

#[test]
fn an_absolute_path_is_refused() {
    let dir = folder("absolute");
    assert_eq!(plain_file_refused(&dir, "/etc/x.rhai").0, "mettle::script::bad_path");
}

#[test]
fn a_link_out_of_the_folder_is_refused_without_showing_the_file() {
    let dir = folder("link-out");
    std::os::unix::fs::symlink("/etc/passwd", dir.join("leak.rhai")).unwrap();
    let (code, shown) = plain_file_refused(&dir, "leak.rhai");
    assert_eq!(code, "mettle::script::outside_folder");
    assert!(!shown.contains("root:"), "the refused file's contents were shown:\n{shown}");
}

#[test]
fn a_link_to_a_device_is_refused() {
    let dir = folder("link-dev");
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.rhai")).unwrap();
    assert_eq!(plain_file_refused(&dir, "zero.rhai").0, "mettle::script::outside_folder");
}

#[test]
fn a_link_through_a_linked_folder_out_is_refused() {
    let dir = folder("link-folder");
    let outside = folder("link-folder-target");
    std::fs::write(outside.join("secret.rhai"), "fn secret() { 42 }").unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("sub")).unwrap();
    assert_eq!(plain_file_refused(&dir, "sub/secret.rhai").0, "mettle::script::outside_folder");
}

#[test]
fn a_link_inside_the_folder_is_followed() {
    let dir = folder("link-in");
    std::fs::write(dir.join("real.rhai"), "fn seven() { 7 }").unwrap();
    std::os::unix::fs::symlink(dir.join("real.rhai"), dir.join("alias.rhai")).unwrap();
    let opts = LoadOptions { base: Some(dir.clone()), ..Default::default() };
    assert!(load_with("script \"alias.rhai\"", &opts).is_ok());
}

#[test]
fn a_pipe_is_refused() {
    let dir = folder("fifo");
    let status = std::process::Command::new("mkfifo").arg(dir.join("pipe.rhai")).status().unwrap();
    assert!(status.success());
    assert_eq!(plain_file_refused(&dir, "pipe.rhai").0, "mettle::script::not_a_file");
}

#[test]
fn a_folder_is_refused() {
    let dir = folder("dir");
    std::fs::create_dir(dir.join("dir.rhai")).unwrap();
    assert_eq!(plain_file_refused(&dir, "dir.rhai").0, "mettle::script::not_a_file");
}

#[test]
fn a_file_over_the_budget_is_refused() {
    let dir = folder("big");
    std::fs::write(dir.join("big.rhai"), format!("fn big() {{ 1 }}\n{}", "// padding\n".repeat(200)))
        .unwrap();
    let mut budget = Budget::default();
    budget.set("script_bytes", 100).unwrap();
    assert_eq!(file_refused(&dir, "big.rhai", budget).0, "mettle::script::too_large");
}

#[test]
fn a_file_that_is_not_text_is_refused() {
    let dir = folder("binary");
    std::fs::write(dir.join("bin.rhai"), [0x66, 0x6e, 0xff, 0xfe, 0x00]).unwrap();
    assert_eq!(plain_file_refused(&dir, "bin.rhai").0, "mettle::script::not_utf8");
}

#[test]
fn a_missing_file_is_reported() {
    let dir = folder("missing");
    assert_eq!(plain_file_refused(&dir, "nothere.rhai").0, "mettle::script::unreadable");
}

#[test]
fn sleep_does_not_exist() {
    let err = fails(&reaction("sleep(10); []"));
    assert_eq!(err.code, "mettle::script::failed");
    assert!(err.message.contains("sleep"), "{}", err.message);
}

#[test]
fn sleep_cannot_be_reached_through_a_function_pointer() {
    assert_eq!(code_of("Fn(\"sleep\").call(10); []"), "mettle::script::failed");
    assert_eq!(code_of("call(Fn(\"sleep\"), 10); []"), "mettle::script::failed");
}

#[test]
fn sleep_cannot_be_reached_through_curry_or_a_closure() {
    assert_eq!(code_of("let f = Fn(\"sleep\").curry(10); f.call(); []"), "mettle::script::failed");
    assert_eq!(code_of("let f = |x| sleep(x); f.call(10); []"), "mettle::script::failed");
}

#[test]
fn eval_cannot_be_reached_through_a_function_pointer() {
    assert_eq!(code_of("Fn(\"eval\").call(\"1\"); []"), "mettle::script::failed");
}

#[test]
fn exit_and_parse_json_do_not_exist() {
    assert_eq!(code_of("exit(1); []"), "mettle::script::failed");
    assert_eq!(code_of("parse_json(\"{}\"); []"), "mettle::script::failed");
}

#[test]
fn eval_and_import_do_not_compile() {
    let opts = LoadOptions::default();
    let err = load_with("script { fn f() { eval(\"1\") } }", &opts).unwrap_err();
    assert!(err.starts_with("mettle::script::syntax"), "{err}");
    let err = load_with("script { import \"x\" as y; fn f() { 1 } }", &opts).unwrap_err();
    assert!(err.starts_with("mettle::script::syntax"), "{err}");
}

#[test]
fn an_endless_loop_is_stopped() {
    assert_eq!(code_of("loop { } []"), "mettle::script::too_many_steps");
}

#[test]
fn endless_recursion_is_stopped() {
    let r = load_with(
        "script { fn down(n) { down(n + 1) } fn react(c) { down(0) } }\non spotted { follow react(creature) }",
        &LoadOptions::default(),
    )
    .unwrap();
    assert_eq!(fails(&r).code, "mettle::script::too_deep");
}

#[test]
fn a_string_that_doubles_forever_is_stopped() {
    assert_eq!(code_of("let s = \"ab\"; loop { s += s; } []"), "mettle::script::too_large");
}

#[test]
fn padding_an_array_to_a_billion_is_stopped() {
    assert_eq!(code_of("let a = []; a.pad(1000000000, 0); []"), "mettle::script::too_large");
}

#[test]
fn a_print_flood_is_capped() {
    let r = reaction("for i in 0..5000 { print(i); } []");
    let mut s = session(&r);
    let orc = s.entity("orc").unwrap();
    s.apply("spotted", &[("creature", Value::Entity(orc))]).unwrap();
    let printed = s.log().iter().filter(|l| matches!(l.entry, mettle::LogEntry::Print { .. })).count();
    assert_eq!(printed, 1000);
}

#[test]
fn the_scripts_of_one_action_share_one_budget() {
    // Each call is well within its own limit; a hundred of them in one event are not.
    let mut budget = Budget::default();
    budget.set("script_operations", 500_000).unwrap();
    let opts = LoadOptions { budget, limits: steps_only(), ..Default::default() };
    let r = load_with(
        "script { fn busy(n) { let t = 0; for i in 0..20000 { t += 1; } t } }\n\
         on spotted { repeat { add 1 to creature.grit  set creature.grit to creature.grit + busy(0) - 20000 } until creature.grit >= 100 }",
        &opts,
    )
    .unwrap();
    let err = fails(&r);
    assert_eq!(err.code, "mettle::budget::script_operations");
    assert!(err.help.as_deref().unwrap().contains("--budget script_operations="), "{:?}", err.help);
}

#[test]
fn the_budget_starts_again_with_each_action() {
    let mut budget = Budget::default();
    budget.set("script_operations", 500_000).unwrap();
    let opts = LoadOptions { budget, limits: steps_only(), ..Default::default() };
    let r = load_with(
        "script { fn busy(n) { let t = 0; for i in 0..20000 { t += 1; } t } }\n\
         on spotted { set creature.grit to busy(0) }",
        &opts,
    )
    .unwrap();
    let mut s = session(&r);
    let orc = s.entity("orc").unwrap();
    // Each event spends about a tenth of the budget: fifty of them in a row all run.
    for _ in 0..50 {
        s.apply("spotted", &[("creature", Value::Entity(orc))]).unwrap();
    }
}

#[test]
fn a_scenario_over_the_script_budget_is_undone() {
    let mut budget = Budget::default();
    budget.set("script_operations", 100_000).unwrap();
    let opts = LoadOptions { budget, limits: steps_only(), ..Default::default() };
    let r = load_with(
        "script { fn busy(n) { let t = 0; for i in 0..20000 { t += 1; } t } }\n\
         scenario heavy { new creature x  set x.grit to busy(0)  set x.grit to busy(0)  set x.grit to busy(0)  set x.grit to busy(0)  set x.grit to busy(0)  set x.grit to busy(0) }",
        &opts,
    )
    .unwrap();
    let mut s = Session::new(&r, 1);
    assert_eq!(s.run_scenario("heavy").unwrap_err().code, "mettle::budget::script_operations");
    assert!(s.state().entities().is_empty());
}

#[test]
fn a_cancelled_script_stops() {
    let limits = ScriptLimits {
        operations: u64::MAX / 2,
        time: std::time::Duration::from_secs(600),
        ..Default::default()
    };
    let mut budget = Budget::default();
    budget.set("script_operations", u64::MAX / 2).unwrap();
    let opts = LoadOptions { limits, budget, ..Default::default() };
    let r = load_with("script { fn react(c) { loop { } } }\non spotted { follow react(creature) }", &opts)
        .unwrap();
    let mut s = session(&r);
    let state = s.state().clone();
    let flag = s.cancel_flag();
    let setter = std::thread::spawn(move || {
        for _ in 0..2_000 {
            flag.store(true, Ordering::Relaxed);
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    });
    let orc = s.entity("orc").unwrap();
    let err = s.apply("spotted", &[("creature", Value::Entity(orc))]).unwrap_err();
    setter.join().unwrap();
    assert_eq!(err.code, "mettle::run::cancelled");
    assert_eq!(s.state(), &state);
}

#[test]
fn an_entity_named_by_a_string_is_refused() {
    let err = fails(&reaction("set_to(\"boss\", \"stance\", \"wary\")"));
    assert_eq!(err.code, "mettle::script::bad_action");
    assert!(err.message.contains("by its name"), "{}", err.message);
}

#[test]
fn a_forged_map_is_refused() {
    let err = fails(&reaction("set_to(#{name: \"boss\", kind: \"creature\"}, \"stance\", \"wary\")"));
    assert_eq!(err.code, "mettle::script::bad_action");
    assert!(err.message.contains("did not give"), "{}", err.message);
}

#[test]
fn a_view_with_its_name_changed_is_refused() {
    let err = fails(&reaction("c.name = \"boss\"; set_to(c, \"stance\", \"wary\")"));
    assert_eq!(err.code, "mettle::script::bad_action");
}

#[test]
fn a_forged_action_map_naming_a_stranger_is_refused() {
    let err = fails(&reaction("#{action: \"set\", who: \"boss\", attr: \"stance\", value: \"wary\"}"));
    assert_eq!(err.code, "mettle::script::bad_action");
}

#[test]
fn an_entity_attribute_set_from_a_name_is_refused() {
    let err = fails(&reaction("set_to(c, \"leader\", \"orc\")"));
    assert_eq!(err.code, "mettle::script::bad_action");
}

#[test]
fn removing_the_smallest_number_is_refused() {
    let err = fails(&reaction("remove_from(c, \"grit\", -9223372036854775807 - 1)"));
    assert_eq!(err.code, "mettle::script::failed");
}

#[test]
fn entities_given_and_reached_can_be_changed() {
    let r = reaction(
        "[set_to(c, \"stance\", \"wary\"), set_to(c.leader, \"stance\", \"wary\"), order(`follow ${c.leader}`)]",
    );
    let mut s = session(&r);
    let orc = s.entity("orc").unwrap();
    s.apply("spotted", &[("creature", Value::Entity(orc))]).unwrap();
    assert_eq!(s.show(s.get("orc", "stance").unwrap()), "wary");
    assert_eq!(s.show(s.get("boss", "stance").unwrap()), "wary");
    assert_eq!(s.state().orders()[0].text, "follow boss");
}

#[test]
fn a_reached_entity_still_reads_as_its_name() {
    let r = reaction(
        "if c.leader == \"boss\" && c.leader.kind == \"creature\" { order(\"led by the boss\") } else { order(\"alone\") }",
    );
    let mut s = session(&r);
    let orc = s.entity("orc").unwrap();
    s.apply("spotted", &[("creature", Value::Entity(orc))]).unwrap();
    assert_eq!(s.state().orders()[0].text, "led by the boss");
}
