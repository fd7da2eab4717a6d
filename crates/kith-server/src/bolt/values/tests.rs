use std::sync::Arc;

use kith_core::{Temporal, Tz, ZonedDateTime};
use kith_protocol::bolt::packstream::unpack;

use super::*;

const FIVE: Dialect = Dialect {
    element_ids: true,
    utc: true,
};
const FOUR: Dialect = Dialect {
    element_ids: false,
    utc: false,
};

fn packed(v: &GraphValue, d: Dialect) -> Pack {
    let mut out = Vec::new();
    pack_graph(&mut Packer::new(&mut out), v, d);
    unpack(&out).expect("decodes")
}

fn node(id: i64, name: &str) -> NodeOut {
    NodeOut {
        id,
        labels: vec![Arc::from("Person")],
        props: vec![(Arc::from("name"), Value::string(name))],
    }
}

fn rel(id: i64, start: i64, end: i64) -> RelOut {
    RelOut {
        id,
        rel_type: Arc::from("KNOWS"),
        start,
        end,
        props: vec![],
    }
}

fn s(text: &str) -> Pack {
    Pack::String(text.into())
}

#[test]
fn nodes_and_relationships_carry_element_ids_from_5_0() {
    let n = GraphValue::Node(node(7, "a"));
    let props = Pack::Map(vec![("name".into(), s("a"))]);
    let labels = Pack::List(vec![s("Person")]);
    assert_eq!(
        packed(&n, FIVE),
        Pack::Struct(
            0x4E,
            vec![Pack::Int(7), labels.clone(), props.clone(), s("7")]
        )
    );
    assert_eq!(
        packed(&n, FOUR),
        Pack::Struct(0x4E, vec![Pack::Int(7), labels, props])
    );
    let r = GraphValue::Rel(rel(3, 7, 8));
    let Pack::Struct(0x52, fields) = packed(&r, FIVE) else {
        panic!("a relationship");
    };
    assert_eq!(fields.len(), 8);
    assert_eq!(fields[3], s("KNOWS"));
    assert_eq!(fields[5..], [s("r3"), s("7"), s("8")]);
    let Pack::Struct(0x52, fields) = packed(&r, FOUR) else {
        panic!("a relationship");
    };
    assert_eq!(fields.len(), 5);
}

/// a -> b <- c -> a: a walk with a backward hop that meets its first node again
/// lists each node once and walks back to index 0.
#[test]
fn paths_list_distinct_nodes_and_relationships_and_walk_them() {
    let (a, b, c) = (node(1, "a"), node(2, "b"), node(3, "c"));
    let path = GraphValue::Path {
        nodes: vec![a.clone(), b.clone(), c.clone(), a.clone()],
        rels: vec![rel(10, 1, 2), rel(11, 3, 2), rel(12, 3, 1)],
    };
    let Pack::Struct(0x50, fields) = packed(&path, FIVE) else {
        panic!("a path");
    };
    let Pack::List(nodes) = &fields[0] else {
        panic!("nodes")
    };
    let Pack::List(rels) = &fields[1] else {
        panic!("rels")
    };
    assert_eq!((nodes.len(), rels.len()), (3, 3));
    assert!(matches!(&rels[0], Pack::Struct(0x72, f) if f.len() == 4));
    let walk: Vec<Pack> = [1, 1, -2, 2, 3, 0].into_iter().map(Pack::Int).collect();
    assert_eq!(fields[2], Pack::List(walk));
}

#[test]
fn datetimes_are_utc_seconds_and_nanoseconds_in_either_layout() {
    let t = GraphValue::Plain(Value::DateTime(-1_500));
    let fields = vec![Pack::Int(-2), Pack::Int(500_000_000), Pack::Int(0)];
    assert_eq!(packed(&t, FIVE), Pack::Struct(0x49, fields.clone()));
    assert_eq!(packed(&t, FOUR), Pack::Struct(0x46, fields.clone()));
    for tag in [0x49, 0x46] {
        let back = param_value("t", Pack::Struct(tag, fields.clone())).expect("reads");
        assert_eq!(back, Value::DateTime(-1_500));
    }
    // 01:00 at +01:00 is midnight UTC: the legacy layout counts local seconds.
    let legacy = Pack::Struct(0x46, vec![Pack::Int(3600), Pack::Int(0), Pack::Int(3600)]);
    let five = Pack::Struct(0x49, vec![Pack::Int(0), Pack::Int(0), Pack::Int(3600)]);
    let expected = Value::temporal(Temporal::DateTime(ZonedDateTime {
        local: chrono::DateTime::from_timestamp(3600, 0)
            .expect("in range")
            .naive_utc(),
        offset: 3600,
        zone: None,
    }));
    assert_eq!(param_value("t", legacy), Ok(expected.clone()));
    assert_eq!(param_value("t", five), Ok(expected));
}

