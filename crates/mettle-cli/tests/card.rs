//! `mettle card`: the Markdown card of every shipped ruleset as a snapshot, the HTML card's content
//! and print style, escaping of a hostile ruleset, and the command line (`--format`, `-o`).

use mettle::internals::RulesetInternals as _;
use std::path::Path;
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Runs `mettle ARGS` from the crate's folder, without colour.
fn mettle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mettle"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("the mettle binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const RULESETS: [&str; 5] =
    ["combat_hq", "dice_pool_morale", "infinite_frontiers", "shadow_deep_stress", "traveller_morale"];

#[test]
fn the_markdown_card_of_every_shipped_ruleset() {
    for name in RULESETS {
        let o = mettle(&["card", &format!("rulesets/{name}.mettle"), "--format", "md"]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        insta::assert_snapshot!(format!("card_md_{name}"), stdout(&o));
    }
}

fn html_of(name: &str) -> String {
    let rules = mettle::Ruleset::from_path(root().join(format!("rulesets/{name}.mettle"))).expect("it loads");
    mettle::card::html::render(&mettle::card::build(&rules))
}

#[test]
fn the_html_card_names_every_check_and_outcome_with_an_odds_table() {
    for name in RULESETS {
        let rules =
            mettle::Ruleset::from_path(root().join(format!("rulesets/{name}.mettle"))).expect("it loads");
        let html = mettle::card::html::render(&mettle::card::build(&rules));
        let p = rules.program();
        for c in &p.checks {
            assert!(html.contains(&format!("<h3>{}", c.name)), "{name}: check {} has a heading", c.name);
            for o in &p.sets[c.outcome_set as usize].names {
                assert!(html.contains(&format!("<b>{o}</b>")), "{name}: outcome {o} of {} is named", c.name);
            }
        }
        assert!(html.contains("<table class=\"odds\">"), "{name}: an odds table");
        assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    }
}

#[test]
fn the_morale_odds_are_exact_fractions_over_spirit_and_comms_with_resolve() {
    let html = html_of("infinite_frontiers");
    // Resolve earned takes a column beside the outcomes: comms (two values) fits beside it, not
    // leadership (four).
    assert!(html.contains("<b>Odds</b> by <code>spi</code> (rows) and <code>comms</code> (columns)"));
    assert!(html.contains("<th scope=\"col\">unit.resolve_next = yes</th>"), "{html}");
    // With SPI 2 and no leader, d6 + 2 reaches 7 on a 5 or a 6.
    let md = stdout(&mettle(&["card", "rulesets/infinite_frontiers.mettle", "--format", "md"]));
    let row = md.lines().find(|l| l.starts_with("| 2 | 16.7% (1/6) |")).expect("the SPI 2 row");
    assert!(row.contains("| 33.3% (1/3) | 50.0% (1/2) |"), "{row}");
    // Resolve: a 6 on the die, 1 in 6 whatever the spirit, at SPI 0 only with comms' +1.
    assert!(row.starts_with("| 2 | 16.7% (1/6) | 33.3% (1/3) | 50.0% (1/2) | 16.7% (1/6) |"), "{row}");
    let row = md.lines().find(|l| l.starts_with("| 0 | 16.7% (1/6) |")).expect("the SPI 0 row");
    assert!(row.starts_with("| 0 | 16.7% (1/6) | 0% | 83.3% (5/6) | 0% |"), "{row}");
}

#[test]
fn the_html_card_is_self_contained_and_made_for_print() {
    let html = html_of("infinite_frontiers");
    for needle in
        ["@page", "break-inside: avoid", "page-break-inside: avoid", "print-color-adjust", "<style>"]
    {
        assert!(html.contains(needle), "the style has {needle}");
    }
    for outside in ["http://", "https://", "<link", "<script", "src=", "@import", "url("] {
        assert!(!html.contains(outside), "nothing fetched from outside: {outside}");
    }
}

/// A ruleset whose strings and doc comments try to break out of the page.
const HOSTILE: &str = r#"/// Doc with <script>alert("doc")</script> & a | pipe, `code | with pipe` and **stars**.
ruleset "</title><script>alert('title')</script>"

/// <img src=x onerror=alert(1)> the unit's "kind" & more
///
/// 3. not a list
kind unit {
  /// <script>attr()</script>
  nerve: 0..3 = 1
  morale: steady | shaken = steady
}

/// # not a heading | cell
check morale for unit {
  /// <b>input</b>
  input pressure: 0..2 = 0
  roll 2d6
  modifier "<script>alert('label')</script> | & ``" +unit.nerve
  modifier "Pressure" -pressure
  target 7
  /// - a list? <i>no</i>
  outcome holds when total >= target { note "<script>note()</script> | x" }
  otherwise wavers {
    set unit.morale to shaken
    choose go "Run? <script>q()</script>" from yes | no default no
  }
}
"#;

#[test]
fn text_from_a_hostile_ruleset_is_escaped_in_html() {
    let rules = mettle::Ruleset::from_str("hostile <x>.mettle", HOSTILE).expect("it loads");
    let card = mettle::card::build(&rules);
    let html = mettle::card::html::render(&card);
    assert!(!html.contains("<script"), "no script element gets through");
    assert!(!html.contains("<img"), "no image element gets through");
    assert!(!html.contains("<b>input</b>"), "doc comments are text");
    assert!(html.contains("&lt;/title&gt;&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;"));
    assert!(html.contains("&lt;script&gt;alert(&#39;label&#39;)&lt;/script&gt; | &amp; ``"));
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt; the unit&#39;s &quot;kind&quot; &amp; more"));
    assert!(html.contains("hostile &lt;x&gt;.mettle"));
    // Exactly one title element and one style element: nothing closed them early.
    assert_eq!(html.matches("<title>").count(), 1);
    assert_eq!(html.matches("</title>").count(), 1);
    assert_eq!(html.matches("</style>").count(), 1);
}

#[test]
fn text_from_a_hostile_ruleset_is_escaped_in_markdown() {
    let rules = mettle::Ruleset::from_str("hostile.mettle", HOSTILE).expect("it loads");
    let md = mettle::card::md::render(&mettle::card::build(&rules));
    assert!(!md.replace("\\<", "").contains('<'), "no raw HTML in the Markdown:\n{md}");
    assert!(md.contains("\\<script\\>"));
    assert!(md.contains("\\*\\*stars\\*\\*"), "marks in docs are escaped:\n{md}");
    assert!(md.contains("`` code | with pipe ``") || md.contains("`code | with pipe`"), "{md}");
    assert!(!md.lines().any(|l| l.starts_with("# not")), "a doc cannot start a heading:\n{md}");
    assert!(md.lines().any(|l| l == "3\\. not a list"), "nor a numbered list:\n{md}");
    // Every row of every table has as many cells as its header.
    for table in md.split("\n\n").filter(|b| b.starts_with('|')) {
        let cells = |l: &str| l.replace("\\|", "").matches('|').count();
        let mut lines = table.lines();
        let head = cells(lines.next().unwrap_or_default());
        for l in lines {
            assert_eq!(cells(l), head, "{l}");
        }
    }
    assert!(md.contains("\\<script\\>alert('label')\\</script\\> \\| \\& \\`\\`"), "{md}");
}

#[test]
fn a_card_has_a_place_for_each_kind_of_section() {
    let rules =
        mettle::Ruleset::from_path(root().join("rulesets/traveller_morale.mettle")).expect("it loads");
    let card = mettle::card::build(&rules);
    let headings: Vec<&str> = card.sections.iter().map(|s| s.heading()).collect();
    assert_eq!(headings, ["Checks", "States and ladders", "Tables", "When things happen", "Pieces"]);
    assert_eq!(card.title, "Traveller Morale");
}

// ---------------------------------------------------------------- the command line

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mettle-card-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

#[test]
fn dash_o_writes_the_card_whole_and_leaves_nothing_beside_it() {
    let dir = temp_dir("out");
    let out = dir.join("frontiers.html");
    std::fs::write(&out, "<!DOCTYPE html>\n<p>an old card</p>").expect("an old card");
    let o = mettle(&["card", "rulesets/infinite_frontiers.mettle", "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    let written = std::fs::read_to_string(&out).expect("written");
    assert!(written.starts_with("<!DOCTYPE html>"));
    let md = dir.join("frontiers.md");
    let o = mettle(&[
        "card",
        "rulesets/infinite_frontiers.mettle",
        "--format",
        "md",
        "--output",
        md.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&md).expect("written").starts_with("# Infinite Frontiers"));
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "no temporary file left: {names:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dash_o_never_writes_through_a_folder_or_a_link() {
    let dir = temp_dir("refuse");
    let o = mettle(&["card", "rulesets/combat_hq.mettle", "-o", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("mettle::io::not_a_file"), "{}", stderr(&o));
    #[cfg(unix)]
    {
        let target = dir.join("target.txt");
        std::fs::write(&target, "keep me").unwrap();
        let link = dir.join("link.html");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let o = mettle(&["card", "rulesets/combat_hq.mettle", "-o", link.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1));
        assert!(stderr(&o).contains("mettle::io::link"), "{}", stderr(&o));
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    }
    let o = mettle(&[
        "card",
        "rulesets/combat_hq.mettle",
        "-o",
        dir.join("no/such/folder.html").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("mettle::io::write"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("mettle::mettle::"), "the code is printed once: {}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_format_is_a_usage_error_and_a_bad_ruleset_shows_its_diagnostics() {
    let o = mettle(&["card", "rulesets/combat_hq.mettle", "--format", "pdf"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("pdf"), "{}", stderr(&o));
    let o = mettle(&["card", "tests/inputs/bad/08_unknown_name.mettle"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("mettle::"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    let o = mettle(&["card", "no/such/file.mettle"]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn every_card_is_made_quickly_within_its_budget_of_work() {
    // A check with huge pools: the card estimates, marks the estimates, and finishes.
    let text = r#"
        check big {
          input n: 1..12 = 1
          roll (n * 40)d100
          target 2000
          outcome high when total >= target
          otherwise low
        }"#;
    let rules = mettle::Ruleset::from_str("big.mettle", text).expect("it loads");
    let started = std::time::Instant::now();
    let md = mettle::card::md::render(&mettle::card::build(&rules));
    assert!(started.elapsed().as_secs() < 60, "took {:?}", started.elapsed());
    assert!(md.contains("| n |"), "{md}");
    assert!(md.contains("| 1 | ≈"), "estimates are marked:\n{md}");
    assert!(md.contains("*≈ estimated from at least "), "and said to be estimates:\n{md}");
}

#[test]
fn a_check_made_by_someone_runs_through_its_inputs_and_its_makers_attributes() {
    let text = r#"
        kind unit { nerve: 0..3 = 1  grit: 0..2 = 0  side: unit }
        check nerve for unit {
          input helped: flag = no
          input spirit: 0..4 = unit.grit
          roll 2d6
          modifier "Nerve" +unit.nerve
          modifier "Spirit" +spirit
          modifier "Help" +1 when helped
          target 9
          outcome holds when total >= target
          otherwise runs
        }"#;
    let rules = mettle::Ruleset::from_str("nerve.mettle", text).expect("it loads");
    let md = mettle::card::md::render(&mettle::card::build(&rules));
    assert!(md.contains("**Odds** by `spirit` and `unit.nerve`; everything else at its default."), "{md}");
    // Spirit 1 and nerve 3: 2d6 + 4 reaches 9 on a 5 or more, 30 rolls in 36.
    let row = md.lines().find(|l| l.starts_with("| 1 |")).expect("the spirit 1 row");
    assert!(row.ends_with("| 83.3% (5/6) | 16.7% (1/6) |"), "{row}");
    assert!(md.contains("- `spirit`: `0..4`, usually `unit.grit`"), "{md}");
}

#[test]
fn the_card_names_the_house_rules_it_was_made_under() {
    let md = |extra: &[&str]| {
        let mut args = vec!["card", "rulesets/infinite_frontiers.mettle", "--format", "md"];
        args.extend_from_slice(extra);
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_mettle"))
            .args(&args)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let plain = md(&[]);
    assert!(plain.contains("## House rules"), "{plain}");
    assert!(plain.contains("Readings: `extra_d6 | flat_plus_one`; this card uses **flat\\_plus\\_one**."));
    let dice = md(&["--option", "bonus_die=extra_d6"]);
    assert!(dice.contains("this card uses **extra\\_d6**."));
    // The odds follow the reading: a leader's die changes the morale table.
    assert_ne!(plain.split("### morale").nth(1), dice.split("### morale").nth(1));
}
