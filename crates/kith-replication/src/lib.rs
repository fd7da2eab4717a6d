//! kith-replication: scaling reads on an existing distributed log (Kafka).
//!
//! The primary publishes each commit group's log record to one partition of a topic,
//! in commit order, after its local fsync (`publish`); replicas apply the topic from
//! a checkpoint's version on. The records are the log's own bytes
//! (docs/storage-format.md 2), cut into parts that fit a Kafka message (`frame`).
//! docs/replication.md describes the whole design.

mod error;
pub mod frame;
mod publish;
mod reader;
mod topic;
mod url;

pub use error::ReplicationError;
pub use publish::{Ack, AckError, PublishOptions, Publisher, Refusal};
pub use reader::LogReader;
pub use url::KafkaUrl;
