//! Binding, routing and graceful shutdown.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::routing::{get, post};
use axum::Router;
use kith_procedures::Registry;
use kith_storage::Store;
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::metrics::Metrics;
use crate::pool::WorkerPool;
use crate::ws::ShutdownSignal;
use crate::ServerConfig;

/// What every handler shares.
pub(crate) struct AppState {
    pub(crate) store: Arc<Store>,
    pub(crate) registry: Registry,
    pub(crate) pool: WorkerPool,
    pub(crate) config: ServerConfig,
    pub(crate) metrics: Metrics,
    pub(crate) shutdown: ShutdownSignal,
}

/// A bound, not yet running server (binding first lets callers learn the port when
/// they asked for port 0).
pub struct Server {
    listener: TcpListener,
    state: Arc<AppState>,
    shutdown: watch::Sender<bool>,
}

impl Server {
    /// Binds `config.listen` and starts the worker pool.
    pub async fn bind(config: ServerConfig, store: Arc<Store>) -> std::io::Result<Server> {
        config
            .validate()
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
        let listener = TcpListener::bind(config.listen).await?;
        let pool = WorkerPool::new(config.workers, config.queue_depth_max)?;
        let (shutdown, signal) = watch::channel(false);
        let state = Arc::new(AppState {
            store,
            registry: Registry::with_builtins(),
            pool,
            config,
            metrics: Metrics::default(),
            shutdown: signal,
        });
        Ok(Server {
            listener,
            state,
            shutdown,
        })
    }

    /// The address actually bound.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `shutdown` completes, then closes WebSocket connections (close
    /// code 1001), finishes requests in progress and returns.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let Server {
            listener,
            state,
            shutdown: trigger,
        } = self;
        let app = Router::new()
            .route("/v1/ws", get(crate::ws::upgrade))
            .route("/v1/call/{procedure}", post(crate::http::call))
            .route("/health", get(crate::http::health))
            .route("/metrics", get(crate::http::metrics))
            .with_state(state.clone());
        let mut signal = state.shutdown.clone();
        tokio::spawn(async move {
            shutdown.await;
            let _ = trigger.send(true);
        });
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                let _ = signal.changed().await;
            })
            .await
    }
}

/// Binds and serves until `shutdown` completes.
pub async fn serve(
    config: ServerConfig,
    store: Arc<Store>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let server = Server::bind(config, store).await?;
    tracing::info!(address = %server.local_addr()?, "kith serving (WebSocket /v1/ws, HTTP /v1/call)");
    server.run(shutdown).await
}
