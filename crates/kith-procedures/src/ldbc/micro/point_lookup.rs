//! S4 point lookup: one person's own properties, by id.

use kith_core::GraphView;

use super::super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["personId", "firstName", "lastName", "gender", "birthday"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "s4.point_lookup",
    description: "S4 point lookup: a person's id, names, gender and birthday (no row if absent)",
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
    let mut out = ResultSet::new(COLUMNS);
    if let Some(person) = g.node_by_id(s.person, p.int("personId")?) {
        let [id, first, last] = s.person_triple(person);
        out.push([
            id,
            first,
            last,
            s.prop(person, s.gender),
            s.date(person, s.birthday),
        ]);
    }
    Ok(out)
}
