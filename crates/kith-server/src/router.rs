//! Binding, routing and graceful shutdown.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::routing::{get, post};
use axum::Router;
use kith_procedures::Registry;
use kith_storage::{Database, Store};
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::metrics::Metrics;
use crate::pool::WorkerPool;
use crate::state::AppState;
use crate::tls::Tls;
use crate::write_queue::{GroupLimits, Publishing, WriteQueue};
use crate::ServerConfig;

/// The write path of a durable database, after checking `config`.
fn write_queue(
    config: &ServerConfig,
    database: Arc<Database>,
    publishing: Option<Publishing>,
) -> std::io::Result<WriteQueue> {
    let invalid = |e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e);
    config.validate().map_err(invalid)?;
    let limits = GroupLimits {
        transactions_max: config.write_group_transactions_max,
        ops_max: config.write_group_ops_max,
        linger: std::time::Duration::from_micros(config.write_group_linger_us),
    };
    crate::export::remove_leftovers(database.dir());
    WriteQueue::start(database, config.write_queue_max, limits, publishing)
}

/// A bound, not yet running server (binding first lets callers learn the port when
/// they asked for port 0).
pub struct Server {
    listener: TcpListener,
    bolt: Option<TcpListener>,
    tls: Option<Tls>,
    state: Arc<AppState>,
    shutdown: watch::Sender<bool>,
}

impl Server {
    /// Binds `config.listen` and starts the worker pool, serving `store` read-only
    /// (write requests are answered `read_only`).
    pub async fn bind(config: ServerConfig, store: Arc<Store>) -> std::io::Result<Server> {
        Server::bind_with(config, store, None, None, None).await
    }

    /// Binds a read replica: serves `database`'s store, which `follower` keeps
    /// applying its primary's log to; writes are answered `read_only`, naming the
    /// primary. Shutdown stops the follower and checkpoints.
    pub async fn bind_replica(
        config: ServerConfig,
        database: Arc<Database>,
        follower: kith_replication::Follower,
    ) -> std::io::Result<Server> {
        let store = database.store().clone();
        Server::bind_with(config, store, None, Some(Arc::new(follower)), None).await
    }

    /// Binds and serves a durable database: reads from its store, writes through the
    /// write queue and its log. Shutdown commits what is queued and checkpoints.
    pub async fn bind_database(
        config: ServerConfig,
        database: Arc<Database>,
    ) -> std::io::Result<Server> {
        Server::bind_publishing(config, database, None).await
    }

    /// Like [`Server::bind_database`], and hands every commit group's log record to
    /// `publishing`'s publisher (a primary replicating through Kafka).
    pub async fn bind_publishing(
        config: ServerConfig,
        database: Arc<Database>,
        publishing: Option<Publishing>,
    ) -> std::io::Result<Server> {
        let store = database.store().clone();
        let writes = write_queue(&config, database, publishing)?;
        Server::bind_with(config, store, Some(writes), None, None).await
    }

    /// Binds a router over a sharded LDBC graph (`kith route`, docs/sharding.md): it
    /// holds no graph; the LDBC reads run across `shards`, on every transport.
    pub async fn bind_router(
        config: ServerConfig,
        shards: Arc<kith_router::Router>,
    ) -> std::io::Result<Server> {
        let store = Arc::new(Store::new(kith_storage::Snapshot::empty()));
        Server::bind_with(config, store, None, None, Some(shards)).await
    }

    /// Binds a router that holds the person shard itself (`kith route --data
    /// DIR/person`): `shards` reads `database`'s store in-process (`LocalGraph`), and
    /// the database keeps its write path, so `ingest` can apply the person shard's
    /// partition of the update stream.
    pub async fn bind_routing_database(
        config: ServerConfig,
        database: Arc<Database>,
        shards: Arc<kith_router::Router>,
    ) -> std::io::Result<Server> {
        let store = database.store().clone();
        let writes = write_queue(&config, database, None)?;
        Server::bind_with(config, store, Some(writes), None, Some(shards)).await
    }

