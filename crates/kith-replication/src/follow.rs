//! A read replica's side: apply the topic's records to a local database, in order,
//! each version once.
//!
//! The replica's data directory is a database like the primary's: each batch of
//! records read is committed through its own log (one fsync), so a killed replica
//! recovers its checkpoint and log and reads on. `replica.state` beside them keeps
//! the topic and the offset to read from; it is written after the records before it
//! are committed, so it is never ahead of the log, and a record at or below the
//! applied version is skipped, so reading some records again is harmless. A record
//! starting above the next version (retention removed what the replica needed)
//! makes the replica fetch a newer checkpoint from its primary and start again from
//! there.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use kith_storage::{Database, LogRecord, WriteBatch};

use crate::{bootstrap, topic, KafkaUrl, LogReader, ReplicationError};

/// The file beside the checkpoint that says which topic a replica follows and where.
pub const STATE_FILE: &str = "replica.state";
const STATE_MAGIC: &str = "kith replica 1";

/// Where a replica reads from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicaState {
    /// The topic's name.
    pub topic: String,
    /// The offset of the next message to read.
    pub offset: i64,
}

impl ReplicaState {
    /// Reads `dir`'s state file; `None` when there is none.
    pub fn read(dir: &Path) -> Result<Option<ReplicaState>, ReplicationError> {
        let path = dir.join(STATE_FILE);
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(ReplicationError::Io {
                    doing: format!("reading {}", path.display()),
                    source,
                })
            }
        };
        let bad = |why: &str| ReplicationError::BadState {
            path: path.clone(),
            reason: why.to_owned(),
        };
        let mut lines = text.lines();
        if lines.next() != Some(STATE_MAGIC) {
            return Err(bad("it does not start with `kith replica 1`"));
        }
        let mut field = |name: &str| {
            lines
                .next()
                .and_then(|l| l.strip_prefix(name))
                .and_then(|v| v.strip_prefix(' '))
                .map(str::to_owned)
                .ok_or_else(|| bad(&format!("no `{name}` line")))
        };
        let topic = field("topic")?;
        let offset = field("offset")?
            .parse::<i64>()
            .map_err(|e| bad(&format!("offset: {e}")))?;
        Ok(Some(ReplicaState { topic, offset }))
    }

    /// Writes it to `dir` atomically (a temporary file, synced, renamed).
    pub fn write(&self, dir: &Path) -> Result<(), ReplicationError> {
        let path = dir.join(STATE_FILE);
        let tmp = path.with_extension("tmp");
        let text = format!(
            "{STATE_MAGIC}\ntopic {}\noffset {}\n",
            self.topic, self.offset
        );
        let io = |doing: &str| {
            let doing = format!("{doing} {}", path.display());
            move |source| ReplicationError::Io { doing, source }
        };
        fs::write(&tmp, text).map_err(io("writing"))?;
        fs::File::open(&tmp)
            .and_then(|f| f.sync_all())
            .map_err(io("syncing"))?;
        fs::rename(&tmp, &path).map_err(io("renaming"))?;
        fs::File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(io("syncing the directory of"))?;
        Ok(())
    }
}

