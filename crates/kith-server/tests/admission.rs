//! Connections before they authenticate, on every transport, against a real server:
//! the auth deadline, the pending pool apart from `connections_max` (per address, and
//! eviction in favour of a quiet address), prompt FAILUREs for bytes that are no
//! message, and the read deadline of a message that stops arriving.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kith_protocol::bolt::chunk::{begin_message, end_message};
use kith_protocol::bolt::handshake::MAGIC;
use kith_protocol::bolt::packstream::unpack;
use kith_protocol::bolt::{Pack, Packer};
use kith_server::{Server, ServerConfig};
use kith_storage::{Snapshot, Store};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

const SUCCESS: u8 = 0x70;
const FAILURE: u8 = 0x7F;

struct Addrs {
    http: SocketAddr,
    bolt: SocketAddr,
}

async fn server(tune: impl FnOnce(&mut ServerConfig)) -> Addrs {
    let mut config = ServerConfig {
        listen: "127.0.0.1:0".parse().expect("addr"),
        bolt_listen: Some("127.0.0.1:0".parse().expect("addr")),
        workers: 2,
        ..ServerConfig::default()
    };
    tune(&mut config);
    let store = Arc::new(Store::new(Snapshot::empty()));
    let server = Server::bind(config, store).await.expect("binds");
    let addrs = Addrs {
        http: server.local_addr().expect("bound"),
        bolt: server.bolt_addr().expect("bolt bound"),
    };
    tokio::spawn(server.run(std::future::pending()));
    addrs
}

/// A connection from `127.0.0.{from}` (every 127/8 address is the loopback on Linux).
async fn connect_from(from: u8, to: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, from)),
        0,
    ))?;
    socket.connect(to).await
}

/// Bolt 5.8 offered; the server's 4-byte answer read.
async fn bolt_handshake(s: &mut TcpStream) -> std::io::Result<()> {
    let mut hello = MAGIC.to_vec();
    hello.extend_from_slice(&[0, 8, 8, 5]);
    hello.extend_from_slice(&[0; 12]);
    s.write_all(&hello).await?;
    let mut answer = [0u8; 4];
    s.read_exact(&mut answer).await?;
    assert_eq!(answer, [0, 0, 8, 5]);
    Ok(())
}

async fn send(s: &mut TcpStream, tag: u8, fields: Vec<Pack>) {
    let mut out = Vec::new();
    let start = begin_message(&mut out);
    Packer::new(&mut out).pack(&Pack::Struct(tag, fields));
    end_message(&mut out, start);
    s.write_all(&out).await.expect("writes");
}

async fn recv(s: &mut TcpStream) -> Option<Pack> {
    let mut message = Vec::new();
    loop {
        let size = s.read_u16().await.ok()?;
        if size == 0 {
            return Some(unpack(&message).expect("a valid answer"));
        }
        let mut chunk = vec![0; usize::from(size)];
        s.read_exact(&mut chunk).await.ok()?;
        message.extend_from_slice(&chunk);
    }
}

/// The message of the FAILURE that comes next.
async fn failure(s: &mut TcpStream) -> String {
    match recv(s).await {
        Some(Pack::Struct(FAILURE, meta)) => meta[0]
            .get("message")
            .and_then(Pack::as_str)
            .unwrap_or_default()
            .to_owned(),
        other => panic!("expected a FAILURE, got {other:?}"),
    }
}

fn map(entries: &[(&str, &str)]) -> Pack {
    Pack::Map(
        entries
            .iter()
            .map(|(k, v)| ((*k).to_owned(), Pack::String((*v).to_owned())))
            .collect(),
    )
}

/// HELLO and LOGON on an open server; true if both succeeded.
async fn authenticate(s: &mut TcpStream) -> bool {
    send(s, 0x01, vec![map(&[("user_agent", "test/1")])]).await;
    if !matches!(recv(s).await, Some(Pack::Struct(SUCCESS, _))) {
        return false;
    }
    send(s, 0x6A, vec![map(&[("scheme", "none")])]).await;
    matches!(recv(s).await, Some(Pack::Struct(SUCCESS, _)))
}

