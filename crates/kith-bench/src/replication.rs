//! `kith bench replication`: replica lag, from a write's commit on the primary to
//! the moment a replica serves it, at set write rates and at the most the primary
//! takes (issue 14's measure).
//!
//! Two real `kith serve` processes (a primary publishing to a Kafka broker, and a
//! replica bootstrapped from it) on loopback. A writer sends one-node transactions
//! to the primary at the target rate (open loop: a write is sent on its tick whether
//! or not the ones before were answered). When the primary answers write `v` at time
//! `t0`, a read naming `min_version = v` goes to the replica; the replica answers it
//! once it has applied `v`, at `t1`. The lag is `t1 - t0`: it includes one read round
//! trip (about 0.1 ms here) and the replica's 1 ms polling of its version. `t0` is
//! when the client has the answer, a little after the commit: a client delayed by
//! the machine's load shortens the lag it sees, so the write's own latency (send to
//! answer) is reported beside it, and their sum bounds the lag from above.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kith_client::{ops, Client, ClientConfig};
use kith_core::Value;
use kith_protocol::Request;
use tokio::sync::{mpsc, Semaphore};

use crate::process::{self, ServeProcess};

/// What to measure.
#[derive(Clone, Debug)]
pub struct Options {
    /// The broker, `HOST:PORT`.
    pub kafka: String,
    /// Write rates per second; `None` is "as fast as the primary takes" (closed
    /// loop with `in_flight` writes outstanding).
    pub rates: Vec<Option<u64>>,
    /// Seconds per rate.
    pub seconds: f64,
    /// Writes outstanding in the closed-loop case.
    pub in_flight: usize,
    /// Where the two data directories go.
    pub scratch: PathBuf,
    /// The `kith` binary to start.
    pub kith: PathBuf,
}

/// One rate's figures.
#[derive(Clone, Debug)]
pub struct Case {
    /// The target rate (`None`: as fast as it goes).
    pub target: Option<u64>,
    /// Writes committed (and their lag measured) per second of the rate's run.
    pub achieved: f64,
    /// Lags measured.
    pub samples: usize,
    /// Median and 99th percentile of the writes' own latency (send to answer), ms.
    pub write_p50_ms: f64,
    /// 99th percentile.
    pub write_p99_ms: f64,
    /// Median, 99th percentile and largest lag, in ms.
    pub p50_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// Largest.
    pub max_ms: f64,
    /// Writes that failed.
    pub write_errors: usize,
    /// Replica reads that failed (their writes committed).
    pub read_errors: usize,
}

fn serve(
    options: &Options,
    name: &str,
    addr: SocketAddr,
    extra: &[String],
) -> Result<ServeProcess, String> {
    let log = options.scratch.join(format!("{name}.log"));
    process::serve(
        &options.kith,
        &options.scratch.join(name),
        addr,
        extra,
        &log,
    )
}

fn client_config(addr: SocketAddr, connections: usize) -> ClientConfig {
    let mut config = ClientConfig::new(format!("ws://{addr}/v1/ws"));
    config.connections_per_url = connections;
    config.request_timeout = Duration::from_secs(30);
    config
}

/// Starts the primary and the replica, then measures each rate.
pub fn run(options: &Options) -> Result<Vec<Case>, String> {
    let topic = format!(
        "kafka://{}/bench-replication-{}",
        options.kafka,
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_err(|e| e.to_string())?
            .as_millis()
    );
    let (p_addr, r_addr) = (process::free_port()?, process::free_port()?);
    let _primary = serve(
        options,
        "primary",
        p_addr,
        &["--publish".into(), topic.clone()],
    )?;
    process::wait_for_checkpoint(p_addr)?;
    let bootstrap = format!("http://{p_addr}");
    let replica_args = [
        "--replica-of".to_owned(),
        topic,
        "--bootstrap".into(),
        bootstrap,
    ];
    let _replica = serve(options, "replica", r_addr, &replica_args)?;
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let primary = Arc::new(
            Client::connect(client_config(p_addr, 4))
                .await
                .map_err(|e| e.to_string())?,
        );
        let replica = Arc::new(
            Client::connect(client_config(r_addr, 4))
                .await
                .map_err(|e| e.to_string())?,
        );
        let mut cases = Vec::new();
        let mut next_id = 0i64;
        for target in &options.rates {
            let case = measure(&primary, &replica, *target, options, &mut next_id).await;
            cases.push(case);
        }
        Ok(cases)
    })
}

/// One write: a node with a fresh id.
fn write_ops(id: i64) -> Vec<Value> {
    vec![ops::create_node(
        &["Item"],
        vec![("id".into(), Value::Int(id))],
    )]
}

