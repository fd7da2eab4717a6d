//! The durable path: commit groups, recovery from checkpoint + log, torn and corrupt
//! files, checkpoints removing covered segments, indexes and conditions.

use std::fs;
use std::path::{Path, PathBuf};

use kith_core::{GraphView, Value};
use kith_storage::{
    write_graph_file_version, Condition, Database, DatabaseOptions, NodeRef, Snapshot,
    StorageError, WriteBatch, WriteOp,
};
use proptest::prelude::*;

fn open(dir: &Path) -> (Database, kith_storage::RecoveryReport) {
    Database::open(dir, DatabaseOptions::default()).expect("opens")
}

fn person(id: i64, name: &str) -> WriteOp {
    WriteOp::CreateNode {
        labels: vec!["Person".into()],
        properties: vec![
            ("id".into(), Value::Int(id)),
            ("name".into(), Value::String(name.into())),
        ],
    }
}

fn batch(ops: Vec<WriteOp>) -> WriteBatch {
    WriteBatch { ops }
}

fn by_id(id: i64) -> NodeRef {
    NodeRef::ById {
        label: "Person".into(),
        id,
    }
}

/// The whole state of a version as bytes: two versions are equal iff these are
/// (graph file version 3 depends on the content alone, not on the layout).
fn image(snapshot: &Snapshot, scratch: &Path) -> Vec<u8> {
    let path = scratch.join("image.kith");
    write_graph_file_version(snapshot, &path, 3).expect("writes");
    fs::read(path).expect("reads")
}

fn segments(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir.join("wal"))
        .expect("wal dir")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    files
}

fn node_with_id(db: &Database, id: i64) -> bool {
    let snap = db.store().snapshot();
    let person = snap.label_id("Person");
    person.is_some_and(|p| snap.node_by_id(p, id).is_some())
}

#[test]
fn committed_writes_survive_reopening() {
    let dir = tempfile::tempdir().expect("tempdir");
    {
        let (db, report) = open(dir.path());
        assert!(!report.checkpoint_found);
        let info = db
            .commit_one(&batch(vec![
                person(1, "Ada"),
                person(2, "Bo"),
                WriteOp::CreateRel {
                    rel_type: "KNOWS".into(),
                    src: NodeRef::Created(0),
                    dst: NodeRef::Created(1),
                    properties: vec![("since".into(), Value::Int(2020))],
                },
            ]))
            .expect("commits");
        assert_eq!(info.version, 1);
        assert_eq!(info.created.len(), 2);
        assert_eq!(info.created_rels.len(), 1);
        db.commit_one(&batch(vec![WriteOp::SetNodeProperty {
            node: by_id(2),
            key: "name".into(),
            value: Value::String("Bea".into()),
        }]))
        .expect("commits");
        // Dropped without `close`: no checkpoint, recovery must come from the log.
    }
    let (db, report) = open(dir.path());
    assert_eq!(report.replayed_transactions, 2);
    assert_eq!(report.version, 2);
    let snap = db.store().snapshot();
    let bea = snap
        .node_by_id(snap.label_id("Person").expect("label"), 2)
        .expect("node");
    let name = snap.node_property(bea, snap.prop_key_id("name").expect("key"));
    assert_eq!(name, Some(Value::String("Bea".into())));
    assert_eq!(snap.rel_count(), 1);
}

#[test]
fn a_failing_transaction_leaves_its_group_intact() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scratch = tempfile::tempdir().expect("tempdir");
    let before;
    {
        let (db, _) = open(dir.path());
        let good1 = batch(vec![person(1, "a")]);
        let bad = batch(vec![person(2, "b"), person(1, "duplicate")]);
        let good2 = batch(vec![
            person(3, "c"),
            WriteOp::CreateRel {
                rel_type: "KNOWS".into(),
                src: by_id(1),
                dst: NodeRef::Created(0),
                properties: vec![],
            },
        ]);
        let results = db.commit(&[&good1, &bad, &good2]).expect("group");
        assert_eq!(results[0].as_ref().expect("ok").version, 1);
        assert!(matches!(results[1], Err(StorageError::DuplicateId { .. })));
        let third = results[2].as_ref().expect("ok");
        assert_eq!(third.version, 2);
        assert!(node_with_id(&db, 3));
        assert!(!node_with_id(&db, 2), "the failed transaction left nothing");
        before = image(&db.store().snapshot(), scratch.path());
    }
    let (db, _) = open(dir.path());
    assert_eq!(image(&db.store().snapshot(), scratch.path()), before);
}

