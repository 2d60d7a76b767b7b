//! Saving a session as JSON and loading it back: a save names its format, its ruleset and the
//! structure its values point into, and every value in it is checked against the ruleset before a
//! session is built from it.

use super::adapt::carry_over;
use super::fits::fits;
use super::structure::{Structure, changes};
use super::{LogLine, Session, State};
use crate::Ruleset;
use crate::diagnostics::{Diagnostic, Level};
use crate::program::Value;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The format this version of mettle writes. Format 4 keeps the log's values typed (a number, a
/// name, an entity, dice…) where earlier formats kept their text: the logs of earlier saves load with
/// their values as text. Format 3 records the ruleset's structure and keeps
/// removed entities' places (so that ids survive a save); format 2 saves (a fingerprint of the
/// ruleset's text, no removed entities) load when the text is the same; format 1 saves (no
/// fingerprint) load only as saves of another ruleset.
pub const SAVE_FORMAT: u32 = 4;

/// A session saved as JSON, as read.
#[derive(Deserialize)]
struct Saved {
    format: u32,
    ruleset: Option<String>,
    /// FNV-1a of the ruleset's text, in hex (format 2; format 3 writes it for people to read).
    #[serde(default)]
    fingerprint: Option<String>,
    /// What the state's values point into, by name (format 3).
    #[serde(default)]
    structure: Option<Structure>,
    state: State,
    /// How many lines of the log were let go before the first one saved.
    #[serde(default)]
    log_dropped: usize,
    log: Vec<LogLine>,
}

/// A session saved as JSON, as written.
#[derive(Serialize)]
struct Saving<'a> {
    format: u32,
    ruleset: &'a Option<String>,
    fingerprint: String,
    structure: Structure,
    state: &'a State,
    log_dropped: usize,
    log: &'a [LogLine],
}

/// How [`Session::save_with`] saves.
///
/// ```
/// let mut options = mettle::session::SaveOptions::default();
/// assert!(options.log);
/// options.log = false;
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SaveOptions {
    /// Whether the log is saved (yes by default). A save without it restores the game exactly, with
    /// an empty log that goes on numbering its lines from where the game's log was.
    pub log: bool,
}

