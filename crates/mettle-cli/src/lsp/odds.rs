//! A check's exact odds at default inputs for hovers: on a helper thread, time-boxed and cached.

use mettle::internals::program::{Check, Program, Ty, Value};
use mettle::internals::{RulesetInternals as _, SessionInternals as _};
use mettle::{Ruleset, Session};
use mettle::{internals::odds::check_odds, odds::CheckOdds};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// How long a hover waits for odds.
const WAIT: Duration = Duration::from_millis(300);
/// Most dice, and most faces, whose odds a hover works out.
const MAX_DICE: usize = 24;
const MAX_FACES: usize = 1000;
/// Most helper threads left running at once (each stops at the library's own budget).
const MAX_RUNNING: usize = 2;

static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// Odds already worked out, by ruleset text and check.
#[derive(Default)]
pub struct OddsCache {
    known: HashMap<(u64, String), Option<String>>,
}

impl OddsCache {
    /// Markdown lines giving the odds of check `check` of `rules` at its default inputs, or why they
    /// are not shown.
    pub fn odds(&mut self, rules: &Ruleset, check: &str) -> Option<String> {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        rules.text().hash(&mut h);
        let key = (h.finish(), check.to_string());
        if let Some(v) = self.known.get(&key) {
            return v.clone();
        }
        if self.known.len() > 256 {
            self.known.clear();
        }
        let (answer, keep) = compute(rules, check);
        if keep {
            self.known.insert(key, answer.clone());
        }
        answer
    }
}

/// A value for an input with no default: its lowest value.
fn stand_in_value(ty: &Ty) -> Option<Value> {
    match ty {
        Ty::Int { lo, hi } => Some(Value::Int(lo.unwrap_or(0).min(hi.unwrap_or(i64::MAX)))),
        Ty::Flag => Some(Value::Bool(false)),
        Ty::Name(set) => Some(Value::Name { set: *set, index: 0 }),
        _ => None,
    }
}

/// The inputs given (those with no default of their own) and how they read.
fn inputs(p: &Program, c: &Check) -> (Vec<(String, Value)>, Vec<String>) {
    let mut given = vec![];
    let mut shown = vec![];
    for i in &c.inputs {
        if i.field.default.is_some() || i.default.is_some() {
            continue;
        }
        if let Some(v) = stand_in_value(&i.field.ty) {
            let text = match &v {
                Value::Int(n) => n.to_string(),
                Value::Bool(_) => "no".into(),
                Value::Name { set, index } => p
                    .sets
                    .get(*set as usize)
                    .and_then(|s| s.names.get(*index as usize))
                    .cloned()
                    .unwrap_or_default(),
                _ => String::new(),
            };
            shown.push(format!("{} = {text}", i.field.name));
            given.push((i.field.name.clone(), v));
        }
    }
    (given, shown)
}

/// Works the odds out on a helper thread; the flag says whether the answer may be cached.
fn compute(rules: &Ruleset, check: &str) -> (Option<String>, bool) {
    let p = rules.program();
    let Some(c) = p.checks.iter().find(|c| c.name == check) else { return (None, true) };
    let (given, shown) = inputs(p, c);
    if RUNNING.load(Ordering::SeqCst) >= MAX_RUNNING {
        return (Some("_odds: still working out earlier odds; hover again later_".into()), false);
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    let rules2 = rules.clone();
    let check2 = check.to_string();
    let flag = cancel.clone();
    RUNNING.fetch_add(1, Ordering::SeqCst);
    let spawned = std::thread::Builder::new().name("mettle-lsp-odds".into()).spawn(move || {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            odds_of(&rules2, &check2, &given, flag)
        }));
        RUNNING.fetch_sub(1, Ordering::SeqCst);
        let _ = tx.send(r.unwrap_or_else(|_| Err("the odds could not be worked out".into())));
    });
    if spawned.is_err() {
        RUNNING.fetch_sub(1, Ordering::SeqCst);
        return (None, false);
    }
    let at = if shown.is_empty() {
        "default inputs".to_string()
    } else {
        format!("default inputs, {}", shown.join(", "))
    };
    match rx.recv_timeout(WAIT) {
        Ok(Ok(odds)) => {
            let total = &odds.total;
            let mut lines = vec![format!("**Exact odds** at {at}:")];
            for (name, w) in &odds.outcomes {
                let f = mettle::odds::Fraction::new(w.clone(), total.clone());
                lines.push(format!("- `{name}`: {f} ({:.1}%)", f.to_f64() * 100.0));
            }
            (Some(lines.join("\n")), true)
        }
        Ok(Err(why)) => (Some(format!("_Exact odds at {at} not shown: {why}_")), true),
        Err(_) => {
            cancel.store(true, Ordering::SeqCst);
            (
                Some("_Exact odds not shown: they take too long to work out here; try `mettle odds`_".into()),
                true,
            )
        }
    }
}

/// The exact odds of `check` for a stand-in of its kind with `given` inputs.
fn odds_of(
    rules: &Ruleset,
    check: &str,
    given: &[(String, Value)],
    cancel: Arc<AtomicBool>,
) -> Result<CheckOdds, String> {
    let p = rules.program();
    let mut session = Session::new(rules, 0);
    session.set_cancel_flag(cancel);
    session.set_logging(false);
    let decl = p.checks.iter().find(|c| c.name == check).ok_or("no such check")?;
    let subject = match decl.subject {
        Some(k) => {
            let kind = &p.kinds[k as usize];
            let mut attrs = vec![];
            for f in &kind.fields {
                if let Ty::Entity(other) = f.ty {
                    let name = format!("{}'s {}", kind.name, f.name);
                    let id = session
                        .create_stand_in(&p.kinds[other as usize].name, &name, &[])
                        .map_err(|d| d.message)?;
                    attrs.push((f.name.clone(), Value::Entity(id)));
                }
            }
            let refs: Vec<(&str, Value)> = attrs.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
            Some(session.create_stand_in(&kind.name, &kind.name, &refs).map_err(|d| d.message)?)
        }
        None => None,
    };
    let refs: Vec<(&str, Value)> = given.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
    let (c, args) = session.resolve(check, &refs).map_err(|d| d.message)?;
    let prepared = session.prepare(c, subject, args).map_err(|d| d.message)?;
    if let Some(spec) = &prepared.dice {
        let faces = spec.faces.all().len();
        if spec.count > MAX_DICE || faces > MAX_FACES {
            return Err(format!(
                "{} dice of {faces} faces are too many to follow here; try `mettle odds`",
                spec.count
            ));
        }
    }
    check_odds(&mut session, &prepared).map_err(|d| d.message)?
}
