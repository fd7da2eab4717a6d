//! S1's throughput matrix: client threads x server workers x connections x
//! compression, on the Shindig mix without the spike queries; natively (procedure
//! calls) or, with S1's Cypher texts, as the same calls in Cypher (`cypher` requests).
//!
//! The server is a real `kith serve` process, started per worker count, so the
//! client's CPU (this process) and the server's (the child) are measured apart:
//! the report must show that the driver is not what limits throughput.

use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kith_client::{Client, ClientConfig, Compression, Encoding, Subprotocol};
use kith_core::Value;

use crate::shindig::Query;
use crate::shindig_cypher::ShindigCypher;

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Client threads (concurrent callers).
    pub threads: Vec<usize>,
    /// Server worker threads.
    pub workers: Vec<usize>,
    /// WebSocket connections of the client's pool.
    pub connections: Vec<usize>,
    /// Compressions.
    pub compressions: Vec<Compression>,
    /// The encoding.
    pub encoding: Encoding,
    /// Measured time per cell (after a warm-up of a fifth of it).
    pub duration: Duration,
    /// Include FOAF-3, FOAF-2 and friend recommendations (S1 left them out).
    pub include_spikes: bool,
    /// The `kith` binary, to start `kith serve` with.
    pub kith: PathBuf,
    /// The data directory the server serves.
    pub data: PathBuf,
    /// Send each call as its Cypher text (S1's "Cypher BSON") instead of the procedure.
    pub cypher: Option<Arc<ShindigCypher>>,
}

impl Options {
    /// `native` or `cypher`: what the requests are.
    pub fn api(&self) -> &'static str {
        if self.cypher.is_some() {
            "cypher"
        } else {
            "native"
        }
    }
}

/// One cell of the matrix.
#[derive(Clone, Debug)]
pub struct Cell {
    /// Client threads.
    pub threads: usize,
    /// Server workers.
    pub workers: usize,
    /// Connections.
    pub connections: usize,
    /// Compression.
    pub compression: Compression,
    /// Answered requests per second.
    pub requests_per_s: f64,
    /// Median latency, µs.
    pub p50_us: f64,
    /// 99th percentile, µs.
    pub p99_us: f64,
    /// Failed requests.
    pub errors: u64,
    /// Client process CPU, in cores (1.0 = one core busy).
    pub client_cores: f64,
    /// Server process CPU, in cores.
    pub server_cores: f64,
}

/// A run's results.
#[derive(Clone, Debug)]
pub struct Report {
    /// The options.
    pub options: Options,
    /// Cells, in run order.
    pub cells: Vec<Cell>,
    /// The driver against a no-op endpoint (answers every request with an empty
    /// result at once), at the largest thread count, 8 connections: what the client
    /// alone can do on this machine.
    pub driver_ceiling: Option<Cell>,
}

