//! "Did you mean": the known name closest to a misspelt one, and the help that offers it or lists the
//! names there are.

/// The known name closest to `name`, if one is close enough to be a likely misspelling: at most one
/// edit (or one swap of neighbours) away for short names, a few for long ones, or very similar overall.
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    let budget = (name.chars().count() / 3).max(1);
    let mut best: Option<(usize, f64, &str)> = None;
    for k in known {
        if k == name {
            continue;
        }
        let kl = k.to_lowercase();
        let edits = strsim::osa_distance(&lower, &kl);
        let similar = strsim::jaro_winkler(&lower, &kl);
        if edits > budget && similar < 0.88 {
            continue;
        }
        let better = match best {
            None => true,
            Some((e, s, _)) => edits < e || (edits == e && similar > s),
        };
        if better {
            best = Some((edits, similar, k));
        }
    }
    best.map(|(_, _, k)| k)
}

/// `help` text for an unknown name: "did you mean" when a close name exists.
pub fn suggest(name: &str, what: &str, known: &[&str]) -> String {
    match did_you_mean(name, known.iter().copied()) {
        Some(k) => format!("did you mean `{k}`?"),
        None if known.is_empty() => format!("no {what} is defined here; define one first"),
        None => {
            let mut list: Vec<&str> = known.to_vec();
            list.sort_unstable();
            list.dedup();
            let shown: Vec<String> = list.iter().take(8).map(|k| format!("`{k}`")).collect();
            let more = if list.len() > 8 { ", …" } else { "" };
            format!("the {} here are {}{more}", plural(what), shown.join(", "))
        }
    }
}

/// `what` for more than one: `entities`, `units`, `choices`.
fn plural(what: &str) -> String {
    match what.strip_suffix('y') {
        Some(stem) if !stem.ends_with(['a', 'e', 'o', 'u']) => format!("{stem}ies"),
        _ if what.ends_with(['s', 'x']) || what.ends_with("ch") => format!("{what}es"),
        _ => format!("{what}s"),
    }
}

/// Like [`suggest`], but when no close name exists adds `otherwise` (such as how to declare the name).
pub fn suggest_or(name: &str, what: &str, known: &[&str], otherwise: &str) -> String {
    match did_you_mean(name, known.iter().copied()) {
        Some(k) => format!("did you mean `{k}`?"),
        None => format!("{}; {otherwise}", suggest(name, what, known)),
    }
}
