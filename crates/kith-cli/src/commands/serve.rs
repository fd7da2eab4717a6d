//! `kith serve`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use kith_core::GraphView;
use kith_replication::{Follower, KafkaUrl, Publisher};
use kith_server::ServerConfig;
use kith_storage::Database;

use crate::data_dir;

/// Options of `kith serve`; each overrides the same key of `--config`.
#[derive(Args)]
pub struct ServeArgs {
    /// Data directory (default ./kith-data, generated with the Shindig graph at scale 1
    /// on first start).
    #[arg(long)]
    data: Option<PathBuf>,
    /// How the log (standard error) is written: `text` (coloured only on a terminal
    /// without NO_COLOR) or `json` (one JSON object a line) [default: text].
    #[arg(long, value_enum)]
    log_format: Option<LogFormat>,
    /// Log every request that runs longer than this many milliseconds, with its
    /// procedure or query text and its parameters' names (0: every request).
    #[arg(long, value_name = "MS")]
    slow_query_ms: Option<u64>,
    /// Address to listen on [default: 127.0.0.1:7600].
    #[arg(long)]
    listen: Option<SocketAddr>,
    /// Address to serve Bolt (Neo4j's drivers) on, or `off` [default: 127.0.0.1:7687].
    #[arg(long, value_parser = bolt_listen)]
    bolt_listen: Option<BoltListen>,
    /// `users` (credentials whenever the data directory has users; without users only
    /// loopback addresses are served) or `none` (nobody is asked) [default: users].
    #[arg(long, value_parser = auth_mode)]
    auth: Option<kith_server::auth::AuthMode>,
    /// PEM certificate chain: with --tls-key, HTTP, WebSocket and Bolt speak TLS only
    /// (https://, wss://, bolt+s://).
    #[arg(long, requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// PEM private key of --tls-cert.
    #[arg(long, requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// Worker threads executing requests and encoding answers [default: cores].
    #[arg(long)]
    workers: Option<usize>,
    /// A TOML file with any of the options and limits (docs/protocol.md 3).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Largest WebSocket message or HTTP body, in bytes.
    #[arg(long)]
    frame_bytes_max: Option<usize>,
    /// Largest Bolt message of an authenticated client, in bytes (drivers send large
    /// parameters).
    #[arg(long)]
    bolt_message_bytes_max: Option<usize>,
    /// What all Bolt messages being read may hold together past frame_bytes_max each.
    #[arg(long)]
    bolt_messages_bytes_total_max: Option<usize>,
    /// Largest result, in rows.
    #[arg(long)]
    result_rows_max: Option<usize>,
    /// Rows one operator of a Cypher query may hold while it runs.
    #[arg(long)]
    cypher_rows_max: Option<usize>,
    /// Rows per result chunk.
    #[arg(long)]
    chunk_rows: Option<usize>,
    /// Requests in flight per WebSocket connection.
    #[arg(long)]
    inflight_per_connection_max: Option<usize>,
    /// Requests waiting for a worker, all connections together.
    #[arg(long)]
    queue_depth_max: Option<usize>,
    /// Open WebSocket connections.
    #[arg(long)]
    connections_max: Option<usize>,
    /// Open HTTP connections not upgraded to WebSocket; past it new ones are closed.
    #[arg(long)]
    http_connections_max: Option<usize>,
    /// Time an HTTP connection may take to send a request's headers, in ms.
    #[arg(long)]
    http_header_timeout_ms: Option<u64>,
    /// Time a new connection has to authenticate (TLS, Bolt's handshake, HELLO and
    /// LOGON; HTTP: a request that authenticated or a WebSocket upgrade), in ms.
    #[arg(long)]
    auth_deadline_ms: Option<u64>,
    /// Connections waiting to authenticate, every port together.
    #[arg(long)]
    unauthenticated_connections_max: Option<usize>,
    /// Of them, from one client address.
    #[arg(long)]
    unauthenticated_per_address_max: Option<usize>,
    /// Time a message that began arriving (Bolt, WebSocket, an HTTP body) has to
    /// arrive whole, in ms.
    #[arg(long)]
    message_read_timeout_ms: Option<u64>,
    /// Time a request may take, in ms.
    #[arg(long)]
    query_timeout_ms: Option<u64>,
    /// Time a connection may not read its answers before it is closed, in ms.
    #[arg(long)]
    write_stall_timeout_ms: Option<u64>,
    /// Unsent answer bytes per WebSocket connection before the server stops reading its
    /// requests.
    #[arg(long)]
    answer_queue_bytes_max: Option<usize>,
    /// `fsync` (acknowledge writes once on disk) or `none` (experiments only: a power
    /// loss can lose acknowledged writes) [default: fsync].
    #[arg(long)]
    durability: Option<String>,
    /// Operations in one write request.
    #[arg(long)]
    write_ops_max: Option<usize>,
    /// Transactions waiting for the writer.
    #[arg(long)]
    write_queue_max: Option<usize>,
    /// Transactions in one commit group (one log record, one fsync).
    #[arg(long)]
    write_group_transactions_max: Option<usize>,
    /// Operations in one commit group.
    #[arg(long)]
    write_group_ops_max: Option<usize>,
    /// Time the writer waits for more transactions before committing, in µs.
    #[arg(long)]
    write_group_linger_us: Option<u64>,
    /// Log bytes that trigger a checkpoint.
    #[arg(long)]
    checkpoint_wal_bytes: Option<u64>,
    /// Seconds after which a checkpoint is written if anything changed.
    #[arg(long)]
    checkpoint_interval_s: Option<u64>,
    /// Publish every commit group's log record to a Kafka topic, in commit order,
    /// after its fsync: kafka://HOST:PORT[,HOST:PORT]/TOPIC (docs/replication.md).
    #[arg(long, value_name = "KAFKA_URL")]
    publish: Option<String>,
    /// With --publish: `async` (answer a write once it is on the local disk) or `sync`
    /// (once Kafka acknowledged it too) [default: async].
    #[arg(long)]
    replication: Option<String>,
    /// Log bytes waiting for Kafka before writes are answered `busy`.
    #[arg(long)]
    replication_buffer_bytes_max: Option<u64>,
    /// How long a `sync` write waits for Kafka, in ms.
    #[arg(long)]
    replication_ack_timeout_ms: Option<u64>,
    /// Serve as a read replica of the log published to kafka://HOST:PORT/TOPIC
    /// (needs --data; writes are answered `read_only`).
    #[arg(long, value_name = "KAFKA_URL", conflicts_with = "publish")]
    replica_of: Option<String>,
    /// Apply the LDBC update events of kafka://HOST:PORT/TOPIC as the single writer
    /// (S4's update path; `kith produce ldbc` fills the topic), the consumed offset
    /// committed with each event.
    #[arg(long, value_name = "KAFKA_URL")]
    ingest: Option<String>,
    /// In a cluster: the primary's Bolt address (HOST:PORT), which Bolt's ROUTE names
    /// as WRITE for the Neo4j drivers' neo4j:// routing.
    #[arg(long, value_name = "HOST:PORT")]
    route_write: Option<String>,
    /// In a cluster: the replicas' Bolt addresses, which ROUTE names as READ
    /// (comma-separated).
    #[arg(long, value_name = "HOST:PORT,...", value_delimiter = ',')]
    route_read: Option<Vec<String>>,
    /// How long a read naming a version (min_version, a Bolt bookmark) waits for this
    /// server to apply it, in ms.
    #[arg(long)]
    min_version_wait_ms: Option<u64>,
    /// With --replica-of: the primary's HTTP address, to fetch a checkpoint from
    /// when --data is empty or the topic no longer holds what the replica needs.
    #[arg(long, value_name = "URL", requires = "replica_of")]
    bootstrap: Option<String>,
}

