//! The attacks: each runs as tasks until told to stop and counts what it got back by
//! outcome. Attacks that cost the attacker CPU (handshakes, oversized frames, deep
//! nesting) are paced at a stated rate: attacker, server and the well-behaved load
//! share one machine, and an unpaced loop would measure the attacker's CPU use, not
//! the server's policy.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use kith_protocol::{ErrorCode, Kind, Request, Subprotocol, Wire, FLAG_MORE};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::{self, Message};

use super::Limits;
use crate::throughput::Call;

/// Each attack the experiment runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attack {
    /// No attack: the baseline.
    None,
    /// 20x `connections_max` WebSocket handshakes, each retried a second after it is
    /// refused; those let in are held open.
    WsConnections,
    /// 20x `http_connections_max` TCP connections to the HTTP port that send nothing,
    /// each reconnecting a second after it is closed.
    HttpConnections,
    /// 2x `http_connections_max` connections sending their headers a line every
    /// 500 ms (slowloris).
    Slowloris,
    /// Four connections sending the read mix as fast as the server takes it, never
    /// waiting for an answer.
    PipelinedFlood,
    /// Eight connections sending the read mix and never reading their answers.
    SlowReaders,
    /// Frames of twice `frame_bytes_max`, 40 a second, each on a new connection.
    OversizedFrames,
    /// HTTP Cypher requests whose parameter or query nests 20,000 deep, 100 a second.
    DeepNesting,
}

impl Attack {
    /// Every attack, in the order run.
    pub const ALL: [Attack; 7] = [
        Attack::WsConnections,
        Attack::HttpConnections,
        Attack::Slowloris,
        Attack::PipelinedFlood,
        Attack::SlowReaders,
        Attack::OversizedFrames,
        Attack::DeepNesting,
    ];

    /// Its short name (`kith bench overload --only`).
    pub fn name(&self) -> &'static str {
        match self {
            Attack::None => "none",
            Attack::WsConnections => "ws-connections",
            Attack::HttpConnections => "http-connections",
            Attack::Slowloris => "slowloris",
            Attack::PipelinedFlood => "flood",
            Attack::SlowReaders => "slow-readers",
            Attack::OversizedFrames => "oversized-frames",
            Attack::DeepNesting => "deep-nesting",
        }
    }

    /// The attack named `name`, or an error listing the names.
    pub fn by_name(name: &str) -> Result<Attack, String> {
        Attack::ALL
            .into_iter()
            .find(|a| a.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Attack::ALL.iter().map(Attack::name).collect();
                format!(
                    "no attack named `{name}`; the attacks: {}",
                    names.join(", ")
                )
            })
    }

    /// A line for the report.
    pub fn describe(&self, l: &Limits) -> String {
        match self {
            Attack::None => "none (baseline)".into(),
            Attack::WsConnections => format!(
                "{} WebSocket handshakes (20x connections_max), retried after 1 s",
                20 * l.connections_max
            ),
            Attack::HttpConnections => format!(
                "{} idle HTTP connections (20x http_connections_max), reopened after 1 s",
                20 * l.http_connections_max
            ),
            Attack::Slowloris => format!(
                "slowloris: {} HTTP connections, a header line every 500 ms",
                2 * l.http_connections_max
            ),
            Attack::PipelinedFlood => "pipelined flood: 4 connections, never waiting".into(),
            Attack::SlowReaders => "slow readers: 8 connections that never read".into(),
            Attack::OversizedFrames => format!(
                "oversized frames: {} bytes, 40/s, a new connection each",
                2 * l.frame_bytes_max
            ),
            Attack::DeepNesting => "deep nesting over HTTP: 20,000 levels, 100/s".into(),
        }
    }

    /// Starts the attack's tasks on `rt` (a runtime of their own: on the load's, a
    /// flood's busy loops would delay the load's own tasks and be counted as the
    /// server's latency); they stop soon after `stop` is set.
    pub(super) fn start(
        self,
        rt: &tokio::runtime::Handle,
        addr: SocketAddr,
        limits: Limits,
        calls: Arc<Vec<Call>>,
        stop: &Arc<AtomicBool>,
        tallies: &Tallies,
    ) -> Vec<JoinHandle<()>> {
        let spawn_n = |n: usize, f: &dyn Fn(usize) -> JoinHandle<()>| (0..n).map(f).collect();
        let (stop, t) = (stop.clone(), tallies.clone());
        match self {
            Attack::None => Vec::new(),
            Attack::WsConnections => spawn_n(20 * limits.connections_max, &|_| {
                rt.spawn(ws_connection(addr, stop.clone(), t.clone()))
            }),
            Attack::HttpConnections => spawn_n(20 * limits.http_connections_max, &|_| {
                rt.spawn(http_connection(addr, None, stop.clone(), t.clone()))
            }),
            Attack::Slowloris => spawn_n(2 * limits.http_connections_max, &|_| {
                let trickle = Some(Duration::from_millis(500));
                rt.spawn(http_connection(addr, trickle, stop.clone(), t.clone()))
            }),
            Attack::PipelinedFlood => spawn_n(4, &|_| {
                rt.spawn(pipelined(addr, calls.clone(), stop.clone(), t.clone()))
            }),
            Attack::SlowReaders => spawn_n(8, &|_| {
                rt.spawn(slow_reader(addr, calls.clone(), stop.clone(), t.clone()))
            }),
            Attack::OversizedFrames => spawn_n(4, &|_| {
                let bytes = 2 * limits.frame_bytes_max;
                rt.spawn(oversized(addr, bytes, stop.clone(), t.clone()))
            }),
            Attack::DeepNesting => spawn_n(2, &|i| {
                rt.spawn(deep_nesting(addr, i, stop.clone(), t.clone()))
            }),
        }
    }
}