#[test]
fn every_cut_of_the_last_record_recovers_the_groups_before_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    {
        let (db, _) = open(dir.path());
        db.commit_one(&batch(vec![person(1, "kept")]))
            .expect("commits");
        db.commit_one(&batch(vec![person(2, "torn")]))
            .expect("commits");
    }
    let segment = segments(dir.path()).pop().expect("a segment");
    let full = fs::read(&segment).expect("reads");
    // The first record follows the 24-byte segment header: length prefix, checksum,
    // payload.
    let first_record_end =
        24 + 8 + u32::from_le_bytes([full[24], full[25], full[26], full[27]]) as usize;
    for cut in first_record_end..full.len() {
        fs::write(&segment, &full[..cut]).expect("writes");
        let (db, report) = open(dir.path());
        assert!(node_with_id(&db, 1), "cut at {cut}");
        assert!(!node_with_id(&db, 2), "cut at {cut}");
        if cut > first_record_end {
            let message = report.cut_tail.expect("the cut is reported");
            assert!(message.contains(".wal"), "{message}");
        }
        drop(db);
        assert_eq!(
            fs::metadata(&segment).expect("meta").len() as usize,
            first_record_end,
            "the torn tail is removed"
        );
    }
}

#[test]
fn a_flipped_byte_in_the_last_record_cuts_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    {
        let (db, _) = open(dir.path());
        db.commit_one(&batch(vec![person(1, "kept")]))
            .expect("commits");
        db.commit_one(&batch(vec![person(2, "damaged")]))
            .expect("commits");
    }
    let segment = segments(dir.path()).pop().expect("a segment");
    let mut bytes = fs::read(&segment).expect("reads");
    let last = bytes.len() - 3;
    bytes[last] ^= 0x40;
    fs::write(&segment, &bytes).expect("writes");
    let (db, report) = open(dir.path());
    assert!(node_with_id(&db, 1));
    assert!(!node_with_id(&db, 2));
    assert!(report
        .cut_tail
        .expect("reported")
        .contains("checksum does not match"));
}

#[test]
fn damage_in_an_older_segment_refuses_to_start() {
    let dir = tempfile::tempdir().expect("tempdir");
    {
        let (db, _) = open(dir.path());
        db.commit_one(&batch(vec![person(1, "a")]))
            .expect("commits");
    }
    // Two segments that recovery needs both of: save the first, let a checkpoint
    // rotate the log (and remove the first), write to the second, then put the first
    // back damaged and remove the checkpoint.
    let first = segments(dir.path()).pop().expect("segment");
    let saved = fs::read(&first).expect("reads");
    {
        let (db, _) = open(dir.path());
        db.checkpoint().expect("checkpoint");
        db.commit_one(&batch(vec![person(2, "b")]))
            .expect("commits");
    }
    fs::remove_file(dir.path().join("graph.kith")).expect("removes checkpoint");
    let mut damaged = saved.clone();
    let at = damaged.len() - 2;
    damaged[at] ^= 1;
    fs::write(&first, &damaged).expect("restores the old segment, damaged");
    let error = Database::open(dir.path(), DatabaseOptions::default())
        .err()
        .expect("refused");
    let text = error.to_string();
    assert!(text.contains("not the newest segment"), "{text}");
    assert!(text.contains(&first.display().to_string()), "{text}");
    // Undamaged, the same files recover both writes.
    fs::write(&first, &saved).expect("writes");
    let (db, _) = open(dir.path());
    assert!(node_with_id(&db, 1) && node_with_id(&db, 2));
}

#[test]
fn a_corrupt_checkpoint_is_refused_by_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    {
        let (db, _) = open(dir.path());
        db.commit_one(&batch(vec![person(1, "a")]))
            .expect("commits");
        db.close().expect("closes").expect("checkpointed");
    }
    let path = dir.path().join("graph.kith");
    let mut bytes = fs::read(&path).expect("reads");
    bytes[20] ^= 0xff;
    fs::write(&path, &bytes).expect("writes");
    let error = Database::open(dir.path(), DatabaseOptions::default())
        .err()
        .expect("refused");
    assert!(matches!(error, StorageError::Corrupt { .. }), "{error}");
    assert!(error.to_string().contains("graph.kith"), "{error}");
}

#[test]
fn checkpoints_remove_only_covered_segments() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scratch = tempfile::tempdir().expect("tempdir");
    let expected;
    {
        let (db, _) = open(dir.path());
        for i in 0..10 {
            db.commit_one(&batch(vec![person(i, "x")]))
                .expect("commits");
        }
        let report = db.checkpoint().expect("checkpoint");
        assert_eq!(report.version, 10);
        assert_eq!(report.removed_segments, 1);
        assert_eq!(segments(dir.path()).len(), 1, "a fresh segment remains");
        for i in 10..15 {
            db.commit_one(&batch(vec![person(i, "y")]))
                .expect("commits");
        }
        expected = image(&db.store().snapshot(), scratch.path());
    }
    let (db, report) = open(dir.path());
    assert_eq!(report.checkpoint_version, 10);
    assert_eq!(report.replayed_transactions, 5);
    assert_eq!(image(&db.store().snapshot(), scratch.path()), expected);
    let closed = db.close().expect("closes").expect("a final checkpoint");
    assert_eq!(closed.version, 15);
    drop(db);
    let (_db, report) = open(dir.path());
    assert_eq!(report.replayed_transactions, 0);
}

