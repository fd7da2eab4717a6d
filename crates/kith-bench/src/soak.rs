//! The soak (issue 18, docs/reliability.md): a mixed read/write load at a fraction
//! (90 %) of the measured maximum, for a long time, against a durable `kith serve`.
//! Every window records throughput, errors, latency percentiles and the server's
//! resident memory, so a leak, a slow drift of latency or a stall shows up as a
//! slope in the plots.
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

use crate::ldbc::median;
use crate::process::{self, ServeProcess};
use crate::shindig::Query;
use crate::throughput::{schedule, Call};

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// The `kith` binary.
    pub kith: PathBuf,
    /// The data directory served (a copy: the writes change it).
    pub data: PathBuf,
    /// Where the server's log goes.
    pub log: PathBuf,
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
    /// The server's resident memory, MiB.
    pub rss_mib: f64,
    /// The anonymous part of it (heap, stacks), MiB.
    pub rss_anon_mib: f64,
    /// The file-backed part of it (the mapped graph file, the binary), MiB.
    pub rss_file_mib: f64,
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

/// Latencies (µs) and errors of the current window, shared by the clients.
#[derive(Default)]
struct Tally {
    latencies_us: Vec<u32>,
    errors: u64,
}

/// One request of the mix: the `i`-th.
async fn request(client: &Client, calls: &[Call], options: &Options, i: u64) -> bool {
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
        return client.write(vec![op]).await.is_ok();
    }
    let (procedure, params) = &calls[(i as usize) % calls.len()];
    client.call(procedure, params.clone()).await.is_ok()
}

