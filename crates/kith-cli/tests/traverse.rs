//! S2's tree and traversal end to end through the real binary: `kith generate tree`,
//! `kith call ... graph.traverse`, the same count through Cypher, and `kith bench
//! traverse` agreeing across its cases; bad arguments refused by name.

mod common;
use common::kith;

#[test]
fn generate_a_tree_then_traverse_it_three_ways() {
    let work = tempfile::tempdir().expect("tempdir");
    let dir = work.path().join("tree");
    let dir = dir.to_str().expect("utf-8");
    let (ok, out) = kith(&[
        "generate", "tree", "--levels", "5", "--fanout", "3", "--out", dir,
    ]);
    assert!(ok, "{out}");
    assert!(out.contains("364 nodes, 363 relationships"), "{out}");

    let (ok, out) = kith(&[
        "call",
        dir,
        "graph.traverse",
        "start=0",
        "expand=A:HAS_B,B:HAS_A",
        "order=bfs",
        "label=B",
        "key=flag",
        "value=true",
        "--json",
    ]);
    assert!(ok, "{out}");
    let answer: serde_json::Value = serde_json::from_str(&out).expect("json");
    let count = answer["rows"][0][0].as_i64().expect("a count");
    assert_eq!(answer["rows"][0][1], 364, "every node visited: {out}");

    let (ok, out) = kith(&[
        "query",
        dir,
        "MATCH (b:B) WHERE b.flag = true RETURN count(b) AS c",
        "--json",
    ]);
    assert!(ok, "{out}");
    let cypher: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(cypher["rows"][0][0].as_i64(), Some(count), "{out}");

    let (ok, out) = kith(&[
        "bench", "traverse", "--data", dir, "--runs", "3", "--warmup", "1",
    ]);
    assert!(ok, "{out}");
    assert!(
        out.contains(&format!("| procedure-dfs-none | {count} |")),
        "{out}"
    );
    assert!(out.contains(&format!("| cypher | {count} |")), "{out}");

    let (ok, out) = kith(&[
        "call",
        dir,
        "graph.traverse",
        "start=0",
        "expand=A:HAS_B",
        "order=up",
    ]);
    assert!(!ok && out.contains("order"), "{out}");
    let (ok, out) = kith(&["generate", "tree", "--fanout", "0", "--out", dir]);
    assert!(!ok && out.contains("--fanout"), "{out}");
}
