//! GQL status objects (Bolt 5.5+): every result's summary carries `statuses`, the
//! GQL outcome of the query (rows came back, the query returns columns but found no
//! rows, or it returns none) and its notifications, ordered as Neo4j orders them:
//! "no data" first, then warnings, the outcome, information. Older versions carry
//! the notifications alone, as `notifications`. What a client asked not to see
//! (HELLO's, BEGIN's or an auto-commit RUN's `notifications_minimum_severity` and
//! `notifications_disabled_categories` / `_classifications`) is left out.

use kith_core::Value;
use kith_protocol::bolt::Pack;

use super::plan::field;

/// Which notifications a client wants.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct NoticeFilter {
    /// `notifications_minimum_severity: "OFF"`.
    off: bool,
    /// `notifications_minimum_severity: "WARNING"`.
    warnings_only: bool,
    /// Classifications (categories before 5.5) not wanted.
    disabled: Vec<String>,
}

impl NoticeFilter {
    /// The filter a message's `extra` asks for, `within` what was asked before (a
    /// key the message leaves out keeps its earlier value).
    pub(crate) fn of(extra: &Pack, within: &NoticeFilter) -> NoticeFilter {
        let mut filter = within.clone();
        if let Some(severity) = extra
            .get("notifications_minimum_severity")
            .and_then(Pack::as_str)
        {
            filter.off = severity.eq_ignore_ascii_case("OFF");
            filter.warnings_only = severity.eq_ignore_ascii_case("WARNING");
        }
        for key in [
            "notifications_disabled_categories",
            "notifications_disabled_classifications",
        ] {
            if let Some(Pack::List(items)) = extra.get(key) {
                filter.disabled = (items.iter())
                    .filter_map(Pack::as_str)
                    .map(str::to_ascii_uppercase)
                    .collect();
            }
        }
        filter
    }

    /// The notifications (kith's maps, docs/protocol.md 1.3.2) it lets through.
    pub(crate) fn apply(&self, notifications: Vec<Value>) -> Vec<Value> {
        if self.off {
            return Vec::new();
        }
        (notifications.into_iter())
            .filter(|n| !self.warnings_only || text(n, "severity") == "WARNING")
            .filter(|n| !self.disabled.iter().any(|d| d == text(n, "classification")))
            .collect()
    }
}

/// The string field `key` of a notification map ("" if absent).
fn text<'v>(n: &'v Value, key: &str) -> &'v str {
    field(n, key).and_then(Value::as_str).unwrap_or("")
}

/// A notification's position as Bolt carries it, if it has one.
fn position(n: &Value) -> Option<Pack> {
    let Some(Value::Map(p)) = field(n, "position") else {
        return None;
    };
    let entries = (p.iter())
        .map(|(k, v)| (k.to_string(), Pack::Int(v.as_int().unwrap_or(0))))
        .collect();
    Some(Pack::Map(entries))
}

/// The `notifications` list of a summary before Bolt 5.5; `None` when empty.
pub(crate) fn legacy(notifications: &[Value]) -> Option<Pack> {
    if notifications.is_empty() {
        return None;
    }
    let s = |n: &Value, key: &str| Pack::String(text(n, key).to_owned());
    let items = (notifications.iter())
        .map(|n| {
            let mut entries = vec![
                ("code".into(), s(n, "code")),
                ("title".into(), s(n, "title")),
                ("description".into(), s(n, "description")),
                ("severity".into(), s(n, "severity")),
                ("category".into(), s(n, "classification")),
            ];
            entries.extend(position(n).map(|p| ("position".into(), p)));
            Pack::Map(entries)
        })
        .collect();
    Some(Pack::List(items))
}

/// A notification as a GQL status object.
fn status_of(n: &Value) -> Pack {
    let s = |key: &str| Pack::String(text(n, key).to_owned());
    let mut diagnostic = vec![
        ("_classification".into(), s("classification")),
        ("_severity".into(), s("severity")),
    ];
    diagnostic.extend(position(n).map(|p| ("_position".into(), p)));
    Pack::Map(vec![
        ("gql_status".into(), s("gql_status")),
        ("status_description".into(), s("status_description")),
        ("neo4j_code".into(), s("code")),
        ("title".into(), s("title")),
        ("description".into(), s("description")),
        ("diagnostic_record".into(), diagnostic_record(diagnostic)),
    ])
}

