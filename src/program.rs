//! The compiled program: an immutable, `Send + Sync` form of a checked ruleset. Every name is
//! resolved to an index and every expression to a small tree over slots, so nothing is looked up by
//! string while a session runs.

use crate::ast::{BinOp, Cmp, DiceMod, Span};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Index of an entity kind in [`Program::kinds`].
pub type KindId = u32;
/// Index of a name set (the names of a state, a ladder, a check's outcomes…) in [`Program::sets`].
pub type SetId = u32;
/// Index of a check in [`Program::checks`].
pub type CheckId = u32;
/// Index of an event in [`Program::events`].
pub type EventId = u32;

/// A value while rules run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// yes / no.
    Bool(bool),
    /// A name from a name set.
    Name {
        /// The set.
        set: SetId,
        /// Which name.
        index: u32,
    },
    /// An entity in the session.
    Entity(u32),
    /// No entity.
    None,
    /// Rolled dice.
    Pool(Arc<Pool>),
    /// The result of a check.
    Result(Arc<CheckResult>),
    /// Lists and records from the host, for scripts to read.
    Data(#[serde(deserialize_with = "crate::session::saved_data::read")] Arc<serde_json::Value>),
}

impl Value {
    /// The integer, for values of integer or pool type, and 0 for anything else: for the engine,
    /// whose checker has already made sure of the type. A host asks [`Value::as_int`].
    pub(crate) fn int(&self) -> i64 {
        match self {
            Value::Int(i) => *i,
            Value::Pool(p) => p.value,
            Value::Bool(b) => *b as i64,
            _ => 0,
        }
    }
    /// The truth of a flag, and no for anything else (a host asks [`Value::as_bool`]).
    pub(crate) fn truth(&self) -> bool {
        matches!(self, Value::Bool(true))
    }
}

/// One die of a roll.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Die {
    /// The face it shows.
    pub face: i64,
    /// Whether it counts (keep/drop).
    pub kept: bool,
    /// Faces it showed before being rerolled.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub rerolled: Vec<i64>,
    /// The face it was rolled with, when `minN` raised it.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub raised: Option<i64>,
    /// Whether it was added by an exploding die.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub exploded: bool,
    /// The label of the modifier that added it, when not the roll itself.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub from: Option<String>,
}

impl Die {
    /// A die showing `face`, kept, as first rolled.
    pub(crate) fn new(face: i64) -> Die {
        Die { face, kept: true, rerolled: vec![], raised: None, exploded: false, from: None }
    }
}

/// Rolled dice and their value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pool {
    /// Written form, such as `2d6kh1`.
    pub notation: String,
    /// Sides of each die (the largest face for custom dice).
    pub sides: i64,
    /// The dice in the order rolled.
    pub dice: Vec<Die>,
    /// The sum of the kept dice, or the number of successes for `cs`.
    pub value: i64,
}

impl Pool {
    /// Faces of the kept dice.
    pub fn kept(&self) -> impl Iterator<Item = i64> + '_ {
        self.dice.iter().filter(|d| d.kept).map(|d| d.face)
    }
}

/// A modifier as applied to one roll.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AppliedModifier {
    /// Its label.
    pub label: String,
    /// The amount (after its cap).
    pub amount: i64,
    /// Whether the amount is a number of dice.
    pub dice: bool,
    /// The rule that produced it.
    pub span: Span,
}

/// The result of one check, as data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckResult {
    /// The check's name.
    pub check: String,
    /// Index of the check.
    pub check_id: CheckId,
    /// Who made it.
    pub subject: Option<String>,
    /// Input values, by name.
    pub inputs: Vec<(String, String)>,
    /// The dice, if the check rolls any.
    pub pool: Option<Pool>,
    /// The modifiers that applied.
    pub modifiers: Vec<AppliedModifier>,
    /// Dice plus flat modifiers.
    pub total: i64,
    /// The target number, if the check has one.
    pub target: Option<i64>,
    /// `total - target`, or `target - total` for a roll-under check: positive for a pass either way.
    pub margin: Option<i64>,
    /// How the target was worked out, when it is more than a number (`6 + 1 + 2 + 3`); only when
    /// the session keeps a log.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub target_parts: Option<String>,
    /// A roll-under check: it passes with a total at most its target.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub under: bool,
    /// Values the check worked out (`let`), by name.
    pub values: Vec<(String, String)>,
    /// The outcome's name.
    pub outcome: String,
    /// Index of the outcome in the check's outcome set.
    pub outcome_index: u32,
    /// Span of the outcome rule chosen.
    pub outcome_span: Span,
    /// Span of the check.
    pub span: Span,
    /// Every local slot of the check, for `last CHECK.name`.
    pub slots: Vec<Value>,
    /// The rolls set aside by `reroll when …`, first first (only when the session keeps a log); the
    /// result is the roll after them.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub rerolled: Vec<Rerolled>,
}

