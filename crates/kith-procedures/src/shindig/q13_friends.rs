//! Q13: the friends of a person.

use kith_core::GraphView;

use super::rows::PERSON_COLUMNS;
use super::schema::Shindig;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shindig.friends",
    description: "A person's friends, by id",
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
    let mut out = ResultSet::new(PERSON_COLUMNS);
    s.push_person_rows(&mut out, s.friends(person).iter().map(|e| e.node));
    Ok(out)
}
