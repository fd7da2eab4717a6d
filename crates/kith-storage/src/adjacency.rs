//! Adjacency: a packed base shared by every version built on it, and a per-node
//! delta for what writes changed since.
//!
//! Per-node allocated lists cost a record, a list header per (type, direction) and a
//! buffer each — about 40 bytes per relationship end beside the 8-byte edge — and a
//! pointer chase per list. The base ([`Csr`]) packs every node's lists into one
//! array: per node, its groups in (type, direction) order, each a header slot
//! followed by its edges sorted by (neighbour, relationship). Nothing can change a
//! shared base, so the first write to a node copies its lists into a delta entry
//! (the lists as before, copied on write per version), and readers look at the
//! delta first. [`Adjacency::compact`] folds base and delta into a new base; the
//! store runs it on a published version in the background and rebases the writer's
//! next version on the result ([`Adjacency::rebase`]), keeping only the delta
//! entries written after the version it folded.
//!
//! A list an armed [`kith_core::ORDER_RULES`] rule governs is kept newest first
//! instead (see [`ListOrder`]): at load, on every edit, and when a neighbour's
//! ordering key changes (`Snapshot::set_node_property` moves its edges).

use std::cmp::Reverse;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use kith_core::edge_order::{sort_key, SortKey};
use kith_core::{Direction, Edge, EdgeOrder, LabelId, NodeId, PropKeyId, RelId, RelTypeId};

use crate::catalog::Catalog;
use crate::columns::Columns;
use crate::label_index::LabelIndex;
use crate::node::RelRecord;
use crate::paged::PagedVec;
use crate::StorageError;

/// A node's `slots` value when it has no delta entry.
const NO_DELTA: u32 = u32::MAX;
/// Fewest delta entries worth a compaction: below it, folding a large base to drop a
/// few entries costs more than the entries do.
const COMPACT_MIN_DELTA: usize = 65_536;
/// A compaction is due when the delta holds more than one entry per this many nodes
/// of the base. A fold copies the whole graph, so a graph growing by writes is
/// copied about `1 + this` times over in total; at 8 the folds took a tenth of the
/// S3 relationship-writing throughput on two cores, at 4 none measurable
/// (docs/benchmarks.md). A delta entry costs what a node record did before the
/// packed base, so a larger delta is slower to read only by one indirection.
const COMPACT_NODES_PER_ENTRY: usize = 4;

/// How one list is ordered, with what it takes to compare two of its edges.
#[derive(Clone, Copy)]
pub(crate) enum ListOrder<'a> {
    /// By `(node, rel)`.
    ByNode,
    /// Neighbours labelled `first` first, then by the neighbour's rank of `key`
    /// descending, then `(node, rel)` ([`EdgeOrder::NewestFirst`]).
    NewestFirst {
        key: PropKeyId,
        first: Option<LabelId>,
        cols: &'a Columns,
        labels: &'a LabelIndex,
    },
}

impl<'a> ListOrder<'a> {
    /// The order of the lists of `rel_type` in `direction`, ranks read from `cols`
    /// and labels from `labels`.
    pub(crate) fn of(
        catalog: &Catalog,
        cols: &'a Columns,
        labels: &'a LabelIndex,
        rel_type: RelTypeId,
        direction: Direction,
    ) -> Self {
        match catalog.edge_order(rel_type, direction) {
            EdgeOrder::ByNode => ListOrder::ByNode,
            EdgeOrder::NewestFirst { key, first } => ListOrder::NewestFirst {
                key,
                first,
                cols,
                labels,
            },
        }
    }

    /// The orders of `rel_type`'s lists out and in: a relationship's two ends.
    pub(crate) fn both(
        catalog: &Catalog,
        cols: &'a Columns,
        labels: &'a LabelIndex,
        rel_type: RelTypeId,
    ) -> (Self, Self) {
        (
            Self::of(catalog, cols, labels, rel_type, Direction::Out),
            Self::of(catalog, cols, labels, rel_type, Direction::In),
        )
    }

