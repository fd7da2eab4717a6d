//! The external-id index: `(label, id property) -> node`, as a flat base shared by
//! every version plus a small persistent delta of what writes changed since.
//!
//! The base keeps one entry per node, not one per label: nodes are grouped by their
//! label set (every LDBC `Comment` is `Message:Comment`), each group has one
//! open-addressing table of `(id, node)` entries, 12 bytes each at a load of at most
//! 0.8, and a lookup by label probes the tables of the groups holding that label
//! (one for `Comment`, two for `Message`). The persistent hash trie it replaces
//! cost about 40 bytes an entry and two entries a LDBC node.
//!
//! Writes cannot touch the shared base: each `(label, id)` they add or remove goes
//! into the delta, stamped with the version that made it (`None`: removed). The
//! background fold that packs the adjacency ([`crate::compaction`]) rebuilds the base
//! from a whole published version too; rebasing keeps the delta entries stamped
//! after that version.

use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use kith_core::{LabelId, NodeId};
use rustc_hash::{FxHashMap, FxHasher};

/// A table slot: the id's low and high halves and the node (`EMPTY`: free).
type Entry = [u32; 3];
const EMPTY: u32 = u32::MAX;

/// One label set's table.
#[derive(Debug)]
struct Table {
    slots: Box<[Entry]>,
}

impl Table {
    fn with_entries(n: usize) -> Table {
        // At most 0.8 full: linear probing stays short.
        let capacity = n + n / 4 + 1;
        Table {
            slots: vec![[0, 0, EMPTY]; capacity].into_boxed_slice(),
        }
    }

    #[inline]
    fn home(&self, id: i64) -> usize {
        // A multiplicative mix, then a multiply-shift onto the (not power-of-two)
        // capacity: ids are often dense runs, which a plain modulo would cluster.
        let h = (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((u128::from(h) * self.slots.len() as u128) >> 64) as usize
    }

    #[inline]
    fn get(&self, id: i64) -> Option<NodeId> {
        let (lo, hi) = (id as u32, (id >> 32) as u32);
        let mut i = self.home(id);
        loop {
            let [l, h, node] = self.slots[i];
            if node == EMPTY {
                return None;
            }
            if l == lo && h == hi {
                return Some(NodeId(node));
            }
            i = if i + 1 == self.slots.len() { 0 } else { i + 1 };
        }
    }

    /// Inserts `id -> node`; the node already there if `id` was taken.
    fn insert(&mut self, id: i64, node: NodeId) -> Option<NodeId> {
        assert_ne!(node.0, EMPTY, "node {} marks a free slot", node.0);
        let (lo, hi) = (id as u32, (id >> 32) as u32);
        let mut i = self.home(id);
        loop {
            let [l, h, other] = self.slots[i];
            if other == EMPTY {
                self.slots[i] = [lo, hi, node.0];
                return None;
            }
            if l == lo && h == hi {
                return Some(NodeId(other));
            }
            i = if i + 1 == self.slots.len() { 0 } else { i + 1 };
        }
    }

    fn len(&self) -> usize {
        self.slots.iter().filter(|e| e[2] != EMPTY).count()
    }

    fn entries(&self) -> impl Iterator<Item = (i64, NodeId)> + '_ {
        self.slots
            .iter()
            .filter(|e| e[2] != EMPTY)
            .map(|&[lo, hi, node]| ((i64::from(hi) << 32) | i64::from(lo), NodeId(node)))
    }
}

/// A label held by more label sets than this gets a table of its own: a lookup
/// probes at most this many tables, and the cross-set duplicate check stays linear.
const SETS_PER_LABEL_MAX: usize = 8;

/// The packed part of the index.
#[derive(Debug, Default)]
pub(crate) struct IdBase {
    tables: Vec<Table>,
    /// Per label, the tables of the label sets that contain it.
    by_label: Vec<Vec<u32>>,
    /// Per label held by more than `SETS_PER_LABEL_MAX` sets, its own table of all
    /// its nodes (they are in their sets' tables too).
    wide: Vec<Option<Table>>,
    len: usize,
}

/// Two nodes with one `(label, id)`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Duplicate {
    pub(crate) label: LabelId,
    pub(crate) id: i64,
}

