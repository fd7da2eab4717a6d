//! Round trips and throughput per transport, with the echo floor.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message as AxumMessage, WebSocketUpgrade};
use axum::routing::get;
use futures_util::{SinkExt, StreamExt};
use kith_client::{Client, ClientConfig, Compression, Encoding, Subprotocol};
use kith_core::Value;
use kith_server::{Server, ServerConfig};
use kith_storage::Store;

use crate::http_client::Http;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// What to measure.
#[derive(Clone, Debug)]
pub struct Options {
    /// Sequential calls per round-trip measurement.
    pub round_trips: usize,
    /// Concurrent requests in the throughput measurement.
    pub concurrency: usize,
    /// Length of each throughput measurement.
    pub throughput_duration: Duration,
    /// Server worker threads.
    pub workers: usize,
    /// People the profile calls rotate over (ids 1..=people).
    pub people: i64,
}

/// Latency summary of one path, in microseconds.
#[derive(Clone, Debug)]
pub struct Latency {
    /// What was measured.
    pub path: String,
    /// Median.
    pub p50_us: f64,
    /// 99th percentile.
    pub p99_us: f64,
    /// Bytes of the answer.
    pub answer_bytes: usize,
}

/// Throughput of one path.
#[derive(Clone, Debug)]
pub struct Throughput {
    /// What was measured.
    pub path: String,
    /// Requests answered per second.
    pub requests_per_s: f64,
}

/// One run's results.
#[derive(Clone, Debug)]
pub struct Report {
    /// Single-client round trips.
    pub latency: Vec<Latency>,
    /// Throughput at `concurrency`.
    pub throughput: Vec<Throughput>,
    /// The options used.
    pub options: Options,
}

fn summarize(path: &str, mut samples: Vec<Duration>, answer_bytes: usize) -> Latency {
    samples.sort_unstable();
    let at =
        |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e6;
    Latency {
        path: path.into(),
        p50_us: at(0.5),
        p99_us: at(0.99),
        answer_bytes,
    }
}

fn profile_params(i: usize, people: i64) -> Vec<(String, Value)> {
    vec![(
        "person_id".into(),
        Value::Int(1 + (i as i64 * 7919) % people),
    )]
}

/// Runs every measurement against an in-process server over loopback.
pub async fn run(store: Arc<Store>, options: Options) -> std::io::Result<Report> {
    let config = ServerConfig {
        listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        workers: options.workers,
        inflight_per_connection_max: options.concurrency.max(256),
        ..ServerConfig::default()
    };
    let server = Server::bind(config, store).await?;
    let addr = server.local_addr()?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server_task = tokio::spawn(server.run(async move {
        let _ = stopped.await;
    }));
    let echo_addr = start_echo().await?;
    let url = format!("ws://{addr}/v1/ws");
    let io = |e: kith_client::ClientError| std::io::Error::other(e.to_string());

    let bson = Subprotocol {
        encoding: Encoding::Bson,
        compression: Compression::None,
    };
    let client = Client::connect(ClientConfig {
        subprotocol: bson,
        ..ClientConfig::new(url.clone())
    })
    .await
    .map_err(io)?;
    // The size of a typical answer, for the echo floor to move the same bytes.
    let sample = client
        .call("shindig.profile", profile_params(0, options.people))
        .await
        .map_err(io)?;
    let wire = kith_protocol::Wire::new(bson, 1 << 20);
    let values: Vec<Value> = sample.rows.concat();
    let answer_bytes: usize = wire
        .result(1, &sample.columns, &values, 1000, None)
        .iter()
        .map(Vec::len)
        .sum();
    let request_bytes = wire
        .request(
            1,
            &kith_protocol::Request::Call {
                procedure: "shindig.profile".into(),
                params: profile_params(0, options.people),
                timing: false,
            },
        )
        .len();

    let mut latency = Vec::new();
    latency.push(echo_round_trips(echo_addr, request_bytes, answer_bytes, &options).await?);
    for encoding in [Encoding::Bson, Encoding::MsgPack, Encoding::Json] {
        let subprotocol = Subprotocol {
            encoding,
            compression: Compression::None,
        };
        let client = Client::connect(ClientConfig {
            subprotocol,
            ..ClientConfig::new(url.clone())
        })
        .await
        .map_err(io)?;
        let mut samples = Vec::with_capacity(options.round_trips);
        for i in 0..options.round_trips + options.round_trips / 10 {
            let started = Instant::now();
            client
                .call("shindig.profile", profile_params(i, options.people))
                .await
                .map_err(io)?;
            if i >= options.round_trips / 10 {
                samples.push(started.elapsed());
            }
        }
        let name = format!(
            "WS-{} shindig.profile (1 connection)",
            encoding.name().to_uppercase()
        );
        latency.push(summarize(&name, samples, answer_bytes));
    }
    latency.push(raw_ws_round_trips(addr, &options).await?);
    latency.push(http_round_trips(addr, &options).await?);

    let mut throughput = Vec::new();
    for connections in [1, 8] {
        let client = Arc::new(
            Client::connect(ClientConfig {
                subprotocol: bson,
                connections_per_url: connections,
                ..ClientConfig::new(url.clone())
            })
            .await
            .map_err(io)?,
        );
        let rate = ws_throughput(client, &options).await.map_err(io)?;
        throughput.push(Throughput {
            path: format!(
                "WS-BSON, {} in flight over {connections} connection(s)",
                options.concurrency
            ),
            requests_per_s: rate,
        });
    }
    throughput.push(Throughput {
        path: format!(
            "HTTP-JSON, {} connections (one request each at a time)",
            options.concurrency
        ),
        requests_per_s: http_throughput(addr, &options).await?,
    });

    let _ = stop.send(());
    let _ = server_task.await;
    Ok(Report {
        latency,
        throughput,
        options,
    })
}

