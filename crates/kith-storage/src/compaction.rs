//! Folding the adjacency delta and the external-id index's delta into new packed
//! bases, off the writer's path.
//!
//! The fold reads a whole published version (it never changes), so it runs on its
//! own thread while the writer goes on committing; the writer picks the result up
//! at its next commit and rebases on it, keeping what it wrote meanwhile.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

use crate::adjacency::Csr;
use crate::id_index::IdBase;
use crate::Snapshot;

/// What a fold builds from one version.
struct Folded {
    adj: Csr,
    ids: IdBase,
}

/// A fold in flight: the version it folds and its thread (`None` when cancelled).
struct Running {
    merged: u64,
    handle: JoinHandle<Option<Folded>>,
}

/// At most one fold in flight. Owned by the store's writer.
#[derive(Default)]
pub(crate) struct Compactor {
    running: Option<Running>,
    /// Set when the store goes away: a fold copies the whole graph, and a detached
    /// one would hold a graph's worth of memory and a core for nobody.
    cancel: Arc<AtomicBool>,
    /// The delta's size when a fold last failed (panicked): the next one waits
    /// until the delta has doubled, instead of retrying at every commit.
    failed_at: Option<usize>,
}

impl Compactor {
    /// `current` rebased on a finished fold, if one finished.
    pub(crate) fn finish(&mut self, current: &Snapshot) -> Option<Snapshot> {
        if !self.running.as_ref()?.handle.is_finished() {
            return None;
        }
        let Running { merged, handle } = self.running.take()?;
        let base = match handle.join() {
            Ok(base) => base?,
            Err(panic) => {
                // Reads stay right without the fold, only the delta stays large.
                let why = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                tracing::error!(version = merged, "fold panicked: {why}");
                self.failed_at = Some(delta_len(current));
                return None;
            }
        };
        // The rebase keeps only entries stamped after `merged`: were the fold of a
        // version this one does not descend from, edits would be lost.
        assert!(merged <= current.version, "a fold of a later version");
        let mut next = current.clone();
        next.adj.rebase(Arc::new(base.adj), merged);
        next.id_index.rebase(Arc::new(base.ids), merged);
        Some(next)
    }

    /// Starts folding `published` if its delta has grown enough and no fold runs.
    pub(crate) fn start_if_due(&mut self, published: &Arc<Snapshot>) {
        let delta = delta_len(published);
        let backed_off = self
            .failed_at
            .is_some_and(|at| delta < at.saturating_mul(2));
        let wanted = published.adj.wants_compaction() || published.id_index.wants_compaction();
        if self.running.is_some() || backed_off || !wanted {
            return;
        }
        let snapshot = Arc::clone(published);
        let cancel = Arc::clone(&self.cancel);
        let spawned = std::thread::Builder::new()
            .name("kith-compact".into())
            .spawn(move || fold(&snapshot, &cancel));
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    merged: published.version,
                    handle,
                });
            }
            // Without a thread the delta simply stays; the next commit tries again.
            Err(e) => tracing::warn!("no thread for a fold: {e}"),
        }
    }
}

/// Both deltas' sizes: what grows until a fold.
fn delta_len(snapshot: &Snapshot) -> usize {
    snapshot.adj.delta_len() + snapshot.id_index.delta_len()
}

/// The new bases for `snapshot`; `None` if cancelled.
fn fold(snapshot: &Snapshot, cancel: &AtomicBool) -> Option<Folded> {
    let adj = snapshot.adj.compact(snapshot.nodes.len(), cancel)?;
    // Writes refuse a second node with one (label, id), so a version has none.
    let ids = snapshot
        .build_id_base(cancel)
        .expect("a published version has no duplicate external ids")?;
    Some(Folded { adj, ids })
}

impl Drop for Compactor {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        if let Some(running) = self.running.take() {
            // Cancelled, it stops within 65,536 nodes.
            let _ = running.handle.join();
        }
    }
}

impl Snapshot {
    /// Folds the changed adjacency and external ids into the packed bases now, on
    /// this thread (the store does it in the background; this is for tests and
    /// benchmarks).
    pub fn compact(&mut self) {
        let folded = fold(self, &AtomicBool::new(false)).expect("an uncancelled fold finishes");
        self.adj.rebase(Arc::new(folded.adj), self.version);
        self.id_index.rebase(Arc::new(folded.ids), self.version);
    }

    /// Number of `(label, id)` keys changed since the external-id index's last fold.
    pub fn id_index_delta_len(&self) -> usize {
        self.id_index.delta_len()
    }

    /// Number of nodes whose relationships changed since the last fold.
    pub fn adjacency_delta_len(&self) -> usize {
        self.adj.delta_len()
    }
}
