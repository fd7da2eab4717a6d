//! Notifications, case by case as Neo4j 5.26 raises them on the same graph (recorded
//! with `bench/difftest/notifications.py` against the real one): the GQL status and
//! the offset each points at, and none where Neo4j raises none.

use kith_core::Value;
use kith_cypher::notices::Notification;
use kith_cypher::{Engine, Limits};
use kith_storage::{Snapshot, Store, Tx};

fn graph() -> Store {
    let store = Store::new(Snapshot::default());
    let mut tx = Tx::new(&store.snapshot());
    Engine::default()
        .query_tx(
            &mut tx,
            "CREATE (:Person {name: 'a'})-[:KNOWS]->(:Person {name: 'b'})",
            &[],
            &Limits::default(),
        )
        .expect("the graph is made");
    store.apply(&tx.into_batch()).expect("the writes apply");
    store
}

fn notices(store: &Store, text: &str, params: &[(String, Value)]) -> Vec<Notification> {
    let mut tx = Tx::new(&store.snapshot());
    Engine::default()
        .query_tx(&mut tx, text, params, &Limits::default())
        .unwrap_or_else(|e| panic!("{}", e.render(text)))
        .notifications
}

/// (GQL status, offset) of each notification, in offset order.
fn codes(store: &Store, text: &str) -> Vec<(&'static str, Option<usize>)> {
    notices(store, text, &[])
        .iter()
        .map(|n| (n.kind.gql_status(), n.position.map(|p| p.offset)))
        .collect()
}

