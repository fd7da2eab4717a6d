//! The S3 write experiment: concurrent clients writing through the durable path.
//!
//! Each case runs against a fresh data directory served by an in-process
//! `kith serve` (real WebSocket clients on loopback, the real write queue, log and
//! fsync). A case's clients write for a fixed time; a write counts when it is
//! acknowledged, i.e. after its group's fsync. At the end the graph's node count is
//! checked against the acknowledged nodes, so a number here is always data on disk.

use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kith_client::{ops, Client, ClientConfig, Compression, Encoding, Subprotocol};
use kith_core::{GraphView, Value};
use kith_server::{Server, ServerConfig};
use kith_storage::{Database, DatabaseOptions, Durability};

/// One measured write pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// One unlabelled node per request, one request in flight per client.
    SingleUnlabelled,
    /// One labelled node per request.
    SingleLabelled,
    /// One labelled node per request, its property indexed.
    SingleLabelledIndexed,
    /// 1,000 unlabelled nodes per transaction.
    Tx1000Unlabelled,
    /// 1,000 labelled nodes per transaction.
    Tx1000Labelled,
    /// 1,000 labelled, indexed nodes per transaction.
    Tx1000LabelledIndexed,
    /// 100 nodes and 100 relationships per request.
    Nodes100Rels100,
    /// One labelled node per request, many requests in flight per client: the
    /// server's queue coalesces them into groups.
    QueuedSingle,
    /// 1,000 labelled nodes per transaction committed in-process, one thread, no
    /// network or decoding: the storage engine's own ceiling, for comparison.
    EngineTx1000Labelled,
    /// `CREATE (:Person {uid: $uid})`, one per request.
    CypherSingleLabelled,
    /// `UNWIND $uids AS u CREATE (:Person {uid: u})`, 1,000 per request.
    CypherTx1000Labelled,
    /// The same with an index on `Person(uid)`.
    CypherTx1000LabelledIndexed,
    /// `UNWIND $uids AS u MERGE (:Person {uid: u})` of 1,000 new keys (indexed).
    CypherMerge1000New,
    /// The same MERGE of 1,000 keys that exist (100,000 loaded first; indexed).
    CypherMerge1000Existing,
}

