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
    /// Fetching the primary's checkpoint failed.
    Bootstrap {
        /// The primary's address.
        primary: String,
        /// What went wrong.
        reason: String,
    },
    /// The topic misses records a replica needs (retention removed them, or the
    /// primary's log lost them): it must start again from a checkpoint.
    Gap {
        /// The version the replica needs next.
        expected: u64,
        /// The first version the topic offers (`None`: it offers none).
        found: Option<u64>,
    },
    /// Applying a record did not give the primary's versions: the replica's data no
    /// longer matches its primary.
    Diverged {
        /// The version where it happened.
        version: u64,
        /// What happened.
        reason: String,
    },
    /// Versions Kafka never acknowledged are gone from the primary's local log (it was
    /// checkpointed without keeping them): publishing on would leave a hole.
    LogGap {
        /// The topic.
        topic: String,
        /// The first missing version.
        from: u64,
        /// The last missing version.
        to: u64,
    },
    /// The offset a replica reads from is no longer in the topic.
    OffsetGone {
        /// The topic.
        topic: String,
        /// The offset.
        offset: i64,
    },
    /// The topic has fewer partitions than a sharded layout needs (one per shard).
    Partitions {
        /// The topic.
        topic: String,
        /// The partitions it has.
        has: usize,
        /// The partitions needed.
        needs: usize,
    },
    /// A replica's state file that cannot be used.
    BadState {
        /// The file (or the checkpoint it goes with).
        path: std::path::PathBuf,
        /// What is wrong.
        reason: String,
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
            ReplicationError::Partitions { topic, has, needs } => write!(
                f,
                "topic {topic} has {has} partition(s) but {needs} are needed (one per shard: \
                 the person shard reads 0, forum shard i reads i + 1); produce the sharded \
                 stream to a new topic with `kith produce ldbc --layout`"
            ),
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
            ReplicationError::Bootstrap { primary, reason } => {
                write!(f, "fetching the checkpoint of {primary} failed: {reason}")
            }
            ReplicationError::Gap { expected, found } => write!(
                f,
                "the topic no longer holds version {expected} ({}): the replica must start \
                 again from a checkpoint (--bootstrap)",
                match found {
                    Some(v) => format!("its next record starts at version {v}"),
                    None => "retention removed every record".into(),
                }
            ),
            ReplicationError::Diverged { version, reason } => write!(
                f,
                "the replica diverged from its primary at version {version}: {reason}; \
                 remove its data directory and start it again with --bootstrap"
            ),
            ReplicationError::LogGap { topic, from, to } => write!(
                f,
                "versions {from} to {to} never reached topic {topic} and are no longer in the \
                 local log (it was checkpointed without keeping them, e.g. with its \
                 log-consumed file removed); publish to a new topic and start the replicas \
                 again from a checkpoint"
            ),
            ReplicationError::OffsetGone { topic, offset } => {
                write!(f, "offset {offset} is no longer in topic {topic}")
            }
            ReplicationError::BadState { path, reason } => {
                write!(f, "{}: {reason}", path.display())
            }
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
