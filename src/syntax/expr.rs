//! pest pairs to expressions: a Pratt parser over the flat `expr` rule, dice notation, calls.

use super::build::{Builder, Kids, Levels};
use super::parse::Rule;
use crate::ast::*;
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::sync::LazyLock;

/// Operator precedence, loosest first: `or`; `and`; `not`; comparisons; `+ -`; `* /`; unary `- +`;
/// `.field`.
static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    let left = |rule| Op::infix(rule, Assoc::Left);
    PrattParser::new()
        .op(left(Rule::op_or))
        .op(left(Rule::op_and))
        .op(Op::prefix(Rule::op_not))
        .op(left(Rule::op_eq)
            | left(Rule::op_ne)
            | left(Rule::op_lt)
            | left(Rule::op_le)
            | left(Rule::op_gt)
            | left(Rule::op_ge)
            | left(Rule::op_is)
            | left(Rule::op_is_not))
        .op(left(Rule::op_add) | left(Rule::op_sub))
        .op(left(Rule::op_mul) | left(Rule::op_div))
        .op(Op::prefix(Rule::op_neg) | Op::prefix(Rule::op_pos))
        .op(Op::postfix(Rule::field_access))
});

/// Whether a child of `expr` is an operator (as opposed to a primary).
fn is_operator(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::op_not
            | Rule::op_neg
            | Rule::op_pos
            | Rule::field_access
            | Rule::op_or
            | Rule::op_and
            | Rule::op_is_not
            | Rule::op_is
            | Rule::op_eq
            | Rule::op_ne
            | Rule::op_le
            | Rule::op_ge
            | Rule::op_lt
            | Rule::op_gt
            | Rule::op_add
            | Rule::op_sub
            | Rule::op_mul
            | Rule::op_div
    )
}

fn binop(rule: Rule) -> BinOp {
    match rule {
        Rule::op_or => BinOp::Or,
        Rule::op_and => BinOp::And,
        Rule::op_is_not => BinOp::IsNot,
        Rule::op_is => BinOp::Is,
        Rule::op_eq => BinOp::Eq,
        Rule::op_ne => BinOp::Ne,
        Rule::op_le => BinOp::Le,
        Rule::op_ge => BinOp::Ge,
        Rule::op_lt => BinOp::Lt,
        Rule::op_gt => BinOp::Gt,
        Rule::op_add => BinOp::Add,
        Rule::op_sub => BinOp::Sub,
        Rule::op_mul => BinOp::Mul,
        Rule::op_div => BinOp::Div,
        r => unreachable!("the Pratt parser has no infix operator {r:?}"),
    }
}

/// `<`, `<=`, `>`, `>=`, `=` in `cmp_op` and `dice_cmp`.
fn cmp(text: &str) -> Cmp {
    match text {
        "<" => Cmp::Lt,
        "<=" => Cmp::Le,
        ">" => Cmp::Gt,
        ">=" => Cmp::Ge,
        _ => Cmp::Eq,
    }
}

/// An expression standing in for one that could not be built.
fn placeholder(span: Span) -> Expr {
    Expr { span, kind: ExprKind::None }
}

impl Builder {
    /// An `expr` pair. It adds one level to the tree per operator, as each operator is a level of
    /// the tree built, and one level of recursion per prefix operator in a row.
    pub(super) fn expr(&self, pair: Pair<'_, Rule>) -> Expr {
        let span = self.span(&pair);
        let pairs = pair.into_inner();
        let (mut operators, mut prefixes, mut run) = (0, 0, 0);
        for p in pairs.clone() {
            let rule = p.as_rule();
            operators += usize::from(is_operator(rule));
            run = if matches!(rule, Rule::op_not | Rule::op_neg | Rule::op_pos) { run + 1 } else { 0 };
            prefixes = prefixes.max(run);
        }
        let levels = Levels { nest: 1 + prefixes, tree: 1 + operators };
        if !self.enter(levels, span) {
            return placeholder(span);
        }
        let expr = PRATT
            .map_primary(|p| self.primary(p))
            .map_prefix(|op, rhs| {
                let span = self.span(&op).to(rhs.span);
                let kind = match op.as_rule() {
                    Rule::op_not => ExprKind::Unary(UnOp::Not, Box::new(rhs)),
                    Rule::op_neg => ExprKind::Unary(UnOp::Neg, Box::new(rhs)),
                    // Unary plus changes nothing but the span.
                    _ => rhs.kind,
                };
                Expr { span, kind }
            })
            .map_postfix(|lhs, op| {
                let name = self.ident(Kids::of(op).get(Rule::ident));
                Expr { span: lhs.span.to(name.span), kind: ExprKind::Field(Box::new(lhs), name) }
            })
            .map_infix(|lhs, op, rhs| Expr {
                span: lhs.span.to(rhs.span),
                kind: ExprKind::Binary(binop(op.as_rule()), Box::new(lhs), Box::new(rhs)),
            })
            .parse(pairs);
        self.leave(levels);
        expr
    }

