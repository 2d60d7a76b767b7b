//! Slips that deserve a message of their own rather than a list of what could come next: operators
//! from other languages (`=<`, `&&`), commas between the names of a state, a fact given without its
//! name, a `{` whose `}` is missing.

use super::scan;
use crate::ast::Span;
use crate::diagnostics::Diagnostic;

/// A message for a slip at byte `pos` of `text` (a chunk starting at `base`), if it is one.
pub(super) fn slip(text: &str, base: usize, pos: usize) -> Option<Diagnostic> {
    operator(text, pos)
        .or_else(|| names_with_commas(text, base, pos))
        .or_else(|| unnamed_fact(text, base, pos))
        .or_else(|| rulebook_style(text, pos))
        .or_else(|| equals_to_change(text, pos))
        .or_else(|| otherwise_with_condition(text, pos))
}

/// `x = x + 1` or `unit.hp = 3` where a statement belongs: other languages change a value with `=`.
fn equals_to_change(text: &str, pos: usize) -> Option<Diagnostic> {
    let rest = text.get(pos..)?;
    let name = ident_at(rest)?;
    // The place: a name, or a path of attributes (`unit.side.vp`).
    let mut end = name.len();
    while rest[end..].starts_with('.') {
        let Some(field) = ident_at(&rest[end + 1..]) else { break };
        end += 1 + field.len();
    }
    let place = &rest[..end];
    let after = rest[end..].trim_start_matches([' ', '\t']);
    if !after.starts_with('=')
        || after.starts_with("==")
        || after.starts_with("=>")
        || after.starts_with("=<")
    {
        return None;
    }
    let value_at = rest.len() - after.len() + 1;
    let line_end = rest[value_at..].find(['\n', '}']).map_or(rest.len(), |i| value_at + i);
    let value = rest[value_at..line_end].split("//").next().unwrap_or("").trim();
    if value.is_empty() {
        return None;
    }
    // `x = x + 2`: the change is an `add`.
    let added =
        value.strip_prefix(place).map(str::trim_start).and_then(|v| v.strip_prefix('+')).map(str::trim);
    let fix = match added {
        Some(n) if !n.is_empty() => format!("add {n} to {place}"),
        _ => format!("set {place} to {value}"),
    };
    let declare = if place.contains('.') {
        String::new()
    } else {
        format!("; a value of the rule itself must be declared first with `var {place} = …`")
    };
    Some(
        Diagnostic::error(
            "parse::equals_to_change",
            format!("a value is changed with `set … to`, not `=`: write `{fix}`"),
            Span::new(pos, pos + line_end),
            format!("write `{fix}`"),
        )
        .with_help(format!(
            "`=` only names a value (`let x = …`, `var x = …`) or gives a fact or input; to change \
             one, write `set {place} to …`, `add … to {place}` or `remove … from {place}`{declare}"
        )),
    )
}

/// `otherwise flees when …`: the outcome for every roll no other outcome takes has no condition.
fn otherwise_with_condition(text: &str, pos: usize) -> Option<Diagnostic> {
    let rest = text.get(pos..)?;
    if ident_at(rest) != Some("when") {
        return None;
    }
    let line_start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    let head = text[line_start..pos].trim();
    let name = head.strip_prefix("otherwise")?.trim();
    if ident_at(name).is_none_or(|n| n.len() != name.len()) {
        return None;
    }
    let line_end = rest.find('\n').map_or(rest.len(), |i| i);
    let cond =
        rest["when".len()..line_end].split("//").next().unwrap_or("").trim().trim_end_matches('{').trim();
    let start = line_start + (text[line_start..].len() - text[line_start..].trim_start().len());
    Some(
        Diagnostic::error(
            "parse::otherwise_with_condition",
            "`otherwise` takes no condition: it is the outcome of every roll no other outcome takes",
            Span::new(start, pos + line_end.min(rest.len())),
            format!("write `outcome {name} when {cond}`"),
        )
        .with_help(format!(
            "give the condition to an outcome line, `outcome {name} when {cond}`, and end the check with \
             one `otherwise NAME` for the rolls left (it may be another outcome, or the same one)"
        )),
    )
}

