//! S4 one hop: a person's friends (KNOWS in either direction), by id.

use kith_core::GraphView;

use super::super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["friendId"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "s4.one_hop",
    description: "S4 one hop: the ids of a person's friends, ascending",
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
    let ids: Vec<i64> = match g.node_by_id(s.person, p.int("personId")?) {
        Some(person) => s.friends(person).iter().map(|e| s.ext_id(e.node)).collect(),
        None => Vec::new(),
    };
    Ok(super::ascending_ids(COLUMNS, ids))
}
