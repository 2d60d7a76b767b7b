//! Game states written as compact keys for merging equal ones (`state_key`, `odds::states`):
//! short tagged bytes instead of JSON text, telling values apart exactly where their JSON texts
//! differ, for a fraction of the room and of the time to write and compare.
//!
//! Every value starts with a tag that says what it is, and every list, record and variant with
//! contents ends with `END`, which no value starts with: a key read from the front has one reading,
//! so two keys are equal only when they hold equal values, and keys written one after another
//! cannot run into each other. What JSON writes the same way is written the same way here (any
//! whole number as a number whatever its width, nothing and an absent value and a number that is
//! not finite as `null`, a value in `Some` as itself), so paths merge exactly where they merged
//! when keys were JSON text. A record's field names are left out: a record's type fixes them, in
//! order, and a field left out (`skip_serializing_if`) is written as `SKIPPED` in its place.

use serde::Serialize;
use serde::ser;
use std::fmt;

const NULL: u8 = 1;
const FALSE: u8 = 2;
const TRUE: u8 = 3;
const INT: u8 = 4;
const BIG: u8 = 5;
const FLOAT: u8 = 6;
const STR: u8 = 7;
const BYTES: u8 = 8;
const SEQ: u8 = 9;
const MAP: u8 = 10;
const RECORD: u8 = 11;
const UNIT_VARIANT: u8 = 12;
const NEWTYPE_VARIANT: u8 = 13;
const TUPLE_VARIANT: u8 = 14;
const RECORD_VARIANT: u8 = 15;
const SKIPPED: u8 = 16;
const END: u8 = 0;
// What is small takes one byte, tag and all: whole numbers from -16 to 47, variants 0 to 31 of each
// shape, text of up to 31 bytes (then the bytes). Each value has one writing: the short one when
// it fits, the long one otherwise.
const SMALL_INT: u8 = 32;
const SMALL_INT_LOW: i128 = -16;
const SMALL_INT_HIGH: i128 = 47;
const SMALL_UNIT_VARIANT: u8 = 96;
const SMALL_NEWTYPE_VARIANT: u8 = 128;
const SMALL_RECORD_VARIANT: u8 = 160;
const SMALL_TUPLE_VARIANT: u8 = 192;
const SMALL_STR: u8 = 224;
const SMALL: u32 = 32;

/// Appends the compact key of `v` to `out`.
pub(crate) fn write_key<T: Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) {
    // Writing plain values into a vector cannot fail.
    let _ = v.serialize(&mut Writer { out });
}

struct Writer<'a> {
    out: &'a mut Vec<u8>,
}

impl Writer<'_> {
    fn varint(&mut self, mut n: u128) {
        loop {
            let low = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                self.out.push(low);
                return;
            }
            self.out.push(low | 0x80);
        }
    }
    fn int(&mut self, n: i128) {
        if (SMALL_INT_LOW..=SMALL_INT_HIGH).contains(&n) {
            self.out.push(SMALL_INT + (n - SMALL_INT_LOW) as u8);
            return;
        }
        self.out.push(INT);
        // Zigzag: small numbers of either sign take one byte.
        self.varint(((n << 1) ^ (n >> 127)) as u128);
    }
    fn tagged(&mut self, tag: u8, small: u8, index: u32) {
        if index < SMALL {
            self.out.push(small + index as u8);
            return;
        }
        self.out.push(tag);
        self.varint(u128::from(index));
    }
    fn text(&mut self, tag: u8, bytes: &[u8]) {
        self.out.push(tag);
        self.varint(bytes.len() as u128);
        self.out.extend_from_slice(bytes);
    }
}

/// Never made: writing into a vector does not fail, but serde asks for an error type.
#[derive(Debug)]
pub(crate) struct Never;

impl fmt::Display for Never {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value could not be written as a key")
    }
}

impl std::error::Error for Never {}

impl ser::Error for Never {
    fn custom<T: fmt::Display>(_: T) -> Never {
        Never
    }
}

type R = Result<(), Never>;

