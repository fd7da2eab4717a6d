//! S1's 19 queries in Cypher — the texts Neo4j runs in `bench/peers/neo4j/shindig/`
//! (`queries.py`, read through Python so there is one copy) — run on kith's Cypher
//! engine and give the native procedures' answers row for row, on the same calls the
//! benchmark makes.

use std::path::Path;
use std::process::Command;

use kith_core::Value;
use kith_cypher::{Engine, Limits};
use kith_datagen::shindig::{generate, ShindigConfig};
use kith_procedures::Registry;
use kith_storage::Snapshot;
use serde_json::Value as Json;

/// `{procedure: {"cypher": text, "defaults": {...}}}` from queries.py.
fn cypher_texts() -> serde_json::Map<String, Json> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/peers/neo4j/shindig");
    let script = "import json, queries\n\
        print(json.dumps({n: {'cypher': queries.cypher(n), 'defaults': queries.QUERIES[n].get('defaults', {})} for n in queries.ORDER}))";
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .current_dir(&dir)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "queries.py: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    match serde_json::from_slice(&out.stdout).expect("JSON") {
        Json::Object(m) => m,
        other => panic!("not an object: {other}"),
    }
}

fn from_json(v: &Json) -> Value {
    match v {
        Json::Number(n) => n.as_i64().map_or(Value::Null, Value::Int),
        Json::String(s) => Value::string(s.as_str()),
        other => panic!("unexpected default {other}"),
    }
}

#[test]
fn the_19_cypher_texts_equal_the_native_procedures() {
    let graph = Snapshot::from_raw(
        generate(ShindigConfig {
            scale: 0.2,
            seed: 42,
        })
        .expect("generates"),
    )
    .expect("builds");
    let registry = Registry::with_builtins();
    let engine = Engine::default();
    let texts = cypher_texts();
    let suite = kith_bench::shindig::queries(&graph, 12).expect("the suite's calls");
    let (mut calls, mut rows, mut failures) = (0, 0, Vec::new());
    for q in &suite {
        let entry = &texts[q.procedure];
        let text = entry["cypher"].as_str().expect("text");
        let defaults = entry["defaults"].as_object().expect("defaults");
        for i in 0..12 {
            let params = q.params(i).to_vec();
            let native = registry
                .call(&graph, q.procedure, &params)
                .expect("native call");
            let mut cypher_params = params.clone();
            for (k, v) in defaults {
                if !cypher_params.iter().any(|(n, _)| n == k) {
                    cypher_params.push((k.clone(), from_json(v)));
                }
            }
            calls += 1;
            let result = match engine.query(&graph, text, &cypher_params, &Limits::default()) {
                Ok(r) => r,
                Err(e) => {
                    failures.push(format!("{}: {}", q.procedure, e.render(text)));
                    break;
                }
            };
            let expected: Vec<Vec<Value>> = native.rows().map(<[Value]>::to_vec).collect();
            rows += expected.len();
            if result.rows != expected || result.columns != native.columns() {
                let at = result
                    .rows
                    .iter()
                    .zip(&expected)
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                failures.push(format!(
                    "{} {params:?}: columns {:?} vs {:?}; {} rows vs {}; first difference at {at}: {:?} vs {:?}",
                    q.procedure,
                    result.columns,
                    native.columns(),
                    result.rows.len(),
                    expected.len(),
                    result.rows.get(at),
                    expected.get(at)
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(suite.len(), 19);
    eprintln!("{calls} calls of the 19 queries, {rows} rows equal");
}
