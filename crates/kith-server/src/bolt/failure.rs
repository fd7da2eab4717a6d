//! Errors as Bolt's FAILURE: Neo4j's status codes, which the drivers turn into their
//! own exception types (`Neo.ClientError.Security.Unauthorized` is the Python driver's
//! `AuthError`, a `Neo.TransientError.*` is retried by managed transactions).

use kith_protocol::bolt::Pack;
use kith_protocol::ErrorCode as Code;

use crate::error::ExecError;

/// The Neo4j status code of an error: a Cypher error keeps the engine's own, which is
/// already Neo4j's.
pub(crate) fn neo4j_code(error: &ExecError) -> &str {
    // A Cypher error, and a write of a query the graph refused, keep the engine's
    // code: Neo4j's for the statement (a node deleted with relationships left is a
    // ConstraintValidationFailed, not the wire's `invalid_write`).
    let refused = matches!(
        error.code,
        Code::InvalidWrite | Code::DuplicateId | Code::NotFound | Code::ConditionFailed
    );
    if let Some(detail) = &error.cypher {
        if error.code == Code::CypherError || refused {
            return &detail.code;
        }
    }
    match error.code {
        Code::BadFrame | Code::BadRequest | Code::FrameTooLarge => {
            "Neo.ClientError.Request.Invalid"
        }
        Code::UnknownProcedure => "Neo.ClientError.Procedure.ProcedureNotFound",
        Code::MissingParameter => "Neo.ClientError.Statement.ParameterMissing",
        Code::UnknownParameter
        | Code::WrongParameterType
        | Code::ParameterOutOfRange
        | Code::SchemaMismatch => "Neo.ClientError.Statement.ArgumentError",
        Code::NotFound => "Neo.ClientError.Statement.EntityNotFound",
        Code::ResultTooLarge | Code::CypherError => "Neo.ClientError.Statement.ExecutionFailed",
        Code::Busy => "Neo.TransientError.Request.NoThreadsAvailable",
        Code::ShardUnavailable => "Neo.TransientError.General.DatabaseUnavailable",
        Code::Conflict => "Neo.TransientError.Transaction.Outdated",
        Code::Deadlock => "Neo.TransientError.Transaction.DeadlockDetected",
        Code::Timeout => "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration",
        Code::DuplicateId | Code::ConditionFailed => {
            "Neo.ClientError.Schema.ConstraintValidationFailed"
        }
        Code::InvalidWrite => "Neo.ClientError.Statement.SemanticError",
        Code::ReadOnly => "Neo.ClientError.General.ForbiddenOnReadOnlyDatabase",
        Code::Unauthorized => "Neo.ClientError.Security.Unauthorized",
        Code::Forbidden => "Neo.ClientError.Security.Forbidden",
        // Not transient: a managed transaction would run again a write that may be
        // committed already.
        Code::StorageFailure | Code::Internal | Code::ReplicationFailed => {
            "Neo.DatabaseError.General.UnknownError"
        }
    }
}

/// A failure as Bolt reports it: a Neo4j status code and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Failure {
    pub(crate) code: String,
    pub(crate) message: String,
    /// The GQL status the engine gave, where it gave one (else it follows `code`).
    pub(crate) gql_status: Option<String>,
    /// Where in the query text the error belongs (line, column; 1-based), if it does.
    pub(crate) at: Option<(usize, usize)>,
}

impl Failure {
    /// A failure with a status code of Bolt's own (bookmarks, transactions, the
    /// protocol's state).
    pub(crate) fn new(code: &str, message: impl Into<String>) -> Failure {
        Failure {
            code: code.to_owned(),
            message: message.into(),
            gql_status: None,
            at: None,
        }
    }
}

impl From<&ExecError> for Failure {
    fn from(error: &ExecError) -> Failure {
        let at = error
            .cypher
            .as_ref()
            .and_then(|d| Some((d.line?, d.column?)));
        Failure {
            gql_status: error.cypher.as_ref().and_then(|d| d.gql_status.clone()),
            at: at.map(|(line, column)| (line as usize, column as usize)),
            ..Failure::new(neo4j_code(error), error.message.clone())
        }
    }
}