/// Ways a rulebook writes things that mettle writes otherwise: `2D6`, a target of `7+`, `'text'`,
/// a range `0-6`, `outcome x if …`.
fn rulebook_style(text: &str, pos: usize) -> Option<Diagnostic> {
    let rest = text.get(pos..)?;
    let before = &text[..pos];
    let word_len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
    let word = &rest[..word_len];
    let syntax = |message: String, span: Span, label: String, help: String| {
        Diagnostic::error("parse::syntax", message, span, label).with_help(help)
    };
    let digits_before = |s: &str| -> String {
        let n: String = s.chars().rev().take_while(char::is_ascii_digit).collect();
        n.chars().rev().collect()
    };
    // `2D6`: a capital D.
    if let Some(sides) = word.strip_prefix('D')
        && !sides.is_empty()
        && sides.chars().all(|c| c.is_ascii_digit())
    {
        let count = digits_before(before);
        return Some(syntax(
            format!("dice are written with a small `d`: `{count}d{sides}`"),
            Span::new(pos - count.len(), pos + word.len()),
            format!("write `{count}d{sides}`"),
            "write dice as `d6`, `2d6` or `4d6kh3`, with a small `d`".into(),
        ));
    }
    // `target 7+` on the line before: the `+` ran on into the next line.
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    // The word the `+` took (`outcome`) may stand before the error.
    if line_start > 0 && before[line_start..].split_whitespace().count() <= 1 {
        let prev_line = before[..line_start - 1].rsplit('\n').next().unwrap_or("");
        let prev = prev_line.split("//").next().unwrap_or("").trim_end();
        if let Some(number) = prev.strip_suffix('+') {
            let n = digits_before(number);
            if !n.is_empty() {
                let end = line_start - 1 - (prev_line.len() - prev.len());
                return Some(syntax(
                    format!(
                        "`{n}+` is how a rulebook writes \"{n} or more\"; mettle reads the `+` as adding \
                         what comes next"
                    ),
                    Span::new(end - n.len() - 1, end),
                    format!("write `{n}` here"),
                    format!(
                        "write the number alone (`target {n}`) and say \"or more\" in the outcome: \
                         `outcome pass when total >= target`"
                    ),
                ));
            }
        }
    }
    // `'text'`: single quotes.
    if let Some(quoted) = rest.strip_prefix('\'') {
        let close = quoted.find(['\'', '\n']).map_or(rest.len(), |i| i + 2).min(rest.len());
        let inner = rest[1..close].trim_end_matches(['\'', '\n']);
        return Some(syntax(
            "text is written in double quotes".into(),
            Span::new(pos, pos + close),
            format!("write `\"{inner}\"`"),
            format!("write `\"{inner}\"` with double quotes"),
        ));
    }
    // `0-6` where a range belongs.
    if let Some(after) = rest.strip_prefix('-') {
        let (lo, hi) =
            (digits_before(before), after.chars().take_while(char::is_ascii_digit).collect::<String>());
        if !lo.is_empty() && !hi.is_empty() {
            return Some(syntax(
                format!("a range is written `{lo}..{hi}`, not `{lo}-{hi}`"),
                Span::new(pos - lo.len(), pos + 1 + hi.len()),
                format!("write `{lo}..{hi}`"),
                format!("write ranges with two dots, as in `spi: {lo}..{hi}`"),
            ));
        }
    }
    // `outcome steady if …`: an outcome's condition follows `when`.
    if word == "if" && before[line_start..].trim_start().starts_with("outcome ") {
        return Some(syntax(
            "an outcome's condition follows `when`, not `if`".into(),
            Span::new(pos, pos + 2),
            "write `when` here".into(),
            "write it as `outcome NAME when CONDITION`, as in `outcome steady when total >= target`".into(),
        ));
    }
    None
}

