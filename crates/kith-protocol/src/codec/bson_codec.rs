//! BSON 1.1. Datetimes are BSON UTC datetimes (epoch milliseconds).

use kith_core::Value;

use super::{Node, DEPTH_MAX};
use crate::ProtocolError;

const NAME: &str = "bson";

pub(crate) fn encode(doc: &Node<'_>) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    match doc {
        Node::Map(entries) => write_node_map(&mut out, entries),
        // Callers always pass a map at the top (`codec::encode`'s contract).
        other => write_node_map(&mut out, &[("value", clone_node(other))]),
    }
    out
}

/// A shallow copy of a node, for the one non-map top-level case.
fn clone_node<'a>(n: &Node<'a>) -> Node<'a> {
    match n {
        Node::Value(v) => Node::Value(v),
        Node::Str(s) => Node::Str(s),
        Node::UInt(u) => Node::UInt(*u),
        Node::Bool(b) => Node::Bool(*b),
        Node::Strings(s) => Node::Strings(s),
        Node::Rows { values, width } => Node::Rows {
            values,
            width: *width,
        },
        Node::Map(entries) => Node::Map(entries.iter().map(|(k, v)| (*k, clone_node(v))).collect()),
        Node::List(items) => Node::List(items),
    }
}

// BSON written straight into one buffer (BSON 1.1: a document is its i32 length, its
// elements, and a 0 byte; an array is a document keyed "0", "1", ...). Building it
// from nested `RawDocumentBuf`s copied every row into its parent and made BSON the
// slowest encoding for answers.

const DOUBLE: u8 = 0x01;
const STRING: u8 = 0x02;
const DOCUMENT: u8 = 0x03;
const ARRAY: u8 = 0x04;
const BOOLEAN: u8 = 0x08;
const DATETIME: u8 = 0x09;
const NULL: u8 = 0x0A;
const BINARY: u8 = 0x05;
/// BSON's subtype for bytes with no further meaning.
const BINARY_GENERIC: u8 = 0x00;
const INT64: u8 = 0x12;

/// Starts a document; returns where its length goes.
fn open(out: &mut Vec<u8>) -> usize {
    let at = out.len();
    out.extend_from_slice(&[0; 4]);
    at
}

/// Ends a document and writes its length.
fn close(out: &mut Vec<u8>, at: usize) {
    out.push(0);
    let len = (out.len() - at) as i32;
    out[at..at + 4].copy_from_slice(&len.to_le_bytes());
}

/// An element header: type and key. Keys are C strings, so a NUL in a key is
/// written as U+FFFD (the store refuses such names; this keeps the encoder total).
fn element(out: &mut Vec<u8>, kind: u8, key: &str) {
    out.push(kind);
    if key.as_bytes().contains(&0) {
        out.extend_from_slice(key.replace('\0', "\u{FFFD}").as_bytes());
    } else {
        out.extend_from_slice(key.as_bytes());
    }
    out.push(0);
}

/// Array keys "0", "1", ... without allocating.
fn index_key(i: usize, buf: &mut itoa_buf::Buf) -> &str {
    buf.format(i)
}

mod itoa_buf {
    /// Formats array indexes into a reusable stack buffer.
    pub(super) struct Buf([u8; 20]);

    impl Buf {
        pub(super) fn new() -> Buf {
            Buf([0; 20])
        }

        pub(super) fn format(&mut self, mut n: usize) -> &str {
            let mut at = self.0.len();
            loop {
                at -= 1;
                self.0[at] = b'0' + (n % 10) as u8;
                n /= 10;
                if n == 0 {
                    break;
                }
            }
            // Only ASCII digits were written.
            std::str::from_utf8(&self.0[at..]).unwrap_or("0")
        }
    }
}

fn write_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&((s.len() + 1) as i32).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
    out.push(0);
}

