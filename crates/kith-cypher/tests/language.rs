//! The language, clause by clause and expression by expression, on a small graph made
//! with CREATE: results, null semantics, and the typed errors.

use kith_core::Value;
use kith_cypher::{Engine, ErrorCode, Limits, QueryResult};
use kith_storage::{Snapshot, Store, Tx};

fn graph() -> Store {
    let store = Store::new(Snapshot::default());
    let engine = Engine::default();
    let setup = "CREATE (a:Person {id: 1, name: 'Ann', age: 30}), (b:Person {id: 2, name: 'Bob', age: 25}),
                        (c:Person {id: 3, name: 'Cid'}), (d:Person:Admin {id: 4, name: 'Dee', age: 41}),
                        (a)-[:KNOWS {since: 2010}]->(b), (b)-[:KNOWS {since: 2012}]->(c), (c)-[:KNOWS {since: 2015}]->(d),
                        (a)-[:LIKES]->(d), (g:Group {id: 10, title: 'g'}), (a)-[:MEMBER_OF]->(g), (b)-[:MEMBER_OF]->(g)";
    let _ = engine;
    commit(&store, setup);
    store
}

/// Runs `text` in a transaction and commits what it wrote.
fn commit(store: &Store, text: &str) -> QueryResult {
    let mut tx = Tx::new(&store.snapshot());
    let r = Engine::default()
        .query_tx(&mut tx, text, &[], &Limits::default())
        .unwrap_or_else(|e| panic!("{}", e.render(text)));
    store.apply(&tx.into_batch()).expect("the writes apply");
    r
}

fn run(store: &Store, text: &str) -> Vec<Vec<Value>> {
    run_with(store, text, &[])
}

/// Runs `text` in a transaction that is then dropped: the store is left as it was.
fn run_with(store: &Store, text: &str, params: &[(String, Value)]) -> Vec<Vec<Value>> {
    let mut tx = Tx::new(&store.snapshot());
    Engine::default()
        .query_tx(&mut tx, text, params, &Limits::default())
        .unwrap_or_else(|e| panic!("{}", e.render(text)))
        .rows
}

fn err(store: &Store, text: &str) -> ErrorCode {
    let mut tx = Tx::new(&store.snapshot());
    Engine::default()
        .query_tx(&mut tx, text, &[], &Limits::default())
        .expect_err("must fail")
        .code
}

fn ints(rows: &[Vec<Value>]) -> Vec<i64> {
    rows.iter()
        .map(|r| r[0].as_int().expect("an integer"))
        .collect()
}

fn s(v: &str) -> Value {
    Value::string(v)
}

#[test]
fn match_where_order_skip_limit() {
    let g = graph();
    assert_eq!(
        ints(&run(
            &g,
            "MATCH (p:Person) WHERE p.age > 20 RETURN p.id ORDER BY p.age DESC"
        )),
        [4, 1, 2]
    );
    assert_eq!(
        ints(&run(
            &g,
            "MATCH (p:Person) RETURN p.id ORDER BY p.id SKIP 1 LIMIT 2"
        )),
        [2, 3]
    );
    assert_eq!(
        ints(&run(
            &g,
            "MATCH (:Person {id: 1})-[:KNOWS]->(f) RETURN f.id"
        )),
        [2]
    );
    assert_eq!(
        ints(&run(
            &g,
            "MATCH (:Person {id: 2})<-[:KNOWS]-(f) RETURN f.id"
        )),
        [1]
    );
    assert_eq!(
        ints(&run(
            &g,
            "MATCH (:Person {id: 2})-[:KNOWS]-(f) RETURN f.id ORDER BY f.id"
        )),
        [1, 3]
    );
    assert_eq!(
        ints(&run(
            &g,
            "MATCH (a:Person {id: 1})-[:KNOWS|LIKES]->(f) RETURN f.id ORDER BY f.id"
        )),
        [2, 4]
    );
    assert_eq!(ints(&run(&g, "MATCH (p:Admin) RETURN p.id")), [4]);
    assert_eq!(
        ints(&run(
            &g,
            "MATCH (p) WHERE p:Admin OR p.id = 3 RETURN p.id ORDER BY p.id"
        )),
        [3, 4]
    );
}

#[test]
fn variable_length_and_shortest_paths() {
    let g = graph();
    assert_eq!(
        ints(&run(
            &g,
            "MATCH (:Person {id: 1})-[:KNOWS*1..3]->(f) RETURN f.id ORDER BY f.id"
        )),
        [2, 3, 4]
    );
    assert_eq!(
        ints(&run(
            &g,
            "MATCH (:Person {id: 1})-[:KNOWS*0..1]->(f) RETURN f.id ORDER BY f.id"
        )),
        [1, 2]
    );
    assert_eq!(
        ints(&run(
            &g,
            "MATCH (:Person {id: 1})-[r:KNOWS*2]->(f) RETURN size(r)"
        )),
        [2]
    );
    let q = "MATCH (a:Person {id: 1}), (d:Person {id: 4}) MATCH p = shortestPath((a)-[*]-(d)) RETURN length(p)";
    assert_eq!(ints(&run(&g, q)), [1]);
    let q = "MATCH (a:Person {id: 1}), (d:Person {id: 4}) MATCH p = allShortestPaths((a)-[:KNOWS*]-(d)) RETURN [n IN nodes(p) | n.id]";
    assert_eq!(
        run(&g, q),
        [[Value::List(vec![
            Value::Int(1),
            Value::Int(2),
            Value::Int(3),
            Value::Int(4)
        ])]]
    );
    let q =
        "MATCH (a:Person {id: 1}), (g:Group) MATCH p = shortestPath((a)-[:KNOWS*]-(g)) RETURN p";
    assert!(run(&g, q).is_empty(), "no KNOWS path to a group: no row");
}

