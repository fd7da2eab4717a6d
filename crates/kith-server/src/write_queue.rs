//! The durable write queue: one writer thread that coalesces transactions from every
//! connection into commit groups.
//!
//! S3 measured that batching decides write throughput, and that a server-side queue
//! which acknowledges before the disk loses writes on power loss. Here a transaction
//! is acknowledged only after the fsync of the group that holds it; while one group's
//! fsync runs, the next group accumulates, so the group size adapts to the load
//! without any timer (a linger can still be configured). The queue is bounded: when it
//! is full the answer is `busy`.
//!
//! A second thread checkpoints when the log has grown past its threshold or the
//! checkpoint interval has passed, without stopping the writer.
//!
//! A primary that publishes its log to Kafka (docs/replication.md) hands each
//! group's log record to its `Publisher` after the fsync, in commit order. The
//! publisher's backlog is checked before a group is committed (too far behind:
//! `busy`; failed for good: `replication_failed`), and with `--replication sync` a
//! transaction is answered only once Kafka acknowledged its group.

use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, Receiver, RecvTimeoutError, Sender, TryRecvError};
use kith_protocol::ErrorCode as Code;
use kith_replication::{Ack, Publisher, Refusal};
use kith_storage::{
    CommitInfo, Database, History, ReadCheck, Snapshot, StorageError, WriteBatch, WriteSet,
};

use crate::error::ExecError;

/// Where a transaction's time went on the server.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WriteTiming {
    /// From arrival to its group's commit starting.
    pub(crate) queued: Duration,
    /// Applying, logging and syncing its group.
    pub(crate) commit: Duration,
}

/// Called once with the transaction's outcome, on the writer thread, after its group
/// is durable (or failed). It must not block.
pub(crate) type Reply = Box<dyn FnOnce(Result<CommitInfo, ExecError>, WriteTiming) + Send>;

/// One queued transaction.
pub(crate) struct WriteJob {
    pub(crate) batch: WriteBatch,
    /// For a transaction that read an older version: checked against the commits
    /// since (a collision is answered `conflict`, nothing written).
    pub(crate) check: Option<Box<ReadCheck>>,
    pub(crate) arrived: Instant,
    pub(crate) reply: Reply,
    /// With `--replication sync`, whether the answer waits for Kafka too (the
    /// ingest's jobs do not: their progress is the committed cursor).
    pub(crate) replicated_answer: bool,
}

/// Bounds of one commit group.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GroupLimits {
    pub(crate) transactions_max: usize,
    pub(crate) ops_max: usize,
    pub(crate) linger: Duration,
}

struct Threads {
    writer: JoinHandle<()>,
    checkpointer: JoinHandle<()>,
    stop_checkpointer: Sender<()>,
}

/// Where the log is published, and whether answers wait for it.
pub struct Publishing {
    /// The publisher, started on the database before the writer.
    pub publisher: Publisher,
    /// Whether a write is answered only once Kafka acknowledged it.
    pub sync: bool,
}

/// The queue, its writer thread and its checkpointer.
pub(crate) struct WriteQueue {
    sender: Mutex<Option<Sender<WriteJob>>>,
    capacity: usize,
    database: Arc<Database>,
    threads: Mutex<Option<Threads>>,
    publishing: Option<Arc<Publishing>>,
}

impl WriteQueue {
    pub(crate) fn start(
        database: Arc<Database>,
        capacity: usize,
        limits: GroupLimits,
        publishing: Option<Publishing>,
    ) -> std::io::Result<WriteQueue> {
        let (sender, receiver) = bounded::<WriteJob>(capacity);
        let db = database.clone();
        let publishing = publishing.map(Arc::new);
        let publish = publishing.clone();
        let writer = std::thread::Builder::new()
            .name("kith-writer".into())
            .spawn(move || run_writer(&db, &receiver, limits, publish.as_deref()))?;
        let (stop_checkpointer, stop) = bounded::<()>(1);
        let db = database.clone();
        let checkpointer = std::thread::Builder::new()
            .name("kith-checkpointer".into())
            .spawn(move || run_checkpointer(&db, &stop))?;
        Ok(WriteQueue {
            sender: Mutex::new(Some(sender)),
            capacity,
            database,
            threads: Mutex::new(Some(Threads {
                writer,
                checkpointer,
                stop_checkpointer,
            })),
            publishing,
        })
    }

    /// The publisher, when the log is published to Kafka.
    pub(crate) fn publishing(&self) -> Option<&Publishing> {
        self.publishing.as_deref()
    }

