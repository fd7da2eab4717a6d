//! Folding the adjacency delta into a new packed base, off the writer's path.
//!
//! The fold reads a whole published version (it never changes), so it runs on its
//! own thread while the writer goes on committing; the writer picks the result up
//! at its next commit and rebases on it, keeping what it wrote meanwhile.

use std::sync::Arc;
use std::thread::JoinHandle;

use crate::adjacency::Csr;
use crate::{Snapshot, StorageError};

/// At most one fold in flight, and the version it folds.
#[derive(Default)]
pub(crate) struct Compactor {
    running: Option<(u64, JoinHandle<Result<Csr, StorageError>>)>,
}

impl Compactor {
    /// `current` rebased on a finished fold, if one finished. A fold that failed
    /// leaves the delta as it is (reads stay right, only slower); it is tried again
    /// when next due.
    pub(crate) fn finish(&mut self, current: &Snapshot) -> Option<Snapshot> {
        if !self.running.as_ref()?.1.is_finished() {
            return None;
        }
        let (merged, handle) = self.running.take()?;
        let base = handle.join().ok()?.ok()?;
        debug_assert!(merged <= current.version, "a fold of a later version");
        let mut next = current.clone();
        next.adj.rebase(Arc::new(base), merged).ok()?;
        Some(next)
    }

    /// Starts folding `published` if its delta has grown enough and no fold runs.
    pub(crate) fn start_if_due(&mut self, published: &Arc<Snapshot>) {
        if self.running.is_some() || !published.adj.wants_compaction() {
            return;
        }
        let snapshot = Arc::clone(published);
        let spawned = std::thread::Builder::new()
            .name("kith-compact".into())
            .spawn(move || snapshot.adj.compact(snapshot.nodes.len()));
        // Without a thread the delta simply stays; the next commit tries again.
        if let Ok(handle) = spawned {
            self.running = Some((published.version, handle));
        }
    }
}

impl Snapshot {
    /// Folds the changed adjacency into the packed base now, on this thread (the
    /// store does it in the background; this is for loads, tests and benchmarks).
    pub fn compact(&mut self) -> Result<(), StorageError> {
        let base = self.adj.compact(self.nodes.len())?;
        self.adj.rebase(Arc::new(base), self.version)
    }

    /// Number of nodes whose relationships changed since the last fold.
    pub fn adjacency_delta_len(&self) -> usize {
        self.adj.delta_len()
    }
}
