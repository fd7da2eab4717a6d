//! Byte arrays (issue 42, deliverable 2) answered as Neo4j 5.26 answers them (each
//! answer below recorded on the real one through its Python driver): a byte array is
//! handed back as bytes where a value is passed on unchanged, stored as one, and read
//! as the list of its signed bytes by every other operation.

use std::sync::Arc;

use kith_core::Value;
use kith_cypher::{Engine, ErrorCode, Limits};
use kith_storage::{Snapshot, Store, Tx};

fn bytes(b: &[u8]) -> Value {
    Value::Bytes(Arc::from(b))
}

/// `$b` = 0x01 0x02 0xff, `$c` = 0x01 0x03, `$e` empty.
fn params() -> Vec<(String, Value)> {
    vec![
        ("b".to_owned(), bytes(&[1, 2, 255])),
        ("c".to_owned(), bytes(&[1, 3])),
        ("e".to_owned(), bytes(&[])),
    ]
}

fn run(store: &Store, text: &str) -> Result<Vec<Vec<Value>>, ErrorCode> {
    let mut tx = Tx::new(&store.snapshot());
    let rows = Engine::default()
        .query_tx(&mut tx, text, &params(), &Limits::default())
        .map(|r| r.rows)
        .map_err(|e| e.code)?;
    store.apply(&tx.into_batch()).expect("the writes apply");
    Ok(rows)
}

