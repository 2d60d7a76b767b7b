//! The colon commands: loading and reloading, looking at the state, rolling and firing by name,
//! explaining, seeding, undoing, saving and restoring.

use super::{Let, Repl, Reply, World, help, show, transfer, values};
use crate::Session;
use crate::diagnostics::{Diagnostic, did_you_mean, suggest};
use crate::program::Value;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Every command, for help, completion and "did you mean".
pub(super) const COMMANDS: [&str; 22] = [
    ":help",
    ":quit",
    ":load",
    ":reload",
    ":units",
    ":state",
    ":roll",
    ":event",
    ":explain",
    ":seed",
    ":option",
    ":undo",
    ":save",
    ":save!",
    ":restore",
    ":restore!",
    ":odds",
    ":sim",
    ":test",
    ":card",
    ":plot",
    ":exit",
];

/// What `:save` writes: the session as [`Session::save`] writes it, with what the prompt added.
#[derive(Serialize, Deserialize)]
struct Saved {
    /// Marks the format.
    mettle_repl: u32,
    /// The ruleset file, for people reading the save.
    file: Option<String>,
    /// Definitions typed at the prompt.
    items: Vec<String>,
    /// `let` values.
    lets: Vec<Let>,
    /// The session.
    session: serde_json::Value,
}

fn error(code: &str, message: impl Into<String>, help: impl Into<String>) -> Diagnostic {
    Diagnostic::plain(&format!("repl::{code}"), message).with_help(help)
}

/// The item a command names in its first word (`:roll morale`): missing and unknown names get an
/// error with an example (`command`, `example`) or a "did you mean" among the items' names.
fn named<'a, T>(
    items: &'a [T],
    key: impl Fn(&T) -> &str,
    first: Option<&&str>,
    what: &str,
    (command, example): (&str, &str),
) -> Result<&'a T, Diagnostic> {
    let Some(&name) = first else {
        return Err(error(
            "missing_argument",
            format!("`{command}` needs {} {what}", if what.starts_with('e') { "an" } else { "a" }),
            format!("for example `{example}`"),
        ));
    };
    items.iter().find(|i| key(i) == name).ok_or_else(|| {
        let known: Vec<&str> = items.iter().map(&key).collect();
        error(
            &format!("unknown_{what}"),
            format!("there is no {what} called `{name}`"),
            suggest(name, what, &known),
        )
    })
}

