//! What a reaction may ask for. A reaction never changes the game itself: it returns actions, built by
//! the functions registered here, and the session checks and applies them.

use rhai::{Dynamic, Engine, ImmutableString, Map, NativeCallContext, Position};
use serde::{Deserialize, Serialize};

/// An order for the table: what the creature or unit does, in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Order {
    /// Who it is for, when the reaction said.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub who: Option<String>,
    /// `move towards`, `move away from`, `flee`, `surrender` or `order`.
    pub verb: String,
    /// What it moves towards or away from.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub target: Option<String>,
    /// The order as the table reads it.
    pub text: String,
}

/// One action a reaction returned, with the script position that made it.
#[derive(Debug, Clone)]
pub(crate) enum Action {
    /// `set_to(who, "attribute", value)`
    Set {
        /// The entity (its view or its name).
        who: Dynamic,
        /// The attribute's name.
        attr: String,
        /// The new value.
        value: Dynamic,
        /// Where the script asked for it.
        at: Position,
    },
    /// `add_to(who, "attribute", n)`, or `remove_from(…)` with `n` negated.
    Add {
        /// The entity (its view or its name).
        who: Dynamic,
        /// The attribute's name.
        attr: String,
        /// How much.
        amount: i64,
        /// Where the script asked for it.
        at: Position,
    },
    /// An order for the table.
    Order(Order, Position),
}

fn encode(pos: Position) -> Dynamic {
    let line = pos.line().unwrap_or(0) as i64;
    let col = pos.position().unwrap_or(0) as i64;
    Dynamic::from(line << 16 | col)
}

fn decode(d: Option<&Dynamic>) -> Position {
    match d.and_then(|d| d.as_int().ok()) {
        Some(n) if n > 0 => Position::new((n >> 16) as u16, (n & 0xffff) as u16),
        _ => Position::NONE,
    }
}

fn action(ctx: &NativeCallContext, kind: &str, fields: Vec<(&str, Dynamic)>) -> Map {
    let mut m = Map::new();
    m.insert("action".into(), kind.into());
    m.insert("at".into(), encode(ctx.call_position()));
    for (k, v) in fields {
        m.insert(k.into(), v);
    }
    m
}

/// A name from a view (`#{name: …}`), an entity handle, a string, or nothing.
pub(crate) fn name_of(d: &Dynamic) -> Option<String> {
    if let Some(h) = d.read_lock::<Handle>() {
        return Some(h.name.to_string());
    }
    if let Some(m) = d.read_lock::<Map>() {
        return m.get("name").and_then(|n| n.clone().into_string().ok());
    }
    d.clone().into_string().ok()
}

/// An entity as a script holds it: made by mettle when it hands an entity to a script, and never by
/// a script (no constructor is registered), so an action naming an entity by its handle names one the
/// reaction was given. Reads as the entity's name.
#[derive(Debug, Clone)]
pub(crate) struct Handle {
    /// The entity's id in the session.
    pub(crate) id: u32,
    name: ImmutableString,
    kind: ImmutableString,
}

impl Handle {
    pub(crate) fn new(id: u32, name: &str, kind: &str) -> Handle {
        Handle { id, name: name.into(), kind: kind.into() }
    }
}

/// The key under which an entity's view keeps its handle: not a name a ruleset can give an attribute.
pub(crate) const HANDLE_KEY: &str = "#entity";

/// How a script named an entity in an action.
pub(crate) enum Named {
    /// By a handle mettle gave it (directly or inside the entity's view): the entity's id.
    Entity(u32),
    /// By `()`: nobody.
    Nobody,
    /// By a name string.
    Text(String),
    /// By a map that is not an entity's view, or a view whose `name` was changed.
    Forged,
    /// By something else (a number, a list…).
    Other,
}

/// Reads which entity `d` names.
pub(crate) fn named(d: &Dynamic) -> Named {
    if d.is_unit() {
        return Named::Nobody;
    }
    if let Some(h) = d.read_lock::<Handle>() {
        return Named::Entity(h.id);
    }
    if let Some(m) = d.read_lock::<Map>() {
        let Some(h) = m.get(HANDLE_KEY).and_then(|h| h.read_lock::<Handle>().map(|h| h.clone())) else {
            return Named::Forged;
        };
        let same_name =
            m.get("name").is_none_or(|n| n.clone().into_string().ok().as_deref() == Some(&*h.name));
        return if same_name { Named::Entity(h.id) } else { Named::Forged };
    }
    match d.clone().into_string() {
        Ok(s) => Named::Text(s),
        Err(_) => Named::Other,
    }
}