    /// Queues a transaction, or hands it back with a `busy` error when the queue is
    /// full (or closed by shutdown).
    pub(crate) fn submit(&self, job: WriteJob) -> Result<(), (WriteJob, ExecError)> {
        let guard = self.sender.lock().unwrap_or_else(|p| p.into_inner());
        let Some(sender) = guard.as_ref() else {
            return Err((
                job,
                ExecError::new(
                    kith_protocol::ErrorCode::Busy,
                    "the server is shutting down",
                ),
            ));
        };
        sender.try_send(job).map_err(|e| {
            let message = format!(
                "the write queue is full ({} transactions waiting, write_queue_max); retry later",
                self.capacity
            );
            (
                e.into_inner(),
                ExecError::new(kith_protocol::ErrorCode::Busy, message),
            )
        })
    }

    /// Transactions waiting.
    pub(crate) fn queued(&self) -> usize {
        self.sender
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .map_or(0, Sender::len)
    }

    /// Stops taking writes, commits everything queued, stops the checkpointer and
    /// writes the final checkpoint. Idempotent.
    pub(crate) fn shutdown(&self) {
        drop(self.sender.lock().unwrap_or_else(|p| p.into_inner()).take());
        let threads = self
            .threads
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        let Some(threads) = threads else {
            return;
        };
        let _ = threads.writer.join();
        let _ = threads.stop_checkpointer.send(());
        let _ = threads.checkpointer.join();
        match self.database.close() {
            Ok(Some(report)) => tracing::info!(
                version = report.version,
                bytes = report.bytes,
                ms = report.elapsed.as_millis() as u64,
                "final checkpoint written"
            ),
            Ok(None) => {}
            Err(e) => {
                tracing::error!(error = %e, "the final checkpoint failed; the log still holds every write")
            }
        }
        if let Some(publishing) = &self.publishing {
            publishing.publisher.close();
        }
    }
}

