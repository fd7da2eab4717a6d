//! Rendering results as text tables and JSON.

use kith_core::{format_epoch_millis, Value};

/// Widest a table cell gets before it is cut.
const CELL_CHARS_MAX: usize = 60;

/// A plain-text table with aligned columns.
pub fn table<'a>(columns: &[String], rows: impl IntoIterator<Item = &'a [Value]>) -> String {
    let cells: Vec<Vec<String>> = rows
        .into_iter()
        .map(|row| row.iter().map(|v| cut(&v.to_string())).collect())
        .collect();
    let mut widths: Vec<usize> = columns.iter().map(|c| c.chars().count()).collect();
    for row in &cells {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, row: &[String]| {
        let padded: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}", w = *w))
            .collect();
        out.push_str(padded.join(" | ").trim_end());
        out.push('\n');
    };
    line(&mut out, columns);
    out.push_str(
        &widths
            .iter()
            .map(|w| "-".repeat(*w))
            .collect::<Vec<_>>()
            .join("-+-"),
    );
    out.push('\n');
    for row in &cells {
        line(&mut out, row);
    }
    out
}

fn cut(text: &str) -> String {
    if text.chars().count() <= CELL_CHARS_MAX {
        return text.to_owned();
    }
    let mut s: String = text.chars().take(CELL_CHARS_MAX - 1).collect();
    s.push('…');
    s
}

/// `{"columns": [...], "rows": [[...], ...]}`; date-times as ISO-8601 UTC strings.
pub fn result_json<'a>(
    columns: &[String],
    rows: impl IntoIterator<Item = &'a [Value]>,
) -> serde_json::Value {
    let rows: Vec<Vec<serde_json::Value>> = rows
        .into_iter()
        .map(|r| r.iter().map(value_json).collect())
        .collect();
    serde_json::json!({ "columns": columns, "rows": rows })
}

/// One value as JSON.
pub fn value_json(value: &Value) -> serde_json::Value {
    match value {
        Value::Null => serde_json::Value::Null,
        Value::Bool(b) => (*b).into(),
        Value::Int(i) => (*i).into(),
        Value::Float(x) => {
            serde_json::Number::from_f64(*x).map_or(serde_json::Value::Null, Into::into)
        }
        Value::String(s) => serde_json::Value::String(s.to_string()),
        Value::DateTime(t) => serde_json::Value::String(format_epoch_millis(*t)),
        Value::List(items) => items.iter().map(value_json).collect(),
        Value::Map(entries) => entries
            .iter()
            .map(|(k, v)| (k.to_string(), value_json(v)))
            .collect(),
    }
}
