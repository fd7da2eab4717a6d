//! The read interface every query runs through.

use crate::edge_order::{sort_key, EdgeOrder};
use crate::{LabelId, NodeId, PropKeyId, RelId, RelTypeId, Schema, Value, ValueRange};

/// Which end of a relationship a traversal follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// From the relationship's source to its target.
    Out,
    /// From the relationship's target back to its source.
    In,
}

/// One entry of an adjacency list: the node at the other end and the relationship.
///
/// Lists are sorted by `(node, rel)`, so membership tests are binary searches and
/// merges of two lists are linear, except the few a store keeps newest first
/// ([`GraphView::edge_order`]); [`GraphView::edges_to`] finds a neighbour in either.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Edge {
    /// The neighbour.
    pub node: NodeId,
    /// The relationship connecting to it.
    pub rel: RelId,
}

/// A relationship's identity and ends (its properties come from
/// [`GraphView::rel_property`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RelView {
    /// Its id.
    pub id: RelId,
    /// Its type.
    pub rel_type: RelTypeId,
    /// Source node.
    pub src: NodeId,
    /// Target node.
    pub dst: NodeId,
}

/// A consistent, immutable view of a property graph.
///
/// Everything a procedure reads comes through this trait, so the same procedure runs
/// over a live snapshot, a replica, or a test oracle. Methods on absent nodes return
/// empty answers rather than panicking: a node deleted by a later version simply does
/// not exist in the views that follow.
pub trait GraphView: Send + Sync {
    /// The id of a label name, if any node ever carried it.
    fn label_id(&self, name: &str) -> Option<LabelId>;
    /// The id of a relationship type name.
    fn rel_type_id(&self, name: &str) -> Option<RelTypeId>;
    /// The id of a property key name.
    fn prop_key_id(&self, name: &str) -> Option<PropKeyId>;
    /// The name of a label id.
    fn label_name(&self, id: LabelId) -> &str;
    /// The name of a relationship type id.
    fn rel_type_name(&self, id: RelTypeId) -> &str;
    /// The name of a property key id.
    fn prop_key_name(&self, id: PropKeyId) -> &str;
    /// Every label name the graph knows (`db.labels()`, a console's completion).
    fn label_names(&self) -> Vec<String> {
        Vec::new()
    }
    /// Every relationship type name the graph knows.
    fn rel_type_names(&self) -> Vec<String> {
        Vec::new()
    }
    /// Every property key the graph knows.
    fn prop_key_names(&self) -> Vec<String> {
        Vec::new()
    }

    /// One past the largest node id ever allocated: the size for dense per-node arrays.
    fn node_id_bound(&self) -> usize;
    /// Live nodes.
    fn node_count(&self) -> usize;
    /// Live relationships.
    fn rel_count(&self) -> usize;
    /// Whether the node exists in this view.
    fn contains_node(&self, node: NodeId) -> bool;
    /// Live node ids in ascending order.
    fn node_ids(&self) -> Box<dyn Iterator<Item = NodeId> + '_>;

    /// The node's labels, sorted (empty for an absent node).
    fn node_labels(&self, node: NodeId) -> &[LabelId];
    /// The node's properties sorted by key (empty for an absent node). Values are
    /// handed out, not borrowed: a store keeping them in columns has no
    /// `(key, value)` pairs to lend (strings are shared, so a copy is a count).
    fn node_properties(&self, node: NodeId) -> Vec<(PropKeyId, Value)>;
    /// One property of a node.
    fn node_property(&self, node: NodeId, key: PropKeyId) -> Option<Value>;
    /// Relationships of one type in one direction, in the list's
    /// [`GraphView::edge_order`]: by neighbour id unless the store keeps it newest first.
    fn neighbors(&self, node: NodeId, rel_type: RelTypeId, direction: Direction) -> &[Edge];
    /// The relationship types present at a node in a direction.
    fn rel_types_at(&self, node: NodeId, direction: Direction) -> Vec<RelTypeId>;
    /// A relationship by id.
    fn relationship(&self, rel: RelId) -> Option<RelView>;
    /// A relationship's properties sorted by key (empty for an absent one).
    fn rel_properties(&self, rel: RelId) -> Vec<(PropKeyId, Value)>;
    /// One property of a relationship.
    fn rel_property(&self, rel: RelId, key: PropKeyId) -> Option<Value>;
    /// The node of `label` whose `id` property is `id` (the external-id index).
    fn node_by_id(&self, label: LabelId, id: i64) -> Option<NodeId>;

