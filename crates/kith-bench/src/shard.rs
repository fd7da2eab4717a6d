//! `kith bench shard`: S5's experiment. The LDBC reads on one server and through the
//! router over 1, 2, 4 and 8 forum shards (`kith shard split`, each shard a `kith
//! serve` process, the router a `kith route` process), all on this machine.
//!
//! Per read: the latency a client sees (unsharded server; through the router), each
//! answer checked equal to the unsharded one; and the **critical path** of the routed
//! read (`kith_router::trace`): the router's own work, plus per round of calls the
//! slowest shard's own time and one message round trip. On hosts of their own the
//! shards of a round would run at once, so the critical path projects the latency
//! there; the speed-up is the unsharded server's own time over it. Then throughput: a
//! fixed number of client tasks calling the heavy reads through the router.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use kith_client::{Client, ClientConfig, QueryResult};
use kith_core::Value;
use kith_router::Router;

use crate::ldbc::Query;
use crate::process::{self, ServeProcess};

/// What to measure.
#[derive(Clone, Debug)]
pub struct Options {
    /// An LDBC data directory (`kith load ldbc`).
    pub data: PathBuf,
    /// Forum-shard counts, one run each.
    pub shards: Vec<usize>,
    /// Parameter lines per read.
    pub lines: usize,
    /// Calls per parameter line (after one warm-up call).
    pub repeats: usize,
    /// Client tasks in the throughput run.
    pub clients: usize,
    /// Seconds of the throughput run (0: none).
    pub seconds: f64,
    /// The reads of the throughput mix.
    pub mix: Vec<String>,
    /// Where the shards go.
    pub scratch: PathBuf,
    /// The `kith` binary.
    pub kith: PathBuf,
    /// The router on the person shard (`kith route --data DIR/person`) instead of
    /// beside it.
    pub colocate: bool,
}

/// One read's figures at one shard count (0: unsharded).
#[derive(Clone, Debug)]
pub struct Figure {
    /// The read.
    pub procedure: String,
    /// Forum shards; 0 for one server.
    pub shards: usize,
    /// Client latency median, µs.
    pub latency_us: f64,
    /// The server's own time (unsharded) or the critical path (sharded), median µs.
    pub server_us: f64,
    /// Rounds of shard calls (sharded).
    pub rounds: usize,
}

/// One shard count's throughput.
#[derive(Clone, Debug)]
pub struct Throughput {
    /// Forum shards; 0 for one server.
    pub shards: usize,
    /// Calls answered per second.
    pub per_second: f64,
    /// Failed calls.
    pub errors: u64,
}

/// Everything measured.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Per read and shard count.
    pub figures: Vec<Figure>,
    /// Per shard count.
    pub throughput: Vec<Throughput>,
    /// One message round trip on this machine (an empty call's latency minus the
    /// server's time), µs: what the projection charges per round.
    pub message_us: f64,
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn ws(addr: std::net::SocketAddr) -> String {
    format!("ws://{addr}/v1/ws")
}

/// Runs the experiment on `queries` (each with its parameter lines).
pub fn run(options: &Options, queries: &[Query]) -> Result<Report, String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(run_async(options, queries))
}

async fn run_async(options: &Options, queries: &[Query]) -> Result<Report, String> {
    let mut report = Report::default();
    let log = options.scratch.join("shard-bench.log");
    let whole = process::serve(
        &options.kith,
        &options.data,
        process::free_port()?,
        &[],
        &log,
    )?;
    let client = connect(&ws(whole.addr)).await?;
    report.message_us = message_round_trip(&client).await?;
    let mut expected = Vec::new();
    for q in queries {
        let (figure, answers) = unsharded(&client, q, options).await?;
        report.figures.push(figure);
        expected.push(answers);
    }
    if options.seconds > 0.0 {
        report
            .throughput
            .push(throughput(&ws(whole.addr), 0, options, queries).await?);
    }
    drop(whole);
    for &n in &options.shards {
        let cluster = Cluster::start(options, n, &log)?;
        let router = cluster.router()?;
        let client = connect(&ws(cluster.route.addr)).await?;
        for (q, want) in queries.iter().zip(&expected) {
            report
                .figures
                .push(sharded(&router, &client, q, want, n, options, report.message_us).await?);
        }
        if options.seconds > 0.0 {
            report
                .throughput
                .push(throughput(&ws(cluster.route.addr), n, options, queries).await?);
        }
    }
    Ok(report)
}

async fn connect(url: &str) -> Result<Client, String> {
    let mut config = ClientConfig::new(url);
    config.request_timeout = Duration::from_secs(60);
    Client::connect(config)
        .await
        .map_err(|e| format!("{url}: {e}"))
}

