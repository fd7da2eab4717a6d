//! IC9: the 20 newest messages of a person's friends and friends of friends, before a
//! date.

use kith_core::GraphView;

use super::recent::{newest_messages, COLUMNS};
use super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.ic9",
    description: "LDBC IC9: newest messages of friends and friends of friends before maxDate",
    params: &[
        ParamSpec::required("personId", ParamType::Int, "the start person"),
        ParamSpec::required("maxDate", ParamType::Int, "epoch milliseconds, exclusive"),
    ],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let person = s.person(p.int("personId")?)?;
    let max_date = p.int("maxDate")?;
    let others = s.within_two(person);
    Ok(newest_messages(
        &s,
        others.iter().map(|(n, _)| *n),
        max_date,
    ))
}
