//! The HTTP and WebSocket accept loop: hyper's HTTP/1 server under axum's router, as
//! `axum::serve` runs it, plus the two bounds `axum::serve` has no setting for:
//!
//! - `http_connections_max` open HTTP connections (a WebSocket leaves this count when
//!   it upgrades and is counted by `connections_max` instead); past it a new
//!   connection is closed at once, so a flood of connections costs a file descriptor
//!   for an instant, not for as long as the attacker likes;
//! - `http_header_timeout_ms` for a request's headers (and a kept-alive connection's
//!   next request): a slowloris client that trickles a header a byte at a time is
//!   closed when it runs out, instead of holding its slot for ever.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use axum::serve::Listener;
use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::sync::{watch, Semaphore};

use crate::state::AppState;

/// Serves `app` on `listener` until `stopped` completes, then lets every open
/// connection finish its request (as `axum::serve`'s graceful shutdown does).
pub(crate) async fn serve<L>(
    mut listener: L,
    app: Router,
    state: Arc<AppState>,
    stopped: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()>
where
    L: Listener,
{
    let header_timeout = Duration::from_millis(state.config.http_header_timeout_ms);
    let slots = Arc::new(Semaphore::new(state.config.http_connections_max));
    let (closing, close) = watch::channel(());
    let mut stopped = pin!(stopped);
    loop {
        let (io, _) = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stopped => break,
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            state.metrics.http_connection_refused();
            drop(io); // closed at once: the cap is the bound on what a flood holds
            continue;
        };
        let service = TowerToHyperService::new(app.clone());
        let mut close = close.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let mut builder = http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout);
            let mut conn = pin!(builder
                .serve_connection(TokioIo::new(io), service)
                .with_upgrades());
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = close.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
        });
    }
    // New clients are refused now rather than left waiting in the backlog.
    drop(listener);
    drop(close);
    let _ = closing.send(());
    // Every connection task holds a receiver: all gone means all finished.
    closing.closed().await;
    Ok(())
}
