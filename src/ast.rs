//! The syntax tree of a ruleset: plain data, every node carries the byte span it came from.

use serde::{Deserialize, Serialize};

/// A byte range `start..end` into the source text of a ruleset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end`.
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
    /// Number of bytes covered.
    pub fn len(self) -> usize {
        self.end - self.start
    }
    /// Whether the span covers no bytes.
    pub fn is_empty(self) -> bool {
        self.end == self.start
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> Self {
        (s.start, s.len()).into()
    }
}

/// A name as written, with its span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where it was written.
    pub span: Span,
}

/// A whole ruleset file.
#[derive(Debug, Clone, Default)]
pub struct File {
    /// `ruleset "Title"`, if given.
    pub title: Option<(String, Span)>,
    /// Top-level items in file order.
    pub items: Vec<Item>,
}

/// A top-level item together with its doc comment (`/// ...` lines before it).
#[derive(Debug, Clone)]
pub struct Item {
    /// Doc comment text, lines joined with `\n`, without the `///` markers.
    pub doc: Option<String>,
    /// Span of the whole item.
    pub span: Span,
    /// What the item is.
    pub kind: ItemKind,
}

/// The kinds of top-level item.
#[derive(Debug, Clone)]
pub enum ItemKind {
    /// `kind unit { spi: 0..6 = 3  ap: 0..1 = 0, strict }`
    Kind(KindDef),
    /// `ladder difficulty { simple = 3  routine = 7 }`
    Ladder(LadderDef),
    /// `event damaged(unit: unit, hp_lost: 0..99)`
    Event(EventDef),
    /// `define tn(markers: 0..) = 6 + triangular(markers)`
    Define(DefineDef),
    /// `table reaction(roll: 2..12) -> flee | surrender { 2..6: flee  7..12: surrender }`
    Table(TableDef),
    /// `check morale for unit { ... }`
    Check(CheckDef),
    /// `on damaged when hp_lost >= 3 { ... }`
    Trigger(TriggerDef),
    /// `result major_victory "Major Victory"`
    Result(ResultDef),
    /// `scenario max_and_tom "Max and Tom" { ... }`
    Scenario(ScenarioDef),
    /// `script { ... }` or `script "file.rhai"`: reserved for Rhai, not yet run.
    Script(ScriptDef),
    /// `option leadership_die: extra_d6 | flat_plus_one = flat_plus_one`: a house-rule choice.
    Option(Field),
    /// `shape situation { enemies: list of { name: text, distance: 0.. } = [] }`: the form of host data.
    Shape(ShapeDef),
    /// `reaction join(friend: friend) { order "move towards {friend.name}" }`: steps a rule runs
    /// with `follow`.
    Reaction(ReactionDef),
}

/// `reaction NAME(params) { … }`: named steps, run by `follow NAME(…)`.
#[derive(Debug, Clone)]
pub struct ReactionDef {
    /// Its name.
    pub name: Ident,
    /// What it is given.
    pub params: Vec<Field>,
    /// What it does.
    pub body: Vec<Stmt>,
}

/// `shape NAME { fields }`: the form that data a host passes must have.
#[derive(Debug, Clone)]
pub struct ShapeDef {
    /// The shape's name.
    pub name: Ident,
    /// Its fields (a field with a default may be left out).
    pub fields: Vec<Field>,
}

/// A typed attribute, input, fact or parameter: `name: type = default, strict`.
#[derive(Debug, Clone)]
pub struct Field {
    /// Doc comment, if any.
    pub doc: Option<String>,
    /// The attribute's name.
    pub name: Ident,
    /// Its type.
    pub ty: TypeExpr,
    /// Default value, if given.
    pub default: Option<Expr>,
    /// `strict`: pushing the value past its bounds is an error instead of clamping.
    pub strict: bool,
    /// Span of the whole field.
    pub span: Span,
}

/// A written type.
#[derive(Debug, Clone)]
pub struct TypeExpr {
    /// What kind of type.
    pub kind: TypeKind,
    /// Where it was written.
    pub span: Span,
}

/// The kinds of written type.
#[derive(Debug, Clone)]
pub enum TypeKind {
    /// `0..6`, `1..`, `int` (no bounds): a bounded integer.
    Range {
        /// Lowest value allowed, if bounded below.
        lo: Option<i64>,
        /// Highest value allowed, if bounded above.
        hi: Option<i64>,
    },
    /// `flag`: yes or no.
    Flag,
    /// `data`: lists and records the host supplies, read only by scripts.
    Data,
    /// `steady | shaken | broken`: one of these names.
    Names(Vec<Ident>),
    /// A named type: an entity kind, a ladder or a shape.
    Named(Ident),
    /// `list of T`: a list, in a shape's field.
    List(Box<TypeExpr>),
    /// `{ name: text, distance: 0.. }`: a record, in a shape's field.
    Record(Vec<Field>),
    /// `text`: a string, in a shape's field.
    Text,
}

