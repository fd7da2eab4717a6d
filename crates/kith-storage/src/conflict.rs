//! Write-write conflicts between transactions that read one version and commit on a
//! later one.
//!
//! A transaction reads the version it began on and its writes are applied to the
//! newest version at commit. If a transaction committed in between changed what it
//! changed (or a node it links to, or linked to a node it changes), applying it
//! would silently undo or ignore that commit: it fails instead with a retryable
//! conflict. The single writer keeps the write sets of recent commits ([`History`])
//! and checks each transaction against those after its version. This gives
//! snapshot isolation: reads see one version; concurrent transactions never both
//! change one node or relationship.

use std::collections::VecDeque;

use kith_core::write_op::{NodeRef, WriteOp};
use kith_core::{NodeId, RelId};
use rustc_hash::FxHashSet;

use crate::Snapshot;

/// What a transaction changed of the version it read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteSet {
    /// Nodes whose labels or properties it set, or that it deleted.
    pub nodes: FxHashSet<NodeId>,
    /// Relationships whose properties it set, or that it deleted.
    pub rels: FxHashSet<RelId>,
    /// Nodes it attached a new relationship to.
    pub links: FxHashSet<NodeId>,
}

impl WriteSet {
    /// The entities of `before` that `ops` change (what they create is new to every
    /// other transaction and cannot conflict).
    pub fn of<'a>(ops: impl IntoIterator<Item = &'a WriteOp>, before: &Snapshot) -> WriteSet {
        let mut set = WriteSet::default();
        let node = |r: &NodeRef| match r {
            NodeRef::Node(id) if id.index() < before.nodes.len() => Some(*id),
            NodeRef::ById { label, id } => before
                .catalog
                .find_label(label)
                .and_then(|l| before.id_index.get(l, *id)),
            _ => None,
        };
        for op in ops {
            match op {
                WriteOp::DeleteNode { node: n, detach } => {
                    let Some(id) = node(n) else { continue };
                    set.nodes.insert(id);
                    if *detach {
                        // The relationships it takes with it are changed too: another
                        // transaction's change to one of them must collide.
                        let groups = before.adj.groups(id);
                        set.rels
                            .extend(groups.flat_map(|g| g.2.iter().map(|e| e.rel)));
                    }
                }
                WriteOp::SetNodeProperty { node: n, .. }
                | WriteOp::AddLabel { node: n, .. }
                | WriteOp::RemoveLabel { node: n, .. } => set.nodes.extend(node(n)),
                WriteOp::SetRelProperty { rel, .. } | WriteOp::DeleteRel { rel } => {
                    if rel.index() < before.rels.len() {
                        set.rels.insert(*rel);
                    }
                }
                WriteOp::CreateRel { src, dst, .. } => {
                    set.links.extend(node(src));
                    set.links.extend(node(dst));
                }
                WriteOp::CreateNode { .. }
                | WriteOp::EnsureNode { .. }
                | WriteOp::Require(_)
                | WriteOp::CreateIndex { .. }
                | WriteOp::DropIndex { .. }
                | WriteOp::Schema(_) => {}
            }
        }
        set
    }

    /// Entities it names (what it costs the history to keep).
    pub fn len(&self) -> usize {
        self.nodes.len() + self.rels.len() + self.links.len()
    }

    /// Whether nothing is changed.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty() && self.rels.is_empty() && self.links.is_empty()
    }

    /// Whether two transactions' writes collide: both change one entity, or one
    /// links to a node the other changes. Two links to one node do not collide.
    pub fn conflicts(&self, other: &WriteSet) -> bool {
        let meets = |a: &FxHashSet<NodeId>, b: &FxHashSet<NodeId>| {
            let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
            small.iter().any(|n| large.contains(n))
        };
        meets(&self.nodes, &other.nodes)
            || meets(&self.links, &other.nodes)
            || meets(&self.nodes, &other.links)
            || self.rels.iter().any(|r| other.rels.contains(r))
    }
}

/// What the writer checks before committing a transaction: the version it read and
/// what it changed of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadCheck {
    /// The version its statements read.
    pub read: u64,
    /// What it changed of that version.
    pub writes: WriteSet,
}

/// The write sets of the last commits, newest last, bounded both in commits and in
/// the entities they name (a bulk load's sets are large).
#[derive(Debug)]
pub struct History {
    /// Versions up to this one are not known (before the writer started, or
    /// forgotten): a transaction that read one of them is assumed to conflict.
    known_after: u64,
    entries: VecDeque<(u64, WriteSet)>,
    entries_max: usize,
    /// Entities named by the kept sets.
    size: usize,
    size_max: usize,
}

impl History {
    /// A history starting at `version`, keeping at most `entries_max` commits whose
    /// sets name at most `size_max` entities together.
    pub fn new(version: u64, entries_max: usize, size_max: usize) -> History {
        assert!(entries_max > 0, "a history keeps at least one commit");
        History {
            known_after: version,
            entries: VecDeque::new(),
            entries_max,
            size: 0,
            size_max,
        }
    }

