//! Per-query latency of the official LDBC Cypher texts beside kith's native procedures,
//! in-process, on an unpacked LDBC data set, with the fixture cases' parameters:
//!
//! ```sh
//! cargo run --release -p kith-cypher --example ldbc_latency -- DATA_DIR FIXTURE_DIR [runs] [only]
//! # e.g. DATA_DIR=target/tmp/ldbc-sf0.1/sf0.1/social_network (the oracle test unpacks it)
//! #      FIXTURE_DIR=crates/kith-ldbc/tests/fixtures/sf0.1
//! ```
//!
//! Prints, per query, the median over every case and run of kith Cypher (planned once:
//! the plan cache) and of the native procedure, their ratio, and the median time to
//! parse and plan the text cold and to find it in the plan cache.

use std::path::Path;
use std::time::Instant;

use kith_core::Value;
use kith_cypher::{Engine, Limits};
use kith_procedures::Registry;
use kith_storage::Snapshot;
use serde_json::Value as Json;

fn from_json(v: &Json) -> Value {
    match v {
        Json::Number(n) => n
            .as_i64()
            .map_or_else(|| Value::Float(n.as_f64().unwrap_or(0.0)), Value::Int),
        Json::String(s) => Value::string(s.as_str()),
        Json::Array(items) => Value::List(items.iter().map(from_json).collect()),
        _ => Value::Null,
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Median time to parse, bind and plan `text` from nothing, and to find it in a warm
/// plan cache, in µs.
fn plan_times(text: &str) -> (f64, f64) {
    let cold: Vec<f64> = (0..51)
        .map(|_| {
            let t = Instant::now();
            kith_cypher::Prepared::new(text).expect("plans");
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    let engine = Engine::default();
    engine.prepare(text).expect("plans");
    let cached: Vec<f64> = (0..51)
        .map(|_| {
            let t = Instant::now();
            engine.prepare(text).expect("cached");
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    (median(cold), median(cached))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (data, fixtures) = (Path::new(&args[1]), Path::new(&args[2]));
    let runs: usize = args.get(3).and_then(|r| r.parse().ok()).unwrap_or(5);
    let only = args.get(4).cloned();
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/ldbc-cypher");
    let (raw, _) = kith_ldbc::load(data).expect("loads");
    let graph = Snapshot::from_raw(raw).expect("builds");
    let engine = Engine::default();
    let registry = Registry::with_builtins();
    println!("| query | cypher p50 µs | native p50 µs | cypher ÷ native | parse + plan µs (cold) | plan cache hit µs |");
    println!("|---|---:|---:|---:|---:|---:|");
    for n in (1..=7)
        .map(|i| format!("is{i}"))
        .chain((1..=14).map(|i| format!("ic{i}")))
    {
        if only.as_ref().is_some_and(|o| *o != n) {
            continue;
        }
        let fixture: Json = serde_json::from_str(
            &std::fs::read_to_string(fixtures.join(format!("{n}.json"))).expect("fixture"),
        )
        .expect("JSON");
        let procedure = fixture["procedure"].as_str().expect("procedure");
        let file = if let Some(k) = n.strip_prefix("is") {
            format!("interactive-short-{k}.cypher")
        } else {
            format!("interactive-complex-{}.cypher", &n[2..])
        };
        let text = std::fs::read_to_string(shared.join(file)).expect("text");
        let (mut cy, mut na) = (Vec::new(), Vec::new());
        for case in fixture["cases"].as_array().expect("cases") {
            let params: Vec<(String, Value)> = case["params"]
                .as_object()
                .expect("params")
                .iter()
                .map(|(k, v)| (k.clone(), from_json(v)))
                .collect();
            let mut cparams = params.clone();
            if let (Some(s), Some(d)) = (
                case["params"]["startDate"].as_i64(),
                case["params"]["durationDays"].as_i64(),
            ) {
                cparams.retain(|(k, _)| k != "durationDays");
                cparams.push(("endDate".into(), Value::Int(s + d * 86_400_000)));
            }
            for _ in 0..runs {
                let t = Instant::now();
                engine
                    .query(&graph, &text, &cparams, &Limits::default())
                    .expect("cypher runs");
                cy.push(t.elapsed().as_secs_f64() * 1e6);
                let t = Instant::now();
                registry
                    .call(&graph, procedure, &params)
                    .expect("native runs");
                na.push(t.elapsed().as_secs_f64() * 1e6);
            }
        }
        let (c, m) = (median(cy), median(na));
        let (cold, cached) = plan_times(&text);
        println!(
            "| {} | {c:.0} | {m:.0} | {:.1}x | {cold:.1} | {cached:.2} |",
            n.to_uppercase(),
            c / m
        );
    }
}
