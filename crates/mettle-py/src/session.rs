//! `mettle.Session`: one game, played from Python. The host's callables (questions, dice,
//! observers) are Python callables; one that raises stops the action, which is undone.

use crate::convert::{self, Entity, py_value, py_view, refs, typed, typed_one};
use crate::errors;
use crate::odds::Odds;
use mettle::dice::{DieRequest, Faces};
use mettle::wire::Fields;
use mettle::{Change, Diagnostic, Outcome, Question, Reply as Answer, Value};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use std::sync::{Arc, Mutex, MutexGuard};

/// What a question callable returns to take the question's default, or to make the action wait.
#[pyclass(frozen, eq, module = "mettle")]
#[derive(PartialEq, Clone, Copy)]
pub enum Reply {
    /// Take the question's default.
    #[pyo3(name = "DEFAULT")]
    Default,
    /// Stop the action; it waits with the question until `Session.resume()`.
    #[pyo3(name = "WAIT")]
    Wait,
}

/// What the callables share with the session: an exception one of them raised during the action.
type Raised = Arc<Mutex<Option<PyErr>>>;

/// A game in progress over one ruleset: entities, the round and turn, seeded dice and the log.
#[pyclass(frozen, module = "mettle")]
pub struct Session {
    inner: Mutex<mettle::Session>,
    rules: mettle::Ruleset,
    raised: Raised,
    /// Changes the current action made, for the Python observers.
    heard: Arc<Mutex<Vec<Change>>>,
    observers: Mutex<Vec<(u64, Py<PyAny>)>>,
    next_observer: Mutex<u64>,
}

impl Session {
    pub fn new(rules: mettle::Ruleset, seed: u64) -> Session {
        Session::wrap(rules.clone(), mettle::Session::new(&rules, seed))
    }

    fn wrap(rules: mettle::Ruleset, mut inner: mettle::Session) -> Session {
        let heard: Arc<Mutex<Vec<Change>>> = Arc::default();
        let sink = heard.clone();
        inner.observe(move |c: &Change| sink.lock().unwrap_or_else(|p| p.into_inner()).push(c.clone()));
        Session {
            inner: Mutex::new(inner),
            rules,
            raised: Arc::default(),
            heard,
            observers: Mutex::default(),
            next_observer: Mutex::new(0),
        }
    }

