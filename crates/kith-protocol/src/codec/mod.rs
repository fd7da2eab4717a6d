//! Documents in the three encodings.
//!
//! Encoding writes a borrowed [`Node`] tree straight to bytes, so a result chunk is
//! written from the rows the procedure produced without copying them into an
//! intermediate tree. Decoding returns an owned [`Value`] (a `Map` at the top).

mod bson_codec;
mod json;
mod msgpack;

use std::sync::Arc;

use kith_core::temporal::{parse, Kind};
use kith_core::{Crs, Point, Temporal, Value};

use crate::{Encoding, ProtocolError};

/// The key of the one-entry map a temporal value travels as in every encoding:
/// `{"$date": "1984-10-11"}`, `{"$datetime": "1984-10-11T12:00:00+01:00[Europe/Stockholm]"}`,
/// `{"$duration": "P1Y2M"}`; the text is Cypher's `toString` of the value.
/// (`{"$datetime": <integer>}` is the epoch-milliseconds instant of the LDBC data.)
pub(crate) fn temporal_key(t: &Temporal) -> &'static str {
    match t {
        Temporal::Date(_) => "$date",
        Temporal::LocalTime(_) => "$localtime",
        Temporal::Time(..) => "$time",
        Temporal::LocalDateTime(_) => "$localdatetime",
        Temporal::DateTime(_) => "$datetime",
        Temporal::Duration(_) => "$duration",
    }
}

/// The one-entry map a point travels as in every encoding:
/// `{"$point": {"srid": 7203, "x": 1.0, "y": 2.0}}` (and `"z"` in 3D).
pub(crate) fn point_map(p: &Point) -> Value {
    let mut fields = vec![(Arc::from("srid"), Value::Int(p.crs().srid()))];
    for (name, c) in ["x", "y", "z"].into_iter().zip(p.coords()) {
        fields.push((Arc::from(name), Value::Float(*c)));
    }
    Value::Map(vec![(Arc::from("$point"), Value::Map(fields))])
}

/// The one-entry map a byte array travels as where the encoding has no bytes of its
/// own (JSON): `{"$bytes": "<standard base64>"}`.
pub(crate) fn bytes_map(bytes: &[u8]) -> Value {
    use base64::Engine as _;
    let text = base64::engine::general_purpose::STANDARD.encode(bytes);
    Value::Map(vec![(Arc::from("$bytes"), Value::string(text))])
}

/// The value a decoded one-entry map stands for: a temporal value when its key is a
/// temporal key and its value text, a point when its key is `$point` and its value a
/// map of `srid` and coordinates; `Ok(None)` for any other map.
pub(crate) fn typed_of(entries: &[(Arc<str>, Value)]) -> Result<Option<Value>, String> {
    if let [(key, Value::Map(fields))] = entries {
        return match &**key {
            "$point" => point_of(fields).map(Some),
            _ => Ok(None),
        };
    }
    let [(key, Value::String(text))] = entries else {
        return Ok(None);
    };
    let kind = match &**key {
        "$bytes" => {
            use base64::Engine as _;
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(&**text)
                .map_err(|e| format!("$bytes: not standard base64: {e}"))?;
            return Ok(Some(Value::Bytes(bytes.into())));
        }
        "$date" => Kind::Date,
        "$localtime" => Kind::LocalTime,
        "$time" => Kind::Time,
        "$localdatetime" => Kind::LocalDateTime,
        "$datetime" => Kind::DateTime,
        "$duration" => {
            let d = parse::duration(text).map_err(|e| format!("{key}: {e}"))?;
            return Ok(Some(Value::temporal(Temporal::Duration(d))));
        }
        _ => return Ok(None),
    };
    let t = parse::parse(kind, text).map_err(|e| format!("{key}: {e}"))?;
    Ok(Some(Value::temporal(t)))
}