/// What the attacker got back, counted by outcome.
#[derive(Clone, Default)]
pub(super) struct Tallies(Arc<Mutex<BTreeMap<&'static str, u64>>>);

impl Tallies {
    fn add(&self, outcome: &'static str) {
        *self
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(outcome)
            .or_default() += 1;
    }

    pub(super) fn snapshot(&self) -> Vec<(&'static str, u64)> {
        let map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        map.iter().map(|(k, v)| (*k, *v)).collect()
    }
}

/// Sleeps `d`, or less once `stop` is set; false if it was.
async fn pause(d: Duration, stop: &AtomicBool) -> bool {
    let until = Instant::now() + d;
    while Instant::now() < until {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(50).min(until - Instant::now())).await;
    }
    !stop.load(Ordering::Relaxed)
}

fn ws_url(addr: SocketAddr) -> String {
    format!("ws://{addr}/v1/ws")
}

/// One handshake slot of the connection flood.
async fn ws_connection(addr: SocketAddr, stop: Arc<AtomicBool>, t: Tallies) {
    while !stop.load(Ordering::Relaxed) {
        match tokio_tungstenite::connect_async(ws_url(addr)).await {
            Ok((socket, _)) => {
                t.add("handshakes let in (held open)");
                while pause(Duration::from_secs(1), &stop).await {}
                drop(socket);
                return;
            }
            Err(tungstenite::Error::Http(r)) if r.status().as_u16() == 503 => {
                t.add("refused 503");
            }
            // Past `http_connections_max` the HTTP layer closes a connection before it
            // can ask for the upgrade.
            Err(_) => t.add("handshakes cut before the upgrade"),
        }
        pause(Duration::from_secs(1), &stop).await;
    }
}

/// One connection of the idle flood (`trickle` None) or of slowloris (a header line
/// every `trickle`): how soon the server closes it.
async fn http_connection(
    addr: SocketAddr,
    trickle: Option<Duration>,
    stop: Arc<AtomicBool>,
    t: Tallies,
) {
    while !stop.load(Ordering::Relaxed) {
        let Ok(mut s) = TcpStream::connect(addr).await else {
            t.add("connects failed");
            pause(Duration::from_secs(1), &stop).await;
            continue;
        };
        let opened = Instant::now();
        if trickle.is_some() && s.write_all(b"GET /health HTTP/1.1\r\n").await.is_err() {
            t.add("closed within 100 ms");
            continue;
        }
        if !wait_closed(&mut s, trickle, &stop).await {
            return;
        }
        t.add(if opened.elapsed() < Duration::from_millis(100) {
            "closed within 100 ms"
        } else {
            "closed later (header timeout)"
        });
        pause(Duration::from_secs(1), &stop).await;
    }
}

/// Waits until the server closes `s`, writing a header line every `trickle`; false
/// if `stop` came first.
async fn wait_closed(s: &mut TcpStream, trickle: Option<Duration>, stop: &AtomicBool) -> bool {
    let step = trickle.unwrap_or(Duration::from_millis(200));
    let mut byte = [0u8; 1];
    loop {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        match tokio::time::timeout(step, s.read(&mut byte)).await {
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => {} // an answer (a 408 or similar) before the close
            Err(_) => {
                if trickle.is_some() && s.write_all(b"X-Slow: 1\r\n").await.is_err() {
                    return true;
                }
            }
        }
    }
}