impl Repl {
    pub(super) fn command(&mut self, line: &str, reply: &mut Reply) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (name, args) = (words[0], &words[1..]);
        let rest = line[name.len()..].trim();
        let r = match name {
            ":help" | ":h" | ":?" => {
                reply.say(help::help(args.first().copied()));
                Ok(())
            }
            ":quit" | ":q" | ":exit" => {
                reply.quit = true;
                Ok(())
            }
            ":load" => self.load_command(rest, reply),
            ":reload" => self.reload(reply),
            ":units" => {
                reply.say(show::units(&self.world.session));
                Ok(())
            }
            ":state" => {
                reply.say(show::state(&self.world.session));
                for l in self.world.lets.iter() {
                    reply.say(format!("let {} = {}", l.name, self.world.session.show(&l.value)));
                }
                reply.say(show::units(&self.world.session));
                Ok(())
            }
            ":roll" => self.roll(args, reply),
            ":event" => self.event(args, reply),
            ":explain" => {
                match &self.explained {
                    Some(e) => reply.say(e),
                    None => reply.say("nothing has been rolled or fired yet"),
                }
                Ok(())
            }
            ":seed" => self.seed_command(args, reply),
            ":option" => self.option_command(args, reply),
            ":undo" => self.undo_command(reply),
            ":save" => self.save(rest, false, reply),
            ":save!" => self.save(rest, true, reply),
            ":restore" => self.restore(rest, false, reply),
            ":restore!" => self.restore(rest, true, reply),
            ":sim" => self.sim_command(line, reply),
            ":test" => self.test_command(line, args, reply),
            ":card" => self.card_command(line, rest, reply),
            ":plot" => self.plot_command(line, rest, reply),
            _ => {
                let help = match did_you_mean(name, COMMANDS) {
                    Some(c) => format!("did you mean `{c}`?"),
                    None => "`:help` lists the commands".into(),
                };
                Err(error("unknown_command", format!("there is no command `{name}`"), help))
            }
        };
        if let Err(d) = r {
            // The workbench's errors point at the words of the line they are about.
            if d.labels.is_empty() || !matches!(name, ":sim" | ":test" | ":card" | ":plot") {
                reply.fail(self.plain_error(&d));
            } else {
                reply.fail(self.render(std::slice::from_ref(&d), line));
            }
        }
    }

    pub(super) fn need_path<'a>(&self, rest: &'a str, cmd: &str) -> Result<&'a str, Diagnostic> {
        if rest.is_empty() {
            return Err(error(
                "missing_argument",
                format!("`{cmd}` needs a file name"),
                format!("for example `{cmd} rules.mettle`"),
            ));
        }
        Ok(rest)
    }

    /// Loads a ruleset file and starts a fresh session over it.
    pub fn load(&mut self, path: &Path, reply: &mut Reply) -> bool {
        let cap = self.budget.ruleset_bytes;
        let text = match crate::budget::read_capped(path, cap, "ruleset") {
            Ok(t) => t,
            Err(d) => {
                reply.fail(self.plain_error(&d));
                return false;
            }
        };
        let file = PathBuf::from(path);
        match World::compile(Some(&file), &text, &[], &self.budget, &self.options) {
            Ok((rules, ast)) => {
                // The prompt is for trying rules out: attributes no rule reads yet are `mettle
                // check`'s to report, not the REPL's.
                let warnings: Vec<_> = rules
                    .warnings()
                    .iter()
                    .filter(|d| !d.is(crate::diagnostics::Code::UnreadAttribute))
                    .cloned()
                    .collect();
                // In full they are `mettle check`'s: here one line, so that they do not stand
                // before the session (a ruleset typed at the prompt still shows its own in full).
                if !warnings.is_empty() {
                    let n = warnings.len();
                    reply.err.push_str(&format!(
                        "{n} warning{}; `mettle check {}` shows {}\n",
                        if n == 1 { "" } else { "s" },
                        crate::text::visible(&path.display().to_string()),
                        if n == 1 { "it" } else { "them" }
                    ));
                }
                let p = rules.program();
                reply.say(format!(
                    "loaded {} ({} kinds, {} events, {} checks, {} rules)",
                    path.display(),
                    p.kinds.len(),
                    p.events.len() - crate::program::TIME_EVENTS.len(),
                    p.checks.len(),
                    p.triggers.len()
                ));
                let session = Session::new(&rules, self.seed);
                let before = std::mem::replace(
                    &mut self.world,
                    World {
                        file: Some(file),
                        file_text: text.into(),
                        items: Arc::default(),
                        rules,
                        ast: Arc::new(ast),
                        session,
                        lets: Arc::default(),
                    },
                );
                self.checkpoint(before);
                self.explained = None;
                true
            }
            Err(e) => {
                reply.fail(self.render_load_error(&e));
                if self.world.file.is_none() && self.world.items.is_empty() {
                    // Nothing was loaded before: remember the file, so that `:reload` tries it again.
                    reply.say(format!("fix {} and `:reload` it", path.display()));
                    self.world.file = Some(file);
                }
                false
            }
        }
    }

    fn render_load_error(&self, e: &crate::LoadError) -> String {
        let mut out = self.render_with(&e.diagnostics, &e.name, &e.text);
        let n = e.diagnostics.iter().filter(|d| d.is_error()).count();
        out.push_str(&format!("{}: {n} error{}; nothing changed\n", e.name, if n == 1 { "" } else { "s" }));
        out
    }

    fn load_command(&mut self, rest: &str, reply: &mut Reply) -> Result<(), Diagnostic> {
        let path = self.need_path(rest, ":load")?;
        self.load(Path::new(path), reply);
        Ok(())
    }

    /// Reads the file again, keeps the typed definitions, and moves the session over.
    fn reload(&mut self, reply: &mut Reply) -> Result<(), Diagnostic> {
        let Some(file) = self.world.file.clone() else {
            return Err(error("no_file", "no file is loaded", "load one with `:load FILE`"));
        };
        let text = crate::budget::read_capped(&file, self.budget.ruleset_bytes, "ruleset")?;
        let (rules, ast) =
            match World::compile(Some(&file), &text, &self.world.items, &self.budget, &self.options) {
                Ok(r) => r,
                Err(e) => {
                    reply.fail(self.render_load_error(&e));
                    return Ok(());
                }
            };
        let (session, lets, notes) = transfer::move_over(&self.world.session, &self.world.lets, &rules);
        reply.say(format!("reloaded {}", file.display()));
        if notes.is_empty() {
            reply.say("  everything in play still fits");
        }
        for n in notes {
            reply.say(format!("  {n}"));
        }
        let w = World {
            file: Some(file),
            file_text: text.into(),
            rules,
            ast: Arc::new(ast),
            session,
            lets: Arc::new(lets),
            ..self.world.clone()
        };
        let before = std::mem::replace(&mut self.world, w);
        self.checkpoint(before);
        Ok(())
    }

    /// `:roll CHECK [for UNIT] name=value…`
    fn roll(&mut self, args: &[&str], reply: &mut Reply) -> Result<(), Diagnostic> {
        let s = &self.world.session;
        let p = s.ruleset().program();
        let decl =
            named(&p.checks, |c| &c.name, args.first(), "check", (":roll", ":roll morale for alpha spi=2"))?;
        let check = args[0]; // `named` found it, so it is there
        let mut rest = &args[1..];
        let mut who = None;
        if rest.first() == Some(&"for") {
            let Some(k) = decl.subject else {
                return Err(error(
                    "no_subject",
                    format!("check `{check}` is not made by anyone"),
                    "leave out `for …`",
                ));
            };
            let Some(name) = rest.get(1) else {
                return Err(error(
                    "missing_argument",
                    "`for` needs a unit's name",
                    format!("for example `:roll {check} for alpha`"),
                ));
            };
            match values::value(s, &crate::program::Ty::Entity(k), name, "who rolls")? {
                Value::Entity(id) => who = Some(id),
                _ => return Err(error("bad_value", "`for none` rolls for nobody", "leave out `for …`")),
            }
            rest = &rest[2..];
        }
        let fields: Vec<_> = decl.inputs.iter().map(|i| &i.field).collect();
        let inputs = values::assignments(s, rest, &fields, check, "input")?;
        let refs: Vec<(&str, Value)> = inputs.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
        if decl.subject.is_some() && who.is_none() {
            reply.say(format!(
                "(rolled for nobody, so the outcome changes nothing: `:roll {check} for UNIT …` applies it)"
            ));
        }
        let before = self.world.light();
        let start = before.1;
        self.world.session.roll_for(check, who, &refs)?;
        self.report_log(start, reply);
        self.checkpoint_light(before);
        Ok(())
    }

    /// `:event EVENT name=value…`
    fn event(&mut self, args: &[&str], reply: &mut Reply) -> Result<(), Diagnostic> {
        let s = &self.world.session;
        let p = s.ruleset().program();
        let decl = named(&p.events, |e| &e.name, args.first(), "event", (":event", ":event turn_start"))?;
        let event = args[0]; // `named` found it, so it is there
        let fields: Vec<_> = decl.facts.iter().collect();
        let facts = values::assignments(s, &args[1..], &fields, event, "fact")?;
        let refs: Vec<(&str, Value)> = facts.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
        let before = self.world.light();
        let start = before.1;
        self.world.session.apply(event, &refs)?;
        self.report_log(start, reply);
        self.checkpoint_light(before);
        Ok(())
    }

    fn seed_command(&mut self, args: &[&str], reply: &mut Reply) -> Result<(), Diagnostic> {
        let Some(seed) = args.first().and_then(|a| a.parse::<u64>().ok()) else {
            return Err(error("bad_argument", "`:seed` needs a whole number", "for example `:seed 7`"));
        };
        let before = self.world.light();
        self.world.session.reseed(seed);
        self.seed = seed;
        self.checkpoint_light(before);
        reply.say(format!("seed {seed}: the dice start again from it"));
        Ok(())
    }

    /// `:option` lists the house-rule options; `:option NAME VALUE` plays on under another reading.
    fn option_command(&mut self, args: &[&str], reply: &mut Reply) -> Result<(), Diagnostic> {
        let s = &self.world.session;
        let p = s.ruleset().program();
        let Some(name) = args.first() else {
            if p.options.is_empty() {
                reply.say(
                    "this ruleset offers no options (a ruleset declares them with `option NAME: a | b = a`)",
                );
            }
            for o in &p.options {
                let now = s.option(&o.name).map(|v| s.show(v)).unwrap_or_default();
                let readings = crate::export::type_name(p, &o.ty);
                reply.say(format!("option {} = {now}   ({readings})", o.name));
            }
            return Ok(());
        };
        let Some(value) = args.get(1) else {
            return Err(error(
                "bad_argument",
                "`:option` needs a name and a value",
                "for example `:option leadership_die extra_d6`",
            ));
        };
        let v = s.ruleset().option_value(name, value)?;
        let before = self.world.light();
        self.world.session.set_option(name, v)?;
        self.checkpoint_light(before);
        reply.say(format!("option {name} = {value}: the session plays on under this reading"));
        Ok(())
    }

    fn undo_command(&mut self, reply: &mut Reply) -> Result<(), Diagnostic> {
        match self.undo.pop_back() {
            Some(super::Step { mut before, input, log_len }) => {
                if let Some(n) = log_len {
                    // The log since the step is the current one's first `n` lines.
                    let mut log = self.world.session.swap_log(vec![]);
                    log.truncate(n);
                    before.session.swap_log(log);
                }
                self.world = before;
                reply.say(format!("took back `{input}`"));
                Ok(())
            }
            None if self.forgotten > 0 => Err(error(
                "undo_budget",
                format!(
                    "no more steps are kept: the {} before them were forgotten (budget `undo_steps` is {})",
                    self.forgotten, self.budget.undo_steps
                ),
                "raise it with `--budget undo_steps=N` to keep more steps",
            )),
            None => Err(error(
                "nothing_to_undo",
                "there is nothing to undo",
                "`:undo` takes back events, rolls, statements and definitions",
            )),
        }
    }

    fn save(&mut self, rest: &str, force: bool, reply: &mut Reply) -> Result<(), Diagnostic> {
        // `:save FILE --no-log` leaves the log out: a long game's save stays small.
        let (rest, log) = match rest.strip_suffix("--no-log") {
            Some(r) if r.ends_with(' ') => (r.trim_end(), false),
            _ => (rest, true),
        };
        let path = self.need_path(rest, if force { ":save!" } else { ":save" })?;
        let inputs: Vec<&Path> = self.world.file.iter().map(|f| f.as_path()).collect();
        let target = crate::files::Target {
            path: Path::new(path),
            kind: crate::files::Kind::Save,
            force,
            inputs: &inputs,
            save_cap: self.budget.save_bytes,
        };
        // Refused before the session is written out.
        crate::files::check(&target)?;
        let text = self.world.session.save_with(&crate::session::SaveOptions { log })?;
        let session: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        let saved = Saved {
            mettle_repl: 1,
            file: self.world.file.as_ref().map(|f| f.display().to_string()),
            items: self.world.items.iter().map(|i| i.to_string()).collect(),
            lets: self.world.lets.to_vec(),
            session,
        };
        let text = serde_json::to_string_pretty(&saved).unwrap_or_default();
        crate::files::write(&target, (text + "\n").as_bytes())?;
        reply.say(format!("saved to {}", crate::text::visible(path)));
        Ok(())
    }

    fn restore(&mut self, rest: &str, other_ruleset: bool, reply: &mut Reply) -> Result<(), Diagnostic> {
        let path = self.need_path(rest, if other_ruleset { ":restore!" } else { ":restore" })?;
        let text = crate::budget::read_capped(Path::new(path), self.budget.save_bytes, "saved session")?;
        let not_saved = |e: serde_json::Error| {
            error("bad_save", format!("`{path}` is not a saved session: {e}"), "save one with `:save FILE`")
        };
        let value: serde_json::Value = serde_json::from_str(&text).map_err(not_saved)?;
        // A save made by `:save`, or a session saved through the library.
        let saved = if value.get("mettle_repl").is_some() {
            serde_json::from_value::<Saved>(value).map_err(not_saved)?
        } else {
            Saved { mettle_repl: 1, file: None, items: vec![], lets: vec![], session: value }
        };
        let w = &self.world;
        let items: Vec<Arc<str>> = saved.items.iter().map(|i| Arc::from(i.as_str())).collect();
        let (rules, ast) =
            match World::compile(w.file.as_ref(), &w.file_text, &items, &self.budget, &self.options) {
                Ok(r) => r,
                Err(e) => {
                    reply.fail(self.render_load_error(&e));
                    return Ok(());
                }
            };
        let (session, warnings) = Session::load_with(&rules, &saved.session.to_string(), other_ruleset)?;
        for w in &warnings {
            reply.say(format!("warning: {}", w.message));
        }
        if let Some(l) = saved.lets.iter().find(|l| !transfer::fits(&session, l)) {
            return Err(error(
                "save_mismatch",
                format!("`{}` in this save does not fit the ruleset", l.name),
                "restore it with the ruleset it was saved with",
            ));
        }
        if let Some(f) = &saved.file
            && w.file.as_ref().is_none_or(|w| w.display().to_string() != *f)
        {
            reply.say(format!("(saved with {f}; restored over the ruleset loaded now)"));
        }
        let world = World {
            items: Arc::new(items),
            rules,
            ast: Arc::new(ast),
            session,
            lets: Arc::new(saved.lets),
            ..w.clone()
        };
        let before = std::mem::replace(&mut self.world, world);
        self.checkpoint(before);
        reply.say(format!(
            "restored {path}: {} units, round {}, turn {}",
            self.world.session.state().entities.len(),
            self.world.session.state().round,
            self.world.session.state().turn
        ));
        Ok(())
    }
}