impl Drop for WriteQueue {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Takes the next group: blocks for its first transaction, then takes whatever else
/// is already queued up to the limits (waiting up to `linger` for more). `None` once
/// the queue is closed and empty.
fn next_group(receiver: &Receiver<WriteJob>, limits: GroupLimits) -> Option<Vec<WriteJob>> {
    let first = receiver.recv().ok()?;
    let mut ops = first.batch.ops.len();
    let mut group = vec![first];
    let deadline = Instant::now() + limits.linger;
    while group.len() < limits.transactions_max && ops < limits.ops_max {
        let next = match receiver.try_recv() {
            Ok(job) => job,
            Err(TryRecvError::Disconnected) => break,
            Err(TryRecvError::Empty) => {
                let now = Instant::now();
                if now >= deadline {
                    break;
                }
                match receiver.recv_timeout(deadline - now) {
                    Ok(job) => job,
                    Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
                }
            }
        };
        ops += next.batch.ops.len();
        group.push(next);
    }
    Some(group)
}

/// Commits kept for conflict checks: a transaction open across more commits than
/// this is refused as a conflict (it cannot be checked).
const HISTORY_COMMITS_MAX: usize = 100_000;

/// Entities the kept commits may name together (about 40 bytes each): 4 million,
/// so bulk writes cannot grow the history past a few hundred megabytes.
const HISTORY_ENTITIES_MAX: usize = 4_000_000;

fn run_writer(
    database: &Database,
    receiver: &Receiver<WriteJob>,
    limits: GroupLimits,
    publishing: Option<&Publishing>,
) {
    let version = database.store().snapshot().version();
    let mut history = History::new(version, HISTORY_COMMITS_MAX, HISTORY_ENTITIES_MAX);
    while let Some(group) = next_group(receiver, limits) {
        let started = Instant::now();
        if let Some(refusal) = publishing.and_then(|p| p.publisher.admit().err()) {
            refuse_all(group, &refusal, started);
            continue;
        }
        let (group, sets) = checked(group, &history, &database.store().snapshot(), started);
        if group.is_empty() {
            continue;
        }
        let batches: Vec<&WriteBatch> = group.iter().map(|job| &job.batch).collect();
        let outcome = match publishing {
            Some(_) => database.commit_logged(&batches),
            None => database.commit(&batches).map(|results| (results, None)),
        };
        let commit = started.elapsed();
        match outcome {
            Ok((results, record)) => {
                let wait = publishing.is_some_and(|p| p.sync);
                let mut acks: Vec<Ack> = Vec::new();
                for ((job, result), (set, was_checked)) in group.into_iter().zip(results).zip(sets)
                {
                    if let Ok(info) = &result {
                        history.record(info.version, set);
                    }
                    let timing = WriteTiming {
                        queued: started.duration_since(job.arrived),
                        commit,
                    };
                    match result {
                        Ok(info) if wait && job.replicated_answer => {
                            acks.push(after_ack(job.reply, info, timing))
                        }
                        result => (job.reply)(result.map_err(|e| refused(&e, was_checked)), timing),
                    }
                }
                if let (Some(p), Some(record)) = (publishing, record) {
                    p.publisher.publish(record, acks);
                }
            }
            Err(error) => {
                tracing::error!(%error, "a commit group could not be logged; nothing of it was applied");
                for job in group {
                    let timing = WriteTiming {
                        queued: started.duration_since(job.arrived),
                        commit,
                    };
                    let code = crate::codes::of_storage(&error);
                    (job.reply)(Err(ExecError::new(code, error.to_string())), timing);
                }
            }
        }
    }
}

/// Answers a group the publisher refused before anything of it was committed.
fn refuse_all(group: Vec<WriteJob>, refusal: &Refusal, started: Instant) {
    let code = match refusal {
        Refusal::Behind { .. } => Code::Busy,
        Refusal::Failed(_) => Code::ReplicationFailed,
    };
    for job in group {
        let timing = WriteTiming {
            queued: started.duration_since(job.arrived),
            commit: Duration::ZERO,
        };
        (job.reply)(Err(ExecError::new(code, refusal.to_string())), timing);
    }
}

/// A committed transaction's answer, sent once Kafka acknowledged its group.
fn after_ack(reply: Reply, info: CommitInfo, timing: WriteTiming) -> Ack {
    Box::new(move |acked| {
        let result = acked
            .map(|()| info)
            .map_err(|e| ExecError::new(Code::ReplicationFailed, e.to_string()));
        reply(result, timing);
    })
}

/// The jobs of a group that may commit, with what each changes: a transaction whose
/// writes collide with a commit after the version it read, or with an earlier job of
/// the group, is answered `conflict` here and left out.
fn checked(
    group: Vec<WriteJob>,
    history: &History,
    current: &Snapshot,
    started: Instant,
) -> (Vec<WriteJob>, Vec<(WriteSet, bool)>) {
    let mut kept = Vec::with_capacity(group.len());
    let mut sets: Vec<(WriteSet, bool)> = Vec::with_capacity(group.len());
    for mut job in group {
        if let Some(check) = &job.check {
            let collides = history.conflict(check.read, &check.writes).or_else(|| {
                sets.iter()
                    .any(|(s, _)| s.conflicts(&check.writes))
                    .then_some(current.version() + 1)
            });
            if let Some(version) = collides {
                let message = format!(
                    "the transaction read version {} and changes what the commit of version {version} changed; run it again",
                    check.read
                );
                let timing = WriteTiming {
                    queued: started.duration_since(job.arrived),
                    commit: Duration::ZERO,
                };
                (job.reply)(Err(ExecError::new(Code::Conflict, message)), timing);
                continue;
            }
        }
        // A checked transaction's set is what it changed of the version it read;
        // an entity it names exists there, so it is the set to remember, not
        // computed again here on the writer thread.
        let set = match job.check.take() {
            Some(check) => (check.writes, true),
            None => (WriteSet::of(&job.batch.ops, current), false),
        };
        sets.push(set);
        kept.push(job);
    }
    (kept, sets)
}

/// The answer to a batch the store refused. A checked transaction passed every
/// uniqueness check on the version it read (its private version runs them), so a
/// duplicate now comes from a commit made since: a conflict, worth running again
/// (a MERGE run again finds the node the other transaction created).
fn refused(e: &StorageError, was_checked: bool) -> ExecError {
    if was_checked && matches!(e, StorageError::NotUnique { .. }) {
        let message = format!("{e}: it was committed after this transaction read; run it again");
        return ExecError::new(Code::Conflict, message);
    }
    ExecError::new(crate::codes::of_storage(e), e.to_string())
}

/// How often the checkpointer asks whether a checkpoint is due.
const CHECKPOINT_POLL: Duration = Duration::from_millis(200);

fn run_checkpointer(database: &Database, stop: &Receiver<()>) {
    loop {
        match stop.recv_timeout(CHECKPOINT_POLL) {
            Err(RecvTimeoutError::Timeout) => {}
            Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
        }
        if !database.checkpoint_due() {
            continue;
        }
        match database.checkpoint() {
            Ok(report) => tracing::info!(
                version = report.version,
                bytes = report.bytes,
                removed_segments = report.removed_segments,
                ms = report.elapsed.as_millis() as u64,
                "checkpoint written"
            ),
            Err(e) => tracing::error!(error = %e, "checkpoint failed; the log is kept"),
        }
    }
}
