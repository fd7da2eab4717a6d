//! One immutable version of the graph.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use kith_core::{
    Direction, Edge, EdgeOrder, GraphView, LabelId, NodeId, PropKeyId, RelId, RelTypeId, RelView,
    Schema, Value, ValueRange,
};

use crate::adjacency::{Adjacency, Csr, ListOrder};
use crate::catalog::ID_KEY;
use crate::columns::Columns;
use crate::id_index::{Duplicate, IdBase, IdIndex};
use crate::label_index::LabelIndex;
use crate::node::{normalise_properties, NodeData, NodeRecord, PackedShape, RelRecord};
use crate::paged::PagedVec;
use crate::prop_index::PropIndexes;
use crate::shapes::Shapes;
use crate::{Catalog, RawGraph, StorageError};

/// An immutable version of the graph.
///
/// Cloning is cheap (page tables and the index root are shared); see the crate docs
/// for how the writer turns a clone into the next version.
#[derive(Clone)]
pub struct Snapshot {
    pub(crate) catalog: Arc<Catalog>,
    pub(crate) nodes: PagedVec<Option<NodeRecord>>,
    /// Every node's relationships by type and direction.
    pub(crate) adj: Adjacency,
    pub(crate) rels: PagedVec<Option<RelRecord>>,
    /// The (labels, keys) combinations records point to.
    pub(crate) shapes: Shapes,
    /// Node property values by key, then node id.
    pub(crate) node_cols: Columns,
    /// Relationship property values by key, then relationship id.
    pub(crate) rel_cols: Columns,
    pub(crate) id_index: IdIndex,
    pub(crate) prop_indexes: PropIndexes,
    /// The nodes of each label.
    pub(crate) label_index: LabelIndex,
    pub(crate) node_count: usize,
    pub(crate) rel_count: usize,
    pub(crate) version: u64,
    /// Named indexes, uniqueness constraints, stored procedures.
    pub(crate) schema: Arc<Schema>,
    /// The uniqueness constraints as ids: a label and its keys, one or a
    /// composite's several (checked on every node write).
    pub(crate) unique_ids: Arc<Vec<(LabelId, Box<[PropKeyId]>)>>,
}

impl Default for Snapshot {
    fn default() -> Self {
        Snapshot {
            catalog: Arc::new(Catalog::default()),
            nodes: PagedVec::default(),
            adj: Adjacency::default(),
            rels: PagedVec::default(),
            shapes: Shapes::default(),
            node_cols: Columns::default(),
            rel_cols: Columns::default(),
            id_index: IdIndex::default(),
            prop_indexes: PropIndexes::default(),
            label_index: LabelIndex::default(),
            node_count: 0,
            rel_count: 0,
            version: 0,
            schema: Arc::default(),
            unique_ids: Arc::default(),
        }
    }
}

impl Snapshot {
    /// An empty graph.
    pub fn empty() -> Self {
        Snapshot::default()
    }

    /// Builds a graph from record lists in one pass: adjacency lists are collected per
    /// node and sorted once, instead of one sorted insert per relationship.
    pub fn from_raw(raw: RawGraph) -> Result<Snapshot, StorageError> {
        let RawGraph {
            mut catalog,
            nodes,
            rels,
        } = raw;
        // Every list is built here: any rule can take its whole form.
        catalog.arm_for_build();
        let built = build_records(&catalog, nodes, rels)?;
        Snapshot::assemble(catalog, built, None)
    }

    /// The graph as record lists (the inverse of [`Snapshot::from_raw`], slot for
    /// slot).
    pub fn to_raw(&self) -> RawGraph {
        let nodes = (0..self.nodes.len())
            .map(|n| {
                let data = self.node_data(NodeId(n as u32))?;
                Some(crate::RawNode {
                    labels: data.labels.into_vec(),
                    properties: data.props.into_vec(),
                })
            })
            .collect();
        let rels = self
            .rels
            .iter()
            .enumerate()
            .map(|(slot, rel)| {
                let rel = rel.as_ref()?;
                Some(crate::RawRel {
                    rel_type: rel.rel_type,
                    src: rel.src,
                    dst: rel.dst,
                    properties: self.gather(&self.rel_cols, rel.shape.get(), slot),
                })
            })
            .collect();
        RawGraph {
            catalog: (*self.catalog).clone(),
            nodes,
            rels,
        }
    }

