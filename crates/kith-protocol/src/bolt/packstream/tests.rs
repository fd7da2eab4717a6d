use proptest::prelude::*;

use super::*;

fn packed(v: &Pack) -> Vec<u8> {
    let mut out = Vec::new();
    Packer::new(&mut out).pack(v);
    out
}

/// The specification's own examples: the smallest encoding of each value.
#[test]
fn values_take_the_encodings_the_specification_gives() {
    let cases: Vec<(Pack, Vec<u8>)> = vec![
        (Pack::Null, vec![0xC0]),
        (Pack::Bool(true), vec![0xC3]),
        (Pack::Int(1), vec![0x01]),
        (Pack::Int(-16), vec![0xF0]),
        (Pack::Int(-17), vec![0xC8, 0xEF]),
        (Pack::Int(128), vec![0xC9, 0x00, 0x80]),
        (Pack::Int(-129), vec![0xC9, 0xFF, 0x7F]),
        (Pack::Int(32768), vec![0xCA, 0x00, 0x00, 0x80, 0x00]),
        (
            Pack::Int(2_147_483_648),
            vec![0xCB, 0, 0, 0, 0, 0x80, 0, 0, 0],
        ),
        (
            Pack::Float(1.1),
            vec![0xC1, 0x3F, 0xF1, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9A],
        ),
        (Pack::String("A".into()), vec![0x81, 0x41]),
        (Pack::String(String::new()), vec![0x80]),
        (Pack::Bytes(vec![1, 2]), vec![0xCC, 0x02, 1, 2]),
        (
            Pack::List(vec![Pack::Int(1), Pack::Int(2)]),
            vec![0x92, 0x01, 0x02],
        ),
        (
            Pack::Map(vec![("a".into(), Pack::Int(1))]),
            vec![0xA1, 0x81, 0x61, 0x01],
        ),
        (
            Pack::Struct(0x4E, vec![Pack::Int(1)]),
            vec![0xB1, 0x4E, 0x01],
        ),
    ];
    for (value, bytes) in cases {
        assert_eq!(packed(&value), bytes, "{value:?}");
        assert_eq!(unpack(&bytes).expect("decodes"), value);
    }
}

#[test]
fn sizes_switch_to_wider_markers_at_their_bounds() {
    for (len, marker) in [
        (15, 0x8F),
        (16, 0xD0),
        (255, 0xD0),
        (256, 0xD1),
        (65_536, 0xD2),
    ] {
        let s = "x".repeat(len);
        let bytes = packed(&Pack::String(s.clone()));
        assert_eq!(bytes[0], marker, "string of {len}");
        assert_eq!(unpack(&bytes).expect("decodes"), Pack::String(s));
    }
    let list = Pack::List(vec![Pack::Null; 300]);
    assert_eq!(packed(&list)[..3], [0xD5, 0x01, 0x2C]);
    assert_eq!(unpack(&packed(&list)).expect("decodes"), list);
}

#[test]
fn bad_input_is_refused_with_the_reason() {
    let cases: Vec<(&[u8], &str)> = vec![
        (&[], "truncated"),
        (&[0xCB, 0x00], "truncated"),
        (&[0x85, b'a'], "truncated"),
        (&[0x82, 0xC3, 0x28], "not UTF-8"),
        (&[0xE5], "unknown marker 0xE5"),
        (&[0xA1, 0x01, 0x01], "key at byte 1 is not a string"),
        (&[0xD6, 0xFF, 0xFF, 0xFF, 0xFF], "longer than the message"),
        (
            &[0xDA, 0x7F, 0xFF, 0xFF, 0xFF, 0x80],
            "longer than the message",
        ),
        (&[0x01, 0x02], "1 bytes follow"),
    ];
    for (bytes, reason) in cases {
        let err = unpack(bytes).expect_err("refused").to_string();
        assert!(err.contains(reason), "{bytes:02X?}: {err}");
    }
    let deep: Vec<u8> = std::iter::repeat_n(0x91, DEPTH_MAX + 1)
        .chain([0xC0])
        .collect();
    let err = unpack(&deep).expect_err("too deep").to_string();
    assert!(err.contains("nest deeper"), "{err}");
}

fn any_pack() -> impl Strategy<Value = Pack> {
    let leaf = prop_oneof![
        Just(Pack::Null),
        any::<bool>().prop_map(Pack::Bool),
        any::<i64>().prop_map(Pack::Int),
        any::<f64>()
            .prop_filter("NaN is not equal to itself", |f| !f.is_nan())
            .prop_map(Pack::Float),
        ".{0,40}".prop_map(Pack::String),
        proptest::collection::vec(any::<u8>(), 0..40).prop_map(Pack::Bytes),
    ];
    leaf.prop_recursive(4, 64, 20, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..20).prop_map(Pack::List),
            proptest::collection::vec((".{0,8}", inner.clone()), 0..20).prop_map(Pack::Map),
            (any::<u8>(), proptest::collection::vec(inner, 0..15))
                .prop_map(|(t, f)| Pack::Struct(t, f)),
        ]
    })
}

proptest! {
    #[test]
    fn every_value_survives_a_round_trip(v in any_pack()) {
        prop_assert_eq!(unpack(&packed(&v)).expect("decodes"), v);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let _ = unpack(&bytes);
    }
}
