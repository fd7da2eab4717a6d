//! Bolt at the byte level, for what the drivers' suites cannot choose: the version
//! negotiated (4.4, the manifest, none in common), not-Bolt clients, malformed and
//! oversized messages, and the FAILURE -> IGNORED -> RESET state machine.

use std::sync::Arc;

use kith_protocol::bolt::chunk::{begin_message, end_message};
use kith_protocol::bolt::handshake::{manifest, MAGIC};
use kith_protocol::bolt::packstream::unpack;
use kith_protocol::bolt::{Pack, Packer};
use kith_server::{Server, ServerConfig};
use kith_storage::{Snapshot, Store};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn server(tune: impl FnOnce(&mut ServerConfig)) -> std::net::SocketAddr {
    let mut config = ServerConfig {
        listen: "127.0.0.1:0".parse().expect("addr"),
        bolt_listen: Some("127.0.0.1:0".parse().expect("addr")),
        workers: 2,
        ..ServerConfig::default()
    };
    tune(&mut config);
    let store = Arc::new(Store::new(Snapshot::empty()));
    let server = Server::bind(config, store).await.expect("binds");
    let bolt = server.bolt_addr().expect("bolt bound");
    tokio::spawn(server.run(std::future::pending()));
    bolt
}

fn offers(list: [[u8; 4]; 4]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    list.iter().for_each(|o| out.extend_from_slice(o));
    out
}

struct Client(TcpStream);

impl Client {
    async fn connect(addr: std::net::SocketAddr, hello: &[u8]) -> (Client, Vec<u8>) {
        let mut s = TcpStream::connect(addr).await.expect("connects");
        s.write_all(hello).await.expect("writes");
        let mut answer = [0u8; 4];
        s.read_exact(&mut answer).await.expect("answer");
        (Client(s), answer.to_vec())
    }

    fn message(tag: u8, fields: Vec<Pack>) -> Vec<u8> {
        let mut out = Vec::new();
        let start = begin_message(&mut out);
        Packer::new(&mut out).pack(&Pack::Struct(tag, fields));
        end_message(&mut out, start);
        out
    }

    async fn send(&mut self, tag: u8, fields: Vec<Pack>) {
        let out = Client::message(tag, fields);
        self.0.write_all(&out).await.expect("writes");
    }

    /// Sends, and goes on if the server stopped reading (it refused the message).
    async fn try_send(&mut self, tag: u8, fields: Vec<Pack>) {
        let out = Client::message(tag, fields);
        let _ = self.0.write_all(&out).await;
    }

    async fn recv(&mut self) -> Option<Pack> {
        let mut message = Vec::new();
        loop {
            let size = self.0.read_u16().await.ok()?;
            if size == 0 {
                return Some(unpack(&message).expect("a valid answer"));
            }
            let mut chunk = vec![0; usize::from(size)];
            self.0.read_exact(&mut chunk).await.ok()?;
            message.extend_from_slice(&chunk);
        }
    }

    async fn tag(&mut self) -> u8 {
        match self.recv().await {
            Some(Pack::Struct(tag, _)) => tag,
            other => panic!("expected a message, got {other:?}"),
        }
    }
}

fn map(entries: &[(&str, Pack)]) -> Pack {
    Pack::Map(
        entries
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect(),
    )
}

fn s(text: &str) -> Pack {
    Pack::String(text.into())
}