impl Case {
    /// Every case, in report order.
    pub const ALL: [Case; 14] = [
        Case::SingleUnlabelled,
        Case::SingleLabelled,
        Case::SingleLabelledIndexed,
        Case::Tx1000Unlabelled,
        Case::Tx1000Labelled,
        Case::Tx1000LabelledIndexed,
        Case::Nodes100Rels100,
        Case::QueuedSingle,
        Case::EngineTx1000Labelled,
        Case::CypherSingleLabelled,
        Case::CypherTx1000Labelled,
        Case::CypherTx1000LabelledIndexed,
        Case::CypherMerge1000New,
        Case::CypherMerge1000Existing,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Case::SingleUnlabelled => "single-unlabelled",
            Case::SingleLabelled => "single-labelled",
            Case::SingleLabelledIndexed => "single-labelled-indexed",
            Case::Tx1000Unlabelled => "tx1000-unlabelled",
            Case::Tx1000Labelled => "tx1000-labelled",
            Case::Tx1000LabelledIndexed => "tx1000-labelled-indexed",
            Case::Nodes100Rels100 => "nodes100-rels100",
            Case::QueuedSingle => "queued-single",
            Case::EngineTx1000Labelled => "engine-tx1000-labelled",
            Case::CypherSingleLabelled => "cypher-single-labelled",
            Case::CypherTx1000Labelled => "cypher-tx1000-labelled",
            Case::CypherTx1000LabelledIndexed => "cypher-tx1000-labelled-indexed",
            Case::CypherMerge1000New => "cypher-merge1000-new",
            Case::CypherMerge1000Existing => "cypher-merge1000-existing",
        }
    }

    /// Parses a name.
    pub fn parse(name: &str) -> Result<Case, String> {
        Case::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Case::ALL.iter().map(|c| c.name()).collect();
                format!("unknown case `{name}`; cases: {}", names.join(", "))
            })
    }

    /// S3's published figure for the same pattern (Neo4j over HTTP, 8 clients).
    pub fn s3_reference(self) -> &'static str {
        match self {
            Case::SingleUnlabelled => "~8,000 nodes/s",
            Case::SingleLabelled => "~600 nodes/s",
            Case::SingleLabelledIndexed => "~300 nodes/s",
            Case::Tx1000Unlabelled => "165,000 nodes/s",
            Case::Tx1000Labelled => "100,000 nodes/s",
            Case::Tx1000LabelledIndexed => "50,000 nodes/s",
            Case::Nodes100Rels100 => "600,000 data points/s",
            Case::QueuedSingle => "10,000 writes/s (queue could lose writes)",
            Case::EngineTx1000Labelled => "(no S3 equivalent)",
            Case::CypherSingleLabelled => "~600 nodes/s",
            Case::CypherTx1000Labelled => "100,000 nodes/s",
            Case::CypherTx1000LabelledIndexed => "50,000 nodes/s",
            Case::CypherMerge1000New | Case::CypherMerge1000Existing => "(no S3 figure)",
        }
    }

    fn nodes_per_request(self) -> usize {
        match self {
            Case::Tx1000Unlabelled
            | Case::Tx1000Labelled
            | Case::Tx1000LabelledIndexed
            | Case::EngineTx1000Labelled
            | Case::CypherTx1000Labelled
            | Case::CypherTx1000LabelledIndexed
            | Case::CypherMerge1000New
            | Case::CypherMerge1000Existing => 1_000,
            Case::Nodes100Rels100 => 100,
            _ => 1,
        }
    }

    fn labelled(self) -> bool {
        !matches!(self, Case::SingleUnlabelled | Case::Tx1000Unlabelled)
    }

    fn indexed(self) -> bool {
        matches!(
            self,
            Case::SingleLabelledIndexed
                | Case::Tx1000LabelledIndexed
                | Case::CypherTx1000LabelledIndexed
                | Case::CypherMerge1000New
                | Case::CypherMerge1000Existing
        )
    }

    /// Keys loaded before a case (the nodes `cypher-merge1000-existing` merges).
    fn preloaded(self) -> i64 {
        if self == Case::CypherMerge1000Existing {
            100_000
        } else {
            0
        }
    }

    /// Whether a request creates its nodes (a MERGE of existing keys creates none).
    fn creates(self) -> bool {
        self != Case::CypherMerge1000Existing
    }

    /// One Cypher request, for the `cypher-*` cases: the text and its parameters.
    fn cypher_request(self, uid: &AtomicI64) -> Option<(&'static str, Vec<(String, Value)>)> {
        let n = self.nodes_per_request() as i64;
        let text = match self {
            Case::CypherSingleLabelled => {
                let u = uid.fetch_add(1, Ordering::Relaxed);
                return Some((
                    "CREATE (:Person {uid: $uid})",
                    vec![("uid".into(), Value::Int(u))],
                ));
            }
            Case::CypherTx1000Labelled | Case::CypherTx1000LabelledIndexed => {
                "UNWIND $uids AS u CREATE (:Person {uid: u})"
            }
            Case::CypherMerge1000New | Case::CypherMerge1000Existing => {
                "UNWIND $uids AS u MERGE (:Person {uid: u})"
            }
            _ => return None,
        };
        let first = uid.fetch_add(n, Ordering::Relaxed);
        let keys = match self.preloaded() {
            0 => (first..first + n).map(Value::Int).collect(),
            loaded => (first..first + n).map(|u| Value::Int(u % loaded)).collect(),
        };
        Some((text, vec![("uids".into(), Value::List(keys))]))
    }

    /// One request's operations; `uid` hands out unique property values.
    fn request(self, uid: &AtomicI64) -> Vec<Value> {
        let n = self.nodes_per_request();
        let first = uid.fetch_add(n as i64, Ordering::Relaxed);
        let labels: &[&str] = if self.labelled() { &["Person"] } else { &[] };
        let mut ops: Vec<Value> = (0..n as i64)
            .map(|i| ops::create_node(labels, vec![("uid".into(), Value::Int(first + i))]))
            .collect();
        if self == Case::Nodes100Rels100 {
            for i in 0..n {
                ops.push(ops::create_rel(
                    "KNOWS",
                    ops::created(i),
                    ops::created((i + 1) % n),
                    vec![],
                ));
            }
        }
        ops
    }

    fn rels_per_request(self) -> usize {
        if self == Case::Nodes100Rels100 {
            100
        } else {
            0
        }
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Cases, in order.
    pub cases: Vec<Case>,
    /// Concurrent clients (one connection each).
    pub clients: usize,
    /// Requests in flight per client in the queued case.
    pub pipeline: usize,
    /// Measured time per case (after a warm-up of a tenth of it, at most 3 s).
    pub duration: Duration,
    /// Commit durability.
    pub durability: Durability,
    /// Server worker threads.
    pub workers: usize,
    /// Where the per-case data directories go (default: the system temp directory).
    pub scratch: Option<PathBuf>,
    /// The clients' encoding.
    pub encoding: Encoding,
}

