//! The library's public API, kept as a listing in `tests/public-api.txt`: a change to what a host can
//! name shows in review as a change to that file, and is made on purpose.
//!
//! The listing is rendered from rustdoc's JSON (built here under `target/public-api`, apart from the
//! outer build), with the default features: what a host depending on `mettle` sees. After a deliberate
//! change, regenerate it with
//! `METTLE_UPDATE_API=1 cargo test -p mettle --test public_api`.
//!
//! The test also fails when a public signature names a `mettle::…` type that is not a public item
//! itself (a type from a private module): a host could get such a value but never name its type.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

const REGENERATE: &str = "METTLE_UPDATE_API=1 cargo test -p mettle --test public_api";

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Builds the crate's rustdoc JSON, hidden items included (so that they can be named apart), and reads it.
fn rustdoc_json() -> Value {
    let target = workspace().join("target/public-api");
    let out = Command::new(env!("CARGO"))
        .args(["rustdoc", "-q", "-p", "mettle", "--lib", "--", "-Z", "unstable-options"])
        .args(["--output-format", "json", "--document-hidden-items"])
        .current_dir(workspace())
        // rustdoc's JSON is unstable: this lets a stable toolchain write it.
        .env("RUSTC_BOOTSTRAP", "1")
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("RUSTDOCFLAGS")
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo rustdoc failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(target.join("doc/mettle.json")).expect("rustdoc wrote its JSON");
    serde_json::from_str(&text).expect("rustdoc's JSON parses")
}

#[test]
fn the_public_api_is_the_checked_in_listing() {
    let listing = render(&rustdoc_json());
    let hidden = unlisted_names(&listing);
    assert!(
        hidden.is_empty(),
        "public signatures name types a host cannot name (not public items of mettle):\n{}\n\nMake each type \
         public where a host reaches it, or keep the signature that names it out of the public API.",
        hidden.join("\n")
    );
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/public-api.txt");
    if std::env::var_os("METTLE_UPDATE_API").is_some() {
        std::fs::write(&file, &listing).unwrap();
        return;
    }
    let kept = std::fs::read_to_string(&file).unwrap_or_default();
    if kept != listing {
        let (kept, made): (BTreeSet<&str>, BTreeSet<&str>) =
            (kept.lines().collect(), listing.lines().collect());
        let mut diff: Vec<String> = kept.difference(&made).map(|l| format!("- {l}")).collect();
        diff.extend(made.difference(&kept).map(|l| format!("+ {l}")));
        panic!(
            "the public API is not tests/public-api.txt ({} lines differ):\n{}\n\nIf the change is meant, regenerate \
             the listing with `{REGENERATE}` and commit it.",
            diff.len(),
            diff.join("\n")
        );
    }
}

/// Every `mettle::…` path that a line of the listing names (beyond the item the line is about) and
/// that is not itself a public item, with its line: a public signature naming a type a host cannot
/// name.
fn unlisted_names(listing: &str) -> Vec<String> {
    let listed = listing.lines().take_while(|l| !l.starts_with("# Public items hidden"));
    let lines: Vec<&str> = listed.filter(|l| !l.starts_with('#') && !l.is_empty()).collect();
    // The items a host can name: types, traits, aliases, modules and constants, and re-exports.
    let kinds =
        ["pub struct ", "pub enum ", "pub trait ", "pub type ", "pub union ", "pub mod ", "pub const "];
    let mut items: BTreeSet<String> = BTreeSet::new();
    for l in &lines {
        if let Some(rest) =
            kinds.iter().find_map(|k| l.strip_prefix(k)).or_else(|| l.strip_prefix("pub use "))
        {
            let path = mettle_paths(rest).into_iter().next().unwrap_or_default();
            items.insert(path);
        }
    }
    let mut out = vec![];
    for l in &lines {
        let paths = mettle_paths(l);
        // A line that declares or lists a member names itself first; an impl line names only others.
        let skip = usize::from(!l.starts_with("impl"));
        for p in paths.into_iter().skip(skip) {
            if !items.contains(&p) {
                out.push(format!("  `{p}` in: {l}"));
            }
        }
    }
    out
}

