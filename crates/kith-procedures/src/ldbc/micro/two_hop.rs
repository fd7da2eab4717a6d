//! S4 two hops: the persons a person reaches through exactly two KNOWS steps.

use kith_core::GraphView;

use super::super::schema::Ldbc;
use crate::visited::Visited;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["personId"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "s4.two_hop",
    description: "S4 two hops: distinct ids of friends' friends other than the person, ascending \
                  (a friend who is also a friend's friend is one)",
    params: &[ParamSpec::required(
        "personId",
        ParamType::Int,
        "the person",
    )],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let mut ids = Vec::new();
    if let Some(person) = g.node_by_id(s.person, p.int("personId")?) {
        // Marked from the start so it is never its own friend's friend.
        let mut seen = Visited::new(g.node_id_bound());
        seen.insert(person);
        for friend in s.friend_lists(person).into_iter().flatten() {
            for e in s.friend_lists(friend.node).into_iter().flatten() {
                if seen.insert(e.node) {
                    ids.push(s.ext_id(e.node));
                }
            }
        }
    }
    Ok(super::ascending_ids(COLUMNS, ids))
}
