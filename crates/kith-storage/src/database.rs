//! A durable graph: a data directory holding the last checkpoint and the log after it.
//!
//! ```text
//! DATA_DIR/graph.kith    the last checkpoint (a graph file with its commit version)
//! DATA_DIR/wal/*.wal     log segments; together they hold every version after it
//! DATA_DIR/LOCK          held (advisory lock) by the one process using the directory
//! ```
//!
//! Commit = apply the group to a private version, append it to the log as one record,
//! fsync, then publish: readers never see a write that is not on disk, and a write is
//! acknowledged only after its group's fsync. Recovery = load the checkpoint, replay
//! the log records after its version, cut a torn tail. A checkpoint rotates the log,
//! writes the graph file atomically, and only then removes the segments it covers.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::disk::{DirLock, Disk, OsDisk};
use crate::graph_file::{load_snapshot_on, write_graph_file_on, GRAPH_FILE_VERSION};
use crate::store::GroupResults;
use crate::wal::{self, Durability, WalWriter};
use crate::{Snapshot, StorageError, Store, WriteBatch};

/// The checkpoint's file name inside a data directory.
pub const CHECKPOINT_FILE: &str = "graph.kith";
const WAL_DIR: &str = "wal";
const LOCK_FILE: &str = "LOCK";
/// The version a consumer of the log (replication) has taken; checkpoints keep the
/// segments above it, whoever opens the directory.
pub const LOG_CONSUMED_FILE: &str = "log-consumed";

/// How a database commits and when it checkpoints.
#[derive(Clone, Debug)]
pub struct DatabaseOptions {
    /// Whether commits wait for the disk.
    pub durability: Durability,
    /// Log bytes after which [`Database::checkpoint_due`] says a checkpoint is due.
    pub checkpoint_wal_bytes: u64,
    /// Time after which a checkpoint is due if anything was written since the last.
    pub checkpoint_interval: Duration,
    /// The highest version a consumer of the log (replication to Kafka) has taken;
    /// checkpoints keep the log segments holding anything above it, so what was not
    /// yet published can be sent again after a restart. `None`: nobody reads the log
    /// now, but a directory whose log was consumed before (it has a `log-consumed`
    /// file) still keeps what its file says was not taken.
    pub log_consumed: Option<Arc<AtomicU64>>,
    /// The file system: the real one, or a simulated disk in crash-injection tests.
    pub disk: Arc<dyn Disk>,
}

impl Default for DatabaseOptions {
    fn default() -> Self {
        DatabaseOptions {
            durability: Durability::Fsync,
            checkpoint_wal_bytes: 256 * 1024 * 1024,
            checkpoint_interval: Duration::from_secs(15 * 60),
            log_consumed: None,
            disk: Arc::new(OsDisk),
        }
    }
}

/// What opening a data directory found and did.
#[derive(Clone, Debug, Default)]
pub struct RecoveryReport {
    /// Whether a checkpoint file was there (a new directory starts empty).
    pub checkpoint_found: bool,
    /// The version the checkpoint holds.
    pub checkpoint_version: u64,
    /// Log records (commit groups) replayed after it.
    pub replayed_groups: u64,
    /// Transactions replayed after it.
    pub replayed_transactions: u64,
    /// The version now served.
    pub version: u64,
    /// A torn or damaged log tail that was cut, described with its file and offset.
    pub cut_tail: Option<String>,
    /// Time to load the checkpoint.
    pub load_time: Duration,
    /// Time to replay the log.
    pub replay_time: Duration,
}

/// One commit group as the log holds it: the payload of its record
/// (docs/storage-format.md 2), which is also what replication publishes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogRecord {
    /// The version of its first transaction.
    pub first_version: u64,
    /// Transactions in the group (versions `first_version ..`).
    pub transactions: u32,
    /// The record's payload: first version, count, then each transaction.
    pub payload: Vec<u8>,
}

impl LogRecord {
    /// The version of its last transaction.
    pub fn last_version(&self) -> u64 {
        self.first_version + u64::from(self.transactions) - 1
    }
}

