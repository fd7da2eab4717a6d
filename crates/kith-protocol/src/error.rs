//! Protocol errors.

use std::fmt;

use crate::ErrorCode;

/// What was wrong with bytes received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProtocolError {
    /// The frame header is malformed (code `bad_frame`).
    BadFrame(String),
    /// The payload does not decode or is not a valid message (code `bad_request`).
    BadPayload {
        /// The encoding it was read as.
        encoding: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// A compressed payload does not decompress, or would exceed the limit.
    BadCompression {
        /// The compression it was read as.
        compression: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// A subprotocol name kith does not speak.
    UnsupportedSubprotocol(String),
}

impl ProtocolError {
    /// The protocol error code (`docs/protocol.md` 1.5).
    pub fn code(&self) -> ErrorCode {
        match self {
            ProtocolError::BadFrame(_) => ErrorCode::BadFrame,
            ProtocolError::BadPayload { .. }
            | ProtocolError::BadCompression { .. }
            | ProtocolError::UnsupportedSubprotocol(_) => ErrorCode::BadRequest,
        }
    }

    pub(crate) fn payload(encoding: &'static str, reason: impl Into<String>) -> Self {
        ProtocolError::BadPayload {
            encoding,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::BadFrame(reason) => write!(f, "malformed frame: {reason}"),
            ProtocolError::BadPayload { encoding, reason } => {
                write!(f, "payload is not a valid {encoding} message: {reason}")
            }
            ProtocolError::BadCompression {
                compression,
                reason,
            } => {
                write!(f, "payload does not decompress as {compression}: {reason}")
            }
            ProtocolError::UnsupportedSubprotocol(name) => write!(
                f,
                "unsupported subprotocol `{name}`; kith speaks kith.v1.<json|bson|msgpack>.\
                 <none|deflate-fast|deflate-best|zstd|lz4>"
            ),
        }
    }
}

impl std::error::Error for ProtocolError {}
