//! `shard.recent` (forum shard): IC2's and IC9's message side, the 20 newest messages
//! of the given persons before a date (names left to the person shard).

use kith_core::GraphView;

use super::super::recent::{newest_messages, COLUMNS};
use super::super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shard.recent",
    description: "S5 forum shard: the 20 newest messages of `persons` created before maxDate",
    params: &[
        ParamSpec::required("persons", ParamType::IntList, "person ids").long_list(),
        ParamSpec::required("maxDate", ParamType::Int, "epoch milliseconds, exclusive"),
    ],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let reach = super::persons(&s, p)?;
    let persons = reach.persons.iter().map(|(n, _)| *n);
    Ok(newest_messages(&s, persons, p.int("maxDate")?))
}