/// What one checkpoint did.
#[derive(Clone, Debug)]
pub struct CheckpointReport {
    /// The version written.
    pub version: u64,
    /// Size of the graph file.
    pub bytes: u64,
    /// Log segments removed because the checkpoint covers them.
    pub removed_segments: usize,
    /// Wall time.
    pub elapsed: Duration,
}

struct LogState {
    writer: WalWriter,
    bytes_since_checkpoint: u64,
    last_checkpoint: Instant,
    /// The version the checkpoint file holds, if there is one.
    checkpointed: Option<u64>,
    /// Log records (commit groups) appended since opening.
    groups: u64,
}

/// A graph with a write-ahead log and checkpoints in a data directory.
pub struct Database {
    dir: PathBuf,
    store: Arc<Store>,
    log: Mutex<LogState>,
    checkpointing: Mutex<()>,
    options: DatabaseOptions,
    /// Holds the directory's advisory lock for as long as the database is open.
    _lock: DirLock,
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> StorageError + '_ {
    move |source| StorageError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the log lock happens before or after a whole append; the
    // writer's own `failed` flag records a broken append.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Database {
    /// Opens (creating if needed) the data directory `dir` and recovers it.
    pub fn open(
        dir: &Path,
        options: DatabaseOptions,
    ) -> Result<(Database, RecoveryReport), StorageError> {
        let disk = Arc::clone(&options.disk);
        let wal_dir = dir.join(WAL_DIR);
        disk.create_dir_all(&wal_dir).map_err(io_error(&wal_dir))?;
        // A new `wal/` entry is durable only once its parent directory is synced.
        wal::sync_dir(&*disk, dir)?;
        let lock_path = dir.join(LOCK_FILE);
        let Some(lock_file) = disk.lock(&lock_path).map_err(io_error(&lock_path))? else {
            return Err(StorageError::Locked(dir.to_path_buf()));
        };
        // A checkpoint interrupted before its rename leaves its temporary file.
        let leftover = dir.join(CHECKPOINT_FILE).with_extension("tmp");
        if disk.exists(&leftover) {
            disk.remove(&leftover).map_err(io_error(&leftover))?;
        }

        let options = with_log_floor(dir, options)?;
        let mut report = RecoveryReport::default();
        let started = Instant::now();
        let checkpoint = dir.join(CHECKPOINT_FILE);
        let mut snapshot = if disk.exists(&checkpoint) {
            report.checkpoint_found = true;
            load_snapshot_on(&*disk, &checkpoint)?
        } else {
            Snapshot::empty()
        };
        report.checkpoint_version = snapshot.version;
        report.load_time = started.elapsed();

        let started = Instant::now();
        let segments = wal::list_segments(&*disk, &wal_dir)?;
        if let Some(first) = segments.first() {
            if first.first_version > snapshot.version + 1 {
                return Err(StorageError::Corrupt {
                    path: first.path.clone(),
                    reason: format!(
                        "the log starts at version {} but the checkpoint ends at version {}: \
                         segments are missing",
                        first.first_version, snapshot.version
                    ),
                });
            }
        }
        // Damage is a torn write only where the log ends: in the newest segment, or in
        // one followed only by empty segments whose records reach the first of them (a
        // failed rotation whose stray segment could not be removed, the writer going on
        // in the older segment, then a crash mid-append). A rotation syncs the old
        // segment first, so damage below the empty segment's start is not torn.
        let log_end = wal::last_with_records(&*disk, &segments)?;
        // The version after the newest segment's last record.
        let mut newest_next = 0;
        for (i, segment) in segments.iter().enumerate() {
            let newest = i + 1 == segments.len();
            // A segment whose successor starts at or before the checkpoint's next
            // version is wholly covered (left by a crash before its removal).
            if segments
                .get(i + 1)
                .is_some_and(|next| next.first_version <= snapshot.version + 1)
            {
                continue;
            }
            // The version after this segment's last valid record.
            let mut next = segment.first_version;
            let scan = wal::scan_segment(&*disk, segment, |first_version, batches| {
                report.replayed_groups += 1;
                next = first_version + batches.len() as u64;
                for (j, batch) in batches.iter().enumerate() {
                    let version = first_version + j as u64;
                    if version <= snapshot.version {
                        continue;
                    }
                    snapshot
                        .apply_batch(batch)
                        .map_err(|e| StorageError::Corrupt {
                            path: segment.path.clone(),
                            reason: format!("replaying version {version} failed: {e}"),
                        })?;
                    snapshot.version = version;
                    report.replayed_transactions += 1;
                }
                Ok(())
            })?;
            if newest {
                newest_next = next;
            }
            if let Some(damage) = scan.damage {
                let torn = newest
                    || (log_end.is_some_and(|end| i >= end)
                        && segments[i + 1].first_version <= next);
                if !torn {
                    return Err(StorageError::Corrupt {
                        path: segment.path.clone(),
                        reason: format!(
                            "{damage}; this is not the newest segment, so it is not a torn \
                             write, and later segments cannot be applied without it"
                        ),
                    });
                }
                disk.truncate(&segment.path, scan.valid_len)
                    .map_err(io_error(&segment.path))?;
                let message = format!(
                    "{}: cut the log after its last valid record: {damage}",
                    segment.path.display()
                );
                tracing::warn!("{message}");
                report.cut_tail = Some(message);
            }
        }
        // What was replayed is served, so it must be durable before it is: a record
        // whose fsync failed (its group answered as failed) can still be whole in
        // the page cache after a process restart. (On Linux, pages an fsync failed to
        // write may be marked clean and not written again; the writer's own tail cut
        // covers that case while the process lives.) Found by crash injection.
        for segment in &segments {
            disk.append(&segment.path)
                .and_then(|mut file| file.sync_all())
                .map_err(io_error(&segment.path))?;
        }
        report.replay_time = started.elapsed();
        report.version = snapshot.version;

        // The newest segment is appended to only if it ends where the graph does: a
        // checkpoint newer than the whole log (a replica's reset, interrupted before
        // its new segment was made) starts a segment of its own.
        let writer = match segments.last() {
            Some(last) if newest_next == snapshot.version + 1 => {
                WalWriter::append_to(&disk, &wal_dir, last.clone(), options.durability)?
            }
            Some(_) => {
                let writer =
                    WalWriter::create(&disk, &wal_dir, snapshot.version + 1, options.durability)?;
                // Segments the checkpoint covers go (kept only above a replication
                // floor). The checkpoint's version, not the replayed one: the newest
                // segment may be an empty one a failed checkpoint left behind older
                // segments that hold versions no checkpoint has (found in review of
                // the crash-injection work).
                let covered = report.checkpoint_version;
                let floor = options
                    .log_consumed
                    .as_ref()
                    .map_or(covered, |c| covered.min(c.load(Ordering::Acquire)));
                wal::remove_segments_covered(&*disk, &wal_dir, floor, writer.first_version())?;
                // An empty segment left by a failed rotation would sit between the
                // older segment (which went on past its start) and the new one, and
                // mislead the readers that take a segment to end where the next
                // starts (found in review). It holds nothing: it goes.
                wal::remove_empty_segments(&*disk, &wal_dir, &segments)?;
                writer
            }
            None => WalWriter::create(&disk, &wal_dir, snapshot.version + 1, options.durability)?,
        };
        let database = Database {
            dir: dir.to_path_buf(),
            store: Arc::new(Store::new(snapshot)),
            log: Mutex::new(LogState {
                writer,
                bytes_since_checkpoint: 0,
                last_checkpoint: Instant::now(),
                checkpointed: report.checkpoint_found.then_some(report.checkpoint_version),
                groups: 0,
            }),
            checkpointing: Mutex::new(()),
            options,
            _lock: lock_file,
        };
        Ok((database, report))
    }

