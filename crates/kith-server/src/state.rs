//! What every transport's handlers share: the server's state, built once by the
//! router. It lives apart from the router and the transports so that none of them
//! imports another to reach it.

use std::sync::Arc;

use kith_procedures::Registry;
use kith_storage::Store;
use tokio::sync::watch;

use crate::metrics::{Metrics, Standing, Transport};
use crate::pool::WorkerPool;
use crate::write_queue::WriteQueue;
use crate::ServerConfig;

/// Subscribed by every connection; flips to `true` on shutdown.
pub(crate) type ShutdownSignal = watch::Receiver<bool>;

/// What every handler shares.
pub(crate) struct AppState {
    pub(crate) store: Arc<Store>,
    pub(crate) registry: Registry,
    /// The Cypher engine: one per server, so its plan cache is shared.
    pub(crate) cypher: kith_cypher::Engine,
    pub(crate) pool: WorkerPool,
    pub(crate) config: ServerConfig,
    pub(crate) metrics: Metrics,
    pub(crate) shutdown: ShutdownSignal,
    /// The write queue; `None` for a read-only server.
    pub(crate) writes: Option<WriteQueue>,
    /// Who clients are and what they may do.
    pub(crate) auth: Arc<crate::auth::Auth>,
    /// Connections waiting to authenticate.
    pub(crate) admission: crate::admission::Gate,
    /// Open WebSocket and HTTP transactions.
    pub(crate) transactions: crate::transactions::Transactions,
    /// The write locks of explicit transactions (every transport's).
    pub(crate) locks: Arc<crate::locks::Locks>,
    /// The queries and calls running now (SHOW TRANSACTIONS).
    pub(crate) running: Arc<crate::running::Running>,
    /// For a read replica: what applies its primary's log.
    pub(crate) replica: Option<Arc<kith_replication::Follower>>,
    /// The applied version as it changes, for requests that wait for one.
    pub(crate) versions: crate::consistency::Versions,
    /// With `--ingest`: the topic of updates this server applies, and its progress.
    pub(crate) ingest: Option<crate::ingest::Source>,
    /// For a router (`kith route`): the shards the LDBC reads run across.
    pub(crate) shards: Option<Arc<kith_router::Router>>,
    /// What Bolt messages over `frame_bytes_max` being read hold together
    /// (`bolt_messages_bytes_total_max`).
    pub(crate) bolt_budget: Arc<kith_protocol::bolt::chunk::MessageBudget>,
}

impl AppState {
    /// Whether clients may write here: a router keeps a write path only for its
    /// person shard's ingest (`kith route --data`), never for clients; and no server
    /// does once a bug stopped its writer (`/health` and Bolt's routing table say so).
    pub(crate) fn takes_writes(&self) -> bool {
        let stopped = self.writes.as_ref().is_some_and(|w| w.failure().is_some());
        self.writes.is_some() && self.shards.is_none() && !stopped
    }

    /// Why this server takes no writes (`read_only`), naming the primary of a replica.
    pub(crate) fn read_only_reason(&self) -> String {
        match &self.replica {
            Some(replica) => format!(
                "this server is a read replica of {}; send writes to its primary{}",
                replica.url(),
                replica
                    .primary()
                    .map(|p| format!(" ({p})"))
                    .unwrap_or_default()
            ),
            None if self.shards.is_some() => "this server is a router over shards and takes \
                 no writes; send updates to the shards (docs/sharding.md)"
                .into(),
            None => {
                "this server is read-only (started without a data directory to write to)".into()
            }
        }
    }
}

/// One of the `connections_max` slots (WebSocket and Bolt connections together),
/// taken once a connection authenticated (never by one still pending: see
/// `admission`) and given back when it ends.
pub(crate) struct ConnectionSlot(Arc<AppState>, Transport);

impl ConnectionSlot {
    pub(crate) fn take(state: &Arc<AppState>, transport: Transport) -> Option<ConnectionSlot> {
        let max = state.config.connections_max;
        if !state.metrics.try_connection_opened(max) {
            return None;
        }
        state
            .metrics
            .connections
            .enter(transport, Standing::Authenticated);
        Some(ConnectionSlot(state.clone(), transport))
    }
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        self.0.metrics.connection_closed();
        self.0
            .metrics
            .connections
            .leave(self.1, Standing::Authenticated);
    }
}