/// Where a status goes in the list: GQL's precedence, highest first.
fn precedence(status: &Pack) -> u8 {
    let code = status
        .get("gql_status")
        .and_then(Pack::as_str)
        .unwrap_or("");
    match code.get(..2) {
        Some("02") => 3,
        Some("01") => 2,
        Some("00") => 1,
        _ => 0,
    }
}

/// The diagnostic record every status and GQL error carries, with `extra` entries
/// (an error's `_classification`) after the three standard ones.
pub(crate) fn diagnostic_record(extra: Vec<(String, Pack)>) -> Pack {
    let s = |v: &str| Pack::String(v.to_owned());
    let mut record = vec![
        ("OPERATION".into(), s("")),
        ("OPERATION_CODE".into(), s("0")),
        ("CURRENT_SCHEMA".into(), s("/")),
    ];
    record.extend(extra);
    Pack::Map(record)
}

/// The `statuses` list of a finished result with its `notifications`.
pub(crate) fn of_result(has_columns: bool, has_rows: bool, notifications: &[Value]) -> Pack {
    let (code, description) = match (has_columns, has_rows) {
        (_, true) => ("00000", "note: successful completion"),
        (true, false) => ("02000", "note: no data"),
        (false, false) => ("00001", "note: successful completion - omitted result"),
    };
    let outcome = Pack::Map(vec![
        ("gql_status".into(), Pack::String(code.into())),
        (
            "status_description".into(),
            Pack::String(description.into()),
        ),
        ("diagnostic_record".into(), diagnostic_record(Vec::new())),
    ]);
    let mut statuses: Vec<Pack> = notifications.iter().map(status_of).collect();
    statuses.push(outcome);
    // Stable: notifications of one precedence keep their order, before the outcome.
    statuses.sort_by_key(|s| std::cmp::Reverse(precedence(s)));
    Pack::List(statuses)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(statuses: &Pack) -> Vec<&str> {
        let Pack::List(items) = statuses else {
            panic!("a list")
        };
        (items.iter())
            .map(|s| s.get("gql_status").and_then(Pack::as_str).expect("a code"))
            .collect()
    }

    fn notice(code: &str, severity: &str, classification: &str) -> Value {
        Value::Map(vec![
            ("gql_status".into(), Value::string(code)),
            ("severity".into(), Value::string(severity)),
            ("classification".into(), Value::string(classification)),
        ])
    }

    #[test]
    fn a_result_has_the_status_neo4j_gives_it() {
        assert_eq!(codes(&of_result(true, true, &[])), ["00000"]);
        assert_eq!(codes(&of_result(true, false, &[])), ["02000"]);
        assert_eq!(codes(&of_result(false, false, &[])), ["00001"]);
    }

    #[test]
    fn statuses_are_in_neo4js_order_and_filtered_as_asked() {
        let all = vec![
            notice("03N90", "INFORMATION", "PERFORMANCE"),
            notice("01N50", "WARNING", "UNRECOGNIZED"),
            notice("01N02", "WARNING", "DEPRECATION"),
        ];
        // As Neo4j 5.26 orders them (recorded): warnings, outcome, information; no
        // data before all.
        let statuses = of_result(true, true, &all);
        assert_eq!(codes(&statuses), ["01N50", "01N02", "00000", "03N90"]);
        assert_eq!(codes(&of_result(true, false, &all))[0], "02000");
        let hello = Pack::Map(vec![(
            "notifications_minimum_severity".into(),
            Pack::String("WARNING".into()),
        )]);
        let filter = NoticeFilter::of(&hello, &NoticeFilter::default());
        assert_eq!(filter.apply(all.clone()).len(), 2);
        let run = Pack::Map(vec![(
            "notifications_disabled_classifications".into(),
            Pack::List(vec![Pack::String("deprecation".into())]),
        )]);
        let filter = NoticeFilter::of(&run, &filter);
        assert_eq!(filter.apply(all.clone()).len(), 1);
        let off = Pack::Map(vec![(
            "notifications_minimum_severity".into(),
            Pack::String("OFF".into()),
        )]);
        assert!(NoticeFilter::of(&off, &filter).apply(all).is_empty());
    }
}
