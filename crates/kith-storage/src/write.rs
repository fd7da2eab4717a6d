//! Write batches and how a version applies them.

use std::sync::Arc;

pub use kith_core::write_op::{Condition, Name, NodeRef, WriteOp};
use kith_core::{Direction, LabelId, NodeId, PropKeyId, RelId, Value};

use crate::adjacency::ListOrder;
use crate::node::{edge_pair, normalise_properties, NodeData, NodeRecord, PackedShape, RelRecord};
use crate::shapes::{insert_sorted, remove_sorted};
use crate::snapshot::{check_value, external_id, index_node, node_data, unindex_node};
use crate::{Snapshot, StorageError};

/// An edge in a neighbour's ordered list: `(neighbour, type, direction, edge)`.
type OrderedEdge = (NodeId, kith_core::RelTypeId, Direction, kith_core::Edge);

/// An all-or-nothing list of operations.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WriteBatch {
    /// Operations, applied in order.
    pub ops: Vec<WriteOp>,
}

impl WriteBatch {
    /// An empty batch.
    pub fn new() -> Self {
        WriteBatch::default()
    }

    /// Appends an operation and returns its index (for [`NodeRef::Created`]).
    pub fn push(&mut self, op: WriteOp) -> usize {
        self.ops.push(op);
        self.ops.len() - 1
    }
}

impl Snapshot {
    /// Applies a batch to this (private, unpublished) version. On error the version is
    /// left half-changed and must be dropped; [`crate::Store`] does exactly that.
    /// Returns the ids of created nodes, one per `CreateNode`, in batch order.
    pub(crate) fn apply_batch(&mut self, batch: &WriteBatch) -> Result<Created, StorageError> {
        let mut created = Created::default();
        for op in &batch.ops {
            self.apply_op(op, &mut created)?;
        }
        Ok(created)
    }