/// Registers the action functions and the entity handle type.
pub(super) fn register(e: &mut Engine) {
    e.register_type_with_name::<Handle>("entity");
    e.register_get("name", |h: &mut Handle| h.name.clone());
    e.register_get("kind", |h: &mut Handle| h.kind.clone());
    e.register_fn("to_string", |h: &mut Handle| h.name.clone());
    e.register_fn("to_debug", |h: &mut Handle| h.name.clone());
    e.register_fn("==", |a: Handle, b: Handle| a.id == b.id);
    e.register_fn("!=", |a: Handle, b: Handle| a.id != b.id);
    e.register_fn("==", |a: Handle, b: ImmutableString| a.name == b);
    e.register_fn("!=", |a: Handle, b: ImmutableString| a.name != b);
    e.register_fn("==", |a: ImmutableString, b: Handle| a == b.name);
    e.register_fn("!=", |a: ImmutableString, b: Handle| a != b.name);
    e.register_fn("+", |a: ImmutableString, b: Handle| format!("{a}{}", b.name));
    e.register_fn("+", |a: Handle, b: ImmutableString| format!("{}{b}", a.name));
    e.register_fn("set_to", |ctx: NativeCallContext, who: Dynamic, attr: ImmutableString, value: Dynamic| {
        action(&ctx, "set", vec![("who", who), ("attr", attr.into()), ("value", value)])
    });
    e.register_fn("add_to", |ctx: NativeCallContext, who: Dynamic, attr: ImmutableString, n: i64| {
        action(&ctx, "add", vec![("who", who), ("attr", attr.into()), ("amount", n.into())])
    });
    e.register_fn(
        "remove_from",
        |ctx: NativeCallContext,
         who: Dynamic,
         attr: ImmutableString,
         n: i64|
         -> Result<Map, Box<rhai::EvalAltResult>> {
            let amount =
                n.checked_neg().ok_or_else(|| format!("cannot remove {n}: the number is too large"))?;
            Ok(action(&ctx, "add", vec![("who", who), ("attr", attr.into()), ("amount", amount.into())]))
        },
    );
    e.register_fn("order", |ctx: NativeCallContext, text: ImmutableString| {
        action(&ctx, "order", vec![("verb", "order".into()), ("text", text.into())])
    });
    e.register_fn("move_towards", |ctx: NativeCallContext, what: Dynamic| {
        action(&ctx, "order", vec![("verb", "move towards".into()), ("target", what)])
    });
    e.register_fn("move_away_from", |ctx: NativeCallContext, what: Dynamic| {
        action(&ctx, "order", vec![("verb", "move away from".into()), ("target", what)])
    });
    // The same with a note on how the move is made (`"with all its actions"`), shown after it.
    e.register_fn("move_towards", |ctx: NativeCallContext, what: Dynamic, how: ImmutableString| {
        action(&ctx, "order", vec![("verb", "move towards".into()), ("target", what), ("how", how.into())])
    });
    e.register_fn("move_away_from", |ctx: NativeCallContext, what: Dynamic, how: ImmutableString| {
        action(&ctx, "order", vec![("verb", "move away from".into()), ("target", what), ("how", how.into())])
    });
    e.register_fn("flee", |ctx: NativeCallContext| action(&ctx, "order", vec![("verb", "flee".into())]));
    e.register_fn("surrender", |ctx: NativeCallContext| {
        action(&ctx, "order", vec![("verb", "surrender".into())])
    });
}

/// What went wrong reading a reaction's result: a message and the position to point at.
pub(super) struct BadAction(pub(super) String, pub(super) Position, pub(super) Option<&'static str>);

/// Reads what a reaction returned: an action, an array of actions, or nothing.
pub(super) fn read(value: Dynamic) -> Result<Vec<Action>, BadAction> {
    if value.is_unit() {
        return Ok(Vec::new());
    }
    if value.is_array() {
        let items = value.into_array().unwrap_or_default();
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            if item.is_array() {
                // A helper that returns a list of actions may be put in the list as it is.
                out.extend(read(item)?);
            } else if !item.is_unit() {
                out.push(one(item)?);
            }
        }
        return Ok(out);
    }
    Ok(vec![one(value)?])
}

fn one(value: Dynamic) -> Result<Action, BadAction> {
    let type_name = super::errors::type_words(value.type_name());
    let Some(m) = value.try_cast::<Map>() else {
        return Err(BadAction(
            format!("the reaction gave {type_name} where an action was expected"),
            Position::NONE,
            None,
        ));
    };
    let at = decode(m.get("at"));
    let text = |k: &str| m.get(k).and_then(|v| v.clone().into_string().ok());
    let field = |k: &str| m.get(k).cloned().unwrap_or(Dynamic::UNIT);
    match text("action").as_deref() {
        Some("set") => Ok(Action::Set {
            who: field("who"),
            attr: text("attr").unwrap_or_default(),
            value: field("value"),
            at,
        }),
        Some("add") => Ok(Action::Add {
            who: field("who"),
            attr: text("attr").unwrap_or_default(),
            amount: field("amount").as_int().unwrap_or(0),
            at,
        }),
        Some("order") => {
            let verb = text("verb").unwrap_or_else(|| "order".into());
            let target = m.get("target").and_then(name_of);
            let how = text("how").filter(|h| !h.is_empty());
            let mut text = match (verb.as_str(), &target) {
                ("order", _) => text("text").unwrap_or_default(),
                (v, Some(t)) => format!("{v} {t}"),
                (v, None) => v.to_string(),
            };
            if let Some(how) = how {
                text = format!("{text} {how}");
            }
            if verb.starts_with("move") && target.is_none() {
                return Err(BadAction(
                    format!(
                        "`{}` needs something to move {}: a name or an entry with a `name`",
                        verb.replace(' ', "_"),
                        &verb[5..]
                    ),
                    at,
                    Some("a search in an empty list gives `()`: check for `()` first and give another order"),
                ));
            }
            Ok(Action::Order(Order { who: None, verb, target, text }, at))
        }
        _ => Err(BadAction("the reaction gave a map that is not an action".into(), at, None)),
    }
}
