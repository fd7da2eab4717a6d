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

mod reply;
mod writer;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, Receiver, RecvTimeoutError, Sender};
use kith_protocol::ErrorCode as Code;
use kith_replication::Publisher;
use kith_storage::{Database, History, ReadCheck, WriteBatch, WriteSet};

pub(crate) use reply::Reply;

use crate::error::ExecError;
use crate::metrics::Histogram;

/// Where a transaction's time went on the server.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WriteTiming {
    /// From arrival to its group's commit starting.
    pub(crate) queued: Duration,
    /// Applying, logging and syncing its group.
    pub(crate) commit: Duration,
}

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

/// How long the writer's commit groups and the checkpoints took, for `/metrics`:
/// beside request latency they tell a disk stall from a server one.
#[derive(Default)]
pub(crate) struct WriterTimes {
    groups: Mutex<Histogram>,
    checkpoints: Mutex<Histogram>,
    checkpoint_failures: AtomicU64,
}

impl WriterTimes {
    fn group(&self, elapsed: Duration) {
        self.groups
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .observe(elapsed);
    }

    fn checkpoint(&self, elapsed: Duration) {
        let mut h = self.checkpoints.lock().unwrap_or_else(|p| p.into_inner());
        h.observe(elapsed);
    }

    fn checkpoint_failed(&self) {
        self.checkpoint_failures.fetch_add(1, Ordering::Relaxed);
    }

    /// Both histograms and the failures in the Prometheus text format.
    pub(crate) fn render(&self, out: &mut String) {
        let groups = self
            .groups
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let checkpoints = self
            .checkpoints
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        out.push_str(
            "# HELP kith_write_group_seconds The writer's time on a commit group (failed ones too): checks, apply, log append and fsync.\n\
             # TYPE kith_write_group_seconds histogram\n",
        );
        groups.render(out, "kith_write_group_seconds", "");
        out.push_str(
            "# HELP kith_checkpoint_seconds A checkpoint's time (failed ones too; written while writes go on).\n\
             # TYPE kith_checkpoint_seconds histogram\n",
        );
        checkpoints.render(out, "kith_checkpoint_seconds", "");
        out.push_str(&format!(
            "# HELP kith_checkpoint_failures_total Checkpoints that failed (the log is kept; retried after 10 s).\n\
             # TYPE kith_checkpoint_failures_total counter\nkith_checkpoint_failures_total {}\n",
            self.checkpoint_failures.load(Ordering::Relaxed)
        ));
    }
}

/// The queue, its writer thread and its checkpointer.
pub(crate) struct WriteQueue {
    sender: Mutex<Option<Sender<WriteJob>>>,
    capacity: usize,
    database: Arc<Database>,
    threads: Mutex<Option<Threads>>,
    publishing: Option<Arc<Publishing>>,
    /// Set by the writer when writing stopped for good.
    failure: Arc<OnceLock<String>>,
    times: Arc<WriterTimes>,
    history: Arc<Mutex<History>>,
}

impl WriteQueue {
    pub(crate) fn start(
        database: Arc<Database>,
        capacity: usize,
        limits: GroupLimits,
        publishing: Option<Publishing>,
    ) -> std::io::Result<WriteQueue> {
        Self::start_with(database, capacity, limits, publishing, Faults::default())
    }

