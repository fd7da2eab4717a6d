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
