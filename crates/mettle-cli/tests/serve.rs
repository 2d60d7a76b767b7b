//! `mettle serve`: one reply a request, errors that leave the session as it was, budgets, undo, and the
//! transcript in docs/protocol.md kept true (`METTLE_UPDATE_DOCS=1 cargo test -p mettle-cli --test serve`
//! rewrites it).

use serde_json::{Value, json};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Runs `mettle serve ARGS` with `lines` on its input: its replies, as text, one a line.
fn serve_text(args: &[&str], input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mettle"))
        .arg("serve")
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("mettle serve starts");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap().lines().map(String::from).collect()
}

fn serve(args: &[&str], requests: &[Value]) -> Vec<Value> {
    let input: String = requests.iter().map(|r| format!("{r}\n")).collect();
    serve_text(args, &input).iter().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn req(id: i64, method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
}

/// The value of attribute `name` of the first entity in a reply's state.
fn attr(reply: &Value, name: &str) -> Value {
    let attrs = reply["result"]["state"]["entities"][0]["attributes"].as_array().unwrap();
    attrs.iter().find(|a| a["name"] == name).unwrap()["value"].clone()
}

const IF: &str = "rulesets/infinite_frontiers.mettle";

#[test]
fn a_bad_request_gets_a_coded_error_and_the_session_goes_on_unchanged() {
    let unit = json!({ "kind": "unit", "name": "y", "with": { "spi": 3 } });
    let replies = serve(
        &[IF],
        &[
            req(1, "create", unit.clone()),
            req(2, "state", json!({})),
            req(3, "aply", json!({})),
            json!({ "jsonrpc": "2.0", "method": "state" }),
            json!({ "jsonrpc": "1.0", "id": 5, "method": "state" }),
            req(6, "apply", json!({ "event": "engaged", "facts": { "unit": "y", "enemies": "two" } })),
            req(7, "apply", json!({ "event": "engaged", "facts": { "unit": "z", "enemies": 2 } })),
            req(
                8,
                "apply",
                json!({ "event": "engaged", "facts": { "unit": "y", "enemies": 2, "enemys": 1 } }),
            ),
            req(9, "create", unit),
            req(10, "roll", json!({ "check": "morale", "set": { "spi": 2 }, "bogus": 1 })),
            req(11, "state", json!({})),
        ],
    );
    let code =
        |r: &Value| (r["error"]["code"].as_i64().unwrap(), r["error"]["data"]["errors"][0]["code"].clone());
    assert_eq!(code(&replies[2]), (-32601, json!("mettle::serve::unknown_method")));
    assert_eq!(replies[2]["error"]["data"]["errors"][0]["help"], "did you mean `apply`?");
    assert_eq!((replies[3]["id"].clone(), code(&replies[3]).0), (Value::Null, -32600));
    assert_eq!((replies[4]["id"].clone(), code(&replies[4]).0), (json!(5), -32600));
    assert_eq!(code(&replies[5]), (-32602, json!("mettle::value::wrong_type")));
    assert_eq!(code(&replies[6]), (2, json!("mettle::value::unknown_entity")));
    assert_eq!(replies[7]["error"]["data"]["errors"][0]["help"], "did you mean `enemies`?");
    assert_eq!(code(&replies[8]), (2, json!("mettle::run::duplicate")));
    assert_eq!(code(&replies[9]).0, -32602);
    assert_eq!(
        replies[1]["result"]["state"], replies[10]["result"]["state"],
        "no failed request changed anything"
    );
}

#[test]
fn undo_takes_back_steps_and_load_and_a_failed_step_is_not_one() {
    let replies = serve(
        &[IF, "--seed", "3"],
        &[
            req(1, "create", json!({ "kind": "unit", "name": "y" })),
            req(2, "apply", json!({ "event": "wounded", "facts": { "unit": "y", "loss": 2 } })),
            req(3, "apply", json!({ "event": "wounded", "facts": { "unit": "y", "loss": 200 } })),
            req(4, "undo", json!({})),
            req(5, "log", json!({})),
            req(6, "undo", json!({})),
            req(7, "undo", json!({})),
        ],
    );
    let hp = |r: &Value| attr(r, "hp");
    assert_eq!(hp(&replies[1]), json!(4));
    assert!(replies[2]["error"].is_object(), "a loss over the range is refused: {}", replies[2]);
    assert_eq!(hp(&replies[3]), json!(6), "undo took back the wound, not the refused request");
    assert_eq!(replies[4]["result"]["length"], 1, "the log is cut back to the creation");
    assert_eq!(replies[5]["result"]["state"]["entities"], json!([]));
    assert_eq!(replies[6]["error"]["data"]["errors"][0]["code"], "mettle::serve::nothing_to_undo");
}

#[test]
fn save_and_restore_round_trip_and_odds_leave_the_game_alone() {
    let replies = serve(
        &[IF],
        &[
            req(1, "create", json!({ "kind": "unit", "name": "y", "with": { "morale": "shaken" } })),
            req(2, "save", json!({})),
            req(3, "odds", json!({ "check": "morale", "for": "y", "set": { "spi": 2 } })),
            req(4, "set", json!({ "entity": "y", "attribute": "morale", "value": "broken" })),
            req(5, "set", json!({ "option": "bonus_die", "value": "extra_d6" })),
            req(6, "state", json!({})),
        ],
    );
    let save = replies[1]["result"]["save"].clone();
    let odds = &replies[2]["result"]["odds"];
    assert_eq!(odds["outcomes"][0], json!({ "outcome": "broken", "probability": 1.0 / 6.0, "exact": "1/6" }));
    assert_eq!(attr(&replies[5], "morale"), "broken");
    assert_eq!(
        replies[5]["result"]["state"]["options"][0],
        json!({ "name": "bonus_die", "value": "extra_d6" })
    );
    let restored = serve(&[IF], &[req(1, "restore", json!({ "save": save })), req(2, "state", json!({}))]);
    assert_eq!(attr(&restored[1], "morale"), "shaken");
}

/// A small ruleset `load` takes as text, with `hp` declared as `hp` says (`0..10 = 6`).
fn small(hp: &str) -> Value {
    let text = format!(
        "// A small game.\nkind unit {{ hp: {hp} }}\nevent hit(unit: unit)\non hit {{ remove 1 from unit.hp }}\n\
         check c {{ roll d6  otherwise done }}"
    );
    json!({ "text": text, "name": "small.mettle", "seed": 3 })
}

#[test]
fn a_save_without_its_log_and_a_trimmed_log_keep_the_line_numbers() {
    let replies = serve(
        &[],
        &[
            req(1, "load", small("0..10 = 6")),
            req(2, "create", json!({ "kind": "unit", "name": "u" })),
            req(3, "apply", json!({ "event": "hit", "facts": { "unit": "u" } })),
            req(4, "roll", json!({ "check": "c" })),
            req(5, "trim_log", json!({ "keep": 2 })),
            req(6, "log", json!({ "from": 0 })),
            req(7, "log", json!({ "from": 4 })),
            req(8, "save", json!({ "log": false })),
            req(9, "save", json!({})),
            req(10, "trim_log", json!({})),
        ],
    );
    // new, event, rule, change, check: five lines, three let go.
    assert_eq!(
        replies[4]["result"],
        json!({ "mettle": { "schema": 1 }, "dropped": 3, "first": 3, "length": 5 })
    );
    assert_eq!(
        (replies[5]["result"]["first"].clone(), replies[5]["result"]["length"].clone()),
        (json!(3), json!(5))
    );
    assert_eq!(replies[5]["result"]["log"].as_array().unwrap().len(), 2);
    assert_eq!(replies[6]["result"]["log"].as_array().unwrap().len(), 1);
    assert_eq!(replies[6]["result"]["log"][0]["type"], "check");
    let without = &replies[7]["result"]["save"];
    assert_eq!((without["log"].clone(), without["log_dropped"].clone()), (json!([]), json!(5)));
    assert_eq!(replies[8]["result"]["save"]["log"].as_array().unwrap().len(), 2);
    assert_eq!(replies[9]["error"]["data"]["errors"][0]["code"], "mettle::serve::bad_params");
    let restored = serve(
        &[],
        &[
            req(1, "load", small("0..10 = 6")),
            req(2, "restore", json!({ "save": without })),
            req(3, "log", json!({})),
        ],
    );
    assert_eq!(restored[2]["result"]["first"], 5);
    assert_eq!(restored[2]["result"]["length"], 5);
}

#[test]
fn restore_names_what_changed_and_adapts_only_when_asked() {
    let saved = serve(
        &[],
        &[
            req(1, "load", small("0..10 = 6")),
            req(2, "create", json!({ "kind": "unit", "name": "u" })),
            req(3, "save", json!({})),
        ],
    );
    let save = saved[2]["result"]["save"].clone();
    let replies = serve(
        &[],
        &[
            req(1, "load", small("0..8 = 6")),
            req(2, "restore", json!({ "save": save })),
            req(3, "restore", json!({ "save": save, "adapt": true })),
            req(4, "load", small("0..4 = 2")),
            req(5, "restore", json!({ "save": save, "adapt": true })),
        ],
    );
    let refused = &replies[1]["error"]["data"]["errors"][0];
    assert_eq!(refused["code"], "mettle::save::changed_rules");
    assert_eq!(
        refused["message"],
        "the rules changed since this save: attribute hp of unit: was 0..10, now 0..8"
    );
    let warning = &replies[2]["result"]["warnings"][0];
    assert_eq!(warning["code"], "mettle::save::changed_rules");
    assert_eq!(attr(&replies[2], "hp"), 6);
    let unfit = &replies[4]["error"]["data"]["errors"][0];
    assert_eq!(unfit["code"], "mettle::save::does_not_fit");
    assert_eq!(
        unfit["message"],
        "this save cannot be carried over to the changed rules: `u.hp` is 6, outside 0..4"
    );
}

#[test]
fn set_reaches_any_entity_and_suggests_attributes() {
    // `set` is the library's host change: an entity whose name is not a plain word is set as well.
    let replies = serve(
        &[IF],
        &[
            req(1, "create", json!({ "kind": "unit", "name": "y hp" })),
            req(2, "set", json!({ "entity": "y hp", "attribute": "spi", "value": 2 })),
            req(3, "set", json!({ "entity": "y hp", "attribute": "spy", "value": 2 })),
        ],
    );
    assert_eq!(replies[1]["result"]["log"][0]["to"], 2, "{}", replies[1]);
    assert_eq!(replies[2]["error"]["data"]["errors"][0]["help"], "did you mean `spi`?");
}

#[test]
fn a_line_over_the_budget_is_refused_and_the_next_is_read() {
    let long = format!("{}\n", req(1, "state", json!({ "pad": "x".repeat(200) })));
    let input = format!("{long}{}\n", req(2, "state", json!({})));
    let replies: Vec<Value> = serve_text(&[IF, "--budget", "line_bytes=100"], &input)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies[0]["error"]["code"], 4);
    assert_eq!(replies[0]["error"]["data"]["errors"][0]["code"], "mettle::serve::line_too_long");
    assert!(replies[1]["result"]["state"].is_object());
}

