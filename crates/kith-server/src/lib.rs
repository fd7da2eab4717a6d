//! kith-server: serves a graph over WebSocket and HTTP.
//!
//! I/O runs on tokio; executing a request *and encoding its answer* run on a fixed
//! pool of worker threads (S1 learnt that serialising in the I/O loop is what stops a
//! server from scaling with clients). Every queue is bounded: past a limit the answer
//! is a `busy` error, never more memory.
//!
//! - [`config`]: the limits and options (`kith.toml` or flags);
//! - [`auth`]: users, roles, credentials and tokens, the same for every transport;
//! - [`pool`]: the worker threads and their bounded queue;
//! - `admission`: connections before they authenticate (their deadline, their pool
//!   apart from `connections_max`, per client address);
//! - `state`: what every handler shares (`AppState`, the shutdown signal);
//! - `error` and `codes`: a failed request, and the wire code of every lower layer's error;
//! - `consistency`: read-your-writes, a request waiting for the version it names;
//! - `dispatch`: the one request path every transport calls (job, worker or writer,
//!   limits, the transport's reply);
//! - [`exec`]: one request's work, shared by both transports;
//! - `cypher`: Cypher requests on the shared engine, their limits and errors;
//! - [`ws`]: the WebSocket protocol (`docs/protocol.md` 1);
//! - [`http`]: the HTTP baseline, health and metrics (`docs/protocol.md` 2);
//! - `export`: `GET /v1/checkpoint`, a primary's current version for a replica, and
//!   `GET /v1/backup`, the same for `kith backup`;
//! - `ingest`: `--ingest`, the server as the single writer of an update topic;
//! - `bolt`: Neo4j's Bolt protocol on its own port (`docs/bolt.md`);
//! - [`tls`]: the certificate and key, and TLS for every transport's connections;
//! - `write_queue`: the writer thread that commits transactions in durable groups,
//!   and the checkpointer;
//! - [`metrics`]: counters and histograms in Prometheus text format.

mod admin;
mod admission;
pub mod auth;
mod bolt;
mod codes;
pub mod config;
mod consistency;
mod console;
mod cypher;
mod dispatch;
mod error;
mod exec;
mod export;
mod http;
mod http_serve;
mod ingest;
mod local_shard;
mod locks;
pub mod metrics;
mod pool;
pub mod procedures;
mod routed;
mod router;
mod running;
mod slow;
mod state;
pub mod tls;
mod transactions;
mod write_queue;
mod ws;

/// The server's own decoders of outside bytes that live here rather than in
/// kith-protocol, for the fuzz targets (`crates/kith-fuzz`); not an API.
#[doc(hidden)]
pub mod fuzzing {
    /// A Bolt RUN parameter (PackStream) as a kith value, or why it is refused.
    pub fn bolt_param(
        name: &str,
        pack: kith_protocol::bolt::Pack,
    ) -> Result<kith_core::Value, String> {
        crate::bolt::param_value(name, pack)
    }
}

pub use config::ServerConfig;
pub use local_shard::LocalGraph;
pub use router::{serve, Server};
pub use write_queue::Publishing;
