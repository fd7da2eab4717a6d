//! The overload experiment (issue 18, docs/reliability.md): a well-behaved client
//! load runs against `kith serve` while one attack after another runs beside it; each
//! phase records that load's latency (from when each request was due), its errors,
//! the server's peak resident memory and what the attacker got back. The claim under
//! test: the server answers `busy` or closes the offender as documented, its memory
//! stays bounded, and other clients keep their latency.

mod attacks;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kith_client::Client;

pub use attacks::Attack;
use attacks::Tallies;

use crate::process::{self, ServeProcess};
use crate::shindig::Query;
use crate::soak::{connect, percentile, rss_mib, Tally};
use crate::throughput::{schedule, Call};

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// The `kith` binary.
    pub kith: PathBuf,
    /// The data directory served.
    pub data: PathBuf,
    /// Where the server's log goes.
    pub log: PathBuf,
    /// How long each phase runs.
    pub phase: Duration,
    /// The well-behaved load: requests per second, spread over its clients.
    pub rate: f64,
    /// Its clients (one request in flight each).
    pub clients: usize,
    /// Server worker threads.
    pub workers: usize,
    /// The server's limits the attacks aim at.
    pub limits: Limits,
    /// The attacks to run (empty: every one).
    pub only: Vec<Attack>,
    /// The attackers' threads' nice value (0: as the rest). On one machine the
    /// attacker competes with the server for the cores; a positive value stands in
    /// for an attacker on another machine, so what remains is the server's policy.
    pub attacker_nice: i32,
}

/// The server limits set for the run (smaller than the defaults, so 20x of them fits
/// in one machine's file descriptors).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// `connections_max` (WebSocket).
    pub connections_max: usize,
    /// `http_connections_max`.
    pub http_connections_max: usize,
    /// `http_header_timeout_ms`.
    pub http_header_timeout_ms: u64,
    /// `write_stall_timeout_ms`.
    pub write_stall_timeout_ms: u64,
    /// `frame_bytes_max`.
    pub frame_bytes_max: usize,
    /// `inflight_per_connection_max`.
    pub inflight_per_connection_max: usize,
}

impl Limits {
    fn flags(&self) -> Vec<String> {
        [
            ("--connections-max", self.connections_max.to_string()),
            (
                "--http-connections-max",
                self.http_connections_max.to_string(),
            ),
            (
                "--http-header-timeout-ms",
                self.http_header_timeout_ms.to_string(),
            ),
            (
                "--write-stall-timeout-ms",
                self.write_stall_timeout_ms.to_string(),
            ),
            ("--frame-bytes-max", self.frame_bytes_max.to_string()),
            (
                "--inflight-per-connection-max",
                self.inflight_per_connection_max.to_string(),
            ),
        ]
        .into_iter()
        .flat_map(|(flag, value)| [flag.to_string(), value])
        .collect()
    }
}

/// One phase: an attack (or none) beside the well-behaved load.
#[derive(Clone, Debug)]
pub struct Phase {
    /// The attack.
    pub attack: Attack,
    /// The well-behaved load's requests answered.
    pub answered: u64,
    /// Its requests that failed.
    pub errors: u64,
    /// Its latency percentiles, ms: 50, 99, 99.9, and the largest.
    pub p50_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// 99.9th percentile.
    pub p999_ms: f64,
    /// The largest.
    pub max_ms: f64,
    /// The server's resident memory at the phase's start and its peak during it, MiB.
    pub rss_start_mib: f64,
    /// Peak.
    pub rss_peak_mib: f64,
    /// What the attacker saw, counted by outcome.
    pub attacker: Vec<(&'static str, u64)>,
}

/// The whole run.
#[derive(Clone, Debug)]
pub struct Report {
    /// Its phases, the first and last without an attack.
    pub phases: Vec<Phase>,
    /// The options it ran with.
    pub options: Options,
}

/// Sets the calling thread's nice value (on Linux each thread has its own); a
/// refusal is only warned about, the run goes on at the usual priority.
fn nice_this_thread(nice: i32) {
    if nice == 0 {
        return;
    }
    // Safety: setpriority takes integers and no pointer; `0` names the calling thread.
    #[expect(unsafe_code, reason = "setpriority has no safe wrapper in libc")]
    let set = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, nice) };
    if set != 0 {
        eprintln!(
            "warning: the attacker thread's nice {nice} was refused: {}",
            std::io::Error::last_os_error()
        );
    }
}

