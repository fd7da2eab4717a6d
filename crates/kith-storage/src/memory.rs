//! What a version costs in memory, by part.

use std::mem::size_of;
use std::sync::Arc;

use kith_core::Value;

use crate::node::{NodeRecord, RelRecord};
use crate::Snapshot;

/// Heap bytes of one version, walked structure by structure.
///
/// Shared pages are counted once per version, as if the version were alone; strings
/// shared between records (none after a load) would be counted at each use. The
/// `kith stats --memory` command sets these beside the allocator's own total.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemoryReport {
    /// Node slots and page tables, and the per-node tables of the adjacency (the
    /// packed base's row offsets, the delta's slot table).
    pub node_record_bytes: usize,
    /// Node labels and properties (including string bytes).
    pub node_property_bytes: usize,
    /// Adjacency (both directions of every relationship): the packed base's edges
    /// and group headers, and the lists of nodes changed since it was built. Not
    /// counted: during a background fold (and until the next commit takes its
    /// result), the new base being built and the version it reads.
    pub adjacency_bytes: usize,
    /// Relationship slots and their properties.
    pub rel_bytes: usize,
    /// Indexes: the external-id index (its packed tables, and its delta estimated:
    /// key, value and trie overhead), property-index entries and the label bitmaps.
    pub index_bytes: usize,
    /// The UTF-8 bytes of the nodes' string values (inside `node_property_bytes`):
    /// what a per-node figure leaves out to compare layouts, not data sets.
    pub node_string_bytes: usize,
    /// The same for relationships (inside `rel_bytes`).
    pub rel_string_bytes: usize,
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
            report.node_record_bytes += page.capacity() * size_of::<Option<NodeRecord>>();
        }
        // The per-node tables of the adjacency (row offsets, delta slots) grow with
        // nodes; the edges and changed lists with relationships.
        let (per_node, edges) = self.adj.bytes();
        report.node_record_bytes += per_node;
        report.adjacency_bytes += edges;
        // The shape table is shared by nodes and relationships; relationships have
        // a handful of shapes, so it is charged to the nodes.
        let (node_cols, node_strings) = self.node_cols.bytes();
        report.node_property_bytes = node_cols + self.shapes.bytes();
        report.node_string_bytes = node_strings;
        report.rel_bytes += self.rels.table_bytes();
        for page in self.rels.pages() {
            report.rel_bytes += page.capacity() * size_of::<Option<RelRecord>>();
        }
        let (rel_cols, rel_strings) = self.rel_cols.bytes();
        report.rel_bytes += rel_cols;
        report.rel_string_bytes = rel_strings;
        report.index_bytes = self.id_index.bytes();
        // Property-index entries: a node id in an ordered set plus its share of the
        // value's hash entry, estimated like the id index.
        report.index_bytes += self.prop_indexes.entry_count() * 24;
        report.index_bytes += self.label_index.bytes();
        report
    }
}

/// The UTF-8 bytes of a value's strings (in lists too).
pub(crate) fn value_string_bytes(v: &Value) -> usize {
    match v {
        Value::String(s) => s.len(),
        Value::List(items) => items.iter().map(value_string_bytes).sum(),
        _ => 0,
    }
}

/// Heap bytes a value owns beyond its own size.
pub(crate) fn value_heap_bytes(value: &Value) -> usize {
    match value {
        // Arc<Temporal>: two counters plus the value.
        Value::Temporal(_) => 2 * size_of::<usize>() + size_of::<kith_core::Temporal>(),
        Value::Point(_) => 2 * size_of::<usize>() + size_of::<kith_core::Point>(),
        Value::Bytes(b) => 2 * size_of::<usize>() + b.len(),
        // A Str of its own: the buffer's counter and length plus the bytes (one
        // sharing a packed page's buffer is over-counted here; such values sit in
        // whole-value pages only after a page widened, which is rare).
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RawGraph;

    #[test]
    fn string_bytes_are_counted_apart_and_temporal_values_cost_their_allocation() {
        let mut raw = RawGraph::default();
        let l = raw.catalog.label("L").expect("label");
        let t = raw.catalog.rel_type("T").expect("type");
        let name = raw.catalog.prop_key("name").expect("key");
        let tags = raw.catalog.prop_key("tags").expect("key");
        let born = raw.catalog.prop_key("born").expect("key");
        let a = raw
            .add_node(
                vec![l],
                vec![
                    (name, Value::string("hello")),
                    (tags, Value::List(vec![Value::string("ab"), Value::Int(1)])),
                ],
            )
            .expect("node");
        let date = kith_core::Temporal::Date(
            chrono::NaiveDate::from_ymd_opt(1990, 5, 17).expect("a date"),
        );
        let b = raw
            .add_node(vec![l], vec![(born, Value::temporal(date))])
            .expect("node");
        raw.add_rel(t, a, b, vec![(name, Value::string("xyz"))])
            .expect("rel");
        let with_date = Snapshot::from_raw(raw).expect("valid").memory_report();
        assert_eq!(
            (with_date.node_string_bytes, with_date.rel_string_bytes),
            (7, 3)
        );
        // The date's Arc is part of the node's properties.
        let mut raw = RawGraph::default();
        let l = raw.catalog.label("L").expect("label");
        let born = raw.catalog.prop_key("born").expect("key");
        raw.add_node(vec![l], vec![(born, Value::Int(0))])
            .expect("node");
        let plain = Snapshot::from_raw(raw).expect("valid").memory_report();
        assert!(with_date.node_property_bytes > plain.node_property_bytes);
    }
}