    /// How [`GraphView::neighbors`] orders the lists of `rel_type` in `direction`.
    fn edge_order(&self, _rel_type: RelTypeId, _direction: Direction) -> EdgeOrder {
        EdgeOrder::ByNode
    }
    /// The edges of `node`'s list leading to `target`: one run in either order (a
    /// neighbour's relationships share its part and rank), found by binary search.
    fn edges_to(
        &self,
        node: NodeId,
        rel_type: RelTypeId,
        direction: Direction,
        target: NodeId,
    ) -> &[Edge] {
        let edges = self.neighbors(node, rel_type, direction);
        let start = match self.edge_order(rel_type, direction) {
            EdgeOrder::ByNode => edges.partition_point(|e| e.node < target),
            EdgeOrder::NewestFirst { key, first } => {
                let at = |e: Edge| {
                    let in_first = first.is_some_and(|l| self.has_label(e.node, l));
                    sort_key(in_first, self.node_property(e.node, key).as_ref(), e)
                };
                let want = at(Edge {
                    node: target,
                    rel: RelId(0),
                });
                edges.partition_point(|e| at(*e) < want)
            }
        };
        let run = edges[start..]
            .iter()
            .take_while(|e| e.node == target)
            .count();
        &edges[start..start + run]
    }
    /// Whether the node carries the label.
    fn has_label(&self, node: NodeId, label: LabelId) -> bool {
        self.node_labels(node).binary_search(&label).is_ok()
    }
    /// The nodes carrying `label`, in ascending id order. This default scans every
    /// node; stores keeping a list per label answer from it.
    fn nodes_with_label(&self, label: LabelId) -> Box<dyn Iterator<Item = NodeId> + '_> {
        Box::new(self.node_ids().filter(move |&n| self.has_label(n, label)))
    }
    /// How many nodes carry `label`, when the view knows without scanning (`None`
    /// otherwise): a planner's estimate of what a label scan yields.
    fn label_count(&self, _label: LabelId) -> Option<usize> {
        None
    }
    /// The nodes of `label` whose `key` equals `value`, in id order, at most `limit`.
    /// This default scans every node; stores answer from an index where one is
    /// declared (see [`GraphView::is_indexed`]).
    fn nodes_with_property(
        &self,
        label: LabelId,
        key: PropKeyId,
        value: &Value,
        limit: usize,
    ) -> Vec<NodeId> {
        self.node_ids()
            .filter(|&n| {
                self.has_label(n, label) && self.node_property(n, key).as_ref() == Some(value)
            })
            .take(limit)
            .collect()
    }
    /// The nodes of `label` whose `key` may lie in `range`, from an index: a superset
    /// of those that do, of the range's kind of value, in no promised order. `None`
    /// when no index on `(label, key)` answers such a range: the caller scans.
    fn nodes_in_range(
        &self,
        _label: LabelId,
        _key: PropKeyId,
        _range: &ValueRange<'_>,
    ) -> Option<Vec<NodeId>> {
        None
    }
    /// The nodes of `label` whose `keys` hold `values` (one each, in order), in id
    /// order, from a composite index on exactly those keys; `None` when there is no
    /// such index or it cannot answer these values (the caller looks elsewhere).
    fn nodes_with_values(
        &self,
        _label: LabelId,
        _keys: &[PropKeyId],
        _values: &[Value],
    ) -> Option<Vec<NodeId>> {
        None
    }
    /// Whether [`GraphView::nodes_with_property`] on `(label, key)` uses an index.
    fn is_indexed(&self, _label: LabelId, _key: PropKeyId) -> bool {
        false
    }
    /// Named indexes, uniqueness constraints and stored procedures (none by default).
    fn schema(&self) -> &Schema {
        &crate::schema::EMPTY_SCHEMA
    }
}

/// Binary search in a key-sorted property list.
pub fn lookup(properties: &[(PropKeyId, Value)], key: PropKeyId) -> Option<&Value> {
    properties
        .binary_search_by_key(&key, |(k, _)| *k)
        .ok()
        .map(|i| &properties[i].1)
}
