//! The stable error codes of the wire protocol (`docs/protocol.md` 1.5): one enum, so
//! every transport maps every code (HTTP statuses, metrics, and later Bolt's) with an
//! exhaustive match instead of falling through on a string it does not know.

use std::fmt;
use std::str::FromStr;

macro_rules! codes {
    ($($(#[$doc:meta])* $variant:ident = $text:literal,)*) => {
        /// An error code as it travels in an error document's `code`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ErrorCode {
            $($(#[$doc])* $variant,)*
        }

        impl ErrorCode {
            /// Every code, in the order `docs/protocol.md` lists them.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)*];

            /// The code's text on the wire.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $text,)*
                }
            }
        }

        impl FromStr for ErrorCode {
            type Err = UnknownCode;

            fn from_str(s: &str) -> Result<ErrorCode, UnknownCode> {
                match s {
                    $($text => Ok(ErrorCode::$variant),)*
                    _ => Err(UnknownCode(s.to_owned())),
                }
            }
        }
    };
}

codes! {
    /// The frame header is malformed.
    BadFrame = "bad_frame",
    /// The payload does not decode or is not a valid request.
    BadRequest = "bad_request",
    /// A message over `frame_bytes_max`.
    FrameTooLarge = "frame_too_large",
    /// No procedure by that name.
    UnknownProcedure = "unknown_procedure",
    /// A required parameter is missing.
    MissingParameter = "missing_parameter",
    /// A parameter the procedure does not take.
    UnknownParameter = "unknown_parameter",
    /// A parameter of the wrong type.
    WrongParameterType = "wrong_parameter_type",
    /// A parameter outside its range.
    ParameterOutOfRange = "parameter_out_of_range",
    /// A node, relationship or index that does not exist.
    NotFound = "not_found",
    /// The graph lacks what a procedure's schema needs.
    SchemaMismatch = "schema_mismatch",
    /// More rows than `result_rows_max` (or `cypher_rows_max`).
    ResultTooLarge = "result_too_large",
    /// A Cypher query was refused or failed.
    CypherError = "cypher_error",
    /// An in-flight or queue limit is reached; retry later.
    Busy = "busy",
    /// The request waited or ran past `query_timeout_ms`.
    Timeout = "timeout",
    /// A write would give an `(label, id)` a second node.
    DuplicateId = "duplicate_id",
    /// A write's `require_absent` / `require_present` did not hold.
    ConditionFailed = "condition_failed",
    /// A write operation the store refuses.
    InvalidWrite = "invalid_write",
    /// A transaction's writes collide with a transaction that committed after it
    /// began; run it again.
    Conflict = "conflict",
    /// A statement of an explicit transaction would wait for a transaction that
    /// waits, through others, for this one: this one is rolled back; run it again.
    Deadlock = "deadlock",
    /// A write sent where only reads run.
    ReadOnly = "read_only",
    /// No credentials, or credentials that match no user.
    Unauthorized = "unauthorized",
    /// The user's role does not allow the request (a reader's write).
    Forbidden = "forbidden",
    /// The disk or the data directory failed.
    StorageFailure = "storage_failure",
    /// Publishing the log to Kafka failed or was not acknowledged in time; the
    /// message says whether the write was committed on the primary.
    ReplicationFailed = "replication_failed",
    /// A router (`kith route`) could not reach a shard the request needs: nothing
    /// was answered from the others (never a partial answer); retry once it is back.
    ShardUnavailable = "shard_unavailable",
    /// A server bug.
    Internal = "internal",
}

/// A code this version does not know (a newer server's, or a typo).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCode(pub String);

impl fmt::Display for UnknownCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown error code `{}`", self.0)
    }
}

impl std::error::Error for UnknownCode {}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    #[test]
    fn every_code_reads_back_and_unknown_ones_are_errors() {
        for &code in ErrorCode::ALL {
            assert_eq!(code.as_str().parse::<ErrorCode>(), Ok(code));
        }
        assert!("no_such_code".parse::<ErrorCode>().is_err());
    }

    #[test]
    fn the_protocol_document_lists_every_code_and_no_other() {
        let doc = include_str!("../../../docs/protocol.md");
        let start = doc
            .find("| code | meaning | connection |")
            .expect("the table");
        let table: Vec<&str> = doc[start..]
            .lines()
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .collect();
        let mut listed: Vec<&str> = table
            .iter()
            .filter_map(|l| l.split('|').nth(1))
            .flat_map(|cell| cell.split(','))
            .map(|c| c.trim().trim_matches('`'))
            .collect();
        listed.sort_unstable();
        let mut known: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        known.sort_unstable();
        assert_eq!(listed, known);
    }
}