#[test]
fn optional_match_and_null_semantics() {
    let g = graph();
    let rows = run(
        &g,
        "MATCH (p:Person) OPTIONAL MATCH (p)-[:MEMBER_OF]->(g) RETURN p.id, g.title ORDER BY p.id",
    );
    assert_eq!(rows[0], [Value::Int(1), s("g")]);
    assert_eq!(rows[2], [Value::Int(3), Value::Null]);
    assert_eq!(
        run(
            &g,
            "RETURN null = null, null <> 1, 1 IN [null, 1], 2 IN [null, 1], NOT null"
        ),
        [[
            Value::Null,
            Value::Null,
            Value::Bool(true),
            Value::Null,
            Value::Null
        ]]
    );
    assert_eq!(
        run(&g, "RETURN true OR null, false AND null, null XOR true"),
        [[Value::Bool(true), Value::Bool(false), Value::Null]]
    );
    // IS7's quirk: a simple CASE never matches null.
    assert_eq!(
        run(&g, "RETURN CASE null WHEN null THEN 1 ELSE 2 END"),
        [[Value::Int(2)]]
    );
}

#[test]
fn aggregation_distinct_and_with() {
    let g = graph();
    assert_eq!(
        run(
            &g,
            "MATCH (p:Person) RETURN count(*), count(p.age), sum(p.age), min(p.age), max(p.name)"
        ),
        [[
            Value::Int(4),
            Value::Int(3),
            Value::Int(96),
            Value::Int(25),
            s("Dee")
        ]]
    );
    assert_eq!(
        run(&g, "MATCH (p:Person) RETURN avg(p.age)"),
        [[Value::Float(32.0)]]
    );
    assert_eq!(
        run(
            &g,
            "MATCH (p:Person) WHERE p.id > 100 RETURN count(*), collect(p.id), sum(p.age)"
        ),
        [[Value::Int(0), Value::List(vec![]), Value::Int(0)]]
    );
    let rows = run(
        &g,
        "MATCH (p:Person)-[:MEMBER_OF]->(g) WITH g, collect(p.id) AS ids RETURN g.id, size(ids)",
    );
    assert_eq!(rows, [[Value::Int(10), Value::Int(2)]]);
    assert_eq!(
        run(
            &g,
            "UNWIND [1, 1, 2, null] AS x RETURN DISTINCT x ORDER BY x"
        ),
        [[Value::Int(1)], [Value::Int(2)], [Value::Null]]
    );
    assert_eq!(
        run(&g, "UNWIND [1, 2, 2] AS x RETURN count(DISTINCT x)"),
        [[Value::Int(2)]]
    );
    let q = "MATCH (p:Person) WITH p ORDER BY p.id DESC LIMIT 2 WHERE p.id > 3 RETURN p.id";
    assert_eq!(ints(&run(&g, q)), [4]);
    // A property grouping key read beside an aggregate is its group's value (it was
    // null: only the key's slot survives the grouping, not the variable), wherever the
    // key item stands.
    let q = "MATCH (g:Group)<-[:MEMBER_OF]-(p) RETURN g.id AS id, g.id + count(p) AS sum, \
             {key: g.id, n: count(p)} AS m, g.id = 10 AND count(p) = 2 AS both";
    let m = Value::Map(vec![
        ("key".into(), Value::Int(10)),
        ("n".into(), Value::Int(2)),
    ]);
    assert_eq!(
        run(&g, q),
        [[Value::Int(10), Value::Int(12), m, Value::Bool(true)]]
    );
    let q = "MATCH (p:Person)-[:MEMBER_OF]->(g) RETURN g.id + count(p) AS sum, g.id AS id";
    assert_eq!(run(&g, q), [[Value::Int(12), Value::Int(10)]]);
    let q =
        "MATCH (p:Person)-[:MEMBER_OF]->(g) WITH g.title AS t, g.title + count(*) AS s RETURN t, s";
    assert_eq!(run(&g, q), [[s("g"), s("g2")]]);
}

#[test]
fn expressions() {
    let g = graph();
    let rows = run(
        &g,
        "RETURN 7 / 2, 7 % 3, 2 ^ 3, 7.0 / 2, -(-3), 'a' + 'b', [1] + [2], 'x' + 1",
    );
    assert_eq!(
        rows,
        [[
            Value::Int(3),
            Value::Int(1),
            Value::Float(8.0),
            Value::Float(3.5),
            Value::Int(3),
            s("ab"),
            Value::List(vec![Value::Int(1), Value::Int(2)]),
            s("x1")
        ]]
    );
    let rows = run(&g, "WITH [1, 2, 3, 4] AS l RETURN l[0], l[-1], l[1..3], l[9], [x IN l WHERE x % 2 = 0 | x * 10], reduce(a = 0, x IN l | a + x)");
    assert_eq!(rows[0][0], Value::Int(1));
    assert_eq!(rows[0][1], Value::Int(4));
    assert_eq!(rows[0][2], Value::List(vec![Value::Int(2), Value::Int(3)]));
    assert_eq!(rows[0][3], Value::Null);
    assert_eq!(
        rows[0][4],
        Value::List(vec![Value::Int(20), Value::Int(40)])
    );
    assert_eq!(rows[0][5], Value::Int(10));
    let rows = run(&g, "RETURN 'Anna' STARTS WITH 'An', 'Anna' ENDS WITH 'na', 'Anna' CONTAINS 'nn', 'Anna' =~ 'A.*a', 1 < 2 <= 2 < 1");
    assert_eq!(
        rows,
        [[
            Value::Bool(true),
            Value::Bool(true),
            Value::Bool(true),
            Value::Bool(true),
            Value::Bool(false)
        ]]
    );
    let rows = run(&g, "RETURN toInteger('42'), toFloat(1), floor(1.5), coalesce(null, 2), size('héllo'), head([3, 4]), toUpper('a'), split('a,b', ',')");
    assert_eq!(rows[0][0], Value::Int(42));
    assert_eq!(rows[0][4], Value::Int(5));
    let rows = run(
        &g,
        "WITH datetime({epochMillis: 1274445296789}) AS d RETURN d.year, d.month, d.day",
    );
    assert_eq!(rows, [[Value::Int(2010), Value::Int(5), Value::Int(21)]]);
    let rows = run(&g, "RETURN all(x IN [1, 2] WHERE x > 0), any(x IN [1, 2] WHERE x > 1), none(x IN [] WHERE true), single(x IN [1, 2] WHERE x = 1)");
    assert_eq!(rows, [vec![Value::Bool(true); 4]]);
    let rows = run(
        &g,
        "MATCH (p:Person {id: 1}) RETURN p {.name, .age, twice: p.age * 2}",
    );
    assert_eq!(
        rows,
        [[Value::Map(vec![
            ("name".into(), s("Ann")),
            ("age".into(), Value::Int(30)),
            ("twice".into(), Value::Int(60))
        ])]]
    );
}

