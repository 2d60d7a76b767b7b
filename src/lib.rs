//! mettle: a rules language for tabletop morale and battle-pressure systems.
//!
//! A ruleset file says, in words close to a rulebook's, what the dice are, what the checks are, what
//! happens on each outcome, and which events call for which checks. mettle parses it, checks it,
//! compiles it once, and runs it in sessions that roll dice from a seed and explain every step.
//!
//! ```
//! use mettle::{Ruleset, Session, Value};
//!
//! let rules = Ruleset::from_str("morale.mettle", r#"
//!     kind unit { spi: 0..6 = 3  morale: steady | shaken = steady }
//!     check morale for unit {
//!         input spi: 0..6
//!         roll d6
//!         modifier "Spirit" +spi
//!         target 7
//!         outcome steady when total >= target
//!         otherwise shaken { set unit.morale to shaken }
//!     }
//! "#).unwrap();
//!
//! let mut session = Session::new(&rules, 42);
//! session.force_dice(&[3]); // the next d6 shows 3
//! let result = session.roll("morale", &[("spi", Value::Int(2))]).unwrap().rolled.unwrap();
//! assert_eq!(result.total, 5);
//! assert_eq!(result.outcome, "shaken");
//! // Every number can be traced to the rule that produced it:
//! assert_eq!(result.modifiers[0].label, "Spirit");
//! ```
//!
//! Rules that are procedures are written as Rhai functions in the ruleset ([`script`]); a reaction
//! returns actions that the session checks before applying them:
//!
//! ```
//! use mettle::{Ruleset, Session, Value};
//!
//! let rules = Ruleset::from_str("react.mettle", r#"
//!     kind creature { stance: calm | wary = calm }
//!     event spotted(creature: creature, seen: data)
//!     script {
//!         fn keep_away(c, seen) { [set_to(c, "stance", "wary"), move_away_from(seen.enemies[0])] }
//!     }
//!     on spotted { follow keep_away(creature, seen) }
//! "#).unwrap();
//!
//! let mut session = Session::new(&rules, 1);
//! let orc = session.create("creature", "orc", &[]).unwrap();
//! let seen = serde_json::json!({ "enemies": [{ "name": "ranger", "distance": 8 }] });
//! session.apply("spotted", &[("creature", Value::Entity(orc)), ("seen", Value::Data(seen.into()))]).unwrap();
//! assert_eq!(session.state().orders()[0].text, "move away from ranger");
//! ```
//!
//! The same rules answer "how likely is this?" exactly ([`odds`]), and sample or simulate at speed
//! ([`Session::sampler`], [`sim`]):
//!
//! ```
//! use mettle::{Ruleset, Session, Value};
//! use mettle::odds::{Chance, Fraction};
//!
//! let rules = Ruleset::from_str("odds.mettle", r#"
//!     check morale { input spi: 0..6  roll d6  modifier "Spirit" +spi  target 7
//!                    outcome steady when total >= target  otherwise shaken }
//! "#).unwrap();
//! let mut session = Session::new(&rules, 7);
//! let report = mettle::odds::ask(&mut session, "morale", None, &[("spi", Value::Int(3))], 0).unwrap();
//! assert_eq!(report.outcomes[0].chance, Chance::Exact(Fraction::new(1u32.into(), 2u32.into())));
//! let sampler = session.sampler("morale", None, &[("spi", Value::Int(3))]).unwrap().unwrap();
//! let steady = (0..10_000).filter(|_| session.sample(&sampler) == 0).count();
//! assert!((4_800..5_200).contains(&steady));
//! ```
//!
//! A game, bot or tabletop tool that uses mettle as its rules engine reads the [`embedding`] guide:
//! dice the host supplies ([`DiceSource`]), choices it answers ([`Chooser`]), changes it watches
//! ([`Session::observe`]) and makes ([`Session::set_attribute`], [`Session::remove_entity`]), values
//! written as text ([`Ruleset::value`]), saves, and functions it gives scripts ([`script::host`]).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

// The compiler's insides (syntax tree, parser, checker, compiled program) and the REPL's engine are
// private: the `mettle` command and the tests reach them through `internals` (feature `internals`);
// a host uses what is re-exported below.
#[cfg_attr(not(feature = "internals"), allow(dead_code, unused_imports))]
mod ast;
pub mod budget;
pub mod card;
#[cfg_attr(not(feature = "internals"), allow(dead_code, unused_imports))]
mod check;
pub mod diagnostics;
pub mod dice;
pub mod export;
#[cfg_attr(not(feature = "internals"), allow(dead_code, unused_imports))]
mod files;
pub mod fmt;
/// How to embed mettle in a game or tool (docs/embedding.md; every example runs as a test).
///
#[doc = include_str!("../docs/embedding.md")]
pub mod embedding {}
#[cfg(feature = "internals")]
pub mod internals;
pub mod odds;
#[cfg_attr(not(feature = "internals"), allow(dead_code, unused_imports))]
mod program;
mod render;
#[cfg_attr(not(feature = "internals"), allow(dead_code, unused_imports))]
mod repl;
mod ruleset;
pub mod script;
pub mod session;
#[cfg_attr(not(feature = "internals"), allow(dead_code, unused_imports))]
mod shape;
pub mod sim;
mod suggest;
#[cfg_attr(not(feature = "internals"), allow(dead_code, unused_imports))]
mod syntax;
pub mod text;
mod values;
pub mod wire;

pub use ast::Span;
pub use budget::Budget;
pub use diagnostics::Diagnostic;
pub use dice::{DiceSource, QueuedDice};
pub use program::{AppliedModifier, CheckId, CheckResult, Die, KindId, Pool, Rerolled, SetId, Value};
pub use ruleset::{LoadError, LoadOptions, Ruleset};
pub use script::{Clock, ScriptLimits};
pub use session::{Change, Chooser, LogEntry, ObserverId, Outcome, Question, Reply, Session};
pub use values::WrongType;