impl Default for SaveOptions {
    fn default() -> SaveOptions {
        SaveOptions { log: true }
    }
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
    /// Saves the session as JSON: format, ruleset title, fingerprint and structure, state, generator
    /// and log. [`Session::save_with`] can leave the log out, and refuses a save over the
    /// `save_bytes` budget, which this one writes all the same.
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
        self.saved(true)
    }

    /// Saves the session as [`Session::save`] does, as `options` say: without the log, the save of a
    /// long game stays small. A save larger than the ruleset's `save_bytes` budget, which
    /// [`Session::load`] would refuse, is refused here (`mettle::save::too_large`).
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("s.mettle", "check c { roll 3d6  otherwise done }").unwrap();
    /// let mut a = mettle::Session::new(&rules, 9);
    /// for _ in 0..100 {
    ///     a.roll("c", &[]).unwrap();
    /// }
    /// let mut options = mettle::session::SaveOptions::default();
    /// options.log = false;
    /// let small = a.save_with(&options).unwrap();
    /// assert!(small.len() * 10 < a.save().len());
    /// let mut b = mettle::Session::load(&rules, &small).unwrap();
    /// assert!(b.log().is_empty());
    /// // The log's lines go on being numbered from where the game's were.
    /// assert_eq!(b.log_start(), a.log().len());
    /// assert_eq!(a.roll("c", &[]).unwrap().rolled.unwrap().total, b.roll("c", &[]).unwrap().rolled.unwrap().total);
    /// ```
    pub fn save_with(&self, options: &SaveOptions) -> Result<String, Diagnostic> {
        let text = self.saved(options.log);
        let cap = self.rules.budget().save_bytes;
        if text.len() as u64 > cap {
            return Err(save_error(
                "too_large",
                format!(
                    "this session's save would be {} bytes, more than the {cap} a save may have",
                    text.len()
                ),
                "save it without its log, or trim the log first (`Session::trim_log`); or raise the \
                 `save_bytes` budget (see docs/security.md)"
                    .into(),
            ));
        }
        Ok(text)
    }

    fn saved(&self, log: bool) -> String {
        let saving = Saving {
            format: SAVE_FORMAT,
            ruleset: &self.rules.program().title,
            fingerprint: fingerprint(&self.rules),
            structure: Structure::of(self.rules.program()),
            state: &self.state,
            log_dropped: if log { self.log_start } else { self.log_start + self.log.len() },
            log: if log { &self.log } else { &[] },
        };
        serde_json::to_string_pretty(&saving).unwrap_or_default()
    }

    /// Loads a session saved by [`Session::save`] over the same ruleset, or over a version of it
    /// whose structure is the same (comments, docs, rule bodies and scenarios may have changed).
    /// Everything in the save is checked first (its format, the structure it was saved over, and
    /// every entity, value, timed change, answer and result against the ruleset); a save that fails
    /// any check is refused whole.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("s.mettle", "kind unit { hp: 0..9 = 1 }").unwrap();
    /// let commented = mettle::Ruleset::from_str("s.mettle", "// Units.\nkind unit { hp: 0..9 = 2 }").unwrap();
    /// let narrower = mettle::Ruleset::from_str("s.mettle", "kind unit { hp: 0..6 = 1 }").unwrap();
    /// let saved = mettle::Session::new(&rules, 1).save();
    /// assert!(mettle::Session::load(&rules, &saved).is_ok());
    /// assert!(mettle::Session::load(&commented, &saved).is_ok());
    /// let e = mettle::Session::load(&narrower, &saved).unwrap_err();
    /// assert_eq!(e.code, "mettle::save::changed_rules");
    /// assert!(e.message.contains("attribute hp of unit: was 0..9, now 0..6"));
    /// ```
    pub fn load(rules: &Ruleset, json: &str) -> Result<Session, Diagnostic> {
        Session::load_with(rules, json, false).map(|(s, _)| s)
    }

    /// Like [`Session::load`]; with `other_ruleset`, a save whose ruleset has changed in structure
    /// since (or a save of another ruleset) is carried over to this one by name when every value in
    /// it still fits, with a warning for each change (`mettle::save::changed_rules`). What may change
    /// is written in docs/embedding.md, "Saving and restoring".
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("s.mettle", "kind unit { hp: 0..9 = 1 }").unwrap();
    /// let edited = mettle::Ruleset::from_str("s.mettle", "kind unit { ap: 0..2 = 2  hp: 0..9 = 1 }").unwrap();
    /// let mut a = mettle::Session::new(&rules, 1);
    /// a.create("unit", "u", &[]).unwrap();
    /// let (b, warnings) = mettle::Session::load_with(&edited, &a.save(), true).unwrap();
    /// assert_eq!(warnings[0].code, "mettle::save::changed_rules");
    /// assert_eq!(warnings[0].message, "the rules changed since this save: attribute ap of unit was added");
    /// assert_eq!(b.get("u", "ap"), Some(&mettle::Value::Int(2)));
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
        let counting = super::saved_data::Counting::new(rules.budget().data_values);
        let saved: Saved = serde_json::from_str(json).map_err(|e| {
            if counting.passed() {
                let n = rules.budget().data_values;
                return Diagnostic::plain(
                    "data::too_large",
                    format!("a piece of data in this saved session holds more than {n} values ({e})"),
                )
                .with_help(
                    "load it with a larger budget if the data is meant to be this large \
                     (`--budget data_values=N`, see docs/security.md)",
                );
            }
            save_error(
                "not_a_save",
                format!("this is not a saved mettle session: {e}"),
                "save a session with `:save` or `Session::save`".into(),
            )
        })?;
        drop(counting);
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
        let p = rules.program();
        let Saved { ruleset, fingerprint: print, structure, state, log_dropped, log, .. } = saved;
        let (state, warnings) = match &structure {
            Some(old) => by_structure(rules, &ruleset, old, state, other_ruleset)?,
            None => (state, by_fingerprint(rules, print.as_deref(), other_ruleset)?),
        };
        if let Err(what) = fits(p, &state) {
            return Err(save_error(
                "bad_value",
                format!("this saved session does not fit the ruleset: {what}"),
                "load it with the ruleset it was saved from; a save edited by hand must keep every value \
                 of its attribute's type and range"
                    .into(),
            ));
        }
        // The log's lines are numbered from the game's first: a number past what a count of lines
        // can reach is not a save's.
        if log_dropped.checked_add(log.len()).is_none_or(|n| n > i64::MAX as usize) {
            return Err(save_error(
                "bad_value",
                format!(
                    "this saved session says {log_dropped} lines of its log were let go, more than a game can log"
                ),
                "a save edited by hand must keep `log_dropped` a count of the lines let go".into(),
            ));
        }
        let mut state = state;
        if state.options.is_empty() {
            state.options = p.options.iter().map(|o| o.default.clone().unwrap_or(Value::None)).collect();
        }
        let session = Session {
            rules: rules.clone(),
            state,
            log,
            log_start: log_dropped,
            logging: true,
            cancel: Arc::default(),
            clears_cancel: true,
            undone: vec![],
            hooks: Default::default(),
            waiting: None,
            spare: Default::default(),
        };
        Ok((session, warnings))
    }
}

