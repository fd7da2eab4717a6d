//! Property tests of the store's two promises: adjacency always mirrors the
//! relationship list in both directions, and a reader's snapshot never changes while
//! the writer applies batches. Type `HAS_CREATOR` seen inward is kept newest first
//! by the neighbour's `creationDate`, `Post`s first (kith_core::ORDER_RULES); the
//! generated writes set, change and remove dates and add and remove `Post`: every
//! list must be in its order after each batch.

use std::cmp::Reverse;
use std::collections::BTreeMap;

use kith_core::edge_order::SortKey;
use kith_core::{Direction, Edge, EdgeOrder, GraphView, NodeId, RelId, Value};
use kith_storage::{NodeRef, Snapshot, Store, WriteBatch, WriteOp};
use proptest::prelude::*;

/// An operation over slots chosen by index modulo the current size, so every
/// generated sequence is meaningful whatever came before it.
#[derive(Clone, Debug)]
enum Action {
    CreateNode {
        label: u8,
        id: Option<i64>,
    },
    CreateRel {
        src: usize,
        dst: usize,
        rel_type: u8,
    },
    DeleteRel {
        rel: usize,
    },
    DeleteNode {
        node: usize,
        detach: bool,
    },
    SetProperty {
        node: usize,
        value: Option<i64>,
    },
    SetId {
        node: usize,
        id: i64,
    },
    AddLabel {
        node: usize,
        label: u8,
    },
    RemoveLabel {
        node: usize,
        label: u8,
    },
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        3 => (0u8..3, proptest::option::of(0i64..30))
            .prop_map(|(label, id)| Action::CreateNode { label, id }),
        5 => (any::<usize>(), any::<usize>(), 0u8..2)
            .prop_map(|(src, dst, rel_type)| Action::CreateRel { src, dst, rel_type }),
        1 => any::<usize>().prop_map(|rel| Action::DeleteRel { rel }),
        1 => (any::<usize>(), any::<bool>())
            .prop_map(|(node, detach)| Action::DeleteNode { node, detach }),
        // Few distinct dates, so equal ranks (ordered by node) are common too.
        2 => (any::<usize>(), proptest::option::weighted(0.8, -3i64..6))
            .prop_map(|(node, value)| Action::SetProperty { node, value }),
        1 => (any::<usize>(), 0i64..30).prop_map(|(node, id)| Action::SetId { node, id }),
        1 => (any::<usize>(), 0u8..3).prop_map(|(node, label)| Action::AddLabel { node, label }),
        1 => (any::<usize>(), 0u8..3).prop_map(|(node, label)| Action::RemoveLabel { node, label }),
    ]
}

/// Node labels the actions use; `Post` splits HAS_CREATOR lists into two parts.
const LABELS: [&str; 3] = ["L0", "L1", "Post"];

fn pick(bound: usize, i: usize) -> Option<u32> {
    (bound > 0).then(|| (i % bound) as u32)
}

fn to_op(graph: &Snapshot, action: &Action) -> Option<WriteOp> {
    let node = |i: usize| pick(graph.node_id_bound(), i).map(|n| NodeRef::Node(NodeId(n)));
    Some(match action.clone() {
        Action::CreateNode { label, id } => WriteOp::CreateNode {
            labels: vec![LABELS[usize::from(label)].into()],
            properties: id
                .map(|id| ("id".into(), Value::Int(id)))
                .into_iter()
                .collect(),
        },
        Action::CreateRel { src, dst, rel_type } => WriteOp::CreateRel {
            rel_type: ["T0", "HAS_CREATOR"][usize::from(rel_type)].into(),
            src: node(src)?,
            dst: node(dst)?,
            properties: vec![("w".into(), Value::Int(src as i64 % 7))],
        },
        Action::DeleteRel { rel } => WriteOp::DeleteRel {
            rel: RelId(pick(graph.rel_id_bound(), rel)?),
        },
        Action::DeleteNode { node: n, detach } => WriteOp::DeleteNode {
            node: node(n)?,
            detach,
        },
        Action::SetProperty { node: n, value } => WriteOp::SetNodeProperty {
            node: node(n)?,
            key: "creationDate".into(),
            value: value.map_or(Value::Null, Value::DateTime),
        },
        Action::SetId { node: n, id } => WriteOp::SetNodeProperty {
            node: node(n)?,
            key: "id".into(),
            value: Value::Int(id),
        },
        Action::AddLabel { node: n, label } => WriteOp::AddLabel {
            node: node(n)?,
            label: LABELS[usize::from(label)].into(),
        },
        Action::RemoveLabel { node: n, label } => WriteOp::RemoveLabel {
            node: node(n)?,
            label: LABELS[usize::from(label)].into(),
        },
    })
}

