//! The one error type of the engine: a stable code, a message, and where in the text.

use std::fmt;

/// What went wrong, as a stable code. The codes follow Neo4j's status-code families
/// (`Neo.ClientError.Statement.*`) so tools that know Neo4j's errors read ours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// The text is not a valid query: an unexpected token, an unclosed string, or a
    /// semantic check before running (an undefined variable, a variable of two kinds,
    /// an aggregate inside WHERE, a literal of the wrong type for an operator).
    SyntaxError,
    /// A query that cannot run as written, found while running it. Errors found before
    /// running (a variable used before it is defined, an aggregate where none may
    /// stand) are [`ErrorCode::SyntaxError`]s, as openCypher and Neo4j class them.
    SemanticError,
    /// A value of the wrong type for an operator or a function argument.
    TypeError,
    /// A function or procedure argument of the right type but an invalid value.
    ArgumentError,
    /// Integer division or modulo by zero.
    ArithmeticError,
    /// A parameter the query uses was not supplied.
    ParameterMissing,
    /// A function name the engine does not know.
    UnknownFunction,
    /// A feature of Cypher this engine does not run yet.
    NotSupported,
    /// The query ran past its time limit.
    Timeout,
    /// The query was cancelled by its client or the server.
    Cancelled,
    /// The query produced or held more rows than the server allows.
    LimitExceeded,
    /// A write the query would make was refused (a missing node, a deleted one).
    ConstraintViolation,
    /// CALL named a procedure that does not exist.
    ProcedureNotFound,
    /// A procedure refused its arguments or failed.
    ProcedureCallFailed,
    /// The query read a node or relationship it deleted itself (its properties or
    /// labels are gone; its id and a relationship's type are still known).
    EntityNotFound,
    /// A schema command would declare what is already declared, by the same name.
    SchemaRuleExists,
    /// A schema command would declare an index where one covers the same keys.
    IndexExists,
    /// A schema command would declare an index or constraint where a uniqueness
    /// constraint covers the same keys.
    ConstraintExists,
    /// A schema command names a new rule as an existing index is named.
    IndexNameTaken,
    /// A schema command names a new rule as an existing constraint is named.
    ConstraintNameTaken,
    /// An index or constraint names one property twice.
    RepeatedProperty,
    /// A uniqueness constraint was declared over nodes that already break it.
    ConstraintCreationFailed,
    /// DROP INDEX named no index, or one a constraint owns.
    IndexDropFailed,
    /// DROP CONSTRAINT named no constraint.
    ConstraintDropFailed,
    /// The query asked for something the engine refuses while running, as Neo4j does
    /// (a shortest path from a node to itself with a minimum length above 0).
    ExecutionFailed,
}

