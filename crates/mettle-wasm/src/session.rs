//! A game in progress: the host API of `mettle serve`, a method each. A call that fails leaves the
//! session as it was (dice it forced included), as a `serve` request does.

use crate::{Done, Failure, Kind, json, params};
use mettle::wire;
use mettle::{Change, Question, Reply, Ruleset, Session, Value};
use serde::Deserialize;
use serde_json::{Map, Value as Json};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use wasm_bindgen::prelude::*;

/// A session, the steps `undo` can take back, and the changes observers have yet to hear of.
#[wasm_bindgen]
pub struct Game {
    session: Session,
    undo: VecDeque<mettle::session::Checkpoint>,
    changes: Arc<Mutex<Vec<Change>>>,
    watching: bool,
}

#[wasm_bindgen]
extern "C" {
    /// The host's dice: called with `{notation, sides, faces}`, returns a face.
    pub type DiceFn;
    #[wasm_bindgen(method, catch, js_name = call)]
    fn call1(this: &DiceFn, this_arg: &JsValue, die: &str) -> Result<JsValue, JsValue>;
}

thread_local! {
    /// The host's dice functions, by game. A session's dice source must be `Send`; a JavaScript
    /// function is not, so the source keeps only its game's number and looks the function up here
    /// (the module runs on one thread).
    static DICE: std::cell::RefCell<std::collections::HashMap<u32, DiceFn>> = Default::default();
    static NEXT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

fn rules_of(s: &Session) -> Ruleset {
    s.ruleset().clone()
}

impl Game {
    fn new(mut session: Session, ask: bool) -> Game {
        if ask {
            session.set_chooser(|_: &Question| Reply::Wait);
        }
        Game { session, undo: VecDeque::new(), changes: Default::default(), watching: false }
    }

    /// Runs `f`; a failure rewinds the session. `changed` says whether `undo` should take it back.
    fn step(
        &mut self,
        changed: bool,
        f: impl FnOnce(&mut Session, usize) -> Done,
    ) -> Result<String, JsValue> {
        let before = self.session.checkpoint();
        let start = self.session.log().len();
        match f(&mut self.session, start) {
            Ok(out) => {
                if changed {
                    self.undo.push_back(before);
                    while self.undo.len() as u64 > self.session.ruleset().budget().undo_steps.max(1) {
                        self.undo.pop_front();
                    }
                }
                Ok(out)
            }
            Err(e) => {
                self.session.rewind(before);
                self.changes.lock().map(|mut c| c.clear()).ok();
                Err(e.into())
            }
        }
    }

    /// Refuses an action while another waits on a question, as `serve` does.
    fn not_waiting(&self, what: &str) -> Result<(), Failure> {
        match self.session.question() {
            Some(q) => Err(Failure::plain(
                Kind::Waiting,
                "mettle::wasm::waiting",
                &format!(
                    "`{what}` must wait: an action waits for the answer to `{}` (\"{}\")",
                    q.choice, q.question
                ),
                Some(&format!(
                    "answer it first (one of: {}), or drop that action (`cancel`)",
                    q.shown.join(", ")
                )),
            )),
            None => Ok(()),
        }
    }
}

/// The state, the log from line `from` on, and what the call did (`serve`'s state reply).
fn reply(s: &Session, from: usize, done: Option<&mettle::Outcome>) -> String {
    json(&wire::StateReply::new(s, from, done))
}

fn refused(s: &Session) -> impl Fn(mettle::Diagnostic) -> Failure + '_ {
    move |d| Failure::rules(s.ruleset(), &d)
}

#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
struct RollArgs {
    #[serde(rename = "for")]
    by: Option<String>,
    inputs: Map<String, Json>,
    dice: Vec<i64>,
    seed: u64,
}

/// Who makes a check, and its inputs by name.
type CheckArgs = (Option<u32>, Vec<(String, Value)>);