    /// A snapshot of built parts, with the external-id index's base (built over them
    /// here when `None`).
    pub(crate) fn assemble(
        catalog: Catalog,
        built: Built,
        id_base: Option<IdBase>,
    ) -> Result<Snapshot, StorageError> {
        let mut snapshot = Snapshot {
            catalog: Arc::new(catalog),
            nodes: PagedVec::from_vec(built.nodes),
            adj: built.adj,
            rels: PagedVec::from_vec(built.rels),
            shapes: built.shapes,
            node_cols: built.node_cols,
            rel_cols: built.rel_cols,
            id_index: IdIndex::default(),
            prop_indexes: PropIndexes::default(),
            label_index: built.label_index,
            node_count: built.node_count,
            rel_count: built.rel_count,
            version: 0,
            schema: Arc::default(),
            unique_ids: Arc::default(),
        };
        let base = match id_base {
            Some(base) => base,
            None => snapshot
                .build_id_base(&AtomicBool::new(false))
                .map_err(|d| duplicate_error(&snapshot.catalog, d))?
                .expect("an uncancelled build finishes"),
        };
        snapshot.id_index = IdIndex::from_base(base);
        Ok(snapshot)
    }

    /// The external-id index's base over this version's nodes: what a load builds,
    /// and what a fold rebuilds. `None` if `cancel` was set.
    pub(crate) fn build_id_base(&self, cancel: &AtomicBool) -> Result<Option<IdBase>, Duplicate> {
        let node = |n: usize| self.nodes.get(n).copied().flatten();
        id_base_over(
            self.nodes.len(),
            node,
            &self.shapes,
            &self.node_cols,
            cancel,
        )
    }

    /// The nodes of `label` whose `key` equals `value`, in id order, at most `limit`.
    /// Uses the external-id index for `id`, a declared property index when there is
    /// one, and otherwise scans every node (see [`Snapshot::is_indexed`]).
    pub fn find_nodes(
        &self,
        label: LabelId,
        key: PropKeyId,
        value: &Value,
        limit: usize,
    ) -> Vec<NodeId> {
        if key == ID_KEY {
            return match value {
                Value::Int(id) => self.id_index.get(label, *id).into_iter().collect(),
                _ => Vec::new(),
            };
        }
        if let Some(mut nodes) = self.prop_indexes.lookup(label, key, value) {
            nodes.truncate(limit);
            return nodes;
        }
        self.label_index
            .nodes(label)
            .filter(|&n| self.node_cols.get(key, n.index()).as_ref() == Some(value))
            .take(limit)
            .collect()
    }

    /// Whether lookups on `(label, key)` use an index (the `id` key always does).
    pub fn is_indexed(&self, label: LabelId, key: PropKeyId) -> bool {
        key == ID_KEY || self.prop_indexes.contains(label, key)
    }

    /// The declared property indexes as `(label, key)` names.
    pub fn index_definitions(&self) -> Vec<(String, String)> {
        self.prop_indexes
            .definitions()
            .into_iter()
            .map(|(l, k)| {
                (
                    self.catalog.label_name(l).to_owned(),
                    self.catalog.prop_key_name(k).to_owned(),
                )
            })
            .collect()
    }

    /// Declares indexes by id and sets the commit version: how a checkpoint's
    /// metadata is restored after its records are loaded.
    pub(crate) fn restore_meta(
        &mut self,
        version: u64,
        indexes: &[(LabelId, PropKeyId)],
        schema: Option<Schema>,
    ) {
        self.version = version;
        for &(label, key) in indexes {
            self.declare_prop_index(label, key);
        }
        match schema {
            Some(schema) => {
                for def in schema.indexes.values() {
                    if def.on.is_composite() {
                        self.declare_composite_of(&def.on);
                        continue;
                    }
                    let (l, k) = (
                        self.catalog.find_label(&def.on.label),
                        self.catalog.find_prop_key(&def.on.key),
                    );
                    if let (Some(l), Some(k), false) =
                        (l, k, def.kind == kith_core::IndexKind::Range)
                    {
                        self.set_index_kind(l, k, def.kind);
                    }
                }
                self.schema = Arc::new(schema)
            }
            // An older file has no names: each index gets its default one.
            None => {
                for (label, key) in self.index_definitions() {
                    self.index_declared(&label, &key);
                }
            }
        }
        self.rebuild_unique_ids();
    }

