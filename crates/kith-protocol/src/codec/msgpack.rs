//! MessagePack. Datetimes use the timestamp extension (type -1), 96-bit form.

use std::sync::Arc;

use kith_core::{Str, Value};
use rmp::encode as mp;

use super::{Node, DEPTH_MAX};
use crate::ProtocolError;

const NAME: &str = "msgpack";
const TIMESTAMP_EXT: i8 = -1;

// Writing to a `Vec<u8>` cannot fail, so the `Result`s of rmp's writers are ignored.

pub(crate) fn encode(doc: &Node<'_>) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    write_node(&mut out, doc);
    out
}

fn len32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn write_node(out: &mut Vec<u8>, node: &Node<'_>) {
    match node {
        Node::Value(v) => write_value(out, v),
        Node::Str(s) => {
            let _ = mp::write_str(out, s);
        }
        Node::UInt(n) => {
            let _ = mp::write_uint(out, *n);
        }
        Node::Bool(b) => {
            let _ = mp::write_bool(out, *b);
        }
        Node::Strings(items) => {
            let _ = mp::write_array_len(out, len32(items.len()));
            for s in items.iter() {
                let _ = mp::write_str(out, s);
            }
        }
        Node::Rows { values, width } => {
            let width = (*width).max(1);
            let _ = mp::write_array_len(out, len32(values.len() / width));
            for row in values.chunks(width) {
                let _ = mp::write_array_len(out, len32(row.len()));
                for v in row {
                    write_value(out, v);
                }
            }
        }
        Node::List(items) => {
            let _ = mp::write_array_len(out, len32(items.len()));
            for v in items.iter() {
                write_value(out, v);
            }
        }
        Node::Map(entries) => {
            let _ = mp::write_map_len(out, len32(entries.len()));
            for (k, v) in entries {
                let _ = mp::write_str(out, k);
                write_node(out, v);
            }
        }
    }
}

fn write_value(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Null => {
            let _ = mp::write_nil(out);
        }
        Value::Bool(b) => {
            let _ = mp::write_bool(out, *b);
        }
        Value::Int(i) => {
            let _ = mp::write_sint(out, *i);
        }
        Value::Float(x) => {
            let _ = mp::write_f64(out, *x);
        }
        Value::String(s) => {
            let _ = mp::write_str(out, s);
        }
        Value::DateTime(ms) => {
            let seconds = ms.div_euclid(1000);
            let nanos = (ms.rem_euclid(1000) * 1_000_000) as u32;
            let _ = mp::write_ext_meta(out, 12, TIMESTAMP_EXT);
            out.extend_from_slice(&nanos.to_be_bytes());
            out.extend_from_slice(&seconds.to_be_bytes());
        }
        Value::Temporal(t) => {
            let _ = mp::write_map_len(out, 1);
            let _ = mp::write_str(out, super::temporal_key(t));
            let _ = mp::write_str(out, &t.to_string());
        }
        Value::Point(p) => write_value(out, &super::point_map(p)),
        Value::Bytes(bytes) => {
            let _ = mp::write_bin(out, bytes);
        }
        Value::List(items) => {
            let _ = mp::write_array_len(out, len32(items.len()));
            for v in items {
                write_value(out, v);
            }
        }
        Value::Map(entries) => {
            let _ = mp::write_map_len(out, len32(entries.len()));
            for (k, v) in entries {
                let _ = mp::write_str(out, k);
                write_value(out, v);
            }
        }
    }
}

pub(crate) fn decode(bytes: &[u8]) -> Result<Value, ProtocolError> {
    let mut d = Decoder {
        bytes,
        pos: 0,
        strings: Vec::new(),
        values: Vec::new(),
    };
    let value = d.value(0)?;
    if d.pos != bytes.len() {
        return Err(ProtocolError::payload(
            NAME,
            format!("{} bytes after the document", bytes.len() - d.pos),
        ));
    }
    Ok(value)
}

/// Map keys and short strings remembered per document: a write of a thousand nodes
/// repeats the same few keys, operation names and labels a thousand times, and
/// sharing one `Arc<str>` each instead of allocating every occurrence was a visible
/// part of decoding one.
const STRING_CACHE_MAX: usize = 32;
/// Longer string values are rarely repeated (names, texts): not worth a lookup.
const CACHED_VALUE_BYTES_MAX: usize = 24;