    /// The store readers take snapshots from. Write through [`Database::commit`]:
    /// writing to the store directly would bypass the log.
    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    /// The data directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The options it was opened with.
    pub fn options(&self) -> &DatabaseOptions {
        &self.options
    }

    /// Commits a group of independent transactions with one log append and (with
    /// `Durability::Fsync`) one fsync. Each transaction succeeds or fails on its own;
    /// the outer error means the log could not be written and nothing was committed.
    pub fn commit(&self, batches: &[&WriteBatch]) -> Result<GroupResults, StorageError> {
        self.commit_inner(batches, false)
            .map(|(results, _)| results)
    }

    /// Like [`Database::commit`], and also hands back a copy of the log record the
    /// group was written as (`None` when no transaction of it applied), in commit
    /// order, for replication.
    pub fn commit_logged(
        &self,
        batches: &[&WriteBatch],
    ) -> Result<(GroupResults, Option<LogRecord>), StorageError> {
        self.commit_inner(batches, true)
    }

    fn commit_inner(
        &self,
        batches: &[&WriteBatch],
        keep_record: bool,
    ) -> Result<(GroupResults, Option<LogRecord>), StorageError> {
        let mut log = lock(&self.log);
        let log = &mut *log;
        let mut record = None;
        let results = self.store.apply_group(batches, |first_version, applied| {
            let bytes = log.writer.append(first_version, applied)?;
            log.bytes_since_checkpoint += bytes;
            log.groups += 1;
            if keep_record {
                record = Some(LogRecord {
                    first_version,
                    transactions: applied.len() as u32,
                    payload: log.writer.last_payload().to_vec(),
                });
            }
            Ok(())
        })?;
        Ok((results, record))
    }