    async fn bind_with(
        config: ServerConfig,
        store: Arc<Store>,
        writes: Option<WriteQueue>,
        replica: Option<Arc<kith_replication::Follower>>,
        shards: Option<Arc<kith_router::Router>>,
    ) -> std::io::Result<Server> {
        config
            .validate()
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
        let tls = match (&config.tls_cert, &config.tls_key) {
            (Some(cert), Some(key)) => Some(
                Tls::load(cert, key)
                    .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?,
            ),
            _ => None,
        };
        let listener = listen(config.listen)?;
        let bolt = match config.bolt_listen {
            Some(address) => Some(listen(address)?),
            None => None,
        };
        let exposed = !config.listen.ip().is_loopback()
            || config.bolt_listen.is_some_and(|a| !a.ip().is_loopback());
        let auth = crate::auth::Auth::new(config.auth, config.data.clone(), exposed)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::PermissionDenied, e))?;
        let auth = Arc::new(auth);
        let pool = WorkerPool::new(config.workers, config.queue_depth_max)?;
        let config_transactions_max = config.transactions_max;
        let (shutdown, signal) = watch::channel(false);
        let ingest = match (
            config.ingest_url().map_err(invalid_input)?,
            writes.is_some(),
        ) {
            (Some(url), true) => Some(crate::ingest::Source {
                url,
                shard: config.shard().map_err(invalid_input)?,
                status: Arc::default(),
            }),
            (Some(_), false) => {
                return Err(invalid_input(
                    "`ingest` needs a writable server (a data directory, not a replica)".into(),
                ))
            }
            (None, _) => None,
        };
        let current = store.clone();
        let store_for_versions = store.clone();
        let replica_for_versions = replica.is_some();
        let asking = auth.clone();
        let procedures = crate::procedures::with_stored(
            move || -> Arc<dyn kith_core::GraphView> { current.snapshot() },
            Box::new(move || asking.asks_credentials()),
        );
        let admission = crate::admission::Gate::new(
            config.unauthenticated_connections_max,
            config.unauthenticated_per_address_max,
        );
        let bolt_budget = kith_protocol::bolt::chunk::MessageBudget::new(
            config.bolt_messages_bytes_total_max,
            config.frame_bytes_max,
            "bolt_messages_bytes_total_max",
        );
        let state = Arc::new(AppState {
            bolt_budget,
            store,
            registry: Registry::with_builtins(),
            cypher: kith_cypher::Engine::with_procedures(1024, procedures),
            pool,
            config,
            metrics: Metrics::default(),
            shutdown: signal,
            writes,
            auth,
            admission,
            transactions: crate::transactions::Transactions::new(config_transactions_max),
            locks: Arc::default(),
            running: Arc::default(),
            replica,
            versions: crate::consistency::Versions::watch(store_for_versions, replica_for_versions),
            ingest,
            shards,
        });
        Ok(Server {
            listener,
            bolt,
            tls,
            state,
            shutdown,
        })
    }

    /// The address actually bound.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Whether every transport speaks TLS (`wss://`, `https://`, `bolt+s://`).
    pub fn tls(&self) -> bool {
        self.tls.is_some()
    }

    /// The Bolt address actually bound, if Bolt is served.
    pub fn bolt_addr(&self) -> Option<SocketAddr> {
        self.bolt.as_ref().and_then(|l| l.local_addr().ok())
    }

    /// Serves until `shutdown` completes, then closes WebSocket connections (close
    /// code 1001), finishes requests in progress and returns.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let Server {
            listener,
            bolt,
            tls,
            state,
            shutdown: trigger,
        } = self;
        if let Some(bolt) = bolt {
            tokio::spawn(crate::bolt::accept(bolt, tls.clone(), state.clone()));
        }
        tokio::spawn(crate::transactions::sweep_every_second(state.clone()));
        tokio::spawn(crate::locks::expire_waits(state.clone()));
        let ingest = match &state.ingest {
            Some(source) => Some(crate::ingest::Ingest::start(state.clone(), source.clone())?),
            None => None,
        };
        let app = Router::new()
            .route("/v1/ws", get(crate::ws::upgrade))
            .route("/v1/call/{procedure}", post(crate::http::call))
            .route("/v1/write", post(crate::http::write))
            .route("/v1/cypher", post(crate::http::cypher))
            .route("/v1/tx", post(crate::http::begin))
            .route("/v1/tx/{id}/cypher", post(crate::http::cypher_in))
            .route("/v1/tx/{id}/commit", post(crate::http::commit))
            .route("/v1/tx/{id}/rollback", post(crate::http::rollback))
            .route("/v1/auth/token", post(crate::http::token))
            .route("/v1/checkpoint", get(crate::export::checkpoint))
            .route("/v1/backup", get(crate::export::backup))
            .route("/health", get(crate::http::health))
            .route("/", get(crate::console::index))
            .route("/console.js", get(crate::console::script))
            .route("/console.css", get(crate::console::style))
            .route("/console.js.LEGAL.txt", get(crate::console::licenses))
            .route("/metrics", get(crate::http::metrics))
            // After every route: a layer wraps only the routes added before it.
            .layer(axum::middleware::from_fn(crate::console::no_prompt))
            .layer(axum::middleware::from_fn(crate::admission::http::track))
            .with_state(state.clone());
        let mut signal = state.shutdown.clone();
        tokio::spawn(async move {
            shutdown.await;
            let _ = trigger.send(true);
        });
        let stopped = async move {
            let _ = signal.changed().await;
        };
        let served = crate::http_serve::serve(listener, tls, app, state.clone(), stopped).await;
        // Commit what is queued and write the final checkpoint.
        let finishing = state.clone();
        let _ = tokio::task::spawn_blocking(move || {
            if let Some(ingest) = &ingest {
                ingest.stop();
            }
            if let Some(writes) = &finishing.writes {
                writes.shutdown();
            }
            if let Some(replica) = &finishing.replica {
                replica.close();
            }
        })
        .await;
        served
    }
}

/// Connections the kernel queues for `accept` on a listener (it caps the figure at
/// `net.core.somaxconn`). tokio's default is 1,024: a burst of connections (a flood
/// opening at once, or clients reconnecting after a restart) overflowed it, and the
/// kernel then drops a SYN, which a real client resends only after a second.
const ACCEPT_BACKLOG: u32 = 8_192;

/// A listener on `address` with [`ACCEPT_BACKLOG`] and `SO_REUSEADDR` (as
/// `TcpListener::bind` sets it, so a restart can bind at once).
fn listen(address: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = match address {
        SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
        SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
    };
    socket.set_reuseaddr(true)?;
    socket.bind(address)?;
    socket.listen(ACCEPT_BACKLOG)
}

fn invalid_input(message: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, message)
}

/// Binds and serves until `shutdown` completes.
pub async fn serve(
    config: ServerConfig,
    store: Arc<Store>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let server = Server::bind(config, store).await?;
    tracing::info!(address = %server.local_addr()?, "kith serving (WebSocket /v1/ws, HTTP /v1/call, /v1/cypher)");
    server.run(shutdown).await
}