/// `=<`, `=>`, `&&`, `||` and `!` at `pos`.
fn operator(text: &str, pos: usize) -> Option<Diagnostic> {
    let rest = text.get(pos..)?;
    let (wrong, right, help) = if rest.starts_with("=<") || rest.starts_with("=>") {
        let right = if rest.starts_with("=<") { "<=" } else { ">=" };
        (&rest[..2], right, "comparisons put the `=` last: `<=`, `>=`, `==` and `!=`".to_string())
    } else if rest.starts_with("&&") || rest.starts_with("||") {
        let right = if rest.starts_with("&&") { "and" } else { "or" };
        let help = "conditions are joined with the words `and` and `or`, as in \
                    `total >= target and unit.spi > 2`";
        (&rest[..2], right, help.to_string())
    } else if rest.starts_with('!') && !rest.starts_with("!=") {
        (&rest[..1], "not", "a condition is turned round with the word `not`, as in `not unit.pinned`".into())
    } else {
        return None;
    };
    let span = Span::new(pos, pos + wrong.len());
    Some(
        Diagnostic::error(
            "parse::wrong_operator",
            format!("mettle writes `{right}`, not `{wrong}`"),
            span,
            format!("write `{right}` here"),
        )
        .with_help(help),
    )
}

/// The identifier at the start of `s`, if there is one.
fn ident_at(s: &str) -> Option<&str> {
    let first = s.chars().next()?;
    if !(first.is_ascii_alphabetic() || first == '_') {
        return None;
    }
    let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len());
    Some(&s[..end])
}

/// `morale: steady, shaken, broken` (or `choose … from a, b`): names of a state separated by commas
/// where `|` belongs. Only outside `(…)`, where commas separate an event's facts.
fn names_with_commas(text: &str, base: usize, pos: usize) -> Option<Diagnostic> {
    let open = scan::open_brackets(text.get(base..pos)?);
    if open.last().is_some_and(|&(_, b)| b != b'{') {
        return None;
    }
    let line_start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
    let line = &text[line_start..line_end];
    // Each `:` or `from` on the line may start the list.
    let starts = line
        .match_indices(':')
        .map(|(i, _)| i + 1)
        .chain(line.match_indices(" from ").map(|(i, s)| i + s.len()));
    for start in starts {
        let mut at = start;
        let mut names: Vec<(usize, &str)> = vec![];
        loop {
            let skipped = line[at..].len() - line[at..].trim_start().len();
            at += skipped;
            let Some(name) = ident_at(&line[at..]) else { break };
            names.push((at, name));
            at += name.len();
            let rest = line[at..].trim_start();
            if !rest.starts_with(',') {
                break;
            }
            at = line.len() - rest.len() + 1;
        }
        let Some(&(first_at, first)) = names.first() else { continue };
        let &(last_at, last) = names.last()?;
        let end = last_at + last.len();
        // The list ends the line, or comes before its default.
        let after = line[end..].trim_start();
        let ends = after.is_empty()
            || after.starts_with("//")
            || after.starts_with('}')
            || (after.starts_with('=') && !after.starts_with("=="))
            || ident_at(after) == Some("default");
        let (from, to) = (line_start + first_at, line_start + end);
        if names.len() < 2 || !ends || !(from..=to).contains(&pos) || ["flag", "int", "data"].contains(&first)
        {
            continue;
        }
        let list: Vec<&str> = names.iter().map(|(_, n)| *n).collect();
        let fixed = list.join(" | ");
        return Some(
            Diagnostic::error(
                "parse::names_with_commas",
                "the names a value can take are separated by `|`, not by commas",
                Span::new(from, to),
                format!("write `{fixed}`"),
            )
            .with_help(format!(
                "write the names with `|` between them, as in `morale: {fixed} = {}`; commas separate \
                 attributes and facts",
                list[0]
            )),
        );
    }
    None
}

