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

use std::collections::VecDeque;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use kith_storage::{Database, LogRecord};
use rdkafka::error::{KafkaError, RDKafkaErrorCode};
use rdkafka::producer::{BaseRecord, DeliveryResult, Producer, ProducerContext, ThreadedProducer};
use rdkafka::ClientContext;

use crate::error::kafka;
use crate::topic::{self, PARTITION};
use crate::{frame, KafkaUrl, ReplicationError};

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

/// What the producer's thread and the publisher share.
struct Shared {
    /// Record bytes handed over and not yet acknowledged.
    backlog_bytes: AtomicU64,
    /// The highest version Kafka acknowledged: the local log keeps what is above.
    acked: Arc<AtomicU64>,
    failed: Mutex<Option<String>>,
    /// Set by `close`: the thread stops waiting for the broker.
    stop: AtomicBool,
    /// Set once the thread flushes for shutdown: failures from here on are purges.
    closing: AtomicBool,
    last_warning: Mutex<Option<Instant>>,
}

impl Shared {
    fn fail(&self, reason: String) {
        let mut failed = self.failed.lock().unwrap_or_else(|p| p.into_inner());
        if failed.is_none() {
            tracing::error!(
                "publishing to Kafka failed: {reason}; writes are refused until restart"
            );
            *failed = Some(reason);
        }
    }

    fn failure(&self) -> Option<String> {
        self.failed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}

/// One group on its way: answered once, by its delivery or by its deadline.
struct Group {
    last_version: u64,
    bytes: u64,
    acks: Mutex<Vec<Ack>>,
    done: AtomicBool,
}

impl Group {
    fn finish(&self, result: &Result<(), AckError>) {
        if self.done.swap(true, Ordering::AcqRel) {
            return;
        }
        let acks = std::mem::take(&mut *self.acks.lock().unwrap_or_else(|p| p.into_inner()));
        for ack in acks {
            ack(result.clone());
        }
    }
}

struct Context(Arc<Shared>);

impl ClientContext for Context {
    fn error(&self, error: KafkaError, reason: &str) {
        // A broker outage repeats its error at every reconnect; say it every 10 s.
        let mut last = self
            .0
            .last_warning
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if last.is_none_or(|t| t.elapsed() >= Duration::from_secs(10)) {
            tracing::warn!(
                backlog_bytes = self.0.backlog_bytes.load(Ordering::Relaxed),
                "Kafka: {error}: {reason}"
            );
            *last = Some(Instant::now());
        }
    }
}

impl ProducerContext for Context {
    /// Set on a record's last part only.
    type DeliveryOpaque = Box<Option<Arc<Group>>>;

