//! pest pairs to statements: effects in triggers and outcomes, and scenario steps.

use super::build::{Builder, Kids, Levels};
use super::parse::Rule;
use crate::ast::*;
use pest::iterators::Pair;

impl Builder {
    /// A `block` pair: its statements. Counts as one level of nesting.
    pub(super) fn block(&self, pair: Pair<'_, Rule>) -> Vec<Stmt> {
        let span = self.span(&pair);
        if !self.enter(Levels::ONE, span) {
            return Vec::new();
        }
        let stmts = Kids::of(pair).all(Rule::stmt).map(|s| self.stmt(s)).collect();
        self.leave(Levels::ONE);
        stmts
    }

    /// A `stmt` pair.
    pub(super) fn stmt(&self, pair: Pair<'_, Rule>) -> Stmt {
        let inner = Kids::of(pair).first();
        let span = self.span(&inner);
        let rule = inner.as_rule();
        let k = Kids::of(inner.clone());
        let kind = match rule {
            Rule::set_stmt => StmtKind::Set {
                place: self.expr(k.nth(Rule::expr, 0)),
                value: self.expr(k.nth(Rule::expr, 1)),
                until: k.find(Rule::duration).map(|d| self.duration(d)),
            },
            Rule::add_stmt => StmtKind::Add {
                amount: self.expr(k.nth(Rule::expr, 0)),
                place: self.expr(k.nth(Rule::expr, 1)),
            },
            Rule::remove_stmt => StmtKind::Remove {
                amount: self.expr(k.nth(Rule::expr, 0)),
                place: self.expr(k.nth(Rule::expr, 1)),
            },
            Rule::let_stmt => StmtKind::Let(self.ident(k.get(Rule::ident)), self.expr(k.get(Rule::expr))),
            Rule::var_stmt => StmtKind::Var(self.ident(k.get(Rule::ident)), self.expr(k.get(Rule::expr))),
            Rule::roll_stmt => StmtKind::Roll {
                check: self.ident(k.get(Rule::ident)),
                subject: k.after(Rule::kw_for).map(|e| self.expr(e)),
                args: k.find(Rule::arg_list).map(|a| self.named_args(a)).unwrap_or_default(),
            },
            Rule::if_stmt => self.if_stmt(inner),
            Rule::for_stmt => StmtKind::ForEach {
                kind: self.ident(k.nth(Rule::ident, 0)),
                var: self.ident(k.nth(Rule::ident, 1)),
                filter: k.after(Rule::kw_where).map(|e| self.expr(e)),
                body: self.block(k.get(Rule::block)),
            },
            Rule::trigger_stmt => {
                StmtKind::Trigger { event: self.ident(k.get(Rule::ident)), args: self.named_args(inner) }
            }
            Rule::choose_stmt => StmtKind::Choose(self.choose(&k)),
            Rule::end_stmt => StmtKind::EndGame {
                result: self.ident(k.get(Rule::ident)),
                winner: k.after(Rule::kw_for).map(|e| self.expr(e)),
            },
            Rule::note_stmt => StmtKind::Note(self.string(k.get(Rule::string)).0),
            Rule::repeat_stmt => {
                StmtKind::Repeat { body: self.block(k.get(Rule::block)), until: self.expr(k.get(Rule::expr)) }
            }
            Rule::new_stmt => StmtKind::New {
                kind: self.ident(k.nth(Rule::ident, 0)),
                name: self.ident(k.nth(Rule::ident, 1)),
                with: k.find(Rule::arg_list).map(|a| self.named_args(a)).unwrap_or_default(),
            },
            Rule::dice_stmt => {
                StmtKind::Dice(k.all(Rule::signed_int).map(|n| (self.int(&n), self.span(&n))).collect())
            }
            Rule::option_stmt => StmtKind::SetOption {
                option: self.ident(k.get(Rule::ident)),
                value: self.expr(k.get(Rule::expr)),
            },
            Rule::answer_stmt => StmtKind::Answer {
                choice: self.ident(k.get(Rule::ident)),
                value: self.expr(k.get(Rule::expr)),
            },
            Rule::expect_stmt if k.find(Rule::expect_no_dice).is_some() => StmtKind::ExpectNoDice {
                message: k
                    .find(Rule::expect_no_dice)
                    .and_then(|e| Kids::of(e).find(Rule::string))
                    .map(|s| self.string(s).0),
            },
            Rule::expect_stmt => match k.find(Rule::expect_order) {
                Some(o) => {
                    let k = Kids::of(o);
                    let mut strings = k.all(Rule::string).map(|s| self.string(s).0);
                    StmtKind::ExpectOrder {
                        text: strings.next().unwrap_or_default(),
                        message: strings.next(),
                        absent: k.find(Rule::kw_not).is_some(),
                    }
                }
                None => StmtKind::Expect {
                    cond: self.expr(k.get(Rule::expr)),
                    message: k.find(Rule::string).map(|s| self.string(s).0),
                },
            },
            Rule::order_stmt => {
                let (text, at) = self.string(k.get(Rule::string));
                StmtKind::Order(text, at)
            }
            Rule::follow_stmt => {
                let call = Kids::of(k.get(Rule::call));
                let name = self.ident(call.get(Rule::ident));
                StmtKind::Follow(name, call.all(Rule::arg).map(|a| self.arg(a)).collect())
            }
            Rule::chance_stmt => {
                let nums: Vec<_> = k.all(Rule::signed_int).collect();
                let num = |i: usize| (self.int(&nums[i]), self.span(&nums[i]));
                StmtKind::Chance {
                    chance: num(0),
                    sides: num(1),
                    head: Span::new(span.start, self.span(&nums[1]).end),
                    then: self.block(k.nth(Rule::block, 0)),
                    otherwise: k.after(Rule::kw_otherwise).map(|b| self.block(b)).unwrap_or_default(),
                }
            }
            Rule::record_stmt => StmtKind::Record {
                label: self.string(k.get(Rule::string)),
                value: self.expr(k.get(Rule::expr)),
            },
            Rule::report_stmt => StmtKind::Report(self.report_items(k.get(Rule::report_items))),
            r => unreachable!("the grammar has no statement {r:?}"),
        };
        Stmt { span, kind }
    }

