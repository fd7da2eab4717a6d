//! The topic itself: creating it, and reading where its log ends.

use std::time::Duration;

use rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
use rdkafka::client::DefaultClientContext;
use rdkafka::config::ClientConfig;
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::error::RDKafkaErrorCode;
use rdkafka::{Message, Offset, TopicPartitionList};

use crate::error::kafka;
use crate::{frame, KafkaUrl, ReplicationError};

/// kith's log lives in partition 0 (one partition keeps commit order).
pub(crate) const PARTITION: i32 = 0;

/// How long one request to the cluster may take before it is tried again.
pub(crate) const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);

/// A client configuration for `url`'s cluster.
pub(crate) fn config(url: &KafkaUrl) -> ClientConfig {
    let mut config = ClientConfig::new();
    config
        .set("bootstrap.servers", &url.brokers)
        // A request is one write here; Nagle would hold small ones back.
        .set("socket.nagle.disable", "true")
        .set("reconnect.backoff.max.ms", "2000");
    config
}

/// Creates the topic with one partition (the cluster's default replication) unless
/// it exists.
pub(crate) fn ensure(url: &KafkaUrl) -> Result<(), ReplicationError> {
    ensure_partitions(url, 1)
}

/// Creates the topic with `partitions` partitions unless it exists; an existing one
/// with fewer is refused (a shard would wait on a partition nobody writes).
pub(crate) fn ensure_partitions(url: &KafkaUrl, partitions: usize) -> Result<(), ReplicationError> {
    create(url, partitions)?;
    if partitions > 1 {
        let consumer = consumer(url)?;
        // A topic just made may not be in every broker's metadata yet.
        let mut has = partition_count(&consumer, url)?;
        let deadline = std::time::Instant::now() + REQUEST_TIMEOUT;
        while has == 0 && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(100));
            has = partition_count(&consumer, url)?;
        }
        if has < partitions {
            return Err(ReplicationError::Partitions {
                topic: url.topic.clone(),
                has,
                needs: partitions,
            });
        }
    }
    Ok(())
}

/// How many partitions the topic has (0: it does not exist, or not yet).
pub(crate) fn partition_count(
    consumer: &BaseConsumer,
    url: &KafkaUrl,
) -> Result<usize, ReplicationError> {
    let metadata = consumer
        .fetch_metadata(Some(&url.topic), REQUEST_TIMEOUT)
        .map_err(kafka(format!(
            "reading the metadata of topic {}",
            url.topic
        )))?;
    Ok(metadata
        .topics()
        .iter()
        .find(|t| t.name() == url.topic)
        .map_or(0, |t| t.partitions().len()))
}

fn create(url: &KafkaUrl, partitions: usize) -> Result<(), ReplicationError> {
    let admin: AdminClient<DefaultClientContext> = config(url)
        .create()
        .map_err(kafka("creating a Kafka admin client"))?;
    let count = i32::try_from(partitions).expect("at most 65 partitions");
    let topic = NewTopic::new(&url.topic, count, TopicReplication::Fixed(-1));
    let options = AdminOptions::new().request_timeout(Some(REQUEST_TIMEOUT));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .map_err(|source| ReplicationError::Io {
            doing: "starting the Kafka admin client's runtime".into(),
            source,
        })?;
    let results = runtime
        .block_on(admin.create_topics([&topic], &options))
        .map_err(kafka(format!("creating topic {}", url.topic)))?;
    for result in results {
        match result {
            Ok(_) | Err((_, RDKafkaErrorCode::TopicAlreadyExists)) => {}
            Err((name, code)) => {
                return Err(ReplicationError::Kafka {
                    doing: format!("creating topic {name}"),
                    source: rdkafka::error::KafkaError::AdminOp(code),
                })
            }
        }
    }
    Ok(())
}

/// A consumer that reads partition 0 where it is told to (kith keeps offsets
/// itself; nothing is committed to the cluster).
pub(crate) fn consumer(url: &KafkaUrl) -> Result<BaseConsumer, ReplicationError> {
    config(url)
        .set("group.id", "kith")
        .set("enable.auto.commit", "false")
        .set("enable.auto.offset.store", "false")
        .set("enable.partition.eof", "false")
        // An offset retention removed is an error kith handles (a replica starts
        // again from a checkpoint), never a silent jump to the end.
        .set("auto.offset.reset", "error")
        .set("fetch.wait.max.ms", "100")
        .create()
        .map_err(kafka("creating a Kafka consumer"))
}