#[test]
fn patterns_in_expressions_and_subqueries() {
    let g = graph();
    let q = "MATCH (p:Person) WHERE NOT (p)-[:KNOWS]->() RETURN p.id";
    assert_eq!(ints(&run(&g, q)), [4]);
    let q = "MATCH (p:Person {id: 1}) RETURN [(p)-[:KNOWS|LIKES]->(f) | f.id]";
    let Value::List(mut ids) = run(&g, q)[0][0].clone() else {
        panic!("a list")
    };
    ids.sort_by_key(|v| v.as_int());
    assert_eq!(ids, [Value::Int(2), Value::Int(4)]);
    let q = "MATCH (g:Group) RETURN COUNT { (g)<-[:MEMBER_OF]-() }, COLLECT { MATCH (g)<-[:MEMBER_OF]-(p) WITH p ORDER BY p.id DESC RETURN p.id }, EXISTS { MATCH (g)<-[:MEMBER_OF]-(p) WHERE p.age > 100 }";
    assert_eq!(
        run(&g, q),
        [[
            Value::Int(2),
            Value::List(vec![Value::Int(2), Value::Int(1)]),
            Value::Bool(false)
        ]]
    );
}

#[test]
fn parameters_and_union() {
    let g = graph();
    let params = [
        (
            "ids".to_owned(),
            Value::List(vec![Value::Int(3), Value::Int(1)]),
        ),
        ("min".to_owned(), Value::Int(0)),
    ];
    let q = "UNWIND $ids AS i MATCH (p:Person {id: i}) WHERE p.id > $min RETURN p.name";
    assert_eq!(run_with(&g, q, &params), [[s("Cid")], [s("Ann")]]);
    assert_eq!(run(&g, "RETURN 1 AS x UNION RETURN 1 AS x").len(), 1);
    assert_eq!(run(&g, "RETURN 1 AS x UNION ALL RETURN 1 AS x").len(), 2);
}

#[test]
fn create_returns_its_writes_as_one_transaction() {
    let g = graph();
    let mut tx = Tx::new(&g.snapshot());
    let r = Engine::default()
        .query_tx(&mut tx, "MATCH (a:Person {id: 1}) CREATE (n:Person:New {id: 9, name: 'Neu'})-[:KNOWS {since: 2020}]->(a) RETURN n.name", &[], &Limits::default())
        .expect("runs");
    assert_eq!(r.rows, [[s("Neu")]]);
    let batch = tx.into_batch();
    assert_eq!(batch.ops.len(), 2);
    g.apply(&batch).expect("applies");
    assert_eq!(
        ints(&run(&g, "MATCH (:New)-[:KNOWS]->(a) RETURN a.id")),
        [1]
    );
}

#[test]
fn what_create_makes_is_visible_to_the_rest_of_the_query() {
    let g = graph();
    let q = "CREATE (n:A:B {x: 1})-[r:T {w: 2}]->(m {y: 'z'}) RETURN labels(n), r.w, type(r), n['x'], properties(m), n:B, n";
    let rows = run(&g, q);
    let row = &rows[0];
    assert_eq!(row[0], Value::List(vec![s("A"), s("B")]));
    assert_eq!(row[1], Value::Int(2));
    assert_eq!(row[2], s("T"));
    assert_eq!(row[3], Value::Int(1));
    assert_eq!(row[4], Value::Map(vec![("y".into(), s("z"))]));
    assert_eq!(row[5], Value::Bool(true));
    let Value::Map(node) = &row[6] else {
        panic!("a node is a map")
    };
    assert_eq!(
        node[1],
        ("_labels".into(), Value::List(vec![s("A"), s("B")]))
    );
    assert_eq!(
        node[2],
        (
            "properties".into(),
            Value::Map(vec![("x".into(), Value::Int(1))])
        )
    );
}