#[test]
fn a_crash_between_checkpoint_and_segment_removal_replays_nothing_twice() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scratch = tempfile::tempdir().expect("tempdir");
    let expected;
    let old_segment;
    let old_bytes;
    {
        let (db, _) = open(dir.path());
        for i in 0..4 {
            db.commit_one(&batch(vec![person(i, "x")]))
                .expect("commits");
        }
        old_segment = segments(dir.path()).pop().expect("segment");
        old_bytes = fs::read(&old_segment).expect("reads");
        db.checkpoint().expect("checkpoint");
        db.commit_one(&batch(vec![person(9, "after")]))
            .expect("commits");
        expected = image(&db.store().snapshot(), scratch.path());
    }
    // Put back the segment the checkpoint removed, as if the crash came first.
    fs::write(&old_segment, old_bytes).expect("writes");
    let (db, report) = open(dir.path());
    assert_eq!(report.replayed_transactions, 1);
    assert_eq!(image(&db.store().snapshot(), scratch.path()), expected);
}

#[test]
fn a_second_process_cannot_open_the_directory() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (_db, _) = open(dir.path());
    let error = Database::open(dir.path(), DatabaseOptions::default())
        .err()
        .expect("locked");
    assert!(matches!(error, StorageError::Locked(_)), "{error}");
}

#[test]
fn index_kinds_survive_the_log_and_the_checkpoint() {
    use kith_core::{IndexKind, SchemaOp, ValueRange};
    let dir = tempfile::tempdir().expect("tempdir");
    let node = |v: Value| WriteOp::CreateNode {
        labels: vec!["Person".into()],
        properties: vec![("nick".into(), v)],
    };
    let kinds = |db: &Database| -> Vec<IndexKind> {
        let snap = db.store().snapshot();
        snap.schema().indexes.values().map(|d| d.kind).collect()
    };
    // The strings starting with "a" the index finds (`None`: it cannot answer).
    let prefixed = |db: &Database| {
        let snap = db.store().snapshot();
        let (l, k) = (snap.label_id("Person")?, snap.prop_key_id("nick")?);
        snap.nodes_in_range(l, k, &ValueRange::Prefix("a"))
    };
    {
        let (db, _) = open(dir.path());
        db.commit_one(&batch(vec![
            node(Value::String("ann".into())),
            node(Value::Int(7)),
        ]))
        .expect("commits");
        db.commit_one(&batch(vec![
            WriteOp::CreateIndex {
                label: "Person".into(),
                key: "nick".into(),
            },
            WriteOp::Schema(SchemaOp::KindIndex {
                label: "Person".into(),
                key: "nick".into(),
                kind: IndexKind::Text,
            }),
        ]))
        .expect("indexes");
        assert_eq!(kinds(&db), vec![IndexKind::Text]);
    }
    // From the log.
    let (db, report) = open(dir.path());
    assert!(report.replayed_transactions >= 2);
    assert_eq!(kinds(&db), vec![IndexKind::Text]);
    assert_eq!(prefixed(&db), Some(vec![kith_core::NodeId(0)]));
    db.checkpoint().expect("checkpoint");
    drop(db);
    // From the checkpoint.
    let (db, report) = open(dir.path());
    assert_eq!(report.replayed_transactions, 0);
    assert_eq!(kinds(&db), vec![IndexKind::Text]);
    assert_eq!(prefixed(&db), Some(vec![kith_core::NodeId(0)]));
    // A text index holds no numbers: an integer lookup scans and still answers.
    let snap = db.store().snapshot();
    let (l, k) = (
        snap.label_id("Person").expect("label"),
        snap.prop_key_id("nick").expect("key"),
    );
    assert_eq!(
        snap.find_nodes(l, k, &Value::Int(7), 10),
        vec![kith_core::NodeId(1)]
    );
}

