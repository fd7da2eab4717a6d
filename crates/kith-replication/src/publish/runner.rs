//! The publisher's thread: where the topic ends, the local log from there, then the
//! live records, in order.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};
use kith_storage::{Database, LogRecord};
use rdkafka::error::{KafkaError, RDKafkaErrorCode};
use rdkafka::producer::{BaseRecord, Producer, PurgeConfig, ThreadedProducer};

use super::delivery::{Context, Group, Shared};
use super::{AckError, PublishOptions};
use crate::topic::{self, PARTITION};
use crate::{frame, KafkaUrl, ReplicationError};

/// A committed group handed over by the writer.
pub(super) struct Item {
    pub(super) record: LogRecord,
    pub(super) group: Arc<Group>,
}

/// How long the thread waits for Kafka at shutdown.
const FLUSH_TIMEOUT: Duration = Duration::from_secs(30);
/// How long it then waits for the reports of what it purged.
const PURGE_TIMEOUT: Duration = Duration::from_secs(5);

pub(super) struct Runner {
    /// The version the database had when publishing started: the log is sent up to
    /// it, `publish` hands over what comes after.
    local: u64,
    shared: Arc<Shared>,
    url: KafkaUrl,
    buffer_bytes_max: u64,
    producer: ThreadedProducer<Context>,
    database: Arc<Database>,
}

impl Runner {
    pub(super) fn new(
        local: u64,
        shared: Arc<Shared>,
        options: &PublishOptions,
        producer: ThreadedProducer<Context>,
        database: Arc<Database>,
    ) -> Runner {
        Runner {
            local,
            shared,
            url: options.url.clone(),
            buffer_bytes_max: options.buffer_bytes_max,
            producer,
            database,
        }
    }

