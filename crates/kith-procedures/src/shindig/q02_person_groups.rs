//! Q2: the groups of a person.

use kith_core::{GraphView, Value};

use super::schema::Shindig;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["id", "title"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shindig.person_groups",
    description: "Groups a person is a member of, by id",
    params: &[ParamSpec::required(
        "person_id",
        ParamType::Int,
        "the person",
    )],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Shindig::resolve(g)?;
    let person = s.person(p.int("person_id")?)?;
    let mut out = ResultSet::new(COLUMNS);
    for (id, group) in s.targets_by_ext_id(person, s.member_of) {
        out.push([Value::Int(id), s.prop(group, s.title)]);
    }
    Ok(out)
}
