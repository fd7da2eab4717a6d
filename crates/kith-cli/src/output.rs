//! Rendering results as text tables and JSON.

use kith_core::{format_epoch_millis, Value};

/// Widest a table cell gets before it is cut, when the table has no width to fit.
const CELL_CHARS_MAX: usize = 60;
/// Narrowest a column is cut to when a table must fit a width: three characters
/// and the ellipsis still hint at the value.
const CELL_CHARS_MIN: usize = 4;
/// What separates two columns.
const SEPARATOR: &str = " | ";

/// A plain-text table with aligned columns, each at most [`CELL_CHARS_MAX`] wide.
pub fn table<'a>(columns: &[String], rows: impl IntoIterator<Item = &'a [Value]>) -> String {
    table_within(columns, rows, usize::MAX)
}

/// A plain-text table with aligned columns, at most `width` characters wide when
/// each column can keep [`CELL_CHARS_MIN`]: the widest columns are cut first, their
/// cells ending in an ellipsis.
pub fn table_within<'a>(
    columns: &[String],
    rows: impl IntoIterator<Item = &'a [Value]>,
    width: usize,
) -> String {
    let cells: Vec<Vec<String>> = rows
        .into_iter()
        .map(|row| row.iter().map(cell_text).collect())
        .collect();
    let mut natural: Vec<usize> = columns.iter().map(|c| c.chars().count()).collect();
    for row in &cells {
        for (w, cell) in natural.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    natural
        .iter_mut()
        .for_each(|w| *w = (*w).min(CELL_CHARS_MAX));
    let widths = fit(&natural, width);
    let mut out = String::new();
    let line = |out: &mut String, row: &[String]| {
        let padded: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{:<w$}", cut(c, *w), w = *w))
            .collect();
        out.push_str(padded.join(SEPARATOR).trim_end());
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

/// A value as one table cell: line breaks and tabs are shown escaped, as they would
/// break the table's lines.
fn cell_text(value: &Value) -> String {
    let text = value.to_string();
    if !text.contains(['\n', '\r', '\t']) {
        return text;
    }
    text.replace('\n', "\\n")
        .replace('\r', "\\r")
        .replace('\t', "\\t")
}

/// Column widths adding up (with separators) to at most `width`: every column is
/// capped at the largest cap that fits, and what the cap leaves over goes to the
/// capped columns from the left.
fn fit(natural: &[usize], width: usize) -> Vec<usize> {
    let budget = width.saturating_sub(SEPARATOR.len() * natural.len().saturating_sub(1));
    let total = |cap: usize| natural.iter().map(|w| (*w).min(cap)).sum::<usize>();
    if total(usize::MAX) <= budget {
        return natural.to_vec();
    }
    // `total` grows with the cap: find the largest cap within the budget.
    let (mut low, mut high) = (CELL_CHARS_MIN, natural.iter().copied().max().unwrap_or(0));
    if total(low) > budget {
        return natural.iter().map(|w| (*w).min(low)).collect();
    }
    while low < high {
        let mid = (low + high).div_ceil(2);
        if total(mid) <= budget {
            low = mid;
        } else {
            high = mid - 1;
        }
    }
    let mut spare = budget - total(low);
    natural
        .iter()
        .map(|&w| {
            if w <= low {
                return w;
            }
            let extra = spare.min(w - low);
            spare -= extra;
            low + extra
        })
        .collect()
}

/// `text` in at most `width` characters, ending in an ellipsis when cut.
fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let mut s: String = text.chars().take(width.saturating_sub(1)).collect();
    if width > 0 {
        s.push('…');
    }
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
        Value::Temporal(t) => serde_json::Value::String(t.to_string()),
        Value::Point(p) => serde_json::Value::String(p.to_string()),
        Value::Bytes(b) => kith_core::signed(b).map(serde_json::Value::from).collect(),
        Value::List(items) => items.iter().map(value_json).collect(),
        Value::Map(entries) => entries
            .iter()
            .map(|(k, v)| (k.to_string(), value_json(v)))
            .collect(),
    }
}

/// An EXPLAIN or PROFILE plan (the server's map: `operator`, `details`,
/// `estimatedRows`, `rows`, `dbHits`, `timeUs`, `children`) as a table, one operator
/// a row, the tree drawn in the first column; the totals of a profile under it.
pub fn plan_text(plan: &Value) -> String {
    let mut rows: Vec<Vec<Value>> = Vec::new();
    plan_rows(plan, 0, &mut rows);
    let profiled = field(plan, "rows").is_some();
    let mut columns = vec!["Operator", "Details", "Estimated rows"];
    if profiled {
        columns.extend(["Rows", "DB hits", "Time (us)"]);
    } else {
        rows.iter_mut().for_each(|r| r.truncate(3));
    }
    let columns: Vec<String> = columns.into_iter().map(str::to_owned).collect();
    let mut out = table(&columns, rows.iter().map(Vec::as_slice));
    if profiled {
        let (hits, us) = plan_totals(plan);
        out.push_str(&format!("{hits} db hits, {us:.1} us in operators\n"));
    }
    out
}

/// A query's notifications (the server's maps, docs/protocol.md 1.3.2), a line
/// each: its GQL status, what it says, and where in the text.
pub fn notifications_text(notifications: &[Value]) -> String {
    let mut out = String::new();
    for n in notifications {
        let text = |name| field(n, name).and_then(Value::as_str).unwrap_or("");
        let at = match field(n, "position") {
            Some(p) => {
                let int = |name| field(p, name).and_then(Value::as_int).unwrap_or(0);
                format!(" (line {}, column {})", int("line"), int("column"))
            }
            None => String::new(),
        };
        let status = text("gql_status");
        out.push_str(&format!("{status} {}{at}\n", text("status_description")));
    }
    out
}

fn field<'a>(v: &'a Value, name: &str) -> Option<&'a Value> {
    match v {
        Value::Map(entries) => entries.iter().find(|(k, _)| &**k == name).map(|(_, v)| v),
        _ => None,
    }
}