/// `kind NAME { fields }`
#[derive(Debug, Clone)]
pub struct KindDef {
    /// The kind's name.
    pub name: Ident,
    /// Its attributes.
    pub fields: Vec<Field>,
}

/// `ladder NAME { rung = value ... }`: ordered names, optionally with numbers.
#[derive(Debug, Clone)]
pub struct LadderDef {
    /// The ladder's name.
    pub name: Ident,
    /// Rungs from lowest to highest.
    pub rungs: Vec<(Ident, Option<Expr>)>,
}

/// `event NAME(facts)`
#[derive(Debug, Clone)]
pub struct EventDef {
    /// The event's name.
    pub name: Ident,
    /// Facts the host supplies with it.
    pub facts: Vec<Field>,
}

/// `define NAME(params) = expr`
#[derive(Debug, Clone)]
pub struct DefineDef {
    /// The formula's name.
    pub name: Ident,
    /// Parameters.
    pub params: Vec<Field>,
    /// Its body.
    pub body: Expr,
}

/// `table NAME(keys) -> type { rows }`
#[derive(Debug, Clone)]
pub struct TableDef {
    /// The table's name.
    pub name: Ident,
    /// The lookup keys.
    pub params: Vec<Field>,
    /// Result type; an integer when omitted.
    pub result: Option<TypeExpr>,
    /// Rows tried in order.
    pub rows: Vec<TableRow>,
}

/// One table row: `2..6, yes: flee`. A row with no keys is the `otherwise:` row.
#[derive(Debug, Clone)]
pub struct TableRow {
    /// One pattern per key; empty for `otherwise`.
    pub keys: Vec<Pattern>,
    /// The value of the row.
    pub value: Expr,
    /// Span of the row.
    pub span: Span,
}

/// A table key pattern.
#[derive(Debug, Clone)]
pub struct Pattern {
    /// What it matches.
    pub kind: PatternKind,
    /// Where it was written.
    pub span: Span,
}

/// What a table key pattern matches.
#[derive(Debug, Clone)]
pub enum PatternKind {
    /// `_`: anything.
    Any,
    /// `4`, `-2`
    Int(i64),
    /// `2..6`, `7..`, `..3` (inclusive)
    Range(Option<i64>, Option<i64>),
    /// `yes` / `no`
    Bool(bool),
    /// `minor`: a name of the key's type.
    Name(Ident),
}

/// `check NAME [for KIND] { ... }`
#[derive(Debug, Clone)]
pub struct CheckDef {
    /// The check's name.
    pub name: Ident,
    /// `for unit`: the kind of entity the check is made by; it is named like its kind in the body.
    pub subject: Option<Ident>,
    /// Lines of the check in order.
    pub lines: Vec<CheckLine>,
}

/// A line inside a check.
#[derive(Debug, Clone)]
pub struct CheckLine {
    /// Doc comment, if any.
    pub doc: Option<String>,
    /// Span of the line.
    pub span: Span,
    /// What the line says.
    pub kind: CheckLineKind,
}

/// The kinds of line inside a check.
#[derive(Debug, Clone)]
pub enum CheckLineKind {
    /// `input spi: 0..6 = 3`
    Input(Field),
    /// `roll d6 as base`: the check's dice.
    Roll {
        /// The dice.
        dice: Expr,
        /// `as NAME`: a name for the first die (the "natural" die).
        name: Option<Ident>,
    },
    /// `modifier "Spirit" +spi`, `modifier "Leader" +leadership dice when near max 2`
    Modifier(ModifierDef),
    /// `target 7`
    Target(Expr),
    /// `let margin2 = total - 9`
    Let(Ident, Expr),
    /// `outcome steady when total >= target { ... }` / `otherwise shaken { ... }`
    Outcome(OutcomeDef),
    /// `group pass = holds, inspired`: outcomes added up under one name.
    Group {
        /// The group's name.
        name: Ident,
        /// The outcomes in it.
        members: Vec<Ident>,
    },
    /// `reroll when fail, shaken once if spend_point`: the whole check is rolled again when it
    /// lands on one of these outcomes and the condition (if any) holds.
    Reroll(RerollDef),
}

