//! kith's Cypher engine against Neo4j 5.26 on the same official LDBC texts: the
//! fixtures in `tests/fixtures/neo4j-official/` are Neo4j's answers to the unmodified
//! texts with the reference driver's parameters, before and after the update stream
//! (applied with the official IU texts), plus probes of the edge cases (no path, no
//! such person, the same person twice). kith must answer exactly the same rows, types
//! included, quirks and all. Regenerate with `bench/peers/neo4j/ldbc/regen.sh`
//! (`OFFICIAL=only`).

use std::path::{Path, PathBuf};

use kith_core::Value;
use kith_cypher::{Engine, Limits};
use kith_storage::{Snapshot, Store};
use serde_json::Value as Json;

fn shared_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data")
}

fn fixtures(dataset: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/neo4j-official")
        .join(dataset)
}

fn sf01_dir() -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ldbc-sf0.1");
    let done = root.join(".unpacked");
    if !done.exists() {
        let archive = shared_data().join("ldbc-snb-sf0.1-datagen.tar.zst");
        let file =
            std::fs::File::open(&archive).unwrap_or_else(|e| panic!("{}: {e}", archive.display()));
        let _ = std::fs::remove_dir_all(&root);
        tar::Archive::new(zstd::Decoder::new(file).expect("zstd"))
            .unpack(&root)
            .expect("unpacks");
        std::fs::write(&done, "").expect("marks");
    }
    root.join("sf0.1/social_network")
}

fn test_dir() -> PathBuf {
    shared_data().join("ldbc-snb-interactive-test")
}

/// A data set loaded, and for the after-updates ones the first `events` of its update
/// stream applied through the official IU texts, as the Neo4j side did.
fn graph(src: &Path, streams: Option<(&Path, Option<usize>)>) -> Store {
    let (raw, _) =
        kith_ldbc::load(src).unwrap_or_else(|e| panic!("loading {}: {e}", src.display()));
    let store = Store::new(Snapshot::from_raw(raw).expect("builds"));
    let Some((dir, limit)) = streams else {
        return store;
    };
    let engine = Engine::default();
    let texts: Vec<String> = (1..=8)
        .map(|i| {
            std::fs::read_to_string(
                shared_data().join(format!("ldbc-cypher/interactive-update-{i}.cypher")),
            )
            .expect("IU text")
        })
        .collect();
    let mut events = kith_ldbc::read_streams(dir).expect("streams");
    events.truncate(limit.unwrap_or(usize::MAX));
    for e in &events {
        let text = &texts[usize::from(e.operation) - 1];
        let mut tx = kith_storage::Tx::new(&store.snapshot());
        engine
            .query_tx(&mut tx, text, &e.params, &Limits::default())
            .unwrap_or_else(|err| {
                panic!("IU{} at {}: {}", e.operation, e.timestamp, err.render(text))
            });
        store.apply(&tx.into_batch()).expect("applies");
    }
    store
}

fn from_json(v: &Json) -> Value {
    match v {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => n
            .as_i64()
            .map_or_else(|| Value::Float(n.as_f64().unwrap_or(f64::NAN)), Value::Int),
        Json::String(s) => Value::string(s.as_str()),
        Json::Array(items) => Value::List(items.iter().map(from_json).collect()),
        Json::Object(_) => panic!("parameters are never maps"),
    }
}

fn to_json(v: &Value) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) | Value::DateTime(i) => Json::from(*i),
        Value::Float(f) => Json::from(*f),
        Value::String(s) => Json::String(s.to_string()),
        Value::Temporal(t) => Json::String(t.to_string()),
        Value::Point(p) => Json::String(p.to_string()),
        Value::Bytes(b) => Json::Array(kith_core::signed(b).map(Json::from).collect()),
        Value::List(items) => Json::Array(items.iter().map(to_json).collect()),
        Value::Map(entries) => Json::Object(
            entries
                .iter()
                .map(|(k, v)| (k.to_string(), to_json(v)))
                .collect(),
        ),
    }
}

/// Sorts the lists of the columns whose order the specification leaves open.
fn normalise(row: &mut [Json], columns: &[String], sorted: &[String]) {
    for (v, c) in row.iter_mut().zip(columns) {
        if let (true, Json::Array(items)) = (sorted.contains(c), v) {
            items.sort_by_key(|x| x.to_string());
        }
    }
}

