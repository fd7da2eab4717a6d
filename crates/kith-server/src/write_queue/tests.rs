//! The writer survives its own bugs: a panic at each stage of a group's commit is
//! answered, leaves the graph whole, and writing goes on (or, where replicas would
//! miss versions, stops with a clear error while reads go on).

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use kith_core::write_op::{NodeRef, WriteOp};
use kith_core::{GraphView, Value};
use kith_protocol::ErrorCode as Code;
use kith_replication::{PublishOptions, Publisher};
use kith_storage::disk::{Fault, SimDisk};
use kith_storage::{Database, DatabaseOptions, ReadCheck, WriteBatch, WriteSet};

use super::{Faults, GroupLimits, Publishing, Reply, Stage, WriteJob, WriteQueue};
use crate::error::ExecError;

type Outcome = Result<u64, (Code, String)>;

fn limits() -> GroupLimits {
    GroupLimits {
        transactions_max: 64,
        ops_max: 10_000,
        linger: Duration::ZERO,
    }
}

fn open(dir: &tempfile::TempDir, options: DatabaseOptions) -> Arc<Database> {
    Arc::new(Database::open(dir.path(), options).expect("open").0)
}

fn queue(db: &Arc<Database>, faults: &Faults, publishing: Option<Publishing>) -> WriteQueue {
    WriteQueue::start_with(db.clone(), 16, limits(), publishing, faults.clone()).expect("start")
}

/// A queue whose writer waits `linger` for more of a group.
fn lingering(db: &Arc<Database>, linger: Duration) -> WriteQueue {
    let limits = GroupLimits { linger, ..limits() };
    WriteQueue::start_with(db.clone(), 16, limits, None, Faults::default()).expect("start")
}

/// The next group to reach `stage` panics there.
fn panic_at(faults: &Faults, stage: Stage) {
    faults.panic_at.lock().expect("the faults").push(stage);
}

fn create(id: i64) -> WriteBatch {
    WriteBatch {
        ops: vec![WriteOp::CreateNode {
            labels: vec!["Person".into()],
            properties: vec![("id".into(), Value::Int(id))],
        }],
    }
}

/// Submits `batch` and waits for its answer: the version it made, or the error.
fn write(queue: &WriteQueue, batch: WriteBatch, check: Option<ReadCheck>) -> Outcome {
    let (sender, answer) = mpsc::channel();
    let job = WriteJob {
        batch,
        check: check.map(Box::new),
        arrived: Instant::now(),
        replicated_answer: false,
        reply: Reply::new(move |outcome, _| {
            let _ = sender.send(outcome.map(|info| info.version).map_err(split));
        }),
    };
    if let Err((job, error)) = queue.submit(job) {
        job.reply.send(Err(error), super::WriteTiming::default());
    }
    answer
        .recv_timeout(Duration::from_secs(10))
        .expect("every write is answered")
}

fn split(e: ExecError) -> (Code, String) {
    (e.code, e.message)
}

fn version(db: &Database) -> u64 {
    db.store().snapshot().version()
}

#[test]
fn a_panic_before_the_commit_writes_nothing_and_writing_goes_on() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = open(&dir, DatabaseOptions::default());
    let faults = Faults::default();
    let queue = queue(&db, &faults, None);
    panic_at(&faults, Stage::Commit);
    let (code, message) = write(&queue, create(1), None).expect_err("refused");
    assert_eq!(code, Code::Internal);
    assert!(
        message.contains("whether it was committed is unknown"),
        "{message}"
    );
    assert_eq!(version(&db), 0, "nothing of the group was committed");
    assert_eq!(write(&queue, create(2), None), Ok(1));
    assert!(queue.failure().is_none());
}

#[test]
fn a_panic_inside_the_log_append_writes_nothing_and_the_log_stays_whole() {
    let disk = SimDisk::new(1);
    let options = |disk: &SimDisk| DatabaseOptions {
        disk: Arc::new(disk.clone()),
        ..DatabaseOptions::default()
    };
    let dir = Path::new("/data");
    let db = Arc::new(Database::open(dir, options(&disk)).expect("open").0);
    let queue = queue(&db, &Faults::default(), None);
    assert_eq!(write(&queue, create(1), None), Ok(1));
    // The next disk operation is the next group's log write: it leaves part of its
    // bytes, then panics.
    disk.fail_at(disk.points(), Fault::Panic);
    let (code, _) = write(&queue, create(2), None).expect_err("refused");
    assert_eq!(code, Code::Internal);
    assert_eq!(version(&db), 1, "the store did not take the group");
    assert_eq!(write(&queue, create(3), None), Ok(2), "writing goes on");
    // The process restarting now (before shutdown's checkpoint) replays the log:
    // the torn bytes were cut before version 2 was appended.
    let restarted = Database::open(dir, options(&disk.fork()))
        .expect("recovers")
        .0;
    let graph = restarted.store().snapshot();
    assert_eq!(graph.version(), 2);
    let person = graph.label_id("Person").expect("the label");
    let ids: Vec<bool> = (1..=3)
        .map(|id| graph.node_by_id(person, id).is_some())
        .collect();
    assert_eq!(ids, [true, false, true]);
}