#[test]
fn property_indexes_are_maintained_and_survive_recovery() {
    let dir = tempfile::tempdir().expect("tempdir");
    let email = |e: &str| (kith_storage::Name::from("email"), Value::String(e.into()));
    {
        let (db, _) = open(dir.path());
        db.commit_one(&batch(vec![WriteOp::CreateNode {
            labels: vec!["Person".into()],
            properties: vec![email("a@x")],
        }]))
        .expect("commits");
        db.commit_one(&batch(vec![WriteOp::CreateIndex {
            label: "Person".into(),
            key: "email".into(),
        }]))
        .expect("indexes");
        db.commit_one(&batch(vec![WriteOp::CreateNode {
            labels: vec!["Person".into()],
            properties: vec![email("b@x")],
        }]))
        .expect("commits");
        db.checkpoint().expect("checkpoint");
        // After the checkpoint: change a@x to c@x, through the log only.
        db.commit_one(&batch(vec![WriteOp::SetNodeProperty {
            node: NodeRef::Node(kith_core::NodeId(0)),
            key: "email".into(),
            value: Value::String("c@x".into()),
        }]))
        .expect("commits");
    }
    let (db, _) = open(dir.path());
    let snap = db.store().snapshot();
    let (person, key) = (
        snap.label_id("Person").expect("label"),
        snap.prop_key_id("email").expect("key"),
    );
    assert!(snap.is_indexed(person, key));
    assert_eq!(
        snap.index_definitions(),
        vec![("Person".into(), "email".into())]
    );
    let find = |e: &str| snap.find_nodes(person, key, &Value::String(e.into()), 10);
    assert_eq!(find("a@x"), vec![]);
    assert_eq!(find("c@x"), vec![kith_core::NodeId(0)]);
    assert_eq!(find("b@x"), vec![kith_core::NodeId(1)]);
    drop(snap);
    db.commit_one(&batch(vec![WriteOp::DropIndex {
        label: "Person".into(),
        key: "email".into(),
    }]))
    .expect("drops");
    let snap = db.store().snapshot();
    assert!(!snap.is_indexed(person, key));
    // Unindexed lookups scan and still answer.
    assert_eq!(
        snap.find_nodes(person, key, &Value::String("b@x".into()), 10),
        vec![kith_core::NodeId(1)]
    );
    let error = db
        .commit_one(&batch(vec![WriteOp::DropIndex {
            label: "Person".into(),
            key: "email".into(),
        }]))
        .expect_err("no such index");
    assert!(matches!(error, StorageError::NoSuchIndex { .. }), "{error}");
}

#[test]
fn conditions_make_create_if_absent() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (db, _) = open(dir.path());
    let create_if_absent = |name: &str| {
        batch(vec![
            WriteOp::Require(Condition::Absent {
                label: "User".into(),
                key: "name".into(),
                value: Value::String(name.into()),
            }),
            WriteOp::CreateNode {
                labels: vec!["User".into()],
                properties: vec![("name".into(), Value::String(name.into()))],
            },
        ])
    };
    let (a1, a2, b) = (
        create_if_absent("ann"),
        create_if_absent("ann"),
        create_if_absent("ben"),
    );
    // In one group, the second "ann" sees the first.
    let results = db.commit(&[&a1, &a2, &b]).expect("group");
    assert!(results[0].is_ok());
    let error = results[1].as_ref().expect_err("condition failed");
    assert!(matches!(error, StorageError::ConditionFailed(_)), "{error}");
    assert!(error.to_string().contains("ann"), "{error}");
    assert!(results[2].is_ok());
    assert_eq!(db.store().snapshot().node_count(), 2);
    let present = batch(vec![WriteOp::Require(Condition::Present {
        label: "User".into(),
        key: "name".into(),
        value: Value::String("zed".into()),
    })]);
    assert!(matches!(
        db.commit_one(&present).expect_err("absent"),
        StorageError::ConditionFailed(_)
    ));
}

#[test]
fn ensure_node_makes_a_proxy_once_and_keeps_created_references() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scratch = tempfile::tempdir().expect("tempdir");
    let (db, _) = open(dir.path());
    db.commit_one(&batch(vec![person(1, "ann")])).expect("ann");
    let ensure = |id| WriteOp::EnsureNode {
        label: "Person".into(),
        id,
    };
    let post = |id| WriteOp::CreateNode {
        labels: vec!["Post".into()],
        properties: vec![("id".into(), Value::Int(id))],
    };
    let by = |person| WriteOp::CreateRel {
        rel_type: "HAS_CREATOR".into(),
        src: NodeRef::Created(0),
        dst: by_id(person),
        properties: vec![],
    };
    // Ann exists: nothing is made. Person 2 does not: a proxy with its id alone, and
    // `Created(0)` is still the post, not the proxy.
    let first = batch(vec![ensure(1), ensure(2), post(10), by(2), ensure(2)]);
    let second = batch(vec![ensure(2), post(11), by(2)]);
    let results = db.commit(&[&first, &second]).expect("group");
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    let snap = db.store().snapshot();
    assert_eq!(snap.node_count(), 4, "ann, one proxy, two posts");
    let label = snap.label_id("Person").expect("label");
    let proxy = snap.node_by_id(label, 2).expect("the proxy");
    let props = snap.node_properties(proxy);
    assert_eq!(props.len(), 1, "the id alone: {props:?}");
    let ann = snap.node_by_id(label, 1).expect("ann");
    assert_eq!(snap.node_properties(ann).len(), 2, "ann is untouched");
    // The log replays to the same graph.
    let before = image(&snap, scratch.path());
    drop((snap, db));
    let (db, _) = open(dir.path());
    assert_eq!(before, image(&db.store().snapshot(), scratch.path()));
}