impl IdBase {
    /// The base over `entries` (each node's sorted, distinct labels, its id and the
    /// node), refusing two nodes with one `(label, id)`. `None` if `cancel` was set.
    pub(crate) fn build<'a>(
        entries: impl Fn() -> Box<dyn Iterator<Item = (&'a [LabelId], i64, NodeId)> + 'a>,
        cancel: &AtomicBool,
    ) -> Result<Option<IdBase>, Duplicate> {
        // First pass: the label sets and how many nodes each holds.
        let mut sets: FxHashMap<&'a [LabelId], usize> = FxHashMap::default();
        let mut counts: Vec<usize> = Vec::new();
        let mut labels: Vec<&'a [LabelId]> = Vec::new();
        // A node without labels has no (label, id) key.
        let entries = || entries().filter(|(set, _, _)| !set.is_empty());
        for (i, (set, _, _)) in entries().enumerate() {
            if i % 65_536 == 0 && cancel.load(Ordering::Relaxed) {
                return Ok(None);
            }
            debug_assert!(
                set.windows(2).all(|w| w[0] < w[1]),
                "labels sorted, distinct"
            );
            let next = sets.len();
            let t = *sets.entry(set).or_insert(next);
            if t == counts.len() {
                counts.push(0);
                labels.push(set);
            }
            counts[t] += 1;
        }
        let mut base = IdBase {
            tables: counts.iter().map(|&n| Table::with_entries(n)).collect(),
            ..IdBase::default()
        };
        for (t, set) in labels.iter().enumerate() {
            for &label in set.iter() {
                if base.by_label.len() <= label.index() {
                    base.by_label.resize_with(label.index() + 1, Vec::new);
                }
                base.by_label[label.index()].push(t as u32);
            }
        }
        // Second pass: the entries.
        for (i, (set, id, node)) in entries().enumerate() {
            if i % 65_536 == 0 && cancel.load(Ordering::Relaxed) {
                return Ok(None);
            }
            if base.tables[sets[set]].insert(id, node).is_some() {
                return Err(Duplicate { label: set[0], id });
            }
            base.len += 1;
        }
        base.build_wide()?;
        base.check_across_sets()?;
        Ok(Some(base))
    }

    /// Tables of their own for labels in many label sets (refusing an id found in
    /// two of its sets on the way).
    fn build_wide(&mut self) -> Result<(), Duplicate> {
        self.wide = Vec::with_capacity(self.by_label.len());
        for (label, tables) in self.by_label.iter().enumerate() {
            if tables.len() <= SETS_PER_LABEL_MAX {
                self.wide.push(None);
                continue;
            }
            let n = tables.iter().map(|&t| self.tables[t as usize].len()).sum();
            let mut wide = Table::with_entries(n);
            for &t in tables {
                for (id, node) in self.tables[t as usize].entries() {
                    if wide.insert(id, node).is_some() {
                        let label = LabelId(label as u16);
                        return Err(Duplicate { label, id });
                    }
                }
            }
            self.wide.push(Some(wide));
        }
        Ok(())
    }

    /// A label in a few label sets (`Message` in `Message:Comment` and
    /// `Message:Post`) must not have one id in two of them (labels in many have
    /// been checked by `build_wide`).
    fn check_across_sets(&self) -> Result<(), Duplicate> {
        for (label, tables) in self.by_label.iter().enumerate() {
            if tables.len() > SETS_PER_LABEL_MAX {
                continue;
            }
            for (i, &t) in tables.iter().enumerate() {
                for (id, _) in self.tables[t as usize].entries() {
                    if tables[i + 1..]
                        .iter()
                        .any(|&u| self.tables[u as usize].get(id).is_some())
                    {
                        return Err(Duplicate {
                            label: LabelId(label as u16),
                            id,
                        });
                    }
                }
            }
        }
        Ok(())
    }

    #[inline]
    fn get(&self, label: LabelId, id: i64) -> Option<NodeId> {
        if let Some(Some(wide)) = self.wide.get(label.index()) {
            return wide.get(id);
        }
        self.by_label
            .get(label.index())?
            .iter()
            .find_map(|&t| self.tables[t as usize].get(id))
    }

    fn bytes(&self) -> usize {
        self.tables
            .iter()
            .chain(self.wide.iter().flatten())
            .map(|t| std::mem::size_of::<Table>() + std::mem::size_of_val(&*t.slots))
            .sum::<usize>()
            + self.wide.capacity() * std::mem::size_of::<Option<Table>>()
            + self
                .by_label
                .iter()
                .map(|v| std::mem::size_of::<Vec<u32>>() + v.capacity() * 4)
                .sum::<usize>()
    }
}

/// A change since the base: the node now holding the key (`None`: none), and the
/// version that made the change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Change {
    node: Option<NodeId>,
    version: u64,
}