/// A node as seen through the view: id, labels, properties, adjacency lists.
type NodeDigest = (
    NodeId,
    Vec<String>,
    Vec<(String, Value)>,
    Vec<(String, Direction, Vec<Edge>)>,
);

/// Everything observable through the view, in a canonical order.
#[derive(Debug, PartialEq)]
struct Digest {
    nodes: Vec<NodeDigest>,
    rels: Vec<(RelId, String, NodeId, NodeId)>,
}

fn digest(g: &Snapshot) -> Digest {
    let nodes = g
        .node_ids()
        .map(|n| {
            let labels = g
                .node_labels(n)
                .iter()
                .map(|l| g.label_name(*l).to_owned())
                .collect();
            let props = g
                .node_properties(n)
                .iter()
                .map(|(k, v)| (g.prop_key_name(*k).to_owned(), v.clone()))
                .collect();
            let mut adjacency = Vec::new();
            for direction in [Direction::Out, Direction::In] {
                for t in g.rel_types_at(n, direction) {
                    adjacency.push((
                        g.rel_type_name(t).to_owned(),
                        direction,
                        g.neighbors(n, t, direction).to_vec(),
                    ));
                }
            }
            (n, labels, props, adjacency)
        })
        .collect();
    let rels = (0..g.rel_id_bound() as u32)
        .filter_map(|r| g.relationship(RelId(r)))
        .map(|r| (r.id, g.rel_type_name(r.rel_type).to_owned(), r.src, r.dst))
        .collect();
    Digest { nodes, rels }
}

/// The key `g` keeps `edge` by in a list of `rel_type` seen in `direction`.
fn sort_key(g: &Snapshot, t: kith_core::RelTypeId, d: Direction, edge: Edge) -> SortKey {
    match g.edge_order(t, d) {
        EdgeOrder::ByNode => (false, Reverse(0), edge),
        EdgeOrder::NewestFirst { key, first } => {
            let in_first = first.is_some_and(|l| g.has_label(edge.node, l));
            kith_core::edge_order::sort_key(
                in_first,
                g.node_property(edge.node, key).as_ref(),
                edge,
            )
        }
    }
}

