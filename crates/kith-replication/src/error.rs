//! What can go wrong replicating.

use std::fmt;

use kith_storage::StorageError;

/// Every replication failure, each naming what was wrong.
#[derive(Debug)]
pub enum ReplicationError {
    /// A `kafka://` address that does not parse.
    BadUrl {
        /// The text given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The Kafka client refused or failed an operation.
    Kafka {
        /// What kith was doing.
        doing: String,
        /// The client's error.
        source: rdkafka::error::KafkaError,
    },
    /// A record in the topic that is not a kith log record, or is damaged.
    BadRecord {
        /// The topic and offset.
        at: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The topic holds versions this data directory does not: it belongs to another
    /// primary, or the directory was restored from an older copy.
    TopicAhead {
        /// The topic.
        topic: String,
        /// The last version the topic holds.
        published: u64,
        /// The version of the data directory.
        local: u64,
    },
    /// The local store or log failed.
    Storage(StorageError),
    /// The operating system refused something (a thread, a runtime).
    Io {
        /// What kith was doing.
        doing: String,
        /// The error.
        source: std::io::Error,
    },
}

impl fmt::Display for ReplicationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplicationError::BadUrl { url, reason } => {
                write!(f, "`{url}` is not a Kafka topic address: {reason}")
            }
            ReplicationError::Kafka { doing, source } => write!(f, "{doing}: {source}"),
            ReplicationError::BadRecord { at, reason } => {
                write!(f, "{at} is not a kith log record: {reason}")
            }
            ReplicationError::TopicAhead {
                topic,
                published,
                local,
            } => write!(
                f,
                "topic {topic} already holds versions up to {published}, but this data \
                 directory ends at version {local}: the topic belongs to another primary \
                 (or the directory is an older copy); publish to a new topic"
            ),
            ReplicationError::Storage(e) => e.fmt(f),
            ReplicationError::Io { doing, source } => write!(f, "{doing}: {source}"),
        }
    }
}

impl std::error::Error for ReplicationError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReplicationError::Kafka { source, .. } => Some(source),
            ReplicationError::Storage(e) => Some(e),
            ReplicationError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<StorageError> for ReplicationError {
    fn from(e: StorageError) -> Self {
        ReplicationError::Storage(e)
    }
}

/// Wraps a Kafka client error with what kith was doing.
pub(crate) fn kafka(
    doing: impl Into<String>,
) -> impl FnOnce(rdkafka::error::KafkaError) -> ReplicationError {
    let doing = doing.into();
    move |source| ReplicationError::Kafka { doing, source }
}