#[test]
fn errors_are_typed() {
    let g = graph();
    assert_eq!(err(&g, "MATCH (a) RETURN b"), ErrorCode::SyntaxError);
    assert_eq!(err(&g, "RETURN 1 / 0"), ErrorCode::ArithmeticError);
    assert_eq!(err(&g, "RETURN 'a' - 1"), ErrorCode::TypeError);
    assert_eq!(err(&g, "RETURN nosuch(1)"), ErrorCode::UnknownFunction);
    assert_eq!(err(&g, "RETURN size(1, 2)"), ErrorCode::SyntaxError);
    assert_eq!(err(&g, "RETURN $missing"), ErrorCode::ParameterMissing);
    assert_eq!(
        err(&g, "MATCH (a) WHERE count(a) > 1 RETURN a"),
        ErrorCode::SyntaxError
    );
    assert_eq!(err(&g, "MATCH (a RETURN a"), ErrorCode::SyntaxError);
    assert_eq!(err(&g, "WITH 1 + 1 RETURN 1"), ErrorCode::SyntaxError);
    assert_eq!(
        err(&g, "RETURN 9223372036854775807 + 1"),
        ErrorCode::ArithmeticError
    );
    assert_eq!(
        err(&g, "UNWIND range(1, 10) AS x RETURN x LIMIT -1"),
        ErrorCode::SyntaxError
    );
}

#[test]
fn limits_stop_a_query() {
    let g = graph();
    let limits = Limits {
        rows_max: 1_000,
        ..Limits::default()
    };
    let e = Engine::default()
        .query(
            &*g.snapshot(),
            "UNWIND range(1, 100) AS x UNWIND range(1, 100) AS y RETURN x, y",
            &[],
            &limits,
        )
        .expect_err("over the row limit");
    assert_eq!(e.code, ErrorCode::LimitExceeded);
    // Rows that stream through into a count are not held: 10,000 rows pass 1,000.
    let product = "UNWIND range(1, 100) AS x UNWIND range(1, 100) AS y";
    let counted = Engine::default()
        .query(
            &*g.snapshot(),
            &format!("{product} RETURN count(*)"),
            &[],
            &limits,
        )
        .expect("streams");
    assert_eq!(counted.rows, [[Value::Int(10_000)]]);
    // What a grouping, a collect or a DISTINCT keeps is held.
    for held in [
        "RETURN x * 1000 + y AS k, count(*)",
        "RETURN size(collect(y))",
        "RETURN count(DISTINCT x * 1000 + y)",
        "WITH DISTINCT x, y RETURN count(*)",
        "RETURN percentileDisc(y, 0.5)",
    ] {
        let e = Engine::default()
            .query(&*g.snapshot(), &format!("{product} {held}"), &[], &limits)
            .expect_err(held);
        assert_eq!(e.code, ErrorCode::LimitExceeded, "{held}");
    }
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let limits = Limits {
        cancel: Some(cancel),
        ..Limits::default()
    };
    let e = Engine::default()
        .query(
            &*g.snapshot(),
            "UNWIND range(1, 1000) AS x UNWIND range(1, 1000) AS y RETURN count(*)",
            &[],
            &limits,
        )
        .expect_err("cancelled");
    assert_eq!(e.code, ErrorCode::Cancelled);
    let limits = Limits {
        timeout: Some(std::time::Duration::ZERO),
        ..Limits::default()
    };
    let e = Engine::default()
        .query(
            &*g.snapshot(),
            "UNWIND range(1, 1000) AS x UNWIND range(1, 1000) AS y RETURN count(*)",
            &[],
            &limits,
        )
        .expect_err("timed out");
    assert_eq!(e.code, ErrorCode::Timeout);
}

/// `run_graph` keeps nodes, relationships and paths; flattened, they are exactly what
/// `run` answers, so the two protocols never disagree about a value.
#[test]
fn graph_answers_flatten_to_the_plain_answers() {
    let store = kith_storage::Store::new(kith_storage::Snapshot::empty());
    let engine = kith_cypher::Engine::default();
    let setup = "CREATE (a:Person {name: 'a'})-[:KNOWS {since: 2020}]->(b:Person {name: 'b'})";
    commit(&store, setup);
    let text = "MATCH p = (a)-[r:KNOWS]->(b) RETURN a, r, p, [a, 1] AS l, {n: b} AS m, a.name AS s";
    let prepared = engine.prepare(text).expect("prepares");
    let limits = kith_cypher::Limits::default();
    let plain = kith_cypher::run(&*store.snapshot(), &prepared, &[], &limits).expect("runs");
    let graph = kith_cypher::run_graph(&*store.snapshot(), &prepared, &[], &limits).expect("runs");
    assert_eq!(graph.rows.len(), 1);
    let row = &graph.rows[0];
    assert!(
        matches!(&row[0], kith_cypher::GraphValue::Node(n) if n.labels[0].as_ref() == "Person")
    );
    assert!(matches!(&row[1], kith_cypher::GraphValue::Rel(r) if r.rel_type.as_ref() == "KNOWS"));
    assert!(
        matches!(&row[2], kith_cypher::GraphValue::Path { nodes, rels } if nodes.len() == 2 && rels.len() == 1)
    );
    assert!(matches!(&row[3], kith_cypher::GraphValue::List(_)));
    assert!(matches!(&row[4], kith_cypher::GraphValue::Map(_)));
    assert!(matches!(&row[5], kith_cypher::GraphValue::Plain(_)));
    let flattened: Vec<Vec<kith_core::Value>> = graph
        .rows
        .into_iter()
        .map(|r| {
            r.into_iter()
                .map(kith_cypher::GraphValue::into_value)
                .collect()
        })
        .collect();
    assert_eq!(flattened, plain.rows);
}

#[test]
fn set_and_remove_change_properties_and_labels_and_later_clauses_see_it() {
    let g = graph();
    let q = "MATCH (p:Person {id: 1}) SET p.age = p.age + 1, p:Vip, p.nick = 'A' \
             WITH p REMOVE p.name, p:Person RETURN p.age, p.name, p.nick, labels(p)";
    let rows = commit(&g, q).rows;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0][0], Value::Int(31));
    assert_eq!(rows[0][1], Value::Null);
    assert_eq!(rows[0][2], s("A"));
    assert_eq!(rows[0][3], Value::List(vec![s("Vip")]));
    // Committed: a new query reads it from the store.
    assert_eq!(ints(&run(&g, "MATCH (p:Vip) RETURN p.age")), [31]);
    assert_eq!(run(&g, "MATCH (p:Person {id: 1}) RETURN p").len(), 0);
}

