//! Plain messages of a topic: what `kith produce` sends and an ingesting server
//! consumes (S4's update path: one LDBC update event a message, on partition 0; S5's
//! sharded one: each shard's events on its own partition).

use std::time::{Duration, Instant};

use rdkafka::consumer::BaseConsumer;
use rdkafka::error::{KafkaError, RDKafkaErrorCode};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use rdkafka::producer::{BaseRecord, DeliveryResult, Producer, ProducerContext, ThreadedProducer};
use rdkafka::{ClientContext, Message};

use crate::error::kafka;
use crate::topic::{self, PARTITION};
use crate::{KafkaUrl, ReplicationError};

/// Sends `messages` to partition 0 in order (idempotent producer: no duplicates, no
/// reordering across retries) and waits until Kafka has every one. Creates the
/// topic if needed. Answers how many were sent.
pub fn produce_all(
    url: &KafkaUrl,
    messages: impl IntoIterator<Item = Vec<u8>>,
) -> Result<u64, ReplicationError> {
    produce_partitioned(url, 1, messages.into_iter().map(|m| (PARTITION, m)))
}

/// Sends each message to its partition (order kept within a partition, as in
/// [`produce_all`]), creating the topic with `partitions` partitions if needed and
/// refusing one that has fewer. Answers how many were sent.
pub fn produce_partitioned(
    url: &KafkaUrl,
    partitions: usize,
    messages: impl IntoIterator<Item = (i32, Vec<u8>)>,
) -> Result<u64, ReplicationError> {
    topic::ensure_partitions(url, partitions)?;
    let producer: ThreadedProducer<Counting> = topic::config(url)
        .set("enable.idempotence", "true")
        .set("linger.ms", "5")
        .set("message.timeout.ms", "300000")
        .create_with_context(Counting::default())
        .map_err(kafka("creating the Kafka producer"))?;
    let mut sent = 0u64;
    for (partition, message) in messages {
        assert!(
            (0..partitions as i32).contains(&partition),
            "partition {partition} of {partitions}"
        );
        let mut record = BaseRecord::<[u8], [u8]>::to(&url.topic)
            .partition(partition)
            .payload(&message[..]);
        loop {
            match producer.send(record) {
                Ok(()) => break,
                // librdkafka's queue is full: wait for acknowledgements to drain it.
                Err((KafkaError::MessageProduction(RDKafkaErrorCode::QueueFull), back)) => {
                    record = back;
                    producer.poll(Duration::from_millis(10));
                }
                Err((e, _)) => return Err(kafka(format!("producing to {}", url.topic))(e)),
            }
        }
        sent += 1;
    }
    producer
        .flush(Duration::from_secs(300))
        .map_err(kafka(format!("waiting for {} to acknowledge", url.topic)))?;
    let context = producer.context();
    let failed = context.failed.load(Ordering::Acquire);
    if failed > 0 {
        let first = context
            .first
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        return Err(ReplicationError::Kafka {
            doing: format!(
                "producing to {}: {failed} of {sent} messages were not delivered (producing again \
                 sends the delivered ones twice)",
                url.topic
            ),
            source: first.unwrap_or(KafkaError::MessageProduction(RDKafkaErrorCode::Fail)),
        });
    }
    Ok(sent)
}

/// How many partitions the topic has (0: none yet).
pub fn topic_partitions(url: &KafkaUrl) -> Result<usize, ReplicationError> {
    topic::partition_count(&topic::consumer(url)?, url)
}

/// Counts the messages Kafka did not take (librdkafka's default context drops
/// delivery failures silently).
#[derive(Default)]
struct Counting {
    failed: AtomicU64,
    first: Mutex<Option<KafkaError>>,
}

impl ClientContext for Counting {}

impl ProducerContext for Counting {
    type DeliveryOpaque = ();

    fn delivery(&self, result: &DeliveryResult<'_>, _: ()) {
        if let Err((e, _)) = result {
            self.failed.fetch_add(1, Ordering::AcqRel);
            let mut first = self.first.lock().unwrap_or_else(|p| p.into_inner());
            first.get_or_insert_with(|| e.clone());
        }
    }
}

/// Reads one partition message by message from an offset.
pub struct MessageReader {
    url: KafkaUrl,
    partition: i32,
    consumer: BaseConsumer,
}

impl MessageReader {
    /// Starts at `offset` of partition 0.
    pub fn open(url: &KafkaUrl, offset: i64) -> Result<MessageReader, ReplicationError> {
        MessageReader::open_partition(url, PARTITION, offset)
    }

    /// Starts at `offset` of `partition`; a topic without that partition is refused
    /// (a topic not made yet is waited for, as with partition 0).
    pub fn open_partition(
        url: &KafkaUrl,
        partition: i32,
        offset: i64,
    ) -> Result<MessageReader, ReplicationError> {
        let consumer = topic::consumer(url)?;
        if partition != PARTITION {
            let has = topic::partition_count(&consumer, url)?;
            if has != 0 && has <= partition as usize {
                return Err(ReplicationError::Partitions {
                    topic: url.topic.clone(),
                    has,
                    needs: partition as usize + 1,
                });
            }
        }
        topic::assign_partition(&consumer, url, partition, offset)?;
        Ok(MessageReader {
            url: url.clone(),
            partition,
            consumer,
        })
    }

    /// The next message and its offset, or `None` if none arrived within `wait`.
    pub fn next(&mut self, wait: Duration) -> Result<Option<(i64, Vec<u8>)>, ReplicationError> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(message) = self.consumer.poll(left) else {
                return Ok(None);
            };
            match message {
                Ok(m) => return Ok(Some((m.offset(), m.payload().unwrap_or_default().to_vec()))),
                Err(KafkaError::MessageConsumption(
                    code @ (RDKafkaErrorCode::AutoOffsetReset | RDKafkaErrorCode::OffsetOutOfRange),
                )) => {
                    return Err(kafka(format!("reading topic {}", self.url.topic))(
                        KafkaError::MessageConsumption(code),
                    ))
                }
                // The broker went away and came back: librdkafka reconnects.
                Err(KafkaError::MessageConsumption(_)) if Instant::now() < deadline => {}
                Err(KafkaError::MessageConsumption(_)) => return Ok(None),
                Err(e) => return Err(kafka(format!("reading topic {}", self.url.topic))(e)),
            }
        }
    }

    /// The first offset and the offset after the last message.
    pub fn watermarks(&self) -> Result<(i64, i64), ReplicationError> {
        topic::partition_watermarks(&self.consumer, &self.url, self.partition)
    }
}
