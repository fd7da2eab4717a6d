//! Procedures a query may `CALL`: the engine knows them only through this trait, so
//! the server passes kith's native procedures (and stored Cypher ones), and a test
//! its own.

use std::fmt;
use std::sync::Arc;

use kith_core::write_op::WriteOp;
use kith_core::{GraphView, Value};

use crate::engine::Prepared;
use crate::error::CypherError;

/// A parameter of a procedure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcParam {
    /// Its name (the name an implicit argument is taken from).
    pub name: String,
    /// Its type, as SHOW PROCEDURES prints it.
    pub type_name: String,
    /// Whether a call may leave it out (only trailing parameters may be).
    pub optional: bool,
}

/// What CALL needs to know of a procedure before running it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// Its name, dotted (`shindig.friends`).
    pub name: String,
    /// One line on what it does.
    pub description: String,
    /// Its parameters in order.
    pub params: Vec<ProcParam>,
    /// Its result columns in order (none: a VOID procedure).
    pub outputs: Vec<String>,
    /// Whether it writes (an update procedure): its writes join the query's.
    pub writes: bool,
}

impl Signature {
    /// `name(a :: Int, b = 10 :: Int) :: (x, y)`, as SHOW PROCEDURES prints it.
    pub fn text(&self) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|p| {
                let opt = if p.optional { "?" } else { "" };
                format!("{}{opt} :: {}", p.name, p.type_name)
            })
            .collect();
        let outputs = if self.outputs.is_empty() {
            "VOID".to_owned()
        } else {
            format!("({})", self.outputs.join(", "))
        };
        format!("{}({}) :: {outputs}", self.name, params.join(", "))
    }
}

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
    /// A stored Cypher procedure, prepared (or why its text no longer prepares):
    /// CALL runs its plan inside the calling query (same graph, same transaction).
    /// `None` for a native one.
    fn stored(&self, _name: &str) -> Option<Result<Arc<Prepared>, CypherError>> {
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