    /// The name tables.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The version number: 0 for a loaded graph, +1 per applied batch.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Number of relationship slots ever allocated.
    pub fn rel_id_bound(&self) -> usize {
        self.rels.len()
    }

    pub(crate) fn node(&self, node: NodeId) -> Option<&NodeRecord> {
        self.nodes.get(node.index())?.as_ref()
    }

    pub(crate) fn rel(&self, rel: RelId) -> Option<&RelRecord> {
        self.rels.get(rel.index())?.as_ref()
    }

    /// The values of a shape's keys at `id`, in key order: what every reader of a
    /// whole row (the view, the graph file, the indexes) walks.
    pub(crate) fn shape_values<'a>(
        &'a self,
        cols: &'a Columns,
        shape: crate::shapes::ShapeId,
        id: usize,
    ) -> impl Iterator<Item = (PropKeyId, Value)> + 'a {
        self.shapes.get(shape).keys.iter().filter_map(move |&key| {
            let value = cols.get(key, id);
            // Invariant: a shape lists exactly the keys its element holds.
            debug_assert!(value.is_some(), "shape key {key:?} without a value at {id}");
            value.map(|v| (key, v))
        })
    }

    /// The values of a shape's keys at `id`, sorted by key.
    pub(crate) fn gather(
        &self,
        cols: &Columns,
        shape: crate::shapes::ShapeId,
        id: usize,
    ) -> Vec<(PropKeyId, Value)> {
        self.shape_values(cols, shape, id).collect()
    }

    /// A node's labels and properties, gathered.
    pub(crate) fn node_data(&self, node: NodeId) -> Option<NodeData> {
        let record = self.node(node)?;
        Some(NodeData {
            labels: self.shapes.get(record.shape()).labels.clone(),
            props: self
                .gather(&self.node_cols, record.shape(), node.index())
                .into_boxed_slice(),
        })
    }

    /// Declares a property index on `(label, key)`, filled from the label's nodes'
    /// column of the key (not whole rows: a label may hold millions of nodes).
    pub(crate) fn declare_prop_index(&mut self, label: LabelId, key: PropKeyId) {
        let (labels, cols) = (&self.label_index, &self.node_cols);
        let values = labels
            .nodes(label)
            .filter_map(|n| cols.get(key, n.index()).map(|v| (n, v)));
        self.prop_indexes.declare(label, key, values);
    }

    /// Declares the composite index `on` names (its names in the catalog already),
    /// filled from the label's nodes' columns of its keys.
    pub(crate) fn declare_composite_of(&mut self, on: &kith_core::LabelKey) {
        let c = &self.catalog;
        let keys: Option<Vec<PropKeyId>> = on.keys().map(|k| c.find_prop_key(k)).collect();
        let (Some(label), Some(keys)) = (c.find_label(&on.label), keys) else {
            return; // names no node ever had: an index with nothing in it yet
        };
        let (labels, cols) = (&self.label_index, &self.node_cols);
        let values = labels.nodes(label).map(|n| {
            let row = keys.iter().map(|&k| cols.get(k, n.index())).collect();
            (n, row)
        });
        self.prop_indexes.declare_composite(label, &keys, values);
    }

    /// Makes the index on `(label, key)` one of `kind`, refilled from the column.
    pub(crate) fn set_index_kind(
        &mut self,
        label: LabelId,
        key: PropKeyId,
        kind: kith_core::IndexKind,
    ) {
        let (labels, cols) = (&self.label_index, &self.node_cols);
        let values = labels
            .nodes(label)
            .filter_map(|n| cols.get(key, n.index()).map(|v| (n, v)));
        self.prop_indexes.set_kind(label, key, kind, values);
    }
}

