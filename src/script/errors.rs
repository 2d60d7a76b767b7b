//! Script errors as diagnostics, with Rhai's line and column turned into spans in the ruleset or the
//! script file, and each call on the way marked "called from here".

use super::sandbox::{CANCELLED, OUT_OF_BUDGET, OUT_OF_TIME, ScriptLimits};
use super::sources::{Place, Sources};
use crate::ast::Span;
use crate::diagnostics::Diagnostic;
use rhai::{EvalAltResult, ParseError, Position};

/// Points `d`'s primary label at `place`, moving the diagnostic into a script file if it is in one.
pub(super) fn point(mut d: Diagnostic, place: Option<Place>, label: &str) -> Diagnostic {
    let Some(Place { file, span }) = place else { return d };
    d.labels[0].span = span;
    d.labels[0].text = label.into();
    match file {
        Some(f) => d.in_file(f),
        None => d,
    }
}

/// Like [`point`], and adds the ruleset span `call` as "called from here" when both are in the ruleset.
pub(super) fn locate(d: Diagnostic, place: Option<Place>, call: Option<Span>, label: &str) -> Diagnostic {
    let in_ruleset = place.as_ref().is_some_and(|p| p.file.is_none());
    let at = place.as_ref().map(|p| p.span);
    let d = point(d, place, label);
    match call {
        Some(c) if in_ruleset && at != Some(c) => d.with_label(c, "called from here"),
        _ => d,
    }
}

/// A script that does not compile.
pub(super) fn syntax(e: &ParseError, sources: &Sources, whole: Span) -> Diagnostic {
    let message = e.err_type().to_string();
    let help = if message.contains("eval") || message.contains("import") || message.contains("export") {
        "scripts cannot load other code: `eval`, `import` and `export` are switched off; write the function in this script"
    } else if message.contains("Variable not found") || message.contains("Undefined variable") {
        "every variable must be declared with `let` or be a parameter of the function"
    } else {
        "fix the script: mettle compiles every script when the ruleset loads"
    };
    let d = Diagnostic::error("script::syntax", format!("the script does not compile: {message}"), whole, "");
    locate(d, sources.place(e.position()), None, "here").with_help(help)
}

/// Unwraps calls from function to function, returning the innermost error and the calls on the way,
/// outermost first.
fn unwind(mut e: &EvalAltResult) -> (&EvalAltResult, Vec<(&str, Position)>) {
    let mut calls = Vec::new();
    while let EvalAltResult::ErrorInFunctionCall(name, _, inner, pos) = e {
        calls.push((name.as_str(), *pos));
        e = inner;
    }
    (e, calls)
}

