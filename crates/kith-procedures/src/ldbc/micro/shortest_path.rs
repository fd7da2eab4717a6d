//! S4 single-pair shortest path: the length of the shortest KNOWS path (IC13's search).

use kith_core::{GraphView, Value};

use super::super::ic13::length_between;
use super::super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["length"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "s4.shortest_path",
    description: "S4 shortest path: hops on the shortest KNOWS path, -1 when there is none",
    params: &[
        ParamSpec::required("person1Id", ParamType::Int, "one person"),
        ParamSpec::required("person2Id", ParamType::Int, "the other"),
    ],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let length = length_between(&s, p.int("person1Id")?, p.int("person2Id")?);
    let mut out = ResultSet::new(COLUMNS);
    out.push([Value::Int(length)]);
    Ok(out)
}