/// The `mettle::a::b` paths in a line, in order, each up to the first segment that is not a path's.
fn mettle_paths(line: &str) -> Vec<String> {
    let mut out = vec![];
    let mut rest = line;
    while let Some(at) = rest.find("mettle::") {
        let before = rest[..at].chars().next_back();
        let tail = &rest[at..];
        let len = tail
            .char_indices()
            .find(|&(_, c)| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .map_or(tail.len(), |(i, _)| i);
        let path = tail[..len].trim_end_matches(':');
        if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            out.push(path.to_string());
        }
        rest = &tail[len..];
    }
    out
}

#[test]
fn a_hidden_type_in_a_public_signature_is_caught() {
    let listing = "# header\npub struct mettle::A\npub fn mettle::A::get(&self) -> mettle::inner::B\n\
                   pub fn mettle::A::new() -> mettle::A\nimpl core::convert::From<mettle::A> for mettle::A\n";
    let found = unlisted_names(listing);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("`mettle::inner::B`"), "{found:?}");
}

// ------------------------------------------------------------------ rendering the listing

/// The listing: a comment saying how to regenerate it, every public item by path (sorted, one a line),
/// then the `#[doc(hidden)]` public modules, which are reachable but not in the documented API.
fn render(doc: &Value) -> String {
    let format = doc["format_version"].as_u64().unwrap_or(0);
    let mut api = Api {
        doc,
        index: &doc["index"],
        lines: BTreeSet::new(),
        hidden: BTreeSet::new(),
        seen: vec![],
        reached: BTreeMap::new(),
        collecting: true,
    };
    let root = doc["root"].to_string();
    // First every path each item is reached at, then the listing, each item in full at its shortest
    // path and the other paths as re-exports of it.
    api.module(&root, "mettle");
    (api.lines, api.hidden, api.collecting) = (BTreeSet::new(), BTreeSet::new(), false);
    api.module(&root, "mettle");
    let mut out = format!(
        "# The public API of the `mettle` library (rustdoc JSON format {format}). Regenerate with\n# {REGENERATE}\n"
    );
    for (_, l) in &api.lines {
        out.push_str(l);
        out.push('\n');
    }
    out.push_str(
        "\n# Public items hidden from the docs (#[doc(hidden)]), reachable all the same; the items inside a\n# hidden module are not listed.\n",
    );
    for h in &api.hidden {
        out.push_str(&format!("#[doc(hidden)] {h}\n"));
    }
    out
}

struct Api<'a> {
    doc: &'a Value,
    index: &'a Value,
    /// `(sort key, line)`: a type's lines come together, its declaration first.
    lines: BTreeSet<(String, String)>,
    hidden: BTreeSet<String>,
    /// Every public path of each item, by id.
    reached: BTreeMap<String, BTreeSet<String>>,
    collecting: bool,
    /// The modules being walked, against a module that re-exports its parent.
    seen: Vec<String>,
}

