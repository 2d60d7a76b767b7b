//! Each method of `mettle serve`: read its parameters, act on the world, say what happened.

use super::protocol::*;
use super::values::{entity, named, refs, value};
use super::{Failure, Server, Step, World, code, params};
use crate::cli::json::{ExportDoc, Meta, SimDoc, error_info};
use mettle::internals::RulesetInternals as _;
use mettle::wire::Fields;
use mettle::{Ruleset, Session, Value};

impl Server {
    /// Carries out `method` with `params` (an object).
    pub fn call(&mut self, method: &str, p: serde_json::Value) -> Result<Outcome, Failure> {
        match method {
            "load" => self.load(params(method, p)?, false),
            "restore" => self.restore(params(method, p)?),
            "undo" => {
                let _: Empty = params(method, p)?;
                self.undo_step()
            }
            _ => {
                let Some(world) = self.world.as_mut() else {
                    return Err(Failure::plain(
                        code::NOTHING,
                        "mettle::serve::no_ruleset",
                        &format!("`{method}` needs a ruleset, and none is loaded"),
                        Some("send `load` first, or start with `mettle serve FILE`"),
                    ));
                };
                super::questions::not_while_waiting(&world.session, method)?;
                let before = world.session.checkpoint();
                match act(world, method, p, self.budget.steps) {
                    Ok((outcome, changed)) => {
                        if changed {
                            self.remember(Step::Kept(Box::new(before)));
                        }
                        Ok(outcome)
                    }
                    Err(f) => {
                        // Whatever the request began (dice it forced), the session is as it was.
                        world.session.rewind(before);
                        Err(f)
                    }
                }
            }
        }
    }

    /// `load`; `given` when the file is the operator's, named on the command line (read wherever it
    /// is), not a client's (read only under the root folder).
    fn load(&mut self, p: LoadParams, given: bool) -> Result<Outcome, Failure> {
        let opts = |base: Option<std::path::PathBuf>| mettle::LoadOptions {
            base,
            budget: self.budget.clone(),
            options: crate::cli::options(),
            ..Default::default()
        };
        let loaded = match (&p.file, &p.text) {
            (Some(f), None) => {
                let path = match given {
                    true => std::path::PathBuf::from(f),
                    false => super::files::permit(self.root.as_deref(), f)?,
                };
                Ruleset::from_path_with(&path, &opts(path.parent().map(|p| p.to_path_buf())))
            }
            (None, Some(t)) => {
                // A text's script files come from the root folder, and from nowhere without one.
                let mut o = opts(self.root.clone());
                if self.root.is_none() {
                    o.scripts = Some(Default::default());
                }
                Ruleset::load(p.name.as_deref().unwrap_or("request"), t, &o)
            }
            _ => {
                return Err(Failure::plain(
                    code::INVALID_PARAMS,
                    "mettle::serve::bad_params",
                    "`load` takes a `file` or a `text`, one of the two",
                    Some("{\"file\": \"rulesets/infinite_frontiers.mettle\"}"),
                ));
            }
        };
        let rules = match loaded {
            Ok(r) => r,
            Err(e) => {
                let errors = e.diagnostics.iter().map(|d| error_info(d, &e.name, &e.text)).collect();
                return Err(Failure { code: code::LOAD, errors });
            }
        };
        let mut session = Session::new(&rules, p.seed.unwrap_or(self.seed));
        if p.choices.unwrap_or(Choices::Ask) == Choices::Ask {
            super::questions::ask(&mut session);
        }
        let before = self.world.replace(World { rules: rules.clone(), session });
        self.remember(Step::Replaced(before.map(Box::new)));
        Ok(Outcome::Loaded(Loaded::new(&rules)))
    }

