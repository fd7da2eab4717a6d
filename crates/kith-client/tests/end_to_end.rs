//! Every procedure answers identically in-process, over HTTP, and over WebSocket with
//! every encoding x compression; pipelining, chunking, pools, round-robin and
//! reconnection work against a real server.

mod support;

use std::time::Duration;

use kith_client::{Client, ClientConfig, ClientError, Compression, Encoding, Subprotocol};
use kith_core::Value;
use kith_protocol::{Encoding as WireEncoding, ResultChunk};
use support::{int, one_call_each, TestServer};

fn config(server: &TestServer, subprotocol: Subprotocol) -> ClientConfig {
    ClientConfig {
        subprotocol,
        ..ClientConfig::new(server.ws_url())
    }
}

fn to_json_body(params: &[(String, Value)]) -> String {
    let map: serde_json::Map<String, serde_json::Value> = params
        .iter()
        .map(|(k, v)| {
            let json = match v {
                Value::Int(i) => serde_json::json!(i),
                Value::List(items) => items
                    .iter()
                    .filter_map(Value::as_int)
                    .collect::<Vec<_>>()
                    .into(),
                other => panic!("test parameters are ints, got {other:?}"),
            };
            (k.clone(), json)
        })
        .collect();
    serde_json::Value::Object(map).to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_procedure_is_identical_in_process_over_http_and_every_ws_subprotocol() {
    let server = TestServer::start(0.1, |_| {}).await;
    let calls = one_call_each(&server);
    assert_eq!(calls.len(), 19, "one call per Shindig procedure");
    let expected: Vec<_> = calls
        .iter()
        .map(|(p, params)| server.expected(p, params))
        .collect();
    assert!(
        expected.iter().all(|(_, rows)| !rows.is_empty()),
        "every call finds data"
    );

    for ((procedure, params), (columns, rows)) in calls.iter().zip(&expected) {
        let (status, body) = server
            .http(
                "POST",
                &format!("/v1/call/{procedure}"),
                &to_json_body(params),
            )
            .await;
        assert_eq!(status, 200, "{procedure}: {body}");
        let chunk =
            ResultChunk::decode(WireEncoding::Json, body.as_bytes()).expect("a result document");
        assert_eq!(
            chunk.columns.as_ref(),
            Some(columns),
            "{procedure} over HTTP"
        );
        assert_eq!(&chunk.rows, rows, "{procedure} over HTTP");
    }

    for subprotocol in Subprotocol::all() {
        let client = Client::connect(config(&server, subprotocol))
            .await
            .expect("connects");
        for ((procedure, params), (columns, rows)) in calls.iter().zip(&expected) {
            let result = client
                .call(procedure, params.clone())
                .await
                .expect("answers");
            assert_eq!(&result.columns, columns, "{procedure} over {subprotocol}");
            assert_eq!(&result.rows, rows, "{procedure} over {subprotocol}");
        }
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pipelined_calls_on_one_connection_all_get_their_own_answers() {
    let server = TestServer::start(0.1, |_| {}).await;
    let client = Client::connect(ClientConfig::new(server.ws_url()))
        .await
        .expect("connects");
    let calls: Vec<_> = (1..=200i64)
        .map(|i| {
            let procedure = if i % 5 == 0 {
                "shindig.friends_of_friends_3"
            } else {
                "shindig.friends"
            };
            (procedure, vec![int("person_id", 1 + i % 201)])
        })
        .collect();
    let answers = futures_util::future::join_all(
        calls
            .iter()
            .map(|(p, params)| client.call(p, params.clone())),
    )
    .await;
    for ((procedure, params), answer) in calls.iter().zip(answers) {
        let result = answer.expect("answers");
        assert_eq!(
            result.rows,
            server.expected(procedure, params).1,
            "{procedure} {params:?}"
        );
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_results_arrive_in_chunks_and_reassemble_with_timings() {
    let server = TestServer::start(0.1, |c| c.chunk_rows = 7).await;
    let params = vec![int("person_id", 1)];
    let (_, rows) = server.expected("shindig.friends_of_friends_3", &params);
    assert!(
        rows.len() > 50,
        "a multi-chunk answer ({} rows)",
        rows.len()
    );
    for encoding in [Encoding::Json, Encoding::Bson, Encoding::MsgPack] {
        let sub = Subprotocol {
            encoding,
            compression: Compression::Lz4,
        };
        let client = Client::connect(config(&server, sub))
            .await
            .expect("connects");
        let result = client
            .call_timed("shindig.friends_of_friends_3", params.clone())
            .await
            .expect("answers");
        assert_eq!(result.rows, rows);
        let timing = result.timing.expect("timings asked for");
        assert!(timing.exec_us > 0 || timing.encode_us > 0, "{timing:?}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pool_round_robins_over_servers_and_reconnects_after_a_restart() {
    let a = TestServer::start(0.1, |_| {}).await;
    let b = TestServer::start(0.1, |_| {}).await;
    let mut cfg = ClientConfig::new(a.ws_url());
    cfg.urls.push(b.ws_url());
    cfg.connections_per_url = 2;
    cfg.backoff_min = Duration::from_millis(20);
    cfg.request_timeout = Duration::from_secs(5);
    let client = Client::connect(cfg).await.expect("connects to both");
    for i in 0..20 {
        client
            .call("shindig.friends", vec![int("person_id", 1 + i)])
            .await
            .expect("answers");
    }
    for server in [&a, &b] {
        let (_, metrics) = server.http("GET", "/metrics", "").await;
        let line = metrics
            .lines()
            .find(|l| l.starts_with("kith_request_duration_seconds_count{transport=\"ws\",procedure=\"shindig.friends\"}"))
            .expect("requests recorded");
        assert!(
            line.ends_with(" 10"),
            "round-robin sends half the calls to each server: {line}"
        );
    }

    // Restart server a on the same port: calls to it fail, then succeed again.
    let (addr, store) = (a.addr, a.store.clone());
    a.stop().await;
    let mut failures = 0;
    for i in 0..4 {
        match client
            .call("shindig.friends", vec![int("person_id", 1 + i)])
            .await
        {
            Ok(_) => {}
            Err(ClientError::ConnectionClosed(_) | ClientError::Connect { .. }) => failures += 1,
            Err(other) => panic!("unexpected error {other}"),
        }
    }
    assert!(failures >= 1, "calls routed to the stopped server fail");
    let a = TestServer::start_with(store, addr, |_| {}).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    for i in 0..8 {
        client
            .call("shindig.friends", vec![int("person_id", 1 + i)])
            .await
            .expect("reconnected");
    }
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_and_metrics_answer_over_http() {
    let server = TestServer::start(0.1, |_| {}).await;
    let (status, body) = server.http("GET", "/health", "").await;
    assert_eq!(status, 200);
    let health: serde_json::Value = serde_json::from_str(&body).expect("json");
    assert_eq!(health["status"], "ok");
    assert!(health["nodes"].as_u64().unwrap_or(0) > 8000, "{body}");
    server
        .http(
            "POST",
            "/v1/call/shindig.friends",
            r#"{"person_id": 999999}"#,
        )
        .await;
    let (status, metrics) = server.http("GET", "/metrics", "").await;
    assert_eq!(status, 200);
    for needle in [
        "kith_errors_total{transport=\"http\",code=\"not_found\"} 1",
        "kith_workers 2",
        "# TYPE kith_request_duration_seconds histogram",
    ] {
        assert!(
            metrics.contains(needle),
            "missing `{needle}` in:\n{metrics}"
        );
    }
    server.stop().await;
}