    fn primary(&self, pair: Pair<'_, Rule>) -> Expr {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::dice => {
                let k = Kids::of(pair);
                let count = k.find(Rule::int).map(|n| Box::new(self.int_expr(n)));
                return self.dice(count, k.get(Rule::dice_tail), span);
            }
            Rule::paren => {
                let k = Kids::of(pair);
                let inner = self.paren(k.get(Rule::dice_paren));
                return match k.find(Rule::dice_tail) {
                    Some(tail) => self.dice(Some(Box::new(inner)), tail, span),
                    None => inner,
                };
            }
            Rule::int => return self.int_expr(pair),
            Rule::kw_yes => ExprKind::Bool(true),
            Rule::kw_no => ExprKind::Bool(false),
            Rule::kw_none => ExprKind::None,
            Rule::string => ExprKind::Str(self.string(pair).0),
            Rule::if_expr => {
                let k = Kids::of(pair);
                let [c, a, b] = [0, 1, 2].map(|i| Box::new(self.expr(k.nth(Rule::expr, i))));
                ExprKind::If(c, a, b)
            }
            Rule::last_expr => ExprKind::Last(self.ident(Kids::of(pair).get(Rule::ident))),
            Rule::number_of => {
                let k = Kids::of(pair);
                ExprKind::NumberOf {
                    kind: self.ident(k.nth(Rule::ident, 0)),
                    var: self.ident(k.nth(Rule::ident, 1)),
                    filter: k.after(Rule::kw_where).map(|e| Box::new(self.expr(e))),
                }
            }
            Rule::total => {
                let k = Kids::of(pair);
                let op = TotalOp::from_word(k.get(Rule::total_op).as_str()).expect("the grammar's words");
                let value = k.find(Rule::kw_for).map(|_| Box::new(self.expr(k.nth(Rule::expr, 0))));
                ExprKind::Total {
                    op,
                    value,
                    kind: self.ident(k.nth(Rule::ident, 0)),
                    var: self.ident(k.nth(Rule::ident, 1)),
                    filter: k.after(Rule::kw_where).map(|e| Box::new(self.expr(e))),
                    empty: k.after(Rule::kw_else).map(|e| Box::new(self.expr(e))),
                }
            }
            Rule::call => {
                let k = Kids::of(pair);
                let args = k.all(Rule::arg).map(|a| self.arg(a)).collect();
                ExprKind::Call(self.ident(k.get(Rule::ident)), args)
            }
            Rule::ident => ExprKind::Name(self.ident(pair)),
            Rule::data_map | Rule::data_list => ExprKind::Data(self.data(pair)),
            r => unreachable!("the grammar has no primary {r:?}"),
        };
        Expr { span, kind }
    }

    /// A data literal as JSON. Its depth is capped by the scan before building, like every bracket.
    fn data(&self, pair: Pair<'_, Rule>) -> serde_json::Value {
        use serde_json::Value as J;
        match pair.as_rule() {
            Rule::data_map => J::Object(
                pair.into_inner()
                    .filter(|p| p.as_rule() == Rule::data_entry)
                    .map(|e| {
                        let mut kids = e.into_inner();
                        let key = kids.next().map(|k| match k.as_rule() {
                            Rule::string => self.string(k).0,
                            _ => k.as_str().to_string(),
                        });
                        let value = kids.find(|p| p.as_rule() == Rule::data_value).map(|v| self.data(v));
                        (key.unwrap_or_default(), value.unwrap_or(J::Null))
                    })
                    .collect(),
            ),
            Rule::data_list => J::Array(
                pair.into_inner().filter(|p| p.as_rule() == Rule::data_value).map(|v| self.data(v)).collect(),
            ),
            Rule::data_value => match pair.into_inner().next() {
                Some(p) => match p.as_rule() {
                    Rule::signed_int => J::from(self.int(&p)),
                    Rule::kw_yes => J::Bool(true),
                    Rule::kw_no => J::Bool(false),
                    Rule::string => J::String(self.string(p).0),
                    Rule::kw_none => J::Null,
                    _ => self.data(p),
                },
                None => J::Null,
            },
            _ => J::Null,
        }
    }

    /// A `dice_paren`: the expression inside, spanning the brackets too.
    fn paren(&self, pair: Pair<'_, Rule>) -> Expr {
        let span = self.span(&pair);
        Expr { span, ..self.expr(Kids::of(pair).get(Rule::expr)) }
    }

    fn int_expr(&self, pair: Pair<'_, Rule>) -> Expr {
        Expr { span: self.span(&pair), kind: ExprKind::Int(self.int(&pair)) }
    }

    pub(super) fn arg(&self, pair: Pair<'_, Rule>) -> Arg {
        let span = self.span(&pair);
        let inner = Kids::of(pair).first();
        match inner.as_rule() {
            Rule::cmp_arg => {
                let k = Kids::of(inner);
                Arg::Cmp(cmp(k.get(Rule::cmp_op).as_str()), self.expr(k.get(Rule::expr)), span)
            }
            _ => Arg::Expr(self.expr(inner)),
        }
    }

    /// A dice term from its count and its `dice_tail` (`d6kh1`).
    fn dice(&self, count: Option<Box<Expr>>, tail: Pair<'_, Rule>, span: Span) -> Expr {
        let k = Kids::of(tail);
        let sides = Kids::of(k.get(Rule::dice_sides)).first();
        let sides = match sides.as_rule() {
            Rule::int => Sides::Count(Box::new(self.int_expr(sides))),
            Rule::dice_paren => Sides::Count(Box::new(self.paren(sides))),
            Rule::dice_faces => Sides::Faces(
                Kids::of(sides).all(Rule::signed_int).map(|n| (self.int(&n), self.span(&n))).collect(),
            ),
            r => unreachable!("the grammar has no dice sides {r:?}"),
        };
        let mods = k.all(Rule::dice_mod).map(|m| (self.dice_mod(Kids::of(m.clone()).first()), self.span(&m)));
        Expr { span, kind: ExprKind::Dice { count, sides, mods: mods.collect() } }
    }

    /// `kh3 kl1 k2 dh1 dl1 x x>=5 r1 r<3 ro1 min2 cs>=5 cs6`
    fn dice_mod(&self, pair: Pair<'_, Rule>) -> DiceMod {
        let text = pair.as_str();
        let rule = pair.as_rule();
        let k = Kids::of(pair);
        let n = k.find(Rule::int);
        let c = k.find(Rule::dice_cmp).map(|c| cmp(c.as_str()));
        let count = || n.as_ref().map_or(0, |n| self.count(n));
        let value = || n.as_ref().map_or(0, |n| self.int(n));
        match rule {
            Rule::mod_keep if text.starts_with("kl") => DiceMod::KeepLowest(count()),
            Rule::mod_keep => DiceMod::KeepHighest(count()),
            Rule::mod_drop if text.starts_with("dh") => DiceMod::DropHighest(count()),
            Rule::mod_drop => DiceMod::DropLowest(count()),
            Rule::mod_explode => DiceMod::Explode(c.unwrap_or(Cmp::Ge), n.as_ref().map(|n| self.int(n))),
            Rule::mod_reroll if text.starts_with("ro") => DiceMod::RerollOnce(c.unwrap_or(Cmp::Eq), value()),
            Rule::mod_reroll => DiceMod::Reroll(c.unwrap_or(Cmp::Eq), value()),
            Rule::mod_raise => DiceMod::Raise(value()),
            Rule::mod_count => DiceMod::CountSuccesses(c.unwrap_or(Cmp::Eq), value()),
            r => unreachable!("the grammar has no dice modifier {r:?}"),
        }
    }
}
