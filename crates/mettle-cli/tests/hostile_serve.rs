//! Hostile clients of `mettle serve`, and whole commands held to their budgets of work. A server reads no
//! file unless started with `--root DIR`, and then only regular files under DIR, found without following
//! a link out of it; every request is held to the command's budgets. Each case checks the reply's code
//! and that the server answers the next request as before; each command case checks its code and exit.

use serde_json::{Value, json};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Runs `mettle serve ARGS` with `requests` (each followed by a `state` request, to show the server
/// goes on): the replies, and the time it took.
fn serve_in(dir: &Path, args: &[&str], requests: &[Value]) -> (Vec<Value>, std::time::Duration) {
    let start = std::time::Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .arg("serve")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mettle serve starts");
    let mut input = String::new();
    for (i, r) in requests.iter().enumerate() {
        input.push_str(&format!("{r}\n"));
        input.push_str(&format!("{}\n", req(1000 + i as i64, "state", json!({}))));
    }
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the server ends well: {}", String::from_utf8_lossy(&out.stderr));
    let replies: Vec<Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(replies.len(), requests.len() * 2, "one reply a request");
    (replies, start.elapsed())
}

fn serve(dir: &Path, args: &[&str], requests: &[Value]) -> Vec<Value> {
    serve_in(dir, args, requests).0
}

fn req(id: i64, method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
}

fn code(reply: &Value) -> &str {
    reply["error"]["data"]["errors"][0]["code"].as_str().unwrap_or("(no error)")
}

/// The reply to the `state` request after a failed request that came after a good `load`: the server
/// is alive and the session is the one loaded before.
fn goes_on(reply: &Value) {
    assert!(reply["result"]["state"].is_object(), "the server answers the next request: {reply}");
}

const SECRET: &str = "TOP-SECRET first token";

/// A folder for the server's root with one good ruleset, and a secret file beside it (outside).
fn setup() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(
        root.join("ok.mettle"),
        "check c { roll d6  outcome six when total == 6  otherwise other }\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("secret.mettle"), format!("{SECRET}\n")).unwrap();
    (dir, root)
}

fn load_file(id: i64, file: &str) -> Value {
    req(id, "load", json!({ "file": file }))
}

fn text_load(id: i64) -> Value {
    req(
        id,
        "load",
        json!({ "text": "check c { roll d6  outcome six when total == 6  otherwise other }", "name": "t" }),
    )
}

/// Loads from text first, then asks `bad`: its reply, and that the text's session goes on.
fn refused(dir: &Path, args: &[&str], bad: Value) -> Value {
    let r = serve(dir, args, &[text_load(1), bad]);
    goes_on(&r[3]);
    assert!(!r[2].to_string().contains("TOP-SECRET"), "no file's contents in a reply: {}", r[2]);
    r[2].clone()
}

#[test]
fn a_file_is_refused_without_a_root() {
    let (dir, _) = setup();
    let r = refused(dir.path(), &[], load_file(2, "root/ok.mettle"));
    assert_eq!(code(&r), "mettle::serve::files_off");
    assert_eq!(r["error"]["code"], 6);
    let r = refused(dir.path(), &[], load_file(2, "secret.mettle"));
    assert_eq!(code(&r), "mettle::serve::files_off");
}

#[test]
fn a_file_under_the_root_loads() {
    let (dir, root) = setup();
    let r = serve(dir.path(), &["--root", root.to_str().unwrap()], &[load_file(1, "ok.mettle")]);
    assert_eq!(r[0]["result"]["checks"][0], "c", "{}", r[0]);
    goes_on(&r[1]);
}

#[test]
fn a_path_out_through_dot_dot_is_refused() {
    let (dir, root) = setup();
    let r = refused(dir.path(), &["--root", root.to_str().unwrap()], load_file(2, "../secret.mettle"));
    assert_eq!(code(&r), "mettle::serve::outside_root");
    let r = refused(dir.path(), &["--root", root.to_str().unwrap()], load_file(2, "sub/../../secret.mettle"));
    assert_eq!(code(&r), "mettle::serve::outside_root");
}

#[test]
fn an_absolute_path_is_refused_even_inside_the_root() {
    let (dir, root) = setup();
    let args = ["--root", root.to_str().unwrap()];
    let r = refused(dir.path(), &args, load_file(2, dir.path().join("secret.mettle").to_str().unwrap()));
    assert_eq!(code(&r), "mettle::serve::outside_root");
    let r = refused(dir.path(), &args, load_file(2, root.join("ok.mettle").to_str().unwrap()));
    assert_eq!(code(&r), "mettle::serve::outside_root");
    let r = refused(dir.path(), &args, load_file(2, "/etc/passwd"));
    assert_eq!(code(&r), "mettle::serve::outside_root");
}

#[test]
fn a_link_out_of_the_root_is_refused() {
    let (dir, root) = setup();
    std::os::unix::fs::symlink(dir.path().join("secret.mettle"), root.join("link.mettle")).unwrap();
    std::os::unix::fs::symlink(dir.path(), root.join("up")).unwrap();
    let args = ["--root", root.to_str().unwrap()];
    let r = refused(dir.path(), &args, load_file(2, "link.mettle"));
    assert_eq!(code(&r), "mettle::serve::outside_root");
    let r = refused(dir.path(), &args, load_file(2, "up/secret.mettle"));
    assert_eq!(code(&r), "mettle::serve::outside_root");
}

#[test]
fn a_link_that_stays_in_the_root_is_followed() {
    let (dir, root) = setup();
    std::os::unix::fs::symlink(root.join("ok.mettle"), root.join("same.mettle")).unwrap();
    let r = serve(dir.path(), &["--root", root.to_str().unwrap()], &[load_file(1, "same.mettle")]);
    assert_eq!(r[0]["result"]["checks"][0], "c", "{}", r[0]);
}

#[test]
fn a_pipe_under_the_root_is_refused_without_waiting() {
    let (dir, root) = setup();
    let fifo = root.join("pipe.mettle");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let (r, took) = serve_in(
        dir.path(),
        &["--root", root.to_str().unwrap()],
        &[text_load(1), load_file(2, "pipe.mettle")],
    );
    assert_eq!(code(&r[2]), "mettle::io::not_a_file");
    goes_on(&r[3]);
    assert!(took.as_secs() < 20, "no wait on the pipe: {took:?}");
}

#[test]
fn a_device_reached_through_a_link_is_refused() {
    let (dir, root) = setup();
    std::os::unix::fs::symlink("/dev/zero", root.join("zero.mettle")).unwrap();
    let r = refused(dir.path(), &["--root", root.to_str().unwrap()], load_file(2, "zero.mettle"));
    assert_eq!(code(&r), "mettle::serve::outside_root");
}

#[test]
fn a_folder_is_not_a_ruleset() {
    let (dir, root) = setup();
    std::fs::create_dir(root.join("folder.mettle")).unwrap();
    let r = refused(dir.path(), &["--root", root.to_str().unwrap()], load_file(2, "folder.mettle"));
    assert_eq!(code(&r), "mettle::io::not_a_file");
}

#[test]
fn a_huge_file_is_refused_unread() {
    let (dir, root) = setup();
    let f = std::fs::File::create(root.join("huge.mettle")).unwrap();
    f.set_len(64 * 1024 * 1024).unwrap();
    let r = refused(
        dir.path(),
        &["--root", root.to_str().unwrap(), "--budget", "ruleset_bytes=1000000"],
        load_file(2, "huge.mettle"),
    );
    assert_eq!(code(&r), "mettle::io::too_large");
}

#[test]
fn a_missing_file_is_said_without_guessing() {
    let (dir, root) = setup();
    let r = refused(dir.path(), &["--root", root.to_str().unwrap()], load_file(2, "nope.mettle"));
    assert_eq!(code(&r), "mettle::serve::no_such_file");
    let r = refused(dir.path(), &["--root", root.to_str().unwrap()], load_file(2, ""));
    assert_eq!(code(&r), "mettle::serve::outside_root");
}

#[test]
fn a_root_that_is_not_a_folder_stops_the_server_at_once() {
    let (dir, root) = setup();
    let out = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(["serve", "--root", root.join("ok.mettle").to_str().unwrap()])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("mettle::serve::bad_root"));
}

