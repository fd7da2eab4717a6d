//! Reading the log back from the topic, record by record (replicas, tests, tools).

use std::time::{Duration, Instant};

use kith_storage::LogRecord;
use rdkafka::consumer::BaseConsumer;
use rdkafka::error::{KafkaError, RDKafkaErrorCode};
use rdkafka::Message;

use crate::error::kafka;
use crate::frame::{self, Reassembly};
use crate::topic;
use crate::{KafkaUrl, ReplicationError};

/// Reads whole log records from partition 0, from a given offset on.
pub struct LogReader {
    url: KafkaUrl,
    consumer: BaseConsumer,
    reassembly: Reassembly,
    /// The offset of the next message to read.
    next_offset: i64,
    /// No part 0 read yet: opened at an offset that may fall inside a record (the
    /// first offset retention left), whose leading parts are skipped.
    at_start: bool,
}

impl LogReader {
    /// Starts reading at `offset` (0: the topic's beginning).
    pub fn open(url: &KafkaUrl, offset: i64) -> Result<LogReader, ReplicationError> {
        let consumer = topic::consumer_at(url, offset)?;
        Ok(LogReader {
            url: url.clone(),
            consumer,
            reassembly: Reassembly::default(),
            next_offset: offset,
            at_start: true,
        })
    }

    /// The consumer (for the topic's watermarks).
    pub(crate) fn consumer(&self) -> &BaseConsumer {
        &self.consumer
    }

    /// The next whole record, or `None` if none arrived within `wait`. The offset
    /// answered is the one after the record's last part (where to resume reading).
    pub fn next(&mut self, wait: Duration) -> Result<Option<(i64, LogRecord)>, ReplicationError> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(message) = self.consumer.poll(left) else {
                return Ok(None);
            };
            let message = match message {
                Ok(message) => message,
                Err(KafkaError::MessageConsumption(
                    RDKafkaErrorCode::AutoOffsetReset | RDKafkaErrorCode::OffsetOutOfRange,
                )) => {
                    // The offset is gone (retention) or ahead of the topic: the
                    // caller decides from the watermarks and its version.
                    return Err(ReplicationError::OffsetGone {
                        topic: self.url.topic.clone(),
                        offset: self.next_offset,
                    });
                }
                // A broker going away and coming back: librdkafka reconnects by
                // itself, and the partition's position is kept.
                Err(KafkaError::MessageConsumption(code)) => {
                    tracing::debug!(topic = %self.url.topic, "Kafka: {code}");
                    continue;
                }
                Err(e) => return Err(kafka(format!("reading topic {}", self.url.topic))(e)),
            };
            let offset = message.offset();
            let at = || format!("topic {} offset {offset}", self.url.topic);
            let part = frame::parse(message.payload().unwrap_or_default())
                .map_err(|reason| ReplicationError::BadRecord { at: at(), reason })?;
            self.next_offset = offset + 1;
            if self.at_start && part.part != 0 {
                continue;
            }
            self.at_start = false;
            let record = self
                .reassembly
                .push(&part)
                .map_err(|reason| ReplicationError::BadRecord { at: at(), reason })?;
            if let Some(record) = record {
                return Ok(Some((self.next_offset, record)));
            }
            if Instant::now() >= deadline {
                return Ok(None);
            }
        }
    }
}
