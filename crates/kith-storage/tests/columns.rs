//! Property values kept in columns: every kind of value, relationship properties set
//! and removed, deletes clearing what they held, older versions untouched, and a
//! graph file written from the columns reading back the same.

use kith_core::{GraphView, NodeId, PropKeyId, RelId, Value};
use kith_storage::{
    read_graph_file, write_graph_file, NodeRef, Snapshot, Store, WriteBatch, WriteOp,
};

fn key(g: &Snapshot, name: &str) -> PropKeyId {
    g.prop_key_id(name).expect("a known key")
}

fn values() -> Vec<(kith_storage::Name, Value)> {
    vec![
        ("i".into(), Value::Int(-7)),
        ("f".into(), Value::Float(1.5)),
        ("b".into(), Value::Bool(true)),
        ("d".into(), Value::DateTime(1_284_620_040_602)),
        ("s".into(), Value::string("text")),
        (
            "l".into(),
            Value::List(vec![Value::Int(1), Value::string("x")]),
        ),
    ]
}

/// Two nodes joined by a relationship, both with every kind of value.
fn graph() -> Store {
    let store = Store::new(Snapshot::empty());
    let mut batch = WriteBatch::new();
    for label in ["A", "B"] {
        batch.push(WriteOp::CreateNode {
            labels: vec![label.into()],
            properties: values(),
        });
    }
    batch.push(WriteOp::CreateRel {
        rel_type: "T".into(),
        src: NodeRef::Created(0),
        dst: NodeRef::Created(1),
        properties: values(),
    });
    store.apply(&batch).expect("applies");
    store
}

fn one(op: WriteOp) -> WriteBatch {
    WriteBatch { ops: vec![op] }
}

#[test]
fn every_kind_of_value_reads_back_for_nodes_and_relationships() {
    let g = graph().snapshot();
    let want: Vec<(PropKeyId, Value)> = values()
        .into_iter()
        .map(|(k, v)| (key(&g, &k), v))
        .collect();
    let mut sorted = want.clone();
    sorted.sort_by_key(|(k, _)| *k);
    assert_eq!(g.node_properties(NodeId(0)), sorted);
    assert_eq!(g.rel_properties(RelId(0)), sorted);
    for (k, v) in &want {
        assert_eq!(g.node_property(NodeId(1), *k).as_ref(), Some(v));
        assert_eq!(g.rel_property(RelId(0), *k).as_ref(), Some(v));
    }
    assert_eq!(
        g.node_property(NodeId(2), key(&g, "i")),
        None,
        "no such node"
    );
}

#[test]
fn relationship_properties_change_and_older_versions_keep_theirs() {
    let store = graph();
    let before = store.snapshot();
    let set = |k: &str, value: Value| {
        store
            .apply(&one(WriteOp::SetRelProperty {
                rel: RelId(0),
                key: k.into(),
                value,
            }))
            .expect("applies");
    };
    set("i", Value::string("now a string"));
    set("s", Value::Null);
    set("new", Value::Int(3));
    let g = store.snapshot();
    let names: Vec<&str> = g
        .rel_properties(RelId(0))
        .iter()
        .map(|(k, _)| g.prop_key_name(*k))
        .collect();
    assert_eq!(names, ["i", "f", "b", "d", "l", "new"]);
    assert_eq!(
        g.rel_property(RelId(0), key(&g, "i")),
        Some(Value::string("now a string"))
    );
    assert_eq!(g.rel_property(RelId(0), key(&g, "s")), None);
    assert_eq!(
        before.rel_property(RelId(0), key(&g, "i")),
        Some(Value::Int(-7))
    );
    assert_eq!(before.rel_properties(RelId(0)).len(), 6);
}

#[test]
fn deletes_clear_values_and_a_graph_file_reads_back_the_same() {
    let store = graph();
    store
        .apply(&one(WriteOp::SetNodeProperty {
            node: NodeRef::Node(NodeId(0)),
            key: "i".into(),
            value: Value::Null,
        }))
        .expect("applies");
    store
        .apply(&one(WriteOp::DeleteNode {
            node: NodeRef::Node(NodeId(1)),
            detach: true,
        }))
        .expect("applies");
    let g = store.snapshot();
    assert_eq!(g.node_properties(NodeId(1)), vec![]);
    assert_eq!(g.node_property(NodeId(1), key(&g, "s")), None);
    assert_eq!(g.rel_properties(RelId(0)), vec![]);
    assert_eq!(g.rel_property(RelId(0), key(&g, "s")), None);
    assert_eq!(g.node_property(NodeId(0), key(&g, "i")), None);
    assert_eq!(g.node_properties(NodeId(0)).len(), 5);

    let dir = tempfile::tempdir().expect("a scratch directory");
    let path = dir.path().join("graph.kith");
    write_graph_file(&g, &path).expect("writes");
    let loaded = Snapshot::from_raw(read_graph_file(&path).expect("reads")).expect("loads");
    for n in [NodeId(0), NodeId(1)] {
        assert_eq!(loaded.node_properties(n), g.node_properties(n));
        assert_eq!(loaded.node_labels(n), g.node_labels(n));
    }
    assert_eq!(loaded.rel_count(), 0);
}

#[test]
fn negative_zero_replaces_zero() {
    let store = graph();
    for value in [Value::Float(0.0), Value::Float(-0.0)] {
        store
            .apply(&one(WriteOp::SetNodeProperty {
                node: NodeRef::Node(NodeId(0)),
                key: "f".into(),
                value,
            }))
            .expect("applies");
    }
    let g = store.snapshot();
    match g.node_property(NodeId(0), key(&g, "f")) {
        Some(Value::Float(f)) => assert!(f == 0.0 && f.is_sign_negative(), "{f}"),
        other => panic!("{other:?}"),
    }
}
