//! Why a routed read failed, with the wire code the router answers.

use std::fmt;

use kith_procedures::ProcedureError;
use kith_protocol::ErrorCode;

/// A routed read's failure: a wire code and a message for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouteError {
    /// The code the router answers with.
    pub code: ErrorCode,
    /// What went wrong, naming the shard when one did.
    pub message: String,
}

impl RouteError {
    /// A shard could not be reached or dropped the call.
    pub(crate) fn unavailable(shard: &str, url: &str, why: impl fmt::Display) -> RouteError {
        RouteError {
            code: ErrorCode::ShardUnavailable,
            message: format!("shard {shard} ({url}) is unavailable: {why}"),
        }
    }

    /// A shard answered with an error of its own (its code is kept).
    pub(crate) fn from_shard(shard: &str, code: ErrorCode, message: &str) -> RouteError {
        RouteError {
            code,
            message: format!("{message} (shard {shard})"),
        }
    }

    /// A procedure the router does not run.
    pub(crate) fn not_routed(procedure: &str) -> RouteError {
        RouteError {
            code: ErrorCode::UnknownProcedure,
            message: format!(
                "`{procedure}` is not routed: a router runs the LDBC reads ldbc.is1-7 and \
                 ldbc.ic1-14 across its shards (docs/sharding.md)"
            ),
        }
    }

    /// A router set up wrongly.
    pub(crate) fn config(why: &str) -> RouteError {
        RouteError {
            code: ErrorCode::BadRequest,
            message: why.to_owned(),
        }
    }

    /// A shard's answer is not what its procedure promises (a shard of another
    /// version, or a bug).
    pub(crate) fn malformed(shard: &str, procedure: &str, why: &str) -> RouteError {
        RouteError {
            code: ErrorCode::Internal,
            message: format!("shard {shard} answered {procedure} malformed: {why}"),
        }
    }
}

impl From<ProcedureError> for RouteError {
    fn from(e: ProcedureError) -> RouteError {
        let code = match e {
            ProcedureError::UnknownProcedure { .. } => ErrorCode::UnknownProcedure,
            ProcedureError::MissingParameter { .. } => ErrorCode::MissingParameter,
            ProcedureError::UnknownParameter { .. } => ErrorCode::UnknownParameter,
            ProcedureError::WrongParameterType { .. } => ErrorCode::WrongParameterType,
            ProcedureError::ParameterOutOfRange { .. } => ErrorCode::ParameterOutOfRange,
            ProcedureError::NotFound { .. } => ErrorCode::NotFound,
            ProcedureError::SchemaMismatch { .. } => ErrorCode::SchemaMismatch,
            ProcedureError::UpdateNotHere { .. } => ErrorCode::ReadOnly,
        };
        RouteError {
            code,
            message: e.to_string(),
        }
    }
}

impl fmt::Display for RouteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for RouteError {}
