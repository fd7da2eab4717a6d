//! Q14: one activity of a person, by id.

use kith_core::{Direction, GraphView};

use super::rows::ACTIVITY_COLUMNS;
use super::schema::Shindig;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shindig.activity",
    description: "One activity, if the person performed it",
    params: &[
        ParamSpec::required("person_id", ParamType::Int, "the person"),
        ParamSpec::required("activity_id", ParamType::Int, "the activity"),
    ],
    columns: ACTIVITY_COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Shindig::resolve(g)?;
    let person = s.person(p.int("person_id")?)?;
    let activity = s.activity(p.int("activity_id")?)?;
    let mut out = ResultSet::new(ACTIVITY_COLUMNS);
    let own = g.neighbors(activity, s.performed, Direction::In);
    if own.iter().any(|e| e.node == person) {
        out.push(s.activity_row(activity));
    }
    Ok(out)
}