/// Makes `dir` ready to follow `url`: a directory without a checkpoint gets the
/// primary's (`primary`, its HTTP address); one with a checkpoint must follow the
/// same topic. Answers where to read from.
pub fn prepare(
    dir: &Path,
    url: &KafkaUrl,
    primary: Option<&str>,
) -> Result<ReplicaState, ReplicationError> {
    let checkpoint = dir.join(kith_storage::CHECKPOINT_FILE);
    // A copy of a primary's directory carries its publishing floor; a replica's log
    // is nobody's to keep.
    let floor = dir.join(kith_storage::LOG_CONSUMED_FILE);
    if floor.exists() {
        fs::remove_file(&floor).map_err(|source| ReplicationError::Io {
            doing: format!("removing {}", floor.display()),
            source,
        })?;
    }
    if checkpoint.exists() {
        return match ReplicaState::read(dir)? {
            Some(state) if state.topic == url.topic => Ok(state),
            Some(state) => Err(ReplicationError::BadState {
                path: dir.join(STATE_FILE),
                reason: format!(
                    "this directory follows topic {}, not {}",
                    state.topic, url.topic
                ),
            }),
            // A graph made elsewhere (a copy of the primary's directory): read the
            // topic from its start; what the graph holds is skipped.
            None => Ok(ReplicaState {
                topic: url.topic.clone(),
                offset: 0,
            }),
        };
    }
    let Some(primary) = primary else {
        return Err(ReplicationError::BadState {
            path: checkpoint,
            reason: "a replica starts from a checkpoint: give --bootstrap with the primary's \
                     HTTP address, or copy a primary's data directory here"
                .into(),
        });
    };
    fs::create_dir_all(dir).map_err(|source| ReplicationError::Io {
        doing: format!("creating {}", dir.display()),
        source,
    })?;
    let fetched = dir.join("graph.kith.fetch");
    let got = fetch_retrying(primary, &fetched, None)?;
    let shown = bootstrap::without_credentials(primary);
    check_topic(&shown, url, &got)?;
    fs::rename(&fetched, &checkpoint).map_err(|source| ReplicationError::Io {
        doing: format!("renaming {}", fetched.display()),
        source,
    })?;
    let state = ReplicaState {
        topic: url.topic.clone(),
        offset: got.offset,
    };
    state.write(dir)?;
    tracing::info!(
        primary = %shown,
        version = got.version,
        bytes = got.bytes,
        offset = got.offset,
        "fetched the primary's checkpoint"
    );
    Ok(state)
}

/// Fetches a checkpoint, waiting (up to a minute) while the primary answers that it
/// has not reached Kafka yet; a failed fetch leaves no partial file behind.
fn fetch_retrying(
    primary: &str,
    dest: &Path,
    stop: Option<&AtomicBool>,
) -> Result<bootstrap::Checkpoint, ReplicationError> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let outcome = bootstrap::fetch(primary, dest, stop);
        if outcome.is_err() {
            let _ = fs::remove_file(dest);
        }
        match outcome {
            Err(ReplicationError::Bootstrap { reason, .. })
                if reason.contains("\"busy\"") && Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(500));
            }
            other => return other,
        }
    }
}

fn check_topic(
    primary: &str,
    url: &KafkaUrl,
    got: &bootstrap::Checkpoint,
) -> Result<(), ReplicationError> {
    if got.topic == url.topic {
        return Ok(());
    }
    Err(ReplicationError::Bootstrap {
        primary: primary.to_owned(),
        reason: format!("it publishes to topic {}, not {}", got.topic, url.topic),
    })
}

/// What a replica is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FollowState {
    /// Reading and applying.
    Following,
    /// Fetching a newer checkpoint from its primary.
    Bootstrapping,
    /// Stopped for good; the reason says why and what to do.
    Failed(String),
}

struct Shared {
    stop: AtomicBool,
    state: Mutex<FollowState>,
    offset: AtomicI64,
    /// The topic's end as last seen (the offset after its newest message), -1 before
    /// it is known: with `offset`, how far behind the primary's log the replica is.
    end: AtomicI64,
}

/// A running replica: a thread that applies the topic to a database.
pub struct Follower {
    shared: Arc<Shared>,
    url: KafkaUrl,
    primary: Option<String>,
    thread: Mutex<Option<JoinHandle<()>>>,
    checkpointer: Mutex<Option<JoinHandle<()>>>,
    database: Arc<Database>,
}