/// The external-id index's base over the nodes below `node_bound` (`node` gives
/// each slot's record), their labels from `shapes` and ids from `cols`. `None` if
/// `cancel` was set.
pub(crate) fn id_base_over<'a>(
    node_bound: usize,
    node: impl Fn(usize) -> Option<NodeRecord> + Copy + 'a,
    shapes: &'a Shapes,
    cols: &'a Columns,
    cancel: &AtomicBool,
) -> Result<Option<IdBase>, Duplicate> {
    let entries = || {
        Box::new((0..node_bound).filter_map(move |n| {
            let record = node(n)?;
            let id = cols.get(ID_KEY, n)?.as_int()?;
            let labels = &shapes.get(record.shape()).labels;
            Some((&labels[..], id, NodeId(n as u32)))
        })) as Box<dyn Iterator<Item = _>>
    };
    IdBase::build(entries, cancel)
}

/// The error for two nodes with one `(label, id)`.
pub(crate) fn duplicate_error(catalog: &Catalog, d: Duplicate) -> StorageError {
    StorageError::DuplicateId {
        label: catalog.label_name(d.label).to_owned(),
        id: d.id,
    }
}

/// A graph's parts, built from raw lists or read from a graph file.
pub(crate) struct Built {
    pub(crate) nodes: Vec<Option<NodeRecord>>,
    pub(crate) adj: Adjacency,
    pub(crate) rels: Vec<Option<RelRecord>>,
    pub(crate) shapes: Shapes,
    pub(crate) node_cols: Columns,
    pub(crate) rel_cols: Columns,
    pub(crate) label_index: LabelIndex,
    pub(crate) node_count: usize,
    pub(crate) rel_count: usize,
}

/// The packed adjacency of `rels`, each list in the order `catalog` arms for it
/// (ranks read from `node_cols`, first-part labels from `labels`).
pub(crate) fn build_adjacency(
    catalog: &Catalog,
    node_bound: usize,
    rels: &[Option<RelRecord>],
    node_cols: &Columns,
    labels: &LabelIndex,
) -> Result<Csr, StorageError> {
    Csr::from_rels(node_bound, rels, |t, d| {
        ListOrder::of(catalog, node_cols, labels, t, d)
    })
}

/// Node records, relationship records, adjacency and the columns of both, from raw
/// lists.
fn build_records(
    catalog: &Catalog,
    nodes: Vec<Option<crate::RawNode>>,
    rels: Vec<Option<crate::RawRel>>,
) -> Result<Built, StorageError> {
    let node_bound = nodes.len();
    let mut built = Built {
        nodes: Vec::with_capacity(node_bound),
        adj: Adjacency::default(),
        rels: Vec::with_capacity(rels.len()),
        shapes: Shapes::default(),
        node_cols: Columns::default(),
        rel_cols: Columns::default(),
        label_index: LabelIndex::default(),
        node_count: 0,
        rel_count: 0,
    };
    for (slot, node) in nodes.into_iter().enumerate() {
        let Some(node) = node else {
            built.nodes.push(None);
            continue;
        };
        let data = node_data(catalog, node.labels, node.properties)?;
        let shape = built.shapes.intern_parts(&data.labels, &data.props)?;
        for (key, value) in data.props.into_vec() {
            built.node_cols.set(key, slot, value);
        }
        for &label in data.labels.iter() {
            built.label_index.insert(label, NodeId(slot as u32));
        }
        built.nodes.push(Some(NodeRecord::new(shape)));
        built.node_count += 1;
    }
    for (slot, rel) in rels.into_iter().enumerate() {
        let Some(rel) = rel else {
            built.rels.push(None);
            continue;
        };
        check_properties(catalog, &rel.properties)?;
        for end in [rel.src, rel.dst] {
            if !matches!(built.nodes.get(end.index()), Some(Some(_))) {
                return Err(StorageError::NodeNotFound(end));
            }
        }
        let props = normalise_properties(rel.properties);
        let shape = built.shapes.intern_parts(&[], &props)?;
        for (key, value) in props.into_vec() {
            built.rel_cols.set(key, slot, value);
        }
        built.rels.push(Some(RelRecord {
            rel_type: rel.rel_type,
            src: rel.src,
            dst: rel.dst,
            shape: PackedShape::new(shape),
        }));
        built.rel_count += 1;
    }
    let base = build_adjacency(
        catalog,
        node_bound,
        &built.rels,
        &built.node_cols,
        &built.label_index,
    )?;
    built.adj = Adjacency::from_base(base);
    built.node_cols.pack();
    built.rel_cols.pack();
    Ok(built)
}

