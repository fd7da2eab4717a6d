//! Q3: friend recommendations — friends of friends who are not yet friends, ranked by
//! the number of friends in common.

use kith_core::{GraphView, NodeId, Value};
use rustc_hash::FxHashMap;

use super::schema::Shindig;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["id", "displayName", "commonFriends"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shindig.friend_recommendations",
    description: "Friends of friends who are not friends, most friends in common first",
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
    let friends = s.friends(person);
    let is_friend = |n: NodeId| friends.binary_search_by_key(&n, |e| e.node).is_ok();
    let mut common: FxHashMap<NodeId, u32> = FxHashMap::default();
    for friend in friends {
        for candidate in s.friends(friend.node) {
            let c = candidate.node;
            if c != person && !is_friend(c) {
                *common.entry(c).or_insert(0) += 1;
            }
        }
    }
    let mut ranked: Vec<(u32, i64, NodeId)> = common
        .into_iter()
        .map(|(n, count)| (count, s.ext_id(n), n))
        .collect();
    let order = |a: &(u32, i64, NodeId), b: &(u32, i64, NodeId)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
    if limit < ranked.len() {
        ranked.select_nth_unstable_by(limit, order);
        ranked.truncate(limit);
    }
    ranked.sort_unstable_by(order);
    let mut out = ResultSet::new(COLUMNS);
    for (count, id, n) in ranked {
        out.push([
            Value::Int(id),
            s.prop(n, s.display_name),
            Value::Int(i64::from(count)),
        ]);
    }
    Ok(out)
}