/// `trigger hit(squad)`: a value in an event's brackets without the name of its fact.
fn unnamed_fact(text: &str, base: usize, pos: usize) -> Option<Diagnostic> {
    let open = scan::open_brackets(text.get(base..pos)?);
    let &(paren, b) = open.last()?;
    let paren = base + paren;
    if b != b'(' {
        return None;
    }
    let before = text[..paren].trim_end();
    let event = before.rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next()?;
    let head = before[..before.len() - event.len()].trim_end();
    if event.is_empty() || !head.ends_with("trigger") {
        return None;
    }
    // The value given: from the bracket (or the last comma) to the error.
    let inside = &text[paren + 1..pos];
    let from = paren + 1 + inside.rfind(',').map_or(0, |i| i + 1);
    let value = text[from..pos].trim();
    if value.is_empty() || value.contains(':') || value.contains('=') {
        return None;
    }
    let from = from + text[from..pos].find(value)?;
    let span = Span::new(from, from + value.len());
    // The event's facts, read from its declaration when the text has one.
    let facts = declared_facts(text, event);
    let which = text[paren + 1..from].matches(',').count();
    let fact = facts.get(which).map_or("FACT", String::as_str);
    let example = format!("{event}({fact}: {value})");
    let declared = if facts.is_empty() {
        String::new()
    } else {
        format!("; `{event}` has {}", facts.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", "))
    };
    Some(
        Diagnostic::error(
            "parse::unnamed_fact",
            format!("the facts of `{event}` are given by name: write `{example}`"),
            span,
            "which fact is this?",
        )
        .with_help(format!("write each fact as `name: value`, as the event declares it{declared}")),
    )
}

/// The names of the facts of `event event(…)` in `text`, in order (empty when it is not declared).
fn declared_facts(text: &str, event: &str) -> Vec<String> {
    let decl = format!("event {event}(");
    let Some(at) = text.find(&decl) else { return vec![] };
    let body = &text[at + decl.len()..];
    let body = &body[..body.find(')').unwrap_or(body.len())];
    body.split(',')
        .filter_map(|f| {
            let (name, _) = f.split_once(':')?;
            let name = name.lines().last()?.trim();
            ident_at(name).filter(|n| n.len() == name.len()).map(str::to_string)
        })
        .collect()
}

/// A block whose `}` is missing: the `{` that the layout shows is left open at byte `pos` of the
/// chunk `base..end`, and where its `}` belongs. Only when the chunk has more `{` than `}`, so a
/// brace that is in fact closed is never blamed.
pub(super) fn unclosed_brace(
    text: &str,
    base: usize,
    end: usize,
    pos: usize,
    runs_out: bool,
) -> Option<Diagnostic> {
    let chunk = text.get(base..end)?;
    let (mut opens, mut closes) = (0usize, 0usize);
    for (_, b) in scan::brackets(chunk) {
        match b {
            b'{' => opens += 1,
            b'}' => closes += 1,
            _ => {}
        }
    }
    if opens <= closes {
        return None;
    }
    let open: Vec<usize> = scan::open_brackets(text.get(base..pos)?)
        .into_iter()
        .filter(|&(_, b)| b == b'{')
        .map(|(at, _)| base + at)
        .collect();
    let error_line = line_start(text, pos);
    // Innermost first: the first block that a line indented no deeper than its opening line
    // interrupts before any `}` does.
    let mut picked = None;
    for &brace in open.iter().rev() {
        match interrupted(text, brace, end) {
            Layout::Closed => continue,
            Layout::Open(at) => {
                if at == error_line || (runs_out && at >= error_line) {
                    picked = Some((brace, at));
                }
                break;
            }
        }
    }
    // Without a telling layout, a top-level word or the end of the text still shows that something
    // is open: blame the innermost brace.
    if picked.is_none() && runs_out {
        picked = open.last().map(|&b| (b, end.min(text.len())));
    }
    let (brace, before) = picked?;
    let line_no = |at: usize| text[..at].matches('\n').count() + 1;
    let span = Span::new(brace, brace + 1);
    let at_end = before >= text.trim_end().len();
    let mut d = Diagnostic::error(
        "parse::syntax",
        format!("a `}}` is missing: the `{{` on line {} is never closed", line_no(brace)),
        span,
        "this `{` is never closed",
    );
    let help = if at_end {
        "add the missing `}` at the end of the block".to_string()
    } else {
        let next = Span::new(before, before + text[before..].trim_end_matches('\n').lines().next()?.len());
        let first = text[next.start..].trim_start();
        let word = first.split(|c: char| c.is_whitespace()).next().unwrap_or(first);
        let start = next.start + (text[next.start..].len() - first.len());
        d = d.with_label(Span::new(start, start + word.len()), "the block should end before this line");
        format!("add the missing `}}` on a line of its own before line {}", line_no(before))
    };
    Some(d.with_help(help))
}