    /// The key an edge sorts by (kith_core::edge_order::sort_key; by node alone in
    /// a list in node order).
    #[inline]
    fn sort_key(&self, edge: Edge) -> SortKey {
        match self {
            ListOrder::ByNode => (false, Reverse(0), edge),
            ListOrder::NewestFirst {
                key,
                first,
                cols,
                labels,
            } => {
                let in_first = first.is_some_and(|l| labels.contains(l, edge.node));
                sort_key(in_first, cols.get(*key, edge.node.index()).as_ref(), edge)
            }
        }
    }

    /// Where `edge` is (`Ok`) or would go (`Err`) in a list in this order.
    fn search(&self, list: &[Edge], edge: Edge) -> Result<usize, usize> {
        match self {
            ListOrder::ByNode => list.binary_search(&edge),
            ListOrder::NewestFirst { .. } => {
                let want = self.sort_key(edge);
                list.binary_search_by(|e| self.sort_key(*e).cmp(&want))
            }
        }
    }
}

/// The relationships of one type in one direction at a node (a delta entry's list).
#[derive(Clone, Debug)]
pub(crate) struct AdjList {
    pub(crate) rel_type: RelTypeId,
    pub(crate) direction: Direction,
    /// In the [`ListOrder`] of its type and direction.
    pub(crate) edges: Vec<Edge>,
}

/// A node's lists as changed since the base, and the version that last changed them.
#[derive(Clone, Debug)]
pub(crate) struct NodeAdj {
    node: NodeId,
    version: u64,
    /// Sorted by `(rel_type, direction)`; no empty lists. A node has few types, so a
    /// short vector searched linearly beats a map.
    lists: Vec<AdjList>,
}

impl NodeAdj {
    fn edges(&self, rel_type: RelTypeId, direction: Direction) -> &[Edge] {
        self.lists
            .iter()
            .find(|a| a.rel_type == rel_type && a.direction == direction)
            .map_or(&[], |a| &a.edges)
    }

    fn list_mut(&mut self, rel_type: RelTypeId, direction: Direction) -> &mut Vec<Edge> {
        let key = (rel_type, direction);
        let pos = self
            .lists
            .partition_point(|a| (a.rel_type, a.direction) < key);
        let exists = self
            .lists
            .get(pos)
            .is_some_and(|a| (a.rel_type, a.direction) == key);
        if !exists {
            let list = AdjList {
                rel_type,
                direction,
                edges: Vec::new(),
            };
            self.lists.insert(pos, list);
        }
        &mut self.lists[pos].edges
    }

    /// Inserts an edge keeping the list in `order`.
    pub(crate) fn add_edge(
        &mut self,
        rel_type: RelTypeId,
        direction: Direction,
        edge: Edge,
        order: ListOrder<'_>,
    ) {
        let list = self.list_mut(rel_type, direction);
        let (Ok(pos) | Err(pos)) = order.search(list, edge);
        list.insert(pos, edge);
    }

    /// Removes an edge from a list in `order`; drops the list when it empties.
    pub(crate) fn remove_edge(
        &mut self,
        rel_type: RelTypeId,
        direction: Direction,
        edge: Edge,
        order: ListOrder<'_>,
    ) {
        let found = self
            .lists
            .iter()
            .position(|a| a.rel_type == rel_type && a.direction == direction);
        if let Some(i) = found {
            let list = &mut self.lists[i].edges;
            let pos = order.search(list, edge).ok().or_else(|| {
                // Only a list out of its order misses a present edge: find it anyway
                // rather than leave a dangling edge behind.
                let pos = list.iter().position(|e| *e == edge);
                debug_assert!(pos.is_none(), "{edge:?} present but out of order");
                pos
            });
            if let Some(pos) = pos {
                list.remove(pos);
            }
            if list.is_empty() {
                self.lists.remove(i);
            }
        }
    }
}

/// A group header packed into an edge slot: the type and direction in the node
/// field, the number of edges that follow in the relationship field. The node field
/// orders as `(type, direction)` does, the order groups keep everywhere.
pub(crate) fn header(rel_type: RelTypeId, direction: Direction, count: usize) -> Edge {
    // A group holds at most one edge per relationship id, so its count fits.
    let count = u32::try_from(count).expect("a group's count fits a relationship id");
    Edge {
        node: NodeId(group_key(rel_type, direction)),
        rel: RelId(count),
    }
}

