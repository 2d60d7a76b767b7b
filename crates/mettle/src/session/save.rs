//! Saving a session as JSON and loading it back: a save names its format and the ruleset it came from,
//! and every value in it is checked against the ruleset before a session is built from it.

use super::{Session, State};
use crate::Ruleset;
use crate::diagnostics::Diagnostic;
use crate::program::{Program, Ty, Value};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The format this version of mettle writes. Format 1 saves (no fingerprint) load only as saves of
/// another ruleset.
pub const SAVE_FORMAT: u32 = 2;

/// A session saved as JSON.
#[derive(Serialize, Deserialize)]
struct Saved {
    format: u32,
    ruleset: Option<String>,
    /// FNV-1a of the ruleset's text, in hex: which ruleset the save belongs to.
    #[serde(default)]
    fingerprint: Option<String>,
    state: State,
    log: Vec<super::LogLine>,
}

/// A stable fingerprint of a ruleset's text (64-bit FNV-1a, in hex): the same text gives the same
/// fingerprint on every machine and in every version.
///
/// ```
/// let a = mettle::Ruleset::from_str("a.mettle", "kind unit { hp: 0..9 = 1 }").unwrap();
/// assert_eq!(mettle::session::fingerprint(&a), mettle::session::fingerprint(&a.clone()));
/// assert_eq!(mettle::session::fingerprint(&a).len(), 16);
/// ```
pub fn fingerprint(rules: &Ruleset) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in rules.text().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

impl Session {
    /// Saves the session as JSON: format, ruleset fingerprint, state, generator and log.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("s.mettle", "check c { roll 3d6  otherwise done }").unwrap();
    /// let mut a = mettle::Session::new(&rules, 9);
    /// a.roll("c", &[]).unwrap().rolled.unwrap();
    /// let mut b = mettle::Session::load(&rules, &a.save()).unwrap();
    /// // The reloaded session rolls exactly what the original would.
    /// assert_eq!(a.roll("c", &[]).unwrap().rolled.unwrap().total, b.roll("c", &[]).unwrap().rolled.unwrap().total);
    /// ```
    pub fn save(&self) -> String {
        let saved = Saved {
            format: SAVE_FORMAT,
            ruleset: self.rules.program().title.clone(),
            fingerprint: Some(fingerprint(&self.rules)),
            state: self.state.clone(),
            log: self.log.clone(),
        };
        serde_json::to_string_pretty(&saved).unwrap_or_default()
    }

    /// Loads a session saved by [`Session::save`] over the same ruleset. Everything in the save is
    /// checked first (its format, its ruleset's fingerprint, and every entity, value, timed change,
    /// answer and result against the ruleset); a save that fails any check is refused whole.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("s.mettle", "kind unit { hp: 0..9 = 1 }").unwrap();
    /// let other = mettle::Ruleset::from_str("o.mettle", "kind unit { hp: 0..9 = 2 }").unwrap();
    /// let saved = mettle::Session::new(&rules, 1).save();
    /// assert!(mettle::Session::load(&rules, &saved).is_ok());
    /// assert_eq!(mettle::Session::load(&other, &saved).unwrap_err().code, "mettle::save::other_ruleset");
    /// ```
    pub fn load(rules: &Ruleset, json: &str) -> Result<Session, Diagnostic> {
        Session::load_with(rules, json, false).map(|(s, _)| s)
    }

