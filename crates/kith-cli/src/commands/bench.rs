//! `kith bench`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Subcommand;
use kith_core::GraphView;
use kith_storage::Store;

use crate::data_dir;

/// Benchmarks.
#[derive(Subcommand)]
pub enum Bench {
    /// Round trips and throughput of the profile query over WS-BSON and HTTP-JSON,
    /// against a raw WebSocket echo (the floor), all in one run on loopback.
    Transport(TransportArgs),
    /// LDBC SNB Interactive reads (IS1-IS7, IC1-IC14), single caller: latency
    /// in-process and over WS-BSON, on a `kith load ldbc` data directory; with
    /// --cypher, also the official LDBC Cypher texts on kith's Cypher engine.
    Ldbc(LdbcArgs),
    /// S2's traversal on the tree of `kith generate tree`: `graph.traverse` depth and
    /// breadth first, with and without node uniqueness, and the same in Cypher;
    /// in-process, sequential, time and bytes allocated per traversal.
    Traverse(TraverseArgs),
    /// Recovery: the data directory's graph written as a graph file in the current
    /// format (5, the in-memory layout) and the record format it replaced (3), each
    /// loaded in turn; file size, write time and load time per format.
    Recovery(RecoveryArgs),
    /// Replica lag over Kafka: a primary and a replica as processes, one-node writes at
    /// each rate (and as fast as the primary takes), the time from a write's answer
    /// on the primary to a read at its version answered by the replica.
    Replication(ReplicationArgs),
    /// S4's update path: an LDBC update stream produced into Kafka and applied by
    /// `kith serve --ingest` while readers run IS1; events/s and the readers'
    /// throughput and latency, per reader count.
    Ingest(IngestArgs),
    /// S1's cluster experiment: the Shindig read mix from one client round-robin over
    /// 1, 3 and 5 servers (a primary publishing to Kafka and its replicas, all on this
    /// machine); throughput, latency and server CPU per call.
    Cluster(ClusterArgs),
    /// S5's experiment: the LDBC reads on one server and through `kith route` over
    /// 1, 2, 4 and 8 forum shards (all processes on this machine): latency, the
    /// critical path projected to hosts of their own, and throughput.
    Shard(ShardArgs),
    /// S1's 19-query suite, single client, per access path (HTTP-JSON and WebSocket in
    /// every encoding and compression), with the server/client time split.
    Shindig(ShindigArgs),
    /// S1's throughput matrix on the Shindig mix (spike queries excluded): client
    /// threads x server workers x connections x compression, against a `kith serve`
    /// process started per worker count; client and server CPU measured apart.
    Throughput(ThroughputArgs),
    /// The S3 write experiment: concurrent clients writing through the durable path,
    /// per write pattern, acknowledged only after fsync (docs/benchmarks.md).
    Writes(WritesArgs),
    /// The soak (issue 18): a mixed read/write load at 90 % of the measured maximum
    /// for a long time against a durable server, with errors, latency percentiles
    /// and memory over time (docs/reliability.md).
    Soak(SoakArgs),
    /// Overload (issue 18): a well-behaved load beside each attack in turn
    /// (connection floods, slowloris, pipelined floods, slow readers, oversized
    /// frames, deep nesting): its latency, errors and the server's memory per phase.
    Overload(OverloadArgs),
}

/// `kith bench overload`.
#[derive(clap::Args)]
pub struct OverloadArgs {
    /// Data directory, copied first (default ./kith-data, generated at scale 1 if
    /// absent).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Seconds each phase (the baseline, each attack) runs.
    #[arg(long, default_value_t = 15.0)]
    pub phase_seconds: f64,
    /// The well-behaved load, requests per second.
    #[arg(long, default_value_t = 2_000.0)]
    pub rate: f64,
    /// Its clients.
    #[arg(long, default_value_t = 8)]
    pub clients: usize,
    /// Server worker threads [default: cores].
    #[arg(long)]
    pub workers: Option<usize>,
    /// The server's `connections_max` (the WebSocket flood is 20x it).
    #[arg(long, default_value_t = 50)]
    pub connections_max: usize,
    /// The server's `http_connections_max` (the HTTP flood is 20x it).
    #[arg(long, default_value_t = 50)]
    pub http_connections_max: usize,
    /// Where overload.md and the server's log go.
    #[arg(long, default_value = "overload-report")]
    pub out: PathBuf,
    /// Only these attacks (comma-separated: ws-connections, http-connections,
    /// slowloris, flood, slow-readers, oversized-frames, deep-nesting), between the
    /// two baselines.
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// The attackers' threads' nice value: a positive one stands in for an attacker
    /// on another machine (on this one it competes with the server for the cores).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub attacker_nice: i32,
}

/// `kith bench soak`.
#[derive(clap::Args)]
pub struct SoakArgs {
    /// Data directory, copied first: the soak writes (default ./kith-data,
    /// generated at scale 1 if absent).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// How long the soak runs, minutes.
    #[arg(long, default_value_t = 30.0)]
    pub minutes: f64,
    /// Seconds the closed-loop maximum is measured first.
    #[arg(long, default_value_t = 20.0)]
    pub max_seconds: f64,
    /// The soak's rate as a share of the maximum.
    #[arg(long, default_value_t = 0.9)]
    pub fraction: f64,
    /// Concurrent clients.
    #[arg(long, default_value_t = 32)]
    pub clients: usize,
    /// Share of requests that are durable writes (property updates).
    #[arg(long, default_value_t = 0.1)]
    pub write_share: f64,
    /// Server worker threads [default: cores].
    #[arg(long)]
    pub workers: Option<usize>,
    /// Seconds per window [default: a sixtieth of the run, at least 10].
    #[arg(long)]
    pub window_seconds: Option<f64>,
    /// Where soak.md, soak.csv, the plots and the servers' logs go.
    #[arg(long, default_value = "soak-report")]
    pub out: PathBuf,
    /// A Kafka broker (host:port): the primary publishes its log to a new topic, and
    /// a read replica bootstrapped from it applies the topic and serves half the reads.
    #[arg(long)]
    pub kafka: Option<String>,
}

