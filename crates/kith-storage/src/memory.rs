//! What a version costs in memory, by part.

use std::mem::size_of;
use std::sync::Arc;

use kith_core::{Edge, PropKeyId, Value};

use crate::node::{AdjList, NodeRecord, RelRecord};
use crate::Snapshot;

/// Heap bytes of one version, walked structure by structure.
///
/// Shared pages are counted once per version, as if the version were alone; strings
/// shared between records (none after a load) would be counted at each use. The
/// `kith stats --memory` command sets these beside the allocator's own total.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemoryReport {
    /// Node slots, page tables and node records without their contents.
    pub node_record_bytes: usize,
    /// Node labels and properties (including string bytes).
    pub node_property_bytes: usize,
    /// Adjacency lists (both directions of every relationship).
    pub adjacency_bytes: usize,
    /// Relationship slots and their properties.
    pub rel_bytes: usize,
    /// Indexes: external-id entries (estimated: key, value and trie overhead),
    /// property-index entries and the label bitmaps.
    pub index_bytes: usize,
}

impl MemoryReport {
    /// Sum of all parts.
    pub fn total(&self) -> usize {
        self.node_record_bytes
            + self.node_property_bytes
            + self.adjacency_bytes
            + self.rel_bytes
            + self.index_bytes
    }
}

impl Snapshot {
    /// Walks this version and sums its heap use by part.
    pub fn memory_report(&self) -> MemoryReport {
        let mut report = MemoryReport::default();
        report.node_record_bytes += self.nodes.table_bytes();
        for page in self.nodes.pages() {
            report.node_record_bytes += page.capacity() * size_of::<Option<Arc<NodeRecord>>>();
        }
        for node in self.nodes.iter().flatten() {
            // Arc header (two counters) plus the record.
            report.node_record_bytes += 2 * size_of::<usize>() + size_of::<NodeRecord>();
            report.node_property_bytes +=
                std::mem::size_of_val(&*node.labels) + properties_bytes(&node.props);
            report.adjacency_bytes += node.adjacency.capacity() * size_of::<AdjList>()
                + node
                    .adjacency
                    .iter()
                    .map(|a| a.edges.capacity() * size_of::<Edge>())
                    .sum::<usize>();
        }
        report.rel_bytes += self.rels.table_bytes();
        for page in self.rels.pages() {
            report.rel_bytes += page.capacity() * size_of::<Option<RelRecord>>();
        }
        for rel in self.rels.iter().flatten() {
            report.rel_bytes += properties_bytes(&rel.props);
        }
        // A HAMT leaf holds the entry plus a hash; inner nodes add roughly a third.
        let entry = size_of::<((kith_core::LabelId, i64), kith_core::NodeId)>() + 8;
        report.index_bytes = self.id_index.len() * entry * 4 / 3;
        // Property-index entries: a node id in an ordered set plus its share of the
        // value's hash entry, estimated like the id index.
        report.index_bytes += self.prop_indexes.entry_count() * 24;
        report.index_bytes += self.label_index.bytes();
        report
    }
}

fn properties_bytes(props: &[(PropKeyId, Value)]) -> usize {
    std::mem::size_of_val(props)
        + props
            .iter()
            .map(|(_, v)| value_heap_bytes(v))
            .sum::<usize>()
}

fn value_heap_bytes(value: &Value) -> usize {
    match value {
        // Arc<str>: two counters plus the bytes.
        Value::String(s) => 2 * size_of::<usize>() + s.len(),
        Value::List(items) => {
            items.capacity() * size_of::<Value>()
                + items.iter().map(value_heap_bytes).sum::<usize>()
        }
        Value::Map(entries) => entries
            .iter()
            .map(|(k, v)| size_of::<(Arc<str>, Value)>() + k.len() + value_heap_bytes(v))
            .sum(),
        _ => 0,
    }
}
