//! Writes over the network: transactions through the durable queue, read back,
//! conditions, indexes, errors, `busy`, and what survives a restart.

mod support;

use kith_client::{ops, Client, ClientConfig, ClientError};
use kith_core::Value;
use kith_protocol::ErrorCode;
use support::TestServer;

fn props(pairs: &[(&str, Value)]) -> Vec<(String, Value)> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

fn s(text: &str) -> Value {
    Value::String(text.into())
}

async fn find(client: &Client, label: &str, key: &str, value: Value) -> Vec<Vec<Value>> {
    client
        .call(
            "graph.find_nodes",
            vec![
                ("label".into(), s(label)),
                ("key".into(), s(key)),
                ("value".into(), value),
            ],
        )
        .await
        .expect("find_nodes")
        .rows
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transactions_commit_and_read_back_after_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = TestServer::start_database(dir.path(), |_| {}).await;
    let client = Client::connect(ClientConfig::new(server.ws_url()))
        .await
        .expect("connects");
    let done = client
        .write(vec![
            ops::create_index("Person", "email"),
            ops::create_node(
                &["Person"],
                props(&[("id", Value::Int(1)), ("email", s("ada@x"))]),
            ),
            ops::create_node(&["Person"], props(&[("id", Value::Int(2))])),
            ops::create_rel(
                "KNOWS",
                ops::created(0),
                ops::by_id("Person", 2),
                props(&[("since", Value::Int(2020))]),
            ),
        ])
        .await
        .expect("commits");
    assert_eq!(done.version, 1);
    assert_eq!(done.nodes.len(), 2);
    assert_eq!(done.rels.len(), 1);
    let rows = find(&client, "Person", "email", s("ada@x")).await;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0][0], Value::Int(i64::from(done.nodes[0])));

    let timed = client
        .write_timed(vec![ops::set_node(
            ops::node(done.nodes[1]),
            props(&[("email", s("bo@x"))]),
        )])
        .await
        .expect("commits");
    assert_eq!(timed.version, 2);
    assert!(timed.timing.is_some(), "timing was asked for");
    drop(client);
    server.stop().await;

    // The restart recovers from the final checkpoint written at shutdown.
    let server = TestServer::start_database(dir.path(), |_| {}).await;
    let client = Client::connect(ClientConfig::new(server.ws_url()))
        .await
        .expect("connects");
    let rows = find(&client, "Person", "email", s("bo@x")).await;
    assert_eq!(rows.len(), 1, "the committed update survived");
    let node = client
        .call("graph.node", vec![("node".into(), rows[0][0].clone())])
        .await
        .expect("node");
    assert_eq!(node.rows[0][1], Value::List(vec![s("Person")]));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_create_if_absent_creates_exactly_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = TestServer::start_database(dir.path(), |_| {}).await;
    let config = ClientConfig {
        connections_per_url: 4,
        ..ClientConfig::new(server.ws_url())
    };
    let client = std::sync::Arc::new(Client::connect(config).await.expect("connects"));
    let mut tasks = Vec::new();
    for _ in 0..64 {
        let client = client.clone();
        tasks.push(tokio::spawn(async move {
            client
                .write(vec![
                    ops::require_absent("User", "name", s("ann")),
                    ops::create_node(&["User"], props(&[("name", s("ann"))])),
                ])
                .await
        }));
    }
    let mut created = 0;
    for task in tasks {
        match task.await.expect("task") {
            Ok(_) => created += 1,
            Err(ClientError::Server { code, .. }) => assert_eq!(code, ErrorCode::ConditionFailed),
            Err(other) => panic!("unexpected error: {other}"),
        }
    }
    assert_eq!(created, 1);
    assert_eq!(find(&client, "User", "name", s("ann")).await.len(), 1);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_writes_get_clear_errors_and_change_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = TestServer::start_database(dir.path(), |c| c.write_ops_max = 5).await;
    let client = Client::connect(ClientConfig::new(server.ws_url()))
        .await
        .expect("connects");
    let code_of = |r: Result<kith_client::WriteResult, ClientError>| match r {
        Err(ClientError::Server { code, message }) => (code, message),
        other => panic!("expected a server error, got {other:?}"),
    };
    let (code, message) = code_of(client.write(vec![Value::Int(1)]).await);
    assert_eq!(code, ErrorCode::BadRequest);
    assert!(message.contains("operation 0"), "{message}");
    let (code, message) = code_of(client.write(vec![ops::delete_rel(1); 6]).await);
    assert_eq!(code, ErrorCode::BadRequest);
    assert!(message.contains("write_ops_max"), "{message}");
    let (code, _) = code_of(
        client
            .write(vec![
                ops::create_node(&["P"], props(&[("id", Value::Int(1))])),
                ops::create_rel("R", ops::created(0), ops::by_id("P", 99), vec![]),
            ])
            .await,
    );
    assert_eq!(code, ErrorCode::NotFound);
    let (code, _) = code_of(
        client
            .write(vec![ops::create_node(&["P"], props(&[("id", s("x"))]))])
            .await,
    );
    assert_eq!(code, ErrorCode::InvalidWrite);
    // None of it is visible, and the next write still gets version 1.
    assert!(find(&client, "P", "id", Value::Int(1)).await.is_empty());
    let done = client
        .write(vec![ops::create_node(&["P"], vec![])])
        .await
        .expect("commits");
    assert_eq!(done.version, 1);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_only_server_refuses_writes() {
    let server = TestServer::start(0.01, |_| {}).await;
    let client = Client::connect(ClientConfig::new(server.ws_url()))
        .await
        .expect("connects");
    match client.write(vec![ops::create_node(&[], vec![])]).await {
        Err(ClientError::Server { code, .. }) => assert_eq!(code, ErrorCode::ReadOnly),
        other => panic!("expected read_only, got {other:?}"),
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_writes_commit_and_report_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = TestServer::start_database(dir.path(), |_| {}).await;
    let (status, body) = server
        .http(
            "POST",
            "/v1/write",
            r#"{"write": [{"op": "create_node", "labels": ["P"], "props": {"id": 7}}]}"#,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let answer: serde_json::Value = serde_json::from_str(&body).expect("json");
    assert_eq!(answer["rows"][0][0], 1);
    let (status, body) = server
        .http(
            "POST",
            "/v1/write",
            r#"{"write": [{"op": "create_node", "labels": ["P"], "props": {"id": 7}}]}"#,
        )
        .await;
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("duplicate_id"), "{body}");
    let (status, body) = server.http("POST", "/v1/write", r#"{"write": 3}"#).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("list of operations"), "{body}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_write_queue_answers_busy() {
    let dir = tempfile::tempdir().expect("tempdir");
    // A queue of one, one transaction per group: while the writer syncs one, a
    // burst of twenty finds the queue full.
    let server = TestServer::start_database(dir.path(), |c| {
        c.write_queue_max = 1;
        c.write_group_transactions_max = 1;
    })
    .await;
    let client = std::sync::Arc::new(
        Client::connect(ClientConfig::new(server.ws_url()))
            .await
            .expect("connects"),
    );
    let mut tasks = Vec::new();
    for i in 0..20 {
        let client = client.clone();
        tasks.push(tokio::spawn(async move {
            client
                .write(vec![ops::create_node(
                    &["B"],
                    props(&[("id", Value::Int(i))]),
                )])
                .await
        }));
    }
    let (mut ok, mut busy) = (0, 0);
    for task in tasks {
        match task.await.expect("task") {
            Ok(_) => ok += 1,
            Err(ClientError::Server {
                code: ErrorCode::Busy,
                ..
            }) => busy += 1,
            Err(other) => panic!("unexpected: {other}"),
        }
    }
    assert!(ok >= 1 && busy >= 1, "ok {ok}, busy {busy}");
    // Exactly the acknowledged ones exist.
    let snapshot = server.store.snapshot();
    assert_eq!(kith_core::GraphView::node_count(&*snapshot), ok);
    drop(snapshot);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lookups_name_what_is_wrong() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = TestServer::start_database(dir.path(), |_| {}).await;
    let client = Client::connect(ClientConfig::new(server.ws_url()))
        .await
        .expect("connects");
    let code = |r: Result<kith_client::QueryResult, ClientError>| match r {
        Err(ClientError::Server { code, .. }) => code,
        other => panic!("expected an error, got {other:?}"),
    };
    let missing = client
        .call("graph.node", vec![("node".into(), Value::Int(5))])
        .await;
    assert_eq!(code(missing), ErrorCode::NotFound);
    let list = client
        .call(
            "graph.find_nodes",
            vec![
                ("label".into(), s("P")),
                ("key".into(), s("k")),
                ("value".into(), Value::List(vec![])),
            ],
        )
        .await;
    assert_eq!(code(list), ErrorCode::WrongParameterType);
    // A label the graph has never seen finds nothing, without error.
    assert!(find(&client, "Nobody", "k", Value::Int(1)).await.is_empty());
    server.stop().await;
}