/// The closed-loop maximum: every client sends its next request as soon as the
/// last is answered.
async fn measure_max(client: &Arc<Client>, calls: &Arc<Vec<Call>>, options: &Options) -> f64 {
    let done = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let tasks: Vec<_> = (0..options.clients)
        .map(|c| {
            let (client, calls, options) = (client.clone(), calls.clone(), options.clone());
            let (done, stop) = (done.clone(), stop.clone());
            tokio::spawn(async move {
                let mut i = c as u64;
                while !stop.load(Ordering::Relaxed) {
                    if request(&client, &calls, &options, i).await {
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

/// Resident memory of a process, MiB, from `/proc/<pid>/status`.
pub(crate) fn rss_mib(pid: u32) -> f64 {
    status_mib(pid, "VmRSS:")
}

/// One memory field of `/proc/PID/status` (given in kB there), MiB; 0 when the
/// process or the field is gone.
fn status_mib(pid: u32, field: &str) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
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

/// Runs the soak: starts the server, measures the maximum, then holds `fraction` of
/// it for `duration`, one window every `window`; `progress` sees each window.
pub async fn run(
    queries: &[Query],
    options: Options,
    window: Duration,
    mut progress: impl FnMut(&Window),
) -> Result<Report, String> {
    let addr = process::free_port()?;
    let extra = vec!["--workers".to_string(), options.workers.to_string()];
    let server: ServeProcess =
        process::serve(&options.kith, &options.data, addr, &extra, &options.log)?;
    let client = connect(addr, 8).await?;
    let calls = Arc::new(schedule(queries, false));
    let max_rate = measure_max(&client, &calls, &options).await;
    let target_rate = max_rate * options.fraction;
    let tally = Arc::new(Mutex::new(Tally::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let per_client = Duration::from_secs_f64(options.clients as f64 / target_rate.max(1.0));
    let tasks: Vec<_> = (0..options.clients)
        .map(|c| {
            let (client, calls, options) = (client.clone(), calls.clone(), options.clone());
            let (tally, stop) = (tally.clone(), stop.clone());
            // Clients are staggered across one period, so sends spread evenly.
            let offset = per_client.mul_f64(c as f64 / options.clients as f64);
            tokio::spawn(async move {
                let mut due = started + offset;
                let mut i = c as u64;
                while !stop.load(Ordering::Relaxed) {
                    tokio::time::sleep_until(due.into()).await;
                    let ok = request(&client, &calls, &options, i).await;
                    let latency = due.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                    let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
                    t.latencies_us.push(latency);
                    t.errors += u64::from(!ok);
                    drop(t);
                    due += per_client;
                    i += options.clients as u64;
                }
            })
        })
        .collect();
    let mut windows = Vec::new();
    let mut last = Instant::now();
    while started.elapsed() < options.duration {
        tokio::time::sleep(window.min(options.duration.saturating_sub(started.elapsed()))).await;
        let Tally {
            mut latencies_us,
            errors,
        } = std::mem::take(&mut *tally.lock().unwrap_or_else(|e| e.into_inner()));
        let seconds = last.elapsed().as_secs_f64();
        last = Instant::now();
        latencies_us.sort_unstable();
        let w = Window {
            at_s: started.elapsed().as_secs_f64(),
            ops_per_s: latencies_us.len() as f64 / seconds,
            errors,
            p50_ms: percentile(&latencies_us, 0.50),
            p99_ms: percentile(&latencies_us, 0.99),
            p999_ms: percentile(&latencies_us, 0.999),
            rss_mib: rss_mib(server.pid()),
            rss_anon_mib: status_mib(server.pid(), "RssAnon:"),
            rss_file_mib: status_mib(server.pid(), "RssFile:"),
        };
        progress(&w);
        windows.push(w);
    }
    stop.store(true, Ordering::Relaxed);
    for t in tasks {
        let _ = t.await;
    }
    drop(server);
    Ok(Report {
        max_rate,
        target_rate,
        windows,
        options,
    })
}

/// The bound on memory growth after the warm-up (issue 18).
pub const RSS_GROWTH_MAX_PCT: f64 = 5.0;
/// The bound on latency drift: the last fifth's median p99 over the first steady
/// fifth's.
pub const P99_DRIFT_MAX: f64 = 1.5;

impl Report {
    /// The windows after the warm-up (the first fifth of the run).
    pub fn steady(&self) -> &[Window] {
        &self.windows[self.windows.len() / 5..]
    }

    /// Requests that failed, over the whole soak.
    pub fn errors(&self) -> u64 {
        self.windows.iter().map(|w| w.errors).sum()
    }

    /// Requests answered, over the whole soak.
    pub fn requests(&self) -> f64 {
        let mut last = 0.0;
        self.windows
            .iter()
            .map(|w| {
                let n = w.ops_per_s * (w.at_s - last);
                last = w.at_s;
                n
            })
            .sum()
    }

    /// Resident memory growth after the warm-up, percent: the median of the last
    /// fifth of the steady windows against the median of the first fifth (medians:
    /// one window's allocator noise is not a trend).
    pub fn rss_growth_pct(&self) -> f64 {
        let steady = self.steady();
        let n = (steady.len() / 5).max(1);
        let early = median(steady.iter().take(n).map(|w| w.rss_mib).collect());
        let late = median(steady.iter().rev().take(n).map(|w| w.rss_mib).collect());
        (late - early) / early.max(1e-9) * 100.0
    }

    /// The median p99 of the last fifth of the windows over that of the first steady
    /// fifth: 1 is flat.
    pub fn p99_drift(&self) -> f64 {
        let steady = self.steady();
        let n = (steady.len() / 5).max(1);
        let early = median(steady.iter().take(n).map(|w| w.p99_ms).collect());
        let late = median(steady.iter().rev().take(n).map(|w| w.p99_ms).collect());
        late / early.max(1e-9)
    }

    /// No error, memory within its bound, latency flat.
    pub fn passed(&self) -> bool {
        self.errors() == 0
            && self.rss_growth_pct() < RSS_GROWTH_MAX_PCT
            && self.p99_drift() <= P99_DRIFT_MAX
    }

    /// One line per window.
    pub fn csv(&self) -> String {
        let mut out = String::from(
            "at_s,ops_per_s,errors,p50_ms,p99_ms,p999_ms,rss_mib,rss_anon_mib,rss_file_mib\n",
        );
        for w in &self.windows {
            out.push_str(&format!(
                "{:.0},{:.1},{},{:.3},{:.3},{:.3},{:.1},{:.1},{:.1}\n",
                w.at_s,
                w.ops_per_s,
                w.errors,
                w.p50_ms,
                w.p99_ms,
                w.p999_ms,
                w.rss_mib,
                w.rss_anon_mib,
                w.rss_file_mib
            ));
        }
        out
    }

    /// The summary with its verdicts.
    pub fn markdown(&self) -> String {
        let o = &self.options;
        let verdict = |ok: bool| if ok { "holds" } else { "**fails**" };
        let steady = self.steady();
        let p = |f: fn(&Window) -> f64| median(steady.iter().map(f).collect());
        format!(
            "Soak: {minutes:.1} min at {fraction:.0} % of the measured maximum \
             ({max:.0} requests/s closed loop, {clients} clients, {workers} workers): \
             {target:.0} requests/s offered, {writes:.0} % durable writes.\n\n\
             | check | figure | bound | verdict |\n|---|---|---|---|\n\
             | errors | {errors} of {requests:.0} requests | 0 | {e_ok} |\n\
             | RSS growth after warm-up (median of the last fifth / first fifth) | {growth:.2} % ({first:.0} -> {last:.0} MiB, first and last steady window; anonymous {anon0:.0} -> {anon1:.0}, file-backed {file0:.0} -> {file1:.0}) | < {rss_max} % | {g_ok} |\n\
             | p99 drift (last fifth / first steady fifth) | {drift:.2}x | <= {drift_max}x | {d_ok} |\n\n\
             Steady-state medians over the windows: {ops:.0} requests/s, p50 {p50:.2} ms, \
             p99 {p99:.2} ms, p99.9 {p999:.2} ms.\n",
            minutes = o.duration.as_secs_f64() / 60.0,
            fraction = o.fraction * 100.0,
            max = self.max_rate,
            clients = o.clients,
            workers = o.workers,
            target = self.target_rate,
            writes = o.write_share * 100.0,
            errors = self.errors(),
            requests = self.requests(),
            e_ok = verdict(self.errors() == 0),
            growth = self.rss_growth_pct(),
            first = steady.first().map_or(0.0, |w| w.rss_mib),
            last = steady.last().map_or(0.0, |w| w.rss_mib),
            anon0 = steady.first().map_or(0.0, |w| w.rss_anon_mib),
            anon1 = steady.last().map_or(0.0, |w| w.rss_anon_mib),
            file0 = steady.first().map_or(0.0, |w| w.rss_file_mib),
            file1 = steady.last().map_or(0.0, |w| w.rss_file_mib),
            rss_max = RSS_GROWTH_MAX_PCT,
            g_ok = verdict(self.rss_growth_pct() < RSS_GROWTH_MAX_PCT),
            drift = self.p99_drift(),
            drift_max = P99_DRIFT_MAX,
            d_ok = verdict(self.p99_drift() <= P99_DRIFT_MAX),
            ops = p(|w| w.ops_per_s),
            p50 = p(|w| w.p50_ms),
            p99 = p(|w| w.p99_ms),
            p999 = p(|w| w.p999_ms),
        )
    }

    /// The plots: latency percentiles and memory over time (one point a minute,
    /// or per window for a run under ten minutes).
    pub fn svgs(&self) -> Vec<(String, String)> {
        let per = if self.windows.len() > 60 {
            self.windows.len().div_ceil(60)
        } else {
            1
        };
        let points: Vec<&[Window]> = self.windows.chunks(per).collect();
        let xs: Vec<f64> = points
            .iter()
            .map(|c| (c.last().map_or(0.0, |w| w.at_s) / 60.0 * 10.0).round() / 10.0)
            .collect();
        let series = |f: fn(&Window) -> f64| -> Vec<Option<f64>> {
            points
                .iter()
                .map(|c| Some(c.iter().map(f).fold(0.0, f64::max)))
                .collect()
        };
        let latency = crate::svg::lines(
            &crate::svg::Frame {
                title: "Soak: latency percentiles over time (the highest window of each point)",
                y_label: "ms",
                width: 1100.0,
                height: 440.0,
            },
            &xs,
            "minutes",
            &["p50".into(), "p99".into(), "p99.9".into()],
            &[
                series(|w| w.p50_ms),
                series(|w| w.p99_ms),
                series(|w| w.p999_ms),
            ],
        );
        let memory = crate::svg::lines(
            &crate::svg::Frame {
                title: "Soak: the server's resident memory over time",
                y_label: "MiB",
                width: 1100.0,
                height: 440.0,
            },
            &xs,
            "minutes",
            &[
                "RSS".into(),
                "anonymous".into(),
                "file-backed".into(),
                "requests/s / 100".into(),
            ],
            &[
                series(|w| w.rss_mib),
                series(|w| w.rss_anon_mib),
                series(|w| w.rss_file_mib),
                series(|w| w.ops_per_s / 100.0),
            ],
        );
        vec![
            ("soak-latency.svg".into(), latency),
            ("soak-memory.svg".into(), memory),
        ]
    }
}