#[test]
fn a_checkpoint_that_panics_is_tried_again() {
    let disk = SimDisk::new(2);
    let options = DatabaseOptions {
        disk: Arc::new(disk.clone()),
        checkpoint_interval: Duration::from_millis(1),
        ..DatabaseOptions::default()
    };
    let db = Arc::new(Database::open(Path::new("/data"), options).expect("open").0);
    let queue = queue(&db, &Faults::default(), None);
    // The write's log append and sync come first (nothing is due before it), then
    // the checkpoint's first disk operation panics.
    disk.fail_at(disk.points() + 2, Fault::Panic);
    assert_eq!(write(&queue, create(1), None), Ok(1));
    let deadline = Instant::now() + Duration::from_secs(10);
    let failures = || queue.times().checkpoint_failures.load(Ordering::Relaxed);
    while (failures() == 0 || db.log_bytes_since_checkpoint() > 0) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(failures(), 1, "the panic was counted");
    assert_eq!(
        db.log_bytes_since_checkpoint(),
        0,
        "the next try wrote the checkpoint"
    );
    assert_eq!(write(&queue, create(2), None), Ok(2));
}

#[test]
fn a_panic_after_the_commit_answers_it_and_refuses_what_can_no_longer_be_checked() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = open(&dir, DatabaseOptions::default());
    let faults = Faults::default();
    let queue = queue(&db, &faults, None);
    // A transaction that reads version 1 and changes person 1, committed later.
    let rename = WriteBatch {
        ops: vec![WriteOp::SetNodeProperty {
            node: NodeRef::ById {
                label: "Person".into(),
                id: 1,
            },
            key: "score".into(),
            value: Value::Int(7),
        }],
    };
    assert_eq!(write(&queue, create(1), None), Ok(1));
    let read = version(&db);
    let writes = WriteSet::of(&rename.ops, &db.store().snapshot());
    panic_at(&faults, Stage::Committed);
    // This group panics while its write set is recorded: it is committed, but its
    // client cannot be told so for sure.
    let (code, _) = write(&queue, create(2), None).expect_err("refused");
    assert_eq!(code, Code::Internal);
    assert_eq!(version(&db), 2, "the group was committed before the panic");
    // The history started again: a transaction that read before the panic cannot
    // be checked against the commit whose set was lost, so it is a conflict.
    let (code, message) =
        write(&queue, rename, Some(ReadCheck { read, writes })).expect_err("refused");
    assert_eq!(code, Code::Conflict, "{message}");
    assert_eq!(write(&queue, create(3), None), Ok(3), "writing goes on");
    assert!(queue.failure().is_none());
}

#[test]
fn a_panic_between_the_commit_and_the_publisher_stops_writing_for_good() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let consumed = Arc::new(AtomicU64::new(0));
    let options = DatabaseOptions {
        log_consumed: Some(consumed.clone()),
        ..DatabaseOptions::default()
    };
    let db = open(&dir, options);
    // No broker listens there: the publisher waits for it, and admits commits
    // while its backlog is small.
    let publish = PublishOptions {
        url: "kafka://127.0.0.1:9/kith-writer-panic"
            .parse()
            .expect("a topic URL"),
        buffer_bytes_max: 1 << 20,
        ack_timeout: Duration::from_secs(5),
    };
    let publisher = Publisher::start(publish, db.clone(), consumed).expect("publisher");
    let publishing = Publishing {
        publisher,
        sync: false,
    };
    let faults = Faults::default();
    let queue = queue(&db, &faults, Some(publishing));
    panic_at(&faults, Stage::Publish);
    let (code, _) = write(&queue, create(1), None).expect_err("refused");
    assert_eq!(code, Code::Internal);
    assert_eq!(version(&db), 1, "committed, never published");
    // The answer went out as the writer unwound; the failure is set just after.
    let deadline = Instant::now() + Duration::from_secs(10);
    while queue.failure().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    let why = queue.failure().expect("writing stopped").to_owned();
    assert!(why.contains("versions 1-1"), "{why}");
    let (code, message) = write(&queue, create(2), None).expect_err("refused");
    assert_eq!(code, Code::Internal);
    assert!(message.contains("until the server restarts"), "{message}");
    assert_eq!(version(&db), 1, "nothing more is committed");
    drop(queue);
    // A restart publishes the local log: version 1 is in it.
    drop(db);
    let db = open(&dir, DatabaseOptions::default());
    assert_eq!(version(&db), 1);
}

#[test]
fn an_answer_that_panics_leaves_its_commit_and_the_rest_of_its_group_standing() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = open(&dir, DatabaseOptions::default());
    // The writer lingers, so both transactions below make one group.
    let queue = lingering(&db, Duration::from_millis(300));
    let job = WriteJob {
        batch: create(1),
        check: None,
        arrived: Instant::now(),
        replicated_answer: false,
        reply: Reply::new(|_, _| panic!("a bug in answering")),
    };
    assert!(queue.submit(job).is_ok());
    // Answered after the one that panicked, from the same group: caught per answer,
    // that panic costs this one nothing.
    assert_eq!(write(&queue, create(2), None), Ok(2));
    assert_eq!(version(&db), 2);
}

#[test]
fn a_reply_dropped_unanswered_answers_internal() {
    let (sender, answer) = mpsc::channel();
    let reply = Reply::new(move |outcome, _| {
        let _ = sender.send(outcome.map(|info| info.version).map_err(split));
    });
    drop(reply);
    let (code, _) = answer.recv().expect("answered").expect_err("refused");
    assert_eq!(code, Code::Internal);
}
