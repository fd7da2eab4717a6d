//! kith-storage: the in-memory property graph.
//!
//! A graph lives as a chain of immutable [`Snapshot`]s. Readers take the current one
//! (an `Arc` load that never blocks) and keep it as long as they like; the single
//! writer in [`Store`] clones the current version *shallowly* — page tables of `Arc`
//! pages — applies a [`WriteBatch`] to the clone, copying only the pages and node
//! records it touches, and publishes the result atomically. A batch that fails is
//! dropped whole, so no reader ever sees half of it.
//!
//! Adjacency is index-free: per node, per relationship type and direction, a sorted
//! list of `(neighbour, relationship)` pairs, packed for all nodes into one array
//! and overlaid by the nodes writes changed since (see `adjacency`). Property values
//! live in columns, one per key (see `columns`), and a record holds only the number
//! of its (labels, keys) combination (see `shapes`).

mod adjacency;
mod catalog;
mod columns;
mod compaction;
mod conflict;
mod database;
pub mod disk;
mod error;
mod graph_file;
mod id_index;
mod label_index;
mod memory;
mod narrow;
mod node;
mod paged;
mod prop_index;
mod raw;
mod reclaim;
mod schema;
mod shapes;
mod snapshot;
mod store;
mod temporal_codec;
mod tx;
mod wal;
mod write;

pub use catalog::{Catalog, ID_KEY, NAMES_MAX};
pub use conflict::{History, ReadCheck, WriteSet};
pub use database::{
    create_data_dir, CheckpointReport, Database, DatabaseOptions, LogRecord, RecoveryReport,
    CHECKPOINT_FILE, LOG_CONSUMED_FILE,
};
pub use error::StorageError;
pub use graph_file::{
    load_snapshot, read_graph_file, read_graph_file_with_meta, snapshot_from_bytes,
    write_graph_file, write_graph_file_version, GraphFileMeta, GRAPH_FILE_VERSION,
};
pub use memory::MemoryReport;
pub use raw::{RawGraph, RawNode, RawRel};
pub use reclaim::Reclaimed;
pub use snapshot::Snapshot;
pub use store::{CommitInfo, GroupResults, Store};
pub use tx::{Owner, RebaseRefused, Tx};
pub use wal::{decode_payload, scan_log_bytes, Durability, LogScan, WAL_FORMAT_VERSION};
pub use write::{Condition, Name, NodeRef, WriteBatch, WriteOp};
