//! Values in requests, read by the library by the types the rules declare (`mettle::wire::read`): a
//! number for a number, `true`/`false` for yes/no, a name (a string) for a state or an entity, `null`
//! for none, anything for `data`. Its errors are the server's rule errors.

use super::Failure;
use super::protocol::Values;
use mettle::wire::{self, Fields};
use mettle::{Session, Value};
use serde_json::Value as Json;

/// A value the rules refuse is a rule error; one of the wrong JSON type (a string for a number) is a
/// wrong parameter, as the protocol has always said (docs/protocol.md, "Errors").
fn refused(s: &Session) -> impl Fn(mettle::Diagnostic) -> Failure + '_ {
    |d| {
        let mut f = Failure::rules(s.ruleset(), &d);
        if d.is(mettle::diagnostics::Code::WrongType) {
            f.code = super::code::INVALID_PARAMS;
        }
        f
    }
}

/// Named values given for `fields`, in the order the rules declare them.
pub fn named(s: &Session, fields: Fields<'_>, given: &Values) -> Result<Vec<(String, Value)>, Failure> {
    let given: serde_json::Map<String, Json> = given.iter().map(|(n, v)| (n.clone(), v.clone())).collect();
    wire::read(s, fields, &given).map_err(refused(s))
}

/// One value `v` given for `name` of `fields`.
pub fn value(s: &Session, fields: Fields<'_>, name: &str, v: &Json) -> Result<Value, Failure> {
    wire::read_one(s, fields, name, v).map_err(refused(s))
}

/// The answer `v` to choice `choice`.
pub fn answer(s: &Session, choice: &str, v: &Json) -> Result<Value, Failure> {
    wire::read_answer(s, choice, v).map_err(refused(s))
}

/// The entity in play called `name` (of kind `kind`, when given).
pub fn entity(s: &Session, name: &str, kind: Option<u32>) -> Result<u32, Failure> {
    wire::entity(s, name, kind).map_err(refused(s))
}

/// Named values as the library takes them.
pub fn refs(values: &[(String, Value)]) -> Vec<(&str, Value)> {
    values.iter().map(|(n, v)| (n.as_str(), v.clone())).collect()
}