/// Where the block a `{` opens is interrupted: the start of the first line after it that is indented
/// no deeper than the line of the `{` and is not a `}` (or the end of the text).
enum Layout {
    Closed,
    Open(usize),
}

fn interrupted(text: &str, brace: usize, end: usize) -> Layout {
    let indent = |line: &str| line.len() - line.trim_start().len();
    let start = line_start(text, brace);
    let own = indent(&text[start..]);
    // Closed on its own line.
    let line_end = text[brace..].find('\n').map_or(text.len(), |i| brace + i);
    let mut depth = 0i64;
    for (_, b) in scan::brackets(&text[brace..line_end]) {
        match b {
            b'{' => depth += 1,
            b'}' => depth -= 1,
            _ => {}
        }
    }
    if depth <= 0 {
        return Layout::Closed;
    }
    let end = end.min(text.len());
    let mut at = (line_end + 1).min(end);
    while at < end {
        let line_end = text[at..end].find('\n').map_or(end, |i| at + i + 1);
        let line = &text[at..line_end];
        let trimmed = line.trim();
        if !(trimmed.is_empty() || trimmed.starts_with("//")) && indent(line) <= own {
            return if trimmed.starts_with('}') { Layout::Closed } else { Layout::Open(at) };
        }
        at = line_end;
    }
    Layout::Open(end)
}