impl RollArgs {
    /// Who makes check `check` and its inputs, read by their declared types.
    fn read(&self, s: &Session, check: &str) -> Result<CheckArgs, Failure> {
        let by = match &self.by {
            Some(name) => Some(wire::entity(s, name, None).map_err(refused(s))?),
            None => None,
        };
        let inputs = wire::read(s, wire::Fields::Inputs(check), &self.inputs).map_err(refused(s))?;
        Ok((by, inputs))
    }
}

#[wasm_bindgen]
impl Game {
    /// A new game on `rules`; `ask`: a choice with no answer waiting stops the action with its question.
    #[wasm_bindgen(constructor)]
    pub fn create_game(rules: &crate::Rules, seed: u64, ask: bool) -> Game {
        Game::new(Session::new(&rules.rules, seed), ask)
    }

    /// A game from a save made on `rules`.
    pub fn restore(rules: &crate::Rules, save: &str, adapt: bool, ask: bool) -> Result<Game, JsValue> {
        let (session, _warnings) =
            Session::load_with(&rules.rules, save, adapt).map_err(|d| Failure::rules(&rules.rules, &d))?;
        Ok(Game::new(session, ask))
    }

    /// Creates an entity: the state reply, with the new entity's `id`.
    pub fn create(&mut self, kind: &str, name: &str, with: &str) -> Result<String, JsValue> {
        self.not_waiting("create")?;
        self.step(true, |s, start| {
            let given: Map<String, Json> = params(with)?;
            let with = wire::read(s, wire::Fields::Attributes(kind), &given).map_err(refused(s))?;
            let refs: Vec<(&str, Value)> = with.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
            let id = s.create(kind, name, &refs).map_err(refused(s))?;
            // The host's entity is all a creation does: no rule runs.
            let mut done = mettle::Outcome::default();
            done.changes.push(Change::Created {
                entity: id,
                name: name.into(),
                kind: kind.into(),
                span: Default::default(),
            });
            /// `serve`'s state reply, and the new entity's id.
            #[derive(serde::Serialize)]
            struct Created {
                #[serde(flatten)]
                reply: wire::StateReply,
                id: u32,
            }
            Ok(json(&Created { reply: wire::StateReply::new(s, start, Some(&done)), id }))
        })
    }

    /// Applies an event with its facts (JSON); `dice` are forced first.
    pub fn apply(&mut self, event: &str, facts: &str, dice: Vec<i64>) -> Result<String, JsValue> {
        self.not_waiting("apply")?;
        self.step(true, |s, start| {
            let given: Map<String, Json> = params(facts)?;
            let facts = wire::read(s, wire::Fields::Facts(event), &given).map_err(refused(s))?;
            let refs: Vec<(&str, Value)> = facts.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
            s.force_dice(&dice);
            let done = s.apply(event, &refs).map_err(refused(s))?;
            Ok(reply(s, start, Some(&done)))
        })
    }

    /// Rolls a check (`{for, inputs, dice}`): `serve`'s `roll` reply.
    pub fn roll(&mut self, check: &str, args: &str) -> Result<String, JsValue> {
        self.not_waiting("roll")?;
        self.step(true, |s, start| {
            let a: RollArgs = params(args)?;
            let (by, inputs) = a.read(s, check)?;
            let refs: Vec<(&str, Value)> = inputs.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
            s.force_dice(&a.dice);
            let done = s.roll_for(check, by, &refs).map_err(refused(s))?;
            Ok(json(&wire::Rolled::new(s, start, &done)))
        })
    }

    /// Sets an attribute as the host (`value` is JSON).
    pub fn set(&mut self, entity: &str, attribute: &str, value: &str) -> Result<String, JsValue> {
        self.not_waiting("set")?;
        self.step(true, |s, start| {
            let v: Json = params(value)?;
            let id = wire::entity(s, entity, None).map_err(refused(s))?;
            let kind =
                s.state().entities().get(id).and_then(|e| s.ruleset().kind_name(e.kind)).unwrap_or_default();
            let v = wire::read_one(s, wire::Fields::Attributes(kind), attribute, &v).map_err(refused(s))?;
            let done = s.set_attribute(entity, attribute, v).map_err(refused(s))?;
            Ok(reply(s, start, Some(&done)))
        })
    }

