//! Storage errors.

use std::path::PathBuf;

use kith_core::{NodeId, RelId};

/// Everything that can go wrong storing or loading a graph.
#[derive(Debug)]
pub enum StorageError {
    /// An operation named a node that does not exist.
    NodeNotFound(NodeId),
    /// An operation named a relationship that does not exist.
    RelNotFound(RelId),
    /// A `(label, id)` lookup in a write batch found nothing.
    NoNodeWithId {
        /// The label searched.
        label: String,
        /// The external id searched.
        id: i64,
    },
    /// A batch referred to a node it creates by an index that is not a `CreateNode`.
    BadBatchReference(usize),
    /// Two nodes with a shared label would carry the same `id` property.
    DuplicateId {
        /// The label whose index already holds the id.
        label: String,
        /// The duplicated external id.
        id: i64,
    },
    /// The `id` property must be an integer: it feeds the external-id index.
    IdNotInt(String),
    /// A property value the store cannot hold (maps, nested maps in lists).
    UnsupportedPropertyValue {
        /// The property key.
        key: String,
        /// What was offered.
        found: String,
    },
    /// Deleting a node that still has relationships without `detach`.
    NodeHasRelationships(NodeId),
    /// A `Require` condition did not hold; the batch was not applied.
    ConditionFailed(String),
    /// `DropIndex` named an index that does not exist.
    NoSuchIndex {
        /// Label.
        label: String,
        /// Property key.
        key: String,
    },
    /// A schema change that cannot be made (a name taken, nothing by that name, an
    /// index in the way).
    SchemaRefused(String),
    /// A transaction expected a cursor at one position and found it at another: an
    /// earlier transaction of its consumer was not committed.
    CursorMoved {
        /// The cursor.
        name: String,
        /// Where the transaction expected it.
        expected: i64,
        /// Where it is.
        found: i64,
    },
    /// A write would give two nodes of a label the same value of a key a uniqueness
    /// constraint covers.
    NotUnique {
        /// Label.
        label: String,
        /// Property key.
        key: String,
        /// The value, printed.
        value: String,
    },
    /// A uniqueness constraint declared over nodes that already break it (nothing is
    /// declared).
    ConstraintCreationFailed {
        /// The constraint, as Neo4j describes it (`Constraint( name='c', ... )`).
        constraint: String,
        /// The first violation found.
        reason: String,
    },
    /// A label, type or key name that cannot be stored (empty, or holding a NUL).
    InvalidName {
        /// What kind of name.
        what: &'static str,
        /// The name, escaped.
        name: String,
    },
    /// Another process holds the data directory.
    Locked(PathBuf),
    /// A capacity limit (ids are `u32`, names `u16`).
    CapacityExceeded(&'static str),
    /// An I/O error on a named file.
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A file is not what it should be: wrong magic, bad checksum, truncated.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        reason: String,
    },
    /// A file written by a format version this build cannot read.
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// The version it declares.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
}

impl std::fmt::Display for StorageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StorageError::NodeNotFound(n) => write!(f, "node {n} does not exist"),
            StorageError::RelNotFound(r) => write!(f, "relationship {r} does not exist"),
            StorageError::NoNodeWithId { label, id } => {
                write!(f, "no node with label {label} and id {id}")
            }
            StorageError::BadBatchReference(i) => {
                write!(
                    f,
                    "the batch refers to created node {i}, but only nodes created by earlier operations can be referred to"
                )
            }
            StorageError::DuplicateId { label, id } => {
                write!(f, "a node with label {label} and id {id} already exists")
            }
            StorageError::IdNotInt(found) => {
                write!(
                    f,
                    "the `id` property must be an Int (it is indexed), got {found}"
                )
            }
            StorageError::UnsupportedPropertyValue { key, found } => {
                write!(
                    f,
                    "property `{key}` cannot hold a {found}; maps are not property values"
                )
            }
            StorageError::NodeHasRelationships(n) => write!(
                f,
                "node {n} still has relationships; delete them first or use a detach delete"
            ),
            StorageError::ConditionFailed(condition) => {
                write!(
                    f,
                    "condition failed: expected {condition}; nothing was written"
                )
            }
            StorageError::NoSuchIndex { label, key } => {
                write!(f, "there is no index on :{label}({key})")
            }
            StorageError::SchemaRefused(why) => f.write_str(why),
            StorageError::CursorMoved {
                name,
                expected,
                found,
            } => write!(
                f,
                "cursor `{name}` is at {found}, not at {expected}: an earlier transaction of its consumer was not committed"
            ),
            StorageError::ConstraintCreationFailed { constraint, reason } => {
                write!(f, "Unable to create {constraint}: {reason}")
            }
            StorageError::NotUnique { label, key, value } => write!(
                f,
                "another :{label} node already has {key} = {value} (a uniqueness constraint)"
            ),
            StorageError::InvalidName { what, name } => write!(
                f,
                "\"{name}\" cannot be a name ({what}): names must be non-empty and hold no NUL character"
            ),
            StorageError::Locked(path) => write!(
                f,
                "{} is locked: another kith process is using this data directory",
                path.display()
            ),
            StorageError::CapacityExceeded(what) => write!(f, "capacity exceeded: {what}"),
            StorageError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            StorageError::Corrupt { path, reason } => {
                write!(f, "{} is corrupt: {reason}", path.display())
            }
            StorageError::UnsupportedVersion {
                path,
                found,
                supported,
            } => write!(
                f,
                "{} has format version {found}; this build reads version {supported}",
                path.display()
            ),
        }
    }
}

impl StorageError {
    /// Whether the error is about the batch itself (the store is fine) rather than
    /// the disk.
    pub fn is_batch_error(&self) -> bool {
        !matches!(
            self,
            StorageError::Io { .. }
                | StorageError::Corrupt { .. }
                | StorageError::UnsupportedVersion { .. }
                | StorageError::Locked(_)
        )
    }
}

impl std::error::Error for StorageError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StorageError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
