//! Values while a query runs: property values plus nodes, relationships and paths.
//!
//! Lists and maps sit behind `Arc` so that copying a row (every expand copies its
//! input row) costs reference-count increments, not deep copies.

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use kith_core::{signed, GraphView, NodeId, Point, RelId, Str, Temporal, Value, ZonedDateTime};

/// A runtime value.
#[derive(Clone, Debug, Default)]
pub enum Val {
    /// `null`.
    #[default]
    Null,
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A string.
    Str(Str),
    /// A list.
    List(Arc<Vec<Val>>),
    /// A map, in key order of construction.
    Map(Arc<Vec<(Arc<str>, Val)>>),
    /// A node.
    Node(NodeId),
    /// A relationship.
    Rel(RelId),
    /// A path.
    Path(Arc<Path>),
    /// An instant, epoch milliseconds UTC: how the LDBC data stores its dates. Cypher's
    /// temporal functions read it as a `datetime` at UTC.
    DateTime(i64),
    /// A date, time, datetime... or duration (shared: rows copy values often).
    Temporal(Arc<Temporal>),
    /// A spatial point.
    Point(Arc<Point>),
    /// A byte array, as a driver sent it or the store holds it. Only what hands a
    /// value back keeps it a byte array; every other operation reads it as the list
    /// of its bytes as signed integers ([`listed`]), as Neo4j does.
    Bytes(Arc<[u8]>),
}

/// A path: `nodes.len() == rels.len() + 1`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Path {
    /// The nodes in order.
    pub nodes: Vec<NodeId>,
    /// The relationships between them.
    pub rels: Vec<RelId>,
}

impl Val {
    /// A string value.
    pub fn str(s: &str) -> Val {
        Val::Str(Str::new(s))
    }

    /// A list value.
    pub fn list(items: Vec<Val>) -> Val {
        Val::List(Arc::new(items))
    }

    /// Whether this is null.
    pub fn is_null(&self) -> bool {
        matches!(self, Val::Null)
    }

    /// The name of the value's type, for error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Val::Null => "Null",
            Val::Bool(_) => "Boolean",
            Val::Int(_) => "Integer",
            Val::Float(_) => "Float",
            Val::Str(_) => "String",
            Val::List(_) => "List",
            Val::Map(_) => "Map",
            Val::Node(_) => "Node",
            Val::Rel(_) => "Relationship",
            Val::Path(_) => "Path",
            Val::DateTime(_) => "DateTime",
            Val::Temporal(t) => t.type_name(),
            Val::Point(_) => "Point",
            Val::Bytes(_) => "ByteArray",
        }
    }

    /// A temporal value.
    pub fn temporal(t: Temporal) -> Val {
        Val::Temporal(Arc::new(t))
    }

    /// The value as a temporal one, epoch milliseconds read as a UTC datetime.
    pub fn as_temporal(&self) -> Option<Temporal> {
        match self {
            Val::Temporal(t) => Some(**t),
            Val::DateTime(ms) => Some(epoch_millis_datetime(*ms)),
            _ => None,
        }
    }

    /// A stored property value handed out by the store, moved (not copied) in.
    pub fn from_owned(v: Value) -> Val {
        match v {
            Value::String(s) => Val::Str(s),
            Value::Temporal(t) => Val::Temporal(t),
            other => Val::from_value(&other),
        }
    }

    /// A stored property value as a runtime value.
    pub fn from_value(v: &Value) -> Val {
        match v {
            Value::Null => Val::Null,
            Value::Bool(b) => Val::Bool(*b),
            Value::Int(i) => Val::Int(*i),
            // Each read of a stored NaN is a value of its own, as Neo4j reads a new one.
            Value::Float(f) if f.is_nan() => Val::Float(fresh_nan()),
            Value::Float(f) => Val::Float(*f),
            Value::String(s) => Val::Str(s.clone()),
            Value::DateTime(t) => Val::DateTime(*t),
            Value::Temporal(t) => Val::Temporal(t.clone()),
            Value::Point(p) => Val::Point(p.clone()),
            Value::Bytes(b) => Val::Bytes(b.clone()),
            Value::List(items) => Val::list(items.iter().map(Val::from_value).collect()),
            Value::Map(entries) => Val::Map(Arc::new(
                entries
                    .iter()
                    .map(|(k, v)| (k.clone(), Val::from_value(v)))
                    .collect(),
            )),
        }
    }

    /// A runtime value as a result value. Nodes become maps of their id, labels and
    /// properties; relationships of their id, type, ends and properties; paths of
    /// their nodes and relationships.
    pub fn to_value(&self, graph: &dyn GraphView) -> Value {
        match self {
            Val::Null => Value::Null,
            Val::Bool(b) => Value::Bool(*b),
            Val::Int(i) => Value::Int(*i),
            Val::Float(f) => Value::Float(canonical(*f)),
            Val::Str(s) => Value::String(s.clone()),
            Val::DateTime(t) => Value::DateTime(*t),
            Val::Temporal(t) => Value::Temporal(t.clone()),
            Val::Point(p) => Value::Point(p.clone()),
            Val::Bytes(b) => Value::Bytes(b.clone()),
            Val::List(items) => Value::List(items.iter().map(|v| v.to_value(graph)).collect()),
            Val::Map(entries) => Value::Map(
                entries
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_value(graph)))
                    .collect(),
            ),
            Val::Node(n) => node_value(graph, *n),
            Val::Rel(r) => rel_value(graph, *r),
            Val::Path(p) => Value::Map(vec![
                (
                    Arc::from("nodes"),
                    Value::List(p.nodes.iter().map(|n| node_value(graph, *n)).collect()),
                ),
                (
                    Arc::from("relationships"),
                    Value::List(p.rels.iter().map(|r| rel_value(graph, *r)).collect()),
                ),
            ]),
        }
    }
}