/// A connection that sends the read mix as fast as the server reads it and counts
/// its answers by kind.
async fn pipelined(addr: SocketAddr, calls: Arc<Vec<Call>>, stop: Arc<AtomicBool>, t: Tallies) {
    let Ok((socket, _)) = tokio_tungstenite::connect_async(ws_url(addr)).await else {
        t.add("handshakes failed");
        return;
    };
    let wire = Wire::new(Subprotocol::DEFAULT, 64 << 20);
    let (mut sink, mut stream) = socket.split();
    let writer_stop = stop.clone();
    let writer = tokio::spawn(async move {
        let mut id = 0u64;
        while !writer_stop.load(Ordering::Relaxed) {
            id += 1;
            let frame = wire.request(id, &call(&calls, id as usize));
            if sink.send(Message::Binary(frame.into())).await.is_err() {
                return;
            }
        }
    });
    let wire = Wire::new(Subprotocol::DEFAULT, 64 << 20);
    while !stop.load(Ordering::Relaxed) {
        match tokio::time::timeout(Duration::from_millis(200), stream.next()).await {
            Ok(Some(Ok(Message::Binary(bytes)))) => t.add(answer_kind(&wire, &bytes)),
            Ok(Some(Ok(_))) | Err(_) => {}
            Ok(None | Some(Err(_))) => {
                t.add("connections closed by the server");
                break;
            }
        }
    }
    writer.abort();
}

/// What one answer frame was: a result's last frame, an error by code, or a part.
fn answer_kind(wire: &Wire, bytes: &[u8]) -> &'static str {
    let Ok((header, payload)) = wire.open(bytes) else {
        return "unreadable frames";
    };
    if header.kind == Kind::Error {
        let code = wire.decode_error(&payload).map(|e| e.code);
        return match code.as_deref() {
            Ok(c) if c == ErrorCode::Busy.as_str() => "answered busy",
            Ok(c) if c == ErrorCode::Timeout.as_str() => "answered timeout",
            _ => "answered another error",
        };
    }
    if header.flags & FLAG_MORE == 0 {
        "results"
    } else {
        "result parts"
    }
}

fn call(calls: &[Call], i: usize) -> Request {
    let (procedure, params) = &calls[i % calls.len()];
    Request::Call {
        procedure: (*procedure).into(),
        params: params.clone(),
        timing: false,
    }
}

/// A connection that sends a request every 10 ms and never reads; once the server
/// closes it (a send fails), another takes its place.
async fn slow_reader(addr: SocketAddr, calls: Arc<Vec<Call>>, stop: Arc<AtomicBool>, t: Tallies) {
    let wire = Wire::new(Subprotocol::DEFAULT, 64 << 20);
    while !stop.load(Ordering::Relaxed) {
        let Ok((mut socket, _)) = tokio_tungstenite::connect_async(ws_url(addr)).await else {
            t.add("handshakes failed");
            pause(Duration::from_secs(1), &stop).await;
            continue;
        };
        let opened = Instant::now();
        let mut id = 0u64;
        loop {
            id += 1;
            let frame = wire.request(id, &call(&calls, id as usize));
            let sent = tokio::time::timeout(
                Duration::from_secs(1),
                socket.send(Message::Binary(frame.into())),
            )
            .await;
            if !matches!(sent, Ok(Ok(()))) {
                t.add("closed by the server");
                break;
            }
            if !pause(Duration::from_millis(10), &stop).await {
                return;
            }
        }
        if opened.elapsed() < Duration::from_millis(100) {
            t.add("closed within 100 ms");
        }
    }
}

/// Frames of `bytes` on a new connection each, 10 a second per task: what the server
/// closes them with.
async fn oversized(addr: SocketAddr, bytes: usize, stop: Arc<AtomicBool>, t: Tallies) {
    let payload = vec![0u8; bytes];
    while !stop.load(Ordering::Relaxed) {
        let started = Instant::now();
        if let Ok((mut socket, _)) = tokio_tungstenite::connect_async(ws_url(addr)).await {
            let _ = socket.send(Message::Binary(payload.clone().into())).await;
            t.add(close_code(&mut socket).await);
        } else {
            t.add("handshakes failed");
        }
        pause(
            Duration::from_millis(100).saturating_sub(started.elapsed()),
            &stop,
        )
        .await;
    }
}

