//! Neo4j 5.26's function catalogue on kith (issue 42): every built-in function that
//! `SHOW FUNCTIONS` lists on the real Neo4j exists here with the same arities, and the
//! table of cases in `fixtures/functions/cases.cypher` answers as the real Neo4j
//! answered (recorded by `bench/functions/record.py`): values equal, floats to 12
//! significant digits, errors by "both fail". Each case runs in both plan modes.

use std::collections::BTreeSet;

use kith_core::Value;
use kith_cypher::planner::PlanMode;
use kith_cypher::procedures::ProcedureSet;
use kith_cypher::{Limits, NoProcedures, Prepared};
use kith_storage::{Snapshot, Store};
use serde_json::Value as Json;

const CATALOGUE: &str = include_str!("fixtures/functions/neo4j-5.26-show-functions.json");
const CASES: &str = include_str!("fixtures/functions/neo4j-5.26-cases.json");

/// Functions of Neo4j's catalogue kith does not have yet, each with the reason. The
/// test fails when one of them starts to exist, so the list stays true.
const NOT_YET: &[(&str, &str)] = &[
    (
        "graph.byName",
        "composite databases: kith serves one graph, and has no USE clause",
    ),
    (
        "graph.byElementId",
        "composite databases: kith serves one graph, and has no USE clause",
    ),
];

fn not_yet(name: &str) -> bool {
    NOT_YET.iter().any(|(n, _)| *n == name)
}

/// How many arguments each signature of the catalogue takes, by name. `trim`'s
/// `[LEADING | TRAILING | BOTH] ... FROM` form is syntax, asked by the cases.
fn catalogue() -> Vec<(String, usize, bool)> {
    let doc: Json = serde_json::from_str(CATALOGUE).expect("the catalogue fixture is JSON");
    doc["functions"]
        .as_array()
        .expect("a list of functions")
        .iter()
        .map(|f| {
            let name = f["name"].as_str().expect("a name").to_owned();
            let args = f["arguments"].as_array().expect("arguments").len();
            let aggregating = f["aggregating"].as_bool().expect("aggregating");
            (name, args, aggregating)
        })
        .collect()
}

/// A call of `name` with `n` arguments, in a query that binds (the arguments are
/// parameters, of any type: the binder checks names and arities).
fn call_text(name: &str, n: usize, aggregating: bool) -> Option<String> {
    let args = vec!["$x"; n].join(", ");
    Some(match name {
        // These take a variable and a predicate, not values.
        "all" | "any" | "none" | "single" => format!("RETURN {name}(y IN [1] WHERE y > 0) AS v"),
        "reduce" => "RETURN reduce(s = 0, y IN [1] | s + y) AS v".to_owned(),
        // Neo4j 5's exists() takes a pattern only.
        "exists" => "MATCH (n) RETURN exists((n)-->()) AS v".to_owned(),
        "trim" if n == 1 => "RETURN trim($x) AS v".to_owned(),
        "trim" => return None,
        "normalize" if n == 2 => "RETURN normalize($x, NFC) AS v".to_owned(),
        _ if aggregating => format!("UNWIND [1] AS x RETURN {name}({args}) AS v"),
        _ => format!("RETURN {name}({args}) AS v"),
    })
}

fn prepare(text: &str, mode: PlanMode) -> Result<Prepared, kith_cypher::CypherError> {
    Prepared::with_plan_mode(text, &ProcedureSet(std::sync::Arc::new(NoProcedures)), mode)
}

#[test]
fn every_function_neo4j_lists_exists_with_its_arities() {
    let mut missing = Vec::new();
    let mut names = BTreeSet::new();
    for (name, n, aggregating) in catalogue() {
        names.insert(name.clone());
        let Some(text) = call_text(&name, n, aggregating) else {
            continue;
        };
        let known = match prepare(&text, PlanMode::Optimised) {
            Ok(_) => true,
            Err(e) => !matches!(
                e.code,
                kith_cypher::ErrorCode::UnknownFunction | kith_cypher::ErrorCode::SyntaxError
            ),
        };
        if known == not_yet(&name) {
            missing.push(format!("{name}/{n}: {text} (known: {known})"));
        }
    }
    assert!(
        missing.is_empty(),
        "functions whose presence differs from the catalogue and NOT_YET:\n{}",
        missing.join("\n")
    );
    for (name, _) in NOT_YET {
        assert!(names.contains(*name), "{name} is not in Neo4j's catalogue");
    }
}

/// A kith value is the recorded answer: floats to 12 significant digits.
fn same(got: &Value, want: &Json) -> bool {
    match (got, want) {
        (Value::Null, Json::Null) => true,
        (Value::Bool(a), Json::Bool(b)) => a == b,
        (Value::Int(a), Json::Number(b)) => b.as_i64() == Some(*a),
        (Value::String(a), Json::String(b)) => &**a == b.as_str(),
        (Value::Float(a), Json::Object(o)) if o.contains_key("float") => {
            same_float(*a, o["float"].as_str().expect("a float's digits"))
        }
        (Value::List(a), Json::Object(o)) if o.contains_key("list") => {
            let b = o["list"].as_array().expect("a list");
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        }
        (Value::Map(a), Json::Object(o)) if o.contains_key("map") => {
            let b = o["map"].as_object().expect("a map");
            a.len() == b.len()
                && a.iter()
                    .all(|(k, v)| b.get(&**k).is_some_and(|w| same(v, w)))
        }
        _ => false,
    }
}

fn same_float(a: f64, digits: &str) -> bool {
    let b: f64 = match digits {
        "NaN" => return a.is_nan(),
        "Infinity" => f64::INFINITY,
        "-Infinity" => f64::NEG_INFINITY,
        d => d.parse().expect("a float's digits"),
    };
    a == b || (a - b).abs() <= 1e-11 * b.abs().max(a.abs())
}

fn kith_answer(store: &Store, text: &str, mode: PlanMode) -> Result<Vec<Vec<Value>>, String> {
    let prepared = prepare(text, mode).map_err(|e| e.render(text))?;
    kith_cypher::run(&*store.snapshot(), &prepared, &[], &Limits::default())
        .map(|a| a.rows)
        .map_err(|e| e.render(text))
}

fn differs(got: &Result<Vec<Vec<Value>>, String>, want: &Json) -> bool {
    match (got, want.get("rows")) {
        (Err(_), None) => false,
        (Ok(rows), Some(Json::Array(want))) => {
            rows.len() != want.len()
                || rows.iter().zip(want).any(|(r, w)| {
                    let w = w.as_array().expect("a row");
                    r.len() != w.len() || r.iter().zip(w).any(|(x, y)| !same(x, y))
                })
        }
        _ => true,
    }
}

#[test]
fn every_case_answers_as_neo4j_526_answered() {
    let doc: Json = serde_json::from_str(CASES).expect("the cases fixture is JSON");
    let cases = doc["cases"].as_array().expect("a list of cases");
    assert!(cases.len() >= 300, "the recorded cases are all here");
    let store = Store::new(Snapshot::default());
    let mut bad = Vec::new();
    for case in cases {
        let text = case["query"].as_str().expect("a query");
        for mode in [PlanMode::Optimised, PlanMode::Naive] {
            let got = kith_answer(&store, text, mode);
            if differs(&got, case) {
                let want = case.get("rows").unwrap_or(&case["error"]);
                bad.push(format!(
                    "{text} ({mode:?})\n  neo4j: {want}\n  kith:  {got:?}"
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} cases differ from Neo4j 5.26:\n{}",
        bad.len(),
        cases.len() * 2,
        bad.join("\n")
    );
}
