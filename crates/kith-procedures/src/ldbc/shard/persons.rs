//! `shard.persons` (person shard): the names of persons a forum shard knows only by id.

use kith_core::GraphView;

use super::super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["personId", "firstName", "lastName"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shard.persons",
    description: "S5 person shard: id, first and last name of each person asked for (unknown ids are left out)",
    params: &[ParamSpec::required("ids", ParamType::IntList, "person ids").long_list()],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let mut out = ResultSet::new(COLUMNS);
    for id in p.int_list("ids")? {
        if let Some(n) = g.node_by_id(s.person, id) {
            out.push(s.person_triple(n));
        }
    }
    Ok(out)
}
