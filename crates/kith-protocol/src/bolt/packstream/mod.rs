//! PackStream, Bolt's value format: markers and sizes big-endian, as
//! <https://neo4j.com/docs/bolt/current/packstream/> specifies. [`Packer`] writes
//! values straight into an output buffer (the server encodes records without an
//! intermediate tree); [`unpack`] reads a message into a [`Pack`] tree, bounded in depth
//! and never allocating more than the bytes it was given can fill.

mod pack;
mod unpack;

pub use pack::Packer;
pub use unpack::{unpack, DEPTH_MAX};

/// A decoded PackStream value.
#[derive(Clone, Debug, PartialEq)]
pub enum Pack {
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A 64-bit signed integer.
    Int(i64),
    /// A 64-bit float.
    Float(f64),
    /// A byte array.
    Bytes(Vec<u8>),
    /// A UTF-8 string.
    String(String),
    /// A list.
    List(Vec<Pack>),
    /// A map, in the order it was sent.
    Map(Vec<(String, Pack)>),
    /// A structure: its tag and its fields (messages, nodes, temporal values...).
    Struct(u8, Vec<Pack>),
}

impl Pack {
    /// The entry `key` of a map.
    pub fn get(&self, key: &str) -> Option<&Pack> {
        match self {
            Pack::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Pack::String(s) => Some(s),
            _ => None,
        }
    }

    /// The integer, if this is one.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Pack::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// What kind of value this is, for error messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Pack::Null => "null",
            Pack::Bool(_) => "a boolean",
            Pack::Int(_) => "an integer",
            Pack::Float(_) => "a float",
            Pack::Bytes(_) => "a byte array",
            Pack::String(_) => "a string",
            Pack::List(_) => "a list",
            Pack::Map(_) => "a map",
            Pack::Struct(..) => "a structure",
        }
    }
}

/// Marker bytes (PackStream specification, "Markers").
pub(crate) mod marker {
    pub const NULL: u8 = 0xC0;
    pub const FLOAT_64: u8 = 0xC1;
    pub const FALSE: u8 = 0xC2;
    pub const TRUE: u8 = 0xC3;
    pub const INT_8: u8 = 0xC8;
    pub const INT_16: u8 = 0xC9;
    pub const INT_32: u8 = 0xCA;
    pub const INT_64: u8 = 0xCB;
    pub const BYTES_8: u8 = 0xCC;
    pub const BYTES_16: u8 = 0xCD;
    pub const BYTES_32: u8 = 0xCE;
    pub const TINY_STRING: u8 = 0x80;
    pub const STRING_8: u8 = 0xD0;
    pub const STRING_16: u8 = 0xD1;
    pub const STRING_32: u8 = 0xD2;
    pub const TINY_LIST: u8 = 0x90;
    pub const LIST_8: u8 = 0xD4;
    pub const LIST_16: u8 = 0xD5;
    pub const LIST_32: u8 = 0xD6;
    pub const TINY_MAP: u8 = 0xA0;
    pub const MAP_8: u8 = 0xD8;
    pub const MAP_16: u8 = 0xD9;
    pub const MAP_32: u8 = 0xDA;
    pub const TINY_STRUCT: u8 = 0xB0;
}

#[cfg(test)]
mod tests;