/// One random transaction over a small id space, so duplicates, missing nodes and
/// failing conditions all happen.
fn transaction() -> impl Strategy<Value = WriteBatch> {
    let op = prop_oneof![
        4 => (0i64..20).prop_map(|id| person(id, "p")),
        3 => (0i64..20, 0i64..20).prop_map(|(a, b)| WriteOp::CreateRel {
            rel_type: "KNOWS".into(),
            src: by_id(a),
            dst: by_id(b),
            properties: vec![("w".into(), Value::Int(a * b))],
        }),
        1 => (0i64..20, any::<bool>()).prop_map(|(id, detach)| WriteOp::DeleteNode {
            node: by_id(id),
            detach,
        }),
        1 => (0i64..20, any::<i64>()).prop_map(|(id, v)| WriteOp::SetNodeProperty {
            node: by_id(id),
            key: "score".into(),
            value: Value::Int(v),
        }),
        1 => (0i64..20).prop_map(|id| WriteOp::Require(Condition::Absent {
            label: "Person".into(),
            key: "id".into(),
            value: Value::Int(id),
        })),
        1 => Just(WriteOp::CreateIndex { label: "Person".into(), key: "score".into() }),
        1 => (0i64..20).prop_map(|id| WriteOp::EnsureNode { label: "Person".into(), id }),
    ];
    prop::collection::vec(op, 1..4).prop_map(|ops| WriteBatch { ops })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Whatever is committed, in whatever groups, reopening yields the same graph,
    /// byte for byte, with or without a checkpoint in the middle.
    #[test]
    fn recovery_reproduces_the_committed_state(
        groups in prop::collection::vec(prop::collection::vec(transaction(), 1..5), 1..12),
        checkpoint_after in 0usize..12,
    ) {
        let dir = tempfile::tempdir().expect("tempdir");
        let scratch = tempfile::tempdir().expect("tempdir");
        let expected = {
            let (db, _) = open(dir.path());
            for (i, group) in groups.iter().enumerate() {
                let refs: Vec<&WriteBatch> = group.iter().collect();
                db.commit(&refs).expect("the log is writable");
                if i == checkpoint_after {
                    db.checkpoint().expect("checkpoint");
                }
            }
            image(&db.store().snapshot(), scratch.path())
        };
        let (db, _) = open(dir.path());
        prop_assert_eq!(image(&db.store().snapshot(), scratch.path()), expected);
    }
}

#[test]
fn checkpoints_fall_due_by_log_size_or_by_time() {
    let dir = tempfile::tempdir().expect("tempdir");
    let by_size = DatabaseOptions {
        checkpoint_wal_bytes: 200,
        checkpoint_interval: std::time::Duration::from_secs(3600),
        ..DatabaseOptions::default()
    };
    let (db, _) = Database::open(dir.path(), by_size).expect("opens");
    assert!(!db.checkpoint_due(), "nothing written yet");
    db.commit_one(&batch(vec![person(1, "a")]))
        .expect("commits");
    assert!(!db.checkpoint_due(), "one small record is under 200 bytes");
    for i in 2..10 {
        db.commit_one(&batch(vec![person(i, "b")]))
            .expect("commits");
    }
    assert!(db.checkpoint_due());
    db.checkpoint().expect("checkpoint");
    assert!(!db.checkpoint_due(), "the checkpoint resets the count");
    drop(db);

    let by_time = DatabaseOptions {
        checkpoint_wal_bytes: u64::MAX,
        checkpoint_interval: std::time::Duration::from_millis(50),
        ..DatabaseOptions::default()
    };
    let (db, _) = Database::open(dir.path(), by_time).expect("opens");
    std::thread::sleep(std::time::Duration::from_millis(80));
    assert!(!db.checkpoint_due(), "time alone does not make one due");
    db.commit_one(&batch(vec![person(20, "c")]))
        .expect("commits");
    assert!(db.checkpoint_due(), "written, and the interval has passed");
}

#[test]
fn names_with_nul_or_empty_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (db, _) = open(dir.path());
    for ops in [
        vec![WriteOp::CreateNode {
            labels: vec!["a\0b".into()],
            properties: vec![],
        }],
        vec![WriteOp::CreateNode {
            labels: vec![],
            properties: vec![("".into(), Value::Int(1))],
        }],
    ] {
        let error = db.commit_one(&batch(ops)).expect_err("refused");
        assert!(matches!(error, StorageError::InvalidName { .. }), "{error}");
        assert!(error.to_string().contains("cannot be a name"), "{error}");
    }
    assert_eq!(db.store().snapshot().node_count(), 0);
}

/// A byte array survives the log's replay and a checkpoint whole; one inside a list
/// is refused (a collection in a collection, as Neo4j refuses it) and writes nothing.
#[test]
fn byte_arrays_are_durable_and_never_nested() {
    let dir = tempfile::tempdir().expect("tempdir");
    let blob = Value::Bytes(vec![0, 1, 128, 255].into());
    let node = |properties| WriteOp::CreateNode {
        labels: vec!["Blob".into()],
        properties,
    };
    {
        let (db, _) = open(dir.path());
        let nested = Value::List(vec![blob.clone()]);
        let error = db
            .commit_one(&batch(vec![node(vec![("b".into(), nested)])]))
            .expect_err("refused");
        assert!(
            matches!(error, StorageError::UnsupportedPropertyValue { .. }),
            "{error}"
        );
        db.commit_one(&batch(vec![node(vec![("b".into(), blob.clone())])]))
            .expect("commits");
    }
    let read = |db: &Database| {
        let snapshot = db.store().snapshot();
        assert_eq!(snapshot.node_count(), 1);
        let key = snapshot.prop_key_id("b").expect("the key");
        snapshot.node_property(kith_core::NodeId(0), key)
    };
    let (db, _) = open(dir.path());
    assert_eq!(read(&db), Some(blob.clone()), "replayed from the log");
    db.checkpoint().expect("checkpoint");
    drop(db);
    let (db, _) = open(dir.path());
    assert_eq!(read(&db), Some(blob), "read from the checkpoint");
}