    /// Records the writes of the commit that made `version`, forgetting the oldest
    /// commits beyond the bounds.
    pub fn record(&mut self, version: u64, set: WriteSet) {
        debug_assert!(
            self.entries.back().is_none_or(|(v, _)| *v < version),
            "commits are recorded in version order"
        );
        self.size += set.len();
        self.entries.push_back((version, set));
        while self.entries.len() > self.entries_max
            || (self.size > self.size_max && self.entries.len() > 1)
        {
            let Some((v, old)) = self.entries.pop_front() else {
                break;
            };
            self.size -= old.len();
            self.known_after = v;
        }
    }

    /// The first commit after `read` whose writes collide with `set`, if any. A
    /// transaction that read a version older than the history knows collides with
    /// that version (it cannot be checked).
    pub fn conflict(&self, read: u64, set: &WriteSet) -> Option<u64> {
        if read < self.known_after {
            return Some(self.known_after);
        }
        // Entries are in version order: only those after `read` are looked at (a
        // scan from the oldest cost every commit ~0.5 ms once the history was full).
        let after = self.entries.partition_point(|(v, _)| *v <= read);
        self.entries
            .range(after..)
            .find(|(_, other)| set.conflicts(other))
            .map(|(v, _)| *v)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    fn set_prop(n: u32) -> WriteOp {
        WriteOp::SetNodeProperty {
            node: NodeRef::Node(NodeId(n)),
            key: Arc::from("k"),
            value: kith_core::Value::Int(1),
        }
    }

    fn link(a: u32, b: u32) -> WriteOp {
        WriteOp::CreateRel {
            rel_type: Arc::from("T"),
            src: NodeRef::Node(NodeId(a)),
            dst: NodeRef::Node(NodeId(b)),
            properties: Vec::new(),
        }
    }

    fn graph(nodes: usize) -> Snapshot {
        let mut s = Snapshot::empty();
        let ops: Vec<WriteOp> = (0..nodes)
            .map(|_| WriteOp::CreateNode {
                labels: Vec::new(),
                properties: Vec::new(),
            })
            .collect();
        s.apply_batch(&crate::WriteBatch { ops }).expect("applies");
        s
    }

    #[test]
    fn changes_to_one_node_collide_and_two_links_do_not() {
        let g = graph(4);
        let a = WriteSet::of(&[set_prop(1)], &g);
        let b = WriteSet::of(&[set_prop(1), link(2, 3)], &g);
        let c = WriteSet::of(&[link(2, 0)], &g);
        assert!(a.conflicts(&b));
        assert!(!b.conflicts(&c), "both only link to node 2");
        let d = WriteSet::of(
            &[WriteOp::DeleteNode {
                node: NodeRef::Node(NodeId(2)),
                detach: true,
            }],
            &g,
        );
        assert!(d.conflicts(&c), "a link to a deleted node");
        // What a batch creates is nobody else's.
        let e = WriteSet::of(&[set_prop(9), link(9, 10)], &g);
        assert!(e.is_empty());
    }

    #[test]
    fn the_history_checks_only_later_commits_and_refuses_what_it_forgot() {
        let g = graph(4);
        let mut h = History::new(10, 2, 1_000);
        h.record(11, WriteSet::of(&[set_prop(1)], &g));
        h.record(12, WriteSet::of(&[set_prop(2)], &g));
        let mine = WriteSet::of(&[set_prop(1)], &g);
        assert_eq!(h.conflict(10, &mine), Some(11));
        assert_eq!(h.conflict(11, &mine), None, "it read commit 11");
        h.record(13, WriteSet::default());
        assert_eq!(h.conflict(10, &WriteSet::default()), Some(11), "forgotten");
        assert_eq!(h.conflict(11, &mine), None);
        // Bounded by size too: a large set pushes the old ones out.
        let mut h = History::new(0, 100, 3);
        h.record(1, WriteSet::of(&[set_prop(1)], &g));
        h.record(
            2,
            WriteSet::of(&[set_prop(1), set_prop(2), set_prop(3)], &g),
        );
        assert_eq!(
            h.conflict(0, &WriteSet::default()),
            Some(1),
            "commit 1 forgotten"
        );
    }

    #[test]
    fn a_detach_delete_changes_the_relationships_it_takes() {
        let mut g = graph(2);
        g.apply_batch(&crate::WriteBatch {
            ops: vec![link(0, 1)],
        })
        .expect("links");
        let gone = WriteSet::of(
            &[WriteOp::DeleteNode {
                node: NodeRef::Node(NodeId(0)),
                detach: true,
            }],
            &g,
        );
        let changed = WriteSet::of(
            &[WriteOp::SetRelProperty {
                rel: RelId(0),
                key: Arc::from("w"),
                value: kith_core::Value::Int(5),
            }],
            &g,
        );
        assert!(gone.conflicts(&changed));
    }
}
