//! Authentication and roles over WebSocket and HTTP: a server whose data directory
//! has users asks everyone for credentials, answers 401 without them, and lets each
//! role do what it may (`docs/security.md`).

mod support;

use std::path::Path;

use kith_client::{ops, Client, ClientConfig, ClientError, Credentials};
use kith_core::Value;
use kith_protocol::ErrorCode;
use kith_server::auth::{Role, UserFile};
use kith_server::{Server, ServerConfig};
use support::TestServer;

fn add_users(dir: &Path) {
    let mut file = UserFile::default();
    for (name, role) in [
        ("rita", Role::Reader),
        ("will", Role::Writer),
        ("ada", Role::Admin),
    ] {
        file.add(name, role, &format!("{name}-password"))
            .expect("add");
    }
    file.save(&UserFile::path_in(dir)).expect("save");
}

async fn start(dir: &Path) -> TestServer {
    add_users(dir);
    let data = dir.to_owned();
    TestServer::start_database(dir, move |c| c.data = Some(data)).await
}

fn as_user(server: &TestServer, user: &str, password: &str) -> ClientConfig {
    let mut config = ClientConfig::new(server.ws_url());
    config.credentials = Some(Credentials::Basic {
        user: user.into(),
        password: password.into(),
    });
    config
}

fn refusal(result: Result<Client, ClientError>) -> String {
    match result {
        Err(ClientError::Connect { reason, .. }) => reason,
        Ok(_) => panic!("connected without the right credentials"),
        Err(other) => panic!("expected a refused handshake, got {other}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_handshakes_need_credentials_and_roles_limit_requests() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = start(dir.path()).await;
    let anonymous = refusal(Client::connect(ClientConfig::new(server.ws_url())).await);
    assert!(
        anonymous.contains("401") && anonymous.contains("requires authentication"),
        "{anonymous}"
    );
    let wrong = refusal(Client::connect(as_user(&server, "will", "rita-password")).await);
    assert!(wrong.contains("unknown user or wrong password"), "{wrong}");

    let reader = Client::connect(as_user(&server, "rita", "rita-password"))
        .await
        .expect("rita");
    assert!(reader.cypher("RETURN 1 AS one", vec![]).await.is_ok());
    let create = ops::create_node(&["P"], vec![("id".into(), Value::Int(1))]);
    let refused = reader
        .write(vec![create.clone()])
        .await
        .expect_err("a reader's write");
    assert_eq!(refused.code(), Some(ErrorCode::Forbidden), "{refused}");
    let refused = reader
        .cypher("CREATE (:P {id: 2})", vec![])
        .await
        .expect_err("reader");
    assert_eq!(refused.code(), Some(ErrorCode::Forbidden), "{refused}");
    assert!(
        refused.to_string().contains("`reader` may not write"),
        "{refused}"
    );
    assert!(
        reader.cypher("RETURN 2 AS two", vec![]).await.is_ok(),
        "the connection goes on"
    );

    let writer = Client::connect(as_user(&server, "will", "will-password"))
        .await
        .expect("will");
    writer.write(vec![create]).await.expect("a writer writes");
    let index = writer
        .write(vec![ops::create_index("P", "id")])
        .await
        .expect_err("schema");
    assert_eq!(index.code(), Some(ErrorCode::Forbidden), "{index}");
    // Cypher schema changes too, in auto-commit and inside an explicit transaction.
    for schema in [
        "CREATE INDEX FOR (p:P) ON (p.id)",
        "CREATE CONSTRAINT FOR (p:P) REQUIRE p.name IS UNIQUE",
        "CALL kith.procedure.register('app.p', 'RETURN 1 AS one')",
    ] {
        let e = writer.cypher(schema, vec![]).await.expect_err(schema);
        assert_eq!(e.code(), Some(ErrorCode::Forbidden), "{schema}: {e}");
        let tx = writer.begin(None).await.expect("begins");
        let e = writer
            .cypher_in(&tx, schema, vec![])
            .await
            .expect_err(schema);
        assert_eq!(
            e.code(),
            Some(ErrorCode::Forbidden),
            "{schema} in a tx: {e}"
        );
    }
    let admin = Client::connect(ClientConfig::new(
        server.ws_url().replace("ws://", "ws://ada:ada-password@"),
    ))
    .await
    .expect("ada, from the URL");
    admin
        .write(vec![ops::create_index("P", "id")])
        .await
        .expect("an admin changes the schema");
    let rows = reader
        .cypher("MATCH (p:P) RETURN p.id AS id", vec![])
        .await
        .expect("read");
    assert_eq!(
        rows.rows,
        vec![vec![Value::Int(1)]],
        "only the writer's node exists"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_takes_basic_credentials_and_bearer_tokens() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = start(dir.path()).await;
    let query = r#"{"query": "RETURN 1 AS one"}"#;
    let (status, head, body) = server.http_with("POST", "/v1/cypher", "", query).await;
    assert_eq!(status, 401, "{body}");
    assert!(
        head.to_ascii_lowercase()
            .contains("www-authenticate: basic realm=\"kith\""),
        "{head}"
    );
    assert!(body.contains("\"code\":\"unauthorized\""), "{body}");
    // will:will-password and rita:rita-password, base64.
    let will = "Authorization: Basic d2lsbDp3aWxsLXBhc3N3b3Jk\r\n";
    let rita = "Authorization: Basic cml0YTpyaXRhLXBhc3N3b3Jk\r\n";
    let (status, _, body) = server.http_with("POST", "/v1/cypher", will, query).await;
    assert_eq!(
        (status, body.as_str()),
        (200, r#"{"columns":["one"],"rows":[[1]]}"#)
    );
    let create = r#"{"query": "CREATE (:P {id: 7})"}"#;
    let (status, _, body) = server.http_with("POST", "/v1/cypher", rita, create).await;
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("\"code\":\"forbidden\""), "{body}");
    let bad = "Authorization: Basic not-base64!\r\n";
    let (status, _, body) = server.http_with("POST", "/v1/cypher", bad, query).await;
    assert_eq!(status, 401, "{body}");
    assert!(body.contains("not base64"), "{body}");
    // Health stays open for load balancers; metrics need a user.
    assert_eq!(server.http("GET", "/health", "").await.0, 200);
    assert_eq!(server.http("GET", "/metrics", "").await.0, 401);
    assert_eq!(server.http_with("GET", "/metrics", will, "").await.0, 200);

    let (status, _, body) = server.http_with("POST", "/v1/auth/token", will, "").await;
    assert_eq!(status, 200, "{body}");
    let issued: serde_json::Value = serde_json::from_str(&body).expect("json");
    assert_eq!(
        (issued["user"].as_str(), issued["role"].as_str()),
        (Some("will"), Some("writer"))
    );
    let token = issued["token"].as_str().expect("a token").to_owned();
    let bearer = format!("Authorization: Bearer {token}\r\n");
    let (status, _, body) = server
        .http_with("POST", "/v1/cypher", &bearer, create)
        .await;
    assert_eq!(status, 200, "{body}");
    let forged = "Authorization: Bearer kith_forged\r\n";
    assert_eq!(
        server
            .http_with("POST", "/v1/cypher", forged, query)
            .await
            .0,
        401
    );
    // Browsers pass the token in the WebSocket URL.
    let url = format!("{}?access_token={token}", server.ws_url());
    let client = Client::connect(ClientConfig::new(url))
        .await
        .expect("token in the URL");
    assert!(client.cypher("RETURN 1 AS one", vec![]).await.is_ok());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_beyond_loopback_needs_users_or_auth_none() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = std::sync::Arc::new(kith_storage::Store::new(kith_storage::Snapshot::empty()));
    let exposed = |auth| ServerConfig {
        listen: "0.0.0.0:0".parse().expect("addr"),
        data: Some(dir.path().to_owned()),
        auth,
        ..ServerConfig::default()
    };
    let refused = Server::bind(exposed(kith_server::auth::AuthMode::Users), store.clone())
        .await
        .err()
        .expect("no users");
    assert!(refused.to_string().contains("--auth none"), "{refused}");
    assert!(
        Server::bind(exposed(kith_server::auth::AuthMode::None), store.clone())
            .await
            .is_ok()
    );
    add_users(dir.path());
    assert!(
        Server::bind(exposed(kith_server::auth::AuthMode::Users), store)
            .await
            .is_ok()
    );
}