impl ServeArgs {
    fn config(self) -> Result<ServerConfig> {
        let mut c = match &self.config {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("reading {}", path.display()))?;
                ServerConfig::from_toml(&text)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
            }
            None => ServerConfig::default(),
        };
        macro_rules! set {
            ($($field:ident),*) => { $(if let Some(v) = self.$field { c.$field = v; })* };
        }
        set!(
            listen,
            workers,
            frame_bytes_max,
            bolt_message_bytes_max,
            bolt_messages_bytes_total_max,
            result_rows_max,
            cypher_rows_max,
            chunk_rows
        );
        set!(
            inflight_per_connection_max,
            queue_depth_max,
            connections_max,
            http_connections_max,
            http_header_timeout_ms
        );
        set!(
            auth_deadline_ms,
            unauthenticated_connections_max,
            unauthenticated_per_address_max,
            message_read_timeout_ms
        );
        set!(
            query_timeout_ms,
            write_stall_timeout_ms,
            answer_queue_bytes_max,
            durability
        );
        set!(
            write_ops_max,
            write_queue_max,
            write_group_transactions_max,
            write_group_ops_max,
            write_group_linger_us
        );
        set!(checkpoint_wal_bytes, checkpoint_interval_s);
        set!(
            replication,
            replication_buffer_bytes_max,
            replication_ack_timeout_ms
        );
        if self.publish.is_some() {
            c.publish = self.publish;
        }
        if self.replica_of.is_some() {
            (c.replica_of, c.bootstrap) = (self.replica_of, self.bootstrap);
        }
        if self.route_write.is_some() {
            c.route_write = self.route_write;
        }
        if self.ingest.is_some() {
            c.ingest = self.ingest;
        }
        if let Some(read) = self.route_read {
            c.route_read = read;
        }
        if let Some(ms) = self.min_version_wait_ms {
            c.min_version_wait_ms = ms;
        }
        if self.slow_query_ms.is_some() {
            c.slow_query_ms = self.slow_query_ms;
        }
        if self.data.is_some() {
            c.data = self.data;
        }
        if self.tls_cert.is_some() {
            (c.tls_cert, c.tls_key) = (self.tls_cert, self.tls_key);
        }
        if let Some(mode) = self.auth {
            c.auth = mode;
        }
        c.bolt_listen = match self.bolt_listen {
            Some(BoltListen(choice)) => choice,
            None => c
                .bolt_listen
                .or(Some(SocketAddr::from(([127, 0, 0, 1], 7687)))),
        };
        c.validate()
            .map_err(|e| anyhow::anyhow!("invalid configuration: {e}"))?;
        Ok(c)
    }
}

