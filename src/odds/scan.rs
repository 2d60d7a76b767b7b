//! What the rules after a check's roll read of the dice, and whether any rule rolls dice of its own:
//! this decides whether a check's odds can be worked out exactly from a few numbers per roll.

use crate::ast::Cmp;
use crate::program::*;
use std::collections::HashSet;

/// What the rules after the roll read of the dice.
#[derive(Debug, Default)]
pub struct Needs<'a> {
    /// The first die's face (`as base`).
    pub natural: bool,
    /// `sum(dice)`, when the roll counts successes (otherwise the sum is the value).
    pub sum: bool,
    /// `count(dice, CMP n)`, `any(…)`, `all(…)`: each comparison, with `n` (worked out before the roll).
    pub counts: Vec<(Cmp, &'a Expr)>,
    /// `die(dice, i)`: each `i` (worked out before the roll).
    pub dies: Vec<&'a Expr>,
    /// `highest(dice, k)` or `lowest(dice, k)` (read from the dice sorted).
    pub sorted: bool,
    /// Why the dice are read in a way the exact engine does not follow, if they are.
    pub blocker: Option<Blocker>,
}

/// What keeps a check's odds from being exact: the construct, in words, and an exact way to write it.
#[derive(Debug, Clone, PartialEq)]
pub struct Blocker {
    /// Why, in words (`the rules read the dice themselves`).
    pub why: String,
    /// The construct to find in the check's text (`die(`), to say where it is.
    pub needle: &'static str,
    /// An exact way to say the same, if there is one.
    pub help: &'static str,
}

/// The parts of a check: those worked out before its dice, and those after.
pub fn parts(c: &Check) -> (Vec<&Expr>, Vec<&Expr>) {
    let mut before: Vec<&Expr> = c.inputs.iter().filter_map(|i| i.default.as_deref()).collect();
    let mut after: Vec<&Expr> = vec![];
    let mut rolled = false;
    for s in &c.steps {
        match s {
            CheckStep::Let(_, e) if rolled => after.push(e),
            CheckStep::Let(_, e) => before.push(e),
            CheckStep::Roll => rolled = true,
        }
    }
    for m in &c.modifiers {
        before.push(&m.amount);
        before.extend(m.when.as_ref().map(|w| &w.expr));
        before.extend(m.cap.as_deref());
    }
    if let Some(r) = &c.roll {
        before.push(&r.dice.count);
        if let SidesExpr::Count(e) = &r.dice.sides {
            before.push(e);
        }
    }
    after.extend(c.target.as_deref());
    after.extend(c.outcomes.iter().filter_map(|o| o.when.as_ref().map(|w| &w.expr)));
    // Whether a roll is rolled again is read from it, as its outcome is.
    after.extend(c.reroll.as_ref().and_then(|r| r.when.as_ref()).map(|w| &w.expr));
    (before, after)
}

/// Slots a check writes at or after its roll.
pub fn post_slots(c: &Check) -> HashSet<u32> {
    let s = c.slots;
    let mut post: HashSet<u32> = [s.dice, s.natural, s.total, s.target, s.margin].into_iter().collect();
    let mut rolled = false;
    for step in &c.steps {
        match step {
            CheckStep::Let(slot, _) if rolled => {
                post.insert(*slot);
            }
            CheckStep::Roll => rolled = true,
            _ => {}
        }
    }
    post
}

/// What `exprs` (the rules after the roll of `c`) read of the dice.
pub fn needs<'a>(c: &Check, exprs: &[&'a Expr]) -> Needs<'a> {
    let post = post_slots(c);
    let mut n = Needs::default();
    for e in exprs {
        read(e, c.slots, &post, &mut n);
    }
    n
}

