//! Sweeps: one odds report for each combination of values of a check's inputs, of the attributes of
//! the stand-in who makes it, or of house-rule options (`spi=0..6`, `unit.leadership`, option
//! `leadership_die`), and the stand-in a check made by someone is asked for.

use super::Report;
use crate::diagnostics::{Diagnostic, suggest};
use crate::program::Ty;
use crate::{Ruleset, Session, Value};

/// Most rows a sweep may have.
pub const MAX_ROWS: usize = 10_000;

/// One input, attribute or option run through values.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    /// The name swept: an input, an option, or `KIND.ATTRIBUTE` for the stand-in's attribute.
    pub name: String,
    /// Its values, in order.
    pub values: Vec<Value>,
    /// How the sweep is described: `spi 0..6`, `option leadership_die`.
    pub label: String,
    /// What it changes.
    pub target: Swept,
}

/// What a sweep changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Swept {
    /// An input of the check.
    Input,
    /// A house-rule option.
    Option,
    /// This attribute of the stand-in who makes the check.
    Attribute(String),
}

/// One combination of a sweep's values and its report.
#[derive(Debug, Clone)]
pub struct Row {
    /// The values swept, by name, in the sweeps' order.
    pub set: Vec<(String, Value)>,
    /// The report.
    pub report: Report,
}

fn bad(message: String) -> Diagnostic {
    Diagnostic::plain("odds::bad_sweep", message)
}

