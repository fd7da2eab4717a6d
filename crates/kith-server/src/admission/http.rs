//! An HTTP connection's standing. HTTP authenticates each request, in its handler
//! (`auth::of_headers`, the WebSocket upgrade); the connection leaves the pending pool
//! with the first request that authenticated. The handlers run inside the
//! connection's task (hyper polls the service there), so the connection is reached
//! through a task-local set around it rather than threaded through every handler's
//! arguments; outside an HTTP connection (Bolt, tests) the calls below do nothing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::sync::Notify;

use super::activity::Activity;
use super::Pending;
use crate::metrics::{Standing, Transport};
use crate::state::AppState;

tokio::task_local! {
    static CONNECTION: Arc<HttpConnection>;
}

/// One HTTP connection's standing.
pub(crate) struct HttpConnection {
    state: Arc<AppState>,
    /// Its place in the pending pool until a request authenticated.
    pending: Mutex<Option<Pending>>,
    evict: Arc<Notify>,
    deadline: Instant,
    authenticated: AtomicBool,
    /// Whether it is becoming a WebSocket connection.
    upgraded: AtomicBool,
    /// Its socket's message clock, for a WebSocket it upgrades to.
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
            authenticated: AtomicBool::new(false),
            upgraded: AtomicBool::new(false),
            activity,
        })
    }

    /// Runs `serving` (the connection's hyper future) with this connection current.
    pub(crate) async fn scope<F: std::future::Future>(self: &Arc<Self>, serving: F) -> F::Output {
        CONNECTION.scope(self.clone(), serving).await
    }

    pub(crate) fn is_authenticated(&self) -> bool {
        self.authenticated.load(Ordering::Acquire)
    }

    /// Whether a request upgraded it to a WebSocket connection.
    pub(crate) fn upgraded(&self) -> bool {
        self.upgraded.load(Ordering::Acquire)
    }

    /// When it must have authenticated.
    pub(crate) fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Completes when a connection from a less busy address took its place.
    pub(crate) async fn evicted(&self) {
        self.evict.notified().await;
    }

    fn promote(&self) {
        let pending = self
            .pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(pending) = pending {
            drop(pending);
            self.authenticated.store(true, Ordering::Release);
            self.state
                .metrics
                .connections
                .enter(Transport::Http, Standing::Authenticated);
        }
    }
}

impl Drop for HttpConnection {
    fn drop(&mut self) {
        if self.is_authenticated() {
            self.state
                .metrics
                .connections
                .leave(Transport::Http, Standing::Authenticated);
        }
    }
}

/// A request on the current HTTP connection authenticated: the connection leaves the
/// pending pool.
pub(crate) fn authenticated() {
    let _ = CONNECTION.try_with(|c| c.promote());
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
