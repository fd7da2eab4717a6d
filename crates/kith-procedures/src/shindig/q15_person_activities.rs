//! Q15: a person's own activities, newest first.

use kith_core::{Direction, GraphView};

use super::rows::ACTIVITY_COLUMNS;
use super::schema::Shindig;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shindig.person_activities",
    description: "A person's activities, newest first",
    params: &[
        ParamSpec::required("person_id", ParamType::Int, "the person"),
        ParamSpec::optional("limit", 0, "most rows to return; 0 for all"),
    ],
    columns: ACTIVITY_COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Shindig::resolve(g)?;
    let person = s.person(p.int("person_id")?)?;
    let limit = p.limit("limit")?;
    let mut out = ResultSet::new(ACTIVITY_COLUMNS);
    let own = g
        .neighbors(person, s.performed, Direction::Out)
        .iter()
        .map(|e| e.node);
    for activity in s.newest_first(own).into_iter().take(limit) {
        out.push(s.activity_row(activity));
    }
    Ok(out)
}
