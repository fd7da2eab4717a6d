//! The eight official LDBC update texts (`interactive-update-{1..8}.cypher`), run byte
//! for byte over the whole update stream of the official test data set, must leave the
//! graph the native update procedures leave, except for the texts' documented quirk:
//! IU1 writes `WORKS_AT` / `languages` where the loader and the reads use `WORK_AT` /
//! `speaks`, and with an empty `tagIds` list its `WITH p, count(*)` after the tag
//! UNWIND yields no row, so that person gets no STUDY_AT / WORK_AT relationships (and
//! the same with an empty `studyAt` list: no WORK_AT).
//! Besides, IU6 stores an empty `language` as `''` where the loader and the native
//! procedure leave the property out (the text guards `content` and `imageFile` with
//! CASE, not `language`): empty `language` values are left out of the comparison.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use kith_core::{GraphView, Value};
use kith_cypher::{Engine, Limits};
use kith_procedures::Registry;
use kith_storage::{Snapshot, Store, WriteBatch};

fn shared_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data")
}

fn load_test_graph() -> Snapshot {
    let src = shared_data().join("ldbc-snb-interactive-test/vanilla");
    let (raw, _) =
        kith_ldbc::load(&src).unwrap_or_else(|e| panic!("loading {}: {e}", src.display()));
    Snapshot::from_raw(raw).expect("builds")
}

fn update_text(operation: u8) -> String {
    let path = shared_data().join(format!("ldbc-cypher/interactive-update-{operation}.cypher"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A node by its labels and external id.
fn node_key(g: &dyn GraphView, n: kith_core::NodeId) -> String {
    let mut labels: Vec<&str> = g.node_labels(n).iter().map(|l| g.label_name(*l)).collect();
    labels.sort_unstable();
    let id = g
        .prop_key_id("id")
        .and_then(|k| g.node_property(n, k))
        .unwrap_or(Value::Null);
    format!("({}:{id})", labels.join(":"))
}

fn props(
    g: &dyn GraphView,
    list: &[(kith_core::PropKeyId, Value)],
    rename: &dyn Fn(&str) -> String,
) -> String {
    let sorted: BTreeMap<String, String> = list
        .iter()
        .filter(|(k, v)| !(rename(g.prop_key_name(*k)) == "language" && v.as_str() == Some("")))
        .map(|(k, v)| (rename(g.prop_key_name(*k)), format!("{v:?}")))
        .collect();
    format!("{sorted:?}")
}

/// Every node and relationship as a line of text, counted (a multiset).
fn dump(
    g: &dyn GraphView,
    rename_key: &dyn Fn(&str) -> String,
    rename_type: &dyn Fn(&str) -> String,
) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for n in g.node_ids() {
        *out.entry(format!(
            "{} {}",
            node_key(g, n),
            props(g, &g.node_properties(n), rename_key)
        ))
        .or_default() += 1;
    }
    for n in g.node_ids() {
        for t in g.rel_types_at(n, kith_core::Direction::Out) {
            for e in g.neighbors(n, t, kith_core::Direction::Out) {
                assert!(
                    g.relationship(e.rel).is_some(),
                    "a listed relationship exists"
                );
                let line = format!(
                    "{}-[{} {}]->{}",
                    node_key(g, n),
                    rename_type(g.rel_type_name(t)),
                    props(g, &g.rel_properties(e.rel), rename_key),
                    node_key(g, e.node)
                );
                *out.entry(line).or_default() += 1;
            }
        }
    }
    out
}

#[test]
fn official_update_texts_leave_the_native_graph() {
    let events =
        kith_ldbc::read_streams(&shared_data().join("ldbc-snb-interactive-test/update_streams"))
            .expect("streams");
    assert!(
        events.len() > 1000,
        "the test stream has thousands of events"
    );
    let registry = Registry::with_builtins();
    let engine = Engine::default();
    let texts: Vec<String> = (1..=8).map(update_text).collect();
    let native = Store::new(load_test_graph());
    let cypher = Store::new(load_test_graph());
    let mut quirk_persons = Vec::new();
    let mut per_op = [0usize; 8];
    for e in &events {
        let ops = registry
            .build_update(e.procedure, &e.params)
            .unwrap_or_else(|err| panic!("{}: {err}", e.procedure));
        native
            .apply(&WriteBatch { ops })
            .unwrap_or_else(|err| panic!("native {} at {}: {err}", e.procedure, e.timestamp));
        let text = &texts[usize::from(e.operation) - 1];
        let mut tx = kith_storage::Tx::new(&cypher.snapshot());
        engine
            .query_tx(&mut tx, text, &e.params, &Limits::default())
            .unwrap_or_else(|err| {
                panic!("IU{} at {}: {}", e.operation, e.timestamp, err.render(text))
            });
        assert!(
            !tx.is_empty(),
            "IU{} at {} wrote nothing",
            e.operation,
            e.timestamp
        );
        cypher
            .apply(&tx.into_batch())
            .unwrap_or_else(|err| panic!("cypher IU{} at {}: {err}", e.operation, e.timestamp));
        per_op[usize::from(e.operation) - 1] += 1;
        let empty = |name: &str| {
            e.params
                .iter()
                .any(|(k, v)| k == name && v.as_list().is_some_and(<[Value]>::is_empty))
        };
        if e.operation == 1 && (empty("tagIds") || empty("studyAt")) {
            let id = e
                .params
                .iter()
                .find(|(k, _)| k == "personId")
                .and_then(|(_, v)| v.as_int())
                .expect("personId");
            // Every UNWIND over an empty list ends the text's row, so what follows it is
            // never written: after empty tagIds both, after empty studyAt the WORK_AT.
            let lost: &[&str] = if empty("tagIds") {
                &["STUDY_AT", "WORK_AT"]
            } else {
                &["WORK_AT"]
            };
            quirk_persons.push((format!("(Person:{id})"), lost));
        }
    }
    let same = |s: &str| s.to_owned();
    let theirs = dump(&*native.snapshot(), &same, &same);
    let ours = dump(
        &*cypher.snapshot(),
        &|k| {
            if k == "languages" {
                "speaks".to_owned()
            } else {
                k.to_owned()
            }
        },
        &|t| {
            if t == "WORKS_AT" {
                "WORK_AT".to_owned()
            } else {
                t.to_owned()
            }
        },
    );
    // The empty-tagIds quirk: those persons' STUDY_AT / WORK_AT are missing on our side.
    let mut quirk_rels = 0;
    let mut expected = theirs.clone();
    expected.retain(|line, count| {
        let dropped = quirk_persons
            .iter()
            .any(|(p, lost)| lost.iter().any(|t| line.starts_with(&format!("{p}-[{t} "))));
        if dropped {
            quirk_rels += *count;
        }
        !dropped
    });
    let missing: Vec<_> = expected
        .iter()
        .filter(|(l, c)| ours.get(*l) != Some(c))
        .take(10)
        .collect();
    let extra: Vec<_> = ours
        .iter()
        .filter(|(l, c)| expected.get(*l) != Some(c))
        .take(10)
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "graphs differ after {} events {per_op:?}\nnative only: {missing:#?}\ncypher only: {extra:#?}",
        events.len()
    );
    eprintln!(
        "{} events {per_op:?}: graphs equal ({} lines); IU1 quirk: {} persons with empty tagIds or studyAt, {quirk_rels} relationships not written",
        events.len(),
        ours.len(),
        quirk_persons.len()
    );
}
