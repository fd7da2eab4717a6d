//! IS7: the direct replies to a message, and whether each reply's author knows the
//! message's author.

use kith_core::{GraphView, Value};

use super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &[
    "commentId",
    "commentContent",
    "commentCreationDate",
    "replyAuthorId",
    "replyAuthorFirstName",
    "replyAuthorLastName",
    "replyAuthorKnowsOriginalMessageAuthor",
];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.is7",
    description: "LDBC IS7: replies to a message and whether their authors know its author",
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
    let author = s.creator(m);
    let mut replies: Vec<(i64, i64, kith_core::NodeId, Option<kith_core::NodeId>)> = s
        .inc(m, s.reply_of)
        .iter()
        .map(|e| {
            let c = e.node;
            let a = s.creator(c);
            (
                s.int(c, s.creation_date),
                a.map_or(i64::MIN, |a| s.ext_id(a)),
                c,
                a,
            )
        })
        .collect();
    // Newest first; ties by reply author id ascending, then by comment id (not the
    // node: a sharded graph numbers its nodes differently and must answer the same).
    replies.sort_unstable_by(|x, y| {
        (y.0.cmp(&x.0).then(x.1.cmp(&y.1))).then_with(|| s.ext_id(x.2).cmp(&s.ext_id(y.2)))
    });
    let mut out = ResultSet::new(COLUMNS);
    for (date, _, c, a) in replies {
        let [aid, first, last] = a.map_or([Value::Null, Value::Null, Value::Null], |a| {
            s.person_triple(a)
        });
        let knows = match (a, author) {
            (Some(a), Some(b)) => s.knows_each_other(a, b),
            _ => false,
        };
        out.push([
            Value::Int(s.ext_id(c)),
            s.prop(c, s.content),
            Value::Int(date),
            aid,
            first,
            last,
            Value::Bool(knows),
        ]);
    }
    Ok(out)
}
