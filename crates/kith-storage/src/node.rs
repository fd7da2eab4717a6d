//! Node and relationship records.

use kith_core::{Direction, Edge, LabelId, NodeId, PropKeyId, RelId, RelTypeId, Value};

use crate::shapes::ShapeId;

/// The relationships of one type in one direction at a node.
#[derive(Clone, Debug)]
pub(crate) struct AdjList {
    pub(crate) rel_type: RelTypeId,
    pub(crate) direction: Direction,
    /// Sorted by `(node, rel)`.
    pub(crate) edges: Vec<Edge>,
}

/// A node: its shape (labels and keys; values live in the columns) and its own
/// adjacency (index-free adjacency).
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeRecord {
    pub(crate) shape: ShapeId,
    /// Sorted by `(rel_type, direction)`; a node has few types, so a short vector
    /// searched linearly beats a map.
    pub(crate) adjacency: Vec<AdjList>,
}

/// A relationship: its type and ends, and its shape (keys; values in the columns).
#[derive(Clone, Debug)]
pub(crate) struct RelRecord {
    pub(crate) rel_type: RelTypeId,
    pub(crate) src: NodeId,
    pub(crate) dst: NodeId,
    pub(crate) shape: ShapeId,
}

/// A node's labels and properties gathered from its shape and the columns: what the
/// indexes and the graph file read, and what a write changes.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct NodeData {
    /// Sorted, no duplicates.
    pub(crate) labels: Box<[LabelId]>,
    /// Sorted by key, no duplicates, no `Null` values.
    pub(crate) props: Box<[(PropKeyId, Value)]>,
}

impl NodeData {
    /// Normalises labels and properties.
    pub(crate) fn new(mut labels: Vec<LabelId>, properties: Vec<(PropKeyId, Value)>) -> Self {
        labels.sort_unstable();
        labels.dedup();
        NodeData {
            labels: labels.into_boxed_slice(),
            props: normalise_properties(properties),
        }
    }

    /// Sets (or with `Null`, removes) a property.
    pub(crate) fn set(&mut self, key: PropKeyId, value: Value) {
        let mut list = std::mem::take(&mut self.props).into_vec();
        match list.binary_search_by_key(&key, |(k, _)| *k) {
            Ok(i) if value == Value::Null => {
                list.remove(i);
            }
            Ok(i) => list[i].1 = value,
            Err(_) if value == Value::Null => {}
            Err(i) => list.insert(i, (key, value)),
        }
        self.props = list.into_boxed_slice();
    }
}

impl NodeRecord {
    pub(crate) fn edges(&self, rel_type: RelTypeId, direction: Direction) -> &[Edge] {
        self.adjacency
            .iter()
            .find(|a| a.rel_type == rel_type && a.direction == direction)
            .map_or(&[], |a| &a.edges)
    }

    fn list_mut(&mut self, rel_type: RelTypeId, direction: Direction) -> &mut Vec<Edge> {
        let key = (rel_type, direction);
        let pos = self
            .adjacency
            .partition_point(|a| (a.rel_type, a.direction) < key);
        let exists = self
            .adjacency
            .get(pos)
            .is_some_and(|a| (a.rel_type, a.direction) == key);
        if !exists {
            self.adjacency.insert(
                pos,
                AdjList {
                    rel_type,
                    direction,
                    edges: Vec::new(),
                },
            );
        }
        &mut self.adjacency[pos].edges
    }

    /// Inserts an edge keeping the list sorted.
    pub(crate) fn add_edge(&mut self, rel_type: RelTypeId, direction: Direction, edge: Edge) {
        let list = self.list_mut(rel_type, direction);
        let pos = list.partition_point(|e| *e < edge);
        list.insert(pos, edge);
    }

    /// Removes an edge; drops the list when it empties.
    pub(crate) fn remove_edge(&mut self, rel_type: RelTypeId, direction: Direction, edge: Edge) {
        if let Some(i) = self
            .adjacency
            .iter()
            .position(|a| a.rel_type == rel_type && a.direction == direction)
        {
            let list = &mut self.adjacency[i].edges;
            if let Ok(pos) = list.binary_search(&edge) {
                list.remove(pos);
            }
            if list.is_empty() {
                self.adjacency.remove(i);
            }
        }
    }
}

/// Sorts a property list by key, keeping the last value of a repeated key and dropping
/// `Null`s (a null property is an absent property).
pub(crate) fn normalise_properties(
    mut props: Vec<(PropKeyId, Value)>,
) -> Box<[(PropKeyId, Value)]> {
    props.reverse();
    props.sort_by_key(|(k, _)| *k); // stable: the last assignment comes first
    props.dedup_by_key(|(k, _)| *k);
    props.retain(|(_, v)| *v != Value::Null);
    props.into_boxed_slice()
}

/// The edge as seen from each end: `(src side, dst side)`.
pub(crate) fn edge_pair(rel: RelId, src: NodeId, dst: NodeId) -> (Edge, Edge) {
    (Edge { node: dst, rel }, Edge { node: src, rel })
}