    pub(crate) fn apply_op(
        &mut self,
        op: &WriteOp,
        created: &mut Created,
    ) -> Result<(), StorageError> {
        match op {
            WriteOp::CreateNode { labels, properties } => {
                let catalog = Arc::make_mut(&mut self.catalog);
                let labels = labels
                    .iter()
                    .map(|l| catalog.label(l))
                    .collect::<Result<_, _>>()?;
                let props = properties
                    .iter()
                    .map(|(k, v)| Ok((catalog.prop_key(k)?, v.clone())))
                    .collect::<Result<_, StorageError>>()?;
                let data = node_data(&self.catalog, labels, props)?;
                // u32::MAX itself marks a free slot in the id index's tables.
                let id = u32::try_from(self.nodes.len())
                    .ok()
                    .filter(|&n| n != u32::MAX)
                    .map(NodeId)
                    .ok_or(StorageError::CapacityExceeded("more than 2^32 - 1 nodes"))?;
                index_node(
                    &self.catalog,
                    &mut self.id_index,
                    id,
                    &data,
                    self.version + 1,
                )?;
                self.prop_indexes.insert(id, &data);
                for &label in data.labels.iter() {
                    self.label_index.insert(label, id);
                }
                let shape = self.shapes.intern_parts(&data.labels, &data.props)?;
                for (key, value) in data.props.into_vec() {
                    self.node_cols.set(key, id.index(), value);
                }
                self.nodes.push(Some(NodeRecord::new(shape)));
                self.node_count += 1;
                created.nodes.push(id);
                self.check_unique(id)?;
            }
            WriteOp::CreateRel {
                rel_type,
                src,
                dst,
                properties,
            } => {
                let src = self.resolve(src, &created.nodes)?;
                let dst = self.resolve(dst, &created.nodes)?;
                let catalog = Arc::make_mut(&mut self.catalog);
                let rel_type = catalog.rel_type(rel_type)?;
                let props = properties
                    .iter()
                    .map(|(k, v)| Ok((catalog.prop_key(k)?, v.clone())))
                    .collect::<Result<Vec<_>, StorageError>>()?;
                for (k, v) in &props {
                    check_value(&self.catalog, *k, v)?;
                }
                let rel =
                    RelId(u32::try_from(self.rels.len()).map_err(|_| {
                        StorageError::CapacityExceeded("more than 2^32 relationships")
                    })?);
                let (out_edge, in_edge) = edge_pair(rel, src, dst);
                let version = self.version + 1;
                let (out, inc) =
                    ListOrder::both(&self.catalog, &self.node_cols, &self.label_index, rel_type);
                self.adj
                    .edit(src, version)?
                    .add_edge(rel_type, Direction::Out, out_edge, out);
                self.adj
                    .edit(dst, version)?
                    .add_edge(rel_type, Direction::In, in_edge, inc);
                let props = normalise_properties(props);
                let shape = self.shapes.intern_parts(&[], &props)?;
                for (key, value) in props.into_vec() {
                    self.rel_cols.set(key, rel.index(), value);
                }
                self.rels.push(Some(RelRecord {
                    rel_type,
                    src,
                    dst,
                    shape: PackedShape::new(shape),
                }));
                self.rel_count += 1;
                created.rels.push(rel);
            }
            WriteOp::SetNodeProperty { node, key, value } => {
                let node = self.resolve(node, &created.nodes)?;
                let key = Arc::make_mut(&mut self.catalog).prop_key(key)?;
                check_value(&self.catalog, key, value)?;
                self.set_node_property(node, key, value.clone())?;
                self.check_unique(node)?;
            }
            WriteOp::SetRelProperty { rel, key, value } => {
                let key = Arc::make_mut(&mut self.catalog).prop_key(key)?;
                check_value(&self.catalog, key, value)?;
                self.set_rel_property(*rel, key, value.clone())?;
            }
            WriteOp::AddLabel { node, label } => {
                let node = self.resolve(node, &created.nodes)?;
                let label = Arc::make_mut(&mut self.catalog).label(label)?;
                let moved = self.ordered_edges_of(node, None, Some(label));
                self.relink(&moved, false)?;
                self.reindexing(node, |data| {
                    insert_sorted(&mut data.labels, label);
                })?;
                self.label_index.insert(label, node);
                self.relink(&moved, true)?;
                self.check_unique(node)?;
            }
            WriteOp::RemoveLabel { node, label } => {
                let node = self.resolve(node, &created.nodes)?;
                if let Some(label) = self.catalog.find_label(label) {
                    let moved = self.ordered_edges_of(node, None, Some(label));
                    self.relink(&moved, false)?;
                    self.reindexing(node, |data| {
                        remove_sorted(&mut data.labels, label);
                    })?;
                    self.label_index.remove(label, node);
                    self.relink(&moved, true)?;
                }
            }
            WriteOp::DeleteNode { node, detach } => {
                let node = self.resolve(node, &created.nodes)?;
                let rels: Vec<RelId> = self
                    .adj
                    .groups(node)
                    .flat_map(|(_, _, edges)| edges.iter().map(|e| e.rel))
                    .collect();
                if !rels.is_empty() && !detach {
                    return Err(StorageError::NodeHasRelationships(node));
                }
                for rel in rels {
                    // A self-loop appears twice; the second delete finds it gone.
                    if self.rel(rel).is_some() {
                        self.delete_rel(rel)?;
                        created.detached_rels += 1;
                    }
                }
                let data = self
                    .node_data(node)
                    .ok_or(StorageError::NodeNotFound(node))?;
                self.nodes
                    .get_mut(node.index())
                    .and_then(Option::take)
                    .ok_or(StorageError::NodeNotFound(node))?;
                for (key, _) in data.props.iter() {
                    self.node_cols.clear(*key, node.index());
                }
                unindex_node(&mut self.id_index, &data, self.version + 1);
                self.prop_indexes.remove(node, &data);
                for &label in data.labels.iter() {
                    self.label_index.remove(label, node);
                }
                self.node_count -= 1;
            }
            WriteOp::DeleteRel { rel } => self.delete_rel(*rel)?,
            WriteOp::EnsureNode { label, id } => self.ensure_node(label, *id)?,
            WriteOp::Require(condition) => {
                let (label, key, value, want_present) = match condition {
                    Condition::Absent { label, key, value } => (label, key, value, false),
                    Condition::Present { label, key, value } => (label, key, value, true),
                };
                if matches!(value, Value::Map(_) | Value::List(_) | Value::Bytes(_)) {
                    return Err(StorageError::UnsupportedPropertyValue {
                        key: key.to_string(),
                        found: format!("{} in a condition", value.value_type()),
                    });
                }
                let found = match (
                    self.catalog.find_label(label),
                    self.catalog.find_prop_key(key),
                ) {
                    (Some(label), Some(key)) => self.has_node_with(label, key, value),
                    _ => false,
                };
                if found != want_present {
                    return Err(StorageError::ConditionFailed(condition.to_string()));
                }
            }
            WriteOp::CreateIndex { label, key } => {
                let (label_name, key_name) = (&**label, &**key);
                let catalog = Arc::make_mut(&mut self.catalog);
                let (label, key) = (catalog.label(label)?, catalog.prop_key(key)?);
                self.declare_prop_index(label, key);
                self.index_declared(label_name, key_name);
            }
            WriteOp::DropIndex { label, key } => {
                self.index_dropping(label, key)?;
                let found = match (
                    self.catalog.find_label(label),
                    self.catalog.find_prop_key(key),
                ) {
                    (Some(l), Some(k)) => self.prop_indexes.drop_index(l, k),
                    _ => false,
                };
                if !found {
                    return Err(StorageError::NoSuchIndex {
                        label: label.to_string(),
                        key: key.to_string(),
                    });
                }
            }
            WriteOp::Schema(op) => self.apply_schema(op)?,
        }
        Ok(())
    }

