//! The soak (issue 18, docs/reliability.md): a mixed read/write load at a fraction
//! (90 %) of the measured maximum, for a long time, against a durable `kith serve`
//! and, given a Kafka broker, a read replica of it serving half the reads. Every
//! window records throughput, errors, latency percentiles, each server's resident
//! memory and the replica's lag, so a leak, a slow drift of latency or a stall shows
//! up as a slope in the plots.
//!
//! The load is paced: each client sends on a fixed schedule (the target rate spread
//! over the clients) and a request's latency counts from when it was due, not from
//! when it was sent, so a stall is charged to every request it delayed (no
//! coordinated omission). A client has one request in flight: at 90 % of the
//! closed-loop maximum measured with the same clients, the figures include the
//! time a request waits for its client's previous one.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kith_client::{ops, Client, ClientConfig};
use kith_core::Value;

mod report;
mod scrape;
mod servers;

pub use report::{P99_DRIFT_MAX, RSS_GROWTH_MAX_PCT};
pub use scrape::ServerWindow;
pub(crate) use servers::rss_mib;
pub use servers::Memory;

use crate::shindig::Query;
use crate::throughput::{schedule, Call};

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// The `kith` binary.
    pub kith: PathBuf,
    /// The data directory served (a copy: the writes change it).
    pub data: PathBuf,
    /// Where the server's log goes (the replica's goes beside it, `replica.log`).
    pub log: PathBuf,
    /// A Kafka broker (`host:port`): the primary publishes its log to a new topic
    /// and a read replica applies it and serves half the reads.
    pub kafka: Option<String>,
    /// The replica's data directory (it bootstraps into it).
    pub replica_data: PathBuf,
    /// How long the soak runs.
    pub duration: Duration,
    /// How long the maximum is measured (closed loop) before it.
    pub max_duration: Duration,
    /// The soak's rate as a share of the maximum.
    pub fraction: f64,
    /// Concurrent clients (each waits for its answer before its next request).
    pub clients: usize,
    /// The share of requests that are writes (a property update, durable).
    pub write_share: f64,
    /// Server worker threads.
    pub workers: usize,
    /// Nodes of the graph (writes update random ones).
    pub nodes: u64,
}

/// One window of the soak.
#[derive(Clone, Debug)]
pub struct Window {
    /// Its end, in seconds since the soak started.
    pub at_s: f64,
    /// Requests answered per second.
    pub ops_per_s: f64,
    /// Requests that failed.
    pub errors: u64,
    /// Latency percentiles in milliseconds: 50, 99, 99.9.
    pub p50_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// 99.9th percentile.
    pub p999_ms: f64,
    /// The primary's resident memory.
    pub memory: Memory,
    /// The replica, when the soak runs one.
    pub replica: Option<ReplicaWindow>,
    /// The primary's own figures (`None` when its `/metrics` did not answer).
    pub server: Option<ServerWindow>,
}

/// The replica at the end of a window.
#[derive(Clone, Debug)]
pub struct ReplicaWindow {
    /// Its resident memory.
    pub memory: Memory,
    /// How many versions it is behind the primary (`None`: a server did not answer
    /// `GET /health`).
    pub lag_versions: Option<u64>,
}

/// The whole run.
#[derive(Clone, Debug)]
pub struct Report {
    /// The maximum (closed loop), requests per second.
    pub max_rate: f64,
    /// The soak's target rate.
    pub target_rate: f64,
    /// Its windows.
    pub windows: Vec<Window>,
    /// The options it ran with.
    pub options: Options,
}

/// Latencies (µs) and errors of the current window of a paced load, shared by its
/// clients (the soak's, the overload experiment's).
#[derive(Default)]
pub(crate) struct Tally {
    pub(crate) latencies_us: Vec<u32>,
    pub(crate) errors: u64,
}

impl Tally {
    /// A request that was due at `due` has just ended: its latency counts from then.
    pub(crate) fn record(tally: &Mutex<Tally>, due: Instant, ok: bool) {
        let latency = due.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
        let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
        t.latencies_us.push(latency);
        t.errors += u64::from(!ok);
    }