fn id_key(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Whether an item is `#[doc(hidden)]`, in the attribute forms rustdoc's JSON has had.
fn is_hidden(item: &Value) -> bool {
    item["attrs"].as_array().into_iter().flatten().any(|a| {
        let text = match a {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let squashed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        squashed.contains("doc(hidden)")
    })
}

fn inner(item: &Value) -> (&str, &Value) {
    match &item["inner"] {
        Value::Object(m) => m.iter().next().map(|(k, v)| (k.as_str(), v)).unwrap_or(("", &Value::Null)),
        Value::String(s) => (s.as_str(), &Value::Null),
        _ => ("", &Value::Null),
    }
}

impl Api<'_> {
    fn item(&self, id: &Value) -> Option<&Value> {
        self.index.get(id_key(id))
    }

    fn push(&mut self, line: String) {
        let key = match line.rsplit_once(" for ") {
            Some((_, ty)) if line.starts_with("impl") => {
                let ty = ty.split_whitespace().find(|t| t.starts_with("mettle::")).unwrap_or(ty);
                format!("{} impl", ty.split('<').next().unwrap_or(ty))
            }
            _ => {
                let token = line.split_whitespace().find(|t| t.starts_with("mettle::")).unwrap_or(&line);
                token.split(['(', '<', '!', ';']).next().unwrap_or(token).trim_end_matches(':').to_string()
            }
        };
        self.lines.insert((key, line));
    }

    /// The path an item is listed at in full: its shortest public path.
    fn canonical(&self, id: &Value) -> Option<&String> {
        self.reached.get(&id_key(id))?.iter().min_by_key(|p| (p.matches("::").count(), p.as_str()))
    }

    /// The items of module `id`, reached at `path`.
    fn module(&mut self, id: &str, path: &str) {
        if self.seen.iter().any(|s| s == id) {
            return;
        }
        self.seen.push(id.to_string());
        let Some(m) = self.index.get(id_key(&serde_json::from_str(id).unwrap_or(Value::Null))) else {
            return;
        };
        let items: Vec<Value> = inner(m).1["items"].as_array().cloned().unwrap_or_default();
        for child in &items {
            if let Some(item) = self.item(child).cloned() {
                self.public(&item, path, None);
            }
        }
        self.seen.pop();
    }

    /// A public item of a module at `path`, under `rename` when a `use` renames it.
    fn public(&mut self, item: &Value, path: &str, rename: Option<&str>) {
        if item["visibility"] != "public" {
            return;
        }
        let (kind, body) = inner(item);
        let name = rename.or(item["name"].as_str()).unwrap_or("_");
        let at = format!("{path}::{name}");
        if kind == "use" {
            return self.re_export(body, path);
        }
        if is_hidden(item) {
            self.hidden.insert(format!("{kind} {at}"));
            return;
        }
        let id = item["id"].to_string();
        if self.collecting {
            self.reached.entry(id_key(&item["id"])).or_default().insert(at.clone());
        } else if let Some(canonical) = self.canonical(&item["id"]).filter(|c| **c != at) {
            return self.push(format!("pub use {at} = {canonical}"));
        }
        match kind {
            "module" => {
                self.push(format!("pub mod {at}"));
                self.module(&id, &at);
            }
            "struct" => self.structure(body, &at),
            "enum" => self.enumeration(body, &at),
            "union" => self.push(format!("pub union {at}")),
            "trait" => self.trait_(body, &at),
            "function" => {
                let f = self.function(name, body);
                self.push(format!("pub {} {path}::{}", f.0, f.1));
            }
            "constant" => self.push(format!("pub const {at}: {}", self.ty(&body["type"]))),
            "static" => self.push(format!(
                "pub static {}{at}: {}",
                if body["is_mutable"] == true { "mut " } else { "" },
                self.ty(&body["type"])
            )),
            "type_alias" => self.push(format!(
                "pub type {at}{} = {}",
                self.generics(&body["generics"]),
                self.ty(&body["type"])
            )),
            "macro" | "proc_macro" => self.push(format!("macro {at}!")),
            other => self.push(format!("pub {other} {at}")),
        }
    }

    /// `pub use`: the item it names, listed at the path of the `use` (every item of a glob); a name
    /// from another crate is listed as the `use` itself.
    fn re_export(&mut self, u: &Value, path: &str) {
        let name = u["name"].as_str().unwrap_or("_");
        let target = u["id"].clone();
        match self.item(&target).cloned() {
            Some(item) if u["is_glob"] == true => {
                if inner(&item).0 == "module" {
                    self.module(&item["id"].to_string(), path);
                } else if inner(&item).0 == "enum" {
                    // `pub use Enum::*`: its variants, at this path.
                    for v in inner(&item).1["variants"].as_array().cloned().unwrap_or_default() {
                        if let Some(var) = self.item(&v) {
                            self.push(format!("pub use {path}::{}", var["name"].as_str().unwrap_or("_")));
                        }
                    }
                }
            }
            // A re-export of a public item keeps its own visibility; a private module's item is made
            // public by the `use` itself.
            Some(mut item) => {
                item["visibility"] = Value::from("public");
                self.public(&item, path, Some(name));
            }
            None => {
                let glob = if u["is_glob"] == true { "::*" } else { "" };
                self.push(format!("pub use {path}::{name} = {}{glob}", u["source"].as_str().unwrap_or("?")));
            }
        }
    }

    fn structure(&mut self, s: &Value, at: &str) {
        let g = self.generics(&s["generics"]);
        let w = self.where_clause(&s["generics"]);
        match &s["kind"] {
            Value::String(unit) if unit == "unit" => self.push(format!("pub struct {at}{g}{w};")),
            Value::Object(k) if k.contains_key("tuple") => {
                let fields: Vec<String> = k["tuple"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|f| match self.item(f) {
                        Some(f) => format!("pub {}", self.ty(inner(f).1)),
                        None => "_".to_string(),
                    })
                    .collect();
                self.push(format!("pub struct {at}{g}({}){w};", fields.join(", ")));
            }
            Value::Object(k) => {
                let plain = &k["plain"];
                self.push(format!("pub struct {at}{g}{w}"));
                for f in plain["fields"].as_array().cloned().unwrap_or_default() {
                    if let Some(f) = self.item(&f).cloned() {
                        let name = f["name"].as_str().unwrap_or("_");
                        self.push(format!("pub {at}::{name}: {}", self.ty(inner(&f).1)));
                    }
                }
            }
            _ => self.push(format!("pub struct {at}{g}{w}")),
        }
        self.impls(&s["impls"], at);
    }

    fn enumeration(&mut self, e: &Value, at: &str) {
        let g = self.generics(&e["generics"]);
        let w = self.where_clause(&e["generics"]);
        self.push(format!("pub enum {at}{g}{w}"));
        for v in e["variants"].as_array().cloned().unwrap_or_default() {
            let Some(v) = self.item(&v).cloned() else { continue };
            let name = v["name"].as_str().unwrap_or("_");
            let body = inner(&v).1;
            let fields = |ids: &Value| -> Vec<(Option<String>, String)> {
                ids.as_array()
                    .into_iter()
                    .flatten()
                    .map(|f| match self.item(f) {
                        Some(f) => (f["name"].as_str().map(String::from), self.ty(inner(f).1)),
                        None => (None, "_".into()),
                    })
                    .collect()
            };
            let line = match &body["kind"] {
                Value::Object(k) if k.contains_key("tuple") => {
                    let fs: Vec<String> = fields(&k["tuple"]).into_iter().map(|(_, t)| t).collect();
                    format!("pub {at}::{name}({})", fs.join(", "))
                }
                Value::Object(k) if k.contains_key("struct") => {
                    let fs: Vec<String> = fields(&k["struct"]["fields"])
                        .into_iter()
                        .map(|(n, t)| format!("{}: {t}", n.unwrap_or_default()))
                        .collect();
                    format!("pub {at}::{name} {{ {} }}", fs.join(", "))
                }
                _ => match body["discriminant"]["expr"].as_str() {
                    Some(d) => format!("pub {at}::{name} = {d}"),
                    None => format!("pub {at}::{name}"),
                },
            };
            self.push(line);
        }
        self.impls(&e["impls"], at);
    }

    fn trait_(&mut self, t: &Value, at: &str) {
        let g = self.generics(&t["generics"]);
        let bounds = self.bounds(&t["bounds"]);
        let unsafe_ = if t["is_unsafe"] == true { "unsafe " } else { "" };
        let supers = if bounds.is_empty() { String::new() } else { format!(": {bounds}") };
        self.push(format!("pub {unsafe_}trait {at}{g}{supers}"));
        for i in t["items"].as_array().cloned().unwrap_or_default() {
            let Some(item) = self.item(&i).cloned() else { continue };
            self.member(&item, at, "");
        }
    }

    /// An item of a trait or an impl, listed under `at` (its type or trait).
    fn member(&mut self, item: &Value, at: &str, prefix: &str) {
        let name = item["name"].as_str().unwrap_or("_");
        let (kind, body) = inner(item);
        match kind {
            "function" => {
                let (head, sig) = self.function(name, body);
                self.push(format!("{prefix}{head} {at}::{sig}"));
            }
            "assoc_const" | "constant" => {
                self.push(format!("{prefix}const {at}::{name}: {}", self.ty(&body["type"])))
            }
            "assoc_type" => {
                let b = self.bounds(&body["bounds"]);
                let ty = body["type"].is_object().then(|| format!(" = {}", self.ty(&body["type"])));
                self.push(format!(
                    "{prefix}type {at}::{name}{}{}",
                    if b.is_empty() { String::new() } else { format!(": {b}") },
                    ty.unwrap_or_default()
                ))
            }
            other => self.push(format!("{prefix}{other} {at}::{name}")),
        }
    }

    /// The impls of a type: inherent ones' public items, and the header of each trait impl written in
    /// the crate (not the auto traits' or the blanket ones').
    fn impls(&mut self, ids: &Value, at: &str) {
        for id in ids.as_array().cloned().unwrap_or_default() {
            let Some(imp) = self.item(&id).cloned() else { continue };
            if is_hidden(&imp) {
                continue;
            }
            let body = inner(&imp).1.clone();
            if body["is_synthetic"] == true || !body["blanket_impl"].is_null() {
                continue;
            }
            if body["trait"].is_null() {
                for i in body["items"].as_array().cloned().unwrap_or_default() {
                    let Some(item) = self.item(&i).cloned() else { continue };
                    if item["visibility"] != "public" {
                        continue;
                    }
                    if is_hidden(&item) {
                        self.hidden.insert(format!(
                            "{} {at}::{}",
                            inner(&item).0,
                            item["name"].as_str().unwrap_or("_")
                        ));
                    } else {
                        self.member(&item, at, "pub ");
                    }
                }
            } else {
                let g = self.generics(&body["generics"]);
                let neg = if body["is_negative"] == true { "!" } else { "" };
                let w = self.where_clause(&body["generics"]);
                self.push(format!(
                    "impl{g} {neg}{} for {}{w}",
                    self.path(&body["trait"]),
                    self.ty(&body["for"])
                ));
            }
        }
    }

    /// `(const unsafe fn, name<T>(params) -> ret where …)`.
    fn function(&self, name: &str, f: &Value) -> (String, String) {
        let h = &f["header"];
        let mut head = String::new();
        for (flag, word) in [("is_const", "const "), ("is_async", "async "), ("is_unsafe", "unsafe ")] {
            if h[flag] == true {
                head.push_str(word);
            }
        }
        head.push_str("fn");
        let sig = &f["sig"];
        let params: Vec<String> = sig["inputs"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| {
                let (n, t) = (p[0].as_str().unwrap_or("_"), &p[1]);
                if n == "self" {
                    match t {
                        Value::Object(m) if m.contains_key("borrowed_ref") => {
                            let r = &m["borrowed_ref"];
                            let life = r["lifetime"].as_str().map(|l| format!("{l} ")).unwrap_or_default();
                            let m = if r["is_mutable"] == true { "mut " } else { "" };
                            if r["type"]["generic"] == "Self" {
                                return format!("&{life}{m}self");
                            }
                            format!("self: {}", self.ty(t))
                        }
                        Value::Object(m) if m.get("generic").is_some_and(|g| g == "Self") => "self".into(),
                        _ => format!("self: {}", self.ty(t)),
                    }
                } else {
                    format!("{n}: {}", self.ty(t))
                }
            })
            .collect();
        let ret = match &sig["output"] {
            Value::Null => String::new(),
            t => format!(" -> {}", self.ty(t)),
        };
        let g = self.generics(&f["generics"]);
        let w = self.where_clause(&f["generics"]);
        (head, format!("{name}{g}({}){ret}{w}", params.join(", ")))
    }

    /// `<'a, T: Bound, const N: usize>`, leaving out the parameters `impl Trait` arguments make.
    fn generics(&self, g: &Value) -> String {
        let params: Vec<String> = g["params"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| {
                let name = p["name"].as_str().unwrap_or("_");
                let kind = &p["kind"];
                if let Some(l) = kind.get("lifetime") {
                    let outlives: Vec<&str> =
                        l["outlives"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
                    return Some(if outlives.is_empty() {
                        name.into()
                    } else {
                        format!("{name}: {}", outlives.join(" + "))
                    });
                }
                if let Some(t) = kind.get("type") {
                    if t["is_synthetic"] == true {
                        return None;
                    }
                    let b = self.bounds(&t["bounds"]);
                    let d = t["default"].is_object().then(|| format!(" = {}", self.ty(&t["default"])));
                    return Some(format!(
                        "{name}{}{}",
                        if b.is_empty() { String::new() } else { format!(": {b}") },
                        d.unwrap_or_default()
                    ));
                }
                if let Some(c) = kind.get("const") {
                    return Some(format!("const {name}: {}", self.ty(&c["type"])));
                }
                Some(name.into())
            })
            .collect();
        if params.is_empty() { String::new() } else { format!("<{}>", params.join(", ")) }
    }

    fn where_clause(&self, g: &Value) -> String {
        let preds: Vec<String> = g["where_predicates"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| {
                if let Some(b) = p.get("bound_predicate") {
                    format!("{}: {}", self.ty(&b["type"]), self.bounds(&b["bounds"]))
                } else if let Some(l) = p.get("lifetime_predicate") {
                    let o: Vec<&str> =
                        l["outlives"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
                    format!("{}: {}", l["lifetime"].as_str().unwrap_or("'_"), o.join(" + "))
                } else if let Some(e) = p.get("eq_predicate") {
                    format!("{} = {}", self.ty(&e["lhs"]), self.term(&e["rhs"]))
                } else {
                    p.to_string()
                }
            })
            .collect();
        if preds.is_empty() { String::new() } else { format!(" where {}", preds.join(", ")) }
    }

    fn bounds(&self, bounds: &Value) -> String {
        let b: Vec<String> = bounds
            .as_array()
            .into_iter()
            .flatten()
            .map(|b| {
                if let Some(t) = b.get("trait_bound") {
                    let m = match t["modifier"].as_str() {
                        Some("maybe") => "?",
                        Some("maybe_const") => "~const ",
                        _ => "",
                    };
                    let hr = self.higher_ranked(&t["generic_params"]);
                    format!("{hr}{m}{}", self.path(&t["trait"]))
                } else if let Some(l) = b.get("outlives") {
                    l.as_str().unwrap_or("'_").to_string()
                } else if let Some(u) = b.get("use") {
                    let names: Vec<String> = u
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|a| match a {
                            Value::String(s) => s.clone(),
                            Value::Object(m) => {
                                m.values().next().and_then(Value::as_str).unwrap_or("_").to_string()
                            }
                            _ => "_".into(),
                        })
                        .collect();
                    format!("use<{}>", names.join(", "))
                } else {
                    b.to_string()
                }
            })
            .collect();
        b.join(" + ")
    }

    fn higher_ranked(&self, params: &Value) -> String {
        let names: Vec<&str> =
            params.as_array().into_iter().flatten().filter_map(|p| p["name"].as_str()).collect();
        if names.is_empty() { String::new() } else { format!("for<{}> ", names.join(", ")) }
    }

    /// A path to an item: its full path when rustdoc knows it, else as written.
    fn path(&self, p: &Value) -> String {
        if let Some(c) = self.canonical(&p["id"]) {
            return format!("{c}{}", self.args(&p["args"]));
        }
        let known = self.doc["paths"]
            .get(id_key(&p["id"]))
            .and_then(|s| s["path"].as_array())
            .map(|parts| parts.iter().filter_map(Value::as_str).collect::<Vec<_>>().join("::"));
        let written = p["path"].as_str().or(p["name"].as_str()).unwrap_or("?").to_string();
        format!("{}{}", known.unwrap_or(written), self.args(&p["args"]))
    }

    fn args(&self, a: &Value) -> String {
        if let Some(ab) = a.get("angle_bracketed") {
            let mut parts: Vec<String> = ab["args"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|g| match g {
                    Value::Object(m) if m.contains_key("type") => self.ty(&m["type"]),
                    Value::Object(m) if m.contains_key("lifetime") => {
                        m["lifetime"].as_str().unwrap_or("'_").into()
                    }
                    Value::Object(m) if m.contains_key("const") => {
                        m["const"]["expr"].as_str().unwrap_or("_").to_string()
                    }
                    _ => "_".into(),
                })
                .collect();
            for c in ab["constraints"].as_array().into_iter().flatten() {
                let name = c["name"].as_str().unwrap_or("_");
                let binding = &c["binding"];
                if let Some(eq) = binding.get("equality") {
                    parts.push(format!("{name}{} = {}", self.args(&c["args"]), self.term(eq)));
                } else if let Some(b) = binding.get("constraint") {
                    parts.push(format!("{name}: {}", self.bounds(b)));
                }
            }
            if parts.is_empty() { String::new() } else { format!("<{}>", parts.join(", ")) }
        } else if let Some(p) = a.get("parenthesized") {
            let inputs: Vec<String> =
                p["inputs"].as_array().into_iter().flatten().map(|t| self.ty(t)).collect();
            let out = match &p["output"] {
                Value::Null => String::new(),
                t => format!(" -> {}", self.ty(t)),
            };
            format!("({}){out}", inputs.join(", "))
        } else {
            String::new()
        }
    }

    fn term(&self, t: &Value) -> String {
        if let Some(ty) = t.get("type") {
            self.ty(ty)
        } else if let Some(c) = t.get("constant") {
            c["expr"].as_str().unwrap_or("_").to_string()
        } else {
            t.to_string()
        }
    }

    /// A type as Rust writes it.
    fn ty(&self, t: &Value) -> String {
        let Value::Object(m) = t else {
            return match t.as_str() {
                Some("infer") => "_".into(),
                Some(s) => s.into(),
                None => "?".into(),
            };
        };
        let Some((kind, v)) = m.iter().next() else { return "?".into() };
        match kind.as_str() {
            "resolved_path" => self.path(v),
            "generic" | "primitive" => v.as_str().unwrap_or("?").into(),
            "tuple" => {
                let ts: Vec<String> = v.as_array().into_iter().flatten().map(|t| self.ty(t)).collect();
                if ts.len() == 1 { format!("({},)", ts[0]) } else { format!("({})", ts.join(", ")) }
            }
            "slice" => format!("[{}]", self.ty(v)),
            "array" => format!("[{}; {}]", self.ty(&v["type"]), v["len"].as_str().unwrap_or("_")),
            "borrowed_ref" => {
                let life = v["lifetime"].as_str().map(|l| format!("{l} ")).unwrap_or_default();
                let m = if v["is_mutable"] == true { "mut " } else { "" };
                format!("&{life}{m}{}", self.ty(&v["type"]))
            }
            "raw_pointer" => {
                format!("*{} {}", if v["is_mutable"] == true { "mut" } else { "const" }, self.ty(&v["type"]))
            }
            "dyn_trait" => {
                let mut parts: Vec<String> = v["traits"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|p| {
                        format!("{}{}", self.higher_ranked(&p["generic_params"]), self.path(&p["trait"]))
                    })
                    .collect();
                if let Some(l) = v["lifetime"].as_str() {
                    parts.push(l.into());
                }
                format!("dyn {}", parts.join(" + "))
            }
            "impl_trait" => format!("impl {}", self.bounds(v)),
            "function_pointer" => {
                let (_, sig) =
                    self.function("", &serde_json::json!({ "sig": v["sig"], "header": v["header"] }));
                format!("{}fn{sig}", self.higher_ranked(&v["generic_params"]))
            }
            "qualified_path" => {
                let trait_ = match &v["trait"] {
                    Value::Null => String::new(),
                    p => format!(" as {}", self.path(p)),
                };
                format!(
                    "<{}{trait_}>::{}{}",
                    self.ty(&v["self_type"]),
                    v["name"].as_str().unwrap_or("_"),
                    self.args(&v["args"])
                )
            }
            "pat" => self.ty(&v["type"]),
            other => format!("<{other}>"),
        }
    }
}
