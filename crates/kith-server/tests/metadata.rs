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
fn ping_is_true_and_jmx_has_no_beans() {
    let g = graph();
    assert_eq!(rows(&g, "CALL db.ping()").expect("runs"), ["true"]);
    let q = "CALL dbms.queryJmx('*:*') YIELD name, attributes RETURN name";
    assert_eq!(rows(&g, q).expect("runs"), Vec::<String>::new());
    assert!(rows(&g, "CALL dbms.queryJmx(1)").is_err());
}

#[test]
fn show_databases_lists_the_graph_and_system() {
    let g = graph();
    let all = "neo4j standard [] read-write null primary true online online  true true []";
    let system = "system system [] read-write null primary true online online  false false []";
    assert_eq!(rows(&g, "SHOW DATABASES").expect("runs"), [all, system]);
    assert_eq!(rows(&g, "SHOW ALL DATABASES").expect("runs"), [all, system]);
    assert_eq!(rows(&g, "SHOW DATABASE neo4j").expect("runs"), [all]);
    assert_eq!(rows(&g, "SHOW DATABASE SYSTEM").expect("runs"), [system]);
    // WHERE straight after the command, as cypher-shell's :sysinfo writes it.
    let q = "SHOW DATABASES WHERE name = 'system'";
    assert_eq!(rows(&g, q).expect("runs"), [system]);
    let q = "SHOW DATABASES WHERE type = 'standard' YIELD name";
    assert_eq!(rows(&g, q), Err(ErrorCode::SyntaxError));
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

/// `apoc.meta.data()` as APOC 5 builds it (Meta.java's `collectMetaData`): rows per
/// single label, never for unlabeled nodes; relationship rows only for types leaving a
/// label, mirrored under the type; property rows typed by the first value met.
#[test]
fn apoc_meta_data_is_apocs() {
    let g = graph();
    let q = "CALL apoc.meta.data() YIELD label, property, count, type, array, left, right, other, elementType \
             RETURN label, property, toString(count) + '/' + toString(left) + '/' + toString(right), \
             type, array, other, elementType";
    let want = [
        "R A 1/1/0 RELATIONSHIP false [B] relationship",
        "R B 1/1/0 RELATIONSHIP false [B] relationship",
        "S B 1/1/0 RELATIONSHIP false [C] relationship",
        "T A 1/1/0 RELATIONSHIP false [C] relationship",
        "T B 1/1/0 RELATIONSHIP false [C] relationship",
        "A R 1/1/0 RELATIONSHIP false [B] node",
        "A T 1/1/0 RELATIONSHIP false [C] node",
        "A x 0/0/0 INTEGER false [] node",
        "B R 1/1/0 RELATIONSHIP false [B] node",
        "B T 1/1/0 RELATIONSHIP false [C] node",
        "B x 0/0/0 INTEGER false [] node",
        "B S 1/1/0 RELATIONSHIP false [C] node",
        "C x 0/0/0 INTEGER false [] node",
        "P a 0/0/0 INTEGER false [] node",
        "P b 0/0/0 STRING false [] node",
        "P l 0/0/0 LIST true [] node",
        "P d 0/0/0 DATE false [] node",
        "P s 0/0/0 LIST true [] node",
        "P e 0/0/0 LIST true [] node",
        "P dt 0/0/0 DATE_TIME false [] node",
        "P lt 0/0/0 LOCAL_TIME false [] node",
        "P p 0/0/0 DURATION false [] node",
        "Q s 0/0/0 LIST true [] node",
        "Q e 0/0/0 LIST true [] node",
        "Q dt 0/0/0 DATE_TIME false [] node",
        "Q lt 0/0/0 LOCAL_TIME false [] node",
        "Q p 0/0/0 DURATION false [] node",
    ];
    assert_eq!(rows(&g, q).expect("runs"), want);
}

/// The three statements `neo4j-graphrag`'s `get_structured_schema` (under
/// `langchain-neo4j`'s `Neo4jGraph`) sends, unmodified, with its parameters.
#[test]
fn langchains_schema_queries_run() {
    let g = graph();
    let snapshot = g.snapshot();
    let params = [
        (
            "EXCLUDED_LABELS".to_owned(),
            Value::List(vec![Value::string("_Bloom_Perspective_")]),
        ),
        ("SAMPLE".to_owned(), Value::Int(1000)),
    ];
    let run = |text: &str| {
        let result = engine()
            .query(&*snapshot, text, &params, &Limits::default())
            .expect("runs");
        result
            .rows
            .iter()
            .map(|r| text_of(&r[0]))
            .collect::<Vec<_>>()
    };
    let rels = run("CALL apoc.meta.data({sample: $SAMPLE}) YIELD label, other, elementType, type, property \
                    WHERE type = 'RELATIONSHIP' AND elementType = 'node' UNWIND other AS other_node \
                    WITH * WHERE NOT label IN $EXCLUDED_LABELS AND NOT other_node IN $EXCLUDED_LABELS \
                    RETURN {start: label, type: property, end: toString(other_node)} AS output");
    assert_eq!(rels.len(), 5, "{rels:?}");
    let nodes = run("CALL apoc.meta.data({sample: $SAMPLE}) YIELD label, other, elementType, type, property \
                     WHERE NOT type = 'RELATIONSHIP' AND elementType = 'node' AND NOT label IN $EXCLUDED_LABELS \
                     WITH label AS nodeLabel, collect({property:property, type:type}) AS properties \
                     RETURN {label: nodeLabel, properties: properties} AS output");
    assert_eq!(nodes.len(), 5, "{nodes:?}");
}

#[test]
fn apoc_meta_data_refuses_a_configuration_it_does_not_know() {
    let g = graph();
    for bad in ["{sample: 0}", "{sample: 'all'}", "{includeLabels: ['A']}"] {
        let q = format!("CALL apoc.meta.data({bad})");
        assert_eq!(rows(&g, &q), Err(ErrorCode::ProcedureCallFailed), "{q}");
    }
    assert_eq!(
        rows(
            &g,
            "CALL apoc.meta.data({sample: -1, maxRels: 5}) YIELD label RETURN count(*)"
        )
        .expect("runs"),
        ["Int(27)"]
    );
}

/// `apoc.schema.nodes()` as APOC 5.26.0 answered on Neo4j 5.26.30 for the same schema
/// (recorded on the real one; kith has no LOOKUP index, and no ids in the descriptions).
#[test]
fn apoc_schema_nodes_are_apocs() {
    let g = graph();
    for text in [
        "UNWIND range(1, 30) AS i CREATE (:U {name: 'u' + (i % 10)})",
        "CREATE INDEX ui FOR (u:U) ON (u.name)",
        "CREATE CONSTRAINT ci FOR (c:C) REQUIRE c.x IS UNIQUE",
    ] {
        let mut tx = Tx::new(&g.snapshot());
        engine()
            .query_tx(&mut tx, text, &[], &Limits::default())
            .expect(text);
        g.apply(&tx.into_batch()).expect("the writes apply");
    }
    let q = "CALL apoc.schema.nodes() YIELD name, label, properties, status, type, failure, \
             populationProgress, size, valuesSelectivity \
             RETURN name, label, properties, status, type, failure, toString(populationProgress), \
             toString(size), toString(valuesSelectivity)";
    let want = [
        ":C(x) C [x]  UNIQUENESS NO FAILURE 0.0 0 0.0",
        ":C(x) C [x] ONLINE RANGE NO FAILURE 100.0 1 1.0",
        ":U(name) U [name] ONLINE RANGE NO FAILURE 100.0 30 0.3333333333333333",
    ];
    assert_eq!(rows(&g, q).expect("runs"), want);
    let q = "CALL apoc.schema.nodes() YIELD userDescription RETURN userDescription";
    assert_eq!(
        rows(&g, q).expect("runs")[2],
        "Index( name='ui', type='RANGE', schema=(:U {name}), indexProvider='range-1.0' )"
    );
}