/// Runs every phase: a baseline, each attack, a baseline again.
pub async fn run(
    queries: &[Query],
    options: Options,
    mut progress: impl FnMut(&Phase),
) -> Result<Report, String> {
    let addr = process::free_port()?;
    let mut extra = vec!["--workers".to_string(), options.workers.to_string()];
    extra.extend(options.limits.flags());
    let server: ServeProcess =
        process::serve(&options.kith, &options.data, addr, &extra, &options.log)?;
    let calls: Arc<Vec<Call>> = Arc::new(schedule(queries, false));
    let client = connect(addr, options.clients.min(8)).await?;
    let nice = options.attacker_nice;
    let attackers = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .on_thread_start(move || nice_this_thread(nice))
        .enable_all()
        .build()
        .map_err(|e| format!("starting the attackers' runtime: {e}"))?;
    let mut phases = Vec::new();
    let attacks = if options.only.is_empty() {
        Attack::ALL.to_vec()
    } else {
        options.only.clone()
    };
    let order = std::iter::once(Attack::None)
        .chain(attacks)
        .chain(std::iter::once(Attack::None));
    for attack in order {
        let phase = run_phase(
            attack,
            attackers.handle(),
            addr,
            &server,
            &client,
            &calls,
            &options,
        )
        .await;
        progress(&phase);
        phases.push(phase);
        // What an attack left (closing connections, queued work) settles first.
        tokio::time::sleep(SETTLE).await;
    }
    attackers.shutdown_background();
    drop(server);
    Ok(Report { phases, options })
}

/// The well-behaved clients: each sends on a fixed schedule and waits for its answer;
/// a request's latency counts from when it was due.
fn start_load(
    client: &Arc<Client>,
    calls: &Arc<Vec<Call>>,
    options: &Options,
    tally: &Arc<Mutex<Tally>>,
    stop: &Arc<AtomicBool>,
) -> Vec<tokio::task::JoinHandle<()>> {
    let per_client = Duration::from_secs_f64(options.clients as f64 / options.rate.max(1.0));
    let started = Instant::now();
    (0..options.clients)
        .map(|c| {
            let (client, calls, tally, stop) =
                (client.clone(), calls.clone(), tally.clone(), stop.clone());
            let offset = per_client.mul_f64(c as f64 / options.clients as f64);
            let clients = options.clients;
            tokio::spawn(async move {
                let (mut due, mut i) = (started + offset, c);
                while !stop.load(Ordering::Relaxed) {
                    tokio::time::sleep_until(due.into()).await;
                    let (procedure, params) = &calls[i % calls.len()];
                    let ok = client.call(procedure, params.clone()).await.is_ok();
                    Tally::record(&tally, due, ok);
                    due += per_client;
                    i += clients;
                }
            })
        })
        .collect()
}

/// Time between phases, for what an attack left behind to settle.
const SETTLE: Duration = Duration::from_secs(3);

