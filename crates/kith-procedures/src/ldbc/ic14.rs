//! IC14: every shortest KNOWS path between two persons, weighted by how much
//! consecutive persons replied to each other.

use kith_core::{GraphView, NodeId, Value};
use rustc_hash::FxHashMap;

use super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["personIdsInPath", "pathWeight"];

/// Shortest paths enumerated at most; beyond it the call fails rather than exhaust
/// memory on a pathological graph.
const PATHS_MAX: usize = 100_000;

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.ic14",
    description: "LDBC IC14: all shortest KNOWS paths with interaction weights, heaviest first",
    params: &[
        ParamSpec::required("person1Id", ParamType::Int, "the path's start"),
        ParamSpec::required("person2Id", ParamType::Int, "the path's end"),
    ],
    columns: COLUMNS,
    run,
};

/// The weight of one step: 1.0 per comment of one replying to a post of the other,
/// 0.5 per comment replying to a comment of the other, both ways.
pub(crate) fn pair_weight(s: &Ldbc<'_>, g: &dyn GraphView, a: NodeId, b: NodeId) -> f64 {
    let one_way = |from: NodeId, to: NodeId| -> f64 {
        let mut w = 0.0;
        for c in s.inc(from, s.has_creator) {
            if !g.has_label(c.node, s.comment) {
                continue;
            }
            let Some(parent) = s.one_out(c.node, s.reply_of) else {
                continue;
            };
            if s.creator(parent) != Some(to) {
                continue;
            }
            w += if g.has_label(parent, s.post) {
                1.0
            } else {
                0.5
            };
        }
        w
    };
    one_way(a, b) + one_way(b, a)
}

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let a = s.person(p.int("person1Id")?)?;
    let b = s.person(p.int("person2Id")?)?;
    let mut out = ResultSet::new(COLUMNS);
    // Distances from a, level by level, until the level that reaches b.
    let mut dist: FxHashMap<NodeId, u32> = FxHashMap::default();
    dist.insert(a, 0);
    let mut frontier = vec![a];
    let mut level = 0;
    while !dist.contains_key(&b) && !frontier.is_empty() {
        level += 1;
        let mut next = Vec::new();
        for &n in &frontier {
            for e in s.friends(n) {
                if let std::collections::hash_map::Entry::Vacant(v) = dist.entry(e.node) {
                    v.insert(level);
                    next.push(e.node);
                }
            }
        }
        frontier = next;
    }
    if !dist.contains_key(&b) {
        return Ok(out);
    }
    // Walk back from b through neighbours one step nearer to a.
    let mut paths: Vec<Vec<NodeId>> = Vec::new();
    let mut stack: Vec<Vec<NodeId>> = vec![vec![b]];
    while let Some(path) = stack.pop() {
        let last = *path.last().expect("paths are never empty");
        let d = dist[&last];
        if d == 0 {
            let mut path = path;
            path.reverse();
            paths.push(path);
            if paths.len() > PATHS_MAX {
                return Err(ProcedureError::ParameterOutOfRange {
                    procedure: "ldbc.ic14".into(),
                    parameter: "person2Id".into(),
                    reason: format!(
                        "is joined to person1Id by more than {PATHS_MAX} shortest paths"
                    ),
                });
            }
            continue;
        }
        for e in s.friends(last) {
            if dist.get(&e.node) == Some(&(d - 1)) {
                let mut longer = path.clone();
                longer.push(e.node);
                stack.push(longer);
            }
        }
    }
    let mut weights: FxHashMap<(NodeId, NodeId), f64> = FxHashMap::default();
    let mut rows: Vec<(f64, Vec<i64>)> = paths
        .iter()
        .map(|path| {
            let weight = path
                .windows(2)
                .map(|w| {
                    let key = (w[0].min(w[1]), w[0].max(w[1]));
                    *weights
                        .entry(key)
                        .or_insert_with(|| pair_weight(&s, g, key.0, key.1))
                })
                .sum();
            (weight, path.iter().map(|n| s.ext_id(*n)).collect())
        })
        .collect();
    // Heaviest first; the specification leaves equal weights unordered, so the ids
    // decide, for reproducible answers.
    rows.sort_by(|x, y| y.0.total_cmp(&x.0).then_with(|| x.1.cmp(&y.1)));
    for (weight, ids) in rows {
        out.push([
            Value::List(ids.into_iter().map(Value::Int).collect()),
            Value::Float(weight),
        ]);
    }
    Ok(out)
}
