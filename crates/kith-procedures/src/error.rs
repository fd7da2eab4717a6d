//! Procedure errors.

use std::fmt;

/// Why a procedure call failed. Each variant has a stable machine-readable
/// [`code`](ProcedureError::code) that the wire protocol sends with the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProcedureError {
    /// No procedure has that name.
    UnknownProcedure {
        /// The name asked for.
        name: String,
        /// Registered names close to it.
        suggestions: Vec<String>,
    },
    /// A required parameter was not given.
    MissingParameter {
        /// Procedure.
        procedure: String,
        /// Parameter.
        parameter: String,
    },
    /// A parameter the procedure does not take.
    UnknownParameter {
        /// Procedure.
        procedure: String,
        /// Parameter.
        parameter: String,
        /// The parameters it does take.
        expected: Vec<String>,
    },
    /// A parameter of the wrong type.
    WrongParameterType {
        /// Procedure.
        procedure: String,
        /// Parameter.
        parameter: String,
        /// The type the schema asks for.
        expected: String,
        /// What was given (type and value).
        found: String,
    },
    /// A list parameter longer than [`crate::LIST_PARAM_LEN_MAX`], or a bad number.
    ParameterOutOfRange {
        /// Procedure.
        procedure: String,
        /// Parameter.
        parameter: String,
        /// Why.
        reason: String,
    },
    /// The subject of the call does not exist.
    NotFound {
        /// Its label.
        label: &'static str,
        /// Its external id.
        id: i64,
    },
    /// An update procedure was called where only reads run (no writer here).
    UpdateNotHere {
        /// The update procedure.
        name: String,
    },
    /// The graph lacks a name the procedure family needs.
    SchemaMismatch {
        /// The procedure family (e.g. `shindig`).
        family: &'static str,
        /// What is missing.
        missing: String,
    },
}

impl fmt::Display for ProcedureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProcedureError::UnknownProcedure { name, suggestions } => {
                write!(f, "unknown procedure `{name}`")?;
                if !suggestions.is_empty() {
                    write!(f, "; did you mean {}?", suggestions.join(", "))?;
                }
                write!(f, " (`kith procedures` lists them all)")
            }
            ProcedureError::MissingParameter {
                procedure,
                parameter,
            } => {
                write!(f, "{procedure}: missing parameter `{parameter}`")
            }
            ProcedureError::UnknownParameter {
                procedure,
                parameter,
                expected,
            } => write!(
                f,
                "{procedure}: unknown parameter `{parameter}` (it takes: {})",
                expected.join(", ")
            ),
            ProcedureError::WrongParameterType {
                procedure,
                parameter,
                expected,
                found,
            } => {
                write!(
                    f,
                    "{procedure}: parameter `{parameter}` must be {expected}, got {found}"
                )
            }
            ProcedureError::ParameterOutOfRange {
                procedure,
                parameter,
                reason,
            } => {
                write!(f, "{procedure}: parameter `{parameter}` {reason}")
            }
            ProcedureError::NotFound { label, id } => write!(f, "no {label} with id {id}"),
            ProcedureError::UpdateNotHere { name } => write!(
                f,
                "`{name}` is an update procedure: it runs through the durable write path \
                 (a server with a data directory, or `kith replay`), not as a read"
            ),
            ProcedureError::SchemaMismatch { family, missing } => write!(
                f,
                "this graph has no {missing}; {family} procedures need a {family} graph"
            ),
        }
    }
}

impl std::error::Error for ProcedureError {}

/// `found`, or a `schema_mismatch` naming what a procedure family needs and this graph
/// lacks (`what` is "label", "relationship type" or "property key").
pub(crate) fn need<T>(
    family: &'static str,
    found: Option<T>,
    what: &str,
    name: &str,
) -> Result<T, ProcedureError> {
    found.ok_or_else(|| ProcedureError::SchemaMismatch {
        family,
        missing: format!("{what} {name}"),
    })
}