    /// The values of a `report` line, or of `--report` on the command line.
    pub(crate) fn report_items(&self, pair: Pair<'_, Rule>) -> Vec<Expr> {
        pair.into_inner().filter(|p| p.as_rule() == Rule::expr).map(|e| self.expr(e)).collect()
    }

    /// An `if_stmt`; an `else if` becomes a nested `If` (one level deeper).
    fn if_stmt(&self, pair: Pair<'_, Rule>) -> StmtKind {
        let k = Kids::of(pair);
        let cond = self.expr(k.get(Rule::expr));
        let then = self.block(k.nth(Rule::block, 0));
        let otherwise = match k.after(Rule::kw_else) {
            Some(p) if p.as_rule() == Rule::if_stmt => {
                let else_span = self.span(&p);
                if self.enter(Levels::ONE, else_span) {
                    let nested = Stmt { span: else_span, kind: self.if_stmt(p) };
                    self.leave(Levels::ONE);
                    vec![nested]
                } else {
                    Vec::new()
                }
            }
            Some(p) => self.block(p),
            None => Vec::new(),
        };
        StmtKind::If { cond, then, otherwise }
    }

    /// `until end of turn`, `until end of round`, `for next round`, `until EVENT [for EXPR]`.
    fn duration(&self, pair: Pair<'_, Rule>) -> (Duration, Span) {
        let span = self.span(&pair);
        let k = Kids::of(pair);
        let d = if let Some(event) = k.find(Rule::ident) {
            Duration::Event {
                event: self.ident(event),
                fact: k.after(Rule::kw_for).map(|e| Box::new(self.expr(e))),
            }
        } else if k.has(Rule::kw_next) {
            Duration::NextRound
        } else if k.has(Rule::kw_turn) {
            Duration::EndOfTurn
        } else {
            Duration::EndOfRound
        };
        (d, span)
    }

    /// The `named_arg` children of a pair (an `arg_list` or a `trigger_stmt`).
    fn named_args(&self, pair: Pair<'_, Rule>) -> Vec<(Ident, Expr)> {
        Kids::of(pair)
            .all(Rule::named_arg)
            .map(|a| {
                let k = Kids::of(a);
                (self.ident(k.get(Rule::ident)), self.expr(k.get(Rule::expr)))
            })
            .collect()
    }

    fn choose(&self, k: &Kids<'_>) -> ChooseDef {
        let options = Kids::of(k.get(Rule::choice_options)).first();
        let options = match options.as_rule() {
            Rule::choice_entities => {
                let o = Kids::of(options);
                ChoiceOptions::Entities {
                    kind: self.ident(o.nth(Rule::ident, 0)),
                    var: self.ident(o.nth(Rule::ident, 1)),
                    filter: o.after(Rule::kw_where).map(|e| self.expr(e)),
                }
            }
            Rule::choice_range => ChoiceOptions::Range(self.type_expr(options)),
            Rule::choice_names => ChoiceOptions::Names(
                Kids::of(options)
                    .all(Rule::choice_name)
                    .map(|n| Ident { name: n.as_str().to_string(), span: self.span(&n) })
                    .collect(),
            ),
            r => unreachable!("the grammar has no choice options {r:?}"),
        };
        ChooseDef {
            name: self.ident(k.get(Rule::ident)),
            question: self.string(k.get(Rule::string)),
            options,
            default: k.after(Rule::kw_default).map(|e| self.expr(e)),
        }
    }
}
