//! BSON 1.1. Datetimes are BSON UTC datetimes (epoch milliseconds).

use bson::{RawArrayBuf, RawBson, RawDocumentBuf};
use kith_core::Value;

use super::{Node, DEPTH_MAX};
use crate::ProtocolError;

const NAME: &str = "bson";

pub(crate) fn encode(doc: &Node<'_>) -> Vec<u8> {
    match doc {
        Node::Map(entries) => map_of_nodes(entries).into_bytes(),
        // Callers always pass a map at the top (`codec::encode`'s contract).
        other => {
            let mut d = RawDocumentBuf::new();
            d.append("value", node(other));
            d.into_bytes()
        }
    }
}

fn map_of_nodes(entries: &[(&str, Node<'_>)]) -> RawDocumentBuf {
    let mut d = RawDocumentBuf::new();
    for (k, v) in entries {
        d.append(*k, node(v));
    }
    d
}

fn node(n: &Node<'_>) -> RawBson {
    match n {
        Node::Value(v) => value(v),
        Node::Str(s) => RawBson::String((*s).to_owned()),
        Node::UInt(n) => RawBson::Int64(i64::try_from(*n).unwrap_or(i64::MAX)),
        Node::Bool(b) => RawBson::Boolean(*b),
        Node::Strings(items) => {
            let mut a = RawArrayBuf::new();
            for s in items.iter() {
                a.push(s.as_str());
            }
            RawBson::Array(a)
        }
        Node::Rows { values, width } => {
            let mut rows = RawArrayBuf::new();
            for row in values.chunks((*width).max(1)) {
                let mut r = RawArrayBuf::new();
                for v in row {
                    r.push(value(v));
                }
                rows.push(r);
            }
            RawBson::Array(rows)
        }
        Node::Map(entries) => RawBson::Document(map_of_nodes(entries)),
        Node::List(items) => {
            let mut a = RawArrayBuf::new();
            for item in items.iter() {
                a.push(value(item));
            }
            RawBson::Array(a)
        }
    }
}

fn value(v: &Value) -> RawBson {
    match v {
        Value::Null => RawBson::Null,
        Value::Bool(b) => RawBson::Boolean(*b),
        Value::Int(i) => RawBson::Int64(*i),
        Value::Float(x) => RawBson::Double(*x),
        Value::String(s) => RawBson::String(s.to_string()),
        Value::DateTime(ms) => RawBson::DateTime(bson::DateTime::from_millis(*ms)),
        Value::List(items) => {
            let mut a = RawArrayBuf::new();
            for item in items {
                a.push(value(item));
            }
            RawBson::Array(a)
        }
        Value::Map(entries) => {
            let mut d = RawDocumentBuf::new();
            for (k, item) in entries {
                d.append(&**k, value(item));
            }
            RawBson::Document(d)
        }
    }
}

pub(crate) fn decode(bytes: &[u8]) -> Result<Value, ProtocolError> {
    let declared = bytes
        .get(..4)
        .and_then(|b| <[u8; 4]>::try_from(b).ok())
        .map(i32::from_le_bytes)
        .ok_or_else(|| ProtocolError::payload(NAME, "shorter than a document's length prefix"))?;
    if usize::try_from(declared).ok() != Some(bytes.len()) {
        return Err(ProtocolError::payload(
            NAME,
            format!(
                "document declares {declared} bytes but the payload has {}",
                bytes.len()
            ),
        ));
    }
    // Walk the raw bytes straight into values: building a `bson::Document` first
    // doubled the allocations of every decode.
    let doc = bson::RawDocument::from_bytes(bytes)
        .map_err(|e| ProtocolError::payload(NAME, e.to_string()))?;
    raw_document(doc, 0)
}

fn raw_document(doc: &bson::RawDocument, depth: usize) -> Result<Value, ProtocolError> {
    if depth > DEPTH_MAX {
        return Err(ProtocolError::payload(
            NAME,
            format!("nested deeper than {DEPTH_MAX}"),
        ));
    }
    let mut entries = Vec::new();
    for element in doc {
        let (key, value) = element.map_err(|e| ProtocolError::payload(NAME, e.to_string()))?;
        entries.push((key.into(), raw_value(value, depth + 1)?));
    }
    Ok(Value::Map(entries))
}

fn raw_value(value: bson::RawBsonRef<'_>, depth: usize) -> Result<Value, ProtocolError> {
    use bson::RawBsonRef as R;
    Ok(match value {
        R::Null => Value::Null,
        R::Boolean(b) => Value::Bool(b),
        R::Int32(i) => Value::Int(i64::from(i)),
        R::Int64(i) => Value::Int(i),
        R::Double(x) => Value::Float(x),
        R::String(s) => Value::string(s),
        R::DateTime(t) => Value::DateTime(t.timestamp_millis()),
        R::Document(d) => raw_document(d, depth)?,
        R::Array(a) => {
            if depth > DEPTH_MAX {
                return Err(ProtocolError::payload(
                    NAME,
                    format!("nested deeper than {DEPTH_MAX}"),
                ));
            }
            let mut items = Vec::new();
            for item in a {
                let item = item.map_err(|e| ProtocolError::payload(NAME, e.to_string()))?;
                items.push(raw_value(item, depth + 1)?);
            }
            Value::List(items)
        }
        other => {
            return Err(ProtocolError::payload(
                NAME,
                format!("BSON type {:?} is not supported", other.element_type()),
            ))
        }
    })
}