fn read_header(word: Edge) -> (RelTypeId, Direction, usize) {
    let (rel_type, direction) = read_group_key(word.node.0);
    (rel_type, direction, word.rel.0 as usize)
}

/// `(type, direction)` as one number ordered the same way.
fn group_key(rel_type: RelTypeId, direction: Direction) -> u32 {
    let dir = match direction {
        Direction::Out => 0,
        Direction::In => 1,
    };
    u32::from(rel_type.0) << 1 | dir
}

fn read_group_key(key: u32) -> (RelTypeId, Direction) {
    let direction = if key & 1 == 0 {
        Direction::Out
    } else {
        Direction::In
    };
    (RelTypeId((key >> 1) as u16), direction)
}

/// Whether groups come in strictly increasing `(type, direction)` order.
fn in_group_order<'a>(groups: impl Iterator<Item = (RelTypeId, Direction, &'a [Edge])>) -> bool {
    let keys: Vec<_> = groups.map(|g| (g.0, g.1)).collect();
    keys.windows(2).all(|w| w[0] < w[1])
}

/// Immutable packed adjacency: compressed sparse rows whose row is a node's groups.
#[derive(Debug)]
pub(crate) struct Csr {
    /// Per node, where its groups start in `words`; one more entry than nodes.
    /// 64-bit: two ends per relationship plus a header per group can pass 2^32
    /// slots well before relationship ids (u32) run out.
    offsets: Box<[u64]>,
    /// Group headers and edges.
    words: Box<[Edge]>,
}

impl Default for Csr {
    fn default() -> Self {
        Csr {
            offsets: Box::new([0]),
            words: Box::new([]),
        }
    }
}