/// One case's result.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// The case.
    pub case: Case,
    /// Acknowledged requests in the measured window.
    pub requests: u64,
    /// Nodes acknowledged per second.
    pub nodes_per_s: f64,
    /// Nodes plus relationships acknowledged per second.
    pub data_points_per_s: f64,
    /// Requests acknowledged per second.
    pub requests_per_s: f64,
    /// Acknowledgement latency, median, µs.
    pub p50_us: f64,
    /// Acknowledgement latency, 99th percentile, µs.
    pub p99_us: f64,
    /// Failed requests (any error; the run stops counting them as writes).
    pub errors: u64,
    /// Mean transactions per log record (per fsync) over the case.
    pub transactions_per_group: f64,
}

/// A whole run.
#[derive(Clone, Debug)]
pub struct Report {
    /// The options.
    pub options: Options,
    /// Per case.
    pub results: Vec<CaseResult>,
}

struct ClientTally {
    latencies: Vec<Duration>,
    requests: u64,
    errors: u64,
    first_error: Option<String>,
}

/// Runs every case in turn.
pub async fn run(options: Options) -> Result<Report, String> {
    let mut results = Vec::new();
    for case in &options.cases {
        eprintln!("  {} ...", case.name());
        results.push(run_case(*case, &options).await?);
    }
    Ok(Report { options, results })
}