/// `reroll when OUTCOME, … [once] [if CONDITION]`
#[derive(Debug, Clone)]
pub struct RerollDef {
    /// The outcomes that send the check to be rolled again.
    pub outcomes: Vec<Ident>,
    /// `once`: at most one re-roll (else again until another outcome comes up, within a bound).
    pub once: bool,
    /// `if CONDITION`: re-rolled only when this holds too (read after the roll, like an outcome's).
    pub when: Option<Expr>,
}

/// A named modifier line.
#[derive(Debug, Clone)]
pub struct ModifierDef {
    /// The label shown in explanations.
    pub label: (String, Span),
    /// Signed amount.
    pub amount: Expr,
    /// `dice`/`die`: the amount is a number of dice added to (or removed from) the roll.
    pub dice: bool,
    /// `when COND`
    pub when: Option<Expr>,
    /// `max N`: cap on the amount's size.
    pub cap: Option<Expr>,
}

/// An outcome of a check.
#[derive(Debug, Clone)]
pub struct OutcomeDef {
    /// The outcome's name.
    pub name: Ident,
    /// `when COND`; `None` for `otherwise`.
    pub when: Option<Expr>,
    /// Whether written as `otherwise NAME`.
    pub otherwise: bool,
    /// Effects when this outcome happens to a check with a subject.
    pub body: Vec<Stmt>,
}

/// `on EVENT [when COND] { ... }`
#[derive(Debug, Clone)]
pub struct TriggerDef {
    /// The event.
    pub event: Ident,
    /// Condition on the event's facts.
    pub when: Option<Expr>,
    /// Effects.
    pub body: Vec<Stmt>,
}

/// `result NAME ["Label"]`
#[derive(Debug, Clone)]
pub struct ResultDef {
    /// The result's name.
    pub name: Ident,
    /// A label for people.
    pub label: Option<(String, Span)>,
}

/// `scenario NAME ["Title"] { steps }`
#[derive(Debug, Clone)]
pub struct ScenarioDef {
    /// Identifier used on the command line.
    pub name: Ident,
    /// A title for people.
    pub title: Option<(String, Span)>,
    /// Steps in order.
    pub body: Vec<Stmt>,
}

/// `script { ... }` or `script "file.rhai"`
#[derive(Debug, Clone)]
pub struct ScriptDef {
    /// The inline code or the path, with its span.
    pub source: (String, Span),
    /// Whether `source` is a path to a file.
    pub is_file: bool,
}

/// A statement (an effect, or a scenario step).
#[derive(Debug, Clone)]
pub struct Stmt {
    /// Span of the statement.
    pub span: Span,
    /// What it does.
    pub kind: StmtKind,
}

/// How long a `set` lasts.
#[derive(Debug, Clone)]
pub enum Duration {
    /// `until end of turn`
    EndOfTurn,
    /// `until end of round`
    EndOfRound,
    /// `for next round`: until the end of the round after this one.
    NextRound,
    /// `until activated [for unit.side]`: until the next time the event fires (with a fact of the
    /// value the expression has when the change is made).
    Event {
        /// The event.
        event: Ident,
        /// `for EXPR`: only a firing with a fact of this value.
        fact: Option<Box<Expr>>,
    },
}

