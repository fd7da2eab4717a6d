//! IC6: the tags that co-occur with a given tag on posts of friends and friends of
//! friends.

use kith_core::{GraphView, NodeId, Value};
use rustc_hash::FxHashMap;

use super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["tagName", "postCount"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.ic6",
    description: "LDBC IC6: tags co-occurring with tagName on posts of friends within 2 steps",
    params: &[
        ParamSpec::required("personId", ParamType::Int, "the start person"),
        ParamSpec::required("tagName", ParamType::String, "the given tag"),
    ],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let person = s.person(p.int("personId")?)?;
    let mut out = ResultSet::new(COLUMNS);
    let Some(tag) = s.tag_named(p.string("tagName")?) else {
        return Ok(out);
    };
    let mut counts: FxHashMap<NodeId, i64> = FxHashMap::default();
    for (other, _) in s.within_two(person) {
        for e in s.posts_among(other) {
            if !g.has_label(e.node, s.post) {
                continue;
            }
            let tags = s.out(e.node, s.has_tag);
            if !tags.iter().any(|t| t.node == tag) {
                continue;
            }
            for t in tags.iter().filter(|t| t.node != tag) {
                *counts.entry(t.node).or_default() += 1;
            }
        }
    }
    let rows: Vec<(i64, kith_core::Str)> = counts
        .into_iter()
        .map(|(t, n)| (n, s.text(t, s.name)))
        .collect();
    for (n, name) in super::top_k(rows, 10, |a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1))) {
        out.push([Value::String(name), Value::Int(n)]);
    }
    Ok(out)
}