impl Csr {
    /// Builds from relationship records (a load): counts each node's ends, places
    /// them, sorts each node's run, then writes the groups out, each in the order
    /// `order` gives its type and direction.
    pub(crate) fn from_rels<'a>(
        node_bound: usize,
        rels: &[Option<RelRecord>],
        order: impl Fn(RelTypeId, Direction) -> ListOrder<'a>,
    ) -> Result<Csr, StorageError> {
        let mut starts = vec![0u64; node_bound + 1];
        for rel in rels.iter().flatten() {
            for end in [rel.src, rel.dst] {
                let count = starts
                    .get_mut(end.index() + 1)
                    .ok_or(StorageError::NodeNotFound(end))?;
                *count += 1;
            }
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let total = starts[node_bound] as usize;
        let mut cursor = starts.clone();
        let mut ends = vec![
            (
                0u32,
                Edge {
                    node: NodeId(0),
                    rel: RelId(0)
                }
            );
            total
        ];
        for (slot, rel) in rels.iter().enumerate() {
            let Some(rel) = rel else { continue };
            let id = RelId(slot as u32);
            for (end, other, direction) in [
                (rel.src, rel.dst, Direction::Out),
                (rel.dst, rel.src, Direction::In),
            ] {
                let key = group_key(rel.rel_type, direction);
                let at = &mut cursor[end.index()];
                ends[*at as usize] = (
                    key,
                    Edge {
                        node: other,
                        rel: id,
                    },
                );
                *at += 1;
            }
        }
        let mut out = CsrWriter::with_capacity(node_bound, total);
        for node in 0..node_bound {
            let run = &mut ends[starts[node] as usize..starts[node + 1] as usize];
            run.sort_unstable();
            out.start_node();
            for group in run.chunk_by_mut(|a, b| a.0 == b.0) {
                let (rel_type, direction) = read_group_key(group[0].0);
                let order = order(rel_type, direction);
                if let ListOrder::NewestFirst { .. } = order {
                    group.sort_by_cached_key(|e| order.sort_key(e.1));
                }
                out.group(rel_type, direction, group.iter().map(|e| e.1), group.len());
            }
        }
        Ok(out.finish())
    }

    /// A base from its two arrays as a graph file holds them, checked so that no
    /// read can leave them: rows ascend from 0 to the end of `words`, each row is
    /// whole groups in ascending (type, direction) order with a type below
    /// `type_count`, and every edge names a node below the row count and a
    /// relationship below `rel_bound`. Refused with the reason otherwise; with the
    /// number of edges (not headers) otherwise.
    pub(crate) fn from_parts(
        offsets: Box<[u64]>,
        words: Box<[Edge]>,
        type_count: usize,
        rel_bound: usize,
    ) -> Result<(Csr, usize), String> {
        let node_bound = offsets.len().checked_sub(1).ok_or("no row offsets")?;
        if offsets[0] != 0 || offsets[node_bound] != words.len() as u64 {
            return Err(format!(
                "rows span {}..{}, not the {} words",
                offsets[0],
                offsets[node_bound],
                words.len()
            ));
        }
        let mut edges = 0;
        for (node, w) in offsets.windows(2).enumerate() {
            if w[1] < w[0] || w[1] > words.len() as u64 {
                return Err(format!(
                    "row {node} ends before it starts or past the words"
                ));
            }
            let row = &words[w[0] as usize..w[1] as usize];
            edges += check_row(row, type_count, node_bound, rel_bound)
                .map_err(|reason| format!("row {node}: {reason}"))?;
        }
        Ok((Csr { offsets, words }, edges))
    }

    /// Slots (headers and edges) of a node's row; 0 beyond the base.
    pub(crate) fn row_len(&self, node: usize) -> usize {
        match (self.offsets.get(node), self.offsets.get(node + 1)) {
            (Some(&start), Some(&end)) => (end - start) as usize,
            _ => 0,
        }
    }

    /// A node's groups; none for a node beyond the base.
    pub(crate) fn groups(&self, node: usize) -> Groups<'_> {
        let words = match (self.offsets.get(node), self.offsets.get(node + 1)) {
            (Some(&start), Some(&end)) => &self.words[start as usize..end as usize],
            _ => &[],
        };
        Groups { words }
    }

    #[inline]
    fn edges(&self, node: usize, rel_type: RelTypeId, direction: Direction) -> &[Edge] {
        let mut groups = self.groups(node);
        groups
            .find(|g| g.0 == rel_type && g.1 == direction)
            .map_or(&[], |g| g.2)
    }

    /// Number of nodes the base covers.
    pub(crate) fn node_bound(&self) -> usize {
        self.offsets.len() - 1
    }

    fn bytes(&self) -> (usize, usize) {
        (
            self.offsets.len() * size_of::<u64>(),
            self.words.len() * size_of::<Edge>(),
        )
    }
}

/// Appends nodes' groups to a new base.
struct CsrWriter {
    offsets: Vec<u64>,
    words: Vec<Edge>,
}

impl CsrWriter {
    fn with_capacity(nodes: usize, words: usize) -> Self {
        CsrWriter {
            offsets: Vec::with_capacity(nodes + 1),
            words: Vec::with_capacity(words),
        }
    }

    /// Opens the next node's row.
    fn start_node(&mut self) {
        self.offsets.push(self.words.len() as u64);
    }

    fn group(
        &mut self,
        rel_type: RelTypeId,
        direction: Direction,
        edges: impl IntoIterator<Item = Edge>,
        count: usize,
    ) {
        debug_assert!(count > 0, "an empty group is never written");
        self.words.push(header(rel_type, direction, count));
        let before = self.words.len();
        self.words.extend(edges);
        assert_eq!(
            self.words.len() - before,
            count,
            "a group's count is its length"
        );
    }

    fn finish(mut self) -> Csr {
        self.start_node();
        Csr {
            offsets: self.offsets.into_boxed_slice(),
            words: self.words.into_boxed_slice(),
        }
    }
}

