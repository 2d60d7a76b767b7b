//! Hostile saves: corrupt, edited, oversized or foreign saves are refused whole with a coded error,
//! and the REPL never writes over a file that is not a save, nor loses a good save.

use mettle::internals::RulesetInternals as _;
use mettle::internals::repl::Repl;
use mettle::{Budget, LoadOptions, Ruleset, Session, Value};
use serde_json::json;
use std::path::PathBuf;

const RULES: &str = r#"
kind side { vp: 0..10 = 0 }
kind unit { side: side = none  hp: 0..6 = 6  morale: steady | shaken = steady }
event hit(unit: unit)
on hit { remove 1 from unit.hp }
event dare(unit: unit)
on dare { choose go "Go on?" from yes | no default no  set unit.hp to 6 }
check c { roll d6  outcome high when total >= 4  otherwise low }
"#;

fn rules() -> Ruleset {
    Ruleset::from_str("saves.mettle", RULES).unwrap()
}

/// A session with a side, a unit on it, a roll and an answer waiting, saved, as JSON to edit.
fn saved() -> serde_json::Value {
    let r = rules();
    let mut s = Session::new(&r, 3);
    let blue = s.create("side", "blue", &[]).unwrap();
    s.create("unit", "u", &[("side", Value::Entity(blue))]).unwrap();
    s.roll("c", &[]).unwrap().rolled.unwrap();
    s.answer("go", Value::Bool(true)).unwrap();
    serde_json::from_str(&s.save()).unwrap()
}

/// Loads `v` and returns the error's code.
fn refused(v: &serde_json::Value) -> String {
    Session::load(&rules(), &v.to_string()).expect_err("the save should be refused").code
}

fn edited(f: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v = saved();
    f(&mut v);
    refused(&v)
}

#[test]
fn a_good_save_loads_and_plays_on() {
    let mut s = Session::load(&rules(), &saved().to_string()).unwrap();
    s.apply("hit", &[("unit", Value::Entity(1))]).unwrap();
}

#[test]
fn text_that_is_not_json_is_refused() {
    assert_eq!(Session::load(&rules(), "{ not json").unwrap_err().code, "mettle::save::not_a_save");
    assert_eq!(Session::load(&rules(), "").unwrap_err().code, "mettle::save::not_a_save");
    assert_eq!(Session::load(&rules(), "\u{0}\u{1}").unwrap_err().code, "mettle::save::not_a_save");
}

#[test]
fn json_nested_past_the_parser_limit_is_refused() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(Session::load(&rules(), &deep).unwrap_err().code, "mettle::save::not_a_save");
}

#[test]
fn a_save_over_the_budget_is_refused_before_it_is_read() {
    let mut budget = Budget::default();
    budget.set("save_bytes", 100).unwrap();
    let r = Ruleset::load("saves.mettle", RULES, &LoadOptions { budget, ..Default::default() }).unwrap();
    let text = saved().to_string();
    assert_eq!(Session::load(&r, &text).unwrap_err().code, "mettle::save::too_large");
}

#[test]
fn a_newer_format_is_refused() {
    assert_eq!(edited(|v| v["format"] = json!(99)), "mettle::save::newer_format");
}

#[test]
fn a_save_of_another_ruleset_is_refused() {
    let other = Ruleset::from_str("other.mettle", "kind thing { size: 0..3 = 1 }").unwrap();
    let text = saved().to_string();
    assert_eq!(Session::load(&other, &text).unwrap_err().code, "mettle::save::other_ruleset");
    let titled = |t: &str| Ruleset::from_str("t.mettle", &format!("ruleset \"{t}\"\n{RULES}")).unwrap();
    let text = Session::new(&titled("Mine"), 1).save();
    let e = Session::load(&titled("Yours"), &text).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.message.as_str()),
        ("mettle::save::other_ruleset", "this session was saved with another ruleset, \"Mine\"")
    );
}

#[test]
fn a_save_of_a_changed_ruleset_is_refused_naming_the_change() {
    let other = Ruleset::from_str("other.mettle", &format!("{RULES}\nkind extra {{ n: int = 0 }}")).unwrap();
    let e = Session::load(&other, &saved().to_string()).unwrap_err();
    assert_eq!(e.code, "mettle::save::changed_rules");
    assert_eq!(e.message, "the rules changed since this save: kind extra was added");
}

