//! `kith import` end to end through the real binary: what `kith export` writes imports
//! back into the same graph, the LDBC test data converted to the official Neo4j import
//! layout imports into the graph `kith load ldbc` builds, and bad input is refused
//! with the file, line and column, leaving no data directory behind.

use std::path::{Path, PathBuf};

mod common;
use common::kith;
use kith_storage::{RawGraph, Snapshot};

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn graph(dir: &Path) -> RawGraph {
    let snapshot: Snapshot =
        kith_storage::load_snapshot(&dir.join("graph.kith")).expect("a graph file");
    snapshot.to_raw()
}

/// A graph as sorted lines independent of ids: one per node (labels and properties
/// by name) and one per relationship (its type, its ends' lines and properties).
fn canonical(g: &RawGraph) -> Vec<String> {
    let c = &g.catalog;
    let props = |p: &[(kith_core::PropKeyId, kith_core::Value)]| {
        let mut v: Vec<String> = p
            .iter()
            .map(|(k, v)| format!("{}={v:?}", c.prop_key_name(*k)))
            .collect();
        v.sort();
        v.join(",")
    };
    let node = |n: &kith_storage::RawNode| {
        let mut labels: Vec<&str> = n.labels.iter().map(|l| c.label_name(*l)).collect();
        labels.sort();
        format!("({}{{{}}})", labels.join(":"), props(&n.properties))
    };
    let mut lines: Vec<String> = g.live_nodes().map(|(_, n)| node(n)).collect();
    for (_, r) in g.live_rels() {
        let end = |id: kith_core::NodeId| node(g.nodes[id.index()].as_ref().expect("live end"));
        lines.push(format!(
            "{}-[:{}{{{}}}]->{}",
            end(r.src),
            c.rel_type_name(r.rel_type),
            props(&r.properties),
            end(r.dst)
        ));
    }
    lines.sort();
    lines
}

fn assert_same(a: &RawGraph, b: &RawGraph) {
    let (a, b) = (canonical(a), canonical(b));
    let only = |x: &[String], y: &[String]| -> Vec<String> {
        let y: std::collections::HashSet<&String> = y.iter().collect();
        x.iter()
            .filter(|l| !y.contains(l))
            .take(3)
            .cloned()
            .collect()
    };
    assert!(
        a == b,
        "graphs differ ({} vs {} elements); only in the first: {:?}; only in the second: {:?}",
        a.len(),
        b.len(),
        only(&a, &b),
        only(&b, &a)
    );
}

fn import_args(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("import-args.txt"))
        .expect("import-args.txt")
        .lines()
        .map(str::to_owned)
        .collect()
}

fn import(args: &[String], extra: &[&str], out: &Path) -> (bool, String) {
    let report = out.with_extension("report");
    let mut all: Vec<&str> = vec!["import"];
    all.extend(args.iter().map(String::as_str));
    all.extend_from_slice(extra);
    all.extend_from_slice(&["--out", s(out), "--report-file", s(&report)]);
    kith(&all)
}

