//! Cypher through a real server: the `cypher` request over WebSocket in every
//! encoding and compression, `POST /v1/cypher`, parameters, errors with their line and
//! column, the server's limits, cancellation when the client goes away, and a writing
//! query that commits durably and survives a restart.

mod support;

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use kith_client::{Client, ClientConfig, ClientError, Subprotocol};
use kith_core::Value;
use kith_protocol::{Encoding, ErrorCode, Request, ResultChunk, Wire};
use support::{int, ints, TestServer};
use tokio_tungstenite::tungstenite::Message;

const FRIENDS: &str = "MATCH (p:Person {id: $id})-[:FRIEND_OF]->(f:Person)
RETURN f.id AS id, f.displayName AS displayName ORDER BY id";

fn config(server: &TestServer, subprotocol: Subprotocol) -> ClientConfig {
    ClientConfig {
        subprotocol,
        ..ClientConfig::new(server.ws_url())
    }
}

async fn connect(server: &TestServer) -> Client {
    Client::connect(ClientConfig::new(server.ws_url()))
        .await
        .expect("connects")
}

/// `shindig.friends` of `id`, sorted by id: what [`FRIENDS`] must answer.
fn friends_of(server: &TestServer, id: i64) -> Vec<Vec<Value>> {
    let (columns, mut rows) = server.expected("shindig.friends", &[int("person_id", id)]);
    assert_eq!(columns, ["id", "displayName"]);
    rows.sort_by_key(|r| r[0].as_int());
    assert!(!rows.is_empty(), "person {id} has friends");
    rows
}

/// A server on a new, empty data directory (kept while the directory lives), and a
/// client.
async fn empty_database() -> (tempfile::TempDir, TestServer, Client) {
    let dir = tempfile::tempdir().expect("temp dir");
    kith_storage::create_data_dir(dir.path(), &kith_storage::Snapshot::empty())
        .expect("writes the data directory");
    let server = TestServer::start_database(dir.path(), |_| {}).await;
    let client = connect(&server).await;
    (dir, server, client)
}