fn props_value(graph: &dyn GraphView, props: &[(kith_core::PropKeyId, Value)]) -> Value {
    Value::Map(props_entries(graph, props))
}

fn props_entries(
    graph: &dyn GraphView,
    props: &[(kith_core::PropKeyId, Value)],
) -> Vec<(Arc<str>, Value)> {
    props
        .iter()
        .map(|(k, v)| (Arc::from(graph.prop_key_name(*k)), v.clone()))
        .collect()
}

fn node_value(graph: &dyn GraphView, n: NodeId) -> Value {
    let labels = graph
        .node_labels(n)
        .iter()
        .map(|l| Value::string(graph.label_name(*l)))
        .collect();
    Value::Map(vec![
        (Arc::from("_id"), Value::Int(i64::from(n.0))),
        (Arc::from("_labels"), Value::List(labels)),
        (
            Arc::from("properties"),
            props_value(graph, &graph.node_properties(n)),
        ),
    ])
}

fn rel_value(graph: &dyn GraphView, r: RelId) -> Value {
    let Some(rel) = graph.relationship(r) else {
        return Value::Null;
    };
    let props = props_entries(graph, &graph.rel_properties(r));
    rel_map(
        r,
        graph.rel_type_name(rel.rel_type),
        rel.src,
        rel.dst,
        props,
    )
}

/// A relationship as kith's protocol gives it: `_id`, `_type`, `_start`, `_end` and
/// its `properties`.
pub(crate) fn rel_map(
    r: RelId,
    rel_type: &str,
    src: NodeId,
    dst: NodeId,
    props: Vec<(Arc<str>, Value)>,
) -> Value {
    Value::Map(vec![
        (Arc::from("_id"), Value::Int(i64::from(r.0))),
        (Arc::from("_type"), Value::string(rel_type)),
        (Arc::from("_start"), Value::Int(i64::from(src.0))),
        (Arc::from("_end"), Value::Int(i64::from(dst.0))),
        (Arc::from("properties"), Value::Map(props)),
    ])
}

/// Cypher equality: `None` is null (unknown), as when either side holds a null.
pub fn equals(a: &Val, b: &Val) -> Option<bool> {
    match (a, b) {
        (Val::Null, _) | (_, Val::Null) => None,
        (Val::Bytes(x), Val::Bytes(y)) => Some(x == y),
        (Val::Bytes(_), _) | (_, Val::Bytes(_)) => equals(&listed_ref(a), &listed_ref(b)),
        (Val::Int(x), Val::Float(y)) | (Val::Float(y), Val::Int(x)) => Some((*x as f64) == *y),
        (Val::List(x), Val::List(y)) => {
            if x.len() != y.len() {
                return Some(false);
            }
            let mut unknown = false;
            for (p, q) in x.iter().zip(y.iter()) {
                match equals(p, q) {
                    Some(false) => return Some(false),
                    None => unknown = true,
                    Some(true) => {}
                }
            }
            if unknown {
                None
            } else {
                Some(true)
            }
        }
        (Val::Map(x), Val::Map(y)) => {
            if x.len() != y.len() {
                return Some(false);
            }
            let mut unknown = false;
            for (k, v) in x.iter() {
                let Some((_, w)) = y.iter().find(|(k2, _)| k2 == k) else {
                    return Some(false);
                };
                match equals(v, w) {
                    Some(false) => return Some(false),
                    None => unknown = true,
                    Some(true) => {}
                }
            }
            if unknown {
                None
            } else {
                Some(true)
            }
        }
        _ => Some(same(a, b)),
    }
}