/// A WebSocket server that answers each message with as many bytes as its first four
/// bytes ask for: the transport with nothing behind it.
async fn start_echo() -> std::io::Result<SocketAddr> {
    let app = axum::Router::new().route(
        "/echo",
        get(|ws: WebSocketUpgrade| async move {
            ws.read_buffer_size(kith_protocol::READ_BUFFER_BYTES)
                .on_upgrade(|mut socket| async move {
                    while let Some(Ok(AxumMessage::Binary(bytes))) = socket.next().await {
                        let n = bytes
                            .get(..4)
                            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
                        if socket
                            .send(AxumMessage::Binary(vec![7u8; n].into()))
                            .await
                            .is_err()
                        {
                            return;
                        }
                    }
                })
        }),
    );
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Ok(addr)
}

async fn echo_round_trips(
    addr: SocketAddr,
    request_bytes: usize,
    answer_bytes: usize,
    options: &Options,
) -> std::io::Result<Latency> {
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(kith_protocol::READ_BUFFER_BYTES);
    let (mut socket, _) = tokio_tungstenite::connect_async_with_config(
        format!("ws://{addr}/echo"),
        Some(config),
        true,
    )
    .await
    .map_err(std::io::Error::other)?;
    let mut request = vec![0u8; request_bytes.max(4)];
    request[..4].copy_from_slice(&(answer_bytes as u32).to_le_bytes());
    let mut samples = Vec::with_capacity(options.round_trips);
    for i in 0..options.round_trips + options.round_trips / 10 {
        let started = Instant::now();
        socket
            .send(Message::Binary(request.clone().into()))
            .await
            .map_err(std::io::Error::other)?;
        match socket.next().await {
            Some(Ok(Message::Binary(_))) => {}
            other => return Err(std::io::Error::other(format!("echo failed: {other:?}"))),
        }
        if i >= options.round_trips / 10 {
            samples.push(started.elapsed());
        }
    }
    Ok(summarize(
        "raw WebSocket echo, same bytes (floor)",
        samples,
        answer_bytes,
    ))
}

/// The kith server through the simplest possible client: one task, one socket, one
/// request at a time. Against the pooled client's figure this separates server and
/// client costs.
async fn raw_ws_round_trips(addr: SocketAddr, options: &Options) -> std::io::Result<Latency> {
    let subprotocol = Subprotocol {
        encoding: Encoding::Bson,
        compression: Compression::None,
    };
    let mut request = format!("ws://{addr}/v1/ws")
        .into_client_request()
        .map_err(std::io::Error::other)?;
    request.headers_mut().insert(
        "Sec-WebSocket-Protocol",
        subprotocol
            .to_string()
            .parse()
            .map_err(std::io::Error::other)?,
    );
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(kith_protocol::READ_BUFFER_BYTES);
    let (mut socket, _) = tokio_tungstenite::connect_async_with_config(request, Some(config), true)
        .await
        .map_err(std::io::Error::other)?;
    let wire = kith_protocol::Wire::new(subprotocol, 1 << 20);
    let mut samples = Vec::with_capacity(options.round_trips);
    let mut bytes = 0;
    for i in 0..options.round_trips + options.round_trips / 10 {
        let started = Instant::now();
        let call = kith_protocol::Request::Call {
            procedure: "shindig.profile".into(),
            params: profile_params(i, options.people),
            timing: false,
        };
        socket
            .send(Message::Binary(wire.request(i as u64 + 1, &call).into()))
            .await
            .map_err(std::io::Error::other)?;
        match socket.next().await {
            Some(Ok(Message::Binary(frame))) => bytes = frame.len(),
            other => return Err(std::io::Error::other(format!("no answer: {other:?}"))),
        }
        if i >= options.round_trips / 10 {
            samples.push(started.elapsed());
        }
    }
    Ok(summarize(
        "WS-BSON shindig.profile, raw single-task client (no decoding)",
        samples,
        bytes,
    ))
}

