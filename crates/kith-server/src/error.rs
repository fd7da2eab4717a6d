//! A failed request, the same for every transport: its wire code, a message for
//! people, and a Cypher error's detail.

use kith_protocol::{CypherErrorDetail, ErrorBody, ErrorCode as Code};

/// A failed request: a protocol error code and a message for people, and for a
/// Cypher error what the engine said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ExecError {
    pub(crate) code: Code,
    pub(crate) message: String,
    /// Boxed: errors travel in `Result`s of hot paths, and most have no detail.
    pub(crate) cypher: Option<Box<CypherErrorDetail>>,
}

impl ExecError {
    pub(crate) fn new(code: Code, message: impl Into<String>) -> Self {
        ExecError {
            code,
            message: message.into(),
            cypher: None,
        }
    }

    /// The error document (`docs/protocol.md` 1.5).
    pub(crate) fn body(&self) -> ErrorBody {
        ErrorBody {
            cypher: self.cypher.as_deref().cloned(),
            ..ErrorBody::new(self.code.as_str(), self.message.as_str())
        }
    }
}
