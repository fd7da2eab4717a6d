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
    let nodes = people
        .iter()
        .map(|id| s.person(*id))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = ResultSet::new(COLUMNS);
    for (person_id, person) in people.into_iter().zip(nodes) {
        for (id, friend) in s.by_ext_id(s.friends(person).iter().map(|e| e.node)) {
            out.push(vec![
                Value::Int(person_id),
                Value::Int(id),
                s.prop(friend, s.display_name),
            ]);
        }
    }
    Ok(out)
}