async fn measure(
    primary: &Arc<Client>,
    replica: &Arc<Client>,
    target: Option<u64>,
    options: &Options,
    next_id: &mut i64,
) -> Case {
    let (lags, done) = mpsc::unbounded_channel::<Result<(Duration, Duration), bool>>();
    let started = Instant::now();
    let length = Duration::from_secs_f64(options.seconds);
    // Open loop at a rate: a write per tick. Closed loop: `in_flight` writes at once;
    // a write's slot is free once it is answered, while its replica read goes on
    // (bounded apart), so the write rate is not paced by the lag it measures.
    let slots = Arc::new(Semaphore::new(match target {
        Some(_) => 100_000,
        None => options.in_flight,
    }));
    let reads = Arc::new(Semaphore::new(100_000));
    let interval = target.map(|r| Duration::from_secs_f64(1.0 / r as f64));
    let mut sent = 0u64;
    while started.elapsed() < length {
        if let Some(interval) = interval {
            let due = started + interval * sent as u32;
            tokio::time::sleep_until(due.into()).await;
        }
        let Ok(permit) = slots.clone().acquire_owned().await else {
            break;
        };
        let (primary, replica, lags) = (primary.clone(), replica.clone(), lags.clone());
        let reads = reads.clone();
        let id = *next_id;
        *next_id += 1;
        tokio::spawn(async move {
            let sent = Instant::now();
            let written = primary.write(write_ops(id)).await;
            let answered = Instant::now();
            drop(permit);
            let Ok(write) = written else {
                let _ = lags.send(Err(true));
                return;
            };
            let Ok(_read_slot) = reads.acquire().await else {
                return;
            };
            let lag = lag(&replica, write.version, answered).await;
            let _ = lags.send(lag.map(|lag| (answered - sent, lag)).map_err(|()| false));
        });
        sent += 1;
    }
    drop(lags);
    let mut done = done;
    let mut samples = Vec::new();
    let mut writes = Vec::new();
    let (mut write_errors, mut read_errors) = (0, 0);
    while let Some(outcome) = done.recv().await {
        match outcome {
            Ok((write, lag)) => {
                writes.push(write);
                samples.push(lag);
            }
            Err(true) => write_errors += 1,
            Err(false) => read_errors += 1,
        }
    }
    samples.sort();
    writes.sort();
    let ms = |sorted: &[Duration], q: f64| {
        sorted
            .get(((sorted.len().max(1) - 1) as f64 * q).round() as usize)
            .map_or(0.0, |d| d.as_secs_f64() * 1e3)
    };
    Case {
        target,
        achieved: samples.len() as f64 / length.as_secs_f64(),
        samples: samples.len(),
        write_p50_ms: ms(&writes, 0.5),
        write_p99_ms: ms(&writes, 0.99),
        p50_ms: ms(&samples, 0.5),
        p99_ms: ms(&samples, 0.99),
        max_ms: ms(&samples, 1.0),
        write_errors,
        read_errors,
    }
}

/// From a write's answer to a read at its version answered by the replica.
async fn lag(replica: &Client, version: u64, answered: Instant) -> Result<Duration, ()> {
    let probe = Request::Cypher {
        query: "RETURN 1 AS one".into(),
        params: Vec::new(),
        timing: false,
        tx: None,
    };
    replica
        .send_at(probe, Some(version))
        .await
        .map_err(|_| ())?;
    Ok(answered.elapsed())
}

/// The table for docs/benchmarks.md.
pub fn markdown(options: &Options, cases: &[Case]) -> String {
    let mut out = format!(
        "kith bench replication: primary and replica as processes, Kafka at {}, {:.0} s per rate, one-node write transactions (fsync), lag = commit answered on the primary -> a read at that version answered by the replica\n\n",
        options.kafka, options.seconds
    );
    out.push_str("| target writes/s | writes/s measured | write p50 | write p99 | lag p50 | lag p99 | lag max | samples | write errors | read errors |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for c in cases {
        let target = c
            .target
            .map_or(format!("max ({} in flight)", options.in_flight), |t| {
                t.to_string()
            });
        out.push_str(&format!(
            "| {target} | {:.0} | {:.2} ms | {:.2} ms | {:.2} ms | {:.2} ms | {:.2} ms | {} | {} | {} |\n",
            c.achieved,
            c.write_p50_ms,
            c.write_p99_ms,
            c.p50_ms,
            c.p99_ms,
            c.max_ms,
            c.samples,
            c.write_errors,
            c.read_errors
        ));
    }
    out
}

/// Where the scratch directories go: `dir` or a new temporary one (kept alive by
/// the returned guard).
pub fn scratch(dir: Option<&Path>) -> Result<(PathBuf, Option<tempfile::TempDir>), String> {
    match dir {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
            Ok((dir.to_path_buf(), None))
        }
        None => {
            let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
            Ok((tmp.path().to_path_buf(), Some(tmp)))
        }
    }
}