/// The kinds of statement.
#[derive(Debug, Clone)]
pub enum StmtKind {
    /// `set unit.morale to shaken [until end of turn]`
    Set {
        /// The attribute set.
        place: Expr,
        /// The new value.
        value: Expr,
        /// How long it lasts, if not for good.
        until: Option<(Duration, Span)>,
    },
    /// `add 1 to side.ap`
    Add {
        /// Amount added.
        amount: Expr,
        /// The counter.
        place: Expr,
    },
    /// `remove d3 from group.mp`
    Remove {
        /// Amount removed.
        amount: Expr,
        /// The counter.
        place: Expr,
    },
    /// `let loss = d3`
    Let(Ident, Expr),
    /// `var n = 0`: a value the rule may change with `set n to …`, `add … to n`, `remove … from n`.
    Var(Ident, Expr),
    /// `roll morale for unit with spi = unit.spi`
    Roll {
        /// The check.
        check: Ident,
        /// Who makes it.
        subject: Option<Expr>,
        /// Input values.
        args: Vec<(Ident, Expr)>,
    },
    /// `if c { } else if d { } else { }`
    If {
        /// Condition.
        cond: Expr,
        /// When true.
        then: Vec<Stmt>,
        /// When false (an `else if` is a nested `If`).
        otherwise: Vec<Stmt>,
    },
    /// `for each unit u where u.side == s { }`
    ForEach {
        /// The kind iterated.
        kind: Ident,
        /// The loop variable.
        var: Ident,
        /// Filter.
        filter: Option<Expr>,
        /// Body.
        body: Vec<Stmt>,
    },
    /// `trigger damaged(unit: Z, hp_lost: 3)`
    Trigger {
        /// The event.
        event: Ident,
        /// Fact values.
        args: Vec<(Ident, Expr)>,
    },
    /// `choose steady "Spend 1 AP to stay steady?" from yes | no default no`,
    /// `choose stake "How much?" from 0..20 default 0`
    /// or `choose who "Which unit gets the AP?" from unit u where u.side == side`
    Choose(ChooseDef),
    /// `end game with major_victory for group`
    EndGame {
        /// The result.
        result: Ident,
        /// The winner, if any.
        winner: Option<Expr>,
    },
    /// `note "text"`
    Note(String),
    /// `repeat { ... } until COND` (at most 1000 times)
    Repeat {
        /// Body.
        body: Vec<Stmt>,
        /// Stop once true.
        until: Expr,
    },
    // Scenario steps.
    /// `new unit Y with spi = 3, hp = 6`
    New {
        /// The kind.
        kind: Ident,
        /// The new entity's name.
        name: Ident,
        /// Attribute values.
        with: Vec<(Ident, Expr)>,
    },
    /// `dice 4, 3`: the next dice rolled show these faces.
    Dice(Vec<(i64, Span)>),
    /// `option leadership_die = extra_d6`: the scenario plays on under this reading.
    SetOption {
        /// The option's name.
        option: Ident,
        /// Its value.
        value: Expr,
    },
    /// `answer steady = yes`: the next time choice `steady` is asked, answer this.
    Answer {
        /// The choice's name.
        choice: Ident,
        /// The answer.
        value: Expr,
    },
    /// `expect cond ["message"]`
    Expect {
        /// What must hold.
        cond: Expr,
        /// Shown when it does not.
        message: Option<String>,
    },
    /// `expect [not] order "move towards goblin" ["message"]`: the last reaction gave (or did not give)
    /// this order.
    ExpectOrder {
        /// The order's text.
        text: String,
        /// `not`: the order must be absent.
        absent: bool,
        /// Shown when it fails.
        message: Option<String>,
    },
    /// `expect no dice waiting ["message"]`: every die the scenario forced has been rolled.
    ExpectNoDice {
        /// Shown when it fails.
        message: Option<String>,
    },
    /// `follow standard_reaction(unit, seen)`: run a reaction of the ruleset, or of a script.
    Follow(Ident, Vec<Arg>),
    /// `order "move towards {friend.name}"`: an order for the table; the text with its span (the
    /// checker reads the `{…}` parts).
    Order(String, Span),
    /// `with chance 1/3 { … } otherwise { … }`: a die with `sides` sides decides; `then` runs when it
    /// shows `chance` or less.
    Chance {
        /// The numerator, with its span.
        chance: (i64, Span),
        /// The denominator (the die's sides), with its span.
        sides: (i64, Span),
        /// Span of `with chance P/Q`, which the roll is logged at.
        head: Span,
        /// When the die shows `chance` or less.
        then: Vec<Stmt>,
        /// Otherwise.
        otherwise: Vec<Stmt>,
    },
    /// `record "turns taken" = turn`: a value a simulation reports (the last one recorded in a run).
    Record {
        /// The label, with its span.
        label: (String, Span),
        /// The value: a number or yes/no.
        value: Expr,
    },
    /// `report game, a.morale`: what the odds of a scenario show for each way it can end, read at its
    /// end.
    Report(Vec<Expr>),
}

/// A choice point.
#[derive(Debug, Clone)]
pub struct ChooseDef {
    /// Name the answer is bound to, and the name scenarios answer by.
    pub name: Ident,
    /// The question shown to people.
    pub question: (String, Span),
    /// The options.
    pub options: ChoiceOptions,
    /// `default X` (for entity choices: the first candidate when omitted).
    pub default: Option<Expr>,
}

/// The options of a choice.
#[derive(Debug, Clone)]
pub enum ChoiceOptions {
    /// `from yes | no` or `from flee | surrender`
    Names(Vec<Ident>),
    /// `from 0..20` or `from 0..`: any whole number in the range (a `range_type`).
    Range(TypeExpr),
    /// `from unit u where u.side == side`
    Entities {
        /// The kind.
        kind: Ident,
        /// Candidate variable.
        var: Ident,
        /// Filter.
        filter: Option<Expr>,
    },
}

/// An expression.
#[derive(Debug, Clone)]
pub struct Expr {
    /// Span of the expression.
    pub span: Span,
    /// What it is.
    pub kind: ExprKind,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (rounds down)
    Div,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `and`
    And,
    /// `or`
    Or,
    /// `is`
    Is,
    /// `is not`
    IsNot,
}