#[test]
fn a_save_of_a_changed_ruleset_loads_only_when_asked_with_a_warning() {
    let other = Ruleset::from_str("other.mettle", &format!("{RULES}\nkind extra {{ n: int = 0 }}")).unwrap();
    let (s, warnings) = Session::load_with(&other, &saved().to_string(), true).unwrap();
    assert_eq!(warnings[0].code, "mettle::save::changed_rules");
    assert_eq!(s.state().entities().len(), 2);
}

#[test]
fn a_save_that_does_not_fit_is_refused_even_when_asked() {
    let other = Ruleset::from_str("other.mettle", "kind thing { size: 0..3 = 1 }").unwrap();
    let err = Session::load_with(&other, &saved().to_string(), true).unwrap_err();
    assert_eq!(err.code, "mettle::save::does_not_fit");
    assert!(
        err.message.contains("`blue` is a side, and the ruleset no longer has that kind"),
        "{}",
        err.message
    );
}

/// The save as format 2 wrote it: a fingerprint of the ruleset's text and no structure.
fn format_2(v: &mut serde_json::Value) {
    v["format"] = json!(2);
    v.as_object_mut().unwrap().remove("structure");
}

#[test]
fn a_format_2_save_loads_when_its_fingerprint_is_the_ruleset_texts() {
    let mut v = saved();
    format_2(&mut v);
    assert!(Session::load(&rules(), &v.to_string()).is_ok());
    let edited = Ruleset::from_str("saves.mettle", &format!("{RULES}\n// edited since")).unwrap();
    assert_eq!(Session::load(&edited, &v.to_string()).unwrap_err().code, "mettle::save::other_ruleset");
    let (_, warnings) = Session::load_with(&edited, &v.to_string(), true).unwrap();
    assert_eq!(warnings[0].code, "mettle::save::other_ruleset");
}

#[test]
fn a_forged_fingerprint_is_refused() {
    assert_eq!(
        edited(|v| {
            format_2(v);
            v["fingerprint"] = json!("0000000000000000")
        }),
        "mettle::save::other_ruleset"
    );
}

#[test]
fn a_save_without_a_fingerprint_is_treated_as_foreign() {
    assert_eq!(
        edited(|v| {
            format_2(v);
            v.as_object_mut().unwrap().remove("fingerprint");
        }),
        "mettle::save::other_ruleset"
    );
}

#[test]
fn a_forged_structure_does_not_let_a_value_in() {
    // The save claims hp was 0..99, and holds 50: the change is named, and carrying it over refused.
    let forge = |v: &mut serde_json::Value| {
        v["structure"]["kinds"][1]["attributes"][1]["type"] = json!("0..99");
        v["state"]["entities"][1]["fields"][1] = json!({"Int": 50});
    };
    assert_eq!(edited(forge), "mettle::save::changed_rules");
    let mut v = saved();
    forge(&mut v);
    let e = Session::load_with(&rules(), &v.to_string(), true).unwrap_err();
    assert_eq!(e.code, "mettle::save::does_not_fit");
    assert!(e.message.contains("`u.hp` is 50, outside 0..6"), "{}", e.message);
}

#[test]
fn a_structure_that_points_nowhere_is_refused_not_trusted() {
    for forge in [
        json!({"kinds": [], "sets": [], "checks": [], "choices": [], "options": [], "results": 99}),
        json!({"kinds": [{"name": "unit", "attributes": []}], "sets": [], "checks": [], "choices": [], "options": [], "results": 0}),
        json!("not a structure"),
    ] {
        let mut v = saved();
        v["structure"] = forge;
        let plain = Session::load(&rules(), &v.to_string()).unwrap_err().code;
        assert!(plain.starts_with("mettle::save::"), "{plain}");
        if let Err(e) = Session::load_with(&rules(), &v.to_string(), true) {
            assert!(e.code.starts_with("mettle::save::"), "{}", e.code);
        }
    }
}

#[test]
fn an_entity_reference_to_nobody_is_refused() {
    assert_eq!(
        edited(|v| v["state"]["entities"][1]["fields"][0] = json!({"Entity": 99})),
        "mettle::save::bad_value"
    );
}

#[test]
fn an_entity_reference_of_the_wrong_kind_is_refused() {
    // The unit's side points at the unit itself.
    assert_eq!(
        edited(|v| v["state"]["entities"][1]["fields"][0] = json!({"Entity": 1})),
        "mettle::save::bad_value"
    );
}

