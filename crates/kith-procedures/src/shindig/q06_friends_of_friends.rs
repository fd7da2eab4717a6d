//! Q6: friends of friends (two levels), excluding direct friends.

use kith_core::{GraphView, NodeId};

use super::rows::PERSON_COLUMNS;
use super::schema::Shindig;
use crate::visited::Visited;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shindig.friends_of_friends",
    description: "People exactly two friendships away",
    params: &[ParamSpec::required(
        "person_id",
        ParamType::Int,
        "the person",
    )],
    columns: PERSON_COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Shindig::resolve(g)?;
    let person = s.person(p.int("person_id")?)?;
    let friends = s.friends(person);
    let mut visited = Visited::new(g.node_id_bound());
    visited.insert(person);
    for f in friends {
        visited.insert(f.node);
    }
    let mut found: Vec<NodeId> = Vec::new();
    for f in friends {
        for ff in s.friends(f.node) {
            if visited.insert(ff.node) {
                found.push(ff.node);
            }
        }
    }
    let mut out = ResultSet::new(PERSON_COLUMNS);
    s.push_person_rows(&mut out, found.into_iter());
    Ok(out)
}
