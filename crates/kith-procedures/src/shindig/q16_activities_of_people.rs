//! Q16: the activities of several people at once.

use kith_core::{Direction, GraphView};

use super::rows::ACTIVITY_COLUMNS;
use super::schema::Shindig;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shindig.activities_of_people",
    description: "Activities of each of several people, newest first per person",
    params: &[ParamSpec::required(
        "person_ids",
        ParamType::IntList,
        "the people",
    )],
    columns: ACTIVITY_COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Shindig::resolve(g)?;
    let people = p.int_list("person_ids")?;
    let nodes = s.people(&people)?;
    let mut out = ResultSet::new(ACTIVITY_COLUMNS);
    for person in nodes {
        let own = g
            .neighbors(person, s.performed, Direction::Out)
            .iter()
            .map(|e| e.node);
        for activity in s.newest_first(own) {
            out.push(s.activity_row(activity));
        }
    }
    Ok(out)
}
