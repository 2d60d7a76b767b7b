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
        self.out.push(INT);
        // Zigzag: small numbers of either sign take one byte.
        self.varint(((n << 1) ^ (n >> 127)) as u128);
    }
    fn tagged(&mut self, tag: u8, index: u32) {
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
        self.tagged(UNIT_VARIANT, index);
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
        self.tagged(NEWTYPE_VARIANT, index);
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
        self.tagged(TUPLE_VARIANT, index);
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
        self.tagged(RECORD_VARIANT, index);
        Ok(self)
    }
}

impl ser::SerializeSeq for &mut Writer<'_> {
    type Ok = ();
    type Error = Never;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        v.serialize(&mut **self)
    }
    fn end(self) -> R {
        self.out.push(END);
        Ok(())
    }
}

impl ser::SerializeTuple for &mut Writer<'_> {
    type Ok = ();
    type Error = Never;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        v.serialize(&mut **self)
    }
    fn end(self) -> R {
        self.out.push(END);
        Ok(())
    }
}

impl ser::SerializeTupleStruct for &mut Writer<'_> {
    type Ok = ();
    type Error = Never;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        v.serialize(&mut **self)
    }
    fn end(self) -> R {
        self.out.push(END);
        Ok(())
    }
}

impl ser::SerializeTupleVariant for &mut Writer<'_> {
    type Ok = ();
    type Error = Never;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        v.serialize(&mut **self)
    }
    fn end(self) -> R {
        self.out.push(END);
        Ok(())
    }
}

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

impl ser::SerializeStruct for &mut Writer<'_> {
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

impl ser::SerializeStructVariant for &mut Writer<'_> {
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