    fn restore(&mut self, p: RestoreParams) -> Result<Outcome, Failure> {
        let Some(world) = self.world.as_ref() else {
            return Err(Failure::plain(
                code::NOTHING,
                "mettle::serve::no_ruleset",
                "`restore` needs the ruleset the save was made with, and none is loaded",
                Some("send `load` first"),
            ));
        };
        let text = p.save.to_string();
        let rules = &world.rules;
        let (session, warnings) =
            Session::load_with(rules, &text, p.adapt).map_err(|d| Failure::rules(rules, &d))?;
        let warnings = warnings.iter().map(|d| error_info(d, rules.name(), rules.text())).collect();
        let mut new = world.clone();
        new.session = session;
        let before = self.world.replace(new);
        self.remember(Step::Replaced(before.map(Box::new)));
        let mut reply = state_reply(&self.world.as_ref().expect("just restored").session, 0);
        if let Outcome::State(r) = &mut reply {
            r.warnings = warnings;
        }
        Ok(reply)
    }

    fn undo_step(&mut self) -> Result<Outcome, Failure> {
        let Some(step) = self.undo.pop_back() else {
            return Err(Failure::plain(
                code::NOTHING,
                "mettle::serve::nothing_to_undo",
                "there is nothing to undo",
                Some("`undo` takes back load, create, set, apply, roll, answer and restore"),
            ));
        };
        match step {
            Step::Kept(c) => {
                if let Some(w) = self.world.as_mut() {
                    w.session.rewind(*c);
                }
            }
            Step::Replaced(before) => self.world = before.map(|b| *b),
        }
        Ok(match &self.world {
            Some(w) => state_reply(&w.session, w.session.log().len()),
            None => Outcome::State(StateReply {
                mettle: Meta::default(),
                warnings: vec![],
                log: vec![],
                state: mettle::wire::StateView {
                    seed: self.seed,
                    round: 0,
                    turn: 0,
                    entities: vec![],
                    options: vec![],
                    orders: vec![],
                    forced: vec![],
                    over: None,
                },
                outcome: None,
            }),
        })
    }
}

/// Loads the operator's own file (`mettle serve FILE`), wherever it is.
pub(super) fn load_given(server: &mut Server, p: serde_json::Value) -> Result<Outcome, Failure> {
    server.load(params("load", p)?, true)
}

/// The state, and the log from line `from` on.
pub(super) fn state_reply(s: &Session, from: usize) -> Outcome {
    Outcome::State(StateReply::new(s, from, None))
}

/// The state, the log from line `from` on, and what the request did.
pub(super) fn done_reply(s: &Session, from: usize, done: &mettle::Outcome) -> Outcome {
    Outcome::State(StateReply::new(s, from, Some(done)))
}

