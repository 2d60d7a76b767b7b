//! Rules put into words for a card: a check's roll, modifiers and outcomes, what rules do, conditions.

use super::{Piece, Words};
use crate::ast::{self, BinOp, CheckDef, CheckLineKind, ExprKind, Span};
use crate::program::{Check, Expr, Program, Value};

/// The source of a ruleset with its syntax tree, to quote expressions as they were written.
pub(super) struct Source<'a> {
    /// The ruleset's text.
    pub text: &'a str,
    /// Its syntax tree.
    pub file: ast::File,
}

impl<'a> Source<'a> {
    /// Parses `text` again for its syntax tree (it has loaded, so it parses).
    pub fn new(text: &'a str) -> Source<'a> {
        Source { text, file: crate::syntax::parse(text).0 }
    }

    /// The text at `span` on one line, runs of white space made single spaces (`""` if out of range).
    pub fn quote(&self, span: Span) -> String {
        let s = self.text.get(span.start..span.end.max(span.start)).unwrap_or("");
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// The check called `name` as written.
    pub fn check(&self, name: &str) -> Option<&CheckDef> {
        self.file.items.iter().find_map(|i| match &i.kind {
            ast::ItemKind::Check(c) if c.name.name == name => Some(c),
            _ => None,
        })
    }

    /// The table called `name` as written.
    pub fn table(&self, name: &str) -> Option<&ast::TableDef> {
        self.file.items.iter().find_map(|i| match &i.kind {
            ast::ItemKind::Table(t) if t.name.name == name => Some(t),
            _ => None,
        })
    }

    /// The ladder called `name` as written.
    pub fn ladder(&self, name: &str) -> Option<&ast::Item> {
        self.file.items.iter().find(|i| matches!(&i.kind, ast::ItemKind::Ladder(l) if l.name.name == name))
    }

    /// Whether `name` is a ladder's.
    pub fn is_ladder(&self, name: &str) -> bool {
        self.ladder(name).is_some()
    }

    /// The doc comment written before the `ruleset` line, if any.
    pub fn title_doc(&self) -> Option<String> {
        let at = self.file.title.as_ref()?.1.start.min(self.text.len());
        let before = self.text.get(..at)?;
        let mut lines: Vec<&str> = before.lines().collect();
        // The `ruleset` keyword's own line comes last; the doc lines are right above it.
        lines.pop();
        let mut doc = vec![];
        while let Some(line) = lines.pop() {
            match line.trim_start().strip_prefix("///") {
                Some(rest) => doc.push(rest.strip_prefix(' ').unwrap_or(rest).trim_end()),
                None => break,
            }
        }
        doc.reverse();
        let doc = doc.join("\n");
        (!doc.trim().is_empty()).then_some(doc)
    }
}

/// The roll, modifiers, target and outcomes of a check in one sentence, such as "Roll 2d6, add
/// Spirit (+spi), against 7: a natural 1: broken; 7 or more: steady; otherwise: shaken".
pub(super) fn check_summary(src: &Source, def: &CheckDef, outcomes: &[String]) -> Words {
    let mut w = Words::default();
    let parts = Parts::of(src, def);
    match &parts.roll {
        Some(dice) => {
            w.text("Roll ");
            w.code(dice);
        }
        None if parts.modifiers.is_empty() => w.text("No dice"),
        None => w.text("No dice: the total is the sum of"),
    }
    let n = parts.modifiers.len();
    if n > MODIFIERS_IN_WORDS {
        w.text(if parts.roll.is_some() {
            ", add the modifiers listed below"
        } else {
            " the modifiers listed below"
        });
        w.text(&format!(" ({n})"));
    } else {
        for (i, (label, amount)) in parts.modifiers.iter().enumerate() {
            w.text(match (i, parts.roll.is_some()) {
                (0, true) => ", add ",
                (0, false) => " ",
                _ => ", ",
            });
            w.text(label);
            w.text(" (");
            w.code(amount);
            w.text(")");
        }
    }
    if let Some(t) = &parts.target {
        w.text(", against ");
        match t.kind {
            ExprKind::Int(n) => w.text(&n.to_string()),
            _ => w.code(&src.quote(t.span)),
        };
    }
    let written: Vec<&ast::OutcomeDef> = def
        .lines
        .iter()
        .filter_map(|l| match &l.kind {
            CheckLineKind::Outcome(o) => Some(o),
            _ => None,
        })
        .collect();
    if let [only] = written.as_slice()
        && only.when.is_none()
    {
        w.text(": always ");
        w.strong(outcomes.first().map_or(only.name.name.as_str(), String::as_str));
        w.text(".");
        return w;
    }
    w.text(": ");
    for (i, o) in def
        .lines
        .iter()
        .filter_map(|l| match &l.kind {
            CheckLineKind::Outcome(o) => Some(o),
            _ => None,
        })
        .enumerate()
    {
        if i > 0 {
            w.text("; ");
        }
        match &o.when {
            Some(cond) => {
                w.extend(condition(src, &parts, cond));
                w.text(" → ");
            }
            None => w.text("otherwise → "),
        }
        w.strong(outcomes.get(i).map_or(o.name.name.as_str(), String::as_str));
    }
    w.text(".");
    reroll_words(src, def, &parts, &written, outcomes, &mut w);
    w
}

/// The sentence a `reroll when …` line adds to a check's words: "On **fails**, roll the whole check
/// again, once (if `spend`)."
fn reroll_words(
    src: &Source,
    def: &CheckDef,
    parts: &Parts,
    written: &[&ast::OutcomeDef],
    outcomes: &[String],
    w: &mut Words,
) {
    let Some(r) = def.lines.iter().find_map(|l| match &l.kind {
        CheckLineKind::Reroll(r) => Some(r),
        _ => None,
    }) else {
        return;
    };
    w.text(" On ");
    for (i, o) in r.outcomes.iter().enumerate() {
        if i > 0 {
            w.text(if i + 1 == r.outcomes.len() { " or " } else { ", " });
        }
        let label = written.iter().position(|x| x.name.name == o.name).and_then(|i| outcomes.get(i));
        w.strong(label.map_or(o.name.as_str(), String::as_str));
    }
    if let Some(cond) = &r.when {
        w.text(", if ");
        w.extend(condition(src, parts, cond));
    }
    w.text(if r.once {
        ", roll the whole check again, once: the second roll stands."
    } else {
        ", roll the whole check again until it lands on another outcome (at most 100 times)."
    });
}

/// Most modifiers spelled out in a check's sentence; more are only listed.
const MODIFIERS_IN_WORDS: usize = 6;

/// The lines of a check that its words are made from.
pub(super) struct Parts {
    /// The dice as written.
    pub roll: Option<String>,
    /// The name of the first die (`as base`), besides `natural`.
    pub natural: Option<String>,
    /// Each modifier's label and its amount as written (`+1 die when comms`).
    pub modifiers: Vec<(String, String)>,
    /// The target.
    pub target: Option<ast::Expr>,
}

impl Parts {
    /// The parts of `def`.
    pub fn of(src: &Source, def: &CheckDef) -> Parts {
        let mut p = Parts { roll: None, natural: None, modifiers: vec![], target: None };
        for line in &def.lines {
            match &line.kind {
                CheckLineKind::Roll { dice, name } => {
                    p.roll = Some(src.quote(dice.span));
                    p.natural = name.as_ref().map(|n| n.name.clone());
                }
                CheckLineKind::Modifier(m) => {
                    let rest = src.quote(Span { start: m.label.1.end, end: line.span.end });
                    let rest = if rest.is_empty() { "+0".to_string() } else { rest };
                    p.modifiers.push((m.label.0.clone(), rest));
                }
                CheckLineKind::Target(t) => p.target = Some(t.clone()),
                _ => {}
            }
        }
        p
    }
}

/// An outcome's condition in words where it has a common shape (`total >= target`, `base == 1`),
/// else as written.
pub(super) fn condition(src: &Source, parts: &Parts, e: &ast::Expr) -> Words {
    let mut w = Words::default();
    let target = parts.target.as_ref().and_then(|t| match t.kind {
        ExprKind::Int(n) => Some(n),
        _ => None,
    });
    if let ExprKind::Binary(op, a, b) = &e.kind {
        match op {
            BinOp::And | BinOp::Or => {
                w.extend(condition(src, parts, a));
                w.text(if *op == BinOp::And { " and " } else { " or " });
                w.extend(condition(src, parts, b));
                return w;
            }
            _ => {}
        }
        let left = name_of(a);
        let right = match (&b.kind, name_of(b)) {
            (ExprKind::Int(n), _) => Some(*n),
            (_, Some("target")) => target,
            _ => None,
        };
        let natural = left.is_some_and(|l| l == "natural" || parts.natural.as_deref() == Some(l));
        if let (Some(left), Some(n)) = (left, right) {
            let shown = match op {
                BinOp::Ge => Some(format!("{n} or more")),
                BinOp::Gt => Some(format!("more than {n}")),
                BinOp::Le => Some(format!("{n} or less")),
                BinOp::Lt => Some(format!("less than {n}")),
                BinOp::Eq => Some(format!("{n}")),
                _ => None,
            };
            if let Some(shown) = shown {
                if natural {
                    w.text(&format!("a natural {shown}"));
                    return w;
                }
                if left == "total" {
                    w.text(&shown);
                    return w;
                }
                if left == "margin" && target.is_some() {
                    w.text(&format!("margin {shown}"));
                    return w;
                }
            }
        }
        if left == Some("total") && name_of(b) == Some("target") {
            let shown = match op {
                BinOp::Ge => Some("the total reaches the target"),
                BinOp::Gt => Some("the total beats the target"),
                BinOp::Lt => Some("the total falls short of the target"),
                _ => None,
            };
            if let Some(shown) = shown {
                w.text(shown);
                return w;
            }
        }
    }
    w.code(&src.quote(e.span));
    w
}

fn name_of(e: &ast::Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Name(n) => Some(n.name.as_str()),
        _ => None,
    }
}

/// The value of a `set … to VALUE` statement as written.
pub(super) fn set_value(src: &Source, span: Span) -> String {
    let q = src.quote(span);
    match q.split_once(" to ") {
        Some((_, value)) if q.starts_with("set ") => {
            let value = ["until end of turn", "until end of round", "for next round"]
                .iter()
                .find_map(|d| value.strip_suffix(d))
                .unwrap_or(value);
            value.trim_end().to_string()
        }
        _ => q,
    }
}

/// A type as the card shows it: a ladder by its name, other types as written.
pub(super) fn type_name(p: &Program, src: &Source, ty: &crate::program::Ty) -> String {
    if let crate::program::Ty::Name(set) = ty
        && let Some(ns) = p.sets.get(*set as usize)
        && src.is_ladder(&ns.name)
    {
        return ns.name.clone();
    }
    crate::export::type_name(p, ty)
}

/// `kind.attribute` for attribute `field` of kind `kind`.
pub(super) fn field_name(p: &Program, kind: u32, field: u32) -> String {
    match p.kinds.get(kind as usize) {
        Some(k) => format!("{}.{}", k.name, k.fields.get(field as usize).map_or("?", |f| f.name.as_str())),
        None => "?".into(),
    }
}

/// A constant value as written, if `e` is one.
pub(super) fn constant(p: &Program, e: &Expr) -> Option<String> {
    match e {
        Expr::Const(v) => Some(value(p, v)),
        Expr::Neg(inner) => match &**inner {
            Expr::Const(Value::Int(i)) => Some((-i).to_string()),
            _ => None,
        },
        _ => None,
    }
}

/// A plain value as written in a ruleset.
pub(super) fn value(p: &Program, v: &Value) -> String {
    crate::export::value_name(p, v)
}

/// The names of a check's outcomes, in the order they are tried.
pub(super) fn outcome_names(p: &Program, c: &Check) -> Vec<String> {
    let names = p.sets.get(c.outcome_set as usize).map(|s| s.names.as_slice()).unwrap_or(&[]);
    c.outcomes.iter().map(|o| names.get(o.index as usize).cloned().unwrap_or_default()).collect()
}

impl Words {
    /// Appends plain text.
    pub fn text(&mut self, s: &str) {
        match self.0.last_mut() {
            Some(Piece::Text(t)) => t.push_str(s),
            _ => self.0.push(Piece::Text(s.to_string())),
        }
    }
    /// Appends text as written in the ruleset.
    pub fn code(&mut self, s: &str) {
        self.0.push(Piece::Code(s.to_string()));
    }
    /// Appends a name to stand out.
    pub fn strong(&mut self, s: &str) {
        self.0.push(Piece::Strong(s.to_string()));
    }
    /// Appends other words.
    pub fn extend(&mut self, other: Words) {
        for p in other.0 {
            match p {
                Piece::Text(t) => self.text(&t),
                p => self.0.push(p),
            }
        }
    }
    /// The words without marks, as plain text.
    pub fn plain(&self) -> String {
        self.0
            .iter()
            .map(|p| match p {
                Piece::Text(s) | Piece::Code(s) | Piece::Strong(s) => s.as_str(),
            })
            .collect()
    }
}

/// A block of a doc comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// A paragraph, its lines run together.
    Para(String),
    /// A list: lines starting with `- `, each with the lines under it.
    List(Vec<String>),
    /// A table written as in Markdown (`| a | b |`): its rows of cells, the heading row first.
    Table(Vec<Vec<String>>),
}