    fn delivery(&self, result: &DeliveryResult<'_>, opaque: Self::DeliveryOpaque) {
        let outcome = match result {
            Ok(_) => Ok(()),
            Err(_) if self.0.closing.load(Ordering::Acquire) => Err(AckError::ShutDown),
            Err((e, _)) => {
                self.0.fail(format!("the broker refused a record: {e}"));
                Err(AckError::Failed(e.to_string()))
            }
        };
        let Some(group) = *opaque else { return };
        if outcome.is_ok() {
            // Parts and records are delivered in order (idempotent producer): a
            // record's last part acknowledged means everything before it is too.
            self.0.acked.fetch_max(group.last_version, Ordering::AcqRel);
            self.0
                .backlog_bytes
                .fetch_sub(group.bytes, Ordering::AcqRel);
        }
        group.finish(&outcome);
    }
}

struct Item {
    record: LogRecord,
    acks: Vec<Ack>,
}

/// Publishes a database's log to a topic. Made before the writer starts.
pub struct Publisher {
    shared: Arc<Shared>,
    options: PublishOptions,
    live: Mutex<Option<Sender<Item>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
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
        let shared = Arc::new(Shared {
            backlog_bytes: AtomicU64::new(0),
            acked: consumed,
            failed: Mutex::new(None),
            stop: AtomicBool::new(false),
            closing: AtomicBool::new(false),
            last_warning: Mutex::new(None),
        });
        let producer: ThreadedProducer<Context> = topic::config(&options.url)
            .set("enable.idempotence", "true")
            .set("linger.ms", "0")
            // Never give up on a record: an outage is waited out, bounded by admit().
            .set("message.timeout.ms", "0")
            .set("queue.buffering.max.messages", "2147483647")
            .set("queue.buffering.max.kbytes", "2147483647")
            .create_with_context(Context(shared.clone()))
            .map_err(kafka("creating the Kafka producer"))?;
        let (sender, receiver) = crossbeam_channel::unbounded();
        // Read now, not on the thread: the writer may commit as soon as this returns,
        // and what it commits comes through `publish`, not from the log.
        let local = database.store().snapshot().version();
        let runner = Runner {
            local,
            shared: shared.clone(),
            url: options.url.clone(),
            producer,
            database,
            deadlines: VecDeque::new(),
            ack_timeout: options.ack_timeout,
        };
        let thread = std::thread::Builder::new()
            .name("kith-publisher".into())
            .spawn(move || runner.run(&receiver))
            .map_err(|source| ReplicationError::Io {
                doing: "starting the publisher thread".into(),
                source,
            })?;
        Ok(Publisher {
            shared,
            options,
            live: Mutex::new(Some(sender)),
            thread: Mutex::new(Some(thread)),
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
    /// once Kafka acknowledged it. The channel is bounded by [`Publisher::admit`]:
    /// a commit is made only while less than `buffer_bytes_max` waits.
    pub fn publish(&self, record: LogRecord, acks: Vec<Ack>) {
        self.shared
            .backlog_bytes
            .fetch_add(record.payload.len() as u64, Ordering::AcqRel);
        let live = self.live.lock().unwrap_or_else(|p| p.into_inner());
        let item = Item { record, acks };
        let unsent = match live.as_ref() {
            Some(sender) => sender.send(item).err().map(|e| e.into_inner()),
            None => Some(item),
        };
        if let Some(item) = unsent {
            for ack in item.acks {
                ack(Err(AckError::ShutDown));
            }
        }
    }

    /// The highest version Kafka acknowledged.
    pub fn acknowledged(&self) -> u64 {
        self.shared.acked.load(Ordering::Acquire)
    }

    /// Record bytes waiting for Kafka.
    pub fn backlog_bytes(&self) -> u64 {
        self.shared.backlog_bytes.load(Ordering::Acquire)
    }

    /// Stops taking records, waits (up to 30 s) for Kafka to acknowledge what was
    /// handed over, and stops. What is still unacknowledged stays in the local log
    /// and is sent at the next start. Idempotent.
    pub fn close(&self) {
        self.shared.stop.store(true, Ordering::Release);
        drop(self.live.lock().unwrap_or_else(|p| p.into_inner()).take());
        let thread = self.thread.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(thread) = thread {
            let _ = thread.join();
        }
    }
}

impl Drop for Publisher {
    fn drop(&mut self) {
        self.close();
    }
}

/// Answers every waiting write of the records still queued (their records stay in
/// the local log).
fn answer_all(live: &Receiver<Item>, error: &AckError) {
    for item in live.iter() {
        for ack in item.acks {
            ack(Err(error.clone()));
        }
    }
}

/// How long `close` waits for Kafka.
const FLUSH_TIMEOUT: Duration = Duration::from_secs(30);

/// The publisher's thread.
struct Runner {
    /// The version the database had when publishing started: the log is sent up to
    /// it, `publish` hands over what comes after.
    local: u64,
    shared: Arc<Shared>,
    url: KafkaUrl,
    producer: ThreadedProducer<Context>,
    database: Arc<Database>,
    /// Groups someone waits for, oldest first, with when the wait ends.
    deadlines: VecDeque<(Instant, Arc<Group>)>,
    ack_timeout: Duration,
}

impl Runner {
    fn run(mut self, live: &Receiver<Item>) {
        match self.catch_up(self.local) {
            Ok(true) => self.serve(live),
            Ok(false) => answer_all(live, &AckError::ShutDown),
            Err(e) => {
                self.shared.fail(e.to_string());
                answer_all(live, &AckError::Failed(e.to_string()));
            }
        }
        self.shared.closing.store(true, Ordering::Release);
        if let Err(e) = self.producer.flush(FLUSH_TIMEOUT) {
            tracing::warn!(
                backlog_bytes = self.shared.backlog_bytes.load(Ordering::Acquire),
                "Kafka did not acknowledge every record before shutdown ({e}); the local log keeps them for the next start"
            );
        }
    }

    /// Finds where the topic ends (waiting for the broker) and sends the local log
    /// from there up to `local`, the version the writer starts after. `false`: the
    /// publisher was closed before the broker answered.
    fn catch_up(&mut self, local: u64) -> Result<bool, ReplicationError> {
        let published = loop {
            match self.where_topic_ends(local) {
                Ok(version) => break version,
                Err(
                    e @ (ReplicationError::TopicAhead { .. } | ReplicationError::BadRecord { .. }),
                ) => return Err(e),
                Err(e) => {
                    tracing::warn!("waiting for Kafka: {e}");
                    if self.shared.stop.load(Ordering::Acquire) {
                        return Ok(false);
                    }
                    std::thread::sleep(Duration::from_secs(1));
                }
            }
        };
        self.shared.acked.fetch_max(published, Ordering::AcqRel);
        let mut sent = 0u64;
        let database = self.database.clone();
        let oldest = database.log_records_after(published, local, |record| {
            self.shared
                .backlog_bytes
                .fetch_add(record.payload.len() as u64, Ordering::AcqRel);
            sent += 1;
            self.produce(record, Vec::new());
            Ok(())
        })?;
        if oldest > published + 1 && local > published {
            tracing::error!(
                "versions {} to {} were never acknowledged by Kafka but are no longer in the local log; replicas must start again from a checkpoint",
                published + 1,
                oldest - 1
            );
        }
        tracing::info!(topic = %self.url, published, local, resent_records = sent, "publishing the log");
        Ok(true)
    }

    fn where_topic_ends(&self, local: u64) -> Result<u64, ReplicationError> {
        topic::ensure(&self.url)?;
        match topic::last_version(&self.url)? {
            Some(published) if published > local => Err(ReplicationError::TopicAhead {
                topic: self.url.topic.clone(),
                published,
                local,
            }),
            Some(published) => Ok(published),
            None => {
                tracing::warn!(topic = %self.url, "retention removed every record of the topic; sending everything the local log still holds");
                Ok(0)
            }
        }
    }

    /// Sends live records as they come, and ends waits past their deadline.
    fn serve(&mut self, live: &Receiver<Item>) {
        loop {
            let wait = self
                .deadlines
                .front()
                .map_or(Duration::from_secs(1), |(at, _)| {
                    at.saturating_duration_since(Instant::now())
                });
            match live.recv_timeout(wait.min(Duration::from_secs(1))) {
                Ok(item) => self.produce(item.record, item.acks),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
            self.expire();
        }
    }

    fn expire(&mut self) {
        let now = Instant::now();
        while let Some((at, group)) = self.deadlines.front() {
            if group.done.load(Ordering::Acquire) {
                self.deadlines.pop_front();
            } else if *at <= now {
                group.finish(&Err(AckError::Timeout {
                    version: group.last_version,
                    after: self.ack_timeout,
                }));
                self.deadlines.pop_front();
            } else {
                break;
            }
        }
    }

    /// Produces a record's parts to partition 0; the last part carries the group.
    fn produce(&mut self, record: LogRecord, acks: Vec<Ack>) {
        let waited = !acks.is_empty();
        let group = Arc::new(Group {
            last_version: record.last_version(),
            bytes: record.payload.len() as u64,
            acks: Mutex::new(acks),
            done: AtomicBool::new(false),
        });
        if let Some(reason) = self.shared.failure() {
            group.finish(&Err(AckError::Failed(reason)));
            return;
        }
        let parts = frame::split(&record, frame::PART_BYTES_MAX);
        let count = parts.len();
        for (i, part) in parts.iter().enumerate() {
            let opaque = Box::new((i + 1 == count).then(|| group.clone()));
            if let Err(reason) = self.send(part, opaque) {
                self.shared.fail(reason.clone());
                group.finish(&Err(AckError::Failed(reason)));
                return;
            }
        }
        if waited {
            self.deadlines
                .push_back((Instant::now() + self.ack_timeout, group));
        }
    }

    /// One message; waits while librdkafka's own queue is full (it is sized far
    /// above `buffer_bytes_max`, so this is rare).
    fn send(&self, part: &[u8], opaque: Box<Option<Arc<Group>>>) -> Result<(), String> {
        let mut record = BaseRecord::with_opaque_to(&self.url.topic, opaque)
            .partition(PARTITION)
            .payload(part);
        record = record.key(&[] as &[u8]);
        loop {
            match self.producer.send(record) {
                Ok(()) => return Ok(()),
                Err((KafkaError::MessageProduction(RDKafkaErrorCode::QueueFull), back)) => {
                    record = back;
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err((e, _)) => return Err(format!("producing a record: {e}")),
            }
        }
    }
}