    /// The first version the log holds (the current version + 1 when it holds none):
    /// the versions before it are only in the checkpoint.
    pub fn log_first_version(&self) -> Result<u64, StorageError> {
        let _log = lock(&self.log);
        let segments = wal::list_segments(&*self.options.disk, &self.dir.join(WAL_DIR))?;
        let current = self.store.snapshot().version;
        Ok(segments
            .first()
            .map_or(current + 1, |s| s.first_version.min(current + 1)))
    }

    /// Hands `visit` every log record holding a version above `after` and starting at
    /// or below `through` (at most the current version), in order, from the segments
    /// on disk. The
    /// answer is the first version the log still holds: when it is above `after + 1`,
    /// the versions between are gone (a checkpoint covered them). A caller that
    /// reads while the server writes sets `log_consumed` to at most `after` first, so
    /// no checkpoint removes a segment it is about to read.
    pub fn log_records_after(
        &self,
        after: u64,
        through: u64,
        mut visit: impl FnMut(LogRecord) -> Result<(), StorageError>,
    ) -> Result<u64, StorageError> {
        let wal_dir = self.dir.join(WAL_DIR);
        // Holding the log lock while listing keeps a checkpoint from removing a
        // segment between the listing and its reading; the reading itself runs
        // unlocked: the records it wants are synced and no longer change.
        let (segments, successors, through) = {
            let log = lock(&self.log);
            let current = self.store.snapshot().version;
            let disk = &*self.options.disk;
            let segments = wal::list_segments(disk, &wal_dir)?;
            let successors = wal::successors(disk, &segments, log.writer.first_version());
            (segments, successors, through.min(current))
        };
        let oldest = segments.first().map_or(through + 1, |s| s.first_version);
        // The next version a handed record must start at (none handed yet: any).
        let mut next: Option<u64> = None;
        for (i, (segment, successor)) in segments.iter().zip(&successors).enumerate() {
            // A stray holds nothing (and a checkpoint may remove it meanwhile); a
            // segment whose successor starts at or below `after + 1` holds nothing
            // above `after`.
            let before = successor.next_start.is_some_and(|n| n <= after + 1);
            if successor.stray || before || segment.first_version > through {
                continue;
            }
            let scan = wal::scan_segment_raw(&*self.options.disk, segment, |raw| {
                let record = LogRecord {
                    first_version: raw.first_version,
                    transactions: raw.transactions,
                    payload: raw.payload.to_vec(),
                };
                if record.last_version() <= after || record.first_version > through {
                    return Ok(());
                }
                if next.is_some_and(|n| record.first_version != n) {
                    return Err(StorageError::Corrupt {
                        path: segment.path.clone(),
                        reason: format!(
                            "the log skips from version {} to {}",
                            next.unwrap_or(0),
                            record.first_version
                        ),
                    });
                }
                next = Some(record.last_version() + 1);
                visit(record)
            })?;
            // Damage is the live tail only in the newest segment, past `through`.
            if let Some(damage) = scan.damage {
                if i + 1 < segments.len() {
                    return Err(StorageError::Corrupt {
                        path: segment.path.clone(),
                        reason: damage,
                    });
                }
            }
        }
        // Nothing handed because everything after `after` is gone: the caller sees
        // it in the answer.
        let gone = oldest > after + 1;
        let reached = next.unwrap_or(if gone { through + 1 } else { after + 1 });
        if through > after && reached <= through {
            return Err(StorageError::Corrupt {
                path: wal_dir,
                reason: format!(
                    "the log ends at version {}, before version {through}",
                    reached - 1
                ),
            });
        }
        Ok(oldest)
    }