/// A roll of a check that `reroll when …` set aside: what it showed and the outcome it landed on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rerolled {
    /// The dice, if the check rolls any.
    pub pool: Option<Pool>,
    /// Dice plus flat modifiers.
    pub total: i64,
    /// The outcome it landed on, which sent it to be rolled again.
    pub outcome: String,
}

/// A type as the checker knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ty {
    /// An integer within bounds.
    Int {
        /// Lowest allowed.
        lo: Option<i64>,
        /// Highest allowed.
        hi: Option<i64>,
    },
    /// yes / no.
    Flag,
    /// One of a set of names.
    Name(SetId),
    /// An entity of a kind (or none).
    Entity(KindId),
    /// Rolled dice.
    Pool,
    /// The result of a check.
    Result(CheckId),
    /// Text.
    Text,
    /// Lists and records from the host, for scripts to read.
    Data,
    /// Data of a declared shape, checked when it comes in.
    Shape(crate::shape::ShapeId),
    /// A list of records of a declared shape (`seen.friends`), for `nearest` and `first` to choose
    /// from.
    List(crate::shape::ShapeId),
    /// `none`.
    None,
    /// Unknown because of an earlier error; fits anywhere, so one mistake is reported once. Never
    /// found in a compiled program.
    Error,
}

impl Ty {
    /// An unbounded integer.
    pub const INT: Ty = Ty::Int { lo: None, hi: None };

    /// The value an attribute of this type starts at when nothing gives one: 0 (or the nearest number
    /// in range), `no`, the first name; `None` for entities, data and text.
    pub fn lowest(&self) -> Option<Value> {
        match self {
            Ty::Int { lo, hi } => Some(Value::Int(lo.unwrap_or(0).max(0).min(hi.unwrap_or(i64::MAX)))),
            Ty::Flag => Some(Value::Bool(false)),
            Ty::Name(set) => Some(Value::Name { set: *set, index: 0 }),
            _ => None,
        }
    }

    /// The name set of a names type.
    pub fn set(&self) -> Option<SetId> {
        match self {
            Ty::Name(s) => Some(*s),
            _ => None,
        }
    }
}

/// An attribute of a kind, a fact of an event, an input of a check, or a parameter.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FieldDef {
    /// Its name.
    pub name: String,
    /// Doc comment.
    pub doc: Option<String>,
    /// Its type.
    pub ty: Ty,
    /// Default value (a constant).
    pub default: Option<Value>,
    /// Whether pushing past the bounds is an error rather than clamped.
    pub strict: bool,
    /// Where it is defined.
    pub span: Span,
}

/// An entity kind.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Kind {
    /// Its name.
    pub name: String,
    /// Doc comment.
    pub doc: Option<String>,
    /// Attributes.
    pub fields: Vec<FieldDef>,
    /// Where it is defined.
    pub span: Span,
}

/// A set of names: the states of an attribute, a ladder, a check's outcomes, results, choices.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NameSet {
    /// A name for the set, for messages.
    pub name: String,
    /// The names in order (a ladder from lowest to highest).
    pub names: Vec<String>,
    /// Numbers of a ladder's rungs.
    pub values: Option<Vec<i64>>,
    /// Labels for people (results).
    pub labels: Vec<Option<String>>,
    /// Where each name is defined.
    pub spans: Vec<Span>,
}

/// An event.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EventDecl {
    /// Its name.
    pub name: String,
    /// Doc comment.
    pub doc: Option<String>,
    /// Facts the host supplies.
    pub facts: Vec<FieldDef>,
    /// Triggers in file order.
    pub triggers: Vec<u32>,
    /// Slots of the frame its triggers run in, one after another: the most any of them needs.
    pub frame: u32,
    /// Where it is defined (empty for built-in events).
    pub span: Span,
}

/// A trigger: `on EVENT when COND { ... }`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Trigger {
    /// The event.
    pub event: EventId,
    /// Doc comment.
    pub doc: Option<String>,
    /// Condition.
    pub when: Option<Test>,
    /// Effects.
    pub body: Vec<Stmt>,
    /// Number of local slots (facts first).
    pub slots: u32,
    /// Where it is defined.
    pub span: Span,
    /// Span of its first line, for explanations.
    pub head: Span,
    /// Its first line as written (`on damaged when hp_lost >= 3`).
    pub text: String,
}

/// A formula: `define f(x) = ...`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Define {
    /// Its name.
    pub name: String,
    /// Doc comment.
    pub doc: Option<String>,
    /// Parameters.
    pub params: Vec<FieldDef>,
    /// Body.
    pub body: Expr,
    /// Local slots.
    pub slots: u32,
    /// Where it is defined.
    pub span: Span,
}

