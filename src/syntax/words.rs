//! Every word of the language in one table: whether it is reserved (it can never name anything) and
//! where it starts or appears. The parser's grammar (`grammar/mettle.pest`) spells the words; a test
//! below holds this table to it, and the errors' suggestions, the REPL's completion and highlighting
//! and the language server all read this table instead of keeping lists of their own.

/// Where a word has a meaning of its own, as bits of [`Word::roles`].
pub mod role {
    /// It starts a top-level item (`kind`, `check`, `scenario`…).
    pub const ITEM: u8 = 1;
    /// It starts a statement in a rule body or a scenario (`set`, `roll`, `trigger`…).
    pub const STMT: u8 = 2;
    /// It starts a line of a check (`input`, `roll`, `outcome`…).
    pub const CHECK: u8 = 4;
    /// It goes inside an expression (`and`, `is`, `none`, `each`…).
    pub const EXPR: u8 = 8;
    /// It only joins the parts of a line (`to`, `as`, `until`, `die`…).
    pub const PART: u8 = 16;
    /// It names a type of value (`flag`, `int`, `list of`…).
    pub const TYPE: u8 = 32;
}

/// One word of the language.
#[derive(Debug, Clone, Copy)]
pub struct Word {
    /// The word as written.
    pub text: &'static str,
    /// Whether it can never be a name. The others are words only where the grammar expects them, and
    /// still name things elsewhere (`roll`, `max`, `turn`).
    pub reserved: bool,
    /// Where it means something: [`role`] bits.
    pub roles: u8,
}

const fn w(text: &'static str, reserved: bool, roles: u8) -> Word {
    Word { text, reserved, roles }
}

use role::{CHECK, EXPR, ITEM, PART, STMT, TYPE};

/// The words, reserved ones first, each once.
pub const WORDS: &[Word] = &[
    w("ruleset", true, ITEM),
    w("kind", true, ITEM),
    w("ladder", true, ITEM),
    w("event", true, ITEM),
    w("define", true, ITEM),
    w("table", true, ITEM),
    w("check", true, ITEM),
    w("on", true, ITEM),
    w("result", true, ITEM),
    w("scenario", true, ITEM),
    w("script", true, ITEM),
    w("let", true, STMT | CHECK),
    w("otherwise", true, CHECK | PART),
    w("when", true, PART),
    w("for", true, STMT | PART),
    w("where", true, EXPR | PART),
    w("with", true, STMT | PART),
    w("set", true, STMT),
    w("to", true, PART),
    w("add", true, STMT),
    w("remove", true, STMT),
    w("from", true, PART),
    w("if", true, STMT | EXPR),
    w("then", true, PART),
    w("else", true, EXPR | PART),
    w("trigger", true, STMT),
    w("choose", true, STMT),
    w("default", true, PART),
    w("end", true, STMT | PART),
    w("note", true, STMT),
    w("repeat", true, STMT),
    w("until", true, PART),
    w("new", true, STMT),
    w("answer", true, STMT),
    w("expect", true, STMT),
    w("and", true, EXPR),
    w("or", true, EXPR),
    w("not", true, EXPR),
    w("is", true, EXPR),
    w("yes", true, EXPR),
    w("none", true, EXPR),
    w("no", true, EXPR),
    w("last", true, EXPR),
    w("strict", true, PART),
    w("input", false, CHECK),
    w("roll", false, STMT | CHECK),
    w("modifier", false, CHECK),
    w("target", false, CHECK),
    w("outcome", false, CHECK),
    w("group", false, CHECK),
    w("reroll", false, CHECK),
    w("once", false, PART),
    w("var", false, STMT),
    w("dice", false, STMT | PART),
    w("die", false, PART),
    w("record", false, STMT),
    w("report", false, STMT),
    w("follow", false, STMT),
    w("option", false, ITEM | STMT),
    w("shape", false, ITEM),
    w("each", false, EXPR | PART),
    w("game", false, EXPR | PART),
    w("number", false, EXPR),
    w("of", false, PART),
    w("as", false, PART),
    w("max", false, PART),
    w("turn", false, PART),
    w("round", false, PART),
    w("next", false, PART),
    w("chance", false, PART),
    w("waiting", false, PART),
    w("order", false, STMT | PART),
    w("reaction", false, ITEM),
    w("nearest", false, EXPR),
    w("first", false, EXPR),
    w("in", false, PART),
    w("by", false, PART),
    w("flag", false, TYPE),
    w("int", false, TYPE),
    w("data", false, TYPE),
    w("list", false, TYPE),
    w("text", false, TYPE),
];