fn write_node_map(out: &mut Vec<u8>, entries: &[(&str, Node<'_>)]) {
    let at = open(out);
    for (k, v) in entries {
        write_node(out, k, v);
    }
    close(out, at);
}

fn write_node(out: &mut Vec<u8>, key: &str, n: &Node<'_>) {
    match n {
        Node::Value(v) => write_value(out, key, v),
        Node::Str(s) => {
            element(out, STRING, key);
            write_str(out, s);
        }
        Node::UInt(u) => {
            element(out, INT64, key);
            out.extend_from_slice(&i64::try_from(*u).unwrap_or(i64::MAX).to_le_bytes());
        }
        Node::Bool(b) => {
            element(out, BOOLEAN, key);
            out.push(u8::from(*b));
        }
        Node::Strings(items) => {
            element(out, ARRAY, key);
            let at = open(out);
            let mut buf = itoa_buf::Buf::new();
            for (i, s) in items.iter().enumerate() {
                element(out, STRING, index_key(i, &mut buf));
                write_str(out, s);
            }
            close(out, at);
        }
        Node::Rows { values, width } => {
            element(out, ARRAY, key);
            let at = open(out);
            let mut buf = itoa_buf::Buf::new();
            for (i, row) in values.chunks((*width).max(1)).enumerate() {
                element(out, ARRAY, index_key(i, &mut buf));
                write_list_body(out, row);
            }
            close(out, at);
        }
        Node::List(items) => {
            element(out, ARRAY, key);
            write_list_body(out, items);
        }
        Node::Map(entries) => {
            element(out, DOCUMENT, key);
            write_node_map(out, entries);
        }
    }
}

fn write_list_body(out: &mut Vec<u8>, items: &[Value]) {
    let at = open(out);
    let mut buf = itoa_buf::Buf::new();
    for (i, item) in items.iter().enumerate() {
        write_value(out, index_key(i, &mut buf), item);
    }
    close(out, at);
}

fn write_value(out: &mut Vec<u8>, key: &str, v: &Value) {
    match v {
        Value::Null => element(out, NULL, key),
        Value::Bool(b) => {
            element(out, BOOLEAN, key);
            out.push(u8::from(*b));
        }
        Value::Int(i) => {
            element(out, INT64, key);
            out.extend_from_slice(&i.to_le_bytes());
        }
        Value::Float(x) => {
            element(out, DOUBLE, key);
            out.extend_from_slice(&x.to_le_bytes());
        }
        Value::String(s) => {
            element(out, STRING, key);
            write_str(out, s);
        }
        Value::DateTime(ms) => {
            element(out, DATETIME, key);
            out.extend_from_slice(&ms.to_le_bytes());
        }
        Value::Temporal(t) => {
            element(out, DOCUMENT, key);
            let at = open(out);
            element(out, STRING, super::temporal_key(t));
            write_str(out, &t.to_string());
            close(out, at);
        }
        Value::Point(p) => write_value(out, key, &super::point_map(p)),
        Value::Bytes(bytes) => {
            element(out, BINARY, key);
            out.extend_from_slice(&(bytes.len() as i32).to_le_bytes());
            out.push(BINARY_GENERIC);
            out.extend_from_slice(bytes);
        }
        Value::List(items) => {
            element(out, ARRAY, key);
            write_list_body(out, items);
        }
        Value::Map(entries) => {
            element(out, DOCUMENT, key);
            let at = open(out);
            for (k, item) in entries {
                write_value(out, k, item);
            }
            close(out, at);
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
    match super::typed_of(&entries) {
        Ok(Some(t)) => Ok(t),
        Ok(None) => Ok(Value::Map(entries)),
        Err(e) => Err(ProtocolError::payload(NAME, e)),
    }
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
        R::Binary(b) if b.subtype == bson::spec::BinarySubtype::Generic => {
            Value::Bytes(b.bytes.into())
        }
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

#[cfg(test)]
mod encoder_tests {
    use super::*;
    use bson::{RawArrayBuf, RawBson, RawDocumentBuf};

    /// The same value built with the `bson` crate, the reference encoder.
    fn reference(v: &Value) -> RawBson {
        match v {
            Value::Null => RawBson::Null,
            Value::Bool(b) => RawBson::Boolean(*b),
            Value::Int(i) => RawBson::Int64(*i),
            Value::Float(x) => RawBson::Double(*x),
            Value::String(s) => RawBson::String(s.to_string()),
            Value::DateTime(ms) => RawBson::DateTime(bson::DateTime::from_millis(*ms)),
            Value::Temporal(t) => {
                let mut d = RawDocumentBuf::new();
                d.append(crate::codec::temporal_key(t), t.to_string());
                RawBson::Document(d)
            }
            Value::Point(p) => reference(&crate::codec::point_map(p)),
            Value::Bytes(b) => RawBson::Binary(bson::Binary {
                subtype: bson::spec::BinarySubtype::Generic,
                bytes: b.to_vec(),
            }),
            Value::List(items) => {
                let mut a = RawArrayBuf::new();
                for item in items {
                    a.push(reference(item));
                }
                RawBson::Array(a)
            }
            Value::Map(entries) => {
                let mut d = RawDocumentBuf::new();
                for (k, item) in entries {
                    d.append(&**k, reference(item));
                }
                RawBson::Document(d)
            }
        }
    }

    #[test]
    fn writes_the_same_bytes_as_the_bson_crate() {
        let rows: Vec<Value> = (0..25)
            .map(|i| {
                Value::Map(vec![
                    ("id".into(), Value::Int(i)),
                    ("name".into(), Value::String(format!("n{i} ü").into())),
                    ("x".into(), Value::Float(i as f64 / 3.0)),
                    ("t".into(), Value::DateTime(-5 * i)),
                    ("ok".into(), Value::Bool(i % 2 == 0)),
                    ("none".into(), Value::Null),
                    (
                        "tags".into(),
                        Value::List(vec![Value::Int(1), Value::string("a")]),
                    ),
                ])
            })
            .collect();
        let columns = vec!["a".to_string(), "b".to_string()];
        let ours = encode(&Node::Map(vec![
            ("columns", Node::Strings(&columns)),
            (
                "rows",
                Node::Rows {
                    values: &rows,
                    width: 5,
                },
            ),
            ("n", Node::UInt(7)),
            ("s", Node::Str("x")),
            ("ops", Node::List(&rows[..2])),
        ]));
        let mut theirs = RawDocumentBuf::new();
        let mut cols = RawArrayBuf::new();
        for c in &columns {
            cols.push(c.as_str());
        }
        theirs.append("columns", RawBson::Array(cols));
        let mut table = RawArrayBuf::new();
        for row in rows.chunks(5) {
            let mut r = RawArrayBuf::new();
            for v in row {
                r.push(reference(v));
            }
            table.push(r);
        }
        theirs.append("rows", RawBson::Array(table));
        theirs.append("n", RawBson::Int64(7));
        theirs.append("s", RawBson::String("x".into()));
        theirs.append("ops", reference(&Value::List(rows[..2].to_vec())));
        assert_eq!(ours, theirs.into_bytes());
    }

    #[test]
    fn a_nul_in_a_key_does_not_panic() {
        let v = Value::Map(vec![("a\0b".into(), Value::Int(1))]);
        let bytes = encode(&Node::Map(vec![("v", Node::Value(&v))]));
        let back = decode(&bytes).expect("decodes");
        let Value::Map(top) = back else {
            panic!("a map")
        };
        assert_eq!(
            top[0].1,
            Value::Map(vec![("a\u{FFFD}b".into(), Value::Int(1))])
        );
    }
}
