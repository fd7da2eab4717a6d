//! Documents in the three encodings.
//!
//! Encoding writes a borrowed [`Node`] tree straight to bytes, so a result chunk is
//! written from the rows the procedure produced without copying them into an
//! intermediate tree. Decoding returns an owned [`Value`] (a `Map` at the top).

mod bson_codec;
mod json;
mod msgpack;

use kith_core::Value;

use crate::{Encoding, ProtocolError};

/// A document to encode, borrowing its contents.
pub(crate) enum Node<'a> {
    Value(&'a Value),
    Str(&'a str),
    UInt(u64),
    Bool(bool),
    Strings(&'a [String]),
    /// A list of rows, each a list of `width` values.
    Rows {
        values: &'a [Value],
        width: usize,
    },
    Map(Vec<(&'a str, Node<'a>)>),
    /// A list of values, borrowed (a write request's operations: no copy to encode).
    List(&'a [Value]),
}

/// Encodes a top-level map.
pub(crate) fn encode(encoding: Encoding, doc: &Node<'_>) -> Vec<u8> {
    match encoding {
        Encoding::Json => json::encode(doc),
        Encoding::Bson => bson_codec::encode(doc),
        Encoding::MsgPack => msgpack::encode(doc),
    }
}

/// Decodes a document; the result is always a `Value::Map`.
pub(crate) fn decode(encoding: Encoding, bytes: &[u8]) -> Result<Value, ProtocolError> {
    let value = match encoding {
        Encoding::Json => json::decode(bytes)?,
        Encoding::Bson => bson_codec::decode(bytes)?,
        Encoding::MsgPack => msgpack::decode(bytes)?,
    };
    match value {
        Value::Map(_) => Ok(value),
        other => Err(ProtocolError::payload(
            encoding.name(),
            format!("the top level must be a map, got {}", other.value_type()),
        )),
    }
}

/// Nesting deeper than this is refused while decoding (a bound on recursion).
pub(crate) const DEPTH_MAX: usize = 32;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::Int),
            any::<f64>()
                .prop_filter("finite", |x| x.is_finite())
                .prop_map(Value::Float),
            ".{0,20}".prop_map(Value::string),
            (-100_000_000_000_000i64..100_000_000_000_000).prop_map(Value::DateTime),
        ];
        leaf.prop_recursive(3, 24, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::List),
                prop::collection::vec(("[a-z]{1,8}", inner), 0..5).prop_map(|entries| {
                    let mut seen = std::collections::HashSet::new();
                    Value::Map(
                        entries
                            .into_iter()
                            .filter(|(k, _)| k != "$datetime" && seen.insert(k.clone()))
                            .map(|(k, v)| (k.into(), v))
                            .collect(),
                    )
                }),
            ]
        })
    }

    proptest! {
        #[test]
        fn every_encoding_round_trips_every_value(v in value()) {
            let doc = Node::Map(vec![("v", Node::Value(&v))]);
            for encoding in Encoding::ALL {
                let bytes = encode(encoding, &doc);
                let back = decode(encoding, &bytes).expect("decodes");
                prop_assert_eq!(&back, &Value::Map(vec![("v".into(), v.clone())]), "{:?}", encoding);
            }
        }

        #[test]
        fn garbage_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
            for encoding in Encoding::ALL {
                let _ = decode(encoding, &bytes);
            }
        }
    }

    #[test]
    fn truncated_documents_are_refused() {
        let v = Value::List(vec![
            Value::string("hello"),
            Value::Int(7),
            Value::DateTime(5),
        ]);
        let doc = Node::Map(vec![("v", Node::Value(&v))]);
        for encoding in Encoding::ALL {
            let bytes = encode(encoding, &doc);
            for len in 0..bytes.len() {
                assert!(
                    decode(encoding, &bytes[..len]).is_err(),
                    "{encoding:?} accepted {len} bytes"
                );
            }
        }
    }

    #[test]
    fn json_keeps_the_last_of_repeated_keys_even_in_large_maps() {
        let small = decode(Encoding::Json, br#"{"a":1,"b":2,"a":3}"#).expect("valid");
        assert_eq!(
            small,
            Value::Map(vec![
                ("a".into(), Value::Int(3)),
                ("b".into(), Value::Int(2))
            ])
        );
        let fields: Vec<String> = (0..20_000)
            .map(|i| format!("\"k{}\":{i}", i % 10_000))
            .collect();
        let Value::Map(entries) = decode(
            Encoding::Json,
            format!("{{{}}}", fields.join(",")).as_bytes(),
        )
        .expect("valid") else {
            panic!("a map");
        };
        assert_eq!(entries.len(), 10_000);
        assert_eq!(entries[0], ("k0".into(), Value::Int(10_000)));
        let err =
            decode(Encoding::Json, br#"{"t": {"$datetime": "soon"}}"#).expect_err("bad datetime");
        assert!(err.to_string().contains("$datetime"), "{err}");
        let err = decode(Encoding::Json, b"{\"n\": 18446744073709551615}").expect_err("u64");
        assert!(err.to_string().contains("out of range"), "{err}");
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let deep = "[".repeat(100_000);
        let err = decode(Encoding::Json, format!("{{\"a\":{deep}").as_bytes()).expect_err("deep");
        assert_eq!(err.code(), crate::ErrorCode::BadRequest);
    }
}