/// Checks and normalises labels and properties.
pub(crate) fn node_data(
    catalog: &Catalog,
    labels: Vec<LabelId>,
    properties: Vec<(PropKeyId, Value)>,
) -> Result<NodeData, StorageError> {
    check_properties(catalog, &properties)?;
    Ok(NodeData::new(labels, properties))
}

/// Refuses values the store cannot hold.
pub(crate) fn check_properties(
    catalog: &Catalog,
    properties: &[(PropKeyId, Value)],
) -> Result<(), StorageError> {
    for (key, value) in properties {
        check_value(catalog, *key, value)?;
    }
    Ok(())
}

pub(crate) fn check_value(
    catalog: &Catalog,
    key: PropKeyId,
    value: &Value,
) -> Result<(), StorageError> {
    let bad = match value {
        Value::Map(_) => true,
        Value::List(items) => items
            .iter()
            .any(|v| matches!(v, Value::Map(_) | Value::List(_) | Value::Bytes(_))),
        _ => false,
    };
    if bad {
        return Err(StorageError::UnsupportedPropertyValue {
            key: catalog.prop_key_name(key).to_owned(),
            found: value.value_type().to_string(),
        });
    }
    if key == ID_KEY && !matches!(value, Value::Int(_) | Value::Null) {
        return Err(StorageError::IdNotInt(value.value_type().to_string()));
    }
    Ok(())
}

/// The external id of a node, if it has one.
pub(crate) fn external_id(record: &NodeData) -> Option<i64> {
    kith_core::lookup(&record.props, ID_KEY).and_then(Value::as_int)
}

/// Adds a record's `(label, id)` entries to the index (in the version `version`
/// builds), refusing duplicates.
pub(crate) fn index_node(
    catalog: &Catalog,
    index: &mut IdIndex,
    node: NodeId,
    record: &NodeData,
    version: u64,
) -> Result<(), StorageError> {
    let Some(id) = external_id(record) else {
        return Ok(());
    };
    for &label in record.labels.iter() {
        match index.get(label, id) {
            Some(other) if other != node => {
                return Err(StorageError::DuplicateId {
                    label: catalog.label_name(label).to_owned(),
                    id,
                });
            }
            Some(_) => {}
            None => index.insert(label, id, node, version),
        }
    }
    Ok(())
}

/// Removes a record's entries from the index (in the version `version` builds).
pub(crate) fn unindex_node(index: &mut IdIndex, record: &NodeData, version: u64) {
    if let Some(id) = external_id(record) {
        for &label in record.labels.iter() {
            index.remove(label, id, version);
        }
    }
}