impl BinOp {
    /// What comparison `self` says of two numbers: `Some(a OP b)` for `==`, `!=`, `<`, `<=`, `>`
    /// and `>=`, `None` for an operator that is not a comparison. This is where each comparison's
    /// meaning is written: the evaluator, the compiled conditions and the odds all ask it.
    #[inline(always)]
    pub fn compare(self, a: i64, b: i64) -> Option<bool> {
        Some(match self {
            BinOp::Eq => a == b,
            BinOp::Ne => a != b,
            BinOp::Lt => a < b,
            BinOp::Le => a <= b,
            BinOp::Gt => a > b,
            BinOp::Ge => a >= b,
            BinOp::Add
            | BinOp::Sub
            | BinOp::Mul
            | BinOp::Div
            | BinOp::And
            | BinOp::Or
            | BinOp::Is
            | BinOp::IsNot => {
                return None;
            }
        })
    }

    /// What arithmetic operator `self` makes of two numbers: `a + b`, `a - b`, `a * b`, or `a / b`
    /// rounded down (towards minus infinity, as rulebooks mean "round down"); an [`ArithError`] for
    /// a result too large to hold, a division by zero, or an operator that is not arithmetic. This
    /// is where each arithmetic operator's meaning is written: the evaluator, its fast paths, the
    /// compiled conditions, the checker's constants and the odds all ask it.
    ///
    /// ```
    /// use mettle::internals::ast::{ArithError, BinOp};
    /// assert_eq!(BinOp::Div.arith(-7, 2), Ok(-4));
    /// assert_eq!(BinOp::Div.arith(1, 0), Err(ArithError::DivideByZero));
    /// assert_eq!(BinOp::Mul.arith(i64::MAX, 2), Err(ArithError::Overflow));
    /// assert_eq!(BinOp::Lt.arith(1, 2), Err(ArithError::NotArithmetic));
    /// ```
    #[inline(always)]
    pub fn arith(self, a: i64, b: i64) -> Result<i64, ArithError> {
        let v = match self {
            BinOp::Add => a.checked_add(b),
            BinOp::Sub => a.checked_sub(b),
            BinOp::Mul => a.checked_mul(b),
            BinOp::Div if b == 0 => return Err(ArithError::DivideByZero),
            BinOp::Div => {
                let q = a.checked_div(b);
                q.map(|q| if a % b != 0 && ((a < 0) != (b < 0)) { q - 1 } else { q })
            }
            BinOp::Eq
            | BinOp::Ne
            | BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge
            | BinOp::And
            | BinOp::Or
            | BinOp::Is
            | BinOp::IsNot => return Err(ArithError::NotArithmetic),
        };
        v.ok_or(ArithError::Overflow)
    }

    /// What logical operator `self` says of its left side alone: `Some(answer)` when `left`
    /// decides it (`no and …` is no, `yes or …` is yes), `None` when the right side decides it,
    /// and for an operator that is not `and` nor `or` (whose left side decides nothing). This is
    /// where `and` and `or` are written: the evaluator and the compiled conditions ask it, and
    /// neither reads the right side when the left decides.
    ///
    /// ```
    /// use mettle::internals::ast::BinOp;
    /// assert_eq!(BinOp::And.decides(false), Some(false));
    /// assert_eq!(BinOp::Or.decides(false), None);
    /// ```
    #[inline(always)]
    pub fn decides(self, left: bool) -> Option<bool> {
        match self {
            BinOp::And => (!left).then_some(false),
            BinOp::Or => left.then_some(true),
            BinOp::Add
            | BinOp::Sub
            | BinOp::Mul
            | BinOp::Div
            | BinOp::Eq
            | BinOp::Ne
            | BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge
            | BinOp::Is
            | BinOp::IsNot => None,
        }
    }

    /// How the operator is written (`+`, `<=`, `is not`).
    ///
    /// ```
    /// use mettle::internals::ast::BinOp;
    /// assert_eq!(BinOp::IsNot.symbol(), "is not");
    /// ```
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Is => "is",
            BinOp::IsNot => "is not",
        }
    }

    /// Whether `a OP b` holds for comparison `self` ([`BinOp::compare`]; no for an operator that is
    /// not a comparison).
    ///
    /// ```
    /// use mettle::internals::ast::BinOp;
    /// assert!(BinOp::Le.holds(3, 3));
    /// assert!(!BinOp::Add.holds(1, 2));
    /// ```
    #[inline(always)]
    pub fn holds(self, a: i64, b: i64) -> bool {
        self.compare(a, b) == Some(true)
    }
}