    /// [`WriteQueue::start`], with the panics a test injects into the writer.
    fn start_with(
        database: Arc<Database>,
        capacity: usize,
        limits: GroupLimits,
        publishing: Option<Publishing>,
        faults: Faults,
    ) -> std::io::Result<WriteQueue> {
        let (sender, receiver) = bounded::<WriteJob>(capacity);
        let db = database.clone();
        let publishing = publishing.map(Arc::new);
        let publish = publishing.clone();
        let failure = Arc::new(OnceLock::new());
        let failed = failure.clone();
        let times = Arc::new(WriterTimes::default());
        let group_times = times.clone();
        let history = Arc::new(Mutex::new(writer::fresh_history(&database)));
        let writer_history = history.clone();
        let writer = std::thread::Builder::new()
            .name("kith-writer".into())
            .spawn(move || {
                writer::run_writer(&writer::Writer {
                    database: &db,
                    receiver: &receiver,
                    limits,
                    publishing: publish.as_deref(),
                    failure: &failed,
                    times: &group_times,
                    faults,
                    history: &writer_history,
                })
            })?;
        let (stop_checkpointer, stop) = bounded::<()>(1);
        let db = database.clone();
        let checkpoint_times = times.clone();
        let checkpointer = std::thread::Builder::new()
            .name("kith-checkpointer".into())
            .spawn(move || run_checkpointer(&db, &stop, &checkpoint_times))?;
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
            failure,
            times,
            history,
        })
    }

    /// The first commit after version `read` that changed what `set` changes, if
    /// any (what the writer would refuse as a conflict; every version up to one the
    /// store has made visible is known here).
    pub(crate) fn changed_since(&self, read: u64, set: &WriteSet) -> Option<u64> {
        writer::lock_history(&self.history).conflict(read, set)
    }

    /// How long commit groups and checkpoints took.
    pub(crate) fn times(&self) -> &WriterTimes {
        &self.times
    }

    /// Why writing stopped for good (a server bug on the writer thread), if it did.
    pub(crate) fn failure(&self) -> Option<&str> {
        self.failure.get().map(String::as_str)
    }

    /// The publisher, when the log is published to Kafka.
    pub(crate) fn publishing(&self) -> Option<&Publishing> {
        self.publishing.as_deref()
    }

    /// Queues a transaction, or hands it back with a `busy` error when the queue is
    /// full (or closed by shutdown), or `internal` once writing stopped.
    pub(crate) fn submit(&self, job: WriteJob) -> Result<(), (WriteJob, ExecError)> {
        if let Some(why) = self.failure() {
            return Err((job, stopped_error(why)));
        }
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

/// The answer to a write once writing stopped for good.
fn stopped_error(why: &str) -> ExecError {
    let message = format!(
        "writes are refused until the server restarts: {why}; every acknowledged write \
         is in its log, and reads go on"
    );
    ExecError::new(Code::Internal, message)
}

/// A stage of a group's commit where a test makes the writer panic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Before the store commits the group.
    Commit,
    /// Just after the store committed the group, before anything else.
    Committed,
    /// After the commit, just before its record is handed to the publisher.
    Publish,
}

/// The panics a test injects into the writer (none outside tests): a bug's stand-in,
/// since the store has no known one.
#[derive(Clone, Default)]
struct Faults {
    #[cfg(test)]
    panic_at: Arc<Mutex<Vec<Stage>>>,
}

impl Faults {
    /// Panics if a test asked for a panic at `stage` (once per time asked).
    fn at(&self, stage: Stage) {
        #[cfg(test)]
        {
            let mut wanted = self.panic_at.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(i) = wanted.iter().position(|s| *s == stage) {
                wanted.remove(i);
                drop(wanted);
                panic!("a panic injected at {stage:?}");
            }
        }
        let _ = stage;
    }
}

/// How long the checkpointer waits after a failed checkpoint before the next try.
const CHECKPOINT_RETRY: Duration = if cfg!(test) {
    Duration::from_millis(300)
} else {
    Duration::from_secs(10)
};

/// How often the checkpointer asks whether a checkpoint is due.
const CHECKPOINT_POLL: Duration = Duration::from_millis(200);

fn run_checkpointer(database: &Database, stop: &Receiver<()>, times: &WriterTimes) {
    let mut next_try = Instant::now();
    loop {
        match stop.recv_timeout(CHECKPOINT_POLL) {
            Err(RecvTimeoutError::Timeout) => {}
            Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
        }
        if Instant::now() < next_try || !database.checkpoint_due() {
            continue;
        }
        let started = Instant::now();
        // A panic (a bug) must not end checkpoints for good: the log would grow
        // until the disk is full. The store stays whole through one (the crash
        // injection's panic fault), so the next try may succeed.
        let written = catch_unwind(AssertUnwindSafe(|| database.checkpoint()));
        times.checkpoint(started.elapsed());
        let failure = match written {
            Ok(Ok(report)) => {
                tracing::info!(
                    version = report.version,
                    bytes = report.bytes,
                    removed_segments = report.removed_segments,
                    ms = report.elapsed.as_millis() as u64,
                    "checkpoint written"
                );
                continue;
            }
            Ok(Err(e)) => e.to_string(),
            Err(panic) => format!("a panic: {}", crate::pool::panic_text(panic.as_ref())),
        };
        times.checkpoint_failed();
        next_try = Instant::now() + CHECKPOINT_RETRY;
        tracing::error!(error = %failure, retry_s = CHECKPOINT_RETRY.as_secs(), "checkpoint failed; the log is kept");
    }
}

#[cfg(test)]
mod tests;