/// `--bolt-listen`: an address, or `off` (`None`).
#[derive(Clone, Copy)]
struct BoltListen(Option<SocketAddr>);

fn bolt_listen(text: &str) -> Result<BoltListen, String> {
    if text == "off" {
        return Ok(BoltListen(None));
    }
    text.parse()
        .map(|a| BoltListen(Some(a)))
        .map_err(|e| format!("`{text}` is neither an address (HOST:PORT) nor `off`: {e}"))
}

fn auth_mode(text: &str) -> Result<kith_server::auth::AuthMode, String> {
    match text {
        "users" => Ok(kith_server::auth::AuthMode::Users),
        "none" => Ok(kith_server::auth::AuthMode::None),
        other => Err(format!("`{other}`: --auth takes users or none")),
    }
}

pub fn run(args: ServeArgs) -> Result<()> {
    init_tracing(args.log_format.unwrap_or_default());
    no_huge_pages();
    let config = args.config()?;
    let replica = config
        .replica_url()
        .map_err(|e| anyhow::anyhow!("invalid configuration: {e}"))?;
    match replica {
        Some(url) => run_replica(config, url),
        None => run_primary(config),
    }
}

/// Transparent huge pages off for a server (`alloc_counter`'s note says why). Not
/// fatal when refused: the server runs as before, its memory may creep with the clock.
fn no_huge_pages() {
    if let Err(e) = crate::alloc_counter::disable_transparent_huge_pages() {
        tracing::warn!(error = %e, "could not turn transparent huge pages off");
    }
}

/// Options of `kith route`: the shards, and every transport option of `kith serve`.
#[derive(Args)]
pub struct RouteArgs {
    /// The person shard's WebSocket URL (ws://HOST:PORT/v1/ws). Or, instead, give
    /// the person shard's data directory with --data: the router then holds it
    /// itself (a read's person side costs no message; --ingest applies its
    /// partition of the update stream).
    #[arg(long, value_name = "URL", required_unless_present = "data")]
    person: Option<String>,
    /// The forum shards' WebSocket URLs, in the layout's order (forum-0 first),
    /// comma-separated.
    #[arg(long, value_name = "URL,...", value_delimiter = ',', required = true)]
    forums: Vec<String>,
    /// A directory whose users.toml the router checks clients against (`kith user
    /// add NAME --role reader --data DIR`); the shards' own URLs carry the router's
    /// credentials (ws://USER:PASSWORD@HOST:PORT/v1/ws).
    #[arg(long, value_name = "DIR")]
    users: Option<std::path::PathBuf>,
    #[command(flatten)]
    serve: ServeArgs,
}

