//! The graph the router's own engine runs over: empty, and noting whether a query
//! looked for anything in it (a label, a type, a scan, an id). The router holds no
//! graph, so such a query would answer from nothing: it is refused instead, however
//! the pattern is written (a MATCH, `COUNT { (p:Person) }`, a pattern comprehension).

use std::sync::atomic::{AtomicBool, Ordering};

use kith_core::{
    Direction, Edge, GraphView, LabelId, NodeId, PropKeyId, RelId, RelTypeId, RelView, Schema,
    Value,
};
use kith_storage::Snapshot;

/// An empty graph that notes any look into it.
pub(crate) struct NoGraph {
    empty: Snapshot,
    looked: AtomicBool,
}

impl NoGraph {
    pub(crate) fn new() -> NoGraph {
        NoGraph {
            empty: Snapshot::empty(),
            looked: AtomicBool::new(false),
        }
    }

    /// Whether a query looked for anything in the graph.
    pub(crate) fn looked(&self) -> bool {
        self.looked.load(Ordering::Relaxed)
    }

    fn look(&self) {
        self.looked.store(true, Ordering::Relaxed);
    }
}

impl GraphView for NoGraph {
    fn label_id(&self, name: &str) -> Option<LabelId> {
        self.look();
        self.empty.label_id(name)
    }
    fn rel_type_id(&self, name: &str) -> Option<RelTypeId> {
        self.look();
        self.empty.rel_type_id(name)
    }
    // Property keys are looked up for maps too: not a look into the graph.
    fn prop_key_id(&self, name: &str) -> Option<PropKeyId> {
        self.empty.prop_key_id(name)
    }
    fn label_name(&self, id: LabelId) -> &str {
        self.empty.label_name(id)
    }
    fn rel_type_name(&self, id: RelTypeId) -> &str {
        self.empty.rel_type_name(id)
    }
    fn prop_key_name(&self, id: PropKeyId) -> &str {
        self.empty.prop_key_name(id)
    }
    fn node_id_bound(&self) -> usize {
        self.look();
        0
    }
    fn node_count(&self) -> usize {
        self.look();
        0
    }
    fn rel_count(&self) -> usize {
        self.look();
        0
    }
    fn contains_node(&self, node: NodeId) -> bool {
        self.look();
        self.empty.contains_node(node)
    }
    fn node_ids(&self) -> Box<dyn Iterator<Item = NodeId> + '_> {
        self.look();
        self.empty.node_ids()
    }
    fn node_labels(&self, node: NodeId) -> &[LabelId] {
        self.empty.node_labels(node)
    }
    fn node_properties(&self, node: NodeId) -> Vec<(PropKeyId, Value)> {
        self.empty.node_properties(node)
    }
    fn node_property(&self, node: NodeId, key: PropKeyId) -> Option<Value> {
        self.empty.node_property(node, key)
    }
    fn neighbors(&self, node: NodeId, rel_type: RelTypeId, direction: Direction) -> &[Edge] {
        self.empty.neighbors(node, rel_type, direction)
    }
    fn rel_types_at(&self, node: NodeId, direction: Direction) -> Vec<RelTypeId> {
        self.empty.rel_types_at(node, direction)
    }
    fn relationship(&self, rel: RelId) -> Option<RelView> {
        self.empty.relationship(rel)
    }
    fn rel_properties(&self, rel: RelId) -> Vec<(PropKeyId, Value)> {
        self.empty.rel_properties(rel)
    }
    fn rel_property(&self, rel: RelId, key: PropKeyId) -> Option<Value> {
        self.empty.rel_property(rel, key)
    }
    fn node_by_id(&self, label: LabelId, id: i64) -> Option<NodeId> {
        self.look();
        self.empty.node_by_id(label, id)
    }
    fn nodes_with_label(&self, label: LabelId) -> Box<dyn Iterator<Item = NodeId> + '_> {
        self.look();
        self.empty.nodes_with_label(label)
    }
    fn schema(&self) -> &Schema {
        self.empty.schema()
    }
}
