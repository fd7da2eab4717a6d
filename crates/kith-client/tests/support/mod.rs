//! A real kith server on a free loopback port, and raw-socket helpers.

#![allow(
    dead_code,
    reason = "each test file uses a different part of the support code"
)]

use std::net::SocketAddr;
use std::sync::Arc;

use kith_core::Value;
use kith_datagen::shindig::{generate, ShindigConfig};
use kith_procedures::Registry;
use kith_server::{Server, ServerConfig};
use kith_storage::{Database, Snapshot, Store};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::oneshot;

pub struct TestServer {
    pub addr: SocketAddr,
    /// The Bolt address, when the configuration serves Bolt.
    #[allow(dead_code)]
    pub bolt: Option<SocketAddr>,
    pub store: Arc<Store>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
}

impl TestServer {
    pub async fn start(scale: f64, tune: impl FnOnce(&mut ServerConfig)) -> TestServer {
        let raw = generate(ShindigConfig { scale, seed: 11 }).expect("generates");
        let store = Arc::new(Store::new(Snapshot::from_raw(raw).expect("valid")));
        Self::start_with(store, "127.0.0.1:0".parse().expect("addr"), tune).await
    }

    /// A writable server over the data directory `dir` (created if needed).
    pub async fn start_database(
        dir: &std::path::Path,
        tune: impl FnOnce(&mut ServerConfig),
    ) -> TestServer {
        let mut config = ServerConfig {
            listen: "127.0.0.1:0".parse().expect("addr"),
            workers: 2,
            ..ServerConfig::default()
        };
        tune(&mut config);
        let options = config.database_options().expect("valid options");
        let (database, _) = Database::open(dir, options).expect("opens");
        let database = Arc::new(database);
        let store = database.store().clone();
        let server = Server::bind_database(config, database)
            .await
            .expect("binds");
        Self::running(server, store)
    }

    pub async fn start_with(
        store: Arc<Store>,
        listen: SocketAddr,
        tune: impl FnOnce(&mut ServerConfig),
    ) -> TestServer {
        let mut config = ServerConfig {
            listen,
            workers: 2,
            ..ServerConfig::default()
        };
        tune(&mut config);
        let server = Server::bind(config, store.clone()).await.expect("binds");
        Self::running(server, store)
    }

    fn running(server: Server, store: Arc<Store>) -> TestServer {
        let addr = server.local_addr().expect("bound");
        let bolt = server.bolt_addr();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(server.run(async move {
            let _ = stopped.await;
        }));
        TestServer {
            addr,
            bolt,
            store,
            stop: Some(stop),
            task: Some(task),
        }
    }

    pub fn ws_url(&self) -> String {
        format!("ws://{}/v1/ws", self.addr)
    }

    /// Stops the server and waits until it has shut down.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.await.expect("server task").expect("clean shutdown");
        }
    }

    /// The in-process answer, as rows.
    pub fn expected(
        &self,
        procedure: &str,
        params: &[(String, Value)],
    ) -> (Vec<String>, Vec<Vec<Value>>) {
        let snapshot = self.store.snapshot();
        let result = Registry::with_builtins()
            .call(&*snapshot, procedure, params)
            .expect("in-process call");
        (
            result.columns().to_vec(),
            result.rows().map(<[Value]>::to_vec).collect(),
        )
    }

    /// A minimal HTTP/1.1 exchange: status and body.
    pub async fn http(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let (status, _, body) = self.http_with(method, path, "", body).await;
        (status, body)
    }

    /// An HTTP request with extra header lines (each ending in `\r\n`): the status,
    /// the header block and the body.
    pub async fn http_with(
        &self,
        method: &str,
        path: &str,
        headers: &str,
        body: &str,
    ) -> (u16, String, String) {
        let mut stream = tokio::net::TcpStream::connect(self.addr)
            .await
            .expect("connects");
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n{headers}\r\n{body}",
            self.addr,
            body.len()
        );
        stream.write_all(request.as_bytes()).await.expect("writes");
        let mut response = Vec::new();
        stream.read_to_end(&mut response).await.expect("reads");
        let text = String::from_utf8(response).expect("utf-8");
        let (head, body) = text.split_once("\r\n\r\n").expect("a header block");
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .expect("a status");
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(body)
        } else {
            body.to_owned()
        };
        (status, head.to_owned(), body)
    }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        body = &rest[n + 2..];
    }
    out
}

pub fn int(name: &str, v: i64) -> (String, Value) {
    (name.to_owned(), Value::Int(v))
}

pub fn ints(name: &str, v: &[i64]) -> (String, Value) {
    (
        name.to_owned(),
        Value::List(v.iter().map(|i| Value::Int(*i)).collect()),
    )
}

/// One call of each of the 19 procedures about the first person for whom every one
/// of them finds data (looked up in-process), with one of their own activities and
/// inbox messages.
pub fn one_call_each(server: &TestServer) -> Vec<(&'static str, Vec<(String, Value)>)> {
    let first_id = |procedure: &str, person: i64| {
        let (_, rows) = server.expected(procedure, &[int("person_id", person)]);
        rows.first().and_then(|r| r[0].as_int())
    };
    let (p, activity, message) = (1..)
        .find_map(|p| {
            let rich = [
                "shindig.person_groups",
                "shindig.group_recommendations",
                "shindig.friend_recommendations",
            ]
            .iter()
            .all(|proc| first_id(proc, p).is_some());
            let activity = first_id("shindig.person_activities", p)?;
            let message = first_id("shindig.inbox", p)?;
            rich.then_some((p, activity, message))
        })
        .expect("someone has everything");
    vec![
        ("shindig.group_members", vec![int("group_id", 3)]),
        ("shindig.person_groups", vec![int("person_id", p)]),
        ("shindig.friend_recommendations", vec![int("person_id", p)]),
        (
            "shindig.group_recommendations",
            vec![int("person_id", p), int("limit", 3)],
        ),
        ("shindig.friends_of_friends_3", vec![int("person_id", p)]),
        ("shindig.friends_of_friends", vec![int("person_id", p)]),
        (
            "shindig.shortest_path",
            vec![int("from_id", p), int("to_id", 150)],
        ),
        ("shindig.inbox", vec![int("person_id", p)]),
        ("shindig.message_collections", vec![int("person_id", p)]),
        ("shindig.profile", vec![int("person_id", p)]),
        (
            "shindig.profiles",
            vec![ints("person_ids", &[p, 6, 7, 8, 9, 10, 11, 12, 13, 14])],
        ),
        (
            "shindig.friends_of_people",
            vec![ints("person_ids", &[p, 6, 7, 8, 9, 10, 11, 12, 13, 14])],
        ),
        ("shindig.friends", vec![int("person_id", p)]),
        (
            "shindig.activity",
            vec![int("person_id", p), int("activity_id", activity)],
        ),
        ("shindig.person_activities", vec![int("person_id", p)]),
        (
            "shindig.activities_of_people",
            vec![ints("person_ids", &[p, 6, 7, 8, 9, 10, 11, 12, 13, 14])],
        ),
        (
            "shindig.activities_by_ids",
            vec![int("person_id", p), ints("activity_ids", &[1, 2, activity])],
        ),
        ("shindig.activity_stream", vec![int("person_id", p)]),
        (
            "shindig.message",
            vec![int("person_id", p), int("message_id", message)],
        ),
    ]
}