/// Whether the server closes `s` within `within` (reading and dropping what comes).
async fn closed_within(s: &mut TcpStream, within: Duration) -> bool {
    let mut sink = [0u8; 256];
    let drained = async {
        loop {
            match s.read(&mut sink).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    };
    tokio::time::timeout(within, drained).await.is_ok()
}

/// One number of `/metrics`. A gauge must be there; a counter still at 0 is left
/// out of the exposition, so `counter` reads an absent line as 0.
async fn metric(http: SocketAddr, line: &str) -> i64 {
    metric_line(http, line)
        .await
        .unwrap_or_else(|| panic!("/metrics has no `{line}`"))
}

async fn counter(http: SocketAddr, line: &str) -> i64 {
    assert!(line.starts_with("kith_connection_closes_total{"), "{line}");
    metric_line(http, line).await.unwrap_or(0)
}

async fn metric_line(http: SocketAddr, line: &str) -> Option<i64> {
    let mut s = TcpStream::connect(http).await.expect("connects");
    s.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .expect("writes");
    let mut text = String::new();
    s.read_to_string(&mut text).await.expect("reads");
    assert!(
        text.contains("kith_connections{"),
        "not the metrics: {text}"
    );
    text.lines()
        .find_map(|l| l.strip_prefix(line)?.trim().parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bolt_connection_that_never_says_hello_is_closed_at_its_auth_deadline() {
    let addrs = server(|c| c.auth_deadline_ms = 400).await;
    let mut silent = TcpStream::connect(addrs.bolt).await.expect("connects");
    let started = Instant::now();
    bolt_handshake(&mut silent).await.expect("handshakes");
    let unauthenticated = "kith_connections{transport=\"bolt\",state=\"unauthenticated\"}";
    assert_eq!(metric(addrs.http, unauthenticated).await, 1);
    let message = failure(&mut silent).await;
    assert!(message.contains("auth_deadline_ms"), "{message}");
    assert!(closed_within(&mut silent, Duration::from_secs(1)).await);
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(350) && took < Duration::from_secs(3),
        "closed after {took:?}"
    );
    // A socket that sends nothing at all (not even the handshake) goes the same way.
    let mut mute = TcpStream::connect(addrs.bolt).await.expect("connects");
    assert!(closed_within(&mut mute, Duration::from_secs(2)).await);
    assert_eq!(metric(addrs.http, unauthenticated).await, 0);
    let closes = "kith_connection_closes_total{transport=\"bolt\",reason=\"auth_deadline\"}";
    assert_eq!(counter(addrs.http, closes).await, 2);
    // One that authenticates in time is served past the deadline.
    let mut client = TcpStream::connect(addrs.bolt).await.expect("connects");
    bolt_handshake(&mut client).await.expect("handshakes");
    assert!(authenticate(&mut client).await);
    assert!(!closed_within(&mut client, Duration::from_millis(800)).await);
    let authenticated = "kith_connections{transport=\"bolt\",state=\"authenticated\"}";
    assert_eq!(metric(addrs.http, authenticated).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_sockets_from_many_addresses_never_keep_a_client_from_another_out() {
    let addrs = server(|c| {
        c.connections_max = 3;
        c.unauthenticated_connections_max = 8;
        c.unauthenticated_per_address_max = 4;
        c.auth_deadline_ms = 60_000;
    })
    .await;
    // 10 sockets from one address, then 30 from five others, handshake and fall
    // silent; the pool holds 8, 4 from one address.
    let mut flood = Vec::new();
    let from = (0..10u8).map(|_| 2).chain((0..30u8).map(|i| 3 + i % 5));
    for address in from {
        if let Ok(mut s) = connect_from(address, addrs.bolt).await {
            if bolt_handshake(&mut s).await.is_ok() {
                flood.push(s);
            }
        }
    }
    let pending = "kith_connections{transport=\"bolt\",state=\"unauthenticated\"}";
    // Evicted sockets close a moment later; the pool never holds more than its cap.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(metric(addrs.http, pending).await <= 8);
    // Clients from 127.0.0.1 connect and authenticate, each within a second, up to
    // connections_max; the flood keeps none of those slots.
    for n in 0..3 {
        let started = Instant::now();
        let mut client = TcpStream::connect(addrs.bolt).await.expect("connects");
        bolt_handshake(&mut client).await.expect("handshakes");
        assert!(authenticate(&mut client).await, "client {n} authenticates");
        assert!(started.elapsed() < Duration::from_secs(1));
        flood.push(client);
    }
    let closes = |reason: &str| {
        format!("kith_connection_closes_total{{transport=\"bolt\",reason=\"{reason}\"}}")
    };
    let address_max = counter(addrs.http, &closes("address_max")).await;
    let pool_max = counter(addrs.http, &closes("unauthenticated_max")).await;
    let evicted = counter(addrs.http, &closes("evicted")).await;
    assert_eq!(address_max, 6, "127.0.0.2: 4 of its 10 let in");
    // Every newcomer from a quieter address took a place (127.0.0.2's first, then
    // the oldest of the equally busy); the rest were refused at once.
    // (`/metrics` requests come from 127.0.0.1 too and take places as well.)
    assert!(address_max + pool_max + evicted >= 40 - 8);
    assert!(
        evicted >= 3,
        "each client from 127.0.0.1 took a place: {evicted}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bytes_that_are_no_message_are_answered_failure_at_once() {
    let addrs = server(|c| c.auth_deadline_ms = 30_000).await;
    // Random bytes after the handshake: 16, and 4 KiB (deterministic "random").
    let mut seed = 0x2545_f491_u32;
    let mut noise = |n: usize| -> Vec<u8> {
        (0..n)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                (seed >> 8) as u8
            })
            .collect()
    };
    for bytes in [
        noise(16),
        noise(4096),
        vec![0x00, 0x04, 0x3A, 0x01, 0x02, 0x03],
    ] {
        let mut s = TcpStream::connect(addrs.bolt).await.expect("connects");
        bolt_handshake(&mut s).await.expect("handshakes");
        let started = Instant::now();
        let _ = s.write_all(&bytes).await;
        let message = tokio::time::timeout(Duration::from_secs(2), failure(&mut s))
            .await
            .expect("a FAILURE at once, not after the deadline");
        assert!(
            message.contains("not one starting")
                || message.contains("unknown message")
                || message.contains("bytes before authentication")
                || message.contains("over"),
            "{message}"
        );
        assert!(closed_within(&mut s, Duration::from_secs(1)).await);
        assert!(started.elapsed() < Duration::from_secs(2));
    }
    let invalid = "kith_connection_closes_total{transport=\"bolt\",reason=\"invalid\"}";
    assert_eq!(counter(addrs.http, invalid).await, 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bolt_message_that_stops_arriving_is_closed_at_its_read_deadline() {
    let addrs = server(|c| c.message_read_timeout_ms = 400).await;
    let mut s = TcpStream::connect(addrs.bolt).await.expect("connects");
    bolt_handshake(&mut s).await.expect("handshakes");
    assert!(authenticate(&mut s).await);
    // Idle between messages: kept, however long.
    assert!(!closed_within(&mut s, Duration::from_millis(700)).await);
    // A RUN's first bytes, then nothing.
    s.write_all(&[0x00, 0x20, 0xB3, 0x10, 0x8A])
        .await
        .expect("writes");
    let started = Instant::now();
    let message = failure(&mut s).await;
    assert!(message.contains("message_read_timeout_ms"), "{message}");
    assert!(closed_within(&mut s, Duration::from_secs(1)).await);
    assert!(started.elapsed() >= Duration::from_millis(350));
    let slow = "kith_connection_closes_total{transport=\"bolt\",reason=\"read_deadline\"}";
    assert_eq!(counter(addrs.http, slow).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_connection_must_be_answered_a_request_within_its_deadline() {
    let addrs = server(|c| c.auth_deadline_ms = 400).await;
    // Silent: closed at the deadline, not before.
    let started = Instant::now();
    let mut silent = TcpStream::connect(addrs.http).await.expect("connects");
    assert!(closed_within(&mut silent, Duration::from_secs(2)).await);
    assert!(
        started.elapsed() >= Duration::from_millis(350),
        "{:?}",
        started.elapsed()
    );
    // Headers trickling past the deadline: closed at it.
    let mut trickle = TcpStream::connect(addrs.http).await.expect("connects");
    trickle
        .write_all(b"GET /health HTTP/1.1\r\n")
        .await
        .expect("writes");
    assert!(closed_within(&mut trickle, Duration::from_secs(2)).await);
    // Answered a request (a health check needs no credentials): out of the pool,
    // kept alive past the deadline.
    let mut health = TcpStream::connect(addrs.http).await.expect("connects");
    health
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("writes");
    let mut answer = [0u8; 12];
    health.read_exact(&mut answer).await.expect("answered");
    assert_eq!(&answer, b"HTTP/1.1 200");
    let answered = "kith_connections{transport=\"http\",state=\"answered\"}";
    assert_eq!(metric(addrs.http, answered).await, 1);
    // An authenticated request (an open server authenticates everyone): likewise.
    let mut client = TcpStream::connect(addrs.http).await.expect("connects");
    let body = r#"{"query": "RETURN 1 AS n"}"#;
    let request = format!(
        "POST /v1/cypher HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    client.write_all(request.as_bytes()).await.expect("writes");
    client.read_exact(&mut answer).await.expect("answered");
    assert_eq!(&answer, b"HTTP/1.1 200");
    assert!(!closed_within(&mut health, Duration::from_millis(600)).await);
    assert!(!closed_within(&mut client, Duration::from_millis(10)).await);
    let closes = "kith_connection_closes_total{transport=\"http\",reason=\"auth_deadline\"}";
    assert_eq!(counter(addrs.http, closes).await, 2);
    let authenticated = "kith_connections{transport=\"http\",state=\"authenticated\"}";
    assert!(metric(addrs.http, authenticated).await >= 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_http_socket_gives_way_to_a_client_from_a_quieter_address() {
    let addrs = server(|c| {
        c.unauthenticated_connections_max = 2;
        c.unauthenticated_per_address_max = 2;
        c.auth_deadline_ms = 60_000;
    })
    .await;
    let mut a = connect_from(2, addrs.http).await.expect("connects");
    let mut b = connect_from(2, addrs.http).await.expect("connects");
    tokio::time::sleep(Duration::from_millis(100)).await;
    // The pool is full of 127.0.0.2's: a client from 127.0.0.1 is served.
    let mut client = TcpStream::connect(addrs.http).await.expect("connects");
    client
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .expect("writes");
    let mut text = String::new();
    client.read_to_string(&mut text).await.expect("answered");
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    // The older silent socket gave way.
    assert!(closed_within(&mut a, Duration::from_secs(1)).await);
    assert!(!closed_within(&mut b, Duration::from_millis(100)).await);
    let evicted = "kith_connection_closes_total{transport=\"http\",reason=\"evicted\"}";
    assert!(counter(addrs.http, evicted).await >= 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_body_that_stops_arriving_is_answered_408_and_closed() {
    let addrs = server(|c| c.message_read_timeout_ms = 400).await;
    let mut s = TcpStream::connect(addrs.http).await.expect("connects");
    s.write_all(b"POST /v1/cypher HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"qu")
        .await
        .expect("writes");
    let mut text = String::new();
    let read = tokio::time::timeout(Duration::from_secs(3), s.read_to_string(&mut text)).await;
    assert!(read.is_ok(), "closed within the deadline");
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("message_read_timeout_ms"), "{text}");
    let slow = "kith_connection_closes_total{transport=\"http\",reason=\"read_deadline\"}";
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(counter(addrs.http, slow).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_message_that_stops_arriving_is_closed_with_1008() {
    let addrs = server(|c| c.message_read_timeout_ms = 400).await;
    let mut s = TcpStream::connect(addrs.http).await.expect("connects");
    s.write_all(
        b"GET /v1/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
          Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
    )
    .await
    .expect("writes");
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8; 1];
        s.read_exact(&mut byte).await.expect("the upgrade's answer");
        head.push(byte[0]);
    }
    assert!(head.starts_with(b"HTTP/1.1 101"), "{head:?}");
    // Idle: kept.
    assert!(!closed_within(&mut s, Duration::from_millis(700)).await);
    // Whole messages over longer than the timeout: each one ends the clock the
    // last began (masked pings, each answered with a pong).
    for _ in 0..6 {
        s.write_all(&[0x89, 0x80, 1, 2, 3, 4])
            .await
            .expect("writes");
        let mut pong = [0u8; 2];
        s.read_exact(&mut pong).await.expect("a pong, not a close");
        assert_eq!(pong, [0x8A, 0x00]);
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    // A whole ping and the start of a masked binary frame of 100 bytes in one write
    // (the next frame's start read with the last one's end), then nothing.
    let started = Instant::now();
    s.write_all(&[0x89, 0x80, 1, 2, 3, 4, 0x82, 0x80 | 100, 1, 2])
        .await
        .expect("writes");
    let mut pong = [0u8; 2];
    s.read_exact(&mut pong).await.expect("a pong");
    let mut frame = [0u8; 4];
    tokio::time::timeout(Duration::from_secs(3), s.read_exact(&mut frame))
        .await
        .expect("answered in time")
        .expect("a close frame");
    assert_eq!(frame[0], 0x88, "a close frame");
    assert_eq!(u16::from_be_bytes([frame[2], frame[3]]), 1008);
    assert!(
        started.elapsed() >= Duration::from_millis(350),
        "{:?}",
        started.elapsed()
    );
    let slow = "kith_connection_closes_total{transport=\"ws\",reason=\"read_deadline\"}";
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(counter(addrs.http, slow).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_hello_with_half_a_message_behind_it_is_closed_at_once() {
    let addrs = server(|c| c.connections_max = 1).await;
    let mut first = TcpStream::connect(addrs.bolt).await.expect("connects");
    bolt_handshake(&mut first).await.expect("handshakes");
    assert!(authenticate(&mut first).await, "the one slot");
    // HELLO and LOGON (refused: no slot left) with a NOOP and one byte behind them.
    let mut s = TcpStream::connect(addrs.bolt).await.expect("connects");
    bolt_handshake(&mut s).await.expect("handshakes");
    let mut out = Vec::new();
    for (tag, fields) in [
        (0x01, vec![map(&[("user_agent", "test/1")])]),
        (0x6A, vec![map(&[("scheme", "none")])]),
    ] {
        let start = begin_message(&mut out);
        Packer::new(&mut out).pack(&Pack::Struct(tag, fields));
        end_message(&mut out, start);
    }
    out.extend_from_slice(&[0, 0, 0]);
    s.write_all(&out).await.expect("writes");
    assert!(matches!(recv(&mut s).await, Some(Pack::Struct(SUCCESS, _))));
    let message = failure(&mut s).await;
    assert!(message.contains("connections_max"), "{message}");
    assert!(
        closed_within(&mut s, Duration::from_secs(1)).await,
        "not left hanging"
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    let pending = "kith_connections{transport=\"bolt\",state=\"unauthenticated\"}";
    assert_eq!(metric(addrs.http, pending).await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_logoff_starts_the_deadline_for_the_next_logon() {
    let addrs = server(|c| c.auth_deadline_ms = 400).await;
    let mut s = TcpStream::connect(addrs.bolt).await.expect("connects");
    bolt_handshake(&mut s).await.expect("handshakes");
    assert!(authenticate(&mut s).await);
    tokio::time::sleep(Duration::from_millis(500)).await;
    send(&mut s, 0x6B, vec![]).await; // LOGOFF, past the first deadline: fine
    assert!(matches!(recv(&mut s).await, Some(Pack::Struct(SUCCESS, _))));
    let started = Instant::now();
    let message = failure(&mut s).await;
    assert!(message.contains("auth_deadline_ms"), "{message}");
    assert!(started.elapsed() >= Duration::from_millis(350));
    assert!(closed_within(&mut s, Duration::from_secs(1)).await);
}
