//! GQL status objects (Bolt 5.5+): every result's summary carries `statuses`, the
//! GQL outcome of the query, where older versions had only `notifications`. kith
//! raises no notifications, so a result has exactly one status, the one Neo4j gives:
//! rows came back, the query returns columns but found no rows, or it returns none.

use kith_protocol::bolt::Pack;

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

/// The `statuses` list of a finished result.
pub(crate) fn of_result(has_columns: bool, has_rows: bool) -> Pack {
    let (code, description) = match (has_columns, has_rows) {
        (_, true) => ("00000", "note: successful completion"),
        (true, false) => ("02000", "note: no data"),
        (false, false) => ("00001", "note: successful completion - omitted result"),
    };
    Pack::List(vec![Pack::Map(vec![
        ("gql_status".into(), Pack::String(code.into())),
        (
            "status_description".into(),
            Pack::String(description.into()),
        ),
        ("diagnostic_record".into(), diagnostic_record(Vec::new())),
    ])])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(statuses: &Pack) -> &str {
        let Pack::List(items) = statuses else {
            panic!("a list")
        };
        assert_eq!(items.len(), 1);
        match items[0].get("gql_status") {
            Some(Pack::String(code)) => code,
            other => panic!("no gql_status: {other:?}"),
        }
    }

    #[test]
    fn a_result_has_the_status_neo4j_gives_it() {
        assert_eq!(code(&of_result(true, true)), "00000");
        assert_eq!(code(&of_result(true, false)), "02000");
        assert_eq!(code(&of_result(false, false)), "00001");
    }
}