/// Adjacency equals the relationship list seen from both ends, each list in its
/// order, and the external-id index holds exactly the live `(label, id)` pairs.
fn check_invariants(g: &Snapshot) {
    let mut expected: BTreeMap<(NodeId, String, Direction), Vec<Edge>> = BTreeMap::new();
    let mut live_rels = 0;
    for r in 0..g.rel_id_bound() as u32 {
        let Some(rel) = g.relationship(RelId(r)) else {
            continue;
        };
        live_rels += 1;
        assert!(
            g.contains_node(rel.src) && g.contains_node(rel.dst),
            "dangling rel {r}"
        );
        let t = g.rel_type_name(rel.rel_type).to_owned();
        expected
            .entry((rel.src, t.clone(), Direction::Out))
            .or_default()
            .push(Edge {
                node: rel.dst,
                rel: rel.id,
            });
        expected
            .entry((rel.dst, t, Direction::In))
            .or_default()
            .push(Edge {
                node: rel.src,
                rel: rel.id,
            });
    }
    assert_eq!(live_rels, g.rel_count());
    let mut actual = BTreeMap::new();
    let mut live_nodes = 0;
    for n in g.node_ids() {
        live_nodes += 1;
        for direction in [Direction::Out, Direction::In] {
            for t in g.rel_types_at(n, direction) {
                let edges = g.neighbors(n, t, direction).to_vec();
                assert!(
                    edges
                        .windows(2)
                        .all(|w| sort_key(g, t, direction, w[0]) < sort_key(g, t, direction, w[1])),
                    "list out of order at {n}"
                );
                // Every neighbour is found where its edges are.
                for e in &edges {
                    let run = g.edges_to(n, t, direction, e.node);
                    assert!(run.contains(e), "edges_to misses {e:?} at {n}");
                    assert!(run.iter().all(|x| x.node == e.node));
                }
                assert!(!edges.is_empty(), "empty list kept at {n}");
                actual.insert((n, g.rel_type_name(t).to_owned(), direction), edges);
            }
        }
        if let Some(Value::Int(id)) = g.node_property(n, kith_storage::ID_KEY) {
            for &label in g.node_labels(n) {
                assert_eq!(g.node_by_id(label, id), Some(n), "index misses node {n}");
            }
        }
    }
    assert_eq!(live_nodes, g.node_count());
    // The label lists hold exactly the live nodes carrying each label, in id order.
    for label in LABELS.iter().filter_map(|l| g.label_id(l)) {
        let scanned: Vec<NodeId> = g
            .node_ids()
            .filter(|&n| g.node_labels(n).contains(&label))
            .collect();
        for n in 0..g.node_id_bound() as u32 {
            assert_eq!(
                g.has_label(NodeId(n), label),
                scanned.contains(&NodeId(n)),
                "node {n}, label {label}"
            );
        }
        // The external-id index answers exactly the live (label, id) pairs: no
        // entry outlives its node, label or id, through any number of folds.
        for id in 0..30 {
            let holder = scanned
                .iter()
                .copied()
                .find(|&n| g.node_property(n, kith_storage::ID_KEY) == Some(Value::Int(id)));
            assert_eq!(g.node_by_id(label, id), holder, "label {label}, id {id}");
        }
        let listed: Vec<NodeId> = g.nodes_with_label(label).collect();
        assert_eq!(listed, scanned, "label {label}");
        assert_eq!(g.label_count(label), Some(scanned.len()));
    }
    for ((_, t, d), edges) in expected.iter_mut() {
        let t = g.rel_type_id(t).expect("a live type has an id");
        edges.sort_by_key(|e| sort_key(g, t, *d, *e));
    }
    assert_eq!(actual, expected);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn adjacency_mirrors_relationships(batches in prop::collection::vec(prop::collection::vec(action(), 1..6), 1..40)) {
        let mut store = Store::new(Snapshot::empty());
        for (i, actions) in batches.iter().enumerate() {
            let before = store.snapshot();
            let mut batch = WriteBatch::new();
            for a in actions {
                if let Some(op) = to_op(&before, a) {
                    batch.push(op);
                }
            }
            match store.apply(&batch) {
                Ok(info) => prop_assert_eq!(info.version, before.version() + 1),
                Err(_) => {
                    // A refused batch leaves no trace at all.
                    let after = store.snapshot();
                    prop_assert_eq!(after.version(), before.version());
                    prop_assert_eq!(digest(&after), digest(&before));
                }
            }
            check_invariants(&store.snapshot());
            // Folding the changed adjacency into the packed base changes no answer;
            // every fourth batch the writes go on over the folded base.
            let mut folded = Snapshot::clone(&store.snapshot());
            folded.compact();
            prop_assert_eq!(folded.adjacency_delta_len(), 0);
            prop_assert_eq!(folded.id_index_delta_len(), 0);
            prop_assert_eq!(digest(&folded), digest(&store.snapshot()));
            if i % 4 == 3 {
                store = Store::new(folded);
            }
        }
    }

    #[test]
    fn snapshots_never_change_under_readers(
        seed in prop::collection::vec(action(), 10..40),
        batches in prop::collection::vec(prop::collection::vec(action(), 1..8), 5..30),
    ) {
        let store = Store::new(Snapshot::empty());
        let mut first = WriteBatch::new();
        for a in &seed {
            if let Some(op) = to_op(&store.snapshot(), a) {
                if matches!(op, WriteOp::CreateNode { .. }) { first.push(op); }
            }
        }
        let _ = store.apply(&first);
        let held = store.snapshot();
        let expected = digest(&held);
        std::thread::scope(|scope| {
            let reader = scope.spawn(|| {
                for _ in 0..50 {
                    assert_eq!(digest(&held), expected);
                    std::thread::yield_now();
                }
            });
            for actions in &batches {
                let current = store.snapshot();
                let mut batch = WriteBatch::new();
                for a in actions {
                    if let Some(op) = to_op(&current, a) { batch.push(op); }
                }
                let _ = store.apply(&batch);
            }
            reader.join().expect("reader saw a change");
        });
        prop_assert_eq!(digest(&held), expected);
    }
}