fn http_body(i: usize, people: i64) -> String {
    format!("{{\"person_id\": {}}}", 1 + (i as i64 * 7919) % people)
}

async fn http_round_trips(addr: SocketAddr, options: &Options) -> std::io::Result<Latency> {
    let mut http = Http::connect(addr).await?;
    let mut samples = Vec::with_capacity(options.round_trips);
    let mut bytes = 0;
    for i in 0..options.round_trips + options.round_trips / 10 {
        let started = Instant::now();
        bytes = http
            .post("/v1/call/shindig.profile", &http_body(i, options.people))
            .await?
            .bytes;
        if i >= options.round_trips / 10 {
            samples.push(started.elapsed());
        }
    }
    Ok(summarize(
        "HTTP-JSON shindig.profile (keep-alive)",
        samples,
        bytes,
    ))
}

async fn ws_throughput(
    client: Arc<Client>,
    options: &Options,
) -> Result<f64, kith_client::ClientError> {
    let deadline = Instant::now() + options.throughput_duration;
    let started = Instant::now();
    let mut tasks = Vec::new();
    for lane in 0..options.concurrency {
        let (client, people) = (client.clone(), options.people);
        tasks.push(tokio::spawn(async move {
            let mut done = 0usize;
            while Instant::now() < deadline {
                client
                    .call(
                        "shindig.profile",
                        profile_params(lane * 100_000 + done, people),
                    )
                    .await?;
                done += 1;
            }
            Ok::<usize, kith_client::ClientError>(done)
        }));
    }
    let mut total = 0;
    for t in tasks {
        total += t
            .await
            .map_err(|e| kith_client::ClientError::Protocol(e.to_string()))??;
    }
    Ok(total as f64 / started.elapsed().as_secs_f64())
}

async fn http_throughput(addr: SocketAddr, options: &Options) -> std::io::Result<f64> {
    let deadline = Instant::now() + options.throughput_duration;
    let started = Instant::now();
    let mut tasks = Vec::new();
    for lane in 0..options.concurrency {
        let people = options.people;
        tasks.push(tokio::spawn(async move {
            let mut http = Http::connect(addr).await?;
            let mut done = 0usize;
            while Instant::now() < deadline {
                http.post(
                    "/v1/call/shindig.profile",
                    &http_body(lane * 100_000 + done, people),
                )
                .await?;
                done += 1;
            }
            Ok::<usize, std::io::Error>(done)
        }));
    }
    let mut total = 0;
    for t in tasks {
        total += t.await.map_err(std::io::Error::other)??;
    }
    Ok(total as f64 / started.elapsed().as_secs_f64())
}

impl Report {
    /// A Markdown report with the ratios the targets are stated in.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        out.push_str(
            "| single client, sequential | p50 | p99 | answer bytes |\n|---|---|---|---|\n",
        );
        for l in &self.latency {
            out.push_str(&format!(
                "| {} | {:.1} µs | {:.1} µs | {} |\n",
                l.path, l.p50_us, l.p99_us, l.answer_bytes
            ));
        }
        out.push_str(&format!(
            "\n| throughput, {} concurrent requests | requests/s |\n|---|---|\n",
            self.options.concurrency
        ));
        for t in &self.throughput {
            out.push_str(&format!("| {} | {:.0} |\n", t.path, t.requests_per_s));
        }
        let find = |p: &str| {
            self.latency
                .iter()
                .find(|l| l.path.starts_with(p))
                .map(|l| l.p50_us)
        };
        // (WS-BSON is the path the targets name.)
        if let (Some(echo), Some(ws), Some(http)) = (find("raw"), find("WS-BSON"), find("HTTP")) {
            out.push_str(&format!(
                "\nWS-BSON round trip / echo round trip: **{:.2}x** (target ≤ 1.5x). HTTP-JSON / WS-BSON round trip: {:.2}x.\n",
                ws / echo,
                http / ws
            ));
        }
        let ws_best = self
            .throughput
            .iter()
            .filter(|t| t.path.starts_with("WS"))
            .map(|t| t.requests_per_s)
            .fold(0.0, f64::max);
        if let Some(http) = self.throughput.iter().find(|t| t.path.starts_with("HTTP")) {
            out.push_str(&format!(
                "WS-BSON throughput / HTTP-JSON throughput: **{:.2}x** (target ≥ 5x).\n",
                ws_best / http.requests_per_s
            ));
        }
        out
    }
}