fn children(v: &Value) -> &[Value] {
    match field(v, "children") {
        Some(Value::List(c)) => c,
        _ => &[],
    }
}

fn plan_rows(node: &Value, depth: usize, out: &mut Vec<Vec<Value>>) {
    let text = |name| field(node, name).cloned().unwrap_or(Value::Null);
    let operator = format!(
        "{}+{}",
        "| ".repeat(depth),
        match field(node, "operator") {
            Some(Value::String(s)) => s.to_string(),
            _ => "?".to_owned(),
        }
    );
    let estimated = match field(node, "estimatedRows") {
        Some(Value::Float(f)) => Value::Int(f.round() as i64),
        other => other.cloned().unwrap_or(Value::Null),
    };
    let time = match field(node, "timeUs") {
        Some(Value::Float(t)) => Value::string(format!("{t:.1}").as_str()),
        _ => Value::Null,
    };
    out.push(vec![
        Value::string(operator.as_str()),
        text("details"),
        estimated,
        text("rows"),
        text("dbHits"),
        time,
    ]);
    for c in children(node) {
        plan_rows(c, depth + 1, out);
    }
}

/// Total db hits and microseconds over the tree.
fn plan_totals(node: &Value) -> (i64, f64) {
    let own = (
        field(node, "dbHits").and_then(Value::as_int).unwrap_or(0),
        match field(node, "timeUs") {
            Some(Value::Float(t)) => *t,
            _ => 0.0,
        },
    );
    children(node)
        .iter()
        .map(plan_totals)
        .fold(own, |(h, t), (ch, ct)| (h + ch, t + ct))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn a_narrow_table_keeps_its_natural_widths() {
        let rows = [vec![Value::Int(1), Value::string("Ann")]];
        let text = table_within(
            &strings(&["id", "name"]),
            rows.iter().map(Vec::as_slice),
            80,
        );
        assert_eq!(text, "id | name\n---+-----\n1  | Ann\n");
    }

    #[test]
    fn a_wide_table_cuts_its_widest_columns_to_fit() {
        let long = "x".repeat(50);
        let rows = [vec![
            Value::Int(7),
            Value::string(long.as_str()),
            Value::string(long.as_str()),
        ]];
        let text = table_within(
            &strings(&["id", "a", "b"]),
            rows.iter().map(Vec::as_slice),
            40,
        );
        for line in text.lines() {
            assert!(line.chars().count() <= 40, "{line:?} is wider than 40");
        }
        let last = text.lines().last().expect("a row");
        assert!(last.starts_with("7  | xxx"), "{last}");
        assert!(last.ends_with('…'), "{last}");
        // Both long columns share the room: 40 - 2 (id) - 2 separators = 32.
        assert_eq!(fit(&[2, 50, 50], 40), vec![2, 16, 16]);
        assert_eq!(fit(&[2, 50, 50], 41), vec![2, 17, 16]);
    }

    #[test]
    fn too_many_columns_keep_a_minimum_width() {
        assert_eq!(fit(&[10, 10, 10], 5), vec![4, 4, 4]);
        assert_eq!(fit(&[2, 10], 5), vec![2, 4]);
        assert_eq!(fit(&[], 5), Vec::<usize>::new());
    }

    #[test]
    fn line_breaks_in_cells_do_not_break_lines() {
        let rows = [vec![Value::string("a\nb\tc")]];
        let text = table(&strings(&["s"]), rows.iter().map(Vec::as_slice));
        assert_eq!(text.lines().last(), Some("a\\nb\\tc"));
        assert_eq!(cut("abcdef", 4), "abc…");
        assert_eq!(cut("abc", 4), "abc");
    }

    #[test]
    fn a_profile_prints_as_a_tree_with_its_totals() {
        let node = |op: &str, rows: i64, hits: i64, children: Vec<Value>| {
            Value::Map(vec![
                ("operator".into(), Value::string(op)),
                ("details".into(), Value::string("p")),
                ("estimatedRows".into(), Value::Float(2.4)),
                ("rows".into(), Value::Int(rows)),
                ("dbHits".into(), Value::Int(hits)),
                ("timeUs".into(), Value::Float(1.25)),
                ("children".into(), Value::List(children)),
            ])
        };
        let plan = node(
            "ProduceResults",
            2,
            0,
            vec![node("NodeByLabelScan", 2, 3, Vec::new())],
        );
        let text = plan_text(&plan);
        assert!(text.contains("+ProduceResults"), "{text}");
        assert!(text.contains("| +NodeByLabelScan"), "{text}");
        assert!(text.contains("DB hits") && text.contains("1.2"), "{text}");
        assert!(text.ends_with("3 db hits, 2.5 us in operators\n"), "{text}");
    }
}