/// A doc comment as paragraphs, lists and tables: lines starting with `- ` are list items (the lines
/// after one continue it), lines starting with `|` are the rows of a table as Markdown writes them
/// (a row not yet closed by `|` goes on over the lines after it; a row of dashes under the heading
/// row is left out), the other lines run together; a blank line ends a paragraph, list or table.
pub fn doc_blocks(doc: &str) -> Vec<Block> {
    let mut out: Vec<Block> = vec![];
    let mut open = false;
    // A table row begun and not yet closed.
    let mut row: Option<String> = None;
    for line in doc.lines() {
        let line = line.trim();
        if let Some(r) = row.as_mut() {
            if !line.is_empty() {
                r.push(' ');
                r.push_str(line);
            }
            if line.is_empty() || closed(r, &out, open) {
                let r = row.take().unwrap_or_default();
                table_row(&mut out, &r, open);
                open = !line.is_empty();
            }
            continue;
        }
        if line.is_empty() {
            open = false;
            continue;
        }
        if line.starts_with('|') {
            if closed(line, &out, open) {
                table_row(&mut out, line, open);
                open = true;
            } else {
                row = Some(line.to_string());
            }
            continue;
        }
        if let Some(item) = line.strip_prefix("- ") {
            match out.last_mut() {
                Some(Block::List(items)) if open => items.push(item.to_string()),
                _ => out.push(Block::List(vec![item.to_string()])),
            }
        } else {
            match out.last_mut() {
                Some(Block::List(items)) if open => {
                    if let Some(last) = items.last_mut() {
                        last.push(' ');
                        last.push_str(line);
                    }
                }
                Some(Block::Para(p)) if open => {
                    p.push(' ');
                    p.push_str(line);
                }
                _ => out.push(Block::Para(line.to_string())),
            }
        }
        open = true;
    }
    if let Some(r) = row {
        table_row(&mut out, &r, open);
    }
    out
}

