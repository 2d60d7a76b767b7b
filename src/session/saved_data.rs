//! Reading the data (lists and records) in a save with its values counted as they are read, so a
//! save cannot make one piece of data larger than the `data_values` budget a host's data is held to:
//! the reader stops at the first value past it, before the rest is built.

use serde::de::{DeserializeSeed, Deserializer, Error, MapAccess, SeqAccess, Visitor};
use serde_json::Value as J;
use std::cell::Cell;
use std::fmt;
use std::sync::Arc;

/// How a save being read on this thread holds its data: the most values in one piece, and whether
/// a piece went past it.
#[derive(Clone, Copy)]
struct Limit {
    per_piece: u64,
    passed: bool,
}

thread_local! {
    static LIMIT: Cell<Option<Limit>> = const { Cell::new(None) };
}

/// While alive, data read on this thread is counted against `per_piece`; [`Counting::passed`]
/// says whether a piece went past it. Dropping it ends the counting.
pub(super) struct Counting(Option<Limit>);

impl Counting {
    pub(super) fn new(per_piece: u64) -> Counting {
        Counting(LIMIT.replace(Some(Limit { per_piece: per_piece.max(1), passed: false })))
    }

    pub(super) fn passed(&self) -> bool {
        LIMIT.get().is_some_and(|l| l.passed)
    }
}

impl Drop for Counting {
    fn drop(&mut self) {
        LIMIT.set(self.0);
    }
}

/// Reads one piece of data: counted when a save is being read, as it is otherwise.
pub(crate) fn read<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<J>, D::Error> {
    match LIMIT.get() {
        None => serde::Deserialize::deserialize(d).map(Arc::new),
        Some(limit) => Counted { left: &mut limit.per_piece.clone() }.deserialize(d).map(Arc::new),
    }
}

/// Builds a value, taking one from `left` for each value in it and failing when none is left.
struct Counted<'a> {
    left: &'a mut u64,
}

impl Counted<'_> {
    fn take<E: Error>(&mut self) -> Result<(), E> {
        if *self.left == 0 {
            LIMIT.set(LIMIT.get().map(|l| Limit { passed: true, ..l }));
            return Err(E::custom("a piece of data holds more values than the `data_values` budget"));
        }
        *self.left -= 1;
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Counted<'_> {
    type Value = J;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<J, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Counted<'_> {
    type Value = J;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("data: a number, text, flag, list or record")
    }

    fn visit_bool<E: Error>(mut self, v: bool) -> Result<J, E> {
        self.take()?;
        Ok(J::Bool(v))
    }

    fn visit_i64<E: Error>(mut self, v: i64) -> Result<J, E> {
        self.take()?;
        Ok(J::from(v))
    }

    fn visit_u64<E: Error>(mut self, v: u64) -> Result<J, E> {
        self.take()?;
        Ok(J::from(v))
    }

    fn visit_f64<E: Error>(mut self, v: f64) -> Result<J, E> {
        self.take()?;
        Ok(serde_json::Number::from_f64(v).map(J::Number).unwrap_or(J::Null))
    }

    fn visit_str<E: Error>(mut self, v: &str) -> Result<J, E> {
        self.take()?;
        Ok(J::String(v.to_owned()))
    }

    fn visit_string<E: Error>(mut self, v: String) -> Result<J, E> {
        self.take()?;
        Ok(J::String(v))
    }

    fn visit_unit<E: Error>(mut self) -> Result<J, E> {
        self.take()?;
        Ok(J::Null)
    }

    fn visit_none<E: Error>(self) -> Result<J, E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<J, D::Error> {
        self.deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<J, A::Error> {
        self.take()?;
        let mut items = vec![];
        while let Some(v) = seq.next_element_seed(Counted { left: &mut *self.left })? {
            items.push(v);
        }
        Ok(J::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<J, A::Error> {
        self.take()?;
        let mut fields = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let v = map.next_value_seed(Counted { left: &mut *self.left })?;
            fields.insert(key, v);
        }
        Ok(J::Object(fields))
    }
}