/// A query and the (GQL status, offset) of each notification Neo4j raises for it.
type Case = (&'static str, &'static [(&'static str, Option<usize>)]);

#[test]
fn notifications_are_the_ones_neo4j_raises_where_it_raises_them() {
    let store = graph();
    let cases: &[Case] = &[
        (
            "MATCH (a:Person), (b:Person) RETURN count(*) AS c",
            &[("03N90", Some(0))],
        ),
        (
            "EXPLAIN MATCH (a:Person), (b:Person)-[:KNOWS]->(c), (d:Person) RETURN count(*)",
            &[("03N90", Some(8)), ("03N90", Some(8))],
        ),
        (
            "EXPLAIN MATCH (a:Person) WITH a MATCH (a), (b:Person) RETURN count(*)",
            &[("03N90", Some(32))],
        ),
        (
            "EXPLAIN OPTIONAL MATCH (a:Person), (b:Person) RETURN count(*)",
            &[("03N90", Some(8))],
        ),
        (
            "EXPLAIN MATCH (a:Person), (a)-[:KNOWS]->(b) RETURN count(*)",
            &[],
        ),
        (
            "EXPLAIN MATCH (a:Person) MATCH (b:Person) RETURN count(*)",
            &[],
        ),
        ("MATCH (a:Person)-[:KNOWS*]->(b) RETURN count(*) AS c", &[]),
        (
            "EXPLAIN MATCH p = allShortestPaths((a:Person)-[:KNOWS*]-(b:Person)) RETURN p",
            &[("03N91", Some(35))],
        ),
        (
            "EXPLAIN MATCH p = shortestPath((a:Person)-[:KNOWS*..9]-(b:Person)) RETURN p",
            &[],
        ),
        ("MATCH (n:NoSuchLabel) RETURN n", &[("01N50", Some(9))]),
        ("MATCH ()-[r:NOSUCH]->() RETURN r", &[("01N51", Some(12))]),
        (
            "MATCH (n:Person) WHERE n.nosuch = 1 RETURN n",
            &[("01N52", Some(25))],
        ),
        (
            "MATCH (n:Person) RETURN n.nosuch AS x",
            &[("01N52", Some(26))],
        ),
        (
            "MATCH (n:Person) WHERE n:NoSuchLabel RETURN n",
            &[("01N50", Some(25))],
        ),
        (
            "EXPLAIN MATCH (n:Person|Nope) RETURN n",
            &[("01N50", Some(24))],
        ),
        (
            "EXPLAIN MATCH (n:Person) RETURN n {.nope}",
            &[("01N52", Some(36))],
        ),
        (
            "EXPLAIN MATCH (a)-[r:KNOWS {nope: 1}]->(b) RETURN a",
            &[("01N52", Some(28))],
        ),
        (
            "MATCH (a:NoA)-[:NOR]->(b:NoB {nokey: 1}) RETURN a",
            &[
                ("01N50", Some(9)),
                ("01N51", Some(16)),
                ("01N50", Some(25)),
                ("01N52", Some(30)),
            ],
        ),
        ("EXPLAIN UNWIND [{a: 1}] AS m RETURN m.zzmapkey", &[]),
        ("EXPLAIN RETURN {zzlitkey: 1} AS m", &[]),
        // A query that writes is not checked for names (it may be making them).
        ("EXPLAIN MATCH (n:Person) WHERE n:Nope2 SET n:Nope3", &[]),
        ("EXPLAIN CREATE (n:NewL {k: 1}) RETURN n.k2", &[]),
        (
            "MATCH (n:Person) RETURN id(n) AS i LIMIT 1",
            &[("01N02", Some(24))],
        ),
        (
            "EXPLAIN MATCH (a:Person)-[:KNOWS|:LIKES]->(b) RETURN count(*) AS c",
            &[("01N01", Some(32)), ("01N51", Some(34))],
        ),
        ("EXPLAIN MATCH (a:Person)-[:KNOWS|KNOWS]->(b) RETURN b", &[]),
        (
            "UNWIND [1] AS x CALL { WITH x RETURN x * 2 AS y } RETURN y",
            &[("01N00", Some(16))],
        ),
        (
            "EXPLAIN MATCH (n) CALL (n) { MATCH (n)-->(m) RETURN m } RETURN m",
            &[],
        ),
        (
            "CYPHER runtime=parallel MATCH (n) RETURN count(n) AS c",
            &[("01N40", None)],
        ),
        (
            "EXPLAIN CYPHER runtime=interpreted MATCH (n) RETURN n",
            &[("01N01", None)],
        ),
        ("CYPHER runtime=slotted MATCH (n) RETURN count(n) AS c", &[]),
        (
            "EXPLAIN MATCH (n) WHERE n.name = $x RETURN n",
            &[("01N60", None)],
        ),
        ("RETURN 1 AS x", &[]),
    ];
    let mut wrong = Vec::new();
    for (text, want) in cases {
        let got = codes(&store, text);
        if got != *want {
            wrong.push(format!("{text}\n   kith:  {got:?}\n   Neo4j: {want:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn notifications_say_what_neo4j_says() {
    let store = graph();
    let text = "MATCH (a:Person), (b:Person)-[:KNOWS]->(c) RETURN count(*) AS n";
    let n = &notices(&store, text, &[])[0];
    assert_eq!(
        n.status_description(),
        "info: cartesian product. The disconnected pattern '(a:Person), \
         (b:Person)-[:KNOWS]->(c)' builds a cartesian product. A cartesian product may \
         produce a large amount of data and slow down query processing."
    );
    assert!(
        n.description.ends_with("(identifiers are: (b, c))"),
        "{}",
        n.description
    );
    assert_eq!(
        n.kind.neo4j_code(),
        "Neo.ClientNotification.Statement.CartesianProduct"
    );
    let n = &notices(&store, "MATCH (n:Nope) RETURN n", &[])[0];
    assert_eq!(
        n.status_description(),
        "warn: label does not exist. The label `Nope` does not exist. Verify that the \
         spelling is correct."
    );
    let text = "EXPLAIN MATCH (n) WHERE n.name = $x AND n.name = $y AND n.name = $z RETURN n";
    let given = [("y".to_owned(), Value::Int(1))];
    let n = &notices(&store, text, &given)[0];
    assert!(n.message.contains("$`x` and $`z`"), "{}", n.message);
    // The second line's notification points at its line and column.
    let n = &notices(&store, "MATCH (n:Person)\nRETURN n.nope AS x", &[])[0];
    let p = n.position.expect("a position");
    assert_eq!((p.offset, p.line, p.column), (26, 2, 10));
}

#[test]
fn a_cached_plan_stops_warning_once_the_name_exists() {
    let store = graph();
    let engine = Engine::default();
    let text = "MATCH (n:Later) RETURN count(n) AS c";
    let run = |store: &Store| {
        let mut tx = Tx::new(&store.snapshot());
        engine
            .query_tx(&mut tx, text, &[], &Limits::default())
            .expect("runs")
            .notifications
            .len()
    };
    assert_eq!(run(&store), 1);
    let mut tx = Tx::new(&store.snapshot());
    engine
        .query_tx(&mut tx, "CREATE (:Later)", &[], &Limits::default())
        .expect("creates");
    store.apply(&tx.into_batch()).expect("applies");
    assert_eq!(run(&store), 0);
}

#[test]
fn a_schema_command_that_does_nothing_says_so_as_neo4j_does() {
    let store = graph();
    let commit = |text: &str| {
        let mut tx = Tx::new(&store.snapshot());
        let result = Engine::default()
            .query_tx(&mut tx, text, &[], &Limits::default())
            .unwrap_or_else(|e| panic!("{}", e.render(text)));
        store.apply(&tx.into_batch()).expect("applies");
        result.notifications
    };
    let create = "CREATE INDEX pn IF NOT EXISTS FOR (n:Person) ON (n.name)";
    assert!(commit(create).is_empty());
    let again = commit(create);
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].kind.gql_status(), "00NA0");
    // Neo4j 5.26's words (recorded).
    assert_eq!(
        again[0].status_description(),
        "note: successful completion - index or constraint already exists. The command \
         'CREATE RANGE INDEX pn IF NOT EXISTS FOR (e:Person) ON (e.name)' has no effect. \
         The index or constraint specified by 'RANGE INDEX pn FOR (e:Person) ON (e.name)' \
         already exists."
    );
    let other = commit("CREATE INDEX pn2 IF NOT EXISTS FOR (n:Person) ON (n.name)");
    assert!(
        other[0]
            .message
            .contains("specified by 'RANGE INDEX pn FOR"),
        "{}",
        other[0].message
    );
    assert!(commit("DROP INDEX pn IF EXISTS").is_empty());
    let gone = commit("DROP INDEX pn IF EXISTS");
    assert_eq!(gone[0].kind.gql_status(), "00NA1");
    assert_eq!(gone[0].description, "`pn` does not exist.");
    assert_eq!(gone[0].title, "`DROP INDEX pn IF EXISTS` has no effect.");
}
