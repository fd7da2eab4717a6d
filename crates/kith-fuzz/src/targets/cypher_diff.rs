//! Cypher's optimised plans against the plainest ones: a small graph and a query
//! drawn from the input, run both ways, must give the same rows.

use arbitrary::{Arbitrary, Unstructured};
use kith_core::Value;
use kith_cypher::planner::PlanMode;
use kith_cypher::procedures::ProcedureSet;
use kith_cypher::{CypherError, ErrorCode, Limits, NoProcedures, Prepared};
use kith_storage::{NodeRef, Snapshot, Store, WriteBatch, WriteOp};

const LABELS: [&str; 3] = ["A", "B", "C"];
const TYPES: [&str; 2] = ["R", "S"];

#[derive(Arbitrary, Debug)]
struct GNode {
    labels: u8,
    id: u8,
    v: Option<u8>,
}

#[derive(Arbitrary, Debug)]
struct GRel {
    src: u8,
    dst: u8,
    second_type: bool,
}

/// Runs the query both ways; the rows, as multisets (a query without ORDER BY has
/// no order), must be equal, and so must the error, if any.
pub fn cypher_diff(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(graph) = graph(&mut u) else { return };
    let Ok(query) = query(&mut u) else { return };
    let procs = ProcedureSet(std::sync::Arc::new(NoProcedures));
    let run = |mode| {
        let prepared = Prepared::with_plan_mode(&query, &procs, mode)?;
        // A naive plan's cartesian products grow fast: a low bound on what an
        // operator holds and a time limit (rows that only stream through are not
        // counted) keep each run short (either reached is skipped below), and a tiny
        // graph's answers stay far under them.
        let limits = Limits {
            rows_max: 2_000,
            result_rows_max: 2_000,
            timeout: Some(std::time::Duration::from_millis(500)),
            ..Limits::default()
        };
        let result = kith_cypher::run(&graph, &prepared, &[], &limits)?;
        let mut rows: Vec<String> = result.rows.iter().map(|r| format!("{r:?}")).collect();
        rows.sort();
        Ok::<_, CypherError>(rows)
    };
    let optimised = run(PlanMode::Optimised);
    let naive = run(PlanMode::Naive);
    // The naive plan may hold far more rows on the way (a cartesian product where the
    // optimised one expands): a limit reached is no answer to compare.
    let limited = |r: &Result<Vec<String>, CypherError>| {
        r.as_ref()
            .is_err_and(|e| matches!(e.code, ErrorCode::LimitExceeded | ErrorCode::Timeout))
    };
    if limited(&optimised) || limited(&naive) {
        return;
    }
    let message = |r: Result<Vec<String>, CypherError>| r.map_err(|e| e.message);
    assert_eq!(
        message(optimised),
        message(naive),
        "the plans disagree on {query}"
    );
}

/// Up to 8 nodes with labels, an `id` and perhaps a `v`, and up to 16 relationships.
fn graph(u: &mut Unstructured<'_>) -> arbitrary::Result<Snapshot> {
    let nodes: Vec<GNode> = (0..u.int_in_range(1..=8)?)
        .map(|_| u.arbitrary())
        .collect::<arbitrary::Result<_>>()?;
    let rels: Vec<GRel> = (0..u.int_in_range(0..=16)?)
        .map(|_| u.arbitrary())
        .collect::<arbitrary::Result<_>>()?;
    let mut batch = WriteBatch::new();
    for n in &nodes {
        let labels = (0..3)
            .filter(|i| n.labels & (1 << i) != 0)
            .map(|i| LABELS[i].into())
            .collect();
        let mut properties = vec![("id".into(), Value::Int(i64::from(n.id % 6)))];
        if let Some(v) = n.v {
            properties.push(("v".into(), Value::Int(i64::from(v % 3))));
        }
        batch.push(WriteOp::CreateNode { labels, properties });
    }
    for r in &rels {
        batch.push(WriteOp::CreateRel {
            rel_type: TYPES[usize::from(r.second_type)].into(),
            src: NodeRef::Created(usize::from(r.src) % nodes.len()),
            dst: NodeRef::Created(usize::from(r.dst) % nodes.len()),
            properties: Vec::new(),
        });
    }
    let store = Store::new(Snapshot::empty());
    // Ids may repeat under a label: such a graph is refused, and the input skipped.
    store
        .apply(&batch)
        .map_err(|_| arbitrary::Error::IncorrectFormat)?;
    Ok(Snapshot::clone(&store.snapshot()))
}