/// A kith-protocol endpoint that answers every request with an empty result and does
/// nothing else: the driver's ceiling, with no database behind it.
async fn start_noop() -> std::io::Result<SocketAddr> {
    use axum::extract::ws::{Message, WebSocketUpgrade};
    use axum::http::HeaderMap;
    use futures_util::StreamExt;
    let app = axum::Router::new().route(
        "/v1/ws",
        axum::routing::get(|headers: HeaderMap, ws: WebSocketUpgrade| async move {
            let offered = headers
                .get(axum::http::header::SEC_WEBSOCKET_PROTOCOL)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_owned();
            let subprotocol = Subprotocol::choose(&offered).unwrap_or(Subprotocol::DEFAULT);
            let mut ws = ws.read_buffer_size(kith_protocol::READ_BUFFER_BYTES);
            if let Ok(v) = axum::http::HeaderValue::from_str(&subprotocol.to_string()) {
                ws = ws.protocols([v.to_str().unwrap_or_default().to_owned()]);
            }
            ws.on_upgrade(move |mut socket| async move {
                let wire = kith_protocol::Wire::new(subprotocol, 1 << 20);
                while let Some(Ok(Message::Binary(bytes))) = socket.next().await {
                    let id = kith_protocol::FrameHeader::request_id_of(&bytes);
                    for frame in wire.result(id, &[], &[], 1, None) {
                        if socket.send(Message::Binary(frame.into())).await.is_err() {
                            return;
                        }
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

/// CPU seconds (user + system) of a process, from `/proc/<pid>/stat`.
pub(crate) fn cpu_seconds(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) start after ") ".
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    // Linux reports clock ticks; USER_HZ is 100 on every mainstream configuration.
    Some(ticks / 100.0)
}

struct ServerProcess {
    child: Child,
    addr: SocketAddr,
}

impl ServerProcess {
    fn start(options: &Options, workers: usize) -> Result<ServerProcess, String> {
        let addr = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| format!("finding a free port: {e}"))?;
        let child = Command::new(&options.kith)
            .arg("serve")
            .arg("--data")
            .arg(&options.data)
            .args([
                "--listen",
                &addr.to_string(),
                "--workers",
                &workers.to_string(),
                "--bolt-listen",
                "off",
            ])
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("starting {} serve: {e}", options.kith.display()))?;
        let deadline = Instant::now() + Duration::from_secs(120);
        while !crate::process::listening(addr) {
            if Instant::now() > deadline {
                return Err(format!("kith serve did not listen on {addr} within 120 s"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(ServerProcess { child, addr })
    }

    fn pid(&self) -> String {
        self.child.id().to_string()
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        // SIGTERM would make it checkpoint; nothing was written, so kill is enough.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One call of the mix: a procedure and its parameters.
pub(crate) type Call = (&'static str, Vec<(String, Value)>);

/// A request of the mix as sent: a procedure call, or a Cypher text (shared by every
/// call of its query) with the parameters it needs.
#[derive(Clone)]
enum Request {
    Native(&'static str, Vec<(String, Value)>),
    Cypher(Arc<str>, Vec<(String, Value)>),
}

impl Request {
    async fn send(&self, client: &Client) -> Result<(), kith_client::ClientError> {
        let answer = match self {
            Request::Native(procedure, params) => client.call(procedure, params.clone()).await,
            Request::Cypher(text, params) => client.cypher(text, params.clone()).await,
        };
        answer.map(drop)
    }
}

/// The mix's calls as requests: unchanged, or each in its Cypher text.
fn requests(calls: Vec<Call>, cypher: Option<&ShindigCypher>) -> Result<Vec<Request>, String> {
    let Some(texts) = cypher else {
        return Ok(calls
            .into_iter()
            .map(|(p, params)| Request::Native(p, params))
            .collect());
    };
    let mut shared: std::collections::HashMap<&str, Arc<str>> = Default::default();
    calls
        .into_iter()
        .map(|(procedure, params)| {
            let text = match shared.get(procedure) {
                Some(t) => t.clone(),
                None => {
                    let t: Arc<str> = texts.text(procedure)?.into();
                    shared.insert(procedure, t.clone());
                    t
                }
            };
            Ok(Request::Cypher(text, texts.params(procedure, &params)))
        })
        .collect()
}

/// The mix: each non-spike query as often as S1 ran it, interleaved.
pub(crate) fn schedule(queries: &[Query], include_spikes: bool) -> Vec<Call> {
    let mut calls = Vec::new();
    for q in queries.iter().filter(|q| include_spikes || !q.spike) {
        let weight = (q.runs / 20).max(1);
        for i in 0..weight {
            calls.push((q.procedure, q.params(i).to_vec()));
        }
    }
    // Interleave deterministically so no caller runs one query for long.
    let n = calls.len();
    let stride = (1..n)
        .rev()
        .find(|s| gcd(*s, n) == 1 && *s > n / 3)
        .unwrap_or(1);
    (0..n).map(|i| calls[(i * stride) % n].clone()).collect()
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Runs every cell; `progress(done, total)` counts cells.
pub async fn run(
    queries: &[Query],
    options: Options,
    mut progress: impl FnMut(u64, u64),
) -> Result<Report, String> {
    let calls = Arc::new(requests(
        schedule(queries, options.include_spikes),
        options.cypher.as_deref(),
    )?);
    let total = (options.workers.len()
        * options.connections.len()
        * options.compressions.len()
        * options.threads.len()) as u64;
    let mut done = 0;
    let mut cells = Vec::new();
    for &workers in &options.workers {
        let server = ServerProcess::start(&options, workers)?;
        for &connections in &options.connections {
            for &compression in &options.compressions {
                let config = ClientConfig {
                    subprotocol: Subprotocol {
                        encoding: options.encoding,
                        compression,
                    },
                    connections_per_url: connections,
                    request_timeout: Duration::from_secs(60),
                    ..ClientConfig::new(format!("ws://{}/v1/ws", server.addr))
                };
                let client = Arc::new(
                    Client::connect(config)
                        .await
                        .map_err(|e| format!("connecting to the server: {e}"))?,
                );
                for &threads in &options.threads {
                    cells.push(
                        measure_calls(
                            &client,
                            &calls,
                            Some(&server.pid()),
                            &options,
                            threads,
                            workers,
                            connections,
                            compression,
                        )
                        .await,
                    );
                    done += 1;
                    progress(done, total);
                }
            }
        }
    }
    // The driver's own ceiling, against the no-op endpoint.
    let threads = options.threads.iter().copied().max().unwrap_or(16);
    let noop = start_noop()
        .await
        .map_err(|e| format!("starting the no-op endpoint: {e}"))?;
    let config = ClientConfig {
        subprotocol: Subprotocol {
            encoding: options.encoding,
            compression: Compression::None,
        },
        connections_per_url: 8,
        request_timeout: Duration::from_secs(60),
        ..ClientConfig::new(format!("ws://{noop}/v1/ws"))
    };
    let client = Arc::new(
        Client::connect(config)
            .await
            .map_err(|e| format!("connecting to the no-op endpoint: {e}"))?,
    );
    let driver_ceiling = Some(
        measure_calls(
            &client,
            &calls,
            None,
            &options,
            threads,
            0,
            8,
            Compression::None,
        )
        .await,
    );
    Ok(Report {
        options,
        cells,
        driver_ceiling,
    })
}

/// Measures one cell; `server_pid` is the process whose CPU counts as the server's
/// (none for the in-process no-op endpoint).
#[allow(clippy::too_many_arguments)]
async fn measure_calls(
    client: &Arc<Client>,
    calls: &Arc<Vec<Request>>,
    server_pid: Option<&str>,
    options: &Options,
    threads: usize,
    workers: usize,
    connections: usize,
    compression: Compression,
) -> Cell {
    let warmup = options.duration / 5;
    let started = Instant::now();
    let measure_from = started + warmup;
    let measure_until = measure_from + options.duration;
    let errors = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for t in 0..threads {
        let (client, calls, errors) = (client.clone(), calls.clone(), errors.clone());
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut i = t * 7919;
            loop {
                let now = Instant::now();
                if now >= measure_until {
                    break;
                }
                let request = &calls[i % calls.len()];
                i += 1;
                let sent = Instant::now();
                let outcome = request.send(&client).await;
                let done = Instant::now();
                if sent >= measure_from && done <= measure_until {
                    match outcome {
                        Ok(_) => latencies.push(done - sent),
                        Err(_) => {
                            errors.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
            }
            latencies
        }));
    }
    // CPU is sampled over the measured window only.
    tokio::time::sleep_until(measure_from.into()).await;
    let server_cpu = || server_pid.and_then(cpu_seconds).unwrap_or(0.0);
    let (client_before, server_before) = (cpu_seconds("self").unwrap_or(0.0), server_cpu());
    tokio::time::sleep_until(measure_until.into()).await;
    let (client_after, server_after) = (cpu_seconds("self").unwrap_or(0.0), server_cpu());
    let mut latencies = Vec::new();
    for task in tasks {
        if let Ok(mut l) = task.await {
            latencies.append(&mut l);
        }
    }
    latencies.sort_unstable();
    let at = |q: f64| {
        latencies
            .get(((latencies.len().max(1) - 1) as f64 * q).round() as usize)
            .map_or(0.0, |d| d.as_secs_f64() * 1e6)
    };
    let seconds = options.duration.as_secs_f64();
    Cell {
        threads,
        workers,
        connections,
        compression,
        requests_per_s: latencies.len() as f64 / seconds,
        p50_us: at(0.5),
        p99_us: at(0.99),
        errors: errors.load(Ordering::Relaxed),
        client_cores: (client_after - client_before) / seconds,
        server_cores: (server_after - server_before) / seconds,
    }
}

impl Report {
    /// Raw results as CSV.
    pub fn csv(&self) -> String {
        let mut out = String::from(
            "api,encoding,compression,connections,workers,threads,requests_per_s,p50_us,p99_us,errors,client_cores,server_cores\n",
        );
        let api = self.options.api();
        for c in &self.cells {
            out.push_str(&format!(
                "{api},{},{},{},{},{},{:.1},{:.1},{:.1},{},{:.2},{:.2}\n",
                self.options.encoding.name(),
                c.compression.name(),
                c.connections,
                c.workers,
                c.threads,
                c.requests_per_s,
                c.p50_us,
                c.p99_us,
                c.errors,
                c.client_cores,
                c.server_cores
            ));
        }
        if let Some(c) = &self.driver_ceiling {
            out.push_str(&format!(
                "{api},{},none,8,0,{},{:.1},{:.1},{:.1},{},{:.2},0\n",
                self.options.encoding.name(),
                c.threads,
                c.requests_per_s,
                c.p50_us,
                c.p99_us,
                c.errors,
                c.client_cores
            ));
        }
        out
    }

    /// Requests/s per cell as Markdown: one table per (connections, compression),
    /// client threads down, server workers across.
    pub fn markdown(&self) -> String {
        let o = &self.options;
        let mut out = format!(
            "kith bench throughput: {} requests, {} encoding, {:.0} s per cell, Shindig mix {} the spike queries. \
             Requests/s (client cores / server cores).\n",
            if o.cypher.is_some() { "Cypher (S1's texts)" } else { "native procedure" },
            o.encoding.name(),
            o.duration.as_secs_f64(),
            if o.include_spikes { "with" } else { "without" }
        );
        for &connections in &o.connections {
            for &compression in &o.compressions {
                out.push_str(&format!(
                    "\n{connections} connection(s), compression {}:\n\n| client threads |",
                    compression.name()
                ));
                for w in &o.workers {
                    out.push_str(&format!(" {w} workers |"));
                }
                out.push_str("\n|---:|");
                out.push_str(&"---:|".repeat(o.workers.len()));
                out.push('\n');
                for &threads in &o.threads {
                    out.push_str(&format!("| {threads} |"));
                    for &workers in &o.workers {
                        match self.cells.iter().find(|c| {
                            c.threads == threads
                                && c.workers == workers
                                && c.connections == connections
                                && c.compression == compression
                        }) {
                            Some(c) => out.push_str(&format!(
                                " {:.0} ({:.1} / {:.1}) |",
                                c.requests_per_s, c.client_cores, c.server_cores
                            )),
                            None => out.push_str(" — |"),
                        }
                    }
                    out.push('\n');
                }
            }
        }
        let best = self
            .cells
            .iter()
            .map(|c| c.requests_per_s)
            .fold(0.0, f64::max);
        if let Some(c) = &self.driver_ceiling {
            out.push_str(&format!(
                "\nDriver ceiling (the same client, {} threads, 8 connections, against an endpoint that answers at once): \
                 {:.0} req/s with {:.1} client cores, {:.1}x the best cell above ({best:.0} req/s). \
                 (workers = 0 marks this row in throughput.csv.)\n",
                c.threads,
                c.requests_per_s,
                c.client_cores,
                c.requests_per_s / best.max(1.0)
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_this_process_cpu_time() {
        // Spins until the counter shows 0.1 s of CPU: on a loaded machine 200 ms of
        // wall time may get far less CPU, so the wall clock only bounds the wait.
        let before = cpu_seconds("self").expect("readable");
        let spin = Instant::now();
        let mut x = 0u64;
        let mut after = before;
        while after - before < 0.1 && spin.elapsed() < Duration::from_secs(20) {
            for _ in 0..1_000_000 {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(1));
            }
            after = cpu_seconds("self").expect("readable");
        }
        assert!(after - before >= 0.1, "{before} -> {after}");
    }

    #[test]
    fn the_schedule_follows_run_counts_and_leaves_out_spikes() {
        let queries = crate::shindig::tests_support::queries();
        let calls = schedule(&queries, false);
        let count = |name: &str| calls.iter().filter(|(p, _)| *p == name).count();
        assert_eq!(count("shindig.friends_of_friends_3"), 0);
        assert_eq!(count("shindig.friend_recommendations"), 0);
        assert_eq!(count("shindig.profile"), 100);
        assert_eq!(count("shindig.activity_stream"), 10);
        assert_eq!(schedule(&queries, true).len(), calls.len() + 10 + 1 + 1);
    }
}
