//! IS6: the forum holding a message's thread, and its moderator.

use kith_core::{GraphView, Value};

use super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &[
    "forumId",
    "forumTitle",
    "moderatorId",
    "moderatorFirstName",
    "moderatorLastName",
];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.is6",
    description: "LDBC IS6: the forum of a message's thread and its moderator",
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
    let post = s.root_post(m);
    let mut out = ResultSet::new(COLUMNS);
    if let Some(forum) = s.inc(post, s.container_of).first().map(|e| e.node) {
        let [mid, first, last] = s
            .one_out(forum, s.has_moderator)
            .map_or([Value::Null, Value::Null, Value::Null], |m| {
                s.person_triple(m)
            });
        out.push([
            Value::Int(s.ext_id(forum)),
            s.prop(forum, s.title),
            mid,
            first,
            last,
        ]);
    }
    Ok(out)
}