    /// Chooses a house-rule option's reading (`value` is JSON).
    pub fn set_option(&mut self, option: &str, value: &str) -> Result<String, JsValue> {
        self.not_waiting("set")?;
        self.step(true, |s, start| {
            let v: Json = params(value)?;
            let v = wire::read_one(s, wire::Fields::Options, option, &v).map_err(refused(s))?;
            s.set_option(option, v).map_err(refused(s))?;
            Ok(reply(s, start, Some(&mettle::Outcome::default())))
        })
    }

    /// Takes an entity out of play.
    pub fn remove(&mut self, entity: &str) -> Result<String, JsValue> {
        self.not_waiting("remove")?;
        self.step(true, |s, start| {
            let done = s.remove_entity(entity).map_err(refused(s))?;
            Ok(reply(s, start, Some(&done)))
        })
    }

    /// Answers `choice` (the one waiting when empty) with `value` (JSON); runs the waiting action on.
    pub fn answer(&mut self, choice: &str, value: &str) -> Result<String, JsValue> {
        let waiting = self.session.question().map(|q| q.choice.clone());
        let choice = match (choice, waiting) {
            ("", Some(c)) => c,
            ("", None) => {
                return Err(Failure::plain(
                    Kind::Nothing,
                    "mettle::wasm::no_question",
                    "no question waits for an answer",
                    Some("name the choice to queue an answer for it: `answer(choice, value)`"),
                )
                .into());
            }
            (c, _) => c.to_string(),
        };
        self.step(true, |s, start| {
            let v: Json = params(value)?;
            let v = wire::read_answer(s, &choice, &v).map_err(refused(s))?;
            s.answer(&choice, v).map_err(refused(s))?;
            if s.question().is_none() {
                return Ok(reply(s, start, None));
            }
            let done = s.resume().map_err(refused(s))?;
            Ok(reply(s, start, Some(&done)))
        })
    }

    /// Drops the action waiting on a question.
    pub fn cancel(&mut self) -> Result<String, JsValue> {
        self.step(true, |s, start| {
            s.abandon().map_err(|d| Failure { kind: Kind::Nothing, ..Failure::rules(&rules_of(s), &d) })?;
            Ok(reply(s, start, None))
        })
    }

    /// The question an action waits on (`null` when none).
    pub fn question(&self) -> String {
        json(&self.session.question().map(|q| wire::question(&self.session, q)))
    }

    /// The answers waiting for their choices.
    pub fn answers(&self) -> String {
        json(&wire::answers(&self.session))
    }

    /// Drops every waiting answer.
    pub fn clear_answers(&mut self) -> Result<String, JsValue> {
        self.step(true, |s, _| {
            s.clear_answers();
            Ok(json(&wire::answers(s)))
        })
    }

    /// The next dice show these faces.
    pub fn force_dice(&mut self, faces: Vec<i64>) {
        self.session.force_dice(&faces);
    }

