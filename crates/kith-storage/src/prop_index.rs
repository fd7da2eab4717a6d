//! User-declared property indexes: `(label, key) -> value -> nodes`.
//!
//! Each index is a persistent hash map from value to a persistent ordered set of
//! nodes, so a version clone shares every index and a write copies one path per
//! change, like the external-id index. Declared indexes are few; they live in a short
//! vector searched linearly.

use std::hash::BuildHasherDefault;
use std::sync::Arc;

use kith_core::{LabelId, NodeId, PropKeyId, Value};
use rustc_hash::FxHasher;

use crate::node::NodeRecord;

/// A value as an index key. Only scalars are indexed; `1` and `1.0` are different
/// keys (lookups match the stored type exactly), and `-0.0` is stored as `0.0`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum IndexKey {
    Bool(bool),
    Int(i64),
    Float(u64),
    Str(Arc<str>),
    DateTime(i64),
}

impl IndexKey {
    /// The key of a value, or `None` for values that are not indexed (null, lists).
    pub(crate) fn of(value: &Value) -> Option<IndexKey> {
        Some(match value {
            Value::Bool(b) => IndexKey::Bool(*b),
            Value::Int(i) => IndexKey::Int(*i),
            Value::Float(f) => IndexKey::Float(if *f == 0.0 { 0f64 } else { *f }.to_bits()),
            Value::String(s) => IndexKey::Str(s.clone()),
            Value::DateTime(ms) => IndexKey::DateTime(*ms),
            Value::Null | Value::List(_) | Value::Map(_) => return None,
        })
    }
}

type NodeSet = imbl::OrdSet<NodeId>;
type ValueMap = imbl::GenericHashMap<
    IndexKey,
    NodeSet,
    BuildHasherDefault<FxHasher>,
    imbl::shared_ptr::DefaultSharedPtr,
>;

/// One declared index.
#[derive(Clone, Debug)]
struct PropIndex {
    label: LabelId,
    key: PropKeyId,
    entries: ValueMap,
}

/// Every declared property index of a version.
#[derive(Clone, Debug, Default)]
pub(crate) struct PropIndexes {
    indexes: Vec<PropIndex>,
}

impl PropIndexes {
    /// The declared `(label, key)` pairs, in declaration order.
    pub(crate) fn definitions(&self) -> Vec<(LabelId, PropKeyId)> {
        self.indexes.iter().map(|i| (i.label, i.key)).collect()
    }

    /// Whether `(label, key)` is indexed.
    pub(crate) fn contains(&self, label: LabelId, key: PropKeyId) -> bool {
        self.indexes
            .iter()
            .any(|i| i.label == label && i.key == key)
    }

    /// Declares an index and fills it from `nodes`; declaring twice is a no-op.
    pub(crate) fn declare<'a>(
        &mut self,
        label: LabelId,
        key: PropKeyId,
        nodes: impl Iterator<Item = (NodeId, &'a NodeRecord)>,
    ) {
        if self.contains(label, key) {
            return;
        }
        let mut index = PropIndex {
            label,
            key,
            entries: ValueMap::default(),
        };
        for (node, record) in nodes {
            index.insert(node, record);
        }
        self.indexes.push(index);
    }

    /// Drops an index; true if it existed.
    pub(crate) fn drop_index(&mut self, label: LabelId, key: PropKeyId) -> bool {
        let before = self.indexes.len();
        self.indexes.retain(|i| !(i.label == label && i.key == key));
        self.indexes.len() != before
    }

    /// Adds a node's entries to every index that covers it.
    pub(crate) fn insert(&mut self, node: NodeId, record: &NodeRecord) {
        for index in &mut self.indexes {
            index.insert(node, record);
        }
    }

    /// Removes a node's entries from every index that covers it.
    pub(crate) fn remove(&mut self, node: NodeId, record: &NodeRecord) {
        for index in &mut self.indexes {
            index.remove(node, record);
        }
    }

    /// The nodes of `label` whose `key` equals `value`, in id order; `None` when
    /// `(label, key)` is not indexed.
    pub(crate) fn lookup(
        &self,
        label: LabelId,
        key: PropKeyId,
        value: &Value,
    ) -> Option<Vec<NodeId>> {
        let index = self
            .indexes
            .iter()
            .find(|i| i.label == label && i.key == key)?;
        Some(
            IndexKey::of(value)
                .and_then(|k| index.entries.get(&k))
                .map_or_else(Vec::new, |set| set.iter().copied().collect()),
        )
    }

    /// Number of `(value, node)` entries over all indexes, for memory accounting.
    pub(crate) fn entry_count(&self) -> usize {
        self.indexes
            .iter()
            .map(|i| i.entries.values().map(|s| s.len()).sum::<usize>())
            .sum()
    }
}

impl PropIndex {
    fn key_of(&self, record: &NodeRecord) -> Option<IndexKey> {
        if record.labels.binary_search(&self.label).is_err() {
            return None;
        }
        kith_core::lookup(&record.props, self.key).and_then(IndexKey::of)
    }

    fn insert(&mut self, node: NodeId, record: &NodeRecord) {
        if let Some(key) = self.key_of(record) {
            self.entries.entry(key).or_default().insert(node);
        }
    }

    fn remove(&mut self, node: NodeId, record: &NodeRecord) {
        if let Some(key) = self.key_of(record) {
            if let Some(set) = self.entries.get_mut(&key) {
                set.remove(&node);
                if set.is_empty() {
                    self.entries.remove(&key);
                }
            }
        }
    }
}
