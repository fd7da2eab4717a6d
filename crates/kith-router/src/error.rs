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
    /// A Cypher error's detail (a shard's, or the router's own engine's).
    pub cypher: Option<CypherDetail>,
}

/// What a Cypher error says beyond its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CypherDetail {
    /// The Neo4j-style code (`Neo.ClientError.Statement.SyntaxError`).
    pub code: String,
    /// 1-based line and column in the text the router was sent, when known.
    pub position: Option<(u64, u64)>,
}

impl RouteError {
    /// A shard could not be reached or dropped the call.
    pub(crate) fn unavailable(shard: &str, url: &str, why: impl fmt::Display) -> RouteError {
        RouteError {
            cypher: None,
            code: ErrorCode::ShardUnavailable,
            message: format!("shard {shard} ({url}) is unavailable: {why}"),
        }
    }

    /// A shard answered with an error of its own (its code is kept).
    pub(crate) fn from_shard(shard: &str, code: ErrorCode, message: &str) -> RouteError {
        RouteError {
            cypher: None,
            code,
            message: format!("{message} (shard {shard})"),
        }
    }

    /// A procedure the router does not run.
    pub(crate) fn not_routed(procedure: &str) -> RouteError {
        RouteError {
            cypher: None,
            code: ErrorCode::UnknownProcedure,
            message: format!(
                "`{procedure}` is not routed: a router runs the LDBC reads ldbc.is1-7 and \
                 ldbc.ic1-14 across its shards (docs/sharding.md)"
            ),
        }
    }

    /// A request the router cannot run as it is.
    pub(crate) fn bad_request(message: impl Into<String>) -> RouteError {
        RouteError {
            cypher: None,
            code: ErrorCode::BadRequest,
            message: message.into(),
        }
    }

    /// A Cypher engine's error (a local shard's), without its position: the text it
    /// ran is not necessarily the client's.
    pub fn from_cypher(e: kith_cypher::CypherError) -> RouteError {
        RouteError::cypher(e, false)
    }

    /// The router's own Cypher engine refused or failed a query; `at` says whether
    /// its position is in the text the client sent (not a text the router made).
    pub(crate) fn cypher(e: kith_cypher::CypherError, at: bool) -> RouteError {
        let code = match e.code {
            kith_cypher::ErrorCode::Timeout => ErrorCode::Timeout,
            kith_cypher::ErrorCode::LimitExceeded => ErrorCode::ResultTooLarge,
            _ => ErrorCode::CypherError,
        };
        RouteError {
            code,
            cypher: Some(CypherDetail {
                code: e.code.as_str().to_owned(),
                position: (e.position.filter(|_| at)).map(|p| (p.line as u64, p.column as u64)),
            }),
            message: e.message,
        }
    }

    /// A write sent to a router.
    pub(crate) fn read_only(message: impl Into<String>) -> RouteError {
        RouteError {
            cypher: None,
            code: ErrorCode::ReadOnly,
            message: message.into(),
        }
    }

    /// A router set up wrongly.
    pub(crate) fn config(why: &str) -> RouteError {
        RouteError {
            cypher: None,
            code: ErrorCode::BadRequest,
            message: why.to_owned(),
        }
    }

    /// A shard's answer is not what its procedure promises (a shard of another
    /// version, or a bug).
    pub(crate) fn malformed(shard: &str, procedure: &str, why: &str) -> RouteError {
        RouteError {
            cypher: None,
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
            cypher: None,
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