impl Follower {
    /// Starts applying `url`'s records to `database` from `state` on. `primary` (the
    /// primary's HTTP address) lets it fetch a newer checkpoint when the topic no
    /// longer holds what it needs.
    pub fn start(
        database: Arc<Database>,
        url: KafkaUrl,
        primary: Option<String>,
        state: ReplicaState,
    ) -> Result<Follower, ReplicationError> {
        let shared = Arc::new(Shared {
            stop: AtomicBool::new(false),
            state: Mutex::new(FollowState::Following),
            offset: AtomicI64::new(state.offset),
            end: AtomicI64::new(-1),
        });
        let applier = Applier {
            shared: shared.clone(),
            url: url.clone(),
            primary: primary.clone(),
            database: database.clone(),
            dir: database.dir().to_path_buf(),
            saved: state.offset,
            saved_at: Instant::now(),
            end_checked: Instant::now(),
        };
        let thread = crate::threads::spawn("kith-follower", move || applier.run_guarded())?;
        let (db, stop) = (database.clone(), shared.clone());
        let checkpointer =
            crate::threads::spawn("kith-checkpointer", move || checkpoints(&db, &stop))?;
        Ok(Follower {
            shared,
            url,
            primary: primary.as_deref().map(bootstrap::without_credentials),
            thread: Mutex::new(Some(thread)),
            checkpointer: Mutex::new(Some(checkpointer)),
            database,
        })
    }

