//! The single writer and the published version.

use std::sync::{Arc, Mutex};

use arc_swap::ArcSwap;
use kith_core::NodeId;

use crate::{Snapshot, StorageError, WriteBatch};

/// What a committed batch produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommitInfo {
    /// The version the batch created.
    pub version: u64,
    /// Ids of the nodes the batch created, in order of its `CreateNode` operations.
    pub created: Vec<NodeId>,
}

/// A graph with one writer and any number of readers.
///
/// Readers call [`Store::snapshot`] — an atomic pointer load that never waits for the
/// writer — and read a version that never changes under them. Writers are serialised
/// by a mutex; each batch is applied to a private copy-on-write clone of the current
/// version and published with one atomic swap, or dropped whole on error.
pub struct Store {
    current: ArcSwap<Snapshot>,
    writer: Mutex<()>,
}

impl Store {
    /// A store serving `snapshot`.
    pub fn new(snapshot: Snapshot) -> Self {
        Store {
            current: ArcSwap::from_pointee(snapshot),
            writer: Mutex::new(()),
        }
    }

    /// The current version. Never blocks.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.current.load_full()
    }

    /// Applies a batch atomically: all of it becomes visible at once, or none of it.
    pub fn apply(&self, batch: &WriteBatch) -> Result<CommitInfo, StorageError> {
        // A poisoned lock only means another writer panicked mid-batch; its private
        // clone was dropped unpublished, so the current version is intact.
        let _writer = self
            .writer
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut next = Snapshot::clone(&self.current.load());
        let created = next.apply_batch(batch)?;
        next.version += 1;
        let version = next.version;
        self.current.store(Arc::new(next));
        Ok(CommitInfo { version, created })
    }
}