/// Equality of two non-null values of the same kind (different kinds are unequal).
fn same(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::Int(x), Val::Int(y)) => x == y,
        (Val::Float(x), Val::Float(y)) => x == y,
        (Val::Str(x), Val::Str(y)) => x == y,
        (Val::Node(x), Val::Node(y)) => x == y,
        (Val::Rel(x), Val::Rel(y)) => x == y,
        (Val::Path(x), Val::Path(y)) => x == y,
        (Val::DateTime(x), Val::DateTime(y)) => x == y,
        // Same system, same coordinates bit for bit (a 2D point never equals a 3D
        // one; -0.0 is not 0.0 in a point, as on Neo4j).
        (Val::Point(x), Val::Point(y)) => x == y,
        (Val::Temporal(_) | Val::DateTime(_), Val::Temporal(_) | Val::DateTime(_)) => {
            match (a.as_temporal(), b.as_temporal()) {
                (Some(Temporal::Duration(x)), Some(Temporal::Duration(y))) => x == y,
                (Some(x), Some(y)) => x.compare(&y) == Some(Ordering::Equal),
                _ => false,
            }
        }
        _ => false,
    }
}

/// `<`, `>`... : `None` when the values are not comparable (null, or different kinds).
pub fn compare(a: &Val, b: &Val) -> Option<Ordering> {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => Some(x.cmp(y)),
        (Val::Float(x), Val::Float(y)) => x.partial_cmp(y),
        (Val::Int(x), Val::Float(y)) => (*x as f64).partial_cmp(y),
        (Val::Float(x), Val::Int(y)) => x.partial_cmp(&(*y as f64)),
        (Val::Str(x), Val::Str(y)) => Some(x.cmp(y)),
        (Val::Bool(x), Val::Bool(y)) => Some(x.cmp(y)),
        (Val::DateTime(x), Val::DateTime(y)) => Some(x.cmp(y)),
        (Val::Temporal(_) | Val::DateTime(_), Val::Temporal(_) | Val::DateTime(_)) => {
            a.as_temporal()?.compare(&b.as_temporal()?)
        }
        // Points have no order, only equality (so `[p] < [p, 1]` holds, as on Neo4j).
        (Val::Point(x), Val::Point(y)) => (x == y).then_some(Ordering::Equal),
        (Val::Bytes(x), Val::Bytes(y)) => Some(signed(x).cmp(signed(y))),
        (Val::Bytes(_), Val::List(_)) | (Val::List(_), Val::Bytes(_)) => {
            compare(&listed_ref(a), &listed_ref(b))
        }
        (Val::List(x), Val::List(y)) => {
            for (p, q) in x.iter().zip(y.iter()) {
                match compare(p, q)? {
                    Ordering::Equal => {}
                    other => return Some(other),
                }
            }
            Some(x.len().cmp(&y.len()))
        }
        _ => None,
    }
}