/// Methods on a loaded world: the outcome, and whether the session changed (for `undo`).
fn act(w: &mut World, method: &str, p: serde_json::Value, steps: u64) -> Result<(Outcome, bool), Failure> {
    let s = &mut w.session;
    let rules = w.rules.clone();
    let start = s.log().len();
    let refused = |d: mettle::Diagnostic| Failure::rules(&rules, &d);
    match method {
        "create" => {
            let p: CreateParams = params(method, p)?;
            let with = named(s, Fields::Attributes(&p.kind), &p.with)?;
            let id = s.create(&p.kind, &p.name, &refs(&with)).map_err(refused)?;
            // The host's entity is all a creation does: no rule runs.
            let mut done = mettle::Outcome::default();
            done.changes.push(mettle::Change::Created {
                entity: id,
                name: p.name.clone(),
                kind: p.kind.clone(),
                span: Default::default(),
            });
            Ok((done_reply(s, start, &done), true))
        }
        "set" => {
            let p: SetParams = params(method, p)?;
            let done = set(w, p)?;
            Ok((done_reply(&w.session, start, &done), true))
        }
        "apply" => {
            let p: ApplyParams = params(method, p)?;
            let facts = named(s, Fields::Facts(&p.event), &p.facts)?;
            s.force_dice(&p.dice);
            let done = s.apply(&p.event, &refs(&facts)).map_err(refused)?;
            Ok((done_reply(s, start, &done), true))
        }
        "roll" => {
            let p: RollParams = params(method, p)?;
            let (by, inputs) = check_args(s, &p.check, p.by.as_deref(), &p.set)?;
            let refs: Vec<(&str, Value)> = inputs.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
            s.force_dice(&p.dice);
            let done = s.roll_for(&p.check, by, &refs).map_err(refused)?;
            Ok((rolled_reply(s, start, &done), true))
        }
        "answer" => {
            let p: AnswerParams = params(method, p)?;
            super::questions::answer(s, p, start)
        }
        "cancel" => {
            let _: Empty = params(method, p)?;
            super::questions::cancel(s)
        }
        "answers" => {
            let _: Empty = params(method, p)?;
            Ok((super::questions::answers_reply(s), false))
        }
        "clear_answers" => {
            let _: Empty = params(method, p)?;
            s.clear_answers();
            Ok((super::questions::answers_reply(s), true))
        }
        "odds" => {
            let p: OddsParams = params(method, p)?;
            let (by, inputs) = check_args(s, &p.check, p.by.as_deref(), &p.set)?;
            let refs: Vec<(&str, Value)> = inputs.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
            // Asking leaves the game as it was.
            let keep = s.checkpoint();
            let report = mettle::odds::ask(s, &p.check, by, &refs, p.seed);
            s.rewind(keep);
            let report = report.map_err(refused)?;
            Ok((
                Outcome::Odds(OddsReply { mettle: Meta::default(), odds: mettle::wire::odds(&report) }),
                false,
            ))
        }
        "sim" => {
            let p: SimParams = params(method, p)?;
            Ok((Outcome::Sim(sim(s, p, steps)?), false))
        }
        "save" => {
            let p: SaveParams = params(method, p)?;
            let mut options = mettle::session::SaveOptions::default();
            options.log = p.log;
            let text = s.save_with(&options).map_err(refused)?;
            let save = serde_json::from_str(&text).unwrap_or_default();
            Ok((Outcome::Saved(Saved { mettle: Meta::default(), save }), false))
        }
        "state" => {
            let _: Empty = params(method, p)?;
            Ok((state_reply(s, s.log().len()), false))
        }
        "log" => {
            let p: LogParams = params(method, p)?;
            Ok((Outcome::Log(LogReply::new(s, p.from)), false))
        }
        "trim_log" => {
            let p: TrimLogParams = params(method, p)?;
            // Lines let go do not come back: `undo` does not take this back.
            Ok((Outcome::Trimmed(Trimmed::trim(s, p.keep)), false))
        }
        "export" => {
            let _: Empty = params(method, p)?;
            let outline = match mettle::export::outline(&rules) {
                serde_json::Value::Object(m) => m,
                _ => serde_json::Map::new(),
            };
            Ok((Outcome::Export(ExportDoc { mettle: Meta::default(), outline }), false))
        }
        _ => unreachable!("methods are checked against METHODS"),
    }
}

/// What `roll` gives: the check's result (none while it waits on a question), the log from line
/// `from` on, and what the roll did.
fn rolled_reply(s: &Session, from: usize, done: &mettle::Outcome) -> Outcome {
    Outcome::Rolled(Rolled::new(s, from, done))
}

/// A check's inputs by name.
type Inputs = Vec<(String, Value)>;

/// Who makes a check and its inputs, read by their declared types.
fn check_args(
    s: &Session,
    check: &str,
    by: Option<&str>,
    given: &Values,
) -> Result<(Option<u32>, Inputs), Failure> {
    let pr = s.ruleset().program();
    let Some(decl) = pr.checks.iter().find(|c| c.name == check) else {
        let d = s.resolve(check, &[]).expect_err("no such check");
        return Err(Failure::rules(s.ruleset(), &d));
    };
    let inputs = named(s, Fields::Inputs(check), given)?;
    let by = match by {
        Some(name) => Some(entity(s, name, decl.subject)?),
        None => None,
    };
    Ok((by, inputs))
}

