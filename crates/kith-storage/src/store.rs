//! The single writer and the published version.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use arc_swap::ArcSwap;
use kith_core::{NodeId, RelId};

use crate::compaction::Compactor;
use crate::{Snapshot, StorageError, WriteBatch};

/// What a committed batch produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommitInfo {
    /// The version the batch created.
    pub version: u64,
    /// Ids of the nodes the batch created, in order of its `CreateNode` operations.
    pub created: Vec<NodeId>,
    /// Ids of the relationships the batch created, in order.
    pub created_rels: Vec<RelId>,
}

/// The outcome of each batch of a group, in order.
pub type GroupResults = Vec<Result<CommitInfo, StorageError>>;

/// A graph with one writer and any number of readers.
///
/// Readers call [`Store::snapshot`] — an atomic pointer load that never waits for the
/// writer — and read a version that never changes under them. Writers are serialised
/// by a mutex; each batch is applied to a private copy-on-write clone of the current
/// version and published with one atomic swap, or dropped whole on error. The writer
/// also owns the background fold of the adjacency delta (see `compaction`).
pub struct Store {
    current: ArcSwap<Snapshot>,
    writer: Mutex<Compactor>,
    /// Names the catalog held after the writer last forgot unused ones (changed
    /// only under `writer`).
    names_at_reclaim: AtomicUsize,
}

impl Store {
    /// A store serving `snapshot`.
    pub fn new(snapshot: Snapshot) -> Self {
        Store {
            current: ArcSwap::from_pointee(snapshot),
            writer: Mutex::new(Compactor::default()),
            names_at_reclaim: AtomicUsize::new(0),
        }
    }

    /// The current version. Never blocks.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.current.load_full()
    }

    /// Serves `snapshot` in place of the current version (a replica that started
    /// again from a newer checkpoint). A fold in progress is dropped (it folds the
    /// old graph). Nothing is logged; [`Database::reset_to`] is the durable path.
    ///
    /// [`Database::reset_to`]: crate::Database::reset_to
    pub fn replace(&self, snapshot: Snapshot) {
        let mut compactor = self
            .writer
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        *compactor = Compactor::default();
        self.current.store(Arc::new(snapshot));
    }

    /// `base` without the names nothing uses, once the catalog has grown by
    /// `RECLAIM_AFTER` names since the last time (see `crate::reclaim`).
    fn reclaim_due(&self, base: &Snapshot) -> Option<Snapshot> {
        let held = base.catalog.names_held();
        if held < self.names_at_reclaim.load(Ordering::Relaxed) + crate::reclaim::RECLAIM_AFTER {
            return None;
        }
        let mut reclaimed = base.clone();
        reclaimed.reclaim_names();
        let after = reclaimed.catalog.names_held();
        self.names_at_reclaim.store(after, Ordering::Relaxed);
        (after < held).then_some(reclaimed)
    }

    /// Applies a batch atomically: all of it becomes visible at once, or none of it.
    /// Nothing is logged; [`crate::Database`] is the durable path.
    pub fn apply(&self, batch: &WriteBatch) -> Result<CommitInfo, StorageError> {
        let mut results = self.apply_group(&[batch], |_, _| Ok(()))?;
        results.pop().expect("one result per batch")
    }

    /// Applies a group of independent batches, each all-or-nothing: a failing batch
    /// gets its error and the others still commit, each with its own version.
    ///
    /// `persist` receives the first version and the batches that applied, before
    /// anything is published: the group becomes visible to readers only once it
    /// returns `Ok` (write-ahead). If it fails, nothing of the group is published and
    /// the error is returned for the whole group.
    pub fn apply_group(
        &self,
        batches: &[&WriteBatch],
        persist: impl FnOnce(u64, &[&WriteBatch]) -> Result<(), StorageError>,
    ) -> Result<GroupResults, StorageError> {
        // A poisoned lock only means another writer panicked mid-batch; its private
        // clone was dropped unpublished, so the current version is intact.
        let mut compactor = self
            .writer
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut base = self.current.load_full();
        if let Some(rebased) = compactor.finish(&base) {
            // The same graph, with a smaller delta: publishing it changes no answer.
            base = Arc::new(rebased);
            self.current.store(Arc::clone(&base));
        }
        if let Some(reclaimed) = self.reclaim_due(&base) {
            // The same graph, with fewer names: publishing it changes no answer.
            base = Arc::new(reclaimed);
            self.current.store(Arc::clone(&base));
        }
        let mut next = Snapshot::clone(&base);
        let mut results = Vec::with_capacity(batches.len());
        let mut applied: Vec<&WriteBatch> = Vec::with_capacity(batches.len());
        for batch in batches {
            match next.apply_batch(batch) {
                Ok(created) => {
                    next.version += 1;
                    results.push(Ok(CommitInfo {
                        version: next.version,
                        created: created.nodes,
                        created_rels: created.rels,
                    }));
                    applied.push(batch);
                }
                Err(error) => {
                    // The failed batch left `next` half-changed: rebuild it from the
                    // base and the batches that applied (they apply again the same
                    // way; ids are slot numbers handed out in order).
                    results.push(Err(error));
                    next = Snapshot::clone(&base);
                    for batch in &applied {
                        next.apply_batch(batch)?;
                        next.version += 1;
                    }
                }
            }
        }
        if applied.is_empty() {
            return Ok(results);
        }
        persist(base.version + 1, &applied)?;
        let next = Arc::new(next);
        self.current.store(Arc::clone(&next));
        compactor.start_if_due(&next);
        Ok(results)
    }
}
