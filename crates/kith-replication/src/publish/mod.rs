//! The primary's side: each commit group's log record, produced to the topic in
//! commit order once its local fsync is done.
//!
//! The local log is the source of truth. A record is handed over after its fsync
//! (`Publisher::publish`); the log keeps every segment holding a version Kafka has
//! not acknowledged (`DatabaseOptions::log_consumed`), so after a restart the
//! publisher reads where the topic ends and sends the rest again from the log. While
//! the broker is away, librdkafka keeps retrying (no message timeout) and the
//! records wait in memory; once `buffer_bytes_max` of them wait, `admit` refuses new
//! commits (`busy`), so nothing acknowledged is ever dropped and memory stays bounded.
//! The idempotent producer keeps the partition in commit order without duplicates
//! across its retries.

mod delivery;
mod runner;

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::Sender;
use kith_storage::{Database, LogRecord};
use rdkafka::producer::ThreadedProducer;

use crate::error::kafka;
use crate::{topic, KafkaUrl, ReplicationError};
use delivery::{Context, Group, Shared};
use runner::{Item, Runner};

/// How the primary publishes.
#[derive(Clone, Debug)]
pub struct PublishOptions {
    /// The topic.
    pub url: KafkaUrl,
    /// Record bytes waiting for Kafka's acknowledgement before commits are refused.
    pub buffer_bytes_max: u64,
    /// How long a write that waits for Kafka (`--replication sync`) waits.
    pub ack_timeout: Duration,
}

/// Why a new commit is refused before it is made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Too much waits for Kafka (the broker is away or slow); retry later.
    Behind {
        /// Bytes waiting.
        bytes: u64,
        /// The bound.
        max: u64,
    },
    /// Publishing failed for good (the reason says why); a restart sends again.
    Failed(String),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Behind { bytes, max } => write!(
                f,
                "replication to Kafka is behind: {bytes} bytes of commits wait for the broker's \
                 acknowledgement (replication_buffer_bytes_max = {max}); retry later"
            ),
            Refusal::Failed(reason) => write!(
                f,
                "publishing the log to Kafka failed ({reason}); no write is accepted until the \
                 server restarts, which sends the rest from its local log"
            ),
        }
    }
}

/// How a write waiting for Kafka's acknowledgement ends without it. The write is
/// committed on the primary either way; it reaches Kafka later from the local log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AckError {
    /// Kafka did not acknowledge the version in time.
    Timeout {
        /// The group's last version.
        version: u64,
        /// The wait.
        after: Duration,
    },
    /// Publishing failed.
    Failed(String),
    /// The server shut down first.
    ShutDown,
}

impl fmt::Display for AckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AckError::Timeout { version, after } => write!(
                f,
                "version {version} is committed on the primary, but Kafka did not acknowledge \
                 it within {} ms; it is sent as soon as the broker answers",
                after.as_millis()
            ),
            AckError::Failed(reason) => write!(
                f,
                "committed on the primary, but publishing to Kafka failed ({reason}); the \
                 local log keeps it for the next start"
            ),
            AckError::ShutDown => f.write_str(
                "committed on the primary; the server shut down before Kafka acknowledged it \
                 (the local log keeps it for the next start)",
            ),
        }
    }
}

/// Called once when Kafka acknowledged a group (or it failed). Must not block: it
/// runs on the producer's thread.
pub type Ack = Box<dyn FnOnce(Result<(), AckError>) + Send>;

/// Publishes a database's log to a topic. Made before the writer starts.
pub struct Publisher {
    shared: Arc<Shared>,
    options: PublishOptions,
    live: Mutex<Option<Sender<Item>>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

impl Publisher {
    /// Starts publishing `database`'s log. `consumed` must be the database's
    /// `DatabaseOptions::log_consumed`: the publisher keeps it at the version Kafka
    /// acknowledged. Records up to the database's current version are sent from the
    /// local log (from where the topic ends) once the broker answers; later ones are
    /// handed over with [`Publisher::publish`].
    pub fn start(
        options: PublishOptions,
        database: Arc<Database>,
        consumed: Arc<AtomicU64>,
    ) -> Result<Publisher, ReplicationError> {
        let shared = Arc::new(Shared::new(consumed));
        let producer: ThreadedProducer<Context> = topic::config(&options.url)
            .set("enable.idempotence", "true")
            // A record the broker refuses for good stops the producer rather than
            // letting later records through past it.
            .set("enable.gapless.guarantee", "true")
            .set("linger.ms", "0")
            // Never give up on a record: an outage is waited out, bounded by admit().
            .set("message.timeout.ms", "0")
            // kith bounds what waits (`buffer_bytes_max`, checked before a commit);
            // librdkafka's own bound must never refuse a single large record.
            .set("queue.buffering.max.messages", "2147483647")
            .set("queue.buffering.max.kbytes", "2147483647")
            .create_with_context(Context(shared.clone()))
            .map_err(kafka("creating the Kafka producer"))?;
        let (sender, receiver) = crossbeam_channel::unbounded();
        // Read now, not on the thread: the writer may commit as soon as this returns,
        // and what it commits comes through `publish`, not from the log.
        let local = database.store().snapshot().version();
        let runner = Runner::new(local, shared.clone(), &options, producer, database);
        let publisher = crate::threads::spawn("kith-publisher", move || runner.run(&receiver))?;
        let (timer_shared, timeout) = (shared.clone(), options.ack_timeout);
        let timer = crate::threads::spawn("kith-ack-timer", move || {
            expire_waits(&timer_shared, timeout)
        })?;
        Ok(Publisher {
            shared,
            options,
            live: Mutex::new(Some(sender)),
            threads: Mutex::new(vec![publisher, timer]),
        })
    }

