//! User-declared property indexes: `(label, key) -> value -> nodes`.
//!
//! Each index is a persistent ordered map (a B-tree) from value to the nodes holding
//! it, so a version clone shares every index and a write copies one path per change.
//! Ordered rather than hashed: values written in increasing order (ids, timestamps,
//! counters, the common case) all land on the rightmost path, which a commit group
//! copies once; a hash trie scattered them over thousands of paths and made indexed
//! writes five times slower than unindexed ones. Declared indexes are few; they live
//! in a short vector searched linearly.

use kith_core::{LabelId, NodeId, PropKeyId, Value};

use crate::node::NodeData;

/// A value as an index key. Only scalars are indexed; `1` and `1.0` are different
/// keys (lookups match the stored type exactly), and `-0.0` is stored as `0.0`.
/// (The order is only for the map's sake: floats order by their bits.)
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum IndexKey {
    Bool(bool),
    Int(i64),
    Float(u64),
    Str(kith_core::Str),
    DateTime(i64),
    /// A temporal value's stored bytes: equal values have equal bytes. The order is
    /// not the timeline's, so the index answers equality only for these.
    Temporal(Box<[u8]>),
    /// A point by its SRID and coordinates' bits (-0.0 is not 0.0 in a point, as
    /// `=` says): equality only, as for temporal values.
    Point(i64, [u64; 3]),
}

impl IndexKey {
    /// The key of a value, or `None` for values that are not indexed (null, lists and
    /// byte arrays).
    pub(crate) fn of(value: &Value) -> Option<IndexKey> {
        Some(match value {
            Value::Bool(b) => IndexKey::Bool(*b),
            Value::Int(i) => IndexKey::Int(*i),
            Value::Float(f) => IndexKey::Float(if *f == 0.0 { 0f64 } else { *f }.to_bits()),
            Value::String(s) => IndexKey::Str(s.clone()),
            Value::DateTime(ms) => IndexKey::DateTime(*ms),
            Value::Temporal(t) => match t.utc_epoch_millis() {
                // Cypher's `=` holds between such a datetime and the LDBC data's
                // epoch-millisecond one: one key, so a uniqueness constraint sees both.
                Some(ms) => IndexKey::DateTime(ms),
                None => {
                    let mut bytes = Vec::new();
                    crate::temporal_codec::put(&mut bytes, t);
                    IndexKey::Temporal(bytes.into_boxed_slice())
                }
            },
            Value::Point(p) => {
                let mut bits = [0; 3];
                for (b, c) in bits.iter_mut().zip(p.coords()) {
                    *b = c.to_bits();
                }
                IndexKey::Point(p.crs().srid(), bits)
            }
            Value::Null | Value::List(_) | Value::Bytes(_) | Value::Map(_) => return None,
        })
    }
}

/// The nodes holding one value. Most indexed values are held by one node (emails,
/// user names), and an ordered set allocates a whole tree node per value: storing the
/// single node inline made indexed inserts several times faster.
#[derive(Clone, Debug)]
enum NodeSet {
    One(NodeId),
    Many(imbl::OrdSet<NodeId>),
}

impl NodeSet {
    fn insert(&mut self, node: NodeId) {
        match self {
            NodeSet::One(existing) if *existing == node => {}
            NodeSet::One(existing) => {
                *self = NodeSet::Many([*existing, node].into_iter().collect());
            }
            NodeSet::Many(set) => {
                set.insert(node);
            }
        }
    }

    /// Removes `node`; true when nothing is left.
    fn remove(&mut self, node: NodeId) -> bool {
        match self {
            NodeSet::One(existing) => *existing == node,
            NodeSet::Many(set) => {
                set.remove(&node);
                if set.len() == 1 {
                    if let Some(last) = set.get_min().copied() {
                        *self = NodeSet::One(last);
                    }
                }
                false
            }
        }
    }

    fn len(&self) -> usize {
        match self {
            NodeSet::One(_) => 1,
            NodeSet::Many(set) => set.len(),
        }
    }

    fn to_vec(&self) -> Vec<NodeId> {
        match self {
            NodeSet::One(node) => vec![*node],
            NodeSet::Many(set) => set.iter().copied().collect(),
        }
    }
}

