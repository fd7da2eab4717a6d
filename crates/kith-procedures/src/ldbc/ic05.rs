//! IC5: forums that friends and friends of friends joined after a date, by how many
//! posts those members wrote there.

use kith_core::{GraphView, NodeId, Value};
use rustc_hash::{FxHashMap, FxHashSet};

use super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["forumTitle", "postCount"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.ic5",
    description: "LDBC IC5: forums joined after minDate by friends within 2 steps, by their posts",
    params: &[
        ParamSpec::required("personId", ParamType::Int, "the start person"),
        ParamSpec::required("minDate", ParamType::Int, "epoch milliseconds, exclusive"),
    ],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let person = s.person(p.int("personId")?)?;
    let min_date = p.int("minDate")?;
    let others = s.within_two(person);
    let counts = forum_counts(&s, others.iter().map(|(n, _)| *n), min_date);
    let rows: Vec<(i64, i64, NodeId)> = counts
        .into_iter()
        .map(|(f, n)| (n, s.ext_id(f), f))
        .collect();
    let mut out = ResultSet::new(COLUMNS);
    for (n, _, f) in super::top_k(rows, 20, |a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1))) {
        out.push([s.prop(f, s.title), Value::Int(n)]);
    }
    Ok(out)
}

/// Per forum that one of `persons` joined after `min_date` (with zero posts if need
/// be), the posts in it of its new members among them (IC5 here and on each forum
/// shard).
pub(crate) fn forum_counts(
    s: &Ldbc<'_>,
    persons: impl Iterator<Item = NodeId>,
    min_date: i64,
) -> FxHashMap<NodeId, i64> {
    let mut counts: FxHashMap<NodeId, i64> = FxHashMap::default();
    let mut joined: FxHashSet<NodeId> = FxHashSet::default();
    for other in persons {
        joined.clear();
        for e in s.inc(other, s.has_member) {
            if s.rel_int(e.rel, s.join_date) > min_date {
                joined.insert(e.node);
                counts.entry(e.node).or_default();
            }
        }
        if joined.is_empty() {
            continue;
        }
        for e in s.posts_among(other) {
            if !s.g.has_label(e.node, s.post) {
                continue;
            }
            if let Some(forum) = s.inc(e.node, s.container_of).first() {
                if joined.contains(&forum.node) {
                    *counts.entry(forum.node).or_default() += 1;
                }
            }
        }
    }
    counts
}
