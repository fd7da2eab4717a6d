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
    // Every forum some other person joined after minDate counts, with zero posts if
    // need be; a post counts when its creator is one of the forum's new members.
    let mut counts: FxHashMap<NodeId, i64> = FxHashMap::default();
    let mut joined: FxHashSet<NodeId> = FxHashSet::default();
    for (other, _) in s.within_two(person) {
        joined.clear();
        for e in s.inc(other, s.has_member) {
            let join_date = s.rel_int(e.rel, s.join_date);
            if join_date > min_date {
                joined.insert(e.node);
                counts.entry(e.node).or_default();
            }
        }
        if joined.is_empty() {
            continue;
        }
        for e in s.posts_among(other) {
            if !g.has_label(e.node, s.post) {
                continue;
            }
            if let Some(forum) = s.inc(e.node, s.container_of).first() {
                if joined.contains(&forum.node) {
                    *counts.entry(forum.node).or_default() += 1;
                }
            }
        }
    }
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
