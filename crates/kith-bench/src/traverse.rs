//! S2's traversal benchmark: count the `B` nodes whose `flag` is true in the tree of
//! `kith generate tree`, from the root, sequentially (S2: 100 warm-up then 100
//! measured requests), in-process: `graph.traverse` depth and breadth first, with
//! and without node uniqueness, and the same question in Cypher. Time and bytes
//! allocated per traversal, medians.

use std::time::Instant;

use kith_core::{GraphView, Value};
use kith_cypher::{Engine, Limits};
use kith_procedures::Registry;

/// S2's question in Cypher: in the tree, `HAS_B|HAS_A` from the root reaches exactly
/// what the label-driven expander does.
pub const CYPHER: &str =
    "MATCH (:A {id: 0})-[:HAS_B|HAS_A*]->(b:B) WHERE b.flag = true RETURN count(b) AS count";

/// What to run.
pub struct Options {
    /// Measured traversals per case.
    pub runs: usize,
    /// Warm-up traversals per case.
    pub warmup: usize,
    /// Also run the Cypher text.
    pub cypher: bool,
}

/// Bytes allocated and allocations made so far in the process (cumulative), from the
/// caller's global allocator.
pub type AllocProbe<'a> = &'a dyn Fn() -> (u64, u64);

/// One case's measurements.
pub struct Case {
    /// `procedure-dfs-none`, `cypher`...
    pub name: String,
    /// The count every run answered.
    pub count: i64,
    /// Milliseconds per traversal, in run order.
    pub millis: Vec<f64>,
    /// Bytes allocated per traversal.
    pub bytes: Vec<u64>,
    /// Allocations per traversal.
    pub allocations: Vec<u64>,
}

/// Runs every case on `graph` (a tree of `kith generate tree`).
pub fn run(
    graph: &dyn GraphView,
    options: &Options,
    alloc: AllocProbe<'_>,
) -> Result<Vec<Case>, String> {
    if graph.label_id("A").is_none() || graph.node_count() == 0 {
        return Err("the data directory holds no tree: make one with `kith generate tree`".into());
    }
    let registry = Registry::with_builtins();
    let mut cases = Vec::new();
    for order in ["dfs", "bfs"] {
        for uniqueness in ["none", "node_global"] {
            let params = procedure_params(order, uniqueness);
            let name = format!("procedure-{order}-{uniqueness}");
            cases.push(measure(&name, options, alloc, || {
                let r = registry
                    .call(graph, "graph.traverse", &params)
                    .map_err(|e| e.to_string())?;
                let count = r.rows().next().and_then(|row| row[0].as_int());
                Ok(count.unwrap_or(-1))
            })?);
        }
    }
    if options.cypher {
        let engine = Engine::default();
        let limits = Limits::default();
        cases.push(measure("cypher", options, alloc, || {
            let r = engine
                .query(graph, CYPHER, &[], &limits)
                .map_err(|e| e.render(CYPHER))?;
            Ok(r.rows[0][0].as_int().unwrap_or(-1))
        })?);
    }
    let counts: Vec<i64> = cases.iter().map(|c| c.count).collect();
    if counts.windows(2).any(|w| w[0] != w[1]) {
        return Err(format!("the cases disagree on the count: {counts:?}"));
    }
    Ok(cases)
}

fn procedure_params(order: &str, uniqueness: &str) -> Vec<(String, Value)> {
    let expand = Value::List(vec![Value::string("A:HAS_B"), Value::string("B:HAS_A")]);
    vec![
        ("start".into(), Value::Int(0)),
        ("expand".into(), expand),
        ("order".into(), Value::string(order)),
        ("uniqueness".into(), Value::string(uniqueness)),
        ("label".into(), Value::string("B")),
        ("key".into(), Value::string("flag")),
        ("value".into(), Value::Bool(true)),
    ]
}

fn measure(
    name: &str,
    options: &Options,
    alloc: AllocProbe<'_>,
    mut traverse: impl FnMut() -> Result<i64, String>,
) -> Result<Case, String> {
    let mut count = traverse()?;
    for _ in 1..options.warmup {
        traverse()?;
    }
    let mut case = Case {
        name: name.to_owned(),
        count,
        millis: Vec::with_capacity(options.runs),
        bytes: Vec::with_capacity(options.runs),
        allocations: Vec::with_capacity(options.runs),
    };
    for _ in 0..options.runs {
        let (bytes, allocations) = alloc();
        let started = Instant::now();
        count = traverse()?;
        case.millis.push(started.elapsed().as_secs_f64() * 1e3);
        let (bytes_after, allocations_after) = alloc();
        case.bytes.push(bytes_after - bytes);
        case.allocations.push(allocations_after - allocations);
        if count != case.count {
            return Err(format!(
                "{name}: the count changed from {} to {count}",
                case.count
            ));
        }
    }
    Ok(case)
}

/// The cases as a Markdown table: median and p99 time, median bytes and allocations.
pub fn markdown(cases: &[Case]) -> String {
    let mut out = String::from(
        "| case | count | median ms | p99 ms | bytes allocated | allocations |\n|---|---:|---:|---:|---:|---:|\n",
    );
    for c in cases {
        let ms = sorted(c.millis.clone());
        let bytes = sorted(c.bytes.iter().map(|b| *b as f64).collect());
        let allocs = sorted(c.allocations.iter().map(|a| *a as f64).collect());
        out.push_str(&format!(
            "| {} | {} | {:.2} | {:.2} | {:.0} | {:.0} |\n",
            c.name,
            c.count,
            quantile(&ms, 0.5),
            quantile(&ms, 0.99),
            quantile(&bytes, 0.5),
            quantile(&allocs, 0.5),
        ));
    }
    out
}

fn sorted(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(f64::total_cmp);
    v
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let at = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[at]
}
