//! Schema changes: named indexes, uniqueness constraints and stored procedures are
//! enforced, refused with their reason, and survive recovery from the log and from a
//! checkpoint.

use std::path::Path;

use kith_core::{GraphView, SchemaOp, Value};
use kith_storage::{Database, DatabaseOptions, NodeRef, StorageError, WriteBatch, WriteOp};

fn open(dir: &Path) -> Database {
    Database::open(dir, DatabaseOptions::default())
        .expect("opens")
        .0
}

fn commit(db: &Database, ops: Vec<WriteOp>) -> Result<(), StorageError> {
    db.commit_one(&WriteBatch { ops }).map(|_| ())
}

fn user(email: &str) -> WriteOp {
    WriteOp::CreateNode {
        labels: vec!["User".into()],
        properties: vec![("email".into(), Value::String(email.into()))],
    }
}

fn schema(op: SchemaOp) -> WriteOp {
    WriteOp::Schema(op)
}

fn unique(name: &str) -> WriteOp {
    schema(SchemaOp::CreateUnique {
        name: name.into(),
        label: "User".into(),
        key: "email".into(),
    })
}

#[test]
fn a_uniqueness_constraint_refuses_every_way_to_a_duplicate() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = open(dir.path());
    commit(&db, vec![user("a@x"), user("b@x")]).expect("commits");
    commit(&db, vec![unique("one_email")]).expect("declares");
    let refused = |ops: Vec<WriteOp>| match commit(&db, ops) {
        Err(StorageError::NotUnique { label, key, .. }) => (label, key),
        other => panic!("not refused: {other:?}"),
    };
    // Created, set, labelled: each way to a second a@x is refused, and nothing of
    // the batch stays.
    assert_eq!(refused(vec![user("c@x"), user("a@x")]).0, "User");
    let node1 = NodeRef::Node(kith_core::NodeId(1));
    refused(vec![WriteOp::SetNodeProperty {
        node: node1.clone(),
        key: "email".into(),
        value: Value::String("a@x".into()),
    }]);
    let other = WriteOp::CreateNode {
        labels: vec!["Guest".into()],
        properties: vec![("email".into(), Value::String("a@x".into()))],
    };
    commit(&db, vec![other]).expect("another label may share it");
    refused(vec![WriteOp::AddLabel {
        node: NodeRef::Node(kith_core::NodeId(2)),
        label: "User".into(),
    }]);
    let snap = db.store().snapshot();
    assert_eq!(snap.node_count(), 3, "no refused batch left anything");
    assert!(snap.schema().unique.contains_key("one_email"));
    assert_eq!(
        snap.schema().indexes["one_email"].owner.as_deref(),
        Some("one_email")
    );
    drop(snap);
    // Its index cannot be dropped alone; dropping the constraint drops both.
    let drop_index = WriteOp::DropIndex {
        label: "User".into(),
        key: "email".into(),
    };
    let e = commit(&db, vec![drop_index]).expect_err("owned");
    assert!(matches!(e, StorageError::SchemaRefused(_)), "{e}");
    commit(
        &db,
        vec![schema(SchemaOp::DropConstraint {
            name: "one_email".into(),
        })],
    )
    .expect("drops");
    commit(&db, vec![user("a@x")]).expect("no constraint any more");
    let snap = db.store().snapshot();
    assert!(snap.schema().indexes.is_empty());
}

#[test]
fn a_constraint_the_data_breaks_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = open(dir.path());
    commit(&db, vec![user("a@x"), user("a@x")]).expect("commits");
    let e = commit(&db, vec![unique("one_email")]).expect_err("duplicates exist");
    assert!(
        matches!(e, StorageError::ConstraintCreationFailed { .. }),
        "{e}"
    );
    assert!(db.store().snapshot().schema().unique.is_empty());
    // An index already on the pair is in the way; a name taken is refused.
    let index = WriteOp::CreateIndex {
        label: "User".into(),
        key: "email".into(),
    };
    commit(&db, vec![index]).expect("indexes");
    let e = commit(&db, vec![unique("c")]).expect_err("index in the way");
    assert!(matches!(e, StorageError::SchemaRefused(_)), "{e}");
    let rename = schema(SchemaOp::NameIndex {
        name: "by_email".into(),
        label: "User".into(),
        key: "email".into(),
    });
    commit(&db, vec![rename]).expect("renames");
    let snap = db.store().snapshot();
    assert_eq!(
        snap.schema().index_on("User", "email"),
        Some("by_email"),
        "{:?}",
        snap.schema()
    );
}

#[test]
fn the_schema_survives_the_log_and_the_checkpoint() {
    let dir = tempfile::tempdir().expect("tempdir");
    let register = |name: &str, text: &str| {
        schema(SchemaOp::RegisterProcedure {
            name: name.into(),
            text: text.into(),
        })
    };
    {
        let db = open(dir.path());
        commit(&db, vec![user("a@x"), unique("one_email")]).expect("commits");
        commit(&db, vec![register("app.one", "RETURN 1 AS x")]).expect("registers");
        db.checkpoint().expect("checkpoint");
        // After the checkpoint, through the log only.
        commit(&db, vec![register("app.two", "RETURN 2 AS x")]).expect("registers");
        commit(
            &db,
            vec![schema(SchemaOp::DropProcedure {
                name: "app.one".into(),
            })],
        )
        .expect("drops");
    }
    let db = open(dir.path());
    let snap = db.store().snapshot();
    let s = snap.schema();
    assert_eq!(
        s.procedures.keys().collect::<Vec<_>>(),
        vec!["app.two"],
        "{s:?}"
    );
    assert_eq!(s.procedures["app.two"], "RETURN 2 AS x");
    assert!(s.unique.contains_key("one_email"));
    drop(snap);
    let e = commit(&db, vec![user("a@x")]).expect_err("still enforced");
    assert!(matches!(e, StorageError::NotUnique { .. }), "{e}");
    let e = commit(
        &db,
        vec![schema(SchemaOp::DropProcedure {
            name: "app.one".into(),
        })],
    )
    .expect_err("gone");
    assert!(e.to_string().contains("app.one"), "{e}");
}