    /// Whether a new commit may be made now.
    pub fn admit(&self) -> Result<(), Refusal> {
        if let Some(reason) = self.shared.failure() {
            return Err(Refusal::Failed(reason));
        }
        let bytes = self.shared.backlog_bytes.load(Ordering::Acquire);
        if bytes >= self.options.buffer_bytes_max {
            return Err(Refusal::Behind {
                bytes,
                max: self.options.buffer_bytes_max,
            });
        }
        Ok(())
    }

    /// Hands over a committed group's record (in commit order); `acks` are called
    /// once Kafka acknowledged it, or with an error once `ack_timeout` passed. The
    /// channel is bounded by [`Publisher::admit`]: a commit is made only while less
    /// than `buffer_bytes_max` waits.
    pub fn publish(&self, record: LogRecord, acks: Vec<Ack>) {
        let bytes = record.payload.len() as u64;
        self.shared.backlog_bytes.fetch_add(bytes, Ordering::AcqRel);
        let waited = !acks.is_empty();
        let group = Arc::new(Group::new(
            record.first_version,
            record.last_version(),
            bytes,
            acks,
        ));
        if waited {
            // The wait starts now, whatever the publisher's thread is doing (waiting
            // for the broker at start, sending the local log).
            let deadline = Instant::now() + self.options.ack_timeout;
            self.shared
                .deadlines
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push_back((deadline, group.clone()));
        }
        let live = self.live.lock().unwrap_or_else(|p| p.into_inner());
        let sent = live.as_ref().is_some_and(|sender| {
            sender
                .send(Item {
                    record,
                    group: group.clone(),
                })
                .is_ok()
        });
        if !sent {
            group.finish(&Err(AckError::ShutDown));
        }
    }

    /// The highest version Kafka acknowledged.
    pub fn acknowledged(&self) -> u64 {
        self.shared.acked.load(Ordering::Acquire)
    }

    /// Where a replica starting from a checkpoint finds the records after it:
    /// `(version, offset)`: reading from `offset` on yields every record after
    /// `version` (and maybe some at or below it). Read it before taking the
    /// checkpoint's snapshot, so the snapshot's version is at least `version`.
    /// `None` until the publisher knows where the topic ends.
    pub fn resume_point(&self) -> Option<(u64, i64)> {
        if !self.shared.started.load(Ordering::Acquire) {
            return None;
        }
        Some(*self.shared.resume.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// The topic.
    pub fn url(&self) -> &KafkaUrl {
        &self.options.url
    }

    /// Record bytes waiting for Kafka.
    pub fn backlog_bytes(&self) -> u64 {
        self.shared.backlog_bytes.load(Ordering::Acquire)
    }

    /// Stops taking records, waits (up to 30 s) for Kafka to acknowledge what was
    /// handed over, and stops; writes still waiting are answered. What is still
    /// unacknowledged stays in the local log and is sent at the next start.
    /// Idempotent.
    pub fn close(&self) {
        self.shared.stop.store(true, Ordering::Release);
        drop(self.live.lock().unwrap_or_else(|p| p.into_inner()).take());
        let threads: Vec<_> =
            std::mem::take(&mut *self.threads.lock().unwrap_or_else(|p| p.into_inner()));
        for thread in threads {
            let _ = thread.join();
        }
        self.shared.abandon(&AckError::ShutDown);
    }
}

impl Drop for Publisher {
    fn drop(&mut self) {
        self.close();
    }
}

/// The timer thread: ends waits for Kafka that passed their deadline.
fn expire_waits(shared: &Shared, ack_timeout: Duration) {
    while !shared.stop.load(Ordering::Acquire) {
        std::thread::sleep(Duration::from_millis(20));
        shared.expire(ack_timeout);
    }
}