async fn run_case(case: Case, options: &Options) -> Result<CaseResult, String> {
    if case == Case::EngineTx1000Labelled {
        return run_engine_case(options);
    }
    let (scratch, database) = fresh_database(options)?;
    let database = Arc::new(database);
    let store = database.store().clone();
    let groups_counter = database.clone();
    let config = ServerConfig {
        listen: "127.0.0.1:0".parse().map_err(|e| format!("{e}"))?,
        workers: options.workers,
        durability: options.durability.name().into(),
        inflight_per_connection_max: options.pipeline.max(1),
        ..ServerConfig::default()
    };
    let server = Server::bind_database(config, database)
        .await
        .map_err(|e| format!("starting the server: {e}"))?;
    let url = format!(
        "ws://{}/v1/ws",
        server.local_addr().map_err(|e| e.to_string())?
    );
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(server.run(async move {
        let _ = stopped.await;
    }));

    let setup = Client::connect(ClientConfig::new(url.clone()))
        .await
        .map_err(|e| e.to_string())?;
    if case.indexed() {
        setup
            .write(vec![ops::create_index("Person", "uid")])
            .await
            .map_err(|e| e.to_string())?;
    }
    for chunk in (0..case.preloaded()).collect::<Vec<_>>().chunks(10_000) {
        let nodes = chunk
            .iter()
            .map(|u| ops::create_node(&["Person"], vec![("uid".into(), Value::Int(*u))]))
            .collect();
        setup.write(nodes).await.map_err(|e| e.to_string())?;
    }
    drop(setup);

    let client_config = ClientConfig {
        subprotocol: Subprotocol {
            encoding: options.encoding,
            compression: Compression::None,
        },
        ..ClientConfig::new(url.clone())
    };
    let uid = Arc::new(AtomicI64::new(0));
    let warmup = (options.duration / 10).min(Duration::from_secs(3));
    let started = Instant::now();
    let measure_from = started + warmup;
    let measure_until = measure_from + options.duration;
    let in_flight = if case == Case::QueuedSingle {
        options.pipeline.max(1)
    } else {
        1
    };
    let mut tasks = Vec::new();
    for _ in 0..options.clients {
        let client = Arc::new(
            Client::connect(client_config.clone())
                .await
                .map_err(|e| e.to_string())?,
        );
        for _ in 0..in_flight {
            let (client, uid) = (client.clone(), uid.clone());
            tasks.push(tokio::spawn(async move {
                let mut tally = ClientTally {
                    latencies: Vec::new(),
                    requests: 0,
                    errors: 0,
                    first_error: None,
                };
                loop {
                    let now = Instant::now();
                    if now >= measure_until {
                        break;
                    }
                    let sent;
                    let outcome = match case.cypher_request(&uid) {
                        Some((text, params)) => {
                            sent = Instant::now();
                            client.cypher(text, params).await.map(|_| ())
                        }
                        None => {
                            let ops = case.request(&uid);
                            sent = Instant::now();
                            client.write(ops).await.map(|_| ())
                        }
                    };
                    let done = Instant::now();
                    match outcome {
                        Ok(_) if sent >= measure_from && done <= measure_until => {
                            tally.requests += 1;
                            tally.latencies.push(done - sent);
                        }
                        Ok(_) => {}
                        Err(e) => {
                            tally.errors += 1;
                            tally.first_error.get_or_insert_with(|| e.to_string());
                        }
                    }
                }
                tally
            }));
        }
    }
    let mut latencies = Vec::new();
    let (mut requests, mut errors, mut first_error) = (0u64, 0u64, None);
    for task in tasks {
        let tally = task.await.map_err(|e| e.to_string())?;
        latencies.extend(tally.latencies);
        requests += tally.requests;
        errors += tally.errors;
        first_error = first_error.or(tally.first_error);
    }
    let version = store.snapshot().version();
    let groups = groups_counter.commit_groups();
    drop(groups_counter);
    let _ = stop.send(());
    serving
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())?;
    if let Some(error) = first_error {
        eprintln!("    {errors} requests failed; the first: {error}");
    }

    // Every acknowledged node must be in the graph (reopened from disk).
    let (reopened, _) = Database::open(scratch.path(), DatabaseOptions::default())
        .map_err(|e| format!("reopening the case's data: {e}"))?;
    let nodes_on_disk = reopened.store().snapshot().node_count() as u64 - case.preloaded() as u64;
    let issued = if case.creates() {
        uid.load(Ordering::Relaxed) as u64
    } else {
        0
    };
    if nodes_on_disk > issued {
        return Err(format!(
            "{}: {nodes_on_disk} nodes on disk but only {issued} were ever sent",
            case.name()
        ));
    }
    let acknowledged_min = if case.creates() {
        requests * case.nodes_per_request() as u64
    } else {
        0
    };
    if nodes_on_disk < acknowledged_min {
        return Err(format!(
            "{}: {acknowledged_min} nodes were acknowledged in the window but only {nodes_on_disk} are on disk",
            case.name()
        ));
    }
    drop(reopened);

    latencies.sort_unstable();
    let at = |q: f64| percentile_us(&latencies, q);
    let seconds = options.duration.as_secs_f64();
    let nodes = requests as f64 * case.nodes_per_request() as f64;
    let rels = requests as f64 * case.rels_per_request() as f64;
    Ok(CaseResult {
        case,
        requests,
        nodes_per_s: nodes / seconds,
        data_points_per_s: (nodes + rels) / seconds,
        requests_per_s: requests as f64 / seconds,
        p50_us: at(0.5),
        p99_us: at(0.99),
        errors,
        transactions_per_group: if groups == 0 {
            0.0
        } else {
            version as f64 / groups as f64
        },
    })
}

/// An empty database in a new scratch directory (removed when the guard drops), with
/// no checkpoint during the case: a case measures the write path alone.
fn fresh_database(options: &Options) -> Result<(tempfile::TempDir, Database), String> {
    let scratch = match &options.scratch {
        Some(dir) => tempfile::tempdir_in(dir),
        None => tempfile::tempdir(),
    }
    .map_err(|e| format!("creating a scratch data directory: {e}"))?;
    let db_options = DatabaseOptions {
        durability: options.durability,
        checkpoint_wal_bytes: u64::MAX,
        checkpoint_interval: Duration::from_secs(24 * 3600),
        log_consumed: None,
        ..DatabaseOptions::default()
    };
    let (database, _) = Database::open(scratch.path(), db_options).map_err(|e| e.to_string())?;
    Ok((scratch, database))
}