/// A reaction of the ruleset: `reaction join(friend: friend) { … }`, run by `follow`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Reaction {
    /// Its name.
    pub name: String,
    /// Doc comment.
    pub doc: Option<String>,
    /// Parameters.
    pub params: Vec<FieldDef>,
    /// What it does.
    pub body: Vec<Stmt>,
    /// Local slots.
    pub slots: u32,
    /// Where it is defined.
    pub span: Span,
}

/// One table row's key pattern.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Pat {
    /// Anything.
    Any,
    /// An inclusive integer range.
    Range(i64, i64),
    /// A flag.
    Bool(bool),
    /// A name (index in the key's set).
    Name(u32),
}

/// A table.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Table {
    /// Its name.
    pub name: String,
    /// Doc comment.
    pub doc: Option<String>,
    /// Keys.
    pub params: Vec<FieldDef>,
    /// Result type.
    pub result: Ty,
    /// Rows: patterns (empty for otherwise) and value.
    pub rows: Vec<(Vec<Pat>, Expr, Span)>,
    /// Local slots the row values need (`number of … where …`).
    pub slots: u32,
    /// Where it is defined.
    pub span: Span,
}

/// A modifier line of a check.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Modifier {
    /// Label.
    pub label: String,
    /// Doc comment.
    pub doc: Option<String>,
    /// Signed amount.
    pub amount: Calc,
    /// A number of dice.
    pub dice: bool,
    /// Condition.
    pub when: Option<Test>,
    /// Cap on the size of the amount.
    pub cap: Option<Calc>,
    /// Where.
    pub span: Span,
}

/// An outcome of a check.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Outcome {
    /// Index in the check's outcome set.
    pub index: u32,
    /// Doc comment.
    pub doc: Option<String>,
    /// Condition; `None` for otherwise.
    pub when: Option<Test>,
    /// Effects applied to the subject.
    pub body: Vec<Stmt>,
    /// Whether the effects only change attributes (and note), reading constants, the check's values
    /// and attributes: they write none of the check's values and read no check's last result, so a
    /// quiet roll may apply them in the frame it keeps for its result (see [`simple_effects`]).
    pub in_place: bool,
    /// Where.
    pub span: Span,
}

/// Whether statements only set, add to or remove from attributes, note, and choose between such
/// statements with `if`, every expression a constant, a value, a global, an attribute, or `not`,
/// a sign, an operator or an `if` of those. Anything else (a `let`, a count, a roll, an event, a
/// check's last result, a script) may write a value of the frame or read a result: such effects
/// are applied in a copy of the frame.
pub fn simple_effects(body: &[Stmt]) -> bool {
    fn plain(e: &Expr) -> bool {
        match e {
            Expr::Const(_) | Expr::Local(_) | Expr::Global(_) => true,
            Expr::Field(x, _) | Expr::Neg(x) | Expr::Not(x) => plain(x),
            Expr::Bin(_, a, b) => plain(a) && plain(b),
            Expr::If(c, a, b) => plain(c) && plain(a) && plain(b),
            _ => false,
        }
    }
    body.iter().all(|s| match s {
        Stmt::Set { place, value, .. } => plain(&place.entity) && plain(value),
        Stmt::Add { place, amount, .. } => plain(&place.entity) && plain(amount),
        Stmt::Note(..) => true,
        Stmt::If(c, a, b) => plain(&c.expr) && simple_effects(a) && simple_effects(b),
        _ => false,
    })
}

/// A step of a check, in written order.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum CheckStep {
    /// `let`: work out a value into a slot.
    Let(u32, Calc),
    /// The roll, with all modifiers and the target.
    Roll,
}

/// The roll line of a check.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RollLine {
    /// The dice (the first die is the natural one, also named by `as`).
    pub dice: DiceExpr,
    /// Where.
    pub span: Span,
}

/// Slots every check has.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct CheckSlots {
    /// The subject (or none).
    pub subject: u32,
    /// The pool after modifiers.
    pub dice: u32,
    /// The first die of the roll.
    pub natural: u32,
    /// Dice plus flat modifiers.
    pub total: u32,
    /// Target number.
    pub target: u32,
    /// Total minus target.
    pub margin: u32,
}

/// An input of a check.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Input {
    /// Name, type, default.
    pub field: FieldDef,
    /// A default that is an expression over earlier inputs and the subject.
    pub default: Option<Calc>,
}

