//! Read-your-writes on one server, without Kafka: a read naming a version the server
//! has committed runs; one naming a version it never committed is refused at once,
//! naming both; a session of a cluster without replicas reads its own writes; and
//! `min_version` on a statement of an open transaction is refused by name.

mod support;

use kith_client::{ops, Client, ClientConfig, ClientError, Cluster};
use kith_core::Value;
use kith_protocol::{ErrorCode, Request};
use support::TestServer;

fn read(query: &str) -> Request {
    Request::Cypher {
        query: query.into(),
        params: Vec::new(),
        timing: false,
        tx: None,
    }
}

#[tokio::test]
async fn reads_wait_for_versions_this_server_has_and_refuse_others() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = TestServer::start_database(dir.path(), |_| {}).await;
    let url = format!("ws://{}/v1/ws", server.addr);
    let client = Client::connect(ClientConfig::new(url.clone()))
        .await
        .expect("connects");
    let node = ops::create_node(&["Person"], vec![("id".into(), Value::Int(1))]);
    let written = client.write(vec![node]).await.expect("writes");
    let answer = client
        .send_at(
            read("MATCH (p:Person) RETURN count(p) AS n"),
            Some(written.version),
        )
        .await
        .expect("runs at a version it has");
    assert_eq!(answer.rows, vec![vec![Value::Int(1)]]);

    let started = std::time::Instant::now();
    let refused = client
        .send_at(read("RETURN 1"), Some(written.version + 1000))
        .await
        .expect_err("a version it never committed");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(2),
        "refused at once"
    );
    let ClientError::Server { code, message } = refused else {
        panic!("{refused:?}")
    };
    assert_eq!(code, ErrorCode::Timeout);
    assert!(
        message.contains(&format!("needs version {}", written.version + 1000)),
        "{message}"
    );
    assert!(
        message.contains(&format!("up to version {}", written.version)),
        "{message}"
    );

    let in_tx = Request::Cypher {
        query: "RETURN 1".into(),
        params: Vec::new(),
        timing: false,
        tx: Some("t".into()),
    };
    let refused = client
        .send_at(in_tx, Some(1))
        .await
        .expect_err("tx + min_version");
    let ClientError::Server { code, message } = refused else {
        panic!("{refused:?}")
    };
    assert_eq!(code, ErrorCode::BadRequest);
    assert!(
        message.contains("`min_version` goes with `begin`"),
        "{message}"
    );

    // A cluster of one: the session's reads go to the primary and see its writes.
    let cluster = Cluster::connect(ClientConfig::new(url), None)
        .await
        .expect("connects");
    let session = cluster.session();
    let created = session
        .cypher("CREATE (:Person {id: 2}) RETURN 1 AS one", Vec::new())
        .await
        .expect("writes");
    let version = created.commit.expect("a commit").version;
    assert_eq!(session.version(), version);
    let seen = session
        .read("MATCH (p:Person {id: 2}) RETURN p.id AS id", Vec::new())
        .await
        .expect("reads");
    assert_eq!(seen.rows, vec![vec![Value::Int(2)]]);
}