fn read<'a>(e: &'a Expr, s: CheckSlots, post: &HashSet<u32>, n: &mut Needs<'a>) {
    let dice = |x: &Expr| matches!(x, Expr::Local(d) if *d == s.dice);
    match e {
        Expr::Local(l) if *l == s.natural => n.natural = true,
        Expr::Local(l) if *l == s.dice => {
            n.blocker.get_or_insert(Blocker {
                why: "the rules read the dice themselves, not through `count`, `sum`, `highest`, `lowest` or `die`"
                    .into(),
                needle: "dice",
                help: "to make it exact, read the dice through `count(dice, 6)`, `sum(dice)`, `highest(dice, 1)`, `lowest(dice, 1)` \
                       or `die(dice, 1)`, which exact odds follow",
            });
        }
        Expr::Builtin(Builtin::Count(c) | Builtin::Any(c) | Builtin::All(c), args) if dice(&args[0]) => {
            if reads_any(&args[1], post) {
                n.blocker.get_or_insert(Blocker {
                    why: "a count of the dice compares with a number worked out after the roll".into(),
                    needle: match e {
                        Expr::Builtin(Builtin::Any(_), _) => "any(",
                        Expr::Builtin(Builtin::All(_), _) => "all(",
                        _ => "count(",
                    },
                    help: "to make it exact, compare with a number worked out before the roll (an input, or a `let` written above \
                           `roll`)",
                });
            }
            n.counts.push((*c, &args[1]));
        }
        Expr::Builtin(Builtin::Sum, args) if dice(&args[0]) => n.sum = true,
        Expr::Builtin(Builtin::Size, args) if dice(&args[0]) => {}
        Expr::Builtin(Builtin::Die, args) if dice(&args[0]) => {
            if reads_any(&args[1], post) {
                n.blocker.get_or_insert(Blocker {
                    why: "`die(dice, i)` reads a die whose place is worked out after the roll".into(),
                    needle: "die(",
                    help: "to make it exact, give the die's place as a number worked out before the roll, or count faces instead \
                           (`count(dice, 1) == 2` for a double 1)",
                });
            }
            n.dies.push(&args[1]);
        }
        Expr::Builtin(b @ (Builtin::Highest | Builtin::Lowest), args) if dice(&args[0]) => {
            if reads_any(&args[1], post) {
                n.blocker.get_or_insert(Blocker {
                    why: format!(
                        "`{}(dice, k)` takes a number of dice worked out after the roll",
                        if *b == Builtin::Highest { "highest" } else { "lowest" }
                    ),
                    needle: if *b == Builtin::Highest { "highest(" } else { "lowest(" },
                    help: "to make it exact, give how many dice to take as a number worked out before the roll",
                });
            }
            n.sorted = true;
        }
        _ => each_child(e, &mut |x| read(x, s, post, n)),
    }
}

/// Whether `e` itself reads one of `slots` (formulas and tables have slots of their own).
pub fn reads_any(e: &Expr, slots: &HashSet<u32>) -> bool {
    if let Expr::Local(l) = e
        && slots.contains(l)
    {
        return true;
    }
    let mut found = false;
    each_child(e, &mut |x| found |= reads_any(x, slots));
    found
}

/// Whether `e` rolls dice, itself or through the formulas and tables it uses.
pub fn rolls(p: &Program, e: &Expr) -> bool {
    reaches(p, e, &|x| matches!(x, Expr::Dice(_)))
}

/// Whether `found` holds of `e`, of any expression inside it, or of any expression in the formulas
/// and tables it uses (each looked into once).
pub fn reaches(p: &Program, e: &Expr, found: &impl Fn(&Expr) -> bool) -> bool {
    reaches_seen(p, e, found, &mut HashSet::new())
}

fn reaches_seen(
    p: &Program,
    e: &Expr,
    found: &impl Fn(&Expr) -> bool,
    seen: &mut HashSet<(bool, u32)>,
) -> bool {
    let mut hit = found(e)
        || match e {
            Expr::Define(d, _) if seen.insert((false, *d)) => {
                reaches_seen(p, &p.defines[*d as usize].body, found, seen)
            }
            Expr::Table(t, _) if seen.insert((true, *t)) => {
                p.tables[*t as usize].rows.iter().any(|(_, v, _)| reaches_seen(p, v, found, seen))
            }
            _ => false,
        };
    each_child(e, &mut |x| hit = hit || reaches_seen(p, x, found, seen));
    hit
}

/// Calls `f` on each direct sub-expression of `e`.
pub fn each_child<'a>(e: &'a Expr, f: &mut impl FnMut(&'a Expr)) {
    match e {
        Expr::Const(_) | Expr::Local(_) | Expr::Global(_) | Expr::Last(_) => {}
        Expr::Field(x, _) | Expr::Neg(x) | Expr::Not(x) | Expr::Outcome(x) | Expr::ResultSlot(x, _) => f(x),
        Expr::Bin(_, a, b) => {
            f(a);
            f(b);
        }
        Expr::If(c, a, b) => {
            f(c);
            f(a);
            f(b);
        }
        Expr::Dice(d) => {
            f(&d.count);
            if let SidesExpr::Count(x) = &d.sides {
                f(x);
            }
        }
        Expr::Builtin(_, args) | Expr::Define(_, args) | Expr::Table(_, args) => args.iter().for_each(f),
        Expr::Script(call) => call.args.iter().for_each(f),
        Expr::NumberOf { filter, .. } => {
            if let Some(x) = filter {
                f(&x.expr);
            }
        }
        Expr::Total(t) => {
            if let Some(x) = &t.filter {
                f(&x.expr);
            }
            t.value.iter().chain(&t.empty).for_each(f);
        }
        Expr::DataField(x, _) => f(x),
        Expr::Pick(p) => {
            f(&p.list);
            if let Some(x) = &p.filter {
                f(&x.expr);
            }
        }
    }
}
