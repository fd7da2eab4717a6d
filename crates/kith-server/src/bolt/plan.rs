//! EXPLAIN and PROFILE over Bolt: the plan the engine described, in the shape Neo4j
//! puts in a result's summary (`plan`, or `profile` with the run's counts), so a
//! driver's `summary.plan` / `summary.profile` reads it.

use kith_core::Value;
use kith_protocol::bolt::Pack;

/// The summary entry for `plan` (kith's map: `operator`, `details`,
/// `estimatedRows`, `rows`, `dbHits`, `timeUs`, `children`).
pub(super) fn entry(plan: &Value) -> (String, Pack) {
    let profiled = profiled(plan);
    let key = if profiled { "profile" } else { "plan" };
    let mut root = node(plan, profiled);
    if let Pack::Map(entries) = &mut root {
        if let Some((_, Pack::Map(args))) = entries.iter_mut().find(|(k, _)| k == "args") {
            args.extend(engine_args());
        }
    }
    (key.to_owned(), root)
}

/// What Neo4j's root operator says of the engine that planned and ran the query
/// (cypher-shell prints them above a profile): the Cypher version kith answers, and
/// its own planner and runtime, not Neo4j's (no `COST` planner: kith plans by rule).
fn engine_args() -> [(String, Pack); 7] {
    let s = |v: &str| Pack::String(v.to_owned());
    let version = env!("CARGO_PKG_VERSION");
    [
        ("version".to_owned(), s("5")),
        ("planner".to_owned(), s("KITH")),
        ("planner-impl".to_owned(), s("kith")),
        ("planner-version".to_owned(), s(version)),
        ("runtime".to_owned(), s("KITH")),
        ("runtime-impl".to_owned(), s("kith")),
        ("runtime-version".to_owned(), s(version)),
    ]
}

/// Whether the plan has its counts (PROFILE), not only its shape (EXPLAIN).
pub(super) fn profiled(plan: &Value) -> bool {
    field(plan, "rows").is_some()
}

/// The entry `name` of a map value (a plan's, a notification's).
pub(super) fn field<'a>(v: &'a Value, name: &str) -> Option<&'a Value> {
    match v {
        Value::Map(entries) => entries.iter().find(|(k, _)| &**k == name).map(|(_, v)| v),
        _ => None,
    }
}

fn int(v: Option<&Value>) -> i64 {
    match v {
        Some(Value::Int(n)) => *n,
        Some(Value::Float(f)) => *f as i64,
        _ => 0,
    }
}

fn node(plan: &Value, profiled: bool) -> Pack {
    let text = |name| match field(plan, name) {
        Some(Value::String(s)) => s.to_string(),
        _ => String::new(),
    };
    let estimated = match field(plan, "estimatedRows") {
        Some(Value::Float(f)) => *f,
        _ => 0.0,
    };
    let mut args = vec![
        ("Details".to_owned(), Pack::String(text("details"))),
        ("EstimatedRows".to_owned(), Pack::Float(estimated)),
    ];
    let children = match field(plan, "children") {
        Some(Value::List(c)) => c.iter().map(|c| node(c, profiled)).collect(),
        _ => Vec::new(),
    };
    let mut entries = Vec::new();
    if profiled {
        let rows = int(field(plan, "rows"));
        let hits = int(field(plan, "dbHits"));
        // Neo4j reports an operator's time in nanoseconds.
        let nanos = match field(plan, "timeUs") {
            Some(Value::Float(us)) => (*us * 1e3) as i64,
            _ => 0,
        };
        args.push(("Rows".to_owned(), Pack::Int(rows)));
        args.push(("DbHits".to_owned(), Pack::Int(hits)));
        args.push(("Time".to_owned(), Pack::Int(nanos)));
        entries.extend([
            ("rows".to_owned(), Pack::Int(rows)),
            ("dbHits".to_owned(), Pack::Int(hits)),
            ("time".to_owned(), Pack::Int(nanos)),
            ("pageCacheHits".to_owned(), Pack::Int(0)),
            ("pageCacheMisses".to_owned(), Pack::Int(0)),
        ]);
    }
    entries.extend([
        ("operatorType".to_owned(), Pack::String(text("operator"))),
        ("args".to_owned(), Pack::Map(args)),
        ("identifiers".to_owned(), Pack::List(Vec::new())),
        ("children".to_owned(), Pack::List(children)),
    ]);
    Pack::Map(entries)
}
