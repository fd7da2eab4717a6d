//! The writer thread: takes commit groups off the queue, checks them for conflicts,
//! commits them, hands their record to the publisher and answers them.
//!
//! A bug that panics here must not take writing down with it, nor leave a client
//! waiting: each group runs under `catch_unwind`, and what the writer does next
//! depends on how far the group got (`Progress`). The store keeps its current
//! version intact through a panic in a commit (the new version is a private copy
//! until the log append succeeded, and a log append that did not finish is cut off
//! before the next one), so only one case stops writing: a group committed but not
//! handed to the publisher, since replicas would then miss its versions.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, TryRecvError};
use kith_protocol::ErrorCode as Code;
use kith_replication::{Ack, Refusal};
use kith_storage::{
    CommitInfo, Database, GroupResults, History, LogRecord, Snapshot, StorageError, WriteBatch,
    WriteSet,
};

use super::{Faults, GroupLimits, Publishing, Reply, Stage, WriteJob, WriteTiming, WriterTimes};
use crate::error::ExecError;

/// Commits kept for conflict checks: a transaction open across more commits than
/// this is refused as a conflict (it cannot be checked).
const HISTORY_COMMITS_MAX: usize = 100_000;

/// Entities the kept commits may name together (about 40 bytes each): 4 million,
/// so bulk writes cannot grow the history past a few hundred megabytes.
const HISTORY_ENTITIES_MAX: usize = 4_000_000;

/// What the writer thread works with.
pub(super) struct Writer<'a> {
    pub(super) database: &'a Database,
    pub(super) receiver: &'a Receiver<WriteJob>,
    pub(super) limits: GroupLimits,
    pub(super) publishing: Option<&'a Publishing>,
    /// Set once writing stopped for good, with why.
    pub(super) failure: &'a OnceLock<String>,
    pub(super) times: &'a WriterTimes,
    pub(super) faults: Faults,
    /// The recent commits' write sets, shared with statements that check theirs
    /// before they commit (`WriteQueue::changed_since`).
    pub(super) history: &'a Mutex<History>,
}

/// The history, also after a panic elsewhere held it (it is replaced then).
pub(super) fn lock_history(history: &Mutex<History>) -> MutexGuard<'_, History> {
    history.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How far a group got before a panic.
struct Progress {
    /// The store's version before the group: only the writer commits, so a higher
    /// one after a panic is the group's, however far past the commit it got.
    before: u64,
    /// Its record is with the publisher (or there is none to publish).
    published: bool,
}

impl Progress {
    /// The versions the group committed, if any.
    fn committed(&self, database: &Database) -> Option<(u64, u64)> {
        let now = database.store().snapshot().version();
        (now > self.before).then_some((self.before + 1, now))
    }
}

pub(super) fn run_writer(w: &Writer<'_>) {
    while let Some(group) = next_group(w.receiver, w.limits) {
        if let Some(why) = w.failure.get() {
            refuse_stopped(group, why);
            continue;
        }
        let mut progress = Progress {
            before: w.database.store().snapshot().version(),
            published: false,
        };
        let ran = catch_unwind(AssertUnwindSafe(|| commit_group(w, group, &mut progress)));
        if let Err(panic) = ran {
            let what = crate::pool::panic_text(panic.as_ref());
            after_a_panic(w, &progress, &what);
        }
    }
}

/// A conflict history that starts at the current version: a transaction that read
/// an older one is refused as a conflict (it cannot be checked).
pub(super) fn fresh_history(database: &Database) -> History {
    let version = database.store().snapshot().version();
    History::new(version, HISTORY_COMMITS_MAX, HISTORY_ENTITIES_MAX)
}

