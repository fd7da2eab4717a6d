//! Temporal values beyond what the TCK checks: bad input fails with a typed error
//! (never a panic, at the edges of the representable range too), values mix with the
//! other operators, sort, and meet LDBC's epoch-millisecond datetimes as equals.

use kith_core::Value;
use kith_cypher::{Engine, ErrorCode, Limits};
use kith_storage::{Snapshot, Store, Tx};

/// Runs `text`, committing what it writes; the answer's values as text.
fn run(store: &Store, text: &str) -> Result<Vec<Vec<String>>, ErrorCode> {
    let mut tx = Tx::new(&store.snapshot());
    let r = Engine::default()
        .query_tx(&mut tx, text, &[], &Limits::default())
        .map_err(|e| e.code)?;
    store.apply(&tx.into_batch()).expect("the writes apply");
    Ok(r.rows
        .iter()
        .map(|row| row.iter().map(Value::to_string).collect())
        .collect())
}

fn one(store: &Store, text: &str) -> String {
    match run(store, text) {
        Ok(rows) => rows[0][0].clone(),
        Err(code) => panic!("{text}: {code:?}"),
    }
}

fn store() -> Store {
    Store::new(Snapshot::default())
}

#[test]
fn bad_text_and_fields_are_argument_errors() {
    let db = store();
    for text in [
        "RETURN date('2024-02-30')",
        "RETURN date('2015-07-21T21:40')",
        "RETURN time('12:00+01:99')",
        "RETURN time('12:00+19:00')",
        "RETURN localtime('25:00')",
        "RETURN datetime('2015-07-21T21:40[Mars/Olympus]')",
        "RETURN duration('PT1.0000000001S')",
        "RETURN duration('PT99999999999999999999.5S')",
        "RETURN duration('P1Q')",
        "RETURN date({year: 2015, quarter: 1, dayOfQuarter: 200000000})",
        "RETURN date({year: 2015, quarter: 1, dayOfQuarter: 91})",
        "RETURN date({month: 5})",
        "RETURN localtime({hour: 12, millisecond: 1000})",
        "RETURN datetime({epochSeconds: 0, millisecond: 9223372036854775807})",
        "RETURN datetime({epochMillis: 0, millisecond: 1})",
        "RETURN date.truncate('fortnight', date())",
        "RETURN localtime.truncate('month', localtime())",
        "RETURN date({year: 2015, colour: 'red'})",
        "RETURN localtime({hour: 1, timezone: '+01:00'})",
    ] {
        assert_eq!(run(&db, text), Err(ErrorCode::ArgumentError), "{text}");
    }
    for text in [
        "RETURN date(1)",
        "RETURN date({year: '2015'})",
        "RETURN duration({days: 'x'})",
        "RETURN date() + 1",
        "RETURN date() - date()",
    ] {
        assert_eq!(run(&db, text), Err(ErrorCode::TypeError), "{text}");
    }
}

#[test]
fn overflow_is_an_error_not_a_panic() {
    let db = store();
    for text in [
        "RETURN localdatetime('2020-01-01T00:00') + duration({seconds: 9223372036854775, milliseconds: 900})",
        "RETURN date('2020-01-01') + duration({months: 9223372036854775807})",
        "RETURN duration({months: 9223372036854775807}) + duration({months: 1})",
        "RETURN -duration({months: 1}) * 9223372036854775807 * 2",
        "RETURN duration({days: 1}) / 0",
    ] {
        let code = run(&db, text).expect_err(text);
        assert!(
            matches!(code, ErrorCode::ArgumentError | ErrorCode::ArithmeticError),
            "{text}: {code:?}"
        );
    }
    // At the very end of the representable range an instant still compares and sorts.
    let edge = "datetime('+262142-12-31T23:00-05:00')";
    assert_eq!(one(&db, &format!("RETURN {edge} = {edge}")), "true");
    assert_eq!(
        one(&db, &format!("WITH [{edge}, datetime('1970-01-01T00:00Z')] AS l UNWIND l AS t RETURN t ORDER BY t LIMIT 1")),
        "1970-01-01T00:00:00Z"
    );
}