/// Compares every case of every fixture of a data set; returns the cases compared.
fn check(dataset: &str, store: &Store) -> usize {
    let engine = Engine::default();
    let snapshot = store.snapshot();
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures(dataset))
        .expect("fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let (mut cases, mut failures) = (0, Vec::new());
    for file in &files {
        let fixture: Json =
            serde_json::from_str(&std::fs::read_to_string(file).expect("reads")).expect("JSON");
        // The official file Neo4j ran, by name (its SHA-256 is in the fixture too).
        let official = fixture["text"]
            .as_str()
            .expect("the text Neo4j ran")
            .to_owned();
        let on_disk = std::fs::read_to_string(shared_data().join("ldbc-cypher").join(&official))
            .expect("official text");
        let text = on_disk.as_str();
        let name = fixture["procedure"]
            .as_str()
            .expect("procedure")
            .trim_start_matches("ldbc.");
        let columns: Vec<String> =
            serde_json::from_value(fixture["columns"].clone()).expect("columns");
        let sorted: Vec<String> =
            serde_json::from_value(fixture["sorted_lists"].clone()).expect("sorted_lists");
        for case in fixture["cases"].as_array().expect("cases") {
            cases += 1;
            let params: Vec<(String, Value)> = case["params"]
                .as_object()
                .expect("params")
                .iter()
                .map(|(k, v)| (k.clone(), from_json(v)))
                .collect();
            let result = engine.query(&*snapshot, text, &params, &Limits::default());
            if let Some(error) = case["error"].as_str() {
                let code = error.split(':').next().unwrap_or_default();
                match result {
                    Err(e) if e.code.as_str() == code => {}
                    other => failures.push(format!(
                        "{official} {params:?}: Neo4j raised {code}, kith {other:?}"
                    )),
                }
                continue;
            }
            let result = match result {
                Ok(r) => r,
                Err(e) => {
                    failures.push(format!("{official} {params:?}: {}", e.render(text)));
                    continue;
                }
            };
            if result.columns != columns {
                failures.push(format!(
                    "{official}: columns {:?}, Neo4j {columns:?}",
                    result.columns
                ));
                continue;
            }
            let mut ours: Vec<Vec<Json>> = result
                .rows
                .iter()
                .map(|r| r.iter().map(to_json).collect())
                .collect();
            let mut theirs: Vec<Vec<Json>> =
                serde_json::from_value(case["rows"].clone()).expect("rows");
            for r in ours.iter_mut().chain(theirs.iter_mut()) {
                normalise(r, &columns, &sorted);
            }
            if name == "ic14" {
                // Paths of equal weight come in no defined order (Neo4j's own vary).
                let key = |r: &Vec<Json>| {
                    (
                        -(r[1].as_f64().unwrap_or(0.0) * 1e6) as i64,
                        Json::Array(r.clone()).to_string(),
                    )
                };
                ours.sort_by_key(key);
                theirs.sort_by_key(key);
            }
            if ours != theirs {
                let at = ours
                    .iter()
                    .zip(&theirs)
                    .position(|(a, b)| a != b)
                    .unwrap_or(ours.len().min(theirs.len()));
                failures.push(format!(
                    "{official} {params:?}: {} rows, Neo4j {}; first difference at row {at}: kith {:?}, Neo4j {:?}",
                    ours.len(),
                    theirs.len(),
                    ours.get(at),
                    theirs.get(at)
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} cases differ from Neo4j ({dataset}):\n{}",
        failures.len(),
        failures.join("\n")
    );
    cases
}

fn replayed_events(dataset: &str) -> Option<usize> {
    let text = std::fs::read_to_string(fixtures(dataset).join("is1.json")).expect("is1 fixture");
    let fixture: Json = serde_json::from_str(&text).expect("JSON");
    fixture["replayed_events"].as_u64().map(|n| n as usize)
}

#[test]
fn equal_to_neo4j_on_the_test_data() {
    let store = graph(&test_dir().join("vanilla"), None);
    let cases = check("test", &store) + check("test-probes", &store);
    eprintln!("{cases} cases equal Neo4j's");
}

#[test]
fn equal_to_neo4j_on_the_test_data_after_the_update_stream() {
    let events = replayed_events("test-after-updates");
    let store = graph(
        &test_dir().join("vanilla"),
        Some((&test_dir().join("update_streams"), events)),
    );
    eprintln!(
        "{} cases equal Neo4j's",
        check("test-after-updates", &store)
    );
}

#[test]
fn equal_to_neo4j_on_sf01() {
    let store = graph(&sf01_dir(), None);
    eprintln!("{} cases equal Neo4j's", check("sf0.1", &store));
}

#[test]
fn equal_to_neo4j_on_sf01_after_updates() {
    let events = replayed_events("sf0.1-after-updates");
    assert!(
        events.is_some(),
        "the SF0.1 fixtures say how many events Neo4j replayed"
    );
    let dir = sf01_dir();
    let streams = dir.parent().expect("sf0.1 dir").join("update_streams");
    let store = graph(&dir, Some((&streams, events)));
    eprintln!(
        "{} cases equal Neo4j's",
        check("sf0.1-after-updates", &store)
    );
}