/// Reads the sweeps of check `check`: `specs` each an input, a stand-in's attribute (`unit.spi`) or an
/// option, with a range for a number (`spi=0..6`, or bare for a short declared range); `options` are
/// house-rule options only. Errors are coded `mettle::odds::bad_sweep`.
///
/// ```
/// use mettle::Ruleset;
/// let rules = Ruleset::from_str("s.mettle", "check c { input spi: 0..6  roll d6  modifier \"Spirit\" +spi  outcome pass when total >= 7  otherwise fail }").unwrap();
/// let sweeps = mettle::odds::sweeps(&rules, "c", &["spi=2..4"], &[]).unwrap();
/// assert_eq!((sweeps[0].values.len(), sweeps[0].label.as_str()), (3, "spi 2..4"));
/// assert_eq!(mettle::odds::sweeps(&rules, "c", &["sip"], &[]).unwrap_err().code, "mettle::odds::bad_sweep");
/// ```
pub fn sweeps(
    rules: &Ruleset,
    check: &str,
    specs: &[&str],
    options: &[&str],
) -> Result<Vec<Sweep>, Diagnostic> {
    let p = rules.program();
    let Some(decl) = p.checks.iter().find(|c| c.name == check) else {
        let names: Vec<&str> = p.checks.iter().map(|c| c.name.as_str()).collect();
        return Err(Diagnostic::plain("odds::unknown_check", format!("there is no check called `{check}`"))
            .with_help(suggest(check, "check", &names)));
    };
    let mut out: Vec<Sweep> = vec![];
    let mut rows = 1usize;
    let too_many = || bad(format!("the sweeps make more than {MAX_ROWS} rows; narrow a range"));
    let all = specs.iter().map(|s| (*s, false)).chain(options.iter().map(|s| (*s, true)));
    for (spec, only_option) in all {
        let (name, range) = match spec.split_once('=') {
            Some((n, r)) => (n.trim(), Some(r)),
            None => (spec.trim(), None),
        };
        // What is swept: a stand-in's attribute (`unit.leadership`), an input, or a house-rule option.
        let (what, ty, target) = if let Some((who, attr)) = name.split_once('.') {
            let Some(kind) = decl.subject.map(|k| &p.kinds[k as usize]) else {
                return Err(bad(format!(
                    "check `{check}` is not made by anyone, so the sweep `{spec}` has no stand-in to change"
                )));
            };
            if who != kind.name {
                return Err(bad(format!(
                    "check `{check}` is made by a {0}: sweep its attributes as `{0}.{attr}`",
                    kind.name
                )));
            }
            let Some(f) = kind.fields.iter().find(|f| f.name == attr) else {
                let names: Vec<&str> = kind.fields.iter().map(|f| f.name.as_str()).collect();
                return Err(bad(format!(
                    "a {} has no attribute `{attr}`; {}",
                    kind.name,
                    suggest(attr, "attribute", &names)
                )));
            };
            (format!("attribute `{name}`"), f.ty.clone(), Swept::Attribute(attr.to_string()))
        } else if let Some(input) = decl.inputs.iter().find(|i| i.field.name == name && !only_option) {
            (format!("input `{name}`"), input.field.ty.clone(), Swept::Input)
        } else if let Some(o) = p.options.iter().find(|o| o.name == name) {
            (format!("option `{name}`"), o.ty.clone(), Swept::Option)
        } else {
            let mut names: Vec<&str> = p.options.iter().map(|o| o.name.as_str()).collect();
            if only_option {
                return Err(bad(format!(
                    "there is no option called `{name}` to sweep; {}",
                    suggest(name, "option", &names)
                )));
            }
            names.extend(decl.inputs.iter().map(|i| i.field.name.as_str()));
            return Err(bad(format!(
                "check `{check}` has no input or option `{name}`; {}",
                suggest(name, "input", &names)
            )));
        };
        let values: Vec<Value> = match (&ty, range) {
            (Ty::Flag, None) => vec![Value::Bool(false), Value::Bool(true)],
            (Ty::Name(set), None) => (0..p.sets[*set as usize].names.len() as u32)
                .map(|index| Value::Name { set: *set, index })
                .collect(),
            (Ty::Int { lo: Some(lo), hi: Some(hi) }, None) if hi - lo < 100 => {
                (*lo..=*hi).map(Value::Int).collect()
            }
            (Ty::Int { .. }, None) => {
                return Err(bad(format!(
                    "{what} is a whole number without a short range: give one, e.g. `{name}=0..6`"
                )));
            }
            (Ty::Int { lo: min, hi: max }, Some(range)) => {
                let form = || bad(format!("the sweep `{spec}` needs the form NAME=LO..HI, e.g. `spi=0..6`"));
                let (lo, hi) = range.split_once("..").ok_or_else(form)?;
                let (lo, hi): (i64, i64) = match (lo.trim().parse(), hi.trim().parse()) {
                    (Ok(lo), Ok(hi)) => (lo, hi),
                    _ => return Err(form()),
                };
                if lo > hi {
                    return Err(bad(format!(
                        "the sweep `{spec}` goes from {lo} down to {hi}; write the lower end first"
                    )));
                }
                if min.is_some_and(|m| lo < m) || max.is_some_and(|m| hi > m) {
                    return Err(bad(format!(
                        "the sweep `{spec}` leaves the range of {what}, which is {}",
                        crate::check::range_words(*min, *max)
                    )));
                }
                // Counted in 128 bits: `i64::MIN..i64::MAX` has more values than an i64 can count.
                let count = usize::try_from(i128::from(hi) - i128::from(lo) + 1).unwrap_or(usize::MAX);
                if rows.saturating_mul(count) > MAX_ROWS {
                    return Err(too_many());
                }
                (lo..=hi).map(Value::Int).collect()
            }
            (Ty::Flag | Ty::Name(_), Some(_)) => {
                return Err(bad(format!(
                    "{what} is yes/no or a name: sweep every value with `{name}`, without a range"
                )));
            }
            _ => return Err(bad(format!("{what} cannot be swept: only numbers, yes/no and names can"))),
        };
        if out.iter().any(|s| s.name == name) {
            return Err(bad(format!("{what} is swept twice")));
        }
        rows = rows.saturating_mul(values.len());
        if rows > MAX_ROWS {
            return Err(too_many());
        }
        let label = match (&target, range) {
            (Swept::Option, _) => format!("option {name}"),
            (_, Some(range)) => format!("{name} {}", range.trim()),
            (_, None) => name.to_string(),
        };
        out.push(Sweep { name: name.to_string(), values, label, target });
    }
    Ok(out)
}

/// For check `check` made by someone, a stand-in of that kind with attributes `with` (the others at
/// their defaults; an attribute naming another entity gets a stand-in of its own): its id and who it
/// is in words. `None` for a check made by no one. An attribute without a default must be given
/// (`mettle::odds::missing_value`), and `with` for a check made by no one is `mettle::odds::no_subject`.
///
/// ```
/// use mettle::{Ruleset, Session, Value};
/// let rules = Ruleset::from_str("s.mettle", "kind unit { spi: 0..6 = 3 }\ncheck morale for unit { roll d6  outcome pass when total + unit.spi >= 7  otherwise fail }").unwrap();
/// let mut s = Session::new(&rules, 1);
/// let (id, who) = mettle::odds::stand_in(&mut s, "morale", &[("spi".into(), Value::Int(2))]).unwrap().unwrap();
/// assert_eq!(who, "a stand-in unit with spi = 2, its other attributes at their defaults");
/// let report = mettle::odds::ask(&mut s, "morale", Some(id), &[], 1).unwrap();
/// assert_eq!(mettle::wire::odds(&report).outcomes[0].exact.as_deref(), Some("1/3")); // 5 or 6
/// ```
pub fn stand_in(
    session: &mut Session,
    check: &str,
    with: &[(String, Value)],
) -> Result<Option<(u32, String)>, Diagnostic> {
    make_stand_in(session, check, with, None)
}

