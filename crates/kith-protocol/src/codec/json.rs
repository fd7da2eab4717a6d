//! JSON (RFC 8259). Datetimes travel as `{"$datetime": <epoch ms>}`.

use std::io::Write;

use kith_core::Value;

use super::{Node, DEPTH_MAX};
use crate::ProtocolError;

const NAME: &str = "json";

pub(crate) fn encode(doc: &Node<'_>) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    write_node(&mut out, doc);
    out
}

fn write_str(out: &mut Vec<u8>, s: &str) {
    // serde_json's escaping; writing to a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, s);
}

fn write_node(out: &mut Vec<u8>, node: &Node<'_>) {
    match node {
        Node::Value(v) => write_value(out, v),
        Node::Str(s) => write_str(out, s),
        Node::UInt(n) => {
            let _ = write!(out, "{n}");
        }
        Node::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Node::Strings(items) => {
            out.push(b'[');
            for (i, s) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_str(out, s);
            }
            out.push(b']');
        }
        Node::Rows { values, width } => {
            out.push(b'[');
            for (i, row) in values.chunks(*width.max(&1)).enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_list(out, row);
            }
            out.push(b']');
        }
        Node::List(items) => write_list(out, items),
        Node::Map(entries) => {
            out.push(b'{');
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_str(out, k);
                out.push(b':');
                write_node(out, v);
            }
            out.push(b'}');
        }
    }
}

fn write_list(out: &mut Vec<u8>, items: &[Value]) {
    out.push(b'[');
    for (i, v) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_value(out, v);
    }
    out.push(b']');
}

fn write_value(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        // serde_json writes a float with a fraction or exponent (1.0, 1e300), so it
        // reads back as a float; JSON has no NaN or infinity, so those become null.
        Value::Float(x) if x.is_finite() => {
            let _ = serde_json::to_writer(&mut *out, x);
        }
        Value::Float(_) => out.extend_from_slice(b"null"),
        Value::String(s) => write_str(out, s),
        Value::DateTime(t) => {
            let _ = write!(out, "{{\"$datetime\":{t}}}");
        }
        Value::Temporal(t) => {
            let _ = write!(out, "{{\"{}\":\"{t}\"}}", super::temporal_key(t));
        }
        Value::Point(p) => write_value(out, &super::point_map(p)),
        Value::Bytes(bytes) => write_value(out, &super::bytes_map(bytes)),
        Value::List(items) => write_list(out, items),
        Value::Map(entries) => {
            out.push(b'{');
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_str(out, k);
                out.push(b':');
                write_value(out, v);
            }
            out.push(b'}');
        }
    }
}

pub(crate) fn decode(bytes: &[u8]) -> Result<Value, ProtocolError> {
    // Straight from text to kith values through a serde visitor: going through
    // `serde_json::Value` first allocated every document twice, which was the largest
    // cost of an HTTP round trip on the client.
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = serde::de::DeserializeSeed::deserialize(Seed { depth: 0 }, &mut deserializer)
        .map_err(|e| ProtocolError::payload(NAME, e.to_string()))?;
    deserializer
        .end()
        .map_err(|e| ProtocolError::payload(NAME, e.to_string()))?;
    Ok(value)
}

/// Deserializes one value, refusing nesting deeper than [`DEPTH_MAX`].
#[derive(Clone, Copy)]
struct Seed {
    depth: usize,
}

impl<'de> serde::de::DeserializeSeed<'de> for Seed {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        if self.depth > DEPTH_MAX {
            return Err(serde::de::Error::custom(format!(
                "nested deeper than {DEPTH_MAX}"
            )));
        }
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Seed {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::Int(i))
    }

    fn visit_u64<E: serde::de::Error>(self, u: u64) -> Result<Value, E> {
        i64::try_from(u)
            .map(Value::Int)
            .map_err(|_| E::custom(format!("integer {u} is out of range")))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        Ok(Value::Float(x))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::string(s))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let inner = Seed {
            depth: self.depth + 1,
        };
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element_seed(inner)? {
            items.push(item);
        }
        Ok(Value::List(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let inner = Seed {
            depth: self.depth + 1,
        };
        let mut entries: Vec<(std::sync::Arc<str>, Value)> = Vec::new();
        // A repeated key keeps its last value, as serde_json's own maps do. Small maps
        // are searched linearly; large ones get an index, so a hostile request with
        // 100,000 keys costs linear time, not quadratic.
        let mut index: Option<std::collections::HashMap<std::sync::Arc<str>, usize>> = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let value = map.next_value_seed(inner)?;
            if index.is_none() && entries.len() >= 16 {
                index = Some(
                    entries
                        .iter()
                        .enumerate()
                        .map(|(i, (k, _))| (k.clone(), i))
                        .collect(),
                );
            }
            let existing = match &index {
                Some(index) => index.get(key.as_ref()).copied(),
                None => entries.iter().position(|(k, _)| **k == *key),
            };
            match existing {
                Some(i) => entries[i].1 = value,
                None => {
                    let key: std::sync::Arc<str> = key.as_ref().into();
                    if let Some(index) = &mut index {
                        index.insert(key.clone(), entries.len());
                    }
                    entries.push((key, value));
                }
            }
        }
        if let [(key, value)] = entries.as_slice() {
            if &**key == "$datetime" {
                if let Value::Int(ms) = value {
                    return Ok(Value::DateTime(*ms));
                }
            }
        }
        match super::typed_of(&entries) {
            Ok(Some(t)) => Ok(t),
            Ok(None) if entries.len() == 1 && &*entries[0].0 == "$datetime" => {
                Err(serde::de::Error::custom(
                    "$datetime must be integral milliseconds or datetime text",
                ))
            }
            Ok(None) => Ok(Value::Map(entries)),
            Err(e) => Err(serde::de::Error::custom(e)),
        }
    }
}