/// A point from `{"srid": 4326, "x": ..., "y": ...[, "z": ...]}`: numbers for
/// coordinates, nothing else in the map.
fn point_of(fields: &[(Arc<str>, Value)]) -> Result<Value, String> {
    let mut srid = None;
    let mut coords = [None; 3];
    for (name, v) in fields {
        let slot = match &**name {
            "srid" => {
                srid = v.as_int();
                continue;
            }
            "x" => 0,
            "y" => 1,
            "z" => 2,
            other => return Err(format!("$point: unknown field {other:?}")),
        };
        coords[slot] = Some(match v {
            Value::Float(x) => *x,
            Value::Int(i) => *i as f64,
            other => {
                return Err(format!(
                    "$point: {name} is {}, not a number",
                    other.value_type()
                ))
            }
        });
    }
    let srid = srid.ok_or("$point: srid (an integer) is missing")?;
    let crs = Crs::from_srid(srid).ok_or_else(|| format!("$point: unknown SRID {srid}"))?;
    let coords: Vec<f64> = coords.into_iter().map_while(|c| c).collect();
    let point = Point::new(crs, &coords).map_err(|e| format!("$point: {e}"))?;
    Ok(Value::Point(Arc::new(point)))
}

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

/// Decodes a document from outside (a request, a chunk, an error body): the decoder
/// every payload goes through, public for the fuzz targets (`crates/kith-fuzz`).
pub fn decode_document(encoding: Encoding, bytes: &[u8]) -> Result<Value, ProtocolError> {
    decode(encoding, bytes)
}