/// A data directory whose checkpoint is in the record format (version 3, written by
/// builds before Storage v2) opens with the same graph, replays its log on top, and
/// its next checkpoint is in the current format.
#[test]
fn a_version_3_checkpoint_opens_and_the_next_checkpoint_is_current() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scratch = tempfile::tempdir().expect("tempdir");
    let checkpoint = dir.path().join("graph.kith");
    let expected;
    {
        let (db, _) = open(dir.path());
        for i in 0..6 {
            db.commit_one(&batch(vec![person(i, "x")]))
                .expect("commits");
        }
        db.checkpoint().expect("checkpoint");
        write_graph_file_version(&db.store().snapshot(), &checkpoint, 3).expect("writes v3");
        db.commit_one(&batch(vec![person(6, "after")]))
            .expect("commits");
        expected = image(&db.store().snapshot(), scratch.path());
    }
    let version_of = |path: &Path| fs::read(path).expect("reads")[8];
    assert_eq!(version_of(&checkpoint), 3);
    let (db, report) = open(dir.path());
    assert_eq!(report.replayed_transactions, 1);
    assert_eq!(image(&db.store().snapshot(), scratch.path()), expected);
    db.checkpoint().expect("checkpoint");
    assert_eq!(
        u32::from(version_of(&checkpoint)),
        kith_storage::GRAPH_FILE_VERSION
    );
    drop(db);
    let (db, _) = open(dir.path());
    assert_eq!(image(&db.store().snapshot(), scratch.path()), expected);
}

/// A database whose log is read by replicas: it keeps what they have not consumed
/// (the returned version, 0 until the test moves it).
fn open_replicated(dir: &Path) -> (Database, std::sync::Arc<std::sync::atomic::AtomicU64>) {
    let consumed = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let options = DatabaseOptions {
        log_consumed: Some(consumed.clone()),
        ..DatabaseOptions::default()
    };
    let (db, _) = Database::open(dir, options).expect("opens");
    (db, consumed)
}

/// Replication reads the log: the record a commit hands back is the record the log
/// holds, its payload decodes to the group's transactions, and segments above the
/// consumed version outlive a checkpoint until it is consumed.
#[test]
fn log_records_are_read_back_and_kept_until_consumed() {
    use std::sync::atomic::Ordering;
    let dir = tempfile::tempdir().expect("tempdir");
    let (db, consumed) = open_replicated(dir.path());
    let mut handed = Vec::new();
    for i in 0..3 {
        let (b1, b2) = (
            batch(vec![person(2 * i, "a")]),
            batch(vec![person(2 * i + 1, "b")]),
        );
        let (results, record) = db.commit_logged(&[&b1, &b2]).expect("commits");
        assert!(results.iter().all(Result::is_ok));
        let record = record.expect("a record");
        let (first, batches) =
            kith_storage::decode_payload(&record.payload, dir.path()).expect("decodes");
        assert_eq!((first, batches), (record.first_version, vec![b1, b2]));
        handed.push(record);
        db.checkpoint().expect("checkpoint");
    }
    assert_eq!(handed[2].last_version(), 6);
    // Nothing consumed: the checkpoints kept every record.
    let mut read = Vec::new();
    let oldest = db
        .log_records_after(0, u64::MAX, |r| {
            read.push(r);
            Ok(())
        })
        .expect("reads");
    assert_eq!((oldest, &read), (1, &handed));
    let mut after_two = Vec::new();
    db.log_records_after(2, 4, |r| {
        after_two.push(r);
        Ok(())
    })
    .expect("reads");
    assert_eq!(after_two, handed[1..2]);
    // Consumed through 4: the next checkpoint removes the segments wholly at or below.
    consumed.store(4, Ordering::Release);
    db.checkpoint().expect("checkpoint");
    let mut rest = Vec::new();
    let oldest = db
        .log_records_after(0, u64::MAX, |r| {
            rest.push(r);
            Ok(())
        })
        .expect("reads");
    assert_eq!((oldest, &rest), (5, &handed[2..].to_vec()));
    // A group none of whose transactions applied writes no record.
    let dup = batch(vec![person(0, "again")]);
    let (results, record) = db.commit_logged(&[&dup]).expect("commits");
    assert!(results[0].is_err() && record.is_none());
    drop(db);
    // Opened without a consumer, the directory still keeps what its log-consumed
    // file says was not taken, across checkpoints.
    let (db, report) = open(dir.path());
    assert_eq!(report.version, 6);
    assert!(node_with_id(&db, 5));
    db.commit_one(&batch(vec![person(50, "c")]))
        .expect("commits");
    db.checkpoint().expect("checkpoint");
    let mut kept = Vec::new();
    let oldest = db
        .log_records_after(0, u64::MAX, |r| {
            kept.push(r.first_version);
            Ok(())
        })
        .expect("reads");
    assert_eq!((oldest, kept), (5, vec![5, 7]));
}