#[test]
fn set_with_maps_replaces_or_merges_and_null_removes() {
    let g = graph();
    let keys = "MATCH (p {id: 2}) UNWIND keys(p) AS k WITH k ORDER BY k RETURN collect(k)";
    commit(&g, "MATCH (p {id: 2}) SET p = {id: 2, city: 'Oslo'}");
    assert_eq!(run(&g, keys)[0][0], Value::List(vec![s("city"), s("id")]));
    commit(&g, "MATCH (p {id: 2}) SET p += {zip: 1, city: null}");
    assert_eq!(run(&g, keys)[0][0], Value::List(vec![s("id"), s("zip")]));
    commit(
        &g,
        "MATCH (:Person {id: 1})-[r:KNOWS]->() SET r.since = null, r.w = 0.5",
    );
    let r = run(
        &g,
        "MATCH (:Person {id: 1})-[r:KNOWS]->() RETURN properties(r)",
    );
    assert_eq!(r[0][0], Value::Map(vec![("w".into(), Value::Float(0.5))]));
}

#[test]
fn delete_needs_detach_for_a_node_with_relationships() {
    let g = graph();
    assert_eq!(
        err(&g, "MATCH (p:Person {id: 1}) DELETE p"),
        ErrorCode::ConstraintViolation
    );
    // The same clause deleting its relationships first is fine, over several rows.
    commit(&g, "MATCH (p:Person {id: 1})-[r]-() DELETE r, p");
    assert_eq!(run(&g, "MATCH (p:Person {id: 1}) RETURN p").len(), 0);
    commit(&g, "MATCH (p:Person {id: 2}) DETACH DELETE p");
    assert_eq!(ints(&run(&g, "MATCH (p:Person) RETURN count(p)")), [2]);
    assert_eq!(
        ints(&run(&g, "MATCH ()-[r:KNOWS]->() RETURN count(r)")),
        [1]
    );
}

#[test]
fn what_a_query_deleted_cannot_be_read_but_its_type_can() {
    let g = graph();
    let q = "MATCH (:Person {id: 1})-[r:LIKES]->() DELETE r RETURN type(r)";
    assert_eq!(run(&g, q), [[s("LIKES")]]);
    let q = "MATCH (g:Group) DETACH DELETE g RETURN g.title";
    assert_eq!(err(&g, q), ErrorCode::EntityNotFound);
    // As Neo4j 5.26 answers (recorded on the real one): a deleted node's keys and
    // properties are empty, its labels and a deleted relationship's keys fail.
    let q = "MATCH (g:Group) DETACH DELETE g RETURN keys(g) AS k, properties(g) AS p";
    assert_eq!(run(&g, q), [[Value::List(vec![]), Value::Map(vec![])]]);
    let q = "MATCH (g:Group) DETACH DELETE g RETURN labels(g)";
    assert_eq!(err(&g, q), ErrorCode::EntityNotFound);
    let q = "MATCH (:Person {id: 1})-[r:LIKES]->() DELETE r RETURN keys(r)";
    assert_eq!(err(&g, q), ErrorCode::EntityNotFound);
    // A deleted relationship in the answer keeps its type and ends, not its
    // properties, alone and in a path.
    let q = "MATCH p = (:Person {id: 1})-[r:LIKES]->() WITH p, r LIMIT 1 DELETE r \
             RETURN r, p";
    let rows = run(&g, q);
    let field = |v: &Value, key: &str| match v {
        Value::Map(entries) => entries
            .iter()
            .find(|(k, _)| &**k == key)
            .map(|(_, v)| v.clone()),
        _ => None,
    };
    assert_eq!(field(&rows[0][0], "_type"), Some(s("LIKES")));
    assert_eq!(field(&rows[0][0], "properties"), Some(Value::Map(vec![])));
    let Some(Value::List(rels)) = field(&rows[0][1], "relationships") else {
        panic!("a path: {:?}", rows[0][1]);
    };
    assert_eq!(rels, [rows[0][0].clone()]);
    // What DETACH takes with a node has no type left to read, as in Neo4j.
    let q = "MATCH (p:Person {id: 1})-[r:LIKES]->() DETACH DELETE p RETURN type(r)";
    assert_eq!(err(&g, q), ErrorCode::EntityNotFound);
}

#[test]
fn merge_matches_or_creates_once_per_key_across_rows() {
    let g = graph();
    let q = "UNWIND [5, 5, 6, 1] AS i MERGE (p:Person {id: i}) \
             ON CREATE SET p.new = true ON MATCH SET p.seen = true \
             RETURN i, p.new, p.seen";
    let rows = commit(&g, q).rows;
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0], [Value::Int(5), Value::Bool(true), Value::Null]);
    assert_eq!(
        rows[1],
        [Value::Int(5), Value::Bool(true), Value::Bool(true)]
    );
    assert_eq!(rows[3], [Value::Int(1), Value::Null, Value::Bool(true)]);
    assert_eq!(ints(&run(&g, "MATCH (p:Person) RETURN count(p)")), [6]);
    // A relationship between bound nodes: created once, then matched.
    let q = "MATCH (a:Person {id: 5}), (b:Person {id: 6}) MERGE (a)-[r:KNOWS]->(b) RETURN id(r)";
    let first = commit(&g, q).rows;
    assert_eq!(commit(&g, q).rows, first);
}