type Delta = imbl::GenericHashMap<
    (LabelId, i64),
    Change,
    BuildHasherDefault<FxHasher>,
    imbl::shared_ptr::DefaultSharedPtr,
>;

/// The index of one version: the shared base and this version's changes to it.
#[derive(Clone, Debug, Default)]
pub(crate) struct IdIndex {
    base: Arc<IdBase>,
    delta: Delta,
}

impl IdIndex {
    pub(crate) fn from_base(base: IdBase) -> IdIndex {
        IdIndex {
            base: Arc::new(base),
            delta: Delta::default(),
        }
    }

    /// The node with `id` under `label`.
    #[inline]
    pub(crate) fn get(&self, label: LabelId, id: i64) -> Option<NodeId> {
        if self.delta.is_empty() {
            return self.base.get(label, id);
        }
        match self.delta.get(&(label, id)) {
            Some(change) => change.node,
            None => self.base.get(label, id),
        }
    }

    /// Records that `node` now has `(label, id)`, in the version `version` builds.
    pub(crate) fn insert(&mut self, label: LabelId, id: i64, node: NodeId, version: u64) {
        let node = Some(node);
        self.delta.insert((label, id), Change { node, version });
    }

    /// Records that no node has `(label, id)` any more.
    ///
    /// Always as a stamped entry, even where this base lacks the key: a fold in
    /// flight may be building a base that has it (from the version that inserted
    /// it), and only an entry stamped after that version survives the rebase.
    pub(crate) fn remove(&mut self, label: LabelId, id: i64, version: u64) {
        let change = Change {
            node: None,
            version,
        };
        self.delta.insert((label, id), change);
    }

    /// Number of `(label, id)` keys changed since the base was built.
    pub(crate) fn delta_len(&self) -> usize {
        self.delta.len()
    }

    /// Whether the delta is large enough to be worth a fold: the same rule as the
    /// adjacency's (a quarter of the base, at least 65,536).
    pub(crate) fn wants_compaction(&self) -> bool {
        self.delta.len() > (self.base.len / 4).max(65_536)
    }

    /// Takes `base`, built from version `merged` (which this index descends from),
    /// keeping the changes made after it.
    pub(crate) fn rebase(&mut self, base: Arc<IdBase>, merged: u64) {
        self.base = base;
        let base = &self.base;
        // A removal the new base already agrees with says nothing: dropped.
        self.delta.retain(|&(label, id), change| {
            change.version > merged && (change.node.is_some() || base.get(label, id).is_some())
        });
    }