impl<'a, 'b> ser::Serializer for &'a mut Writer<'b> {
    type Ok = ();
    type Error = Never;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_bool(self, v: bool) -> R {
        self.out.push(if v { TRUE } else { FALSE });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> R {
        self.serialize_i128(i128::from(v))
    }
    fn serialize_i16(self, v: i16) -> R {
        self.serialize_i128(i128::from(v))
    }
    fn serialize_i32(self, v: i32) -> R {
        self.serialize_i128(i128::from(v))
    }
    fn serialize_i64(self, v: i64) -> R {
        self.serialize_i128(i128::from(v))
    }
    fn serialize_i128(self, v: i128) -> R {
        self.int(v);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> R {
        self.serialize_i128(i128::from(v))
    }
    fn serialize_u16(self, v: u16) -> R {
        self.serialize_i128(i128::from(v))
    }
    fn serialize_u32(self, v: u32) -> R {
        self.serialize_i128(i128::from(v))
    }
    fn serialize_u64(self, v: u64) -> R {
        self.serialize_i128(i128::from(v))
    }
    fn serialize_u128(self, v: u128) -> R {
        match i128::try_from(v) {
            Ok(v) => self.int(v),
            // Beyond i128: the same number always takes this way, so it is still one reading.
            Err(_) => {
                self.out.push(BIG);
                self.out.extend_from_slice(&v.to_le_bytes());
            }
        }
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> R {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> R {
        // As JSON has it: a number that is not finite is `null`.
        if !v.is_finite() {
            return self.serialize_unit();
        }
        self.out.push(FLOAT);
        self.out.extend_from_slice(&v.to_bits().to_le_bytes());
        Ok(())
    }
    fn serialize_char(self, v: char) -> R {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> R {
        if v.len() < SMALL as usize {
            self.out.push(SMALL_STR + v.len() as u8);
            self.out.extend_from_slice(v.as_bytes());
            return Ok(());
        }
        self.text(STR, v.as_bytes());
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> R {
        self.text(BYTES, v);
        Ok(())
    }
    fn serialize_none(self) -> R {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> R {
        v.serialize(self)
    }
    fn serialize_unit(self) -> R {
        self.out.push(NULL);
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> R {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, index: u32, _: &'static str) -> R {
        self.tagged(UNIT_VARIANT, SMALL_UNIT_VARIANT, index);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> R {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        v: &T,
    ) -> R {
        self.tagged(NEWTYPE_VARIANT, SMALL_NEWTYPE_VARIANT, index);
        v.serialize(self)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self, Never> {
        self.out.push(SEQ);
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, Never> {
        self.serialize_seq(None)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Never> {
        self.serialize_seq(None)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Never> {
        self.tagged(TUPLE_VARIANT, SMALL_TUPLE_VARIANT, index);
        Ok(self)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self, Never> {
        self.out.push(MAP);
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Never> {
        self.out.push(RECORD);
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Never> {
        self.tagged(RECORD_VARIANT, SMALL_RECORD_VARIANT, index);
        Ok(self)
    }
}

// Lists, tuples and a tuple variant's fields: each element in turn, then `END`.
macro_rules! elements {
    ($($list:ident :: $add:ident),*) => {$(
        impl ser::$list for &mut Writer<'_> {
            type Ok = ();
            type Error = Never;
            fn $add<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
                v.serialize(&mut **self)
            }
            fn end(self) -> R {
                self.out.push(END);
                Ok(())
            }
        }
    )*};
}

elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for &mut Writer<'_> {
    type Ok = ();
    type Error = Never;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> R {
        k.serialize(&mut **self)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        v.serialize(&mut **self)
    }
    fn end(self) -> R {
        self.out.push(END);
        Ok(())
    }
}

// Records and a record variant's fields: each field's value in turn (its name fixed by the type), a
// field left out as `SKIPPED` in its place, then `END`.
macro_rules! fields {
    ($($record:ident),*) => {$(
        impl ser::$record for &mut Writer<'_> {
            type Ok = ();
            type Error = Never;
            fn serialize_field<T: Serialize + ?Sized>(&mut self, _: &'static str, v: &T) -> R {
                v.serialize(&mut **self)
            }
            fn skip_field(&mut self, _: &'static str) -> R {
                self.out.push(SKIPPED);
                Ok(())
            }
            fn end(self) -> R {
                self.out.push(END);
                Ok(())
            }
        }
    )*};
}

fields!(SerializeStruct, SerializeStructVariant);

#[cfg(test)]
mod tests {
    use super::write_key;
    use crate::program::Value;
    use serde::Serialize;

    fn key<T: Serialize>(v: &T) -> Vec<u8> {
        let mut out = vec![];
        write_key(&mut out, v);
        out
    }

    /// Every pair of `values` has equal keys exactly when it has equal JSON texts.
    fn alike_as_json<T: Serialize + std::fmt::Debug>(values: &[T]) {
        for a in values {
            for b in values {
                let json = serde_json::to_string(a).unwrap() == serde_json::to_string(b).unwrap();
                assert_eq!(key(a) == key(b), json, "{a:?} and {b:?}");
            }
        }
    }

    #[test]
    fn keys_are_equal_exactly_when_json_texts_are() {
        // Numbers on both sides of the short forms' edges, names, entities, nothing.
        let mut values: Vec<Value> = [-17, -16, 0, 1, 47, 48, 300, i64::MIN, i64::MAX].map(Value::Int).into();
        values.extend([
            Value::Bool(false),
            Value::Bool(true),
            Value::None,
            Value::Entity(0),
            Value::Entity(1),
        ]);
        values.extend([(0, 0), (0, 1), (1, 0), (40, 2)].map(|(set, index)| Value::Name { set, index }));
        alike_as_json(&values);
        // Texts on both sides of 31 bytes, and lists of them.
        let texts: Vec<String> = [0, 1, 30, 31, 32, 200].iter().map(|n| "x".repeat(*n)).collect();
        alike_as_json(&texts);
        let lists: Vec<Vec<String>> =
            vec![vec![], vec![String::new()], vec![String::new(); 2], texts.clone()];
        alike_as_json(&lists);
        // What JSON writes alike: a number of any width, `None` and `()`, `Some(x)` and `x`.
        assert_eq!(key(&(5u8, Some(3i64), ())), key(&(5i64, 3u32, None::<u8>)));
        // Records whose fields are left out in different places differ.
        #[derive(Serialize, Debug)]
        struct Two {
            #[serde(skip_serializing_if = "Option::is_none")]
            a: Option<u8>,
            #[serde(skip_serializing_if = "Option::is_none")]
            b: Option<u8>,
        }
        alike_as_json(&[Two { a: Some(1), b: None }, Two { a: None, b: Some(1) }, Two { a: None, b: None }]);
    }

    #[test]
    fn keys_written_one_after_another_do_not_run_into_each_other() {
        // ["a", "bc"] and ["ab", "c"]: the same letters, split differently.
        let (mut one, mut two) = (vec![], vec![]);
        write_key(&mut one, "a");
        write_key(&mut one, "bc");
        write_key(&mut two, "ab");
        write_key(&mut two, "c");
        assert_ne!(one, two);
    }
}
