//! Procedure results.

use kith_core::Value;

/// Named columns and rows of values, stored flat: row `i` is
/// `values[i * width .. (i + 1) * width]`.
///
/// One buffer for all cells, instead of a `Vec` per row, saves an allocation and a
/// free per row — half the cost of a 1,000-row friends-of-friends answer — and is the
/// layout encoders stream from.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ResultSet {
    columns: Vec<String>,
    values: Vec<Value>,
}

impl ResultSet {
    /// An empty result with these columns.
    pub fn new(columns: &[&str]) -> Self {
        ResultSet {
            columns: columns.iter().map(|c| (*c).to_owned()).collect(),
            values: Vec::new(),
        }
    }

    /// A result from row vectors (tests and adapters); every row must have one value
    /// per column.
    pub fn from_rows(columns: &[&str], rows: Vec<Vec<Value>>) -> Self {
        let mut out = ResultSet::new(columns);
        for row in rows {
            out.push(row);
        }
        out
    }

    /// Appends a row: pass an array (`[a, b]`) to avoid allocating.
    ///
    /// # Panics
    /// If the row's width differs from the number of columns: a programming error in
    /// the procedure, which tests catch.
    pub fn push(&mut self, row: impl IntoIterator<Item = Value>) {
        let before = self.values.len();
        self.values.extend(row);
        assert_eq!(
            self.values.len() - before,
            self.columns.len(),
            "a row must have one value per column"
        );
    }

    /// Reserves room for `rows` more rows.
    pub fn reserve_rows(&mut self, rows: usize) {
        self.values.reserve(rows * self.columns.len());
    }

    /// Column names.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.values
            .len()
            .checked_div(self.columns.len())
            .unwrap_or(0)
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Every cell, row after row (what encoders stream from).
    pub fn values(&self) -> &[Value] {
        &self.values
    }

    /// Row `i`.
    pub fn row(&self, i: usize) -> Option<&[Value]> {
        let width = self.columns.len();
        self.values
            .get(i * width..(i + 1) * width)
            .filter(|_| width > 0)
    }

    /// All rows in order.
    pub fn rows(&self) -> impl ExactSizeIterator<Item = &[Value]> + '_ {
        self.values.chunks_exact(self.columns.len().max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_come_back_as_pushed() {
        let mut r = ResultSet::new(&["a", "b"]);
        assert!(r.is_empty());
        r.push([Value::Int(1), Value::Int(2)]);
        r.push(vec![Value::Int(3), Value::Null]);
        assert_eq!(r.len(), 2);
        assert_eq!(r.row(1), Some(&[Value::Int(3), Value::Null][..]));
        assert_eq!(r.row(2), None);
        assert_eq!(r.rows().count(), 2);
        assert_eq!(
            r,
            ResultSet::from_rows(
                &["a", "b"],
                vec![
                    vec![Value::Int(1), Value::Int(2)],
                    vec![Value::Int(3), Value::Null],
                ]
            )
        );
    }

    #[test]
    #[should_panic(expected = "one value per column")]
    fn a_short_row_is_refused() {
        ResultSet::new(&["a", "b"]).push([Value::Int(1)]);
    }
}
