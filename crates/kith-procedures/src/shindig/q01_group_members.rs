//! Q1: the people of a group.

use kith_core::{Direction, GraphView};

use super::rows::PERSON_COLUMNS;
use super::schema::Shindig;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shindig.group_members",
    description: "People who are members of a group, by id",
    params: &[ParamSpec::required("group_id", ParamType::Int, "the group")],
    columns: PERSON_COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Shindig::resolve(g)?;
    let group = s.group(p.int("group_id")?)?;
    let members = g
        .neighbors(group, s.member_of, Direction::In)
        .iter()
        .map(|e| e.node);
    let mut out = ResultSet::new(PERSON_COLUMNS);
    s.push_person_rows(&mut out, members);
    Ok(out)
}
