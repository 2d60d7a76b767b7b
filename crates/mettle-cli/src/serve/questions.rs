//! Questions over `mettle serve`: a choice with no answer waiting stops the request with the
//! question, and the action waits for `answer` (which runs it on) or `cancel` (which drops it).

use super::methods::{done_reply, state_reply};
use super::protocol::{AnswerParams, AnswersReply, Outcome};
use super::{Failure, code};
use crate::cli::json::error_info;
use mettle::{Question, Reply, Session};

/// The requests that act on the game, refused while an action waits on a question.
const ACTING: [&str; 4] = ["create", "set", "apply", "roll"];

/// Makes `session` ask: a choice with no answer waiting stops the action, kept to run on.
pub fn ask(session: &mut Session) {
    session.set_chooser(|_: &Question| Reply::Wait);
}

/// Refuses `method` when it acts on the game while an action waits on a question.
pub fn not_while_waiting(s: &Session, method: &str) -> Result<(), Failure> {
    match s.question() {
        Some(q) if ACTING.contains(&method) => Err(Failure::plain(
            code::WAITING,
            "mettle::serve::waiting",
            &format!(
                "`{method}` must wait: an action waits for the answer to `{}` (\"{}\")",
                q.choice, q.question
            ),
            Some(&format!(
                "answer it first (`answer` with `\"choice\": \"{}\"` and one of: {}), or drop that action (`cancel`)",
                q.choice,
                q.shown.join(", ")
            )),
        )),
        _ => Ok(()),
    }
}

/// `answer`: queues the answer; when an action waits on a question, runs it on and says what it
/// did (which may be the next question).
pub fn answer(s: &mut Session, p: AnswerParams, start: usize) -> Result<(Outcome, bool), Failure> {
    let rules = s.ruleset().clone();
    let refused = |d: mettle::Diagnostic| Failure::rules(&rules, &d);
    let v = super::values::answer(s, &p.choice, &p.value)?;
    s.answer(&p.choice, v).map_err(refused)?;
    if s.question().is_none() {
        return Ok((state_reply(s, start), true));
    }
    let done = s.resume().map_err(refused)?;
    Ok((done_reply(s, start, &done), true))
}

/// `cancel`: drops the action waiting on a question.
pub fn cancel(s: &mut Session) -> Result<(Outcome, bool), Failure> {
    match s.abandon() {
        Ok(_) => Ok((state_reply(s, s.log().len()), true)),
        Err(d) => Err(Failure {
            code: code::NOTHING,
            errors: vec![error_info(&d, s.ruleset().name(), s.ruleset().text())],
        }),
    }
}

/// The answers waiting for their choices.
pub fn answers_reply(s: &Session) -> Outcome {
    Outcome::Answers(AnswersReply::new(s))
}
