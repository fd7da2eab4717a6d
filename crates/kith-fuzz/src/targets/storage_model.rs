//! The store against a plain model: the same write batches applied to both, every
//! observable answer compared after each.

use std::collections::{BTreeMap, BTreeSet};

use arbitrary::{Arbitrary, Unstructured};
use kith_core::{Direction, GraphView, NodeId, RelId, Value};
use kith_storage::{NodeRef, Snapshot, Store, WriteBatch, WriteOp};

const LABELS: [&str; 3] = ["A", "B", "Post"];
const TYPES: [&str; 2] = ["R", "HAS_CREATOR"];
const KEYS: [&str; 3] = ["id", "v", "creationDate"];

/// One operation; node and relationship numbers pick among all ever created
/// (deleted ones included, to test that they are refused).
#[derive(Arbitrary, Debug)]
enum Op {
    CreateNode {
        label: u8,
        id: Option<u8>,
    },
    CreateRel {
        src: u8,
        dst: u8,
        rel_type: u8,
        w: i8,
    },
    SetNode {
        node: u8,
        key: u8,
        value: Option<i8>,
    },
    SetRel {
        rel: u8,
        value: Option<i8>,
    },
    AddLabel {
        node: u8,
        label: u8,
    },
    RemoveLabel {
        node: u8,
        label: u8,
    },
    DeleteNode {
        node: u8,
        detach: bool,
    },
    DeleteRel {
        rel: u8,
    },
}

#[derive(Clone, Debug, Default, PartialEq)]
struct MNode {
    labels: BTreeSet<String>,
    props: BTreeMap<String, Value>,
}

/// A node as the model knows it: by id, or the n-th created by the batch not yet
/// applied (the store hands out its id).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Id(NodeId),
    Pending(usize),
}

#[derive(Clone, Debug, PartialEq)]
struct MRel {
    src: Key,
    dst: Key,
    rel_type: String,
    props: BTreeMap<String, Value>,
}

/// The model: what the graph holds, and every node and relationship ever made.
#[derive(Clone, Debug, Default)]
struct Model {
    nodes: BTreeMap<Key, MNode>,
    rels: BTreeMap<RelId, MRel>,
    node_keys: Vec<Key>,
    rel_ids: Vec<RelId>,
    /// Relationships the batch creates (their ids come with the commit); `None` for
    /// one the batch deleted again.
    pending_rels: Vec<Option<MRel>>,
}

/// Batches of operations: each is applied to the store and the model; a batch the
/// model refuses must be refused whole by the store and change nothing; after each,
/// every node, label, property, relationship and adjacency list must agree.
pub fn storage_model(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let mut store = Store::new(Snapshot::empty());
    let mut model = Model::default();
    let mut batches = 0;
    while !u.is_empty() && batches < 24 {
        let Ok(ops) = Vec::<Op>::arbitrary(&mut u) else {
            break;
        };
        if ops.is_empty() || ops.len() > 12 {
            continue;
        }
        batches += 1;
        step(&mut store, &mut model, &ops);
        if batches % 5 == 0 {
            // Folding the adjacency delta into the packed base changes no answer.
            let mut folded = Snapshot::clone(&store.snapshot());
            folded.compact();
            compare(&folded, &model);
            store = Store::new(folded);
        }
    }
}

fn step(store: &mut Store, model: &mut Model, ops: &[Op]) {
    let mut next = model.clone();
    let mut batch = WriteBatch::new();
    let mut created = 0usize;
    let mut ok = true;
    for op in ops {
        let (write, valid) = translate(&mut next, op, &mut created);
        batch.push(write);
        ok &= valid;
    }
    let before = store.snapshot();
    match store.apply(&batch) {
        Ok(info) => {
            assert!(ok, "the store accepted a batch the model refuses: {ops:?}");
            assert_eq!(info.created.len(), created);
            next.bind_created(&info.created, &info.created_rels);
            *model = next;
        }
        Err(e) => {
            assert!(
                !ok,
                "the store refused a batch the model accepts: {ops:?}: {e}"
            );
            let after = store.snapshot();
            assert_eq!(
                after.version(),
                before.version(),
                "a refused batch left a version"
            );
        }
    }
    compare(&store.snapshot(), model);
}

