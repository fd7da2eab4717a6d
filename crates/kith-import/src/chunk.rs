//! What every chunk's parse shares: the header, the dialect, and the names (labels
//! and relationship types) fields bring, interned once per chunk.

use std::path::Path;
use std::sync::Mutex;

use kith_core::{LabelId, RelTypeId};
use kith_storage::Catalog;
use rustc_hash::FxHashMap;

use crate::error::{ErrorKind, ImportError, Result};
use crate::header::Header;
use crate::split::{Dialect, Record};
use crate::value::FieldRules;

/// One group's parse settings.
pub struct Context<'a> {
    /// The group's header.
    pub header: &'a Header,
    /// The file being read, for messages.
    pub file: &'a Path,
    /// Its dialect.
    pub dialect: Dialect,
    /// How fields become values.
    pub rules: FieldRules,
    /// The graph's names; locked only the first time a chunk meets a name.
    pub catalog: &'a Mutex<Catalog>,
}

impl Context<'_> {
    /// An error at `line`, in column `column`.
    pub fn field_error(&self, line: u64, column: usize, message: String) -> ImportError {
        ImportError::new(ErrorKind::Field, message)
            .in_file(self.file)
            .at_line(line)
            .in_column(&self.header.names[column])
    }

    /// Field `i` as text (missing trailing fields are empty), and whether it was
    /// quoted.
    pub fn text<'r>(&self, record: &'r Record, i: usize, line: u64) -> Result<(&'r str, bool)> {
        let (bytes, quoted) = record.get(i).unwrap_or((b"", false));
        let text = std::str::from_utf8(bytes)
            .map_err(|_| self.field_error(line, i, "the field is not UTF-8 text".into()))?;
        Ok((text, quoted))
    }

    /// Refuses a record with more fields than the header has columns.
    pub fn check_width(&self, record: &Record, line: u64) -> Result<()> {
        if record.len() > self.header.columns.len() {
            return Err(ImportError::new(
                ErrorKind::Field,
                format!(
                    "the record has {} fields, the header {} columns",
                    record.len(),
                    self.header.columns.len()
                ),
            )
            .in_file(self.file)
            .at_line(line));
        }
        Ok(())
    }
}

/// Names met in one chunk.
#[derive(Default)]
pub struct Names {
    labels: FxHashMap<Box<str>, LabelId>,
    types: FxHashMap<Box<str>, RelTypeId>,
}

impl Names {
    /// The label named `name`.
    pub fn label(&mut self, catalog: &Mutex<Catalog>, name: &str) -> Result<LabelId> {
        if let Some(id) = self.labels.get(name) {
            return Ok(*id);
        }
        let id = lock(catalog).label(name)?;
        self.labels.insert(name.into(), id);
        Ok(id)
    }

    /// The relationship type named `name`.
    pub fn rel_type(&mut self, catalog: &Mutex<Catalog>, name: &str) -> Result<RelTypeId> {
        if let Some(id) = self.types.get(name) {
            return Ok(*id);
        }
        let id = lock(catalog).rel_type(name)?;
        self.types.insert(name.into(), id);
        Ok(id)
    }
}

/// The catalog, even if another parser panicked holding it (the import fails then
/// anyway; this keeps the first error the one reported).
pub fn lock(catalog: &Mutex<Catalog>) -> std::sync::MutexGuard<'_, Catalog> {
    catalog.lock().unwrap_or_else(|e| e.into_inner())
}
