//! Read-your-writes: a request that names a version (`min_version`, a Bolt bookmark)
//! runs only once this server has applied it. On a primary that is at once; on a
//! replica it waits for the log to arrive, up to `min_version_wait_ms`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use kith_protocol::ErrorCode as Code;

use crate::error::ExecError;
use crate::state::AppState;

/// How often a waiting request looks at the applied version.
const POLL: Duration = Duration::from_millis(1);

/// Waits until the store has applied `version`; past `min_version_wait_ms`, the
/// error says how far behind this server is.
pub(crate) async fn reach(state: &AppState, version: u64) -> Result<(), ExecError> {
    let wait = Duration::from_millis(state.config.min_version_wait_ms);
    let deadline = Instant::now() + wait;
    loop {
        let applied = state.store.snapshot().version();
        if applied >= version {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(behind(state, applied, version, wait));
        }
        tokio::time::sleep(POLL).await;
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