const SUCCESS: u8 = 0x70;
const RECORD: u8 = 0x71;
const IGNORED: u8 = 0x7E;
const FAILURE: u8 = 0x7F;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bolt_4_4_runs_pulls_and_recovers_from_a_failure_with_reset() {
    let addr = server(|_| {}).await;
    let (mut c, version) =
        Client::connect(addr, &offers([[0, 2, 4, 4], [0, 0, 1, 4], [0; 4], [0; 4]])).await;
    assert_eq!(version, [0, 0, 4, 4]);
    let hello = map(&[("user_agent", s("test/1")), ("scheme", s("none"))]);
    c.send(0x01, vec![hello]).await;
    let Some(Pack::Struct(SUCCESS, meta)) = c.recv().await else {
        panic!("HELLO answered");
    };
    assert!(meta[0]
        .get("server")
        .and_then(Pack::as_str)
        .is_some_and(|v| v.starts_with("Neo4j/")));
    assert!(meta[0].get("connection_id").is_some());
    // A failing RUN, then a PULL pipelined behind it: FAILURE, then IGNORED.
    c.send(0x10, vec![s("RETRUN 1"), map(&[]), map(&[])]).await;
    c.send(0x3F, vec![map(&[("n", Pack::Int(-1))])]).await;
    let Some(Pack::Struct(FAILURE, meta)) = c.recv().await else {
        panic!("FAILURE expected");
    };
    assert_eq!(
        meta[0].get("code").and_then(Pack::as_str),
        Some("Neo.ClientError.Statement.SyntaxError")
    );
    assert_eq!(c.tag().await, IGNORED);
    c.send(0x10, vec![s("RETURN 1"), map(&[]), map(&[])]).await;
    assert_eq!(c.tag().await, IGNORED, "ignored until RESET");
    c.send(0x0F, vec![]).await;
    assert_eq!(c.tag().await, SUCCESS);
    c.send(
        0x10,
        vec![s("UNWIND range(1, 3) AS x RETURN x"), map(&[]), map(&[])],
    )
    .await;
    assert_eq!(c.tag().await, SUCCESS);
    c.send(0x3F, vec![map(&[("n", Pack::Int(2))])]).await;
    assert_eq!(c.tag().await, RECORD);
    assert_eq!(c.tag().await, RECORD);
    let Some(Pack::Struct(SUCCESS, meta)) = c.recv().await else {
        panic!("page end");
    };
    assert_eq!(meta[0].get("has_more"), Some(&Pack::Bool(true)));
    // The client takes its time over the rest: the summary's `t_last` (the driver's
    // result_consumed_after) counts it, as Neo4j's does.
    tokio::time::sleep(std::time::Duration::from_millis(40)).await;
    c.send(0x3F, vec![map(&[("n", Pack::Int(2))])]).await;
    let Some(Pack::Struct(RECORD, fields)) = c.recv().await else {
        panic!("the last record");
    };
    assert_eq!(fields[0], Pack::List(vec![Pack::Int(3)]));
    let Some(Pack::Struct(SUCCESS, meta)) = c.recv().await else {
        panic!("summary");
    };
    let t_last = meta[0].get("t_last");
    assert!(
        matches!(t_last, Some(Pack::Int(t)) if *t >= 40),
        "{t_last:?}"
    );
    assert!(meta[0].get("bookmark").is_some() && meta[0].get("has_more").is_none());
    assert!(
        meta[0].get("statuses").is_none(),
        "GQL statuses start at 5.5"
    );
    c.send(0x02, vec![]).await;
    assert!(c.recv().await.is_none(), "GOODBYE closes the connection");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_manifest_is_offered_and_the_client_choice_taken() {
    let addr = server(|_| {}).await;
    let (mut c, answer) = Client::connect(
        addr,
        &offers([[0, 0, 1, 0xFF], [0, 8, 8, 5], [0, 2, 4, 4], [0; 4]]),
    )
    .await;
    assert_eq!(answer, [0, 0, 1, 0xFF]);
    let mut rest = vec![0u8; manifest().len() - 4];
    c.0.read_exact(&mut rest).await.expect("the manifest");
    assert_eq!(rest, manifest()[4..]);
    c.0.write_all(&[0, 0, 6, 5, 0]).await.expect("chooses 5.6");
    c.send(0x01, vec![map(&[("user_agent", s("test/1"))])])
        .await;
    assert_eq!(c.tag().await, SUCCESS);
    // 5.1+: LOGON before any work.
    c.send(0x10, vec![s("RETURN 1"), map(&[]), map(&[])]).await;
    let Some(Pack::Struct(FAILURE, _)) = c.recv().await else {
        panic!("RUN before LOGON fails");
    };
    assert!(c.recv().await.is_none(), "and closes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_without_a_common_version_or_not_speaking_bolt_are_closed() {
    let addr = server(|_| {}).await;
    let (mut c, answer) =
        Client::connect(addr, &offers([[0, 0, 0, 3], [0, 0, 1, 4], [0; 4], [0; 4]])).await;
    assert_eq!(answer, [0, 0, 0, 0]);
    assert!(c.recv().await.is_none());
    let mut http = TcpStream::connect(addr).await.expect("connects");
    http.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("writes");
    let mut buf = Vec::new();
    let read = http.read_to_end(&mut buf).await.expect("closed");
    assert_eq!(read, 0, "nothing answered to HTTP on the Bolt port");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_and_oversized_messages_fail_and_close() {
    let addr = server(|c| c.frame_bytes_max = 1024).await;
    let handshake = offers([[0, 8, 8, 5], [0; 4], [0; 4], [0; 4]]);
    let (mut c, answer) = Client::connect(addr, &handshake).await;
    assert_eq!(answer, [0, 0, 8, 5]);
    c.0.write_all(&[0, 2, 0xB0, 0x99, 0, 0])
        .await
        .expect("writes");
    let Some(Pack::Struct(FAILURE, meta)) = c.recv().await else {
        panic!("unknown message fails");
    };
    let message = meta[0]
        .get("message")
        .and_then(Pack::as_str)
        .unwrap_or_default();
    assert!(message.contains("unknown message 0x99"), "{message}");
    assert!(c.recv().await.is_none());
    let (mut c, _) = Client::connect(addr, &handshake).await;
    c.send(0x01, vec![map(&[("user_agent", s(&"x".repeat(2000)))])])
        .await;
    let Some(Pack::Struct(FAILURE, meta)) = c.recv().await else {
        panic!("oversized message fails");
    };
    let message = meta[0]
        .get("message")
        .and_then(Pack::as_str)
        .unwrap_or_default();
    assert!(message.contains("over 1024 bytes"), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_authenticates_past_the_cap_is_told_busy() {
    let addr = server(|c| c.connections_max = 1).await;
    let handshake = offers([[0, 8, 8, 5], [0; 4], [0; 4], [0; 4]]);
    let hello = || vec![map(&[("user_agent", s("test/1"))])];
    let (mut first, answer) = Client::connect(addr, &handshake).await;
    assert_eq!(answer, [0, 0, 8, 5]);
    first.send(0x01, hello()).await;
    assert_eq!(first.tag().await, SUCCESS);
    first.send(0x6A, vec![map(&[("scheme", s("none"))])]).await;
    assert_eq!(first.tag().await, SUCCESS, "the first takes the one slot");
    // A second connection is not refused for merely connecting (pending ones hold
    // no slot of connections_max), but is told when it authenticates.
    let (mut second, answer) = Client::connect(addr, &handshake).await;
    assert_eq!(answer, [0, 0, 8, 5]);
    second.send(0x01, hello()).await;
    assert_eq!(second.tag().await, SUCCESS);
    second.send(0x6A, vec![map(&[("scheme", s("none"))])]).await;
    let Some(Pack::Struct(FAILURE, meta)) = second.recv().await else {
        panic!("no slot: FAILURE");
    };
    let code = meta[0]
        .get("code")
        .and_then(Pack::as_str)
        .unwrap_or_default();
    let message = meta[0]
        .get("message")
        .and_then(Pack::as_str)
        .unwrap_or_default();
    assert!(code.starts_with("Neo.TransientError."), "{code}");
    assert!(message.contains("connections_max"), "{message}");
    assert!(second.recv().await.is_none(), "then closed");
    // The first still works.
    first
        .send(0x10, vec![s("RETURN 1 AS n"), map(&[]), map(&[])])
        .await;
    assert_eq!(first.tag().await, SUCCESS);
}

/// A parameter of megabytes, as drivers send (Neo4j takes them): over
/// `frame_bytes_max` but within `bolt_message_bytes_max` it runs; over that it fails
/// naming the limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_parameters_run_within_the_bolt_message_bound() {
    let addr = server(|c| c.bolt_message_bytes_max = 4 << 20).await;
    let run_with = |bytes: usize| async move {
        let (mut c, _) =
            Client::connect(addr, &offers([[0, 2, 4, 4], [0, 0, 1, 4], [0; 4], [0; 4]])).await;
        let hello = map(&[("user_agent", s("test/1")), ("scheme", s("none"))]);
        c.send(0x01, vec![hello]).await;
        assert_eq!(c.tag().await, SUCCESS);
        let params = map(&[("p", s(&"x".repeat(bytes)))]);
        // The server may refuse a message over the bound before all of it is sent.
        c.try_send(0x10, vec![s("RETURN size($p) AS n"), params, map(&[])])
            .await;
        c.recv().await
    };
    let Some(Pack::Struct(SUCCESS, _)) = run_with(3 << 20).await else {
        panic!("a 3 MiB parameter runs");
    };
    let Some(Pack::Struct(FAILURE, meta)) = run_with(5 << 20).await else {
        panic!("a 5 MiB parameter is over the bound");
    };
    let message = meta[0]
        .get("message")
        .and_then(Pack::as_str)
        .unwrap_or_default();
    assert!(message.contains("bolt_message_bytes_max"), "{message}");
}
