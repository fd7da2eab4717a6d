//! Read-your-writes: a request that names a version (`min_version`, a Bolt bookmark)
//! runs only once this server has applied it. On a primary a version it has not
//! committed is refused at once; on a replica the request waits for the log to
//! arrive, up to `min_version_wait_ms`.
//!
//! One task watches the store's version (every millisecond) and publishes it; the
//! waiting requests sleep on that one channel rather than each polling, and at most
//! `WAITERS_MAX` wait at once (past that: `busy`).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use kith_protocol::ErrorCode as Code;
use kith_storage::Store;
use tokio::sync::{watch, Semaphore};

use crate::error::ExecError;
use crate::state::AppState;

/// How often the watcher looks at the applied version.
const POLL: Duration = Duration::from_millis(1);
/// How often a waiter looks whether its client went away.
const CANCEL_POLL: Duration = Duration::from_millis(50);
/// Requests waiting for a version at once, all transports together.
const WAITERS_MAX: usize = 10_000;

/// The applied version as it changes, and the bound on waiters.
pub(crate) struct Versions {
    applied: watch::Receiver<u64>,
    waiters: Semaphore,
}

impl Versions {
    /// Starts the watcher task for `store` (it ends when the server's state goes).
    /// Only a replica's requests ever wait (a primary has every version it was asked
    /// for, or refuses at once), so a primary runs no watcher.
    pub(crate) fn watch(store: Arc<Store>, replica: bool) -> Versions {
        let (sender, applied) = watch::channel(store.snapshot().version());
        if !replica {
            return Versions {
                applied,
                waiters: Semaphore::new(WAITERS_MAX),
            };
        }
        tokio::spawn(async move {
            while !sender.is_closed() {
                tokio::time::sleep(POLL).await;
                let version = store.snapshot().version();
                sender.send_if_modified(|v| std::mem::replace(v, version) != version);
            }
        });
        Versions {
            applied,
            waiters: Semaphore::new(WAITERS_MAX),
        }
    }
}

/// Waits until the store has applied `version` (or `cancel` is set: the client
/// went away); past `min_version_wait_ms`, the error says how far behind this
/// server is.
pub(crate) async fn reach(
    state: &AppState,
    version: u64,
    cancel: Option<&AtomicBool>,
) -> Result<(), ExecError> {
    let applied = state.store.snapshot().version();
    if applied >= version {
        return Ok(());
    }
    refuse_at_once(state, applied, version)?;
    let Ok(_slot) = state.versions.waiters.try_acquire() else {
        let message =
            format!("{WAITERS_MAX} requests already wait for a version here; retry later");
        return Err(ExecError::new(Code::Busy, message));
    };
    let wait = Duration::from_millis(state.config.min_version_wait_ms);
    let mut applied = state.versions.applied.clone();
    let cancelled = async {
        loop {
            tokio::time::sleep(CANCEL_POLL).await;
            if cancel.is_some_and(|c| c.load(std::sync::atomic::Ordering::Acquire)) {
                return;
            }
        }
    };
    let reached = async { applied.wait_for(|v| *v >= version).await.is_ok() };
    tokio::select! {
        outcome = tokio::time::timeout(wait, reached) => match outcome {
            Ok(true) => Ok(()),
            _ => Err(behind(state, state.store.snapshot().version(), version, wait)),
        },
        () = cancelled => Err(ExecError::new(Code::Timeout, "the client went away while the request waited for its version")),
    }
}

/// A version that waiting cannot bring: on a primary, one it has not committed; on
/// a replica that stopped applying, any.
fn refuse_at_once(state: &AppState, applied: u64, version: u64) -> Result<(), ExecError> {
    match &state.replica {
        None => Err(ExecError::new(
            Code::Timeout,
            format!(
                "the request needs version {version} (min_version), but this server has \
                 committed only up to version {applied}: a version from another server?"
            ),
        )),
        Some(replica) => match replica.state() {
            kith_replication::FollowState::Failed(why) => Err(ExecError::new(
                Code::Timeout,
                format!(
                    "the request needs version {version} (min_version); this replica has \
                     applied {applied} and stopped applying its log: {why}"
                ),
            )),
            _ => Ok(()),
        },
    }
}

fn behind(state: &AppState, applied: u64, version: u64, wait: Duration) -> ExecError {
    let role = match state.replica {
        Some(_) => "this replica",
        None => "this server",
    };
    ExecError::new(
        Code::Timeout,
        format!(
            "the request needs version {version} (min_version), but {role} has applied \
             version {applied} and did not reach it within {} ms (min_version_wait_ms)",
            wait.as_millis()
        ),
    )
}

/// Whether a request naming `version` can run now.
pub(crate) fn reached(state: &Arc<AppState>, version: Option<u64>) -> bool {
    version.is_none_or(|v| state.store.snapshot().version() >= v)
}
