//! S4's update path: the server as the single writer of an LDBC update stream on
//! Kafka (`kith serve --ingest kafka://HOST:PORT/TOPIC`; `kith produce ldbc` fills the
//! topic, one stream line a message).
//!
//! Each message becomes one transaction through the write queue, like a client's
//! update: the update procedure's operations plus the cursor `ingest:<topic>` moved
//! to the message's offset + 1, committed in the same log record as the writes it
//! covers. The cursor move is a compare-and-set (`expect`: the previous message's
//! value), so no transaction commits past one that was not committed: when one is
//! refused (the queue or Kafka is behind, the store refuses the event), every later
//! one is refused too, and the runner rewinds to the committed cursor. A refusal the
//! event itself causes (an update the store cannot take) is answered by committing
//! the cursor move alone, counted as failed; any other is retried after a pause.
//! After a crash the server resumes at the committed cursor. So every message is
//! applied exactly once, or counted failed exactly once.
//!
//! A shard of a sharded LDBC graph (S5, docs/sharding.md) reads its own partition
//! (`kith produce ldbc --layout` routes each event there): the person shard
//! partition 0, forum shard i partition i + 1. An event of the other side is failed
//! by name (the stream was produced without the layout), and a forum shard makes
//! sure of every person an event names first (proxies).

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use kith_core::SchemaOp;
use kith_ldbc::shard::{Shard, Side};
use kith_replication::{KafkaUrl, MessageReader};
use kith_storage::{WriteBatch, WriteOp};

use crate::state::AppState;
use crate::write_queue::WriteJob;

/// Messages submitted and not yet committed, at most (the queue's share of one
/// writer: enough to fill commit groups).
const IN_FLIGHT_MAX: usize = 4_096;

/// Where a server's updates come from.
#[derive(Clone)]
pub(crate) struct Source {
    /// The topic.
    pub(crate) url: KafkaUrl,
    /// The shard this server is, in a sharded layout.
    pub(crate) shard: Option<Shard>,
    /// What the ingest did.
    pub(crate) status: Arc<IngestStatus>,
}

impl Source {
    /// The partition read.
    pub(crate) fn partition(&self) -> i32 {
        self.shard.map_or(0, Shard::partition)
    }

    /// The cursor's name in the schema: partition 0's is the topic's, as before
    /// sharding.
    fn cursor(&self) -> String {
        match self.partition() {
            0 => format!("ingest:{}", self.url.topic),
            p => format!("ingest:{}#{p}", self.url.topic),
        }
    }
}

/// What the ingest did, for `/health`.
#[derive(Default)]
pub(crate) struct IngestStatus {
    /// The offset after the last message committed (the cursor).
    pub(crate) next_offset: AtomicI64,
    /// Messages applied.
    pub(crate) applied: AtomicU64,
    /// Messages that were not update events or that the store refused.
    pub(crate) failed: AtomicU64,
    noted: AtomicU64,
    in_flight: AtomicUsize,
    last_error: Mutex<Option<String>>,
    /// The first refusal since the last rewind: its offset, code and message.
    refused: Mutex<Option<(i64, kith_protocol::ErrorCode, String)>>,
}