/// A check.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Check {
    /// Its name.
    pub name: String,
    /// Doc comment.
    pub doc: Option<String>,
    /// The subject kind.
    pub subject: Option<KindId>,
    /// Inputs in slot order (slots `0..inputs.len()`).
    pub inputs: Vec<Input>,
    /// Built-in slots.
    pub slots: CheckSlots,
    /// Number of slots.
    pub nslots: u32,
    /// Names of `let` values and their slots, for explanations.
    pub lets: Vec<(String, u32)>,
    /// Every value `last CHECK.name` can read (inputs, `let`s, `dice`, `natural`, `total`,
    /// `target`, `margin`): its name, slot and type. A restored save's last results are checked
    /// against these.
    pub named: Vec<(String, u32, Ty)>,
    /// For each of `lets`: the outcomes (indices in `outcomes`) it is worked out for, when only the
    /// effects of those outcomes read it; explanations show it under those outcomes only.
    pub lets_for: Vec<Option<Vec<u32>>>,
    /// Steps in order.
    pub steps: Vec<CheckStep>,
    /// The roll.
    pub roll: Option<RollLine>,
    /// Modifiers.
    pub modifiers: Vec<Modifier>,
    /// Target.
    pub target: Option<Calc>,
    /// Outcomes tried in order.
    pub outcomes: Vec<Outcome>,
    /// Roll-under: the check passes with a total at most its target, and its margin is
    /// `target - total` (positive for a pass either way).
    pub under: bool,
    /// The outcome names.
    pub outcome_set: SetId,
    /// `group NAME = a, b`: outcomes added up under one name (odds, cards, simulations), in order.
    pub groups: Vec<(String, Vec<String>)>,
    /// `reroll when …`: the whole check rolled again on some outcomes.
    pub reroll: Option<Reroll>,
    /// Where.
    pub span: Span,
}

/// Most times a check's `reroll when …` without `once` rolls it again; the roll after the last of
/// them stands, whatever it lands on (exact odds count the same bound).
pub const MAX_REROLLS: usize = 100;

/// `reroll when OUTCOME, … [once] [if CONDITION]`: the whole check is rolled again (its dice and
/// everything worked out from them; inputs, modifiers and the `let`s before the roll stay) when it
/// lands on one of these outcomes and the condition holds.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Reroll {
    /// Places in [`Check::outcomes`] that send the check to be rolled again.
    pub outcomes: Vec<u32>,
    /// At most one re-roll; without it, again until another outcome comes up, at most
    /// [`MAX_REROLLS`] times.
    pub once: bool,
    /// `if CONDITION`, read after each roll as an outcome's condition is.
    pub when: Option<Test>,
    /// Where the line is.
    pub span: Span,
}

impl Reroll {
    /// The most re-rolls of one roll of the check.
    pub fn bound(&self) -> usize {
        if self.once { 1 } else { MAX_REROLLS }
    }
}

/// A choice point, by name.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChoiceDecl {
    /// Its name.
    pub name: String,
    /// The question.
    pub question: String,
    /// Type of the answer.
    pub ty: Ty,
    /// Where it is asked.
    pub span: Span,
}

/// A scenario.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Scenario {
    /// Identifier.
    pub name: String,
    /// Doc comment.
    pub doc: Option<String>,
    /// Title.
    pub title: Option<String>,
    /// Steps.
    pub body: Vec<Stmt>,
    /// Local slots.
    pub slots: u32,
    /// Where.
    pub span: Span,
}

/// Read-only numbers of the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Global {
    /// Current round (0 before the first).
    Round,
    /// Current turn within the game (0 before the first).
    Turn,
    /// How the game ended (`none` while it goes on).
    Game,
    /// Who won (`none` while the game goes on, or if nobody did).
    Winner,
    /// The value of house-rule option `n` in this session.
    Option(u32),
}

/// Built-in functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Builtin {
    /// `min(a, b, …)`
    Min,
    /// `max(a, b, …)`
    Max,
    /// `abs(a)`
    Abs,
    /// `triangular(n)`: 1 + 2 + … + n.
    Triangular,
    /// `clamp(x, lo, hi)`
    Clamp,
    /// `sum(pool)`
    Sum,
    /// `count(pool, CMP n)`
    Count(Cmp),
    /// `any(pool, CMP n)`
    Any(Cmp),
    /// `all(pool, CMP n)`
    All(Cmp),
    /// `highest(pool, k)`: sum of the k highest.
    Highest,
    /// `lowest(pool, k)`: sum of the k lowest.
    Lowest,
    /// `die(pool, i)`: the i-th die (from 1).
    Die,
    /// `size(pool)`: number of kept dice.
    Size,
    /// `shift(rung, n)`: n rungs up a ladder (down when negative), stopping at the ends.
    Shift,
    /// `value(rung)`: a ladder rung's number.
    RungValue,
    /// `rank(rung)`: a name's position, from 0.
    Rank,
}