/// The Cypher error's wire code, engine code, line and column.
fn cypher_error(error: ClientError) -> (ErrorCode, String, Option<u64>, Option<u64>) {
    match error {
        ClientError::Cypher {
            code,
            cypher_code,
            line,
            column,
            ..
        } => (code, cypher_code, line, column),
        other => panic!("expected a Cypher error, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_query_answers_the_same_in_every_encoding_and_compression() {
    let server = TestServer::start(0.1, |c| c.chunk_rows = 3).await;
    let expected = friends_of(&server, 7);
    assert!(expected.len() > 3, "the answer spans several chunks");
    for subprotocol in Subprotocol::all() {
        let client = Client::connect(config(&server, subprotocol))
            .await
            .expect("connects");
        let result = client
            .cypher(FRIENDS, vec![int("id", 7)])
            .await
            .unwrap_or_else(|e| panic!("{subprotocol}: {e}"));
        assert_eq!(result.columns, ["id", "displayName"], "{subprotocol}");
        assert_eq!(result.rows, expected, "{subprotocol}");
        assert_eq!(result.commit, None, "a read commits nothing");
        let timed = client
            .cypher_timed(FRIENDS, vec![int("id", 7)])
            .await
            .expect("timed");
        assert!(timed.timing.is_some(), "{subprotocol}: timings asked for");
        assert_eq!(timed.rows, expected);
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parameters_of_every_kind_reach_the_query() {
    let server = TestServer::start(0.1, |_| {}).await;
    let client = connect(&server).await;
    let ids = client
        .cypher(
            "MATCH (p:Person) WHERE p.id IN $ids RETURN p.id ORDER BY p.id DESC",
            vec![ints("ids", &[3, 1, 2, 999_999])],
        )
        .await
        .expect("a list parameter");
    assert_eq!(
        ids.rows,
        [[Value::Int(3)], [Value::Int(2)], [Value::Int(1)]]
    );
    let name = friends_of(&server, 7)[0][1].clone();
    let by_name = client
        .cypher(
            "MATCH (p:Person {displayName: $name}) RETURN p.displayName AS name",
            vec![("name".to_owned(), name.clone())],
        )
        .await
        .expect("a string parameter");
    assert!(by_name.rows.iter().all(|r| r[0] == name) && !by_name.rows.is_empty());
    let echo = client
        .cypher(
            "RETURN $m.k AS k, $f * 2 AS f, $b AS b, $n IS NULL AS n",
            vec![
                (
                    "m".to_owned(),
                    Value::Map(vec![("k".into(), Value::string("v"))]),
                ),
                ("f".to_owned(), Value::Float(1.25)),
                ("b".to_owned(), Value::Bool(true)),
                ("n".to_owned(), Value::Null),
            ],
        )
        .await
        .expect("map, float, bool and null parameters");
    assert_eq!(
        echo.rows,
        [[
            Value::string("v"),
            Value::Float(2.5),
            Value::Bool(true),
            Value::Bool(true)
        ]]
    );
    // A point goes out and comes back as one, in each encoding.
    let point = Value::Point(std::sync::Arc::new(
        kith_core::Point::new(kith_core::Crs::Wgs84_3d, &[12.5, 55.6, 10.0]).expect("a point"),
    ));
    for subprotocol in Subprotocol::all() {
        let client = Client::connect(config(&server, subprotocol))
            .await
            .expect("connects");
        let echo = client
            .cypher(
                "RETURN $p AS p, $p.latitude AS lat, point({x: 1, y: 2}) AS made",
                vec![("p".to_owned(), point.clone())],
            )
            .await
            .expect("a point parameter");
        let made = kith_core::Point::new(kith_core::Crs::Cartesian, &[1.0, 2.0]).expect("a point");
        assert_eq!(
            echo.rows,
            [[
                point.clone(),
                Value::Float(55.6),
                Value::Point(std::sync::Arc::new(made))
            ]],
            "{subprotocol}"
        );
    }
    let (code, cypher_code, ..) = cypher_error(
        client
            .cypher("RETURN $absent", vec![])
            .await
            .expect_err("a missing parameter"),
    );
    assert_eq!(code, ErrorCode::CypherError);
    assert_eq!(cypher_code, "Neo.ClientError.Statement.ParameterMissing");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_carry_the_engine_code_line_and_column_and_the_connection_stays_usable() {
    let server = TestServer::start(0.1, |_| {}).await;
    for subprotocol in Subprotocol::all() {
        let client = Client::connect(config(&server, subprotocol))
            .await
            .expect("connects");
        let error = client
            .cypher("MATCH (p:Person)\n  RETRUN p.id", vec![])
            .await
            .expect_err("a syntax error");
        assert!(error.to_string().contains("(line 2, column 3)"), "{error}");
        let (code, cypher_code, line, column) = cypher_error(error);
        assert_eq!(code, ErrorCode::CypherError, "{subprotocol}");
        assert_eq!(cypher_code, "Neo.ClientError.Statement.SyntaxError");
        assert_eq!((line, column), (Some(2), Some(3)), "{subprotocol}");
        let (_, cypher_code, line, _) = cypher_error(
            client
                .cypher("MATCH (p:Person)\nRETURN q.id", vec![])
                .await
                .expect_err("an undefined variable"),
        );
        // Which code an undefined variable gets is the engine's business (Neo4j calls
        // it a syntax error); the transport carries it with its place.
        assert!(
            cypher_code.starts_with("Neo.ClientError.Statement."),
            "{cypher_code}"
        );
        assert_eq!(line, Some(2));
        let still = client
            .cypher(FRIENDS, vec![int("id", 7)])
            .await
            .expect("the connection still answers");
        assert!(!still.rows.is_empty());
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_servers_limits_bound_a_query() {
    let server = TestServer::start(0.1, |c| {
        c.result_rows_max = 10;
        c.cypher_rows_max = 1_000;
    })
    .await;
    let client = connect(&server).await;
    let error = client
        .cypher("MATCH (p:Person) RETURN p.id", vec![])
        .await
        .expect_err("201 rows, 10 allowed");
    let (code, cypher_code, ..) = cypher_error(error);
    assert_eq!(code, ErrorCode::ResultTooLarge);
    assert_eq!(cypher_code, "Neo.ClientError.Statement.LimitExceeded");
    // A cross product streams into its count: nothing is held but the count.
    let counted = client
        .cypher("MATCH (a:Person), (b:Person) RETURN count(*) AS n", vec![])
        .await
        .expect("40,401 rows stream through, none is held");
    assert_eq!(counted.rows, [[Value::Int(201 * 201)]]);
    let error = client
        .cypher(
            "MATCH (a:Person), (b:Person) WITH DISTINCT a, b RETURN count(*)",
            vec![],
        )
        .await
        .expect_err("DISTINCT holds 40,401 rows, 1,000 allowed");
    assert_eq!(error.code(), Some(ErrorCode::ResultTooLarge), "{error}");
    assert!(error.to_string().contains("1000 rows"), "{error}");
    let small = client
        .cypher("MATCH (p:Person) RETURN count(p) AS n", vec![])
        .await
        .expect("an aggregate is one row");
    assert_eq!(small.rows, [[Value::Int(201)]]);
    server.stop().await;

    // One millisecond is less than a two-hop expansion takes: the engine stops it.
    let server = TestServer::start(0.1, |c| c.query_timeout_ms = 1).await;
    let client = connect(&server).await;
    let error = client
        .cypher(
            "MATCH (a:Person)-[:FRIEND_OF]->()-[:FRIEND_OF]->(c) RETURN count(c)",
            vec![],
        )
        .await
        .expect_err("past query_timeout_ms");
    assert_eq!(error.code(), Some(ErrorCode::Timeout), "{error}");
    server.stop().await;
}

/// The count of error answers with `code` over WebSocket, from `/metrics`.
async fn ws_errors(server: &TestServer, code: &str) -> u64 {
    let (_, text) = server.http("GET", "/metrics", "").await;
    let key = format!("kith_errors_total{{transport=\"ws\",code=\"{code}\"}} ");
    text.lines()
        .find_map(|l| l.strip_prefix(&key))
        .map_or(0, |n| n.trim().parse().expect("a count"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_the_connection_cancels_its_running_query() {
    // Half a million rows, each reducing a list of ~200 items: over a minute in a
    // debug build and seconds in a release one, in little memory, and no plan can
    // skip the work. With a long timeout only the cancel flag can end it early, and a
    // cancelled query is the only way to a `cypher_error` here.
    let server = TestServer::start(0.1, |c| c.query_timeout_ms = 600_000).await;
    let (mut socket, _) = tokio_tungstenite::connect_async(server.ws_url())
        .await
        .expect("handshake");
    let wire = Wire::new(Subprotocol::DEFAULT, 1 << 20);
    let heavy = Request::Cypher {
        query: "UNWIND range(1, 500000) AS i
                RETURN sum(reduce(s = 0, x IN range(1, 200 + i % 7) | s + x % 3))"
            .into(),
        params: vec![],
        timing: false,
        tx: None,
    };
    socket
        .send(Message::Binary(wire.request(1, &heavy).into()))
        .await
        .expect("sends");
    let answer = tokio::time::timeout(Duration::from_millis(300), socket.next()).await;
    assert!(answer.is_err(), "the query is still running");
    socket.close(None).await.expect("closes");
    drop(socket);
    let deadline = Instant::now() + Duration::from_secs(30);
    while ws_errors(&server, "cypher_error").await == 0 {
        assert!(
            Instant::now() < deadline,
            "the query was not cancelled when its connection closed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_answers_rows_and_errors_with_their_status() {
    let server = TestServer::start(0.1, |c| c.result_rows_max = 100).await;
    let body = serde_json::json!({"query": FRIENDS, "params": {"id": 7}}).to_string();
    let (status, text) = server.http("POST", "/v1/cypher", &body).await;
    assert_eq!(status, 200, "{text}");
    let chunk = ResultChunk::decode(Encoding::Json, text.as_bytes()).expect("a result document");
    assert_eq!(
        chunk.columns,
        Some(vec!["id".to_owned(), "displayName".to_owned()])
    );
    assert_eq!(chunk.rows, friends_of(&server, 7));
    assert_eq!(chunk.commit, None);

    let cases = [
        (
            serde_json::json!({"query": "MATCH (p)\nRETURN p.id +"}),
            400,
            "cypher_error",
        ),
        (
            serde_json::json!({"query": "RETURN 1 + 'a' * 2"}),
            400,
            "cypher_error",
        ),
        (
            serde_json::json!({"query": "MATCH (p:Person) RETURN p.id"}),
            422,
            "result_too_large",
        ),
        (
            serde_json::json!({"query": "CREATE (:Person {id: 1000001})"}),
            405,
            "read_only",
        ),
        (serde_json::json!({"text": "RETURN 1"}), 400, "bad_request"),
    ];
    for (request, want_status, want_code) in cases {
        let (status, text) = server
            .http("POST", "/v1/cypher", &request.to_string())
            .await;
        assert_eq!(status, want_status, "{request}: {text}");
        let error: serde_json::Value = serde_json::from_str(&text).expect("a JSON error");
        assert_eq!(error["code"], want_code, "{request}: {text}");
    }
    let (_, text) = server
        .http(
            "POST",
            "/v1/cypher",
            r#"{"query": "MATCH (p)\nRETURN p.id +"}"#,
        )
        .await;
    let error: serde_json::Value = serde_json::from_str(&text).expect("a JSON error");
    assert_eq!(
        error["cypher_code"], "Neo.ClientError.Statement.SyntaxError",
        "{text}"
    );
    assert_eq!(
        (error["line"].as_u64(), error["column"].as_u64()),
        (Some(2), Some(14)),
        "{text}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_writing_query_commits_durably_and_survives_a_restart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let raw = kith_datagen::shindig::generate(kith_datagen::shindig::ShindigConfig {
        scale: 0.1,
        seed: 11,
    })
    .expect("generates");
    let snapshot = kith_storage::Snapshot::from_raw(raw).expect("valid");
    kith_storage::create_data_dir(dir.path(), &snapshot).expect("writes the data directory");
    let before = snapshot.version();

    let server = TestServer::start_database(dir.path(), |_| {}).await;
    let client = connect(&server).await;
    let created = client
        .cypher(
            "MATCH (p:Person {id: $friend})
             CREATE (p)-[:FRIEND_OF]->(n:Person {id: $id, displayName: $name})
             RETURN n.id AS id, n.displayName AS name",
            vec![
                int("friend", 7),
                int("id", 900_001),
                ("name".to_owned(), Value::string("Ada Cypher")),
            ],
        )
        .await
        .expect("commits");
    assert_eq!(created.columns, ["id", "name"]);
    assert_eq!(
        created.rows,
        [[Value::Int(900_001), Value::string("Ada Cypher")]]
    );
    let commit = created.commit.expect("a commit");
    assert!(commit.version > before, "{commit:?}");
    assert_eq!((commit.nodes_created, commit.relationships_created), (1, 1));

    let read_back = "MATCH (p:Person {id: 7})-[:FRIEND_OF]->(n:Person {id: 900001})
                     RETURN n.displayName";
    let seen = client.cypher(read_back, vec![]).await.expect("reads");
    assert_eq!(
        seen.rows,
        [[Value::string("Ada Cypher")]],
        "visible at once"
    );

    let (status, text) = server
        .http(
            "POST",
            "/v1/cypher",
            r#"{"query": "CREATE (:Person {id: 900002})-[:FRIEND_OF]->(:Person {id: 900003})"}"#,
        )
        .await;
    assert_eq!(status, 200, "{text}");
    let chunk = ResultChunk::decode(Encoding::Json, text.as_bytes()).expect("a result");
    let http_commit = chunk.commit.expect("HTTP answers the commit");
    assert_eq!(
        (http_commit.nodes_created, http_commit.relationships_created),
        (2, 1)
    );
    assert!(http_commit.version > commit.version);
    let duplicate = client
        .cypher("CREATE (:Person {id: 900001})", vec![])
        .await
        .expect_err("the id is taken");
    assert_eq!(
        duplicate.code(),
        Some(ErrorCode::DuplicateId),
        "{duplicate}"
    );
    drop(client);
    server.stop().await;

    let server = TestServer::start_database(dir.path(), |_| {}).await;
    let client = connect(&server).await;
    let seen = client
        .cypher(read_back, vec![])
        .await
        .expect("reads after restart");
    assert_eq!(seen.rows, [[Value::string("Ada Cypher")]], "durable");
    let both = client
        .cypher(
            "MATCH (a:Person)-[:FRIEND_OF]->(b:Person) WHERE a.id > 900000 RETURN a.id, b.id",
            vec![],
        )
        .await
        .expect("reads");
    assert_eq!(both.rows, [[Value::Int(900_002), Value::Int(900_003)]]);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_merge_and_delete_commit_and_a_refused_one_changes_nothing() {
    let (_dir, server, client) = empty_database().await;
    let run = |q: &'static str| client.cypher(q, vec![]);
    run("UNWIND range(1, 3) AS i MERGE (:P {id: i})")
        .await
        .expect("merges");
    let merged = run("UNWIND [2, 3, 4] AS i MERGE (p:P {id: i}) ON CREATE SET p.new = true ON MATCH SET p.old = true")
        .await
        .expect("merges");
    assert_eq!(merged.commit.map(|c| c.nodes_created), Some(1));
    run("MATCH (a:P {id: 1}), (b:P {id: 2}) CREATE (a)-[:R]->(b) SET a.x = 1 REMOVE b.old")
        .await
        .expect("writes");
    let refused = run("MATCH (p:P {id: 1}) SET p.y = 2 DELETE p")
        .await
        .expect_err("p has a relationship");
    assert_eq!(refused.code(), Some(ErrorCode::InvalidWrite), "{refused}");
    assert!(refused.to_string().contains("detach delete"), "{refused}");
    let (_, cypher_code, _, _) = cypher_error(refused);
    assert_eq!(
        cypher_code,
        "Neo.ClientError.Schema.ConstraintValidationFailed"
    );
    let (status, text) = server
        .http(
            "POST",
            "/v1/cypher",
            r#"{"query": "MATCH (p:P {id: 1}) DELETE p"}"#,
        )
        .await;
    assert_eq!(status, 409, "{text}");
    let state = run("MATCH (p:P) RETURN p.id, p.x, p.y, p.new, p.old ORDER BY p.id")
        .await
        .expect("reads");
    let null = Value::Null;
    let t = Value::Bool(true);
    assert_eq!(
        state.rows,
        [
            vec![
                Value::Int(1),
                Value::Int(1),
                null.clone(),
                null.clone(),
                null.clone()
            ],
            vec![
                Value::Int(2),
                null.clone(),
                null.clone(),
                null.clone(),
                null.clone()
            ],
            vec![
                Value::Int(3),
                null.clone(),
                null.clone(),
                null.clone(),
                t.clone()
            ],
            vec![Value::Int(4), null.clone(), null.clone(), t, null],
        ],
        "the refused query's SET was not committed"
    );
    run("MATCH (p:P {id: 1}) DETACH DELETE p")
        .await
        .expect("deletes");
    let left = run("MATCH (p:P) RETURN count(p)").await.expect("reads");
    assert_eq!(left.rows, [[Value::Int(3)]]);
    drop(client);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explicit_transactions_read_their_writes_commit_once_wait_for_locks_and_conflict() {
    let dir = tempfile::tempdir().expect("temp dir");
    kith_storage::create_data_dir(dir.path(), &kith_storage::Snapshot::empty())
        .expect("writes the data directory");
    let server = TestServer::start_database(dir.path(), |c| {
        c.transactions_max = 3;
    })
    .await;
    let client = connect(&server).await;
    let count = |q: &'static str| {
        let client = &client;
        async move { client.cypher(q, vec![]).await.expect("reads").rows }
    };
    client
        .cypher("CREATE (:C {id: 1, v: 0}), (:C {id: 2, v: 0})", vec![])
        .await
        .expect("creates");

    // Statements see their own writes; nobody else does until COMMIT.
    let tx = client.begin(None).await.expect("begins");
    client
        .cypher_in(
            &tx,
            "MATCH (c:C {id: 1}) SET c.v = c.v + 1 CREATE (:C {id: 3, v: 7})",
            vec![],
        )
        .await
        .expect("writes");
    let inside = client
        .cypher_in(
            &tx,
            "MATCH (c:C) RETURN sum(c.v) AS s, count(c) AS n",
            vec![],
        )
        .await
        .expect("reads");
    assert_eq!(inside.rows, [[Value::Int(8), Value::Int(3)]]);
    assert_eq!(
        count("MATCH (c:C) RETURN count(c)").await,
        [[Value::Int(2)]]
    );
    let commit = client.commit(&tx).await.expect("commits");
    assert_eq!(commit.nodes_created, 1);
    assert_eq!(
        count("MATCH (c:C) RETURN sum(c.v)").await,
        [[Value::Int(8)]]
    );
    let again = client.commit(&tx).await.expect_err("committed once");
    assert_eq!(again.code(), Some(ErrorCode::NotFound), "{again}");

    // Two transactions changing one node: the second statement waits for the first
    // transaction's commit, then reads what it committed (no lost update).
    let (a, b) = (
        client.begin(None).await.expect("a"),
        client.begin(None).await.expect("b"),
    );
    let bump = "MATCH (c:C {id: 2}) SET c.v = c.v + 1 RETURN c.v AS v";
    let first = client.cypher_in(&a, bump, vec![]).await.expect("a writes");
    assert_eq!(first.rows, [[Value::Int(1)]]);
    let (second, committed) = tokio::join!(client.cypher_in(&b, bump, vec![]), async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        client.commit(&a).await
    });
    committed.expect("a commits");
    assert_eq!(
        second.expect("b waited").rows,
        [[Value::Int(2)]],
        "a's value read"
    );
    client.commit(&b).await.expect("b commits");
    assert_eq!(
        count("MATCH (c:C {id: 2}) RETURN c.v").await,
        [[Value::Int(2)]]
    );

    // Each waiting for the other: the one that would close the cycle is refused and
    // rolled back, and the other goes on.
    let (a, b) = (
        client.begin(None).await.expect("a"),
        client.begin(None).await.expect("b"),
    );
    let set = |id: i64| format!("MATCH (c:C {{id: {id}}}) SET c.w = 1");
    client
        .cypher_in(&a, &set(1), vec![])
        .await
        .expect("a locks 1");
    client
        .cypher_in(&b, &set(2), vec![])
        .await
        .expect("b locks 2");
    let a_wants = set(2);
    let (a_waited, b_refused) = tokio::join!(client.cypher_in(&a, &a_wants, vec![]), async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        client.cypher_in(&b, &set(1), vec![]).await
    });
    let refused = b_refused.expect_err("b closes the cycle");
    assert_eq!(refused.code(), Some(ErrorCode::Deadlock), "{refused}");
    a_waited.expect("a goes on once b is rolled back");
    client.commit(&a).await.expect("a commits");
    let gone = client.commit(&b).await.expect_err("b was rolled back");
    assert_eq!(gone.code(), Some(ErrorCode::CypherError), "{gone}");

    // An auto-commit write takes no locks: it commits first, and the transaction
    // holding the node conflicts at its commit (nothing of it written).
    let a = client.begin(None).await.expect("a");
    client.cypher_in(&a, bump, vec![]).await.expect("a writes");
    client
        .cypher("MATCH (c:C {id: 2}) SET c.v = 100", vec![])
        .await
        .expect("auto-commit");
    let conflict = client.commit(&a).await.expect_err("a conflicts");
    assert_eq!(conflict.code(), Some(ErrorCode::Conflict), "{conflict}");
    assert_eq!(
        count("MATCH (c:C {id: 2}) RETURN c.v").await,
        [[Value::Int(100)]]
    );

    // Rolled back: nothing written. A failed statement fails its transaction.
    let r = client.begin(None).await.expect("begins");
    client
        .cypher_in(&r, "CREATE (:C {id: 9})", vec![])
        .await
        .expect("writes");
    client.rollback(&r).await.expect("rolls back");
    let f = client.begin(None).await.expect("begins");
    client
        .cypher_in(&f, "CREATE (:C {id: 10})", vec![])
        .await
        .expect("writes");
    client
        .cypher_in(&f, "RETURN 1 / 0", vec![])
        .await
        .expect_err("fails");
    let failed = client.commit(&f).await.expect_err("failed before");
    assert_eq!(failed.code(), Some(ErrorCode::CypherError), "{failed}");
    assert_eq!(
        count("MATCH (c:C) RETURN count(c)").await,
        [[Value::Int(3)]]
    );

    // Bounded, and timed out.
    let open: Vec<String> = vec![
        client.begin(None).await.expect("1"),
        client.begin(None).await.expect("2"),
        client
            .begin(Some(Duration::from_millis(50)))
            .await
            .expect("3"),
    ];
    let full = client.begin(None).await.expect_err("transactions_max");
    assert_eq!(full.code(), Some(ErrorCode::Busy), "{full}");
    tokio::time::sleep(Duration::from_millis(100)).await;
    let late = client
        .cypher_in(&open[2], "RETURN 1", vec![])
        .await
        .expect_err("timed out");
    assert!(
        matches!(late.code(), Some(ErrorCode::Timeout | ErrorCode::NotFound)),
        "{late}"
    );

    // Over HTTP: the same transactions.
    let (status, text) = server
        .http("POST", "/v1/tx", r#"{"timeout_ms": 10000}"#)
        .await;
    assert_eq!(status, 200, "{text}");
    let id = serde_json::from_str::<serde_json::Value>(&text).expect("json")["rows"][0][0]
        .as_str()
        .expect("an id")
        .to_owned();
    let statement = format!("/v1/tx/{id}/cypher");
    let (status, text) = server
        .http(
            "POST",
            &statement,
            r#"{"query": "CREATE (:C {id: 20}) RETURN 1 AS one"}"#,
        )
        .await;
    assert_eq!(status, 200, "{text}");
    let (status, text) = server
        .http("POST", &format!("/v1/tx/{id}/commit"), "")
        .await;
    assert_eq!(status, 200, "{text}");
    assert!(text.contains("\"commit\""), "{text}");
    let (status, _) = server
        .http("POST", &format!("/v1/tx/{id}/rollback"), "")
        .await;
    assert_eq!(status, 404, "the transaction is gone");
    assert_eq!(
        count("MATCH (c:C {id: 20}) RETURN count(c)").await,
        [[Value::Int(1)]]
    );
    drop(client);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wait_for_a_lock_ends_at_the_query_timeout_and_rolls_the_waiter_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    kith_storage::create_data_dir(dir.path(), &kith_storage::Snapshot::empty())
        .expect("writes the data directory");
    let server = TestServer::start_database(dir.path(), |c| c.query_timeout_ms = 300).await;
    let client = connect(&server).await;
    client
        .cypher("CREATE (:C {id: 1, v: 0})", vec![])
        .await
        .expect("creates");
    let (a, b) = (
        client.begin(None).await.expect("a"),
        client.begin(None).await.expect("b"),
    );
    let set = "MATCH (c:C {id: 1}) SET c.v = c.v + 1";
    client.cypher_in(&a, set, vec![]).await.expect("a locks");
    let started = std::time::Instant::now();
    let late = client
        .cypher_in(&b, set, vec![])
        .await
        .expect_err("b waits too long");
    assert_eq!(late.code(), Some(ErrorCode::Timeout), "{late}");
    assert!(
        started.elapsed() >= Duration::from_millis(250),
        "{:?}",
        started.elapsed()
    );
    let gone = client.commit(&b).await.expect_err("b was rolled back");
    assert_eq!(gone.code(), Some(ErrorCode::CypherError), "{gone}");
    client.commit(&a).await.expect("a commits");
    let v = client
        .cypher("MATCH (c:C) RETURN c.v", vec![])
        .await
        .expect("reads");
    assert_eq!(v.rows, [[Value::Int(1)]]);
    drop(client);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_auto_commit_updates_of_one_node_lose_nothing() {
    let (_dir, server, client) = empty_database().await;
    client
        .cypher("CREATE (:Counter {id: 1, v: 0})", vec![])
        .await
        .expect("creates");
    let bump = "MATCH (c:Counter {id: 1}) SET c.v = c.v + 1";
    let runs = (0..64).map(|_| client.cypher(bump, vec![]));
    let outcomes = futures_util::future::join_all(runs).await;
    let mut done = 0;
    for outcome in outcomes {
        match outcome {
            Ok(_) => done += 1,
            // Retried on the server, and still colliding: the client may retry.
            Err(e) => assert_eq!(e.code(), Some(ErrorCode::Conflict), "{e}"),
        }
    }
    assert!(done > 0);
    let v = client
        .cypher("MATCH (c:Counter) RETURN c.v", vec![])
        .await
        .expect("reads");
    assert_eq!(
        v.rows,
        [[Value::Int(done)]],
        "every committed increment counted"
    );
    drop(client);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_merges_of_one_key_under_a_uniqueness_constraint_make_one_node() {
    let (_dir, server, client) = empty_database().await;
    client
        .cypher(
            "CREATE CONSTRAINT one_email FOR (u:User) REQUIRE u.email IS UNIQUE",
            vec![],
        )
        .await
        .expect("declares");
    // Without the constraint, two transactions that read no such node would both
    // create one; with it, the later commit collides and its MERGE, run again,
    // finds the node.
    let merge = "MERGE (u:User {email: $e}) ON CREATE SET u.n = 1 ON MATCH SET u.m = true";
    for round in 0..8 {
        let email = format!("u{round}@x");
        let runs = (0..16)
            .map(|_| client.cypher(merge, vec![("e".to_owned(), Value::string(email.as_str()))]));
        for outcome in futures_util::future::join_all(runs).await {
            if let Err(e) = outcome {
                assert_eq!(e.code(), Some(ErrorCode::Conflict), "{e}");
            }
        }
    }
    let users = client
        .cypher(
            "MATCH (u:User) RETURN u.email, count(*) AS n ORDER BY u.email",
            vec![],
        )
        .await
        .expect("reads");
    assert_eq!(users.rows.len(), 8, "{:?}", users.rows);
    assert!(
        users.rows.iter().all(|r| r[1] == Value::Int(1)),
        "{:?}",
        users.rows
    );
    // A plain CREATE of a taken key is refused with the store's words.
    let e = client
        .cypher("CREATE (:User {email: 'u0@x'})", vec![])
        .await
        .expect_err("taken");
    assert_eq!(e.code(), Some(ErrorCode::DuplicateId), "{e}");
    let shown = client
        .cypher("SHOW CONSTRAINTS YIELD name RETURN name", vec![])
        .await
        .expect("lists");
    assert_eq!(shown.rows, [[Value::string("one_email")]]);
    drop(client);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_only_server_refuses_a_writing_query_before_running_it() {
    let server = TestServer::start(0.1, |_| {}).await;
    let client = connect(&server).await;
    let error = client
        .cypher("CREATE (:Person {id: 900001})", vec![])
        .await
        .expect_err("read-only");
    assert_eq!(error.code(), Some(ErrorCode::ReadOnly), "{error}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explain_and_profile_answer_the_plan_in_the_trailer() {
    let (_dir, server, client) = empty_database().await;
    client
        .cypher("UNWIND range(1, 4) AS i CREATE (:P {i: i})", vec![])
        .await
        .expect("creates");
    let profiled = client
        .cypher(
            "PROFILE MATCH (p:P) WHERE p.i > 1 RETURN p.i ORDER BY p.i",
            vec![],
        )
        .await
        .expect("profiles");
    assert_eq!(
        profiled.rows,
        [[Value::Int(2)], [Value::Int(3)], [Value::Int(4)]]
    );
    let plan = profiled.plan.expect("a plan");
    let field = |v: &Value, k: &str| match v {
        Value::Map(e) => e.iter().find(|(n, _)| &**n == k).map(|(_, v)| v.clone()),
        _ => None,
    };
    assert_eq!(
        field(&plan, "operator"),
        Some(Value::string("ProduceResults"))
    );
    assert_eq!(field(&plan, "rows"), Some(Value::Int(3)));
    let explained = client
        .cypher("EXPLAIN CREATE (:P {i: 9})", vec![])
        .await
        .expect("explains");
    assert!(explained.rows.is_empty() && explained.commit.is_none());
    let plan = explained.plan.expect("a plan");
    assert_eq!(field(&plan, "rows"), None, "EXPLAIN counts nothing");
    let n = client
        .cypher("MATCH (p:P) RETURN count(p)", vec![])
        .await
        .expect("counts");
    assert_eq!(n.rows, [[Value::Int(4)]], "EXPLAIN wrote nothing");
    // Over HTTP the plan is a key of the JSON body.
    let request = serde_json::json!({"query": "EXPLAIN MATCH (p:P) RETURN p"}).to_string();
    let (status, body) = server.http("POST", "/v1/cypher", &request).await;
    assert_eq!(status, 200, "{body}");
    let chunk = ResultChunk::decode(Encoding::Json, body.as_bytes()).expect("a result document");
    let plan = format!("{:?}", chunk.plan.expect("a plan"));
    assert!(plan.contains("NodeByLabelScan"), "{plan}");
    drop(client);
    server.stop().await;
}
