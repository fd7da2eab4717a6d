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
    // serde_json refuses nesting deeper than 128 itself, so parsing cannot overflow.
    let parsed: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| ProtocolError::payload(NAME, e.to_string()))?;
    from_json(parsed, 0)
}

/// Converts parsed JSON; also used for MessagePack-free JSON bodies over HTTP.
pub(crate) fn from_json(value: serde_json::Value, depth: usize) -> Result<Value, ProtocolError> {
    if depth > DEPTH_MAX {
        return Err(ProtocolError::payload(
            NAME,
            format!("nested deeper than {DEPTH_MAX}"),
        ));
    }
    Ok(match value {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None if n.is_u64() => {
                return Err(ProtocolError::payload(
                    NAME,
                    format!("integer {n} is out of range"),
                ))
            }
            None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        serde_json::Value::String(s) => Value::string(s),
        serde_json::Value::Array(items) => Value::List(
            items
                .into_iter()
                .map(|v| from_json(v, depth + 1))
                .collect::<Result<_, _>>()?,
        ),
        serde_json::Value::Object(map) => {
            if map.len() == 1 {
                if let Some(serde_json::Value::Number(n)) = map.get("$datetime") {
                    return n.as_i64().map(Value::DateTime).ok_or_else(|| {
                        ProtocolError::payload(NAME, "$datetime must be integral milliseconds")
                    });
                }
            }
            Value::Map(
                map.into_iter()
                    .map(|(k, v)| Ok((k.into(), from_json(v, depth + 1)?)))
                    .collect::<Result<_, ProtocolError>>()?,
            )
        }
    })
}