/// A compiled expression.
// Its kind is a plain tag of its own (`repr(u8)`), kept apart from the values of its fields: whole
// games measured faster so (figures in the commit that made it so).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[repr(u8)]
pub enum Expr {
    /// A constant.
    Const(Value),
    /// A local slot.
    Local(u32),
    /// A session number.
    Global(Global),
    /// An attribute of an entity.
    Field(Box<Expr>, u32),
    /// `-x`
    Neg(Box<Expr>),
    /// `not x`
    Not(Box<Expr>),
    /// Arithmetic and comparison.
    Bin(BinOp, Box<Expr>, Box<Expr>),
    /// `if c then a else b`
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Roll dice.
    Dice(Box<DiceExpr>),
    /// A built-in function.
    Builtin(Builtin, Vec<Expr>),
    /// A formula.
    Define(u32, Vec<Expr>),
    /// A table lookup.
    Table(u32, Vec<Expr>),
    /// The last result of a check.
    Last(CheckId),
    /// The outcome of a result, as a name of the check's outcome set.
    Outcome(Box<Expr>),
    /// A slot of a result.
    ResultSlot(Box<Expr>, u32),
    /// `number of KIND v where COND`
    NumberOf {
        /// Kind.
        kind: KindId,
        /// Slot of the candidate.
        slot: u32,
        /// Filter.
        filter: Option<Arc<Test>>,
    },
    /// A call of a script function (boxed: inline it made every expression larger by half).
    Script(Box<ScriptCall>),
    /// `max(u.leadership for each unit u where u.able else 0)`: a total over a kind (boxed, like a
    /// script call).
    Total(Box<Total>),
    /// `seen.in_combat`, `friend.name`: a field of a record of the host's data (a missing field or
    /// `null` is `none`; a number is a number, `true`/`false` yes/no, anything else data).
    DataField(Box<Expr>, Arc<str>),
    /// `nearest f in seen.friends where …`: an entry of a list of data, or `none`.
    Pick(Box<Pick>),
}

/// `nearest f in seen.friends where not f.in_combat`, `first c in seen.cover where c.reachable`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pick {
    /// The list.
    pub list: Expr,
    /// Slot of the candidate.
    pub slot: u32,
    /// Filter.
    pub filter: Option<Arc<Test>>,
    /// `nearest`: the number field whose least value wins (the first listed on a tie); `None` for
    /// `first`, the first listed that passes.
    pub by: Option<Arc<str>>,
    /// Where it is written.
    pub span: Span,
}

/// A piece of an `order "…"`: text as written, or a `{…}` value shown in words.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum OrderPart {
    /// Text as written.
    Text(String),
    /// A value, shown as the log shows it (text without quotes).
    Value(Expr),
}

/// A total over the entities of a kind: `sum(u.control for each unit u where u.side == s)`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Total {
    /// Which total.
    pub op: crate::ast::TotalOp,
    /// The kind.
    pub kind: KindId,
    /// Slot of the candidate.
    pub slot: u32,
    /// What is totalled for each entity that passes (`None`: the entity itself counts).
    pub value: Option<Expr>,
    /// Filter.
    pub filter: Option<Arc<Test>>,
    /// `else …`: what `max` and `min` of no entity give (without it, none is an error).
    pub empty: Option<Expr>,
    /// Where it is written.
    pub span: Span,
}

/// A call of a script function.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ScriptCall {
    /// The function, by its index in the scripts' functions.
    pub func: u32,
    /// The arguments.
    pub args: Vec<Expr>,
    /// Where it is called.
    pub span: Span,
    /// Whether it gives yes/no (used as a condition) rather than a number.
    pub flag: bool,
}

/// A condition as the rules wrote it, and the number of its compiled form in the runtime's table
/// (see `session::run::lower`): the program is plain data, and its conditions are compiled once per
/// ruleset, beside it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Test {
    /// The condition.
    pub expr: Expr,
    /// Where the condition is written, for explanations (empty for one the checker made up).
    pub span: Span,
    /// Its number, below [`Program::conditions`], by which the lowering keeps its compiled form;
    /// [`Test::ALONE`] for one the checker did not number (typed at a prompt), which the reference
    /// evaluator tests.
    pub(crate) id: u32,
}

impl Test {
    /// The id of a condition the checker did not number: no compiled form is made for it.
    pub(crate) const ALONE: u32 = u32::MAX;

    /// Condition `expr`, outside the program's list (tested by the reference evaluator).
    pub(crate) fn alone(expr: Expr) -> Test {
        Test { expr, span: Span::default(), id: Test::ALONE }
    }
}

