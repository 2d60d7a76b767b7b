//! The workbench commands: `:test` plays the ruleset's scenarios, `:card` shows or writes its
//! quick-reference card, `:plot` asks the front end to draw the last odds.

use super::{Repl, Reply};
use crate::Session;
use crate::diagnostics::{Diagnostic, suggest};
use std::path::{Path, PathBuf};

fn error(code: &str, message: impl Into<String>, help: impl Into<String>) -> Diagnostic {
    Diagnostic::plain(&format!("repl::{code}"), message).with_help(help)
}

impl Repl {
    /// `:test [SCENARIO]`: every scenario of the ruleset (and those typed here), or the one named,
    /// each from a fresh game with the REPL's seed, as `mettle test` plays them; the game at the
    /// prompt is unchanged.
    pub(super) fn test_command(
        &mut self,
        line: &str,
        args: &[&str],
        reply: &mut Reply,
    ) -> Result<(), Diagnostic> {
        let rules = self.world.rules.clone();
        let p = rules.program();
        let all: Vec<&str> = p.scenarios.iter().map(|s| s.name.as_str()).collect();
        let chosen: Vec<&str> = match args.first() {
            None if all.is_empty() => {
                reply.say(
                    "this ruleset has no scenarios to test (a ruleset writes them as `scenario NAME { … }`)",
                );
                return Ok(());
            }
            None => all.clone(),
            Some(name) if all.contains(name) => vec![*name],
            Some(name) => {
                let at = line.rfind(name).unwrap_or(0);
                return Err(self.placed(
                    error(
                        "unknown_scenario",
                        format!("there is no scenario called `{name}`"),
                        suggest(name, "scenario", &all),
                    ),
                    (at, name.len()),
                    "not a scenario",
                ));
            }
        };
        let (mut passed, mut failed) = (0, 0);
        for name in chosen {
            let mut s = Session::new(&rules, self.seed);
            s.set_cancel_flag(self.cancel.clone());
            match s.run_scenario(name) {
                Ok(rep) if rep.failures.is_empty() => {
                    let n = rep.passed;
                    reply.say(format!("ok      {name} ({n} expectation{})", if n == 1 { "" } else { "s" }));
                    passed += 1;
                }
                Ok(rep) => {
                    reply.say(format!("FAILED  {name}"));
                    for f in &rep.failures {
                        if let crate::LogEntry::Expect { text, found, message, .. } = f {
                            reply.say(format!(
                                "  failed: expect {text}{}{}",
                                found.as_ref().map(|f| format!(" ({f})")).unwrap_or_default(),
                                message.as_ref().map(|m| format!(": {m}")).unwrap_or_default()
                            ));
                        }
                    }
                    failed += 1;
                }
                Err(d) if d.is(crate::diagnostics::Code::Cancelled) => {
                    return Err(error(
                        "interrupted",
                        format!(
                            "the tests were stopped in scenario `{name}` ({passed} passed, {failed} failed)"
                        ),
                        "`:test` again to finish them",
                    ));
                }
                Err(d) => {
                    reply.say(format!("FAILED  {name} (stopped by an error)"));
                    reply.say(format!("  {}", d.message));
                    failed += 1;
                }
            }
        }
        reply.say(format!("{passed} passed, {failed} failed"));
        if failed > 0 {
            reply.failed = true;
        }
        Ok(())
    }

    /// `:card [FILE]`: the ruleset's card in Markdown here, or written to FILE (`.html`/`.htm` as one
    /// page, `.md`/`.markdown` in Markdown) the way every file mettle writes is written.
    pub(super) fn card_command(
        &mut self,
        line: &str,
        rest: &str,
        reply: &mut Reply,
    ) -> Result<(), Diagnostic> {
        let card = crate::card::build(&self.world.rules);
        if rest.is_empty() {
            reply.say(crate::card::md::render(&card));
            return Ok(());
        }
        let path = Path::new(rest);
        let at = (line.len() - rest.len(), rest.len());
        let kind = if crate::files::Kind::CardHtml.named(path) {
            crate::files::Kind::CardHtml
        } else if crate::files::Kind::CardMd.named(path) {
            crate::files::Kind::CardMd
        } else {
            return Err(self.placed(
                error(
                    "bad_file_name",
                    format!("`{}` is neither an HTML nor a Markdown file", crate::text::visible(rest)),
                    "name the card `….html` for a page to print, or `….md` for Markdown",
                ),
                at,
                "this file",
            ));
        };
        let text = match kind {
            crate::files::Kind::CardHtml => crate::card::html::render(&card),
            _ => crate::card::md::render(&card),
        };
        let inputs: Vec<&Path> = self.world.file.iter().map(|f| f.as_path()).collect();
        let target = crate::files::Target {
            inputs: &inputs,
            save_cap: self.budget.save_bytes,
            ..crate::files::Target::new(path, kind)
        };
        crate::files::write(&target, text.as_bytes()).map_err(|d| self.placed(d, at, "this file"))?;
        reply.say(format!("card written to {}", crate::text::visible(rest)));
        Ok(())
    }

    /// `:plot FILE.svg`: checks that the file may be written, and asks the front end to draw the
    /// last odds there.
    pub(super) fn plot_command(
        &mut self,
        line: &str,
        rest: &str,
        reply: &mut Reply,
    ) -> Result<(), Diagnostic> {
        if self.last_odds.is_none() {
            return Err(error(
                "no_odds",
                "there are no odds to plot yet",
                "ask some first, e.g. `odds morale for alpha`, then `:plot odds.svg`",
            ));
        }
        let path = self.need_path(rest, ":plot")?;
        let p = Path::new(path);
        let at = (line.len() - rest.len(), rest.len());
        if !crate::files::Kind::Plot.named(p) {
            return Err(self.placed(
                error(
                    "bad_file_name",
                    format!("`{}` is not an SVG file", crate::text::visible(path)),
                    "name the chart `….svg`",
                ),
                at,
                "this file",
            ));
        }
        let inputs: Vec<&Path> = self.world.file.iter().map(|f| f.as_path()).collect();
        let target = crate::files::Target {
            inputs: &inputs,
            ..crate::files::Target::new(p, crate::files::Kind::Plot)
        };
        crate::files::check(&target).map_err(|d| self.placed(d, at, "this file"))?;
        match p.parent().filter(|d| !d.as_os_str().is_empty()) {
            Some(d) if !d.is_dir() => {
                return Err(self.placed(
                    error(
                        "no_folder",
                        format!(
                            "the folder `{}` does not exist",
                            crate::text::visible(&d.display().to_string())
                        ),
                        "make the folder first, or give a file in a folder that exists",
                    ),
                    at,
                    "in no folder",
                ));
            }
            _ => {}
        }
        reply.plot = Some(PathBuf::from(path));
        Ok(())
    }
}
