//! Named threads, their start-up failure as a `ReplicationError`.

use std::thread::JoinHandle;

use crate::ReplicationError;

/// Starts a thread named `name` running `f`.
pub(crate) fn spawn(
    name: &str,
    f: impl FnOnce() + Send + 'static,
) -> Result<JoinHandle<()>, ReplicationError> {
    std::thread::Builder::new()
        .name(name.into())
        .spawn(f)
        .map_err(|source| ReplicationError::Io {
            doing: format!("starting the {name} thread"),
            source,
        })
}