    /// The session, or an error when a callable of its own reaches back into it mid-action.
    fn lock(&self, py: Python<'_>) -> PyResult<MutexGuard<'_, mettle::Session>> {
        self.inner.try_lock().map_err(|e| match e {
            std::sync::TryLockError::WouldBlock => errors::plain(
                py,
                "py::busy",
                "the session is in the middle of an action: a question, dice or observer callable cannot use it",
            ),
            // A panic inside an action (a bug in mettle) reached Python as an exception; what the
            // session held then is not to be trusted.
            std::sync::TryLockError::Poisoned(_) => errors::plain(
                py,
                "py::broken",
                "this session stopped in the middle of an action on an internal error: restore a save or start another",
            ),
        })
    }

    fn err(&self, py: Python<'_>, d: &Diagnostic) -> PyErr {
        errors::run_error(py, d, self.rules.name(), self.rules.text())
    }

    /// An entity given as a handle or a name, by id.
    fn entity_id(&self, py: Python<'_>, s: &mettle::Session, e: &Bound<'_, PyAny>) -> PyResult<u32> {
        if let Ok(h) = e.cast::<Entity>() {
            return Ok(h.get().id);
        }
        mettle::wire::entity(s, &e.extract::<String>()?, None).map_err(|d| self.err(py, &d))
    }

    /// An entity given as a handle or a name, by name.
    fn entity_name(&self, s: &mettle::Session, e: &Bound<'_, PyAny>) -> PyResult<String> {
        if let Ok(h) = e.cast::<Entity>() {
            let id = h.get().id;
            return Ok(s
                .state()
                .entities()
                .get(id)
                .map(|x| x.name.clone())
                .unwrap_or_else(|| h.get().name.clone()));
        }
        e.extract::<String>()
    }

    /// Runs one action: what it did as a dict, or the exception it raised. A callable that raised
    /// undoes the action (a question's wait is dropped); so does an observer that raises.
    fn act(
        &self,
        py: Python<'_>,
        s: &mut mettle::Session,
        f: impl FnOnce(&mut mettle::Session) -> Result<Outcome, Diagnostic>,
    ) -> PyResult<Py<PyAny>> {
        let listening = !self.observers.lock().unwrap_or_else(|p| p.into_inner()).is_empty();
        let before = listening.then(|| s.checkpoint());
        self.heard.lock().unwrap_or_else(|p| p.into_inner()).clear();
        let done = f(s);
        if let Some(e) = self.raised.lock().unwrap_or_else(|p| p.into_inner()).take() {
            // The action stopped at the callable: a question it was asking waits no more.
            if done.as_ref().is_ok_and(|o| o.question.is_some()) {
                let _ = s.abandon();
            }
            return Err(e);
        }
        let outcome = done.map_err(|d| self.err(py, &d))?;
        let heard = std::mem::take(&mut *self.heard.lock().unwrap_or_else(|p| p.into_inner()));
        if let Some(before) = before {
            let observers: Vec<Py<PyAny>> = self
                .observers
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .iter()
                .map(|(_, o)| o.clone_ref(py))
                .collect();
            for c in &heard {
                let change = change(py, s, c)?;
                for o in &observers {
                    if let Err(e) = o.call1(py, (change.clone(),)) {
                        s.rewind(before);
                        return Err(e);
                    }
                }
            }
        }
        Ok(self.outcome(py, s, &outcome)?.unbind())
    }

    /// What an action did: the typed view serve and `--json` give, with the question's options as
    /// Python values.
    fn outcome<'py>(&self, py: Python<'py>, s: &mettle::Session, o: &Outcome) -> PyResult<Bound<'py, PyAny>> {
        let d = py_view(py, &mettle::wire::outcome(s, o))?;
        if let Some(q) = &o.question {
            d.set_item("question", question(py, s, q)?)?;
        }
        Ok(d)
    }
}

/// A question as a dict: the typed view, with `options` and `default` as Python values that can
/// be given back as answers.
fn question<'py>(py: Python<'py>, s: &mettle::Session, q: &Question) -> PyResult<Bound<'py, PyAny>> {
    let d = py_view(py, &mettle::wire::question(s, q))?;
    let options = q.options.iter().map(|v| py_value(py, s, v)).collect::<PyResult<Vec<_>>>()?;
    d.set_item("options", PyList::new(py, options)?)?;
    d.set_item("default", q.default.as_ref().map(|v| py_value(py, s, v)).transpose()?)?;
    if let Some(asker) = q.asker {
        d.set_item("asker", py_value(py, s, &Value::Entity(asker))?)?;
    }
    Ok(d)
}

/// A change as the observers hear it.
fn change<'py>(py: Python<'py>, s: &mettle::Session, c: &Change) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    match c {
        Change::Attribute { entity, name, attribute, from, to, span } => {
            d.set_item("type", "attribute")?;
            d.set_item("entity", Entity { id: *entity, name: name.clone() })?;
            d.set_item("attribute", attribute)?;
            d.set_item("before", py_value(py, s, from)?)?;
            d.set_item("after", py_value(py, s, to)?)?;
            d.set_item("span", (span.start, span.end))?;
        }
        Change::Created { entity, name, kind, .. } => {
            d.set_item("type", "created")?;
            d.set_item("entity", Entity { id: *entity, name: name.clone() })?;
            d.set_item("kind", kind)?;
        }
        Change::Removed { entity, name } => {
            d.set_item("type", "removed")?;
            d.set_item("entity", Entity { id: *entity, name: name.clone() })?;
        }
        _ => d.set_item("type", "other")?,
    }
    Ok(d)
}

#[pymethods]
impl Session {
    /// A new game over `ruleset`, its dice seeded with `seed`.
    #[new]
    #[pyo3(signature = (ruleset, seed=0))]
    fn py_new(ruleset: &crate::ruleset::Ruleset, seed: u64) -> Session {
        Session::new(ruleset.rules.clone(), seed)
    }

