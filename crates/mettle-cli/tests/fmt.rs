//! `mettle fmt`: formatting every shipped ruleset, test ruleset and documented example changes no
//! meaning, keeps every comment, and is idempotent; messy inputs come out as in the snapshots; the
//! command rewrites files in place and `--check` reports without writing.

use mettle::internals::RulesetInternals as _;
use mettle::{LoadOptions, Ruleset, Session};
use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// A ruleset to format: a name for messages, its text, and the folder its scripts are read from.
struct Case {
    name: String,
    text: String,
    base: PathBuf,
}

/// The `.mettle` files of a folder.
fn files_in(dir: &str) -> Vec<Case> {
    let dir = Path::new(ROOT).join(dir);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mettle"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "{} has rulesets", dir.display());
    paths
        .into_iter()
        .map(|p| Case {
            name: p.strip_prefix(ROOT).unwrap().display().to_string(),
            text: std::fs::read_to_string(&p).unwrap(),
            base: dir.clone(),
        })
        .collect()
}

/// The ```mettle blocks of a Markdown file.
fn blocks_in(file: &str) -> Vec<Case> {
    let text = std::fs::read_to_string(Path::new(ROOT).join(file)).unwrap();
    let mut out = vec![];
    let mut rest = text.as_str();
    while let Some(start) = rest.find("```mettle\n") {
        let body = &rest[start + "```mettle\n".len()..];
        let end = body.find("```").expect("every block is closed");
        out.push(Case {
            name: format!("{file} block {}", out.len() + 1),
            text: body[..end].to_string(),
            base: PathBuf::from(ROOT),
        });
        rest = &body[end..];
    }
    out
}

/// Every ruleset the formatter must handle.
fn corpus() -> Vec<Case> {
    let mut all = files_in("rulesets");
    all.extend(files_in("tests/inputs/good"));
    for doc in ["README.md", "docs/language.md", "docs/security.md", "docs/editors.md"] {
        if Path::new(ROOT).join(doc).exists() {
            all.extend(blocks_in(doc));
        }
    }
    all
}

fn format(case: &Case) -> String {
    mettle::fmt::format(&case.text).unwrap_or_else(|d| panic!("{} does not format: {d:?}", case.name))
}

#[test]
fn formatting_is_idempotent() {
    for case in corpus() {
        let once = format(&case);
        let twice = mettle::fmt::format(&once).unwrap();
        assert_eq!(once, twice, "{}: formatting the formatted text changes it", case.name);
    }
}

/// Removes every `Span { start: …, end: … }` from a debug print.
fn strip_spans(debug: &str) -> String {
    let mut out = String::new();
    let mut rest = debug;
    while let Some(at) = rest.find("Span { start: ") {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        rest = &rest[rest.find('}').unwrap() + 1..];
    }
    out + rest
}

