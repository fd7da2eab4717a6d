//! S1's 19 queries in Cypher — the texts Neo4j runs in `bench/peers/neo4j/shindig/`
//! (`queries.py`, read through Python so there is one copy) — run on kith's Cypher
//! engine and give the native procedures' answers row for row, on the same calls the
//! benchmark makes.

use std::path::Path;
use std::sync::Arc;

use kith_bench::shindig::{Options, Path as AccessPath};
use kith_bench::shindig_cypher::ShindigCypher;
use kith_core::Value;
use kith_cypher::{Engine, Limits};
use kith_datagen::shindig::{generate, ShindigConfig};
use kith_procedures::Registry;
use kith_storage::Snapshot;

/// The texts of queries.py, read through python3 as the benchmark reads them.
fn cypher_texts() -> ShindigCypher {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/peers/neo4j/shindig/queries.py");
    ShindigCypher::load(&script).expect("queries.py --json")
}

fn small_graph() -> Snapshot {
    Snapshot::from_raw(
        generate(ShindigConfig {
            scale: 0.2,
            seed: 42,
        })
        .expect("generates"),
    )
    .expect("builds")
}

#[test]
fn the_19_cypher_texts_equal_the_native_procedures() {
    let graph = small_graph();
    let registry = Registry::with_builtins();
    let engine = Engine::default();
    let texts = cypher_texts();
    let suite = kith_bench::shindig::queries(&graph, 12).expect("the suite's calls");
    let (mut calls, mut rows, mut failures) = (0, 0, Vec::new());
    for q in &suite {
        let text = texts.text(q.procedure).expect("text");
        for i in 0..12 {
            let params = q.params(i).to_vec();
            let native = registry
                .call(&graph, q.procedure, &params)
                .expect("native call");
            let cypher_params = texts.params(q.procedure, &params);
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

/// `kith bench shindig`'s Cypher path sends every text over the wire and measures it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cypher_access_path_runs_every_text_over_websocket() {
    let store = Arc::new(kith_storage::Store::new(small_graph()));
    let options = Options {
        paths: vec![AccessPath::parse("cypher-bson").expect("a path")],
        runs_scale: 0.0,
        warmup: 1,
        workers: 2,
        sample: 8,
        cypher: Some(Arc::new(cypher_texts())),
    };
    let report = kith_bench::shindig::run(store.clone(), options.clone(), |_, _| {})
        .await
        .expect("runs");
    assert_eq!(report.measurements.len(), 19);
    assert!(report
        .measurements
        .iter()
        .all(|m| m.path == "cypher-bson" && m.calls == 5 && m.split.server_exec_us > 0.0));
    let without = Options {
        cypher: None,
        ..options
    };
    let err = kith_bench::shindig::run(store, without, |_, _| {})
        .await
        .expect_err("refused without texts");
    assert!(err.contains("--cypher"), "{err}");
}
