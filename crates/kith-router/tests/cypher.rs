//! Cypher on a router (docs/sharding.md "Cypher on a router"): `USE` a shard, a
//! `CALL { USE ... }` fan-out over every graph with its rows merged on the router,
//! and the LDBC reads as Cypher `CALL`s, each answer equal to one server holding the
//! whole graph; and the refusals, each naming what was wrong.

mod common;

use std::sync::Arc;

use common::*;
use kith_core::Value;
use kith_cypher::{Engine, Limits};
use kith_procedures::Registry;
use kith_protocol::ErrorCode;
use kith_router::Router;
use kith_storage::Snapshot;

/// One server's answer to `text`: columns and rows.
fn one_server(
    whole: &Snapshot,
    text: &str,
    params: &[(String, Value)],
) -> (Vec<String>, Vec<Vec<Value>>) {
    let engine = Engine::with_procedures(
        16,
        Arc::new(kith_server::procedures::NativeProcedures::builtins()),
    );
    let r = engine
        .query(whole, text, params, &Limits::default())
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    (r.columns, r.rows)
}

fn p(name: &str, v: Value) -> (String, Value) {
    (name.to_owned(), v)
}

async fn fixture() -> (Snapshot, Sharded, Arc<Router>) {
    let (raw, _) =
        kith_ldbc::load(&shared_data().join("ldbc-snb-interactive-test/vanilla")).expect("loads");
    let whole = Snapshot::from_raw(raw.clone()).expect("builds");
    let s = sharded(&raw, 4).await;
    let urls: Vec<String> = s.forums.iter().map(|(_, r)| r.url()).collect();
    let router = Arc::new(Router::new(&s.person.url(), &urls).expect("router"));
    (whole, s, router)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fan_outs_and_use_equal_one_server() {
    let (whole, s, router) = fixture().await;
    let same = [
        // Counts summed over every graph (the person shard holds no messages).
        (
            "UNWIND kith.graphIds() AS g CALL { USE kith.graph(g) MATCH (m:Message) RETURN count(m) AS c } RETURN sum(c) AS messages",
            "MATCH (m:Message) RETURN count(m) AS messages",
        ),
        // A top-k: each shard's top 10, merged and cut on the router.
        (
            "UNWIND range(1, 4) AS g CALL { USE kith.graph(g) MATCH (m:Post) RETURN m.id AS id, m.creationDate AS at ORDER BY at DESC, id LIMIT 10 } \
             RETURN id, at ORDER BY at DESC, id LIMIT 10",
            "MATCH (m:Post) RETURN m.id AS id, m.creationDate AS at ORDER BY at DESC, id LIMIT 10",
        ),
        // Grouping across shards: posts per language.
        (
            "UNWIND kith.graphIds() AS g CALL { USE kith.graph(g) MATCH (m:Post) RETURN m.language AS language, count(*) AS n } \
             RETURN language, sum(n) AS posts ORDER BY posts DESC, language",
            "MATCH (m:Post) RETURN m.language AS language, count(*) AS posts ORDER BY posts DESC, language",
        ),
        // USE: the person shard alone holds the persons and KNOWS.
        (
            "USE person MATCH (p:Person {id: $id})-[:KNOWS]-(f) RETURN f.id AS friend ORDER BY friend",
            "MATCH (p:Person {id: $id})-[:KNOWS]-(f) RETURN f.id AS friend ORDER BY friend",
        ),
        // The LDBC reads as Cypher CALLs, routed, with YIELD and clauses after.
        (
            "CALL ldbc.ic9($id, $maxDate)",
            "CALL ldbc.ic9($id, $maxDate)",
        ),
        (
            "CALL ldbc.is1($id) YIELD firstName, lastName RETURN firstName + ' ' + lastName AS name",
            "CALL ldbc.is1($id) YIELD firstName, lastName RETURN firstName + ' ' + lastName AS name",
        ),
        (
            "UNWIND [6, 76, 102] AS person CALL ldbc.is3(person) YIELD personId RETURN person, count(personId) AS friends ORDER BY person",
            "UNWIND [6, 76, 102] AS person CALL ldbc.is3(person) YIELD personId RETURN person, count(personId) AS friends ORDER BY person",
        ),
    ];
    let params = vec![
        p("id", Value::Int(76)),
        p("maxDate", Value::Int(1_289_865_600_000)),
    ];
    for (routed, whole_text) in same {
        let got = router
            .cypher(routed, &params)
            .await
            .unwrap_or_else(|e| panic!("{routed}: {e}"));
        let (columns, rows) = one_server(&whole, whole_text, &params);
        assert!(!rows.is_empty(), "{whole_text} answers something");
        assert_eq!(got.columns, columns, "{routed}");
        assert_eq!(got.rows, rows, "{routed}");
    }
    // A client parameter named like the graph variable does not leak into it.
    let got = router
        .cypher(
            "UNWIND $g AS g CALL { WITH g USE kith.graph(g) RETURN g AS back } RETURN g, back",
            &[p("g", Value::List(vec![Value::Int(1), Value::Int(3)]))],
        )
        .await
        .expect("runs");
    let want: Vec<Vec<Value>> = [1, 3].map(|g| vec![Value::Int(g), Value::Int(g)]).to_vec();
    assert_eq!(got.rows, want);
    // Every graph once, its id beside its rows; an imported variable reaches the
    // subquery.
    let got = router
        .cypher(
            "UNWIND kith.graphIds() AS g CALL { WITH g USE kith.graph(g) RETURN g * 10 AS back } RETURN g, back",
            &[],
        )
        .await
        .expect("runs");
    let want: Vec<Vec<Value>> = (0..=4)
        .map(|g| vec![Value::Int(g), Value::Int(g * 10)])
        .collect();
    assert_eq!(got.rows, want);
    // docs/sharding.md's example: forums per shard, with a COUNT subquery inside.
    let got = router
        .cypher(
            "UNWIND range(1, 4) AS g CALL { WITH g USE kith.graph(g) RETURN g AS shard, count{ MATCH (f:Forum) } AS forums } RETURN *",
            &[],
        )
        .await
        .expect("runs");
    assert_eq!(got.columns, ["forums", "g", "shard"]);
    assert_eq!(got.rows.len(), 4, "a row per forum shard");
    for row in &got.rows {
        let g = row[1].as_int().expect("g");
        let want = whole_count(&whole, "Forum", |id| {
            kith_ldbc::shard::forum_shard(id, 4) as i64 == g - 1
        });
        assert_eq!(row, &vec![Value::Int(want), Value::Int(g), Value::Int(g)]);
    }
    // A USE subquery on one graph, named.
    let got = router
        .cypher(
            "CALL { USE `forum-2` MATCH (f:Forum) RETURN count(f) AS n } RETURN n",
            &[],
        )
        .await
        .expect("runs");
    let forums = whole_count(&whole, "Forum", |id| {
        kith_ldbc::shard::forum_shard(id, 4) == 2
    });
    assert_eq!(got.rows, vec![vec![Value::Int(forums)]]);
    s.stop().await;
}

/// How many nodes of `label` have an id `keep` keeps.
fn whole_count(whole: &Snapshot, label: &str, keep: impl Fn(i64) -> bool) -> i64 {
    let (_, rows) = one_server(whole, &format!("MATCH (n:{label}) RETURN n.id AS id"), &[]);
    rows.iter()
        .filter(|r| r[0].as_int().is_some_and(&keep))
        .count() as i64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_router_cannot_run_is_refused_by_name() {
    let (_, mut s, router) = fixture().await;
    let refused = [
        ("MATCH (n) RETURN count(n)", ErrorCode::CypherError, "USE"),
        ("USE forum7 RETURN 1", ErrorCode::BadRequest, "no graph forum7"),
        ("USE kith.graph(9) RETURN 1", ErrorCode::BadRequest, "no graph kith.graph(9)"),
        ("USE forum0 CREATE (n:Person {id: 1})", ErrorCode::ReadOnly, "no writes"),
        ("USE person CALL ldbc.iu8(1, 2, 3)", ErrorCode::ReadOnly, "no writes"),
        (
            "UNWIND kith.graphIds() AS g CALL { USE kith.graph(g) MATCH (n) DETACH DELETE n } RETURN 1",
            ErrorCode::ReadOnly,
            "no writes",
        ),
        ("CREATE (n)", ErrorCode::ReadOnly, "no writes"),
        ("RETURN COUNT { (p:Person) } AS n", ErrorCode::CypherError, "holds no graph"),
        ("RETURN [(a)-->(b) | b] AS bs", ErrorCode::CypherError, "holds no graph"),
        (
            "UNWIND kith.graphIds() AS g CALL { USE kith.graph(g) RETURN 1 AS x } MATCH (n) RETURN x",
            ErrorCode::CypherError,
            "holds no graph",
        ),
        (
            "UNWIND [1, 1] AS g CALL { USE kith.graph(g) RETURN 1 AS x } RETURN x",
            ErrorCode::BadRequest,
            "listed twice",
        ),
        (
            "USE person CALL kith.procedure.register('p', 'CREATE (:Person {id: 1})')",
            ErrorCode::CypherError,
            "can tell is a read",
        ),
        ("UNWIND ['a'] AS g CALL { USE kith.graph(g) RETURN 1 AS x } RETURN x", ErrorCode::BadRequest, "graph id"),
        ("CALL shindig.friends(1)", ErrorCode::CypherError, "shindig.friends"),
        ("USE person MATCH (n RETURN n", ErrorCode::CypherError, ""),
    ];
    // A name that is a keyword is still a name.
    router
        .cypher(
            "WITH {set: 1, match: 2} AS m RETURN m.set + m.match AS n",
            &[],
        )
        .await
        .expect("keywords as map keys");
    for (text, code, says) in refused {
        let e = router.cypher(text, &[]).await.expect_err(text);
        assert_eq!(e.code, code, "{text}: {e}");
        assert!(e.message.contains(says), "{text}: {e}");
    }
    // A stopped forum shard: the fan-out fails whole, naming it; USE person still runs.
    let (_, down) = s.forums.remove(1);
    down.stop().await;
    let fan_out = "UNWIND kith.graphIds() AS g CALL { USE kith.graph(g) MATCH (m:Message) RETURN count(m) AS c } RETURN sum(c) AS n";
    let e = router
        .cypher(fan_out, &[])
        .await
        .expect_err("a shard is down");
    assert_eq!(e.code, ErrorCode::ShardUnavailable, "{e}");
    assert!(e.message.contains("forum-1"), "{e}");
    router
        .cypher("USE person MATCH (p:Person) RETURN count(p) AS n", &[])
        .await
        .expect("the person shard is up");
    s.stop().await;
}

#[test]
fn the_router_lists_the_reads_it_routes() {
    // The procedures the router's engine knows are exactly the routed reads.
    let registry = Registry::with_builtins();
    for name in ["ldbc.ic9", "ldbc.is1", "ldbc.ic14"] {
        assert!(Router::routes(name) && registry.get(name).is_ok(), "{name}");
    }
    assert!(!Router::routes("ldbc.iu1"));
}
