//! IC2: the 20 newest messages of a person's friends, up to a date.

use kith_core::GraphView;

use super::recent::{newest_messages, COLUMNS};
use super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.ic2",
    description: "LDBC IC2: friends' newest messages created before maxDate",
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
    let friends = s.friends(person);
    Ok(newest_messages(
        &s,
        friends.iter().map(|e| e.node),
        max_date,
    ))
}