/// The write for `op`, and whether the model accepts it (applying it if so).
fn translate(m: &mut Model, op: &Op, created: &mut usize) -> (WriteOp, bool) {
    match *op {
        Op::CreateNode { label, id } => {
            let label = LABELS[usize::from(label) % LABELS.len()];
            let mut node = MNode::default();
            node.labels.insert(label.into());
            if let Some(id) = id {
                node.props
                    .insert("id".into(), Value::Int(i64::from(id % 8)));
            }
            let write = WriteOp::CreateNode {
                labels: vec![label.into()],
                properties: node
                    .props
                    .iter()
                    .map(|(k, v)| (k.as_str().into(), v.clone()))
                    .collect(),
            };
            let valid = !m.id_taken(&node, None);
            let key = Key::Pending(*created);
            *created += 1;
            m.node_keys.push(key);
            m.nodes.insert(key, node);
            (write, valid)
        }
        Op::CreateRel {
            src,
            dst,
            rel_type,
            w,
        } => {
            let (src, dst) = (m.pick_node(src), m.pick_node(dst));
            let rel_type = TYPES[usize::from(rel_type) % TYPES.len()];
            let props = BTreeMap::from([("w".to_string(), Value::Int(i64::from(w)))]);
            let write = WriteOp::CreateRel {
                rel_type: rel_type.into(),
                src: node_ref(src),
                dst: node_ref(dst),
                properties: vec![("w".into(), Value::Int(i64::from(w)))],
            };
            let valid = m.nodes.contains_key(&src) && m.nodes.contains_key(&dst);
            m.pending_rels.push(Some(MRel {
                src,
                dst,
                rel_type: rel_type.into(),
                props,
            }));
            (write, valid)
        }
        Op::SetNode { node, key, value } => {
            let n = m.pick_node(node);
            let key = KEYS[usize::from(key) % KEYS.len()];
            let value = match (key, value) {
                (_, None) => Value::Null,
                ("creationDate", Some(v)) => Value::DateTime(i64::from(v % 6)),
                (_, Some(v)) => Value::Int(i64::from(v % 8)),
            };
            let write = WriteOp::SetNodeProperty {
                node: node_ref(n),
                key: key.into(),
                value: value.clone(),
            };
            let Some(mut changed) = m.nodes.get(&n).cloned() else {
                return (write, false);
            };
            set(&mut changed.props, key, value);
            let valid = !m.id_taken(&changed, Some(n));
            m.nodes.insert(n, changed);
            (write, valid)
        }
        Op::SetRel { rel, value } => {
            let r = m.pick_rel(rel);
            let value = value.map_or(Value::Null, |v| Value::Int(i64::from(v)));
            let write = WriteOp::SetRelProperty {
                rel: r,
                key: "w".into(),
                value: value.clone(),
            };
            match m.rels.get_mut(&r) {
                Some(rel) => {
                    set(&mut rel.props, "w", value);
                    (write, true)
                }
                None => (write, false),
            }
        }
        Op::AddLabel { node, label } | Op::RemoveLabel { node, label } => {
            let n = m.pick_node(node);
            let label = LABELS[usize::from(label) % LABELS.len()];
            let add = matches!(op, Op::AddLabel { .. });
            let write = if add {
                WriteOp::AddLabel {
                    node: node_ref(n),
                    label: label.into(),
                }
            } else {
                WriteOp::RemoveLabel {
                    node: node_ref(n),
                    label: label.into(),
                }
            };
            let Some(mut changed) = m.nodes.get(&n).cloned() else {
                return (write, false);
            };
            if add {
                changed.labels.insert(label.into());
            } else {
                changed.labels.remove(label);
            }
            let valid = !m.id_taken(&changed, Some(n));
            m.nodes.insert(n, changed);
            (write, valid)
        }
        Op::DeleteNode { node, detach } => {
            let n = m.pick_node(node);
            let write = WriteOp::DeleteNode {
                node: node_ref(n),
                detach,
            };
            if !m.nodes.contains_key(&n) {
                return (write, false);
            }
            let touches = |r: &MRel| r.src == n || r.dst == n;
            let pending = m.pending_rels.iter().flatten().any(touches);
            if !detach && (m.rels.values().any(touches) || pending) {
                return (write, false);
            }
            m.rels.retain(|_, r| !touches(r));
            for r in &mut m.pending_rels {
                if r.as_ref().is_some_and(touches) {
                    *r = None;
                }
            }
            m.nodes.remove(&n);
            (write, true)
        }
        Op::DeleteRel { rel } => {
            let r = m.pick_rel(rel);
            let valid = m.rels.remove(&r).is_some();
            (WriteOp::DeleteRel { rel: r }, valid)
        }
    }
}

fn set(props: &mut BTreeMap<String, Value>, key: &str, value: Value) {
    if value == Value::Null {
        props.remove(key);
    } else {
        props.insert(key.into(), value);
    }
}

fn node_ref(key: Key) -> NodeRef {
    match key {
        Key::Id(id) => NodeRef::Node(id),
        Key::Pending(i) => NodeRef::Created(i),
    }
}

impl Model {
    fn pick_node(&self, i: u8) -> Key {
        if self.node_keys.is_empty() {
            return Key::Id(NodeId(1000));
        }
        self.node_keys[usize::from(i) % self.node_keys.len()]
    }

