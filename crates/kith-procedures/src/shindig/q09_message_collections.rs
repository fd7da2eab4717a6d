//! Q9: a person's message collections with their message counts.

use kith_core::{Direction, GraphView, Value};

use super::schema::Shindig;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["id", "title", "messageCount"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shindig.message_collections",
    description: "A person's message collections with the number of messages in each",
    params: &[ParamSpec::required(
        "person_id",
        ParamType::Int,
        "the person",
    )],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Shindig::resolve(g)?;
    let person = s.person(p.int("person_id")?)?;
    let mut out = ResultSet::new(COLUMNS);
    for (id, c) in s.targets_by_ext_id(person, s.owns) {
        let count = g.neighbors(c, s.contains, Direction::Out).len();
        out.push([Value::Int(id), s.prop(c, s.title), Value::Int(count as i64)]);
    }
    Ok(out)
}
