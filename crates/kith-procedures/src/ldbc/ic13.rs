//! IC13: the length of the shortest KNOWS path between two persons.

use kith_core::{GraphView, NodeId, Value};
use rustc_hash::FxHashMap;

use super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["shortestPathLength"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.ic13",
    description: "LDBC IC13: shortest KNOWS path length (-1 when there is none)",
    params: &[
        ParamSpec::required("person1Id", ParamType::Int, "one person"),
        ParamSpec::required("person2Id", ParamType::Int, "the other"),
    ],
    columns: COLUMNS,
    run,
};

/// Breadth-first from both ends, always growing the smaller frontier; `None` when the
/// two are not connected.
pub(crate) fn shortest_length(s: &Ldbc<'_>, a: NodeId, b: NodeId) -> Option<i64> {
    if a == b {
        return Some(0);
    }
    // side: 0 = reached from a, 1 = from b; with the distance from that end.
    let mut seen: FxHashMap<NodeId, (u8, i64)> = FxHashMap::default();
    seen.insert(a, (0, 0));
    seen.insert(b, (1, 0));
    let mut frontiers = [vec![a], vec![b]];
    let mut depth = [0i64, 0];
    while !frontiers[0].is_empty() && !frontiers[1].is_empty() {
        let side = usize::from(frontiers[1].len() < frontiers[0].len());
        depth[side] += 1;
        let mut next = Vec::new();
        let mut best: Option<i64> = None;
        for &n in &frontiers[side] {
            for e in s.friends(n) {
                match seen.get(&e.node) {
                    Some(&(other, d)) if usize::from(other) != side => {
                        let total = depth[side] + d;
                        best = Some(best.map_or(total, |b| b.min(total)));
                    }
                    Some(_) => {}
                    None => {
                        seen.insert(e.node, (side as u8, depth[side]));
                        next.push(e.node);
                    }
                }
            }
        }
        if best.is_some() {
            return best;
        }
        frontiers[side] = next;
    }
    None
}

/// The shortest KNOWS path length between the persons with these ids: -1 when there
/// is none, and when either person does not exist (the official test parameters
/// include such a pair: no path, not an error).
pub(crate) fn length_between(s: &Ldbc<'_>, person1: i64, person2: i64) -> i64 {
    let a = s.g.node_by_id(s.person, person1);
    let b = s.g.node_by_id(s.person, person2);
    match (a, b) {
        (Some(a), Some(b)) => shortest_length(s, a, b).unwrap_or(-1),
        _ => -1,
    }
}

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let length = length_between(&s, p.int("person1Id")?, p.int("person2Id")?);
    let mut out = ResultSet::new(COLUMNS);
    out.push([Value::Int(length)]);
    Ok(out)
}