    /// Every die is asked of `f` from now on; `None` goes back to the seeded dice.
    pub fn dice_from(&mut self, f: Option<DiceFn>) {
        let Some(f) = f else {
            self.session.clear_dice_source();
            return;
        };
        let id = NEXT.with(|n| {
            n.set(n.get() + 1);
            n.get()
        });
        DICE.with(|d| d.borrow_mut().insert(id, f));
        self.session.set_dice_source(move |die: mettle::dice::DieRequest<'_>| {
            let (sides, faces) = match die.faces {
                mettle::dice::Faces::Count(n) => (Some(n), None),
                mettle::dice::Faces::List(l) => (None, Some(l.to_vec())),
            };
            let asked =
                json(&serde_json::json!({ "notation": die.notation, "sides": sides, "faces": faces }));
            let got = DICE.with(|d| d.borrow().get(&id).map(|f| f.call1(&JsValue::NULL, &asked)));
            let fail = |m: String| mettle::Diagnostic::plain("wasm::dice", m);
            match got {
                Some(Ok(v)) => match v.as_f64() {
                    Some(x) if x.fract() == 0.0 && die.can_show(x as i64) => Ok(x as i64),
                    _ => {
                        Err(fail(format!("the host's dice gave {v:?}, which a {} cannot show", die.notation)))
                    }
                },
                Some(Err(e)) => Err(fail(format!(
                    "the host's dice failed: {}",
                    e.as_string().unwrap_or_else(|| format!("{e:?}"))
                ))),
                None => Err(fail("the host's dice are gone".into())),
            }
        });
    }

    /// Starts keeping changes for the wrapper's observers (`take_changes`).
    pub fn watch(&mut self) {
        if !self.watching {
            let keep = self.changes.clone();
            self.session.observe(move |c: &Change| {
                if let Ok(mut k) = keep.lock() {
                    k.push(c.clone());
                }
            });
            self.watching = true;
        }
    }

    /// The changes made since the last time, for observers: JSON `[Change]`.
    pub fn take_changes(&mut self) -> String {
        let taken = self.changes.lock().map(|mut c| std::mem::take(&mut *c)).unwrap_or_default();
        let s = &self.session;
        let out: Vec<Json> = taken
            .iter()
            .map(|c| match c {
                Change::Attribute { name, attribute, from, to, span, .. } => serde_json::json!({
                    "type": "attribute", "entity": name, "attribute": attribute,
                    "from": wire::value(s, from), "to": wire::value(s, to), "span": wire::Span::from(*span),
                }),
                Change::Created { name, kind, span, .. } => serde_json::json!({
                    "type": "created", "entity": name, "kind": kind, "span": wire::Span::from(*span),
                }),
                Change::Removed { name, .. } => serde_json::json!({ "type": "removed", "entity": name }),
                _ => Json::Null,
            })
            .collect();
        json(&out)
    }

    /// The game as a save (`{log}` options as JSON).
    pub fn save(&self, log: bool) -> Result<String, JsValue> {
        let mut options = mettle::session::SaveOptions::default();
        options.log = log;
        Ok(self.session.save_with(&options).map_err(|d| Failure::rules(self.session.ruleset(), &d))?)
    }

    /// Takes back the last step.
    pub fn undo(&mut self) -> Result<String, JsValue> {
        let Some(c) = self.undo.pop_back() else {
            return Err(Failure::plain(
                Kind::Nothing,
                "mettle::wasm::nothing_to_undo",
                "there is nothing to undo",
                None,
            )
            .into());
        };
        self.session.rewind(c);
        Ok(reply(&self.session, self.session.log().len(), None))
    }

    /// The state.
    pub fn state(&self) -> String {
        json(&wire::state(&self.session))
    }

    /// The log from line `from` (numbered from the game's first): `serve`'s `log` reply.
    pub fn log(&self, from: usize) -> String {
        json(&wire::LogReply::new(&self.session, from))
    }

    /// The log in words, as `mettle play` prints it, each step with the line of its rule.
    pub fn log_text(&self) -> String {
        mettle::session::render_log(self.session.log(), self.session.ruleset().text())
    }

    /// Lets go of all but the last `keep` lines: `serve`'s `trim_log` reply.
    pub fn trim_log(&mut self, keep: usize) -> String {
        json(&wire::Trimmed::trim(&mut self.session, keep))
    }

    /// The odds of a check from here, leaving the game as it was.
    pub fn odds(&mut self, check: &str, args: &str) -> Result<String, JsValue> {
        self.step(false, |s, _| {
            let a: RollArgs = params(args)?;
            let (by, inputs) = a.read(s, check)?;
            let refs: Vec<(&str, Value)> = inputs.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
            let keep = s.checkpoint();
            let report = mettle::odds::ask(s, check, by, &refs, a.seed);
            s.rewind(keep);
            Ok(json(&wire::odds(&report.map_err(refused(s))?)))
        })
    }
}
