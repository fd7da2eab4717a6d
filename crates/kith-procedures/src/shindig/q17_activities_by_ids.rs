//! Q17: a list of given activities of a person.

use kith_core::{Direction, GraphView};

use super::rows::ACTIVITY_COLUMNS;
use super::schema::Shindig;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shindig.activities_by_ids",
    description: "The given activities that the person performed, in the order given",
    params: &[
        ParamSpec::required("person_id", ParamType::Int, "the person"),
        ParamSpec::required("activity_ids", ParamType::IntList, "the activities"),
    ],
    columns: ACTIVITY_COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Shindig::resolve(g)?;
    let person = s.person(p.int("person_id")?)?;
    let activities = p
        .int_list("activity_ids")?
        .into_iter()
        .map(|id| s.activity(id))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = ResultSet::new(ACTIVITY_COLUMNS);
    for activity in activities {
        if g.neighbors(activity, s.performed, Direction::In)
            .iter()
            .any(|e| e.node == person)
        {
            out.push(s.activity_row(activity));
        }
    }
    Ok(out)
}