impl IngestStatus {
    /// The last failure's message.
    pub(crate) fn last_error(&self) -> Option<String> {
        self.last_error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// The topic is there: a "waiting for it" note is no longer the last error.
    fn waited(&self) {
        let mut last = self.last_error.lock().unwrap_or_else(|p| p.into_inner());
        if last
            .as_deref()
            .is_some_and(|e| e.starts_with("waiting for topic"))
        {
            *last = None;
        }
    }

    fn failed(&self, why: String) {
        self.note(&why);
        self.failed.fetch_add(1, Ordering::Relaxed);
    }

    /// Keeps `why` as the last error and logs the first ones, then one in a thousand.
    fn note(&self, why: &str) {
        let n = self.noted.fetch_add(1, Ordering::Relaxed);
        // Every failure is counted; the first ones and then one in a thousand are told.
        if n < 10 || n.is_multiple_of(1000) {
            tracing::warn!("ingest: {why}");
        }
        *self.last_error.lock().unwrap_or_else(|p| p.into_inner()) = Some(why.to_owned());
    }
}

/// The running ingest: a thread reading the topic into the write queue.
pub(crate) struct Ingest {
    stop: Arc<AtomicBool>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl Ingest {
    /// Starts ingesting `source` into `state`'s write queue.
    pub(crate) fn start(state: Arc<AppState>, source: Source) -> std::io::Result<Ingest> {
        let stop = Arc::new(AtomicBool::new(false));
        let runner = Runner {
            internal_tries: std::cell::Cell::new((-1, 0)),
            state,
            cursor: source.cursor(),
            partition: source.partition(),
            url: source.url,
            shard: source.shard,
            status: source.status,
            stop: stop.clone(),
        };
        let thread = std::thread::Builder::new()
            .name("kith-ingest".into())
            .spawn(move || runner.run())?;
        Ok(Ingest {
            stop,
            thread: Mutex::new(Some(thread)),
        })
    }

    /// Stops reading and waits for what was submitted to be committed. Idempotent.
    pub(crate) fn stop(&self) {
        self.stop.store(true, Ordering::Release);
        let thread = self.thread.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(thread) = thread {
            let _ = thread.join();
        }
    }
}

/// Times an event is tried while the writer answers it `internal` before it is
/// skipped.
const INTERNAL_TRIES_MAX: u32 = 3;

struct Runner {
    /// The offset last answered `internal`, and how many times in a row.
    internal_tries: std::cell::Cell<(i64, u32)>,
    state: Arc<AppState>,
    url: KafkaUrl,
    partition: i32,
    shard: Option<Shard>,
    cursor: String,
    status: Arc<IngestStatus>,
    stop: Arc<AtomicBool>,
}

impl Runner {
    fn run(&self) {
        let mut offset = self.committed();
        self.status.next_offset.store(offset, Ordering::Release);
        tracing::info!(topic = %self.url, partition = self.partition, offset, "ingesting updates");
        while !self.stopped() {
            offset = match self.read_from(offset) {
                Ok(next) => next,
                Err(e) => {
                    self.status
                        .note(&format!("reading {}: {e}; retrying", self.url));
                    std::thread::sleep(Duration::from_secs(1));
                    self.rewind()
                }
            };
        }
        self.drain();
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// The cursor as committed: the offset of the first message not applied.
    fn committed(&self) -> i64 {
        let snapshot = self.state.store.snapshot();
        kith_core::GraphView::schema(&*snapshot)
            .cursors
            .get(&self.cursor)
            .copied()
            .unwrap_or(0)
    }

    /// Reads and submits from `offset`, each transaction expecting the cursor where
    /// the one before leaves it, until stopped (or a refusal: then it answers where
    /// to read again).
    fn read_from(&self, offset: i64) -> Result<i64, String> {
        match self.layout()? {
            Layout::Matches => self.status.waited(),
            Layout::NoTopicYet => {
                self.status.note(&format!(
                    "waiting for topic {} to be created",
                    self.url.topic
                ));
                std::thread::sleep(Duration::from_secs(1));
                return Ok(offset);
            }
            Layout::Wrong(why) => {
                // Nothing is read until the server is started right: say so and wait.
                self.status.note(&why);
                while !self.stopped() {
                    std::thread::sleep(Duration::from_millis(200));
                }
                return Ok(offset);
            }
        }
        let mut reader = MessageReader::open_partition(&self.url, self.partition, offset)
            .map_err(|e| e.to_string())?;
        let mut chain = offset;
        while !self.stopped() {
            if self.refused().is_some() {
                return Ok(self.rewind());
            }
            let Some((at, bytes)) = reader
                .next(Duration::from_millis(200))
                .map_err(|e| e.to_string())?
            else {
                continue;
            };
            if at < chain {
                continue; // read again after a reconnect: committed already
            }
            let ops = match self.event_ops(at, &bytes) {
                Ok(ops) => Some(ops),
                Err(why) => {
                    self.status.failed(why);
                    None
                }
            };
            self.submit(at, chain, ops);
            chain = at + 1;
        }
        Ok(chain)
    }

    /// Whether this server reads its part of the topic: a sharded stream has a
    /// partition per shard, a server that is no shard reads a one-partition topic,
    /// and a shard's graph (`shard.info`'s cursors) must be the shard it is started
    /// as, of a layout with as many forum shards as the topic has partitions less one.
    fn layout(&self) -> Result<Layout, String> {
        let partitions =
            kith_replication::topic_partitions(&self.url).map_err(|e| e.to_string())?;
        if partitions == 0 {
            return Ok(Layout::NoTopicYet);
        }
        let topic = &self.url.topic;
        let Some(shard) = self.shard else {
            return Ok(match partitions {
                1 => Layout::Matches,
                n => Layout::Wrong(format!(
                    "topic {topic} has {n} partitions: a sharded stream (kith produce ldbc --layout); \
                     this server is no shard and would apply partition 0's events alone"
                )),
            });
        };
        let snapshot = self.state.store.snapshot();
        let cursors = &kith_core::GraphView::schema(&*snapshot).cursors;
        use kith_core::ldbc_schema::shard_cursor;
        let index = cursors.get(shard_cursor::INDEX).copied();
        let forum_shards = cursors.get(shard_cursor::FORUM_SHARDS).copied();
        let mine = match shard {
            Shard::Person => -1,
            Shard::Forum(i) => i as i64,
        };
        if index.is_none() || forum_shards.is_none() {
            return Ok(Layout::Wrong(format!(
                "this server is started as shard {}, but its graph has no shard identity (made before identities, or not by `kith shard split`): split it again",
                shard.name()
            )));
        }
        if index.is_some_and(|i| i != mine) {
            return Ok(Layout::Wrong(format!(
                "this server is started as shard {}, but its graph is shard index {} of its split",
                shard.name(),
                index.unwrap_or_default()
            )));
        }
        if forum_shards.is_some_and(|n| n + 1 != partitions as i64) {
            return Ok(Layout::Wrong(format!(
                "topic {topic} has {partitions} partitions, but this shard's split has {} forum shards (needs {} partitions): the stream was produced for another layout",
                forum_shards.unwrap_or_default(),
                forum_shards.unwrap_or_default() + 1
            )));
        }
        Ok(Layout::Matches)
    }

    fn refused(&self) -> Option<(i64, kith_protocol::ErrorCode, String)> {
        self.status
            .refused
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// After a refusal: waits for what is in flight (all refused after it, by the
    /// cursor's expectation), then, if the store refused the event itself, commits
    /// the cursor past it alone; else pauses. Answers the offset to read from.
    fn rewind(&self) -> i64 {
        self.drain();
        let at = self.committed();
        let refusal = self
            .status
            .refused
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(why) = self.state.writes.as_ref().and_then(|w| w.failure()) {
            // Every write is refused until a restart, which reads on from the cursor.
            self.status
                .note(&format!("writes stopped ({why}); waiting for a restart"));
            while !self.stopped() {
                std::thread::sleep(Duration::from_millis(200));
            }
            return self.committed();
        }
        let poison = refusal
            .as_ref()
            .is_some_and(|(offset, code, _)| *offset == at && self.panicked_again(at, *code));
        match refusal {
            Some((offset, code, message)) if offset == at && (event_refused(code) || poison) => {
                self.status.failed(format!("offset {at}: {message}"));
                self.submit(at, at, None);
                self.drain();
                if self.refused().is_some() {
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
            Some((_, _, message)) => {
                self.status
                    .note(&format!("offset {at}: {message}; retrying"));
                std::thread::sleep(Duration::from_millis(100));
            }
            None => {}
        }
        let _ = self
            .status
            .refused
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        let at = self.committed();
        self.status.next_offset.store(at, Ordering::Release);
        at
    }

    /// Whether the event at `at` has now been answered `internal` (a server bug: the
    /// writer survived a panic on its group) [`INTERNAL_TRIES_MAX`] times in a row: an
    /// event that makes the engine panic every time is skipped like one the store
    /// refuses, rather than retried for ever (failing the writes grouped with it).
    fn panicked_again(&self, at: i64, code: kith_protocol::ErrorCode) -> bool {
        let (_, tries) = internal_tries(self.internal_tries.get(), at, code);
        self.internal_tries.set((at, tries));
        tries >= INTERNAL_TRIES_MAX
    }

    /// Hands the message at `at` to the write queue as one transaction: its event's
    /// operations (`None`: the cursor move alone), the cursor moved from `expect` to
    /// `at + 1`. Waits while the queue is full.
    fn submit(&self, at: i64, expect: i64, event: Option<Vec<WriteOp>>) {
        let applies = event.is_some();
        let mut ops = event.unwrap_or_default();
        ops.push(WriteOp::Schema(SchemaOp::SetCursor {
            name: self.cursor.clone(),
            value: at + 1,
            expect: Some(expect),
        }));
        while self.status.in_flight.load(Ordering::Acquire) >= IN_FLIGHT_MAX && !self.stopped() {
            std::thread::sleep(Duration::from_micros(500));
        }
        let Some(writes) = self.state.writes.as_ref() else {
            return;
        };
        let status = self.status.clone();
        let mut job = WriteJob {
            batch: WriteBatch { ops },
            check: None,
            arrived: Instant::now(),
            replicated_answer: false,
            reply: crate::write_queue::Reply::new(move |outcome, _| {
                match outcome {
                    Ok(_) => {
                        if applies {
                            status.applied.fetch_add(1, Ordering::Relaxed);
                        }
                        status.next_offset.fetch_max(at + 1, Ordering::AcqRel);
                    }
                    Err(e) => {
                        let mut refused = status.refused.lock().unwrap_or_else(|p| p.into_inner());
                        // The first refusal in commit order is the one to act on.
                        if refused.as_ref().is_none_or(|(first, _, _)| at < *first) {
                            *refused = Some((at, e.code, e.message));
                        }
                    }
                }
                status.in_flight.fetch_sub(1, Ordering::AcqRel);
            }),
        };
        self.status.in_flight.fetch_add(1, Ordering::AcqRel);
        loop {
            match writes.submit(job) {
                Ok(()) => return,
                Err((back, busy))
                    if busy.code == kith_protocol::ErrorCode::Busy && !self.stopped() =>
                {
                    job = back;
                    std::thread::sleep(Duration::from_millis(1));
                }
                // Shutting down, or writing stopped: the reply counts the job out of
                // flight and records the refusal (read again after a restart).
                Err((back, error)) => {
                    back.reply
                        .send(Err(error), crate::write_queue::WriteTiming::default());
                    return;
                }
            }
        }
    }

    /// The update procedure's operations for the event at `at`.
    fn event_ops(&self, at: i64, bytes: &[u8]) -> Result<Vec<WriteOp>, String> {
        let source = format!(
            "topic {} partition {} offset {at}",
            self.url.topic, self.partition
        );
        let text = std::str::from_utf8(bytes)
            .map_err(|_| format!("{source}: not UTF-8 text (an LDBC update stream line)"))?;
        let event = kith_ldbc::parse_event(Path::new(&source), 1, text.trim_end())
            .map_err(|e| e.to_string())?;
        if let Some(shard) = self.shard {
            let side = Side::of(event.procedure);
            let mine = match shard {
                Shard::Person => Side::Person,
                Shard::Forum(_) => Side::Forum,
            };
            if side != Some(mine) {
                return Err(format!(
                    "{source}: {} does not belong on shard {} (was the stream produced without `--layout`?)",
                    event.procedure,
                    shard.name()
                ));
            }
        }
        let ops = self
            .state
            .registry
            .build_update(event.procedure, &event.params)
            .map_err(|e| format!("{source}: {}: {e}", event.procedure))?;
        Ok(match self.shard {
            Some(Shard::Forum(_)) => kith_ldbc::shard::with_proxies(ops),
            _ => ops,
        })
    }

    /// Waits (up to 30 s) for what was submitted to be answered.
    fn drain(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.status.in_flight.load(Ordering::Acquire) > 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// What [`Runner::layout`] found.
enum Layout {
    /// This server reads its part.
    Matches,
    /// The topic is not there yet: wait for it.
    NoTopicYet,
    /// This server must not read the topic: why.
    Wrong(String),
}

/// The `internal` answers in a row at an offset, after a refusal of `code` at `at`.
fn internal_tries(
    (last, tries): (i64, u32),
    at: i64,
    code: kith_protocol::ErrorCode,
) -> (i64, u32) {
    match code {
        kith_protocol::ErrorCode::Internal if last == at => (at, tries + 1),
        kith_protocol::ErrorCode::Internal => (at, 1),
        _ => (at, 0),
    }
}

/// Whether a refusal comes from the event itself (the store cannot take it: skip
/// it) rather than from the moment (a full queue, Kafka behind, the disk, an
/// earlier refusal: try again).
fn event_refused(code: kith_protocol::ErrorCode) -> bool {
    use kith_protocol::ErrorCode as Code;
    !matches!(
        code,
        Code::Busy
            | Code::ReplicationFailed
            | Code::StorageFailure
            | Code::Timeout
            | Code::Conflict
            | Code::Deadlock
            | Code::Internal
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use kith_protocol::ErrorCode as Code;

    #[test]
    fn an_event_answered_internal_three_times_in_a_row_is_poison() {
        let mut tries = (-1, 0);
        for expected in 1..=INTERNAL_TRIES_MAX {
            tries = internal_tries(tries, 42, Code::Internal);
            assert_eq!(tries, (42, expected));
        }
        // Another offset, or another refusal between, starts the count again.
        assert_eq!(internal_tries(tries, 43, Code::Internal), (43, 1));
        assert_eq!(internal_tries(tries, 42, Code::Busy), (42, 0));
        // Internal is a refusal of the moment, not of the event, until then.
        assert!(!event_refused(Code::Internal));
    }
}