#[test]
fn sim_runs_are_within_the_steps_budget() {
    let replies = serve(
        &[IF, "--budget", "steps=1000"],
        &[
            req(1, "sim", json!({ "scenario": "firefight", "runs": 5000 })),
            req(2, "sim", json!({ "scenario": "firefigt", "runs": 10 })),
        ],
    );
    assert_eq!(replies[0]["error"]["data"]["errors"][0]["code"], "mettle::serve::runs");
    assert_eq!(replies[1]["error"]["data"]["errors"][0]["help"], "did you mean `firefight`?");
}

#[test]
fn a_ruleset_that_does_not_load_is_an_error_with_places() {
    let replies = serve(
        &["--root", "."],
        &[
            req(1, "load", json!({ "file": "tests/inputs/bad/09_unknown_kind.mettle" })),
            req(2, "state", json!({})),
        ],
    );
    let e = &replies[0]["error"];
    assert_eq!(e["code"], 1);
    assert_eq!(e["data"]["errors"][0]["line"], 7);
    assert_eq!(replies[1]["error"]["data"]["errors"][0]["code"], "mettle::serve::no_ruleset");
}

/// The transcript in docs/protocol.md, made by running tests/drive/transcript.jsonl.
#[test]
fn the_protocol_transcript_is_what_serve_says() {
    keep_transcript("tests/drive/transcript.jsonl", "transcript");
}

