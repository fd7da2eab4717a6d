//! Bad input gets the documented error (or is cut off as documented) while the server
//! keeps serving: garbage frames, truncated documents, oversized frames, unknown
//! procedures, mistyped parameters, text frames, floods, clients that stop reading.

mod support;

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use kith_client::{Client, ClientConfig, ClientError, Compression, Encoding, Subprotocol};
use kith_core::Value;
use kith_protocol::{ErrorCode, FrameHeader, Kind, Request, Wire, HEADER_BYTES};
use support::{int, TestServer};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

async fn raw(server: &TestServer, offer: Option<&str>) -> Socket {
    let mut request = server.ws_url().into_client_request().expect("request");
    if let Some(offer) = offer {
        request.headers_mut().insert(
            "Sec-WebSocket-Protocol",
            HeaderValue::from_str(offer).expect("header"),
        );
    }
    tokio_tungstenite::connect_async(request)
        .await
        .expect("handshake")
        .0
}

/// The next frame: its request id, and `(code, message)` if it is an error.
async fn next_frame(socket: &mut Socket, wire: &Wire) -> (u64, Option<(String, String)>) {
    let message = tokio::time::timeout(Duration::from_secs(10), socket.next())
        .await
        .expect("an answer in time")
        .expect("open")
        .expect("readable");
    let Message::Binary(bytes) = message else {
        panic!("expected a binary frame, got {message:?}")
    };
    let (header, payload) = wire.open(&bytes).expect("a valid frame");
    match header.kind {
        Kind::Error => {
            let e = wire.decode_error(&payload).expect("an error document");
            (header.request_id, Some((e.code, e.message)))
        }
        _ => (header.request_id, None),
    }
}