    /// `EnsureNode`: a node of `label` with external id `id`, created with the label
    /// and the id alone when there is none. Not one of the batch's `Created` nodes.
    fn ensure_node(&mut self, label: &Name, id: i64) -> Result<(), StorageError> {
        let found = self
            .catalog
            .find_label(label)
            .and_then(|l| self.id_index.get(l, id));
        if found.is_some() {
            return Ok(());
        }
        let create = WriteOp::CreateNode {
            labels: vec![label.clone()],
            properties: vec![(
                Arc::from(self.catalog.prop_key_name(crate::ID_KEY)),
                Value::Int(id),
            )],
        };
        // Applied with a throwaway list: the batch's `Created(n)` keep their meaning.
        self.apply_op(&create, &mut Created::default())?;
        debug_assert!(self
            .catalog
            .find_label(label)
            .and_then(|l| self.id_index.get(l, id))
            .is_some());
        Ok(())
    }

    /// Whether some node of `label` has `key == value`: through the external-id index,
    /// a property index, or (neither declared) a scan of every node.
    fn has_node_with(&self, label: LabelId, key: PropKeyId, value: &Value) -> bool {
        !self.find_nodes(label, key, value, 1).is_empty()
    }

    fn delete_rel(&mut self, rel: RelId) -> Result<(), StorageError> {
        let record = self
            .rels
            .get_mut(rel.index())
            .and_then(Option::take)
            .ok_or(StorageError::RelNotFound(rel))?;
        for key in self.shapes.get(record.shape.get()).keys.clone().iter() {
            self.rel_cols.clear(*key, rel.index());
        }
        let (out_edge, in_edge) = edge_pair(rel, record.src, record.dst);
        let version = self.version + 1;
        let t = record.rel_type;
        let (out, inc) = ListOrder::both(&self.catalog, &self.node_cols, &self.label_index, t);
        self.adj
            .edit(record.src, version)?
            .remove_edge(t, Direction::Out, out_edge, out);
        self.adj
            .edit(record.dst, version)?
            .remove_edge(t, Direction::In, in_edge, inc);
        self.rel_count -= 1;
        Ok(())
    }

    fn resolve(&self, node: &NodeRef, created: &[NodeId]) -> Result<NodeId, StorageError> {
        let id = match node {
            NodeRef::Node(id) => *id,
            NodeRef::ById { label, id } => self
                .catalog
                .find_label(label)
                .and_then(|l| self.id_index.get(l, *id))
                .ok_or_else(|| StorageError::NoNodeWithId {
                    label: label.to_string(),
                    id: *id,
                })?,
            NodeRef::Created(n) => created
                .get(*n)
                .copied()
                .ok_or(StorageError::BadBatchReference(*n))?,
        };
        if self.node(id).is_none() {
            return Err(StorageError::NodeNotFound(id));
        }
        Ok(id)
    }

    fn node_mut(&mut self, node: NodeId) -> Result<&mut NodeRecord, StorageError> {
        self.nodes
            .get_mut(node.index())
            .and_then(Option::as_mut)
            .ok_or(StorageError::NodeNotFound(node))
    }

    /// Sets (or, with `Null`, removes) one property. When the key orders some
    /// neighbour's list newest first, the node's edges in those lists are taken out
    /// under the old rank and put back under the new one (labels that split such a
    /// list into parts move edges the same way: `AddLabel`, `RemoveLabel`).
    fn set_node_property(
        &mut self,
        node: NodeId,
        key: PropKeyId,
        value: Value,
    ) -> Result<(), StorageError> {
        let moved = self.ordered_edges_of(node, Some(key), None);
        self.relink(&moved, false)?;
        self.reindexing(node, |data| data.set(key, value))?;
        self.relink(&moved, true)
    }

    /// `(neighbour, type, direction of its list, edge)` for every edge of `node` in a
    /// neighbour's list whose order `key` (a property) or `label` decides.
    fn ordered_edges_of(
        &self,
        node: NodeId,
        key: Option<PropKeyId>,
        label: Option<LabelId>,
    ) -> Vec<OrderedEdge> {
        let mut found = Vec::new();
        for rule in self.catalog.orders_moved_by(key, label) {
            let seen_from = match rule.direction {
                Direction::Out => Direction::In,
                Direction::In => Direction::Out,
            };
            for e in self.adj.edges(node, rule.rel_type, seen_from) {
                let edge = kith_core::Edge { node, rel: e.rel };
                found.push((e.node, rule.rel_type, rule.direction, edge));
            }
        }
        found
    }

