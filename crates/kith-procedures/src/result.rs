//! Procedure results.

use kith_core::Value;

/// Named columns and rows of values; every row has one value per column.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ResultSet {
    /// Column names.
    pub columns: Vec<String>,
    /// Rows.
    pub rows: Vec<Vec<Value>>,
}

impl ResultSet {
    /// An empty result with these columns.
    pub fn new(columns: &[&str]) -> Self {
        ResultSet {
            columns: columns.iter().map(|c| (*c).to_owned()).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row.
    pub fn push(&mut self, row: Vec<Value>) {
        debug_assert_eq!(
            row.len(),
            self.columns.len(),
            "row width must match the columns"
        );
        self.rows.push(row);
    }
}