/// Encodes a map as a document, its entries at the top level as the encoders write
/// a request's (any other value is wrapped as `{"value": ...}`).
pub fn encode_document(encoding: Encoding, value: &Value) -> Vec<u8> {
    match value {
        Value::Map(entries) => {
            let top = entries
                .iter()
                .map(|(k, v)| (&**k, Node::Value(v)))
                .collect();
            encode(encoding, &Node::Map(top))
        }
        other => encode(encoding, &Node::Map(vec![("value", Node::Value(other))])),
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
            temporal().prop_map(Value::temporal),
            point(),
            prop::collection::vec(any::<u8>(), 0..300).prop_map(|b| Value::Bytes(b.into())),
        ];
        leaf.prop_recursive(3, 24, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::List),
                prop::collection::vec(("[a-z]{1,8}", inner), 0..5).prop_map(|entries| {
                    let mut seen = std::collections::HashSet::new();
                    Value::Map(
                        entries
                            .into_iter()
                            .filter(|(k, _)| !k.starts_with('$') && seen.insert(k.clone()))
                            .map(|(k, v)| (k.into(), v))
                            .collect(),
                    )
                }),
            ]
        })
    }

    fn point() -> impl Strategy<Value = Value> {
        let finite = any::<f64>().prop_filter("finite", |x| x.is_finite());
        (
            0..Crs::ALL.len(),
            -180.0..=180.0f64,
            -90.0..=90.0f64,
            finite,
        )
            .prop_map(|(i, x, y, z)| {
                let crs = Crs::ALL[i];
                let coords = [x, y, z];
                let p = Point::new(crs, &coords[..if crs.is_3d() { 3 } else { 2 }]);
                Value::Point(Arc::new(p.expect("in range")))
            })
    }

    #[test]
    fn bad_points_are_refused_by_name() {
        for (doc, why) in [
            (
                &br#"{"v":{"$point":{"srid":1,"x":1.0,"y":2.0}}}"#[..],
                "unknown SRID 1",
            ),
            (
                br#"{"v":{"$point":{"srid":7203,"x":1.0}}}"#,
                "1 coordinates",
            ),
            (
                br#"{"v":{"$point":{"srid":7203,"x":"a","y":1}}}"#,
                "not a number",
            ),
            (br#"{"v":{"$point":{"x":1.0,"y":2.0}}}"#, "srid"),
            (
                br#"{"v":{"$point":{"srid":4326,"x":1.0,"y":95.0}}}"#,
                "Valid range",
            ),
            (
                br#"{"v":{"$point":{"srid":7203,"x":1,"y":2,"w":3}}}"#,
                "unknown field",
            ),
        ] {
            let err = decode(Encoding::Json, doc).expect_err("not a point");
            assert!(err.to_string().contains(why), "{err}");
        }
        let ok = decode(
            Encoding::Json,
            br#"{"v":{"$point":{"srid":9157,"x":1,"y":2,"z":3}}}"#,
        );
        assert!(matches!(ok, Ok(Value::Map(m)) if matches!(&m[0].1, Value::Point(_))));
    }

    #[test]
    fn byte_arrays_travel_as_base64_in_json_and_bad_base64_is_refused() {
        let doc = br#"{"v":{"$bytes":"AID/"},"e":{"$bytes":""}}"#;
        let Ok(Value::Map(m)) = decode(Encoding::Json, doc) else {
            panic!("a map")
        };
        assert_eq!(m[0].1, Value::Bytes(vec![0, 128, 255].into()));
        assert_eq!(m[1].1, Value::Bytes(Vec::new().into()));
        let err =
            decode(Encoding::Json, br#"{"v":{"$bytes":"not base64!"}}"#).expect_err("refused");
        assert!(
            err.to_string().contains("$bytes: not standard base64"),
            "{err}"
        );
        assert_eq!(encode_document(Encoding::Json, &Value::Map(m)), doc);
    }

    fn temporal() -> impl Strategy<Value = Temporal> {
        use chrono::{NaiveDate, NaiveDateTime, NaiveTime};
        use kith_core::{Duration, Tz, ZonedDateTime};
        let date = (1i32..3_650_000)
            .prop_map(|d| NaiveDate::from_num_days_from_ce_opt(d).expect("in range"));
        let time = (0u32..86_400, 0u32..1_000_000_000).prop_map(|(s, n)| {
            NaiveTime::from_num_seconds_from_midnight_opt(s, n).expect("in range")
        });
        let offset = -18 * 3600..=18 * 3600;
        let zones = [
            "Europe/Stockholm",
            "America/New_York",
            "Asia/Kolkata",
            "Australia/Eucla",
        ];
        prop_oneof![
            date.clone().prop_map(Temporal::Date),
            time.clone().prop_map(Temporal::LocalTime),
            (time.clone(), offset.clone()).prop_map(|(t, o)| Temporal::Time(t, o)),
            (date.clone(), time.clone())
                .prop_map(|(d, t)| Temporal::LocalDateTime(NaiveDateTime::new(d, t))),
            (date.clone(), time.clone(), offset).prop_map(|(d, t, o)| Temporal::DateTime(
                ZonedDateTime {
                    local: NaiveDateTime::new(d, t),
                    offset: o,
                    zone: None,
                }
            )),
            (date, time, 0..zones.len()).prop_map(move |(d, t, z)| {
                let tz: Tz = zones[z].parse().expect("a zone");
                Temporal::DateTime(ZonedDateTime::in_zone(NaiveDateTime::new(d, t), tz, None))
            }),
            (
                -10_000i64..10_000,
                -100_000i64..100_000,
                -1_000_000_000i64..1_000_000_000,
                0i64..1_000_000_000
            )
                .prop_map(|(m, d, s, n)| Temporal::Duration(Duration::new(m, d, s, n))),
        ]
    }

    #[test]
    fn bad_temporal_text_is_refused_by_name() {
        let err =
            decode(Encoding::Json, br#"{"v":{"$date":"1984-13-45"}}"#).expect_err("no such date");
        assert!(err.to_string().contains("$date"), "{err}");
        let err =
            decode(Encoding::Json, br#"{"v":{"$datetime":true}}"#).expect_err("not a datetime");
        assert!(err.to_string().contains("$datetime"), "{err}");
        // Any other one-entry map stays a map.
        let map = decode(Encoding::Json, br#"{"v":{"$dat":"x"}}"#).expect("a map");
        assert!(matches!(map, Value::Map(_)));
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