/// One phase: the attack starts, then a fresh well-behaved load runs for
/// `options.phase` beside it (each phase's load starts on time: no backlog carries
/// over); the server's memory is sampled every 100 ms.
async fn run_phase(
    attack: Attack,
    attackers: &tokio::runtime::Handle,
    addr: std::net::SocketAddr,
    server: &ServeProcess,
    client: &Arc<Client>,
    calls: &Arc<Vec<Call>>,
    options: &Options,
) -> Phase {
    let rss_start_mib = rss_mib(server.pid());
    let stop = Arc::new(AtomicBool::new(false));
    let tallies = Tallies::default();
    let attacker = attack.start(
        attackers,
        addr,
        options.limits,
        calls.clone(),
        &stop,
        &tallies,
    );
    // The attack takes hold (connections open, queues fill) before the load starts.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let tally = Arc::new(Mutex::new(Tally::default()));
    let load_stop = Arc::new(AtomicBool::new(false));
    let load = start_load(client, calls, options, &tally, &load_stop);
    let mut rss_peak_mib = rss_start_mib;
    let started = Instant::now();
    while started.elapsed() < options.phase {
        tokio::time::sleep(Duration::from_millis(100)).await;
        rss_peak_mib = rss_peak_mib.max(rss_mib(server.pid()));
    }
    // Requests still waiting count too: the load stops sending, and what it sent is
    // answered (or fails) before the attack stops.
    load_stop.store(true, Ordering::Relaxed);
    for task in load {
        let _ = task.await;
    }
    let Tally {
        mut latencies_us,
        errors,
    } = Tally::take(&tally);
    stop.store(true, Ordering::Relaxed);
    for task in attacker {
        let _ = tokio::time::timeout(Duration::from_secs(5), task).await;
    }
    latencies_us.sort_unstable();
    Phase {
        attack,
        answered: latencies_us.len() as u64 - errors,
        errors,
        p50_ms: percentile(&latencies_us, 0.50),
        p99_ms: percentile(&latencies_us, 0.99),
        p999_ms: percentile(&latencies_us, 0.999),
        max_ms: percentile(&latencies_us, 1.0),
        rss_start_mib,
        rss_peak_mib,
        attacker: tallies.snapshot(),
    }
}

impl Report {
    /// The baseline p99: the median of the two phases without an attack.
    pub fn baseline_p99_ms(&self) -> f64 {
        let base: Vec<f64> = self
            .phases
            .iter()
            .filter(|p| p.attack == Attack::None)
            .map(|p| p.p99_ms)
            .collect();
        base.iter().sum::<f64>() / base.len().max(1) as f64
    }

    /// The report as Markdown: one row per phase.
    pub fn markdown(&self) -> String {
        let o = &self.options;
        let l = &o.limits;
        let mut out = format!(
            "# Overload: {} well-behaved clients at {:.0} req/s beside each attack, {:.0} s each\n\n\
             Server: {} workers; connections_max {}, http_connections_max {}, \
             http_header_timeout_ms {}, write_stall_timeout_ms {}, frame_bytes_max {}, \
             inflight_per_connection_max {}.{}\n\n\
             | attack | answered | errors | p50 ms | p99 ms | p99.9 ms | max ms | p99 / baseline | RSS start -> peak MiB | the attacker got |\n\
             |---|---|---|---|---|---|---|---|---|---|\n",
            o.clients,
            o.rate,
            o.phase.as_secs_f64(),
            o.workers,
            l.connections_max,
            l.http_connections_max,
            l.http_header_timeout_ms,
            l.write_stall_timeout_ms,
            l.frame_bytes_max,
            l.inflight_per_connection_max,
            match o.attacker_nice {
                0 => String::new(),
                n => format!(" The attackers' threads run at nice {n}."),
            },
        );
        let base = self.baseline_p99_ms().max(0.001);
        for p in &self.phases {
            let got: Vec<String> = p
                .attacker
                .iter()
                .map(|(what, n)| format!("{n} {what}"))
                .collect();
            out.push_str(&format!(
                "| {} | {} | {} | {:.2} | {:.2} | {:.2} | {:.1} | {:.2}x | {:.0} -> {:.0} | {} |\n",
                p.attack.describe(l),
                p.answered,
                p.errors,
                p.p50_ms,
                p.p99_ms,
                p.p999_ms,
                p.max_ms,
                p.p99_ms / base,
                p.rss_start_mib,
                p.rss_peak_mib,
                if got.is_empty() {
                    "-".to_string()
                } else {
                    got.join(", ")
                },
            ));
        }
        out
    }

    /// Fails unless the well-behaved load saw no error in any phase.
    pub fn check(&self) -> Result<(), String> {
        let failed: Vec<String> = self
            .phases
            .iter()
            .filter(|p| p.errors > 0)
            .map(|p| format!("{} errors beside {:?}", p.errors, p.attack))
            .collect();
        if failed.is_empty() {
            Ok(())
        } else {
            Err(failed.join("; "))
        }
    }
}