    /// Heap bytes: the base's tables, and the delta estimated as a trie (entry plus
    /// hash, and a third more for inner nodes).
    pub(crate) fn bytes(&self) -> usize {
        let entry = std::mem::size_of::<((LabelId, i64), Change)>() + 8;
        self.base.bytes() + self.delta.len() * entry * 4 / 3
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(entries: &[(Vec<LabelId>, i64, NodeId)]) -> Result<IdBase, Duplicate> {
        let iter = || {
            Box::new(entries.iter().map(|(l, id, n)| (&l[..], *id, *n)))
                as Box<dyn Iterator<Item = _>>
        };
        Ok(IdBase::build(iter, &AtomicBool::new(false))?.expect("not cancelled"))
    }

    const MESSAGE: LabelId = LabelId(1);
    const POST: LabelId = LabelId(2);
    const COMMENT: LabelId = LabelId(3);
    const PERSON: LabelId = LabelId(4);

    #[test]
    fn a_label_finds_its_nodes_in_every_label_set_holding_it() {
        let mut entries = Vec::new();
        for i in 0..1_000i64 {
            entries.push((vec![MESSAGE, POST], i, NodeId(i as u32)));
            entries.push((vec![MESSAGE, COMMENT], 1_000 + i, NodeId(1_000 + i as u32)));
            entries.push((vec![PERSON], i, NodeId(2_000 + i as u32)));
        }
        entries.push((vec![PERSON], -7, NodeId(5_000)));
        entries.push((vec![PERSON], i64::MAX, NodeId(5_001)));
        let base = build(&entries).expect("no duplicates");
        for (labels, id, node) in &entries {
            for &l in labels {
                assert_eq!(base.get(l, *id), Some(*node), "{l:?} {id}");
            }
        }
        assert_eq!(base.get(POST, 1_500), None);
        assert_eq!(base.get(COMMENT, 10), None);
        assert_eq!(base.get(LabelId(99), 1), None);
        assert_eq!(base.len, entries.len());
        // 12 bytes an entry at a load of at most 0.8, one entry a node.
        assert!(base.bytes() < entries.len() * 16, "{}", base.bytes());
    }

    #[test]
    fn duplicates_are_refused_within_and_across_label_sets() {
        let within = [(vec![PERSON], 1, NodeId(0)), (vec![PERSON], 1, NodeId(1))];
        assert_eq!(
            build(&within).err(),
            Some(Duplicate {
                label: PERSON,
                id: 1
            })
        );
        let across = [
            (vec![MESSAGE, POST], 5, NodeId(0)),
            (vec![MESSAGE, COMMENT], 5, NodeId(1)),
        ];
        assert_eq!(
            build(&across).err(),
            Some(Duplicate {
                label: MESSAGE,
                id: 5
            })
        );
    }

    #[test]
    fn the_delta_shadows_the_base_and_a_rebase_keeps_later_changes() {
        let base = build(&[(vec![PERSON], 1, NodeId(0)), (vec![PERSON], 2, NodeId(1))])
            .expect("no duplicates");
        let mut index = IdIndex::from_base(base);
        index.remove(PERSON, 1, 1);
        index.insert(PERSON, 3, NodeId(2), 1);
        index.insert(PERSON, 2, NodeId(3), 2);
        index.insert(PERSON, 9, NodeId(4), 2);
        index.remove(PERSON, 9, 2);
        assert_eq!(index.get(PERSON, 1), None);
        assert_eq!(index.get(PERSON, 2), Some(NodeId(3)));
        assert_eq!(index.get(PERSON, 3), Some(NodeId(2)));
        assert_eq!(index.get(PERSON, 9), None);
        assert_eq!(index.delta_len(), 4);
        // A fold of version 1: what version 1 did is in the new base.
        let folded = build(&[(vec![PERSON], 2, NodeId(1)), (vec![PERSON], 3, NodeId(2))])
            .expect("no duplicates");
        index.rebase(Arc::new(folded), 1);
        // Left: (2 -> node 3); the removal of 9, which the new base agrees with,
        // is dropped.
        assert_eq!(index.delta_len(), 1);
        assert_eq!(index.get(PERSON, 1), None);
        assert_eq!(index.get(PERSON, 2), Some(NodeId(3)));
        assert_eq!(index.get(PERSON, 3), Some(NodeId(2)));
    }

    #[test]
    fn a_removal_outlives_a_fold_of_the_version_that_inserted_the_key() {
        let mut index = IdIndex::from_base(build(&[]).expect("empty"));
        index.insert(PERSON, 5, NodeId(0), 1);
        // A fold of version 1 starts; version 2 deletes the node.
        index.remove(PERSON, 5, 2);
        let folded = build(&[(vec![PERSON], 5, NodeId(0))]).expect("no duplicates");
        index.rebase(Arc::new(folded), 1);
        assert_eq!(index.get(PERSON, 5), None);
    }

    #[test]
    fn a_label_in_many_label_sets_gets_a_table_of_its_own() {
        let many: Vec<(Vec<LabelId>, i64, NodeId)> = (0..20u16)
            .map(|k| {
                (
                    vec![MESSAGE, LabelId(10 + k)],
                    i64::from(k),
                    NodeId(u32::from(k)),
                )
            })
            .collect();
        let base = build(&many).expect("no duplicates");
        assert!(base.wide[MESSAGE.index()].is_some());
        for (labels, id, node) in &many {
            assert_eq!(base.get(MESSAGE, *id), Some(*node));
            assert_eq!(base.get(labels[1], *id), Some(*node));
        }
        assert_eq!(base.get(MESSAGE, 99), None);
        let mut dup = many.clone();
        dup.push((vec![MESSAGE, LabelId(50)], 3, NodeId(99)));
        assert_eq!(
            build(&dup).err(),
            Some(Duplicate {
                label: MESSAGE,
                id: 3
            })
        );
    }

    #[test]
    fn a_node_without_labels_has_no_key() {
        let base = build(&[(vec![], 1, NodeId(0)), (vec![], 1, NodeId(1))]).expect("no keys");
        assert_eq!(base.len, 0);
    }

    #[test]
    fn a_cancelled_build_gives_nothing() {
        let entries = [(vec![PERSON], 1i64, NodeId(0))];
        let iter = || {
            Box::new(entries.iter().map(|(l, id, n)| (&l[..], *id, *n)))
                as Box<dyn Iterator<Item = _>>
        };
        let cancelled = AtomicBool::new(true);
        assert!(IdBase::build(iter, &cancelled).expect("valid").is_none());
    }
}