/// The first attribute check `decl` reads from its maker (of kind `kind`), directly or through an
/// attribute naming another entity (`group.opponent.mp`), that has no default and is not in `with`:
/// the error, which says where the check reads it.
fn missing_read(
    rules: &crate::Ruleset,
    decl: &crate::program::Check,
    kind: &crate::program::Kind,
    with: &[(String, Value)],
) -> Option<Diagnostic> {
    let p = rules.program();
    let file = crate::syntax::parse(rules.text()).0;
    let def = file.items.iter().find_map(|i| match &i.kind {
        crate::ast::ItemKind::Check(c) if c.name.name == decl.name => Some(c),
        _ => None,
    })?;
    for (path, span) in super::reads::maker_reads(def, &kind.name) {
        // Follow the path through the kinds: `opponent` is a group, its `mp` a number.
        let mut k = kind;
        let mut field = None;
        for (i, name) in path.iter().enumerate() {
            let f = k.fields.iter().find(|f| f.name == *name)?;
            field = Some(f);
            if i + 1 < path.len() {
                let Ty::Entity(next) = f.ty else { return None };
                k = p.kinds.get(next as usize)?;
            }
        }
        let f = field?;
        let given = path.join(".");
        if f.default.is_some()
            || matches!(f.ty, Ty::Entity(_) | Ty::Data | Ty::Text)
            || with.iter().any(|(n, _)| *n == given)
        {
            continue;
        }
        let line = rules.text().get(..span.start).map_or(1, |t| t.matches('\n').count() + 1);
        let read = format!("{}.{given}", kind.name);
        return Some(
            Diagnostic::error(
                "odds::missing_value",
                format!(
                    "the stand-in {} who makes check `{}` needs a value for `{given}`, which has no default: the check reads `{read}` (line {line})",
                    kind.name, decl.name
                ),
                span,
                "read here",
            )
            .with_help(format!(
                "give `{given}` among the stand-in's attributes (on the command line, `--with {given}=…`)"
            )),
        );
    }
    None
}

/// [`stand_in`], called after its kind, or `KIND_row_N` for row `row` of a sweep.
fn make_stand_in(
    session: &mut Session,
    check: &str,
    with: &[(String, Value)],
    row: Option<usize>,
) -> Result<Option<(u32, String)>, Diagnostic> {
    let rules = session.ruleset().clone();
    let p = rules.program();
    let (c, _) = session.resolve(check, &[])?;
    let decl = &p.checks[c as usize];
    let Some(kind) = decl.subject.map(|k| &p.kinds[k as usize]) else {
        if with.is_empty() {
            return Ok(None);
        }
        return Err(Diagnostic::plain(
            "odds::no_subject",
            format!("check `{check}` is not made by anyone, so it has no attributes to give"),
        ));
    };
    // An attribute the check reads (or its effects do) that has no default must be given: no silent
    // 0. Those it never reads are not asked for.
    if let Some(d) = missing_read(&rules, decl, kind, with) {
        return Err(d);
    }
    let given: Vec<String> = with.iter().map(|(n, v)| format!("{n} = {}", session.show(v))).collect();
    let described = if given.is_empty() {
        format!("a stand-in {}, its attributes at their defaults", kind.name)
    } else {
        format!("a stand-in {} with {}, its other attributes at their defaults", kind.name, given.join(", "))
    };
    let refs: Vec<(&str, Value)> = with.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
    let name = match row {
        Some(i) => format!("{}_row_{i}", kind.name),
        None => kind.name.clone(),
    };
    let id = session.stand_in(&kind.name, &name, &refs)?;
    Ok(Some((id, described)))
}

/// The report of each combination of `sweeps`' values (the last sweep changing fastest) for check
/// `check` with `inputs`, made by a stand-in with attributes `with` when someone makes it. All the
/// rows together have the budget of one question, shared out evenly: a row that needs less leaves
/// more for the rows after it.
///
/// ```
/// use mettle::Ruleset;
/// let rules = Ruleset::from_str("s.mettle", "check c { input spi: 0..6  roll d6  modifier \"Spirit\" +spi  outcome pass when total >= 7  otherwise fail }").unwrap();
/// let sweeps = mettle::odds::sweeps(&rules, "c", &["spi=1..3"], &[]).unwrap();
/// let mut s = mettle::Session::new(&rules, 1);
/// let rows = mettle::odds::sweep(&mut s, "c", &[], &[], &sweeps, 1).unwrap();
/// let pass: Vec<String> = rows.iter().map(|r| mettle::wire::odds(&r.report).outcomes[0].exact.clone().unwrap()).collect();
/// assert_eq!(pass, ["1/6", "1/3", "1/2"]);
/// ```
pub fn sweep(
    session: &mut Session,
    check: &str,
    with: &[(String, Value)],
    inputs: &[(String, Value)],
    sweeps: &[Sweep],
    seed: u64,
) -> Result<Vec<Row>, Diagnostic> {
    let odds_work = session.ruleset().budget().odds_work;
    let (rows, _) =
        super::work::within(odds_work.saturating_mul(2), || rows(session, check, with, inputs, sweeps, seed));
    rows
}