    /// Restores a game saved by `save()`; `adapt=True` carries it over to rules edited since.
    #[staticmethod]
    #[pyo3(signature = (ruleset, saved, *, adapt=false))]
    fn restore(
        py: Python<'_>,
        ruleset: &crate::ruleset::Ruleset,
        saved: &str,
        adapt: bool,
    ) -> PyResult<Session> {
        let rules = ruleset.rules.clone();
        match mettle::Session::load_with(&rules, saved, adapt) {
            Ok((s, _warnings)) => Ok(Session::wrap(rules, s)),
            Err(d) => Err(errors::run_error(py, &d, rules.name(), rules.text())),
        }
    }

    /// The game as JSON text, for `Session.restore`; `log=False` leaves the log out.
    #[pyo3(signature = (*, log=true))]
    fn save(&self, py: Python<'_>, log: bool) -> PyResult<String> {
        let s = self.lock(py)?;
        let mut opts = mettle::session::SaveOptions::default();
        opts.log = log;
        s.save_with(&opts).map_err(|d| self.err(py, &d))
    }

    /// Makes an entity of `kind` called `name`, its attributes given as keywords.
    #[pyo3(signature = (kind, name, /, **attributes))]
    fn create(
        &self,
        py: Python<'_>,
        kind: &str,
        name: &str,
        attributes: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Entity> {
        let mut s = self.lock(py)?;
        let with = typed(py, &s, Fields::Attributes(kind), attributes)?;
        let mut made = None;
        self.act(py, &mut s, |s| {
            let id = s.create(kind, name, &refs(&with))?;
            made = Some(id);
            Ok(Outcome::default())
        })?;
        Ok(Entity { id: made.unwrap_or_default(), name: name.to_string() })
    }

    /// The entity called `name`, or `None`.
    fn entity(&self, py: Python<'_>, name: &str) -> PyResult<Option<Entity>> {
        let s = self.lock(py)?;
        Ok(s.entity(name).map(|id| Entity { id, name: name.to_string() }))
    }

    /// The entities in play, in the order they were made.
    fn entities(&self, py: Python<'_>) -> PyResult<Vec<Entity>> {
        let s = self.lock(py)?;
        Ok(s.state().entities().iter().map(|(id, e)| Entity { id, name: e.name.clone() }).collect())
    }

    /// The value of an entity's attribute (the entity as a handle or a name).
    fn get<'py>(
        &self,
        py: Python<'py>,
        entity: &Bound<'py, PyAny>,
        attribute: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let s = self.lock(py)?;
        let name = self.entity_name(&s, entity)?;
        match s.get(&name, attribute) {
            Some(v) => py_value(py, &s, v),
            None => Err(errors::plain(
                py,
                "py::no_such_attribute",
                format!("`{name}` has no attribute `{attribute}` (or is not in play)"),
            )),
        }
    }

    /// Applies event `event` with its facts as keywords: Python data (dicts, lists) for shaped facts.
    #[pyo3(signature = (event, /, **facts))]
    fn apply(&self, py: Python<'_>, event: &str, facts: Option<&Bound<'_, PyDict>>) -> PyResult<Py<PyAny>> {
        let mut s = self.lock(py)?;
        let facts = typed(py, &s, Fields::Facts(event), facts)?;
        self.act(py, &mut s, |s| s.apply(event, &refs(&facts)))
    }

    /// Rolls `check`, made by `subject` when given, with its inputs as keywords.
    #[pyo3(signature = (check, /, subject=None, **inputs))]
    fn roll(
        &self,
        py: Python<'_>,
        check: &str,
        subject: Option<&Bound<'_, PyAny>>,
        inputs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        let mut s = self.lock(py)?;
        let inputs = typed(py, &s, Fields::Inputs(check), inputs)?;
        let subject = subject.map(|e| self.entity_id(py, &s, e)).transpose()?;
        self.act(py, &mut s, |s| s.roll_for(check, subject, &refs(&inputs)))
    }