#[test]
fn what_kith_export_writes_imports_back_unchanged() {
    let work = tempfile::tempdir().expect("tempdir");
    let (data, csv) = (work.path().join("data"), work.path().join("csv"));
    let (ok, out) = kith(&["generate", "shindig", "--scale", "0.2", "--out", s(&data)]);
    assert!(ok, "{out}");
    // Points, alone and in lists, in both systems: `point` and `point[]` columns.
    let points = "MATCH (p:Person) WHERE p.id < 5 SET p.home = point({latitude: 55.6, \
                  longitude: p.id}), p.route = [point({x: p.id, y: 2, z: 3}), point({x: 0, y: 0, z: 0})]";
    let (ok, out) = kith(&["query", s(&data), points]);
    assert!(ok, "{out}");
    // A byte array (JSON's `$bytes` in --params): a `byte[]` column.
    let blob = "MATCH (p:Person) WHERE p.id < 3 SET p.blob = $b";
    let b = r#"{"b": {"$bytes": "AID/"}}"#;
    let (ok, out) = kith(&["query", s(&data), blob, "--params", b]);
    assert!(ok, "{out}");
    let (ok, out) = kith(&["export", s(&data), "--out", s(&csv)]);
    assert!(ok, "{out}");
    let args = import_args(&csv);
    let flags = ["--delimiter", "|", "--id-type", "integer"];
    let (ok, out) = import(&args, &flags, &work.path().join("back"));
    assert!(ok, "{out}");
    assert!(out.contains("elements/s"), "{out}");
    assert_same(&graph(&data), &graph(&work.path().join("back")));
    let read = "MATCH (p:Person) WHERE p.id = 1 RETURN p.blob = $b, valueType(p.blob)";
    let (ok, out) = kith(&[
        "query",
        s(&work.path().join("back")),
        read,
        "--params",
        b,
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&out).expect("--json prints JSON");
    assert!(ok, "{out}");
    assert_eq!(
        json["rows"],
        serde_json::json!([[true, "LIST<INTEGER NOT NULL> NOT NULL"]])
    );

    // One thread or many: the same graph, slot for slot.
    let mut one = flags.to_vec();
    one.extend(["--threads", "1"]);
    let (ok, out) = import(&args, &one, &work.path().join("one"));
    assert!(ok, "{out}");
    let (a, b) = (
        graph(&work.path().join("back")),
        graph(&work.path().join("one")),
    );
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.rels, b.rels);
}

#[test]
fn the_official_ldbc_import_layout_gives_the_loaded_graph() {
    let work = tempfile::tempdir().expect("tempdir");
    let src = shared().join("ldbc-snb-interactive-test/vanilla");
    let csv = work.path().join("csv");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/import/ldbc_to_neo4j.py");
    let converted = std::process::Command::new("python3")
        .args([
            s(&script),
            s(&src),
            s(&shared().join("ldbc-cypher/headers.txt")),
            s(&csv),
        ])
        .status()
        .expect("runs python3");
    assert!(converted.success());
    let flags = [
        "--delimiter",
        "|",
        "--array-delimiter",
        ";",
        "--id-type",
        "integer",
    ];
    let (ok, out) = import(&import_args(&csv), &flags, &work.path().join("imported"));
    assert!(ok, "{out}");
    let loaded = work.path().join("loaded");
    let (ok, out) = kith(&["load", "ldbc", s(&src), "--out", s(&loaded)]);
    assert!(ok, "{out}");
    assert_same(&graph(&loaded), &graph(&work.path().join("imported")));
}

/// Writes `files` into a new directory and imports `args` (paths relative to it).
fn import_files(files: &[(&str, &str)], args: &[&str]) -> (bool, String, tempfile::TempDir) {
    let work = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        std::fs::write(work.path().join(name), text).expect("write");
    }
    let mut all = vec!["import".to_owned()];
    all.extend(args.iter().map(|a| a.replace("DIR", s(work.path()))));
    all.extend(["--out".into(), s(&work.path().join("out")).to_owned()]);
    all.extend([
        "--report-file".into(),
        s(&work.path().join("report.txt")).to_owned(),
    ]);
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let (ok, out) = kith(&refs);
    (ok, out, work)
}

