//! Node and relationship records.

use kith_core::{Direction, Edge, LabelId, NodeId, PropKeyId, RelId, RelTypeId, Value};

/// The relationships of one type in one direction at a node.
#[derive(Clone, Debug)]
pub(crate) struct AdjList {
    pub(crate) rel_type: RelTypeId,
    pub(crate) direction: Direction,
    /// Sorted by `(node, rel)`.
    pub(crate) edges: Vec<Edge>,
}

/// A node: labels, properties and its own adjacency (index-free adjacency).
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeRecord {
    /// Sorted, no duplicates.
    pub(crate) labels: Box<[LabelId]>,
    /// Sorted by key, no duplicates, no `Null` values.
    pub(crate) props: Box<[(PropKeyId, Value)]>,
    /// Sorted by `(rel_type, direction)`; a node has few types, so a short vector
    /// searched linearly beats a map.
    pub(crate) adjacency: Vec<AdjList>,
}

/// A relationship.
#[derive(Clone, Debug)]
pub(crate) struct RelRecord {
    pub(crate) rel_type: RelTypeId,
    pub(crate) src: NodeId,
    pub(crate) dst: NodeId,
    /// Sorted by key, no duplicates, no `Null` values.
    pub(crate) props: Box<[(PropKeyId, Value)]>,
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

/// Sets (or with `Null`, removes) a property in a key-sorted list.
pub(crate) fn set_property(props: &mut Box<[(PropKeyId, Value)]>, key: PropKeyId, value: Value) {
    let mut list = std::mem::take(props).into_vec();
    match list.binary_search_by_key(&key, |(k, _)| *k) {
        Ok(i) if value == Value::Null => {
            list.remove(i);
        }
        Ok(i) => list[i].1 = value,
        Err(_) if value == Value::Null => {}
        Err(i) => list.insert(i, (key, value)),
    }
    *props = list.into_boxed_slice();
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