/// Why an arithmetic operator gives no number ([`BinOp::arith`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArithError {
    /// The result is too large to hold (`9223372036854775807 + 1`).
    Overflow,
    /// A division by zero (`1 / 0`).
    DivideByZero,
    /// The operator is not arithmetic (`<`, `and`, …).
    NotArithmetic,
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    /// `-x`
    Neg,
    /// `not x`
    Not,
}

/// A comparison inside a dice modifier or pool function: `>=5`, `6`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cmp {
    /// `=` or a bare number
    Eq,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl Cmp {
    /// Whether `x` satisfies `x CMP n`.
    pub fn test(self, x: i64, n: i64) -> bool {
        match self {
            Cmp::Eq => x == n,
            Cmp::Lt => x < n,
            Cmp::Le => x <= n,
            Cmp::Gt => x > n,
            Cmp::Ge => x >= n,
        }
    }
}

/// Dice notation modifiers (`4d6kh3`, `3d6x`, `2d6r1`, `10d6cs>=5`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DiceMod {
    /// `khN` (also `kN`): keep the N highest.
    KeepHighest(u32),
    /// `klN`: keep the N lowest.
    KeepLowest(u32),
    /// `dhN`: drop the N highest.
    DropHighest(u32),
    /// `dlN`: drop the N lowest.
    DropLowest(u32),
    /// `x` (explode on the highest face) or `x>=N`: roll again and add.
    Explode(Cmp, Option<i64>),
    /// `rN`, `r<N`: reroll matching dice until they don't match.
    Reroll(Cmp, i64),
    /// `roN`: reroll matching dice once.
    RerollOnce(Cmp, i64),
    /// `minN`: every die showing less than N shows N instead.
    Raise(i64),
    /// `cs>=N`: the roll's value is the number of dice matching.
    CountSuccesses(Cmp, i64),
}

impl DiceMod {
    /// How a roll with modifiers `mods` counts its kept dice: by the last `cs…` written (the number
    /// of dice matching it), or `None` for their sum. The roller, its plain path and exact odds ask
    /// it.
    ///
    /// ```
    /// use mettle::internals::ast::{Cmp, DiceMod};
    /// let mods = [DiceMod::CountSuccesses(Cmp::Ge, 5), DiceMod::KeepHighest(3), DiceMod::CountSuccesses(Cmp::Eq, 1)];
    /// assert_eq!(DiceMod::counting(&mods), Some((Cmp::Eq, 1)));
    /// assert_eq!(DiceMod::counting(&[DiceMod::KeepHighest(3)]), None);
    /// ```
    #[inline]
    pub fn counting(mods: &[DiceMod]) -> Option<(Cmp, i64)> {
        mods.iter().rev().find_map(|m| m.counts())
    }

    /// Whether modifiers `mods` leave every die as it fell and every die kept: none of them but
    /// `cs…`, which only counts the dice. The roller's plain path and exact odds' classes of faces
    /// ask it.
    ///
    /// ```
    /// use mettle::internals::ast::{Cmp, DiceMod};
    /// assert!(DiceMod::as_rolled(&[DiceMod::CountSuccesses(Cmp::Ge, 4)]));
    /// assert!(DiceMod::as_rolled(&[]));
    /// assert!(!DiceMod::as_rolled(&[DiceMod::CountSuccesses(Cmp::Ge, 4), DiceMod::Raise(2)]));
    /// ```
    #[inline]
    pub fn as_rolled(mods: &[DiceMod]) -> bool {
        mods.iter().all(|m| m.counts().is_some())
    }

    /// The test of a success, for `cs…`; `None` for a modifier that changes, adds or drops dice.
    #[inline]
    fn counts(self) -> Option<(Cmp, i64)> {
        match self {
            DiceMod::CountSuccesses(cmp, n) => Some((cmp, n)),
            DiceMod::KeepHighest(_)
            | DiceMod::KeepLowest(_)
            | DiceMod::DropHighest(_)
            | DiceMod::DropLowest(_)
            | DiceMod::Explode(..)
            | DiceMod::Reroll(..)
            | DiceMod::RerollOnce(..)
            | DiceMod::Raise(_) => None,
        }
    }
}

/// How many sides a die has.
#[derive(Debug, Clone)]
pub enum Sides {
    /// `d6`, `d(die)`
    Count(Box<Expr>),
    /// `d[0,0,1,1,2,3]`: custom faces.
    Faces(Vec<(i64, Span)>),
}