fn rows(
    session: &mut Session,
    check: &str,
    with: &[(String, Value)],
    given: &[(String, Value)],
    sweeps: &[Sweep],
    seed: u64,
) -> Result<Vec<Row>, Diagnostic> {
    let mut out = vec![];
    let all = combinations(sweeps);
    let count = all.len() as u64;
    for (i, values) in all.into_iter().enumerate() {
        let share = super::work::left() / (count - i as u64).max(1);
        let mut inputs: Vec<(String, Value)> = given
            .iter()
            .filter(|(n, _)| !sweeps.iter().any(|s| s.target == Swept::Input && &s.name == n))
            .cloned()
            .collect();
        let set: Vec<(String, Value)> =
            sweeps.iter().zip(&values).map(|(s, v)| (s.name.clone(), v.clone())).collect();
        let mut attrs: Vec<(String, Value)> = with.to_vec();
        for (s, v) in sweeps.iter().zip(&values) {
            match &s.target {
                Swept::Option => session.set_option(&s.name, v.clone())?,
                Swept::Input => inputs.push((s.name.clone(), v.clone())),
                Swept::Attribute(a) => {
                    attrs.retain(|(n, _)| n != a);
                    attrs.push((a.clone(), v.clone()));
                }
            }
        }
        // Each row has a stand-in of its own: the one `with` describes, with the swept attributes
        // changed.
        let subject = make_stand_in(session, check, &attrs, Some(i))?.map(|(id, _)| id);
        let refs: Vec<(&str, Value)> = inputs.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
        let (report, _) = super::work::within(share, || super::ask(session, check, subject, &refs, seed));
        out.push(Row { set, report: report? });
    }
    Ok(out)
}

/// Every combination of the swept values, the last sweep changing fastest.
fn combinations(sweeps: &[Sweep]) -> Vec<Vec<Value>> {
    let mut all = vec![vec![]];
    for s in sweeps {
        all = all
            .into_iter()
            .flat_map(|prefix: Vec<Value>| {
                s.values.iter().map(move |v| {
                    let mut row = prefix.clone();
                    row.push(v.clone());
                    row
                })
            })
            .collect();
    }
    all
}

/// The inputs no row of a sweep gave, with the value every row took, in words (`; by default comms =
/// no`); one that changes from row to row, such as an input taken from a swept attribute, is in the
/// rows. Added to [`question`] by every front end.
pub fn defaults<'a>(reports: impl IntoIterator<Item = &'a Report>) -> String {
    let reports: Vec<&Report> = reports.into_iter().collect();
    let Some(first) = reports.first() else { return String::new() };
    let same: Vec<super::DefaultedInput> =
        first.defaults.iter().filter(|d| reports.iter().all(|r| r.defaults.contains(d))).cloned().collect();
    super::defaults_text(&same)
}

/// What a sweep asks, in words: `check morale with spi = 3, under option …, sweeping spi 0..6`.
pub fn question(session: &Session, check: &str, inputs: &[(String, Value)], sweeps: &[Sweep]) -> String {
    let ranges: Vec<String> = sweeps.iter().map(|s| s.label.clone()).collect();
    let mut question = format!("check {check}");
    if !inputs.is_empty() {
        let fixed: Vec<String> = inputs.iter().map(|(n, v)| format!("{n} = {}", session.show(v))).collect();
        question.push_str(&format!(" with {}", fixed.join(", ")));
    }
    // The house rules it was asked under, unless swept.
    let options: Vec<String> = session
        .ruleset()
        .program()
        .options
        .iter()
        .filter(|o| !sweeps.iter().any(|s| s.target == Swept::Option && s.name == o.name))
        .filter_map(|o| session.option(&o.name).map(|v| format!("{} = {}", o.name, session.show(v))))
        .collect();
    if !options.is_empty() {
        question.push_str(&format!(", under option {}", options.join(", ")));
    }
    question.push_str(&format!(", sweeping {}", ranges.join(" × ")));
    question
}
