//! Procedures a query may `CALL`: the engine knows them only through this trait, so
//! the server passes kith's native procedures (and stored Cypher ones), and a test
//! its own.

use std::fmt;
use std::sync::Arc;

use kith_core::write_op::WriteOp;
use kith_core::{GraphView, Value};

use crate::catalog::Catalog;
pub use crate::catalog::{ProcParam, Signature};
use crate::error::CypherError;
use crate::planner::Plan;

/// What a call returns: rows of its columns, or (an update procedure) the writes it
/// makes.
#[derive(Clone, Debug, PartialEq)]
pub enum CallOutput {
    /// Rows, one value per output column.
    Rows(Vec<Vec<Value>>),
    /// Writes, applied to the query's transaction.
    Writes(Vec<WriteOp>),
}

/// The procedures a query may call.
pub trait Procedures: Send + Sync {
    /// A procedure's signature, if it exists.
    fn signature(&self, name: &str) -> Option<Signature>;
    /// Every procedure, by name.
    fn list(&self) -> Vec<Signature>;
    /// Calls `name` with its arguments by parameter name (validated by the binder for
    /// count, by the procedure for types).
    fn call(
        &self,
        graph: &dyn GraphView,
        name: &str,
        args: &[(String, Value)],
    ) -> Result<CallOutput, CypherError>;
    /// A stored Cypher procedure's plan (or why its text no longer prepares): CALL
    /// runs it inside the calling query (same graph, same transaction). `None` for a
    /// native one.
    fn stored(&self, _name: &str) -> Option<Result<Arc<Plan>, CypherError>> {
        None
    }
    /// Changes whenever the stored procedures change: a plan prepared under another
    /// epoch may call an old version, so the engine prepares it again.
    fn epoch(&self) -> u64 {
        0
    }
}

/// The procedures a plan calls through: shared, and printable in a plan's debug form.
#[derive(Clone)]
pub struct ProcedureSet(pub Arc<dyn Procedures>);

impl fmt::Debug for ProcedureSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProcedureSet")
    }
}

/// What the binder sees of the procedures: a stored procedure whose text no longer
/// prepares answers why, where a native one answers its signature.
impl Catalog for ProcedureSet {
    fn signature(&self, name: &str) -> Option<Result<Signature, CypherError>> {
        if let Some(sig) = crate::tx_meta::signature(name) {
            return Some(Ok(sig));
        }
        if let Some(Err(e)) = self.0.stored(name) {
            return Some(Err(e));
        }
        self.0.signature(name).map(Ok)
    }

    fn list(&self) -> Vec<Signature> {
        let mut all = self.0.list();
        all.extend(crate::tx_meta::signatures());
        all.sort_by(|a, b| a.name.cmp(&b.name));
        all
    }
}

/// No procedures at all (an engine made without any).
pub struct NoProcedures;

impl Procedures for NoProcedures {
    fn signature(&self, _: &str) -> Option<Signature> {
        None
    }

    fn list(&self) -> Vec<Signature> {
        Vec::new()
    }

    fn call(
        &self,
        _: &dyn GraphView,
        name: &str,
        _: &[(String, Value)],
    ) -> Result<CallOutput, CypherError> {
        Err(CypherError::new(
            crate::ErrorCode::ProcedureNotFound,
            format!("there is no procedure named `{name}`"),
        ))
    }
}
