//! IC8: the newest replies to a person's messages.

use kith_core::{GraphView, NodeId, Value};

use super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &[
    "personId",
    "personFirstName",
    "personLastName",
    "commentCreationDate",
    "commentId",
    "commentContent",
];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.ic8",
    description: "LDBC IC8: the newest replies to a person's messages",
    params: &[ParamSpec::required(
        "personId",
        ParamType::Int,
        "the person",
    )],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let person = s.person(p.int("personId")?)?;
    let mut replies: Vec<(i64, i64, NodeId)> = Vec::new();
    for m in s.inc(person, s.has_creator) {
        for c in s.inc(m.node, s.reply_of) {
            replies.push((s.int(c.node, s.creation_date), s.ext_id(c.node), c.node));
        }
    }
    let mut out = ResultSet::new(COLUMNS);
    for (date, id, c) in super::top_k(replies, 20, |a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1))) {
        let [pid, first, last] = s
            .creator(c)
            .map_or([Value::Null, Value::Null, Value::Null], |a| {
                s.person_triple(a)
            });
        out.push([
            pid,
            first,
            last,
            Value::Int(date),
            Value::Int(id),
            s.prop(c, s.content),
        ]);
    }
    Ok(out)
}