impl GraphView for Snapshot {
    fn label_id(&self, name: &str) -> Option<LabelId> {
        self.catalog.find_label(name)
    }
    fn rel_type_id(&self, name: &str) -> Option<RelTypeId> {
        self.catalog.find_rel_type(name)
    }
    fn prop_key_id(&self, name: &str) -> Option<PropKeyId> {
        self.catalog.find_prop_key(name)
    }
    fn label_name(&self, id: LabelId) -> &str {
        self.catalog.label_name(id)
    }
    fn rel_type_name(&self, id: RelTypeId) -> &str {
        self.catalog.rel_type_name(id)
    }
    fn prop_key_name(&self, id: PropKeyId) -> &str {
        self.catalog.prop_key_name(id)
    }
    fn label_names(&self) -> Vec<String> {
        let c = &self.catalog;
        c.labels
            .ids()
            .map(|i| c.label_name(LabelId(i)).to_owned())
            .collect()
    }
    fn rel_type_names(&self) -> Vec<String> {
        let c = &self.catalog;
        let ids = c.rel_types.ids();
        ids.map(|i| c.rel_type_name(RelTypeId(i)).to_owned())
            .collect()
    }
    fn prop_key_names(&self) -> Vec<String> {
        let c = &self.catalog;
        let ids = c.prop_keys.ids();
        ids.map(|i| c.prop_key_name(PropKeyId(i)).to_owned())
            .collect()
    }
    fn node_id_bound(&self) -> usize {
        self.nodes.len()
    }
    fn node_count(&self) -> usize {
        self.node_count
    }
    fn rel_count(&self) -> usize {
        self.rel_count
    }
    fn contains_node(&self, node: NodeId) -> bool {
        self.node(node).is_some()
    }
    fn node_ids(&self) -> Box<dyn Iterator<Item = NodeId> + '_> {
        Box::new(
            self.nodes
                .iter()
                .enumerate()
                .filter(|(_, n)| n.is_some())
                .map(|(i, _)| NodeId(i as u32)),
        )
    }
    fn node_labels(&self, node: NodeId) -> &[LabelId] {
        self.node(node)
            .map_or(&[], |n| &self.shapes.get(n.shape()).labels)
    }
    fn node_properties(&self, node: NodeId) -> Vec<(PropKeyId, Value)> {
        self.node(node).map_or_else(Vec::new, |n| {
            self.gather(&self.node_cols, n.shape(), node.index())
        })
    }
    #[inline]
    fn node_property(&self, node: NodeId, key: PropKeyId) -> Option<Value> {
        // A deleted node's values are cleared with it: the column alone answers.
        self.node_cols.get(key, node.index())
    }
    #[inline]
    fn neighbors(&self, node: NodeId, rel_type: RelTypeId, direction: Direction) -> &[Edge] {
        self.adj.edges(node, rel_type, direction)
    }
    #[inline]
    fn edge_order(&self, rel_type: RelTypeId, direction: Direction) -> EdgeOrder {
        self.catalog.edge_order(rel_type, direction)
    }
    fn rel_types_at(&self, node: NodeId, direction: Direction) -> Vec<RelTypeId> {
        self.adj
            .groups(node)
            .filter(|g| g.1 == direction)
            .map(|g| g.0)
            .collect()
    }
    fn relationship(&self, rel: RelId) -> Option<RelView> {
        self.rel(rel).map(|r| RelView {
            id: rel,
            rel_type: r.rel_type,
            src: r.src,
            dst: r.dst,
        })
    }
    fn rel_properties(&self, rel: RelId) -> Vec<(PropKeyId, Value)> {
        self.rel(rel).map_or_else(Vec::new, |r| {
            self.gather(&self.rel_cols, r.shape.get(), rel.index())
        })
    }
    #[inline]
    fn rel_property(&self, rel: RelId, key: PropKeyId) -> Option<Value> {
        self.rel_cols.get(key, rel.index())
    }
    fn node_by_id(&self, label: LabelId, id: i64) -> Option<NodeId> {
        self.id_index.get(label, id)
    }
    #[inline]
    fn has_label(&self, node: NodeId, label: LabelId) -> bool {
        // The label's bitmap: a few small pages, where the record and its label list
        // are two reads of memory anywhere.
        self.label_index.contains(label, node)
    }
    fn nodes_with_label(&self, label: LabelId) -> Box<dyn Iterator<Item = NodeId> + '_> {
        Box::new(self.label_index.nodes(label))
    }
    fn label_count(&self, label: LabelId) -> Option<usize> {
        Some(self.label_index.count(label))
    }
    fn schema(&self) -> &Schema {
        &self.schema
    }
    fn nodes_with_property(
        &self,
        label: LabelId,
        key: PropKeyId,
        value: &Value,
        limit: usize,
    ) -> Vec<NodeId> {
        self.find_nodes(label, key, value, limit)
    }
    fn is_indexed(&self, label: LabelId, key: PropKeyId) -> bool {
        Snapshot::is_indexed(self, label, key)
    }
    fn nodes_with_values(
        &self,
        label: LabelId,
        keys: &[PropKeyId],
        values: &[Value],
    ) -> Option<Vec<NodeId>> {
        self.prop_indexes.lookup_tuple(label, keys, values)
    }
    fn nodes_in_range(
        &self,
        label: LabelId,
        key: PropKeyId,
        range: &ValueRange<'_>,
    ) -> Option<Vec<NodeId>> {
        self.prop_indexes.range(label, key, range)
    }
}