#[test]
fn bad_input_is_refused_with_its_place_and_leaves_nothing() {
    let people = "uid:ID(P),name,age:int\n1,Ann,30\n2,Bob,x\n";
    let (ok, out, work) = import_files(&[("p.csv", people)], &["--nodes=Person=DIR/p.csv"]);
    assert!(!ok);
    assert!(
        out.contains("p.csv, line 3, column `age:int`: `x` is not an integer"),
        "{out}"
    );
    assert!(
        !work.path().join("out").exists(),
        "a failed import leaves no directory"
    );

    let people = "uid:ID(P),name\n1,Ann\n1,Again\n";
    let (ok, out, _w) = import_files(&[("p.csv", people)], &["--nodes=Person=DIR/p.csv"]);
    assert!(
        !ok && out.contains("p.csv:3: id `1` is already a node's in ID space `P`"),
        "{out}"
    );

    // kith's `id` property is an indexed integer: a string `id` is refused up front.
    let (ok, out, _w) = import_files(&[("p.csv", "id:ID\nx\n")], &["--nodes=DIR/p.csv"]);
    assert!(
        !ok && out.contains("p.csv, line 1: `id:ID`: kith indexes the `id` property as an integer"),
        "{out}"
    );

    // A point column takes Neo4j's importer's maps; anything else names its place.
    let points = "uid:ID,at:point\n1,\"{x: 1}\"\n";
    let (ok, out, _w) = import_files(&[("p.csv", points)], &["--nodes=DIR/p.csv"]);
    assert!(
        !ok && out.contains("p.csv, line 2, column `at:point`: `{x: 1}` is not a point"),
        "{out}"
    );

    let (ok, out, _w) = import_files(&[], &["--nodes=DIR/missing.csv"]);
    assert!(!ok && out.contains("missing.csv: no such file"), "{out}");

    let rels = ":START_ID(P),:END_ID(P)\n1,2\n1,9\n";
    let nodes = ":ID(P)\n1\n2\n";
    let files = [("p.csv", nodes), ("r.csv", rels)];
    let (ok, out, _w) = import_files(
        &files,
        &["--nodes=P=DIR/p.csv", "--relationships=KNOWS=DIR/r.csv"],
    );
    assert!(!ok);
    assert!(
        out.contains(
            "r.csv, line 3: relationship refused: its end node `9` is not in ID space `P`"
        ),
        "{out}"
    );
}

#[test]
fn skipped_entries_are_reported_within_the_tolerance() {
    let nodes = "uid:ID(P),name\n1,Ann\n2,Bob\n2,Twin\n";
    let rels =
        ":START_ID(P),:END_ID(P),:TYPE,since:date\n1,2,KNOWS,2020-01-02\n1,7,KNOWS,\n2,1,,\n";
    let files = [("p.csv", nodes), ("r.csv", rels)];
    let args = [
        "--nodes=Person=DIR/p.csv",
        "--relationships=DIR/r.csv",
        "--skip-bad-relationships",
        "--skip-duplicate-nodes=true",
    ];
    let (ok, out, work) = import_files(&files, &args);
    assert!(ok, "{out}");
    assert!(
        out.contains("imported 2 nodes and 1 relationships"),
        "{out}"
    );
    assert!(out.contains("skipped 3 bad entries"), "{out}");
    let report = std::fs::read_to_string(work.path().join("report.txt")).expect("report");
    assert_eq!(report.lines().count(), 3, "{report}");
    assert!(
        report.contains("p.csv:4: id `2` is already a node's"),
        "{report}"
    );
    assert!(
        report.contains("r.csv:3: relationship skipped: its end node `7` is not in ID space `P`"),
        "{report}"
    );
    assert!(
        report.contains("r.csv:4: relationship skipped: it has no type"),
        "{report}"
    );
    let g = graph(&work.path().join("out"));
    let lines = canonical(&g);
    assert!(
        lines.iter().any(|l| l.contains("-[:KNOWS{since=Temporal(")),
        "{lines:?}"
    );

    let mut strict = args.to_vec();
    strict.extend(["--bad-tolerance", "2"]);
    let (ok, out, work) = import_files(&files, &strict);
    assert!(!ok && out.contains("more than 2 entries were bad"), "{out}");
    // The failed import's report lists what it skipped, and the entry that failed it.
    let report = std::fs::read_to_string(work.path().join("report.txt")).expect("report");
    assert_eq!(report.lines().count(), 3, "{report}");
}

