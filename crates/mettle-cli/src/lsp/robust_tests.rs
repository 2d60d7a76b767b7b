//! Robustness: every request answered on prefixes, hostile and mangled texts; costly odds skipped.

use super::tests::{Client, pos, pos_json, rulesets, uri_of};
use serde_json::json;
use std::path::Path;
use std::time::Duration;

/// Opens every `stride`th prefix of the ruleset at `path` (at character boundaries) and asks for
/// everything at a few places in each.
fn prefixes(path: &Path, stride: usize) {
    let mut c = Client::start();
    let text = std::fs::read_to_string(path).unwrap();
    let uri = uri_of(path);
    c.open(&uri, "");
    let mut version = 1;
    for cut in (0..=text.len()).step_by(stride).filter(|&i| text.is_char_boundary(i)) {
        let prefix = &text[..cut];
        version += 1;
        c.change(&uri, version, prefix);
        let end = pos(prefix, "", prefix.matches("").count() - 1, 0);
        let mid = pos(prefix, "", prefix.len() / 2, 0);
        for p in [(0, 0), mid, end, (end.0, end.1.saturating_sub(1))] {
            for m in [
                "textDocument/hover",
                "textDocument/definition",
                "textDocument/completion",
                "textDocument/prepareRename",
                "textDocument/signatureHelp",
            ] {
                if let Err(e) =
                    c.try_request(m, json!({ "textDocument": { "uri": uri }, "position": pos_json(p) }))
                {
                    panic!("{m} at {p:?} of {} cut at {cut}: {e}", path.display());
                }
            }
        }
        for m in
            ["textDocument/documentSymbol", "textDocument/semanticTokens/full", "textDocument/foldingRange"]
        {
            if let Err(e) = c.try_request(m, json!({ "textDocument": { "uri": uri } })) {
                panic!("{m} of {} cut at {cut}: {e}", path.display());
            }
        }
    }
    c.stop();
}

#[test]
fn every_request_answers_on_prefixes_of_every_shipped_ruleset() {
    // One server per ruleset, side by side; a cut every 61 bytes (every kind of construct is cut
    // somewhere in each file, and the debug build stays under half a minute).
    let threads: Vec<_> =
        rulesets().into_iter().map(|p| std::thread::spawn(move || prefixes(&p, 61))).collect();
    for t in threads {
        t.join().expect("every prefix is answered");
    }
}

/// Asks every feature about `text` directly, at the start, the middle, the end and every `step`th
/// byte.
fn ask_everything(text: &str, step: usize) {
    use super::{complete, diag, features, outline};
    let a = super::analysis::Analysis::new(text, None, &Default::default());
    let uri: lsp_types::Uri = "file:///tmp/hostile.mettle".parse().unwrap();
    let _ = diag::to_lsp(&a, &uri);
    let _ = outline::document_symbols(&a);
    let _ = outline::folding_ranges(&a);
    let _ = outline::semantic_tokens(&a);
    let mut cache = super::odds::OddsCache::default();
    let offsets = (0..=text.len()).step_by(step.max(1)).chain([text.len() / 2, text.len()]);
    for o in offsets {
        let p = a.lines.position(&a.text, o);
        let _ = features::hover(&a, p, a.ruleset.as_ref(), &mut cache);
        let _ = features::definition(&a, &uri, p);
        let _ = features::references(&a, &uri, p, true);
        let _ = features::prepare_rename(&a, p);
        let _ = features::rename(&a, &uri, p, "fresh");
        let _ = complete::complete(&a, None, p);
        let _ = super::signature::signature_help(&a, None, p);
        let range = lsp_types::Range::new(p, p);
        let params = lsp_types::CodeActionParams {
            text_document: lsp_types::TextDocumentIdentifier { uri: uri.clone() },
            range,
            context: lsp_types::CodeActionContext::default(),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        };
        let _ = diag::code_actions(&a, &params);
    }
}

