//! S4's update path: the server as the single writer of an LDBC update stream on
//! Kafka (`kith serve --ingest kafka://HOST:PORT/TOPIC`; `kith produce ldbc` fills the
//! topic, one stream line a message).
//!
//! Each message becomes one transaction through the write queue, like a client's
//! update: the update procedure's operations plus the cursor `ingest:<topic>` set to
//! the message's offset + 1, so the offset is committed in the same log record as the
//! writes it covers. After a crash the server resumes at the committed cursor: every
//! message is applied exactly once. A message that is not an update event is counted
//! as failed and moves the cursor by itself; one whose update the store refuses is
//! counted as failed and the next message's transaction moves the cursor past it (the
//! last message of a stream, refused, is tried again after a restart). One bad event
//! does not stop the stream.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use kith_core::SchemaOp;
use kith_replication::{KafkaUrl, MessageReader};
use kith_storage::{WriteBatch, WriteOp};

use crate::state::AppState;
use crate::write_queue::WriteJob;

/// Messages submitted and not yet committed, at most (the queue's share of one
/// writer: enough to fill commit groups).
const IN_FLIGHT_MAX: usize = 4_096;

/// What the ingest did, for `/health` and `/metrics`.
#[derive(Default)]
pub(crate) struct IngestStatus {
    /// The offset after the last message committed (the cursor).
    pub(crate) next_offset: AtomicI64,
    /// Messages applied.
    pub(crate) applied: AtomicU64,
    /// Messages that were not update events or that the store refused.
    pub(crate) failed: AtomicU64,
    in_flight: AtomicUsize,
    last_error: Mutex<Option<String>>,
}

impl IngestStatus {
    /// The last failure's message.
    pub(crate) fn last_error(&self) -> Option<String> {
        self.last_error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    fn failed(&self, why: String) {
        let n = self.failed.fetch_add(1, Ordering::Relaxed);
        // Every failure is counted; the first ones and then one in a thousand are told.
        if n < 10 || n.is_multiple_of(1000) {
            tracing::warn!("ingest: {why}");
        }
        *self.last_error.lock().unwrap_or_else(|p| p.into_inner()) = Some(why);
    }
}

/// The running ingest: a thread reading the topic into the write queue.
pub(crate) struct Ingest {
    stop: Arc<AtomicBool>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl Ingest {
    /// Starts ingesting `url` into `state`'s write queue, counting in `status`.
    pub(crate) fn start(
        state: Arc<AppState>,
        url: KafkaUrl,
        status: Arc<IngestStatus>,
    ) -> std::io::Result<Ingest> {
        let stop = Arc::new(AtomicBool::new(false));
        let runner = Runner {
            state,
            url: url.clone(),
            cursor: format!("ingest:{}", url.topic),
            status: status.clone(),
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

struct Runner {
    state: Arc<AppState>,
    url: KafkaUrl,
    cursor: String,
    status: Arc<IngestStatus>,
    stop: Arc<AtomicBool>,
}

impl Runner {
    fn run(&self) {
        let snapshot = self.state.store.snapshot();
        let start = kith_core::GraphView::schema(&*snapshot)
            .cursors
            .get(&self.cursor)
            .copied()
            .unwrap_or(0);
        drop(snapshot);
        self.status.next_offset.store(start, Ordering::Release);
        tracing::info!(topic = %self.url, offset = start, "ingesting updates");
        let mut offset = start;
        while !self.stopped() {
            match self.read_from(offset) {
                Ok(next) => offset = next,
                Err((next, e)) => {
                    offset = next;
                    tracing::warn!("ingest: reading {}: {e}; retrying", self.url);
                    std::thread::sleep(Duration::from_secs(1));
                }
            }
        }
        self.drain();
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// Reads and submits from `offset` until stopped; answers where to go on.
    fn read_from(&self, mut offset: i64) -> Result<i64, (i64, String)> {
        let mut reader =
            MessageReader::open(&self.url, offset).map_err(|e| (offset, e.to_string()))?;
        while !self.stopped() {
            let message = reader
                .next(Duration::from_millis(200))
                .map_err(|e| (offset, e.to_string()))?;
            let Some((at, bytes)) = message else {
                continue;
            };
            if at < offset {
                continue; // read again after a reconnect: committed already
            }
            self.submit(at, &bytes);
            offset = at + 1;
        }
        Ok(offset)
    }

    /// Makes the message at `at` one transaction (or, if it is not an update the
    /// store can take, a cursor move alone) and hands it to the write queue,
    /// waiting while the queue is full.
    fn submit(&self, at: i64, bytes: &[u8]) {
        let mut ops = match self.event_ops(at, bytes) {
            Ok(ops) => ops,
            Err(why) => {
                self.status.failed(why);
                Vec::new()
            }
        };
        ops.push(WriteOp::Schema(SchemaOp::SetCursor {
            name: self.cursor.clone(),
            value: at + 1,
        }));
        while self.status.in_flight.load(Ordering::Acquire) >= IN_FLIGHT_MAX {
            std::thread::sleep(Duration::from_micros(200));
        }
        let Some(writes) = self.state.writes.as_ref() else {
            return;
        };
        let status = self.status.clone();
        let mut job = WriteJob {
            batch: WriteBatch { ops },
            check: None,
            arrived: Instant::now(),
            reply: Box::new(move |outcome, _| {
                match outcome {
                    Ok(_) => {
                        status.applied.fetch_add(1, Ordering::Relaxed);
                        status.next_offset.fetch_max(at + 1, Ordering::AcqRel);
                    }
                    Err(e) => status.failed(format!("offset {at}: {}", e.message)),
                }
                status.in_flight.fetch_sub(1, Ordering::AcqRel);
            }),
        };
        self.status.in_flight.fetch_add(1, Ordering::AcqRel);
        loop {
            match writes.submit(job) {
                Ok(()) => return,
                Err((back, _busy)) if !self.stopped() => {
                    job = back;
                    std::thread::sleep(Duration::from_millis(1));
                }
                Err((_, _)) => {
                    self.status.in_flight.fetch_sub(1, Ordering::AcqRel);
                    return;
                }
            }
        }
    }

    /// The update procedure's operations for the event at `at`.
    fn event_ops(&self, at: i64, bytes: &[u8]) -> Result<Vec<WriteOp>, String> {
        let source = format!("topic {} offset {at}", self.url.topic);
        let text = std::str::from_utf8(bytes)
            .map_err(|_| format!("{source}: not UTF-8 text (an LDBC update stream line)"))?;
        let event = kith_ldbc::parse_event(Path::new(&source), 1, text.trim_end())
            .map_err(|e| e.to_string())?;
        self.state
            .registry
            .build_update(event.procedure, &event.params)
            .map_err(|e| format!("{source}: {}: {e}", event.procedure))
    }

    /// Waits (up to 30 s) for what was submitted to be answered.
    fn drain(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.status.in_flight.load(Ordering::Acquire) > 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