#[test]
fn bulk_load_and_writes_agree() {
    // The same graph built by the bulk loader and by one write per element must be
    // indistinguishable through the view.
    let mut raw = kith_storage::RawGraph::default();
    let l = raw.catalog.label("P").expect("label");
    // HAS_CREATOR is kept newest first inward: the loader sorts, writes insert.
    let types = [
        raw.catalog.rel_type("F").expect("type"),
        raw.catalog.rel_type("HAS_CREATOR").expect("type"),
    ];
    let date_key = raw.catalog.prop_key("creationDate").expect("key");
    let date = |i: i64| Value::DateTime((i * 37) % 11);
    let mut nodes = Vec::new();
    for i in 0..50 {
        nodes.push(
            raw.add_node(
                vec![l],
                vec![(kith_storage::ID_KEY, Value::Int(i)), (date_key, date(i))],
            )
            .expect("node"),
        );
    }
    let store = Store::new(Snapshot::empty());
    let mut batch = WriteBatch::new();
    for i in 0..50 {
        batch.push(WriteOp::CreateNode {
            labels: vec!["P".into()],
            properties: vec![
                ("id".into(), Value::Int(i)),
                ("creationDate".into(), date(i)),
            ],
        });
    }
    for i in 0..200u32 {
        // `+ i / 50`: each target gets several sources, so ordered lists have work.
        let (a, b) = ((i * 7 + i / 50) % 50, (i * 13 + 5) % 50);
        let t = i as usize % 2;
        raw.add_rel(types[t], nodes[a as usize], nodes[b as usize], vec![])
            .expect("rel");
        batch.push(WriteOp::CreateRel {
            rel_type: ["F", "HAS_CREATOR"][t].into(),
            src: NodeRef::ById {
                label: "P".into(),
                id: i64::from(a),
            },
            dst: NodeRef::Created(b as usize),
            properties: vec![],
        });
    }
    store.apply(&batch).expect("valid batch");
    let bulk = Snapshot::from_raw(raw).expect("valid graph");
    check_invariants(&bulk);
    assert_eq!(digest(&bulk), digest(&store.snapshot()));
    // Writes over a loaded (packed) base and over written lists agree too: types on
    // either side of the loaded one, both directions, and deletes of loaded edges.
    let bulk_store = Store::new(bulk);
    let mut more = WriteBatch::new();
    for i in 0..60u32 {
        let (a, b) = ((i * 11) % 50, (i * 17 + 3) % 50);
        let by_id = |n: u32| NodeRef::ById {
            label: "P".into(),
            id: i64::from(n),
        };
        more.push(WriteOp::CreateRel {
            rel_type: ["A", "F", "Z"][i as usize % 3].into(),
            src: by_id(a),
            dst: by_id(b),
            properties: vec![],
        });
    }
    for rel in (0..200).step_by(7) {
        more.push(WriteOp::DeleteRel { rel: RelId(rel) });
    }
    // New dates move nodes within the ordered lists they are in; a removed one
    // sends them last.
    for n in (0..50u32).step_by(3) {
        more.push(WriteOp::SetNodeProperty {
            node: NodeRef::ById {
                label: "P".into(),
                id: i64::from(n),
            },
            key: "creationDate".into(),
            value: if n % 2 == 0 {
                Value::DateTime(i64::from(n) * 5 % 13)
            } else {
                Value::Null
            },
        });
    }
    bulk_store.apply(&more).expect("valid batch");
    store.apply(&more).expect("valid batch");
    check_invariants(&bulk_store.snapshot());
    assert_eq!(digest(&bulk_store.snapshot()), digest(&store.snapshot()));
}