type ValueMap = imbl::OrdMap<IndexKey, NodeSet>;

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

    /// Declares an index and fills it from `nodes`: the label's nodes with their
    /// value of the key. Declaring twice is a no-op.
    pub(crate) fn declare(
        &mut self,
        label: LabelId,
        key: PropKeyId,
        nodes: impl Iterator<Item = (NodeId, Value)>,
    ) {
        if self.contains(label, key) {
            return;
        }
        let mut index = PropIndex {
            label,
            key,
            entries: ValueMap::default(),
        };
        for (node, value) in nodes {
            if let Some(key) = IndexKey::of(&value) {
                index.add(node, key);
            }
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
    pub(crate) fn insert(&mut self, node: NodeId, record: &NodeData) {
        for index in &mut self.indexes {
            index.insert(node, record);
        }
    }

    /// Removes a node's entries from every index that covers it.
    pub(crate) fn remove(&mut self, node: NodeId, record: &NodeData) {
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
                .map_or_else(Vec::new, NodeSet::to_vec),
        )
    }

    /// Number of `(value, node)` entries over all indexes, for memory accounting.
    pub(crate) fn entry_count(&self) -> usize {
        self.indexes
            .iter()
            .map(|i| i.entries.values().map(NodeSet::len).sum::<usize>())
            .sum()
    }
}

impl PropIndex {
    fn key_of(&self, record: &NodeData) -> Option<IndexKey> {
        if record.labels.binary_search(&self.label).is_err() {
            return None;
        }
        kith_core::lookup(&record.props, self.key).and_then(IndexKey::of)
    }

    fn insert(&mut self, node: NodeId, record: &NodeData) {
        if let Some(key) = self.key_of(record) {
            self.add(node, key);
        }
    }

    fn add(&mut self, node: NodeId, key: IndexKey) {
        match self.entries.get_mut(&key) {
            Some(set) => set.insert(node),
            None => {
                self.entries.insert(key, NodeSet::One(node));
            }
        }
    }

    fn remove(&mut self, node: NodeId, record: &NodeData) {
        if let Some(key) = self.key_of(record) {
            if let Some(set) = self.entries.get_mut(&key) {
                if set.remove(node) {
                    self.entries.remove(&key);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(label: u16, key: u16, value: Value) -> NodeData {
        NodeData {
            labels: vec![LabelId(label)].into_boxed_slice(),
            props: vec![(PropKeyId(key), value)].into_boxed_slice(),
        }
    }

    #[test]
    fn shared_values_grow_and_shrink_back() {
        let (label, key) = (LabelId(1), PropKeyId(2));
        let mut indexes = PropIndexes::default();
        indexes.declare(label, key, std::iter::empty());
        let city = Value::String("Oslo".into());
        let records: Vec<NodeData> = (0..3).map(|_| record(1, 2, city.clone())).collect();
        for (i, r) in records.iter().enumerate().rev() {
            indexes.insert(NodeId(i as u32), r);
        }
        let find = |ix: &PropIndexes| ix.lookup(label, key, &city).expect("indexed");
        assert_eq!(find(&indexes), vec![NodeId(0), NodeId(1), NodeId(2)]);
        let before = indexes.clone();
        indexes.remove(NodeId(1), &records[1]);
        indexes.remove(NodeId(0), &records[0]);
        assert_eq!(find(&indexes), vec![NodeId(2)]);
        assert_eq!(find(&before).len(), 3, "a clone is a separate version");
        indexes.remove(NodeId(2), &records[2]);
        assert!(find(&indexes).is_empty());
        assert_eq!(indexes.entry_count(), 0);
        // Other labels, other keys and unindexable values stay out.
        indexes.insert(NodeId(7), &record(9, 2, city.clone()));
        indexes.insert(NodeId(8), &record(1, 3, city.clone()));
        indexes.insert(NodeId(9), &record(1, 2, Value::List(vec![])));
        assert_eq!(indexes.entry_count(), 0);
        assert_eq!(
            indexes.lookup(label, PropKeyId(3), &city),
            None,
            "not indexed"
        );
    }

    #[test]
    fn floats_match_by_value_and_types_stay_apart() {
        assert_eq!(
            IndexKey::of(&Value::Float(-0.0)),
            IndexKey::of(&Value::Float(0.0))
        );
        assert_ne!(
            IndexKey::of(&Value::Int(1)),
            IndexKey::of(&Value::Float(1.0))
        );
        assert_eq!(IndexKey::of(&Value::Null), None);
    }
}
