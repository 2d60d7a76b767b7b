//! The host's side of a session: the dice it supplies, its answers to choices, its observers of
//! state changes, and the changes it makes itself (setting an attribute, removing an entity).

use super::host::{Change, Chooser, ObserverId};
use super::outcome::Outcome;
use super::run::ANY_RUN;
use super::{Session, api_error, check_value, find, run};
use crate::ast::Span;
use crate::diagnostics::{Diagnostic, suggest};
use crate::dice::DiceSource;
use crate::program::Value;
use std::sync::{Arc, Mutex};

impl Session {
    /// Rolls the session's dice with `source` from now on (dice typed in by the players, a generator
    /// of the host's own) instead of the seeded generator. See [`crate::dice::DiceSource`]: forced
    /// dice still come first, and a save does not keep the source.
    ///
    /// ```
    /// use mettle::{Ruleset, Session, dice::QueuedDice};
    /// let rules = Ruleset::from_str("d.mettle", "check c { roll 2d6  otherwise done }").unwrap();
    /// let mut s = Session::new(&rules, 1);
    /// let typed = QueuedDice::new();
    /// s.set_dice_source(typed.clone());
    /// typed.push(&[6, 2]); // what the player rolled
    /// assert_eq!(s.roll("c", &[]).unwrap().rolled.unwrap().total, 8);
    /// ```
    pub fn set_dice_source(&mut self, source: impl DiceSource + 'static) {
        self.hooks.set_dice(source);
    }

    /// Drops the forced dice still waiting ([`Session::force_dice`], a scenario's `dice`), so that the
    /// next dice come from the dice source or the generator again.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("f.mettle", "check c { roll d6  otherwise done }").unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// s.force_dice(&[6, 6, 6]);
    /// s.clear_forced_dice();
    /// assert_eq!(s.state().forced().len(), 0);
    /// ```
    pub fn clear_forced_dice(&mut self) {
        self.state.forced.clear();
    }

    /// Goes back to rolling with the seeded generator.
    ///
    /// ```
    /// # let rules = mettle::Ruleset::from_str("d.mettle", "check c { roll d6  otherwise done }").unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// s.set_dice_source(mettle::dice::QueuedDice::new());
    /// assert!(s.roll("c", &[]).is_err());
    /// s.clear_dice_source();
    /// assert!(s.roll("c", &[]).is_ok());
    /// ```
    pub fn clear_dice_source(&mut self) {
        self.hooks.dice = None;
    }

    /// Answers the next time choice `choice` is asked (answers wait in order, one per asking); the
    /// log says the host answered. The answer must be of the choice's type (`type_mismatch`,
    /// `out_of_range`), and, when the session waits on this choice ([`Session::question`]), one of
    /// the question's options (`bad_answer`); a refused answer changes nothing.
    ///
    /// ```
    /// let rules = mettle::Ruleset::from_str("c.mettle", r#"
    ///     kind unit { brave: flag = no }
    ///     event dare(unit: unit)
    ///     on dare { choose go "Take the dare?" from yes | no default no  set unit.brave to go }
    /// "#).unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// let u = s.create("unit", "u", &[]).unwrap();
    /// s.answer("go", mettle::Value::Bool(true)).unwrap();
    /// s.apply("dare", &[("unit", mettle::Value::Entity(u))]).unwrap();
    /// assert_eq!(s.get("u", "brave"), Some(&mettle::Value::Bool(true)));
    /// ```
    pub fn answer(&mut self, choice: &str, value: Value) -> Result<(), Diagnostic> {
        let p = self.rules.program();
        let c = find(
            &p.choices,
            |c| &c.name,
            choice,
            "choice",
            format!("no rule asks a choice called `{choice}`"),
        )?;
        check_value(p, &self.state, &value, &p.choices[c].ty, &format!("the answer to `{choice}`"))?;
        if let Some(w) = &self.waiting
            && w.question.choice == choice
            && !w.question.takes(&value)
        {
            return Err(api_error(
                "bad_answer",
                format!("`{}` is not an option for choice `{choice}` here", self.show(&value)),
                match w.question.range {
                    Some(_) => format!("answer {}", run::shown_options(&w.question)),
                    None => format!("answer one of: {}", run::shown_options(&w.question)),
                },
            ));
        }
        self.state.host_answers.resize(self.state.answers.len(), false);
        self.state.host_answers.push(true);
        self.state.answers.push((c as u32, value));
        Ok(())
    }