/// The kinds of expression.
#[derive(Debug, Clone)]
pub enum ExprKind {
    /// `7`
    Int(i64),
    /// `yes` / `no`
    Bool(bool),
    /// `none`
    None,
    /// `"text"`
    Str(String),
    /// `spi`, `shaken`, `round`
    Name(Ident),
    /// `unit.spi`, `last morale.total`
    Field(Box<Expr>, Ident),
    /// `triangular(n)`, `count(dice, 6)`, `stress_tn(markers)`
    Call(Ident, Vec<Arg>),
    /// `2d6`, `(n)d6kh1`, `d[1,2,3]`
    Dice {
        /// Number of dice; one when omitted.
        count: Option<Box<Expr>>,
        /// Sides.
        sides: Sides,
        /// Notation modifiers in order.
        mods: Vec<(DiceMod, Span)>,
    },
    /// `a + b`
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `-a`, `not a`
    Unary(UnOp, Box<Expr>),
    /// `if c then a else b`
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `last morale`: the most recent result of a check.
    Last(Ident),
    /// `{friends: [{name: "orc", distance: 4}]}`: data for scripts.
    Data(serde_json::Value),
    /// `number of unit u where u.side == s`
    NumberOf {
        /// The kind counted.
        kind: Ident,
        /// Candidate variable.
        var: Ident,
        /// Filter.
        filter: Option<Box<Expr>>,
    },
    /// `max(u.leadership for each unit u where u.able else 0)`, `count(each unit u where u.broken)`:
    /// a total over the entities of a kind.
    Total {
        /// Which total.
        op: TotalOp,
        /// What is totalled for each entity (`u.leadership`); `None` for `count(each …)` and
        /// `any(each …)`, which total the entities themselves.
        value: Option<Box<Expr>>,
        /// The kind.
        kind: Ident,
        /// Candidate variable.
        var: Ident,
        /// Filter.
        filter: Option<Box<Expr>>,
        /// `else 0`: what the total is when no entity passes the filter.
        empty: Option<Box<Expr>>,
    },
    /// `nearest f in seen.friends where not f.in_combat [by distance]`, `first c in seen.cover where
    /// c.reachable`: an entry of a list of data, or `none`.
    Pick {
        /// `nearest` (the least of a number field) rather than `first` (the first listed).
        nearest: bool,
        /// Candidate variable.
        var: Ident,
        /// The list.
        list: Box<Expr>,
        /// Filter.
        filter: Option<Box<Expr>>,
        /// `by FIELD`: the number field `nearest` orders by (`distance` when left out).
        by: Option<Ident>,
    },
}

/// Which total over a kind: `max(… for each unit u …)` and the like.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TotalOp {
    /// `max`: the greatest value.
    Max,
    /// `min`: the least value.
    Min,
    /// `sum`: the values added up (0 for none).
    Sum,
    /// `count`: how many entities pass (or whose value is yes); 0 for none.
    Count,
    /// `any`: whether one of them passes (or is yes); no for none.
    Any,
    /// `all`: whether every one of them is yes; yes for none.
    All,
}

impl TotalOp {
    /// The word that writes it.
    pub fn word(self) -> &'static str {
        match self {
            TotalOp::Max => "max",
            TotalOp::Min => "min",
            TotalOp::Sum => "sum",
            TotalOp::Count => "count",
            TotalOp::Any => "any",
            TotalOp::All => "all",
        }
    }

    /// The total a word writes.
    pub fn from_word(w: &str) -> Option<TotalOp> {
        Some(match w {
            "max" => TotalOp::Max,
            "min" => TotalOp::Min,
            "sum" => TotalOp::Sum,
            "count" => TotalOp::Count,
            "any" => TotalOp::Any,
            "all" => TotalOp::All,
            _ => return None,
        })
    }
}

/// A call argument: an expression, or a comparison such as `>= 5` for pool functions.
#[derive(Debug, Clone)]
pub enum Arg {
    /// `x`
    Expr(Expr),
    /// `>= 5`
    Cmp(Cmp, Expr, Span),
}

/// A piece of the text of an `order "…"`: text as written, or a `{name.field}` value shown in it.
#[derive(Debug, Clone)]
pub enum OrderPiece {
    /// Text as written.
    Text(String),
    /// A name, then fields (`friend.name`), located in the file.
    Value(Expr),
}

