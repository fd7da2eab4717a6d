//! `kith`: generate, inspect and query kith graphs.

mod alloc_counter;
mod commands;
mod data_dir;
mod output;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[global_allocator]
static ALLOCATOR: alloc_counter::CountingAllocator = alloc_counter::CountingAllocator;

/// kith: a graph database for real-time social-network workloads.
#[derive(Parser)]
#[command(name = "kith", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Generate a data set into a data directory.
    Generate {
        #[command(subcommand)]
        dataset: commands::generate::Dataset,
    },
    /// Load a published data set into a new data directory.
    Load {
        #[command(subcommand)]
        source: commands::load::Source,
    },
    /// Apply LDBC update streams (updateStream_*_{person,forum}.csv) in timestamp
    /// order through the durable write path, to a data directory or a running server.
    Replay {
        /// A data directory no server is using, or a server's ws:// URL (reads go on
        /// while it replays).
        target: String,
        /// The directory holding the update streams.
        streams: PathBuf,
        /// Apply only the first N events.
        #[arg(long)]
        limit: Option<usize>,
        /// Events per commit group (one fsync) offline, or in flight to a server.
        #[arg(long, default_value_t = 256)]
        group: usize,
    },
    /// Publish a data set's events into Kafka (for `kith serve --ingest`).
    Produce {
        #[command(subcommand)]
        source: commands::produce::Source,
    },
    /// Shard an LDBC graph (S5): a person shard and forum shards (docs/sharding.md).
    Shard {
        #[command(subcommand)]
        action: commands::shard::Action,
    },
    /// Node and relationship counts, the friend-degree distribution, and memory use.
    Stats {
        /// Data directory (default ./kith-data, generated at scale 1 if absent).
        dir: Option<PathBuf>,
        /// Also report heap bytes per node and per relationship.
        #[arg(long)]
        memory: bool,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Run a stored procedure in-process and print its result.
    Call {
        /// Data directory.
        dir: PathBuf,
        /// Procedure name, e.g. shindig.friends.
        procedure: String,
        /// Parameters as key=value (lists as 1,2,3).
        params: Vec<String>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Run a Cypher query on a data directory (in-process; a query that writes commits
    /// through its log) or on a running server (ws://HOST:PORT/v1/ws).
    Query {
        /// A data directory or a ws:// URL.
        target: String,
        /// The query, e.g. 'MATCH (p:Person {id: $id})-[:FRIEND_OF]->(f) RETURN f.id'.
        query: String,
        /// A parameter as key=value (ints, floats, true/false/null, lists 1,2,3 or
        /// [1,2,3], "quoted" strings; anything else is a string). Repeatable.
        #[arg(long = "param", value_name = "KEY=VALUE")]
        params: Vec<String>,
        /// Parameters as a JSON object, e.g. '{"id": 7}' (--param overrides them).
        #[arg(long = "params", value_name = "JSON")]
        params_json: Option<String>,
        /// Print {"columns": [...], "rows": [...]} instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// An interactive Cypher shell on a data directory (in-process, held for the
    /// session) or a running server: multi-line statements ending in `;`, history,
    /// :param, :help. Reads statements from standard input when it is not a terminal.
    Shell {
        /// A data directory (default ./kith-data) or a ws:// URL.
        target: Option<String>,
    },
    /// Measure kith (see docs/benchmarks.md).
    Bench {
        #[command(subcommand)]
        bench: commands::bench::Bench,
    },
    /// Serve the graph over WebSocket and HTTP (docs/protocol.md).
    Serve(Box<commands::serve::ServeArgs>),
    /// Route the LDBC reads across the shards of `kith shard split`: a server with no
    /// graph of its own, on every transport (docs/sharding.md).
    Route(Box<commands::serve::RouteArgs>),
    /// Manage who may connect to a data directory's server, and as what
    /// (docs/security.md).
    User {
        #[command(subcommand)]
        action: commands::user::Action,
    },
    /// Commit one transaction (docs/protocol.md 1.3.1), to a running server
    /// (ws://HOST:PORT/v1/ws) or to a data directory no server is using.
    Write {
        /// A ws:// URL or a data directory.
        target: String,
        /// The operations as a JSON list, e.g.
        /// '[{"op":"create_node","labels":["Person"],"props":{"id":1}}]'.
        ops: Option<String>,
        /// Read the operations from a file (- for stdin).
        #[arg(long)]
        file: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Export a graph as CSV in the layout of Neo4j's bulk importer (one file per
    /// label and per relationship type between two labels).
    Export {
        /// Data directory.
        dir: PathBuf,
        /// Output directory.
        #[arg(long)]
        out: PathBuf,
    },
    /// Copy a graph, consistent at one version, from a running server (online, while
    /// it takes writes; needs an admin) or from a data directory no server holds
    /// (docs/operations.md).
    Backup {
        /// A server's HTTP address (http://[USER:PASSWORD@]HOST:PORT; https:// with
        /// TLS) or a data directory.
        source: String,
        /// The backup directory to create; it must not exist or be empty.
        #[arg(long)]
        out: PathBuf,
    },
    /// Make a new data directory from a backup of `kith backup`.
    Restore {
        /// The backup directory.
        backup: PathBuf,
        /// The data directory to create; it must not exist or be empty.
        #[arg(long)]
        data: PathBuf,
    },
    /// Bulk-import CSV files in the format of `neo4j-admin database import` into a
    /// new data directory (docs/import.md).
    Import(Box<commands::import::ImportArgs>),
    /// Build RUN_DIR/report.html (and charts/*.svg) from a run's raw results
    /// (`kith bench shindig --out RUN_DIR`, `kith bench throughput --out RUN_DIR`).
    Report {
        /// The run directory.
        run_dir: PathBuf,
    },
    /// List the procedures with their parameters (with a target, the stored Cypher
    /// ones too), or register and drop stored Cypher procedures.
    Procedures {
        #[command(subcommand)]
        action: Option<commands::procedures::Action>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Generate { dataset } => commands::generate::run(dataset),
        Command::Load { source } => commands::load::run(source),
        Command::Replay {
            target,
            streams,
            limit,
            group,
        } => commands::replay::run(&target, &streams, limit, group),
        Command::Produce { source } => commands::produce::run(source),
        Command::Shard { action } => commands::shard::run(action),
        Command::Stats { dir, memory, json } => commands::stats::run(dir, memory, json),
        Command::Call {
            dir,
            procedure,
            params,
            json,
        } => commands::call::run(&dir, &procedure, &params, json),
        Command::Procedures { action, json } => commands::procedures::run(action, json),
        Command::Query {
            target,
            query,
            params,
            params_json,
            json,
        } => commands::query::run(&commands::query::QueryArgs {
            target: &target,
            text: &query,
            params: &params,
            params_json: params_json.as_deref(),
            json,
        }),
        Command::Shell { target } => commands::shell::run(target.as_deref()),
        Command::Export { dir, out } => commands::export::run(&dir, &out),
        Command::Import(args) => commands::import::run(&args),
        Command::Backup { source, out } => commands::backup::backup(&source, &out),
        Command::Restore { backup, data } => commands::backup::restore(&backup, &data),
        Command::Report { run_dir } => kith_bench::report::build(&run_dir)
            .map(|w| {
                println!("{} ({} charts)", w.html.display(), w.charts.len());
            })
            .map_err(|e| anyhow::anyhow!(e)),
        Command::Write {
            target,
            ops,
            file,
            json,
        } => commands::write::run(&target, ops.as_deref(), file.as_deref(), json),
        Command::Serve(args) => commands::serve::run(*args),
        Command::Route(args) => commands::serve::route(*args),
        Command::User { action } => commands::user::run(action),
        Command::Bench { bench } => commands::bench::run(bench),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