/// An empty call's latency minus the server's own time, median of 300.
async fn message_round_trip(client: &Client) -> Result<f64, String> {
    let mut samples = Vec::new();
    for _ in 0..300 {
        let sent = Instant::now();
        let answer = client
            .call_timed(
                "shard.persons",
                vec![("ids".into(), Value::List(Vec::new()))],
            )
            .await
            .map_err(|e| e.to_string())?;
        let t = answer.timing.unwrap_or_default();
        samples.push(sent.elapsed().as_secs_f64() * 1e6 - (t.exec_us + t.encode_us) as f64);
    }
    Ok(median(samples))
}

fn lines(q: &Query, options: &Options) -> Vec<Vec<(String, Value)>> {
    q.params.iter().take(options.lines).cloned().collect()
}

/// The unsharded server's figure for a read, and its answers (per parameter line).
async fn unsharded(
    client: &Client,
    q: &Query,
    options: &Options,
) -> Result<(Figure, Vec<QueryResult>), String> {
    let (mut latency, mut server, mut answers) = (Vec::new(), Vec::new(), Vec::new());
    for params in lines(q, options) {
        answers.push(
            client
                .call(&q.procedure, params.clone())
                .await
                .map_err(|e| e.to_string())?,
        );
        for _ in 0..options.repeats {
            let sent = Instant::now();
            let a = client
                .call_timed(&q.procedure, params.clone())
                .await
                .map_err(|e| e.to_string())?;
            latency.push(sent.elapsed().as_secs_f64() * 1e6);
            let t = a.timing.unwrap_or_default();
            server.push((t.exec_us + t.encode_us) as f64);
        }
    }
    let figure = Figure {
        procedure: q.procedure.clone(),
        shards: 0,
        latency_us: median(latency),
        server_us: median(server),
        rounds: 0,
    };
    Ok((figure, answers))
}

/// A read through the router process (latency, answers checked) and traced in this
/// process (critical path).
async fn sharded(
    router: &Router,
    client: &Client,
    q: &Query,
    want: &[QueryResult],
    n: usize,
    options: &Options,
    message_us: f64,
) -> Result<Figure, String> {
    let (mut latency, mut critical, mut rounds) = (Vec::new(), Vec::new(), 0);
    for (params, want) in lines(q, options).into_iter().zip(want) {
        let got = client
            .call(&q.procedure, params.clone())
            .await
            .map_err(|e| e.to_string())?;
        if got.rows != want.rows {
            return Err(format!(
                "{} {params:?} on {n} forum shards differs from one server",
                q.procedure
            ));
        }
        for _ in 0..options.repeats {
            let sent = Instant::now();
            client
                .call(&q.procedure, params.clone())
                .await
                .map_err(|e| e.to_string())?;
            latency.push(sent.elapsed().as_secs_f64() * 1e6);
            let (answer, trace) =
                kith_router::trace::traced(router.run(&q.procedure, &params)).await;
            answer.map_err(|e| e.to_string())?;
            critical.push(trace.critical_path_us(message_us));
            rounds = rounds.max(trace.rounds());
        }
    }
    Ok(Figure {
        procedure: q.procedure.clone(),
        shards: n,
        latency_us: median(latency),
        server_us: median(critical),
        rounds,
    })
}

/// `options.clients` tasks calling the mix's reads round-robin for `seconds`.
async fn throughput(
    url: &str,
    n: usize,
    options: &Options,
    queries: &[Query],
) -> Result<Throughput, String> {
    let calls: Vec<(String, Vec<(String, Value)>)> = (queries.iter())
        .filter(|q| options.mix.contains(&q.procedure))
        .flat_map(|q| {
            lines(q, options)
                .into_iter()
                .map(|p| (q.procedure.clone(), p))
        })
        .collect();
    if calls.is_empty() {
        return Err("the throughput mix has no calls".into());
    }
    let mut config = ClientConfig::new(url);
    config.connections_per_url = 4;
    config.request_timeout = Duration::from_secs(60);
    let client = Arc::new(Client::connect(config).await.map_err(|e| e.to_string())?);
    let calls = Arc::new(calls);
    let deadline = Instant::now() + Duration::from_secs_f64(options.seconds);
    let tasks: Vec<_> = (0..options.clients)
        .map(|t| {
            let (client, calls) = (client.clone(), calls.clone());
            tokio::spawn(async move {
                let (mut done, mut errors, mut i) = (0u64, 0u64, t);
                while Instant::now() < deadline {
                    let (procedure, params) = &calls[i % calls.len()];
                    match client.call(procedure, params.clone()).await {
                        Ok(_) => done += 1,
                        Err(_) => errors += 1,
                    }
                    i += stride(t);
                }
                (done, errors)
            })
        })
        .collect();
    let started = Instant::now();
    let (mut done, mut errors) = (0, 0);
    for t in tasks {
        let (d, e) = t.await.map_err(|e| e.to_string())?;
        done += d;
        errors += e;
    }
    Ok(Throughput {
        shards: n,
        per_second: done as f64 / started.elapsed().as_secs_f64().max(options.seconds),
        errors,
    })
}

/// Tasks walk the calls with different strides, so they do not call in lockstep.
fn stride(task: usize) -> usize {
    [1, 3, 5, 7][task % 4]
}