/// The query's text: one or two MATCH clauses (the second perhaps OPTIONAL), each
/// with a WHERE perhaps, the first perhaps naming its path, perhaps a shortest path
/// between two bound nodes; returning every node variable's identity, the paths'
/// lengths (or a count).
fn query(u: &mut Unstructured<'_>) -> arbitrary::Result<String> {
    let mut q = Query::default();
    let mut text = String::new();
    let mut extra = Vec::new();
    for i in 0..u.int_in_range(1..=2)? {
        if i > 0 && u.arbitrary()? {
            text.push_str("OPTIONAL ");
        }
        text.push_str("MATCH ");
        if i == 0 && u.ratio(1, 3)? {
            text.push_str("p0 = ");
            extra.push("length(p0) AS lp0".to_string());
        }
        text.push_str(&q.pattern(u)?);
        if u.ratio(2, 3)? {
            text.push_str(" WHERE ");
            text.push_str(&q.predicate(u, 2)?);
        }
        text.push(' ');
    }
    // Between two different variables: a shortest path from a node to itself is an
    // error (as in Neo4j), which both plans would give alike.
    if q.nodes.len() >= 2 && u.ratio(1, 4)? {
        let i = usize::from(u.int_in_range(0..=3u8)?) % q.nodes.len();
        let j = (i + 1 + usize::from(u.int_in_range(0..=2u8)?)) % q.nodes.len();
        let (a, b) = (q.nodes[i].clone(), q.nodes[j].clone());
        let all = if u.arbitrary()? {
            "allShortestPaths"
        } else {
            "shortestPath"
        };
        text.push_str(&format!("MATCH sp = {all}(({a})-[:R|S*1..3]-({b})) "));
        extra.push("length(sp) AS lsp".to_string());
    }
    let mut items: Vec<String> = q.nodes.iter().map(|n| format!("id({n}) AS {n}")).collect();
    items.extend(extra);
    match u.int_in_range(0..=2)? {
        0 => text.push_str("RETURN count(*) AS c"),
        1 => text.push_str(&format!("RETURN DISTINCT {}", items.join(", "))),
        _ => text.push_str(&format!("RETURN {}", items.join(", "))),
    }
    Ok(text)
}

/// The variables a query has bound so far.
#[derive(Default)]
struct Query {
    nodes: Vec<String>,
    rels: usize,
}

impl Query {
    /// A chain of one to three nodes, perhaps two chains.
    fn pattern(&mut self, u: &mut Unstructured<'_>) -> arbitrary::Result<String> {
        let mut out = self.chain(u)?;
        if u.ratio(1, 4)? {
            out.push_str(", ");
            out.push_str(&self.chain(u)?);
        }
        Ok(out)
    }

    fn chain(&mut self, u: &mut Unstructured<'_>) -> arbitrary::Result<String> {
        let mut out = self.node(u)?;
        for _ in 0..u.int_in_range(0..=2)? {
            out.push_str(&self.rel(u)?);
            out.push_str(&self.node(u)?);
        }
        Ok(out)
    }

    /// `(n1:A {v: 1})`: a new variable or one already bound.
    fn node(&mut self, u: &mut Unstructured<'_>) -> arbitrary::Result<String> {
        let name = match u.int_in_range(0..=3u8)? {
            i if i < self.nodes.len() as u8 => self.nodes[usize::from(i)].clone(),
            _ if self.nodes.len() < 4 => {
                let name = format!("n{}", self.nodes.len());
                self.nodes.push(name.clone());
                name
            }
            _ => self.nodes[0].clone(),
        };
        let label = match u.int_in_range(0..=4u8)? {
            i @ 0..=2 => format!(":{}", LABELS[usize::from(i)]),
            _ => String::new(),
        };
        let props = match u.int_in_range(0..=5)? {
            0 => format!(" {{id: {}}}", u.int_in_range(0..=5)?),
            1 => format!(" {{v: {}}}", u.int_in_range(0..=2)?),
            _ => String::new(),
        };
        Ok(format!("({name}{label}{props})"))
    }