    /// Asks `chooser` each time a rule asks a choice that has no answer waiting, instead of taking
    /// the choice's default. Its answers are checked against the choice's options (a wrong one stops
    /// the action with `mettle::run::bad_answer`, undone) and logged as answered `by host`.
    ///
    /// ```
    /// use mettle::{Reply, Ruleset, Session, Value};
    /// let rules = Ruleset::from_str("c.mettle", r#"
    ///     kind unit { pick: red | blue = red }
    ///     event ask(unit: unit)
    ///     on ask { choose colour "Which colour?" from red | blue  set unit.pick to colour }
    /// "#).unwrap();
    /// let mut s = Session::new(&rules, 1);
    /// let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    /// // The host's player always picks the last option shown.
    /// s.set_chooser(|q: &mettle::Question| Reply::Answer(q.options.last().unwrap().clone()));
    /// s.apply("ask", &[("unit", u)]).unwrap();
    /// assert_eq!(s.show(s.get("u", "pick").unwrap()), "blue");
    /// ```
    pub fn set_chooser(&mut self, chooser: impl Chooser + 'static) {
        self.hooks.chooser = Some(Arc::new(Mutex::new(chooser)));
    }

    /// Stops asking the chooser: choices without an answer waiting take their defaults again.
    pub fn clear_chooser(&mut self) {
        self.hooks.chooser = None;
    }

    /// Calls `observer` with every change to the game's state from now on: attributes changed (by
    /// rules, scripts, timed changes running out, or the host), entities created and removed. It
    /// hears of an action's changes when the action has succeeded, in order; an action that fails
    /// and is undone changed nothing. Returns a handle for [`Session::unobserve`].
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use mettle::{Change, Ruleset, Session, Value};
    /// let rules = Ruleset::from_str("o.mettle", r#"
    ///     kind unit { hp: 0..9 = 6 }
    ///     event hit(unit: unit)
    ///     on hit { remove 2 from unit.hp }
    /// "#).unwrap();
    /// let mut s = Session::new(&rules, 1);
    /// let u = Value::Entity(s.create("unit", "u", &[]).unwrap());
    /// let seen = Arc::new(Mutex::new(vec![]));
    /// let log = seen.clone();
    /// s.observe(move |c: &Change| {
    ///     if let Change::Attribute { name, attribute, from, to, .. } = c {
    ///         log.lock().unwrap().push(format!("{name}.{attribute}: {from:?} -> {to:?}"));
    ///     }
    /// });
    /// s.apply("hit", &[("unit", u)]).unwrap();
    /// assert_eq!(*seen.lock().unwrap(), ["u.hp: Int(6) -> Int(4)"]);
    /// ```
    pub fn observe(&mut self, observer: impl FnMut(&Change) + Send + 'static) -> ObserverId {
        let id = self.hooks.next_observer;
        self.hooks.next_observer += 1;
        self.hooks.observers.push((id, Arc::new(Mutex::new(observer))));
        ObserverId(id)
    }

    /// Stops calling the observer `id`. Says whether it was observing.
    pub fn unobserve(&mut self, id: ObserverId) -> bool {
        let before = self.hooks.observers.len();
        self.hooks.observers.retain(|(i, _)| *i != id.0);
        self.hooks.observers.len() != before
    }

