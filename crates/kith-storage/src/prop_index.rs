//! User-declared property indexes: `(label, key) -> value -> nodes`.
//!
//! Each index is a persistent ordered map (a B-tree) from value to the nodes holding
//! it, so a version clone shares every index and a write copies one path per change.
//! Ordered rather than hashed: values written in increasing order (ids, timestamps,
//! counters, the common case) all land on the rightmost path, which a commit group
//! copies once; a hash trie scattered them over thousands of paths and made indexed
//! writes five times slower than unindexed ones. Declared indexes are few; they live
//! in a short vector searched linearly.

use std::ops::Bound;

use kith_core::{IndexKind, LabelId, NodeId, PropKeyId, Value, ValueRange};

use crate::node::NodeData;

/// A value as an index key. Only scalars are indexed; `1` and `1.0` are different
/// keys (lookups match the stored type exactly), and `-0.0` is stored as `0.0`.
/// Within a kind keys order as their values do (floats by [`float_order`]), so a
/// range of values is a range of keys; across kinds the order means nothing.
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
    /// A composite index's key: one per property, numbers by [`IndexKey::loose`].
    Tuple(Box<[IndexKey]>),
}

impl IndexKey {
    /// The key of a value, or `None` for values that are not indexed (null, lists and
    /// byte arrays).
    pub(crate) fn of(value: &Value) -> Option<IndexKey> {
        Some(match value {
            Value::Bool(b) => IndexKey::Bool(*b),
            Value::Int(i) => IndexKey::Int(*i),
            Value::Float(f) => IndexKey::Float(float_order(*f)),
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
                    *b = ordered_bits(*c);
                }
                IndexKey::Point(p.crs().srid(), bits)
            }
            Value::Null | Value::List(_) | Value::Bytes(_) | Value::Map(_) => return None,
        })
    }
}

impl IndexKey {
    /// A value as one part of a composite key: as [`IndexKey::of`], except that a
    /// whole number is keyed as the float it equals, so `1` and `1.0` (equal to
    /// Cypher, and to a uniqueness constraint) are one key. Integers beyond 2^53 stay
    /// integers: a lookup with such a number must not rely on the index.
    pub(crate) fn loose(value: &Value) -> Option<IndexKey> {
        match value {
            Value::Int(i) if i.unsigned_abs() <= EXACT => {
                Some(IndexKey::Float(float_order(*i as f64)))
            }
            v => IndexKey::of(v),
        }
    }
}

const EXACT: u64 = kith_core::EXACT_INTEGERS;

/// A float's bits, made to order as the floats do: `-0.0` as `0.0`, negative values
/// below positive ones (NaNs at the two ends).
fn float_order(f: f64) -> u64 {
    ordered_bits(if f == 0.0 { 0f64 } else { f })
}