    /// `-[r0:R]->`, `<-[:S*1..2]-`, `-[]-`...
    fn rel(&mut self, u: &mut Unstructured<'_>) -> arbitrary::Result<String> {
        let var_length = u.ratio(1, 5)?;
        let name = if !var_length && u.arbitrary()? {
            self.rels += 1;
            format!("r{}", self.rels)
        } else {
            String::new()
        };
        let types = match u.int_in_range(0..=3)? {
            0 => ":R",
            1 => ":S",
            2 => ":R|S",
            _ => "",
        };
        let length = if var_length { "*1..2" } else { "" };
        let inner = format!("[{name}{types}{length}]");
        Ok(match u.int_in_range(0..=2)? {
            0 => format!("-{inner}->"),
            1 => format!("<-{inner}-"),
            _ => format!("-{inner}-"),
        })
    }

    /// A predicate over the bound node variables.
    fn predicate(&self, u: &mut Unstructured<'_>, depth: u8) -> arbitrary::Result<String> {
        let pick = |u: &mut Unstructured<'_>| -> arbitrary::Result<String> {
            Ok(self.nodes[usize::from(u.int_in_range(0..=3u8)?) % self.nodes.len()].clone())
        };
        let choice = if depth == 0 {
            u.int_in_range(0..=4)?
        } else {
            u.int_in_range(0..=7)?
        };
        Ok(match choice {
            0 => format!("{}.v = {}", pick(u)?, u.int_in_range(0..=2)?),
            1 => format!("{}.id < {}", pick(u)?, u.int_in_range(0..=5)?),
            2 => format!("{}.v = {}.v", pick(u)?, pick(u)?),
            3 => format!(
                "{}.id IN [{}, {}]",
                pick(u)?,
                u.int_in_range(0..=5)?,
                u.int_in_range(0..=5)?
            ),
            4 => format!("({})-[:R]->({})", pick(u)?, pick(u)?),
            5 => format!("NOT ({})", self.predicate(u, depth - 1)?),
            6 => format!(
                "({}) OR ({})",
                self.predicate(u, depth - 1)?,
                self.predicate(u, depth - 1)?
            ),
            _ => format!(
                "({}) AND ({})",
                self.predicate(u, depth - 1)?,
                self.predicate(u, depth - 1)?
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oracle is only as strong as its queries: every one must plan, and many
    /// must run and find rows.
    #[test]
    fn most_generated_queries_run_and_answer_rows() {
        let procs = ProcedureSet(std::sync::Arc::new(NoProcedures));
        let (mut tried, mut answered) = (0, 0);
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..300 {
            let data: Vec<u8> = (0..400)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state as u8
                })
                .collect();
            let mut u = Unstructured::new(&data);
            let (Ok(graph), Ok(query)) = (graph(&mut u), query(&mut u)) else {
                continue;
            };
            tried += 1;
            let prepared = Prepared::with_plan_mode(&query, &procs, PlanMode::Optimised)
                .unwrap_or_else(|e| panic!("a generated query does not plan: {query}: {e:?}"));
            let limits = Limits::default();
            if kith_cypher::run(&graph, &prepared, &[], &limits).is_ok_and(|r| !r.rows.is_empty()) {
                answered += 1;
            }
        }
        assert!(
            tried >= 100,
            "only {tried} of 300 inputs made a graph and a query"
        );
        // About half do (tiny graphs, label and property filters); a third is the bound.
        assert!(
            answered * 3 >= tried,
            "only {answered} of {tried} queries answered rows"
        );
    }
}