#[test]
fn a_text_ruleset_reads_no_script_file_without_a_root() {
    let (dir, _) = setup();
    std::fs::write(dir.path().join("r.rhai"), "fn f() { 1 }").unwrap();
    let text = "script \"r.rhai\"\ncheck c { roll d6  otherwise done }";
    let r = refused(dir.path(), &[], req(2, "load", json!({ "text": text })));
    assert_eq!(r["error"]["code"], 1);
    assert_eq!(code(&r), "mettle::script::unreadable", "{r}");
    assert!(r["error"]["message"].as_str().unwrap().contains("not given"), "{r}");
}

#[test]
fn the_ruleset_named_on_the_command_line_is_read_wherever_it_is() {
    let (dir, _) = setup();
    let ok = repo().join("rulesets/infinite_frontiers.mettle");
    let r = serve(dir.path(), &[ok.to_str().unwrap()], &[req(1, "export", json!({}))]);
    assert!(r[0]["result"].is_object(), "{}", r[0]);
}

const HEAVY: &str = "kind unit { inner: 0..1000 = 0  outer: 0..1000 = 0 }
check peek for unit { roll d6  modifier \"in\" +unit.inner  modifier \"out\" +unit.outer  otherwise done }
scenario heavy {
  new unit w
  repeat {
    set w.inner to 0
    repeat { add 1 to w.inner } until w.inner >= 900
    add 1 to w.outer
  } until w.outer >= 900
}
scenario light { new unit w  expect w.outer == 0 }
";

#[test]
fn a_sim_request_is_held_to_the_total_budget_of_steps() {
    let (dir, _) = setup();
    let load = req(1, "load", json!({ "text": HEAVY, "name": "heavy.mettle" }));
    let sim = req(2, "sim", json!({ "scenario": "heavy", "runs": 100000 }));
    let (r, took) = serve_in(dir.path(), &["--budget", "total_steps=3000000"], &[load, sim]);
    assert_eq!(code(&r[2]), "mettle::budget::total_steps", "{}", r[2]);
    assert_eq!(r[2]["error"]["code"], 2);
    goes_on(&r[3]);
    assert!(took.as_secs() < 60, "{took:?}");
    // Within the budget, the same request is answered.
    let load = req(1, "load", json!({ "text": HEAVY, "name": "heavy.mettle" }));
    let sim = req(2, "sim", json!({ "scenario": "light", "runs": 1000 }));
    let r = serve(dir.path(), &["--budget", "total_steps=3000000"], &[load, sim]);
    assert_eq!(r[2]["result"]["runs"], 1000, "{}", r[2]);
}

#[test]
fn a_sim_request_of_a_check_is_held_to_the_budget_too() {
    let (dir, _) = setup();
    let load = req(1, "load", json!({ "text": HEAVY, "name": "heavy.mettle" }));
    let sim = req(2, "sim", json!({ "check": "peek", "runs": 5000 }));
    let r = serve(dir.path(), &["--budget", "total_steps=1000"], &[load, sim]);
    assert_eq!(code(&r[2]), "mettle::budget::total_steps", "{}", r[2]);
    goes_on(&r[3]);
}

/// A check of 400 dice: its exact odds are out of reach, and the estimate that replaces them stops
/// when the `odds_work` budget runs out, through serve as on the command line.
const POOL: &str = "check big { roll 400d6  outcome high when total >= 1410  otherwise low }\n";

#[test]
fn odds_through_serve_are_the_commands_within_the_same_budget() {
    let (dir, _) = setup();
    std::fs::write(dir.path().join("pool.mettle"), POOL).unwrap();
    let budget = "odds_work=20000000";
    let cmd = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(["odds", "pool.mettle", "big", "--json", "--budget", budget])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(cmd.status.success(), "{}", String::from_utf8_lossy(&cmd.stderr));
    let from_cmd: Value = serde_json::from_slice(&cmd.stdout).unwrap();
    let load = req(1, "load", json!({ "text": POOL, "name": "pool.mettle" }));
    let odds = req(2, "odds", json!({ "check": "big" }));
    let (r, took) = serve_in(dir.path(), &["--budget", budget], &[load, odds]);
    let from_serve = &r[2]["result"]["odds"];
    assert_eq!(from_serve["exact"], false);
    assert_eq!(from_serve["method"], from_cmd["method"], "the same way of answering");
    assert_eq!(from_serve["outcomes"], from_cmd["outcomes"], "the same answer");
    goes_on(&r[3]);
    assert!(took.as_secs() < 60, "{took:?}");
}

#[test]
fn an_odds_request_over_its_budget_is_estimated_and_the_server_goes_on() {
    let (dir, _) = setup();
    let load = req(1, "load", json!({ "text": POOL, "name": "pool.mettle" }));
    let odds = req(2, "odds", json!({ "check": "big" }));
    let (r, took) = serve_in(dir.path(), &["--budget", "odds_work=1000000"], &[load, odds]);
    assert_eq!(r[2]["result"]["odds"]["exact"], false, "{}", r[2]);
    goes_on(&r[3]);
    assert!(took.as_secs() < 30, "{took:?}");
}

// The command line: whole commands within their budgets.

fn mettle_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn heavy_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("heavy.mettle"), HEAVY).unwrap();
    dir
}