/// The transcript of a question asked, answered and dropped, made by running
/// tests/drive/questions.jsonl.
#[test]
fn the_questions_transcript_is_what_serve_says() {
    keep_transcript("tests/drive/questions.jsonl", "questions");
}

/// The transcript of a log let go of and a save without its log, made by running
/// tests/drive/saves.jsonl.
#[test]
fn the_saves_transcript_is_what_serve_says() {
    keep_transcript("tests/drive/saves.jsonl", "saves");
}

/// Checks that the block between `<!-- NAME: start -->` and `<!-- NAME: end -->` in docs/protocol.md
/// is what serve says to the requests of `jsonl`, or rewrites it with `METTLE_UPDATE_DOCS=1`.
fn keep_transcript(jsonl: &str, name: &str) {
    let input = std::fs::read_to_string(root().join(jsonl)).unwrap();
    let replies = serve_text(&[], &input);
    let mut block = String::from("```\n");
    for (request, reply) in input.lines().zip(&replies) {
        block.push_str(&format!("→ {request}\n← {reply}\n"));
    }
    block.push_str("```\n");
    let path = root().join("docs/protocol.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let (start, end) = (format!("<!-- {name}: start -->\n"), format!("<!-- {name}: end -->"));
    let a = doc.find(&start).expect("the start marker") + start.len();
    let b = doc.find(&end).expect("the end marker");
    if std::env::var_os("METTLE_UPDATE_DOCS").is_some() {
        std::fs::write(&path, format!("{}{block}{}", &doc[..a], &doc[b..])).unwrap();
        return;
    }
    assert!(
        doc[a..b] == block,
        "docs/protocol.md's {name} transcript is stale: run with METTLE_UPDATE_DOCS=1"
    );
}

/// An Infinite Frontiers engagement where the rules ask two choices: played over serve, each question
/// asked, answered and run on, it ends as the library's session with a chooser that gives the same
/// answers: the same state, the same dice.
#[test]
fn an_engagement_asked_over_serve_ends_as_with_a_chooser() {
    let units = [("a1", "a", 3), ("a2", "a", 3), ("x", "b", 2)];
    let mut requests = vec![req(1, "load", json!({ "file": IF, "seed": 11 }))];
    for (i, side) in ["a", "b"].iter().enumerate() {
        requests.push(req(2 + i as i64, "create", json!({ "kind": "side", "name": side })));
    }
    for (i, (name, side, spi)) in units.iter().enumerate() {
        let with = json!({ "side": side, "spi": spi });
        requests.push(req(4 + i as i64, "create", json!({ "kind": "unit", "name": name, "with": with })));
    }
    let events = [
        json!({ "event": "turn_start" }),
        json!({ "event": "assign_ap", "facts": { "side": "b" } }),
        json!({ "event": "attack", "facts": { "unit": "a1", "dice_pool": 3 } }),
        json!({ "event": "wounded", "facts": { "unit": "x", "loss": 3 } }),
    ];
    let asked = [("holder", "x"), ("ap_use", "extra_die")];
    requests.extend(events.iter().enumerate().map(|(i, e)| req(10 + i as i64, "apply", e.clone())));
    // Each question is answered after the request that asks it: assign_ap, then wounded.
    requests.insert(8, req(20, "answer", json!({ "choice": asked[0].0, "value": asked[0].1 })));
    requests.push(req(21, "answer", json!({ "choice": asked[1].0, "value": asked[1].1 })));
    requests.push(req(22, "state", json!({})));
    let replies = serve(&["--root", "."], &requests);
    for r in &replies {
        assert!(r.get("error").is_none(), "{r}");
    }
    let by_id = |id: i64| replies.iter().find(|r| r["id"] == id).unwrap()["result"].clone();
    let q = &by_id(11)["outcome"]["question"];
    assert_eq!((&q["choice"], &q["asker"], &q["options"]), (&json!("holder"), &json!("b"), &json!(["x"])));
    assert!(by_id(11)["log"].as_array().unwrap().is_empty(), "nothing happened yet");
    let q = &by_id(13)["outcome"]["question"];
    assert_eq!((&q["choice"], &q["asker"], &q["default"]), (&json!("ap_use"), &json!("x"), &json!("keep")));
    let morale = by_id(21)["outcome"]["checks"][0].clone();
    assert_eq!(morale["check"], "morale");
    let modifiers = morale["modifiers"].as_array().unwrap();
    assert!(modifiers.iter().any(|m| m["label"] == "Action Point: extra die"), "the AP was spent: {morale}");

    // The library, with a chooser giving the same answers.
    let rules = mettle::Ruleset::from_path(root().join(IF)).unwrap();
    let mut s = mettle::Session::new(&rules, 11);
    for side in ["a", "b"] {
        s.create("side", side, &[]).unwrap();
    }
    for (name, side, spi) in units {
        let side = mettle::Value::Entity(s.entity(side).unwrap());
        s.create("unit", name, &[("side", side), ("spi", mettle::Value::Int(spi))]).unwrap();
    }
    s.set_chooser(move |q: &mettle::Question| {
        let (_, answer) = asked.iter().find(|(c, _)| *c == q.choice).expect("an expected question");
        let value = match q.shown.iter().position(|o| o == answer) {
            Some(i) => q.options[i].clone(),
            None => return mettle::Reply::Default,
        };
        mettle::Reply::Answer(value)
    });
    let x = mettle::Value::Entity(s.entity("x").unwrap());
    let a1 = mettle::Value::Entity(s.entity("a1").unwrap());
    let b = mettle::Value::Entity(s.entity("b").unwrap());
    s.apply("turn_start", &[]).unwrap();
    s.apply("assign_ap", &[("side", b)]).unwrap();
    s.apply("attack", &[("unit", a1), ("dice_pool", mettle::Value::Int(3))]).unwrap();
    let done = s.apply("wounded", &[("unit", x), ("loss", mettle::Value::Int(3))]).unwrap();
    let rolled = serde_json::to_value(mettle::wire::check(&s, &done.checks[0])).unwrap();
    assert_eq!(rolled, morale, "the same dice");
    let state = serde_json::to_value(mettle::wire::state(&s)).unwrap();
    assert_eq!(by_id(22)["state"], state);
}

#[test]
fn a_removed_entity_restored_from_a_save_is_named_by_nothing() {
    let rules = mettle::Ruleset::from_path(root().join(IF)).unwrap();
    let mut s = mettle::Session::new(&rules, 1);
    for name in ["y", "z"] {
        s.create("unit", name, &[]).unwrap();
    }
    s.remove_entity("y").unwrap();
    let replies = serve(
        &[IF],
        &[
            req(1, "restore", json!({ "save": serde_json::from_str::<Value>(&s.save()).unwrap() })),
            req(2, "set", json!({ "entity": "y", "attribute": "spi", "value": 2 })),
            req(3, "set", json!({ "entity": "z", "attribute": "spi", "value": 2 })),
            req(4, "state", json!({})),
        ],
    );
    assert!(replies[0]["result"].is_object(), "{}", replies[0]);
    assert_eq!(
        replies[1]["error"]["data"]["errors"][0]["code"], "mettle::value::unknown_entity",
        "{}",
        replies[1]
    );
    assert_eq!(replies[2]["result"]["log"][0]["to"], 2, "{}", replies[2]);
    let entities = replies[3]["result"]["state"]["entities"].as_array().unwrap();
    assert_eq!(entities.len(), 1, "only `z` is in play");
    assert_eq!(entities[0]["name"], "z");
    assert_eq!(attr(&replies[3], "spi"), 2);
}