#[test]
fn hostile_texts_are_answered_quickly() {
    let long_line =
        format!("kind unit {{ {} }}", (0..5000).map(|i| format!("a{i}: 0..6")).collect::<Vec<_>>().join(" "));
    let many_kinds: String =
        (0..400).map(|i| format!("kind k{i} {{ x: 0..6  next: k{} }}\n", i + 1)).collect();
    let cases = [
        "".to_string(),
        "\u{feff}kind unit { spi: 0..6 }\r\rcheck c { roll d6 otherwise x }".to_string(),
        "kind é { ü: 0..6 }\n/// 𝔡𝔡 — ü\ncheck c for unit { roll 𝔡 }".to_string(),
        "(".repeat(3000),
        "kind unit { me: unit  morale: a | a | a = a }\nkind unit { me: unit }".to_string(),
        "check big { roll 90d1000  target 7  outcome hi when total >= target  otherwise lo }".to_string(),
        "check c { roll d6 as n  let n = 2  outcome n when n > 1  outcome n  otherwise n }\non zz when zz.zz.zz is zz { roll zz  trigger zz(zz: zz) }".to_string(),
        "script { fn (x) { } fn 1a() {} fn ok(".to_string(),
        "scenario s { new unit u with spi = 3  answer who = u  expect u. }".to_string(),
        "}}}} {{{{ \"\"\" /// // ... .. . is is not roll trigger on unit.".to_string(),
        long_line.clone(),
        format!("kind unit {{ a: 0..6 }}\nevent e(u: unit)\non e {{ note \"é\" {}}}", "set u.a to 1 ".repeat(5000)),
        many_kinds.clone(),
        format!("define f(x: 0..) = {}", vec!["x"; 30_000].join(" + ")),
        format!("event e\non e when {}yes {{ }}", "not ".repeat(30_000)),
        format!("event e\non e {{ if yes {{ }} {}}}", "else if yes { } ".repeat(20_000)),
    ];
    for text in cases.iter().map(|s| s.as_str()) {
        let start = std::time::Instant::now();
        let step = (text.len() / 40).max(1);
        ask_everything(text, step);
        assert!(start.elapsed() < Duration::from_secs(30), "{} bytes took {:?}", text.len(), start.elapsed());
    }
}

#[test]
fn costly_odds_are_not_worked_out_in_a_hover() {
    let text = "check big { roll 30d1000  target 7  outcome hi when total >= target  otherwise lo }\n\
                check wide { roll 3d100000x  outcome hi when total >= 9  otherwise lo }\n";
    let a = super::analysis::Analysis::new(text, None, &Default::default());
    let rules = a.ruleset.as_ref().expect("it loads");
    let mut cache = super::odds::OddsCache::default();
    for (name, why) in [("big", "too many to follow here"), ("wide", "not shown")] {
        let at = text.find(&format!("check {name}")).unwrap() + 6;
        for _ in 0..50 {
            let start = std::time::Instant::now();
            let h =
                super::features::hover(&a, a.lines.position(&a.text, at), Some(rules), &mut cache).unwrap();
            let lsp_types::HoverContents::Markup(m) = h.contents else { panic!() };
            assert!(start.elapsed() < Duration::from_secs(2), "{:?}", start.elapsed());
            // (Odds being worked out for another test's hover make this one wait: ask again.)
            if !m.value.contains("still working out") {
                assert!(m.value.contains(why), "{}", m.value);
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

#[test]
fn mangled_rulesets_are_answered() {
    let bits = ["é", "{", "}", ".", " is ", "roll ", "\"", "//", "\n", "unit.", "(", ",", " x", "trigger "];
    let mut seed: u64 = 0x6d65_7474_6c65;
    let mut next = |n: usize| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize % n.max(1)
    };
    for path in rulesets() {
        let text = std::fs::read_to_string(&path).unwrap();
        for _ in 0..6 {
            let mut t = text.clone();
            for _ in 0..8 {
                let mut at = next(t.len());
                while !t.is_char_boundary(at) {
                    at -= 1;
                }
                t.insert_str(at, bits[next(bits.len())]);
            }
            ask_everything(&t, t.len() / 12);
        }
    }
}
