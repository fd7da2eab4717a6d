//! IC7: the latest like of each person who liked a person's messages.

use kith_core::{GraphView, NodeId, Value};
use rustc_hash::FxHashMap;

use super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &[
    "personId",
    "personFirstName",
    "personLastName",
    "likeCreationDate",
    "commentOrPostId",
    "commentOrPostContent",
    "minutesLatency",
    "isNew",
];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.ic7",
    description: "LDBC IC7: recent likers of a person's messages",
    params: &[ParamSpec::required(
        "personId",
        ParamType::Int,
        "the person",
    )],
    columns: COLUMNS,
    run,
};

/// A like: (its date, the message's external id, the message).
type Like = (i64, i64, NodeId);

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let person = s.person(p.int("personId")?)?;
    // Per liker: (like date, message id, message) of the latest like; on equal dates
    // the message with the lower id.
    let mut latest: FxHashMap<NodeId, Like> = FxHashMap::default();
    for m in s.inc(person, s.has_creator) {
        let message_id = s.ext_id(m.node);
        for like in s.inc(m.node, s.likes) {
            let date = s.rel_int(like.rel, s.creation_date);
            let candidate = (date, message_id, m.node);
            latest
                .entry(like.node)
                .and_modify(|best| {
                    if candidate.0 > best.0 || (candidate.0 == best.0 && candidate.1 < best.1) {
                        *best = candidate;
                    }
                })
                .or_insert(candidate);
        }
    }
    let rows: Vec<(i64, i64, NodeId, Like)> = latest
        .into_iter()
        .map(|(liker, like)| (like.0, s.ext_id(liker), liker, like))
        .collect();
    let mut out = ResultSet::new(COLUMNS);
    for (date, _, liker, (_, message_id, m)) in
        super::top_k(rows, 20, |a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)))
    {
        let [id, first, last] = s.person_triple(liker);
        let latency_ms = date - s.int(m, s.creation_date);
        out.push([
            id,
            first,
            last,
            Value::Int(date),
            Value::Int(message_id),
            s.message_content(m),
            Value::Int(latency_ms.div_euclid(60_000)),
            Value::Bool(!s.knows_each_other(liker, person)),
        ]);
    }
    Ok(out)
}
