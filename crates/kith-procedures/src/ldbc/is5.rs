//! IS5: a message's creator.

use kith_core::GraphView;

use super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["personId", "firstName", "lastName"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.is5",
    description: "LDBC IS5: a message's creator",
    params: &[ParamSpec::required(
        "messageId",
        ParamType::Int,
        "the message",
    )],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let m = s.message(p.int("messageId")?)?;
    let mut out = ResultSet::new(COLUMNS);
    if let Some(creator) = s.creator(m) {
        out.push(s.person_triple(creator));
    }
    Ok(out)
}