/// An expression a statement or a check reads, as the rules wrote it (the value `set` gives, the
/// amount `add` adds, a `let`'s value, a fact given to an event or an input to a check, a modifier's
/// amount, a target, a record), and the number of the way the runtime reads it (see
/// `session::run::lower`), as a [`Test`] names its compiled form.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Calc {
    /// The expression.
    pub expr: Expr,
    /// Its number, below [`Program::calcs`]; [`Test::ALONE`] for one the checker did not number
    /// (typed at a prompt), which the reference evaluator reads.
    pub(crate) id: u32,
}

impl Calc {
    /// Expression `expr`, outside the program's list (read by the reference evaluator).
    pub(crate) fn alone(expr: Expr) -> Calc {
        Calc { expr, id: Test::ALONE }
    }
}

impl std::ops::Deref for Calc {
    type Target = Expr;

    fn deref(&self) -> &Expr {
        &self.expr
    }
}

/// How many sides a die has.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum SidesExpr {
    /// `dN`
    Count(Expr),
    /// `d[…]`
    Faces(Arc<[i64]>),
}

/// A dice term.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DiceExpr {
    /// Number of dice.
    pub count: Expr,
    /// Sides.
    pub sides: SidesExpr,
    /// Notation modifiers.
    pub mods: Vec<DiceMod>,
    /// Written form.
    pub text: String,
    /// Where.
    pub span: Span,
}

/// An attribute of an entity, as the target of `set`, `add`, `remove`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Place {
    /// The entity.
    pub entity: Expr,
    /// The attribute.
    pub field: u32,
    /// The kind (for names and bounds).
    pub kind: KindId,
    /// The attribute's range, for a number (the widest there is for anything else): a value within
    /// it is written without looking up the attribute.
    pub range: (i64, i64),
}

/// Options of a choice.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum ChoiceOpts {
    /// Names of a set.
    Names(SetId, Vec<u32>),
    /// yes / no, in the order written.
    Flags(Vec<bool>),
    /// Any whole number from `lo` (also the answer when there is no default) up to `hi`, if any.
    Range {
        /// Lowest answer.
        lo: i64,
        /// Highest answer (none: no limit).
        hi: Option<i64>,
    },
    /// Entities of a kind matching a filter (the candidate in `slot`).
    Entities {
        /// Kind.
        kind: KindId,
        /// Slot of the candidate.
        slot: u32,
        /// Filter (boxed: the statements stay as small, with their kind read from one byte).
        filter: Option<Box<Test>>,
        /// When the filter can only fail by reading an attribute of what other locals hold (see
        /// [`sure_filter`]): those locals. While each holds an entity in play, testing a candidate
        /// changes nothing and fails on none, so a choice that takes its default, or its first
        /// candidate, tests no more candidates than it needs (each is still a step).
        sure: Option<Box<[u32]>>,
    },
}

/// The locals other than `candidate` whose attributes filter `e` reads, when it is made only of
/// constants, values, the turn, the round, options and the game's result, attributes of locals,
/// `not`, `and`, `or` and comparisons: reading any of these cannot fail, but for an attribute of a
/// local that holds no entity (the candidate always holds one). `None` for any other filter (a
/// count, dice, arithmetic that may overflow, a check's result, a script, a formula).
pub fn sure_filter(e: &Expr, candidate: u32) -> Option<Vec<u32>> {
    fn walk(e: &Expr, candidate: u32, bases: &mut Vec<u32>) -> bool {
        match e {
            Expr::Const(_) | Expr::Local(_) => true,
            Expr::Global(g) => !matches!(g, Global::Winner),
            Expr::Field(base, _) => match **base {
                Expr::Local(s) => {
                    if s != candidate && !bases.contains(&s) {
                        bases.push(s);
                    }
                    true
                }
                _ => false,
            },
            Expr::Not(x) => walk(x, candidate, bases),
            Expr::Bin(op, a, b) => {
                use crate::ast::BinOp::*;
                matches!(op, And | Or | Eq | Ne | Is | IsNot | Lt | Le | Gt | Ge)
                    && walk(a, candidate, bases)
                    && walk(b, candidate, bases)
            }
            _ => false,
        }
    }
    let mut bases = vec![];
    walk(e, candidate, &mut bases).then_some(bases)
}

/// How long a timed `set` lasts.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Until {
    /// `until end of turn`
    EndOfTurn,
    /// `until end of round`
    EndOfRound,
    /// `for next round`: until the end of the round after this one.
    NextRound,
    /// `until EVENT [for EXPR]`: the next time the event fires; with `for`, the next time it fires
    /// with fact `fact` equal to what the expression gives when the change is made.
    Event {
        /// The event.
        event: EventId,
        /// The fact compared (its place in the event's facts) and the expression it must equal.
        fact: Option<(u32, Expr)>,
    },
}

