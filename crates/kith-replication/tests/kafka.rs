//! Publishing against a real Kafka broker. These need one: `scripts/kafka/test`
//! starts it and runs them with `--ignored`, passing its address in
//! `KITH_TEST_KAFKA` (without it they fail, so they cannot pass by accident).

use std::path::Path;
use std::sync::atomic::AtomicU64;
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use kith_core::Value;
use kith_replication::{AckError, KafkaUrl, LogReader, PublishOptions, Publisher, Refusal};
use kith_storage::{Database, DatabaseOptions, LogRecord, WriteBatch, WriteOp};

fn broker() -> String {
    std::env::var("KITH_TEST_KAFKA")
        .expect("KITH_TEST_KAFKA names a broker (HOST:PORT): run these through scripts/kafka/test")
}

/// A topic no other test (or earlier run) used.
fn fresh_topic(name: &str) -> KafkaUrl {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_nanos();
    format!("kafka://{}/kith-test-{name}-{nanos}", broker())
        .parse()
        .expect("url")
}

fn open(dir: &Path) -> (Arc<Database>, Arc<AtomicU64>) {
    let consumed = Arc::new(AtomicU64::new(0));
    let options = DatabaseOptions {
        log_consumed: Some(consumed.clone()),
        ..DatabaseOptions::default()
    };
    let (db, _) = Database::open(dir, options).expect("opens");
    (Arc::new(db), consumed)
}

fn options(url: &KafkaUrl) -> PublishOptions {
    PublishOptions {
        url: url.clone(),
        buffer_bytes_max: 64 << 20,
        ack_timeout: Duration::from_secs(20),
    }
}

fn person(id: i64, text_bytes: usize) -> WriteBatch {
    WriteBatch {
        ops: vec![WriteOp::CreateNode {
            labels: vec!["Person".into()],
            properties: vec![
                ("id".into(), Value::Int(id)),
                ("bio".into(), Value::String("x".repeat(text_bytes).into())),
            ],
        }],
    }
}

/// Commits one group and hands its record to the publisher; the answer arrives on
/// the channel once Kafka acknowledged it.
fn commit(
    db: &Database,
    publisher: Option<&Publisher>,
    batches: &[WriteBatch],
) -> (LogRecord, mpsc::Receiver<Result<(), AckError>>) {
    let refs: Vec<&WriteBatch> = batches.iter().collect();
    let (results, record) = db.commit_logged(&refs).expect("commits");
    assert!(results.iter().all(Result::is_ok));
    let record = record.expect("a record");
    let (tx, rx) = mpsc::channel();
    if let Some(p) = publisher {
        p.admit().expect("admitted");
        let ack: kith_replication::Ack = Box::new(move |r| {
            let _ = tx.send(r);
        });
        p.publish(record.clone(), vec![ack]);
    }
    (record, rx)
}

/// Every record the topic holds, in order.
fn read_all(url: &KafkaUrl, count: usize) -> Vec<LogRecord> {
    let mut reader = LogReader::open(url, 0).expect("reader");
    let mut out = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while out.len() < count && Instant::now() < deadline {
        if let Some((_, record)) = reader.next(Duration::from_millis(500)).expect("reads") {
            out.push(record);
        }
    }
    // Nothing more arrives after the expected records.
    let extra = reader.next(Duration::from_millis(1500)).expect("reads");
    assert!(
        extra.is_none(),
        "a record after the last: {:?}",
        extra.map(|(o, r)| (o, r.first_version, r.transactions, r.payload.len()))
    );
    out
}

#[test]
#[ignore = "needs a Kafka broker: scripts/kafka/test"]
fn acknowledged_groups_are_in_the_topic_in_commit_order() {
    let url = fresh_topic("order");
    let dir = tempfile::tempdir().expect("tempdir");
    let (db, consumed) = open(dir.path());
    let publisher = Publisher::start(options(&url), db.clone(), consumed.clone()).expect("starts");
    let mut records = Vec::new();
    let mut acks = Vec::new();
    for i in 0..20 {
        // Group 7 is 3 MB: it travels as four parts.
        let bytes = if i == 7 { 3 << 20 } else { 10 };
        let (record, ack) = commit(
            &db,
            Some(&publisher),
            &[person(2 * i, bytes), person(2 * i + 1, 5)],
        );
        records.push(record);
        acks.push(ack);
    }
    for ack in acks {
        assert_eq!(ack.recv_timeout(Duration::from_secs(30)), Ok(Ok(())));
    }
    assert_eq!(publisher.acknowledged(), 40);
    assert_eq!(consumed.load(std::sync::atomic::Ordering::Acquire), 40);
    assert_eq!(publisher.backlog_bytes(), 0);
    assert_eq!(read_all(&url, 20), records);
}

#[test]
#[ignore = "needs a Kafka broker: scripts/kafka/test"]
fn a_restart_sends_what_kafka_never_acknowledged_once() {
    let url = fresh_topic("restart");
    let dir = tempfile::tempdir().expect("tempdir");
    let mut records = Vec::new();
    {
        let (db, consumed) = open(dir.path());
        let publisher = Publisher::start(options(&url), db.clone(), consumed).expect("starts");
        for i in 0..5 {
            let (record, ack) = commit(&db, Some(&publisher), &[person(i, 10)]);
            assert_eq!(ack.recv_timeout(Duration::from_secs(30)), Ok(Ok(())));
            records.push(record);
        }
        publisher.close();
        // Committed locally, never handed to Kafka (as if the primary died between
        // its fsync and the produce); a checkpoint must not drop them from the log.
        for i in 5..9 {
            records.push(commit(&db, None, &[person(i, 10)]).0);
        }
        db.checkpoint().expect("checkpoint");
    }
    let (db, consumed) = open(dir.path());
    let publisher = Publisher::start(options(&url), db.clone(), consumed).expect("starts");
    let (record, ack) = commit(&db, Some(&publisher), &[person(100, 10)]);
    records.push(record);
    assert_eq!(ack.recv_timeout(Duration::from_secs(30)), Ok(Ok(())));
    assert_eq!(publisher.acknowledged(), 10);
    assert_eq!(read_all(&url, 10), records);
}