    /// Sets an attribute of an entity as the host, checked as a rule's change is.
    fn set_attribute(
        &self,
        py: Python<'_>,
        entity: &Bound<'_, PyAny>,
        attribute: &str,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyAny>> {
        let mut s = self.lock(py)?;
        let name = self.entity_name(&s, entity)?;
        let kind = s
            .entity(&name)
            .and_then(|id| s.state().entities().get(id))
            .and_then(|e| self.rules.kind_name(e.kind))
            .unwrap_or_default()
            .to_string();
        let v = typed_one(py, &s, Fields::Attributes(&kind), attribute, value)?;
        self.act(py, &mut s, |s| s.set_attribute(&name, attribute, v))
    }

    /// Takes an entity out of play.
    fn remove(&self, py: Python<'_>, entity: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let mut s = self.lock(py)?;
        let name = self.entity_name(&s, entity)?;
        self.act(py, &mut s, |s| s.remove_entity(&name))
    }

    /// Sets a house-rule option (a `str` is read as one of its readings).
    fn set_option(&self, py: Python<'_>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut s = self.lock(py)?;
        let v = typed_one(py, &s, Fields::Options, name, value)?;
        s.set_option(name, v).map_err(|d| self.err(py, &d))
    }

    /// Queues the answer to choice `choice`, for the question waiting or the next one asked.
    fn answer(&self, py: Python<'_>, choice: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut s = self.lock(py)?;
        let v = match value.cast::<Entity>() {
            Ok(e) => Value::Entity(e.get().id),
            Err(_) => {
                mettle::wire::read_answer(&s, choice, &convert::json(value)?).map_err(|d| self.err(py, &d))?
            }
        };
        s.answer(choice, v).map_err(|d| self.err(py, &d))
    }

    /// Runs the waiting action on, once its question is answered: what it did (maybe another question).
    fn resume(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let mut s = self.lock(py)?;
        self.act(py, &mut s, mettle::Session::resume)
    }

    /// Drops the waiting action; returns its question.
    fn abandon(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let mut s = self.lock(py)?;
        let q = s.abandon().map_err(|d| self.err(py, &d))?;
        Ok(question(py, &s, &q)?.unbind())
    }

    /// The question the waiting action asks, or `None`.
    #[getter]
    fn question(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let s = self.lock(py)?;
        s.question().map(|q| question(py, &s, q).map(Bound::unbind)).transpose()
    }

    /// Answers questions with `chooser(question) -> answer | Reply.DEFAULT | Reply.WAIT`, or, with
    /// `None`, stops asking: a question then takes a queued answer or waits.
    fn set_chooser(&self, py: Python<'_>, chooser: Option<Py<PyAny>>) -> PyResult<()> {
        let mut s = self.lock(py)?;
        let Some(chooser) = chooser else {
            s.clear_chooser();
            return Ok(());
        };
        let raised = self.raised.clone();
        let rules = self.rules.clone();
        // The chooser sees the question as a dict; names and entities come back as values.
        s.set_chooser(move |q: &Question| {
            Python::attach(|py| {
                let asked = || -> PyResult<Answer> {
                    let d = question_alone(py, &rules, q)?;
                    let r = chooser.call1(py, (d,))?;
                    let r = r.bind(py);
                    if let Ok(reply) = r.cast::<Reply>() {
                        return Ok(match *reply.get() {
                            Reply::Default => Answer::Default,
                            Reply::Wait => Answer::Wait,
                        });
                    }
                    // An entity or a name is looked for among the options as shown.
                    if let Ok(e) = r.cast::<Entity>() {
                        return Ok(Answer::Answer(Value::Entity(e.get().id)));
                    }
                    if let Ok(text) = r.cast::<PyString>() {
                        let text = text.to_cow()?;
                        if let Some(i) = q.shown.iter().position(|s| *s == text) {
                            return Ok(Answer::Answer(q.options[i].clone()));
                        }
                    }
                    Ok(Answer::Answer(convert::value(py, &rules, &q.choice, r)?))
                };
                asked().unwrap_or_else(|e| {
                    *raised.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                    Answer::Wait
                })
            })
        });
        Ok(())
    }

    /// Rolls dice with `dice(sides, notation) -> face`: `sides` is the number of sides, or the list
    /// of faces of a custom die. `None` goes back to the session's seeded dice.
    fn set_dice(&self, py: Python<'_>, dice: Option<Py<PyAny>>) -> PyResult<()> {
        let mut s = self.lock(py)?;
        let Some(dice) = dice else {
            s.clear_dice_source();
            return Ok(());
        };
        let raised = self.raised.clone();
        s.set_dice_source(move |die: DieRequest<'_>| {
            Python::attach(|py| {
                let sides = match die.faces {
                    Faces::Count(n) => n.into_pyobject(py)?.into_any(),
                    Faces::List(l) => PyList::new(py, l)?.into_any(),
                };
                dice.call1(py, (sides, die.notation))?.extract::<i64>(py)
            })
            .map_err(|e: PyErr| {
                *raised.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                Diagnostic::plain("py::callback", "the dice callable raised")
            })
        });
        Ok(())
    }