#[test]
fn a_damaged_payload_is_refused_by_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (db, _) = open(dir.path());
    let b = batch(vec![person(1, "a")]);
    let (_, record) = db.commit_logged(&[&b]).expect("commits");
    let mut payload = record.expect("record").payload;
    payload.push(0);
    let source = Path::new("kafka topic t");
    let err = kith_storage::decode_payload(&payload, source).expect_err("refused");
    assert!(err.to_string().contains("kafka topic t"), "{err}");
    assert!(
        err.to_string().contains("after the record's last batch"),
        "{err}"
    );
    payload.truncate(10);
    assert!(kith_storage::decode_payload(&payload, source).is_err());
}

/// A replica's reset interrupted after its new checkpoint was renamed into place and
/// before its new log segment was made: the old segments end below the checkpoint,
/// and the next commit must not be appended to them.
#[test]
fn a_checkpoint_newer_than_the_whole_log_starts_a_segment_of_its_own() {
    let newer = tempfile::tempdir().expect("tempdir");
    let (db, _) = open(newer.path());
    for i in 0..10 {
        db.commit_one(&batch(vec![person(i, "n")]))
            .expect("commits");
    }
    db.checkpoint().expect("checkpoint");
    drop(db);
    let replica = tempfile::tempdir().expect("tempdir");
    let (db, _) = open(replica.path());
    for i in 0..4 {
        db.commit_one(&batch(vec![person(i, "n")]))
            .expect("commits");
    }
    drop(db);
    fs::copy(
        newer.path().join("graph.kith"),
        replica.path().join("graph.kith"),
    )
    .expect("copies");
    let (db, report) = open(replica.path());
    assert_eq!(report.version, 10);
    let info = db
        .commit_one(&batch(vec![person(100, "after")]))
        .expect("commits");
    assert_eq!(info.version, 11);
    drop(db);
    let (db, report) = open(replica.path());
    assert_eq!(report.version, 11);
    assert!(node_with_id(&db, 100));
}

/// A failed log rotation whose stray segment could not be removed leaves an empty
/// newest segment; the writer goes on in the older one, and a crash mid-append tears
/// its tail. That tail is where the log ends, so it is cut, as in the newest segment.
#[test]
fn a_torn_tail_followed_only_by_an_empty_segment_is_cut() {
    let dir = tempfile::tempdir().expect("tempdir");
    {
        let (db, _) = open(dir.path());
        for i in 1..=3 {
            db.commit_one(&batch(vec![person(i, "a")]))
                .expect("commits");
        }
    }
    // The stray: an empty segment made by the real code (a checkpoint's rotation in
    // another directory after two versions), named for version 3.
    let other = tempfile::tempdir().expect("tempdir");
    {
        let (db, _) = open(other.path());
        for i in 1..=2 {
            db.commit_one(&batch(vec![person(i, "b")]))
                .expect("commits");
        }
        db.checkpoint().expect("checkpoint");
    }
    let stray = segments(other.path()).pop().expect("the rotated segment");
    let stray_name = stray.file_name().expect("a name").to_owned();
    fs::copy(&stray, dir.path().join("wal").join(&stray_name)).expect("copies");
    let older = segments(dir.path())[0].clone();
    let mut torn = fs::read(&older).expect("reads");
    torn.extend_from_slice(&[200, 0, 0, 0, 1, 2, 3]);
    fs::write(&older, &torn).expect("tears the tail");

    let (db, report) = open(dir.path());
    assert_eq!(report.version, 3);
    let cut = report.cut_tail.expect("the torn tail is cut");
    assert!(cut.contains(&older.display().to_string()), "{cut}");
    assert!(
        !segments(dir.path())
            .iter()
            .any(|p| p.ends_with(&stray_name)),
        "the empty stray segment is removed"
    );
    assert!((1..=3).all(|i| node_with_id(&db, i)));
    let info = db
        .commit_one(&batch(vec![person(4, "after")]))
        .expect("writable");
    assert_eq!(info.version, 4);
    drop(db);
    let (db, report) = open(dir.path());
    assert_eq!((report.version, report.cut_tail), (4, None));
    assert!((1..=4).all(|i| node_with_id(&db, i)));
}

