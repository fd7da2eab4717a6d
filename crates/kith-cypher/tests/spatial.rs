//! Points (issue 42, deliverable 2) answered as Neo4j 5.26 answers them (each answer
//! below recorded on the real one): `point()` from cartesian or geographic maps, its
//! fields, equality, order, `point.distance`, `point.withinBBox`, `toString`, and
//! points stored as properties and read back.

use kith_core::{Crs, Value};
use kith_cypher::{Engine, ErrorCode, Limits};
use kith_storage::{Snapshot, Store, Tx};

fn run(store: &Store, text: &str) -> Result<Vec<Vec<Value>>, ErrorCode> {
    let mut tx = Tx::new(&store.snapshot());
    let rows = Engine::default()
        .query_tx(&mut tx, text, &[], &Limits::default())
        .map(|r| r.rows)
        .map_err(|e| e.code)?;
    store.apply(&tx.into_batch()).expect("the writes apply");
    Ok(rows)
}

fn one(store: &Store, text: &str) -> Value {
    let rows = run(store, text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    assert_eq!(rows.len(), 1, "{text}");
    rows[0][0].clone()
}

fn s(text: &str) -> Value {
    Value::string(text)
}

#[test]
fn points_print_and_answer_their_fields_as_neo4j() {
    let g = Store::new(Snapshot::default());
    let cases: &[(&str, Value)] = &[
        (
            "RETURN toString(point({x: 1, y: 2}))",
            s("point({x: 1.0, y: 2.0, crs: 'cartesian'})"),
        ),
        (
            "RETURN toString(point({x: 1, y: 2, z: 3}))",
            s("point({x: 1.0, y: 2.0, z: 3.0, crs: 'cartesian-3d'})"),
        ),
        (
            "RETURN toString(point({latitude: 1, longitude: 2}))",
            s("point({x: 2.0, y: 1.0, crs: 'wgs-84'})"),
        ),
        (
            "RETURN toString(point({longitude: 1, latitude: 2, height: 3}))",
            s("point({x: 1.0, y: 2.0, z: 3.0, crs: 'wgs-84-3d'})"),
        ),
        (
            "RETURN toString(point({x: 0.1, y: 1e20}))",
            s("point({x: 0.1, y: 1.0E20, crs: 'cartesian'})"),
        ),
        (
            "RETURN toString(point({x: -0.0, y: 1.5e-7}))",
            s("point({x: -0.0, y: 1.5E-7, crs: 'cartesian'})"),
        ),
        ("RETURN point({x: 1, y: 2}).srid", Value::Int(7203)),
        ("RETURN point({x: 1, y: 2}).crs", s("cartesian")),
        ("RETURN point({latitude: 1, longitude: 2}).crs", s("wgs-84")),
        (
            "RETURN point({latitude: 1, longitude: 2, height: 3}).srid",
            Value::Int(4979),
        ),
        (
            "RETURN point({latitude: 1, longitude: 2}).x",
            Value::Float(2.0),
        ),
        (
            "RETURN point({latitude: 1, longitude: 2}).longitude",
            Value::Float(2.0),
        ),
        (
            "RETURN point({latitude: 1, longitude: 2, height: 3}).height",
            Value::Float(3.0),
        ),
        (
            "RETURN point({latitude: 1, longitude: 2, height: 3}).z",
            Value::Float(3.0),
        ),
        ("RETURN point({x: 1, y: 2}).X", Value::Float(1.0)),
        ("RETURN point({x: 1, y: 2, crs: 'WGS-84'}).crs", s("wgs-84")),
        (
            "RETURN point({x: 1, y: 2, srid: 4326}).latitude",
            Value::Float(2.0),
        ),
        (
            "RETURN point({x: 1, y: 2, latitude: 3, longitude: 4}).crs",
            s("cartesian"),
        ),
        ("RETURN point({x: 1, y: 2, height: 3}).crs", s("cartesian")),
        (
            "RETURN point({latitude: 1, longitude: 2, z: 3}).crs",
            s("wgs-84-3d"),
        ),
        ("RETURN point({x: 1, y: 2, q: 5}).x", Value::Float(1.0)),
        (
            "RETURN point({longitude: 190, latitude: 2}).x",
            Value::Float(-170.0),
        ),
        ("RETURN point(null)", Value::Null),
        ("RETURN point({x: 1, y: null})", Value::Null),
        ("RETURN point({x: 1, y: 2, q: null})", Value::Null),
        ("RETURN point({x: 1, y: 2, crs: null})", Value::Null),
        ("RETURN valueType(point({x: 1, y: 2}))", s("POINT NOT NULL")),
        ("RETURN point({x: 1, y: 2}) IS :: POINT", Value::Bool(true)),
        (
            "RETURN point({x: 1, y: 2}) IS :: PROPERTY VALUE",
            Value::Bool(true),
        ),
        (
            "RETURN [point({x: 1, y: 2}), point({latitude: 1, longitude: 2})] IS :: PROPERTY VALUE",
            Value::Bool(true),
        ),
    ];
    for (q, want) in cases {
        assert_eq!(&one(&g, q), want, "{q}");
    }
}

#[test]
fn bad_points_fail_as_on_neo4j() {
    let g = Store::new(Snapshot::default());
    for (q, code) in [
        ("RETURN point({x: 1})", ErrorCode::SyntaxError),
        ("RETURN point({})", ErrorCode::SyntaxError),
        ("RETURN point({X: 1, Y: 2})", ErrorCode::SyntaxError),
        ("RETURN point({x: 1, y: 'a'})", ErrorCode::ArgumentError),
        ("RETURN point({x: true, y: 2})", ErrorCode::ArgumentError),
        (
            "RETURN point({x: 1, y: 2, crs: 'foo'})",
            ErrorCode::ArgumentError,
        ),
        (
            "RETURN point({x: 1, y: 2, crs: 5})",
            ErrorCode::ArgumentError,
        ),
        (
            "RETURN point({x: 1, y: 2, srid: 1})",
            ErrorCode::ArgumentError,
        ),
        (
            "RETURN point({x: 1, y: 2, srid: '7203'})",
            ErrorCode::ArgumentError,
        ),
        (
            "RETURN point({x: 1, y: 2, srid: 7203.0})",
            ErrorCode::ArgumentError,
        ),
        (
            "RETURN point({x: 1, y: 2, crs: 'cartesian', srid: 7203})",
            ErrorCode::ArgumentError,
        ),
        (
            "RETURN point({x: 1, y: 2, z: 3, crs: 'cartesian'})",
            ErrorCode::ArgumentError,
        ),
        (
            "RETURN point({x: 1, y: 2, crs: 'cartesian-3d'})",
            ErrorCode::ArgumentError,
        ),
        (
            "RETURN point({latitude: 1, longitude: 2, crs: 'cartesian'})",
            ErrorCode::ArgumentError,
        ),
        (
            "RETURN point({latitude: 100, longitude: 2})",
            ErrorCode::ArgumentError,
        ),
        (
            "RETURN point({x: 0.0 / 0.0, y: 2})",
            ErrorCode::ArgumentError,
        ),
        (
            "RETURN point({x: 1, y: 2}).latitude",
            ErrorCode::ArgumentError,
        ),
        ("RETURN point({x: 1, y: 2}).z", ErrorCode::ArgumentError),
        (
            "RETURN point({x: 1, y: 2, z: 3}).height",
            ErrorCode::ArgumentError,
        ),
        ("RETURN point({x: 1, y: 2}).foo", ErrorCode::ArgumentError),
    ] {
        assert_eq!(run(&g, q).map(|_| ()), Err(code), "{q}");
    }
}

#[test]
fn points_compare_order_and_measure_as_neo4j() {
    let g = Store::new(Snapshot::default());
    let cases: &[(&str, Value)] = &[
        ("RETURN point({x: 1, y: 2}) = point({x: 1.0, y: 2.0})", Value::Bool(true)),
        ("RETURN point({x: 1, y: 2}) = point({x: 1, y: 2, z: 0})", Value::Bool(false)),
        ("RETURN point({x: 1, y: 2}) <> point({latitude: 2, longitude: 1})", Value::Bool(true)),
        ("RETURN point({x: 1, y: 2}) < point({x: 3, y: 4})", Value::Null),
        ("RETURN point({x: 1, y: 2}) <= point({x: 3, y: 4})", Value::Null),
        ("RETURN point({x: 1, y: 2}) <= point({x: 1, y: 2})", Value::Bool(true)),
        ("RETURN point({x: 1, y: 2}) < point({x: 1, y: 2})", Value::Null),
        ("RETURN point({x: 1, y: 2}) >= point({x: 1, y: 2, z: 1})", Value::Null),
        ("RETURN [point({x: 1, y: 2})] < [point({x: 1, y: 2}), 1]", Value::Bool(true)),
        ("RETURN point({x: 1, y: 2}) IN [point({x: 1.0, y: 2.0})]", Value::Bool(true)),
        // Coordinates compare bit for bit on Neo4j: -0.0 is another point.
        ("RETURN point({x: -0.0, y: 0}) = point({x: 0.0, y: 0})", Value::Bool(false)),
        ("RETURN point({x: -0.0, y: 0}) <= point({x: 0.0, y: 0})", Value::Null),
        (
            "UNWIND [point({x: -0.0, y: 0}), point({x: 0.0, y: 0})] AS p RETURN count(DISTINCT p)",
            Value::Int(2),
        ),
        ("RETURN point.distance(point({x: 0, y: 0}), point({x: 3, y: 4}))", Value::Float(5.0)),
        (
            "RETURN point.distance(point({x: 0, y: 0, z: 0}), point({x: 1, y: 2, z: 2}))",
            Value::Float(3.0),
        ),
        (
            "RETURN point.distance(point({x: 0, y: 0}), point({latitude: 1, longitude: 1}))",
            Value::Null,
        ),
        ("RETURN point.distance(point({x: 0, y: 0}), point({x: 0, y: 0, z: 1}))", Value::Null),
        ("RETURN point.distance(1, 2)", Value::Null),
        (
            "RETURN point.withinBBox(point({x: 1, y: 1}), point({x: 0, y: 0}), point({x: 2, y: 2}))",
            Value::Bool(true),
        ),
        (
            "RETURN point.withinBBox(point({x: 1, y: 1}), point({x: 2, y: 2}), point({x: 0, y: 0}))",
            Value::Bool(false),
        ),
        (
            "RETURN point.withinBBox(point({x: 1, y: 1, z: 5}), point({x: 0, y: 0, z: 0}), \
             point({x: 2, y: 2, z: 2}))",
            Value::Bool(false),
        ),
        (
            "RETURN point.withinBBox(point({longitude: 179, latitude: 0}), \
             point({longitude: 170, latitude: -10}), point({longitude: -170, latitude: 10}))",
            Value::Bool(true),
        ),
        (
            "RETURN point.withinBBox(point({latitude: 0, longitude: 0}), \
             point({latitude: 10, longitude: -10}), point({latitude: -10, longitude: 10}))",
            Value::Bool(false),
        ),
        (
            "RETURN point.withinBBox(point({x: 1, y: 1}), point({latitude: 0, longitude: 0}), \
             point({x: 2, y: 2}))",
            Value::Null,
        ),
        ("RETURN point.withinBBox(null, point({x: 0, y: 0}), point({x: 2, y: 2}))", Value::Null),
        ("RETURN point.withinBBox(1, 2, 3)", Value::Null),
    ];
    for (q, want) in cases {
        assert_eq!(&one(&g, q), want, "{q}");
    }
    // Geographic distances to Neo4j's digits (haversine on a 6,378,140 m sphere, at
    // the mean height in 3D).
    for (q, want) in [
        (
            "RETURN point.distance(point({latitude: 0, longitude: 0}), point({latitude: 1, longitude: 1}))",
            157425.6111545812,
        ),
        (
            "RETURN point.distance(point({latitude: 0, longitude: 0, height: 0}), \
             point({latitude: 1, longitude: 1, height: 100}))",
            157426.87701818137,
        ),
        (
            "RETURN point.distance(point({latitude: 89, longitude: 0}), point({latitude: -89, longitude: 180}))",
            20037517.767567202,
        ),
        (
            "RETURN point.distance(point({latitude: 51.5, longitude: -0.12}), \
             point({latitude: 48.85, longitude: 2.35}))",
            343512.4223295251,
        ),
    ] {
        let Value::Float(got) = one(&g, q) else {
            panic!("{q}: not a float")
        };
        assert!(((got - want) / want).abs() < 1e-12, "{q}: {got} vs {want}");
    }
    // ORDER BY: lists, then points by SRID and coordinates, then temporal values,
    // strings and numbers; min and max by the same order.
    let q =
        "UNWIND [point({x: 3, y: 1}), point({latitude: 1, longitude: 1}), point({x: 1, y: 5}), \
             point({x: 1, y: 2, z: 1}), point({latitude: 1, longitude: 1, height: 1}), 1, 'a', \
             date('2020-01-01'), [1]] AS p RETURN valueType(p) AS t, \
             CASE WHEN p IS :: POINT THEN toString(p) END AS v ORDER BY p";
    let rows = run(&g, q).expect("it runs");
    let texts: Vec<String> = rows
        .iter()
        .map(|r| match &r[1] {
            Value::Null => r[0].to_string(),
            v => v.to_string(),
        })
        .collect();
    assert_eq!(
        texts,
        [
            "LIST<INTEGER NOT NULL> NOT NULL",
            "point({x: 1.0, y: 1.0, crs: 'wgs-84'})",
            "point({x: 1.0, y: 1.0, z: 1.0, crs: 'wgs-84-3d'})",
            "point({x: 1.0, y: 5.0, crs: 'cartesian'})",
            "point({x: 3.0, y: 1.0, crs: 'cartesian'})",
            "point({x: 1.0, y: 2.0, z: 1.0, crs: 'cartesian-3d'})",
            "DATE NOT NULL",
            "STRING NOT NULL",
            "INTEGER NOT NULL",
        ]
    );
    let q = "UNWIND [point({x: 3, y: 1}), point({x: 1, y: 5}), point({x: 1, y: 2})] AS p \
             RETURN toString(min(p)), toString(max(p))";
    let rows = run(&g, q).expect("it runs");
    assert_eq!(
        rows[0],
        [
            s("point({x: 1.0, y: 2.0, crs: 'cartesian'})"),
            s("point({x: 3.0, y: 1.0, crs: 'cartesian'})")
        ]
    );
}

#[test]
fn points_are_stored_indexed_and_read_back() {
    let g = Store::new(Snapshot::default());
    run(
        &g,
        "CREATE (:Place {name: 'a', at: point({latitude: 55.6, longitude: 12.9})}), \
         (:Place {name: 'b', at: point({x: 1, y: 2}), path: [point({x: 1, y: 2}), point({x: 3, y: 4})]})",
    )
    .expect("points are property values");
    let at = one(&g, "MATCH (p:Place {name: 'a'}) RETURN p.at");
    let Value::Point(p) = at else {
        panic!("{at:?} is not a point")
    };
    assert_eq!((p.crs(), p.coords()), (Crs::Wgs84, &[12.9, 55.6][..]));
    let q = "MATCH (p:Place) WHERE p.at = point({x: 1.0, y: 2.0}) RETURN p.name";
    assert_eq!(one(&g, q), s("b"));
    let q = "MATCH (p:Place) WHERE point.distance(p.at, point({latitude: 55.7, longitude: 12.9})) < 20000 \
             RETURN p.name";
    assert_eq!(one(&g, q), s("a"));
    assert_eq!(
        one(&g, "MATCH (p:Place {name: 'b'}) RETURN size(p.path)"),
        Value::Int(2)
    );
    // An index on a point property answers equality.
    run(&g, "CREATE INDEX place_at FOR (p:Place) ON (p.at)").expect("an index");
    let q = "MATCH (p:Place {at: point({x: 1, y: 2})}) RETURN p.name";
    assert_eq!(one(&g, q), s("b"));
    // A node's properties make a point, as on Neo4j.
    run(&g, "CREATE (:Corner {x: 1, y: 2, name: 'c'})").expect("a node");
    assert_eq!(
        one(&g, "MATCH (c:Corner) RETURN toString(point(c))"),
        s("point({x: 1.0, y: 2.0, crs: 'cartesian'})")
    );
    // A list mixing points and numbers is no property value.
    let q = "CREATE (:Place {bad: [point({x: 1, y: 2}), 1]})";
    assert!(run(&g, q).is_err(), "{q}");
}
