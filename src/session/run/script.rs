//! Calling scripts from running rules. Values go to a script as read-only copies (an entity as a map of
//! its attributes); what comes back is checked before anything changes.

use super::ANY_RUN;
use super::{R, Runner};
use crate::ast::Span;
use crate::diagnostics::{Diagnostic, suggest};
use crate::program::*;
use crate::script::{Action, HANDLE_KEY, Handle, Named, Scripts, named, type_words};
use crate::session::LogEntry;
use rhai::{Dynamic, Map};
use std::sync::Arc;

impl Runner<'_> {
    fn scripts(&self) -> R<Arc<Scripts>> {
        // The checker only compiles calls to script functions when the ruleset has scripts; a program
        // built some other way gets an error, not a crash.
        self.code.scripts().cloned().ok_or_else(|| {
            Diagnostic::error(
                "run::no_scripts",
                "this rule calls a script, but the ruleset has none",
                self.span,
                "here",
            )
            .with_help("load the ruleset with its scripts")
            .into()
        })
    }

    /// A value as a script sees it.
    fn to_script(&self, v: &Value) -> R<Dynamic> {
        Ok(match v {
            Value::Int(i) => Dynamic::from(*i),
            Value::Bool(b) => Dynamic::from(*b),
            Value::Name { .. } => Dynamic::from(self.show(v)),
            Value::None => Dynamic::UNIT,
            Value::Pool(p) => Dynamic::from(p.value),
            Value::Entity(e) => self.view(*e)?,
            Value::Result(r) => {
                let mut m = Map::new();
                m.insert("check".into(), r.check.clone().into());
                m.insert("outcome".into(), r.outcome.clone().into());
                m.insert("total".into(), r.total.into());
                m.insert("target".into(), r.target.map_or(Dynamic::UNIT, Dynamic::from));
                m.insert("margin".into(), r.margin.map_or(Dynamic::UNIT, Dynamic::from));
                m.into()
            }
            Value::Data(d) => rhai::serde::to_dynamic(&**d).map_err(|e| {
                Diagnostic::error(
                    "run::bad_data",
                    format!("the data given to the script cannot be read: {e}"),
                    self.span,
                    "while passing this data to a script",
                )
                .with_help("data holds whole numbers, yes/no, text, lists and records")
            })?,
        })
    }

    /// An entity as a read-only map: `name`, `kind` and its attributes.
    fn view(&self, id: u32) -> R<Dynamic> {
        let e = &self.st.entities[id as usize];
        let kind = &self.p.kinds[e.kind as usize];
        let mut m = Map::new();
        m.insert("name".into(), e.name.clone().into());
        m.insert("kind".into(), kind.name.clone().into());
        m.insert(HANDLE_KEY.into(), Dynamic::from(Handle::new(id, &e.name, &kind.name)));
        for (def, v) in kind.fields.iter().zip(&e.fields) {
            let d = match v {
                // One level only: an attribute naming another entity gives its handle, which reads as
                // its name and lets a reaction act on the entity it reached.
                Value::Entity(other) => match self.st.entities.get(*other) {
                    Some(o) => {
                        let k = &self.p.kinds[o.kind as usize].name;
                        Dynamic::from(Handle::new(*other, &o.name, k))
                    }
                    None => Dynamic::UNIT,
                },
                v => self.to_script(v)?,
            };
            m.insert(def.name.as_str().into(), d);
        }
        Ok(m.into())
    }

    /// Calls script function `func` with `args`, each read by `read` (the evaluator for a script
    /// used in an expression, the lowered table for one a statement follows).
    fn call_script<A>(
        &mut self,
        func: u32,
        args: &[A],
        read: impl Fn(&mut Self, &A, &mut Vec<Value>) -> R<Value>,
        span: Span,
        f: &mut Vec<Value>,
    ) -> R<Dynamic> {
        self.span = span;
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            let v = read(self, a, f)?;
            values.push(self.to_script(&v)?);
        }
        let scripts = self.scripts()?;
        let called = scripts.call(func as usize, values, span)?;
        if self.mode.log {
            for text in called.printed {
                self.push::<ANY_RUN>(LogEntry::Print { text, span });
            }
        }
        Ok(called.value)
    }

    /// A script function used in an expression: it must give a whole number, or yes/no where it is
    /// used as a condition.
    pub(super) fn script_value(
        &mut self,
        func: u32,
        args: &[Expr],
        span: Span,
        flag: bool,
        f: &mut Vec<Value>,
    ) -> R<Value> {
        let v = self.call_script(func, args, |r, a, f| r.eval(a, f), span, f)?;
        let scripts = self.scripts()?;
        let name = &scripts.functions[func as usize].name;
        let (value, code, needs, label, fix) = if flag {
            let fix = "`true` or `false` (a comparison such as `x > 2`)";
            (
                v.as_bool().map(Value::Bool),
                "script::not_yes_or_no",
                "yes or no",
                "used as a condition here",
                fix,
            )
        } else {
            let fix = "a whole number (use `if … { 1 } else { 0 }` for yes/no)";
            (
                v.as_int().map(Value::Int),
                "script::not_a_number",
                "a whole number",
                "used as a number here",
                fix,
            )
        };
        value.map_err(|got| {
            let message =
                format!("script function `{name}` gave {} where the rule needs {needs}", type_words(got));
            Diagnostic::error(code, message, span, label)
                .with_help(format!("make `{name}` end with {fix}"))
                .into()
        })
    }

    /// `follow REACTION(…)`: run the reaction, check every action it gives, then apply them in order.
    pub(super) fn follow(&mut self, func: u32, args: &[Calc], span: Span, f: &mut Vec<Value>) -> R<()> {
        let scripts = self.scripts()?;
        let name = scripts.functions[func as usize].name.clone();
        if self.mode.log {
            self.push::<ANY_RUN>(LogEntry::Reaction { name: name.clone(), span });
        }
        let v = self.call_script(func, args, |r, c, f| r.calc::<ANY_RUN>(c, f), span, f)?;
        let actions = scripts.actions(v, &name, span)?;
        self.st.orders.clear();
        // The whole event is undone if any action fails, so applying as we go is safe.
        for a in actions {
            self.act(&scripts, a, &name, span)?;
        }
        Ok(())
    }

    fn act(&mut self, scripts: &Scripts, a: Action, name: &str, span: Span) -> R<()> {
        let bad = |message: String, help: String, at: rhai::Position| {
            scripts.at(
                Diagnostic::error("script::bad_action", format!("`{name}`: {message}"), span, "called here")
                    .with_help(help),
                at,
                span,
            )
        };
        match a {
            Action::Set { who, attr, value, at } => {
                let (id, field) = self.target(&who, &attr, at, &bad)?;
                let v = self.script_value_for(id, field, value, at, &bad)?;
                // The log points at the script line that asked, when it is in the ruleset.
                self.write::<ANY_RUN>(id, field, v, self.log_span(scripts, at, span))
            }
            Action::Add { who, attr, amount, at } => {
                let (id, field) = self.target(&who, &attr, at, &bad)?;
                let kind = self.st.entities[id as usize].kind;
                let def = &self.p.kinds[kind as usize].fields[field as usize];
                if !matches!(def.ty, Ty::Int { .. }) {
                    return Err(Box::new(bad(
                        format!("`{attr}` is not a number, so nothing can be added to it"),
                        format!("use `set_to(…, \"{attr}\", …)` to change it"),
                        at,
                    )));
                }
                let cur = self.st.entities[id as usize].fields[field as usize].int();
                let new = cur.checked_add(amount).ok_or_else(|| self.overflow())?;
                self.write::<ANY_RUN>(id, field, Value::Int(new), self.log_span(scripts, at, span))
            }
            Action::Order(order, at) => {
                if self.mode.log {
                    let (inline, from) = scripts.origin(at);
                    self.push::<ANY_RUN>(LogEntry::Order {
                        text: order.text.clone(),
                        span: inline.unwrap_or(span),
                        from,
                    });
                }
                self.st.orders.push(order);
                Ok(())
            }
        }
    }

    /// The span a change asked for at script position `at` is logged with: the script line when it is
    /// in the ruleset, else the `follow` at `span`. Worked out only when there is a log to write.
    fn log_span(&self, scripts: &Scripts, at: rhai::Position, span: Span) -> Span {
        if self.mode.log { scripts.origin(at).0.unwrap_or(span) } else { span }
    }

    /// The entity and attribute an action names.
    fn target(
        &self,
        who: &Dynamic,
        attr: &str,
        at: rhai::Position,
        bad: &impl Fn(String, String, rhai::Position) -> Diagnostic,
    ) -> R<(u32, u32)> {
        let id = match named(who) {
            Named::Entity(id) if self.st.entities.get(id).is_some() => id as usize,
            Named::Text(name) => {
                return Err(Box::new(bad(
                    format!("the action names `{name}` by its name; a reaction may only change entities it was given"),
                    "pass the entity itself (a parameter of the reaction, or an attribute of one that names another entity)".into(),
                    at,
                )));
            }
            Named::Forged => {
                return Err(Box::new(bad(
                    "the action names an entity with a map that mettle did not give this reaction (or whose `name` was changed)".into(),
                    "pass the entity the reaction was given, as it was given".into(),
                    at,
                )));
            }
            _ => {
                return Err(Box::new(bad(
                    "the action does not say whose attribute to change".into(),
                    "pass the entity the reaction was given".into(),
                    at,
                )));
            }
        };
        let kind = &self.p.kinds[self.st.entities[id].kind as usize];
        let Some(field) = kind.fields.iter().position(|d| d.name == attr) else {
            let known: Vec<&str> = kind.fields.iter().map(|d| d.name.as_str()).collect();
            return Err(Box::new(bad(
                format!("a {} has no attribute `{attr}`", kind.name),
                suggest(attr, "attribute", &known),
                at,
            )));
        };
        Ok((id as u32, field as u32))
    }

    /// A script's value for attribute `field` of entity `id`, checked against the attribute's type.
    fn script_value_for(
        &self,
        id: u32,
        field: u32,
        value: Dynamic,
        at: rhai::Position,
        bad: &impl Fn(String, String, rhai::Position) -> Diagnostic,
    ) -> R<Value> {
        let kind = self.st.entities[id as usize].kind;
        let def = &self.p.kinds[kind as usize].fields[field as usize];
        let got = type_words(value.type_name());
        let wrong = || {
            bad(
                format!("`{}` cannot be set to {got}", def.name),
                format!("give {}", crate::export::type_name(self.p, &def.ty)),
                at,
            )
        };
        Ok(match &def.ty {
            Ty::Int { .. } => Value::Int(value.as_int().map_err(|_| wrong())?),
            Ty::Flag => Value::Bool(value.as_bool().map_err(|_| wrong())?),
            Ty::Name(set) => {
                let text = value.into_string().map_err(|_| wrong())?;
                let names = &self.p.sets[*set as usize].names;
                match names.iter().position(|n| *n == text) {
                    Some(i) => Value::Name { set: *set, index: i as u32 },
                    None => {
                        let known: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
                        return Err(Box::new(bad(
                            format!("`{text}` is not one of the names `{}` can take", def.name),
                            suggest(&text, "name", &known),
                            at,
                        )));
                    }
                }
            }
            Ty::Entity(k) => match named(&value) {
                Named::Nobody => Value::None,
                Named::Entity(i) if self.st.entities.get(i).is_some_and(|e| e.kind == *k) => Value::Entity(i),
                Named::Entity(_) => {
                    return Err(Box::new(bad(
                        format!(
                            "`{}` must name a {}, and this entity is not one",
                            def.name, self.p.kinds[*k as usize].name
                        ),
                        format!(
                            "give a {} the reaction was given, or `()` for none",
                            self.p.kinds[*k as usize].name
                        ),
                        at,
                    )));
                }
                Named::Text(n) => {
                    return Err(Box::new(bad(
                        format!("`{}` is given the name `{n}`; a reaction may only hand on entities it was given", def.name),
                        "pass the entity itself (a parameter of the reaction, or an attribute of one), or `()` for none".into(),
                        at,
                    )));
                }
                Named::Forged => {
                    return Err(Box::new(bad(
                        format!("`{}` is given a map that mettle did not give this reaction", def.name),
                        "pass the entity as it was given, or `()` for none".into(),
                        at,
                    )));
                }
                Named::Other => return Err(Box::new(wrong())),
            },
            Ty::Data => Value::Data(Arc::new(rhai::serde::from_dynamic(&value).map_err(|_| wrong())?)),
            _ => return Err(Box::new(wrong())),
        })
    }
}
