//! Shortest paths searched from both ends equal those of the one-sided search, path for
//! path and in the same order, on pseudo-random multigraphs (self-loops and parallel
//! relationships included) in every direction, over one type or two or any, and with
//! length bounds.
//!
//! The engine searches a pair from both ends when its start node differs from the
//! previous row's, and shares one search from the start between consecutive rows with
//! the same start: the query below asks each pair twice in a row, so the second row
//! answers from the one-sided search and must equal the first.

use kith_core::write_op::{NodeRef, WriteOp};
use kith_core::Value;
use kith_cypher::{Engine, Limits};
use kith_storage::{Snapshot, Store, WriteBatch};

/// A small deterministic generator (64-bit LCG, high bits).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % bound
    }
}

fn graph(seed: u64, nodes: u64, rels: u64) -> Store {
    let mut rng = Lcg(seed);
    let mut ops = Vec::new();
    for i in 0..nodes {
        ops.push(WriteOp::CreateNode {
            labels: vec!["N".into()],
            properties: vec![("id".into(), Value::Int(i as i64))],
        });
    }
    for _ in 0..rels {
        let (src, dst) = (rng.next(nodes) as usize, rng.next(nodes) as usize);
        let t = if rng.next(3) == 0 { "B" } else { "A" };
        ops.push(WriteOp::CreateRel {
            rel_type: t.into(),
            src: NodeRef::Created(src),
            dst: NodeRef::Created(dst),
            properties: Vec::new(),
        });
    }
    let store = Store::new(Snapshot::default());
    store.apply(&WriteBatch { ops }).expect("the graph applies");
    store
}

#[test]
fn both_ends_equal_one_end() {
    let engine = Engine::default();
    let mut rng = Lcg(7);
    let mut compared = 0;
    for (seed, nodes, rels) in [(1, 12, 14), (2, 30, 45), (3, 40, 100), (4, 25, 25)] {
        let store = graph(seed, nodes, rels);
        let snapshot = store.snapshot();
        for shape in [
            "-[*]-",
            "-[*]->",
            "<-[*]-",
            "-[:A*]-",
            "-[:A*]->",
            "-[:A|B*]->",
            "-[*..3]-",
            "-[*1..2]->",
            "-[*0..]-",
            "-[:B*..4]-",
        ] {
            for kind in ["shortestPath", "allShortestPaths"] {
                let text = format!(
                    "UNWIND [1, 2] AS i MATCH (a:N {{id: $a}}), (b:N {{id: $b}}) \
                     MATCH p = {kind}((a){shape}(b)) \
                     RETURN i, [n IN nodes(p) | n.id], [r IN relationships(p) | id(r)]"
                );
                for _ in 0..12 {
                    let (a, b) = (rng.next(nodes) as i64, rng.next(nodes) as i64);
                    if a == b {
                        continue;
                    }
                    let params = [
                        ("a".to_owned(), Value::Int(a)),
                        ("b".to_owned(), Value::Int(b)),
                    ];
                    let rows = engine
                        .query(&*snapshot, &text, &params, &Limits::default())
                        .unwrap_or_else(|e| panic!("{}", e.render(&text)))
                        .rows;
                    let half = |i: i64| -> Vec<Vec<Value>> {
                        rows.iter()
                            .filter(|r| r[0] == Value::Int(i))
                            .map(|r| r[1..].to_vec())
                            .collect()
                    };
                    assert_eq!(
                        half(1),
                        half(2),
                        "{kind} {shape} from {a} to {b} (seed {seed})"
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 500, "{compared} pairs compared");
}
