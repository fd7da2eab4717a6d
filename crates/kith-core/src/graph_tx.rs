//! The write interface a query runs through: a private version of the graph.

use crate::write_op::WriteOp;
use crate::{GraphView, NodeId, RelId};

/// What one [`GraphTx::apply`] created, in the order of its operations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// Ids of the nodes created, one per `CreateNode`.
    pub nodes: Vec<NodeId>,
    /// Ids of the relationships created, one per `CreateRel`.
    pub rels: Vec<RelId>,
}

/// Why a write was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TxErrorKind {
    /// A node or relationship it names does not exist (or was deleted).
    NotFound,
    /// A node to delete without DETACH still has relationships.
    HasRelationships,
    /// A value the store cannot hold, or a name it cannot store.
    InvalidValue,
    /// Another node of the label already has the external id.
    DuplicateId,
    /// A precondition of the write (`WriteOp::Require`) does not hold.
    ConditionFailed,
    /// The transaction failed before and takes no more writes.
    Failed,
    /// A uniqueness constraint declared over nodes that already break it.
    ConstraintCreationFailed,
    /// Anything else (capacity).
    Other,
}

/// A refused write: what kind, and the store's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxError {
    /// The kind.
    pub kind: TxErrorKind,
    /// What was wrong.
    pub message: String,
}

impl std::fmt::Display for TxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TxError {}

/// A version of the graph that one query, or one explicit transaction, reads and
/// writes: its writes are visible to its own later reads at once, and to nobody else
/// until it commits. The engine depends on this trait only, so whatever stands behind
/// it (a store's private version, a replica forwarding to its primary) serves Cypher.
pub trait GraphTx: Send {
    /// The graph as this transaction sees it, its own writes included.
    fn view(&self) -> &(dyn GraphView + 'static);
    /// Applies `ops` in order. A refused operation fails the transaction: it may be
    /// half applied, and every later `apply` is refused (`TxErrorKind::Failed`).
    fn apply(&mut self, ops: &[WriteOp]) -> Result<Applied, TxError>;
}
