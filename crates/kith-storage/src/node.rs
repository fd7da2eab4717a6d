//! Node and relationship records.

use std::num::NonZeroU32;

use kith_core::{Edge, LabelId, NodeId, PropKeyId, RelId, RelTypeId, Value};

use crate::shapes::ShapeId;

/// A shape number held as the number plus one, so that an `Option` of a record
/// holding one needs no tag of its own (4 bytes a node slot, 16 a relationship slot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PackedShape(NonZeroU32);

impl PackedShape {
    pub(crate) fn new(shape: ShapeId) -> Self {
        // Shapes never reach `ShapeId::MAX` (see `Shapes::intern_parts`).
        PackedShape(NonZeroU32::new(shape.wrapping_add(1)).expect("a shape below ShapeId::MAX"))
    }

    pub(crate) fn get(self) -> ShapeId {
        self.0.get() - 1
    }
}

/// A node: its shape (labels and keys; values live in the columns, relationships in
/// [`crate::adjacency`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NodeRecord(PackedShape);

impl NodeRecord {
    pub(crate) fn new(shape: ShapeId) -> Self {
        NodeRecord(PackedShape::new(shape))
    }

    pub(crate) fn shape(self) -> ShapeId {
        self.0.get()
    }
}

/// A relationship: its type and ends, and its shape (keys; values in the columns).
#[derive(Clone, Debug)]
pub(crate) struct RelRecord {
    pub(crate) rel_type: RelTypeId,
    pub(crate) src: NodeId,
    pub(crate) dst: NodeId,
    pub(crate) shape: PackedShape,
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

// The slot sizes the memory figures (docs/benchmarks.md) rest on.
const _: () = assert!(size_of::<Option<NodeRecord>>() == 4);
const _: () = assert!(size_of::<Option<RelRecord>>() == 16);
