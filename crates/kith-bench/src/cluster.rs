//! `kith bench cluster`: S1's cluster experiment. The Shindig read mix (the
//! throughput suite's, spikes excluded) from one client spreading its calls
//! round-robin over 1, 3 or 5 servers: a primary publishing to Kafka and replicas
//! bootstrapped from it, all processes on this machine. Throughput, latency, and the
//! servers' CPU per request, from which the scaling on separate hosts can be
//! projected (on 2 cores the servers share the same two).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use kith_client::{Client, ClientConfig};

use crate::process::{self, ServeProcess};
use crate::shindig::Query;
use crate::throughput::{cpu_seconds, schedule, Call};

/// What to measure.
#[derive(Clone, Debug)]
pub struct Options {
    /// The broker, `HOST:PORT`.
    pub kafka: String,
    /// A Shindig data directory (copied for the primary).
    pub data: PathBuf,
    /// Server counts, one run each (1: the primary alone).
    pub servers: Vec<usize>,
    /// Client tasks calling at once.
    pub threads: usize,
    /// Connections per server.
    pub connections: usize,
    /// Measured seconds per run (after a fifth as warm-up).
    pub seconds: f64,
    /// Where the copies go.
    pub scratch: PathBuf,
    /// The `kith` binary.
    pub kith: PathBuf,
}

/// One server count's figures.
#[derive(Clone, Debug)]
pub struct Run {
    /// Servers (primary + replicas).
    pub servers: usize,
    /// Calls answered per second.
    pub per_second: f64,
    /// Latency median and 99th percentile, ms.
    pub p50_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// Server CPU (all processes) per call, ms.
    pub cpu_ms_per_call: f64,
    /// Calls that failed.
    pub errors: u64,
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    let status = Command::new("cp")
        .arg("-r")
        .arg(from)
        .arg(to)
        .status()
        .map_err(|e| format!("cp: {e}"))?;
    status
        .success()
        .then_some(())
        .ok_or_else(|| format!("copying {} failed", from.display()))?;
    let _ = std::fs::remove_file(to.join("LOCK"));
    Ok(())
}

/// Starts each cluster in turn and measures it.
pub fn run(options: &Options, queries: &[Query]) -> Result<Vec<Run>, String> {
    let calls = Arc::new(schedule(queries, false));
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    let mut runs = Vec::new();
    for (i, &servers) in options.servers.iter().enumerate() {
        let nodes = start(options, i, servers.max(1))?;
        let urls: Vec<String> = nodes
            .iter()
            .map(|n| format!("ws://{}/v1/ws", n.addr))
            .collect();
        let pids: Vec<String> = nodes.iter().map(|n| n.pid().to_string()).collect();
        runs.push(runtime.block_on(measure(options, urls, &pids, calls.clone(), servers))?);
        drop(nodes);
    }
    Ok(runs)
}

/// A primary publishing to a fresh topic and `servers - 1` replicas of it.
fn start(options: &Options, run: usize, servers: usize) -> Result<Vec<ServeProcess>, String> {
    let base = options.scratch.join(format!("cluster-{run}"));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).map_err(|e| e.to_string())?;
    copy_dir(&options.data, &base.join("p"))?;
    let topic = format!(
        "kafka://{}/bench-cluster-{}-{run}",
        options.kafka,
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_err(|e| e.to_string())?
            .as_millis()
    );
    let primary_addr = process::free_port()?;
    let primary = process::serve(
        &options.kith,
        &base.join("p"),
        primary_addr,
        &["--publish".into(), topic.clone()],
        &base.join("p.log"),
    )?;
    process::wait_for_checkpoint(primary_addr)?;
    let mut nodes = vec![primary];
    for r in 1..servers {
        let extra = [
            "--replica-of".to_owned(),
            topic.clone(),
            "--bootstrap".into(),
            format!("http://{primary_addr}"),
        ];
        let dir = base.join(format!("r{r}"));
        nodes.push(process::serve(
            &options.kith,
            &dir,
            process::free_port()?,
            &extra,
            &dir.with_extension("log"),
        )?);
    }
    Ok(nodes)
}

async fn measure(
    options: &Options,
    urls: Vec<String>,
    pids: &[String],
    calls: Arc<Vec<Call>>,
    servers: usize,
) -> Result<Run, String> {
    let config = ClientConfig {
        urls,
        connections_per_url: options.connections,
        request_timeout: Duration::from_secs(60),
        ..ClientConfig::new("ws://unused")
    };
    let client = Arc::new(Client::connect(config).await.map_err(|e| e.to_string())?);
    let duration = Duration::from_secs_f64(options.seconds);
    let measure_from = Instant::now() + duration / 5;
    let measure_until = measure_from + duration;
    let mut tasks = Vec::new();
    for t in 0..options.threads {
        let (client, calls) = (client.clone(), calls.clone());
        tasks.push(tokio::spawn(async move {
            let (mut latencies, mut errors) = (Vec::new(), 0u64);
            let mut i = t * 7919;
            while Instant::now() < measure_until {
                let (procedure, params) = &calls[i % calls.len()];
                i += 1;
                let sent = Instant::now();
                let outcome = client.call(procedure, params.clone()).await;
                let done = Instant::now();
                if sent >= measure_from && done <= measure_until {
                    match outcome {
                        Ok(_) => latencies.push(done - sent),
                        Err(_) => errors += 1,
                    }
                }
            }
            (latencies, errors)
        }));
    }
    let cpu = || pids.iter().filter_map(|p| cpu_seconds(p)).sum::<f64>();
    tokio::time::sleep_until(measure_from.into()).await;
    let before = cpu();
    tokio::time::sleep_until(measure_until.into()).await;
    let after = cpu();
    let (mut latencies, mut errors) = (Vec::new(), 0);
    for task in tasks {
        let (l, e) = task.await.map_err(|e| e.to_string())?;
        latencies.extend(l);
        errors += e;
    }
    latencies.sort_unstable();
    let ms = |q: f64| {
        latencies
            .get(((latencies.len().max(1) - 1) as f64 * q).round() as usize)
            .map_or(0.0, |d: &Duration| d.as_secs_f64() * 1e3)
    };
    let calls_done = latencies.len().max(1) as f64;
    Ok(Run {
        servers,
        per_second: latencies.len() as f64 / duration.as_secs_f64(),
        p50_ms: ms(0.5),
        p99_ms: ms(0.99),
        cpu_ms_per_call: (after - before) * 1e3 / calls_done,
        errors,
    })
}

/// The table for docs/benchmarks.md.
pub fn markdown(options: &Options, runs: &[Run]) -> String {
    let mut out = format!(
        "kith bench cluster: the Shindig read mix (spikes excluded) on a copy of {}, one client, {} tasks, {} connections per server, calls round-robin over the servers, {:.0} s measured per run; servers = a primary publishing to Kafka at {} + replicas, all on this machine\n\n",
        options.data.display(),
        options.threads,
        options.connections,
        options.seconds,
        options.kafka
    );
    out.push_str("| servers | calls/s | p50 | p99 | server CPU per call | errors |\n|---|---|---|---|---|---|\n");
    for r in runs {
        out.push_str(&format!(
            "| {} | {:.0} | {:.2} ms | {:.2} ms | {:.3} ms | {} |\n",
            r.servers, r.per_second, r.p50_ms, r.p99_ms, r.cpu_ms_per_call, r.errors
        ));
    }
    out
}
