//! The metadata procedures and listings drivers' tools call first (issue 42), each
//! answered as Neo4j 5.26 answered the same statements on the same graph (recorded by
//! hand on the real one): `db.schema.nodeTypeProperties()`,
//! `db.schema.relTypeProperties()`, `dbms.components()`, `SHOW DATABASES`.

use std::sync::Arc;

use kith_core::Value;
use kith_cypher::{Engine, ErrorCode, Limits};
use kith_server::procedures::NativeProcedures;
use kith_storage::{Snapshot, Store, Tx};

fn engine() -> Engine {
    Engine::with_procedures(16, Arc::new(NativeProcedures::builtins()))
}

fn graph() -> Store {
    let store = Store::new(Snapshot::default());
    let mut tx = Tx::new(&store.snapshot());
    let setup = "CREATE (a:A:B {x: 1})-[:R]->(b:B {x: 2})-[:S]->(c:C {x: 3}), (a)-[:T]->(c), \
                 (:P {a: 1, b: 'x'}), (:P {a: 2.5, l: [1, 2], d: date()}), (:Q), ({z: true}), \
                 ()-[:W {w: 1}]->(), ()-[:W]->(), (:P:Q {s: ['a'], e: [], dt: datetime(), \
                 lt: localtime(), p: duration('P1D')})";
    engine()
        .query_tx(&mut tx, setup, &[], &Limits::default())
        .expect("the graph is made");
    store.apply(&tx.into_batch()).expect("the writes apply");
    store
}

/// Each row in a compact text form: strings bare, lists in brackets.
fn rows(store: &Store, text: &str) -> Result<Vec<String>, ErrorCode> {
    let snapshot = store.snapshot();
    let result = engine()
        .query(&*snapshot, text, &[], &Limits::default())
        .map_err(|e| e.code)?;
    Ok(result
        .rows
        .iter()
        .map(|r| r.iter().map(text_of).collect::<Vec<_>>().join(" "))
        .collect())
}

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.to_string(),
        Value::List(items) => format!(
            "[{}]",
            items.iter().map(text_of).collect::<Vec<_>>().join(",")
        ),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".into(),
        other => format!("{other:?}"),
    }
}

#[test]
fn node_type_properties_are_neo4js() {
    let g = graph();
    let got = rows(&g, "CALL db.schema.nodeTypeProperties()").expect("runs");
    let want = [
        " [] z [Boolean] false",
        ":`A`:`B` [A,B] x [Long] true",
        ":`B` [B] x [Long] true",
        ":`C` [C] x [Long] true",
        ":`P` [P] a [Long,Double] true",
        ":`P` [P] b [String] false",
        ":`P` [P] d [Date] false",
        ":`P` [P] l [LongArray] false",
        ":`P`:`Q` [P,Q] dt [DateTime] true",
        ":`P`:`Q` [P,Q] e [StringArray] true",
        ":`P`:`Q` [P,Q] lt [LocalTime] true",
        ":`P`:`Q` [P,Q] p [Duration] true",
        ":`P`:`Q` [P,Q] s [StringArray] true",
        ":`Q` [Q] null null false",
    ];
    assert_eq!(got, want);
    let q = "CALL db.schema.nodeTypeProperties() YIELD nodeType, propertyName \
             WHERE propertyName = 'x' RETURN count(*)";
    assert_eq!(rows(&g, q).expect("runs"), ["Int(3)"]);
}

#[test]
fn rel_type_properties_are_neo4js() {
    let g = graph();
    let got = rows(&g, "CALL db.schema.relTypeProperties()").expect("runs");
    let want = [
        ":`R` null null false",
        ":`S` null null false",
        ":`T` null null false",
        ":`W` w [Long] false",
    ];
    assert_eq!(got, want);
}

#[test]
fn components_name_the_neo4j_release_first() {
    let g = graph();
    let got = rows(&g, "CALL dbms.components()").expect("runs");
    assert_eq!(got[0], "Neo4j Kernel [5.26.0] community");
    assert!(got[1].starts_with("kith ["), "{got:?}");
    let q = "CALL dbms.components() YIELD name, versions, edition \
             UNWIND versions AS version RETURN version LIMIT 1";
    assert_eq!(rows(&g, q).expect("runs"), ["5.26.0"]);
}

#[test]
fn show_databases_lists_the_one_database() {
    let g = graph();
    let all = "neo4j standard [] read-write null primary true online online  true true []";
    assert_eq!(rows(&g, "SHOW DATABASES").expect("runs"), [all]);
    assert_eq!(rows(&g, "SHOW ALL DATABASES").expect("runs"), [all]);
    assert_eq!(rows(&g, "SHOW DATABASE neo4j").expect("runs"), [all]);
    assert_eq!(
        rows(&g, "SHOW DATABASE other").expect("runs"),
        Vec::<String>::new()
    );
    let default = "neo4j standard [] read-write null primary true online online  []";
    assert_eq!(rows(&g, "SHOW DEFAULT DATABASE").expect("runs"), [default]);
    assert_eq!(rows(&g, "SHOW HOME DATABASE").expect("runs"), [default]);
    let q = "SHOW DATABASE neo4j YIELD name, currentStatus";
    assert_eq!(rows(&g, q).expect("runs"), ["neo4j online"]);
    let q = "SHOW DATABASES YIELD name AS db, default WHERE default RETURN db";
    assert_eq!(rows(&g, q).expect("runs"), ["neo4j"]);
    assert_eq!(
        rows(&g, "SHOW DATABASES YIELD nope"),
        Err(ErrorCode::SyntaxError)
    );
    assert_eq!(
        rows(&g, "SHOW DEFAULT INDEXES"),
        Err(ErrorCode::SyntaxError)
    );
}