/// Commits 1,000-node transactions in-process for the measured time.
fn run_engine_case(options: &Options) -> Result<CaseResult, String> {
    use kith_storage::{WriteBatch, WriteOp};
    let case = Case::EngineTx1000Labelled;
    let (_scratch, database) = fresh_database(options)?;
    let mut uid = 0i64;
    let mut latencies = Vec::new();
    let started = Instant::now();
    let warmup = (options.duration / 10).min(Duration::from_secs(3));
    let (measure_from, measure_until) = (started + warmup, started + warmup + options.duration);
    let mut requests = 0u64;
    while Instant::now() < measure_until {
        let sent = Instant::now();
        let batch = WriteBatch {
            ops: (0..1_000)
                .map(|_| {
                    uid += 1;
                    WriteOp::CreateNode {
                        labels: vec!["Person".into()],
                        properties: vec![("uid".into(), Value::Int(uid))],
                    }
                })
                .collect(),
        };
        database.commit_one(&batch).map_err(|e| e.to_string())?;
        let done = Instant::now();
        if sent >= measure_from && done <= measure_until {
            requests += 1;
            latencies.push(done - sent);
        }
    }
    latencies.sort_unstable();
    let at = |q: f64| percentile_us(&latencies, q);
    let seconds = options.duration.as_secs_f64();
    let nodes = requests as f64 * 1_000.0;
    Ok(CaseResult {
        case,
        requests,
        nodes_per_s: nodes / seconds,
        data_points_per_s: nodes / seconds,
        requests_per_s: requests as f64 / seconds,
        p50_us: at(0.5),
        p99_us: at(0.99),
        errors: 0,
        transactions_per_group: 1.0,
    })
}

/// The `q` quantile of sorted latencies, in µs (0 when there are none).
fn percentile_us(sorted: &[Duration], q: f64) -> f64 {
    sorted
        .get(((sorted.len().max(1) - 1) as f64 * q).round() as usize)
        .map_or(0.0, |d| d.as_secs_f64() * 1e6)
}

impl Report {
    /// A Markdown table with S3's figures beside kith's.
    pub fn markdown(&self) -> String {
        let o = &self.options;
        let mut out = format!(
            "kith bench writes: {} clients ({}), {:.0} s per case, durability {}, {} workers, {} in flight per client for queued-single\n\n",
            o.clients,
            o.encoding.name(),
            o.duration.as_secs_f64(),
            o.durability.name(),
            o.workers,
            o.pipeline
        );
        out.push_str("| case | nodes/s | data points/s | requests/s | ack p50 | ack p99 | txs per fsync | errors | S3 (Neo4j, HTTP) |\n");
        out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for r in &self.results {
            out.push_str(&format!(
                "| {} | {:.0} | {:.0} | {:.0} | {:.0} µs | {:.0} µs | {:.1} | {} | {} |\n",
                r.case.name(),
                r.nodes_per_s,
                r.data_points_per_s,
                r.requests_per_s,
                r.p50_us,
                r.p99_us,
                r.transactions_per_group,
                r.errors,
                r.case.s3_reference()
            ));
        }
        out
    }

    /// The results as JSON (for reports).
    pub fn json(&self) -> serde_json::Value {
        let o = &self.options;
        serde_json::json!({
            "clients": o.clients,
            "encoding": o.encoding.name(),
            "seconds": o.duration.as_secs_f64(),
            "durability": o.durability.name(),
            "workers": o.workers,
            "pipeline": o.pipeline,
            "results": self.results.iter().map(|r| serde_json::json!({
                "case": r.case.name(),
                "requests": r.requests,
                "nodes_per_s": r.nodes_per_s,
                "data_points_per_s": r.data_points_per_s,
                "requests_per_s": r.requests_per_s,
                "ack_p50_us": r.p50_us,
                "ack_p99_us": r.p99_us,
                "transactions_per_group": r.transactions_per_group,
                "errors": r.errors,
                "s3": r.case.s3_reference(),
            })).collect::<Vec<_>>(),
        })
    }
}