#[test]
fn sim_stops_at_the_total_budget_of_steps_and_says_so() {
    let dir = heavy_dir();
    let out = mettle_in(
        dir.path(),
        &["sim", "heavy.mettle", "heavy", "--runs", "1000", "--budget", "total_steps=3000000"],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("mettle::budget::total_steps") && err.contains("of 1000 runs done"), "{err}");
    assert!(err.contains("--budget total_steps=N"), "says how to raise it: {err}");
    assert!(out.stdout.is_empty(), "no report of a simulation cut short");
}

#[test]
fn sim_json_stops_at_the_total_budget_with_a_json_error() {
    let dir = heavy_dir();
    let out = mettle_in(
        dir.path(),
        &["sim", "heavy.mettle", "heavy", "--runs", "1000", "--json", "--budget", "total_steps=3000000"],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let doc: Value = serde_json::from_str(err.lines().last().unwrap()).unwrap();
    assert_eq!(doc["errors"][0]["code"], "mettle::budget::total_steps", "{err}");
}

#[test]
fn sim_within_the_total_budget_is_unchanged() {
    let dir = heavy_dir();
    let out = mettle_in(
        dir.path(),
        &["sim", "heavy.mettle", "light", "--runs", "3000", "--budget", "total_steps=100000"],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("3000 runs"));
    // Three thousand runs are at least three thousand steps.
    let out = mettle_in(
        dir.path(),
        &["sim", "heavy.mettle", "light", "--runs", "3000", "--budget", "total_steps=2000"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("mettle::budget::total_steps"));
}

#[test]
fn test_stops_at_the_total_budget_of_steps_and_says_so() {
    let dir = heavy_dir();
    for i in 0..4 {
        std::fs::write(dir.path().join(format!("h{i}.mettle")), HEAVY).unwrap();
    }
    let out = mettle_in(dir.path(), &["test", ".", "--budget", "total_steps=3000000"]);
    let (said, err) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{said}{err}");
    assert!(err.contains("mettle::budget::total_steps") && err.contains("the tests took"), "{err}");
    assert!(said.matches("ok ").count() < 10, "stopped before the end: {said}");
}

#[test]
fn test_within_the_total_budget_is_unchanged() {
    let dir = heavy_dir();
    let out = mettle_in(dir.path(), &["test", "heavy.mettle", "--budget", "total_steps=100000000"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("2 passed, 0 failed"));
}

#[test]
fn a_budget_of_total_steps_misspelt_is_a_usage_error() {
    let dir = heavy_dir();
    let out = mettle_in(dir.path(), &["sim", "heavy.mettle", "light", "--budget", "total_step=5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("total_steps"));
}

/// Sends SIGINT to a long `mettle sim` once it has started: it stops cleanly, with a coded message and
/// exit status 130, and reports nothing.
#[test]
fn ctrl_c_stops_a_long_sim_cleanly() {
    let dir = heavy_dir();
    let child = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(["sim", "heavy.mettle", "heavy", "--runs", "1000000", "--threads", "1"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let start = std::time::Instant::now();
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("mettle::sim::cancelled") && err.contains("of 1000000 runs done"), "{err}");
    assert!(out.stdout.is_empty());
    assert!(start.elapsed().as_secs() < 20, "stopped soon: {:?}", start.elapsed());
}

#[test]
fn ctrl_c_stops_test_cleanly() {
    let dir = heavy_dir();
    for i in 0..200 {
        std::fs::write(dir.path().join(format!("h{i:03}.mettle")), HEAVY).unwrap();
    }
    let child = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(["test", "."])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("mettle::cli::interrupted"), "{err}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("FAILED"), "a stopped scenario is not a failure");
}
