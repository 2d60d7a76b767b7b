//! The compiler's insides and the REPL's engine, for the `mettle` command, its language server and
//! mettle's own tests: the syntax tree, the parser, the checker, the compiled program and the REPL.
//! Public only with the feature `internals`, and with no promise of stability from one version to
//! the next; a host uses the items at the crate root and its public modules.

use crate::program::{CheckId, CheckResult, Value};
use crate::session::{Prepared, QuietGame, QuietRoll};
use crate::{Diagnostic, LoadError, LoadOptions, Ruleset, Session};
use std::sync::Arc;

/// The syntax tree a ruleset parses to, with byte spans.
pub mod ast {
    pub use crate::ast::*;
}

/// The checker's helpers that the command's messages share.
pub mod check {
    pub use crate::check::*;
}

/// "Did you mean": the help the command's own messages give for an unknown name.
pub mod diagnostics {
    pub use crate::suggest::{did_you_mean, suggest, suggest_or};
}

/// The compiled program: kinds, checks, events, types and values as indices.
pub mod program {
    pub use crate::program::*;
}

/// The shapes of host data: their types, how data is checked against them (`conform`) and written
/// back as the language writes it.
pub mod shape {
    pub use crate::shape::*;
}

/// The one way every file mettle writes is written (cards, charts, formatted rulesets, saves, schemas).
pub mod files {
    pub use crate::files::*;
}

/// The compiled conditions compared with the reference evaluator while games are played (debug
/// builds), for the differential tests.
pub mod differ {
    pub use crate::session::differ::*;
}

/// Odds reports as text with bars, as `mettle odds` prints them and the REPL shows them.
pub mod odds_text {
    pub use crate::odds::text::*;
}

/// The REPL's engine: typed lines in, replies out (the command adds the line editor).
pub mod repl {
    pub use crate::repl::*;
}

/// The parser: text to syntax tree, and what the REPL asks of a line typed so far.
pub mod syntax {
    pub use crate::syntax::*;
}

/// What the command asks of a session beyond the public API: checks worked out up to their dice,
/// quiet rolls and games for simulations, prompt lines, walks through every roll. Bring it into scope
/// with `use mettle::internals::SessionInternals as _;` and call its methods on a [`Session`].
pub trait SessionInternals {
    /// Works out check `check` up to its dice (inputs, the `let`s before the roll, modifiers) for
    /// `subject`, without rolling or changing anything.
    ///
    /// ```
    /// use mettle::internals::SessionInternals as _;
    /// let rules = mettle::Ruleset::from_str("p.mettle", "check c { input n: int  roll (n)d6  modifier \"Edge\" +1  otherwise done }").unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// let p = s.prepare(0, None, vec![(0, mettle::Value::Int(3))]).unwrap();
    /// assert_eq!(p.dice.unwrap().count, 3);
    /// assert_eq!(p.modifiers[0].amount, 1);
    /// ```
    fn prepare(
        &mut self,
        check: CheckId,
        subject: Option<u32>,
        inputs: Vec<(u32, Value)>,
    ) -> Result<Prepared, Diagnostic>;

    /// Rolls a check with inputs already resolved to input indices ([`Session::resolve`]), with its
    /// effects.
    fn roll_id(&mut self, check: CheckId, inputs: Vec<(u32, Value)>) -> Result<Arc<CheckResult>, Diagnostic>;

    /// Rolls a check with the session's generator and settles it, applying no effects and writing no
    /// log: one run of a simulation.
    ///
    /// ```
    /// use mettle::internals::SessionInternals as _;
    /// let rules = mettle::Ruleset::from_str("q.mettle", "check c { roll 2d6  target 7  outcome hit when total >= target  otherwise miss }").unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// let (id, args) = s.resolve("c", &[]).unwrap();
    /// let r = s.roll_quietly(id, None, &args).unwrap();
    /// assert_eq!(r.target, Some(7));
    /// assert_eq!(r.outcome, if r.total >= 7 { 0 } else { 1 });
    /// ```
    fn roll_quietly(
        &mut self,
        check: CheckId,
        subject: Option<u32>,
        inputs: impl AsRef<[(u32, Value)]>,
    ) -> Result<QuietRoll, Diagnostic>;

