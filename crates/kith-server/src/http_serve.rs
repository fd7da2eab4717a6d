//! The HTTP and WebSocket accept loop: hyper's HTTP/1 server under axum's router, as
//! `axum::serve` runs it, plus what `axum::serve` has no setting for:
//!
//! - `http_connections_max` open HTTP connections (a WebSocket leaves this count when
//!   it upgrades and is counted by `connections_max` instead); past it a new
//!   connection is closed at once, so a flood of connections costs a file descriptor
//!   for an instant, not for as long as the attacker likes;
//! - the pending pool (`admission`): a connection must authenticate a request (or
//!   upgrade) within `auth_deadline_ms`, and pending ones are capped on their own and
//!   per client address;
//! - `http_header_timeout_ms` for a request's headers (and a kept-alive connection's
//!   next request): a slowloris client that trickles a header a byte at a time is
//!   closed when it runs out, instead of holding its slot for ever (a body has
//!   `message_read_timeout_ms`, in `http.rs`);
//! - TLS: each connection's handshake runs on its own task, inside its deadline, so a
//!   silent client never stalls the accept loop.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};

use crate::admission::activity::{Activity, Watched};
use crate::admission::http::HttpConnection;
use crate::admission::Pending;
use crate::metrics::{CloseReason, Transport};
use crate::state::AppState;
use crate::tls::{Tls, PLAIN_HTTP};

/// Serves `app` on `listener` (through `tls` when given) until `stopped` completes,
/// then lets every open connection finish its request (as `axum::serve`'s graceful
/// shutdown does).
pub(crate) async fn serve(
    listener: TcpListener,
    tls: Option<Tls>,
    app: Router,
    state: Arc<AppState>,
    stopped: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(state.config.http_connections_max));
    let (closing, close) = watch::channel(());
    let mut stopped = pin!(stopped);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stopped => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of descriptors or similar: keep serving those already connected.
                tracing::warn!(error = %e, "accept failed");
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        // Closed at once past either cap (dropping the stream): the caps are the
        // bound on what a flood holds.
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            state.metrics.http_connection_refused();
            let connections = &state.metrics.connections;
            connections.closed(Transport::Http, CloseReason::HttpConnectionsMax);
            continue;
        };
        let Ok(pending) = Pending::admit(&state, Transport::Http, peer.ip()) else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        let accepted = Accepted {
            state: state.clone(),
            app: app.clone(),
            close: close.clone(),
            _slot: slot,
        };
        tokio::spawn(accepted.serve(stream, tls.clone(), pending));
    }
    // New clients are refused now rather than left waiting in the backlog.
    drop(listener);
    drop(close);
    let _ = closing.send(());
    // Every connection task holds a receiver: all gone means all finished.
    closing.closed().await;
    Ok(())
}

/// One accepted connection and what serving it needs.
struct Accepted {
    state: Arc<AppState>,
    app: Router,
    close: watch::Receiver<()>,
    _slot: OwnedSemaphorePermit,
}

impl Accepted {
    async fn serve(self, stream: TcpStream, tls: Option<Tls>, pending: Pending) {
        let state = self.state.clone();
        let activity = Activity::new();
        let conn = HttpConnection::new(&state, pending, activity.clone());
        let reason = match tls {
            None => self.http(Watched::new(stream, activity), &conn).await,
            Some(tls) => {
                let deadline = tokio::time::Instant::from_std(conn.deadline());
                let handshake = tokio::time::timeout_at(deadline, tls.accept(stream, PLAIN_HTTP));
                let opened = tokio::select! {
                    opened = handshake => opened,
                    () = conn.evicted() => Ok(Err(std::io::ErrorKind::Interrupted.into())),
                };
                match opened {
                    Ok(Ok(stream)) => self.http(Watched::new(stream, activity), &conn).await,
                    Ok(Err(e)) => match e.kind() {
                        std::io::ErrorKind::Interrupted => CloseReason::Evicted,
                        // Silent past TLS's own first-byte or handshake timeout.
                        std::io::ErrorKind::TimedOut => CloseReason::AuthDeadline,
                        _ => CloseReason::Handshake,
                    },
                    Err(_) => CloseReason::AuthDeadline,
                }
            }
        };
        state.metrics.connections.closed(Transport::Http, reason);
    }

    /// Serves HTTP on `io` until the connection ends, and says why it did.
    async fn http<I>(mut self, io: I, conn: &Arc<HttpConnection>) -> CloseReason
    where
        I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        let header_timeout = Duration::from_millis(self.state.config.http_header_timeout_ms);
        let grace = self.state.config.message_read_timeout();
        let service = TowerToHyperService::new(self.app.clone());
        let mut builder = http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(header_timeout);
        let serving = builder
            .serve_connection(TokioIo::new(io), service)
            .with_upgrades();
        let mut serving = pin!(serving);
        let driven = async {
            loop {
                let pending = conn.is_pending();
                let deadline = tokio::time::Instant::from_std(conn.deadline());
                tokio::select! {
                    done = serving.as_mut() => return outcome(done, conn),
                    _ = self.close.changed() => {
                        serving.as_mut().graceful_shutdown();
                        let _ = serving.as_mut().await;
                        return CloseReason::Shutdown;
                    }
                    () = tokio::time::sleep_until(deadline), if pending => {
                        if !conn.is_pending() {
                            continue; // out of the pool as the deadline came
                        }
                        if !conn.in_request() {
                            return CloseReason::AuthDeadline; // silent, or a request trickling
                        }
                        // A request under way may finish (its body has its own
                        // deadline), without its place in the pool; nothing after it
                        // is read.
                        conn.leave_pool();
                        serving.as_mut().graceful_shutdown();
                        let _ = tokio::time::timeout(grace, serving.as_mut()).await;
                        return CloseReason::AuthDeadline;
                    }
                    () = conn.evicted(), if pending => {
                        if conn.is_pending() {
                            return CloseReason::Evicted;
                        }
                    }
                }
            }
        };
        conn.scope(driven).await
    }
}

/// Why a connection hyper finished serving ended.
fn outcome(done: Result<(), hyper::Error>, conn: &HttpConnection) -> CloseReason {
    if let Some(reason) = conn.reason() {
        return reason;
    }
    match done {
        Ok(()) if conn.upgraded() => CloseReason::Upgraded,
        Ok(()) => CloseReason::Client,
        // The header timeout: a request trickling in, or a kept-alive connection that
        // sent nothing since its last answer.
        Err(e) if e.is_timeout() && conn.activity().partial() => CloseReason::ReadDeadline,
        Err(e) if e.is_timeout() => CloseReason::Idle,
        Err(e) if e.is_parse() => CloseReason::Invalid,
        Err(_) => CloseReason::Client,
    }
}