    /// Like [`Session::load`]; with `other_ruleset`, a save made with another ruleset (or a version of
    /// this one that has since changed) is loaded when it fits this one by structure, with a warning.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("s.mettle", "kind unit { hp: 0..9 = 1 }").unwrap();
    /// let edited = mettle::Ruleset::from_str("s.mettle", "kind unit { hp: 0..9 = 2 }").unwrap();
    /// let saved = mettle::Session::new(&rules, 1).save();
    /// let (_, warnings) = mettle::Session::load_with(&edited, &saved, true).unwrap();
    /// assert_eq!(warnings[0].code, "mettle::save::other_ruleset");
    /// ```
    pub fn load_with(
        rules: &Ruleset,
        json: &str,
        other_ruleset: bool,
    ) -> Result<(Session, Vec<Diagnostic>), Diagnostic> {
        let cap = rules.budget().save_bytes;
        if json.len() as u64 > cap {
            return Err(save_error(
                "too_large",
                format!("this saved session is larger than {cap} bytes"),
                "raise the limit if the save is meant to be this large (see docs/security.md)".into(),
            ));
        }
        let saved: Saved = serde_json::from_str(json).map_err(|e| {
            save_error(
                "not_a_save",
                format!("this is not a saved mettle session: {e}"),
                "save a session with `:save` or `Session::save`".into(),
            )
        })?;
        if saved.format > SAVE_FORMAT {
            return Err(save_error(
                "newer_format",
                format!(
                    "this save has format {}, newer than this mettle reads ({SAVE_FORMAT})",
                    saved.format
                ),
                "load it with the version of mettle that saved it, or a newer one".into(),
            ));
        }
        let mut warnings = vec![];
        let ours = fingerprint(rules);
        if saved.fingerprint.as_deref() != Some(ours.as_str()) {
            let message = match &saved.fingerprint {
                Some(_) => {
                    "this session was saved with a different ruleset (or the ruleset has changed since)"
                }
                None => "this session was saved by an older mettle, which did not record its ruleset",
            };
            if !other_ruleset {
                return Err(save_error(
                    "other_ruleset",
                    message.into(),
                    "load it with the ruleset it was saved from; to load it into this one anyway, use \
                     `:restore! FILE` in the REPL (or `Session::load_with` with `other_ruleset`)"
                        .into(),
                ));
            }
            warnings.push(Diagnostic {
                level: crate::diagnostics::Level::Warning,
                ..save_error(
                    "other_ruleset",
                    message.into(),
                    "it fits this ruleset by structure and was loaded; check what it holds".into(),
                )
            });
        }
        if let Err(what) = fits(rules.program(), &saved.state) {
            return Err(save_error(
                "bad_value",
                format!("this saved session does not fit the ruleset: {what}"),
                "load it with the ruleset it was saved from; a save edited by hand must keep every value \
                 of its attribute's type and range"
                    .into(),
            ));
        }
        let mut state = saved.state;
        if state.options.is_empty() {
            state.options =
                rules.program().options.iter().map(|o| o.default.clone().unwrap_or(Value::None)).collect();
        }
        let session = Session {
            rules: rules.clone(),
            state,
            log: saved.log,
            logging: true,
            cancel: Arc::default(),
            undone: vec![],
            hooks: Default::default(),
            waiting: None,
            spare: Default::default(),
        };
        Ok((session, warnings))
    }
}

fn save_error(code: &str, message: String, help: String) -> Diagnostic {
    Diagnostic::plain(&format!("save::{code}"), message).with_help(help)
}

/// Whether `v` is a value of type `ty` in program `p` with entities `st`: numbers within range, names
/// of the right set, entities of the right kind.
fn value_fits(p: &Program, st: &State, v: &Value, ty: &Ty) -> bool {
    match (ty, v) {
        (Ty::Int { lo, hi }, Value::Int(x)) => lo.is_none_or(|l| *x >= l) && hi.is_none_or(|h| *x <= h),
        (Ty::Flag, Value::Bool(_))
        | (Ty::Data | Ty::Shape(_), Value::Data(_))
        | (Ty::Entity(_), Value::None) => true,
        (Ty::Name(s), Value::Name { set, index }) => {
            set == s && p.sets.get(*set as usize).is_some_and(|n| (*index as usize) < n.names.len())
        }
        (Ty::Entity(k), Value::Entity(e)) => st.entities.get(*e as usize).is_some_and(|e| e.kind == *k),
        (Ty::Result(c), Value::Result(r)) => r.check_id == *c && any_fits(p, st, v),
        (Ty::Pool, Value::Pool(_)) => true,
        _ => false,
    }
}