    /// Takes `edges` out of their lists (`add` false) or puts them back in order.
    fn relink(&mut self, edges: &[OrderedEdge], add: bool) -> Result<(), StorageError> {
        let version = self.version + 1;
        for &(neighbour, rel_type, direction, edge) in edges {
            let order = ListOrder::of(
                &self.catalog,
                &self.node_cols,
                &self.label_index,
                rel_type,
                direction,
            );
            let list = self.adj.edit(neighbour, version)?;
            if add {
                list.add_edge(rel_type, direction, edge, order);
            } else {
                list.remove_edge(rel_type, direction, edge, order);
            }
        }
        Ok(())
    }

    /// Changes a node's labels or properties and keeps the indexes in step.
    fn reindexing(
        &mut self,
        node: NodeId,
        change: impl FnOnce(&mut NodeData),
    ) -> Result<(), StorageError> {
        let before = self
            .node_data(node)
            .ok_or(StorageError::NodeNotFound(node))?;
        let mut after = before.clone();
        change(&mut after);
        if identical_data(&after, &before) {
            return Ok(());
        }
        // Most changes touch neither the id nor the labels: leaving the id index
        // alone keeps its delta (and so the folds it brings on) to real changes.
        let keys_change =
            external_id(&before) != external_id(&after) || before.labels != after.labels;
        if keys_change {
            unindex_node(&mut self.id_index, &before, self.version + 1);
        }
        self.prop_indexes.remove(node, &before);
        self.store_change(node, &before, &after)?;
        self.prop_indexes.insert(node, &after);
        if keys_change {
            let version = self.version + 1;
            index_node(&self.catalog, &mut self.id_index, node, &after, version)?;
        }
        Ok(())
    }

    /// Writes what differs between `before` and `after` into the columns and the
    /// node's shape.
    fn store_change(
        &mut self,
        node: NodeId,
        before: &NodeData,
        after: &NodeData,
    ) -> Result<(), StorageError> {
        for (key, value) in after.props.iter() {
            if !kith_core::lookup(&before.props, *key).is_some_and(|v| identical(v, value)) {
                self.node_cols.set(*key, node.index(), value.clone());
            }
        }
        for (key, _) in before.props.iter() {
            if kith_core::lookup(&after.props, *key).is_none() {
                self.node_cols.clear(*key, node.index());
            }
        }
        let (before_keys, after_keys) = (before.props.iter(), after.props.iter());
        if before.labels != after.labels || !before_keys.map(|p| p.0).eq(after_keys.map(|p| p.0)) {
            let shape = self.shapes.intern_parts(&after.labels, &after.props)?;
            *self.node_mut(node)? = NodeRecord::new(shape);
        }
        Ok(())
    }

    /// Sets (or with `Null`, removes) a relationship's property.
    fn set_rel_property(
        &mut self,
        rel: RelId,
        key: PropKeyId,
        value: Value,
    ) -> Result<(), StorageError> {
        let shape = self
            .rel(rel)
            .ok_or(StorageError::RelNotFound(rel))?
            .shape
            .get();
        let new_shape = if value == Value::Null {
            self.rel_cols.clear(key, rel.index());
            self.shapes.edit(shape, |s| {
                remove_sorted(&mut s.keys, key);
            })?
        } else {
            self.rel_cols.set(key, rel.index(), value);
            self.shapes.edit(shape, |s| {
                insert_sorted(&mut s.keys, key);
            })?
        };
        if new_shape != shape {
            let record = self
                .rels
                .get_mut(rel.index())
                .and_then(Option::as_mut)
                .ok_or(StorageError::RelNotFound(rel))?;
            record.shape = PackedShape::new(new_shape);
        }
        Ok(())
    }
}

/// Whether two nodes' data are the same down to the stored bits: `==` holds between
/// `0.0` and `-0.0`, but `SET n.x = -0.0` must store the sign.
fn identical_data(a: &NodeData, b: &NodeData) -> bool {
    a.labels == b.labels
        && a.props.len() == b.props.len()
        && a.props
            .iter()
            .zip(b.props.iter())
            .all(|((ka, va), (kb, vb))| ka == kb && identical(va, vb))
}

/// Value equality that tells `0.0` from `-0.0` (and NaN from nothing), in lists too.
fn identical(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| identical(p, q))
        }
        _ => a == b,
    }
}

/// What a batch created, in order, and what its detaching deletes took.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Created {
    pub(crate) nodes: Vec<NodeId>,
    pub(crate) rels: Vec<RelId>,
    /// Relationships a detaching node delete took with it (Neo4j's statistics count
    /// them as deleted relationships; the operations do not name them).
    pub(crate) detached_rels: u64,
}