/// The reserved words.
pub fn reserved() -> impl Iterator<Item = &'static str> {
    WORDS.iter().filter(|w| w.reserved).map(|w| w.text)
}

/// Whether `word` is reserved: it cannot name anything.
pub fn is_reserved(word: &str) -> bool {
    WORDS.iter().any(|w| w.reserved && w.text == word)
}

/// The words that are not reserved: words only where the grammar expects them.
pub fn contextual() -> impl Iterator<Item = &'static str> {
    WORDS.iter().filter(|w| !w.reserved).map(|w| w.text)
}

/// The words with any of the `roles` bits.
pub fn with_role(roles: u8) -> impl Iterator<Item = &'static str> {
    WORDS.iter().filter(move |w| w.roles & roles != 0).map(|w| w.text)
}

/// Whether `word` is one of the language's words with any of the `roles` bits.
pub fn has_role(word: &str, roles: u8) -> bool {
    WORDS.iter().any(|w| w.roles & roles != 0 && w.text == word)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    const GRAMMAR: &str = include_str!("../../grammar/mettle.pest");

    /// The body of the grammar rule `name`, from its `{` to the matching `}`.
    fn rule(name: &str) -> &'static str {
        let at = GRAMMAR.find(&format!("\n{name} ")).unwrap_or_else(|| panic!("rule {name}"));
        let body = &GRAMMAR[at..];
        let open = body.find('{').expect("a rule body");
        let mut depth = 0;
        for (i, c) in body[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        return &body[open + 1..open + i];
                    }
                }
                _ => {}
            }
        }
        panic!("rule {name} is not closed")
    }

    /// The word the rule `name` starts with, following the first rule it names.
    fn first_word(name: &str) -> String {
        let body = rule(name).trim_start();
        let body = body.strip_prefix("doc? ~").unwrap_or(body).trim_start();
        if let Some(lit) = body.strip_prefix('"') {
            return lit[..lit.find('"').unwrap()].to_string();
        }
        let first: String = body.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        first_word(&first)
    }

    /// The rules named as alternatives in the rule `name`.
    fn alternatives(name: &str) -> Vec<String> {
        let body = rule(name);
        let body = body.trim_start().strip_prefix("doc? ~").unwrap_or(body).trim();
        let body = body.trim_start_matches('(').trim_end_matches(')');
        body.split('|').map(|a| a.trim().to_string()).collect()
    }

    fn table(roles: u8) -> BTreeSet<String> {
        with_role(roles).map(String::from).collect()
    }

    #[test]
    fn the_reserved_words_are_the_grammars_keyword_rule() {
        let words: BTreeSet<String> =
            rule("keyword").split('"').skip(1).step_by(2).map(String::from).collect();
        assert_eq!(reserved().map(String::from).collect::<BTreeSet<_>>(), words);
    }

    #[test]
    fn every_word_the_grammar_spells_is_in_the_table_once() {
        let mut spelled: BTreeSet<String> = GRAMMAR
            .lines()
            .filter(|l| l.starts_with("kw_"))
            .filter_map(|l| l.split('"').nth(1).map(String::from))
            .collect();
        spelled.extend(reserved().map(String::from));
        let listed: Vec<&str> = WORDS.iter().map(|w| w.text).collect();
        assert_eq!(listed.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>(), spelled);
        assert_eq!(listed.len(), spelled.len(), "a word is listed twice");
        assert!(WORDS.iter().all(|w| w.roles != 0), "every word has a role");
    }

    #[test]
    fn the_starting_roles_are_the_grammars() {
        let starts =
            |rule: &str| -> BTreeSet<String> { alternatives(rule).iter().map(|a| first_word(a)).collect() };
        let mut items = starts("item");
        items.insert("ruleset".into());
        assert_eq!(table(ITEM), items, "top-level items");
        assert_eq!(table(STMT), starts("stmt"), "statements");
        assert_eq!(table(CHECK), starts("check_line"), "check lines");
    }
}
