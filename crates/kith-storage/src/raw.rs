//! Graphs as plain record lists: what generators produce and graph files hold.

use kith_core::{LabelId, NodeId, PropKeyId, RelId, RelTypeId, Value};

use crate::{Catalog, StorageError};

/// A node record before it enters the store.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawNode {
    /// Labels (any order, duplicates allowed; the store normalises).
    pub labels: Vec<LabelId>,
    /// Properties (any order; the store normalises).
    pub properties: Vec<(PropKeyId, Value)>,
}

/// A relationship record before it enters the store.
#[derive(Clone, Debug, PartialEq)]
pub struct RawRel {
    /// Its type.
    pub rel_type: RelTypeId,
    /// Source node (an index into [`RawGraph::nodes`]).
    pub src: NodeId,
    /// Target node.
    pub dst: NodeId,
    /// Properties.
    pub properties: Vec<(PropKeyId, Value)>,
}

/// A whole graph as flat lists: slot `i` of `nodes` is `NodeId(i)`, slot `j` of `rels`
/// is `RelId(j)`; `None` marks a deleted slot.
///
/// It is the bulk-load input (building adjacency in one pass is far faster than one
/// write per element) and, in tests, the raw material independent oracles scan.
#[derive(Clone, Debug, Default)]
pub struct RawGraph {
    /// Names.
    pub catalog: Catalog,
    /// Node slots.
    pub nodes: Vec<Option<RawNode>>,
    /// Relationship slots.
    pub rels: Vec<Option<RawRel>>,
}

impl RawGraph {
    /// Adds a node and returns its id.
    pub fn add_node(
        &mut self,
        labels: Vec<LabelId>,
        properties: Vec<(PropKeyId, Value)>,
    ) -> Result<NodeId, StorageError> {
        let id = u32::try_from(self.nodes.len())
            .map_err(|_| StorageError::CapacityExceeded("more than 2^32 nodes"))?;
        self.nodes.push(Some(RawNode { labels, properties }));
        Ok(NodeId(id))
    }

    /// Adds a relationship between two nodes added before and returns its id.
    pub fn add_rel(
        &mut self,
        rel_type: RelTypeId,
        src: NodeId,
        dst: NodeId,
        properties: Vec<(PropKeyId, Value)>,
    ) -> Result<RelId, StorageError> {
        for end in [src, dst] {
            if !matches!(self.nodes.get(end.index()), Some(Some(_))) {
                return Err(StorageError::NodeNotFound(end));
            }
        }
        let id = u32::try_from(self.rels.len())
            .map_err(|_| StorageError::CapacityExceeded("more than 2^32 relationships"))?;
        self.rels.push(Some(RawRel {
            rel_type,
            src,
            dst,
            properties,
        }));
        Ok(RelId(id))
    }

    /// Live nodes with their ids.
    pub fn live_nodes(&self) -> impl Iterator<Item = (NodeId, &RawNode)> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter_map(|(i, n)| n.as_ref().map(|n| (NodeId(i as u32), n)))
    }

    /// Moves every node to a new slot: old slot `i` becomes `new_slot[i]`, and
    /// relationships follow their ends. A bulk loader uses it to place nodes read
    /// together next to each other; ids are internal, so no answer changes.
    ///
    /// # Panics
    /// If `new_slot` is not a permutation of the node slots.
    pub fn renumber(&mut self, new_slot: &[u32]) {
        assert_eq!(
            new_slot.len(),
            self.nodes.len(),
            "one new slot per node slot"
        );
        let mut moved: Vec<Option<RawNode>> = vec![None; self.nodes.len()];
        let mut taken = vec![false; self.nodes.len()];
        for (old, node) in self.nodes.drain(..).enumerate() {
            let to = new_slot[old] as usize;
            assert!(
                !std::mem::replace(&mut taken[to], true),
                "slot {to} given twice"
            );
            moved[to] = node;
        }
        self.nodes = moved;
        for rel in self.rels.iter_mut().flatten() {
            rel.src = NodeId(new_slot[rel.src.index()]);
            rel.dst = NodeId(new_slot[rel.dst.index()]);
        }
    }

    /// Live relationships with their ids.
    pub fn live_rels(&self) -> impl Iterator<Item = (RelId, &RawRel)> + '_ {
        self.rels
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.as_ref().map(|r| (RelId(i as u32), r)))
    }
}

impl RawNode {
    /// A property by key (the last assignment wins, as in the store).
    pub fn property(&self, key: PropKeyId) -> Option<&Value> {
        self.properties
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    }
}

impl RawRel {
    /// A property by key.
    pub fn property(&self, key: PropKeyId) -> Option<&Value> {
        self.properties
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_nodes_one_rel() -> RawGraph {
        let mut g = RawGraph::default();
        let t = g.catalog.rel_type("T").expect("type");
        let a = g
            .add_node(vec![], vec![(PropKeyId(0), Value::Int(1))])
            .expect("node");
        let b = g
            .add_node(vec![], vec![(PropKeyId(0), Value::Int(2))])
            .expect("node");
        g.add_rel(t, a, b, vec![]).expect("rel");
        g
    }

    #[test]
    fn renumbering_moves_nodes_and_their_relationships() {
        let mut g = two_nodes_one_rel();
        g.renumber(&[1, 0]);
        let id = |n: usize| {
            g.nodes[n]
                .as_ref()
                .and_then(|n| n.property(PropKeyId(0)).cloned())
        };
        assert_eq!((id(0), id(1)), (Some(Value::Int(2)), Some(Value::Int(1))));
        let rel = g.rels[0].as_ref().expect("live");
        assert_eq!((rel.src, rel.dst), (NodeId(1), NodeId(0)));
    }

    #[test]
    #[should_panic(expected = "given twice")]
    fn a_renumbering_that_is_no_permutation_is_refused() {
        two_nodes_one_rel().renumber(&[0, 0]);
    }
}