    /// Sets attribute `attribute` of entity `entity` to `value`, as the host: the value is checked
    /// against the attribute's type and range (an entity of the right kind, a name of its set), the
    /// change is logged (a change without a rule's line) and observers hear of it.
    ///
    /// ```
    /// use mettle::{Ruleset, Session, Value};
    /// let rules = Ruleset::from_str("s.mettle", "kind unit { hp: 0..9 = 6  morale: steady | shaken = steady }").unwrap();
    /// let mut s = Session::new(&rules, 1);
    /// s.create("unit", "u", &[]).unwrap();
    /// s.set_attribute("u", "hp", Value::Int(2)).unwrap();
    /// assert_eq!(s.get("u", "hp"), Some(&Value::Int(2)));
    /// let shaken = rules.value("morale", "shaken").unwrap();
    /// s.set_attribute("u", "morale", shaken).unwrap();
    /// assert_eq!(s.set_attribute("u", "hp", Value::Int(12)).unwrap_err().code, "mettle::run::out_of_range");
    /// assert_eq!(s.set_attribute("u", "hq", Value::Int(1)).unwrap_err().help.as_deref(), Some("did you mean `hp`?"));
    /// ```
    pub fn set_attribute(
        &mut self,
        entity: &str,
        attribute: &str,
        value: Value,
    ) -> Result<Outcome, Diagnostic> {
        let rules = self.rules.clone();
        let p = rules.program();
        let e = self.find_entity(entity)?;
        let Some(held) = self.state.entities.get(e) else {
            return Err(self.no_entity(entity));
        };
        let kind = &p.kinds[held.kind as usize];
        let i = find(
            &kind.fields,
            |f| &f.name,
            attribute,
            "attribute",
            format!("a {} has no attribute `{attribute}`", kind.name),
        )?;
        let ty = &kind.fields[i].ty;
        check_value(p, &self.state, &value, ty, &format!("attribute `{attribute}` of `{entity}`"))?;
        self.host_change(|r| r.write::<ANY_RUN>(e, i as u32, value, Span::default())).map(|((), o)| o)
    }

    /// Takes entity `entity` out of play, as the host (a unit routed off the table): attributes that
    /// named it become none, its timed changes and the answers naming it are dropped, and the log
    /// and observers hear of it. Every other entity keeps its id; the removed one's id is never
    /// given again, and a host that gives it later gets `mettle::run::removed_entity`. Its name is
    /// free for a new entity, which gets a new id.
    ///
    /// ```
    /// use mettle::{Ruleset, Session, Value};
    /// let rules = Ruleset::from_str("r.mettle", "kind unit { leader: unit  hp: 0..9 = 1 }").unwrap();
    /// let mut s = Session::new(&rules, 1);
    /// let boss = s.create("unit", "boss", &[]).unwrap();
    /// let grunt = s.create("unit", "grunt", &[("leader", Value::Entity(boss))]).unwrap();
    /// s.remove_entity("boss").unwrap();
    /// assert_eq!(s.entity("grunt"), Some(grunt));
    /// assert_eq!(s.get("grunt", "leader"), Some(&Value::None));
    /// let late = s.set_attribute("grunt", "leader", Value::Entity(boss)).unwrap_err();
    /// assert_eq!(late.code, "mettle::run::removed_entity");
    /// assert_eq!(s.remove_entity("grnut").unwrap_err().help.as_deref(), Some("did you mean `grunt`?"));
    /// ```
    pub fn remove_entity(&mut self, entity: &str) -> Result<Outcome, Diagnostic> {
        let e = self.find_entity(entity)?;
        self.host_change(|r| r.remove(e)).map(|((), o)| o)
    }

    /// The id of the entity called `name`, or `mettle::run::unknown_entity` with a "did you mean".
    pub(super) fn find_entity(&self, name: &str) -> Result<u32, Diagnostic> {
        self.entity(name).ok_or_else(|| self.no_entity(name))
    }

    /// `mettle::run::unknown_entity` for `name`, which no entity in play has, with a "did you mean"
    /// among those in play.
    fn no_entity(&self, name: &str) -> Diagnostic {
        let known: Vec<&str> = self.state.entities.iter().map(|(_, e)| e.name.as_str()).collect();
        let help = if known.is_empty() {
            "no entity is in play; create one first".to_string()
        } else {
            suggest(name, "entity", &known)
        };
        api_error("unknown_entity", format!("there is no entity in play called `{name}`"), help)
    }
}
