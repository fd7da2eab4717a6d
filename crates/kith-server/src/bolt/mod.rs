//! Bolt, so Neo4j's own drivers work against kith unchanged (`docs/bolt.md`): its own
//! port, the same request path, limits and connection cap as the other transports.
//!
//! - `conn`: one connection's bytes (handshake, chunked messages, buffered answers);
//! - `session`: the protocol's state machine (authentication, auto-commit and
//!   explicit transactions, streaming, FAILURE/IGNORED/RESET, routing, bookmarks);
//! - `values`: kith's values as PackStream structures, parameters back;
//! - `failure`: errors as Neo4j status codes;
//! - `status`: the GQL status of a finished result (5.5+);
//! - `reply`: the dispatcher's answer handed to the connection.

mod conn;
mod failure;
mod plan;
mod reply;
mod session;
mod status;
mod system;
mod values;

pub(crate) use values::param_value;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tokio::net::TcpListener;

use crate::admission::Pending;
use crate::metrics::Transport;
use crate::state::AppState;
use crate::tls::Tls;

/// Accepts Bolt connections until shutdown. A connection the pending pool refuses
/// (`admission`) is closed at once: Bolt has no way to say "busy" before its
/// handshake. One that authenticates past `connections_max` is told so in a FAILURE.
pub(crate) async fn accept(listener: TcpListener, tls: Option<Tls>, state: Arc<AppState>) {
    let ids = AtomicU64::new(0);
    let mut shutdown = state.shutdown.clone();
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = shutdown.changed() => return,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of descriptors or similar: keep serving those already connected.
                tracing::warn!(error = %e, "bolt accept failed");
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                continue;
            }
        };
        let pending = match Pending::admit(&state, Transport::Bolt, peer.ip()) {
            Ok(pending) => pending,
            Err(reason) => {
                tracing::debug!(%peer, reason = reason.name(), "bolt connection refused");
                continue;
            }
        };
        let id = ids.fetch_add(1, Ordering::Relaxed);
        tokio::spawn(conn::connection(
            state.clone(),
            stream,
            tls.clone(),
            pending,
            id,
        ));
    }
}