/// Decodes straight into [`Value`]s (no intermediate tree), per the MessagePack
/// specification's formats.
struct Decoder<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Map keys (`Arc<str>`, as maps hold them).
    strings: Vec<(&'a [u8], Arc<str>)>,
    /// Short string values ([`Str`], as values hold them).
    values: Vec<(&'a [u8], Str)>,
}

impl<'a> Decoder<'a> {
    fn err(&self, what: impl Into<String>) -> ProtocolError {
        ProtocolError::payload(NAME, format!("{} at byte {}", what.into(), self.pos))
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], ProtocolError> {
        if self.bytes.len() - self.pos < n {
            return Err(self.err(format!("truncated: {n} more bytes needed")));
        }
        let bytes: &'a [u8] = self.bytes;
        let out = &bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    fn be(&mut self, n: usize) -> Result<u64, ProtocolError> {
        Ok(self
            .take(n)?
            .iter()
            .fold(0u64, |acc, b| (acc << 8) | u64::from(*b)))
    }

    fn str_bytes(&mut self, marker: u8) -> Result<Option<&'a [u8]>, ProtocolError> {
        let len = match marker {
            0xa0..=0xbf => usize::from(marker & 0x1f),
            0xd9 => self.be(1)? as usize,
            0xda => self.be(2)? as usize,
            0xdb => self.be(4)? as usize,
            _ => return Ok(None),
        };
        self.take(len).map(Some)
    }

    fn utf8(&self, bytes: &'a [u8]) -> Result<&'a str, ProtocolError> {
        std::str::from_utf8(bytes).map_err(|_| self.err("a string is not UTF-8"))
    }

    fn key(&mut self) -> Result<Arc<str>, ProtocolError> {
        let marker = self.take(1)?[0];
        let Some(bytes) = self.str_bytes(marker)? else {
            return Err(self.err(format!("map key with marker {marker:#04x} is not a string")));
        };
        self.shared(bytes)
    }

    /// The string for `bytes`, shared with an earlier occurrence in the document.
    fn shared(&mut self, bytes: &'a [u8]) -> Result<Arc<str>, ProtocolError> {
        if let Some((_, s)) = self.strings.iter().find(|(k, _)| *k == bytes) {
            return Ok(s.clone());
        }
        let s: Arc<str> = self.utf8(bytes)?.into();
        if self.strings.len() < STRING_CACHE_MAX {
            self.strings.push((bytes, s.clone()));
        }
        Ok(s)
    }

    /// The string value for `bytes`, shared with an earlier occurrence.
    fn shared_value(&mut self, bytes: &'a [u8]) -> Result<Str, ProtocolError> {
        if let Some((_, s)) = self.values.iter().find(|(k, _)| *k == bytes) {
            return Ok(s.clone());
        }
        let s = Str::new(self.utf8(bytes)?);
        if self.values.len() < STRING_CACHE_MAX {
            self.values.push((bytes, s.clone()));
        }
        Ok(s)
    }

    fn value(&mut self, depth: usize) -> Result<Value, ProtocolError> {
        if depth > DEPTH_MAX + 2 {
            return Err(self.err("nested too deeply"));
        }
        let marker = self.take(1)?[0];
        Ok(match marker {
            0xa0..=0xbf | 0xd9..=0xdb => {
                let bytes = self.str_bytes(marker)?.unwrap_or_default();
                if bytes.len() <= CACHED_VALUE_BYTES_MAX {
                    Value::String(self.shared_value(bytes)?)
                } else {
                    Value::String(self.utf8(bytes)?.into())
                }
            }
            0x00..=0x7f => Value::Int(i64::from(marker)),
            0xe0..=0xff => Value::Int(i64::from(marker as i8)),
            0xc0 => Value::Null,
            0xc2 => Value::Bool(false),
            0xc3 => Value::Bool(true),
            0xcc => Value::Int(self.be(1)? as i64),
            0xcd => Value::Int(self.be(2)? as i64),
            0xce => Value::Int(self.be(4)? as i64),
            0xcf => {
                let v = self.be(8)?;
                Value::Int(
                    i64::try_from(v)
                        .map_err(|_| self.err(format!("integer {v} is out of range")))?,
                )
            }
            0xd0 => Value::Int(i64::from(self.be(1)? as u8 as i8)),
            0xd1 => Value::Int(i64::from(self.be(2)? as u16 as i16)),
            0xd2 => Value::Int(i64::from(self.be(4)? as u32 as i32)),
            0xd3 => Value::Int(self.be(8)? as i64),
            0xca => Value::Float(f64::from(f32::from_bits(self.be(4)? as u32))),
            0xcb => Value::Float(f64::from_bits(self.be(8)?)),
            0x90..=0x9f | 0xdc | 0xdd => {
                let len = match marker {
                    0xdc => self.be(2)? as usize,
                    0xdd => self.be(4)? as usize,
                    _ => usize::from(marker & 0x0f),
                };
                // Every element takes at least a byte: never trust a length past that.
                let mut items = Vec::with_capacity(len.min(self.bytes.len() - self.pos));
                for _ in 0..len {
                    items.push(self.value(depth + 1)?);
                }
                Value::List(items)
            }
            0x80..=0x8f | 0xde | 0xdf => {
                let len = match marker {
                    0xde => self.be(2)? as usize,
                    0xdf => self.be(4)? as usize,
                    _ => usize::from(marker & 0x0f),
                };
                let mut entries = Vec::with_capacity(len.min((self.bytes.len() - self.pos) / 2));
                for _ in 0..len {
                    let key = self.key()?;
                    entries.push((key, self.value(depth + 1)?));
                }
                match super::typed_of(&entries) {
                    Ok(Some(t)) => t,
                    Ok(None) => Value::Map(entries),
                    Err(e) => return Err(self.err(e)),
                }
            }
            0xc4..=0xc6 => {
                let len = self.be(1 << (marker - 0xc4))? as usize;
                Value::Bytes(self.take(len)?.into())
            }
            0xd4..=0xd8 | 0xc7..=0xc9 => {
                let (len, header) = match marker {
                    0xd4 => (1, 0),
                    0xd5 => (2, 0),
                    0xd6 => (4, 0),
                    0xd7 => (8, 0),
                    0xd8 => (16, 0),
                    0xc7 => (0, 1),
                    0xc8 => (0, 2),
                    _ => (0, 4),
                };
                let len = if header > 0 {
                    self.be(header)? as usize
                } else {
                    len
                };
                let kind = self.take(1)?[0] as i8;
                let data = self.take(len)?;
                if kind != TIMESTAMP_EXT {
                    return Err(self.err(format!("extension type {kind} is not supported")));
                }
                Value::DateTime(timestamp_millis(data)?)
            }
            0xc1 => return Err(self.err("marker 0xc1 is never used")),
        })
    }
}

/// The three timestamp forms of the MessagePack specification, to milliseconds.
fn timestamp_millis(data: &[u8]) -> Result<i64, ProtocolError> {
    let be = |b: &[u8]| b.iter().fold(0u64, |acc, x| (acc << 8) | u64::from(*x));
    let (seconds, nanos) = match data.len() {
        4 => (be(data) as i64, 0),
        8 => {
            let v = be(data);
            ((v & 0x3_ffff_ffff) as i64, (v >> 34) as u32)
        }
        12 => (be(&data[4..]) as i64, be(&data[..4]) as u32),
        n => {
            return Err(ProtocolError::payload(
                NAME,
                format!("timestamp of {n} bytes"),
            ))
        }
    };
    if nanos >= 1_000_000_000 {
        return Err(ProtocolError::payload(
            NAME,
            "timestamp nanoseconds out of range",
        ));
    }
    seconds
        .checked_mul(1000)
        .and_then(|ms| ms.checked_add(i64::from(nanos / 1_000_000)))
        .ok_or_else(|| ProtocolError::payload(NAME, "timestamp out of range"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Value {
        Value::Map(vec![(
            "write".into(),
            Value::List(vec![
                Value::Map(vec![
                    ("op".into(), Value::String("create_node".into())),
                    ("n".into(), Value::Int(-70_000)),
                    ("big".into(), Value::Int(i64::MAX)),
                    ("small".into(), Value::Int(-3)),
                    ("x".into(), Value::Float(2.5)),
                    ("t".into(), Value::DateTime(-1_500)),
                    ("s".into(), Value::String("ü".repeat(40).into())),
                    ("b".into(), Value::Bool(true)),
                    ("z".into(), Value::Null),
                ]);
                20
            ]),
        )])
    }

    #[test]
    fn decodes_what_it_encodes_and_shares_repeated_keys() {
        let value = sample();
        let bytes = encode(&Node::Value(&value));
        let back = decode(&bytes).expect("decodes");
        assert_eq!(back, value);
        let Value::Map(top) = &back else {
            panic!("a map")
        };
        let Value::List(items) = &top[0].1 else {
            panic!("a list")
        };
        let (Value::Map(a), Value::Map(b)) = (&items[0], &items[1]) else {
            panic!("maps")
        };
        assert!(
            Arc::ptr_eq(&a[0].0, &b[0].0),
            "repeated keys share one allocation"
        );
    }

    #[test]
    fn every_truncation_is_an_error() {
        let bytes = encode(&Node::Value(&sample()));
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
    }

    #[test]
    fn hostile_lengths_and_markers_are_refused() {
        // An array claiming 2^32-1 elements with none present.
        assert!(decode(&[0xdd, 0xff, 0xff, 0xff, 0xff]).is_err());
        assert!(decode(&[0xc1]).is_err());
        // Byte arrays claiming more bytes than follow.
        assert!(decode(&[0xc4, 0x02, 0x00]).is_err());
        assert!(decode(&[0xc6, 0xff, 0xff, 0xff, 0xff, 0x00]).is_err());
        assert_eq!(
            decode(&[0xc4, 0x01, 0xfe]),
            Ok(Value::Bytes(vec![0xfe].into()))
        );
        let deep: Vec<u8> = std::iter::repeat_n(0x91, 200).chain([0x01]).collect();
        assert!(decode(&deep).is_err());
    }
}
