//! IS2: a person's 10 most recent messages, each with its thread's original post and
//! that post's author.

use kith_core::{GraphView, NodeId, Value};

use super::schema::Ldbc;
use crate::newest::{self, Floor};
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &[
    "messageId",
    "messageContent",
    "messageCreationDate",
    "originalPostId",
    "originalPostAuthorId",
    "originalPostAuthorFirstName",
    "originalPostAuthorLastName",
];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.is2",
    description: "LDBC IS2: a person's 10 latest messages with their original posts",
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
    // (creationDate, id, node), newest first, ties by id descending.
    let mut messages: Vec<(i64, i64, NodeId)> = Vec::new();
    let date = |m: NodeId| s.int(m, s.creation_date);
    let (newest_first, runs) = s.message_runs(person);
    let mut floor = Floor::new(10);
    for run in runs {
        newest::walk(run, newest_first, None, &mut floor, date, |e, d| {
            messages.push((d, s.ext_id(e.node), e.node));
        });
    }
    let n = messages.len().min(10);
    if n > 0 {
        messages.select_nth_unstable_by(n - 1, |a, b| b.cmp(a));
        messages.truncate(n);
        messages.sort_unstable_by(|a, b| b.cmp(a));
    }
    let mut out = ResultSet::new(COLUMNS);
    for (date, id, m) in messages {
        let post = s.root_post(m);
        let author = s.creator(post);
        let [author_id, first, last] = author
            .map_or([Value::Null, Value::Null, Value::Null], |a| {
                s.person_triple(a)
            });
        out.push([
            Value::Int(id),
            s.message_content(m),
            Value::Int(date),
            Value::Int(s.ext_id(post)),
            author_id,
            first,
            last,
        ]);
    }
    Ok(out)
}