impl Failure {
    /// The message with where in `text` it happened, in Neo4j's layout: `(line L,
    /// column C (offset: O))`, then the line quoted and a caret under the place.
    /// cypher-shell and Neo4j Browser print a message as it comes.
    pub(crate) fn located(mut self, text: &str) -> Failure {
        let Some((line, column)) = self.at else {
            return self;
        };
        let Some(quoted) = text.split('\n').nth(line.saturating_sub(1)) else {
            return self;
        };
        let quoted = quoted.trim_end_matches('\r');
        // Neo4j counts the offset in characters from the start of the text.
        let before: usize = text
            .split('\n')
            .take(line.saturating_sub(1))
            .map(|l| l.chars().count() + 1)
            .sum();
        let offset = before + column.saturating_sub(1);
        let caret = " ".repeat(column);
        self.message = format!(
            "{} (line {line}, column {column} (offset: {offset}))\n\"{quoted}\"\n{caret}^",
            self.message
        );
        self.at = None;
        self
    }
}

/// The FAILURE metadata. Before 5.7 the drivers read `code` and `message`; from 5.7
/// `neo4j_code`, `message`, `gql_status`, `description` and `diagnostic_record` (the
/// Java driver fails on a FAILURE without the first four). Both sets are always sent:
/// each version ignores the other's keys.
pub(crate) fn metadata(failure: &Failure) -> Pack {
    let code = failure.code.as_str();
    let classification = match code.split('.').nth(1) {
        Some("TransientError") => "TRANSIENT_ERROR",
        Some("DatabaseError") => "DATABASE_ERROR",
        _ => "CLIENT_ERROR",
    };
    let gql_status = match failure.gql_status.as_deref() {
        Some(status) => status,
        None => gql_of_code(code),
    };
    let s = |v: &str| Pack::String(v.to_owned());
    let diagnostic =
        super::status::diagnostic_record(vec![("_classification".into(), s(classification))]);
    Pack::Map(vec![
        ("code".into(), s(code)),
        ("neo4j_code".into(), s(code)),
        ("message".into(), s(&failure.message)),
        ("gql_status".into(), s(gql_status)),
        (
            "description".into(),
            s(&format!("error: {}", failure.message)),
        ),
        ("diagnostic_record".into(), diagnostic),
    ])
}

/// The GQL status of a failure the engine gave none: by its Neo4j code.
fn gql_of_code(code: &str) -> &'static str {
    // GQL's "general processing exception" unless a more exact status applies. Neo4j
    // 5.26 itself answers 50N42 for arithmetic errors, a function's mistyped
    // argument, a missing parameter, a deleted entity and a constraint violation
    // (recorded on the real one); an unknown procedure fails its semantic check.
    match code {
        "Neo.ClientError.Statement.SyntaxError" | "Neo.ClientError.Procedure.ProcedureNotFound" => {
            "42001"
        }
        "Neo.ClientError.Security.Unauthorized" => "42NFF",
        // As Neo4j 5.26 answers a deadlock (recorded on the real one).
        "Neo.TransientError.Transaction.DeadlockDetected" => "50N05",
        _ => "50N42",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_a_neo4j_status_of_the_right_class() {
        for code in Code::ALL {
            let error = ExecError::new(*code, "x");
            let status = neo4j_code(&error);
            assert!(status.starts_with("Neo."), "{code}: {status}");
            let transient = status.starts_with("Neo.TransientError.");
            // Only what a retry can fix is transient: managed transactions retry it.
            let retryable = matches!(
                code,
                Code::Busy | Code::Conflict | Code::Deadlock | Code::ShardUnavailable
            );
            assert_eq!(transient, retryable, "{code}: {status}");
        }
        let cypher = crate::cypher::from_cypher(
            kith_cypher::Engine::default()
                .prepare("RETRUN 1")
                .expect_err("syntax"),
        );
        assert_eq!(neo4j_code(&cypher), "Neo.ClientError.Statement.SyntaxError");
        let meta = metadata(&Failure::from(&cypher));
        assert_eq!(meta.get("gql_status").and_then(Pack::as_str), Some("42001"));
        let unknown = Failure::from(&ExecError::new(Code::UnknownProcedure, "x"));
        let unknown = metadata(&unknown);
        let status = unknown.get("gql_status").and_then(Pack::as_str);
        assert_eq!(
            status,
            Some("42001"),
            "as Neo4j 5.26 answers CALL nope.nope()"
        );
        for key in ["code", "neo4j_code", "message", "description"] {
            assert!(meta.get(key).and_then(Pack::as_str).is_some(), "{key}");
        }
    }
}