/// A float's bits in the floats' order, `-0.0` just below `0.0` (a point's
/// coordinates keep the two apart, as `=` on points does).
fn ordered_bits(f: f64) -> u64 {
    let bits = f.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

/// Whether an index of `kind` holds values keyed so.
fn holds(kind: IndexKind, key: &IndexKey) -> bool {
    match kind {
        IndexKind::Range => true,
        IndexKind::Text => matches!(key, IndexKey::Str(_)),
        IndexKind::Point => matches!(key, IndexKey::Point(..)),
    }
}

/// The key spans of points of `srid` whose x lies from `x_from` to `x_to` (the other
/// coordinates are the caller's to check); `x_from` above `x_to` wraps round: two
/// spans.
fn box_spans(srid: i64, x_from: f64, x_to: f64) -> Vec<(Bound<IndexKey>, Bound<IndexKey>)> {
    let at = |x: u64, rest: u64| IndexKey::Point(srid, [x, rest, rest]);
    // `-0.0` and `0.0` are two keys but one coordinate to a comparison: a bound at
    // zero takes both.
    let lo = ordered_bits(if x_from == 0.0 { -0.0 } else { x_from });
    let hi = ordered_bits(if x_to == 0.0 { 0.0 } else { x_to });
    let span = |lo: u64, hi: u64| {
        (
            Bound::Included(at(lo, 0)),
            Bound::Included(at(hi, u64::MAX)),
        )
    };
    if x_from <= x_to {
        vec![span(lo, hi)]
    } else {
        vec![span(lo, u64::MAX), span(0, hi)]
    }
}

/// The value whose kind a range searches: the lower bound's, else the upper's.
fn range_kind<'v>(lower: Bound<&'v Value>, upper: Bound<&'v Value>) -> Option<&'v Value> {
    match (lower, upper) {
        (Bound::Included(v) | Bound::Excluded(v), _) => Some(v),
        (Bound::Unbounded, Bound::Included(v) | Bound::Excluded(v)) => Some(v),
        (Bound::Unbounded, Bound::Unbounded) => None,
    }
}

/// The key spans that hold every value a range may hold, or `None` when the range's
/// kind of value is not ordered in the index (dates, booleans, points...). Numbers
/// span both integer and float keys; bounds are widened to inclusive ones (the caller
/// checks the predicate), which also keeps an integer bound exact against floats.
fn spans(
    lower: Bound<&Value>,
    upper: Bound<&Value>,
) -> Option<Vec<(Bound<IndexKey>, Bound<IndexKey>)>> {
    let kind = range_kind(lower, upper)?;
    // A bound of another kind than `kind` cannot narrow it: it is left open.
    let of = |b: Bound<&Value>, f: &dyn Fn(&Value) -> Option<IndexKey>, open: IndexKey| match b {
        Bound::Included(v) | Bound::Excluded(v) => Bound::Included(f(v).unwrap_or(open)),
        Bound::Unbounded => Bound::Included(open),
    };
    Some(match kind {
        Value::Int(_) | Value::Float(_) => {
            let int = |v: &Value| match v {
                Value::Int(i) => Some(IndexKey::Int(*i)),
                Value::Float(f) if f.is_nan() => None,
                // Saturating casts: a float beyond i64 bounds every integer.
                Value::Float(f) => Some(IndexKey::Int(*f as i64)),
                _ => None,
            };
            let float = |v: &Value| match v {
                Value::Int(i) => Some(IndexKey::Float(float_order(*i as f64))),
                Value::Float(f) if !f.is_nan() => Some(IndexKey::Float(float_order(*f))),
                _ => None,
            };
            // Cypher compares an integer with a float as two floats: beyond 2^53 many
            // integers round to one float, and a float bound cast to an integer
            // moves toward zero by less than one.
            let slack = |b: Bound<&Value>| match b {
                Bound::Included(Value::Float(f)) | Bound::Excluded(Value::Float(f))
                    if f.abs() >= 9_007_199_254_740_992.0 =>
                {
                    4096
                }
                _ => 1,
            };
            let widen = |b: Bound<IndexKey>, by: i64| match b {
                Bound::Included(IndexKey::Int(i)) => {
                    Bound::Included(IndexKey::Int(i.saturating_add(by)))
                }
                other => other,
            };
            vec![
                (
                    widen(of(lower, &int, IndexKey::Int(i64::MIN)), -slack(lower)),
                    widen(of(upper, &int, IndexKey::Int(i64::MAX)), slack(upper)),
                ),
                (
                    of(lower, &float, IndexKey::Float(0)),
                    of(upper, &float, IndexKey::Float(u64::MAX)),
                ),
            ]
        }
        Value::String(_) => {
            let str = |v: &Value| match v {
                Value::String(s) => Some(IndexKey::Str(s.clone())),
                _ => None,
            };
            let upper = match upper {
                Bound::Unbounded => Bound::Excluded(IndexKey::DateTime(i64::MIN)),
                b => of(b, &str, IndexKey::DateTime(i64::MIN)),
            };
            vec![(of(lower, &str, IndexKey::Str("".into())), upper)]
        }
        Value::DateTime(_) | Value::Temporal(_) => {
            let ms = |v: &Value| match v {
                Value::DateTime(ms) => Some(*ms),
                Value::Temporal(t) => t.utc_epoch_millis(),
                _ => None,
            };
            ms(kind)?;
            // Instants with sub-millisecond parts fall between two keys.
            let at =
                |by: i64| move |v: &Value| ms(v).map(|m| IndexKey::DateTime(m.saturating_add(by)));
            vec![
                (
                    of(lower, &at(-1), IndexKey::DateTime(i64::MIN)),
                    of(upper, &at(1), IndexKey::DateTime(i64::MAX)),
                ),
                // Datetimes at other offsets or finer than milliseconds are keyed by
                // their bytes, in no useful order: all of them are candidates.
                (
                    Bound::Included(IndexKey::Temporal(Box::new([]))),
                    Bound::Excluded(IndexKey::Point(i64::MIN, [0; 3])),
                ),
            ]
        }
        _ => return None,
    })
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

    fn extend_into(&self, out: &mut Vec<NodeId>) {
        match self {
            NodeSet::One(node) => out.push(*node),
            NodeSet::Many(set) => out.extend(set.iter().copied()),
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
    /// A composite's further keys (its entries are `IndexKey::Tuple`s); empty for
    /// one key.
    more: Box<[PropKeyId]>,
    kind: IndexKind,
    entries: ValueMap,
}

/// Every declared property index of a version.
#[derive(Clone, Debug, Default)]
pub(crate) struct PropIndexes {
    indexes: Vec<PropIndex>,
}

impl PropIndexes {
    /// The declared one-key `(label, key)` pairs, in declaration order.
    pub(crate) fn definitions(&self) -> Vec<(LabelId, PropKeyId)> {
        self.indexes
            .iter()
            .filter(|i| i.more.is_empty())
            .map(|i| (i.label, i.key))
            .collect()
    }

    /// The declared composites: label and keys in order.
    pub(crate) fn composites(&self) -> Vec<(LabelId, Vec<PropKeyId>)> {
        self.indexes
            .iter()
            .filter(|i| !i.more.is_empty())
            .map(|i| (i.label, i.keys().collect()))
            .collect()
    }

    /// Whether `(label, key)` has a one-key index.
    pub(crate) fn contains(&self, label: LabelId, key: PropKeyId) -> bool {
        self.find(label, key).is_some()
    }

    /// Declares a composite index on `keys` (two or more) of `label`, filled from
    /// `nodes`: the label's nodes with their values of the keys, in order (a node
    /// lacking one is not held). Declaring twice is a no-op.
    pub(crate) fn declare_composite(
        &mut self,
        label: LabelId,
        keys: &[PropKeyId],
        nodes: impl Iterator<Item = (NodeId, Vec<Option<Value>>)>,
    ) {
        assert!(keys.len() >= 2, "a composite index covers two keys or more");
        if self.find_composite(label, keys).is_some() {
            return;
        }
        let mut index = PropIndex {
            label,
            key: keys[0],
            more: keys[1..].into(),
            kind: IndexKind::Range,
            entries: ValueMap::default(),
        };
        for (node, values) in nodes {
            if let Some(key) = tuple_key(values.iter().map(Option::as_ref)) {
                index.add(node, key);
            }
        }
        self.indexes.push(index);
    }

    fn find_composite(&self, label: LabelId, keys: &[PropKeyId]) -> Option<&PropIndex> {
        self.indexes
            .iter()
            .find(|i| i.label == label && !i.more.is_empty() && i.keys().eq(keys.iter().copied()))
    }

    /// Drops a composite index; true if it existed.
    pub(crate) fn drop_composite(&mut self, label: LabelId, keys: &[PropKeyId]) -> bool {
        let before = self.indexes.len();
        self.indexes.retain(|i| {
            !(i.label == label && !i.more.is_empty() && i.keys().eq(keys.iter().copied()))
        });
        self.indexes.len() != before
    }

    /// The nodes of `label` whose `keys` hold `values` (one each, in the index's
    /// order), in id order; `None` when no composite index covers exactly `keys`, or
    /// a value is of a kind the index does not hold (or an integer beyond 2^53, which
    /// may equal floats the loose key keeps apart): the caller looks elsewhere.
    pub(crate) fn lookup_tuple(
        &self,
        label: LabelId,
        keys: &[PropKeyId],
        values: &[Value],
    ) -> Option<Vec<NodeId>> {
        let index = self.find_composite(label, keys)?;
        let exact = |v: &Value| {
            !matches!(v, Value::Int(_) | Value::Float(_)) || kith_core::compares_exactly(v)
        };
        if values.len() != keys.len() || !values.iter().all(exact) {
            return None;
        }
        let key = tuple_key(values.iter().map(Some))?;
        Some(
            index
                .entries
                .get(&key)
                .map_or_else(Vec::new, NodeSet::to_vec),
        )
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
            more: Box::new([]),
            kind: IndexKind::Range,
            entries: ValueMap::default(),
        };
        index.fill(nodes);
        self.indexes.push(index);
    }

    /// Makes the index on `(label, key)` one of `kind`, refilled from `nodes` (as
    /// for [`PropIndexes::declare`]); false when there is no such index.
    pub(crate) fn set_kind(
        &mut self,
        label: LabelId,
        key: PropKeyId,
        kind: IndexKind,
        nodes: impl Iterator<Item = (NodeId, Value)>,
    ) -> bool {
        let Some(index) = self.find_mut(label, key) else {
            return false;
        };
        if index.kind != kind {
            index.kind = kind;
            index.entries = ValueMap::default();
            index.fill(nodes);
        }
        true
    }

    fn find(&self, label: LabelId, key: PropKeyId) -> Option<&PropIndex> {
        self.indexes
            .iter()
            .find(|i| i.label == label && i.key == key && i.more.is_empty())
    }

    fn find_mut(&mut self, label: LabelId, key: PropKeyId) -> Option<&mut PropIndex> {
        self.indexes
            .iter_mut()
            .find(|i| i.label == label && i.key == key && i.more.is_empty())
    }

    /// Drops a one-key index; true if it existed.
    pub(crate) fn drop_index(&mut self, label: LabelId, key: PropKeyId) -> bool {
        let before = self.indexes.len();
        self.indexes
            .retain(|i| !(i.label == label && i.key == key && i.more.is_empty()));
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
    /// `(label, key)` is not indexed or its kind does not hold such values.
    pub(crate) fn lookup(
        &self,
        label: LabelId,
        key: PropKeyId,
        value: &Value,
    ) -> Option<Vec<NodeId>> {
        let index = self.find(label, key)?;
        let Some(k) = IndexKey::of(value) else {
            // Null, lists, maps, bytes: no index holds them, none equals a scalar.
            return (index.kind == IndexKind::Range).then(Vec::new);
        };
        if !holds(index.kind, &k) {
            return None;
        }
        Some(index.entries.get(&k).map_or_else(Vec::new, NodeSet::to_vec))
    }

    /// The nodes of `label` whose `key` may lie in `range` (a superset: see
    /// [`kith_core::GraphView::nodes_in_range`]), in value order; `None` when
    /// `(label, key)` is not indexed or the range's kind of value is not ordered.
    pub(crate) fn range(
        &self,
        label: LabelId,
        key: PropKeyId,
        range: &ValueRange<'_>,
    ) -> Option<Vec<NodeId>> {
        let index = self.find(label, key)?;
        let mut out = Vec::new();
        let strings = (
            Bound::Included(IndexKey::Str("".into())),
            Bound::Excluded(IndexKey::DateTime(i64::MIN)),
        );
        match range {
            ValueRange::Prefix(_) | ValueRange::Contains(_) | ValueRange::Suffix(_)
                if index.kind == IndexKind::Point =>
            {
                return None
            }
            ValueRange::Contains(part) | ValueRange::Suffix(part) => {
                let suffix = matches!(range, ValueRange::Suffix(_));
                for (k, set) in index.entries.range(strings) {
                    let IndexKey::Str(s) = k else { continue };
                    if (suffix && s.ends_with(part)) || (!suffix && s.contains(part)) {
                        set.extend_into(&mut out);
                    }
                }
            }
            ValueRange::Within { crs, x_from, x_to } => {
                if index.kind == IndexKind::Text || x_from.is_nan() || x_to.is_nan() {
                    return None;
                }
                for span in box_spans(crs.srid(), *x_from, *x_to) {
                    for (_, set) in index.entries.range(span) {
                        set.extend_into(&mut out);
                    }
                }
            }
            ValueRange::Prefix(prefix) => {
                let from = IndexKey::Str((*prefix).into());
                for (k, set) in index.entries.range(from..) {
                    match k {
                        IndexKey::Str(s) if s.starts_with(prefix) => set.extend_into(&mut out),
                        _ => break,
                    }
                }
            }
            ValueRange::Between { lower, upper } => {
                let strings = matches!(range_kind(*lower, *upper), Some(Value::String(_)));
                if !(index.kind == IndexKind::Range || index.kind == IndexKind::Text && strings) {
                    return None;
                }
                for span in spans(*lower, *upper)? {
                    if span_is_empty(&span) {
                        continue;
                    }
                    for (_, set) in index.entries.range(span) {
                        set.extend_into(&mut out);
                    }
                }
            }
        }
        Some(out)
    }

    /// Number of `(value, node)` entries over all indexes, for memory accounting.
    pub(crate) fn entry_count(&self) -> usize {
        self.indexes
            .iter()
            .map(|i| i.entries.values().map(NodeSet::len).sum::<usize>())
            .sum()
    }
}

/// Whether a span holds no key (a map's range panics on a reversed one).
fn span_is_empty((lo, hi): &(Bound<IndexKey>, Bound<IndexKey>)) -> bool {
    match (lo, hi) {
        (Bound::Included(a), Bound::Included(b)) => a > b,
        (Bound::Included(a) | Bound::Excluded(a), Bound::Included(b) | Bound::Excluded(b)) => {
            a >= b
        }
        _ => false,
    }
}

/// A composite key of values (one per key, `None` where the node lacks it): `None`
/// unless every value is present and of a kind the index holds.
fn tuple_key<'v>(values: impl Iterator<Item = Option<&'v Value>>) -> Option<IndexKey> {
    let parts: Option<Vec<IndexKey>> = values.map(|v| v.and_then(IndexKey::loose)).collect();
    Some(IndexKey::Tuple(parts?.into_boxed_slice()))
}

impl PropIndex {
    fn keys(&self) -> impl Iterator<Item = PropKeyId> + '_ {
        std::iter::once(self.key).chain(self.more.iter().copied())
    }

    fn key_of(&self, record: &NodeData) -> Option<IndexKey> {
        if record.labels.binary_search(&self.label).is_err() {
            return None;
        }
        if !self.more.is_empty() {
            return tuple_key(self.keys().map(|k| kith_core::lookup(&record.props, k)));
        }
        kith_core::lookup(&record.props, self.key)
            .and_then(IndexKey::of)
            .filter(|k| holds(self.kind, k))
    }

    fn fill(&mut self, nodes: impl Iterator<Item = (NodeId, Value)>) {
        for (node, value) in nodes {
            if let Some(key) = IndexKey::of(&value).filter(|k| holds(self.kind, k)) {
                self.add(node, key);
            }
        }
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
    fn composites_hold_nodes_with_every_key_and_numbers_by_value() {
        let (label, a, b) = (LabelId(1), PropKeyId(2), PropKeyId(3));
        let node = |props: Vec<(u16, Value)>| NodeData {
            labels: vec![label].into_boxed_slice(),
            props: props
                .into_iter()
                .map(|(k, v)| (PropKeyId(k), v))
                .collect::<Vec<_>>()
                .into_boxed_slice(),
        };
        let mut indexes = PropIndexes::default();
        indexes.declare_composite(label, &[a, b], std::iter::empty());
        let records = [
            node(vec![(2, Value::Int(1)), (3, Value::String("x".into()))]),
            node(vec![(2, Value::Float(1.0)), (3, Value::String("x".into()))]),
            node(vec![(2, Value::Int(1))]),
            node(vec![(2, Value::Int(1)), (3, Value::String("y".into()))]),
        ];
        for (i, r) in records.iter().enumerate() {
            indexes.insert(NodeId(i as u32), r);
        }
        let find = |ix: &PropIndexes, v: Value| {
            ix.lookup_tuple(label, &[a, b], &[v, Value::String("x".into())])
        };
        assert_eq!(
            find(&indexes, Value::Int(1)),
            Some(vec![NodeId(0), NodeId(1)])
        );
        assert_eq!(
            find(&indexes, Value::Float(1.0)),
            Some(vec![NodeId(0), NodeId(1)])
        );
        assert_eq!(
            find(&indexes, Value::Int(1 << 60)),
            None,
            "beyond 2^53: look elsewhere"
        );
        assert_eq!(
            indexes.lookup_tuple(label, &[b, a], &[Value::String("x".into()), Value::Int(1)]),
            None
        );
        assert_eq!(indexes.entry_count(), 3, "the node lacking `b` is not held");
        assert!(indexes.definitions().is_empty(), "no one-key index");
        assert!(!indexes.contains(label, a));
        indexes.remove(NodeId(0), &records[0]);
        assert_eq!(find(&indexes, Value::Int(1)), Some(vec![NodeId(1)]));
        assert!(indexes.drop_composite(label, &[a, b]));
        assert_eq!(indexes.entry_count(), 0);
    }

    #[test]
    fn float_keys_order_as_the_floats() {
        let floats = [
            f64::NEG_INFINITY,
            -1e300,
            -2.5,
            -1.0,
            -1e-300,
            0.0,
            1e-300,
            1.0,
            2.5,
            1e300,
            f64::INFINITY,
        ];
        let keys: Vec<u64> = floats.iter().map(|f| float_order(*f)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{keys:?}");
        assert_eq!(float_order(-0.0), float_order(0.0));
    }

    #[test]
    fn ranges_span_integers_and_floats_and_prefixes_stop_at_the_prefix() {
        let (label, key) = (LabelId(1), PropKeyId(2));
        let mut indexes = PropIndexes::default();
        let values = [
            Value::Int(1),
            Value::Float(1.5),
            Value::Int(3),
            Value::Float(-2.0),
            Value::String("ab".into()),
            Value::String("b".into()),
        ];
        indexes.declare(
            label,
            key,
            values
                .iter()
                .cloned()
                .enumerate()
                .map(|(i, v)| (NodeId(i as u32), v)),
        );
        let between = |lo: Value, hi: Value| {
            let range = ValueRange::Between {
                lower: Bound::Included(&lo),
                upper: Bound::Excluded(&hi),
            };
            let mut got = indexes.range(label, key, &range).expect("answered");
            got.sort();
            got
        };
        assert_eq!(
            between(Value::Int(1), Value::Int(3)),
            [NodeId(0), NodeId(1), NodeId(2)],
            "a superset: 3 is the caller's to drop"
        );
        assert_eq!(
            between(Value::Float(-3.0), Value::Float(0.0)),
            [NodeId(0), NodeId(3)],
            "float bounds widen by one over the integers"
        );
        assert_eq!(
            between(Value::String("a".into()), Value::String("az".into())),
            [NodeId(4)]
        );
        let prefix = indexes.range(label, key, &ValueRange::Prefix("a"));
        assert_eq!(prefix, Some(vec![NodeId(4)]));
        let bools = ValueRange::Between {
            lower: Bound::Included(&Value::Bool(true)),
            upper: Bound::Unbounded,
        };
        assert_eq!(
            indexes.range(label, key, &bools),
            None,
            "booleans are not ordered: scan"
        );
        let reversed = ValueRange::Between {
            lower: Bound::Excluded(&Value::Int(5)),
            upper: Bound::Excluded(&Value::Int(5)),
        };
        assert_eq!(
            indexes.range(label, key, &reversed).map(|v| v.len()),
            Some(0)
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