/// Splits the text of an `order "…"`, which starts at byte `start` of the file (after the opening
/// quote), into text and `{…}` values; or says where a brace is unmatched or holds something else
/// than a name and fields. Strings hold no escapes, so offsets in the text are offsets in the file.
///
/// ```
/// use mettle::internals::ast::{order_pieces, OrderPiece};
/// let parts = order_pieces("move towards {friend.name} now", 10).unwrap();
/// assert_eq!(parts.len(), 3);
/// assert!(matches!(&parts[1], OrderPiece::Value(e) if e.span.start == 24));
/// assert!(order_pieces("a {b", 0).is_err());
/// ```
pub fn order_pieces(text: &str, start: usize) -> Result<Vec<OrderPiece>, (Span, String)> {
    let mut out = Vec::new();
    let mut at = 0usize;
    while let Some(open) = text[at..].find(['{', '}']).map(|i| i + at) {
        if text.as_bytes()[open] == b'}' {
            return Err((Span::new(start + open, start + open + 1), "a `}` without its `{`".into()));
        }
        if open > at {
            out.push(OrderPiece::Text(text[at..open].to_string()));
        }
        let Some(close) = text[open + 1..].find('}').map(|i| i + open + 1) else {
            return Err((Span::new(start + open, start + text.len()), "a `{` without its `}`".into()));
        };
        let inner = &text[open + 1..close];
        let lead = inner.len() - inner.trim_start().len();
        let words: Vec<&str> = inner.trim().split('.').collect();
        let ident = |w: &&str| {
            let mut cs = w.chars();
            cs.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        if !words.iter().all(ident) {
            return Err((
                Span::new(start + open, start + close + 1),
                format!("`{{{inner}}}` is not a name or a field"),
            ));
        }
        let mut pos = start + open + 1 + lead;
        let mut e: Option<Expr> = None;
        for w in words {
            let id = Ident { name: w.to_string(), span: Span::new(pos, pos + w.len()) };
            e = Some(match e {
                None => Expr { span: id.span, kind: ExprKind::Name(id) },
                Some(b) => Expr {
                    span: Span::new(b.span.start, id.span.end),
                    kind: ExprKind::Field(Box::new(b), id),
                },
            });
            pos += w.len() + 1;
        }
        out.extend(e.map(OrderPiece::Value));
        at = close + 1;
    }
    if at < text.len() {
        out.push(OrderPiece::Text(text[at..].to_string()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{ArithError, BinOp};
    use proptest::prelude::*;

    proptest! {
        /// Each arithmetic operator gives the exact answer (division rounded down) or says why it
        /// cannot: the answer does not fit, or the divisor is 0. The answers are checked in 128 bits.
        #[test]
        fn arithmetic_is_exact_or_says_why(
            a in prop_oneof![any::<i64>(), -20i64..20, Just(i64::MIN)],
            b in prop_oneof![any::<i64>(), -4i64..5, Just(-1i64)],
        ) {
            let (x, y) = (i128::from(a), i128::from(b));
            let fits = |v: i128| i64::try_from(v).is_ok();
            for op in [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div] {
                let got = op.arith(a, b);
                let exact = match op {
                    BinOp::Add => Some(x + y),
                    BinOp::Sub => Some(x - y),
                    BinOp::Mul => Some(x * y),
                    _ => None,
                };
                match (op, got) {
                    (BinOp::Div, Err(ArithError::DivideByZero)) => prop_assert_eq!(b, 0),
                    (BinOp::Div, Err(ArithError::Overflow)) => prop_assert!(a == i64::MIN && b == -1),
                    // Rounded down: the greatest q with q * b no more than a (for b > 0; the least
                    // with q * b no less than a for b < 0).
                    (BinOp::Div, Ok(q)) => {
                        let q = i128::from(q);
                        if y > 0 {
                            prop_assert!(q * y <= x && x < (q + 1) * y, "{a} / {b} = {q}");
                        } else {
                            prop_assert!(q * y >= x && x > (q + 1) * y, "{a} / {b} = {q}");
                        }
                    }
                    (_, Ok(v)) => prop_assert_eq!(Some(i128::from(v)), exact),
                    (_, Err(ArithError::Overflow)) => prop_assert!(!exact.is_some_and(fits)),
                    (op, Err(e)) => prop_assert!(false, "{op:?}: {e:?}"),
                }
            }
            for op in [BinOp::Lt, BinOp::Eq, BinOp::And, BinOp::Is] {
                prop_assert_eq!(op.arith(a, b), Err(ArithError::NotArithmetic));
            }
        }
    }

    #[test]
    fn and_and_or_are_decided_by_their_left_side_only_when_it_settles_them() {
        for left in [false, true] {
            for right in [false, true] {
                let and = BinOp::And.decides(left).unwrap_or(right);
                let or = BinOp::Or.decides(left).unwrap_or(right);
                assert_eq!((and, or), (left && right, left || right));
            }
        }
        assert_eq!(BinOp::Add.decides(false), None);
    }
}
