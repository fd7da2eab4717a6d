//! Q11: profiles of several people at once.

use kith_core::GraphView;

use super::rows::PROFILE_COLUMNS;
use super::schema::Shindig;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shindig.profiles",
    description: "Profiles of several people, in the order given",
    params: &[ParamSpec::required(
        "person_ids",
        ParamType::IntList,
        "the people",
    )],
    columns: PROFILE_COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Shindig::resolve(g)?;
    let people = p.int_list("person_ids")?;
    let nodes = s.people(&people)?;
    let keys = s.profile_keys();
    let mut out = ResultSet::new(PROFILE_COLUMNS);
    out.reserve_rows(nodes.len());
    for person in nodes {
        out.push(s.profile_row(&keys, person));
    }
    Ok(out)
}