/// `kith route`: a server holding no graph that runs the LDBC reads across the shards
/// of `kith shard split` (docs/sharding.md), on every transport.
pub fn route(args: RouteArgs) -> Result<()> {
    init_tracing(args.serve.log_format.unwrap_or_default());
    no_huge_pages();
    let RouteArgs {
        person,
        forums,
        users,
        serve: options,
    } = args;
    let refused = [
        ("--publish", options.publish.is_some()),
        ("--replica-of", options.replica_of.is_some()),
        (
            "--ingest",
            options.ingest.is_some() && options.data.is_none(),
        ),
    ];
    if let Some((flag, _)) = refused.iter().find(|(_, set)| *set) {
        anyhow::bail!(
            "{flag} belongs to the shards' `kith serve` (a router holds at most the person shard, with --data)"
        );
    }
    let mut config = options.config()?;
    if let Some(dir) = users {
        if config.data.is_some() {
            anyhow::bail!("--users: a router with --data checks that directory's users");
        }
        if !dir.join(kith_server::auth::USERS_FILE).is_file() {
            anyhow::bail!(
                "--users {}: no {} there (add one with `kith user add NAME --role reader --data {}`)",
                dir.display(),
                kith_server::auth::USERS_FILE,
                dir.display()
            );
        }
        // The router holds no graph: its data directory is where its users are.
        config.data = Some(dir);
        return route_remote(config, person.as_deref(), &forums);
    }
    match config.data.clone() {
        Some(dir) if person.is_none() => route_local(config, &dir, &forums),
        Some(_) => {
            anyhow::bail!("give the person shard either by --person URL or by --data DIR, not both")
        }
        None => route_remote(config, person.as_deref(), &forums),
    }
}

/// A router over shards all reached over the network.
fn route_remote(config: ServerConfig, person: Option<&str>, forums: &[String]) -> Result<()> {
    let person = person.context("give the person shard: --person URL, or its --data DIR")?;
    let router = kith_router::Router::new(person, forums).map_err(|e| anyhow::anyhow!(e))?;
    let router = Arc::new(router);
    log_shards(&router);
    serve(config.clone(), move || {
        kith_server::Server::bind_router(config, router)
    })
}

/// A router holding the person shard (`dir`) itself.
fn route_local(mut config: ServerConfig, dir: &std::path::Path, forums: &[String]) -> Result<()> {
    let shard = data_dir::shard_of(dir)?;
    if shard.as_deref() != Some("person") {
        anyhow::bail!(
            "--data {}: a router holds the person shard of `kith shard split`, and this directory is {}",
            dir.display(),
            shard.map_or("not a shard".to_owned(), |s| format!("shard {s}"))
        );
    }
    config.shard = shard;
    let options = config
        .database_options()
        .map_err(|e| anyhow::anyhow!("invalid configuration: {e}"))?;
    let database = open(dir, options)?;
    let local = Arc::new(kith_server::LocalGraph::new(
        database.store().clone(),
        std::time::Duration::from_millis(config.query_timeout_ms),
    ));
    let router =
        kith_router::Router::with_local_person(local, forums).map_err(|e| anyhow::anyhow!(e))?;
    let router = Arc::new(router);
    log_shards(&router);
    serve(config.clone(), move || {
        kith_server::Server::bind_routing_database(config, database, router)
    })
}

fn log_shards(router: &kith_router::Router) {
    for shard in router.shards() {
        tracing::info!(shard = shard.name(), url = %shard.url(), "routing to");
    }
}

/// The log's form (`--log-format`).
#[derive(Clone, Copy, Debug, Default, clap::ValueEnum)]
pub enum LogFormat {
    /// Lines for people.
    #[default]
    Text,
    /// One JSON object a line, for log collectors.
    Json,
}

fn init_tracing(format: LogFormat) {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let log = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match format {
        // Colour codes only where a terminal shows them: a file or a pipe gets text.
        LogFormat::Text => {
            let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
            log.with_ansi(colour).init();
        }
        LogFormat::Json => log.json().with_ansi(false).init(),
    }
}