/// The shard processes of one split and the router over them (holding the person
/// shard itself when colocated).
struct Cluster {
    person: Option<ServeProcess>,
    person_dir: PathBuf,
    forums: Vec<ServeProcess>,
    route: ServeProcess,
}

impl Cluster {
    fn start(options: &Options, n: usize, log: &Path) -> Result<Cluster, String> {
        let dir = options.scratch.join(format!("shards-{n}"));
        let _ = std::fs::remove_dir_all(&dir);
        let status = Command::new(&options.kith)
            .args(["shard", "split"])
            .arg(&options.data)
            .args(["--forum-shards", &n.to_string(), "--out"])
            .arg(&dir)
            .stdout(std::process::Stdio::null())
            .status()
            .map_err(|e| format!("kith shard split: {e}"))?;
        if !status.success() {
            return Err(format!("kith shard split into {} failed", dir.display()));
        }
        let serve = |name: &str| {
            process::serve(
                &options.kith,
                &dir.join(name),
                process::free_port()?,
                &[],
                log,
            )
        };
        let forums = (0..n)
            .map(|i| serve(&format!("forum-{i}")))
            .collect::<Result<Vec<_>, _>>()?;
        let urls: Vec<String> = forums.iter().map(|f| ws(f.addr)).collect();
        let person_dir = dir.join("person");
        let (person, at) = match options.colocate {
            true => (None, process::Person::Data(&person_dir)),
            false => {
                let person = serve("person")?;
                let url = ws(person.addr);
                (Some(person), process::Person::Url(url))
            }
        };
        let route = process::route(&options.kith, at, &urls, process::free_port()?, &[], log)?;
        Ok(Cluster {
            person,
            person_dir,
            forums,
            route,
        })
    }

    /// A router in this process like the one in `route` (for the traced critical
    /// path): the person shard reached over the network, or held here, read from
    /// its checkpoint.
    fn router(&self) -> Result<Router, String> {
        let forums = self.forum_urls();
        match &self.person {
            Some(person) => Router::new(&ws(person.addr), &forums).map_err(|e| e.to_string()),
            None => {
                let file = self.person_dir.join("graph.kith");
                let snapshot = kith_storage::load_snapshot(&file).map_err(|e| e.to_string())?;
                let store = std::sync::Arc::new(kith_storage::Store::new(snapshot));
                let local = std::sync::Arc::new(kith_server::LocalGraph::new(
                    store,
                    std::time::Duration::from_secs(10),
                ));
                Router::with_local_person(local, &forums).map_err(|e| e.to_string())
            }
        }
    }

    fn forum_urls(&self) -> Vec<String> {
        self.forums.iter().map(|f| ws(f.addr)).collect()
    }
}

/// The report as markdown.
pub fn markdown(options: &Options, report: &Report) -> String {
    let mut out = format!(
        "## kith bench shard\n\nData: {}; router {}; {} parameter line(s) per read x {} call(s); one message round trip here: {:.0} µs.\n\n",
        options.data.display(),
        if options.colocate { "on the person shard (kith route --data)" } else { "beside the shards" },
        options.lines,
        options.repeats,
        report.message_us
    );
    out += "Latency: client median µs (one server; through `kith route`). Critical path: the unsharded server's own time, and the routed read's projected time on hosts of their own (router work + per round the slowest shard's own time + one message). Speed-up: unsharded server time / critical path.\n\n";
    out += "| read | one server: latency / server µs |";
    for n in &options.shards {
        out += &format!(" {n} shards: latency / critical µs (speed-up) |");
    }
    out += "\n|---|---|";
    out += &"---|".repeat(options.shards.len());
    out += "\n";
    let mut procedures: Vec<&str> = Vec::new();
    for f in &report.figures {
        if !procedures.contains(&f.procedure.as_str()) {
            procedures.push(&f.procedure);
        }
    }
    for p in procedures {
        let of = |n: usize| {
            report
                .figures
                .iter()
                .find(|f| f.procedure == p && f.shards == n)
        };
        let Some(base) = of(0) else { continue };
        out += &format!("| {p} | {:.0} / {:.0} |", base.latency_us, base.server_us);
        for &n in &options.shards {
            match of(n) {
                Some(f) => {
                    out += &format!(
                        " {:.0} / {:.0} ({:.2}x) |",
                        f.latency_us,
                        f.server_us,
                        base.server_us / f.server_us
                    )
                }
                None => out += " - |",
            }
        }
        out += "\n";
    }
    if !report.throughput.is_empty() {
        out += &format!(
            "\nThroughput, {} client tasks, mix {}: calls/s (errors)\n\n| forum shards | calls/s | errors |\n|---|---|---|\n",
            options.clients,
            options.mix.join(", ")
        );
        for t in &report.throughput {
            let n = if t.shards == 0 {
                "one server".to_owned()
            } else {
                t.shards.to_string()
            };
            out += &format!("| {n} | {:.0} | {} |\n", t.per_second, t.errors);
        }
    }
    out
}