/// A compiled statement.
// Its kind is a plain tag of its own (`repr(u8)`), as `Expr`'s is: whole games measured faster so
// (figures in the commit that made it so).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[repr(u8)]
pub enum Stmt {
    /// `set`
    Set {
        /// Target.
        place: Place,
        /// Value.
        value: Calc,
        /// Duration.
        until: Option<Until>,
        /// Where.
        span: Span,
    },
    /// `add` (or `remove`, with `negate`).
    Add {
        /// Target.
        place: Place,
        /// Amount.
        amount: Calc,
        /// `remove`.
        negate: bool,
        /// Where.
        span: Span,
    },
    /// `let`
    Let(u32, Calc),
    /// `let` of a yes/no worked out by a condition (`let extra = spend_ap and unit.ap > 0`), which
    /// is compiled as an `if`'s is.
    LetFlag(u32, Box<Test>),
    /// `roll CHECK`
    Roll {
        /// The check.
        check: CheckId,
        /// Subject.
        subject: Option<Expr>,
        /// Input values by input index.
        args: Vec<(u32, Calc)>,
        /// Where.
        span: Span,
    },
    /// `if`
    If(Test, Vec<Stmt>, Vec<Stmt>),
    /// `for each`
    ForEach {
        /// Kind.
        kind: KindId,
        /// Slot of the loop variable.
        slot: u32,
        /// Filter.
        filter: Option<Test>,
        /// Body.
        body: Vec<Stmt>,
    },
    /// `trigger EVENT(...)`
    Trigger {
        /// Event.
        event: EventId,
        /// One value per fact.
        args: Vec<Calc>,
        /// Where.
        span: Span,
    },
    /// `choose`
    Choose {
        /// The choice.
        choice: u32,
        /// Slot the answer goes to.
        slot: u32,
        /// Options.
        options: ChoiceOpts,
        /// Default answer.
        default: Option<Expr>,
        /// The slot of the entity the asking rule is about (a check's subject, a trigger's first
        /// entity fact), shown to the host as who asks.
        asker: Option<u32>,
        /// Where.
        span: Span,
    },
    /// `end game`
    EndGame {
        /// Result index in the results set.
        result: u32,
        /// Winner.
        winner: Option<Expr>,
        /// Where.
        span: Span,
    },
    /// `note`
    Note(String, Span),
    /// `repeat … until`
    Repeat {
        /// Body.
        body: Vec<Stmt>,
        /// Condition.
        until: Test,
        /// Where.
        span: Span,
    },
    /// `new KIND NAME with …`
    New {
        /// Kind.
        kind: KindId,
        /// Slot bound to the entity.
        slot: u32,
        /// Name.
        name: String,
        /// Attribute values.
        with: Vec<(u32, Expr, Span)>,
        /// Where.
        span: Span,
    },
    /// `dice …`
    Dice(Vec<i64>, Span),
    /// `option NAME = VALUE` (scenarios): play on under this reading.
    SetOption {
        /// The option.
        option: u32,
        /// Its value.
        value: Expr,
        /// Where.
        span: Span,
    },
    /// `expect no dice waiting`
    ExpectNoDice {
        /// Shown when it fails.
        message: Option<String>,
        /// Where.
        span: Span,
    },
    /// `answer`
    Answer {
        /// Choice.
        choice: u32,
        /// Value.
        value: Expr,
        /// Where.
        span: Span,
    },
    /// `follow REACTION(…)`: run a script reaction and apply its actions.
    Follow {
        /// The script function.
        func: u32,
        /// Its arguments.
        args: Vec<Calc>,
        /// Where.
        span: Span,
    },
    /// `follow REACTION(…)` of a reaction of the ruleset: run its steps.
    React {
        /// The reaction, by its index in `Program::reactions`.
        reaction: u32,
        /// One value per parameter.
        args: Vec<Calc>,
        /// Followed by a rule, not by another reaction: the orders start afresh, and the log names
        /// the reaction (one followed inside it adds its orders to the same list).
        fresh: bool,
        /// Where.
        span: Span,
    },
    /// `order "move towards {friend.name}"`: an order for the table, in a reaction.
    Order {
        /// The text and the values shown in it.
        parts: Vec<OrderPart>,
        /// Where.
        span: Span,
    },
    /// `expect [not] order "…" ["message"]`
    ExpectOrder {
        /// The order's text.
        text: String,
        /// The order must be absent.
        absent: bool,
        /// Shown when it fails.
        message: Option<String>,
        /// Where.
        span: Span,
    },
    /// `record "label" = value`: a value a simulation reports.
    Record {
        /// The label (shared: a simulation counts it in every run without copying it).
        label: Arc<str>,
        /// A number or yes/no.
        value: Calc,
        /// Where.
        span: Span,
    },
    /// `report game, a.morale`: what the odds of a scenario show for each way it ends. The checker
    /// puts it last in the scenario, whatever line it was written on: it is read at the end.
    Report {
        /// Each value with its label, the expression as written.
        items: Vec<(Arc<str>, Expr)>,
        /// Where.
        span: Span,
    },
    /// `expect`
    Expect {
        /// Condition.
        cond: Test,
        /// Message.
        message: Option<String>,
        /// Source text of the condition.
        text: String,
        /// Where.
        span: Span,
    },
}