#[test]
fn a_number_out_of_its_range_is_refused() {
    assert_eq!(
        edited(|v| v["state"]["entities"][1]["fields"][1] = json!({"Int": 99})),
        "mettle::save::bad_value"
    );
}

#[test]
fn a_value_of_the_wrong_type_is_refused() {
    assert_eq!(
        edited(|v| v["state"]["entities"][1]["fields"][1] = json!({"Bool": true})),
        "mettle::save::bad_value"
    );
}

#[test]
fn a_name_of_another_set_is_refused() {
    assert_eq!(
        edited(|v| v["state"]["entities"][1]["fields"][2] = json!({"Name": {"set": 0, "index": 0}})),
        "mettle::save::bad_value"
    );
}

#[test]
fn an_entity_of_an_unknown_kind_is_refused() {
    assert_eq!(edited(|v| v["state"]["entities"][0]["kind"] = json!(7)), "mettle::save::bad_value");
}

#[test]
fn two_entities_with_one_name_are_refused() {
    assert_eq!(edited(|v| v["state"]["entities"][1]["name"] = json!("blue")), "mettle::save::bad_value");
}

#[test]
fn a_timed_change_of_nobody_is_refused() {
    let timed = json!([{"entity": 42, "field": 0, "restore": {"Int": 1}, "expiry": "TurnEnd", "span": {"start": 0, "end": 0}}]);
    assert_eq!(edited(|v| v["state"]["timed"] = timed), "mettle::save::bad_value");
}

#[test]
fn a_timed_change_restoring_a_wrong_value_is_refused() {
    let timed = json!([{"entity": 1, "field": 1, "restore": {"Int": 1000}, "expiry": "TurnEnd", "span": {"start": 0, "end": 0}}]);
    assert_eq!(edited(|v| v["state"]["timed"] = timed), "mettle::save::bad_value");
}

#[test]
fn an_answer_of_the_wrong_type_is_refused() {
    assert_eq!(edited(|v| v["state"]["answers"] = json!([[0, {"Int": 5}]])), "mettle::save::bad_value");
    assert_eq!(edited(|v| v["state"]["answers"] = json!([[9, {"Bool": true}]])), "mettle::save::bad_value");
}

#[test]
fn a_last_result_of_another_check_is_refused() {
    assert_eq!(edited(|v| v["state"]["last"][0]["check_id"] = json!(3)), "mettle::save::bad_value");
    assert_eq!(edited(|v| v["state"]["last"][0]["outcome_index"] = json!(77)), "mettle::save::bad_value");
}

#[test]
fn negative_or_huge_ids_are_refused() {
    assert_eq!(edited(|v| v["state"]["entities"][0]["kind"] = json!(-1)), "mettle::save::not_a_save");
    assert_eq!(edited(|v| v["state"]["entities"][0]["kind"] = json!(1u64 << 40)), "mettle::save::not_a_save");
}

#[test]
fn counters_that_cannot_go_on_are_refused_and_the_largest_that_can_stops_with_an_error_not_a_wrap() {
    let mut v = saved();
    v["state"]["round"] = json!(i64::MAX);
    assert_eq!(refused(&v), "mettle::save::bad_value");
    v["state"]["round"] = json!(i64::MAX - 1);
    let mut s = Session::load(&rules(), &v.to_string()).unwrap();
    s.apply("round_start", &[]).unwrap();
    assert_eq!(s.apply("round_start", &[]).unwrap_err().code, "mettle::run::overflow");
    assert_eq!(s.state().round(), i64::MAX);
}

/// A fresh folder for REPL files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mettle-hostile-saves-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A REPL over the rules above, loaded from a file in `dir`.
fn repl_in(dir: &std::path::Path) -> Repl {
    let file = dir.join("saves.mettle");
    std::fs::write(&file, RULES).unwrap();
    let mut repl = Repl::new(1, false, 80);
    assert!(!repl.handle(&format!(":load {}", file.display())).failed);
    repl
}

