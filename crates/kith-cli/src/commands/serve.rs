//! `kith serve`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use kith_core::GraphView;
use kith_server::ServerConfig;
use kith_storage::Store;

use crate::data_dir;

/// Options of `kith serve`; each overrides the same key of `--config`.
#[derive(Args)]
pub struct ServeArgs {
    /// Data directory (default ./kith-data, generated with the Shindig graph at scale 1
    /// on first start).
    #[arg(long)]
    data: Option<PathBuf>,
    /// Address to listen on [default: 127.0.0.1:7600].
    #[arg(long)]
    listen: Option<SocketAddr>,
    /// Worker threads executing requests and encoding answers [default: cores].
    #[arg(long)]
    workers: Option<usize>,
    /// A TOML file with any of the options and limits (docs/protocol.md 3).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Largest WebSocket message or HTTP body, in bytes.
    #[arg(long)]
    frame_bytes_max: Option<usize>,
    /// Largest result, in rows.
    #[arg(long)]
    result_rows_max: Option<usize>,
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
    /// Time a request may take, in ms.
    #[arg(long)]
    query_timeout_ms: Option<u64>,
    /// Time a connection may not read its answers before it is closed, in ms.
    #[arg(long)]
    write_stall_timeout_ms: Option<u64>,
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
            result_rows_max,
            chunk_rows
        );
        set!(
            inflight_per_connection_max,
            queue_depth_max,
            connections_max
        );
        set!(query_timeout_ms, write_stall_timeout_ms);
        if self.data.is_some() {
            c.data = self.data;
        }
        c.validate()
            .map_err(|e| anyhow::anyhow!("invalid configuration: {e}"))?;
        Ok(c)
    }
}

pub fn run(args: ServeArgs) -> Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let config = args.config()?;
    let loaded = data_dir::load_or_default(config.data.clone())?;
    let snapshot = loaded.snapshot;
    tracing::info!(
        nodes = snapshot.node_count(),
        relationships = snapshot.rel_count(),
        seconds = loaded.read_seconds + loaded.build_seconds,
        "graph loaded"
    );
    let store = Arc::new(Store::new(snapshot));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("kith-io")
        .build()
        .context("starting the I/O runtime")?;
    runtime.block_on(async move {
        let server = kith_server::Server::bind(config.clone(), store)
            .await
            .with_context(|| format!("binding {}", config.listen))?;
        tracing::info!(
            address = %server.local_addr()?,
            workers = config.workers,
            "kith serving: WebSocket ws://{}/v1/ws, HTTP http://{}/v1/call/{{procedure}}",
            config.listen,
            config.listen
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