/// `kith bench transport`.
#[derive(clap::Args)]
pub struct TransportArgs {
    /// Data directory (default ./kith-data, generated at scale 1 if absent).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Sequential calls per round-trip measurement (plus 10 % warm-up).
    #[arg(long, default_value_t = 5_000)]
    pub round_trips: usize,
    /// Concurrent requests in the throughput measurements.
    #[arg(long, default_value_t = 64)]
    pub concurrency: usize,
    /// Seconds per throughput measurement.
    #[arg(long, default_value_t = 5.0)]
    pub seconds: f64,
    /// Server worker threads [default: cores].
    #[arg(long)]
    pub workers: Option<usize>,
}

/// `kith bench ldbc`.
#[derive(clap::Args)]
pub struct LdbcArgs {
    /// Data directory (from `kith load ldbc`).
    #[arg(long)]
    pub data: PathBuf,
    /// The substitution parameters (interactive_N_param.txt) for IC1-IC14.
    #[arg(long)]
    pub params: PathBuf,
    /// Measured calls per query and path.
    #[arg(long, default_value_t = 200)]
    pub calls: usize,
    /// Unmeasured calls per query and path first.
    #[arg(long, default_value_t = 20)]
    pub warmup: usize,
    /// Persons and messages the short reads rotate over.
    #[arg(long, default_value_t = 50)]
    pub sample: usize,
    /// Server worker threads [default: cores].
    #[arg(long)]
    pub workers: Option<usize>,
    /// A smoke run: 10 calls per query and path, 2 warm-up.
    #[arg(long)]
    pub quick: bool,
    /// The official LDBC Cypher texts (interactive-*.cypher, e.g.
    /// ../shared/data/ldbc-cypher): run them unmodified with the same calls,
    /// in-process and over WS-BSON, and time their parse + plan.
    #[arg(long, value_name = "DIR")]
    pub cypher: Option<PathBuf>,
    /// Neo4j's results from the same run (bench/peers/neo4j/ldbc), shown beside
    /// kith's; default RUN_DIR/neo4j-ldbc.json when --out is given and it exists.
    #[arg(long)]
    pub neo4j: Option<PathBuf>,
    /// Directory for ldbc.csv, ldbc.md and queries.json (the calls, for peers).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Only these queries, e.g. `is2,ic6` (default: all 21).
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
}