/// The total order of ORDER BY (openCypher orderability): maps, nodes, relationships,
/// lists, paths, points, datetimes, strings, booleans, numbers, and null last.
pub fn order(a: &Val, b: &Val) -> Ordering {
    let (ra, rb) = (rank(a), rank(b));
    if ra != rb {
        return ra.cmp(&rb);
    }
    match (a, b) {
        // NaN sorts after every other number (and before null).
        (Val::Float(x), Val::Float(y)) if x.is_nan() || y.is_nan() => x.is_nan().cmp(&y.is_nan()),
        (Val::Float(x), Val::Int(_)) if x.is_nan() => Ordering::Greater,
        (Val::Int(_), Val::Float(y)) if y.is_nan() => Ordering::Less,
        (Val::Float(x), Val::Float(y)) => x.total_cmp(y),
        (Val::Int(_) | Val::Float(_), Val::Int(_) | Val::Float(_)) => {
            compare(a, b).unwrap_or_else(|| as_f64(a).total_cmp(&as_f64(b)))
        }
        (Val::Node(x), Val::Node(y)) => x.cmp(y),
        (Val::Rel(x), Val::Rel(y)) => x.cmp(y),
        (Val::Bytes(x), Val::Bytes(y)) => signed(x).cmp(signed(y)),
        (Val::Bytes(_), _) | (_, Val::Bytes(_)) => order(&listed_ref(a), &listed_ref(b)),
        (Val::List(x), Val::List(y)) => {
            for (p, q) in x.iter().zip(y.iter()) {
                match order(p, q) {
                    Ordering::Equal => {}
                    other => return other,
                }
            }
            x.len().cmp(&y.len())
        }
        // As Neo4j orders maps: by size, then their sorted keys, then the values in
        // that key order (null last, as everywhere).
        (Val::Map(x), Val::Map(y)) => x.len().cmp(&y.len()).then_with(|| {
            let (x, y) = (sorted_entries(x), sorted_entries(y));
            x.iter()
                .zip(&y)
                .map(|(p, q)| p.0.cmp(q.0))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
                .then_with(|| {
                    x.iter()
                        .zip(&y)
                        .map(|(p, q)| order(p.1, q.1))
                        .find(|o| o.is_ne())
                        .unwrap_or(Ordering::Equal)
                })
        }),
        (Val::Path(x), Val::Path(y)) => x.nodes.cmp(&y.nodes).then_with(|| x.rels.cmp(&y.rels)),
        (Val::Point(x), Val::Point(y)) => x.order(y),
        // The LDBC form against itself: no conversion on a sort's hot path.
        (Val::DateTime(x), Val::DateTime(y)) => x.cmp(y),
        (Val::Temporal(_) | Val::DateTime(_), Val::Temporal(_) | Val::DateTime(_)) => {
            match (a.as_temporal(), b.as_temporal()) {
                (Some(x), Some(y)) => x.order(&y),
                _ => Ordering::Equal,
            }
        }
        _ => compare(a, b).unwrap_or(Ordering::Equal),
    }
}

/// A map's entries by key.
fn sorted_entries(m: &[(Arc<str>, Val)]) -> Vec<(&str, &Val)> {
    let mut v: Vec<(&str, &Val)> = m.iter().map(|(k, v)| (&**k, v)).collect();
    v.sort_by(|a, b| a.0.cmp(b.0));
    v
}

/// A number as a float (0.0 for anything else: callers pass numbers).
pub(crate) fn as_f64(v: &Val) -> f64 {
    match v {
        Val::Int(i) => *i as f64,
        Val::Float(f) => *f,
        _ => 0.0,
    }
}

fn rank(v: &Val) -> u8 {
    match v {
        Val::Map(_) => 0,
        Val::Node(_) => 1,
        Val::Rel(_) => 2,
        Val::List(_) | Val::Bytes(_) => 3,
        Val::Path(_) => 4,
        Val::Point(_) => 5,
        Val::DateTime(_) | Val::Temporal(_) => 6,
        Val::Str(_) => 7,
        Val::Bool(_) => 8,
        Val::Int(_) | Val::Float(_) => 9,
        Val::Null => 10,
    }
}

/// NaN identities. Neo4j groups values by `equals`, under which no NaN equals another,
/// except that a hash table first compares identity: copies of one NaN (a literal
/// expression folded once, a parameter, a variable carried on) are one group, NaNs
/// computed row by row are a group each (`UNWIND [1, 2] AS i RETURN sqrt(-i), count(*)`
/// is two groups, `... RETURN 0.0 / 0.0, count(*)` one). kith carries that identity in
/// the NaN's payload: each NaN an evaluation computes gets a payload of its own, copies
/// keep it, and equivalence compares a NaN's bits. Values leave kith with the canonical
/// NaN ([`canonical`]).
const NAN_QUIET: u64 = 0x7ff8_0000_0000_0000;
/// Payloads of NaNs one expression node always gives (a literal computation).
const NAN_AT_NODE: u64 = 1 << 50;
const NAN_PAYLOAD: u64 = NAN_AT_NODE - 1;

static NAN_NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A NaN no other evaluation has given.
pub fn fresh_nan() -> f64 {
    let n = NAN_NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    f64::from_bits(NAN_QUIET | (n & NAN_PAYLOAD))
}

/// The NaN an expression node computed from literals gives every time (`node` is its
/// address: two nodes, two NaNs, as Neo4j folds each literal computation once).
pub fn nan_of_node(node: usize) -> f64 {
    f64::from_bits(NAN_QUIET | NAN_AT_NODE | (node as u64 & NAN_PAYLOAD))
}

/// `v`, a NaN of its own if it is one.
#[inline]
pub fn renewed(v: Val) -> Val {
    match v {
        Val::Float(f) if f.is_nan() => Val::Float(fresh_nan()),
        v => v,
    }
}

/// `f` as it leaves kith: any NaN the canonical one.
#[inline]
pub fn canonical(f: f64) -> f64 {
    if f.is_nan() {
        f64::NAN
    } else {
        f
    }
}

