//! Q10: a profile page — the person's properties with addresses and organisations.

use kith_core::GraphView;

use super::rows::PROFILE_COLUMNS;
use super::schema::Shindig;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shindig.profile",
    description: "A person's profile: properties, addresses and organisations",
    params: &[ParamSpec::required(
        "person_id",
        ParamType::Int,
        "the person",
    )],
    columns: PROFILE_COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Shindig::resolve(g)?;
    let person = s.person(p.int("person_id")?)?;
    let mut out = ResultSet::new(PROFILE_COLUMNS);
    out.push(s.profile_row(&s.profile_keys(), person));
    Ok(out)
}