#[test]
fn temporal_values_round_trip_as_bolt_structures() {
    let tz: Tz = "Europe/Stockholm".parse().expect("a zone");
    let local = chrono::NaiveDate::from_ymd_opt(1984, 10, 11)
        .and_then(|d| d.and_hms_nano_opt(12, 31, 14, 645_876_123))
        .expect("a datetime");
    let values = [
        Temporal::Date(local.date()),
        Temporal::LocalTime(local.time()),
        Temporal::Time(local.time(), -5400),
        Temporal::LocalDateTime(local),
        Temporal::DateTime(ZonedDateTime::in_zone(local, tz, None)),
        Temporal::DateTime(ZonedDateTime {
            local,
            offset: 7200,
            zone: None,
        }),
        Temporal::Duration(kith_core::Duration::new(14, -3, 70, -1)),
    ];
    for t in values {
        for dialect in [FIVE, FOUR] {
            let v = Value::temporal(t);
            let Pack::Struct(tag, fields) = packed(&GraphValue::Plain(v.clone()), dialect) else {
                panic!("{t} is not a structure");
            };
            assert_eq!(param_value("t", Pack::Struct(tag, fields)), Ok(v), "{t}");
        }
    }
    // Neo4j's tags: a zone id datetime is 'i' from 5.0 and 'f' before.
    let zoned = GraphValue::Plain(Value::temporal(Temporal::DateTime(ZonedDateTime::in_zone(
        local, tz, None,
    ))));
    assert!(matches!(packed(&zoned, FIVE), Pack::Struct(0x69, _)));
    assert!(matches!(packed(&zoned, FOUR), Pack::Struct(0x66, _)));
}

#[test]
fn points_round_trip_as_point2d_and_point3d() {
    let points = [
        kith_core::Point::new(kith_core::Crs::Cartesian, &[1.5, -2.0]),
        kith_core::Point::new(kith_core::Crs::Wgs84_3d, &[12.5, 55.6, 100.0]),
    ];
    for (p, tag) in points.into_iter().zip([0x58, 0x59]) {
        let v = Value::Point(Arc::new(p.expect("a point")));
        let pack = packed(&GraphValue::Plain(v.clone()), FIVE);
        assert!(matches!(&pack, Pack::Struct(t, f) if *t == tag && f.len() == tag as usize - 0x55));
        assert_eq!(param_value("p", pack), Ok(v));
    }
}

#[test]
fn byte_arrays_round_trip_as_packstream_bytes() {
    for bytes in [vec![], vec![0, 128, 255], vec![7; 70_000]] {
        let v = Value::Bytes(bytes.clone().into());
        let pack = packed(&GraphValue::Plain(v.clone()), FIVE);
        assert_eq!(pack, Pack::Bytes(bytes));
        assert_eq!(param_value("p", pack), Ok(v));
    }
}

#[test]
fn parameters_kith_cannot_keep_are_refused_by_name() {
    let cases = [
        (
            Pack::Struct(0x44, vec![Pack::Int(i64::MAX)]),
            "out of range",
        ),
        (
            Pack::Struct(0x58, vec![Pack::Int(1), Pack::Float(0.0), Pack::Float(0.0)]),
            "SRID 1 is not a 2D system",
        ),
        (
            Pack::Struct(
                0x58,
                vec![Pack::Int(9157), Pack::Float(0.0), Pack::Float(0.0)],
            ),
            "SRID 9157 is not a 2D system",
        ),
        (
            Pack::Struct(
                0x59,
                vec![Pack::Int(9157), Pack::Float(0.0), Pack::Float(0.0)],
            ),
            "3 float coordinates",
        ),
        (
            Pack::Struct(
                0x58,
                vec![Pack::Int(4326), Pack::Float(0.0), Pack::Float(91.0)],
            ),
            "Valid range for Y coordinate",
        ),
        (
            Pack::Struct(0x58, vec![Pack::Float(4326.0), Pack::Float(0.0)]),
            "its SRID, an integer",
        ),
        (
            Pack::Struct(
                0x49,
                vec![Pack::Int(0), Pack::Int(1_000), Pack::Int(99 * 3600)],
            ),
            "out of range",
        ),
        (
            Pack::Struct(
                0x69,
                vec![
                    Pack::Int(0),
                    Pack::Int(0),
                    Pack::String("Mars/Olympus".into()),
                ],
            ),
            "unknown time zone",
        ),
        (
            Pack::Struct(0x49, vec![Pack::Int(0)]),
            "three integer fields",
        ),
        (
            Pack::List(vec![Pack::Struct(0x45, vec![])]),
            "has 4 fields, got 0",
        ),
        (Pack::Struct(0x01, vec![]), "unknown structure 0x01"),
    ];
    for (pack, reason) in cases {
        let err = param_value("p", pack).expect_err("refused");
        assert!(err.contains(reason), "{err}");
    }
    let nested = Pack::Map(vec![(
        "k".into(),
        Pack::List(vec![Pack::Int(1), Pack::Null]),
    )]);
    assert_eq!(
        param_value("p", nested),
        Ok(Value::Map(vec![(
            Arc::from("k"),
            Value::List(vec![Value::Int(1), Value::Null])
        )]))
    );
}

/// The same `abs()` of i32::MIN that the fuzz target `wal_record` found in the
/// store's temporal codec, here in the Bolt parameter decoder (found by review of that
/// pattern): an offset of i32::MIN is out of range, not a panic.
#[test]
fn a_time_offset_of_i32_min_is_refused_not_a_panic() {
    let time = Pack::Struct(
        tag::TIME,
        vec![Pack::Int(0), Pack::Int(i64::from(i32::MIN))],
    );
    let e = param_value("t", time).expect_err("out of range");
    assert!(e.contains("t"), "{e}");
}