/// A rotation syncs the old segment before it makes the new one, so damage in the
/// old segment below where an empty newest segment starts is not a torn write: it is
/// refused, not cut (cutting it would drop acknowledged versions; found in review).
#[test]
fn damage_below_an_empty_segments_start_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    {
        let (db, _) = open(dir.path());
        for i in 1..=5 {
            db.commit_one(&batch(vec![person(i, "a")]))
                .expect("commits");
        }
    }
    // An empty segment named for version 6, made by the real code.
    let other = tempfile::tempdir().expect("tempdir");
    {
        let (db, _) = open(other.path());
        for i in 1..=5 {
            db.commit_one(&batch(vec![person(i, "b")]))
                .expect("commits");
        }
        db.checkpoint().expect("checkpoint");
    }
    let stray = segments(other.path()).pop().expect("the rotated segment");
    fs::copy(
        &stray,
        dir.path()
            .join("wal")
            .join(stray.file_name().expect("a name")),
    )
    .expect("copies");
    let older = segments(dir.path())[0].clone();
    let mut damaged = fs::read(&older).expect("reads");
    let at = damaged.len() - 2;
    damaged[at] ^= 1;
    fs::write(&older, &damaged).expect("damages version 5");
    let error = Database::open(dir.path(), DatabaseOptions::default())
        .err()
        .expect("refused");
    assert!(
        error.to_string().contains("not the newest segment"),
        "{error}"
    );
}

/// A failed rotation's stray empty segment, left inside the versions the older
/// segment goes on to hold (its removal failed too), neither hides those versions from
/// a replica's catch-up nor lets a checkpoint under a replication floor remove them.
#[test]
fn a_stray_segment_hides_no_version_from_replication() {
    use std::sync::atomic::Ordering;
    let dir = tempfile::tempdir().expect("tempdir");
    let (db, consumed) = open_replicated(dir.path());
    for i in 0..6 {
        db.commit_one(&batch(vec![person(i, "a")]))
            .expect("commits");
    }
    // The stray: a header-only segment starting at version 4 (the live segment's
    // header with its first version, the header's last 8 bytes, made 4).
    let wal = dir.path().join("wal");
    let live = std::fs::read_dir(&wal)
        .expect("wal")
        .next()
        .expect("a segment");
    let mut header = std::fs::read(live.expect("entry").path()).expect("reads")[..24].to_vec();
    header[16..24].copy_from_slice(&4u64.to_le_bytes());
    std::fs::write(wal.join(format!("{:020}.wal", 4)), header).expect("stray");
    let versions_after = |after: u64| {
        let mut versions = Vec::new();
        db.log_records_after(after, u64::MAX, |r| {
            versions.push(r.first_version);
            Ok(())
        })
        .expect("reads");
        versions
    };
    assert_eq!(versions_after(4), [5, 6]);
    // Replicas have read to 3: the checkpoint keeps the segment holding 4 to 6.
    consumed.store(3, Ordering::Release);
    db.checkpoint().expect("checkpoint");
    assert_eq!(versions_after(3), [4, 5, 6]);
}

#[test]
fn composite_indexes_and_constraints_survive_the_log_and_the_checkpoint() {
    use kith_core::{LabelKey, SchemaOp};
    let dir = tempfile::tempdir().expect("tempdir");
    let person = |first: &str, last: &str| WriteOp::CreateNode {
        labels: vec!["Person".into()],
        properties: vec![
            ("first".into(), Value::String(first.into())),
            ("last".into(), Value::String(last.into())),
        ],
    };
    let on = LabelKey {
        label: "Person".into(),
        key: "first".into(),
        more: vec!["last".into()],
    };
    // The Ada Lovelaces the composite finds (`None`: it cannot answer).
    let found = |db: &Database| {
        let snap = db.store().snapshot();
        let l = snap.label_id("Person")?;
        let keys = [snap.prop_key_id("first")?, snap.prop_key_id("last")?];
        let values = [
            Value::String("Ada".into()),
            Value::String("Lovelace".into()),
        ];
        snap.nodes_with_values(l, &keys, &values).map(|n| n.len())
    };
    {
        let (db, _) = open(dir.path());
        db.commit_one(&batch(vec![
            person("Ada", "Lovelace"),
            person("Ada", "Byron"),
        ]))
        .expect("commits");
        db.commit_one(&batch(vec![WriteOp::Schema(SchemaOp::CreateComposite {
            name: "full_name".into(),
            on: on.clone(),
            unique: true,
        })]))
        .expect("declares");
        assert_eq!(found(&db), Some(1));
    }
    for from_checkpoint in [false, true] {
        let (db, report) = open(dir.path());
        assert_eq!(report.replayed_transactions == 0, from_checkpoint);
        assert_eq!(found(&db), Some(1), "checkpoint: {from_checkpoint}");
        let snap = db.store().snapshot();
        assert_eq!(snap.schema().unique.get("full_name"), Some(&on));
        // The constraint holds again: a second Ada Lovelace is refused.
        let refused = db.commit_one(&batch(vec![person("Ada", "Lovelace")]));
        assert!(refused.is_err(), "a duplicate committed");
        db.checkpoint().expect("checkpoint");
    }
}