/// `kith bench traverse`.
#[derive(clap::Args)]
pub struct TraverseArgs {
    /// Data directory holding the tree.
    #[arg(long)]
    pub data: PathBuf,
    /// Measured traversals per case (S2: 100).
    #[arg(long, default_value_t = 100)]
    pub runs: usize,
    /// Warm-up traversals per case (S2: 100).
    #[arg(long, default_value_t = 100)]
    pub warmup: usize,
    /// Leave out the Cypher case.
    #[arg(long)]
    pub no_cypher: bool,
    /// Directory for the summary (traverse.md).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `kith bench recovery`.
#[derive(clap::Args)]
pub struct RecoveryArgs {
    /// Data directory (default ./kith-data, generated at scale 1 if absent).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Measured loads per format (after one unmeasured load each).
    #[arg(long, default_value_t = 5)]
    pub runs: usize,
    /// Where the two graph files go [default: the temp directory]; they are removed
    /// afterwards.
    #[arg(long)]
    pub scratch: Option<PathBuf>,
    /// Directory for the summary (recovery.md).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `kith bench cluster`.
#[derive(clap::Args)]
pub struct ClusterArgs {
    /// The Kafka broker, HOST:PORT.
    #[arg(long)]
    pub kafka: String,
    /// A Shindig data directory (default ./kith-data); copied for the primary.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Server counts, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,3,5")]
    pub servers: Vec<usize>,
    /// Client tasks calling at once.
    #[arg(long, default_value_t = 32)]
    pub threads: usize,
    /// Connections per server.
    #[arg(long, default_value_t = 2)]
    pub connections: usize,
    /// Measured seconds per run.
    #[arg(long, default_value_t = 10.0)]
    pub seconds: f64,
    /// Where the copies go [default: a temporary directory].
    #[arg(long)]
    pub scratch: Option<PathBuf>,
    /// Directory for the summary (cluster.md).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `kith bench shard`.
#[derive(clap::Args)]
pub struct ShardArgs {
    /// An LDBC data directory (`kith load ldbc`).
    #[arg(long)]
    pub data: PathBuf,
    /// The substitution parameters (interactive_N_param.txt).
    #[arg(long)]
    pub params: PathBuf,
    /// Forum-shard counts, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8")]
    pub shards: Vec<usize>,
    /// Reads to measure (e.g. ic4,ic6,ic7,ic9) [default: all 21].
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// Parameter lines per read.
    #[arg(long, default_value_t = 10)]
    pub lines: usize,
    /// Calls per parameter line.
    #[arg(long, default_value_t = 5)]
    pub repeats: usize,
    /// Client tasks in the throughput run.
    #[arg(long, default_value_t = 16)]
    pub clients: usize,
    /// Seconds of each throughput run (0: none).
    #[arg(long, default_value_t = 10.0)]
    pub seconds: f64,
    /// Reads of the throughput mix.
    #[arg(long, value_delimiter = ',', default_value = "ic4,ic6,ic7,ic9")]
    pub mix: Vec<String>,
    /// Run the router on the person shard (`kith route --data DIR/person`): a
    /// read's person side costs no message.
    #[arg(long)]
    pub colocate: bool,
    /// Where the shards go [default: a temporary directory].
    #[arg(long)]
    pub scratch: Option<PathBuf>,
    /// Directory for the summary (shard.md).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `kith bench ingest`.
#[derive(clap::Args)]
pub struct IngestArgs {
    /// The Kafka broker, HOST:PORT.
    #[arg(long)]
    pub kafka: String,
    /// An LDBC data directory (`kith load ldbc`); copied for each run, not changed.
    #[arg(long)]
    pub data: PathBuf,
    /// The update streams (updateStream_*_{person,forum}.csv).
    #[arg(long)]
    pub streams: PathBuf,
    /// Concurrent readers, comma-separated: one run each.
    #[arg(long, value_delimiter = ',', default_value = "0,32")]
    pub readers: Vec<usize>,
    /// Where the copies go [default: a temporary directory].
    #[arg(long)]
    pub scratch: Option<PathBuf>,
    /// Directory for the summary (ingest.md).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `kith bench replication`.
#[derive(clap::Args)]
pub struct ReplicationArgs {
    /// The Kafka broker, HOST:PORT (scripts/kafka/broker start DIR PORT).
    #[arg(long)]
    pub kafka: String,
    /// Write rates per second, comma-separated; `max` is as fast as it goes.
    #[arg(long, value_delimiter = ',', default_value = "1000,10000,max")]
    pub rates: Vec<String>,
    /// Seconds per rate.
    #[arg(long, default_value_t = 10.0)]
    pub seconds: f64,
    /// Writes outstanding for `max`.
    #[arg(long, default_value_t = 256)]
    pub in_flight: usize,
    /// Where the two data directories and logs go [default: a temporary directory].
    #[arg(long)]
    pub scratch: Option<PathBuf>,
    /// Directory for the summary (replication.md).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `kith bench shindig`.
#[derive(clap::Args)]
pub struct ShindigArgs {
    /// Data directory (default ./kith-data, generated at scale 1 if absent).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Paths, comma-separated [default: all 16, plus the 3 Cypher paths with
    /// --cypher]: http-json, ws-json, ws-bson, ws-msgpack,
    /// ws-<encoding>-<deflate-fast|deflate-best|zstd|lz4>, and cypher-<encoding>.
    #[arg(long, value_delimiter = ',')]
    pub paths: Vec<String>,
    /// S1's Cypher texts (bench/peers/neo4j/shindig/queries.py, or its --json
    /// output), for the cypher-<encoding> paths: the same calls as Cypher requests.
    #[arg(long, value_name = "FILE")]
    pub cypher: Option<PathBuf>,
    /// Multiplies S1's run counts (2,000 / 200 / 20 calls per query).
    #[arg(long, default_value_t = 1.0)]
    pub runs_scale: f64,
    /// Warm-up calls per query and path.
    #[arg(long, default_value_t = 20)]
    pub warmup: usize,
    /// Server worker threads [default: cores].
    #[arg(long)]
    pub workers: Option<usize>,
    /// A smoke run: four paths, a twentieth of the runs, little warm-up.
    #[arg(long)]
    pub quick: bool,
    /// Directory for the raw results (shindig.csv) and the summary (shindig.md).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `kith bench throughput`.
#[derive(clap::Args)]
pub struct ThroughputArgs {
    /// Data directory (default ./kith-data, generated at scale 1 if absent).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Client threads, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "4,16,64,128")]
    pub threads: Vec<usize>,
    /// Server workers, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16")]
    pub workers: Vec<usize>,
    /// Connections in the client's pool, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,8")]
    pub connections: Vec<usize>,
    /// Compressions, comma-separated: none, deflate-fast, deflate-best, zstd, lz4.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "none,deflate-fast,deflate-best,zstd"
    )]
    pub compression: Vec<String>,
    /// Encoding: json, bson or msgpack.
    #[arg(long, default_value = "bson")]
    pub encoding: String,
    /// Measured seconds per cell (plus a fifth as warm-up).
    #[arg(long, default_value_t = 5.0)]
    pub seconds: f64,
    /// Include the spike queries (FOAF-3, FOAF-2, friend recommendations).
    #[arg(long)]
    pub include_spikes: bool,
    /// Send the mix as S1's Cypher texts (bench/peers/neo4j/shindig/queries.py, or
    /// its --json output) in `cypher` requests instead of procedure calls; the
    /// results go to throughput-cypher.csv/.md.
    #[arg(long, value_name = "FILE")]
    pub cypher: Option<PathBuf>,
    /// A smoke run: one small cell per dimension value, 1 s each.
    #[arg(long)]
    pub quick: bool,
    /// Directory for the raw results (throughput.csv) and summary (throughput.md).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `kith bench writes`.
#[derive(clap::Args)]
pub struct WritesArgs {
    /// Concurrent clients, one connection each.
    #[arg(long, default_value_t = 8)]
    pub clients: usize,
    /// Measured seconds per case (plus a warm-up of a tenth, at most 3 s).
    #[arg(long, default_value_t = 30.0)]
    pub seconds: f64,
    /// Requests in flight per client in the queued-single case.
    #[arg(long, default_value_t = 256)]
    pub pipeline: usize,
    /// Cases to run, comma-separated [default: all]: single-unlabelled,
    /// single-labelled, single-labelled-indexed, tx1000-unlabelled, tx1000-labelled,
    /// tx1000-labelled-indexed, nodes100-rels100, queued-single, engine-tx1000-labelled,
    /// cypher-single-labelled, cypher-tx1000-labelled, cypher-tx1000-labelled-indexed,
    /// cypher-merge1000-new, cypher-merge1000-existing.
    #[arg(long, value_delimiter = ',')]
    pub cases: Vec<String>,
    /// `fsync` (the default, and what the targets mean) or `none`.
    #[arg(long, default_value = "fsync")]
    pub durability: String,
    /// Server worker threads [default: cores].
    #[arg(long)]
    pub workers: Option<usize>,
    /// Where the per-case data directories go [default: the temp directory].
    #[arg(long)]
    pub scratch: Option<PathBuf>,
    /// Also write the results as JSON to this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// The clients' encoding: json, bson or msgpack.
    #[arg(long, default_value = "msgpack")]
    pub encoding: String,
}

pub fn run(bench: Bench) -> Result<()> {
    match bench {
        Bench::Transport(args) => transport(args),
        Bench::Ldbc(args) => ldbc(args),
        Bench::Traverse(args) => traverse(args),
        Bench::Recovery(args) => recovery(args),
        Bench::Replication(args) => replication(args),
        Bench::Ingest(args) => ingest(args),
        Bench::Cluster(args) => cluster(args),
        Bench::Shard(args) => shard(args),
        Bench::Shindig(args) => shindig(args),
        Bench::Throughput(args) => throughput(args),
        Bench::Writes(args) => writes(args),
        Bench::Soak(args) => soak(args),
        Bench::Overload(args) => overload(args),
    }
}

fn transport(args: TransportArgs) -> Result<()> {
    let TransportArgs {
        data,
        round_trips,
        concurrency,
        seconds,
        workers,
    } = args;
    let loaded = data_dir::load_or_default(data)?;
    let people = loaded
        .snapshot
        .label_id(kith_core::shindig_schema::label::PERSON)
        .map(|p| {
            loaded
                .snapshot
                .node_ids()
                .filter(|n| loaded.snapshot.has_label(*n, p))
                .count()
        })
        .unwrap_or(0) as i64;
    anyhow::ensure!(
        people > 0,
        "the data set has no Person nodes; use a Shindig data set"
    );
    let store = Arc::new(Store::new(loaded.snapshot));
    let options = kith_bench::transport::Options {
        round_trips: round_trips.max(10),
        concurrency: concurrency.max(1),
        throughput_duration: Duration::from_secs_f64(seconds.max(0.1)),
        workers: workers.unwrap_or_else(|| kith_server::ServerConfig::default().workers),
        people,
    };
    eprintln!(
        "measuring: {} round trips per path, {} concurrent for {:.1} s per throughput case, {} workers",
        options.round_trips,
        options.concurrency,
        seconds,
        options.workers
    );
    let runtime = runtime()?;
    let report = runtime.block_on(kith_bench::transport::run(store, options))?;
    print!("{}", report.markdown());
    Ok(())
}

fn ldbc(args: LdbcArgs) -> Result<()> {
    let LdbcArgs {
        data,
        params,
        calls,
        warmup,
        sample,
        workers,
        quick,
        cypher,
        neo4j,
        out,
        only,
    } = args;
    let loaded = data_dir::load(&data)?;
    let mut queries = kith_bench::ldbc::queries(&loaded.snapshot, &params, sample)
        .map_err(|e| anyhow::anyhow!(e))?;
    if !only.is_empty() {
        let wanted = |q: &kith_bench::ldbc::Query| {
            only.iter()
                .any(|o| q.procedure.strip_prefix("ldbc.") == Some(o.as_str()))
        };
        if let Some(unknown) = only.iter().find(|o| {
            !queries
                .iter()
                .any(|q| q.procedure.strip_prefix("ldbc.") == Some(o.as_str()))
        }) {
            anyhow::bail!("--only: no LDBC read named `{unknown}` (is1-is7, ic1-ic14)");
        }
        queries.retain(wanted);
    }
    if let Some(dir) = &cypher {
        kith_bench::ldbc::attach_official_texts(&mut queries, dir)
            .map_err(|e| anyhow::anyhow!(e))?;
    }
    if let Some(dir) = &out {
        write_run_files(
            dir,
            &[(
                "queries.json",
                &(serde_json::to_string_pretty(&kith_bench::ldbc::queries_json(&queries))? + "\n"),
            )],
        )?;
    }
    let options = kith_bench::ldbc::Options {
        calls: if quick { 10 } else { calls.max(1) },
        warmup: if quick { 2 } else { warmup },
        short_sample: sample,
        workers: workers.unwrap_or_else(|| kith_server::ServerConfig::default().workers),
    };
    let store = Arc::new(Store::new(loaded.snapshot));
    let bar = progress_bar("calls")?;
    let runtime = runtime()?;
    let report = runtime
        .block_on(kith_bench::ldbc::run(
            store,
            &queries,
            options,
            |done, total| {
                if bar.length() != Some(total) {
                    bar.set_length(total);
                }
                bar.set_position(done);
            },
        ))
        .map_err(|e| anyhow::anyhow!(e))?;
    bar.finish_and_clear();
    let neo4j_path = neo4j.or_else(|| {
        out.as_ref()
            .map(|d| d.join("neo4j-ldbc.json"))
            .filter(|p| p.exists())
    });
    let neo4j_json = match &neo4j_path {
        Some(p) => Some(
            serde_json::from_str::<serde_json::Value>(
                &std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?,
            )
            .with_context(|| format!("{} is not JSON", p.display()))?,
        ),
        None => None,
    };
    let summary = report.markdown(neo4j_json.as_ref());
    print!("{summary}");
    if let Some(dir) = &out {
        write_run_files(dir, &[("ldbc.csv", &report.csv()), ("ldbc.md", &summary)])?;
        eprintln!("raw results: {}", dir.join("ldbc.csv").display());
    }
    Ok(())
}

fn traverse(args: TraverseArgs) -> Result<()> {
    let TraverseArgs {
        data,
        runs,
        warmup,
        no_cypher,
        out,
    } = args;
    let loaded = data_dir::load_or_default(Some(data))?;
    crate::alloc_counter::start_counting();
    let options = kith_bench::traverse::Options {
        runs: runs.max(1),
        warmup,
        cypher: !no_cypher,
    };
    let cases =
        kith_bench::traverse::run(&loaded.snapshot, &options, &crate::alloc_counter::allocated)
            .map_err(|e| anyhow::anyhow!(e))?;
    let summary = kith_bench::traverse::markdown(&cases);
    print!("{summary}");
    if let Some(dir) = out {
        write_run_files(&dir, &[("traverse.md", &summary)])?;
    }
    Ok(())
}

fn recovery(args: RecoveryArgs) -> Result<()> {
    let RecoveryArgs {
        data,
        runs,
        scratch,
        out,
    } = args;
    let loaded = data_dir::load_or_default(data)?;
    let formats = kith_bench::recovery::run(&loaded.snapshot, scratch.as_deref(), runs.max(1))
        .map_err(|e| anyhow::anyhow!(e))?;
    let summary = kith_bench::recovery::markdown(&loaded.snapshot, &formats);
    print!("{summary}");
    if let Some(dir) = out {
        write_run_files(&dir, &[("recovery.md", &summary)])?;
    }
    Ok(())
}

fn cluster(args: ClusterArgs) -> Result<()> {
    let dir = data_dir::resolve(args.data)?;
    let loaded = data_dir::load(&dir)?;
    let queries =
        kith_bench::shindig::queries(&loaded.snapshot, 64).map_err(|e| anyhow::anyhow!(e))?;
    let (scratch, _keep) = kith_bench::replication::scratch(args.scratch.as_deref())
        .map_err(|e| anyhow::anyhow!(e))?;
    let options = kith_bench::cluster::Options {
        kafka: args.kafka,
        data: dir,
        servers: args.servers,
        threads: args.threads.max(1),
        connections: args.connections.max(1),
        seconds: args.seconds,
        scratch,
        kith: std::env::current_exe().context("finding the kith binary")?,
    };
    let runs = kith_bench::cluster::run(&options, &queries).map_err(|e| anyhow::anyhow!(e))?;
    let summary = kith_bench::cluster::markdown(&options, &runs);
    print!("{summary}");
    if let Some(dir) = args.out {
        write_run_files(&dir, &[("cluster.md", &summary)])?;
    }
    Ok(())
}

fn shard(args: ShardArgs) -> Result<()> {
    let loaded = data_dir::load(&args.data)?;
    let named = |n: &str| format!("ldbc.{}", n.trim().to_lowercase());
    let only: Vec<String> = args.only.iter().map(|n| named(n)).collect();
    let mut queries = kith_bench::ldbc::queries(&loaded.snapshot, &args.params, args.lines)
        .map_err(|e| anyhow::anyhow!(e))?;
    drop(loaded);
    if let Some(unknown) = only
        .iter()
        .find(|n| !queries.iter().any(|q| &q.procedure == *n))
    {
        anyhow::bail!("--only: no LDBC read {unknown} (ic1..ic14, is1..is7)");
    }
    queries.retain(|q| only.is_empty() || only.contains(&q.procedure));
    if args.shards.iter().any(|&n| !(1..=64).contains(&n)) {
        anyhow::bail!("--shards: each count must be between 1 and 64");
    }
    let (scratch, _keep) = kith_bench::replication::scratch(args.scratch.as_deref())
        .map_err(|e| anyhow::anyhow!(e))?;
    let options = kith_bench::shard::Options {
        data: args.data,
        shards: args.shards,
        lines: args.lines.max(1),
        repeats: args.repeats.max(1),
        clients: args.clients.max(1),
        seconds: args.seconds,
        mix: args.mix.iter().map(|n| named(n)).collect(),
        scratch,
        kith: std::env::current_exe().context("finding the kith binary")?,
        colocate: args.colocate,
    };
    let report = kith_bench::shard::run(&options, &queries).map_err(|e| anyhow::anyhow!(e))?;
    let summary = kith_bench::shard::markdown(&options, &report);
    print!("{summary}");
    if let Some(dir) = args.out {
        write_run_files(&dir, &[("shard.md", &summary)])?;
    }
    Ok(())
}

fn ingest(args: IngestArgs) -> Result<()> {
    let (scratch, _keep) = kith_bench::replication::scratch(args.scratch.as_deref())
        .map_err(|e| anyhow::anyhow!(e))?;
    let options = kith_bench::ingest::Options {
        kafka: args.kafka,
        data: args.data,
        streams: args.streams,
        readers: args.readers,
        scratch,
        kith: std::env::current_exe().context("finding the kith binary")?,
    };
    let runs = kith_bench::ingest::run(&options).map_err(|e| anyhow::anyhow!(e))?;
    let summary = kith_bench::ingest::markdown(&options, &runs);
    print!("{summary}");
    if let Some(dir) = args.out {
        write_run_files(&dir, &[("ingest.md", &summary)])?;
    }
    Ok(())
}

fn replication(args: ReplicationArgs) -> Result<()> {
    let rates = args
        .rates
        .iter()
        .map(|r| match r.trim() {
            "max" => Ok(None),
            n => n
                .parse::<u64>()
                .ok()
                .filter(|n| *n > 0)
                .map(Some)
                .ok_or_else(|| {
                    anyhow::anyhow!("--rates: `{n}` is neither a positive rate nor max")
                }),
        })
        .collect::<Result<Vec<_>>>()?;
    let (scratch, _keep) = kith_bench::replication::scratch(args.scratch.as_deref())
        .map_err(|e| anyhow::anyhow!(e))?;
    let options = kith_bench::replication::Options {
        kafka: args.kafka,
        rates,
        seconds: args.seconds,
        in_flight: args.in_flight.max(1),
        scratch,
        kith: std::env::current_exe().context("finding the kith binary")?,
    };
    let cases = kith_bench::replication::run(&options).map_err(|e| anyhow::anyhow!(e))?;
    let summary = kith_bench::replication::markdown(&options, &cases);
    print!("{summary}");
    if let Some(dir) = args.out {
        write_run_files(&dir, &[("replication.md", &summary)])?;
    }
    Ok(())
}

fn shindig(args: ShindigArgs) -> Result<()> {
    let ShindigArgs {
        data,
        paths,
        cypher,
        runs_scale,
        warmup,
        workers,
        quick,
        out,
    } = args;
    use kith_bench::shindig::{Options, Path};
    let cypher = cypher_texts(cypher.as_deref())?;
    let chosen = !paths.is_empty();
    let mut paths: Vec<Path> = if chosen {
        paths
            .iter()
            .map(|p| Path::parse(p.trim()))
            .collect::<Result<_, _>>()
            .map_err(|e| anyhow::anyhow!(e))?
    } else if quick {
        ["http-json", "ws-json", "ws-bson", "ws-msgpack"]
            .iter()
            .map(|p| Path::parse(p))
            .collect::<Result<_, _>>()
            .map_err(|e| anyhow::anyhow!(e))?
    } else {
        Path::all()
    };
    if cypher.is_some() && !chosen {
        // S1's "Cypher BSON" beside the native paths; every encoding in a full run.
        paths.extend(if quick {
            vec![Path::Cypher(kith_protocol::Encoding::Bson)]
        } else {
            Path::cypher_all()
        });
    }
    let loaded = data_dir::load_or_default(data)?;
    if let Some(dir) = &out {
        // The exact calls, for peers (bench/peers/neo4j) to run the same ones.
        let queries =
            kith_bench::shindig::queries(&loaded.snapshot, 64).map_err(|e| anyhow::anyhow!(e))?;
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        std::fs::write(
            dir.join("queries.json"),
            serde_json::to_string_pretty(&kith_bench::shindig::queries_json(&queries))? + "\n",
        )
        .with_context(|| format!("writing {}", dir.join("queries.json").display()))?;
    }
    let store = Arc::new(Store::new(loaded.snapshot));
    let options = Options {
        paths,
        runs_scale: if quick { runs_scale / 20.0 } else { runs_scale },
        warmup: if quick { warmup.min(3) } else { warmup },
        workers: workers.unwrap_or_else(|| kith_server::ServerConfig::default().workers),
        sample: 64,
        cypher,
    };
    let bar = progress_bar("calls")?;
    let runtime = runtime()?;
    let report = runtime
        .block_on(kith_bench::shindig::run(store, options, |done, total| {
            if bar.length() != Some(total) {
                bar.set_length(total);
            }
            bar.set_position(done);
        }))
        .map_err(|e| anyhow::anyhow!(e))?;
    bar.finish_and_clear();
    let summary = report.markdown();
    print!("{summary}");
    if let Some(dir) = out {
        write_run_files(
            &dir,
            &[("shindig.csv", &report.csv()), ("shindig.md", &summary)],
        )?;
        eprintln!("raw results: {}", dir.join("shindig.csv").display());
    }
    Ok(())
}

fn throughput(args: ThroughputArgs) -> Result<()> {
    let ThroughputArgs {
        data,
        threads,
        workers,
        connections,
        compression,
        encoding,
        seconds,
        include_spikes,
        cypher,
        quick,
        out,
    } = args;
    use kith_bench::throughput::Options;
    let cypher = cypher_texts(cypher.as_deref())?;
    let dir = data_dir::resolve(data)?;
    // Parameters come from the graph; the server is a separate process, so
    // the directory is released before it starts.
    let queries = {
        let loaded = data_dir::load(&dir)?;
        kith_bench::shindig::queries(&loaded.snapshot, 64).map_err(|e| anyhow::anyhow!(e))?
    };
    let compressions = compression
        .iter()
        .map(|c| {
            kith_protocol::Compression::ALL
                .into_iter()
                .find(|k| k.name() == c.trim())
                .ok_or_else(|| anyhow::anyhow!("unknown compression `{c}`"))
        })
        .collect::<Result<Vec<_>>>()?;
    let encoding = kith_protocol::Encoding::ALL
        .into_iter()
        .find(|e| e.name() == encoding)
        .ok_or_else(|| {
            anyhow::anyhow!("unknown encoding `{encoding}`; expected json, bson or msgpack")
        })?;
    let options = if quick {
        Options {
            threads: vec![4, 16],
            workers: vec![2],
            connections: vec![1, 8],
            compressions: vec![kith_protocol::Compression::None],
            encoding,
            duration: Duration::from_secs(1),
            include_spikes,
            kith: std::env::current_exe().context("locating the kith binary")?,
            data: dir,
            cypher,
        }
    } else {
        Options {
            threads,
            workers,
            connections,
            compressions,
            encoding,
            duration: Duration::from_secs_f64(seconds.max(0.2)),
            include_spikes,
            kith: std::env::current_exe().context("locating the kith binary")?,
            data: dir,
            cypher,
        }
    };
    anyhow::ensure!(
        options
            .threads
            .iter()
            .chain(&options.workers)
            .chain(&options.connections)
            .all(|n| *n > 0),
        "threads, workers and connections must be at least 1"
    );
    let bar = progress_bar("cells")?;
    let runtime = runtime()?;
    let report = runtime
        .block_on(kith_bench::throughput::run(
            &queries,
            options,
            |done, total| {
                bar.set_length(total);
                bar.set_position(done);
            },
        ))
        .map_err(|e| anyhow::anyhow!(e))?;
    bar.finish_and_clear();
    let summary = report.markdown();
    print!("{summary}");
    if let Some(dir) = out {
        // The Cypher mix has its own files, so one run directory keeps both.
        let name = match report.options.api() {
            "cypher" => "throughput-cypher",
            _ => "throughput",
        };
        write_run_files(
            &dir,
            &[
                (&format!("{name}.csv"), &report.csv()),
                (&format!("{name}.md"), &summary),
            ],
        )?;
    }
    Ok(())
}

fn writes(args: WritesArgs) -> Result<()> {
    let WritesArgs {
        clients,
        seconds,
        pipeline,
        cases,
        durability,
        workers,
        scratch,
        json,
        encoding,
    } = args;
    use kith_bench::writes::{Case, Options};
    let cases = if cases.is_empty() {
        Case::ALL.to_vec()
    } else {
        cases
            .iter()
            .map(|c| Case::parse(c.trim()))
            .collect::<Result<_, _>>()
            .map_err(|e| anyhow::anyhow!(e))?
    };
    let options = Options {
        cases,
        clients: clients.max(1),
        pipeline: pipeline.max(1),
        duration: Duration::from_secs_f64(seconds.max(0.1)),
        durability: durability.parse().map_err(|e: String| anyhow::anyhow!(e))?,
        workers: workers.unwrap_or_else(|| kith_server::ServerConfig::default().workers),
        scratch,
        encoding: kith_protocol::Encoding::ALL
            .into_iter()
            .find(|e| e.name() == encoding)
            .ok_or_else(|| {
                anyhow::anyhow!("unknown encoding `{encoding}`; expected json, bson or msgpack")
            })?,
    };
    eprintln!(
        "measuring {} write case(s), {} clients, {:.1} s each, durability {}",
        options.cases.len(),
        options.clients,
        seconds,
        options.durability.name()
    );
    let runtime = runtime()?;
    let report = runtime
        .block_on(kith_bench::writes::run(options))
        .map_err(|e| anyhow::anyhow!(e))?;
    print!("{}", report.markdown());
    if let Some(path) = json {
        std::fs::write(&path, serde_json::to_string_pretty(&report.json())? + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

fn soak(args: SoakArgs) -> Result<()> {
    let dir = data_dir::resolve(args.data)?;
    let (queries, nodes) = {
        let loaded = data_dir::load(&dir)?;
        let queries =
            kith_bench::shindig::queries(&loaded.snapshot, 64).map_err(|e| anyhow::anyhow!(e))?;
        (queries, loaded.snapshot.node_id_bound() as u64)
    };
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    // The soak writes: it serves a copy, removed after.
    let data = args.out.join("data");
    let _ = std::fs::remove_dir_all(&data);
    copy_dir(&dir, &data)?;
    let replica_data = args.out.join("replica-data");
    let _ = std::fs::remove_dir_all(&replica_data);
    let duration = Duration::from_secs_f64(args.minutes.max(0.1) * 60.0);
    let window = Duration::from_secs_f64(
        args.window_seconds
            .unwrap_or((duration.as_secs_f64() / 60.0).max(10.0))
            .max(1.0),
    );
    let options = kith_bench::soak::Options {
        kith: std::env::current_exe().context("locating the kith binary")?,
        data: data.clone(),
        log: args.out.join("serve.log"),
        kafka: args.kafka.clone(),
        replica_data: replica_data.clone(),
        duration,
        max_duration: Duration::from_secs_f64(args.max_seconds.max(1.0)),
        fraction: args.fraction.clamp(0.01, 1.0),
        clients: args.clients.max(1),
        write_share: args.write_share.clamp(0.0, 1.0),
        workers: args
            .workers
            .unwrap_or_else(|| kith_server::ServerConfig::default().workers),
        nodes,
    };
    eprintln!(
        "measuring the maximum for {:.0} s, then soaking at {:.0} % of it for {:.1} min",
        args.max_seconds,
        options.fraction * 100.0,
        args.minutes
    );
    let report = runtime()?
        .block_on(kith_bench::soak::run(&queries, options, window, |w| {
            let m = w.memory;
            let replica = w.replica.as_ref().map_or(String::new(), |r| {
                let lag = r.lag_versions.map_or("?".into(), |v| v.to_string());
                format!("  replica RSS {:.0} MiB, {lag} versions behind", r.memory.rss_mib)
            });
            let ms = |v: Option<f64>| v.map_or("?".into(), |v| format!("{v}"));
            let server = w.server.map_or(String::new(), |s| {
                format!(
                    "  server p99 <= {} ms, {} groups (slowest <= {} ms), {} checkpoints",
                    ms(s.request_p99_ms),
                    s.write_groups,
                    ms(s.write_group_max_ms),
                    s.checkpoints
                )
            });
            eprintln!(
                "{:>6.0} s  {:>7.0} req/s  errors {}  p50 {:.2} ms  p99 {:.2} ms  p99.9 {:.2} ms  RSS {:.0} MiB (anonymous {:.0}, file {:.0}){replica}{server}",
                w.at_s, w.ops_per_s, w.errors, w.p50_ms, w.p99_ms, w.p999_ms, m.rss_mib,
                m.anon_mib, m.file_mib
            )
        }))
        .map_err(|e| anyhow::anyhow!(e));
    let _ = std::fs::remove_dir_all(&data);
    let _ = std::fs::remove_dir_all(&replica_data);
    let report = report?;
    let markdown = report.markdown();
    print!("{markdown}");
    let svgs = report.svgs();
    let mut files = vec![("soak.md", markdown.as_str())];
    let csv = report.csv();
    files.push(("soak.csv", &csv));
    for (name, svg) in &svgs {
        files.push((name, svg));
    }
    write_run_files(&args.out, &files)?;
    if !report.passed() {
        anyhow::bail!(
            "the soak failed a check (see {})",
            args.out.join("soak.md").display()
        );
    }
    Ok(())
}

fn overload(args: OverloadArgs) -> Result<()> {
    let dir = data_dir::resolve(args.data)?;
    let queries = {
        let loaded = data_dir::load(&dir)?;
        kith_bench::shindig::queries(&loaded.snapshot, 64).map_err(|e| anyhow::anyhow!(e))?
    };
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let data = args.out.join("data");
    let _ = std::fs::remove_dir_all(&data);
    copy_dir(&dir, &data)?;
    let options = kith_bench::overload::Options {
        kith: std::env::current_exe().context("locating the kith binary")?,
        data: data.clone(),
        log: args.out.join("serve.log"),
        phase: Duration::from_secs_f64(args.phase_seconds.max(1.0)),
        rate: args.rate.max(1.0),
        clients: args.clients.max(1),
        workers: args
            .workers
            .unwrap_or_else(|| kith_server::ServerConfig::default().workers),
        limits: kith_bench::overload::Limits {
            connections_max: args.connections_max.max(args.clients + 1),
            http_connections_max: args.http_connections_max.max(1),
            http_header_timeout_ms: 2_000,
            write_stall_timeout_ms: 2_000,
            frame_bytes_max: 1 << 20,
            inflight_per_connection_max: 64,
        },
        only: args
            .only
            .iter()
            .map(|name| kith_bench::overload::Attack::by_name(name))
            .collect::<Result<_, _>>()
            .map_err(|e| anyhow::anyhow!(e))?,
        attacker_nice: args.attacker_nice,
    };
    let report = runtime()?
        .block_on(kith_bench::overload::run(&queries, options, |p| {
            eprintln!(
                "{:<16} answered {:>6}  errors {}  p50 {:.2} ms  p99 {:.2} ms  max {:.1} ms  RSS {:.0} -> {:.0} MiB  {:?}",
                format!("{:?}", p.attack), p.answered, p.errors, p.p50_ms, p.p99_ms, p.max_ms,
                p.rss_start_mib, p.rss_peak_mib, p.attacker
            )
        }))
        .map_err(|e| anyhow::anyhow!(e));
    let _ = std::fs::remove_dir_all(&data);
    let report = report?;
    let markdown = report.markdown();
    print!("{markdown}");
    write_run_files(&args.out, &[("overload.md", markdown.as_str())])?;
    report
        .check()
        .map_err(|e| anyhow::anyhow!("the well-behaved load failed: {e}"))
}

/// Copies a data directory (its files and `wal/`).
fn copy_dir(from: &std::path::Path, to: &std::path::Path) -> Result<()> {
    std::fs::create_dir_all(to).with_context(|| format!("creating {}", to.display()))?;
    for entry in std::fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else if entry.file_name() != "LOCK" {
            std::fs::copy(entry.path(), &target)
                .with_context(|| format!("copying {}", entry.path().display()))?;
        }
    }
    Ok(())
}

/// S1's Cypher texts, when `--cypher` names them.
fn cypher_texts(
    path: Option<&std::path::Path>,
) -> Result<Option<Arc<kith_bench::shindig_cypher::ShindigCypher>>> {
    path.map(|p| {
        kith_bench::shindig_cypher::ShindigCypher::load(p)
            .map(Arc::new)
            .map_err(|e| anyhow::anyhow!(e))
    })
    .transpose()
}

/// Writes a run's output files into `dir` (created if needed).
fn write_run_files(dir: &std::path::Path, files: &[(&str, &str)]) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// A progress bar with ETA counting `unit`s; its length is set as the run learns it.
pub(crate) fn progress_bar(unit: &str) -> Result<indicatif::ProgressBar> {
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {unit}, {{elapsed}} elapsed, ETA {{eta}}"
        ))
        .context("progress bar template")?,
    );
    Ok(bar)
}

/// The multi-threaded runtime the load drivers run on.
fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the runtime")
}