    fn pick_rel(&self, i: u8) -> RelId {
        if self.rel_ids.is_empty() {
            return RelId(1000);
        }
        self.rel_ids[usize::from(i) % self.rel_ids.len()]
    }

    /// Whether another node sharing one of `node`'s labels has its integer `id`.
    fn id_taken(&self, node: &MNode, me: Option<Key>) -> bool {
        let Some(id @ Value::Int(_)) = node.props.get("id") else {
            return false;
        };
        self.nodes.iter().any(|(k, other)| {
            Some(*k) != me
                && other.props.get("id") == Some(id)
                && other.labels.intersection(&node.labels).next().is_some()
        })
    }

    /// After a commit: the batch's nodes and relationships under their ids.
    fn bind_created(&mut self, nodes: &[NodeId], rels: &[RelId]) {
        let id = |k: Key| match k {
            Key::Pending(i) => Key::Id(nodes[i]),
            other => other,
        };
        self.nodes = std::mem::take(&mut self.nodes)
            .into_iter()
            .map(|(k, n)| (id(k), n))
            .collect();
        self.node_keys = self.node_keys.iter().map(|k| id(*k)).collect();
        for r in &mut self.rels.values_mut() {
            (r.src, r.dst) = (id(r.src), id(r.dst));
        }
        assert_eq!(rels.len(), self.pending_rels.len(), "relationships created");
        for (rel_id, r) in rels.iter().zip(std::mem::take(&mut self.pending_rels)) {
            if let Some(mut r) = r {
                (r.src, r.dst) = (id(r.src), id(r.dst));
                self.rels.insert(*rel_id, r);
            }
            self.rel_ids.push(*rel_id);
        }
    }
}

/// One entry of an adjacency list: type, neighbour, relationship.
type Hop = (String, NodeId, RelId);

/// Everything the store answers equals the model.
fn compare(g: &Snapshot, m: &Model) {
    assert_eq!(g.node_count(), m.nodes.len(), "node count");
    assert_eq!(g.rel_count(), m.rels.len(), "relationship count");
    let mut adjacency: BTreeMap<(NodeId, Direction), Vec<Hop>> = BTreeMap::new();
    for (id, r) in &m.rels {
        let (Key::Id(src), Key::Id(dst)) = (r.src, r.dst) else {
            panic!("a relationship's end was never bound");
        };
        let view = g
            .relationship(*id)
            .unwrap_or_else(|| panic!("relationship {id:?} missing"));
        assert_eq!(
            (view.src, view.dst),
            (src, dst),
            "relationship {id:?}'s ends"
        );
        assert_eq!(g.rel_type_name(view.rel_type), r.rel_type);
        assert_eq!(
            named(g, g.rel_properties(*id)),
            r.props,
            "relationship {id:?}'s properties"
        );
        adjacency
            .entry((src, Direction::Out))
            .or_default()
            .push((r.rel_type.clone(), dst, *id));
        adjacency
            .entry((dst, Direction::In))
            .or_default()
            .push((r.rel_type.clone(), src, *id));
    }
    for (key, node) in &m.nodes {
        let Key::Id(n) = *key else {
            panic!("a node was never bound");
        };
        assert!(g.contains_node(n), "node {n:?} missing");
        let labels: BTreeSet<String> = g
            .node_labels(n)
            .iter()
            .map(|l| g.label_name(*l).to_owned())
            .collect();
        assert_eq!(labels, node.labels, "node {n:?}'s labels");
        assert_eq!(
            named(g, g.node_properties(n)),
            node.props,
            "node {n:?}'s properties"
        );
        for label in &node.labels {
            if let Some(Value::Int(id)) = node.props.get("id") {
                let l = g.label_id(label).expect("a label in use is known");
                assert_eq!(
                    g.node_by_id(l, *id),
                    Some(n),
                    "the id index of {label} {id}"
                );
            }
        }
        for direction in [Direction::Out, Direction::In] {
            let mut seen = Vec::new();
            for t in g.rel_types_at(n, direction) {
                for e in g.neighbors(n, t, direction) {
                    seen.push((g.rel_type_name(t).to_owned(), e.node, e.rel));
                }
            }
            seen.sort();
            let mut want = adjacency.remove(&(n, direction)).unwrap_or_default();
            want.sort();
            assert_eq!(seen, want, "node {n:?}'s {direction:?} list");
        }
    }
}

fn named(g: &Snapshot, props: Vec<(kith_core::PropKeyId, Value)>) -> BTreeMap<String, Value> {
    props
        .into_iter()
        .map(|(k, v)| (g.prop_key_name(k).to_owned(), v))
        .collect()
}