/// The start of the line holding byte `at`.
fn line_start(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].rfind('\n').map_or(0, |i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slip_at(text: &str, found: &str) -> Option<Diagnostic> {
        slip(text, 0, text.find(found).expect("the slip is in the text"))
    }

    #[test]
    fn operators_from_other_languages() {
        let d = slip_at("on x when a =< 1 { }", "=<").expect("a slip");
        assert_eq!(
            (d.code.as_str(), d.message.as_str()),
            ("mettle::parse::wrong_operator", "mettle writes `<=`, not `=<`")
        );
        assert_eq!(d.span(), Span::new(12, 14));
        assert!(slip_at("on x when a => 1 { }", "=>").is_some_and(|d| d.message.contains("`>=`")));
        assert!(slip_at("on x when a && b { }", "&&").is_some_and(|d| d.message.contains("`and`")));
        assert!(slip_at("on x when a || b { }", "||").is_some_and(|d| d.message.contains("`or`")));
        assert!(slip_at("on x when !a { }", "!").is_some_and(|d| d.message.contains("`not`")));
        assert!(slip_at("on x when a != { }", "!=").is_none());
    }

    #[test]
    fn rulebook_ways_of_writing() {
        let message = |text: &str, at: &str| slip_at(text, at).map(|d| d.message).unwrap_or_default();
        assert_eq!(message("check c {\n  roll 2D6\n}", "D6"), "dice are written with a small `d`: `2d6`");
        let text = "check c {\n  target 7+\n  outcome a when total >= target\n}";
        let d = slip(text, 0, text.find("a when").expect("in the text")).expect("a slip");
        assert_eq!(&text[d.span().start..d.span().end], "7+");
        assert!(d.message.starts_with("`7+` is how a rulebook writes \"7 or more\""), "{}", d.message);
        assert_eq!(message("check c { modifier 'Spirit' +1 }", "'"), "text is written in double quotes");
        assert_eq!(message("kind a { x: 0-6 }", "-"), "a range is written `0..6`, not `0-6`");
        assert_eq!(
            message("check c {\n  outcome a if total > 3\n}", "if"),
            "an outcome's condition follows `when`, not `if`"
        );
        assert!(slip_at("define f(x: int) = x - 1 -", "- 1").is_none());
    }

    #[test]
    fn equals_where_set_belongs() {
        let text = "on e {\n  hits = hits + 2\n}";
        let d = slip_at(text, "hits =").expect("a slip");
        assert_eq!(d.code, "mettle::parse::equals_to_change");
        assert_eq!(d.labels[0].text, "write `add 2 to hits`");
        assert!(d.help.as_deref().unwrap_or("").contains("`var hits = …`"));
        let text = "on e {\n  unit.side.vp = 3 // a comment\n}";
        let d = slip_at(text, "unit.").expect("a slip");
        assert_eq!(&text[d.span().start..d.span().end], "unit.side.vp = 3 // a comment");
        assert_eq!(d.labels[0].text, "write `set unit.side.vp to 3`");
        // A comparison, or nothing after `=`, is no such slip.
        assert!(slip_at("on e { x == 1 }", "x ==").is_none());
        assert!(slip_at("on e { x =", "x =").is_none());
    }

    #[test]
    fn otherwise_with_a_condition() {
        let text = "check c {\n  otherwise flees when total < 3 {\n  }\n}";
        let d = slip_at(text, "when").expect("a slip");
        assert_eq!(d.code, "mettle::parse::otherwise_with_condition");
        assert_eq!(d.labels[0].text, "write `outcome flees when total < 3`");
        assert!(slip_at("check c {\n  outcome a when total > 1\n}", "when").is_none());
    }

    #[test]
    fn commas_between_names() {
        let text = "kind unit {\n  morale: steady, shaken, broken = steady\n}";
        let d = slip_at(text, ", broken").expect("a slip");
        assert_eq!(&text[d.span().start..d.span().end], "steady, shaken, broken");
        assert_eq!(d.labels[0].text, "write `steady | shaken | broken`");
        // Facts and attributes are separated by commas.
        assert!(slip_at("event e(unit: unit, hp)", ")").is_none());
        assert!(slip_at("kind a { x: flag, y: int, z }", " }").is_none());
    }

    #[test]
    fn facts_without_names() {
        let text = "event hit(unit: unit, hp: 0..9)\nscenario s {\n  trigger hit(squad, 3)\n}";
        let d = slip_at(text, ", 3").expect("a slip");
        assert_eq!(d.message, "the facts of `hit` are given by name: write `hit(unit: squad)`");
        assert_eq!(&text[d.span().start..d.span().end], "squad");
        assert!(slip_at("on e { trigger hit(a: b c) }", " c").is_none());
    }

    #[test]
    fn the_brace_left_open() {
        let text = "check c {\n  outcome a when total > 2 {\n    note \"x\"\n  otherwise b\n}\n";
        let pos = text.find("otherwise").expect("in the text");
        let d = unclosed_brace(text, 0, text.len(), pos, false).expect("a brace left open");
        assert_eq!(d.span().start, text.find("2 {").expect("in the text") + 2);
        assert_eq!(d.help.as_deref(), Some("add the missing `}` on a line of its own before line 4"));
        // Balanced braces: nothing is left open.
        let text = "check c {\n  roll d6 as result\n}\n";
        assert!(
            unclosed_brace(text, 0, text.len(), text.find("result").expect("in the text"), true).is_none()
        );
    }
}