/// Removes the `"line"` members (where things are defined) from an outline.
fn without_lines(json: &mut serde_json::Value) {
    match json {
        serde_json::Value::Object(map) => {
            map.remove("line");
            map.values_mut().for_each(without_lines);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(without_lines),
        _ => {}
    }
}

/// What a loaded ruleset means: its outline (without lines), its compiled program (without spans),
/// and what each of its scenarios does with seed 0 (without spans).
fn meaning(rules: &Ruleset) -> (serde_json::Value, String, Vec<String>) {
    let mut outline = mettle::export::outline(rules);
    without_lines(&mut outline);
    let program = strip_spans(&format!("{:?}", rules.program()));
    let mut scenarios = vec![];
    for sc in &rules.program().scenarios {
        let mut s = Session::new(rules, 0);
        let report = s.run_scenario(&sc.name).map(|r| (r.passed, r.failures.len()));
        scenarios.push(strip_spans(&format!("{} {report:?} {:?}", sc.name, s.log())));
    }
    (outline, program, scenarios)
}

#[test]
fn formatting_keeps_the_meaning() {
    let mut scenarios = 0;
    for case in corpus() {
        let opts = LoadOptions { base: Some(case.base.clone()), ..Default::default() };
        let Ok(before) = Ruleset::load(&case.name, &case.text, &opts) else {
            panic!("{} does not load", case.name)
        };
        let after = Ruleset::load(&case.name, &format(&case), &opts)
            .unwrap_or_else(|e| panic!("{} no longer loads once formatted:\n{}", case.name, e.render(100)));
        let (a, b) = (meaning(&before), meaning(&after));
        assert_eq!(a.0, b.0, "{}: the outline differs", case.name);
        assert!(a.1 == b.1, "{}: the compiled program differs", case.name);
        assert_eq!(a.2, b.2, "{}: a scenario runs differently", case.name);
        scenarios += a.2.len();
    }
    assert!(scenarios > 50, "the corpus runs scenarios ({scenarios})");
}

/// The `//` comments and `///` doc lines of a text (outside strings), trimmed, in order.
fn comments(text: &str) -> Vec<String> {
    let mut out = vec![];
    for line in text.lines() {
        let mut in_string = false;
        let bytes = line.as_bytes();
        for i in 0..bytes.len() {
            match bytes[i] {
                b'"' => in_string = !in_string,
                b'/' if !in_string && bytes.get(i + 1) == Some(&b'/') => {
                    out.push(line[i..].trim_end().to_string());
                    break;
                }
                _ => {}
            }
        }
    }
    out
}

#[test]
fn every_comment_survives() {
    let mut total = 0;
    for case in corpus() {
        let before = comments(&case.text);
        let after = comments(&format(&case));
        assert_eq!(before, after, "{}: the comments differ", case.name);
        total += before.len();
    }
    assert!(total > 500, "the corpus has comments ({total})");
}

#[test]
fn shipped_rulesets_and_documented_examples_are_formatted() {
    for case in corpus().into_iter().filter(|c| !c.name.starts_with("tests/")) {
        assert!(format(&case) == case.text, "{} is not formatted: run `mettle fmt`", case.name);
    }
}

/// Messy inputs and what the formatter makes of them.
const MESSY: &[(&str, &str)] = &[
    (
        "kind_and_check",
        "   // leading comment   \n\n\n/// The title   \nruleset   \"Messy\"\nkind unit{spi:0..6=3 morale:steady|shaken|broken=steady,strict // trailing\n  /// doc on hp\n      hp : 1.. = 5\n   flags: flag=no}\ncheck morale for unit{input extra:0..3=0\nroll (unit.spi)d6kh2 as r\nmodifier \"Spirit\" +unit.spi dice when unit.spi>2 max 3\ntarget 7 // target\n  let m=total-target\noutcome ok when total>=target{set unit.morale to steady}\notherwise bad{if m < -3 {set unit.morale to broken} else if m<0{set unit.morale to shaken}else{note \"close\"}}\n}\n",
    ),
    (
        "ladders_tables_events",
        "/// Doc lines lose their trailing spaces:   \n///\t\n\n/// even after a blank line.  \nladder lvl{a=1 b=2\nc=3}\nevent hit ( unit:unit , n : -3..3 = -1 )\ndefine bonus(u:unit)=u.spi+2*(u.hp-1)/  2\ntable t(x:int)->lvl{..-1:a  0:b\n   1..:c}\n\n\n\nresult win \"Win\"   // the win\nevent long(a: int, b: int,\n                c: int)\n",
    ),
    (
        "statements",
        "on hit when unit.hp>n\n{\n  // first\n  remove n from unit.hp\n\n\n  // second\n\n  roll morale for unit with extra=1,\n      extra = 2\n  with chance 1/3 {note \"a\"}   otherwise {note \"b\"}\n  repeat {set unit.hp to unit.hp - 1}\n  until unit.hp<=0\n  for each unit u where u.hp==0{end game with win for u}\n  trigger hit(unit:unit,n:count(dice, >= 5))\n  let x = if unit.spi > 2 then d6 else 2d6x\n  let y = -x + (-3)\n  expect x is not none, \"msg\"\n}\non quiet {\n\n}\n",
    ),
    (
        "scenario_and_script",
        "scenario s \"desc\"{new unit a with spi=2 dice 3, 4,5\n  choose c \"Pick?\" from yes|no default no\n  record \"r\"=1\n  trigger hit(unit:a,\n  situation: {in_combat: yes,\n friends: [{name: \"goblin\", distance: 3},\n {name: \"troll\"}]})\n  expect not order \"y\", \"z\"\n  set a.hp to 3 until end of turn\n  answer c = yes\n  follow react(a, {k: [1, 2, {z: \"q\"}], \"s\": none})\n  follow react(a, {// map\n  k: [// list\n 1, 2]})\n}\nscript {\n  fn react(a, s) { [] }\n    // kept as written\n}\n// trailing comment at the end\n\n\n",
    ),
    (
        "table_rows",
        "table wound_level(w: wound, party: flag) -> difficulty {\nminor, no: difficult\n  minor, yes:   routine // kept\n  incapacitating, yes: formidable\n  // a comment ends the run\n  ..-10: a\n  -9..-7:b\n\n  0: c  1: d\n  otherwise:\n    e\n}\n",
    ),
    (
        "shapes",
        "/// Host data.\nshape situation{in_combat:flag=no\n enemies:list of{name:text,distance:0..}=[]\n  friends : list of {\n name: text\n    distance: 0..   // how far\n } = []\n guarding:{name:text,distance:0..}=none}\n",
    ),
    (
        "continued_lines",
        "define trained(c: character) =\nc.military or (c.police\n and c.hunting)\non creature_killed when a and b\n   and c {\n   trigger x\n} // after\n  // before the end\n",
    ),
];

#[test]
fn messy_inputs() {
    for (name, text) in MESSY {
        let tidy = mettle::fmt::format(text).unwrap_or_else(|d| panic!("{name}: {d:?}"));
        assert_eq!(mettle::fmt::format(&tidy).unwrap(), tidy, "{name} is idempotent");
        assert_eq!(comments(text), comments(&tidy), "{name} keeps its comments");
        insta::assert_snapshot!(*name, tidy);
    }
}

#[test]
fn unparseable_text_is_refused_with_its_diagnostic() {
    for text in ["kind unit { spi 0..6 }", "on x { set a }", "\"open", "kind {", "}}}", "d0"] {
        let err = mettle::fmt::format(text).unwrap_err();
        assert!(err.iter().any(|d| d.code.starts_with("mettle::parse::")), "{text}: {err:?}");
    }
}

#[test]
fn arbitrary_text_never_panics() {
    // Every prefix of a real ruleset, and some noise: each either formats or is refused.
    let text = std::fs::read_to_string(Path::new(ROOT).join("rulesets/combat_hq.mettle")).unwrap();
    let cuts: Vec<usize> = (0..text.len()).step_by(97).filter(|&i| text.is_char_boundary(i)).collect();
    for at in cuts {
        if let Ok(tidy) = mettle::fmt::format(&text[..at]) {
            assert_eq!(mettle::fmt::format(&tidy).unwrap(), tidy);
        }
    }
    for noise in ["\u{feff}kind a {}", "kind a {}\r\n\r\n", "kind a {}\rkind b {}", "\0", "////", "/// x"] {
        let _ = mettle::fmt::format(noise);
    }
}

/// A fresh folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mettle-fmt-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    dir
}

