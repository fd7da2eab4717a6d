//! kith-replication: scaling reads on an existing distributed log (Kafka).
//!
//! The primary publishes each commit group's log record to one partition of a topic,
//! in commit order, after its local fsync (`publish`); replicas start from the
//! primary's checkpoint (`bootstrap`) and apply the topic from its version on
//! (`follow`). The records are the log's own bytes
//! (docs/storage-format.md 2), cut into parts that fit a Kafka message (`frame`).
//! docs/replication.md describes the whole design.

pub mod bootstrap;
mod error;
mod follow;
pub mod frame;
mod messages;
mod publish;
mod reader;
mod threads;
mod topic;
mod url;

pub use error::ReplicationError;
pub use follow::{prepare, FollowState, Follower, ReplicaState, STATE_FILE};
pub use messages::{produce_all, produce_partitioned, topic_partitions, MessageReader};
pub use publish::{Ack, AckError, PublishOptions, Publisher, Refusal};
pub use reader::LogReader;
pub use url::KafkaUrl;
