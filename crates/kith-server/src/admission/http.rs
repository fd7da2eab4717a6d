//! An HTTP connection's standing. HTTP authenticates each request, in its handler
//! (`auth::who`, the WebSocket upgrade); the connection leaves the pending pool with
//! the first request that authenticated, or with the first it was answered (a health
//! check, the console's files need no credentials: a client that completes requests
//! is no silent socket, and it stays bounded by `http_connections_max` and the header
//! timeout). The handlers run inside the connection's task (hyper polls the service
//! there), so the connection is reached through a task-local set around it rather
//! than threaded through every handler's arguments; outside an HTTP connection (Bolt,
//! tests) the calls below do nothing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use tokio::sync::Notify;

use super::activity::Activity;
use super::Pending;
use crate::metrics::{CloseReason, Standing, Transport};
use crate::state::AppState;

tokio::task_local! {
    static CONNECTION: Arc<HttpConnection>;
}

/// One HTTP connection's standing.
pub(crate) struct HttpConnection {
    state: Arc<AppState>,
    /// Its place in the pending pool until it authenticated or was answered.
    pending: Mutex<Option<Pending>>,
    evict: Arc<Notify>,
    deadline: Instant,
    /// Where it stands once out of the pool (`None` while pending).
    standing: Mutex<Option<Standing>>,
    /// A request is being handled (its headers were read).
    in_request: AtomicBool,
    /// Whether it is becoming a WebSocket connection.
    upgraded: AtomicBool,
    /// Why it ends, when a handler knows better than hyper's outcome.
    reason: Mutex<Option<CloseReason>>,
    /// Its socket's message clock, for idle connections and a WebSocket it upgrades to.
    activity: Arc<Activity>,
}

impl HttpConnection {
    pub(crate) fn new(
        state: &Arc<AppState>,
        pending: Pending,
        activity: Arc<Activity>,
    ) -> Arc<HttpConnection> {
        Arc::new(HttpConnection {
            state: state.clone(),
            evict: pending.evict.clone(),
            deadline: pending.deadline(),
            pending: Mutex::new(Some(pending)),
            standing: Mutex::new(None),
            in_request: AtomicBool::new(false),
            upgraded: AtomicBool::new(false),
            reason: Mutex::new(None),
            activity,
        })
    }

    /// Runs `serving` (the connection's hyper future) with this connection current.
    pub(crate) async fn scope<F: std::future::Future>(self: &Arc<Self>, serving: F) -> F::Output {
        CONNECTION.scope(self.clone(), serving).await
    }

    /// Whether it is still in the pending pool.
    pub(crate) fn is_pending(&self) -> bool {
        lock(&self.standing).is_none()
    }

    /// Whether a request is being handled now.
    pub(crate) fn in_request(&self) -> bool {
        self.in_request.load(Ordering::Acquire)
    }

    /// Whether a request upgraded it to a WebSocket connection.
    pub(crate) fn upgraded(&self) -> bool {
        self.upgraded.load(Ordering::Acquire)
    }

    /// Why it ended, if a handler said.
    pub(crate) fn reason(&self) -> Option<CloseReason> {
        *lock(&self.reason)
    }

    /// Its socket's message clock.
    pub(crate) fn activity(&self) -> &Activity {
        &self.activity
    }

    /// When it must have authenticated.
    pub(crate) fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Completes when a connection from a less busy address took its place.
    pub(crate) async fn evicted(&self) {
        self.evict.notified().await;
    }

    /// Past its deadline with a request under way: its pool place is given back while
    /// that request finishes.
    pub(crate) fn leave_pool(&self) {
        if let Some(pending) = lock(&self.pending).as_mut() {
            pending.leave_pool();
        }
    }

    /// Leaves the pool for `standing` (or from `Answered` to `Authenticated`).
    fn stand(&self, standing: Standing) {
        let mut now = lock(&self.standing);
        if *now == Some(standing) || *now == Some(Standing::Authenticated) {
            return;
        }
        let connections = &self.state.metrics.connections;
        if let Some(previous) = now.replace(standing) {
            connections.leave(Transport::Http, previous);
        }
        connections.enter(Transport::Http, standing);
        drop(now);
        // Dropping the place after the standing is set: never counted in neither.
        drop(lock(&self.pending).take());
    }
}

impl Drop for HttpConnection {
    fn drop(&mut self) {
        if let Some(standing) = *lock(&self.standing) {
            self.state
                .metrics
                .connections
                .leave(Transport::Http, standing);
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // Each field is set in one step: sound after a panic too.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A request on the current HTTP connection authenticated: the connection leaves the
/// pending pool.
pub(crate) fn authenticated() {
    let _ = CONNECTION.try_with(|c| c.stand(Standing::Authenticated));
}

/// The current HTTP connection ends for `reason` (what hyper's outcome cannot tell: a
/// body too slow, a refused WebSocket handshake).
pub(crate) fn ends_for(reason: CloseReason) {
    let _ = CONNECTION.try_with(|c| *lock(&c.reason) = Some(reason));
}

/// The current HTTP connection is upgrading to a WebSocket connection: its socket's
/// message clock, which the WebSocket connection keeps.
pub(crate) fn upgrading() -> Option<Arc<Activity>> {
    CONNECTION
        .try_with(|c| {
            c.upgraded.store(true, Ordering::Release);
            c.activity.clone()
        })
        .ok()
}

/// Middleware around every request: a request whose headers arrived is progress (its
/// connection gives way to a flood's silent sockets last); one answered takes its
/// connection out of the pending pool.
pub(crate) async fn track(request: Request, next: Next) -> Response {
    let current = CONNECTION.try_with(Arc::clone).ok();
    if let Some(c) = &current {
        c.in_request.store(true, Ordering::Release);
        if let Some(pending) = lock(&c.pending).as_ref() {
            pending.made_progress();
        }
    }
    let response = next.run(request).await;
    if let Some(c) = &current {
        c.stand(Standing::Answered);
        c.activity.message_done();
        c.in_request.store(false, Ordering::Release);
    }
    response
}