#[test]
fn temporal_values_mix_with_lists_and_sort_as_neo4j_does() {
    let db = store();
    assert_eq!(
        one(&db, "RETURN [date('2020-01-01')] + date('2021-01-01')"),
        "[2020-01-01, 2021-01-01]"
    );
    assert_eq!(
        one(
            &db,
            "RETURN reduce(acc = [], s IN ['2020-01-01', '2019-01-01'] | acc + date(s))"
        ),
        "[2020-01-01, 2019-01-01]"
    );
    // Durations sort by average length: a month before 400 days.
    assert_eq!(
        one(&db, "UNWIND [duration('P400D'), duration('P1M'), duration('PT1H')] AS d RETURN collect(d) AS ds ORDER BY ds"),
        "[P400D, P1M, PT1H]"
    );
    assert_eq!(
        one(&db, "UNWIND [duration('P400D'), duration('P1M'), duration('PT1H')] AS d WITH d ORDER BY d RETURN collect(d)"),
        "[PT1H, P1M, P400D]"
    );
    // Across kinds: datetime, localdatetime, date, time, localtime, duration.
    assert_eq!(
        one(&db, "UNWIND [duration('P1D'), localtime('12:00'), date('2020-01-01'), datetime('2020-01-01T00:00Z')] AS t WITH t ORDER BY t RETURN collect(t)"),
        "[2020-01-01T00:00:00Z, 2020-01-01, 12:00:00, P1D]"
    );
}

#[test]
fn epoch_millisecond_datetimes_are_cypher_datetimes_at_utc() {
    let db = store();
    let ldbc = "datetime({epochMillis: 1262304000123})";
    assert_eq!(
        one(
            &db,
            &format!("RETURN {ldbc} = datetime('2010-01-01T00:00:00.123Z')")
        ),
        "true"
    );
    assert_eq!(
        one(
            &db,
            &format!("RETURN {ldbc}.week, {ldbc}.dayOfWeek, {ldbc}.timezone")
        ),
        "53"
    );
    assert_eq!(
        one(&db, &format!("RETURN {ldbc} + duration('P1D') > {ldbc}")),
        "true"
    );
    assert_eq!(
        one(
            &db,
            &format!("RETURN duration.between({ldbc}, datetime('2010-01-02T00:00:00.123+01:00'))")
        ),
        "PT23H"
    );
    // Grouping sees them as one value too (one hash for both forms).
    assert_eq!(
        one(&db, &format!("UNWIND [{ldbc}, datetime('2010-01-01T00:00:00.123Z'), datetime('2010-01-01T01:00:00.123+01:00')] AS t RETURN count(DISTINCT t)")),
        "2"
    );
    // A uniqueness constraint sees the two forms of one instant as one value.
    run(
        &db,
        "CREATE CONSTRAINT one_t FOR (e:Event) REQUIRE e.at IS UNIQUE",
    )
    .expect("created");
    run(&db, &format!("CREATE (:Event {{at: {ldbc}}})")).expect("the first");
    assert_eq!(
        run(
            &db,
            "CREATE (:Event {at: datetime('2010-01-01T00:00:00.123Z')})"
        ),
        Err(ErrorCode::ConstraintViolation)
    );
    // Another offset of the same instant is another value, as in Neo4j.
    run(
        &db,
        "CREATE (:Event {at: datetime('2010-01-01T01:00:00.123+01:00')})",
    )
    .expect("another value");
}

#[test]
fn the_statement_clock_is_one_instant() {
    let db = store();
    assert_eq!(
        one(&db, "UNWIND range(1, 1000) AS i WITH collect(datetime()) AS ts RETURN size([t IN ts WHERE t <> ts[0]])"),
        "0"
    );
    assert_eq!(
        one(&db, "RETURN date.statement() = date.transaction()"),
        "true"
    );
}
