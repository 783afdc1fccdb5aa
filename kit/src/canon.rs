//! A canonical binary encoding of any serde value, written straight into a
//! byte sink: integers as fixed-width little-endian, strings and byte
//! strings and sequences with a length first, enum variants by index, an
//! option as a tag byte. It depends only on the data's shape and values,
//! never on the compiler or on `std::hash`, so the state hash built on it
//! is the same everywhere; and it allocates nothing, so hashing stays cheap.

use serde::ser::{self, Serialize};

/// Where the bytes go.
pub trait Sink {
    /// Takes the next bytes.
    fn feed(&mut self, bytes: &[u8]);
}

/// Why an encoding failed: only for types this encoding does not take.
#[derive(Debug)]
pub struct Unsupported(String);

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Unsupported(msg.to_string())
    }
}

/// Encodes `value` into `sink`.
pub fn encode<S: Sink, T: Serialize + ?Sized>(sink: &mut S, value: &T) -> Result<(), Unsupported> {
    value.serialize(&mut Canon(sink))
}

/// The serializer.
struct Canon<'a, S: Sink>(&'a mut S);

impl<S: Sink> Canon<'_, S> {
    fn len(&mut self, n: usize) {
        self.0.feed(&(n as u64).to_le_bytes());
    }
}

type R = Result<(), Unsupported>;

impl<'a, 'b, S: Sink> ser::Serializer for &'a mut Canon<'b, S> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_bool(self, v: bool) -> R {
        self.0.feed(&[u8::from(v)]);
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> R {
        self.0.feed(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> R {
        self.0.feed(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> R {
        self.0.feed(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> R {
        self.0.feed(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> R {
        self.0.feed(&[v]);
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> R {
        self.0.feed(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> R {
        self.0.feed(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> R {
        self.0.feed(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> R {
        self.0.feed(&v.to_bits().to_le_bytes());
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> R {
        self.0.feed(&v.to_bits().to_le_bytes());
        Ok(())
    }
    fn serialize_char(self, v: char) -> R {
        self.0.feed(&u32::from(v).to_le_bytes());
        Ok(())
    }
    fn serialize_str(self, v: &str) -> R {
        self.serialize_bytes(v.as_bytes())
    }
    fn serialize_bytes(self, v: &[u8]) -> R {
        self.len(v.len());
        self.0.feed(v);
        Ok(())
    }
    fn serialize_none(self) -> R {
        self.0.feed(&[0]);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> R {
        self.0.feed(&[1]);
        value.serialize(self)
    }
    fn serialize_unit(self) -> R {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> R {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, index: u32, _: &'static str) -> R {
        self.serialize_u32(index)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> R {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        value: &T,
    ) -> R {
        self.0.feed(&index.to_le_bytes());
        value.serialize(self)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, Unsupported> {
        let n = len.ok_or_else(|| Unsupported("a sequence of unknown length".into()))?;
        self.len(n);
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, Unsupported> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Unsupported> {
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Unsupported> {
        self.0.feed(&index.to_le_bytes());
        Ok(self)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self, Unsupported> {
        let n = len.ok_or_else(|| Unsupported("a map of unknown length".into()))?;
        self.len(n);
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Unsupported> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Unsupported> {
        self.0.feed(&index.to_le_bytes());
        Ok(self)
    }
}

macro_rules! compound {
    ($trait:ident, $method:ident) => {
        impl<S: Sink> ser::$trait for &mut Canon<'_, S> {
            type Ok = ();
            type Error = Unsupported;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
                value.serialize(&mut **self)
            }
            fn end(self) -> R {
                Ok(())
            }
        }
    };
}

compound!(SerializeSeq, serialize_element);
compound!(SerializeTuple, serialize_element);
compound!(SerializeTupleStruct, serialize_field);
compound!(SerializeTupleVariant, serialize_field);

impl<S: Sink> ser::SerializeMap for &mut Canon<'_, S> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> R {
        key.serialize(&mut **self)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
        value.serialize(&mut **self)
    }
    fn end(self) -> R {
        Ok(())
    }
}

impl<S: Sink> ser::SerializeStruct for &mut Canon<'_, S> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, _: &'static str, value: &T) -> R {
        value.serialize(&mut **self)
    }
    fn end(self) -> R {
        Ok(())
    }
}

impl<S: Sink> ser::SerializeStructVariant for &mut Canon<'_, S> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, _: &'static str, value: &T) -> R {
        value.serialize(&mut **self)
    }
    fn end(self) -> R {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Sink for Vec<u8> {
        fn feed(&mut self, bytes: &[u8]) {
            self.extend_from_slice(bytes);
        }
    }

    #[derive(serde::Serialize)]
    enum E {
        A,
        B(u16),
    }

    #[test]
    fn the_encoding_is_fixed_width_and_length_prefixed() {
        let mut out = Vec::new();
        encode(&mut out, &(1u8, "ab", vec![E::A, E::B(7)], Some(2u32))).expect("encodes");
        let expected: Vec<u8> = [
            vec![1],
            2u64.to_le_bytes().to_vec(),
            b"ab".to_vec(),
            2u64.to_le_bytes().to_vec(),
            0u32.to_le_bytes().to_vec(),
            1u32.to_le_bytes().to_vec(),
            7u16.to_le_bytes().to_vec(),
            vec![1],
            2u32.to_le_bytes().to_vec(),
        ]
        .concat();
        assert_eq!(out, expected);
    }
}