    /// Commits one transaction.
    pub fn commit_one(&self, batch: &WriteBatch) -> Result<crate::CommitInfo, StorageError> {
        let mut results = self.commit(&[batch])?;
        results.pop().expect("one result per transaction")
    }

    /// Whether the log has grown past `checkpoint_wal_bytes`, or anything was written
    /// and `checkpoint_interval` has passed since the last checkpoint.
    pub fn checkpoint_due(&self) -> bool {
        let log = lock(&self.log);
        log.bytes_since_checkpoint >= self.options.checkpoint_wal_bytes
            || (log.bytes_since_checkpoint > 0
                && log.last_checkpoint.elapsed() >= self.options.checkpoint_interval)
    }

    /// Commit groups (log records, one fsync each) written since opening.
    pub fn commit_groups(&self) -> u64 {
        lock(&self.log).groups
    }

    /// Log bytes written since the last checkpoint.
    pub fn log_bytes_since_checkpoint(&self) -> u64 {
        lock(&self.log).bytes_since_checkpoint
    }

    /// Writes a checkpoint of the current version. Writers keep committing while the
    /// graph file is written (it is written from an immutable snapshot); only the log
    /// rotation and the removal of covered segments take the log lock.
    pub fn checkpoint(&self) -> Result<CheckpointReport, StorageError> {
        let _one_at_a_time = lock(&self.checkpointing);
        let started = Instant::now();
        let snapshot = {
            let mut log = lock(&self.log);
            let snapshot = self.store.snapshot();
            log.writer.rotate(snapshot.version + 1)?;
            log.bytes_since_checkpoint = 0;
            log.last_checkpoint = Instant::now();
            snapshot
        };
        let path = self.dir.join(CHECKPOINT_FILE);
        let disk = &*self.options.disk;
        write_graph_file_on(disk, &snapshot, &path, GRAPH_FILE_VERSION)?;
        let bytes = disk.len(&path).map_err(io_error(&path))?;
        let removed_segments = {
            let mut log = lock(&self.log);
            log.checkpointed = Some(snapshot.version);
            let consumed = self.options.log_consumed.as_ref();
            let covered = consumed.map_or(snapshot.version, |c| {
                snapshot.version.min(c.load(Ordering::Acquire))
            });
            if consumed.is_some() {
                write_log_floor(disk, &self.dir, covered)?;
            }
            let current = log.writer.first_version();
            wal::remove_segments_covered(disk, &self.dir.join(WAL_DIR), covered, current)?
        };
        Ok(CheckpointReport {
            version: snapshot.version,
            bytes,
            removed_segments,
            elapsed: started.elapsed(),
        })
    }

