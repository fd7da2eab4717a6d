//! IS4: a message's creation date and content.

use kith_core::GraphView;

use super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["messageCreationDate", "messageContent"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.is4",
    description: "LDBC IS4: a message's creation date and content",
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
    out.push([s.date(m, s.creation_date), s.message_content(m)]);
    Ok(out)
}