#[test]
#[ignore = "needs a Kafka broker: scripts/kafka/test"]
fn a_topic_ahead_of_the_data_directory_is_refused_by_name() {
    let url = fresh_topic("ahead");
    let first = tempfile::tempdir().expect("tempdir");
    {
        let (db, consumed) = open(first.path());
        let publisher = Publisher::start(options(&url), db.clone(), consumed).expect("starts");
        for i in 0..3 {
            let (_, ack) = commit(&db, Some(&publisher), &[person(i, 10)]);
            assert_eq!(ack.recv_timeout(Duration::from_secs(30)), Ok(Ok(())));
        }
    }
    let other = tempfile::tempdir().expect("tempdir");
    let (db, consumed) = open(other.path());
    let publisher = Publisher::start(options(&url), db, consumed).expect("starts");
    let deadline = Instant::now() + Duration::from_secs(30);
    let refusal = loop {
        match publisher.admit() {
            Err(refusal) => break refusal,
            Ok(()) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(100)),
            Ok(()) => panic!("a topic ahead of the directory was accepted"),
        }
    };
    let Refusal::Failed(reason) = &refusal else {
        panic!("{refusal:?}")
    };
    assert!(
        reason.contains("versions up to 3") && reason.contains("another primary"),
        "{reason}"
    );
}

/// The whole state of a version as bytes (graph file version 3 depends on the content
/// alone).
fn image(db: &Database, scratch: &Path) -> Vec<u8> {
    let path = scratch.join("image.kith");
    kith_storage::write_graph_file_version(&db.store().snapshot(), &path, 3).expect("writes");
    std::fs::read(path).expect("reads")
}

fn wait_for_version(db: &Database, version: u64) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while db.store().snapshot().version() < version {
        assert!(
            Instant::now() < deadline,
            "the replica stayed at version {}",
            db.store().snapshot().version()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
#[ignore = "needs a Kafka broker: scripts/kafka/test"]
fn a_follower_applies_the_topic_and_resumes_where_it_stopped() {
    use kith_replication::{Follower, ReplicaState};
    let url = fresh_topic("follow");
    let primary_dir = tempfile::tempdir().expect("tempdir");
    let replica_dir = tempfile::tempdir().expect("tempdir");
    let scratch = tempfile::tempdir().expect("tempdir");
    let (db, consumed) = open(primary_dir.path());
    let publisher = Publisher::start(options(&url), db.clone(), consumed).expect("starts");
    let start = ReplicaState {
        topic: url.topic.clone(),
        offset: 0,
    };
    let open_replica = || {
        let (replica, _) =
            Database::open(replica_dir.path(), DatabaseOptions::default()).expect("opens");
        Arc::new(replica)
    };
    let replica = open_replica();
    let follower = Follower::start(replica.clone(), url.clone(), None, start).expect("follows");
    for i in 0..30 {
        let bytes = if i == 11 { 2 << 20 } else { 20 };
        commit(&db, Some(&publisher), &[person(i, bytes)]);
    }
    wait_for_version(&replica, 30);
    assert_eq!(image(&replica, scratch.path()), image(&db, scratch.path()));
    assert_eq!(follower.state(), kith_replication::FollowState::Following);
    follower.close();
    drop(follower);
    drop(replica);
    for i in 30..40 {
        commit(&db, Some(&publisher), &[person(i, 20)]);
    }
    // Started again from what it saved: the offset may lag behind its log, and what
    // it reads again is skipped.
    let state = ReplicaState::read(replica_dir.path())
        .expect("reads")
        .expect("saved");
    assert_eq!(state.topic, url.topic);
    let replica = open_replica();
    assert_eq!(replica.store().snapshot().version(), 30);
    let from_zero = ReplicaState {
        topic: url.topic.clone(),
        offset: 0,
    };
    let follower = Follower::start(replica.clone(), url.clone(), None, from_zero).expect("follows");
    wait_for_version(&replica, 40);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(replica.store().snapshot().version(), 40);
    assert_eq!(image(&replica, scratch.path()), image(&db, scratch.path()));
    follower.close();
}

#[test]
#[ignore = "needs a Kafka broker: scripts/kafka/test"]
fn a_checkpointed_directory_publishes_to_a_new_topic_from_where_its_log_starts() {
    let url = fresh_topic("fresh");
    let dir = tempfile::tempdir().expect("tempdir");
    {
        // Written without publishing, then checkpointed: the log no longer holds
        // versions 1-3 (a loader's or a plain server's directory).
        let (db, _) = Database::open(dir.path(), DatabaseOptions::default()).expect("opens");
        for i in 0..3 {
            db.commit_one(&person(i, 10)).expect("commits");
        }
        db.checkpoint().expect("checkpoint");
    }
    let (db, consumed) = open(dir.path());
    let publisher = Publisher::start(options(&url), db.clone(), consumed).expect("starts");
    let (record, ack) = commit(&db, Some(&publisher), &[person(10, 10)]);
    assert_eq!(ack.recv_timeout(Duration::from_secs(30)), Ok(Ok(())));
    assert_eq!(publisher.acknowledged(), 4);
    assert!(publisher.admit().is_ok());
    assert_eq!(read_all(&url, 1), vec![record]);
}