/// A compiled ruleset.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Program {
    /// `ruleset "…"`.
    pub title: Option<String>,
    /// Entity kinds.
    pub kinds: Vec<Kind>,
    /// Name sets.
    pub sets: Vec<NameSet>,
    /// Events (the four built-in time events first).
    pub events: Vec<EventDecl>,
    /// Triggers.
    pub triggers: Vec<Trigger>,
    /// Formulas.
    pub defines: Vec<Define>,
    /// Tables.
    pub tables: Vec<Table>,
    /// Checks.
    pub checks: Vec<Check>,
    /// Choice points.
    pub choices: Vec<ChoiceDecl>,
    /// The set of game results.
    pub results: SetId,
    /// Scenarios.
    pub scenarios: Vec<Scenario>,
    /// House-rule options, each with the value chosen for this load (its default unless a host or
    /// the command line chose another).
    pub options: Vec<FieldDef>,
    /// The shapes of host data.
    pub shapes: Vec<crate::shape::Shape>,
    /// How many conditions the checker numbered: each [`Test`] of the rules has an id below this
    /// (copies of one condition share its id), which the lowering compiles once per ruleset.
    pub conditions: u32,
    /// How many expressions statements read the checker numbered (each [`Calc`]'s id is below
    /// this), whose readings the lowering makes once per ruleset.
    pub calcs: u32,
    /// The ruleset's reactions (`reaction NAME(…) { … }`).
    pub reactions: Vec<Reaction>,
}

/// The built-in time events, in event-index order.
pub const TIME_EVENTS: [&str; 4] = ["round_start", "turn_start", "turn_end", "round_end"];

impl Stmt {
    /// The statement's span, for the kinds that keep one.
    pub fn span(&self) -> Option<Span> {
        match self {
            Stmt::Set { span, .. }
            | Stmt::Add { span, .. }
            | Stmt::Roll { span, .. }
            | Stmt::Trigger { span, .. }
            | Stmt::Choose { span, .. }
            | Stmt::EndGame { span, .. }
            | Stmt::Note(_, span)
            | Stmt::Repeat { span, .. }
            | Stmt::New { span, .. }
            | Stmt::Dice(_, span)
            | Stmt::Answer { span, .. }
            | Stmt::SetOption { span, .. }
            | Stmt::Expect { span, .. }
            | Stmt::Follow { span, .. }
            | Stmt::React { span, .. }
            | Stmt::Order { span, .. }
            | Stmt::Record { span, .. }
            | Stmt::Report { span, .. }
            | Stmt::ExpectOrder { span, .. }
            | Stmt::ExpectNoDice { span, .. } => Some(*span),
            Stmt::Let(..) | Stmt::LetFlag(..) | Stmt::If(..) | Stmt::ForEach { .. } => None,
        }
    }
}

impl Program {
    /// The attribute of check `check`'s subject that gives input `input` when none is given: the
    /// subject's attribute of the same name and type (`input spi: 0..6` of a check `for unit`, and
    /// the unit's `spi`). A plain default (`input fearless: flag = no`) does not hide it; a default
    /// worked out from something (`= unit.spi + 1`) does.
    pub fn subject_attribute(&self, check: CheckId, input: u32) -> Option<u32> {
        self.subject_attribute_of(self.checks.get(check as usize)?, input)
    }

    /// [`Program::subject_attribute`] for check `c`.
    pub fn subject_attribute_of(&self, c: &Check, input: u32) -> Option<u32> {
        let input = c.inputs.get(input as usize)?;
        if input.default.is_some() {
            return None;
        }
        let field = &input.field;
        let kind = self.kinds.get(c.subject? as usize)?;
        let i = kind.fields.iter().position(|f| f.name == field.name)?;
        let same = match (&kind.fields[i].ty, &field.ty) {
            (Ty::Int { .. }, Ty::Int { .. }) | (Ty::Flag, Ty::Flag) => true,
            (Ty::Name(a), Ty::Name(b)) | (Ty::Entity(a), Ty::Entity(b)) => a == b,
            _ => false,
        };
        same.then_some(i as u32)
    }
}