fn call(procedure: &str, params: Vec<(String, Value)>) -> Request {
    Request::Call {
        procedure: procedure.into(),
        params,
        timing: false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_frames_get_errors_and_the_connection_keeps_serving() {
    let server = TestServer::start(0.1, |_| {}).await;
    let sub = Subprotocol {
        encoding: Encoding::Bson,
        compression: Compression::None,
    };
    let wire = Wire::new(sub, 1 << 20);
    let mut socket = raw(&server, Some(&sub.to_string())).await;

    let mut cases: Vec<(Vec<u8>, u64, &str, &str)> = vec![
        (
            vec![0xde, 0xad, 0xbe],
            0,
            "bad_frame",
            "shorter than the 12-byte header",
        ),
        (
            [&[9u8, 1, 0, 0][..], &7u64.to_le_bytes()].concat(),
            7,
            "bad_frame",
            "protocol version 9",
        ),
        (
            [&[1u8, 16, 0, 0][..], &8u64.to_le_bytes()].concat(),
            8,
            "bad_frame",
            "only REQUEST frames",
        ),
    ];
    let good = wire.request(9, &call("shindig.friends", vec![int("person_id", 1)]));
    let truncated = good[..good.len() - 5].to_vec();
    cases.push((truncated, 9, "bad_request", "bson"));
    let mut compressed_on_plain =
        wire.request(10, &call("shindig.friends", vec![int("person_id", 1)]));
    compressed_on_plain[2] = 1;
    cases.push((compressed_on_plain, 10, "bad_frame", "without compression"));
    cases.push((
        wire.request(11, &call("shindig.freinds", vec![int("person_id", 1)])),
        11,
        "unknown_procedure",
        "did you mean shindig.friends",
    ));
    cases.push((
        wire.request(
            12,
            &call(
                "shindig.friends",
                vec![("person_id".into(), Value::string("abc"))],
            ),
        ),
        12,
        "wrong_parameter_type",
        "must be Int, got String \"abc\"",
    ));
    cases.push((
        wire.request(13, &call("shindig.friends", vec![])),
        13,
        "missing_parameter",
        "person_id",
    ));
    cases.push((
        wire.request(
            14,
            &call("shindig.friends", vec![int("person_id", 999_999)]),
        ),
        14,
        "not_found",
        "no Person with id 999999",
    ));

    for (bytes, id, code, needle) in cases {
        socket
            .send(Message::Binary(bytes.into()))
            .await
            .expect("sends");
        let (got_id, error) = next_frame(&mut socket, &wire).await;
        let (got_code, message) =
            error.unwrap_or_else(|| panic!("expected {code} for request {id}"));
        assert_eq!((got_id, got_code.as_str()), (id, code), "{message}");
        assert!(
            message.contains(needle),
            "{code}: `{message}` lacks `{needle}`"
        );
    }
    socket
        .send(Message::Text("hello".into()))
        .await
        .expect("sends");
    let (_, error) = next_frame(&mut socket, &wire).await;
    assert_eq!(error.map(|e| e.0).as_deref(), Some("bad_frame"));

    // After all that, the same connection still answers.
    socket
        .send(Message::Binary(good.into()))
        .await
        .expect("sends");
    let (id, error) = next_frame(&mut socket, &wire).await;
    assert_eq!((id, error), (9, None));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_frame_closes_that_connection_with_1009_only() {
    let server = TestServer::start(0.1, |c| c.frame_bytes_max = 2_000).await;
    let wire = Wire::new(Subprotocol::DEFAULT, 1 << 20);
    let bystander = Client::connect(ClientConfig::new(server.ws_url()))
        .await
        .expect("connects");
    let mut socket = raw(&server, None).await;
    let huge = wire.request(5, &call(&"x".repeat(10_000), vec![]));
    socket
        .send(Message::Binary(huge.into()))
        .await
        .expect("sends");
    let (id, error) = next_frame(&mut socket, &wire).await;
    let (code, message) = error.expect("an error");
    assert_eq!((id, code.as_str()), (0, "frame_too_large"), "{message}");
    assert!(message.contains("2000-byte limit"), "{message}");
    let close = tokio::time::timeout(Duration::from_secs(5), socket.next())
        .await
        .expect("closes in time");
    match close {
        Some(Ok(Message::Close(Some(frame)))) => assert_eq!(u16::from(frame.code), 1009),
        other => panic!("expected a 1009 close, got {other:?}"),
    }
    bystander
        .call("shindig.friends", vec![int("person_id", 1)])
        .await
        .expect("others are served");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unsupported_subprotocols_are_refused_at_the_handshake() {
    let server = TestServer::start(0.1, |_| {}).await;
    let mut request = server.ws_url().into_client_request().expect("request");
    request.headers_mut().insert(
        "Sec-WebSocket-Protocol",
        HeaderValue::from_static("kith.v1.xml.none, graphql-ws"),
    );
    let err = tokio_tungstenite::connect_async(request)
        .await
        .expect_err("refused");
    assert!(err.to_string().contains("400"), "{err}");
    // No offer at all means kith.v1.json.none.
    let wire = Wire::new(Subprotocol::DEFAULT, 1 << 20);
    let mut socket = raw(&server, None).await;
    socket
        .send(Message::Binary(
            wire.request(1, &call("shindig.friends", vec![int("person_id", 1)]))
                .into(),
        ))
        .await
        .expect("sends");
    assert_eq!(next_frame(&mut socket, &wire).await, (1, None));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn floods_are_answered_busy_and_slow_queries_timeout_without_harm() {
    let server = TestServer::start(1.0, |c| {
        c.workers = 1;
        c.inflight_per_connection_max = 3;
    })
    .await;
    let client = Client::connect(ClientConfig::new(server.ws_url()))
        .await
        .expect("connects");
    let heavy = vec![int("person_id", 1)];
    let answers = futures_util::future::join_all(
        (0..40).map(|_| client.call("shindig.friends_of_friends_3", heavy.clone())),
    )
    .await;
    let busy = answers
        .iter()
        .filter(|a| a.as_ref().err().and_then(ClientError::code) == Some(ErrorCode::Busy))
        .count();
    let ok = answers.iter().filter(|a| a.is_ok()).count();
    assert!(
        busy > 0,
        "40 pipelined calls against an in-flight limit of 3 meet `busy`"
    );
    assert_eq!(
        busy + ok,
        40,
        "every call is answered or refused busy: {answers:?}"
    );
    // After a `busy` the server reads none of the connection's requests until one
    // finishes, so every `busy` but the first follows an accepted call: a flood
    // cannot make the server answer `busy` as fast as it sends.
    assert!(
        ok >= busy,
        "{ok} answered, {busy} busy: the server read on past its limit"
    );
    server.stop().await;

    let server = TestServer::start(1.0, |c| {
        c.workers = 1;
        c.query_timeout_ms = 1;
    })
    .await;
    let client = Client::connect(ClientConfig::new(server.ws_url()))
        .await
        .expect("connects");
    let answers = futures_util::future::join_all(
        (0..20).map(|_| client.call("shindig.friend_recommendations", heavy.clone())),
    )
    .await;
    let timeouts = answers
        .iter()
        .filter(|a| a.as_ref().err().and_then(ClientError::code) == Some(ErrorCode::Timeout))
        .count();
    assert!(
        timeouts > 0,
        "20 queued 1.5 ms queries against a 1 ms timeout time out"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_is_cut_off_while_others_are_served() {
    let server = TestServer::start(1.0, |c| c.write_stall_timeout_ms = 300).await;
    let wire = Wire::new(Subprotocol::DEFAULT, 64 << 20);
    let mut stalled = raw(&server, None).await;
    // 200 answers of ~100 kB each: far more than the socket buffers hold.
    for id in 1..=200u64 {
        let frame = wire.request(
            id,
            &call(
                "shindig.friends_of_friends_3",
                vec![int("person_id", 1 + id as i64)],
            ),
        );
        stalled
            .send(Message::Binary(frame.into()))
            .await
            .expect("sends");
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let other = Client::connect(ClientConfig::new(server.ws_url()))
        .await
        .expect("connects");
    let answer = tokio::time::timeout(
        Duration::from_secs(5),
        other.call("shindig.friends", vec![int("person_id", 3)]),
    )
    .await;
    assert!(
        answer.expect("in time").is_ok(),
        "another client is served while one stalls"
    );
    // Draining the stalled socket now ends in the documented close, not 200 answers.
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    let mut results = 0;
    let mut closed_with = None;
    while let Ok(Some(message)) = tokio::time::timeout(Duration::from_secs(5), stalled.next()).await
    {
        match message {
            Ok(Message::Binary(bytes)) => {
                let (header, _) = FrameHeader::read(&bytes).expect("frame");
                if header.flags & kith_protocol::FLAG_MORE == 0 {
                    results += 1;
                }
                assert!(bytes.len() >= HEADER_BYTES);
            }
            Ok(Message::Close(frame)) => {
                closed_with = frame.map(|f| (u16::from(f.code), f.reason.to_string()));
                break;
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    assert!(
        results < 200,
        "the stalled client did not get every answer ({results})"
    );
    if let Some((code, reason)) = closed_with {
        assert_eq!((code, reason.as_str()), (1008, "write stalled"));
    }
    server.stop().await;
}

/// The server's `/metrics` text.
async fn metrics(server: &TestServer) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let host = server.ws_url().replace("ws://", "").replace("/v1/ws", "");
    let mut tcp = TcpStream::connect(&host).await.expect("connects");
    let get = format!("GET /metrics HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    tcp.write_all(get.as_bytes()).await.expect("sends");
    let mut text = String::new();
    tcp.read_to_string(&mut text).await.expect("reads");
    text
}

/// One metric's value (0 if it has not been recorded yet).
async fn metric(server: &TestServer, name: &str) -> u64 {
    let text = metrics(server).await;
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .map_or(0, |n| n.trim().parse().expect("a number"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_pipelines_faster_than_it_reads_is_paced_not_buffered() {
    let server = TestServer::start(1.0, |c| {
        c.answer_queue_bytes_max = 1 << 20;
        c.write_stall_timeout_ms = 60_000;
    })
    .await;
    let wire = Wire::new(Subprotocol::DEFAULT, 64 << 20);
    let (mut sink, mut stream) = raw(&server, None).await.split();
    let request = |id: u64, procedure: &str| {
        let person = 1 + (id % 500) as i64;
        let frame = wire.request(id, &call(procedure, vec![int("person_id", person)]));
        Message::Binary(frame.into())
    };
    // 200 answers of ~100 kB: far more than the socket buffers hold, so once the
    // workers are done most of them wait in the connection's answer queue.
    let heavy = 200u64;
    for id in 1..=heavy {
        let message = request(id, "shindig.friends_of_friends_3");
        sink.send(message).await.expect("sends");
    }
    // Until every one is answered (queued for the socket), whatever the machine's load.
    let done = "kith_request_duration_seconds_count{transport=\"ws\",procedure=\"shindig.friends_of_friends_3\"}";
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while metric(&server, done).await < heavy {
        assert!(
            std::time::Instant::now() < deadline,
            "the heavy requests did not finish"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The client now reads, slowly: each frame it takes lets the server write one
    // more. Unpaced, the server would take every request that has arrived between
    // two frames it writes, and queue an answer (or a `busy`) for each.
    let wire_r = wire;
    let reader = tokio::spawn(async move {
        let mut answered = std::collections::HashSet::new();
        let mut frames = 0u64;
        while answered.len() < 5_200 {
            let wait = Duration::from_secs(30);
            let message = tokio::time::timeout(wait, stream.next())
                .await
                .expect("an answer in time")
                .expect("open")
                .expect("readable");
            let Message::Binary(bytes) = message else {
                continue;
            };
            let (header, payload) = wire_r.open(&bytes).expect("a valid frame");
            if header.kind == Kind::Error {
                let e = wire_r.decode_error(&payload).expect("an error document");
                assert_eq!(e.code, "busy", "{}: {}", header.request_id, e.message);
            }
            if header.flags & kith_protocol::FLAG_MORE == 0 {
                assert!(answered.insert(header.request_id), "answered twice");
            }
            frames += 1;
            if frames < 100 {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        answered.len()
    });
    let before = metric(&server, "kith_bytes_in_total").await;
    let light = 5_000u64;
    let mut light_bytes = 0;
    for id in heavy + 1..=heavy + light {
        let message = request(id, "shindig.profile");
        light_bytes += message.len() as u64;
        sink.send(message).await.expect("sends");
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let during = metric(&server, "kith_bytes_in_total").await - before;
    assert!(
        during < light_bytes / 20,
        "the server read {during} of {light_bytes} request bytes while 1 MiB of answers waited"
    );
    // Then the reader speeds up: every request gets its answer (or `busy`), once.
    let answered = reader.await.expect("the reader");
    assert_eq!(answered as u64, heavy + light);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_past_the_cap_are_refused_and_closed_ones_free_their_slot() {
    let server = TestServer::start(0.1, |c| c.connections_max = 3).await;
    // Twelve handshakes at once: exactly three get in, however they interleave.
    let attempts = (0..12).map(|_| {
        let url = server.ws_url();
        tokio::spawn(async move { tokio_tungstenite::connect_async(url).await })
    });
    let mut open = Vec::new();
    let mut refused = 0;
    for attempt in attempts {
        match attempt.await.expect("task") {
            Ok((socket, _)) => open.push(socket),
            Err(tokio_tungstenite::tungstenite::Error::Http(answer)) => {
                assert_eq!(answer.status(), 503, "refused as busy");
                refused += 1;
            }
            Err(e) => panic!("unexpected handshake error: {e}"),
        }
    }
    assert_eq!((open.len(), refused), (3, 9));
    assert_eq!(metric(&server, "kith_connections_open").await, 3);
    // A closed connection gives its slot back; a refused handshake never took one.
    let mut first = open.pop().expect("one");
    first.close(None).await.expect("closes");
    drop(first);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while metric(&server, "kith_connections_open").await != 2 {
        assert!(
            std::time::Instant::now() < deadline,
            "the slot was not freed"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let again = raw(&server, None).await;
    assert_eq!(metric(&server, "kith_connections_open").await, 3);
    drop((again, open));
    server.stop().await;
}

/// Slowloris: connections that trickle their headers are closed when the header
/// timeout runs out, and a flood of connections past `http_connections_max` is closed
/// at once; meanwhile a well-behaved client is answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slowloris_and_connection_floods_are_closed_while_others_are_served() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = TestServer::start(0.1, |c| {
        c.http_connections_max = 20;
        c.http_header_timeout_ms = 1_000;
    })
    .await;
    // Ten slow clients: each sends a little of its headers every 200 ms.
    let mut slow = Vec::new();
    for _ in 0..10 {
        let mut s = TcpStream::connect(server.addr).await.expect("connects");
        s.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n")
            .await
            .expect("writes");
        slow.push(s);
    }
    // Within the timeout they stay open: the server does not cut a slow client short.
    tokio::time::sleep(Duration::from_millis(400)).await;
    for s in &mut slow {
        s.write_all(b"X-Slow: 1\r\n")
            .await
            .expect("still open within the timeout");
        let mut byte = [0u8; 1];
        let read = tokio::time::timeout(Duration::from_millis(20), s.read(&mut byte)).await;
        assert!(
            read.is_err(),
            "a slow connection was closed within the timeout: {read:?}"
        );
    }
    // A flood: 200 connections at once, past the cap of 20 (the slow ten included).
    let mut flood = Vec::new();
    for _ in 0..200 {
        if let Ok(s) = TcpStream::connect(server.addr).await {
            flood.push(s);
        }
    }
    let mut closed_at_once = 0;
    for s in &mut flood {
        let mut byte = [0u8; 1];
        let read = tokio::time::timeout(Duration::from_millis(50), s.read(&mut byte)).await;
        if let Ok(Ok(0) | Err(_)) = read {
            closed_at_once += 1;
        }
    }
    assert!(
        closed_at_once >= 150,
        "only {closed_at_once} of 200 flood connections were closed at once"
    );
    drop(flood);
    // A real client is answered once the flood's slots are free again (the server
    // sees the flood's connections close a moment after they do).
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (status, _) = server.http("GET", "/health", "").await;
    assert_eq!(status, 200);
    // The slow clients keep trickling; the header timeout closes every one.
    let started = std::time::Instant::now();
    let mut open = slow.len();
    while open > 0 && started.elapsed() < Duration::from_secs(5) {
        tokio::time::sleep(Duration::from_millis(200)).await;
        open = 0;
        for s in &mut slow {
            if s.write_all(b"X-Slow: 1\r\n").await.is_ok() {
                let mut byte = [0u8; 1];
                if let Ok(Ok(n)) =
                    tokio::time::timeout(Duration::from_millis(1), s.read(&mut byte)).await
                {
                    if n == 0 {
                        continue;
                    }
                }
                open += 1;
            }
        }
    }
    assert_eq!(open, 0, "slowloris connections outlived the header timeout");
    assert!(metric(&server, "kith_http_connections_refused_total").await >= 150);
    server.stop().await;
}

/// Deeply nested values and queries, and parameters past the frame limit, over
/// HTTP: each is refused with a clear error naming what was wrong, quickly, and the
/// server keeps serving.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deep_nesting_and_oversized_parameters_are_refused_by_name() {
    let server = TestServer::start(0.1, |c| c.frame_bytes_max = 64 * 1024).await;
    let deep_value = format!("{}1{}", "[".repeat(20_000), "]".repeat(20_000));
    let body = format!(r#"{{"query": "RETURN $p", "params": {{"p": {deep_value}}}}}"#);
    let (status, answer) = server.http("POST", "/v1/cypher", &body).await;
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer.contains("nest") || answer.contains("recursion limit"),
        "{answer}"
    );
    let deep_query = format!("RETURN {}1{}", "(".repeat(20_000), ")".repeat(20_000));
    let body = format!(r#"{{"query": "{deep_query}"}}"#);
    let (status, answer) = server.http("POST", "/v1/cypher", &body).await;
    assert_eq!(status, 400, "{answer}");
    assert!(answer.contains("nests deeper than"), "{answer}");
    let big = "x".repeat(200 * 1024);
    let body = format!(r#"{{"query": "RETURN $p", "params": {{"p": "{big}"}}}}"#);
    let (status, answer) = server.http("POST", "/v1/cypher", &body).await;
    assert_eq!(status, 413, "{answer}");
    // Still serving.
    let (status, answer) = server
        .http("POST", "/v1/cypher", r#"{"query": "RETURN 1 AS one"}"#)
        .await;
    assert_eq!(status, 200, "{answer}");
    server.stop().await;
}