#[test]
fn save_does_not_write_over_the_ruleset() {
    let dir = folder("over-ruleset");
    let mut repl = repl_in(&dir);
    let file = dir.join("saves.mettle");
    let reply = repl.handle(&format!(":save {}", file.display()));
    assert!(reply.failed);
    assert!(reply.err.contains("mettle::io::same_as_input"), "{}", reply.err);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), RULES);
    // Not even when forced.
    assert!(repl.handle(&format!(":save! {}", file.display())).err.contains("mettle::io::same_as_input"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), RULES);
    // The session goes on.
    assert!(!repl.handle("new side red").failed);
}

#[test]
fn save_bang_writes_over_any_file() {
    let dir = folder("bang");
    let mut repl = repl_in(&dir);
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "mine").unwrap();
    assert!(repl.handle(&format!(":save {}", notes.display())).failed);
    assert!(!repl.handle(&format!(":save! {}", notes.display())).failed);
    assert!(std::fs::read_to_string(&notes).unwrap().contains("mettle_repl"));
}

#[test]
fn save_writes_over_an_earlier_save() {
    let dir = folder("again");
    let mut repl = repl_in(&dir);
    let path = dir.join("s.json");
    assert!(!repl.handle(&format!(":save {}", path.display())).failed);
    assert!(!repl.handle("new side red").failed);
    assert!(!repl.handle(&format!(":save {}", path.display())).failed);
    assert!(std::fs::read_to_string(&path).unwrap().contains("red"));
}

#[test]
fn a_failed_save_keeps_the_old_one() {
    let dir = folder("failed");
    let mut repl = repl_in(&dir);
    let path = dir.join("s.json");
    assert!(!repl.handle(&format!(":save {}", path.display())).failed);
    let before = std::fs::read_to_string(&path).unwrap();
    // The folder can no longer be written to: the new file beside it cannot be made.
    let mut perms = std::fs::metadata(&dir).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o500);
    std::fs::set_permissions(&dir, perms.clone()).unwrap();
    assert!(!repl.handle("new side red").failed);
    let reply = repl.handle(&format!(":save {}", path.display()));
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o700);
    std::fs::set_permissions(&dir, perms).unwrap();
    // Root may write anywhere; then the save simply succeeds.
    if reply.failed {
        assert!(reply.err.contains("mettle::io::write"), "{}", reply.err);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
    }
}

#[test]
fn a_save_to_a_device_is_refused() {
    let dir = folder("full");
    let mut repl = repl_in(&dir);
    let reply = repl.handle(":save! /dev/full");
    assert!(reply.failed, "{}", reply.out);
    assert!(reply.err.contains("mettle::io::not_a_file"), "{}", reply.err);
    assert!(!repl.handle("new side red").failed);
}

#[test]
fn restore_refuses_a_corrupt_save_and_keeps_the_session() {
    let dir = folder("restore-corrupt");
    let mut repl = repl_in(&dir);
    assert!(!repl.handle("new side red").failed);
    let path = dir.join("bad.json");
    std::fs::write(&path, "{\"mettle_repl\": 1, \"items\": [], \"lets\": [], \"session\": {\"format\": 2}}")
        .unwrap();
    let reply = repl.handle(&format!(":restore {}", path.display()));
    assert!(reply.failed);
    assert!(reply.err.contains("mettle::save::not_a_save"), "{}", reply.err);
    assert_eq!(repl.session().state().entities().len(), 1);
}

#[test]
fn restore_of_a_device_is_refused() {
    let dir = folder("restore-dev");
    let mut repl = repl_in(&dir);
    let reply = repl.handle(":restore /dev/zero");
    assert!(reply.err.contains("mettle::io::not_a_file"), "{}", reply.err);
}

#[test]
fn restore_bang_loads_a_save_of_an_edited_ruleset_with_a_warning() {
    let dir = folder("restore-bang");
    let mut repl = repl_in(&dir);
    assert!(!repl.handle("new side red").failed);
    let path = dir.join("s.json");
    assert!(!repl.handle(&format!(":save {}", path.display())).failed);
    std::fs::write(dir.join("saves.mettle"), format!("{RULES}\n// a comment added later\n")).unwrap();
    assert!(!repl.handle(":reload").failed);
    let commented = repl.handle(&format!(":restore {}", path.display()));
    assert!(!commented.failed, "{}", commented.err);
    std::fs::write(dir.join("saves.mettle"), RULES.replace("vp: 0..10", "vp: 0..20")).unwrap();
    assert!(!repl.handle(":reload").failed);
    let strict = repl.handle(&format!(":restore {}", path.display()));
    assert!(strict.err.contains("mettle::save::changed_rules"), "{}", strict.err);
    assert!(strict.err.contains("attribute vp of side: was 0..10, now"), "{}", strict.err);
    let forced = repl.handle(&format!(":restore! {}", path.display()));
    assert!(!forced.failed, "{}", forced.err);
    assert!(forced.out.contains("warning"), "{}", forced.out);
}