#[test]
fn foreach_runs_its_updates_for_each_element() {
    let g = graph();
    commit(
        &g,
        "MATCH (a:Person {id: 1}) FOREACH (i IN range(1, 3) | CREATE (a)-[:OWNS]->(:Item {n: i}))",
    );
    assert_eq!(
        ints(&run(
            &g,
            "MATCH (:Person {id: 1})-[:OWNS]->(i) RETURN i.n ORDER BY i.n"
        )),
        [1, 2, 3]
    );
}

#[test]
fn bad_writes_are_refused_with_their_kind_and_leave_the_graph_alone() {
    let g = graph();
    let cases = [
        (
            "MATCH (p:Person {id: 1}) SET p.m = {a: 1}",
            ErrorCode::TypeError,
        ),
        ("WITH 1 AS x SET x.y = 2", ErrorCode::TypeError),
        ("MATCH ()-[r:KNOWS]->() SET r:Label", ErrorCode::TypeError),
        ("MERGE (p:Person {id: null})", ErrorCode::SemanticError),
        ("MATCH (p) DELETE 1 + 1", ErrorCode::SyntaxError),
        ("MATCH (p) DELETE p:Person", ErrorCode::SyntaxError),
        ("MERGE (a:A)-[:R|S]->(b)", ErrorCode::SyntaxError),
        ("MERGE (a $props)", ErrorCode::SyntaxError),
        ("MATCH (p) SET p.x + 1 = 2", ErrorCode::SyntaxError),
    ];
    for (q, code) in cases {
        assert_eq!(err(&g, q), code, "{q}");
    }
    assert_eq!(ints(&run(&g, "MATCH (n) RETURN count(n)")), [5]);
}

#[test]
fn call_subqueries_see_what_they_import_and_join_what_they_return() {
    let g = graph();
    let q =
        "MATCH (p:Person) CALL { WITH p OPTIONAL MATCH (p)-[:KNOWS]->(f) RETURN count(f) AS n } \
             RETURN p.id, n ORDER BY p.id";
    let rows = run(&g, q);
    let pairs: Vec<(i64, i64)> = rows
        .iter()
        .map(|r| (r[0].as_int().expect("id"), r[1].as_int().expect("n")))
        .collect();
    assert_eq!(pairs, [(1, 1), (2, 1), (3, 1), (4, 0)]);
    let q = "MATCH (p:Person {id: 1}) CALL { WITH p MATCH (p)-[:KNOWS]->(x) RETURN x.name AS name \
             UNION MATCH (g:Group) RETURN g.title AS name } RETURN name ORDER BY name";
    assert_eq!(run(&g, q), [[s("Bob")], [s("g")]]);
    // A unit subquery of updates: each outer row once, its writes committed.
    let q = "UNWIND [1, 2, 3] AS i CALL { WITH i CREATE (:T {i: i}) } RETURN count(*) AS rows";
    assert_eq!(ints(&commit(&g, q).rows), [3]);
    assert_eq!(ints(&run(&g, "MATCH (t:T) RETURN sum(t.i)")), [6]);
    assert_eq!(
        err(
            &g,
            "MATCH (p:Person) CALL { MATCH (q:Person) RETURN q AS p } RETURN p"
        ),
        ErrorCode::SyntaxError
    );
}

#[test]
fn a_later_read_of_the_graph_sees_every_row_of_a_write_clause() {
    let g = graph();
    for q in [
        "UNWIND [1, 2, 3] AS i CREATE (:N) WITH i CALL { MATCH (n:N) RETURN count(n) AS c } RETURN c",
        "UNWIND [1, 2, 3] AS i CREATE (:N) WITH i RETURN COUNT { (n:N) } AS c",
        "UNWIND [1, 2, 3] AS i CREATE (:N) WITH i MATCH (n:N) RETURN count(n) / 3 AS c",
    ] {
        let rows = run(&g, q);
        assert!(rows.iter().all(|r| r[0] == Value::Int(3)), "{q}: {rows:?}");
    }
}

#[test]
fn schema_commands_declare_list_and_drop_indexes_and_constraints() {
    let g = graph();
    commit(&g, "CREATE INDEX person_name FOR (p:Person) ON (p.name)");
    commit(&g, "CREATE INDEX FOR (g:Group) ON (g.title)");
    commit(
        &g,
        "CREATE CONSTRAINT one_id IF NOT EXISTS FOR (p:Admin) REQUIRE p.name IS UNIQUE",
    );
    let names = run(
        &g,
        "SHOW RANGE INDEXES YIELD name, owningConstraint RETURN name, owningConstraint ORDER BY name",
    );
    assert_eq!(
        names,
        vec![
            vec![s("index_Group_title"), Value::Null],
            vec![s("one_id"), s("one_id")],
            vec![s("person_name"), Value::Null],
        ]
    );
    let c = run(
        &g,
        "SHOW CONSTRAINTS YIELD name, labelsOrTypes, properties, type",
    );
    assert_eq!(
        c,
        vec![vec![
            s("one_id"),
            Value::List(vec![s("Admin")]),
            Value::List(vec![s("name")]),
            s("UNIQUENESS")
        ]]
    );
    // The same again: refused, or nothing with IF NOT EXISTS.
    let again = "CREATE INDEX other FOR (p:Person) ON (p.name)";
    assert_eq!(err(&g, again), ErrorCode::IndexExists);
    let same = "CREATE INDEX person_name FOR (p:Person) ON (p.name)";
    assert_eq!(err(&g, same), ErrorCode::SchemaRuleExists);
    commit(
        &g,
        "CREATE INDEX other IF NOT EXISTS FOR (p:Person) ON (p.name)",
    );
    assert_eq!(
        err(&g, "CREATE INDEX person_name FOR (p:Person) ON (p.age)"),
        ErrorCode::IndexNameTaken
    );
    assert_eq!(
        err(&g, "CREATE INDEX one_id FOR (p:Person) ON (p.age)"),
        ErrorCode::ConstraintNameTaken
    );
    // The constraint holds: a second Admin named Dee is refused.
    assert_eq!(
        err(&g, "CREATE (:Admin {name: 'Dee'})"),
        ErrorCode::ConstraintViolation
    );
    assert_eq!(err(&g, "DROP INDEX one_id"), ErrorCode::IndexDropFailed);
    assert_eq!(err(&g, "DROP INDEX nope"), ErrorCode::IndexDropFailed);
    assert_eq!(
        err(&g, "DROP CONSTRAINT nope"),
        ErrorCode::ConstraintDropFailed
    );
    commit(&g, "DROP INDEX nope IF EXISTS");
    commit(&g, "DROP CONSTRAINT one_id");
    commit(&g, "DROP INDEX person_name");
    let left = run(&g, "SHOW INDEXES YIELD name RETURN collect(name) AS names");
    let left_names = vec![s("index_343aff4e"), s("index_Group_title")];
    assert_eq!(
        left,
        vec![vec![Value::List(left_names)]],
        "with the label lookup"
    );
    commit(&g, "CREATE (:Admin {name: 'Dee'})");
    // What kith cannot hold is refused by name.
    for q in [
        "CREATE FULLTEXT INDEX f FOR (p:Person) ON EACH [p.name]",
        "CREATE LOOKUP INDEX FOR (n) ON EACH labels(n)",
        "CREATE INDEX FOR ()-[r:KNOWS]-() ON (r.since)",
        "CREATE CONSTRAINT FOR (p:Person) REQUIRE p.name IS NOT NULL",
        "CREATE INDEX ON :Person(name)",
    ] {
        assert_eq!(err(&g, q), ErrorCode::NotSupported, "{q}");
    }
}