/// How the server ended the connection.
async fn close_code(
    socket: &mut tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
) -> &'static str {
    loop {
        match tokio::time::timeout(Duration::from_secs(5), socket.next()).await {
            Ok(Some(Ok(Message::Close(Some(frame))))) if u16::from(frame.code) == 1009 => {
                return "closed with 1009";
            }
            Ok(Some(Ok(Message::Close(_)))) => return "closed with another code",
            Ok(Some(Ok(_))) => {}
            Ok(None | Some(Err(_))) => return "connections cut without a close frame",
            Err(_) => return "left open",
        }
    }
}

/// HTTP Cypher requests nesting 20,000 deep (a parameter, then a query, in turn),
/// 50 a second per task on one keep-alive connection: their statuses.
async fn deep_nesting(addr: SocketAddr, task: usize, stop: Arc<AtomicBool>, t: Tallies) {
    let value = format!("{}1{}", "[".repeat(20_000), "]".repeat(20_000));
    let query = format!("RETURN {}1{}", "(".repeat(20_000), ")".repeat(20_000));
    let bodies = [
        format!(r#"{{"query": "RETURN $p", "params": {{"p": {value}}}}}"#),
        format!(r#"{{"query": "{query}"}}"#),
    ];
    let mut connection: Option<TcpStream> = None;
    let mut i = task;
    while !stop.load(Ordering::Relaxed) {
        let started = Instant::now();
        if connection.is_none() {
            connection = TcpStream::connect(addr).await.ok();
        }
        let Some(s) = connection.as_mut() else {
            t.add("connects failed");
            pause(Duration::from_secs(1), &stop).await;
            continue;
        };
        match post(s, addr, "/v1/cypher", &bodies[i % 2]).await {
            Some(400) => t.add("answered 400"),
            Some(_) => t.add("answered another status"),
            None => {
                t.add("connections closed by the server");
                connection = None;
            }
        }
        i += 1;
        pause(
            Duration::from_millis(20).saturating_sub(started.elapsed()),
            &stop,
        )
        .await;
    }
}

/// One HTTP/1.1 POST on a keep-alive connection: the answer's status, its body read
/// and dropped; None if the connection failed.
async fn post(s: &mut TcpStream, addr: SocketAddr, path: &str, body: &str) -> Option<u16> {
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).await.ok()?;
    s.write_all(body.as_bytes()).await.ok()?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let (status, end, length) = loop {
        let n = tokio::time::timeout(Duration::from_secs(10), s.read(&mut chunk))
            .await
            .ok()?
            .ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(parsed) = parse_head(&buf) {
            break parsed;
        }
    };
    while buf.len() < end + length {
        let n = s.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    Some(status)
}

/// An answer's status, where its head ends and its body's length, once the head is
/// in `buf`.
fn parse_head(buf: &[u8]) -> Option<(u16, usize, usize)> {
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    let head = std::str::from_utf8(&buf[..end]).ok()?;
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    let length = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().parse().unwrap_or(0))
        })
        .unwrap_or(0);
    Some((status, end, length))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_attack_is_found_by_its_name_and_an_unknown_name_lists_them() {
        for attack in Attack::ALL {
            assert_eq!(Attack::by_name(attack.name()), Ok(attack));
        }
        let error = Attack::by_name("ddos").expect_err("no such attack");
        assert!(
            error.contains("`ddos`") && error.contains("flood, slow-readers"),
            "{error}"
        );
    }

    #[test]
    fn an_answer_head_gives_status_and_length() {
        let head = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 12\r\n\r\n{\"x\": 1}";
        let body_at = head.len() - b"{\"x\": 1}".len();
        assert_eq!(parse_head(head), Some((400, body_at, 12)));
        assert_eq!(parse_head(b"HTTP/1.1 200 OK\r\n"), None);
    }

    #[test]
    fn frames_are_told_apart_by_kind() {
        let wire = Wire::new(Subprotocol::DEFAULT, 1 << 20);
        let busy = wire.error(7, ErrorCode::Busy, "too many in flight");
        assert_eq!(answer_kind(&wire, &busy), "answered busy");
        let other = wire.error(8, ErrorCode::Timeout, "too slow");
        assert_eq!(answer_kind(&wire, &other), "answered timeout");
        assert_eq!(answer_kind(&wire, b"junk"), "unreadable frames");
    }
}