#[test]
fn a_byte_order_mark_and_an_untyped_relationship_file() {
    // Excel's UTF-8 files open with a byte-order mark: it is not part of the header.
    let nodes = "\u{FEFF}uid:ID(P),name\n1,Ann\n2,Bob\n";
    let more = "\u{FEFF}3,Cid\n";
    let rels = ":START_ID(P),:END_ID(P)\n1,3\n";
    let files = [("p.csv", nodes), ("q.csv", more), ("r.csv", rels)];
    let (ok, out, work) = import_files(
        &files,
        &[
            "--nodes=P=DIR/p.csv,DIR/q.csv",
            "--relationships=KNOWS=DIR/r.csv",
        ],
    );
    assert!(ok, "{out}");
    let lines = canonical(&graph(&work.path().join("out")));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("(P{name=String(\"Ann\"),uid=String(\"1\")})")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("-[:KNOWS{}]->(P{name=String(\"Cid\")")),
        "{lines:?}"
    );
    assert_eq!(
        std::fs::read_to_string(work.path().join("report.txt")).expect("report"),
        ""
    );
    // Relationships without a :TYPE column or a TYPE= are refused at the header.
    let (ok, out, _w) = import_files(
        &files,
        &["--nodes=P=DIR/p.csv", "--relationships=DIR/r.csv"],
    );
    assert!(!ok && out.contains("relationships need a type"), "{out}");
}

#[test]
fn quoting_arrays_labels_and_split_files() {
    let header = "key:ID,:LABEL,name,tags:string[],score:float,ok:boolean\n";
    let part1 = "a,Person;Admin,\"Smith, \"\"Jo\"\"\",x;y,1.5,true\n";
    let part2 = "b,Person,\"\",,,\n";
    let files = [("h.csv", header), ("p1.csv", part1), ("p2.csv", part2)];
    let (ok, out, work) = import_files(&files, &["--nodes=User=DIR/h.csv,DIR/p[0-9]\\.csv"]);
    assert!(ok, "{out}");
    let lines = canonical(&graph(&work.path().join("out")));
    assert_eq!(
        lines,
        [
            "(Admin:Person:User{key=String(\"a\"),name=String(\"Smith, \\\"Jo\\\"\"),ok=Bool(true),score=Float(1.5),tags=List([String(\"x\"), String(\"y\")])})",
            "(Person:User{key=String(\"b\"),name=String(\"\")})",
        ]
    );
}

#[test]
fn labels_and_types_from_fields_get_the_same_ids_on_any_number_of_threads() {
    // Megabytes, so the files are cut into 1 MiB chunks the threads parse at once. The
    // first chunk meets `Yak` only at its end, the second `Zed` at its start: parsed
    // apart, `Zed` is met first; read in order, `Yak` is. (Types likewise.)
    const MIB: usize = 1 << 20;
    let mut nodes = String::from("uid:ID,:LABEL,v:int\n");
    let mut rels = String::from(":START_ID,:END_ID,:TYPE\n");
    for i in 0..150_000 {
        let at = nodes.len();
        let label = match at {
            _ if (MIB - 3000..MIB - 200).contains(&at) => "Yak",
            _ if (MIB + 200..MIB + 3000).contains(&at) => "Zed",
            _ => "Ant",
        };
        nodes.push_str(&format!("n{i},{label},{i}\n"));
        let at = rels.len();
        let ty = match at {
            _ if (MIB - 3000..MIB - 200).contains(&at) => "Y",
            _ if (MIB + 200..MIB + 3000).contains(&at) => "Z",
            _ => "A",
        };
        rels.push_str(&format!("n{i},n{},{ty}\n", (i * 31) % 150_000));
    }
    let files = [("n.csv", nodes.as_str()), ("r.csv", rels.as_str())];
    let args = ["--nodes=DIR/n.csv", "--relationships=DIR/r.csv"];
    let (ok, out, many) = import_files(&files, &args);
    assert!(ok, "{out}");
    let mut one_thread = args.to_vec();
    one_thread.extend(["--threads", "1"]);
    let (ok, out, one) = import_files(&files, &one_thread);
    assert!(ok, "{out}");
    let bytes =
        |w: &tempfile::TempDir| std::fs::read(w.path().join("out/graph.kith")).expect("graph");
    assert!(
        bytes(&many) == bytes(&one),
        "the graph files differ between 1 and many threads"
    );
}