    /// Plays scenario number `scenario` from a fresh start seeded with `seed`, quietly, for a
    /// simulation: what it records and whether an expectation failed go to `game`.
    ///
    /// ```
    /// use mettle::internals::SessionInternals as _;
    /// let rules = mettle::Ruleset::from_str("t.mettle", r#"
    ///     kind side { n: 0.. = 0 }
    ///     scenario s { new side a  add d6 to a.n  record "n" = a.n  expect a.n > 6 }
    /// "#).unwrap();
    /// let mut s = mettle::Session::new(&rules, 0);
    /// let mut game = mettle::internals::session::QuietGame::default();
    /// s.play_quietly(0, 7, &mut game).unwrap();
    /// let mut fresh = mettle::Session::new(&rules, 7);
    /// fresh.run_scenario("s").unwrap();
    /// assert_eq!(game.records[0].1, fresh.get("a", "n").unwrap().as_int().unwrap());
    /// assert!(game.failed);
    /// ```
    fn play_quietly(&mut self, scenario: usize, seed: u64, game: &mut QuietGame) -> Result<(), Diagnostic>;

    /// Evaluates an expression compiled by [`check::check_prompt`] (dice in it are rolled).
    fn eval_prompt(&mut self, expr: &program::Expr, frame: &mut Vec<Value>) -> Result<Value, Diagnostic>;

    /// A copy of this session with its generator seeded from `seed` and its log off.
    fn reseeded(&self, seed: u64) -> Session;

    /// Starts one path of a walk through every roll, for the next action: its dice show `faces`, in
    /// order, and the first die past them stops it ([`SessionInternals::walk_needs`]).
    ///
    /// ```
    /// use mettle::internals::SessionInternals as _;
    /// let rules = mettle::Ruleset::from_str("w.mettle", "check c { roll 2d6  otherwise done }").unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// s.walk(&[3]);
    /// assert!(s.roll("c", &[]).is_err(), "the second die has no face");
    /// assert_eq!(s.walk_needs(), Some(&[1, 2, 3, 4, 5, 6][..]));
    /// assert!(s.roll("c", &[]).is_ok(), "the walk is over");
    /// ```
    fn walk(&mut self, faces: &[i64]);

    /// The faces of the die that stopped the walk's path, if one did.
    fn walk_needs(&self) -> Option<&[i64]>;

    /// How many words the dice generator has given so far: the same before and after an action that
    /// drew nothing from it.
    ///
    /// ```
    /// use mettle::internals::SessionInternals as _;
    /// let rules = mettle::Ruleset::from_str("g.mettle", "check c { roll d6  otherwise done }").unwrap();
    /// let mut s = mettle::Session::new(&rules, 1);
    /// let before = s.generator_position();
    /// s.force_dice(&[4]);
    /// s.roll("c", &[]).unwrap();
    /// assert_eq!(s.generator_position(), before, "a forced die draws nothing");
    /// s.roll("c", &[]).unwrap();
    /// assert_ne!(s.generator_position(), before);
    /// ```
    fn generator_position(&self) -> u128;
}

impl SessionInternals for Session {
    fn prepare(
        &mut self,
        check: CheckId,
        subject: Option<u32>,
        inputs: Vec<(u32, Value)>,
    ) -> Result<Prepared, Diagnostic> {
        Session::prepare(self, check, subject, inputs)
    }

    fn roll_id(&mut self, check: CheckId, inputs: Vec<(u32, Value)>) -> Result<Arc<CheckResult>, Diagnostic> {
        Session::roll_id(self, check, inputs)
    }

    fn roll_quietly(
        &mut self,
        check: CheckId,
        subject: Option<u32>,
        inputs: impl AsRef<[(u32, Value)]>,
    ) -> Result<QuietRoll, Diagnostic> {
        Session::roll_quietly(self, check, subject, inputs)
    }

    fn play_quietly(&mut self, scenario: usize, seed: u64, game: &mut QuietGame) -> Result<(), Diagnostic> {
        Session::play_quietly(self, scenario, seed, game)
    }

    fn eval_prompt(&mut self, expr: &program::Expr, frame: &mut Vec<Value>) -> Result<Value, Diagnostic> {
        Session::eval_prompt(self, expr, frame)
    }

    fn reseeded(&self, seed: u64) -> Session {
        Session::reseeded(self, seed)
    }

    fn walk(&mut self, faces: &[i64]) {
        Session::walk(self, faces)
    }

    fn walk_needs(&self) -> Option<&[i64]> {
        Session::walk_needs(self)
    }

    fn generator_position(&self) -> u128 {
        self.state().rng.get_word_pos()
    }
}

/// What the command asks of a ruleset beyond the public API: its compiled program. Bring it into
/// scope with `use mettle::internals::RulesetInternals as _;`.
pub trait RulesetInternals {
    /// The compiled program.
    ///
    /// ```
    /// use mettle::internals::RulesetInternals as _;
    /// let rules = mettle::Ruleset::from_str("p.mettle", "check c { roll d6  otherwise done }").unwrap();
    /// assert_eq!(rules.program().checks.len(), 1);
    /// ```
    fn program(&self) -> &program::Program;