    /// Makes the graph file at `file` (in this directory's file system) the
    /// directory's checkpoint and serves it: a replica that fell too far behind its
    /// log starts again from a newer checkpoint of its primary. The file must hold a
    /// version above the current one. The log starts afresh after it; a crash in
    /// between leaves either the old state or the new checkpoint with old segments
    /// that it covers (recovery skips them).
    pub fn reset_to(&self, file: &Path) -> Result<u64, StorageError> {
        let _one_at_a_time = lock(&self.checkpointing);
        let disk = Arc::clone(&self.options.disk);
        let snapshot = load_snapshot_on(&*disk, file)?;
        let version = snapshot.version;
        let mut log = lock(&self.log);
        let current = self.store.snapshot().version;
        if version <= current {
            return Err(StorageError::Corrupt {
                path: file.to_path_buf(),
                reason: format!(
                    "the checkpoint holds version {version}, not newer than the served {current}"
                ),
            });
        }
        let path = self.dir.join(CHECKPOINT_FILE);
        disk.rename(file, &path).map_err(io_error(&path))?;
        wal::sync_dir(&*disk, &self.dir)?;
        let wal_dir = self.dir.join(WAL_DIR);
        log.writer = WalWriter::create(&disk, &wal_dir, version + 1, self.options.durability)?;
        wal::remove_segments_covered(&*disk, &wal_dir, version, version + 1)?;
        log.bytes_since_checkpoint = 0;
        log.last_checkpoint = Instant::now();
        log.checkpointed = Some(version);
        self.store.replace(snapshot);
        Ok(version)
    }

    /// A clean shutdown: syncs the log and writes a final checkpoint if anything was
    /// written since the last one.
    pub fn close(&self) -> Result<Option<CheckpointReport>, StorageError> {
        let needed = {
            let mut log = lock(&self.log);
            log.writer.sync()?;
            log.checkpointed != Some(self.store.snapshot().version)
        };
        if needed {
            return self.checkpoint().map(Some);
        }
        Ok(None)
    }
}

/// The options with the directory's log floor: a consumer's (created at 0, "keep
/// everything", the first time), or the one its `log-consumed` file keeps.
fn with_log_floor(
    dir: &Path,
    mut options: DatabaseOptions,
) -> Result<DatabaseOptions, StorageError> {
    let disk = &*options.disk;
    let path = dir.join(LOG_CONSUMED_FILE);
    let text = disk
        .read(&path)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
    let kept = match text {
        Ok(text) => Some(
            text.trim()
                .parse::<u64>()
                .map_err(|e| StorageError::Corrupt {
                    path: path.clone(),
                    reason: format!("not a version number ({e})"),
                })?,
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io_error(&path)(e)),
    };
    match (&options.log_consumed, kept) {
        (Some(_), None) => write_log_floor(disk, dir, 0)?,
        (None, Some(version)) => {
            tracing::info!(
                version,
                "the log is kept above version {version} for replication ({})",
                path.display()
            );
            options.log_consumed = Some(Arc::new(AtomicU64::new(version)));
        }
        _ => {}
    }
    Ok(options)
}

/// Writes the log floor atomically (before any segment above it is removed).
fn write_log_floor(disk: &dyn Disk, dir: &Path, version: u64) -> Result<(), StorageError> {
    let path = dir.join(LOG_CONSUMED_FILE);
    let tmp = path.with_extension("tmp");
    disk.create(&tmp)
        .and_then(|mut file| {
            file.write_all(format!("{version}\n").as_bytes())?;
            file.sync_all()
        })
        .map_err(io_error(&tmp))?;
    disk.rename(&tmp, &path).map_err(io_error(&path))?;
    wal::sync_dir(disk, dir)
}

/// Creates a data directory holding `snapshot` as its first checkpoint (how
/// generators and loaders produce a directory `kith serve` can open).
pub fn create_data_dir(dir: &Path, snapshot: &Snapshot) -> Result<(), StorageError> {
    let wal_dir = dir.join(WAL_DIR);
    std::fs::create_dir_all(&wal_dir).map_err(io_error(&wal_dir))?;
    if !wal::list_segments(&OsDisk, &wal_dir)?.is_empty() {
        return Err(StorageError::Corrupt {
            path: wal_dir,
            reason: "the directory already holds a log; refusing to overwrite its data".into(),
        });
    }
    write_graph_file_on(
        &OsDisk,
        snapshot,
        &dir.join(CHECKPOINT_FILE),
        GRAPH_FILE_VERSION,
    )
}