/// `set`: an option through the session, an attribute through a `set` statement run at the prompt
/// (checked and logged as a rule's would be).
fn set(w: &mut World, p: SetParams) -> Result<mettle::Outcome, Failure> {
    let rules = w.rules.clone();
    let s = &mut w.session;
    let pr = rules.program();
    let bad = |m: &str| {
        Failure::plain(
            code::INVALID_PARAMS,
            "mettle::serve::bad_params",
            m,
            Some(
                "{\"entity\": \"y\", \"attribute\": \"morale\", \"value\": \"shaken\"} or {\"option\": \"bonus_die\", \"value\": \"extra_d6\"}",
            ),
        )
    };
    match (&p.option, &p.entity, &p.attribute) {
        (Some(o), None, None) => {
            let v = value(s, Fields::Options, o, &p.value)?;
            s.set_option(o, v).map_err(|d| Failure::rules(&rules, &d))?;
            // A house rule is not part of the game's state: nothing to report.
            Ok(mettle::Outcome::default())
        }
        (None, Some(e), Some(a)) => {
            let id = entity(s, e, None)?;
            let Some(held) = s.state().entities().get(id) else {
                return Err(Failure::plain(
                    code::RULES,
                    "mettle::serve::unknown_entity",
                    "no such entity",
                    None,
                ));
            };
            let kind = &pr.kinds[held.kind as usize];
            let v = value(s, Fields::Attributes(&kind.name), a, &p.value)?;
            // The library's host change checks the value and logs it like a rule's change.
            s.set_attribute(e, a, v).map_err(|d| Failure::rules(&rules, &d))
        }
        _ => Err(bad("`set` takes `entity`, `attribute` and `value`, or `option` and `value`")),
    }
}

/// `sim`: the runs are at most the `steps` budget (each run takes at least a step).
fn sim(s: &Session, p: SimParams, steps: u64) -> Result<SimDoc, Failure> {
    use mettle::sim::{Options, Target};
    let rules = s.ruleset().clone();
    let pr = rules.program();
    if p.runs == 0 || p.runs > steps {
        return Err(Failure::plain(
            code::BUDGET,
            "mettle::serve::runs",
            &format!("`runs` is {}; it must be from 1 to the budget of {steps} steps", p.runs),
            Some("ask for fewer runs, or raise the budget (`mettle serve --budget steps=N`)"),
        ));
    }
    let target = match (&p.scenario, &p.check) {
        (Some(name), None) => {
            if !pr.scenarios.iter().any(|sc| &sc.name == name) {
                let known: Vec<&str> = pr.scenarios.iter().map(|sc| sc.name.as_str()).collect();
                return Err(Failure::plain(
                    code::RULES,
                    "mettle::serve::unknown_scenario",
                    &format!("there is no scenario called `{name}`"),
                    Some(&mettle::internals::diagnostics::suggest(name, "scenario", &known)),
                ));
            }
            Target::Scenario(name.clone())
        }
        (None, Some(check)) => {
            let (_, inputs) = check_args(s, check, None, &p.set)?;
            let decl = pr.checks.iter().find(|c| &c.name == check).expect("checked");
            let with = match decl.subject {
                Some(k) => {
                    let kind = &pr.kinds[k as usize];
                    named(s, Fields::Attributes(&kind.name), &p.with)?
                }
                None => vec![],
            };
            Target::Check { name: check.clone(), inputs, with }
        }
        _ => {
            return Err(Failure::plain(
                code::INVALID_PARAMS,
                "mettle::serve::bad_params",
                "`sim` takes a `scenario` or a `check`, one of the two",
                Some("{\"scenario\": \"firefight\", \"runs\": 1000}"),
            ));
        }
    };
    let opts = Options { runs: p.runs, seed: p.seed, threads: 1 };
    let report =
        mettle::sim::simulate(&rules, &target, &opts, &|_| {}).map_err(|d| Failure::rules(&rules, &d))?;
    Ok(SimDoc::new(&rules, &target, &report))
}