    /// The compiled scripts, kept beside the program, if the ruleset has any.
    ///
    /// ```
    /// use mettle::internals::RulesetInternals as _;
    /// let rules = mettle::Ruleset::from_str("p.mettle", "check c { roll d6  otherwise done }").unwrap();
    /// assert!(rules.scripts().is_none());
    /// ```
    fn scripts(&self) -> Option<&std::sync::Arc<crate::script::Scripts>>;
}

impl RulesetInternals for Ruleset {
    fn program(&self) -> &program::Program {
        Ruleset::program(self)
    }

    fn scripts(&self) -> Option<&std::sync::Arc<crate::script::Scripts>> {
        Ruleset::scripts(self)
    }
}

/// Like [`Ruleset::load`], for a text already parsed: `file` and `diags` are what [`syntax::parse`]
/// gave for `text`, which must be normalized ([`syntax::normalize`]). For the language server, which
/// keeps the syntax tree too, so that a text is parsed once.
pub fn load_parsed(
    name: &str,
    text: &str,
    file: &ast::File,
    diags: Vec<Diagnostic>,
    opts: &LoadOptions,
) -> Result<Ruleset, LoadError> {
    Ruleset::load_parsed(name, text, file, diags, opts)
}

/// The session's insides a simulation and the REPL use: checks worked out up to their dice, and what
/// quiet rolls and games come to.
pub mod session {
    pub use crate::session::plan::{DiceSpec, FaceSpec, Prepared, QuietRoll, Settled};
    pub use crate::session::run::QuietGame;
}

/// The answers a scenario gave ahead of their choices that no choice has taken yet, as `(choice
/// index, answer)`: what the command warns of after a scenario.
///
/// ```
/// let rules = mettle::Ruleset::from_str("a.mettle", "kind u { n: 0.. = 0 }").unwrap();
/// let s = mettle::Session::new(&rules, 1);
/// assert!(mettle::internals::waiting_answers(s.state()).is_empty());
/// ```
pub fn waiting_answers(state: &crate::session::State) -> &[(u32, Value)] {
    &state.answers
}

/// Exact odds' insides: the work budget, dice expressions and pools on their own, and checks worked
/// out up to their dice.
pub mod odds {
    pub use crate::odds::check::{BUDGET, check_odds};
    pub use crate::odds::weight::Weight;

    /// Dice expressions typed at the command line (`mettle roll 3d6+2`), compiled and worked out.
    pub mod expr {
        pub use crate::odds::expr::*;
    }

    /// The distribution of one dice pool with its notation modifiers.
    pub mod pool {
        pub use crate::odds::pool::*;
    }

    /// The thread's budget of odds work, shared by everything one question asks.
    pub mod work {
        pub use crate::odds::work::*;
    }
}

/// The name of a type as the language writes it (`0..6`, `steady | shaken`, `unit`).
pub fn type_name(p: &program::Program, ty: &program::Ty) -> String {
    crate::export::type_name(p, ty)
}

/// A simulation's engine: runs in seeded chunks, the samplers that play them and the tallies that
/// count them, for the benches and tests that seed games the way a simulation does.
pub mod sim {
    use crate::Diagnostic;
    pub use crate::sim::sampler::{
        CHUNK, CheckSampler, Chunk, FastCheckSampler, Meter, Sampler, ScenarioSampler, mix,
    };
    pub use crate::sim::tally::{End, Recorded, Tally};
    use crate::sim::{Options, Report};

    /// Runs `sampler` over `opts.runs` runs in chunks of [`CHUNK`], as [`crate::sim::simulate`] does
    /// with the sampler it picks for its target.
    ///
    /// ```
    /// use mettle::internals::sim::{Chunk, End, Sampler, Tally, run};
    /// struct Heads;
    /// impl Sampler for Heads {
    ///     fn sample(&self, chunk: Chunk, tally: &mut Tally) {
    ///         for i in 0..chunk.runs {
    ///             let heads = chunk.run_seed(i) % 2 == 0;
    ///             let end = End { result: Some(if heads { "heads" } else { "tails" }.into()), winner: None };
    ///             tally.add::<&str>(end, &[], false);
    ///         }
    ///     }
    /// }
    /// let opts = mettle::sim::Options { runs: 1000, seed: 3, threads: 1 };
    /// let report = run(&Heads, &opts, &|_| {}).unwrap();
    /// assert_eq!(report.results.iter().map(|f| f.count).sum::<u64>(), 1000);
    /// assert_eq!(report, run(&Heads, &opts, &|_| {}).unwrap(), "the same seed, the same report");
    /// ```
    pub fn run(
        sampler: &dyn Sampler,
        opts: &Options,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Report, Diagnostic> {
        let unbounded = crate::sim::sampler::Meter::new(u64::MAX, Default::default());
        crate::sim::run_within(sampler, opts, progress, &unbounded)
    }
}