/// A value as a grouping key: DISTINCT and aggregation treat two values as one when
/// they are equivalent (nulls equal each other, 1 and 1.0 are one key).
#[derive(Clone, Debug, Default)]
pub struct Key(pub Val);

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        equivalent(&self.0, &other.0)
    }
}

impl Eq for Key {}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_val(&self.0, state);
    }
}

/// Equivalence: equality where null equals null.
pub fn equivalent(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::Null, Val::Null) => true,
        (Val::Bytes(_), _) | (_, Val::Bytes(_)) => equals(a, b) == Some(true),
        (Val::List(x), Val::List(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| equivalent(p, q))
        }
        (Val::Map(x), Val::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.iter().any(|(k2, w)| k == k2 && equivalent(v, w)))
        }
        // Copies of one NaN are one key; two NaNs computed apart are two (see `fresh_nan`).
        (Val::Float(x), Val::Float(y)) if x.is_nan() || y.is_nan() => x.to_bits() == y.to_bits(),
        _ => equals(a, b) == Some(true),
    }
}

fn hash_val<H: Hasher>(v: &Val, state: &mut H) {
    rank(v).hash(state);
    match v {
        Val::Null => {}
        Val::Bool(b) => b.hash(state),
        Val::Int(i) => i.hash(state),
        Val::Float(f) => {
            if f.fract() == 0.0 && f.abs() < 9.0e18 {
                (*f as i64).hash(state)
            } else {
                f.to_bits().hash(state)
            }
        }
        Val::Str(s) => s.hash(state),
        Val::List(items) => {
            items.len().hash(state);
            for i in items.iter() {
                hash_val(i, state);
            }
        }
        // As the list it equals.
        Val::Bytes(bytes) => {
            bytes.len().hash(state);
            for i in signed(bytes) {
                hash_val(&Val::Int(i), state);
            }
        }
        Val::Map(entries) => entries.len().hash(state),
        Val::Node(n) => n.hash(state),
        Val::Rel(r) => r.hash(state),
        Val::Path(p) => p.hash(state),
        // An epoch-millisecond datetime hashes as its milliseconds, and so does the
        // Temporal it equals; any other temporal value by its fields (equal instants
        // at different offsets are different values: equality compares the wall
        // clock too).
        Val::Point(p) => {
            p.crs().hash(state);
            for c in p.coords() {
                c.to_bits().hash(state);
            }
        }
        Val::DateTime(ms) => ms.hash(state),
        Val::Temporal(t) => match t.utc_epoch_millis() {
            Some(ms) => ms.hash(state),
            None => t.hash(state),
        },
    }
}

/// `v`, a byte array as the list of its bytes (signed, as Java reads them): how Neo4j
/// reads one everywhere but where a value is handed back as it is.
pub fn listed(v: Val) -> Val {
    match v {
        Val::Bytes(b) => bytes_list(&b),
        v => v,
    }
}

/// [`listed`] of a borrowed value.
pub fn listed_ref(v: &Val) -> std::borrow::Cow<'_, Val> {
    match v {
        Val::Bytes(b) => std::borrow::Cow::Owned(bytes_list(b)),
        v => std::borrow::Cow::Borrowed(v),
    }
}

fn bytes_list(b: &[u8]) -> Val {
    Val::list(signed(b).map(Val::Int).collect())
}

/// Epoch milliseconds as a datetime at UTC.
pub fn epoch_millis_datetime(ms: i64) -> Temporal {
    let utc = chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .naive_utc();
    Temporal::DateTime(ZonedDateTime::from_utc(utc, None, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equality_is_ternary() {
        assert_eq!(equals(&Val::Int(1), &Val::Float(1.0)), Some(true));
        assert_eq!(equals(&Val::Null, &Val::Int(1)), None);
        assert_eq!(equals(&Val::str("a"), &Val::Int(1)), Some(false));
        let l1 = Val::list(vec![Val::Int(1), Val::Null]);
        let l2 = Val::list(vec![Val::Int(2), Val::Null]);
        assert_eq!(equals(&l1, &l2), Some(false));
        assert_eq!(equals(&l1, &l1), None);
    }

    #[test]
    fn null_sorts_last() {
        let mut v = [Val::Null, Val::Int(2), Val::str("a"), Val::Float(1.5)];
        v.sort_by(order);
        assert!(matches!(v[0], Val::Str(_)));
        assert!(matches!(v[1], Val::Float(_)));
        assert!(matches!(v[3], Val::Null));
    }
}