    pub(super) fn run(self, live: &Receiver<Item>) {
        // A panic here (a bug) must not leave writes admitted with nobody sending
        // them: it stops publishing like any failure.
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match self.catch_up() {
                Ok(true) => {
                    self.serve(live);
                    None
                }
                Ok(false) => Some(AckError::ShutDown),
                Err(e) => {
                    self.shared.fail(e.to_string());
                    Some(AckError::Failed(e.to_string()))
                }
            }));
        let unsent = match outcome {
            Ok(unsent) => unsent,
            Err(_) => {
                self.shared.fail("the publisher's thread panicked".into());
                Some(AckError::Failed("the publisher's thread panicked".into()))
            }
        };
        if let Some(why) = unsent {
            for item in live.iter() {
                item.group.finish(&Err(why.clone()));
            }
        }
        self.finish();
    }

    /// Waits for Kafka to acknowledge what was sent; then drops the rest, making
    /// librdkafka report each dropped record (its waits are answered).
    fn finish(&self) {
        self.shared.closing.store(true, Ordering::Release);
        if let Err(e) = self.producer.flush(FLUSH_TIMEOUT) {
            tracing::warn!(
                backlog_bytes = self.shared.backlog_bytes.load(Ordering::Acquire),
                "Kafka did not acknowledge every record before shutdown ({e}); the local log keeps them for the next start"
            );
            self.producer
                .purge(PurgeConfig::default().queue().inflight());
            let deadline = Instant::now() + PURGE_TIMEOUT;
            while self.producer.in_flight_count() > 0 && Instant::now() < deadline {
                self.producer.poll(Duration::from_millis(100));
            }
        }
    }

    /// Finds where the topic ends (waiting for the broker) and sends the local log
    /// from there up to `local`. `false`: closed before the broker answered.
    fn catch_up(&self) -> Result<bool, ReplicationError> {
        let (published, next_offset) = loop {
            match self.where_topic_ends() {
                Ok(end) => break end,
                Err(
                    e @ (ReplicationError::TopicAhead { .. } | ReplicationError::BadRecord { .. }),
                ) => return Err(e),
                Err(e) => {
                    tracing::warn!("waiting for Kafka: {e}");
                    if self.stopped() {
                        return Ok(false);
                    }
                    std::thread::sleep(Duration::from_secs(1));
                }
            }
        };
        let oldest = self.database.log_first_version()?;
        let published = match published {
            // The topic continues this log: the local log must hold what it lacks.
            Some(published) if published > 0 => {
                if oldest > published + 1 && self.local > published {
                    return Err(ReplicationError::LogGap {
                        topic: self.url.topic.clone(),
                        from: published + 1,
                        to: oldest - 1,
                    });
                }
                published
            }
            // A new topic (or one retention emptied): it starts where the local log
            // does; what came before is in the checkpoint replicas start from.
            _ => (oldest - 1).min(self.local),
        };
        self.shared.acked.fetch_max(published, Ordering::AcqRel);
        *self.shared.resume.lock().unwrap_or_else(|p| p.into_inner()) = (published, next_offset);
        self.shared.started.store(true, Ordering::Release);
        let mut sent = 0u64;
        self.database
            .log_records_after(published, self.local, |record| {
                self.wait_for_room();
                let bytes = record.payload.len() as u64;
                self.shared.backlog_bytes.fetch_add(bytes, Ordering::AcqRel);
                let group = Group::new(
                    record.first_version,
                    record.last_version(),
                    bytes,
                    Vec::new(),
                );
                self.produce(&record, &Arc::new(group));
                sent += 1;
                Ok(())
            })?;
        tracing::info!(topic = %self.url, published, local = self.local, resent_records = sent, "publishing the log");
        Ok(true)
    }

    fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Acquire)
    }

    /// Sending the local log keeps to `buffer_bytes_max` like the writer does.
    fn wait_for_room(&self) {
        while self.shared.backlog_bytes.load(Ordering::Acquire) >= self.buffer_bytes_max
            && self.shared.failure().is_none()
            && !self.stopped()
        {
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The topic's last version (`None`: retention emptied it) and next offset.
    fn where_topic_ends(&self) -> Result<(Option<u64>, i64), ReplicationError> {
        topic::ensure(&self.url)?;
        let end = topic::end(&self.url)?;
        match end.version {
            Some(published) if published > self.local => Err(ReplicationError::TopicAhead {
                topic: self.url.topic.clone(),
                published,
                local: self.local,
            }),
            None => {
                tracing::warn!(topic = %self.url, "retention removed every record of the topic; sending everything the local log still holds (readers skip what they have)");
                Ok((None, end.next_offset))
            }
            known => Ok((known, end.next_offset)),
        }
    }

    /// Sends live records as they come, until the channel closes.
    fn serve(&self, live: &Receiver<Item>) {
        loop {
            match live.recv_timeout(Duration::from_secs(1)) {
                Ok(item) => self.produce(&item.record, &item.group),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
    }

    /// Produces a record's parts to partition 0; the last part carries the group.
    fn produce(&self, record: &LogRecord, group: &Arc<Group>) {
        if let Some(reason) = self.shared.failure() {
            group.finish(&Err(AckError::Failed(reason)));
            return;
        }
        let parts = frame::split(record, frame::PART_BYTES_MAX);
        let count = parts.len();
        for (i, part) in parts.iter().enumerate() {
            let opaque = Box::new((i + 1 == count).then(|| group.clone()));
            if let Err(reason) = self.send(part, opaque) {
                self.shared.fail(reason.clone());
                group.finish(&Err(AckError::Failed(reason)));
                return;
            }
        }
    }

    /// One message; waits while librdkafka's own queue is full (rare: it is sized
    /// far above `buffer_bytes_max`).
    fn send(&self, part: &[u8], opaque: Box<Option<Arc<Group>>>) -> Result<(), String> {
        let mut record = BaseRecord::with_opaque_to(&self.url.topic, opaque)
            .partition(PARTITION)
            .payload(part)
            .key(&[] as &[u8]);
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