/// A script call that failed. `name` is the function mettle called, `call` the rule that called it.
pub(super) fn runtime(
    err: &EvalAltResult,
    name: &str,
    call: Span,
    sources: &Sources,
    limits: &ScriptLimits,
) -> Diagnostic {
    let (inner, calls) = unwind(err);
    let l = limits.sane();
    let (code, message, label, help) = match inner {
        EvalAltResult::ErrorTooManyOperations(_) => (
            "script::too_many_steps",
            format!("`{name}` ran for more than {} steps and was stopped", l.operations),
            "still running here".to_string(),
            "does a loop never end? Give every loop a way out; if the work is real, the host can raise the limit".to_string(),
        ),
        EvalAltResult::ErrorTerminated(token, _) if token.clone().into_string().ok().as_deref() == Some(OUT_OF_TIME) => (
            "script::too_slow",
            format!("`{name}` ran for longer than {} ms and was stopped", l.time.as_millis()),
            "still running here".to_string(),
            "a reaction should take well under a millisecond: look for a loop that never ends".to_string(),
        ),
        EvalAltResult::ErrorTerminated(token, _) if token.clone().into_string().ok().as_deref() == Some(OUT_OF_BUDGET) => (
            "budget::script_operations",
            format!("`{name}` was stopped: the scripts of this action used up its budget of script operations"),
            "still running here".to_string(),
            "every call of this action shares one budget of script operations, so that no script can make an \
             event, a roll or a simulation run for hours; look for a loop that never ends, or raise the budget \
             (`--budget script_operations=N` on the command line, `Budget::script_operations` in `LoadOptions`)"
                .to_string(),
        ),
        EvalAltResult::ErrorTerminated(token, _) if token.clone().into_string().ok().as_deref() == Some(CANCELLED) => (
            crate::diagnostics::Code::Cancelled.path(),
            format!("`{name}` was stopped: cancelled by the user"),
            "stopped here".to_string(),
            "nothing it did was kept; run it again to start over".to_string(),
        ),
        EvalAltResult::ErrorStackOverflow(_) => (
            "script::too_deep",
            format!("`{name}` made calls more than {} deep and was stopped", l.call_depth),
            "one call too many here".to_string(),
            "a function that calls itself needs a case where it stops calling itself".to_string(),
        ),
        EvalAltResult::ErrorDataTooLarge(what, _) => (
            "script::too_large",
            format!("`{name}` made {} and was stopped", too_big(what)),
            "grew past the limit here".to_string(),
            format!(
                "scripts may hold strings of {} bytes, arrays of {} items and maps of {} entries; does something grow without end?",
                l.string_len, l.array_len, l.map_len
            ),
        ),
        EvalAltResult::ErrorTooManyVariables(_) => (
            "script::too_large",
            format!("`{name}` made too many variables and was stopped"),
            "here".to_string(),
            "keep values in an array or map instead".to_string(),
        ),
        EvalAltResult::ErrorFunctionNotFound(sig, _) if sig.contains("()") => (
            "script::failed",
            format!("`{name}` failed: `{}` was given nothing (`()`)", sig.split(' ').next().unwrap_or(sig)),
            "nothing to work with here".to_string(),
            "an attribute or data field that does not exist reads as `()`: check the spelling of the name used here"
                .to_string(),
        ),
        other if other.to_string().contains("for type '()'") => {
            let full = other.to_string();
            let prop = full.split('\'').nth(1).unwrap_or("a property").to_string();
            (
                "script::failed",
                format!("`{name}` failed: it read `.{prop}` of nothing (`()`)"),
                "nothing to read from here".to_string(),
                "a search in an empty list gives `()`, and so does a misspelled name: check for `()` before reading from it"
                    .to_string(),
            )
        }
        other => {
            // Rhai ends its message with the position, which the label shows instead.
            let full = other.to_string();
            let plain = match full.rfind(" (line ") {
                Some(i) if full.ends_with(')') => full[..i].to_string(),
                _ => full,
            };
            (
                "script::failed",
                format!("`{name}` failed: {plain}"),
                "failed here".to_string(),
                "fix the script; nothing it asked for was applied".to_string(),
            )
        }
    };
    let mut d = Diagnostic::error(code, message, call, "called here").with_help(help);
    let primary = sources.place(inner.position());
    let in_ruleset = matches!(primary, Some(Place { file: None, .. }));
    d = locate(d, primary.clone(), Some(call), &label);
    // The calls on the way, where they can be shown in the same file as the error.
    let file = primary.as_ref().and_then(|p| p.file.as_ref().map(|f| f.name.clone()));
    for (called, pos) in calls.iter().rev() {
        if let Some(p) = sources.place(*pos)
            && p.file.as_ref().map(|f| f.name.clone()) == file
            && Some(p.span) != primary.as_ref().map(|x| x.span)
        {
            d = d.with_label(p.span, format!("`{called}` called from here"));
        }
    }
    if !in_ruleset && primary.is_some() {
        let line = sources.line_of(call.start);
        d.help = Some(format!("{} (called from line {line} of the ruleset)", d.help.unwrap_or_default()));
    }
    d
}

/// Rhai's name for what grew, as a phrase.
fn too_big(what: &str) -> &'static str {
    let w = what.to_lowercase();
    if w.contains("string") {
        "a string too long"
    } else if w.contains("array") {
        "a list too long"
    } else if w.contains("map") {
        "a map too big"
    } else {
        "a value too large"
    }
}

/// How a script value's type reads to people.
pub(crate) fn type_words(type_name: &str) -> &'static str {
    match type_name.rsplit("::").next().unwrap_or(type_name) {
        "i64" => "a number",
        "bool" => "yes/no",
        "string" | "ImmutableString" | "&str" => "text",
        "()" => "nothing (`()`)",
        "map" | "Map" => "a map",
        "array" | "Array" => "a list",
        _ => "a value of another type",
    }
}

/// A script function that panicked (a bug in a function the host registered).
pub(super) fn panicked(message: &str, name: &str, call: Span) -> Diagnostic {
    Diagnostic::error(
        "script::panicked",
        format!("`{name}` crashed inside a function the host provides: {message}"),
        call,
        "called here",
    )
    .with_help("the session is unchanged; report this to whoever wrote the host program")
}