#[test]
fn explain_describes_and_profile_counts_each_operator() {
    let g = graph();
    let q = "MATCH (p:Person)-[:KNOWS]->(f) WHERE f.age > 20 RETURN p.name, count(f) AS n";
    let mut tx = Tx::new(&g.snapshot());
    let engine = Engine::default();
    let explained = engine
        .query_tx(&mut tx, &format!("EXPLAIN {q}"), &[], &Limits::default())
        .expect("explains");
    assert!(explained.rows.is_empty(), "EXPLAIN runs nothing");
    let plan = explained.plan.expect("a plan");
    let text = plan.render();
    for op in [
        "ProduceResults",
        "EagerAggregation",
        "Expand(All)",
        "NodeByLabelScan p:Person",
    ] {
        assert!(text.contains(op), "{op} missing from\n{text}");
    }
    assert!(plan.rows.is_none());
    let snapshot = g.snapshot();
    let profiled = engine
        .query(&*snapshot, &format!("PROFILE {q}"), &[], &Limits::default())
        .expect("profiles");
    let plain = engine
        .query(&*snapshot, q, &[], &Limits::default())
        .expect("runs");
    assert_eq!(
        profiled.rows, plain.rows,
        "PROFILE answers as the query does"
    );
    let plan = profiled.plan.expect("a profile");
    assert_eq!(plan.rows, Some(plain.rows.len() as u64));
    // Down the chain: the label scan produced the 4 people, the expand their 3
    // KNOWS relationships.
    let mut chain = Vec::new();
    let mut n = &plan;
    loop {
        chain.push((n.operator.clone(), n.rows));
        match n.children.first() {
            Some(c) => n = c,
            None => break,
        }
    }
    let rows_of = |op: &str| chain.iter().find(|(o, _)| o == op).and_then(|(_, r)| *r);
    assert_eq!(rows_of("NodeByLabelScan"), Some(4), "{chain:?}");
    assert_eq!(rows_of("Expand(All)"), Some(3), "{chain:?}");
    let hits: u64 = {
        fn sum(n: &kith_cypher::PlanNode) -> u64 {
            n.db_hits.unwrap_or(0) + n.children.iter().map(sum).sum::<u64>()
        }
        sum(&plan)
    };
    assert!(hits > 0, "{}", plan.render());
    // EXPLAIN of a write writes nothing, and needs no transaction.
    let e = engine
        .query(&*snapshot, "EXPLAIN CREATE (:X)", &[], &Limits::default())
        .expect("explains a write");
    assert!(e.plan.expect("plan").render().contains("Create"));
}

#[test]
fn an_index_is_no_constraint_and_default_names_never_collide() {
    let g = graph();
    commit(&g, "CREATE INDEX FOR (p:Person) ON (p.name)");
    // IF NOT EXISTS skips only an equivalent rule: an index does not make names unique.
    let q = "CREATE CONSTRAINT u IF NOT EXISTS FOR (p:Person) REQUIRE p.name IS UNIQUE";
    assert_eq!(err(&g, q), ErrorCode::IndexExists);
    // A name chosen to look like another pair's default name.
    commit(&g, "CREATE INDEX index_B_k FOR (n:A) ON (n.k)");
    commit(&g, "CREATE INDEX mine FOR (n:B) ON (n.k)");
    let names = run(
        &g,
        "SHOW INDEXES YIELD name, labelsOrTypes AS l WHERE l IS NOT NULL RETURN name, l ORDER BY name",
    );
    assert_eq!(
        names,
        vec![
            vec![s("index_B_k"), Value::List(vec![s("A")])],
            vec![s("index_Person_name"), Value::List(vec![s("Person")])],
            vec![s("mine"), Value::List(vec![s("B")])],
        ]
    );
    // Unnamed, a rule whose default name is taken gets the next free one.
    commit(&g, "CREATE INDEX index_C_k FOR (n:D) ON (n.k)");
    commit(&g, "CREATE INDEX FOR (n:C) ON (n.k)");
    commit(
        &g,
        "CREATE CONSTRAINT constraint_E_k FOR (n:F) REQUIRE n.k IS UNIQUE",
    );
    commit(&g, "CREATE CONSTRAINT FOR (n:E) REQUIRE n.k IS UNIQUE");
    let named = run(
        &g,
        "SHOW INDEXES YIELD name, labelsOrTypes AS l WHERE l IN [['C'], ['E']] RETURN name ORDER BY name",
    );
    assert_eq!(
        named,
        vec![vec![s("constraint_E_k_2")], vec![s("index_C_k_2")]]
    );
}