fn mettle(args: &[&str], dir: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mettle")).args(args).current_dir(dir).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code().unwrap_or(-1), text(out.stdout), text(out.stderr))
}

const MESSY_FILE: &str = "kind unit{spi:0..6=3}\non hit{set unit.spi to 1 note \"hit\"} // done\n";
const TIDY_FILE: &str =
    "kind unit { spi: 0..6 = 3 }\non hit {\n  set unit.spi to 1\n  note \"hit\"\n} // done\n";

#[test]
fn check_reports_a_diff_and_writes_nothing() {
    let dir = temp_dir("check");
    std::fs::write(dir.join("sub/messy.mettle"), MESSY_FILE).unwrap();
    std::fs::write(dir.join("tidy.mettle"), TIDY_FILE).unwrap();
    std::fs::write(dir.join("notes.txt"), "kind{").unwrap();
    let (code, out, err) = mettle(&["fmt", "--check", "."], &dir);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.starts_with("--- ./sub/messy.mettle\n+++ ./sub/messy.mettle (formatted)\n@@ -1,2 +1,5 @@\n"),
        "{out}"
    );
    assert!(out.contains("-kind unit{spi:0..6=3}\n-on hit{set unit.spi to 1 note \"hit\"} // done\n+kind unit { spi: 0..6 = 3 }\n+on hit {\n+  set unit.spi to 1\n+  note \"hit\"\n+} // done\n"), "{out}");
    assert!(!out.contains("tidy.mettle"), "{out}");
    assert!(err.contains("1 file is not formatted"), "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("sub/messy.mettle")).unwrap(), MESSY_FILE);

    let (code, out, _) = mettle(&["fmt", "--check", "tidy.mettle"], &dir);
    assert_eq!((code, out.as_str()), (0, ""));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fmt_rewrites_files_in_place() {
    let dir = temp_dir("write");
    std::fs::write(dir.join("sub/messy.mettle"), MESSY_FILE).unwrap();
    std::fs::write(dir.join("tidy.mettle"), TIDY_FILE).unwrap();
    let (code, out, err) = mettle(&["fmt", "."], &dir);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out, "formatted ./sub/messy.mettle\n");
    assert_eq!(std::fs::read_to_string(dir.join("sub/messy.mettle")).unwrap(), TIDY_FILE);
    assert_eq!(std::fs::read_to_string(dir.join("tidy.mettle")).unwrap(), TIDY_FILE);
    // No temporary file is left beside them.
    let mut names: Vec<String> = std::fs::read_dir(dir.join("sub"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["messy.mettle"]);
    let (code, out, _) = mettle(&["fmt", "--check", "."], &dir);
    assert_eq!((code, out.as_str()), (0, ""));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_that_does_not_parse_is_reported_and_left_alone() {
    let dir = temp_dir("broken");
    let broken = "kind unit {spi 0..6}\n";
    std::fs::write(dir.join("broken.mettle"), broken).unwrap();
    std::fs::write(dir.join("messy.mettle"), MESSY_FILE).unwrap();
    for args in [&["fmt", "--check", "."][..], &["fmt", "."]] {
        let (code, _, err) = mettle(args, &dir);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains("mettle::parse::"), "{err}");
        assert!(err.contains("broken.mettle"), "{err}");
        assert_eq!(std::fs::read_to_string(dir.join("broken.mettle")).unwrap(), broken);
    }
    // The file that parses was still formatted.
    assert_eq!(std::fs::read_to_string(dir.join("messy.mettle")).unwrap(), TIDY_FILE);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn nothing_to_format_is_a_usage_error() {
    let dir = temp_dir("empty");
    let (code, _, err) = mettle(&["fmt", "sub"], &dir);
    assert_eq!(code, 2);
    assert!(err.contains("mettle::fmt::no_files"), "{err}");
    let (code, _, err) = mettle(&["fmt", "missing.mettle"], &dir);
    assert_eq!(code, 1);
    assert!(err.contains("mettle::fmt::read"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `text` with every run of whitespace between tokens replaced by a pseudo-random choice of spaces,
/// tabs and line breaks (a run after a comment keeps a line break; strings and comments are kept).
fn reshuffled(text: &str, seed: u64) -> String {
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut next = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    const CHOICES: [&str; 6] = [" ", "  ", "\n", "\n\n\n", "\t ", " \n  "];
    let (mut out, mut in_string, mut in_comment) = (String::new(), false, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if in_comment || in_string || !c.is_whitespace() {
            out.push(c);
            if in_comment && c == '\n' {
                in_comment = false;
            } else if !in_comment && c == '"' {
                in_string = !in_string;
            } else if !in_string && c == '/' && chars.peek() == Some(&'/') {
                in_comment = true;
            }
            continue;
        }
        let mut run = c.to_string();
        while let Some(&w) = chars.peek().filter(|w| w.is_whitespace()) {
            run.push(w);
            chars.next();
        }
        let choice = CHOICES[next() % CHOICES.len()];
        // Keep a line break where there was one half of the time, so that comments' lines survive.
        if run.contains('\n') && !choice.contains('\n') && next() % 2 == 0 {
            out.push('\n')
        } else {
            out.push_str(choice)
        }
    }
    out
}

#[test]
fn reshuffled_whitespace_formats_and_is_idempotent() {
    let mut formatted = 0;
    for case in files_in("rulesets") {
        // Scripts are copied as written; reshuffling inside them says nothing about the formatter.
        if case.text.contains("script {") {
            continue;
        }
        for seed in 0..6 {
            let text = reshuffled(&case.text, seed);
            if !mettle::internals::syntax::parse(&text).1.is_empty() {
                continue;
            }
            let tidy = mettle::fmt::format(&text)
                .unwrap_or_else(|d| panic!("{} (seed {seed}) does not format: {d:?}\n{text}", case.name));
            assert_eq!(mettle::fmt::format(&tidy).unwrap(), tidy, "{} (seed {seed})", case.name);
            assert_eq!(comments(&text), comments(&tidy), "{} (seed {seed})", case.name);
            formatted += 1;
        }
    }
    assert!(formatted >= 10, "{formatted} reshuffled rulesets formatted");
}

#[test]
fn stdin_is_formatted_to_stdout() {
    use std::io::Write;
    let run = |args: &[&str], input: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mettle"))
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
        (out.status.code().unwrap_or(-1), text(out.stdout), text(out.stderr))
    };
    assert_eq!(run(&["fmt", "--stdin"], MESSY_FILE), (0, TIDY_FILE.to_string(), String::new()));
    let (code, out, _) = run(&["fmt", "--stdin", "--check"], MESSY_FILE);
    assert_eq!(code, 1);
    assert!(out.starts_with("--- <stdin>\n+++ <stdin> (formatted)\n"), "{out}");
    assert_eq!(run(&["fmt", "--stdin", "--check"], TIDY_FILE), (0, String::new(), String::new()));
    let (code, out, err) = run(&["fmt", "--stdin"], "kind unit {spi 0..6}");
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("mettle::parse::") && err.contains("<stdin>:1:"), "{err}");
}

#[cfg(unix)]
#[test]
fn a_link_is_never_written_through() {
    let dir = temp_dir("link");
    std::fs::write(dir.join("real.mettle"), MESSY_FILE).unwrap();
    std::os::unix::fs::symlink("real.mettle", dir.join("link.mettle")).unwrap();
    // The link named is refused; the folder's walk passes it by and formats the file itself.
    let (code, out, err) = mettle(&["fmt", "link.mettle", "."], &dir);
    assert_eq!((code, out.as_str()), (1, "formatted ./real.mettle\n"), "{err}");
    assert!(err.contains("mettle::io::link"), "{err}");
    assert!(std::fs::symlink_metadata(dir.join("link.mettle")).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_to_string(dir.join("real.mettle")).unwrap(), TIDY_FILE);
    std::fs::remove_dir_all(&dir).unwrap();
}
