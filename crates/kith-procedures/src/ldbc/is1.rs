//! IS1: a person's profile.

use kith_core::{GraphView, Value};

use super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &[
    "firstName",
    "lastName",
    "birthday",
    "locationIP",
    "browserUsed",
    "cityId",
    "gender",
    "creationDate",
];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.is1",
    description: "LDBC IS1: a person's profile and city",
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
    let person = s.person(p.int("personId")?)?;
    let city = s
        .one_out(person, s.is_located_in)
        .map_or(Value::Null, |c| Value::Int(s.ext_id(c)));
    let mut out = ResultSet::new(COLUMNS);
    out.push([
        s.prop(person, s.first_name),
        s.prop(person, s.last_name),
        s.date(person, s.birthday),
        s.prop(person, s.location_ip),
        s.prop(person, s.browser_used),
        city,
        s.prop(person, s.gender),
        s.date(person, s.creation_date),
    ]);
    Ok(out)
}
