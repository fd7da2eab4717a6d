//! Q8: the messages of a person's inbox, newest first.

use kith_core::shindig_schema::collection;
use kith_core::{Direction, GraphView, NodeId, Value};

use super::schema::Shindig;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &[
    "id",
    "title",
    "senderId",
    "senderName",
    "timestamp",
    "status",
];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shindig.inbox",
    description: "Messages in a person's Inbox collection, newest first",
    params: &[
        ParamSpec::required("person_id", ParamType::Int, "the person"),
        ParamSpec::optional("limit", 0, "most rows to return; 0 for all"),
    ],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Shindig::resolve(g)?;
    let person = s.person(p.int("person_id")?)?;
    let limit = p.limit("limit")?;
    let inbox = g
        .neighbors(person, s.owns, Direction::Out)
        .iter()
        .map(|e| e.node)
        .filter(|c| {
            g.node_property(*c, s.title)
                .as_ref()
                .and_then(Value::as_str)
                == Some(collection::INBOX)
        })
        .min_by_key(|c| s.ext_id(*c));
    let mut out = ResultSet::new(COLUMNS);
    let Some(inbox) = inbox else {
        return Ok(out);
    };
    let mut messages: Vec<(i64, i64, NodeId)> = g
        .neighbors(inbox, s.contains, Direction::Out)
        .iter()
        .map(|e| (s.time(e.node, s.timestamp), s.ext_id(e.node), e.node))
        .collect();
    messages.sort_unstable_by_key(|m| std::cmp::Reverse((m.0, m.1)));
    messages.truncate(limit);
    for (_, id, m) in messages {
        let sender = g
            .neighbors(m, s.sent_by, Direction::Out)
            .first()
            .map(|e| e.node);
        out.push([
            Value::Int(id),
            s.prop(m, s.title),
            sender.map_or(Value::Null, |n| Value::Int(s.ext_id(n))),
            sender.map_or(Value::Null, |n| s.prop(n, s.display_name)),
            s.prop(m, s.timestamp),
            s.prop_opt(m, s.status),
        ]);
    }
    Ok(out)
}