#[test]
fn save_no_log_leaves_the_log_out_and_restores() {
    let dir = folder("save-no-log");
    let mut repl = repl_in(&dir);
    assert!(!repl.handle("new side red").failed);
    let (full, bare) = (dir.join("full.json"), dir.join("bare.json"));
    assert!(!repl.handle(&format!(":save {}", full.display())).failed);
    let reply = repl.handle(&format!(":save {} --no-log", bare.display()));
    assert!(!reply.failed, "{}", reply.err);
    let read = |p: &PathBuf| {
        serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    assert_eq!(read(&full)["session"]["log"].as_array().unwrap().len(), 1);
    assert_eq!(read(&bare)["session"]["log"], json!([]));
    assert_eq!(read(&bare)["session"]["log_dropped"], json!(1));
    let restored = repl.handle(&format!(":restore {}", bare.display()));
    assert!(!restored.failed, "{}", restored.err);
}

#[test]
fn a_count_of_lines_let_go_past_any_log_is_refused() {
    // With a log of its own, the numbering of the last line would run past what a count can hold.
    let code = edited(|v| v["log_dropped"] = serde_json::json!(u64::MAX));
    assert_eq!(code, "mettle::save::bad_value");
    let mut v = saved();
    v["log_dropped"] = serde_json::json!(12);
    let s = Session::load(&rules(), &v.to_string()).expect("a plain count loads");
    assert_eq!(s.log_start(), 12);
}

// ---------------------------------------------------------------- timed changes that end at an event

/// The saved session with a timed change of `u.hp` (from 6, to go back to 6) that ends as given.
fn timed_until(expiry: serde_json::Value, fact: Option<serde_json::Value>) -> serde_json::Value {
    let mut v = saved();
    let mut t = json!({"entity": 1, "field": 1, "restore": {"Int": 6}, "expiry": expiry, "span": {"start": 0, "end": 0}});
    if let Some(f) = fact {
        t["fact"] = f;
    }
    v["state"]["timed"] = json!([t]);
    v
}

#[test]
fn a_timed_change_until_an_event_is_saved_and_ends_when_it_fires_after_loading() {
    let r = rules();
    let hit = r.program().events.iter().position(|e| e.name == "hit").unwrap();
    // Ends when `hit` fires for unit #1; `hit` then takes 1 off: 6 - 1 = 5.
    let v = timed_until(json!({"Event": hit}), Some(json!([0, {"Entity": 1}])));
    let mut s = Session::load(&r, &v.to_string()).unwrap();
    let back: serde_json::Value = serde_json::from_str(&s.save()).unwrap();
    assert_eq!(back["state"]["timed"][0]["fact"], json!([0, {"Entity": 1}]), "the fact is saved");
    s.apply("hit", &[("unit", Value::Entity(1))]).unwrap();
    assert!(s.state().timed().is_empty(), "the change ended when the event fired for the unit");
}

#[test]
fn a_timed_change_until_an_event_the_ruleset_lacks_is_refused() {
    let v = timed_until(json!({"Event": 99}), None);
    let before = v.clone();
    assert_eq!(refused(&v), "mettle::save::bad_value");
    assert_eq!(v, before, "nothing of the save was changed");
}

#[test]
fn a_timed_change_waiting_for_a_fact_of_the_wrong_type_is_refused() {
    let hit = rules().program().events.iter().position(|e| e.name == "hit").unwrap();
    assert_eq!(
        refused(&timed_until(json!({"Event": hit}), Some(json!([0, {"Int": 3}])))),
        "mettle::save::bad_value"
    );
    assert_eq!(
        refused(&timed_until(json!({"Event": hit}), Some(json!([7, {"Entity": 1}])))),
        "mettle::save::bad_value"
    );
    assert_eq!(
        refused(&timed_until(json!("TurnEnd"), Some(json!([0, {"Entity": 1}])))),
        "mettle::save::bad_value"
    );
}