/// Decides how the writer goes on after a group panicked (its unanswered jobs were
/// answered `internal` as their replies dropped).
fn after_a_panic(w: &Writer<'_>, progress: &Progress, what: &str) {
    match progress.committed(w.database) {
        None => tracing::error!(
            panic = %what,
            "a commit group panicked before it was committed; nothing of it was written, and writing goes on"
        ),
        Some((first, last)) if w.publishing.is_some() && !progress.published => {
            let why = format!(
                "a server bug (\"{what}\") stopped the writer after it committed versions \
                 {first}-{last} and before it published them to Kafka"
            );
            tracing::error!(%why, "writes are refused until the server restarts (it publishes its log again then); reads go on");
            let _ = w.failure.set(why);
        }
        Some((first, last)) => {
            // The commits' write sets may be missing from the history: starting it
            // again refuses the transactions it could no longer check.
            tracing::error!(
                panic = %what, first, last,
                "a commit group panicked after it was committed; writing goes on, and open transactions that read before it are refused as conflicts"
            );
            *lock_history(w.history) = fresh_history(w.database);
        }
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

fn commit_group(w: &Writer<'_>, group: Vec<WriteJob>, progress: &mut Progress) {
    let started = Instant::now();
    if let Some(refusal) = w.publishing.and_then(|p| p.publisher.admit().err()) {
        return refuse_all(group, &refusal, started);
    }
    let current = w.database.store().snapshot();
    let (group, sets) = checked(group, &lock_history(w.history), &current, started);
    if group.is_empty() {
        return;
    }
    w.faults.at(Stage::Commit);
    let batches: Vec<&WriteBatch> = group.iter().map(|job| &job.batch).collect();
    let outcome = match w.publishing {
        Some(_) => w.database.commit_logged(&batches),
        None => w.database.commit(&batches).map(|results| (results, None)),
    };
    let commit = started.elapsed();
    w.times.group(commit);
    match outcome {
        Ok((results, record)) => {
            w.faults.at(Stage::Committed);
            let done = Committed {
                results,
                record,
                started,
                commit,
            };
            finish(w, group, sets, done, progress);
        }
        Err(error) => {
            tracing::error!(%error, "a commit group could not be logged; nothing of it was applied");
            for job in group {
                let timing = WriteTiming {
                    queued: started.duration_since(job.arrived),
                    commit,
                };
                let code = crate::codes::of_storage(&error);
                job.reply
                    .send(Err(ExecError::new(code, error.to_string())), timing);
            }
        }
    }
}

/// A group's commit, as the store answered it.
struct Committed {
    results: GroupResults,
    record: Option<LogRecord>,
    started: Instant,
    commit: Duration,
}

/// After a group's commit: hands its record to the publisher first (nothing that
/// could fail comes between the commit and that), then records its write sets and
/// answers the transactions not waiting for Kafka.
fn finish(
    w: &Writer<'_>,
    group: Vec<WriteJob>,
    sets: Vec<(WriteSet, bool)>,
    done: Committed,
    progress: &mut Progress,
) {
    let wait = w.publishing.is_some_and(|p| p.sync);
    let mut acks: Vec<Ack> = Vec::new();
    let mut answers = Vec::with_capacity(group.len());
    let mut recorded = Vec::with_capacity(group.len());
    for ((job, result), (set, was_checked)) in group.into_iter().zip(done.results).zip(sets) {
        let timing = WriteTiming {
            queued: done.started.duration_since(job.arrived),
            commit: done.commit,
        };
        match result {
            Ok(info) => {
                recorded.push((info.version, set));
                if wait && job.replicated_answer {
                    acks.push(after_ack(job.reply, info, timing));
                } else {
                    answers.push((job.reply, Ok(info), timing));
                }
            }
            Err(e) => answers.push((job.reply, Err(refused(&e, was_checked)), timing)),
        }
    }
    if let (Some(p), Some(record)) = (w.publishing, done.record) {
        w.faults.at(Stage::Publish);
        p.publisher.publish(record, acks);
    }
    progress.published = true;
    let mut history = lock_history(w.history);
    for (version, set) in recorded {
        history.record(version, set);
    }
    drop(history);
    for (reply, result, timing) in answers {
        reply.send(result, timing);
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
        job.reply
            .send(Err(ExecError::new(code, refusal.to_string())), timing);
    }
}

/// Answers a group queued before writing stopped.
fn refuse_stopped(group: Vec<WriteJob>, why: &str) {
    for job in group {
        job.reply
            .send(Err(super::stopped_error(why)), WriteTiming::default());
    }
}

/// A committed transaction's answer, sent once Kafka acknowledged its group.
fn after_ack(reply: Reply, info: CommitInfo, timing: WriteTiming) -> Ack {
    Box::new(move |acked| {
        let result = acked
            .map(|()| info)
            .map_err(|e| ExecError::new(Code::ReplicationFailed, e.to_string()));
        reply.send(result, timing);
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
                job.reply
                    .send(Err(ExecError::new(Code::Conflict, message)), timing);
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
