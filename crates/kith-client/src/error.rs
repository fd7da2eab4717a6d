//! Client errors.

use std::fmt;
use std::time::Duration;

use kith_protocol::ErrorCode;

/// Why a call failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientError {
    /// The server answered with an error (`docs/protocol.md` 1.5).
    Server {
        /// Stable code, e.g. [`ErrorCode::NotFound`].
        code: ErrorCode,
        /// For people.
        message: String,
    },
    /// The server refused or failed a Cypher query (`docs/protocol.md` 1.5).
    Cypher {
        /// The wire code: [`ErrorCode::CypherError`], or `Timeout` / `ResultTooLarge`
        /// when the query ran into the server's limits.
        code: ErrorCode,
        /// The engine's Neo4j-style code, e.g. `Neo.ClientError.Statement.SyntaxError`.
        cypher_code: String,
        /// For people.
        message: String,
        /// 1-based line in the query text, when the error belongs to a place in it.
        line: Option<u64>,
        /// 1-based column, in characters.
        column: Option<u64>,
    },
    /// No answer in time.
    Timeout(Duration),
    /// Could not connect (or the server refused the handshake).
    Connect {
        /// The URL.
        url: String,
        /// Why.
        reason: String,
    },
    /// The connection closed while the call was in flight.
    ConnectionClosed(String),
    /// The server sent something that is not the protocol.
    Protocol(String),
    /// The client was configured wrongly.
    Config(String),
}

impl ClientError {
    /// The server's error code, if the server answered with one (for a Cypher error
    /// the wire code; [`ClientError::Cypher`] has the engine's).
    pub fn code(&self) -> Option<ErrorCode> {
        match self {
            ClientError::Server { code, .. } | ClientError::Cypher { code, .. } => Some(*code),
            _ => None,
        }
    }
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Server { code, message } => write!(f, "{code}: {message}"),
            ClientError::Cypher {
                code,
                cypher_code,
                message,
                line,
                column,
            } => {
                write!(f, "{code}: {cypher_code}: {message}")?;
                match (line, column) {
                    (Some(line), Some(column)) => write!(f, " (line {line}, column {column})"),
                    _ => Ok(()),
                }
            }
            ClientError::Timeout(d) => write!(f, "no answer within {} ms", d.as_millis()),
            ClientError::Connect { url, reason } => write!(f, "cannot connect to {url}: {reason}"),
            ClientError::ConnectionClosed(why) => write!(f, "connection closed: {why}"),
            ClientError::Protocol(why) => write!(f, "protocol error: {why}"),
            ClientError::Config(why) => write!(f, "bad client configuration: {why}"),
        }
    }
}

impl std::error::Error for ClientError {}