fn column(store: &Store, text: &str) -> Vec<Value> {
    let rows = run(store, text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    rows.into_iter().map(|mut r| r.remove(0)).collect()
}

fn ints(xs: &[i64]) -> Value {
    Value::List(xs.iter().map(|&i| Value::Int(i)).collect())
}

#[test]
fn a_byte_array_reads_as_the_list_of_its_signed_bytes() {
    let g = Store::new(Snapshot::default());
    let t = Value::Bool(true);
    let f = Value::Bool(false);
    let list_type = Value::string("LIST<INTEGER NOT NULL> NOT NULL");
    let cases: Vec<(&str, Value)> = vec![
        ("RETURN $b", bytes(&[1, 2, 255])),
        ("RETURN $e", bytes(&[])),
        ("RETURN size($b)", Value::Int(3)),
        ("RETURN size($e)", Value::Int(0)),
        ("RETURN $b[0]", Value::Int(1)),
        ("RETURN $b[-1]", Value::Int(-1)),
        ("RETURN $b[5]", Value::Null),
        ("RETURN $b[0..2]", ints(&[1, 2])),
        ("RETURN $b = $b", t.clone()),
        ("RETURN $b = [1, 2, -1]", t.clone()),
        ("RETURN $b = $c", f.clone()),
        ("RETURN $b = $e", f.clone()),
        ("RETURN [] = $e", t.clone()),
        ("RETURN $b < $c", t.clone()),
        ("RETURN $b > [1]", t.clone()),
        ("RETURN valueType($b)", list_type.clone()),
        ("RETURN valueType($e)", list_type),
        ("RETURN $b IS :: LIST<INTEGER NOT NULL>", t.clone()),
        ("RETURN $b IS :: LIST<FLOAT>", f.clone()),
        ("RETURN $b IS :: STRING", f.clone()),
        ("RETURN $b + [1]", ints(&[1, 2, -1, 1])),
        ("RETURN 1 + $b", ints(&[1, 1, 2, -1])),
        ("RETURN $b + $c", ints(&[1, 2, -1, 1, 3])),
        ("RETURN [x IN $b | x]", ints(&[1, 2, -1])),
        ("RETURN 2 IN $b", t.clone()),
        ("RETURN $b IN [$b]", t.clone()),
        ("RETURN head($b)", Value::Int(1)),
        ("RETURN last($b)", Value::Int(-1)),
        ("RETURN tail($b)", ints(&[2, -1])),
        ("RETURN isEmpty($e)", t.clone()),
        ("RETURN any(x IN $b WHERE x > 100)", f),
        ("RETURN reduce(s = 0, x IN $b | s + x)", Value::Int(2)),
        ("RETURN toIntegerList($b)", ints(&[1, 2, -1])),
        (
            "RETURN toStringList($b)",
            Value::List(["1", "2", "-1"].map(Value::string).into()),
        ),
        ("UNWIND $b AS x RETURN collect(x)", ints(&[1, 2, -1])),
        ("RETURN coalesce($b)", bytes(&[1, 2, 255])),
        ("RETURN head([$b])", bytes(&[1, 2, 255])),
        ("RETURN CASE WHEN true THEN $b END", bytes(&[1, 2, 255])),
        ("RETURN min($b)", bytes(&[1, 2, 255])),
        (
            "RETURN [$b, 1]",
            Value::List(vec![bytes(&[1, 2, 255]), Value::Int(1)]),
        ),
        ("RETURN $b STARTS WITH 'a'", Value::Null),
        (
            "RETURN $b + 'x'",
            Value::List(vec![
                Value::Int(1),
                Value::Int(2),
                Value::Int(-1),
                Value::string("x"),
            ]),
        ),
        (
            "UNWIND [$b, $b, $c] AS x RETURN count(DISTINCT x)",
            Value::Int(2),
        ),
        (
            "UNWIND [$b, [1, 2, -1]] AS x RETURN count(DISTINCT x)",
            Value::Int(1),
        ),
        (
            "UNWIND [$b, [1, 2, -1]] AS x RETURN x AS k, count(*) AS n",
            bytes(&[1, 2, 255]),
        ),
    ];
    for (text, want) in cases {
        assert_eq!(column(&g, text), [want], "{text}");
    }
    // Ordered among lists, as a list.
    let sorted = column(&g, "UNWIND [$b, $c, 1, 'a', [1]] AS x RETURN x ORDER BY x");
    assert_eq!(
        sorted,
        [
            ints(&[1]),
            bytes(&[1, 2, 255]),
            bytes(&[1, 3]),
            Value::string("a"),
            Value::Int(1)
        ]
    );
}

#[test]
fn functions_that_take_no_list_refuse_a_byte_array() {
    let g = Store::new(Snapshot::default());
    for text in [
        "RETURN toString($b)",
        "RETURN reverse($b)",
        "RETURN $b.x",
        "RETURN $b['a']",
    ] {
        assert_eq!(run(&g, text), Err(ErrorCode::TypeError), "{text}");
    }
}

#[test]
fn a_byte_array_is_stored_found_and_merged_as_neo4j_does() {
    let g = Store::new(Snapshot::default());
    let b = bytes(&[1, 2, 255]);
    assert_eq!(
        column(&g, "CREATE (n:B {b: $b, e: $e}) RETURN n.b"),
        std::slice::from_ref(&b)
    );
    assert_eq!(column(&g, "MATCH (n:B) RETURN n.e"), [bytes(&[])]);
    assert_eq!(
        column(&g, "MATCH (n:B) WHERE n.b = $b RETURN count(n)"),
        [Value::Int(1)]
    );
    assert_eq!(
        column(&g, "MATCH (n:B) WHERE n.b = [1, 2, -1] RETURN count(n)"),
        [Value::Int(1)]
    );
    assert_eq!(
        column(&g, "MATCH (n:B) RETURN n.b[1] + size(n.b)"),
        [Value::Int(5)]
    );
    assert_eq!(
        column(&g, "MATCH (n:B) RETURN valueType(n.b)"),
        [Value::string("LIST<INTEGER NOT NULL> NOT NULL")]
    );
    // MERGE on the list it equals finds the node holding the byte array.
    assert_eq!(
        column(&g, "MERGE (n:B {b: [1, 2, -1]}) RETURN n.b"),
        std::slice::from_ref(&b)
    );
    assert_eq!(column(&g, "MATCH (n:B) RETURN count(n)"), [Value::Int(1)]);
    // On relationships too.
    assert_eq!(column(&g, "CREATE ()-[r:R {b: $b}]->() RETURN r.b"), [b]);
    assert_eq!(
        column(&g, "MATCH ()-[r:R]->() WHERE r.b = $b RETURN count(r)"),
        [Value::Int(1)]
    );
    // A byte array inside a list is a collection in a collection.
    assert_eq!(run(&g, "CREATE (:B {b: [$b]})"), Err(ErrorCode::TypeError));
}