#[test]
fn patterns_with_both_ends_bound_find_edges_in_newest_first_lists() {
    // A person's HAS_CREATOR list is kept newest first by the messages'
    // creationDate (kith_core::ORDER_RULES), not by neighbour: a pattern binding
    // both ends must still find every edge, before and after dates change.
    let store = Store::new(Snapshot::default());
    commit(
        &store,
        "CREATE (p:Person {id: 1}) WITH p UNWIND range(1, 40) AS i
         CREATE (:Message {id: i, creationDate: (i * 7) % 11})-[:HAS_CREATOR]->(p)",
    );
    // One message with a second relationship to the person.
    commit(
        &store,
        "MATCH (p:Person {id: 1}), (m:Message {id: 5}) CREATE (m)-[:HAS_CREATOR]->(p)",
    );
    let texts = [
        "MATCH (p:Person {id: 1}), (m:Message) WHERE (p)<-[:HAS_CREATOR]-(m) RETURN count(m)",
        "MATCH (m:Message), (p:Person {id: 1}) WHERE (m)-[:HAS_CREATOR]->(p) RETURN count(m)",
        "MATCH (p:Person {id: 1}) MATCH (m:Message) MATCH (p)<-[r:HAS_CREATOR]-(m) RETURN count(r)",
        "MATCH (m:Message) MATCH (p:Person {id: 1}) MATCH (p)-[r:HAS_CREATOR]-(m) RETURN count(r)",
    ];
    let counts =
        |store: &Store| -> Vec<i64> { texts.iter().map(|t| ints(&run(store, t))[0]).collect() };
    assert_eq!(counts(&store), [40, 40, 41, 41]);
    commit(
        &store,
        "MATCH (m:Message) WHERE m.id % 3 = 0 SET m.creationDate = m.id * 100",
    );
    commit(
        &store,
        "MATCH (m:Message) WHERE m.id % 4 = 0 REMOVE m.creationDate",
    );
    assert_eq!(counts(&store), [40, 40, 41, 41]);
    // The list itself reads newest first.
    let dates = run(
        &store,
        "MATCH (p:Person {id: 1})<-[:HAS_CREATOR]-(m) WHERE m.id <= 12 RETURN m.creationDate",
    );
    let dates: Vec<Option<i64>> = dates.iter().map(|r| r[0].as_int()).collect();
    assert_eq!(
        dates,
        // Ids 3, 6, 9 redated; 4, 8, 12 undated (last); message 5 twice.
        [
            Some(900),
            Some(600),
            Some(300),
            Some(7),
            Some(5),
            Some(4),
            Some(3),
            Some(2),
            Some(2),
            Some(0),
            None,
            None,
            None
        ]
    );
}

#[test]
fn transaction_metadata_is_read_and_replaced_through_its_procedures() {
    let g = graph();
    let meta = kith_cypher::TxMetadata::new(vec![("app".into(), Value::string("shop"))]);
    let limits = Limits {
        metadata: Some(meta.clone()),
        ..Limits::default()
    };
    let run = |q: &str| {
        let prepared = kith_cypher::Prepared::new(q).unwrap_or_else(|e| panic!("{e}"));
        kith_cypher::run(&*g.snapshot(), &prepared, &[], &limits)
            .unwrap_or_else(|e| panic!("{}", e.render(q)))
    };
    let got = run("CALL tx.getMetaData() YIELD metadata RETURN metadata.app AS app");
    assert_eq!(got.rows, [[Value::string("shop")]]);
    run("CALL tx.setMetaData({app: 'crm', n: 2})");
    let want = Value::Map(vec![
        ("app".into(), Value::string("crm")),
        ("n".into(), Value::Int(2)),
    ]);
    assert_eq!(
        meta.get(),
        want,
        "the holder of the metadata sees the change"
    );
    assert_eq!(run("CALL tx.getMetaData()").rows, [[want]]);
    // Without metadata: an empty map; a non-map is refused by name.
    let prepared = kith_cypher::Prepared::new("CALL tx.getMetaData()").expect("prepares");
    let empty = kith_cypher::run(&*g.snapshot(), &prepared, &[], &Limits::default()).expect("runs");
    assert_eq!(empty.rows, [[Value::Map(vec![])]]);
    // A run without metadata (WebSocket, HTTP, embedded) cannot keep what is set.
    let prepared = kith_cypher::Prepared::new("CALL tx.setMetaData({a: 1})").expect("prepares");
    let e = kith_cypher::run(&*g.snapshot(), &prepared, &[], &Limits::default())
        .expect_err("no metadata to set");
    assert_eq!(e.code, ErrorCode::ProcedureCallFailed, "{e}");
    let prepared = kith_cypher::Prepared::new("CALL tx.setMetaData($m)").expect("prepares");
    let e = kith_cypher::run(
        &*g.snapshot(),
        &prepared,
        &[("m".into(), Value::Int(1))],
        &limits,
    )
    .expect_err("not a map");
    assert_eq!(e.code, ErrorCode::TypeError, "{e}");
    assert!(e.message.contains("tx.setMetaData takes a map"), "{e}");
}
