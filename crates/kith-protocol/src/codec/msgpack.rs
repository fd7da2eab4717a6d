//! MessagePack. Datetimes use the timestamp extension (type -1), 96-bit form.

use kith_core::Value;
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
    let mut reader = bytes;
    let value = rmpv::decode::read_value_with_max_depth(&mut reader, DEPTH_MAX + 2)
        .map_err(|e| ProtocolError::payload(NAME, e.to_string()))?;
    if !reader.is_empty() {
        return Err(ProtocolError::payload(
            NAME,
            format!("{} bytes after the document", reader.len()),
        ));
    }
    convert(value)
}

fn convert(value: rmpv::Value) -> Result<Value, ProtocolError> {
    Ok(match value {
        rmpv::Value::Nil => Value::Null,
        rmpv::Value::Boolean(b) => Value::Bool(b),
        rmpv::Value::Integer(i) => {
            Value::Int(i.as_i64().ok_or_else(|| {
                ProtocolError::payload(NAME, format!("integer {i} is out of range"))
            })?)
        }
        rmpv::Value::F32(x) => Value::Float(f64::from(x)),
        rmpv::Value::F64(x) => Value::Float(x),
        rmpv::Value::String(s) => Value::string(
            s.into_str()
                .ok_or_else(|| ProtocolError::payload(NAME, "a string is not UTF-8"))?,
        ),
        rmpv::Value::Binary(_) => {
            return Err(ProtocolError::payload(
                NAME,
                "binary values are not supported",
            ))
        }
        rmpv::Value::Array(items) => {
            Value::List(items.into_iter().map(convert).collect::<Result<_, _>>()?)
        }
        rmpv::Value::Map(entries) => Value::Map(
            entries
                .into_iter()
                .map(|(k, v)| match k {
                    rmpv::Value::String(k) => Ok((
                        k.into_str()
                            .ok_or_else(|| ProtocolError::payload(NAME, "a map key is not UTF-8"))?
                            .into(),
                        convert(v)?,
                    )),
                    other => Err(ProtocolError::payload(
                        NAME,
                        format!("map key {other} is not a string"),
                    )),
                })
                .collect::<Result<_, _>>()?,
        ),
        rmpv::Value::Ext(TIMESTAMP_EXT, data) => Value::DateTime(timestamp_millis(&data)?),
        rmpv::Value::Ext(kind, _) => {
            return Err(ProtocolError::payload(
                NAME,
                format!("extension type {kind} is not supported"),
            ))
        }
    })
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