/// A consumer reading partition 0 from `offset`.
pub(crate) fn consumer_at(url: &KafkaUrl, offset: i64) -> Result<BaseConsumer, ReplicationError> {
    let consumer = consumer(url)?;
    assign(&consumer, url, offset)?;
    Ok(consumer)
}

/// Points `consumer` at partition 0, `offset`.
fn assign(consumer: &BaseConsumer, url: &KafkaUrl, offset: i64) -> Result<(), ReplicationError> {
    assign_partition(consumer, url, PARTITION, offset)
}

/// Points `consumer` at `partition`, `offset`.
pub(crate) fn assign_partition(
    consumer: &BaseConsumer,
    url: &KafkaUrl,
    partition: i32,
    offset: i64,
) -> Result<(), ReplicationError> {
    let mut assignment = TopicPartitionList::new();
    assignment
        .add_partition_offset(&url.topic, partition, Offset::Offset(offset))
        .map_err(kafka(format!("assigning partition {partition}")))?;
    consumer
        .assign(&assignment)
        .map_err(kafka(format!("reading topic {}", url.topic)))
}

/// Where the topic's log ends.
pub(crate) struct TopicEnd {
    /// The last version whose record is wholly in the topic. `Some(0)`: the topic
    /// was never written. `None`: retention removed every record, so it is unknown.
    pub(crate) version: Option<u64>,
    /// The offset the next message gets.
    pub(crate) next_offset: i64,
}

/// The first and next offsets of partition 0.
pub(crate) fn watermarks(
    consumer: &BaseConsumer,
    url: &KafkaUrl,
) -> Result<(i64, i64), ReplicationError> {
    partition_watermarks(consumer, url, PARTITION)
}

/// The first and next offsets of `partition`.
pub(crate) fn partition_watermarks(
    consumer: &BaseConsumer,
    url: &KafkaUrl,
    partition: i32,
) -> Result<(i64, i64), ReplicationError> {
    consumer
        .fetch_watermarks(&url.topic, partition, REQUEST_TIMEOUT)
        .map_err(kafka(format!("reading the offsets of topic {}", url.topic)))
}

/// Reads where the topic's log ends.
pub(crate) fn end(url: &KafkaUrl) -> Result<TopicEnd, ReplicationError> {
    let consumer = consumer(url)?;
    let (low, high) = watermarks(&consumer, url)?;
    let version = match (low, high) {
        (_, 0) => Some(0),
        (low, high) if low >= high => None,
        _ => Some(last_version(&consumer, url, high - 1)?),
    };
    Ok(TopicEnd {
        version,
        next_offset: high,
    })
}

/// The last version whose record is wholly in the topic up to `offset`, its last
/// message.
fn last_version(
    consumer: &BaseConsumer,
    url: &KafkaUrl,
    offset: i64,
) -> Result<u64, ReplicationError> {
    assign(consumer, url, offset)?;
    let deadline = std::time::Instant::now() + REQUEST_TIMEOUT * 2;
    while std::time::Instant::now() < deadline {
        let Some(message) = consumer.poll(Duration::from_millis(200)) else {
            continue;
        };
        let message = message.map_err(kafka(format!("reading topic {}", url.topic)))?;
        if message.offset() != offset {
            continue;
        }
        let at = format!("topic {} offset {offset}", url.topic);
        let part = frame::parse(message.payload().unwrap_or_default())
            .map_err(|reason| ReplicationError::BadRecord { at, reason })?;
        // An unfinished record is sent again whole.
        return Ok(match part.is_last() {
            true => part.last_version(),
            false => part.first_version - 1,
        });
    }
    Err(ReplicationError::Kafka {
        doing: format!(
            "reading the last record of topic {} (offset {offset})",
            url.topic
        ),
        source: rdkafka::error::KafkaError::MessageConsumption(RDKafkaErrorCode::RequestTimedOut),
    })
}
