//! One error type for the whole import, located to the file, line and column.

use std::fmt;
use std::path::PathBuf;

/// What went wrong, as a code a caller can match on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// An option or a `--nodes` / `--relationships` argument is malformed.
    Argument,
    /// A file could not be found, read or decompressed.
    Io,
    /// A header names an unknown type, or columns that do not fit the file's kind.
    Header,
    /// A field is not a value of its column's type, or a record is malformed.
    Field,
    /// Two nodes share an id in one ID space (without `--skip-duplicate-nodes`).
    DuplicateNode,
    /// A relationship names a node no file defines (without
    /// `--skip-bad-relationships`), or has no type.
    BadRelationship,
    /// More entries were skipped than `--bad-tolerance` allows.
    TooManyBad,
    /// The store refused the graph (e.g. more than 2^32 nodes).
    Storage,
}

/// An import failure.
#[derive(Clone, Debug)]
pub struct ImportError {
    /// Its code.
    pub kind: ErrorKind,
    /// The file, when the problem is in one.
    pub file: Option<PathBuf>,
    /// The line, counting from 1 in that file; 0 when the problem is not one line.
    pub line: u64,
    /// The column's header entry, when the problem is one field.
    pub column: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl ImportError {
    /// An error that is not in any one file.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> ImportError {
        ImportError {
            kind,
            file: None,
            line: 0,
            column: None,
            message: message.into(),
        }
    }

    /// The same error, located in `file`.
    pub fn in_file(mut self, file: impl Into<PathBuf>) -> ImportError {
        self.file.get_or_insert(file.into());
        self
    }

    /// The same error, located at `line`.
    pub fn at_line(mut self, line: u64) -> ImportError {
        if self.line == 0 {
            self.line = line;
        }
        self
    }

    /// The same error, located in the column headed `column`.
    pub fn in_column(mut self, column: &str) -> ImportError {
        self.column.get_or_insert_with(|| column.to_owned());
        self
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{}", file.display())?;
            if self.line > 0 {
                write!(f, ", line {}", self.line)?;
            }
            if let Some(column) = &self.column {
                write!(f, ", column `{column}`")?;
            }
            f.write_str(": ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for ImportError {}

impl From<kith_storage::StorageError> for ImportError {
    fn from(e: kith_storage::StorageError) -> ImportError {
        ImportError::new(ErrorKind::Storage, e.to_string())
    }
}

/// Results of this crate.
pub type Result<T> = std::result::Result<T, ImportError>;