    /// The next dice show these faces, before any other source.
    fn force_dice(&self, py: Python<'_>, faces: Vec<i64>) -> PyResult<()> {
        self.lock(py)?.force_dice(&faces);
        Ok(())
    }

    /// Calls `observer(change)` for each change an action made, once it succeeded; returns an id
    /// for `unobserve`. An observer that raises undoes the action.
    fn observe(&self, observer: Py<PyAny>) -> u64 {
        let mut n = self.next_observer.lock().unwrap_or_else(|p| p.into_inner());
        *n += 1;
        self.observers.lock().unwrap_or_else(|p| p.into_inner()).push((*n, observer));
        *n
    }

    /// Stops calling an observer; whether it was there.
    fn unobserve(&self, id: u64) -> bool {
        let mut all = self.observers.lock().unwrap_or_else(|p| p.into_inner());
        let before = all.len();
        all.retain(|(i, _)| *i != id);
        all.len() < before
    }

    /// The odds of `check` from this game's state (made by `subject` when given).
    #[pyo3(signature = (check, /, subject=None, seed=0, **inputs))]
    fn odds(
        &self,
        py: Python<'_>,
        check: &str,
        subject: Option<&Bound<'_, PyAny>>,
        seed: u64,
        inputs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Odds> {
        let mut s = self.lock(py)?;
        let inputs = typed(py, &s, Fields::Inputs(check), inputs)?;
        let subject = subject.map(|e| self.entity_id(py, &s, e)).transpose()?;
        let s = &mut *s;
        let r = mettle::odds::ask(s, check, subject, &refs(&inputs), seed);
        r.map(Odds::new).map_err(|d| self.err(py, &d))
    }

    /// The state: round, turn, entities with their attributes, options, orders, the game's end.
    fn state(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let s = self.lock(py)?;
        Ok(py_view(py, &mettle::wire::state(&s))?.unbind())
    }

    /// The log as typed entries.
    fn log(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let s = self.lock(py)?;
        Ok(py_view(py, &mettle::wire::log(&s, s.log()))?.unbind())
    }

    /// The log as `mettle play` prints it.
    fn log_text(&self, py: Python<'_>) -> PyResult<String> {
        let s = self.lock(py)?;
        Ok(mettle::session::render_log(s.log(), self.rules.text()))
    }

    /// The answers queued.
    fn answers(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let s = self.lock(py)?;
        Ok(py_view(py, &mettle::wire::answers(&s))?.unbind())
    }

    /// Drops the answers queued.
    fn clear_answers(&self, py: Python<'_>) -> PyResult<()> {
        self.lock(py)?.clear_answers();
        Ok(())
    }
}

/// A question as the chooser sees it, while the session is busy asking: names as text, entities as
/// handles named by the question's own words.
fn question_alone<'py>(
    py: Python<'py>,
    rules: &mettle::Ruleset,
    q: &Question,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("choice", &q.choice)?;
    d.set_item("question", &q.question)?;
    let options = q
        .options
        .iter()
        .zip(&q.shown)
        .map(|(v, shown)| -> PyResult<Bound<'py, PyAny>> {
            Ok(match v {
                Value::Entity(id) => Bound::new(py, Entity { id: *id, name: shown.clone() })?.into_any(),
                Value::Int(i) => i.into_pyobject(py)?.into_any(),
                Value::Bool(b) => pyo3::types::PyBool::new(py, *b).to_owned().into_any(),
                _ => PyString::new(py, &rules.text_of(v)).into_any(),
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    d.set_item("options", PyList::new(py, options)?)?;
    d.set_item("shown", q.shown.clone())?;
    d.set_item("default", q.default.as_ref().map(|v| rules.text_of(v)))?;
    d.set_item("range", q.range)?;
    Ok(d)
}