/// Checks one stored row (see [`Csr::from_parts`]); its number of edges.
fn check_row(
    mut row: &[Edge],
    type_count: usize,
    node_bound: usize,
    rel_bound: usize,
) -> Result<usize, String> {
    let (mut last_key, mut edge_count) = (None, 0);
    while let Some((&head, rest)) = row.split_first() {
        let key = head.node.0;
        if key as usize >= 2 * type_count || last_key.is_some_and(|k| k >= key) {
            return Err(format!("group key {key} out of range or order"));
        }
        last_key = Some(key);
        let count = head.rel.0 as usize;
        if count == 0 || count > rest.len() {
            return Err(format!("a group of {count} edges in {} words", rest.len()));
        }
        let (edges, tail) = rest.split_at(count);
        if let Some(e) = edges
            .iter()
            .find(|e| e.node.index() >= node_bound || e.rel.index() >= rel_bound)
        {
            return Err(format!(
                "edge to node {} by relationship {} out of range",
                e.node, e.rel
            ));
        }
        edge_count += count;
        row = tail;
    }
    Ok(edge_count)
}

/// A node's groups in a base: `(type, direction, edges)`.
pub(crate) struct Groups<'a> {
    words: &'a [Edge],
}

impl<'a> Iterator for Groups<'a> {
    type Item = (RelTypeId, Direction, &'a [Edge]);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let (&head, rest) = self.words.split_first()?;
        let (rel_type, direction, count) = read_header(head);
        let (edges, rest) = rest.split_at(count);
        self.words = rest;
        Some((rel_type, direction, edges))
    }
}

/// A node's groups wherever they live.
pub(crate) enum NodeGroups<'a> {
    Base(Groups<'a>),
    Delta(std::slice::Iter<'a, AdjList>),
}

impl<'a> Iterator for NodeGroups<'a> {
    type Item = (RelTypeId, Direction, &'a [Edge]);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            NodeGroups::Base(groups) => groups.next(),
            NodeGroups::Delta(lists) => lists
                .next()
                .map(|a| (a.rel_type, a.direction, a.edges.as_slice())),
        }
    }
}

/// Every node's relationships, by type and direction.
#[derive(Clone, Debug, Default)]
pub(crate) struct Adjacency {
    base: Arc<Csr>,
    /// Per node, `NO_DELTA` or its entry in `delta`. Grown on demand: a node beyond
    /// its end has no entry.
    slots: PagedVec<u32>,
    delta: PagedVec<Arc<NodeAdj>>,
}

impl Adjacency {
    /// Adjacency that is all base.
    pub(crate) fn from_base(base: Csr) -> Self {
        Adjacency {
            base: Arc::new(base),
            slots: PagedVec::default(),
            delta: PagedVec::default(),
        }
    }

    #[inline]
    fn entry(&self, node: NodeId) -> Option<&NodeAdj> {
        let slot = *self.slots.get(node.index())?;
        if slot == NO_DELTA {
            return None;
        }
        self.delta.get(slot as usize).map(|e| &**e)
    }

    /// The edges of `node` of one type in one direction, in the list's [`ListOrder`].
    #[inline]
    pub(crate) fn edges(&self, node: NodeId, rel_type: RelTypeId, direction: Direction) -> &[Edge] {
        match self.entry(node) {
            Some(entry) => entry.edges(rel_type, direction),
            None => self.base.edges(node.index(), rel_type, direction),
        }
    }

