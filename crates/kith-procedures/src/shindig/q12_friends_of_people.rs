//! Q12: the friends of several people at once.

use kith_core::{GraphView, Value};

use super::schema::Shindig;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["personId", "id", "displayName"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shindig.friends_of_people",
    description: "Friends of each of several people, in the order given",
    params: &[ParamSpec::required(
        "person_ids",
        ParamType::IntList,
        "the people",
    )],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Shindig::resolve(g)?;
    let people = p.int_list("person_ids")?;
    let nodes = s.people(&people)?;
    let mut out = ResultSet::new(COLUMNS);
    for (person_id, person) in people.into_iter().zip(nodes) {
        for (id, name) in s.people_by_id(s.friends(person).iter().map(|e| e.node)) {
            out.push([Value::Int(person_id), Value::Int(id), name]);
        }
    }
    Ok(out)
}
