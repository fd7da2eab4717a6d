//! LDBC's `|`-separated files: a header line, then one record per line.
//!
//! The LDBC serializers never quote or escape: a field is everything between two `|`
//! (message contents hold no `|` or newline). A general CSV parser would treat a `"`
//! inside a message as a quote and misread the row, so the split is done here, which
//! is also the fastest way to read hundreds of megabytes.

use std::fmt;
use std::path::{Path, PathBuf};

/// A problem in an input file, located to the line and column.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadError {
    /// The file.
    pub file: PathBuf,
    /// The line, counting from 1 (the header is line 1); 0 when the problem is the
    /// file itself.
    pub line: usize,
    /// The column's header name, when the problem is one field.
    pub column: Option<String>,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if self.line > 0 {
            write!(f, ", line {}", self.line)?;
        }
        if let Some(column) = &self.column {
            write!(f, ", column {column}")?;
        }
        write!(f, ": {}", self.reason)
    }
}

impl std::error::Error for LoadError {}

/// One file's text, checked to have the expected header.
pub struct Table {
    path: PathBuf,
    text: String,
    columns: Vec<&'static str>,
}

impl Table {
    /// Reads `path` and checks that its header is exactly `columns`.
    pub fn open(path: &Path, columns: &[&'static str]) -> Result<Table, LoadError> {
        let text = std::fs::read_to_string(path).map_err(|e| LoadError {
            file: path.to_owned(),
            line: 0,
            column: None,
            reason: if e.kind() == std::io::ErrorKind::InvalidData {
                "not UTF-8 text".into()
            } else {
                e.to_string()
            },
        })?;
        let header = text.lines().next().unwrap_or("");
        let expected = columns.join("|");
        if header.trim_end_matches('\r') != expected {
            return Err(LoadError {
                file: path.to_owned(),
                line: 1,
                column: None,
                reason: format!(
                    "the header is {header:?}; expected {expected:?} (csv_composite layout)"
                ),
            });
        }
        Ok(Table {
            path: path.to_owned(),
            text,
            columns: columns.to_vec(),
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The records after the header, each with its line number; a record with the
    /// wrong number of fields is an error. An empty last line is not a record.
    pub fn records(&self) -> impl Iterator<Item = Result<Record<'_>, LoadError>> + '_ {
        self.text
            .split('\n')
            .enumerate()
            .skip(1)
            .filter(|(_, line)| !line.is_empty())
            .map(move |(index, line)| {
                let line = line.strip_suffix('\r').unwrap_or(line);
                let mut fields = [""; MAX_COLUMNS];
                let mut n = 0;
                for field in line.split('|') {
                    if n < MAX_COLUMNS {
                        fields[n] = field;
                    }
                    n += 1;
                }
                let record = Record {
                    table: self,
                    line: index + 1,
                    fields,
                };
                if n != self.columns.len() {
                    return Err(
                        record.error(None, format!("{n} fields; expected {}", self.columns.len()))
                    );
                }
                Ok(record)
            })
    }
}

/// The widest LDBC table (person) has 10 columns.
const MAX_COLUMNS: usize = 12;

/// One record of a [`Table`].
pub struct Record<'t> {
    table: &'t Table,
    line: usize,
    fields: [&'t str; MAX_COLUMNS],
}

impl<'t> Record<'t> {
    /// The line number (the header is line 1).
    pub fn line(&self) -> usize {
        self.line
    }

    /// The field in column `i` as text.
    pub fn text(&self, i: usize) -> &'t str {
        self.fields[i]
    }

    /// The field in column `i` as an integer.
    pub fn int(&self, i: usize) -> Result<i64, LoadError> {
        let field = self.fields[i];
        field
            .parse()
            .map_err(|_| self.error(Some(i), format!("{field:?} is not an integer")))
    }

    /// An error about this record, naming column `i` when given.
    pub fn error(&self, column: Option<usize>, reason: String) -> LoadError {
        LoadError {
            file: self.table.path.clone(),
            line: self.line,
            column: column.map(|i| format!("{} ({})", i + 1, self.table.columns[i])),
            reason,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> (tempfile::TempDir, Result<Table, LoadError>) {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t_0_0.csv");
        std::fs::write(&path, text).expect("writes");
        let t = Table::open(&path, &["id", "name"]);
        (dir, t)
    }

    #[test]
    fn records_are_split_on_bars_without_quoting() {
        let (_d, t) = table("id|name\n1|say \"hi\"\n2|\n");
        let t = t.expect("opens");
        let rows: Vec<(usize, i64, String)> = t
            .records()
            .map(|r| {
                let r = r.expect("record");
                (r.line(), r.int(0).expect("int"), r.text(1).to_owned())
            })
            .collect();
        assert_eq!(
            rows,
            vec![(2, 1, "say \"hi\"".to_owned()), (3, 2, String::new())]
        );
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let (_d, t) = table("id|name\n1|a\nx|b\n");
        let t = t.expect("opens");
        let bad = t.records().nth(1).expect("second").expect("splits");
        let e = bad.int(0).expect_err("not an int").to_string();
        assert!(
            e.ends_with("t_0_0.csv, line 3, column 1 (id): \"x\" is not an integer"),
            "{e}"
        );

        let (_d, t) = table("id|name\n1|a|extra\n");
        let e = t
            .expect("opens")
            .records()
            .next()
            .expect("one")
            .err()
            .expect("too wide")
            .to_string();
        assert!(e.contains("line 2: 3 fields; expected 2"), "{e}");

        let (_d, t) = table("id|title\n");
        let e = t.err().expect("wrong header").to_string();
        assert!(e.contains("line 1: the header is \"id|title\""), "{e}");
    }
}