// What may change between a save and the ruleset it is loaded into. A save records the structure
// its values point into by position (`Structure`): kinds and their attributes with their types, the
// names of each name set, checks with their outcomes and slots, choices, options and results.
// Everything else (comments, docs, rule bodies, events, formulas, tables, scenarios) may change
// freely, and so may the order of declarations: the save is matched by name.
// - The same structure: the save loads as it is.
// - Another title, or no kind or check in common: a save of another ruleset (`other_ruleset`).
// - Any other change (a kind, attribute, state, check, outcome, choice, option or result added,
//   removed or retyped) is refused (`changed_rules`, naming each change), unless the host asks to
//   carry the save over. Then every stored value is found again by name and must fit its new type:
//   a narrowed range, a removed state or a removed kind that a stored value still needs refuses
//   the save (`does_not_fit`, naming each value); an added attribute or option takes its default
//   (an attribute with none refuses the save if any entity of its kind is in play); a timed change
//   or waiting answer whose attribute or choice is gone is let go; and a check's last roll whose
//   outcome, inputs or values changed is forgotten, as if the check had not been rolled. Each
//   change and each thing let go is a warning.
fn by_structure(
    rules: &Ruleset,
    title: &Option<String>,
    old: &Structure,
    state: State,
    carry: bool,
) -> Result<(State, Vec<Diagnostic>), Diagnostic> {
    let p = rules.program();
    let new = Structure::of(p);
    let mut warnings = vec![];
    let other_title = title.is_some() && p.title.is_some() && *title != p.title;
    if other_title || old.unrelated(&new) {
        let message = match (title, other_title) {
            (Some(t), true) => format!("this session was saved with another ruleset, \"{t}\""),
            _ => "this session was saved with another ruleset: it has none of its kinds and checks".into(),
        };
        if !carry {
            return Err(save_error(
                "other_ruleset",
                message,
                "load it with the ruleset it was saved from; to carry it over to this one anyway, use \
                 `:restore! FILE` in the REPL, `\"adapt\": true` in `restore`, or `Session::load_with` \
                 with `other_ruleset`"
                    .into(),
            ));
        }
        warnings.push(warning("other_ruleset", message, "check what it holds".into()));
    }
    if *old == new {
        return Ok((state, warnings));
    }
    let changed = changes(old, &new);
    if !changed.is_empty() && !carry {
        return Err(save_error(
            "changed_rules",
            format!("the rules changed since this save: {}", listed(&changed)),
            "load it with the ruleset it was saved from; to carry it over to this one, where every value \
             it holds still fits, use `:restore! FILE` in the REPL, `\"adapt\": true` in `restore`, or \
             `Session::load_with` with `other_ruleset`"
                .into(),
        ));
    }
    let carried = carry_over(old, p, state).map_err(|problems| {
        save_error(
            "does_not_fit",
            format!("this save cannot be carried over to the changed rules: {}", listed(&problems)),
            format!(
                "load it with the ruleset it was saved from, or change the rules so that these values fit \
                 (what changed: {})",
                listed(&changed)
            ),
        )
    })?;
    for c in changed.iter().chain(&carried.notes).take(LISTED) {
        warnings.push(warning(
            "changed_rules",
            format!("the rules changed since this save: {c}"),
            "the save was carried over by name; check what it holds".into(),
        ));
    }
    Ok((carried.state, warnings))
}

/// A format 1 or 2 save: it loads when its fingerprint is the ruleset text's; otherwise only when
/// asked, as a save of another ruleset that must fit this one by position.
fn by_fingerprint(
    rules: &Ruleset,
    print: Option<&str>,
    other_ruleset: bool,
) -> Result<Vec<Diagnostic>, Diagnostic> {
    if print == Some(fingerprint(rules).as_str()) {
        return Ok(vec![]);
    }
    let message = match print {
        Some(_) => "this session was saved with a different ruleset (or the ruleset has changed since)",
        None => "this session was saved by an older mettle, which did not record its ruleset",
    };
    if !other_ruleset {
        return Err(save_error(
            "other_ruleset",
            message.into(),
            "load it with the ruleset it was saved from; to load it into this one anyway, use \
             `:restore! FILE` in the REPL, `\"adapt\": true` in `restore`, or `Session::load_with` with \
             `other_ruleset`"
                .into(),
        ));
    }
    Ok(vec![warning(
        "other_ruleset",
        message.into(),
        "it fits this ruleset by structure and was loaded; check what it holds".into(),
    )])
}

/// How many changes or problems a message lists before it says how many more there are.
const LISTED: usize = 12;

/// `items` joined with `; `, the first few of them.
fn listed(items: &[String]) -> String {
    let mut s = items.iter().take(LISTED).cloned().collect::<Vec<_>>().join("; ");
    if items.len() > LISTED {
        s.push_str(&format!("; and {} more", items.len() - LISTED));
    }
    s
}

fn warning(code: &str, message: String, help: String) -> Diagnostic {
    Diagnostic { level: Level::Warning, ..save_error(code, message, help) }
}

fn save_error(code: &str, message: String, help: String) -> Diagnostic {
    Diagnostic::plain(&format!("save::{code}"), message).with_help(help)
}
