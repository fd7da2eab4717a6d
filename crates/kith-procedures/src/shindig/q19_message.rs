//! Q19: one message of a person, by id (a selective read).

use kith_core::{Direction, GraphView, Value};

use super::schema::Shindig;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &[
    "id",
    "title",
    "body",
    "senderId",
    "recipientId",
    "timestamp",
    "status",
    "collection",
];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shindig.message",
    description: "One message, if it is in one of the person's collections",
    params: &[
        ParamSpec::required("person_id", ParamType::Int, "the person"),
        ParamSpec::required("message_id", ParamType::Int, "the message"),
    ],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Shindig::resolve(g)?;
    let person = s.person(p.int("person_id")?)?;
    let message = s.message(p.int("message_id")?)?;
    // The collections holding the message (two at most), kept if the person owns them.
    let holder = g
        .neighbors(message, s.contains, Direction::In)
        .iter()
        .map(|e| e.node)
        .filter(|c| {
            g.neighbors(*c, s.owns, Direction::In)
                .iter()
                .any(|o| o.node == person)
        })
        .min_by_key(|c| s.ext_id(*c));
    let mut out = ResultSet::new(COLUMNS);
    if let Some(collection) = holder {
        let end = |t| {
            g.neighbors(message, t, Direction::Out)
                .first()
                .map_or(Value::Null, |e| Value::Int(s.ext_id(e.node)))
        };
        out.push([
            Value::Int(s.ext_id(message)),
            s.prop(message, s.title),
            s.prop_opt(message, s.body),
            end(s.sent_by),
            end(s.sent_to),
            s.prop(message, s.timestamp),
            s.prop_opt(message, s.status),
            s.prop(collection, s.title),
        ]);
    }
    Ok(out)
}