#[test]
fn the_store_folds_a_grown_delta_in_the_background_without_changing_answers() {
    let store = Store::new(Snapshot::empty());
    let pair = |i: i64| {
        let mut batch = WriteBatch::new();
        for id in [2 * i, 2 * i + 1] {
            batch.push(WriteOp::CreateNode {
                labels: vec!["P".into()],
                properties: vec![("id".into(), Value::Int(id))],
            });
        }
        batch.push(WriteOp::CreateRel {
            rel_type: "F".into(),
            src: NodeRef::Created(0),
            dst: NodeRef::Created(1),
            properties: vec![],
        });
        batch
    };
    // One batch touching 70,000 nodes' lists: more than a fold's threshold.
    let mut big = WriteBatch::new();
    for i in 0..35_000 {
        for op in pair(i).ops {
            big.push(match op {
                WriteOp::CreateRel { rel_type, .. } => WriteOp::CreateRel {
                    rel_type,
                    src: NodeRef::Created(2 * i as usize),
                    dst: NodeRef::Created(2 * i as usize + 1),
                    properties: vec![],
                },
                op => op,
            });
        }
    }
    store.apply(&big).expect("valid batch");
    let held = store.snapshot();
    assert_eq!(held.adjacency_delta_len(), 70_000);
    assert_eq!(held.id_index_delta_len(), 70_000);
    let expected = digest(&held);
    // Writes go on while the fold runs; one of them picks its result up.
    let mut next = 35_000;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while store.snapshot().adjacency_delta_len() >= 70_000 {
        assert!(std::time::Instant::now() < deadline, "no fold finished");
        store.apply(&pair(next)).expect("valid batch");
        next += 1;
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let now = store.snapshot();
    // Only the pairs written after the folded version are left in the deltas (the
    // external-id index folds with the adjacency).
    assert!(now.adjacency_delta_len() <= 2 * (next - 35_000) as usize);
    assert!(now.id_index_delta_len() <= 2 * (next - 35_000) as usize);
    for id in [0, 69_999, 2 * next - 1] {
        let n = now.node_by_id(now.label_id("P").expect("label"), id);
        assert_eq!(
            n.and_then(|n| now.node_property(n, kith_storage::ID_KEY)),
            Some(Value::Int(id))
        );
    }
    check_invariants(&now);
    let mut folded = Snapshot::clone(&now);
    folded.compact();
    assert_eq!(digest(&folded), digest(&now));
    // The version a reader held is untouched, and its graph is a prefix of now's.
    assert_eq!(digest(&held), expected);
    assert_eq!(now.rel_count(), next as usize);
    for n in held.node_ids() {
        assert_eq!(
            held.neighbors(n, kith_core::RelTypeId(0), Direction::Out),
            now.neighbors(n, kith_core::RelTypeId(0), Direction::Out)
        );
    }
}

#[test]
fn duplicate_ids_are_refused_and_leave_nothing() {
    let store = Store::new(Snapshot::empty());
    let mut batch = WriteBatch::new();
    batch.push(WriteOp::CreateNode {
        labels: vec!["P".into()],
        properties: vec![("id".into(), Value::Int(1))],
    });
    store.apply(&batch).expect("first");
    let mut batch = WriteBatch::new();
    batch.push(WriteOp::CreateNode {
        labels: vec!["Q".into()],
        properties: vec![],
    });
    batch.push(WriteOp::CreateNode {
        labels: vec!["P".into()],
        properties: vec![("id".into(), Value::Int(1))],
    });
    let err = store.apply(&batch).expect_err("duplicate");
    assert_eq!(
        err.to_string(),
        "a node with label P and id 1 already exists"
    );
    assert_eq!(store.snapshot().node_count(), 1);
}

#[test]
fn bad_values_and_references_are_typed_errors() {
    let store = Store::new(Snapshot::empty());
    let op = |op| WriteBatch { ops: vec![op] };
    let err = store
        .apply(&op(WriteOp::CreateNode {
            labels: vec![],
            properties: vec![("id".into(), Value::string("x"))],
        }))
        .expect_err("id must be int");
    assert!(matches!(err, kith_storage::StorageError::IdNotInt(_)));
    let err = store
        .apply(&op(WriteOp::CreateNode {
            labels: vec![],
            properties: vec![("m".into(), Value::Map(vec![]))],
        }))
        .expect_err("maps refused");
    assert!(err.to_string().contains("property `m`"), "{err}");
    let err = store
        .apply(&op(WriteOp::DeleteNode {
            node: NodeRef::ById {
                label: "P".into(),
                id: 9,
            },
            detach: true,
        }))
        .expect_err("absent");
    assert_eq!(err.to_string(), "no node with label P and id 9");
    let err = store
        .apply(&op(WriteOp::DeleteRel { rel: RelId(3) }))
        .expect_err("absent");
    assert_eq!(err.to_string(), "relationship 3 does not exist");
}

#[test]
fn a_label_older_than_its_rule_splits_the_lists_from_the_next_load_on() {
    // `Post` exists before HAS_CREATOR's rule arms (its key comes last): nodes
    // already carry it, so the live lists cannot be split by it, only dated; a
    // load builds every list and splits them.
    let store = Store::new(Snapshot::empty());
    let mut batch = WriteBatch::new();
    batch.push(WriteOp::CreateNode {
        labels: vec!["Person".into()],
        properties: vec![],
    });
    // NodeRef::Created counts created nodes: the person is 0, messages 1 to 3.
    for (label, message) in [("Post", 1), ("Comment", 2), ("Post", 3)] {
        batch.push(WriteOp::CreateNode {
            labels: vec![label.into()],
            properties: vec![],
        });
        batch.push(WriteOp::CreateRel {
            rel_type: "HAS_CREATOR".into(),
            src: NodeRef::Created(message),
            dst: NodeRef::Created(0),
            properties: vec![],
        });
    }
    store.apply(&batch).expect("valid batch");
    let mut dates = WriteBatch::new();
    for (node, date) in [(1, 1), (2, 2), (3, 3)] {
        dates.push(WriteOp::SetNodeProperty {
            node: NodeRef::Node(NodeId(node)),
            key: "creationDate".into(),
            value: Value::DateTime(date),
        });
    }
    store.apply(&dates).expect("valid batch");
    let live = store.snapshot();
    check_invariants(&live);
    let t = live.rel_type_id("HAS_CREATOR").expect("type");
    let nodes = |g: &Snapshot| -> Vec<u32> {
        g.neighbors(NodeId(0), t, Direction::In)
            .iter()
            .map(|e| e.node.0)
            .collect()
    };
    assert!(matches!(
        live.edge_order(t, Direction::In),
        EdgeOrder::NewestFirst { first: None, .. }
    ));
    assert_eq!(nodes(&live), [3, 2, 1]);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("graph.kith");
    kith_storage::write_graph_file(&live, &path).expect("writes");
    let loaded =
        Snapshot::from_raw(kith_storage::read_graph_file(&path).expect("reads")).expect("builds");
    check_invariants(&loaded);
    assert!(matches!(
        loaded.edge_order(t, Direction::In),
        EdgeOrder::NewestFirst { first: Some(_), .. }
    ));
    // Posts (3, 1) newest first, then the comment.
    assert_eq!(nodes(&loaded), [3, 1, 2]);
    // A later label change moves the edge between the parts.
    let loaded = Store::new(loaded);
    let mut relabel = WriteBatch::new();
    relabel.push(WriteOp::RemoveLabel {
        node: NodeRef::Node(NodeId(3)),
        label: "Post".into(),
    });
    relabel.push(WriteOp::AddLabel {
        node: NodeRef::Node(NodeId(2)),
        label: "Post".into(),
    });
    loaded.apply(&relabel).expect("valid batch");
    check_invariants(&loaded.snapshot());
    assert_eq!(nodes(&loaded.snapshot()), [2, 1, 3]);
}

#[test]
fn a_rule_whose_type_comes_last_takes_its_label_at_once() {
    // The key and `Post` exist before the first HAS_CREATOR: no list of the type
    // existed when the rule armed, so the label joins it then, not at a load.
    let store = Store::new(Snapshot::empty());
    let mut batch = WriteBatch::new();
    batch.push(WriteOp::CreateNode {
        labels: vec!["Person".into()],
        properties: vec![],
    });
    for (label, date) in [("Post", 1), ("Comment", 3), ("Post", 2)] {
        batch.push(WriteOp::CreateNode {
            labels: vec![label.into()],
            properties: vec![("creationDate".into(), Value::DateTime(date))],
        });
    }
    store.apply(&batch).expect("valid batch");
    let mut rels = WriteBatch::new();
    for message in 1..=3 {
        rels.push(WriteOp::CreateRel {
            rel_type: "HAS_CREATOR".into(),
            src: NodeRef::Node(NodeId(message)),
            dst: NodeRef::Node(NodeId(0)),
            properties: vec![],
        });
    }
    store.apply(&rels).expect("valid batch");
    let g = store.snapshot();
    check_invariants(&g);
    let t = g.rel_type_id("HAS_CREATOR").expect("type");
    assert!(matches!(
        g.edge_order(t, Direction::In),
        EdgeOrder::NewestFirst { first: Some(_), .. }
    ));
    let order: Vec<u32> = g
        .neighbors(NodeId(0), t, Direction::In)
        .iter()
        .map(|e| e.node.0)
        .collect();
    // Posts newest first (3: date 2, 1: date 1), then the comment.
    assert_eq!(order, [3, 1, 2]);
}