/// Whether `v` is well formed where its type is not known (a check's slots): every reference in it
/// points at something that exists.
fn any_fits(p: &Program, st: &State, v: &Value) -> bool {
    match v {
        Value::Entity(e) => (*e as usize) < st.entities.len(),
        Value::Name { set, index } => {
            p.sets.get(*set as usize).is_some_and(|s| (*index as usize) < s.names.len())
        }
        Value::Result(r) => {
            p.checks.get(r.check_id as usize).is_some_and(|c| {
                c.nslots as usize == r.slots.len()
                    && p.sets
                        .get(c.outcome_set as usize)
                        .is_some_and(|s| (r.outcome_index as usize) < s.names.len())
            }) && r.slots.iter().all(|v| any_fits(p, st, v))
        }
        _ => true,
    }
}

/// Whether a saved state can belong to this program: every entity is of a kind it has, with every
/// attribute of its type and range; every timed change, answer, last result and game result refers to
/// something that exists, with values of the right type. Says what does not fit.
pub(super) fn fits(p: &Program, st: &State) -> Result<(), String> {
    if st.last.len() != p.checks.len() {
        return Err(format!("it has results for {} checks, the ruleset {}", st.last.len(), p.checks.len()));
    }
    let mut seen = std::collections::HashSet::new();
    for (i, e) in st.entities.iter().enumerate() {
        let Some(kind) = p.kinds.get(e.kind as usize) else {
            return Err(format!("entity #{i} is of a kind the ruleset does not have"));
        };
        if kind.fields.len() != e.fields.len() {
            return Err(format!(
                "`{}` has {} attributes, a {} has {}",
                e.name,
                e.fields.len(),
                kind.name,
                kind.fields.len()
            ));
        }
        if !seen.insert(e.name.as_str()) {
            return Err(format!("two entities are called `{}`", e.name));
        }
        for (def, v) in kind.fields.iter().zip(&e.fields) {
            if !value_fits(p, st, v, &def.ty) {
                return Err(format!(
                    "`{}.{}` holds a value that is not {}",
                    e.name,
                    def.name,
                    crate::export::type_name(p, &def.ty)
                ));
            }
        }
    }
    for t in &st.timed {
        let Some(e) = st.entities.get(t.entity as usize) else {
            return Err(format!("a timed change is of entity #{}, which is not in the save", t.entity));
        };
        let Some(def) = p.kinds[e.kind as usize].fields.get(t.field as usize) else {
            return Err(format!(
                "a timed change is of attribute #{} of `{}`, which it does not have",
                t.field, e.name
            ));
        };
        if !value_fits(p, st, &t.restore, &def.ty) {
            return Err(format!(
                "the timed change of `{}.{}` would restore a value it cannot hold",
                e.name, def.name
            ));
        }
    }
    for (c, v) in &st.answers {
        let Some(choice) = p.choices.get(*c as usize) else {
            return Err(format!("an answer waits for choice #{c}, which the ruleset does not have"));
        };
        if !value_fits(p, st, v, &choice.ty) && !matches!((&choice.ty, v), (Ty::Int { .. }, Value::Int(_))) {
            return Err(format!("the answer waiting for `{}` is not of its type", choice.name));
        }
    }
    for (i, r) in st.last.iter().enumerate() {
        if let Some(r) = r
            && (r.check_id as usize != i || !any_fits(p, st, &Value::Result(r.clone())))
        {
            return Err(format!("the last result of `{}` is not one of its results", p.checks[i].name));
        }
    }
    // A save from before options has none: it plays on with the ruleset's readings.
    if !st.options.is_empty() && st.options.len() != p.options.len() {
        return Err(format!(
            "it has {} house-rule options, the ruleset {}",
            st.options.len(),
            p.options.len()
        ));
    }
    for (def, v) in p.options.iter().zip(&st.options) {
        if !value_fits(p, st, v, &def.ty) {
            return Err(format!(
                "option `{}` holds a value that is not {}",
                def.name,
                crate::export::type_name(p, &def.ty)
            ));
        }
    }
    if let Some(o) = &st.over {
        if (o.index as usize) >= p.sets[p.results as usize].names.len() {
            return Err("the game's result is not one of the ruleset's results".into());
        }
        if o.winner_id.is_some_and(|w| (w as usize) >= st.entities.len()) {
            return Err("the game's winner is not in the save".into());
        }
    }
    Ok(())
}