/// A server that takes writes (and publishes its log with `--publish`).
fn run_primary(mut config: ServerConfig) -> Result<()> {
    let dir = data_dir::resolve(config.data.clone())?;
    // The server reads its users from the data directory, the default one included.
    config.data = Some(dir.clone());
    if config.shard.is_none() {
        // A shard of `kith shard split` says which it is; the ingest reads its
        // partition from that.
        config.shard = data_dir::shard_of(&dir)?;
    }
    if let Some(shard) = &config.shard {
        tracing::info!(shard, "serving a shard of a sharded LDBC graph");
    }
    let mut options = config
        .database_options()
        .map_err(|e| anyhow::anyhow!("invalid configuration: {e}"))?;
    let publish = config
        .publish_options()
        .map_err(|e| anyhow::anyhow!("invalid configuration: {e}"))?;
    // What Kafka acknowledged: the log keeps every segment above it.
    let consumed = publish.as_ref().map(|_| Arc::new(AtomicU64::new(0)));
    options.log_consumed = consumed.clone();
    if options.durability == kith_storage::Durability::None {
        tracing::warn!("durability = none: writes are acknowledged before they reach the disk; a power loss can lose them");
    }
    let database = open(&dir, options)?;
    let publishing = match (publish, consumed) {
        (Some(options), Some(consumed)) => {
            let url = options.url.clone();
            let publisher = Publisher::start(options, database.clone(), consumed)
                .with_context(|| format!("publishing to {url}"))?;
            let sync = config.replication_sync().map_err(|e| anyhow::anyhow!(e))?;
            tracing::info!(%url, replication = %config.replication, "publishing the log to Kafka");
            Some(kith_server::Publishing { publisher, sync })
        }
        _ => None,
    };
    serve(config.clone(), move || {
        kith_server::Server::bind_publishing(config, database, publishing)
    })
}

/// A read replica: its own data directory, kept up to date from the topic.
fn run_replica(config: ServerConfig, url: KafkaUrl) -> Result<()> {
    let Some(dir) = config.data.clone() else {
        anyhow::bail!("a replica keeps its own copy of the graph: give --data DIR (empty for a first start with --bootstrap)");
    };
    let options = config
        .database_options()
        .map_err(|e| anyhow::anyhow!("invalid configuration: {e}"))?;
    let state = kith_replication::prepare(&dir, &url, config.bootstrap.as_deref())
        .with_context(|| format!("preparing {} as a replica of {url}", dir.display()))?;
    let database = open(&dir, options)?;
    let follower = Follower::start(
        database.clone(),
        url.clone(),
        config.bootstrap.clone(),
        state,
    )
    .with_context(|| format!("following {url}"))?;
    tracing::info!(%url, primary = ?follower.primary(), "serving as a read replica");
    serve(config.clone(), move || {
        kith_server::Server::bind_replica(config, database, follower)
    })
}

/// Opens (recovers) a data directory and says what it found.
fn open(dir: &std::path::Path, options: kith_storage::DatabaseOptions) -> Result<Arc<Database>> {
    let (database, report) = Database::open(dir, options)
        .with_context(|| format!("opening the data directory {}", dir.display()))?;
    let snapshot = database.store().snapshot();
    tracing::info!(
        dir = %dir.display(),
        nodes = snapshot.node_count(),
        relationships = snapshot.rel_count(),
        version = report.version,
        checkpoint_version = report.checkpoint_version,
        replayed_transactions = report.replayed_transactions,
        checkpoint_seconds = report.load_time.as_secs_f64(),
        replay_seconds = report.replay_time.as_secs_f64(),
        "graph recovered"
    );
    if let Some(cut) = &report.cut_tail {
        tracing::warn!("{cut}");
    }
    Ok(Arc::new(database))
}

/// Binds (with `bind`, on the I/O runtime) and serves until SIGINT or SIGTERM.
fn serve<F>(config: ServerConfig, bind: impl FnOnce() -> F) -> Result<()>
where
    F: std::future::Future<Output = std::io::Result<kith_server::Server>>,
{
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("kith-io")
        .build()
        .context("starting the I/O runtime")?;
    runtime.block_on(async move {
        let server = bind()
            .await
            .with_context(|| format!("starting the server on {}", config.listen))?;
        let (ws, http, bolt) = match server.tls() {
            true => ("wss", "https", "bolt+s"),
            false => ("ws", "http", "bolt"),
        };
        if let Some(address) = server.bolt_addr() {
            tracing::info!("kith serving Bolt (Neo4j drivers) on {bolt}://{address}");
        }
        let address = server.local_addr()?;
        tracing::info!(
            %address,
            workers = config.workers,
            durability = %config.durability,
            "kith serving: WebSocket {ws}://{address}/v1/ws, HTTP {http}://{address}/v1/call/{{procedure}}, /v1/cypher and /v1/write",
        );
        server.run(shutdown_signal()).await.context("serving")?;
        tracing::info!("shut down cleanly");
        Ok(())
    })
}

/// Completes on SIGINT or SIGTERM.
async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => {
                    let _ = interrupt.await;
                    return;
                }
            };
        tokio::select! {
            _ = interrupt => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
    tracing::info!("shutdown requested");
}