    /// What was recorded since the last take.
    pub(crate) fn take(tally: &Mutex<Tally>) -> Tally {
        std::mem::take(&mut *tally.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Where requests go: writes to the primary; reads to the replica one time in two
/// when there is one.
#[derive(Clone)]
struct Targets {
    primary: Arc<Client>,
    replica: Option<Arc<Client>>,
}

/// One request of the mix: the `i`-th.
async fn request(targets: &Targets, calls: &[Call], options: &Options, i: u64) -> bool {
    // Hashed, so the clients (whose counters advance together) do not all write at
    // once and then all read.
    let hash = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let write = ((hash >> 20) % 1000) as f64 / 1000.0 < options.write_share;
    if write {
        // A durable property update on an existing node: the graph's size stays the
        // same, so memory growth over the soak is not the data's.
        let node = (hash >> 11) % options.nodes.max(1);
        let op = ops::set_node(
            ops::node(node as u32),
            vec![("soak".into(), Value::Int(i as i64))],
        );
        return targets.primary.write(vec![op]).await.is_ok();
    }
    let client = match &targets.replica {
        Some(replica) if (hash >> 40) & 1 == 1 => replica,
        _ => &targets.primary,
    };
    let (procedure, params) = &calls[(i as usize) % calls.len()];
    client.call(procedure, params.clone()).await.is_ok()
}

/// The closed-loop maximum: every client sends its next request as soon as the
/// last is answered.
async fn measure_max(targets: &Targets, calls: &Arc<Vec<Call>>, options: &Options) -> f64 {
    let done = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let tasks: Vec<_> = (0..options.clients)
        .map(|c| {
            let (targets, calls, options) = (targets.clone(), calls.clone(), options.clone());
            let (done, stop) = (done.clone(), stop.clone());
            tokio::spawn(async move {
                let mut i = c as u64;
                while !stop.load(Ordering::Relaxed) {
                    if request(&targets, &calls, &options, i).await {
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                    i += options.clients as u64;
                }
            })
        })
        .collect();
    tokio::time::sleep(options.max_duration).await;
    stop.store(true, Ordering::Relaxed);
    let elapsed = started.elapsed().as_secs_f64();
    let count = done.load(Ordering::Relaxed);
    for t in tasks {
        let _ = t.await;
    }
    count as f64 / elapsed
}

pub(crate) fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    f64::from(sorted[i]) / 1000.0
}

/// A client of the server at `addr` over `connections` WebSocket connections, for the
/// paced loads (the soak, the overload experiment).
pub(crate) async fn connect(
    addr: std::net::SocketAddr,
    connections: usize,
) -> Result<Arc<Client>, String> {
    let config = ClientConfig {
        connections_per_url: connections,
        request_timeout: Duration::from_secs(30),
        ..ClientConfig::new(format!("ws://{addr}/v1/ws"))
    };
    let client = Client::connect(config)
        .await
        .map_err(|e| format!("connecting: {e}"))?;
    Ok(Arc::new(client))
}

/// The server's `/metrics` now, read off the runtime (`curl` blocks, and the paced
/// clients share the runtime's threads).
async fn scrape_of(addr: std::net::SocketAddr) -> Option<scrape::Scrape> {
    tokio::task::spawn_blocking(move || scrape::Scrape::of(addr))
        .await
        .ok()
        .flatten()
}

/// Runs the soak: starts the server, measures the maximum, then holds `fraction` of
/// it for `duration`, one window every `window`; `progress` sees each window.
pub async fn run(
    queries: &[Query],
    options: Options,
    window: Duration,
    mut progress: impl FnMut(&Window),
) -> Result<Report, String> {
    let servers = servers::Servers::start(&options)?;
    let targets = Targets {
        primary: connect(servers.primary.addr, 8).await?,
        replica: match &servers.replica {
            Some(replica) => Some(connect(replica.addr, 8).await?),
            None => None,
        },
    };
    let calls = Arc::new(schedule(queries, false));
    let max_rate = measure_max(&targets, &calls, &options).await;
    let target_rate = max_rate * options.fraction;
    let tally = Arc::new(Mutex::new(Tally::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let per_client = Duration::from_secs_f64(options.clients as f64 / target_rate.max(1.0));
    let tasks: Vec<_> = (0..options.clients)
        .map(|c| {
            let (targets, calls, options) = (targets.clone(), calls.clone(), options.clone());
            let (tally, stop) = (tally.clone(), stop.clone());
            // Clients are staggered across one period, so sends spread evenly.
            let offset = per_client.mul_f64(c as f64 / options.clients as f64);
            tokio::spawn(async move {
                let mut due = started + offset;
                let mut i = c as u64;
                while !stop.load(Ordering::Relaxed) {
                    tokio::time::sleep_until(due.into()).await;
                    let ok = request(&targets, &calls, &options, i).await;
                    Tally::record(&tally, due, ok);
                    due += per_client;
                    i += options.clients as u64;
                }
            })
        })
        .collect();
    let mut windows = Vec::new();
    let mut last = Instant::now();
    let primary = servers.primary.addr;
    let mut last_scrape = scrape_of(primary).await;
    while started.elapsed() < options.duration {
        tokio::time::sleep(window.min(options.duration.saturating_sub(started.elapsed()))).await;
        let Tally {
            mut latencies_us,
            errors,
        } = Tally::take(&tally);
        let seconds = last.elapsed().as_secs_f64();
        last = Instant::now();
        latencies_us.sort_unstable();
        let scraped = scrape_of(primary).await;
        let server = match (&last_scrape, &scraped) {
            (Some(earlier), Some(later)) => Some(ServerWindow::between(earlier, later)),
            _ => None,
        };
        last_scrape = scraped;
        let w = Window {
            at_s: started.elapsed().as_secs_f64(),
            ops_per_s: latencies_us.len() as f64 / seconds,
            errors,
            p50_ms: percentile(&latencies_us, 0.50),
            p99_ms: percentile(&latencies_us, 0.99),
            p999_ms: percentile(&latencies_us, 0.999),
            memory: Memory::of(servers.primary.pid()),
            replica: match &servers.replica {
                Some(replica) => Some(ReplicaWindow {
                    memory: Memory::of(replica.pid()),
                    lag_versions: servers.lag_versions().await,
                }),
                None => None,
            },
            server,
        };
        progress(&w);
        windows.push(w);
    }
    stop.store(true, Ordering::Relaxed);
    for t in tasks {
        let _ = t.await;
    }
    drop(servers);
    Ok(Report {
        max_rate,
        target_rate,
        windows,
        options,
    })
}
