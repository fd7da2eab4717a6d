//! Q4: group recommendations — groups the person's friends are in and the person is
//! not, ranked by the number of friends in them.

use kith_core::{Direction, GraphView, NodeId, Value};
use rustc_hash::FxHashMap;

use super::schema::Shindig;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["id", "title", "friendsInGroup"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shindig.group_recommendations",
    description: "Groups of friends the person is not in, most friends first",
    params: &[
        ParamSpec::required("person_id", ParamType::Int, "the person"),
        ParamSpec::optional("limit", 0, "most rows to return; 0 for all"),
    ],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Shindig::resolve(g)?;
    let person = s.person(p.int("person_id")?)?;
    let limit = p.limit("limit")?;
    let own = g.neighbors(person, s.member_of, Direction::Out);
    let is_member = |n: NodeId| own.binary_search_by_key(&n, |e| e.node).is_ok();
    let mut friends_in: FxHashMap<NodeId, u32> = FxHashMap::default();
    for friend in s.friends(person) {
        for membership in g.neighbors(friend.node, s.member_of, Direction::Out) {
            if !is_member(membership.node) {
                *friends_in.entry(membership.node).or_insert(0) += 1;
            }
        }
    }
    let mut ranked: Vec<(u32, i64, NodeId)> = friends_in
        .into_iter()
        .map(|(n, count)| (count, s.ext_id(n), n))
        .collect();
    ranked.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    ranked.truncate(limit);
    let mut out = ResultSet::new(COLUMNS);
    for (count, id, n) in ranked {
        out.push([
            Value::Int(id),
            s.prop(n, s.title),
            Value::Int(i64::from(count)),
        ]);
    }
    Ok(out)
}