/// Whether the table row written so far as `row` is whole: it ends with `|`, and after the heading
/// row it has as many cells as the heading (so a row may break its line after a cell).
fn closed(row: &str, out: &[Block], open: bool) -> bool {
    let width = match out.last() {
        Some(Block::Table(rows)) if open => rows.first().map_or(0, Vec::len),
        _ => 0,
    };
    row.len() > 1 && row.ends_with('|') && row.matches('|').count() > width
}

/// Adds the table row written `line` (`| a | b |`) to the table `out` ends with, if `open`, or to a
/// new one; a row of dashes (`|---|:--:|`) is left out.
fn table_row(out: &mut Vec<Block>, line: &str, open: bool) {
    let inner = line.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let cells: Vec<String> = inner.split('|').map(|c| c.trim().to_string()).collect();
    if cells.iter().all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':'))) {
        return;
    }
    match out.last_mut() {
        Some(Block::Table(rows)) if open => rows.push(cells),
        _ => out.push(Block::Table(vec![cells])),
    }
}

/// Text of a doc comment as words: what is between backticks is quoted as written, when the
/// backticks pair up.
pub fn doc_words(s: &str) -> Words {
    let mut w = Words::default();
    let parts: Vec<&str> = s.split('`').collect();
    if parts.len().is_multiple_of(2) {
        w.text(s);
        return w;
    }
    for (i, part) in parts.iter().enumerate() {
        if !i.is_multiple_of(2) && !part.is_empty() {
            w.code(part);
        } else {
            w.text(part);
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(doc: &str) -> Vec<Vec<String>> {
        match doc_blocks(doc).as_slice() {
            [Block::Table(rows)] => rows.clone(),
            other => panic!("one table: {other:?}"),
        }
    }

    #[test]
    fn a_doc_table_s_rows_may_go_on_over_lines() {
        // A row breaks its line anywhere, even after a cell: it is whole with the heading's cells.
        let rows = table("| a | b | c |\n|---|:-:|--|\n| 1 | one,\n  and more | x |\n| 2 | two |\n  y |");
        assert_eq!(rows, [vec!["a", "b", "c"], vec!["1", "one, and more", "x"], vec!["2", "two", "y"]]);
    }

    #[test]
    fn a_doc_table_ends_at_a_blank_line_or_text() {
        let blocks = doc_blocks("| a |\n| 1 |\nafter\n\n| b |\n| 2");
        assert_eq!(
            blocks,
            [
                Block::Table(vec![vec!["a".into()], vec!["1".into()]]),
                Block::Para("after".into()),
                Block::Table(vec![vec!["b".into()], vec!["2".into()]]),
            ]
        );
    }
}