    /// All groups of `node`, in (type, direction) order.
    pub(crate) fn groups(&self, node: NodeId) -> NodeGroups<'_> {
        match self.entry(node) {
            Some(entry) => NodeGroups::Delta(entry.lists.iter()),
            None => NodeGroups::Base(self.base.groups(node.index())),
        }
    }

    /// The node's lists for writing at `version`: copied out of the base on its
    /// first change, and out of an older version's entry (copy on write) after.
    pub(crate) fn edit(
        &mut self,
        node: NodeId,
        version: u64,
    ) -> Result<&mut NodeAdj, StorageError> {
        let slot = self.slots.get(node.index()).copied().unwrap_or(NO_DELTA);
        let slot = if slot == NO_DELTA {
            let lists = self
                .base
                .groups(node.index())
                .map(|(rel_type, direction, edges)| AdjList {
                    rel_type,
                    direction,
                    edges: edges.to_vec(),
                })
                .collect();
            self.push_entry(Arc::new(NodeAdj {
                node,
                version,
                lists,
            }))?
        } else {
            slot
        };
        let entry = self
            .delta
            .get_mut(slot as usize)
            .expect("a slot points into the delta");
        let entry = Arc::make_mut(entry);
        assert_eq!(entry.node, node, "a delta entry belongs to its slot's node");
        debug_assert!(
            in_group_order(NodeGroups::Delta(entry.lists.iter())),
            "lists out of order at {node}"
        );
        entry.version = version;
        Ok(entry)
    }

    /// Appends a delta entry and points its node's slot at it.
    fn push_entry(&mut self, entry: Arc<NodeAdj>) -> Result<u32, StorageError> {
        let slot = u32::try_from(self.delta.len())
            .ok()
            .filter(|&s| s != NO_DELTA)
            .ok_or(StorageError::CapacityExceeded(
                "more than 2^32 changed nodes",
            ))?;
        let at = entry.node.index();
        while self.slots.len() <= at {
            self.slots.push(NO_DELTA);
        }
        *self.slots.get_mut(at).expect("grown above") = slot;
        self.delta.push(entry);
        Ok(slot)
    }

    /// Number of nodes whose lists live in the delta.
    pub(crate) fn delta_len(&self) -> usize {
        self.delta.len()
    }

    /// Whether folding the delta into a new base is worth it now.
    pub(crate) fn wants_compaction(&self) -> bool {
        let due = self.base.node_bound() / COMPACT_NODES_PER_ENTRY;
        self.delta.len() > due.max(COMPACT_MIN_DELTA)
    }

    /// A new base holding base and delta together, for nodes below `node_bound`, or
    /// `None` if `cancel` was set meanwhile (checked every 65,536 nodes). Reads
    /// only: runs on a published version while the writer goes on.
    pub(crate) fn compact(&self, node_bound: usize, cancel: &AtomicBool) -> Option<Csr> {
        // Sized exactly up front: the new base is the largest buffer of the graph,
        // and growing it would copy it and hold two for a while.
        // From the base's size and the changed nodes alone, not a pass over all.
        let mut words = self.base.words.len();
        for entry in self.delta.iter() {
            words -= self.base.row_len(entry.node.index());
            words += entry.lists.iter().map(|a| 1 + a.edges.len()).sum::<usize>();
        }
        let mut out = CsrWriter::with_capacity(node_bound, words);
        for node in 0..node_bound {
            if node % 65_536 == 0 && cancel.load(Ordering::Relaxed) {
                return None;
            }
            out.start_node();
            debug_assert!(in_group_order(self.groups(NodeId(node as u32))));
            for (rel_type, direction, edges) in self.groups(NodeId(node as u32)) {
                out.group(rel_type, direction, edges.iter().copied(), edges.len());
            }
        }
        let base = out.finish();
        assert_eq!(base.words.len(), words, "the new base was sized exactly");
        Some(base)
    }

    /// Takes `base`, the compaction of version `merged` of this graph, keeping the
    /// delta entries written after `merged` (they hold a node's whole lists, so they
    /// override the new base) and dropping the rest (the new base holds them).
    pub(crate) fn rebase(&mut self, base: Arc<Csr>, merged: u64) {
        let kept: Vec<Arc<NodeAdj>> = self
            .delta
            .iter()
            .filter(|e| e.version > merged)
            .cloned()
            .collect();
        // The slot table is built whole (it reaches the newest kept node, which in a
        // growing graph is near the end), not pushed one slot at a time.
        let len = kept.iter().map(|e| e.node.index() + 1).max().unwrap_or(0);
        let mut slots = vec![NO_DELTA; len];
        for (i, entry) in kept.iter().enumerate() {
            // Fewer entries than before, so the numbers fit as they did.
            slots[entry.node.index()] = i as u32;
        }
        self.slots = PagedVec::from_vec(slots);
        self.delta = PagedVec::from_vec(kept);
        self.base = base;
    }

    /// Heap bytes: `(per-node tables, edges and delta lists)`.
    pub(crate) fn bytes(&self) -> (usize, usize) {
        let (offsets, words) = self.base.bytes();
        let slots = self.slots.table_bytes()
            + self
                .slots
                .pages()
                .map(|p| p.capacity() * size_of::<u32>())
                .sum::<usize>();
        let mut lists = self.delta.table_bytes();
        for page in self.delta.pages() {
            lists += page.capacity() * size_of::<Arc<NodeAdj>>();
        }
        for entry in self.delta.iter() {
            // Arc header (two counters), the entry, its lists and their buffers.
            lists += 2 * size_of::<usize>() + size_of::<NodeAdj>();
            lists += entry.lists.capacity() * size_of::<AdjList>();
            lists += entry
                .lists
                .iter()
                .map(|a| a.edges.capacity() * size_of::<Edge>())
                .sum::<usize>();
        }
        (offsets + slots, words + lists)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_node(_: RelTypeId, _: Direction) -> ListOrder<'static> {
        ListOrder::ByNode
    }

    /// Adds `edge` to `node`'s list of type `t` in `d`, written at `version`.
    fn add(adj: &mut Adjacency, node: u32, version: u64, t: u16, d: Direction, edge: Edge) {
        let entry = adj.edit(NodeId(node), version).expect("edit");
        entry.add_edge(RelTypeId(t), d, edge, ListOrder::ByNode);
    }

    /// Removes `edge` from `node`'s list of type `t` in `d`, written at `version`.
    fn remove(adj: &mut Adjacency, node: u32, version: u64, t: u16, d: Direction, edge: Edge) {
        let entry = adj.edit(NodeId(node), version).expect("edit");
        entry.remove_edge(RelTypeId(t), d, edge, ListOrder::ByNode);
    }

    fn rel(t: u16, src: u32, dst: u32) -> Option<RelRecord> {
        Some(RelRecord {
            rel_type: RelTypeId(t),
            src: NodeId(src),
            dst: NodeId(dst),
            shape: crate::node::PackedShape::new(0),
        })
    }

    fn e(node: u32, rel: u32) -> Edge {
        Edge {
            node: NodeId(node),
            rel: RelId(rel),
        }
    }

    fn all(adj: &Adjacency, node: u32) -> Vec<(u16, Direction, Vec<Edge>)> {
        adj.groups(NodeId(node))
            .map(|(t, d, edges)| (t.0, d, edges.to_vec()))
            .collect()
    }

    #[test]
    fn a_loaded_base_groups_and_sorts_each_nodes_edges() {
        // Relationship 2 is deleted; node 3 has none.
        let rels = [rel(1, 0, 1), rel(0, 0, 2), None, rel(1, 2, 0), rel(1, 0, 0)];
        let adj = Adjacency::from_base(Csr::from_rels(4, &rels, by_node).expect("valid"));
        assert_eq!(
            all(&adj, 0),
            vec![
                (0, Direction::Out, vec![e(2, 1)]),
                (1, Direction::Out, vec![e(0, 4), e(1, 0)]),
                (1, Direction::In, vec![e(0, 4), e(2, 3)]),
            ]
        );
        assert_eq!(adj.edges(NodeId(1), RelTypeId(1), Direction::In), [e(0, 0)]);
        assert!(adj
            .edges(NodeId(1), RelTypeId(1), Direction::Out)
            .is_empty());
        assert!(all(&adj, 3).is_empty());
        assert!(all(&adj, 99).is_empty());
        let bad = [rel(0, 0, 7)];
        assert!(matches!(
            Csr::from_rels(2, &bad, by_node),
            Err(StorageError::NodeNotFound(NodeId(7)))
        ));
    }

    #[test]
    fn groups_keep_type_then_direction_order_through_loads_edits_and_folds() {
        // Type 1 out and in, type 0 in: a base orders them (0 in, 1 out, 1 in).
        let rels = [rel(1, 0, 1), rel(1, 1, 0), rel(0, 1, 0)];
        let mut adj = Adjacency::from_base(Csr::from_rels(2, &rels, by_node).expect("valid"));
        let order = |adj: &Adjacency| -> Vec<(u16, Direction)> {
            adj.groups(NodeId(0)).map(|g| (g.0 .0, g.1)).collect()
        };
        let want = vec![(0, Direction::In), (1, Direction::Out), (1, Direction::In)];
        assert_eq!(order(&adj), want);
        // An edit finds the existing group rather than adding a second one.
        add(&mut adj, 0, 1, 1, Direction::Out, e(1, 9));
        assert_eq!(order(&adj), want);
        assert_eq!(
            adj.edges(NodeId(0), RelTypeId(1), Direction::Out),
            [e(1, 0), e(1, 9)]
        );
        let folded = adj.compact(2, &AtomicBool::new(false)).expect("compacts");
        adj.rebase(Arc::new(folded), 1);
        assert_eq!(order(&adj), want);
        assert_eq!(
            adj.edges(NodeId(0), RelTypeId(1), Direction::Out),
            [e(1, 0), e(1, 9)]
        );
    }

    #[test]
    fn a_cancelled_fold_gives_nothing() {
        let adj = Adjacency::from_base(Csr::from_rels(2, &[rel(0, 0, 1)], by_node).expect("valid"));
        assert!(adj.compact(2, &AtomicBool::new(true)).is_none());
        let folded = adj.compact(2, &AtomicBool::new(false)).expect("folds");
        assert_eq!(folded.node_bound(), 2);
    }

    #[test]
    fn edits_go_to_the_delta_and_leave_older_versions_alone() {
        let rels = [rel(0, 0, 1), rel(0, 1, 2)];
        let mut adj = Adjacency::from_base(Csr::from_rels(3, &rels, by_node).expect("valid"));
        let old = adj.clone();
        add(&mut adj, 1, 1, 2, Direction::Out, e(0, 5));
        remove(&mut adj, 1, 1, 0, Direction::In, e(0, 0));
        // A node created after the base.
        add(&mut adj, 4, 1, 0, Direction::In, e(1, 6));
        assert_eq!(
            all(&adj, 1),
            vec![
                (0, Direction::Out, vec![e(2, 1)]),
                (2, Direction::Out, vec![e(0, 5)]),
            ]
        );
        assert_eq!(all(&adj, 4), vec![(0, Direction::In, vec![e(1, 6)])]);
        assert_eq!(
            all(&old, 1),
            vec![
                (0, Direction::Out, vec![e(2, 1)]),
                (0, Direction::In, vec![e(0, 0)]),
            ]
        );
        assert!(all(&old, 4).is_empty());
        assert_eq!(adj.delta_len(), 2);
    }

    #[test]
    fn a_rebase_keeps_only_what_was_written_after_the_compacted_version() {
        let rels = [rel(0, 0, 1)];
        let mut adj = Adjacency::from_base(Csr::from_rels(2, &rels, by_node).expect("valid"));
        add(&mut adj, 0, 1, 1, Direction::Out, e(1, 1));
        // Version 1 is compacted while version 2 is written.
        let compacted = adj.compact(3, &AtomicBool::new(false)).expect("compacts");
        add(&mut adj, 2, 2, 1, Direction::In, e(0, 2));
        add(&mut adj, 0, 2, 1, Direction::Out, e(2, 2));
        let before: Vec<_> = (0..4).map(|n| all(&adj, n)).collect();
        adj.rebase(Arc::new(compacted), 1);
        let after: Vec<_> = (0..4).map(|n| all(&adj, n)).collect();
        assert_eq!(before, after);
        // Nodes 0 and 2 were written at version 2: still in the delta.
        assert_eq!(adj.delta_len(), 2);
        let folded = adj.compact(3, &AtomicBool::new(false)).expect("compacts");
        adj.rebase(Arc::new(folded), 2);
        assert_eq!(adj.delta_len(), 0);
        let last: Vec<_> = (0..4).map(|n| all(&adj, n)).collect();
        assert_eq!(before, last);
    }
}