impl ErrorCode {
    /// The stable wire name of the code.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::SyntaxError => "Neo.ClientError.Statement.SyntaxError",
            ErrorCode::SemanticError => "Neo.ClientError.Statement.SemanticError",
            ErrorCode::TypeError => "Neo.ClientError.Statement.TypeError",
            ErrorCode::ArgumentError => "Neo.ClientError.Statement.ArgumentError",
            ErrorCode::ArithmeticError => "Neo.ClientError.Statement.ArithmeticError",
            ErrorCode::ParameterMissing => "Neo.ClientError.Statement.ParameterMissing",
            // Neo4j 5 has no code of its own for it: a function it does not know is a
            // syntax error (the TCK's `SyntaxError: UnknownFunction`).
            ErrorCode::UnknownFunction => "Neo.ClientError.Statement.SyntaxError",
            ErrorCode::NotSupported => "Neo.ClientError.Statement.FeatureNotSupported",
            ErrorCode::Timeout => "Neo.ClientError.Transaction.TransactionTimedOut",
            ErrorCode::Cancelled => "Neo.ClientError.Transaction.Terminated",
            ErrorCode::LimitExceeded => "Neo.ClientError.Statement.LimitExceeded",
            ErrorCode::ConstraintViolation => "Neo.ClientError.Schema.ConstraintValidationFailed",
            ErrorCode::ExecutionFailed => "Neo.DatabaseError.Statement.ExecutionFailed",
            ErrorCode::EntityNotFound => "Neo.ClientError.Statement.EntityNotFound",
            ErrorCode::ProcedureNotFound => "Neo.ClientError.Procedure.ProcedureNotFound",
            ErrorCode::ProcedureCallFailed => "Neo.ClientError.Procedure.ProcedureCallFailed",
            ErrorCode::SchemaRuleExists => {
                "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists"
            }
            ErrorCode::IndexExists => "Neo.ClientError.Schema.IndexAlreadyExists",
            ErrorCode::ConstraintExists => "Neo.ClientError.Schema.ConstraintAlreadyExists",
            ErrorCode::IndexNameTaken => "Neo.ClientError.Schema.IndexWithNameAlreadyExists",
            ErrorCode::ConstraintNameTaken => {
                "Neo.ClientError.Schema.ConstraintWithNameAlreadyExists"
            }
            ErrorCode::RepeatedProperty => {
                "Neo.ClientError.Schema.RepeatedPropertyInCompositeSchema"
            }
            ErrorCode::IndexDropFailed => "Neo.DatabaseError.Schema.IndexDropFailed",
            ErrorCode::ConstraintCreationFailed => {
                "Neo.DatabaseError.Schema.ConstraintCreationFailed"
            }
            ErrorCode::ConstraintDropFailed => "Neo.DatabaseError.Schema.ConstraintDropFailed",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A position in the query text: byte offset, 1-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Byte offset from the start of the text.
    pub offset: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl Position {
    /// The position of byte `offset` in `text`.
    pub fn at(text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let before = &text[..floor_char_boundary(text, offset)];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        Position {
            offset,
            line,
            column,
        }
    }
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// An error from parsing, planning or running a query.
#[derive(Clone, Debug, PartialEq)]
pub struct CypherError {
    /// The stable code.
    pub code: ErrorCode,
    /// What was wrong, in words.
    pub message: String,
    /// Where, when the error belongs to a place in the text.
    pub position: Option<Position>,
    /// When the graph refused a write: why, in the graph's terms (the server answers
    /// its own code for it, as for any refused write).
    pub refused: Option<kith_core::TxErrorKind>,
    /// The GQL status where it is finer than its code's ([`CypherError::gql_status`]).
    pub gql: Option<&'static str>,
}

impl CypherError {
    /// An error without a position.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> CypherError {
        CypherError {
            code,
            message: message.into(),
            position: None,
            refused: None,
            gql: None,
        }
    }

    /// An error at byte `offset` of `text`.
    pub fn at(
        code: ErrorCode,
        message: impl Into<String>,
        text: &str,
        offset: usize,
    ) -> CypherError {
        CypherError {
            code,
            message: message.into(),
            position: Some(Position::at(text, offset)),
            refused: None,
            gql: None,
        }
    }

    /// The error with the GQL status `status` (one finer than its code's).
    pub fn with_gql(self, status: &'static str) -> CypherError {
        CypherError {
            gql: Some(status),
            ..self
        }
    }

    /// Its GQL status, as Neo4j 5.26 gives it (recorded on the real one): `42001`
    /// for a text that does not parse and an unknown procedure, the finer status a
    /// few errors have (`22N38` a zero `range()` step, `51N23` a shortest path from a
    /// node to itself), and else Neo4j's general `50N42`, which it gives semantic
    /// errors (an undefined variable), type, argument and arithmetic errors, missing
    /// parameters, deleted entities and constraint violations alike.
    pub fn gql_status(&self) -> &'static str {
        match (self.gql, self.code) {
            (Some(status), _) => status,
            (None, ErrorCode::ProcedureNotFound) => "42001",
            // Neo4j 5.26's statuses for these (the rest of its schema errors are 50N42).
            (None, ErrorCode::IndexNameTaken) => "22N71",
            (None, ErrorCode::ConstraintNameTaken) => "22N67",
            (None, ErrorCode::ConstraintDropFailed) => "50N12",
            (None, ErrorCode::ConstraintCreationFailed) => "50N11",
            (None, _) => "50N42",
        }
    }

    /// A type error.
    pub fn type_error(message: impl Into<String>) -> CypherError {
        CypherError::new(ErrorCode::TypeError, message)
    }

    /// The message with the line of `text` it points into and a caret under the column,
    /// as cypher-shell shows it.
    pub fn render(&self, text: &str) -> String {
        let Some(pos) = self.position else {
            return format!("{}: {}", self.code, self.message);
        };
        let line = text.lines().nth(pos.line - 1).unwrap_or("");
        let caret = " ".repeat(pos.column.saturating_sub(1));
        format!(
            "{}: {} (line {}, column {})\n  {}\n  {}^",
            self.code, self.message, pos.line, pos.column, line, caret
        )
    }
}

impl fmt::Display for CypherError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some(p) => write!(f, "{} (line {}, column {})", self.message, p.line, p.column),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for CypherError {}

/// The engine's result type.
pub type Result<T> = std::result::Result<T, CypherError>;

impl From<kith_core::temporal::ParseError> for CypherError {
    fn from(e: kith_core::temporal::ParseError) -> CypherError {
        CypherError::new(ErrorCode::ArgumentError, e.0)
    }
}

impl From<kith_core::temporal::duration::OutOfRange> for CypherError {
    fn from(_: kith_core::temporal::duration::OutOfRange) -> CypherError {
        CypherError::new(ErrorCode::ArgumentError, "duration out of range")
    }
}