    /// What it is doing.
    pub fn state(&self) -> FollowState {
        self.shared
            .state
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// The version applied (and served).
    pub fn applied_version(&self) -> u64 {
        self.database.store().snapshot().version()
    }

    /// The offset of the next message it reads.
    pub fn offset(&self) -> i64 {
        self.shared.offset.load(Ordering::Acquire)
    }

    /// How many of the topic's messages it has not applied yet, as of the end it last
    /// saw (each fetch brings it); `None` before it has seen one.
    pub fn messages_behind(&self) -> Option<i64> {
        let end = self.shared.end.load(Ordering::Acquire);
        (end >= 0).then(|| (end - self.offset()).max(0))
    }

    /// The topic it follows.
    pub fn url(&self) -> &KafkaUrl {
        &self.url
    }

    /// The primary's HTTP address (without credentials), if it was given.
    pub fn primary(&self) -> Option<&str> {
        self.primary.as_deref()
    }

    /// Stops applying, saves where it stopped and writes a final checkpoint.
    /// Idempotent.
    pub fn close(&self) {
        self.shared.stop.store(true, Ordering::Release);
        for slot in [&self.thread, &self.checkpointer] {
            let thread = slot.lock().unwrap_or_else(|p| p.into_inner()).take();
            if let Some(thread) = thread {
                let _ = thread.join();
            }
        }
        if let Err(e) = self.database.close() {
            tracing::error!(error = %e, "the replica's final checkpoint failed; its log keeps every record");
        }
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        self.close();
    }
}

fn checkpoints(database: &Database, shared: &Shared) {
    while !shared.stop.load(Ordering::Acquire) {
        std::thread::sleep(Duration::from_millis(200));
        if database.checkpoint_due() {
            if let Err(e) = database.checkpoint() {
                tracing::error!(error = %e, "checkpoint failed; the log is kept");
            }
        }
    }
}

/// Records applied in one commit (one fsync) at most.
const RECORDS_PER_COMMIT_MAX: usize = 1_000;
/// Record bytes applied in one commit at most.
const BYTES_PER_COMMIT_MAX: usize = 64 << 20;
/// How often the offset is saved while records flow.
const SAVE_INTERVAL: Duration = Duration::from_secs(1);

/// The follower's thread.
struct Applier {
    shared: Arc<Shared>,
    url: KafkaUrl,
    primary: Option<String>,
    database: Arc<Database>,
    dir: PathBuf,
    saved: i64,
    saved_at: Instant,
    /// When the topic's end was last asked for ([`Applier::note_end`]).
    end_checked: Instant,
}

/// How often a replica asks where the topic ends, for its lag.
const END_CHECK_EVERY: Duration = Duration::from_secs(1);

impl Applier {
    /// Runs; a panic (a bug) stops applying visibly instead of silently.
    fn run_guarded(self) {
        let shared = self.shared.clone();
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.run())).is_err() {
            tracing::error!("the replica's follower thread panicked; it stopped applying the log");
            *shared.state.lock().unwrap_or_else(|p| p.into_inner()) =
                FollowState::Failed("the follower thread panicked".into());
        }
    }

    fn run(mut self) {
        while !self.stopped() {
            let outcome = self.follow();
            let error = match outcome {
                Ok(()) => break,
                Err(e) => e,
            };
            // The offset being gone is retried: `follow` then reads the watermarks
            // and decides whether the replica must start again from a checkpoint.
            let recoverable = matches!(
                error,
                ReplicationError::Kafka { .. } | ReplicationError::OffsetGone { .. }
            );
            let fresh_start = matches!(error, ReplicationError::Gap { .. });
            if fresh_start && self.primary.is_some() {
                match self.bootstrap() {
                    // The local store or log failed mid-way: not something to retry.
                    Err(e @ ReplicationError::Storage(_)) => {
                        tracing::error!("starting again from the primary's checkpoint failed: {e}");
                        self.set_state(FollowState::Failed(e.to_string()));
                        return;
                    }
                    Err(e) => {
                        tracing::warn!(
                            "starting again from the primary's checkpoint failed: {e}; retrying"
                        );
                        std::thread::sleep(Duration::from_secs(2));
                    }
                    Ok(()) => {}
                }
                continue;
            }
            if recoverable {
                tracing::warn!("reading the log: {error}; retrying");
                std::thread::sleep(Duration::from_secs(1));
                continue;
            }
            tracing::error!("the replica stopped applying the log: {error}");
            self.set_state(FollowState::Failed(error.to_string()));
            return;
        }
        self.save(true);
    }

    fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Acquire)
    }

    fn set_state(&self, state: FollowState) {
        *self.shared.state.lock().unwrap_or_else(|p| p.into_inner()) = state;
    }

    /// Reads and applies until stopped (`Ok`) or something goes wrong.
    fn follow(&mut self) -> Result<(), ReplicationError> {
        let offset = self.shared.offset.load(Ordering::Acquire);
        let mut reader = LogReader::open(&self.url, offset)?;
        let (low, high) = topic::watermarks(reader.consumer(), &self.url)?;
        self.shared.end.store(high, Ordering::Release);
        if offset > high {
            // The topic was made again (or truncated): what this replica read is
            // not there any more.
            return Err(ReplicationError::Gap {
                expected: self.database.store().snapshot().version() + 1,
                found: None,
            });
        }
        if offset < low {
            // Retention removed messages the replica has not read: whether it needed
            // them shows in the first record it can read (`apply` finds a gap); with
            // none left to read, it cannot tell, so it starts again from a checkpoint.
            let applied = self.database.store().snapshot().version();
            if low >= high {
                return Err(ReplicationError::Gap {
                    expected: applied + 1,
                    found: None,
                });
            }
            reader = LogReader::open(&self.url, low)?;
        }
        self.set_state(FollowState::Following);
        // A record read that did not fit the last commit: the next one starts with it.
        let mut carried: Option<(i64, LogRecord)> = None;
        while !self.stopped() {
            let first = match carried.take() {
                Some(record) => record,
                None => match reader.next(Duration::from_millis(200))? {
                    Some(record) => record,
                    None => {
                        self.note_end(&reader);
                        self.save(false);
                        continue;
                    }
                },
            };
            let (mut next_offset, first) = first;
            let mut bytes = first.payload.len();
            let mut records = vec![first];
            while records.len() < RECORDS_PER_COMMIT_MAX {
                let Some((next, record)) = reader.next(Duration::ZERO)? else {
                    break;
                };
                // A commit stays within BYTES_PER_COMMIT_MAX unless one record alone
                // is larger (it is then a commit of its own, as on the primary).
                if bytes + record.payload.len() > BYTES_PER_COMMIT_MAX {
                    carried = Some((next, record));
                    break;
                }
                bytes += record.payload.len();
                records.push(record);
                next_offset = next;
            }
            self.apply(&records)?;
            self.shared.offset.store(next_offset, Ordering::Release);
            self.note_end(&reader);
            self.save(false);
        }
        Ok(())
    }

    /// Asks the broker where the topic ends, at most once a second (a short request on
    /// the follower's thread); a failure only leaves the last answer in place.
    fn note_end(&mut self, reader: &LogReader) {
        if self.end_checked.elapsed() < END_CHECK_EVERY {
            return;
        }
        self.end_checked = Instant::now();
        if let Ok((_, high)) = topic::watermarks(reader.consumer(), &self.url) {
            self.shared.end.store(high, Ordering::Release);
        }
    }

    /// Commits the records' transactions above the applied version, as one group.
    fn apply(&self, records: &[LogRecord]) -> Result<(), ReplicationError> {
        let applied = self.database.store().snapshot().version();
        let mut next = applied + 1;
        let mut batches: Vec<WriteBatch> = Vec::new();
        for record in records {
            if record.last_version() < next {
                continue; // applied already (read again after a restart)
            }
            if record.first_version > next {
                return Err(ReplicationError::Gap {
                    expected: next,
                    found: Some(record.first_version),
                });
            }
            let source = format!(
                "topic {} record at version {}",
                self.url.topic, record.first_version
            );
            let (first, decoded) =
                kith_storage::decode_payload(&record.payload, Path::new(&source))?;
            // The frame's header is outside the record's checksum: both must agree.
            if first != record.first_version || decoded.len() != record.transactions as usize {
                return Err(ReplicationError::BadRecord {
                    at: source,
                    reason: format!(
                        "its header says versions {} (+{}), its record {first} (+{})",
                        record.first_version,
                        record.transactions,
                        decoded.len()
                    ),
                });
            }
            let skip = (next - record.first_version) as usize;
            batches.extend(decoded.into_iter().skip(skip));
            next = record.last_version() + 1;
        }
        if batches.is_empty() {
            return Ok(());
        }
        let refs: Vec<&WriteBatch> = batches.iter().collect();
        let results = self.database.commit(&refs)?;
        for (i, result) in results.iter().enumerate() {
            let version = applied + 1 + i as u64;
            match result {
                Ok(info) if info.version == version => {}
                Ok(info) => {
                    return Err(ReplicationError::Diverged {
                        version,
                        reason: format!("it was committed as version {}", info.version),
                    })
                }
                Err(e) => {
                    return Err(ReplicationError::Diverged {
                        version,
                        reason: format!("the replica refused it: {e}"),
                    })
                }
            }
        }
        Ok(())
    }

    /// Saves the offset when it moved and (unless `now`) a second has passed.
    fn save(&mut self, now: bool) {
        let offset = self.shared.offset.load(Ordering::Acquire);
        if offset == self.saved || (!now && self.saved_at.elapsed() < SAVE_INTERVAL) {
            return;
        }
        let state = ReplicaState {
            topic: self.url.topic.clone(),
            offset,
        };
        match state.write(&self.dir) {
            Ok(()) => {
                self.saved = offset;
                self.saved_at = Instant::now();
            }
            Err(e) => tracing::warn!("saving the replica's offset: {e}"),
        }
    }

    /// Starts again from a newer checkpoint of the primary.
    fn bootstrap(&mut self) -> Result<(), ReplicationError> {
        let primary = self.primary.clone().unwrap_or_default();
        let shown = bootstrap::without_credentials(&primary);
        self.set_state(FollowState::Bootstrapping);
        tracing::warn!(
            primary = %shown,
            "the topic no longer holds the records this replica needs; fetching a newer checkpoint"
        );
        let fetched = self.dir.join("graph.kith.fetch");
        let got = fetch_retrying(&primary, &fetched, Some(&self.shared.stop))?;
        if let Err(e) = check_topic(&shown, &self.url, &got) {
            let _ = fs::remove_file(&fetched);
            return Err(e);
        }
        let applied = self.database.store().snapshot().version();
        if got.version <= applied {
            // Nothing newer to load: every record after the checkpoint's version
            // (so after the applied one) is readable from its offset. Not at once
            // again if that offset is gone too (the primary's resume point lags
            // behind what retention removed).
            let _ = fs::remove_file(&fetched);
            self.shared.offset.store(got.offset, Ordering::Release);
            self.save(true);
            std::thread::sleep(Duration::from_secs(2));
            return Ok(());
        }
        let version = self.database.reset_to(&fetched)?;
        self.shared.offset.store(got.offset, Ordering::Release);
        self.save(true);
        tracing::info!(
            version,
            offset = got.offset,
            "started again from the primary's checkpoint"
        );
        Ok(())
    }
}
