//! `kith bench ingest`: S4's update path measured. The LDBC update streams are
//! produced into a fresh Kafka topic, then a `kith serve --ingest` process on a copy
//! of the data directory applies them as the single writer while `readers` clients
//! run IS1 (a person's profile) over WebSocket as fast as they can; the figures are
//! the events applied per second (from the server answering to its cursor reaching
//! the last event) and the readers' throughput and latency meanwhile.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kith_client::{Client, ClientConfig};
use kith_core::Value;

use crate::process::{self, ServeProcess};

/// What to measure.
#[derive(Clone, Debug)]
pub struct Options {
    /// The broker, `HOST:PORT`.
    pub kafka: String,
    /// The LDBC data directory (copied, not changed).
    pub data: PathBuf,
    /// The update streams.
    pub streams: PathBuf,
    /// Reader counts, one run each.
    pub readers: Vec<usize>,
    /// Where the copies go.
    pub scratch: PathBuf,
    /// The `kith` binary.
    pub kith: PathBuf,
}

/// One run's figures.
#[derive(Clone, Debug)]
pub struct Run {
    /// Concurrent readers.
    pub readers: usize,
    /// Events applied.
    pub events: u64,
    /// Seconds from the server answering to the last event applied.
    pub seconds: f64,
    /// Reads answered per second meanwhile.
    pub reads_per_s: f64,
    /// Read latency median and 99th percentile, in ms.
    pub read_p50_ms: f64,
    /// 99th percentile.
    pub read_p99_ms: f64,
    /// Events the store refused (from `/health`).
    pub failed: u64,
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for entry in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        let (path, name) = (entry.path(), entry.file_name());
        if name == "LOCK" {
            continue;
        }
        if path.is_dir() {
            copy_dir(&path, &to.join(&name))?;
        } else {
            std::fs::copy(&path, to.join(&name)).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// A number of the server's `/health` ingest section.
fn ingest_number(addr: SocketAddr, key: &str) -> Option<u64> {
    process::health_number(addr, Some("ingest"), key)
}

/// Produces the streams once, then measures each reader count on a fresh copy.
pub fn run(options: &Options) -> Result<Vec<Run>, String> {
    let lines = kith_ldbc::read_stream_lines(&options.streams).map_err(|e| e.to_string())?;
    let events = lines.len() as u64;
    let mut runs = Vec::new();
    for (i, readers) in options.readers.iter().enumerate() {
        let topic: kith_replication::KafkaUrl = format!(
            "kafka://{}/bench-ingest-{}-{i}",
            options.kafka,
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_err(|e| e.to_string())?
                .as_millis()
        )
        .parse()
        .map_err(|e: kith_replication::ReplicationError| e.to_string())?;
        let produced = kith_replication::produce_all(
            &topic,
            lines.iter().map(|(_, line)| line.clone().into_bytes()),
        )
        .map_err(|e| e.to_string())?;
        debug_assert_eq!(produced, events);
        let dir = options.scratch.join(format!("run-{i}"));
        let _ = std::fs::remove_dir_all(&dir);
        copy_dir(&options.data, &dir)?;
        runs.push(measure(
            options,
            &dir,
            &topic.to_string(),
            *readers,
            events,
        )?);
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(runs)
}

fn measure(
    options: &Options,
    dir: &Path,
    topic: &str,
    readers: usize,
    events: u64,
) -> Result<Run, String> {
    let addr = process::free_port()?;
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    // The readers' ids, read before the ingest starts (from a plain server).
    let ids = {
        let _server = serve(options, dir, addr, None)?;
        runtime.block_on(person_ids(addr))?
    };
    let server = serve(options, dir, addr, Some(topic))?;
    let started = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let ids = Arc::new(ids);
    let tasks: Vec<_> = (0..readers)
        .map(|r| runtime.spawn(reader(addr, ids.clone(), r, stop.clone())))
        .collect();
    let deadline = started + Duration::from_secs(600);
    while ingest_number(addr, "next_offset") != Some(events) {
        if Instant::now() > deadline {
            return Err(format!(
                "the ingest did not finish within 600 s (at {:?} of {events})",
                ingest_number(addr, "next_offset")
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let seconds = started.elapsed().as_secs_f64();
    stop.store(true, Ordering::Release);
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(runtime.block_on(task).map_err(|e| e.to_string())?);
    }
    let failed = ingest_number(addr, "failed").unwrap_or(0);
    drop(server);
    latencies.sort();
    let ms = |q: f64| {
        latencies
            .get(((latencies.len().max(1) - 1) as f64 * q).round() as usize)
            .map_or(0.0, |d: &Duration| d.as_secs_f64() * 1e3)
    };
    Ok(Run {
        readers,
        events,
        seconds,
        reads_per_s: latencies.len() as f64 / seconds,
        read_p50_ms: ms(0.5),
        read_p99_ms: ms(0.99),
        failed,
    })
}

fn serve(
    options: &Options,
    dir: &Path,
    addr: SocketAddr,
    ingest: Option<&str>,
) -> Result<ServeProcess, String> {
    let extra: Vec<String> = ingest
        .map(|topic| vec!["--ingest".to_owned(), topic.to_owned()])
        .unwrap_or_default();
    process::serve(&options.kith, dir, addr, &extra, &dir.with_extension("log"))
}

async fn person_ids(addr: SocketAddr) -> Result<Vec<i64>, String> {
    let client = Client::connect(ClientConfig::new(format!("ws://{addr}/v1/ws")))
        .await
        .map_err(|e| e.to_string())?;
    let result = client
        .cypher("MATCH (p:Person) RETURN p.id AS id LIMIT 2000", Vec::new())
        .await
        .map_err(|e| e.to_string())?;
    let ids: Vec<i64> = result.rows.iter().filter_map(|r| r[0].as_int()).collect();
    if ids.is_empty() {
        return Err("the data directory holds no Person (is it an LDBC data set?)".into());
    }
    Ok(ids)
}

/// IS1 in a loop on its own connection until `stop`; its latencies.
async fn reader(
    addr: SocketAddr,
    ids: Arc<Vec<i64>>,
    seed: usize,
    stop: Arc<AtomicBool>,
) -> Vec<Duration> {
    let Ok(client) = Client::connect(ClientConfig::new(format!("ws://{addr}/v1/ws"))).await else {
        return Vec::new();
    };
    let mut latencies = Vec::new();
    let mut i = seed * 7919;
    while !stop.load(Ordering::Acquire) {
        let id = ids[i % ids.len()];
        i += 1;
        let started = Instant::now();
        let params = vec![("personId".to_owned(), Value::Int(id))];
        if client.call("ldbc.is1", params).await.is_ok() {
            latencies.push(started.elapsed());
        }
    }
    latencies
}

/// The table for docs/benchmarks.md.
pub fn markdown(options: &Options, runs: &[Run]) -> String {
    let mut out = format!(
        "kith bench ingest: {} produced to Kafka at {}, applied by kith serve --ingest (one transaction an event, fsync) on a copy of {}, while readers run ldbc.is1 over WebSocket-BSON, one connection each\n\n",
        options.streams.display(),
        options.kafka,
        options.data.display()
    );
    out.push_str("| readers | events | ingest s | events/s | reads/s | read p50 | read p99 | failed events |\n|---|---|---|---|---|---|---|---|\n");
    for r in runs {
        out.push_str(&format!(
            "| {} | {} | {:.2} | {:.0} | {:.0} | {:.2} ms | {:.2} ms | {} |\n",
            r.readers,
            r.events,
            r.seconds,
            r.events as f64 / r.seconds,
            r.reads_per_s,
            r.read_p50_ms,
            r.read_p99_ms,
            r.failed
        ));
    }
    out
}
